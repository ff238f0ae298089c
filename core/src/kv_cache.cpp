// KV cache sizing per layer kind and engine layout.
// llama.cpp b10256 (6c8dcaa): src/llama-kv-cache.cpp (one stream per sequence unless unified,
// kv_size cells per stream, padded to 256), src/llama-kv-cache-iswa.cpp (sliding layers keep
// pad256(min(kv_size, n_swa x (unified ? n_seq : 1) + n_ubatch)) cells per stream), PR #19067
// (MLA models cache only K: kv_lora_rank + rope dims, V is a view of it), PR #23346 and
// src/llama-kv-cache-dsa.cpp (a K-only lightning-indexer cache of index_head_dim per token on
// the layers that carry an indexer), src/llama-memory-recurrent.cpp (f32 state per sequence).
// vLLM V1 / SGLang: 16-token pages; MLA one latent head (kv_lora_rank + rope), fp8_ds_mla
// 656 B per token and layer (512 fp8 + 16 scale + 128 bf16 RoPE bytes); sliding layers hold
// their window; the DSA indexer keys in fp8 with a 4-byte scale per 128.
// mlx-lm 0.32.0 (models/cache.py): KVCache grows in 256-token steps, RotatingKVCache keeps
// max_size = window; deepseek_v3-style models cache the latent (PR #839), deepseek_v2 expands
// per-head K and V; deepseek_v32 / glm_moe_dsa add the indexer key.
// DeepSeek V4 (llama.cpp PR #24162, src/llama-kv-cache-dsv4.cpp): K-only stores, the raw window
// of every layer, compressed rows every 4 (CSA, plus indexer keys) or 128 (HCA) tokens, f32
// compressor states; one stream per sequence even when llama-server unifies the others.
#include "llmcalc/kv_cache.h"

#include <algorithm>

#include "round_up.h"

