// Step-3.5 Flash (stepfun-ai/Step-3.5-Flash, model_type step3p5; llama.cpp arch "step35", PR #19283:
// conversion Step35Model, src/models/step35.cpp). Full-attention layers (num_attention_heads query
// heads) and sliding-window layers with their own head count (attention_other_setting), both with
// num_attention_groups KV heads and per-head q/k norms; every layer gates its attention output with
// one sigmoid per head (g_proj [heads, hidden]). The layers in moe_layers_enum are MoE with a
// shared expert of share_expert_dim and a per-expert router bias; the others dense. The
// num_nextn_predict_layers MTP layers are sliding, dense, and have their own output head (shared
// embedding). layer_types lists the MTP layers too (45 + 3 entries). Shapes checked against the
// checkpoint's per-tensor dump (jamesyc/MoEspeedcalc@94c4ef25 models/step-3.5-flash.json).
#include <algorithm>
#include <cstdlib>

#include "../arch_config.h"
#include "../family.h"
#include "../gguf_metadata.h"
#include "../tensor_list.h"
#include "llmcalc/json_reader.h"

namespace llmcalc {
namespace {

// One entry per layer, MTP layers included: the layer_types entry, else the last decoder layer's.
AttentionKind layer_kind(const nlohmann::json& text, const ArchConfig& arch, int64_t layer) {
  auto types = text.find("layer_types");
  if (types != text.end() && types->is_array() && layer < static_cast<int64_t>(types->size())) {
    const auto& entry = (*types)[static_cast<std::size_t>(layer)];
    if (entry.is_string() && entry.get<std::string>() == "sliding_attention") return AttentionKind::sliding;
    if (entry.is_string() && entry.get<std::string>() == "full_attention") return AttentionKind::full;
  }
  return arch.layer_attention[static_cast<std::size_t>(std::min(layer, arch.n_layers - 1))];
}

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  int64_t kv_heads = reader.integer("num_attention_groups", 1, kMaxHeads, arch.n_kv_heads).value_or(1);
  int64_t sliding_heads = arch.n_heads;
  int64_t sliding_kv_heads = kv_heads;
  if (const nlohmann::json* other = reader.object("attention_other_setting")) {
    JsonReader sliding(*other, reader.path_of("attention_other_setting"), reader.issues());
    sliding_heads = sliding.integer("num_attention_heads", 1, kMaxHeads, arch.n_heads).value_or(arch.n_heads);
    sliding_kv_heads = sliding.integer("num_attention_groups", 1, kMaxHeads, kv_heads).value_or(kv_heads);
  }
  arch.n_kv_heads = kv_heads;
  arch.qk_norm = true;
  arch.head_output_gate = true;
  arch.expert_score_bias = true;  // moe.router_bias, one per expert (F32 in the checkpoint)
  arch.shared_intermediate = reader.integer("share_expert_dim", 0, kMaxHidden * 64, 0).value_or(0);
  arch.mtp_own_embeddings = false;
  int64_t total = arch.n_layers + arch.mtp_layers;
  arch.layer_q_heads.clear();
  for (int64_t i = 0; i < total; ++i) {
    AttentionKind kind = layer_kind(text, arch, i);
    arch.layer_q_heads.push_back(kind == AttentionKind::sliding ? sliding_heads : arch.n_heads);
    if (i < arch.n_layers) {
      arch.layer_kv_heads[static_cast<std::size_t>(i)] = kind == AttentionKind::sliding ? sliding_kv_heads : kv_heads;
    }
  }
  // moe_layers_enum: comma-separated MoE layer indices; the others (MTP layers too) are dense.
  arch.layer_moe.assign(static_cast<std::size_t>(total), false);
  auto listed = text.find("moe_layers_enum");
  if (listed == text.end() || !listed->is_string()) return;
  const std::string& entries = listed->get_ref<const std::string&>();
  if (entries.empty()) return;
  for (std::size_t start = 0; start <= entries.size();) {
    std::size_t comma = std::min(entries.find(',', start), entries.size());
    std::string entry = entries.substr(start, comma - start);
    char* end = nullptr;
    long index = std::strtol(entry.c_str(), &end, 10);
    if (end == entry.c_str() || index < 0 || index >= total) {
      reader.issues().error("bad_moe_layers", reader.path_of("moe_layers_enum"),
                            "moe_layers_enum must list layer indices below the layer count, separated by commas.");
      return;
    }
    arch.layer_moe[static_cast<std::size_t>(index)] = true;
    start = comma + 1;
  }
}

// The MTP layers past the decoder's take their own head counts and a dense MLP, which the generic
// layer (the last decoder layer's shape) would not.
void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  auto index = static_cast<std::size_t>(i);
  int64_t d = arch.hidden;
  int64_t kv_heads = index < arch.layer_kv_heads.size() ? arch.layer_kv_heads[index] : arch.n_kv_heads;
  out.add_norm(blk + "attn_norm", i, d);
  out.add_attention(blk, i, kv_heads, AttentionKind::full);  // every layer's heads are head_dim wide
  out.add_norm(blk + "ffn_norm", i, d);
  if (index < arch.layer_moe.size() && arch.layer_moe[index]) {
    out.add_moe(blk, i);
  } else {
    out.add_dense_mlp(blk, i, arch.intermediate, "");
  }
}

