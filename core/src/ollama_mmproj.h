// Internal: where Ollama puts a vision model's projector, and the --fit margin it asks of
// llama-server for it (see ollama_mmproj.cpp for the sources).
#pragma once

#include <cstdint>
#include <vector>

#include "llmcalc/memory.h"

namespace llmcalc {

struct OllamaProjectorPlan {
  bool on_host = false;          // Ollama passes --no-mmproj-offload: the projector runs from RAM
  int64_t fit_target_bytes = 0;  // the LLAMA_ARG_FIT_TARGET Ollama sets; 0 where it sets none
};

/// Ollama's projector settings for a model with `blocks` layers whose projector's tensors take
/// `projector_weights_bytes`, on GPUs with `free_bytes` each.
OllamaProjectorPlan ollama_projector_plan(const MemoryRequest& request, const std::vector<int64_t>& free_bytes,
                                          int64_t blocks, int64_t projector_weights_bytes);

}  // namespace llmcalc
