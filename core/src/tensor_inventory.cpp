// The tensors a checkpoint holds, derived from ArchConfig, named as llama.cpp's GGUF writer names
// them (gguf-py/gguf/constants.py MODEL_TENSORS) so quantization rules can key on them.
#include <algorithm>
#include <string>
#include <utility>

#include "family.h"
#include "tensor_list.h"

namespace llmcalc {
namespace {

class InventoryBuilder : private TensorList {
 public:
  InventoryBuilder(const ArchConfig& arch, bool repeat_alike_layers)
      : TensorList(arch), arch_(arch), repeat_alike_layers_(repeat_alike_layers) {}

  std::vector<TensorSpec> build() {
    add("token_embd.weight", TensorRole::token_embd, -1, arch_.hidden, arch_.vocab);
    if (arch_.ple_width > 0) add_per_layer_embeddings();
    for (int64_t i = 0; i < arch_.n_layers; ++i) add_decoder_layer(static_cast<int>(i));
    if (arch_.output_norm) add("output_norm.weight", TensorRole::norm, -1, arch_.hidden, 1);
    if (arch_.attention_residuals) add_attention_residual("output_attn_res", -1);
    if (!arch_.tied) add("output.weight", TensorRole::output, -1, arch_.hidden, arch_.vocab);
    if (arch_.family && arch_.family->add_head_tensors) arch_.family->add_head_tensors("", -1, *this);
    add_mtp();
    add_vision();
    add_audio();
    if (arch_.family && arch_.family->add_model_tensors) arch_.family->add_model_tensors(*this);
    return take();
  }

 private:
  // A decoder layer is its predecessor's tensors renumbered when nothing add_layer reads for it
  // differs (most models' layers are alike): building each of the catalog's 8,385 layers from
  // its parts was a fifth of the first rank's instructions (issue #22). A family's own layers
  // are built whole.
  void add_decoder_layer(int i) {
    const std::size_t first = size();
    const bool generic = !(arch_.family && arch_.family->add_layer_tensors);
    const auto index = static_cast<std::size_t>(i);
    if (repeat_alike_layers_ && generic && i > 0 && alike(index - 1, index)) {
      repeat_layer(previous_layer_first_, first, i - 1, i);
    } else {
      add_layer(i, ModelPart::text);
    }
    previous_layer_first_ = first;
  }

  // Whether add_layer reads the same for decoder layers a and b (both below n_layers).
  bool alike(std::size_t a, std::size_t b) const {
    auto same = [a, b](const auto& per_layer) {
      if (a >= per_layer.size() || b >= per_layer.size()) return a >= per_layer.size() && b >= per_layer.size();
      return per_layer[a] == per_layer[b];
    };
    return same(arch_.layer_attention) && same(arch_.layer_kv_heads) && same(arch_.layer_q_heads) && same(arch_.layer_moe) &&
           same(arch_.layer_intermediate) && has_indexer(a) == has_indexer(b);
  }

  // DeepSeek V3.2's lightning indexer, in the layers the config lists (all when it lists none).
  bool has_indexer(std::size_t index) const {
    return index >= arch_.layer_indexer.size() || arch_.layer_indexer[index];
  }