// Each MTP layer's own output head (transformer.shared_head.output; GGUF nextn.shared_head_head).
void add_head_tensors(const TensorPrefix& prefix, int layer, TensorList& out) {
  if (layer < 0) return;
  out.add(prefix + "shared_head_head.weight", TensorRole::output, layer, out.arch().hidden, out.arch().vocab);
}

// Its GGUF (conversion/step3.py Step35Model; src/models/step35.cpp): head_count and head_count_kv
// per layer (64 full, 96 sliding), sliding_window_pattern over every block (the MTP ones too),
// leading_dense_block_count dense layers before the MoE ones, the shared expert's width.
void config_from_gguf(const nlohmann::json& metadata, const std::string& prefix, std::size_t blocks,
                      nlohmann::json& config) {
  std::optional<std::vector<double>> pattern =
      gguf_per_layer(metadata, prefix + "attention.sliding_window_pattern", blocks);
  std::optional<std::vector<double>> heads = gguf_per_layer(metadata, prefix + "attention.head_count", blocks);
  std::optional<std::vector<double>> kv_heads = gguf_per_layer(metadata, prefix + "attention.head_count_kv", blocks);
  if (pattern && heads && kv_heads) {
    nlohmann::json types = nlohmann::json::array();
    nlohmann::json sliding = nlohmann::json::object();
    for (std::size_t i = 0; i < blocks; ++i) {
      bool swa = (*pattern)[i] != 0;
      types.push_back(swa ? "sliding_attention" : "full_attention");
      auto q = static_cast<int64_t>((*heads)[i]);
      auto kv = static_cast<int64_t>((*kv_heads)[i]);
      if (swa) {
        sliding["num_attention_heads"] = q;
        sliding["num_attention_groups"] = kv;
      } else {
        config["num_attention_heads"] = q;
        config["num_attention_groups"] = kv;
      }
    }
    config["layer_types"] = types;
    if (!sliding.empty()) config["attention_other_setting"] = sliding;
  }
  auto layers = integer_or(config, "num_hidden_layers", 0);
  auto dense = static_cast<int64_t>(gguf_number(metadata, prefix + "leading_dense_block_count").value_or(0));
  std::string moe_layers;
  for (int64_t i = dense; i < layers; ++i) moe_layers += (moe_layers.empty() ? "" : ",") + std::to_string(i);
  if (config.contains("num_experts")) config["moe_layers_enum"] = moe_layers;
  if (config.contains("shared_expert_intermediate_size")) {
    config["share_expert_dim"] = config["shared_expert_intermediate_size"];
  }
}

}  // namespace

const FamilyDefinition& step3p5_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"step3p5"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    f.add_head_tensors = add_head_tensors;
    f.gguf_architectures = {"step35"};
    f.config_from_gguf = config_from_gguf;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
