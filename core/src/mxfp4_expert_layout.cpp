// vLLM's and SGLang's MXFP4 routed experts (gpt-oss): what the MoE kernel keeps of each expert.
//
// vLLM: vllm/model_executor/layers/fused_moe/oracle/gpt_oss_mxfp4.py (commit 80416a17, 2026; the
// same rules in oracle/mxfp4.py at 045335ce and, before the oracle, in quantization/mxfp4.py
// create_weights at 007d5005): select_mxfp4_moe_backend picks, by priority, FlashInfer TRT-LLM
// on compute capability 10.x, AITER (CK) on ROCm, the OpenAI Triton kernels on 9.0 <= cc < 11.0
// (_triton_kernel_moe_supports_current_device: Hopper and datacenter Blackwell, not SM120), and
// Marlin elsewhere (Volta to Ada, SM120/121: "Weight-only FP4 compression will be used
// leveraging the Marlin kernel"). mxfp4_round_up_hidden_size_and_intermediate_size then pads the
// per-rank intermediate width and the hidden width before the weights are created:
//   Marlin:               intermediate to 128, hidden to 256 ("n % 256 == 0 and k % 128 == 0")
//   FlashInfer TRT-LLM:   both to 256
//   ROCm:                 both to 256 (the Triton kernels there: gfx9 and gfx11/12, not AITER's CK,
//                         which needs VLLM_ROCM_USE_AITER)
//   Triton (Hopper):      intermediate to 64, hidden as is
// After loading, convert_to_mxfp4_moe_kernel_format turns the biases to f32 on the Triton and
// TRT-LLM paths (replace_parameter: the bf16 copy is freed), and the Triton path moves swizzled
// copies of the scales into its PrecisionConfig while layer.w13_weight_scale / w2_weight_scale
// stay registered (only the values are replaced): the scales are held twice there.
//
// SGLang (Fridge003/sglang@35591c7d, 2026-04-26): server_args.py picks gpt-oss's MoE runner
// ("auto"): flashinfer_mxfp4 on compute capability 10.x and, with ep_size 1, the Triton kernels
// on the CUDA devices before it; quantization/mxfp4.py create_weights pads the per-rank
// intermediate width to 256 and the hidden width to 256 for FlashInfer, the width to 64 for the
// Triton kernels. process_weights_after_loading turns the biases to f32 on both; FlashInfer
// replaces the scales with its shuffled copy, the Triton path keeps layer.w13_weight_scale beside
// the swizzled copy in its PrecisionConfig (held twice). Not modelled: expert parallel (the runner
// stays "auto" and the weights are upcast to bf16), ROCm (AITER by an environment variable) and
// SM120, whose default moved to Marlin (PR #28231, 2026-06) and to FlashInfer's CUTLASS MXFP4
// (PR #32668, 2026-07).
//
// Each expert holds 3 x width x hidden FP4 values (half a byte each), one E8M0 scale per 32 and
// its biases (gate/up and down, bf16 in the checkpoint).
#include "mxfp4_expert_layout.h"

#include "round_up.h"

namespace llmcalc {
namespace {

// What a kernel does to each expert: pads its per-rank width and the hidden width, turns the
// biases to f32, keeps the scales twice.
struct Layout {
  int64_t width = 1;
  int64_t hidden = 1;
  bool f32_biases = false;
  bool scales_twice = false;
  bool known = false;
};

constexpr Layout kMarlin{128, 256, false, false, true};
constexpr Layout kTrtllm{256, 256, true, false, true};    // vLLM's FlashInfer TRT-LLM, SGLang's flashinfer_mxfp4
constexpr Layout kRocmTriton{256, 256, true, true, true};
constexpr Layout kTriton{64, 1, true, true, true};

Layout vllm_layout(const Hardware& device) {
  if (device.backend == "rocm") return kRocmTriton;
  if (device.backend != "cuda" || device.cuda_compute_capability <= 0) return {};
  double cc = device.cuda_compute_capability;
  if (cc >= 10.0 && cc < 11.0) return kTrtllm;
  if (cc >= 9.0 && cc < 10.0) return kTriton;
  return kMarlin;
}

Layout sglang_layout(const Hardware& device, bool expert_parallel) {
  if (device.backend != "cuda" || device.cuda_compute_capability <= 0 || expert_parallel) return {};
  double cc = device.cuda_compute_capability;
  if (cc >= 10.0 && cc < 11.0) return kTrtllm;
  return cc < 10.0 ? kTriton : Layout{};
}

// FP4 values and E8M0 scales of one expert of the given widths (gate, up and down).
int64_t values_and_scales(int64_t width, int64_t hidden) {
  int64_t elements = 3 * width * hidden;
  return elements / 2 + elements / 32;
}

}  // namespace

int64_t mxfp4_rank_expert_bytes(const std::string& engine, const LayerSpec& layer, int64_t hidden_size,
                                int64_t checkpoint_bytes, const Hardware& device, int64_t shards,
                                bool expert_parallel) {
  const MlpGeometry& mlp = layer.mlp;
  shards = shards > 0 ? shards : 1;
  int64_t fallback = checkpoint_bytes / shards;
  int64_t width = mlp.expert_intermediate;
  if (!mlp.moe || mlp.n_experts <= 0 || width <= 0 || hidden_size <= 0) return fallback;
  int64_t file_matrices = mlp.n_experts * values_and_scales(width, hidden_size);
  if (file_matrices > checkpoint_bytes) return fallback;  // not an MXFP4 expert layout
  double file_biases = static_cast<double>(checkpoint_bytes - file_matrices);

  Layout layout = engine == "vllm"     ? vllm_layout(device)
                  : engine == "sglang" ? sglang_layout(device, expert_parallel)
                                       : Layout{};
  if (!layout.known) return fallback;
  int64_t rank_experts = expert_parallel ? (mlp.n_experts + shards - 1) / shards : mlp.n_experts;
  int64_t rank_width = expert_parallel ? width : width / shards;
  int64_t padded_width = round_up(rank_width, layout.width);
  int64_t padded_hidden = round_up(hidden_size, layout.hidden);

  int64_t matrices = rank_experts * values_and_scales(padded_width, padded_hidden);
  if (layout.scales_twice) matrices += rank_experts * (3 * padded_width * padded_hidden / 32);
  // Biases follow the experts on the rank and their two widths (2 x width + hidden per expert).
  double biases = file_biases * static_cast<double>(rank_experts) / static_cast<double>(mlp.n_experts) *
                  static_cast<double>(2 * padded_width + padded_hidden) / static_cast<double>(2 * width + hidden_size);
  if (layout.f32_biases) biases *= 2.0;
  return matrices + static_cast<int64_t>(biases);
}

}  // namespace llmcalc
