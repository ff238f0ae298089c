// Internal: how the paged servers pool DeepSeek V4's compressed attention (layers with a
// compress_ratio: a 128-token window on every layer, compressed rows every 4 (CSA, with indexer
// keys) or 128 (HCA) tokens, and the compressors' f32 state).
#pragma once

#include <cstdint>

#include "llmcalc/model.h"

namespace llmcalc {

/// Whether layers [first, last) hold compressed attention.
bool has_compressed_attention(const ModelSpec& model, int64_t first, int64_t last);

/// vLLM (PR #40860 DeepSeek V4 support; PR #48993 packed group layout): one pool of blocks, each a
/// slab as large as the largest KV-cache group's pages; a block holds 256 tokens of the
/// compressed latents and indexer keys, 64 of the window, 4 or 8 of a compressor's state.
struct VllmCompressedPool {
  int64_t slab_bytes = 0;           // one block: the largest group's summed pages
  int64_t latent_group_bytes = 0;   // compressed latents + indexer keys, 256 tokens
  int64_t window_group_bytes = 0;   // one of the two window groups, 64 tokens
  int64_t csa_state_group_bytes = 0;   // CSA compressor + indexer-compressor states, 4 tokens
  int64_t hca_state_group_bytes = 0;   // HCA compressor states, 8 tokens
};
VllmCompressedPool vllm_compressed_pool(const ModelSpec& model, int64_t first, int64_t last);

/// Blocks a request of `context` tokens holds while decoding (its latent blocks, the windows'
/// and states' last blocks), and the extra blocks the `chunk_tokens` in flight take in the window
/// and state groups before they are trimmed. `window`: the layers' sliding window.
int64_t vllm_decode_blocks(int64_t context, int64_t window);
int64_t vllm_chunk_blocks(int64_t chunk_tokens, int64_t window);

/// SGLang's bytes per "full token" (python/sglang/srt/model_executor/memory_profiler.py,
/// DSv4MemoryCalculator): window, compressed rows, indexer keys and the compressors' state rings,
/// over `entries` compress_ratios entries (the model's layers and its MTP layer).
double sglang_bytes_per_full_token(const ModelSpec& model, int64_t first, int64_t last, int64_t entries);

}  // namespace llmcalc
