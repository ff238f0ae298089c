// Internal: a config.json normalized into one flat description that the layer planner and the
// tensor inventory read, whatever the family's key names and nesting.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/model.h"

namespace llmcalc {

struct VisionConfig {
  std::string kind;  // "siglip" (Gemma 3), "llama4", "pixtral" (Mistral 3), "qwen3_vl", "gemma4", "moonvit"
  int64_t hidden = 0;
  int64_t intermediate = 0;
  int64_t n_layers = 0;
  int64_t image_size = 0;
  int64_t patch_size = 0;
  int64_t channels = 3;
  int64_t projector_out = 0;  // text hidden size the projector maps into
  int64_t adapter_in = 0;     // Llama 4 pixel-shuffle MLP / Pixtral patch merger: input width
  int64_t adapter_mid = 0;    // Llama 4: projector_input_dim
  int64_t adapter_out = 0;    // Llama 4: projector_output_dim (= vision_output_dim)
  int64_t temporal_patch = 1;    // Qwen3-VL: frames per 3-D patch
  int64_t num_positions = 0;     // Qwen3-VL: learned position embeddings
  int64_t deepstack_mergers = 0;  // Qwen3-VL: extra mergers feeding early decoder layers
  int64_t heads = 0;              // Gemma 4 vision: GQA heads, KV heads and head dim
  int64_t kv_heads = 0;
  int64_t head_dim = 0;
  // MoonViT: Kimi K2.5's has biases and LayerNorms, a qkv as wide as the tower and the
  // "patchmerger" projector; Kimi K3's has no biases, RMSNorms, a wider qkv (qkv_hidden_size)
  // and "patchmergerv2" (no input norm, a norm after the projection instead).
  bool biases = true;
  bool rms_norm = false;
  int64_t qkv_width = 0;
  bool merger_v2 = false;
  // The vision_config's own num_hidden_layers and hidden_size entries (0 where it names its depth
  // or width otherwise: Qwen3-VL's depth, MoonViT's vt_ keys). SGLang's default memory fraction
  // reads these names (sglang_mem_fraction.cpp).
  int64_t named_layers = 0;
  int64_t named_hidden = 0;
};

// Gemma 4 E2B/E4B's audio encoder (modeling_gemma4.py Gemma4AudioModel, a Conformer): a two-
// convolution subsampler, blocks of two macaron FFNs, relative-position attention and a
// light convolution, an output projection, then embed_audio into the text width.
struct AudioConfig {
  int64_t hidden = 0;
  int64_t n_layers = 0;
  int64_t heads = 0;
  int64_t conv_kernel = 0;
  std::vector<int64_t> subsampling_channels;  // the two subsampling convolutions' outputs
  int64_t output_dims = 0;                    // output_proj width, embed_audio's input
};

struct FamilyDefinition;

// A gated-DeltaNet layer's input projections in a GGUF file (llama.cpp's converter,
// conversion/qwen.py and src/models/qwen3next.cpp, qwen35.cpp).
enum class LinearInputLayout {
  fused_qkvz,           // ssm_in (q, k, v and z) and ssm_ba: Qwen3-Next's files before PR #18683
  qkv_gate,             // attn_qkv, attn_gate (z) and ssm_ba: Qwen3-Next's since PR #18683 (2026-01)
  qkv_gate_beta_alpha,  // attn_qkv, attn_gate, ssm_beta and ssm_alpha: Qwen3.5's
};

// One flag per layer (0 or 1), not std::vector<bool>, whose bit-packed vector cost 3.8 KB of the
// module's code (issue #22).
using LayerFlags = std::vector<char>;

struct ArchConfig {
  std::string model_type;
  const FamilyDefinition* family = nullptr;  // defined in its own file (family.h), or generic
  bool per_sequence_streams = false;  // its cache keeps one stream per sequence (DeepSeek V4)
  int64_t hidden = 0;
  int64_t n_layers = 0;
  int64_t n_heads = 0;
  int64_t n_kv_heads = 0;
  int64_t head_dim = 0;     // query/key head dim
  int64_t v_head_dim = 0;   // value head dim
  int64_t vocab = 0;
  int64_t intermediate = 0;  // dense FFN width
  int64_t max_context = 0;
  bool tied = false;