  void add_layer(int i, ModelPart part) {
    set_part(part);
    const TensorPrefix blk("blk." + std::to_string(i) + ".");
    if (arch_.family && arch_.family->add_layer_tensors) {
      arch_.family->add_layer_tensors(blk, i, *this);
      return;
    }
    // MTP layers (index past the last decoder layer) repeat the last layer's shape, unless the
    // config lays out an MTP block of its own (Nemotron-H).
    auto index = static_cast<std::size_t>(i);
    if (index >= arch_.layer_attention.size()) index = static_cast<std::size_t>(arch_.n_layers - 1);
    AttentionKind kind = arch_.layer_attention[index];
    if (arch_.model_type != "olmo2" && kind != AttentionKind::none) {
      add_norm(blk + "attn_norm", i, arch_.hidden);
    }
    switch (kind) {
      case AttentionKind::mla: add_mla(blk, i); break;
      case AttentionKind::linear:
        if (arch_.lightning_attention) {
          add_lightning_attention(blk, i);
        } else if (arch_.kda) {
          add_kda(blk, i);
        } else {
          add_linear_attention(blk, i);
        }
        break;
      case AttentionKind::ssm:
        if (arch_.short_conv_kernel > 0) {
          add_short_conv(blk, i);
        } else if (arch_.mamba2) {
          add_mamba2(blk, i);
        } else {
          add_mamba(blk, i);
        }
        break;
      case AttentionKind::none: break;
      default:
        add_attention(blk, i, arch_.layer_kv_heads[index], kind);
        if (arch_.parallel_mamba) add_mamba2(blk, i);
        break;
    }
    if (arch_.full_rank_output_gate && kind != AttentionKind::ssm && kind != AttentionKind::none) {
      int64_t width = kind == AttentionKind::mla      ? arch_.n_heads * arch_.v_head_dim
                      : kind == AttentionKind::linear ? arch_.linear_v_heads * arch_.linear_v_head_dim
                                                      : arch_.n_heads * arch_.layer_v_head_dim(kind);
      add_linear(blk + "attn_gate", TensorRole::attn_q, i, arch_.hidden, width, false);
    }
    if (arch_.attention_residuals) add_attention_residual(blk + "attn_res", i);
    if (arch_.hc_mult > 1 && i < arch_.n_layers) add_hyper_connection(blk, "attn", i);
    if (arch_.norms_per_layer == 4 || arch_.model_type == "olmo2") {
      add_norm(blk + "post_attention_norm", i, arch_.hidden);
    }
    if (arch_.attention_residuals) add_attention_residual(blk + "ffn_res", i);
    if (arch_.hc_mult > 1 && i < arch_.n_layers) add_hyper_connection(blk, "ffn", i);
    bool has_ffn = arch_.layer_moe[index] || arch_.layer_intermediate[index] > 0;
    if (arch_.norms_per_layer >= 2 && arch_.model_type != "olmo2" && has_ffn) {
      add_norm(blk + "ffn_norm", i, arch_.hidden);
    }
    if (arch_.layer_moe[index]) {
      add_moe(blk, i);
    } else if (arch_.layer_intermediate[index] > 0) {
      add_dense_mlp(blk, i, arch_.layer_intermediate[index], "");
    }
    if (arch_.norms_per_layer == 4 || arch_.model_type == "olmo2") {
      add_norm(blk + "post_ffw_norm", i, arch_.hidden);
    }
    if (arch_.ple_width > 0) {
      // Gemma 4 E2B / E4B: the layer's slice of the per-layer embedding gates its output
      // (per_layer_input_gate, per_layer_projection, post_per_layer_input_norm).
      add_linear(blk + "inp_gate", TensorRole::per_layer_proj, i, arch_.hidden, arch_.ple_width, false);
      add_linear(blk + "proj", TensorRole::per_layer_proj, i, arch_.ple_width, arch_.hidden, false);
      add_norm(blk + "post_norm", i, arch_.hidden);
    }
    if (arch_.layer_scalar) add(blk + "layer_output_scale.weight", TensorRole::norm, i, 1, 1);
  }

  // Kimi K3's attention residuals: a norm and a [1, hidden] projection.
  void add_attention_residual(const TensorName& name, int layer) {
    add_norm(name + "_norm", layer, arch_.hidden);
    add(name + "_proj.weight", TensorRole::norm, layer, arch_.hidden, 1);
  }

  // Gemma 4 E2B / E4B per-layer embeddings (modeling_gemma4.py): a [ple_vocab x layers *
  // ple_width] table looked up per token, a projection of the hidden state to the same width and
  // its norm.
  void add_per_layer_embeddings() {
    int64_t width = arch_.n_layers * arch_.ple_width;
    add("per_layer_token_embd.weight", TensorRole::per_layer_embd, -1, width, arch_.ple_vocab);
    add("per_layer_model_proj.weight", TensorRole::per_layer_proj, -1, arch_.hidden, width);
    add("per_layer_proj_norm.weight", TensorRole::norm, -1, arch_.ple_width, 1);
  }