namespace llmcalc {
namespace {

// Bytes of one row of `width` elements in `type` (quantized KV types store whole blocks).
int64_t row_bytes(const KvType& type, int64_t width) {
  return (width + type.block_elements - 1) / type.block_elements * type.block_bytes;
}

constexpr int64_t kMlxKvStep = 256;  // mlx_lm/models/cache.py KVCache.step

// mlx-lm keeps DeepSeek-V2-style MLA (and MiniCPM3) as full per-head K and V.
bool mlx_expands_mla(const ModelSpec& model) {
  return model.model_type == "deepseek_v2" || model.model_type == "minicpm3";
}

// Whether two layers' KV rows (kv_row_bytes) are alike: most models repeat one geometry.
bool same_kv_row(const AttentionGeometry& x, const AttentionGeometry& y) {
  return x.kind == y.kind && x.n_kv_heads == y.n_kv_heads && x.n_q_heads == y.n_q_heads &&
         x.head_dim_k == y.head_dim_k && x.head_dim_v == y.head_dim_v && x.kv_lora_rank == y.kv_lora_rank &&
         x.qk_rope_head_dim == y.qk_rope_head_dim;
}

}  // namespace

int64_t indexer_row_bytes(const AttentionGeometry& a, const KvType& type, KvLayout layout) {
  if (a.indexer_head_dim <= 0) return 0;
  if (a.msa_indexer) {
    // MiniMax M3: vLLM's MiniMaxM3IndexerCache keeps one bf16 key per token (indexer_kv_dtype
    // "bf16" by default, vllm/models/minimax_m3/common/indexer.py); llama.cpp's llama_kv_cache_msa
    // (PR #26338) a second cache of one head in the -ctk / -ctv types, whose V rows it allocates
    // unused; mlx-lm and transformers keep the keys in the model's bf16.
    if (layout == KvLayout::llama_cpp) return 2 * row_bytes(type, a.indexer_head_dim);
    return 2 * a.indexer_head_dim;
  }
  // vLLM and SGLang keep DeepSeek's indexer keys in fp8 with one f32 scale per 128 values.
  if (layout == KvLayout::paged) return a.indexer_head_dim + 4 * ((a.indexer_head_dim + 127) / 128);
  return row_bytes(type, a.indexer_head_dim);
}

std::optional<KvType> find_kv_type(const std::string& name) {
  // Block layouts from ggml-common.h: q8_0 = 34 bytes / 32, q4_0 = 18 bytes / 32; vLLM's nvfp4
  // packs 16 E2M1 values in 8 bytes plus one fp8 scale (PR #40177).
  // The name is copied in one place (a return per type was 1.1 KB of module).
  int64_t elements = 1;
  int64_t bytes = 0;
  if (name == "f16" || name == "bf16") {
    bytes = 2;
  } else if (name == "fp8" || name == "fp8_e5m2") {
    bytes = 1;
  } else if (name == "q8_0") {
    elements = 32, bytes = 34;
  } else if (name == "q4_0") {
    elements = 32, bytes = 18;
  } else if (name == "nvfp4") {
    elements = 16, bytes = 9;
  } else if (name == "f32") {
    bytes = 4;
  } else {
    return std::nullopt;
  }
  return KvType{name, elements, bytes};
}

int64_t kv_row_bytes(const ModelSpec& model, const AttentionGeometry& a, const KvType& type,
                     KvLayout layout) {
  switch (a.kind) {
    case AttentionKind::full:
    case AttentionKind::sliding:
    case AttentionKind::chunked:
      return row_bytes(type, a.n_kv_heads * a.head_dim_k) + row_bytes(type, a.n_kv_heads * a.head_dim_v);
    case AttentionKind::mla: {
      if (layout == KvLayout::mlx && mlx_expands_mla(model)) {
        return row_bytes(type, a.n_q_heads * a.head_dim_k) + row_bytes(type, a.n_q_heads * a.head_dim_v);
      }
      // One latent head: the compressed KV and the decoupled RoPE key (576 for DeepSeek V3).
      if (layout == KvLayout::paged && type.name == "fp8_ds_mla") {
        return a.kv_lora_rank + 4 * ((a.kv_lora_rank + 127) / 128) + 2 * a.qk_rope_head_dim;
      }
      return row_bytes(type, a.kv_lora_rank + a.qk_rope_head_dim);
    }
    case AttentionKind::linear:
    case AttentionKind::ssm:
    case AttentionKind::none: return 0;
  }
  return 0;
}

KvBreakdown kv_cache_bytes(const ModelSpec& model, const KvType& type, const KvRequest& request) {
  KvBreakdown out;
  const int64_t sequences = std::max<int64_t>(1, request.sequences);
  const bool llama = request.layout == KvLayout::llama_cpp;
  const bool unified = request.unified && !model.per_sequence_streams;
  const int64_t streams = llama && unified ? 1 : sequences;
  // Cells one stream holds for a full-attention layer.
  int64_t stream_cells = request.context_tokens;
  if (llama) stream_cells = round_up(request.context_tokens, kLlamaCppKvPadding);
  if (request.layout == KvLayout::mlx) stream_cells = round_up(request.context_tokens, kMlxKvStep);
  out.cells = stream_cells * streams;
  out.per_layer_bytes.reserve(model.layers.size());
  const AttentionGeometry* row_geometry = nullptr;  // the layer `row` was computed for
  int64_t row = 0;
  for (const LayerSpec& layer : model.layers) {
    const AttentionGeometry& a = layer.attention;
    if (a.kv_shared) {  // Gemma 4 E-models: reads an earlier layer's cache, keeps none
      out.per_layer_bytes.push_back(0);
      continue;
    }
    if (!row_geometry || !same_kv_row(*row_geometry, a)) {
      row = kv_row_bytes(model, a, type, request.layout);
      row_geometry = &a;
    }
    int64_t layer_bytes = 0;
    switch (a.kind) {
      case AttentionKind::full:
        layer_bytes = row * out.cells;
        out.full_attention_bytes += layer_bytes;
        out.bytes_per_token += row;
        break;
      case AttentionKind::sliding:
      case AttentionKind::chunked: {
        int64_t window_cells = 0;  // per stream
        if (llama) {
          int64_t span = a.window_tokens * (unified ? sequences : 1) + request.ubatch_tokens;
          window_cells = round_up(std::min(stream_cells, span), kLlamaCppKvPadding);
        } else {
          window_cells = std::min(stream_cells, a.window_tokens);
        }
        layer_bytes = row * window_cells * streams;
        out.windowed_bytes += layer_bytes;
        if (request.context_tokens < a.window_tokens) out.bytes_per_token += row;
        break;
      }
      case AttentionKind::mla:
        layer_bytes = row * out.cells;
        out.latent_bytes += layer_bytes;
        out.bytes_per_token += row;
        break;
      case AttentionKind::linear:
      case AttentionKind::ssm:
      case AttentionKind::none: break;
    }
    if (a.compress_ratio > 0) {
      // DeepSeek V4 (llama-kv-cache-dsv4.cpp): one compressed K row per compress_ratio tokens, and
      // on CSA layers the indexer's compressed keys; llama.cpp pads each store to 256 cells.
      int64_t rows = (request.context_tokens + a.compress_ratio - 1) / a.compress_ratio;
      if (llama) rows = round_up(rows, kLlamaCppKvPadding);
      int64_t latent = row_bytes(type, a.compressed_width) * rows * streams;
      int64_t keys = a.compressed_indexer_dim > 0 ? row_bytes(type, a.compressed_indexer_dim) * rows * streams : 0;
      out.latent_bytes += latent;
      out.indexer_bytes += keys;
      layer_bytes += latent + keys;
      out.bytes_per_token += (row_bytes(type, a.compressed_width) +
                              (a.compressed_indexer_dim > 0 ? row_bytes(type, a.compressed_indexer_dim) : 0)) /
                             a.compress_ratio;
    }
    int64_t indexer = indexer_row_bytes(a, type, request.layout);
    if (indexer > 0) {
      layer_bytes += indexer * out.cells;
      out.indexer_bytes += indexer * out.cells;
      out.bytes_per_token += indexer;
    }
    // Recurrent layers, and Falcon-H1's attention layers with their parallel Mamba2 mixer: one
    // f32 state per sequence (llama.cpp: per n_seq_max slot, used or not).
    int64_t state = a.state_elements_per_seq * 4 * sequences * std::max<int64_t>(1, request.state_copies);
    out.state_bytes += state;
    layer_bytes += state;
    out.per_layer_bytes.push_back(layer_bytes);
  }
  out.total_bytes = out.full_attention_bytes + out.windowed_bytes + out.latent_bytes +
                    out.indexer_bytes + out.state_bytes;
  return out;
}

}  // namespace llmcalc