  bool qkv_bias = false;
  bool o_bias = false;
  bool mlp_bias = false;
  bool qk_norm = false;            // per-head RMSNorm on q and k (width head_dim)
  bool qk_norm_full_width = false;  // OLMo 2: norm over the whole q / k projection
  bool norm_bias = false;          // LayerNorm with bias rather than RMSNorm
  int norms_per_layer = 2;
  bool gated_mlp = true;
  bool fused_qkv = false;
  bool attention_sinks = false;
  bool full_attention_sinks = true;  // MiMo-V2: sinks on the sliding layers only
  bool attn_output_gate = false;   // Qwen3-Next: q_proj also emits a sigmoid gate
  bool head_output_gate = false;   // one gate value per query head (g_proj, hidden -> heads; MLA too)
  // Gated-DeltaNet input projections as llama.cpp's converter writes them (LinearInputLayout).
  LinearInputLayout linear_input = LinearInputLayout::fused_qkvz;
  // Gemma 4: full-attention layers use global_head_dim, and with k_eq_v take V from the k_proj
  // output (no v_proj); their KV heads are in layer_kv_heads.
  int64_t global_head_dim = 0;
  bool k_eq_v = false;
  // Q/K and V head dims of a layer of this kind (Gemma 4's full layers use global_head_dim).
  int64_t layer_head_dim(AttentionKind kind) const {
    return kind == AttentionKind::full && global_head_dim > 0 ? global_head_dim : head_dim;
  }
  int64_t layer_v_head_dim(AttentionKind kind) const {
    return kind == AttentionKind::full && global_head_dim > 0 ? global_head_dim : v_head_dim;
  }
  bool router_scales = false;   // Gemma 4: the router's input scale and per-expert scale
  int moe_extra_norms = 0;      // Gemma 4: norms around the expert block beside the dense MLP

  int64_t sliding_window = 0;
  int64_t chunk_size = 0;
  std::vector<AttentionKind> layer_attention;  // one per layer

  int64_t n_experts = 0;
  int64_t n_experts_active = 0;
  int64_t moe_intermediate = 0;
  int64_t shared_intermediate = 0;
  bool shared_expert_gate = false;  // Qwen2-MoE style scalar gate on the shared expert
  bool router_bias = false;
  bool expert_bias = false;         // gpt-oss: biases on expert projections
  bool expert_score_bias = false;   // DeepSeek V3: e_score_correction_bias
  LayerFlags layer_moe;             // one per layer
  std::vector<int64_t> layer_intermediate;  // dense FFN width per layer (0: no FFN block)
  std::vector<int64_t> layer_kv_heads;      // KV heads per attention layer
  std::vector<int64_t> layer_q_heads;       // query heads per layer, MTP layers included (empty: n_heads)
  int64_t layer_heads(int64_t layer) const {
    auto index = static_cast<std::size_t>(layer);
    return index < layer_q_heads.size() ? layer_q_heads[index] : n_heads;
  }

  // Roles the family's published FP8 checkpoints keep in BF16 on every layer (ModelSpec's).
  std::vector<TensorRole> fp8_checkpoint_keeps;
  int64_t ssm_state_dtype_bytes = 0;  // ModelSpec::ssm_state_dtype_bytes

  bool mla = false;
  int64_t q_lora_rank = 0;
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t mtp_layers = 0;
  bool mtp_own_embeddings = true;  // DeepSeek V3 / GLM-4.5 MTP layers store embed and head copies
  bool mtp_shared_head_norm = true;  // a norm before the shared head (not ERNIE 4.5's)
  bool mtp_eh_proj = true;  // enorm, hnorm and eh_proj fuse the MTP input (else the family's own)
  bool output_norm = true;  // a final norm before the head (hyper-connection models mix instead)
  int64_t mtp_block_layers = 0;  // Nemotron-H: inner layers of the MTP block (past n_layers)
  int64_t moe_latent = 0;        // Nemotron 3 LatentMoE: the experts' input width (0: hidden)

  int64_t linear_k_heads = 0;
  int64_t linear_v_heads = 0;
  int64_t linear_k_head_dim = 0;
  int64_t linear_v_head_dim = 0;
  int64_t linear_conv_kernel = 0;
  bool lightning_attention = false;  // MiniMax-01/M1 linear layers (qkv, output gate, norm)
  bool kda = false;                  // Kimi Delta Attention linear layers (Kimi Linear)
  // Ling 3.0 (no_kda_lora): KDA's decay and output gate are full-rank projections f_proj and
  // g_proj [hidden -> heads x head_dim] in place of Kimi Linear's low-rank f_a / f_b, g_a / g_b.
  bool kda_full_rank_gates = false;
  // Kimi K3: every attention layer (KDA and MLA) gates its output with a full-rank projection
  // g_proj [heads * head_dim, hidden] (KDA: in place of the low-rank g_a / g_b), as Muse Glimmer's
  // softmax layers do (self_attn.gate_proj, families/muse_glimmer.cpp); each Kimi K3 layer keeps
  // attention-residual vectors (a norm and a [1, hidden] projection before attention and before
  // the MLP, one pair after the last layer); the LatentMoE latent has its own norm.
  bool full_rank_output_gate = false;
  bool attention_residuals = false;
  bool moe_latent_norm = false;