  // Gemma 4 E2B / E4B audio encoder (modeling_gemma4.py Gemma4AudioModel). Subsampler: two 3x3
  // convolutions with norms (no biases) over 128 mel bins, halved twice, then a projection to the
  // model width. Each Conformer block: two macaron FFNs (4x wide, pre and post norms), attention
  // (q, k, v, post, a relative-position key projection, a per-dimension scale of one head's
  // width, pre and post norms), a light convolution (linear_start to 2x, a depthwise conv,
  // linear_end, two norms) and an output norm. Then output_proj (with a bias) and embed_audio
  // into the text width.
  void add_audio() {
    if (!arch_.audio) return;
    const AudioConfig& a = *arch_.audio;
    constexpr int64_t kMelBins = 128;  // Gemma4AudioFeatureExtractor feature_size
    set_part(ModelPart::audio);
    int64_t c0 = a.subsampling_channels[0];
    int64_t c1 = a.subsampling_channels[1];
    add("a.conv0.weight", TensorRole::vision, -1, 9, c0);
    add("a.conv0_norm.weight", TensorRole::vision, -1, c0, 1);
    add("a.conv1.weight", TensorRole::vision, -1, 9 * c0, c1);
    add("a.conv1_norm.weight", TensorRole::vision, -1, c1, 1);
    add("a.input_proj.weight", TensorRole::vision, -1, c1 * kMelBins / 4, a.hidden);
    int64_t h = a.hidden;
    for (int64_t l = 0; l < a.n_layers; ++l) {
      const TensorPrefix blk("a.blk." + std::to_string(l) + ".");
      for (const char* ffn : {"ffn_start", "ffn_end"}) {
        add(blk + ffn + "_pre_norm.weight", TensorRole::vision, -1, h, 1);
        add(blk + ffn + "_up.weight", TensorRole::vision, -1, h, 4 * h);
        add(blk + ffn + "_down.weight", TensorRole::vision, -1, 4 * h, h);
        add(blk + ffn + "_post_norm.weight", TensorRole::vision, -1, h, 1);
      }
      for (const char* name : {"attn_q", "attn_k", "attn_v", "attn_post", "attn_rel_k"}) {
        add(blk + name + ".weight", TensorRole::vision, -1, h, h);
      }
      add(blk + "attn_per_dim_scale.weight", TensorRole::vision, -1, h / a.heads, 1);
      add(blk + "attn_pre_norm.weight", TensorRole::vision, -1, h, 1);
      add(blk + "attn_post_norm.weight", TensorRole::vision, -1, h, 1);
      add(blk + "conv_start.weight", TensorRole::vision, -1, h, 2 * h);
      add(blk + "conv_dw.weight", TensorRole::vision, -1, a.conv_kernel, h);
      add(blk + "conv_end.weight", TensorRole::vision, -1, h, h);
      add(blk + "conv_pre_norm.weight", TensorRole::vision, -1, h, 1);
      add(blk + "conv_norm.weight", TensorRole::vision, -1, h, 1);
      add(blk + "out_norm.weight", TensorRole::vision, -1, h, 1);
    }
    add("a.output_proj.weight", TensorRole::vision, -1, h, a.output_dims);
    add("a.output_proj.bias", TensorRole::vision, -1, a.output_dims, 1);
    set_part(ModelPart::projector);
    add("mm.audio_projection.weight", TensorRole::projector, -1, a.output_dims, arch_.hidden);
    set_part(ModelPart::text);
  }

  // DeepSeek V2/V3 (modeling_deepseek_v3.py DeepseekV3Attention).
  void add_mla(const TensorPrefix& blk, int i) {
    int64_t q_head = arch_.qk_nope_head_dim + arch_.qk_rope_head_dim;
    if (arch_.q_lora_rank > 0) {
      add_linear(blk + "attn_q_a", TensorRole::attn_q_a, i, arch_.hidden, arch_.q_lora_rank,
                 false);
      add_norm(blk + "attn_q_a_norm", i, arch_.q_lora_rank);
      add_linear(blk + "attn_q_b", TensorRole::attn_q_b, i, arch_.q_lora_rank,
                 arch_.n_heads * q_head, false);
    } else {
      add_linear(blk + "attn_q", TensorRole::attn_q, i, arch_.hidden, arch_.n_heads * q_head,
                 false);
    }
    add_linear(blk + "attn_kv_a_mqa", TensorRole::attn_kv_a_mqa, i, arch_.hidden,
               arch_.kv_lora_rank + arch_.qk_rope_head_dim, false);
    add_norm(blk + "attn_kv_a_norm", i, arch_.kv_lora_rank);
    add_linear(blk + "attn_kv_b", TensorRole::attn_kv_b, i, arch_.kv_lora_rank,
               arch_.n_heads * (arch_.qk_nope_head_dim + arch_.v_head_dim), false);
    add_linear(blk + "attn_output", TensorRole::attn_output, i, arch_.n_heads * arch_.v_head_dim,
               arch_.hidden, false);
    if (arch_.head_output_gate) add_linear(blk + "attn_gate", TensorRole::attn_q, i, arch_.hidden, arch_.n_heads, false);
    if (arch_.indexer_heads > 0 && has_indexer(static_cast<std::size_t>(i))) {
      // DeepSeek V3.2 lightning indexer (inference/model.py Indexer): wq_b, wk, k_norm
      // (LayerNorm with bias), weights_proj.
      int64_t width = arch_.indexer_heads * arch_.indexer_head_dim;
      add_linear(blk + "indexer.attn_q_b", TensorRole::attn_q_b, i, arch_.q_lora_rank, width, false);
      add_linear(blk + "indexer.attn_k", TensorRole::attn_k, i, arch_.hidden, arch_.indexer_head_dim,
                 false);
      add(blk + "indexer.k_norm.weight", TensorRole::norm, i, arch_.indexer_head_dim, 1);
      add(blk + "indexer.k_norm.bias", TensorRole::norm, i, arch_.indexer_head_dim, 1);
      add_linear(blk + "indexer.proj", TensorRole::attn_output, i, arch_.hidden, arch_.indexer_heads,
                 false);
    }
  }

