// Ollama's projector rules (llm/llama_server.go at ollama/ollama@fb3076099, v0.33.0-rc2; in every
// release from v0.31.2 to the v0.34.x modelled, data/engines.json rule `ollama_mmproj_offload`):
// - shouldDisableMMProjOffload: --no-mmproj-offload (the projector on the CPU) when num_gpu is 0,
//   when num_gpu is set below the model's layers + 1 ("partial-text-offload", PR #16866), or when
//   any GPU has less free memory than the projector's tensors + 1 GiB ("limited-vram").
// - extraEnvsForStart / mmprojFitTargetMiB (PR #16996, 2026-07): with the projector offloaded and
//   no LLAMA_ARG_FIT_TARGET of the user's, Ollama sets LLAMA_ARG_FIT_TARGET to the projector's
//   tensors + 1 GiB, rounded up to a MiB, for every GPU. llama-server then adds the projector and
//   its warm-up buffer on the projector's device itself (PR #21489), so that GPU keeps the tensors
//   twice over free beside the buffer and the 1 GiB.
#include "ollama_mmproj.h"

#include "llmcalc/hardware.h"

namespace llmcalc {

namespace {

constexpr int64_t kOffloadHeadroomBytes = int64_t{1} << 30;  // mmprojOffloadHeadroom

}  // namespace

OllamaProjectorPlan ollama_projector_plan(const MemoryRequest& request, const std::vector<int64_t>& free_bytes,
                                          int64_t blocks, int64_t projector_weights_bytes) {
  OllamaProjectorPlan plan;
  if (projector_weights_bytes <= 0) return plan;
  const int64_t required = projector_weights_bytes + kOffloadHeadroomBytes;
  bool partial = request.gpu_layers >= 0 && request.gpu_layers < blocks + 1;
  bool limited = free_bytes.empty();
  for (int64_t free : free_bytes) limited = limited || free < required;
  plan.on_host = partial || limited;
  // A margin of the user's (LLAMA_ARG_FIT_TARGET in Ollama's environment) is left as given.
  bool own_margin = request.engine.fit_target_bytes == EngineSettings{}.fit_target_bytes;
  if (!plan.on_host && own_margin) plan.fit_target_bytes = (required + kMiB - 1) / kMiB * kMiB;
  return plan;
}

}  // namespace llmcalc
