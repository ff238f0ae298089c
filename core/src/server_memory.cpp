// vLLM V1 and SGLang memory.
// vLLM (v0.21 and later; vllm/v1/worker/gpu_worker.py determine_available_memory): the KV pool
// is gpu_memory_utilization x the total the driver reports, less the weights, the activation
// peak of a profiling run over max_num_batched_tokens tokens (with its sampler logits for
// max_num_seqs requests, bf16 plus an f32 copy), the growth of non-torch memory and, since v0.21
// (PR #38284), the estimated CUDA-graph memory; the default utilization rose to 0.92 there.
// SGLang (server_args.py, v0.5.14-0.5.16): mem_fraction_static of the free memory before the
// weights load covers weights and KV pool; the rest holds activations and CUDA graphs. Sliding
// layers get 0.8 x the full layers' tokens (PR #22389, --swa-full-tokens-ratio).
// Both: one KV page per 16 tokens; tensor parallel splits KV heads across ranks, but an MLA
// latent (one head) is stored whole on every rank, as is a KV head shared by several ranks.
#include "server_memory.h"

#include <algorithm>
#include <cmath>

namespace llmcalc {
namespace {

constexpr int64_t kPageTokens = 16;
constexpr int64_t kNonTorchBytes = 100 * kMiB;   // "non_torch" growth during profiling (0.07-0.2 GiB)
constexpr int64_t kCudaGraphBytes = 400 * kMiB;  // "Estimated CUDA graph memory: 0.14-0.55 GiB total"
constexpr double kSwaFullTokensRatio = 0.8;      // SGLang --swa-full-tokens-ratio default

int64_t tensor_parallel(const MemoryRequest& request) { return std::max<int64_t>(1, request.devices); }

int64_t max_ffn_width(const ModelSpec& model) {
  int64_t width = 0;
  for (const LayerSpec& layer : model.layers) {
    width = std::max(width, layer.mlp.intermediate);
    width = std::max(width, layer.mlp.shared_intermediate);
    width = std::max(width, layer.mlp.expert_intermediate * layer.mlp.n_experts_active);
  }
  return width;
}

// One layer's KV geometry on one rank: KV heads split across ranks (at least one each).
AttentionGeometry rank_share(const AttentionGeometry& a, int64_t ranks) {
  AttentionGeometry share = a;
  if (a.kind != AttentionKind::mla && a.n_kv_heads > 0) {
    share.n_kv_heads = std::max<int64_t>(1, (a.n_kv_heads + ranks - 1) / ranks);
  }
  return share;
}

struct PoolShape {
  int64_t per_token = 0;       // bytes per full-context token, one rank
  int64_t window = 0;          // sliding layers, one rank, all sequences
  int64_t state = 0;           // recurrent state, one rank, all sequences
  int64_t swa_per_token = 0;   // sliding layers' bytes per token (SGLang's SWA pool)
};

PoolShape pool_shape(const ModelSpec& model, const MemoryRequest& request, int64_t context) {
  int64_t ranks = tensor_parallel(request);
  int64_t sequences = std::max<int64_t>(1, request.sequences);
  PoolShape shape;
  for (const LayerSpec& layer : model.layers) {
    AttentionGeometry a = rank_share(layer.attention, ranks);
    int64_t row = kv_row_bytes(model, a, request.kv_type, KvLayout::paged);
    if (a.indexer_head_dim > 0) row += a.indexer_head_dim + 4 * ((a.indexer_head_dim + 127) / 128);
    switch (a.kind) {
      case AttentionKind::full:
      case AttentionKind::mla: shape.per_token += row; break;
      case AttentionKind::sliding:
      case AttentionKind::chunked:
        shape.window += row * std::min(context, a.window_tokens) * sequences;
        shape.swa_per_token += row;
        break;
      default: break;
    }
    shape.state += (a.state_elements_per_seq * 4 + ranks - 1) / ranks * sequences;
  }
  return shape;
}

// The profiling run's torch peak on one rank: bf16 gate/up, activation and residual tensors of
// max_num_batched_tokens tokens, (6 x ffn / tp + 6 x hidden) bytes per token, and the sampler's
// run on min(max_num_seqs, tokens) requests (gpu_model_runner.py _dummy_sampler_run, which sets
// top-k and top-p for the worst case): bf16 logits, their f32 copy and the top-k/top-p sort's
// f32 values and int64 indices, 18 bytes per vocabulary entry.
int64_t activation_peak(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request) {
  const EngineSettings& engine = request.engine;
  int64_t tokens = engine.max_num_batched_tokens > 0 ? engine.max_num_batched_tokens
                                                     : vllm_default_batched_tokens(hardware);
  int64_t seqs = engine.max_num_seqs > 0 ? engine.max_num_seqs : vllm_default_max_seqs(hardware);
  int64_t ranks = tensor_parallel(request);
  return tokens * (6 * max_ffn_width(model) / ranks + 6 * model.hidden_size) +
         std::min(seqs, tokens) * model.vocab_size * 18;
}

}  // namespace

int64_t vllm_default_batched_tokens(const Hardware& hardware) {
  // `vllm serve`: 8192 on GPUs with 70 GiB or more other than the A100 (PR #17885), raised to
  // 16384 by PR #51726 (2026-08); 2048 elsewhere.
  bool large = hardware.memory_bytes >= 70 * kGiB && hardware.name.find("A100") == std::string::npos;
  return large ? 16384 : 2048;
}

int64_t vllm_default_max_seqs(const Hardware& hardware) {
  bool large = hardware.memory_bytes >= 70 * kGiB && hardware.name.find("A100") == std::string::npos;
  return large ? 1024 : 256;
}

double sglang_default_mem_fraction(const Hardware& hardware, int64_t tp) {
  // Reserve in MB from the chunked-prefill size and CUDA-graph batch of the GPU's memory tier,
  // at least 10 GiB on GPUs over 60 GB.
  double capacity_mb = static_cast<double>(hardware.memory_bytes) / static_cast<double>(kMiB);
  double gib = capacity_mb / 1024.0;
  double chunk = 16384;
  double graph_bs = 512;
  if (gib < 20) {
    chunk = 2048;
    graph_bs = 8;
  } else if (gib < 35) {
    chunk = 2048;
    graph_bs = tp < 4 ? 24 : 80;
  } else if (gib < 60) {
    chunk = 4096;
    graph_bs = tp < 4 ? 32 : 160;
  } else if (gib < 160) {
    chunk = 8192;
    graph_bs = tp < 4 ? 256 : 512;
  }
  double reserved = 512 + 1.5 * chunk + static_cast<double>(tp) / 8.0 * 1024 + 2 * graph_bs;
  if (gib > 60) reserved = std::max(reserved, 10.0 * 1024);
  return std::round((capacity_mb - reserved) / capacity_mb * 1000.0) / 1000.0;
}

ServerPool server_pool(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                       const MemoryRequest& request, int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  int64_t ranks = tensor_parallel(request);
  PoolShape shape = pool_shape(model, request, context_tokens);
  int64_t weights_per_rank = weights.total_bytes / ranks;
  ServerPool pool;
  pool.fixed_bytes = shape.window + shape.state;
  pool.bytes_per_token = shape.per_token;
  if (engine.engine == "sglang") {
    // SGLang: the sliding pool holds 0.8 x the full pool's tokens beside it.
    pool.bytes_per_token += static_cast<int64_t>(kSwaFullTokensRatio * static_cast<double>(shape.swa_per_token));
    pool.fixed_bytes = shape.state;
    double total = static_cast<double>(usable_memory_bytes(hardware, engine));
    double fraction = engine.mem_fraction_static;
    pool.pool_bytes = static_cast<int64_t>(fraction * total) - weights_per_rank - pool.fixed_bytes;
  } else if (engine.kv_cache_memory_bytes > 0) {
    pool.pool_bytes = engine.kv_cache_memory_bytes - pool.fixed_bytes;
  } else {
    pool.pool_bytes = usable_memory_bytes(hardware, engine) - weights_per_rank -
                      activation_peak(model, hardware, request) - kNonTorchBytes - kCudaGraphBytes -
                      pool.fixed_bytes;
  }
  pool.pool_bytes = std::max<int64_t>(0, pool.pool_bytes);
  return pool;
}

EngineTotals server_totals(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                           const MemoryRequest& request, int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  EngineTotals t;
  int64_t ranks = tensor_parallel(request);
  int64_t paged = (context_tokens + kPageTokens - 1) / kPageTokens * kPageTokens;
  t.kv = kv_cache_bytes(model, request.kv_type, engine_kv_request(request, context_tokens));
  PoolShape shape = pool_shape(model, request, paged);
  int64_t sequences = std::max<int64_t>(1, request.sequences);
  int64_t usable = usable_memory_bytes(hardware, engine);
  DeviceMemory share;
  share.weights_bytes = weights.total_bytes / ranks;
  share.kv_cache_bytes = shape.per_token * paged * sequences + shape.window + shape.state;
  if (engine.engine == "sglang") {
    // Activations and graphs live in the (1 - mem_fraction_static) share.
    share.compute_bytes = static_cast<int64_t>((1.0 - engine.mem_fraction_static) * static_cast<double>(usable));
  } else {
    share.compute_bytes = activation_peak(model, hardware, request);
    t.runtime = (kNonTorchBytes + kCudaGraphBytes) * ranks;
  }
  share.total_bytes = share.weights_bytes + share.kv_cache_bytes + share.compute_bytes + t.runtime / ranks;
  share.usable_bytes = usable;
  share.layers = model.n_layers;
  t.compute = share.compute_bytes * ranks;
  t.devices.assign(static_cast<std::size_t>(ranks), share);
  t.host = DeviceMemory{};
  finish_totals(t, false);
  return t;
}

}  // namespace llmcalc
