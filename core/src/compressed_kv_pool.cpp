// DeepSeek V4's compressed attention in the paged servers' pools.
//
// vLLM (DeepSeek V4 since PR #40860, 2026-04-26, v0.20; files read at 4d51588e:
// vllm/model_executor/layers/deepseek_v4_attention.py, deepseek_compressor.py,
// v1/attention/backends/mla/sparse_swa.py, v1/kv_cache_interface.py, v1/core/kv_cache_utils.py).
// The cache is fp8_ds_mla whatever --kv-cache-dtype says: a row of 448 fp8 NoPE values, 64 bf16
// RoPE values, 7 scale bytes and a pad byte (584 B). Every page is aligned to 576 B. Layers
// register: the compressed latent (256 / ratio rows a 256-token block), the indexer's keys (128
// fp8 + a 4-byte scale) on CSA layers, a 64-token window page on every layer, and the f32
// compressor states (CSA: 2 x 2 x head_dim wide, block 4; its indexer's 2 x 2 x index_head_dim;
// HCA: 2 x head_dim, block 8). Grouped: all latents and indexer keys; the windows in two groups
// (22 + 21 layers for Flash, as issue #54703's table shows); the CSA states; the HCA states. PR
// #48993 lays every group's pages end to end in one slab per block and overlays the groups, so a
// block costs the largest group's sum whichever group holds it.
//
// SGLang (DeepSeek V4 branch, memory_profiler.py DSv4MemoryCalculator, 2026-04-24): one full token
// costs its compressed rows (584 B / ratio), indexer keys (132 B / 4), a window pool of 0.1 full
// tokens per layer and entry (swa_full_tokens_ratio forced to 0.1), and state rings sized per
// 128 window tokens: 8 rows of CSA state, 128 of HCA state (f32 pairs of head_dim, overlapped x2
// on CSA), 8 of indexer state.
#include "compressed_kv_pool.h"

#include <algorithm>

namespace llmcalc {
namespace {

constexpr int64_t kLatentBlock = 256;   // --block-size 256 (every DeepSeek V4 recipe)
constexpr int64_t kWindowBlock = 64;    // DeepseekV4SWACache block_size
constexpr int64_t kCsaStateBlock = 4;   // CompressorStateCache: block 4 for ratio 4
constexpr int64_t kHcaStateBlock = 8;   // and 8 for ratio 128
constexpr int64_t kPageAlignment = 576;
constexpr double kSglangWindowRatio = 0.1;

int64_t align_page(int64_t bytes) { return (bytes + kPageAlignment - 1) / kPageAlignment * kPageAlignment; }

// fp8_ds_mla: fp8 NoPE part, bf16 RoPE part, one scale byte per 64 NoPE values, one pad byte.
int64_t ds_mla_row(const AttentionGeometry& a) {
  int64_t nope = a.head_dim_k - a.qk_rope_head_dim;
  return nope + 2 * a.qk_rope_head_dim + nope / 64 + 1;
}

int64_t indexer_row(const AttentionGeometry& a) { return a.compressed_indexer_dim + 4; }

// Tokens a sliding-window group keeps in blocks, window - 1 + `tokens` positions, plus one block
// (kv_cache_interface.py SlidingWindowSpec max_memory_usage_bytes).
int64_t window_blocks(int64_t window, int64_t tokens, int64_t block) {
  return (window - 1 + tokens + block - 1) / block + 1;
}

// Blocks of the window and state groups for `tokens` in flight: the window in blocks of 64 (two
// groups), the CSA states' window of 8 (2 x ratio, overlapping) in blocks of 4, the HCA states'
// 128 in blocks of 8.
int64_t window_and_state_blocks(int64_t tokens, int64_t window) {
  return 2 * window_blocks(window, tokens, kWindowBlock) + window_blocks(2 * 4, tokens, kCsaStateBlock) +
         window_blocks(128, tokens, kHcaStateBlock);
}

}  // namespace

bool has_compressed_attention(const ModelSpec& model, int64_t first, int64_t last) {
  for (int64_t i = first; i < last; ++i) {
    if (model.layers[static_cast<std::size_t>(i)].attention.compress_ratio > 0) return true;
  }
  return false;
}

VllmCompressedPool vllm_compressed_pool(const ModelSpec& model, int64_t first, int64_t last) {
  VllmCompressedPool pool;
  int64_t window_layers = 0;
  int64_t window_page = 0;
  for (int64_t i = first; i < last; ++i) {
    const AttentionGeometry& a = model.layers[static_cast<std::size_t>(i)].attention;
    int64_t row = ds_mla_row(a);
    ++window_layers;
    window_page = align_page(kWindowBlock * row);
    if (a.compress_ratio == 4) {
      pool.latent_group_bytes += align_page(kLatentBlock / 4 * row) + align_page(kLatentBlock / 4 * indexer_row(a));
      pool.csa_state_group_bytes += align_page(kCsaStateBlock * 2 * 2 * a.head_dim_k * 4) +
                                    align_page(kCsaStateBlock * 2 * 2 * a.compressed_indexer_dim * 4);
    } else if (a.compress_ratio > 0) {
      pool.latent_group_bytes += align_page((kLatentBlock + a.compress_ratio - 1) / a.compress_ratio * row);
      pool.hca_state_group_bytes += align_page(kHcaStateBlock * 2 * a.head_dim_k * 4);
    }
  }
  pool.window_group_bytes = (window_layers + 1) / 2 * window_page;
  pool.slab_bytes = std::max({pool.latent_group_bytes, pool.window_group_bytes, pool.csa_state_group_bytes,
                              pool.hca_state_group_bytes});
  return pool;
}

int64_t vllm_decode_blocks(int64_t context, int64_t window) {
  return (context + kLatentBlock - 1) / kLatentBlock + window_and_state_blocks(1, window);
}

int64_t vllm_chunk_blocks(int64_t chunk_tokens, int64_t window) {
  return window_and_state_blocks(chunk_tokens, window) - window_and_state_blocks(1, window);
}

double sglang_bytes_per_full_token(const ModelSpec& model, int64_t first, int64_t last, int64_t entries) {
  // Per full token the window pool holds 0.1 tokens; the state rings keep ring / 128 rows per
  // window token: 8 CSA rows (of the compressor's and its indexer's f32 states), 128 HCA rows.
  constexpr double kCsaRingRows = 8.0 / 128.0;
  constexpr double kHcaRingRows = 128.0 / 128.0;
  double bytes = 0;
  for (int64_t i = first; i < last; ++i) {
    const AttentionGeometry& a = model.layers[static_cast<std::size_t>(i)].attention;
    double row = static_cast<double>(ds_mla_row(a));
    if (a.compress_ratio == 4) {
      double state = static_cast<double>(2 * 2 * a.head_dim_k * 4 + 2 * 2 * a.compressed_indexer_dim * 4);
      bytes += row / 4 + static_cast<double>(indexer_row(a)) / 4 + kSglangWindowRatio * kCsaRingRows * state;
    } else if (a.compress_ratio > 0) {
      double state = static_cast<double>(2 * a.head_dim_k * 4);
      bytes += row / static_cast<double>(a.compress_ratio) + kSglangWindowRatio * kHcaRingRows * state;
    }
  }
  // The window pool counts every compress_ratios entry, the MTP layer's included.
  double row = 0;
  if (last > first) row = static_cast<double>(ds_mla_row(model.layers[static_cast<std::size_t>(first)].attention));
  return bytes + kSglangWindowRatio * row * static_cast<double>(entries);
}

}  // namespace llmcalc
