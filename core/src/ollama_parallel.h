// Internal: the model families Ollama serves one request at a time whatever OLLAMA_NUM_PARALLEL
// says (see ollama_parallel.cpp for the source).
#pragma once

#include "llmcalc/model.h"

namespace llmcalc {

/// True where Ollama's scheduler sets num_parallel to 1 for the model's architecture.
bool ollama_forces_one_sequence(const ModelSpec& model);

}  // namespace llmcalc
