// build_model: config.json (or Mistral's params.json) -> ModelSpec, and the JSON views of a model.
#include "llmcalc/model.h"

#include "arch_config.h"
#include "mistral_params.h"

namespace llmcalc {

std::optional<ModelSpec> build_model(const nlohmann::json& config, const std::string& path,
                                     Issues& issues) {
  std::optional<nlohmann::json> from_params = config_from_mistral_params(config);
  std::optional<ArchConfig> arch = read_arch_config(from_params ? *from_params : config, path, issues);
  if (!arch) return std::nullopt;
  ModelSpec model;
  model.model_type = arch->model_type;
  model.hidden_size = arch->hidden;
  model.vocab_size = arch->vocab;
  model.n_layers = arch->n_layers;
  model.max_context_tokens = arch->max_context;
  model.tied_embeddings = arch->tied;
  model.mtp_layers = arch->mtp_layers;
  model.per_sequence_streams = arch->per_sequence_streams;
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

namespace {

// Falcon-H1's layers run attention and a Mamba2 mixer side by side: "full+ssm".
std::string attention_label(const AttentionGeometry& a) {
  std::string name = attention_kind_name(a.kind);
  bool recurrent = a.kind == AttentionKind::ssm || a.kind == AttentionKind::linear;
  return a.state_elements_per_seq > 0 && !recurrent ? name + "+ssm" : name;
}

bool same_shape(const LayerSpec& a, const LayerSpec& b) {
  const AttentionGeometry& x = a.attention;
  const AttentionGeometry& y = b.attention;
  return x.kind == y.kind && x.n_q_heads == y.n_q_heads && x.n_kv_heads == y.n_kv_heads &&
         x.head_dim_k == y.head_dim_k && x.head_dim_v == y.head_dim_v &&
         x.window_tokens == y.window_tokens && x.kv_lora_rank == y.kv_lora_rank &&
         x.qk_rope_head_dim == y.qk_rope_head_dim && x.indexer_head_dim == y.indexer_head_dim &&
         x.compress_ratio == y.compress_ratio &&
         x.state_elements_per_seq == y.state_elements_per_seq && a.mlp.moe == b.mlp.moe &&
         a.mlp.intermediate == b.mlp.intermediate && a.mlp.n_experts == b.mlp.n_experts &&
         a.mlp.n_experts_active == b.mlp.n_experts_active &&
         a.mlp.expert_intermediate == b.mlp.expert_intermediate &&
         a.mlp.shared_intermediate == b.mlp.shared_intermediate;
}

}  // namespace

nlohmann::json layer_summary_json(const ModelSpec& model) {
  // Consecutive identical layers are grouped so a 94-layer model stays readable.
  nlohmann::json groups = nlohmann::json::array();
  for (std::size_t i = 0; i < model.layers.size();) {
    const LayerSpec& layer = model.layers[i];
    std::size_t count = 1;
    while (i + count < model.layers.size() && same_shape(layer, model.layers[i + count])) ++count;
    nlohmann::json entry = {
        {"first_layer", i},
        {"count", count},
        {"attention", attention_label(layer.attention)},
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
    if (layer.attention.indexer_head_dim > 0) entry["indexer_head_dim"] = layer.attention.indexer_head_dim;
    if (layer.attention.compress_ratio > 0) entry["compress_ratio"] = layer.attention.compress_ratio;
    groups.push_back(std::move(entry));
    i += count;
  }
  return groups;
}

nlohmann::json layer_counts_json(const ModelSpec& model) {
  nlohmann::json attention = nlohmann::json::object();
  nlohmann::json mlp = nlohmann::json::object();
  for (const LayerSpec& layer : model.layers) {
    std::string kind = attention_label(layer.attention);
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
          {"audio", p.audio},          {"mtp", p.mtp}};
}

}  // namespace llmcalc
