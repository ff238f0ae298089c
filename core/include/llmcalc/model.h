// Model architecture: a Hugging Face config.json turned into per-layer geometry, a tensor
// inventory (GGUF naming) and exact parameter counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"
#include "llmcalc/tensor_name.h"

namespace llmcalc {

enum class AttentionKind {
  full,     // every token attends to the whole context (MHA, GQA or MQA)
  sliding,  // attends to the last window_tokens tokens
  chunked,  // attends within fixed chunks of window_tokens (Llama 4 local layers)
  mla,      // multi-head latent attention: a compressed latent is cached (DeepSeek V2/V3)
  linear,   // linear attention / gated delta rule: fixed per-sequence state
  ssm,      // Mamba-style state space layer: fixed per-sequence state
  none      // no token mixing (MLP-only block)
};

struct AttentionGeometry {
  AttentionKind kind = AttentionKind::full;
  int64_t n_q_heads = 0;
  int64_t n_kv_heads = 0;
  int64_t head_dim_k = 0;  // query/key head dimension
  int64_t head_dim_v = 0;  // value head dimension (differs from K in MLA and some models)
  int64_t window_tokens = 0;       // sliding / chunked span
  int64_t kv_lora_rank = 0;        // MLA latent width
  int64_t qk_rope_head_dim = 0;    // MLA decoupled RoPE key width
  int64_t state_elements_per_seq = 0;  // linear / ssm: recurrent + conv state per sequence
  int64_t conv_state_elements_per_seq = 0;  // of which the causal-conv window
  int64_t conv_channels = 0;  // the window's channels (one row of them per input it keeps)
  int64_t indexer_head_dim = 0;    // DeepSeek sparse attention: lightning-indexer key width (0: none)
  bool msa_indexer = false;        // MiniMax M3's sparse attention: its index keys are cached unscaled
  // DeepSeek V4: besides its window, the layer keeps one compressed K row of compressed_width per
  // compress_ratio tokens (4: CSA, with compressed indexer keys of compressed_indexer_dim; 128:
  // HCA); the compressors' running state is in state_elements_per_seq.
  int64_t compress_ratio = 0;
  int64_t compressed_width = 0;
  int64_t compressed_indexer_dim = 0;
  // Gemma 4 E2B/E4B: the last num_kv_shared_layers attend over the KV of the last earlier layer
  // of their kind and keep no cache of their own.
  bool kv_shared = false;
};

struct MlpGeometry {
  bool moe = false;
  bool present = true;
  int64_t intermediate = 0;           // dense FFN width
  int64_t n_experts = 0;              // routed experts
  int64_t n_experts_active = 0;       // routed experts per token
  int64_t expert_intermediate = 0;    // width of one routed expert
  int64_t shared_intermediate = 0;    // total width of the always-on shared expert(s)
};

struct LayerSpec {
  AttentionGeometry attention;
  MlpGeometry mlp;
};

/// Tensor roles, named after llama.cpp's GGUF tensor names (they drive quantization rules).
enum class TensorRole {
  token_embd, output, norm, bias, attn_q, attn_k, attn_v, attn_qkv, attn_output,
  attn_q_a, attn_q_b, attn_kv_a_mqa, attn_kv_b, attn_sinks,
  ffn_gate, ffn_up, ffn_down, ffn_gate_inp, ffn_gate_exps, ffn_up_exps, ffn_down_exps,
  ffn_gate_shexp, ffn_up_shexp, ffn_down_shexp, ffn_gate_inp_shexp,
  ssm_in, ssm_out, ssm_conv, ssm_small, nextn_eh_proj, vision, projector,
  // A gated-DeltaNet layer's q/k/v input as llama.cpp's Qwen3.5 files store it (attn_qkv: quantized
  // by the attn_v rules, counted as the recurrent mixer's).
  linear_qkv,
  // Gemma 4 E2B/E4B per-layer embeddings: the [vocab x layers * width] table (quantized like
  // token_embd, kept in RAM with it), and each layer's input gate and projection.
  per_layer_embd, per_layer_proj
};

/// Which part of the checkpoint a tensor belongs to; only `text` is needed for text generation.
enum class ModelPart { text, vision, projector, mtp, audio };

/// llama.cpp's quantizer tests a tensor's name (llama_tensor_get_type_impl: name.find(...) !=
/// npos) for these texts; core/src/gguf_quant_mix.cpp finds them and applies the rules.
enum QuantNameTest : std::uint8_t {
  kNameAttnK = 1,        // "attn_k.weight"
  kNameAttnQ = 2,        // "attn_q.weight"
  kNameAttnOutput = 4,   // "attn_output.weight"
  kNameFfnDown = 8,      // "ffn_down"
  kNameFfnGate = 16,     // "ffn_gate"
  kNameFfnUp = 32,       // "ffn_up"
};

struct TensorSpec {
  // A constructor, not an aggregate, so the inventory builds each spec in its list (emplace_back):
  // a spec built aside and copied in was two 48-byte memcpy calls in WebAssembly (the first
  // rank 557M -> 544M instructions; issue #22).
  TensorSpec(const TensorName& name_, TensorRole role_, ModelPart part_, int layer_, int64_t ne0_, int64_t ne1_,
             int64_t ne2_)
      : name(name_), role(role_), part(part_), layer(layer_), ne0(ne0_), ne1(ne1_), ne2(ne2_) {}
  TensorName name;       // GGUF-style name, e.g. "blk.3.attn_v.weight"
  TensorRole role;
  ModelPart part;
  int layer;             // decoder layer index, -1 for model-level tensors
  // The QuantNameTest bits its name passes, set as the inventory names a text or MTP tensor (0
  // for the parts llama.cpp's rules do not quantize; a layer's copy keeps its original's: the
  // tests never read the "blk.<n>." prefix).
  std::uint8_t quant_name_tests = 0;
  int64_t ne0;           // row length (input features): what block quantization runs along
  int64_t ne1;           // rows
  int64_t ne2;           // experts (1 for non-expert tensors)
  int64_t elements() const { return ne0 * ne1 * ne2; }
};

/// Parameter counts by component. `total` is every tensor of the checkpoint (text, vision,
/// projector, MTP); `active` is what one text token touches: all non-expert text parameters
/// plus the routed experts actually selected.
struct ParamCounts {
  int64_t total = 0;
  int64_t active = 0;
  int64_t text = 0;
  int64_t embedding = 0;
  int64_t output_head = 0;
  int64_t attention = 0;
  int64_t mlp_dense = 0;
  int64_t experts_routed = 0;
  int64_t experts_shared = 0;
  int64_t router = 0;
  int64_t norms = 0;
  int64_t recurrent = 0;  // SSM / linear-attention mixers
  int64_t vision = 0;
  int64_t projector = 0;
  int64_t audio = 0;  // an audio encoder (Gemma 4 E2B/E4B); its projector is in `projector`
  int64_t mtp = 0;
};

struct ModelSpec {
  std::string model_type;
  int64_t hidden_size = 0;
  int64_t vocab_size = 0;
  int64_t n_layers = 0;
  int64_t max_context_tokens = 0;
  bool tied_embeddings = false;
  int64_t mtp_layers = 0;  // multi-token-prediction layers the checkpoint ships (speculative drafts)
  // Every layer keeps one cache stream per sequence, whatever llama.cpp's unified setting
  // (DeepSeek V4: src/llama-kv-cache-dsv4.cpp forces its stores non-unified).
  bool per_sequence_streams = false;
  // The vision tower's kind ("" without one) and its vision_config's own num_hidden_layers and
  // hidden_size entries (0 where the config names its depth or width otherwise).
  std::string vision_kind;
  int64_t vision_named_layers = 0;
  int64_t vision_named_hidden = 0;
  // The tower's width, MLP width, patch size and attention heads (0 where the config does not
  // give them): what llama.cpp's projector warm-up allocates for (mmproj_memory.cpp).
  int64_t vision_width = 0;
  int64_t vision_mlp = 0;
  int64_t vision_patch = 0;
  int64_t vision_heads = 0;
  // Qwen3-VL towers: pixel values per patch (channels x frames x patch^2), patches merged into one
  // token (spatial_merge_size^2) and the width the encoder returns per token (out_hidden_size x
  // (1 + deepstack mergers)): what vLLM's encoder profiling holds (server_memory.cpp).
  int64_t vision_patch_values = 0;
  int64_t vision_merge_unit = 0;
  int64_t vision_embed_width = 0;
  // llama.cpp's mmproj file of the model's tower, projector and audio encoder (0 without one),
  // kept when a rank gives the tensor list back (mmproj_memory.h).
  int64_t mmproj_file_bytes = 0;
  // Roles the model's own FP8 checkpoint stores in 16 bits on every layer (the family says which:
  // MiMo-V2's o_proj); the FP8 format keeps them so.
  std::vector<TensorRole> fp8_checkpoint_keeps;
  // Bytes per element of the recurrent (SSM) state the config asks servers to keep (Nemotron-H's
  // mamba_ssm_cache_dtype, Qwen3.5's mamba_ssm_dtype: float32 is 4); 0: the model's dtype.
  int64_t ssm_state_dtype_bytes = 0;
  std::vector<LayerSpec> layers;
  std::vector<TensorSpec> tensors;
  ParamCounts params;
};

/// Hard limits on configs, so hostile input cannot exhaust memory or time.
constexpr int64_t kMaxLayers = 1024;
constexpr int64_t kMaxHidden = 1 << 20;
constexpr int64_t kMaxVocab = 1 << 24;
constexpr int64_t kMaxHeads = 1 << 14;
constexpr int64_t kMaxExperts = 1 << 14;
// 10 Mi tokens: Llama 4 Scout's native window (10,485,760), the largest in the catalog.
constexpr int64_t kMaxContextTokens = 10'485'760;

/// Builds the architecture from a config.json object. `path` is the JSON pointer of `config`
/// in the request. Returns nullopt (with errors recorded) when the config cannot be used.
std::optional<ModelSpec> build_model(const nlohmann::json& config, const std::string& path,
                                     Issues& issues);

const char* attention_kind_name(AttentionKind kind);
/// JSON text appended to `out`: the layers in groups of consecutive identical ones, the layers
/// per attention kind and per MLP kind (e.g. {"attention": {"full": 10, "sliding": 52}}), and the
/// parameter counts.
void append_layer_summary(std::string& out, const ModelSpec& model);
void append_layer_counts(std::string& out, const ModelSpec& model);
void append_params(std::string& out, const ParamCounts& params);

}  // namespace llmcalc
