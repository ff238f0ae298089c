// The tensor shapes families share: attention, gated DeltaNet, a dense MLP and a routed-expert block.
#include "tensor_list.h"

#include <charconv>
#include <string_view>

namespace llmcalc {

void TensorList::add_dense_mlp(const TensorPrefix& blk, int layer, int64_t width, const std::string& suffix) {
  bool shared = !suffix.empty();
  if (arch_.gated_mlp) {
    add_linear(blk + "ffn_gate" + suffix, shared ? TensorRole::ffn_gate_shexp : TensorRole::ffn_gate, layer,
               arch_.hidden, width, arch_.mlp_bias);
  }
  add_linear(blk + "ffn_up" + suffix, shared ? TensorRole::ffn_up_shexp : TensorRole::ffn_up, layer,
             arch_.hidden, width, arch_.mlp_bias);
  add_linear(blk + "ffn_down" + suffix, shared ? TensorRole::ffn_down_shexp : TensorRole::ffn_down, layer, width,
             arch_.hidden, arch_.mlp_bias);
}

void TensorList::add_hyper_connection(const TensorPrefix& blk, const char* where, int layer) {
  const int64_t mixes = (2 + arch_.hc_mult) * arch_.hc_mult;
  add(blk + "hc_" + where + "_fn", TensorRole::norm, layer, arch_.hc_mult * arch_.hidden, mixes);
  add(blk + "hc_" + where + "_base", TensorRole::norm, layer, mixes, 1);
  add(blk + "hc_" + where + "_scale", TensorRole::norm, layer, 3, 1);
}

void TensorList::add_moe(const TensorPrefix& blk, int i) {
  int64_t experts = arch_.n_experts;
  int64_t width = arch_.moe_intermediate;
  add_linear(blk + "ffn_gate_inp", TensorRole::ffn_gate_inp, i, arch_.hidden, experts,
             arch_.router_bias);
  if (arch_.expert_score_bias) add(blk + "exp_probs_b.bias", TensorRole::bias, i, experts, 1);
  if (arch_.router_scales) {
    add(blk + "ffn_gate_inp.scale", TensorRole::ffn_gate_inp, i, arch_.hidden, 1);
    add(blk + "ffn_gate_inp.expert_scale", TensorRole::ffn_gate_inp, i, experts, 1);
  }
  for (int n = 0; n < arch_.moe_extra_norms; ++n) {
    add_norm(blk + "ffn_exps_norm_" + std::to_string(n), i, arch_.hidden);
  }
  // LatentMoE: every token passes the two latent projections; the experts read the latent.
  int64_t in = arch_.moe_latent > 0 ? arch_.moe_latent : arch_.hidden;
  if (arch_.moe_latent > 0) {
    add_linear(blk + "ffn_latent_in", TensorRole::ffn_up, i, arch_.hidden, in, arch_.mlp_bias);
    add_linear(blk + "ffn_latent_out", TensorRole::ffn_down, i, in, arch_.hidden, arch_.mlp_bias);
    if (arch_.moe_latent_norm) add_norm(blk + "ffn_latent_norm", i, in);
  }
  if (arch_.gated_mlp) {
    add_linear(blk + "ffn_gate_exps", TensorRole::ffn_gate_exps, i, in, width,
               arch_.expert_bias, experts);
  }
  add_linear(blk + "ffn_up_exps", TensorRole::ffn_up_exps, i, in, width,
             arch_.expert_bias, experts);
  add_linear(blk + "ffn_down_exps", TensorRole::ffn_down_exps, i, width, in,
             arch_.expert_bias, experts);
  if (arch_.shared_intermediate > 0) {
    add_dense_mlp(blk, i, arch_.shared_intermediate, "_shexp");
    if (arch_.shared_expert_gate) {
      add(blk + "ffn_gate_inp_shexp.weight", TensorRole::ffn_gate_inp_shexp, i, arch_.hidden, 1);
    }
  }
}

// Query, key and value projections (or a fused qkv), the output, a gate per query head, per-head
// q/k norms and sinks as the family has them; a layer of `kind` takes its head widths (Gemma 4's
// full layers), and its own query-head count where the family gives one per layer.
void TensorList::add_attention(const TensorPrefix& blk, int i, int64_t kv_heads, AttentionKind kind) {
  int64_t head_dim = arch_.layer_head_dim(kind);
  int64_t v_head_dim = arch_.layer_v_head_dim(kind);
  bool global = kind == AttentionKind::full;
  int64_t heads = arch_.layer_heads(i);
  int64_t q_out = heads * head_dim * (arch_.attn_output_gate ? 2 : 1);
  int64_t k_out = kv_heads * head_dim;
  int64_t v_out = kv_heads * v_head_dim;
  if (arch_.fused_qkv) {
    add_linear(blk + "attn_qkv", TensorRole::attn_qkv, i, arch_.hidden, q_out + k_out + v_out,
               arch_.qkv_bias);
  } else {
    add_linear(blk + "attn_q", TensorRole::attn_q, i, arch_.hidden, q_out, arch_.qkv_bias);
    add_linear(blk + "attn_k", TensorRole::attn_k, i, arch_.hidden, k_out, arch_.qkv_bias);
    if (!(global && arch_.k_eq_v)) {
      add_linear(blk + "attn_v", TensorRole::attn_v, i, arch_.hidden, v_out, arch_.qkv_bias);
    }
  }
  add_linear(blk + "attn_output", TensorRole::attn_output, i, heads * v_head_dim, arch_.hidden, arch_.o_bias);
  if (arch_.head_output_gate) add_linear(blk + "attn_gate", TensorRole::attn_q, i, arch_.hidden, heads, false);
  if (arch_.qk_norm) {
    add_norm(blk + "attn_q_norm", i, arch_.qk_norm_full_width ? heads * head_dim : head_dim);
    add_norm(blk + "attn_k_norm", i, arch_.qk_norm_full_width ? k_out : head_dim);
  }
  if (arch_.attention_sinks && (!global || arch_.full_attention_sinks)) {
    add(blk + "attn_sinks.weight", TensorRole::attn_sinks, i, heads, 1);
  }
}

void TensorList::add_tower_norm(const std::string& name, TensorRole role, int64_t width) {
  add(TensorPrefix(name) + ".weight", role, -1, width, 1);
  add(TensorPrefix(name) + ".bias", role, -1, width, 1);
}

void TensorList::add_tower_linear(const std::string& name, TensorRole role, int64_t in, int64_t out) {
  add(TensorPrefix(name) + ".weight", role, -1, in, out);
  add(TensorPrefix(name) + ".bias", role, -1, out, 1);
}

void TensorList::add_vit_block(const std::string& blk, int64_t width, int64_t mlp) {
  add_tower_norm(blk + "ln1", TensorRole::vision, width);
  for (const char* name : {"attn_q", "attn_k", "attn_v", "attn_out"}) {
    add_tower_linear(blk + name, TensorRole::vision, width, width);
  }
  add_tower_norm(blk + "ln2", TensorRole::vision, width);
  add_tower_linear(blk + "ffn_up", TensorRole::vision, width, mlp);
  add_tower_linear(blk + "ffn_down", TensorRole::vision, mlp, width);
}

void TensorList::add_vit_tower(int64_t patch_values, int64_t width, int64_t mlp, int64_t layers) {
  add("v.patch_embd.weight", TensorRole::vision, -1, patch_values, width);
  add_tower_norm("v.pre_ln", TensorRole::vision, width);
  for (int64_t layer = 0; layer < layers; ++layer) add_vit_block("v.blk." + std::to_string(layer) + ".", width, mlp);
}

// Qwen3-Next gated DeltaNet (modeling_qwen3_next.py Qwen3NextGatedDeltaNet), its input
// projections named as llama.cpp's converter writes them (conversion/qwen.py at 03173d5e,
// src/models/qwen3next.cpp at 02ebd8f7; Qwen3.5's as src/models/qwen35.cpp and qwen35moe.cpp load
// them, read in the erm14254/llama.cpp-minimax-m3-combined fork at 7e743c3a, 2026-07-23). Its
// src/llama-quant.cpp gives every attn_qkv the attn_v rules (since PR #19770).
void TensorList::add_linear_attention(const TensorPrefix& blk, int i) {
  int64_t key_dim = arch_.linear_k_heads * arch_.linear_k_head_dim;
  int64_t value_dim = arch_.linear_v_heads * arch_.linear_v_head_dim;
  if (arch_.linear_input == LinearInputLayout::fused_qkvz) {
    add_linear(blk + "ssm_in", TensorRole::ssm_in, i, arch_.hidden, 2 * key_dim + 2 * value_dim, false);
  } else {
    add_linear(blk + "attn_qkv", TensorRole::linear_qkv, i, arch_.hidden, 2 * key_dim + value_dim, false);
    add_linear(blk + "attn_gate", TensorRole::ssm_in, i, arch_.hidden, value_dim, false);
  }
  if (arch_.linear_input == LinearInputLayout::qkv_gate_beta_alpha) {
    add_linear(blk + "ssm_beta", TensorRole::ssm_in, i, arch_.hidden, arch_.linear_v_heads, false);
    add_linear(blk + "ssm_alpha", TensorRole::ssm_in, i, arch_.hidden, arch_.linear_v_heads, false);
  } else {
    add_linear(blk + "ssm_ba", TensorRole::ssm_in, i, arch_.hidden, 2 * arch_.linear_v_heads, false);
  }
  add(blk + "ssm_conv1d.weight", TensorRole::ssm_conv, i, arch_.linear_conv_kernel,
      2 * key_dim + value_dim);
  add(blk + "ssm_dt.bias", TensorRole::ssm_small, i, arch_.linear_v_heads, 1);
  add(blk + "ssm_a", TensorRole::ssm_small, i, arch_.linear_v_heads, 1);
  add(blk + "ssm_norm.weight", TensorRole::norm, i, arch_.linear_v_head_dim, 1);
  add_linear(blk + "ssm_out", TensorRole::ssm_out, i, value_dim, arch_.hidden, false);
}

void TensorList::repeat_layer(std::size_t first, std::size_t end, int from, int to) {
  // "blk.<to>." written once (a string per layer was a quarter of the copying; issue #22).
  char to_prefix[16] = "blk.";
  char* digits_end = std::to_chars(to_prefix + 4, to_prefix + sizeof to_prefix - 1, to).ptr;
  *digits_end = '.';
  const std::string_view prefix(to_prefix, static_cast<std::size_t>(digits_end + 1 - to_prefix));
  char from_digits[12];
  const char* from_digits_end = std::to_chars(from_digits, from_digits + sizeof from_digits, from).ptr;
  const std::size_t from_length = static_cast<std::size_t>(from_digits_end - from_digits) + 5;  // "blk." and "."
  for (std::size_t k = first; k < end; ++k) {
    tensors_.emplace_back(tensors_[k]);  // copies before any move of the list (as push_back does)
    TensorSpec& copy = tensors_.back();
    copy.layer = to;
    copy.name.replace_prefix(from_length, prefix);
  }
}

}  // namespace llmcalc
