// Xiaomi MiMo-V2 (XiaomiMiMo/MiMo-V2-Flash, model_type mimo_v2_flash; MiMo-V2.5 / V2.5-Pro / V2.6,
// mimo_v2): hybrid_layer_pattern marks each layer full (0) or sliding-window (1); sliding layers
// have swa_num_key_value_heads KV heads, full ones num_key_value_heads; keys and queries are
// head_dim wide and values v_head_dim (192 / 128). Sliding layers carry one attention-sink logit
// per query head (add_swa_attention_sink_bias), full ones only with add_full_attention_sink_bias.
// moe_layer_freq lists per layer whether its MLP is MoE (sigmoid router with a score-correction
// bias, no shared expert) or dense (intermediate_size). attention_projection_layout fused_qkv
// stores q, k and v as one qkv_proj. The checkpoints add three MTP layers (model.mtp.layers.0-2:
// sliding attention with sinks, a dense MLP, enorm / hnorm / eh_proj and a final norm; the shared
// head), which the V2.5 configs do not declare. Shapes from the MiMo-V2.5-Pro checkpoint's tensor
// listing (search-index file id 62727537601, 159,581 tensors) and llama.cpp's conversion
// (PR #18328, MiMoV2FlashForCausalLM: per-layer head_count_kv from the pattern, MTP dropped).
#include <string>

#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

constexpr int64_t kPublishedMtpLayers = 3;
constexpr const char* kFullSinks = "add_full_attention_sink_bias";
constexpr const char* kSlidingSinks = "add_swa_attention_sink_bias";

// A per-layer list of 0 and 1 (n_layers entries) into `flags`; false with an error otherwise.
bool read_layer_flags(const nlohmann::json& text, JsonReader& reader, const char* key, int64_t layers,
                      LayerFlags& flags) {
  auto list = text.find(key);
  reader.mark_read(key);
  if (list == text.end() || !list->is_array() || static_cast<int64_t>(list->size()) != layers) {
    reader.issues().error("bad_layer_pattern", reader.path_of(key),
                          std::string("MiMo-V2 needs ") + key + ", a 0 or 1 for each of the " + std::to_string(layers) +
                              " layers.");
    return false;
  }
  flags.clear();
  for (const auto& entry : *list) {
    if (!entry.is_number_integer() || (entry.get<int64_t>() != 0 && entry.get<int64_t>() != 1)) {
      reader.issues().error("bad_layer_pattern", reader.path_of(key), std::string(key) + " entries must be 0 or 1.");
      return false;
    }
    flags.push_back(static_cast<char>(entry.get<int64_t>()));
  }
  return true;
}

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  LayerFlags sliding;
  LayerFlags moe;
  if (!read_layer_flags(text, reader, "hybrid_layer_pattern", arch.n_layers, sliding)) return;
  if (text.contains("moe_layer_freq") && !read_layer_flags(text, reader, "moe_layer_freq", arch.n_layers, moe)) return;
  arch.v_head_dim = reader.integer("v_head_dim", 1, kMaxHidden, arch.head_dim).value_or(arch.head_dim);
  int64_t sliding_kv_heads =
      reader.integer("swa_num_key_value_heads", 1, kMaxHeads, arch.n_kv_heads).value_or(arch.n_kv_heads);
  // llama.cpp's conversion requires the sliding layers' head counts and widths to equal the full
  // layers' (only their KV heads differ); a checkpoint that differs is refused, not guessed.
  for (const char* key : {"swa_num_attention_heads", "swa_head_dim", "swa_v_head_dim"}) {
    int64_t same = std::string(key) == "swa_num_attention_heads" ? arch.n_heads
                   : std::string(key) == "swa_head_dim"          ? arch.head_dim
                                                                 : arch.v_head_dim;
    if (reader.integer(key, 1, kMaxHidden, same).value_or(same) != same) {
      reader.issues().error("not_modelled", reader.path_of(key),
                            std::string("MiMo-V2 sliding layers with another ") + key + " are not modelled.");
      return;
    }
  }
  arch.fused_qkv = reader.string("attention_projection_layout", 32, std::string("")).value_or("") == "fused_qkv";
  arch.family_sizes[kFullSinks] = reader.boolean(kFullSinks, false).value_or(false) ? 1 : 0;
  arch.family_sizes[kSlidingSinks] = reader.boolean(kSlidingSinks, false).value_or(false) ? 1 : 0;
  arch.expert_score_bias = reader.string("topk_method", 32, std::string("noaux_tc")).value_or("noaux_tc") == "noaux_tc";
  for (std::size_t i = 0; i < sliding.size(); ++i) {
    arch.layer_attention[i] = sliding[i] ? AttentionKind::sliding : AttentionKind::full;
    arch.layer_kv_heads[i] = sliding[i] ? sliding_kv_heads : arch.n_kv_heads;
    if (!moe.empty()) arch.layer_moe[i] = moe[i] != 0;
  }
  if (arch.mtp_layers == 0) arch.mtp_layers = kPublishedMtpLayers;
  arch.mtp_own_embeddings = false;
  // MTP layers: sliding attention (their KV heads as the sliding layers') and a dense MLP.
  auto total = static_cast<std::size_t>(arch.n_layers + arch.mtp_layers);
  arch.layer_attention.resize(total, AttentionKind::sliding);
  arch.layer_kv_heads.resize(total, sliding_kv_heads);
  arch.layer_moe.resize(total, false);
  arch.layer_intermediate.resize(total, arch.intermediate);
}

void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  auto index = static_cast<std::size_t>(i);
  AttentionKind kind = arch.layer_attention[index];
  out.add_norm(blk + "attn_norm", i, arch.hidden);
  out.add_attention(blk, i, arch.layer_kv_heads[index], kind);
  if (arch.family_size(kind == AttentionKind::sliding ? kSlidingSinks : kFullSinks)) {
    out.add(blk + "attn_sinks.weight", TensorRole::attn_sinks, i, arch.n_heads, 1);
  }
  out.add_norm(blk + "ffn_norm", i, arch.hidden);
  if (arch.layer_moe[index]) {
    out.add_moe(blk, i);
  } else {
    out.add_dense_mlp(blk, i, arch.intermediate, "");
  }
}

}  // namespace

const FamilyDefinition& mimo_v2_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"mimo_v2", "mimo_v2_flash"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
