// DeepSeek V4 (deepseek-ai/DeepSeek-V4-Flash / -Pro: config.json and inference/model.py; llama.cpp
// PR #24162, src/llama-kv-cache-dsv4.cpp): every layer attends over a sliding window of one shared
// K=V head (head_dim 512), and compress_ratios adds compressed entries: 4 (CSA, with a lightning
// indexer over index_head_dim keys) or 128 (HCA). Attention has a q LoRA, a grouped low-rank
// output and per-head sinks; hyper-connections mix hc_mult residual streams; all layers are MoE,
// the first num_hash_layers routed by a fixed token table instead of a score bias.
#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  arch.q_lora_rank = reader.integer("q_lora_rank", 1, kMaxHidden).value_or(0);
  arch.o_lora_rank = reader.integer("o_lora_rank", 1, kMaxHidden).value_or(0);
  arch.o_groups = reader.integer("o_groups", 1, kMaxHeads, 1).value_or(1);
  arch.hc_mult = reader.integer("hc_mult", 1, 64, 1).value_or(1);
  arch.hash_layers = reader.integer("num_hash_layers", 0, kMaxLayers, 0).value_or(0);
  arch.indexer_heads = reader.integer("index_n_heads", 1, kMaxHeads).value_or(0);
  arch.indexer_head_dim = reader.integer("index_head_dim", 1, kMaxHidden).value_or(0);
  arch.qk_rope_head_dim = reader.integer("qk_rope_head_dim", 0, kMaxHidden, 0).value_or(0);
  arch.n_kv_heads = 1;
  arch.v_head_dim = arch.head_dim;
  arch.mtp_own_embeddings = false;
  // llama.cpp keeps one stream per sequence even when llama-server unifies the others.
  arch.per_sequence_streams = true;
  auto ratios = text.find("compress_ratios");
  if (ratios == text.end() || !ratios->is_array() || static_cast<int64_t>(ratios->size()) < arch.n_layers) {
    reader.issues().error("missing_key", reader.path_of("compress_ratios"),
                          "DeepSeek V4 needs compress_ratios, one per layer.");
    return;
  }
  for (const auto& ratio : *ratios) {
    int64_t r = ratio.is_number_integer() ? ratio.get<int64_t>() : -1;
    if (r != 0 && r != 4 && r != 128) {
      reader.issues().error("bad_compress_ratio", reader.path_of("compress_ratios"),
                            "compress_ratios entries must be 0, 4 or 128.");
      return;
    }
    arch.layer_compress.push_back(r);
  }
  for (std::size_t i = 0; i < arch.layer_attention.size(); ++i) {
    arch.layer_attention[i] = AttentionKind::sliding;
    arch.layer_kv_heads[i] = 1;
  }
}

int64_t compress_ratio(const ArchConfig& arch, int64_t layer) {
  auto index = static_cast<std::size_t>(layer);
  return index < arch.layer_compress.size() ? arch.layer_compress[index] : 0;
}

