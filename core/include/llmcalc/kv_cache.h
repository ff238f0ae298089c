// KV cache and recurrent state bytes for every attention kind, as each engine allocates them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmcalc/model.h"

namespace llmcalc {

/// Cache element storage: bytes per `block_elements` elements.
struct KvType {
  std::string name;
  int64_t block_elements;
  int64_t block_bytes;
};

/// "f16", "bf16", "fp8", "q8_0", "q4_0"; nullopt for anything else.
std::optional<KvType> find_kv_type(const std::string& name);

struct KvRequest {
  int64_t context_tokens = 0;  // per sequence
  int64_t sequences = 1;       // parallel sequences (llama.cpp -np, vLLM concurrent requests)
  int64_t ubatch_tokens = 512; // llama.cpp -ub: sliding-window caches keep this much slack
  bool llama_cpp_layout = true;  // llama.cpp cells (padded, SWA slack); false: vLLM-style pages
};

struct KvBreakdown {
  int64_t total_bytes = 0;
  int64_t full_attention_bytes = 0;  // grows with context
  int64_t windowed_bytes = 0;        // sliding / chunked layers, capped
  int64_t latent_bytes = 0;          // MLA
  int64_t state_bytes = 0;           // linear attention / SSM, fixed per sequence
  int64_t cells = 0;                 // llama.cpp: KV cells of the full-attention cache
  int64_t bytes_per_token = 0;       // marginal bytes per extra token of context (all layers)
  std::vector<int64_t> per_layer_bytes;  // each layer's share of total_bytes
};

/// llama.cpp rounds the KV size up to 256 cells (llama-context.cpp / llama-kv-cache.cpp, n_pad).
constexpr int64_t kLlamaCppKvPadding = 256;

KvBreakdown kv_cache_bytes(const ModelSpec& model, const KvType& type, const KvRequest& request);

}  // namespace llmcalc