  // MiniMax lightning attention (modeling_minimax.py MiniMaxLightningAttention): fused qkv, a
  // sigmoid output gate, an RMSNorm over the heads, and the output projection.
  void add_lightning_attention(const TensorPrefix& blk, int i) {
    int64_t width = arch_.n_heads * arch_.head_dim;
    add_linear(blk + "attn_qkv", TensorRole::attn_qkv, i, arch_.hidden, 3 * width, false);
    add_linear(blk + "attn_gate", TensorRole::attn_q, i, arch_.hidden, width, false);
    add(blk + "attn_sub_norm.weight", TensorRole::norm, i, width, 1);
    add_linear(blk + "attn_output", TensorRole::attn_output, i, width, arch_.hidden, false);
  }

  // Mamba mixer (modeling_jamba.py JambaMambaMixer).
  void add_mamba(const TensorPrefix& blk, int i) {
    int64_t inner = arch_.mamba_d_inner;
    int64_t state = arch_.mamba_d_state;
    add_linear(blk + "ssm_in", TensorRole::ssm_in, i, arch_.hidden, 2 * inner, arch_.mamba_proj_bias);
    add(blk + "ssm_conv1d.weight", TensorRole::ssm_conv, i, arch_.mamba_d_conv, inner);
    if (arch_.mamba_conv_bias) add(blk + "ssm_conv1d.bias", TensorRole::ssm_small, i, inner, 1);
    add_linear(blk + "ssm_x", TensorRole::ssm_in, i, inner, arch_.mamba_dt_rank + 2 * state, false);
    add(blk + "ssm_dt.weight", TensorRole::ssm_in, i, arch_.mamba_dt_rank, inner);
    add(blk + "ssm_dt.bias", TensorRole::ssm_small, i, inner, 1);
    add(blk + "ssm_a", TensorRole::ssm_small, i, state, inner);
    add(blk + "ssm_d", TensorRole::ssm_small, i, inner, 1);
    if (arch_.mamba_dt_norms) {
      add(blk + "ssm_dt_norm.weight", TensorRole::norm, i, arch_.mamba_dt_rank, 1);
      add(blk + "ssm_b_norm.weight", TensorRole::norm, i, state, 1);
      add(blk + "ssm_c_norm.weight", TensorRole::norm, i, state, 1);
    }
    add_linear(blk + "ssm_out", TensorRole::ssm_out, i, inner, arch_.hidden, arch_.mamba_proj_bias);
  }

  // LFM2 gated short convolution (modeling_lfm2.py Lfm2ShortConv): in_proj to B, C, x; a
  // depthwise conv of conv_L_cache taps; out_proj.
  void add_short_conv(const TensorPrefix& blk, int i) {
    add_linear(blk + "shortconv.in_proj", TensorRole::ssm_in, i, arch_.hidden, 3 * arch_.hidden,
               arch_.short_conv_bias);
    add(blk + "shortconv.conv.weight", TensorRole::ssm_conv, i, arch_.short_conv_kernel, arch_.hidden);
    if (arch_.short_conv_bias) add(blk + "shortconv.conv.bias", TensorRole::ssm_small, i, arch_.hidden, 1);
    add_linear(blk + "shortconv.out_proj", TensorRole::ssm_out, i, arch_.hidden, arch_.hidden,
               arch_.short_conv_bias);
  }

