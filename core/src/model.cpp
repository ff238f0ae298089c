// build_model: config.json -> ModelSpec, and the JSON views of a model.
#include "llmcalc/model.h"

#include "arch_config.h"

namespace llmcalc {

std::optional<ModelSpec> build_model(const nlohmann::json& config, const std::string& path,
                                     Issues& issues) {
  std::optional<ArchConfig> arch = read_arch_config(config, path, issues);
  if (!arch) return std::nullopt;
  ModelSpec model;
  model.model_type = arch->model_type;
  model.hidden_size = arch->hidden;
  model.vocab_size = arch->vocab;
  model.n_layers = arch->n_layers;
  model.max_context_tokens = arch->max_context;
  model.tied_embeddings = arch->tied;
  model.layers = plan_layers(*arch);
  model.tensors = tensor_inventory(*arch);
  model.params = count_params(model.tensors, *arch);
  return model;
}

const char* attention_kind_name(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::full: return "full";
    case AttentionKind::sliding: return "sliding";
    case AttentionKind::chunked: return "chunked";
    case AttentionKind::mla: return "mla";
    case AttentionKind::linear: return "linear";
    case AttentionKind::ssm: return "ssm";
    case AttentionKind::none: return "none";
  }
  return "full";
}

nlohmann::json layer_summary_json(const ModelSpec& model) {
  // Consecutive identical layers are grouped so a 94-layer model stays readable.
  nlohmann::json groups = nlohmann::json::array();
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const LayerSpec& layer = model.layers[i];
    nlohmann::json entry = {
        {"attention", attention_kind_name(layer.attention.kind)},
        {"q_heads", layer.attention.n_q_heads},
        {"kv_heads", layer.attention.n_kv_heads},
        {"head_dim_k", layer.attention.head_dim_k},
        {"head_dim_v", layer.attention.head_dim_v},
        {"window_tokens", layer.attention.window_tokens},
        {"mlp", layer.mlp.moe ? "moe" : "dense"},
        {"intermediate", layer.mlp.intermediate},
        {"experts", layer.mlp.n_experts},
        {"experts_active", layer.mlp.n_experts_active},
        {"expert_intermediate", layer.mlp.expert_intermediate},
        {"shared_intermediate", layer.mlp.shared_intermediate}};
    if (layer.attention.kind == AttentionKind::mla) {
      entry["kv_lora_rank"] = layer.attention.kv_lora_rank;
      entry["qk_rope_head_dim"] = layer.attention.qk_rope_head_dim;
    }
    if (!groups.empty()) {
      nlohmann::json& last = groups.back();
      nlohmann::json shape = last;
      shape.erase("first_layer");
      shape.erase("count");
      if (shape == entry) {
        last["count"] = last["count"].get<int64_t>() + 1;
        continue;
      }
    }
    entry["first_layer"] = i;
    entry["count"] = 1;
    groups.push_back(entry);
  }
  return groups;
}

nlohmann::json layer_counts_json(const ModelSpec& model) {
  nlohmann::json attention = nlohmann::json::object();
  nlohmann::json mlp = nlohmann::json::object();
  for (const LayerSpec& layer : model.layers) {
    const char* kind = attention_kind_name(layer.attention.kind);
    attention[kind] = attention.value(kind, 0) + 1;
    const char* mlp_kind = layer.mlp.moe ? "moe" : layer.mlp.intermediate > 0 ? "dense" : "none";
    mlp[mlp_kind] = mlp.value(mlp_kind, 0) + 1;
  }
  return {{"attention", attention}, {"mlp", mlp}};
}

nlohmann::json params_json(const ParamCounts& p) {
  return {{"total", p.total},          {"active", p.active},
          {"text", p.text},            {"embedding", p.embedding},
          {"output_head", p.output_head}, {"attention", p.attention},
          {"mlp_dense", p.mlp_dense},  {"experts_routed", p.experts_routed},
          {"experts_shared", p.experts_shared}, {"router", p.router},
          {"norms", p.norms},          {"recurrent", p.recurrent},
          {"vision", p.vision},        {"projector", p.projector},
          {"mtp", p.mtp}};
}

}  // namespace llmcalc
