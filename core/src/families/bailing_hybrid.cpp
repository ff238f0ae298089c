// Ling 3.0 (inclusionAI Ling-3.0-flash / -tiny, August 2026; model_type bailing_hybrid,
// BailingMoeV3ForCausalLM; llama.cpp arch bailingmoe3, PR #26608). DeepSeek V3's MoE and MLA, read
// as deepseek_v3: a sigmoid noaux_tc router with its score-correction bias, one shared expert,
// first_k_dense_replace dense layers, one MTP layer on the shared embedding and head. Every
// layer_group_size-th layer (and any past the last whole group) is MLA with a query projection of
// its own rank and a gate per head on the output (g_proj, hidden -> heads); the others are Kimi
// Delta Attention with full-rank decay and output-gate projections (no_kda_lora: f_proj and g_proj,
// hidden -> heads x head_dim) beside Kimi Linear's q, k, v with their short convolutions, beta,
// A_log per head, dt_bias and gated norm; no q/k norms in either (use_qk_norm is not read by the
// modeling code). From modeling_bailing_moe_v3.py of inclusionAI/Ling-3.0-flash at revision
// 42766a8 as a training port transcribes it (search-index file id 61517763007) and llama.cpp's
// converter (conversion BailingMoeV3Model, file id 57419669165: the same full-attention rule, the
// MTP layer kept as one more block unless --no-mtp). Ling-3.0-flash by hand: 127,486,405,600, the
// safetensors total (tests/core/test_params.cpp). The Lightning-attention form of bailing_hybrid
// (Ring-2.5 / 2.6, BailingMoeV2_5) is not modelled: it is refused.
#include "../arch_config.h"
#include "../family.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  if (!text.contains("no_kda_lora")) {
    reader.issues().error("not_modelled", reader.path_of("model_type"),
                          "bailing_hybrid with Lightning linear attention (Ring-2.5 / 2.6) is not modelled; "
                          "the Kimi Delta Attention form (Ling 3.0) is.");
    return;
  }
  int64_t group = reader.integer("layer_group_size", 1, kMaxLayers).value_or(1);
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    bool mla = (i + 1) % group == 0 || i >= arch.n_layers / group * group;
    arch.layer_attention[static_cast<std::size_t>(i)] = mla ? AttentionKind::mla : AttentionKind::linear;
  }
  arch.kda = true;
  arch.kda_full_rank_gates = reader.boolean("no_kda_lora", false).value_or(false);
  arch.linear_k_heads = arch.n_heads;
  arch.linear_v_heads = arch.n_heads;
  arch.linear_k_head_dim = reader.integer("head_dim", 1, kMaxHidden).value_or(0);
  arch.linear_v_head_dim = arch.linear_k_head_dim;
  arch.linear_conv_kernel = reader.integer("short_conv_kernel_size", 1, 64, 4).value_or(4);
  arch.head_output_gate =
      reader.string("gated_attention_proj_granularity_type", 32, std::string()).value_or("") == "head_wise";
  arch.qk_norm = false;
  arch.mtp_own_embeddings = false;
}

}  // namespace

const FamilyDefinition& bailing_hybrid_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"bailing_hybrid"};
    f.reads_text_as = "deepseek_v3";
    f.read_config = read_config;
    f.gguf_architectures = {"bailingmoe3"};
    return f;
  }();
  return family;
}

}  // namespace llmcalc