// Shapes of the published checkpoints: the compressor is 2 x head_dim wide on the overlapping
// ratio-4 windows; the indexer has its own compressor.
void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t d = arch.hidden;
  int64_t hd = arch.head_dim;
  int64_t ratio = compress_ratio(arch, i);
  out.add_norm(blk + "attn_norm", i, d);
  out.add_norm(blk + "ffn_norm", i, d);
  out.add_linear(blk + "attn_q_a", TensorRole::attn_q_a, i, d, arch.q_lora_rank, false);
  out.add_norm(blk + "attn_q_a_norm", i, arch.q_lora_rank);
  out.add_linear(blk + "attn_q_b", TensorRole::attn_q_b, i, arch.q_lora_rank, arch.n_heads * hd, false);
  out.add_linear(blk + "attn_kv", TensorRole::attn_kv_a_mqa, i, d, hd, false);
  out.add_norm(blk + "attn_kv_norm", i, hd);
  out.add_linear(blk + "attn_output_a", TensorRole::attn_output, i, arch.n_heads * hd / arch.o_groups,
                 arch.o_groups * arch.o_lora_rank, false);
  out.add_linear(blk + "attn_output_b", TensorRole::attn_output, i, arch.o_groups * arch.o_lora_rank, d, false);
  out.add(blk + "attn_sinks.weight", TensorRole::attn_sinks, i, arch.n_heads, 1);
  out.add_hyper_connection(blk, "attn", i);
  out.add_hyper_connection(blk, "ffn", i);
  if (ratio > 0) {
    int64_t width = (ratio == 4 ? 2 : 1) * hd;
    out.add(blk + "attn_compressor.ape", TensorRole::norm, i, width, ratio);
    out.add_linear(blk + "attn_compressor_kv", TensorRole::attn_k, i, d, width, false);
    out.add_linear(blk + "attn_compressor_gate", TensorRole::attn_k, i, d, width, false);
    out.add_norm(blk + "attn_compressor_norm", i, hd);
  }
  if (ratio == 4) {
    int64_t ihd = arch.indexer_head_dim;
    out.add_linear(blk + "indexer.attn_q_b", TensorRole::attn_q_b, i, arch.q_lora_rank, arch.indexer_heads * ihd,
                   false);
    out.add_linear(blk + "indexer.proj", TensorRole::attn_output, i, d, arch.indexer_heads, false);
    out.add(blk + "indexer.compressor.ape", TensorRole::norm, i, 2 * ihd, 4);
    out.add_linear(blk + "indexer.compressor_kv", TensorRole::attn_k, i, d, 2 * ihd, false);
    out.add_linear(blk + "indexer.compressor_gate", TensorRole::attn_k, i, d, 2 * ihd, false);
    out.add_norm(blk + "indexer.compressor_norm", i, ihd);
  }
  out.add_linear(blk + "ffn_gate_inp", TensorRole::ffn_gate_inp, i, d, arch.n_experts, false);
  if (i >= arch.hash_layers) out.add(blk + "exp_probs_b.bias", TensorRole::bias, i, arch.n_experts, 1);
  out.add_linear(blk + "ffn_gate_exps", TensorRole::ffn_gate_exps, i, d, arch.moe_intermediate, false,
                 arch.n_experts);
  out.add_linear(blk + "ffn_up_exps", TensorRole::ffn_up_exps, i, d, arch.moe_intermediate, false, arch.n_experts);
  out.add_linear(blk + "ffn_down_exps", TensorRole::ffn_down_exps, i, arch.moe_intermediate, d, false,
                 arch.n_experts);
  if (arch.shared_intermediate > 0) out.add_dense_mlp(blk, i, arch.shared_intermediate, "_shexp");
}

// The final mixer of the hyper-connection streams before each head.
void add_head_tensors(const TensorPrefix& prefix, int layer, TensorList& out) {
  const ArchConfig& arch = out.arch();
  out.add(prefix + "hc_head_fn", TensorRole::norm, layer, arch.hc_mult * arch.hidden, arch.hc_mult);
  out.add(prefix + "hc_head_base", TensorRole::norm, layer, arch.hc_mult, 1);
  out.add(prefix + "hc_head_scale", TensorRole::norm, layer, 1, 1);
}

// One K row per token serves as K and V (llama.cpp dsv4_make_k_only). Compressor state, f32 per
// sequence (llama-kv-cache-dsv4.cpp): CSA 2 x (2 x 4 rows) x 2 x head_dim plus the indexer's
// 2 x 8 x 2 x index_head_dim; HCA 2 x 128 rows x head_dim.
void plan_attention(const ArchConfig& arch, int64_t layer, AttentionGeometry& attention) {
  attention.head_dim_v = 0;
  attention.qk_rope_head_dim = arch.qk_rope_head_dim;  // the paged servers store it in bf16
  int64_t ratio = compress_ratio(arch, layer);
  attention.compress_ratio = ratio;
  attention.compressed_width = ratio > 0 ? arch.head_dim : 0;
  if (ratio == 4) {
    attention.compressed_indexer_dim = arch.indexer_head_dim;
    attention.state_elements_per_seq = 2 * 8 * 2 * arch.head_dim + 2 * 8 * 2 * arch.indexer_head_dim;
  } else if (ratio == 128) {
    attention.state_elements_per_seq = 2 * 128 * arch.head_dim;
  }
}

}  // namespace

const FamilyDefinition& deepseek_v4_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"deepseek_v4"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    f.add_head_tensors = add_head_tensors;
    f.plan_attention = plan_attention;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
