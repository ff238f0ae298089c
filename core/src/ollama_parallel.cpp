#include "ollama_parallel.h"

namespace llmcalc {

// server/sched.go (ollama/ollama@fb3076099, v0.33.0-rc2, lines 497-509; the same list on main of
// 2026-10-02 by a third party's audit, search-index file id 70177773597): after reading
// OLLAMA_NUM_PARALLEL, the scheduler sets num_parallel back to 1 ("model architecture does not
// currently support parallel requests") for the GGUF architectures mllama, qwen3vl, qwen3vlmoe,
// qwen35, qwen35moe, qwen3next, lfm2, lfm2moe, nemotron_h, nemotron_h_moe and nemotron_h_omni.
// Here those files read as Qwen3-Next's hybrid (Qwen3.5 to 3.8 and Qwen3-Next, gguf_config.cpp),
// LFM2 and its MoE, Nemotron-H (every Nemotron-H, Nano 2 and Nemotron 3 model), and Qwen3-VL,
// whose text model reads as Qwen3 or Qwen3-MoE with a Qwen3-VL tower (arch_config.cpp).
// Llama 3.2 Vision (mllama) is not a family here.
bool ollama_forces_one_sequence(const ModelSpec& model) {
  const std::string& type = model.model_type;
  return type == "qwen3_next" || type == "lfm2" || type == "lfm2_moe" || type == "nemotron_h" ||
         model.vision_kind == "qwen3_vl";
}

}  // namespace llmcalc
