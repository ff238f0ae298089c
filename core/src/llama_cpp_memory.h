// Internal: llama.cpp / Ollama (llama-server) memory: where each layer, expert tensor and cache
// row lives, the compute buffers, and the placement --fit chooses.
#pragma once

#include <cstdint>

#include "engine_memory.h"

namespace llmcalc {

struct LlamaCppInputs {
  LlamaCppInputs(const ModelSpec& m, const WeightPlan& w, const Hardware& h, const MemoryRequest& r)
      : model(m), weights(w), hardware(h), request(r) {}
  const ModelSpec& model;
  const WeightPlan& weights;
  const Hardware& hardware;
  const MemoryRequest& request;
  /// The cache at the context last measured: --fit tries many placements at one context, and
  /// the cache does not depend on where the layers go.
  mutable int64_t kv_context = -1;
  mutable KvBreakdown kv;
};

/// Memory at `context` with the placement the user's flags give (-ngl, -ts, --n-cpu-moe; all
/// layers on the GPUs by default), before --fit changes anything.
EngineTotals llama_cpp_totals(const LlamaCppInputs& in, int64_t context_tokens);

struct LlamaCppRun {
  EngineTotals totals;
  FitPlan fit;
};

/// What llama-server runs with: the placement and context --fit chooses (common/fit.cpp at
/// b10256), starting from `context_tokens`; with `context_auto` (-c not given) it may shrink the
/// context down to --fit-ctx first.
LlamaCppRun llama_cpp_run(const LlamaCppInputs& in, int64_t context_tokens, bool context_auto);

/// Whether no placement can hold the weights: with discrete GPUs llama.cpp puts every tensor on
/// one GPU or in system RAM, and a run fits only with each within its usable memory, so weights
/// beyond the GPUs' and RAM's usable memory together never fit, whatever --fit tries. Unified
/// memory and CPU-only hardware: false (no such bound is used there).
bool llama_cpp_beyond_memory(const WeightPlan& weights, const Hardware& hardware,
                             int64_t devices_usable_bytes, int64_t system_memory_bytes);

}  // namespace llmcalc
