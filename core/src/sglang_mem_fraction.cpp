// SGLang's default --mem-fraction-static, as main resolves it at 031ed82d (autumn 2026, after
// v0.5.20; python/sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings and
// reserve_for_graph_mb, and the prefill-graph rules of cuda_graph_hook.py):
//   fraction = round((capacity - reserve) / capacity, 3), capacity the GPU's memory in MiB,
//   reserve = 512 + 1.5 x max(chunked prefill, 2048) + tp x pp / 8 x 1024 + graphs (MB),
//   at least 10 GiB on GPUs over 60 GiB.
// The chunked-prefill size and the decode CUDA-graph batch come from the GPU's memory tier (the
// 20-35 GiB tier raised to 4,096 and 48 by PR #37898). The graphs' share: 2 MB per decode batch
// slot (and 3, plus 1.5 above 300 slots, per slot and data-parallel attention rank), and the
// prefill graph, breakable by default since PR #29458: 8 MB per captured token bucket, or
// 1.5 GiB on an MLA model, whose buckets stop at 2,048 tokens. SGLang turns the prefill graph off
// for pipeline parallelism, Kimi Delta Attention, DeepSeek V4 and multimodal models outside its
// allowlists (modelled: every multimodal model). Then multimodal models keep 0.95 x a factor of
// their vision tower's size. Not modelled: the allowlists of multimodal architectures that keep a
// prefill graph, the Qwen3-VL decode-batch expansion, DeepSeek V3's trtllm_mla override on
// Blackwell, DeepEP buffers, the post-capture sizing (SGLANG_ENABLE_POST_CAPTURE_KV_SIZING, off
// by default) and ROCm's aiter attention, which keeps 0.85 x the fraction for contexts over 8,192
// tokens (attention_hook.py handle_attention_backend_compatibility).
#include "sglang_mem_fraction.h"

#include <algorithm>
#include <cmath>

namespace llmcalc {
namespace {

constexpr double kMiBPerGiB = 1024;

struct MemoryTier {
  int64_t chunked_prefill = 0;
  int64_t decode_graph_batch = 0;
};

// handle_gpu_memory_settings' tiers by capacity (MiB) and --tp.
MemoryTier memory_tier(double capacity_mib, int64_t tp) {
  const double gib = capacity_mib / kMiBPerGiB;
  const bool small_tp = tp < 4;
  if (gib < 20) return {2048, 8};
  if (gib < 35) return {4096, small_tp ? 48 : 160};
  if (gib < 60) return {4096, small_tp ? 32 : 160};
  if (gib < 160) return {8192, small_tp ? 256 : 512};
  return {16384, 512};
}

// generate_prefill_cuda_graph_batch_sizes: token buckets 4-32 by 4, 48-256 by 16, 288-512 by
// 32, 576-1,024 by 64, 1,280-4,096 by 256, then by 512 up to `max_tokens`.
int64_t prefill_graph_buckets(int64_t max_tokens) {
  struct Run {
    int64_t first, last, step;
  };
  const Run runs[] = {{4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 4096, 256}, {4608, max_tokens, 512}};
  int64_t buckets = 0;
  for (const Run& run : runs) {
    const int64_t last = std::min(run.last, max_tokens);
    if (last >= run.first) buckets += (last - run.first) / run.step + 1;
  }
  return buckets;
}

bool uses_mla(const ModelSpec& model) {
  return std::any_of(model.layers.begin(), model.layers.end(),
                     [](const LayerSpec& layer) { return layer.attention.kind == AttentionKind::mla; });
}

// ModelConfig.is_multimodal with multimodal left on: a vision tower, except the architectures
// SGLang serves text-only unless --enable-multimodal is given (Gemma 3, Llama 4).
bool served_multimodal(const ModelSpec& model) {
  return !model.vision_kind.empty() && model.vision_kind != "siglip" && model.vision_kind != "llama4";
}

// adjust_mem_fraction_for_vlm: 0.95 x (1 - 0.1 x (layers x width^2 / (24 x 1,024^2) - 1)),
// the factor kept within 0.8-1.05; a config without those names counts as 24 x 1,024 (ViT-L).
double vlm_factor(const ModelSpec& model) {
  const double layers = model.vision_named_layers > 0 ? static_cast<double>(model.vision_named_layers) : 24.0;
  const double width = model.vision_named_hidden > 0 ? static_cast<double>(model.vision_named_hidden) : 1024.0;
  const double complexity = layers * width * width / (24.0 * 1024.0 * 1024.0);
  return 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
}

}  // namespace

double sglang_default_mem_fraction(const ModelSpec& model, const Hardware& hardware, const ParallelPlan& plan) {
  // get_device_memory_capacity: the total torch reports for the device.
  const int64_t total = hardware.driver_total_bytes > 0 ? hardware.driver_total_bytes : hardware.memory_bytes;
  const double capacity = static_cast<double>(total) / static_cast<double>(kMiB);
  const int64_t tp = plan.tensor * plan.data;
  const int64_t pp = plan.pipeline;
  const int64_t dp = plan.data;
  const MemoryTier tier = memory_tier(capacity, tp);
  const bool mla = uses_mla(model);
  const bool multimodal = served_multimodal(model);

  double graphs = 2.0 * static_cast<double>(tier.decode_graph_batch);
  if (dp > 1) {
    graphs += 3.0 * static_cast<double>(tier.decode_graph_batch * dp);
    if (tier.decode_graph_batch > 300) graphs += 1.5 * static_cast<double>(tier.decode_graph_batch * dp);
  }
  const bool prefill_graph = pp == 1 && model.model_type != "kimi_linear" && model.model_type != "deepseek_v4" && !multimodal;
  if (prefill_graph) {
    graphs += mla ? 1.5 * 1024 : 8.0 * static_cast<double>(prefill_graph_buckets(tier.chunked_prefill));
  }
  double reserve = 512 + 1.5 * static_cast<double>(std::max<int64_t>(tier.chunked_prefill, 2048)) +
                   static_cast<double>(tp * pp) / 8.0 * 1024 + graphs;
  if (capacity > 60 * kMiBPerGiB) reserve = std::max(reserve, 10 * kMiBPerGiB);
  double fraction = std::round((capacity - reserve) / capacity * 1000.0) / 1000.0;
  if (multimodal) fraction *= vlm_factor(model);
  return fraction;
}

}  // namespace llmcalc
