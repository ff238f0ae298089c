// KV cache sizing per layer kind. llama.cpp rules from src/llama-kv-cache.cpp and
// llama-kv-cache-iswa.cpp (SWA cache per stream = min(n_ctx, pad(n_swa * n_seq + n_ubatch, 256)));
// MLA caches kv_lora_rank + qk_rope_head_dim per token and layer (DeepSeek-V2 paper §2.1.2;
// vLLM's MLA backends), plus llama.cpp's V copy of the latent,
// recurrent layers keep an f32 state per sequence (llama-memory-recurrent.cpp).
#include "llmcalc/kv_cache.h"

#include <algorithm>

namespace llmcalc {
namespace {

int64_t pad_up(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Bytes of `rows` rows of `width` elements in `type` (quantized KV types store whole blocks).
int64_t row_bytes(const KvType& type, int64_t width) {
  return (width + type.block_elements - 1) / type.block_elements * type.block_bytes;
}

}  // namespace

std::optional<KvType> find_kv_type(const std::string& name) {
  // Block layouts from ggml-common.h: q8_0 = 34 bytes / 32, q4_0 = 18 bytes / 32.
  if (name == "f16" || name == "bf16") return KvType{name, 1, 2};
  if (name == "fp8") return KvType{name, 1, 1};
  if (name == "q8_0") return KvType{name, 32, 34};
  if (name == "q4_0") return KvType{name, 32, 18};
  if (name == "f32") return KvType{name, 1, 4};
  return std::nullopt;
}

KvBreakdown kv_cache_bytes(const ModelSpec& model, const KvType& type, const KvRequest& request) {
  KvBreakdown out;
  int64_t tokens = request.context_tokens * request.sequences;
  int64_t cells = request.llama_cpp_layout ? pad_up(tokens, kLlamaCppKvPadding) : tokens;
  out.cells = cells;
  out.per_layer_bytes.reserve(model.layers.size());
  for (const LayerSpec& layer : model.layers) {
    int64_t before = out.full_attention_bytes + out.windowed_bytes + out.latent_bytes + out.state_bytes;
    const AttentionGeometry& a = layer.attention;
    int64_t per_token = row_bytes(type, a.n_kv_heads * a.head_dim_k) +
                        row_bytes(type, a.n_kv_heads * a.head_dim_v);
    switch (a.kind) {
      case AttentionKind::full:
        out.full_attention_bytes += per_token * cells;
        out.bytes_per_token += per_token;
        break;
      case AttentionKind::sliding:
      case AttentionKind::chunked: {
        // llama.cpp keeps one stream per sequence (kv_unified = false, the llama-server and
        // Ollama default), each of pad(n_swa * n_seq + n_ubatch, 256) cells: the Ollama
        // gpt-oss-120b log shows "SWA KV cache, size = 1280 cells" and 90 MiB for 2 sequences.
        int64_t per_stream = pad_up(request.context_tokens, kLlamaCppKvPadding);
        int64_t used = request.llama_cpp_layout
                           ? request.sequences *
                                 std::min(per_stream,
                                          pad_up(a.window_tokens * request.sequences +
                                                     request.ubatch_tokens,
                                                 kLlamaCppKvPadding))
                           : std::min(tokens, a.window_tokens * request.sequences);
        out.windowed_bytes += per_token * used;
        if (request.context_tokens < a.window_tokens) out.bytes_per_token += per_token;
        break;
      }
      case AttentionKind::mla: {
        // Both engines cache the latent plus the decoupled RoPE key (576 for DeepSeek V3);
        // llama.cpp also keeps a separate V cache of kv_lora_rank ("K (f16): 1098 MiB,
        // V (f16): 976 MiB" for DeepSeek-V3 at 16K, tests/data/engine_logs.json).
        int64_t latent = row_bytes(type, a.kv_lora_rank + a.qk_rope_head_dim) +
                         (request.llama_cpp_layout ? row_bytes(type, a.kv_lora_rank) : 0);
        out.latent_bytes += latent * cells;
        out.bytes_per_token += latent;
        break;
      }
      case AttentionKind::linear:
      case AttentionKind::ssm:
      case AttentionKind::none: break;
    }
    // Recurrent layers, and Falcon-H1's attention layers with their parallel Mamba2 mixer.
    out.state_bytes += a.state_elements_per_seq * 4 * request.sequences;
    out.per_layer_bytes.push_back(out.full_attention_bytes + out.windowed_bytes + out.latent_bytes +
                                  out.state_bytes - before);
  }
  out.total_bytes = out.full_attention_bytes + out.windowed_bytes + out.latent_bytes + out.state_bytes;
  return out;
}

}  // namespace llmcalc
