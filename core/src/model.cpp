// build_model: config.json (or Mistral's params.json) -> ModelSpec, and the JSON views of a model.
#include "llmcalc/model.h"

#include <map>
#include <string>
#include <utility>

#include "arch_config.h"
#include "json_text.h"
#include "mistral_params.h"
#include "mmproj_memory.h"

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
  if (arch->vision) {
    model.vision_kind = arch->vision->kind;
    model.vision_named_layers = arch->vision->named_layers;
    model.vision_named_hidden = arch->vision->named_hidden;
    model.vision_width = arch->vision->hidden;
    model.vision_mlp = arch->vision->intermediate;
    model.vision_patch = arch->vision->patch_size;
    model.vision_heads = arch->vision->heads;
    const VisionConfig& v = *arch->vision;
    if (v.kind == "qwen3_vl") {
      model.vision_patch_values = v.channels * v.temporal_patch * v.patch_size * v.patch_size;
      model.vision_merge_unit = v.adapter_in / v.hidden;
      model.vision_embed_width = v.projector_out * (1 + v.deepstack_mergers);
    }
  }
  model.fp8_checkpoint_keeps = arch->fp8_checkpoint_keeps;
  model.ssm_state_dtype_bytes = arch->ssm_state_dtype_bytes;
  model.layers = plan_layers(*arch);
  model.tensors = tensor_inventory(*arch);
  model.mmproj_file_bytes = mmproj_file_bytes(model.tensors);
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

void append_layer_summary(std::string& out, const ModelSpec& model) {
  // Consecutive identical layers are grouped so a 94-layer model stays readable.
  JsonListText groups(out);
  for (std::size_t i = 0; i < model.layers.size();) {
    const LayerSpec& layer = model.layers[i];
    const AttentionGeometry& a = layer.attention;
    std::size_t count = 1;
    while (i + count < model.layers.size() && same_shape(layer, model.layers[i + count])) ++count;
    JsonObjectText group(groups.item());
    group.string("attention", attention_label(a));
    if (a.compress_ratio > 0) group.integer("compress_ratio", a.compress_ratio);
    group.integer("count", static_cast<int64_t>(count));
    group.integer("expert_intermediate", layer.mlp.expert_intermediate);
    group.integer("experts", layer.mlp.n_experts);
    group.integer("experts_active", layer.mlp.n_experts_active);
    group.integer("first_layer", static_cast<int64_t>(i));
    group.integer("head_dim_k", a.head_dim_k);
    group.integer("head_dim_v", a.head_dim_v);
    if (a.indexer_head_dim > 0) group.integer("indexer_head_dim", a.indexer_head_dim);
    group.integer("intermediate", layer.mlp.intermediate);
    group.integer("kv_heads", a.n_kv_heads);
    if (a.kind == AttentionKind::mla) group.integer("kv_lora_rank", a.kv_lora_rank);
    group.string("mlp", layer.mlp.moe ? "moe" : "dense");
    group.integer("q_heads", a.n_q_heads);
    if (a.kind == AttentionKind::mla) group.integer("qk_rope_head_dim", a.qk_rope_head_dim);
    group.integer("shared_intermediate", layer.mlp.shared_intermediate);
    group.integer("window_tokens", a.window_tokens);
    i += count;
  }
}

void append_layer_counts(std::string& out, const ModelSpec& model) {
  std::map<std::string, int64_t> attention;
  std::map<std::string, int64_t> mlp;
  for (const LayerSpec& layer : model.layers) {
    ++attention[attention_label(layer.attention)];
    ++mlp[layer.mlp.moe ? "moe" : layer.mlp.intermediate > 0 ? "dense" : "none"];
  }
  JsonObjectText counts(out);
  for (const auto& [name, kinds] : {std::pair<const char*, const std::map<std::string, int64_t>&>{"attention", attention},
                                    {"mlp", mlp}}) {
    JsonObjectText kind_counts(counts.key(name));
    for (const auto& [kind, count] : kinds) kind_counts.integer(kind.c_str(), count);
  }
}

void append_params(std::string& out, const ParamCounts& p) {
  JsonObjectText o(out);
  o.integer("active", p.active);
  o.integer("attention", p.attention);
  o.integer("audio", p.audio);
  o.integer("embedding", p.embedding);
  o.integer("experts_routed", p.experts_routed);
  o.integer("experts_shared", p.experts_shared);
  o.integer("mlp_dense", p.mlp_dense);
  o.integer("mtp", p.mtp);
  o.integer("norms", p.norms);
  o.integer("output_head", p.output_head);
  o.integer("projector", p.projector);
  o.integer("recurrent", p.recurrent);
  o.integer("router", p.router);
  o.integer("text", p.text);
  o.integer("total", p.total);
  o.integer("vision", p.vision);
}

}  // namespace llmcalc
