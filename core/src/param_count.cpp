// Exact parameter counts by component, summed from the tensor inventory.
#include "arch_config.h"

namespace llmcalc {

ParamCounts count_params(const std::vector<TensorSpec>& tensors, const ArchConfig& arch) {
  ParamCounts p;
  int64_t routed_inactive = 0;
  for (const TensorSpec& t : tensors) {
    int64_t n = t.elements();
    p.total += n;
    switch (t.part) {
      case ModelPart::vision: p.vision += n; continue;
      case ModelPart::projector: p.projector += n; continue;
      case ModelPart::mtp: p.mtp += n; continue;
      case ModelPart::audio: p.audio += n; continue;
      case ModelPart::text: break;
    }
    p.text += n;
    switch (t.role) {
      case TensorRole::token_embd: case TensorRole::per_layer_embd: case TensorRole::per_layer_proj:
        p.embedding += n;
        break;
      case TensorRole::output: p.output_head += n; break;
      case TensorRole::norm: p.norms += n; break;
      case TensorRole::attn_q: case TensorRole::attn_k: case TensorRole::attn_v:
      case TensorRole::attn_qkv: case TensorRole::attn_output: case TensorRole::attn_q_a:
      case TensorRole::attn_q_b: case TensorRole::attn_kv_a_mqa: case TensorRole::attn_kv_b:
      case TensorRole::attn_sinks:
        p.attention += n;
        break;
      case TensorRole::ffn_gate: case TensorRole::ffn_up: case TensorRole::ffn_down:
        p.mlp_dense += n;
        break;
      case TensorRole::ffn_gate_exps: case TensorRole::ffn_up_exps:
      case TensorRole::ffn_down_exps:
        p.experts_routed += n;
        routed_inactive += n / t.ne2 * (t.ne2 - arch.n_experts_active);
        break;
      case TensorRole::ffn_gate_shexp: case TensorRole::ffn_up_shexp:
      case TensorRole::ffn_down_shexp: case TensorRole::ffn_gate_inp_shexp:
        p.experts_shared += n;
        break;
      case TensorRole::ffn_gate_inp: p.router += n; break;
      case TensorRole::ssm_in: case TensorRole::ssm_out: case TensorRole::ssm_conv:
      case TensorRole::ssm_small: case TensorRole::linear_qkv:
        p.recurrent += n;
        break;
      case TensorRole::bias:
        // Biases belong to the projection before them; attribute by name.
        if (t.name.find("exps") != std::string::npos) {
          p.experts_routed += n;
          routed_inactive += n / t.ne2 * (t.ne2 - arch.n_experts_active);
        } else if (t.name.find("ffn_gate_inp") != std::string::npos ||
                   t.name.find("exp_probs") != std::string::npos) {
          p.router += n;
        } else if (t.name.find("ffn") != std::string::npos) {
          p.mlp_dense += n;
        } else if (t.name.find("ssm") != std::string::npos) {
          p.recurrent += n;
        } else {
          p.attention += n;
        }
        break;
      default: break;
    }
  }
  p.active = p.text - routed_inactive;
  return p;
}

}  // namespace llmcalc
