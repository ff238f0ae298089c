// The tensor shapes families share: a dense MLP and a routed-expert block.
#include "tensor_list.h"

namespace llmcalc {

void TensorList::add_dense_mlp(const std::string& blk, int layer, int64_t width, const std::string& suffix) {
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

void TensorList::add_moe(const std::string& blk, int i) {
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

}  // namespace llmcalc
