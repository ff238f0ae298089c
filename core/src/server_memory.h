// Internal: vLLM (V1) and SGLang memory: the budget each engine gives its KV pool.
#pragma once

#include <cstdint>

#include "engine_memory.h"

namespace llmcalc {

/// Per device at `context_tokens` x sequences: weights, the KV those sequences need, the
/// activation peak and runtime (CUDA graphs, non-torch memory), against the engine's budget.
EngineTotals server_totals(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                           const MemoryRequest& request, int64_t context_tokens);

/// Bytes the KV pool on one device can give, and what one more token of context costs there
/// (tensor parallel shards KV heads, never an MLA latent or a head shared by several ranks), on
/// the rank whose pool holds the fewest tokens (pipeline stages differ).
struct ServerPool {
  int64_t pool_bytes = 0;           // per device
  int64_t bytes_per_token = 0;      // per device
  int64_t fixed_bytes = 0;          // per device: recurrent states and sliding windows
  int64_t max_requests = 0;         // per replica; 0: no cap but the pool's (SGLang's state slots)
  int64_t total_pool_bytes = 0;     // every rank's pool
  int64_t replicas = 1;             // data-parallel replicas, each with its own pool of tokens
  // vLLM with DeepSeek V4's compressed attention: the pool is counted in blocks of slab_bytes, of
  // which each decoding request holds blocks_per_request (compressed_kv_pool.h).
  int64_t slab_bytes = 0;
  int64_t blocks_per_request = 0;
  // vLLM with sliding-window layers: the bytes one request at the context holds (full layers for
  // the context, sliding layers for their window and a prompt batch); 0 otherwise.
  int64_t request_bytes = 0;
};
ServerPool server_pool(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                       const MemoryRequest& request, int64_t context_tokens);

/// The MTP drafter's weights vLLM and SGLang keep with request mtp (its own embedding and head
/// shared with the model's), 0 otherwise.
int64_t server_drafter_bytes(const ModelSpec& model, const WeightPlan& weights, const MemoryRequest& request);

/// vLLM's defaults by GPU class (engine/arg_utils.py _set_default_args, `vllm serve`):
/// max_num_batched_tokens and max_num_seqs.
int64_t vllm_default_batched_tokens(const Hardware& hardware);
int64_t vllm_default_max_seqs(const Hardware& hardware);

}  // namespace llmcalc
