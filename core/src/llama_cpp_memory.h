// Internal: llama.cpp / Ollama (llama-server) memory: where each layer, expert tensor and cache
// row lives, the compute buffers, and the placement --fit chooses.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine_memory.h"
#include "mmproj_memory.h"

namespace llmcalc {

/// What measure() reads of the model and the devices at every placement it tries, computed
/// once per inputs (the devices' backends and usable memory were found by comparing names at
/// every placement; issue #22).
struct LlamaCppTraits {
  int64_t ffn_live_elements = 0;   // f32 elements per ubatch token of the largest FFN live set
  bool sparse_attention = false;   // DeepSeek sparse attention (an indexer)
  int64_t max_heads = 0;           // query heads of the widest layer
  int64_t window_tokens = 0;       // the first sliding / chunked layer's window; 0 without one
  int64_t checkpoint_bytes = 0;    // one context checkpoint of one sequence
  int64_t mtp_kv_row_bytes = 0;    // one KV row of the MTP layers (the last full / MLA layer's)
  bool gpus = false;               // discrete GPUs, beside system RAM
  int64_t lazy_weights_bytes = 0;  // embedding tables read on demand (llama_cpp_lazy_bytes)
  bool cpu_only = false;
  MmprojMemory mmproj;             // a vision model's projector (zeros without one or with --no-mmproj)
  bool projector_on_host = false;  // the projector runs from system RAM (a CPU, Ollama's --no-mmproj-offload)
  /// A backend's KQ mask bytes per cell and token, and whether it is CUDA (which may receive
  /// the mask as f16 instead).
  struct Backend {
    int64_t mask_bytes = 6;
    bool cuda = false;
  };
  std::vector<Backend> device_backends;  // per device
  Backend host_backend;                  // the hardware's own (CPU-only and unified systems)
  std::vector<int64_t> usable_bytes;     // per device
};

/// Where each layer's tensors live. Device -1 is system RAM.
struct LayerPlacement {
  std::vector<int> device;           // per layer
  std::vector<double> expert_share;  // per layer: share of its routed-expert bytes kept with it
  std::vector<int> overflow;         // per layer: where the rest of its experts go
  int output_device = -1;
  int64_t gpu_slots = 0;             // slots on the GPUs: layers, MTP blocks, output (-ngl)
};

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
  mutable KvRequest kv_request;
  mutable KvBreakdown kv;                      // without its per-layer list, copied per placement
  mutable std::vector<int64_t> kv_layer_bytes;  // the cache's per-layer list
  mutable std::optional<LlamaCppTraits> traits;  // filled by the first measure()
  mutable std::optional<LayerPlacement> flags;         // the placement the user's flags give
};

/// Memory at `context` with the placement the user's flags give (-ngl, -ts, --n-cpu-moe; all
/// layers on the GPUs by default), before --fit changes anything.
EngineTotals llama_cpp_totals(const LlamaCppInputs& in, int64_t context_tokens);

/// The devices a request runs on, in the engine's order: `devices` copies of the hardware passed
/// beside it, or the ones it lists (device_hardware).
int devices_of(const MemoryRequest& request);
const Hardware& request_device(const MemoryRequest& request, const Hardware& hardware, int d);

struct LlamaCppRun {
  EngineTotals totals;
  FitPlan fit;
  int64_t ubatch_tokens = 0;  // the -ub it ran with
};

/// What llama-server runs with: the placement and context --fit chooses (common/fit.cpp at
/// b10256), starting from `context_tokens`; with `context_auto` (-c not given) it may shrink the
/// context down to --fit-ctx first, and in builds b10999..b11200 (PR #28849, reverted by #29437)
/// a unified cache starts from `context_tokens` x the slots. fit.context_tokens is one slot's,
/// fit.cache_tokens n_ctx.
LlamaCppRun llama_cpp_run(const LlamaCppInputs& in, int64_t context_tokens, bool context_auto);

/// The embedding tables llama.cpp reads on demand rather than loads: from b10653 (PRs #27794,
/// #27837, #27969), --lazy-mode auto maps the marked per-layer tables over 4 GiB and reads their
/// rows as tokens need them, wherever mmap works; from PR #28326 not on integrated GPUs (their
/// backends report no mmap support: CUDA/HIP/Vulkan iGPUs), while Metal, CPUs and discrete GPUs
/// keep it; Ollama's llama-server (b10969) too.
int64_t llama_cpp_lazy_bytes(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine);

/// The weights llama.cpp places on the devices and in system RAM: every text tensor but the
/// tables it reads on demand.
int64_t llama_cpp_placed_bytes(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine);

/// Whether no placement can hold the weights: llama.cpp puts every tensor on one device or in
/// system RAM, and a run fits only with each within its usable memory, so weights beyond the
/// GPUs' and RAM's usable memory together never fit, whatever --fit tries. Unified memory and
/// CPU-only hardware are one pool (RAM is the device's memory): weights beyond the devices'
/// usable memory never fit there.
bool llama_cpp_beyond_memory(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine,
                             int64_t devices_usable_bytes, int64_t system_memory_bytes);

}  // namespace llmcalc
