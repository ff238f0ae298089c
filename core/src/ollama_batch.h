// Internal: the -b / -ub Ollama passes to llama-server when the request sets no num_batch.
#pragma once

#include <cstdint>

#include "llmcalc/hardware.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"
#include "llmcalc/weights.h"

namespace llmcalc {

/// Ollama's batch before the memory check: 512 up to 4,096 tokens of total context, 1024 up to
/// 32,768, else 2048 (server/sched.go generationBatchForContext).
int64_t ollama_context_batch(int64_t total_context);

/// Ollama's automatic generation batch (server/sched.go automaticGenerationBatch at
/// ollama/ollama@fb30760, v0.33.0-rc2, unchanged to v0.34.x): 512, 1024 or 2048 by the total
/// context (num_ctx x parallel), stepped down while Ollama's own prediction of the load leaves
/// too little of the GPUs' free memory; 512 (256 on small cards) on CUDA without flash
/// attention. `context_tokens` is one sequence's. For requests with engine.ubatch_auto (Ollama
/// without a batch of the user's).
int64_t ollama_generation_batch(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                                const MemoryRequest& request, int64_t context_tokens);

}  // namespace llmcalc
