// Laguna (poolside: Laguna XS.2, XS 2.1, S 2.1; model_type laguna, LagunaForCausalLM; llama.cpp
// arch "laguna"). Qwen3-MoE's attention with per-head q/k norms and 8 KV heads of 128, a gate per
// query head on the attention output (g_proj, hidden -> heads), and its own query-head count per
// layer (num_attention_heads_per_layer: 48 on the full-attention layers, 64 or 72 on the sliding
// ones; layer_types and the 512-token window read generically). Layer 0 a dense MLP
// (mlp_only_layers), the others 256 experts with a sigmoid router and its score-correction bias
// and one shared expert without a gate of its own. Checked against the tensor inventory of a
// Laguna-XS-2.1 checkpoint (Layr-Labs/mlxfast-challenge@4ea72c3b
// fixtures/poolside_laguna_xs_2_1_nvfp4_tensor_inventory.json: self_attn.g_proj [heads, hidden],
// q_norm / k_norm [128], mlp.gate.e_score_correction_bias [256], mlp.shared_expert.*).
#include "../arch_config.h"
#include "../family.h"
#include "../gguf_metadata.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  arch.qk_norm = true;
  arch.head_output_gate = true;
  arch.expert_score_bias = true;
  arch.shared_expert_gate = false;
  if (text.contains("num_attention_heads_per_layer")) {
    read_layer_integers(text, reader, "num_attention_heads_per_layer", arch.n_layers, 1, kMaxHeads,
                        "Laguna needs a query-head count from 1 to 16384", arch.layer_q_heads);
  }
}

// Its GGUF (the converters write head_count per block): the per-layer head counts; the layer
// types, the shared expert and the leading dense layer read generically.
void config_from_gguf(const nlohmann::json& metadata, const std::string& prefix, std::size_t,
                      nlohmann::json& config) {
  auto layers = static_cast<std::size_t>(config.value("num_hidden_layers", int64_t{0}));
  std::optional<std::vector<double>> heads = gguf_per_layer(metadata, prefix + "attention.head_count", layers);
  if (!heads || heads->size() < layers || layers == 0) return;
  nlohmann::json per_layer = nlohmann::json::array();
  for (std::size_t i = 0; i < layers; ++i) per_layer.push_back(static_cast<int64_t>((*heads)[i]));
  config["num_attention_heads_per_layer"] = per_layer;
  config["num_attention_heads"] = per_layer.front();
}

}  // namespace

const FamilyDefinition& laguna_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"laguna"};
    f.read_config = read_config;
    f.gguf_architectures = {"laguna"};
    f.config_from_gguf = config_from_gguf;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