  // Mamba2 mixer (modeling_nemotron_h.py NemotronHMamba2Mixer): in_proj to z, x, B, C and dt;
  // depthwise conv over x, B, C; per-head dt bias, A and D; a gated RMSNorm; out_proj.
  void add_mamba2(const TensorPrefix& blk, int i) {
    int64_t inner = arch_.mamba_d_inner;
    int64_t bc = 2 * arch_.mamba_groups * arch_.mamba_d_state;
    add_linear(blk + "ssm_in", TensorRole::ssm_in, i, arch_.hidden, 2 * inner + bc + arch_.mamba_heads,
               arch_.mamba_proj_bias);
    add(blk + "ssm_conv1d.weight", TensorRole::ssm_conv, i, arch_.mamba_d_conv, inner + bc);
    if (arch_.mamba_conv_bias) add(blk + "ssm_conv1d.bias", TensorRole::ssm_small, i, inner + bc, 1);
    add(blk + "ssm_dt.bias", TensorRole::ssm_small, i, arch_.mamba_heads, 1);
    add(blk + "ssm_a", TensorRole::ssm_small, i, arch_.mamba_heads, 1);
    add(blk + "ssm_d", TensorRole::ssm_small, i, arch_.mamba_heads, 1);
    if (arch_.mamba_gated_norm) add(blk + "ssm_norm.weight", TensorRole::norm, i, inner, 1);
    add_linear(blk + "ssm_out", TensorRole::ssm_out, i, inner, arch_.hidden, arch_.mamba_out_bias);
  }

  // Kimi Delta Attention (fla/layers/kda.py): q, k, v projections each with a depthwise short
  // convolution, low-rank decay (f_a, f_b) and output-gate (g_a, g_b) projections (full-rank ones
  // in Ling 3.0, named f_a / g_a as llama.cpp's converter writes them), the beta projection,
  // A_log, dt_bias, a gated output norm and o_proj; g_b has no bias in the checkpoints.
  void add_kda(const TensorPrefix& blk, int i) {
    int64_t width = arch_.linear_k_heads * arch_.linear_k_head_dim;
    for (const char* name : {"attn_q", "attn_k", "attn_v"}) {
      add_linear(blk + name, name[5] == 'q' ? TensorRole::attn_q : name[5] == 'k' ? TensorRole::attn_k : TensorRole::attn_v,
                 i, arch_.hidden, width, false);
      add(blk + name + "_conv.weight", TensorRole::ssm_conv, i, arch_.linear_conv_kernel, width);
    }
    if (arch_.kda_full_rank_gates) {
      add_linear(blk + "ssm_f_a", TensorRole::ssm_in, i, arch_.hidden, width, false);
      add_linear(blk + "ssm_g_a", TensorRole::ssm_in, i, arch_.hidden, width, false);
    } else {
      add_linear(blk + "ssm_f_a", TensorRole::ssm_in, i, arch_.hidden, arch_.linear_k_head_dim, false);
      add_linear(blk + "ssm_f_b", TensorRole::ssm_in, i, arch_.linear_k_head_dim, width, false);
      if (!arch_.full_rank_output_gate) {
        add_linear(blk + "ssm_g_a", TensorRole::ssm_in, i, arch_.hidden, arch_.linear_v_head_dim, false);
        add_linear(blk + "ssm_g_b", TensorRole::ssm_in, i, arch_.linear_v_head_dim, width, false);
      }
    }
    add_linear(blk + "ssm_beta", TensorRole::ssm_in, i, arch_.hidden, arch_.linear_k_heads, false);
    // A_log: one per head (Kimi Linear); Kimi K3's checkpoint stores [head_dim] (128 for 96 heads).
    add(blk + "ssm_a", TensorRole::ssm_small, i, arch_.full_rank_output_gate ? arch_.linear_k_head_dim : arch_.linear_k_heads, 1);
    add(blk + "ssm_dt.bias", TensorRole::ssm_small, i, width, 1);
    add(blk + "ssm_norm.weight", TensorRole::norm, i, arch_.linear_v_head_dim, 1);
    add_linear(blk + "attn_output", TensorRole::attn_output, i, width, arch_.hidden, false);
  }