  // Mamba layers (Jamba: modeling_jamba.py JambaMambaMixer).
  int64_t mamba_d_inner = 0;
  int64_t mamba_d_state = 0;
  int64_t mamba_d_conv = 0;
  int64_t mamba_dt_rank = 0;
  bool mamba_conv_bias = true;
  bool mamba_proj_bias = false;
  bool mamba_dt_norms = false;  // Jamba's dt / B / C RMSNorms
  bool mamba2 = false;          // Mamba2 mixer (heads, groups, gated RMSNorm)
  bool mamba_out_bias = false;  // Mamba2 out_proj bias (Falcon-H1: projectors_bias)
  bool mamba_gated_norm = true;  // Mamba2 gated RMSNorm (Falcon-H1: only with mamba_rms_norm)
  bool parallel_mamba = false;  // Falcon-H1: a Mamba2 mixer beside the attention of every layer
  int64_t short_conv_kernel = 0;  // LFM2 gated short convolution (in place of Mamba)
  bool short_conv_bias = false;
  int64_t mamba_heads = 0;
  int64_t mamba_groups = 1;

  // DeepSeek V3.2 sparse-attention indexer (per layer).
  int64_t indexer_heads = 0;
  int64_t indexer_head_dim = 0;
  LayerFlags layer_indexer;         // which layers carry one (empty: all; MTP layers always)

  // DeepSeek V4 (inference/model.py): one shared 512-wide K=V head per token, a grouped low-rank
  // output projection, compressed attention per layer (compress_ratios: 0 sliding window only,
  // 4 CSA with a lightning indexer, 128 HCA), 4-stream hyper-connections, hash-routed first layers.
  std::vector<int64_t> layer_compress;  // compress ratio per layer, MTP layers included
  int64_t o_lora_rank = 0;
  int64_t o_groups = 1;
  int64_t hc_mult = 0;
  int64_t hash_layers = 0;

  // Gemma 4 E2B/E4B: per-layer embeddings of ple_width per layer from a ple_vocab table, one
  // layer_scalar per layer, and the last kv_shared_layers reusing earlier layers' KV (their
  // k/v projections are still stored; under use_double_wide_mlp their MLP is twice as wide).
  int64_t ple_width = 0;
  int64_t ple_vocab = 0;
  int64_t kv_shared_layers = 0;
  bool layer_scalar = false;  // Gemma 4: a learned [1] scale of each layer's output, stored per layer

  // Sizes only a family file (families/*.cpp) reads, by config key.
  std::map<std::string, int64_t> family_sizes;
  int64_t family_size(const std::string& key) const {
    auto found = family_sizes.find(key);
    return found == family_sizes.end() ? 0 : found->second;
  }

  std::optional<VisionConfig> vision;
  std::optional<AudioConfig> audio;
};

std::optional<ArchConfig> read_arch_config(const nlohmann::json& config, const std::string& path,
                                           Issues& issues);

// A per-layer list of whole numbers from `low` to `high` (`layers` entries) at `key` of `object`
// into `values`; false, with an error saying `need` for each layer, otherwise (Laguna's
// num_attention_heads_per_layer).
bool read_layer_integers(const nlohmann::json& object, JsonReader& reader, const char* key, int64_t layers,
                         int64_t low, int64_t high, const std::string& need, std::vector<int64_t>& values);
// The same for a list of 0 and 1, naming `model` (MiMo-V2's hybrid_layer_pattern, MiniMax M3's
// moe_layer_freq).
bool read_layer_flags(const nlohmann::json& object, JsonReader& reader, const char* key, int64_t layers,
                      const char* model, LayerFlags& flags);

std::vector<LayerSpec> plan_layers(const ArchConfig& arch);
// Every tensor of the checkpoint. A decoder layer alike its predecessor is the latter's tensors
// renumbered unless `repeat_alike_layers` is false (the tests build both ways and compare).
std::vector<TensorSpec> tensor_inventory(const ArchConfig& arch, bool repeat_alike_layers = true);
ParamCounts count_params(const std::vector<TensorSpec>& tensors, const ArchConfig& arch);

}  // namespace llmcalc
