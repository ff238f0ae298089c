// vLLM's MXFP4 routed experts (gpt-oss): what the MoE kernel keeps of each expert.
// vllm/model_executor/layers/fused_moe/oracle/gpt_oss_mxfp4.py (commit 80416a17, 2026; the same
// rules in oracle/mxfp4.py at 045335ce and, before the oracle, in quantization/mxfp4.py
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
// Each expert holds 3 x width x hidden FP4 values (half a byte each), one E8M0 scale per 32 and
// its biases (gate/up and down, bf16 in the checkpoint). After loading, convert_to_mxfp4_moe_
// kernel_format turns the biases to f32 on the Triton and TRT-LLM paths (replace_parameter: the
// bf16 copy is freed), and the Triton path moves swizzled copies of the scales into its
// PrecisionConfig while layer.w13_weight_scale / w2_weight_scale stay registered (only the
// values are replaced): the scales are held twice there.
#include "vllm_expert_layout.h"

namespace llmcalc {
namespace {

int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

enum class MoeKernel { unknown, marlin, triton, trtllm, rocm };

MoeKernel kernel_for(const Hardware& device) {
  if (device.backend == "rocm") return MoeKernel::rocm;
  if (device.backend != "cuda" || device.cuda_compute_capability <= 0) return MoeKernel::unknown;
  double cc = device.cuda_compute_capability;
  if (cc >= 10.0 && cc < 11.0) return MoeKernel::trtllm;
  if (cc >= 9.0 && cc < 10.0) return MoeKernel::triton;
  return MoeKernel::marlin;
}

struct Alignment {
  int64_t hidden = 1;
  int64_t width = 1;
};

Alignment alignment_of(MoeKernel kernel) {
  switch (kernel) {
    case MoeKernel::marlin: return {256, 128};
    case MoeKernel::trtllm:
    case MoeKernel::rocm: return {256, 256};
    case MoeKernel::triton: return {1, 64};
    case MoeKernel::unknown: break;
  }
  return {};
}

// FP4 values and E8M0 scales of one expert of the given widths (gate, up and down).
int64_t values_and_scales(int64_t width, int64_t hidden) {
  int64_t elements = 3 * width * hidden;
  return elements / 2 + elements / 32;
}

}  // namespace

int64_t vllm_mxfp4_rank_expert_bytes(const LayerSpec& layer, int64_t hidden_size, int64_t checkpoint_bytes,
                                     const Hardware& device, int64_t shards, bool expert_parallel) {
  const MlpGeometry& mlp = layer.mlp;
  shards = shards > 0 ? shards : 1;
  int64_t fallback = checkpoint_bytes / shards;
  int64_t width = mlp.expert_intermediate;
  if (!mlp.moe || mlp.n_experts <= 0 || width <= 0 || hidden_size <= 0) return fallback;
  int64_t file_matrices = mlp.n_experts * values_and_scales(width, hidden_size);
  if (file_matrices > checkpoint_bytes) return fallback;  // not an MXFP4 expert layout
  double file_biases = static_cast<double>(checkpoint_bytes - file_matrices);

  MoeKernel kernel = kernel_for(device);
  Alignment align = alignment_of(kernel);
  int64_t rank_experts = expert_parallel ? (mlp.n_experts + shards - 1) / shards : mlp.n_experts;
  int64_t rank_width = expert_parallel ? width : width / shards;
  int64_t padded_width = round_up(rank_width, align.width);
  int64_t padded_hidden = round_up(hidden_size, align.hidden);

  int64_t matrices = rank_experts * values_and_scales(padded_width, padded_hidden);
  bool triton = kernel == MoeKernel::triton || kernel == MoeKernel::rocm;
  if (triton) matrices += rank_experts * (3 * padded_width * padded_hidden / 32);
  // Biases follow the experts on the rank and their two widths (2 x width + hidden per expert).
  double biases = file_biases * static_cast<double>(rank_experts) / static_cast<double>(mlp.n_experts) *
                  static_cast<double>(2 * padded_width + padded_hidden) / static_cast<double>(2 * width + hidden_size);
  if (triton || kernel == MoeKernel::trtllm) biases *= 2.0;  // f32
  return matrices + static_cast<int64_t>(biases);
}

}  // namespace llmcalc