  // DeepSeek V3 multi-token prediction: full decoder layers after the last one, each with its own
  // embedding/head copies, two norms and a 2h -> h projection (DeepSeek-V3 technical report §2.2).
  void add_mtp() {
    if (arch_.mtp_block_layers > 0) {
      add_mtp_block();
      return;
    }
    for (int64_t m = 0; m < arch_.mtp_layers; ++m) {
      int i = static_cast<int>(arch_.n_layers + m);
      add_layer(i, ModelPart::mtp);
      const TensorPrefix blk("blk." + std::to_string(i) + ".");
      if (arch_.mtp_eh_proj) {
        add_norm(blk + "nextn.enorm", i, arch_.hidden);
        add_norm(blk + "nextn.hnorm", i, arch_.hidden);
        add(blk + "nextn.eh_proj.weight", TensorRole::nextn_eh_proj, i, 2 * arch_.hidden, arch_.hidden);
      }
      if (arch_.mtp_shared_head_norm) add_norm(blk + "nextn.shared_head_norm", i, arch_.hidden);
      if (arch_.family && arch_.family->add_head_tensors) arch_.family->add_head_tensors(TensorPrefix(blk.text() + "nextn."), i, *this);
      // DeepSeek V3 and GLM-4.5 store their own embedding and head copies in the MTP layer
      // (the Hub totals count them); Qwen3-Next and GLM-5 share the main ones.
      if (arch_.mtp_own_embeddings) {
        add(blk + "nextn.embed_tokens.weight", TensorRole::token_embd, i, arch_.hidden,
            arch_.vocab);
        add(blk + "nextn.shared_head_head.weight", TensorRole::output, i, arch_.hidden,
            arch_.vocab);
      }
    }
    set_part(ModelPart::text);
  }

  // Nemotron-H's MTP block (Megatron-Bridge nemotron_h_bridge.py): its pattern's layers, the
  // first with enorm, hnorm and the 2h -> h eh_proj, the last with a final norm.
  void add_mtp_block() {
    for (int64_t k = 0; k < arch_.mtp_block_layers; ++k) {
      int i = static_cast<int>(arch_.n_layers + k);
      add_layer(i, ModelPart::mtp);
      const TensorPrefix blk("blk." + std::to_string(i) + ".");
      if (k == 0) {
        add_norm(blk + "nextn.enorm", i, arch_.hidden);
        add_norm(blk + "nextn.hnorm", i, arch_.hidden);
        add(blk + "nextn.eh_proj.weight", TensorRole::nextn_eh_proj, i, 2 * arch_.hidden, arch_.hidden);
      }
      if (k == arch_.mtp_block_layers - 1) add_norm(blk + "nextn.shared_head_norm", i, arch_.hidden);
    }
    set_part(ModelPart::text);
  }

  // Pixtral encoder (modeling_pixtral.py: bias-free conv patches, RMSNorms, gated MLP) and the
  // Mistral 3 projector (RMSNorm, patch merger, two linears without bias).
  void add_pixtral(const VisionConfig& v, int64_t patch_in) {
    add("v.patch_embd.weight", TensorRole::vision, -1, patch_in, v.hidden);
    add("v.pre_ln.weight", TensorRole::vision, -1, v.hidden, 1);
    for (int64_t l = 0; l < v.n_layers; ++l) {
      const TensorPrefix blk("v.blk." + std::to_string(l) + ".");
      add(blk + "attn_norm.weight", TensorRole::vision, -1, v.hidden, 1);
      add(blk + "ffn_norm.weight", TensorRole::vision, -1, v.hidden, 1);
      for (const char* name : {"attn_q", "attn_k", "attn_v", "attn_out"}) {
        add(blk + name + ".weight", TensorRole::vision, -1, v.hidden, v.hidden);
      }
      add(blk + "ffn_gate.weight", TensorRole::vision, -1, v.hidden, v.intermediate);
      add(blk + "ffn_up.weight", TensorRole::vision, -1, v.hidden, v.intermediate);
      add(blk + "ffn_down.weight", TensorRole::vision, -1, v.intermediate, v.hidden);
    }
    set_part(ModelPart::projector);
    add("mm.norm.weight", TensorRole::projector, -1, v.hidden, 1);
    add("mm.patch_merger.weight", TensorRole::projector, -1, v.adapter_in, v.hidden);
    add("mm.linear_1.weight", TensorRole::projector, -1, v.hidden, v.projector_out);
    add("mm.linear_2.weight", TensorRole::projector, -1, v.projector_out, v.projector_out);
    set_part(ModelPart::text);
  }

