// vLLM's MXFP4 routed experts (gpt-oss): the kernel's padding of each expert.
// vllm/model_executor/layers/fused_moe/oracle/gpt_oss_mxfp4.py (commit 80416a17, 2026; the same
// rule in oracle/mxfp4.py at 045335ce and, before the oracle, in quantization/mxfp4.py
// create_weights at 007d5005): select_mxfp4_moe_backend picks, by priority, FlashInfer TRT-LLM
// on compute capability 10.x, AITER (CK) on ROCm, the OpenAI Triton kernels on 9.0 <= cc < 11.0
// (_triton_kernel_moe_supports_current_device: Hopper and datacenter Blackwell, not SM120), and
// Marlin elsewhere (Volta to Ada, SM120/121: "Weight-only FP4 compression will be used
// leveraging the Marlin kernel"). mxfp4_round_up_hidden_size_and_intermediate_size then pads the
// per-rank intermediate width and the hidden width before the weights are created:
//   Marlin:               intermediate to 128, hidden to 256 ("n % 256 == 0 and k % 128 == 0")
//   FlashInfer TRT-LLM:   both to 256
//   ROCm:                 both to 256
//   Triton (Hopper):      intermediate to 64, hidden as is
// The packed FP4 values and their E8M0 scales grow with both widths (the biases, under 0.3% of
// the experts, with one: counted with the same factor here).
#include "vllm_expert_layout.h"

namespace llmcalc {
namespace {

int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

struct Alignment {
  int64_t hidden = 1;
  int64_t intermediate = 1;
};

Alignment kernel_alignment(const Hardware& device) {
  if (device.backend == "rocm") return {256, 256};
  if (device.backend != "cuda" || device.cuda_compute_capability <= 0) return {};
  double cc = device.cuda_compute_capability;
  if (cc >= 10.0 && cc < 11.0) return {256, 256};  // FlashInfer TRT-LLM
  if (cc >= 9.0 && cc < 10.0) return {1, 64};      // Triton
  return {256, 128};                               // Marlin
}

}  // namespace

double vllm_mxfp4_expert_padding(const LayerSpec& layer, int64_t hidden_size, const Hardware& device,
                                 int64_t intermediate_shards) {
  const MlpGeometry& mlp = layer.mlp;
  if (!mlp.moe || mlp.n_experts <= 0 || mlp.expert_intermediate <= 0 || hidden_size <= 0) return 1.0;
  Alignment align = kernel_alignment(device);
  int64_t intermediate = mlp.expert_intermediate / (intermediate_shards > 0 ? intermediate_shards : 1);
  if (intermediate <= 0) return 1.0;
  double padded = static_cast<double>(round_up(hidden_size, align.hidden)) *
                  static_cast<double>(round_up(intermediate, align.intermediate));
  return padded / (static_cast<double>(hidden_size) * static_cast<double>(intermediate));
}

}  // namespace llmcalc
