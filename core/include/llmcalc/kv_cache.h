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

/// How an engine lays its cache out (see kv_cache.cpp for the release each one follows).
enum class KvLayout {
  llama_cpp,   // cells padded to 256 per stream, sliding layers a ring of window + ubatch cells,
               // MLA a K-only latent, DSA an indexer K cache beside it
  paged,       // vLLM / SGLang: 16-token pages, MLA latent, sliding layers hold their window
  mlx,         // mlx-lm: grows in 256-token steps, sliding layers a rotating window buffer
  contiguous,  // transformers / reads per token: exactly the tokens
};

struct KvRequest {
  // Per stream: the context of each sequence, or (llama.cpp unified) the shared pool's cells.
  int64_t context_tokens = 0;
  int64_t sequences = 1;        // sequences with their own state (llama.cpp n_seq_max, requests)
  int64_t ubatch_tokens = 512;  // llama.cpp -ub: sliding-window caches keep this much slack
  KvLayout layout = KvLayout::llama_cpp;
  // llama.cpp: all sequences share one stream of context_tokens cells (llama-server's default
  // with automatic slots); false: one stream of context_tokens cells per sequence.
  bool unified = false;
  int64_t state_copies = 1;  // recurrent states kept per sequence (speculative rollback)
};

struct KvBreakdown {
  int64_t total_bytes = 0;
  int64_t full_attention_bytes = 0;  // grows with context
  int64_t windowed_bytes = 0;        // sliding / chunked layers, capped
  int64_t latent_bytes = 0;          // MLA
  int64_t indexer_bytes = 0;         // DeepSeek sparse attention: the lightning indexer's keys
  int64_t state_bytes = 0;           // linear attention / SSM, fixed per sequence
  int64_t cells = 0;                 // cells of one full-attention layer, all streams
  int64_t bytes_per_token = 0;       // marginal bytes per extra token of context (all layers)
  std::vector<int64_t> per_layer_bytes;  // each layer's share of total_bytes
};

/// llama.cpp rounds the KV size up to 256 cells (llama-context.cpp / llama-kv-cache.cpp, n_pad).
constexpr int64_t kLlamaCppKvPadding = 256;

KvBreakdown kv_cache_bytes(const ModelSpec& model, const KvType& type, const KvRequest& request);

/// Bytes per token of one layer's sparse-attention index-key cache (0 without an indexer).
int64_t indexer_row_bytes(const AttentionGeometry& attention, const KvType& type, KvLayout layout);

/// Bytes one cached token takes in one layer of this geometry (no padding, no windows): what a
/// decode step reads per attended token. Recurrent layers: 0.
int64_t kv_row_bytes(const ModelSpec& model, const AttentionGeometry& attention, const KvType& type,
                     KvLayout layout);

}  // namespace llmcalc