  // Qwen3-VL (modeling_qwen3_vl.py): biased Conv3d patches and learned positions, ViT blocks
  // with biases everywhere, then the merger and the deepstack mergers as the projector.
  void add_qwen3_vl_vision(const VisionConfig& v, int64_t patch_in) {
    add("v.patch_embd.weight", TensorRole::vision, -1, patch_in, v.hidden);
    add("v.patch_embd.bias", TensorRole::vision, -1, v.hidden, 1);
    add("v.position_embd.weight", TensorRole::vision, -1, v.hidden, v.num_positions);
    for (int64_t l = 0; l < v.n_layers; ++l) add_vit_block("v.blk." + std::to_string(l) + ".", v.hidden, v.intermediate);
    set_part(ModelPart::projector);
    add_patch_merger("mm.merger.", v, v.hidden);
    for (int64_t k = 0; k < v.deepstack_mergers; ++k) {
      add_patch_merger("mm.deepstack." + std::to_string(k) + ".", v, v.adapter_in);
    }
    set_part(ModelPart::text);
  }

  // Gemma 4 (modeling_gemma4.py Gemma4VisionModel, Gemma4MultimodalEmbedder).
  void add_gemma4_vision(const VisionConfig& v, int64_t patch_in) {
    add("v.patch_embd.weight", TensorRole::vision, -1, patch_in, v.hidden);
    add("v.position_embd.weight", TensorRole::vision, -1, v.hidden, 2 * v.num_positions);
    int64_t q_width = v.heads * v.head_dim;
    int64_t kv_width = v.kv_heads * v.head_dim;
    for (int64_t l = 0; l < v.n_layers; ++l) {
      const TensorPrefix blk("v.blk." + std::to_string(l) + ".");
      for (const char* name : {"ln1", "ln2", "ln3", "ln4"}) {
        add(blk + name + ".weight", TensorRole::vision, -1, v.hidden, 1);
      }
      add(blk + "attn_q.weight", TensorRole::vision, -1, v.hidden, q_width);
      add(blk + "attn_k.weight", TensorRole::vision, -1, v.hidden, kv_width);
      add(blk + "attn_v.weight", TensorRole::vision, -1, v.hidden, kv_width);
      add(blk + "attn_out.weight", TensorRole::vision, -1, q_width, v.hidden);
      add(blk + "attn_q_norm.weight", TensorRole::vision, -1, v.head_dim, 1);
      add(blk + "attn_k_norm.weight", TensorRole::vision, -1, v.head_dim, 1);
      add(blk + "ffn_gate.weight", TensorRole::vision, -1, v.hidden, v.intermediate);
      add(blk + "ffn_up.weight", TensorRole::vision, -1, v.hidden, v.intermediate);
      add(blk + "ffn_down.weight", TensorRole::vision, -1, v.intermediate, v.hidden);
    }
    set_part(ModelPart::projector);
    add("mm.input_projection.weight", TensorRole::projector, -1, v.hidden, v.projector_out);
    set_part(ModelPart::text);
  }

  // Kimi K2.5's and K3's MoonViT and patch merger (see read_moonvit).
  void add_moonvit(const VisionConfig& v) {
    int64_t d = v.hidden;
    auto norm = [&](const TensorName& name, int64_t width, TensorRole role) {
      add(name + ".weight", role, -1, width, 1);
      if (!v.rms_norm) add(name + ".bias", role, -1, width, 1);
    };
    add_linear("v.patch_embd", TensorRole::vision, -1, 3 * v.patch_size * v.patch_size, d, v.biases);
    add("v.position_embd.weight", TensorRole::vision, -1, d, v.num_positions);
    for (int64_t l = 0; l < v.n_layers; ++l) {
      const TensorPrefix blk("v.blk." + std::to_string(l) + ".");
      norm(blk + "ln1", d, TensorRole::vision);
      norm(blk + "ln2", d, TensorRole::vision);
      add_linear(blk + "attn_qkv", TensorRole::vision, -1, d, 3 * v.qkv_width, v.biases);
      add_linear(blk + "attn_out", TensorRole::vision, -1, v.qkv_width, d, v.biases);
      add_linear(blk + "ffn_up", TensorRole::vision, -1, d, v.intermediate, v.biases);
      add_linear(blk + "ffn_down", TensorRole::vision, -1, v.intermediate, d, v.biases);
    }
    norm("v.post_ln", d, TensorRole::vision);
    set_part(ModelPart::projector);
    if (!v.merger_v2) norm("mm.pre_norm", d, TensorRole::projector);
    add_linear("mm.1", TensorRole::projector, -1, v.adapter_in, v.adapter_in, v.biases);
    add_linear("mm.2", TensorRole::projector, -1, v.adapter_in, v.projector_out, v.biases);
    if (v.merger_v2) norm("mm.post_norm", v.projector_out, TensorRole::projector);
    set_part(ModelPart::text);
  }

  void add_patch_merger(const TensorPrefix& prefix, const VisionConfig& v, int64_t norm_width) {
    add(prefix + "norm.weight", TensorRole::projector, -1, norm_width, 1);
    add(prefix + "norm.bias", TensorRole::projector, -1, norm_width, 1);
    add(prefix + "fc1.weight", TensorRole::projector, -1, v.adapter_in, v.adapter_in);
    add(prefix + "fc1.bias", TensorRole::projector, -1, v.adapter_in, 1);
    add(prefix + "fc2.weight", TensorRole::projector, -1, v.adapter_in, v.projector_out);
    add(prefix + "fc2.bias", TensorRole::projector, -1, v.projector_out, 1);
  }

  // Vision encoders: SigLIP (modeling_siglip.py) with Gemma 3's projector, or Llama 4's
  // Llama4VisionModel (unfold-linear patches, class token, pre/post LayerNorm, pixel-shuffle MLP).
  void add_vision() {
    if (!arch_.vision) return;
    const VisionConfig& v = *arch_.vision;
    set_part(ModelPart::vision);
    int64_t side = v.image_size / v.patch_size;
    int64_t patch_in = v.patch_size * v.patch_size * v.channels;
    bool llama4 = v.kind == "llama4";
    if (v.kind == "pixtral") {
      add_pixtral(v, patch_in);
      return;
    }
    if (v.kind == "qwen3_vl") {
      add_qwen3_vl_vision(v, patch_in * v.temporal_patch);
      return;
    }
    if (v.kind == "gemma4") {
      add_gemma4_vision(v, patch_in);
      return;
    }
    if (v.kind == "moonvit") {
      add_moonvit(v);
      return;
    }
    add("v.patch_embd.weight", TensorRole::vision, -1, patch_in, v.hidden);
    if (llama4) {
      add("v.class_embd", TensorRole::vision, -1, v.hidden, 1);
      add("v.position_embd.weight", TensorRole::vision, -1, v.hidden, side * side + 1);
      add("v.pre_ln.weight", TensorRole::vision, -1, v.hidden, 1);
      add("v.pre_ln.bias", TensorRole::vision, -1, v.hidden, 1);
    } else {
      add("v.patch_embd.bias", TensorRole::vision, -1, v.hidden, 1);
      add("v.position_embd.weight", TensorRole::vision, -1, v.hidden, side * side);
    }
    for (int64_t l = 0; l < v.n_layers; ++l) add_vit_block("v.blk." + std::to_string(l) + ".", v.hidden, v.intermediate);
    add("v.post_ln.weight", TensorRole::vision, -1, v.hidden, 1);
    add("v.post_ln.bias", TensorRole::vision, -1, v.hidden, 1);
    set_part(ModelPart::projector);
    if (llama4) {
      add("v.adapter.fc1.weight", TensorRole::projector, -1, v.adapter_in, v.adapter_mid);
      add("v.adapter.fc2.weight", TensorRole::projector, -1, v.adapter_mid, v.adapter_out);
      add("mm.linear_1.weight", TensorRole::projector, -1, v.adapter_out, v.projector_out);
    } else {
      add("mm.input_projection.weight", TensorRole::projector, -1, v.hidden, v.projector_out);
      add("mm.soft_emb_norm.weight", TensorRole::projector, -1, v.hidden, 1);
    }
    set_part(ModelPart::text);
  }

  const ArchConfig& arch_;
  const bool repeat_alike_layers_;
  std::size_t previous_layer_first_ = 0;  // where the last decoder layer's tensors start
};

}  // namespace

std::vector<TensorSpec> tensor_inventory(const ArchConfig& arch, bool repeat_alike_layers) {
  return InventoryBuilder(arch, repeat_alike_layers).build();
}

}  // namespace llmcalc
