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
// (conversion/mimo.py: PR #18328 for V2-Flash, PR #22493 for V2.5 with the MTP layers kept as
// blocks). The layers themselves are the generic inventory's, from the per-layer lists set here.
#include <optional>
#include <string>
#include <vector>

#include "../arch_config.h"
#include "../family.h"
#include "../gguf_metadata.h"

namespace llmcalc {
namespace {

constexpr int64_t kPublishedMtpLayers = 3;

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  LayerFlags sliding;
  LayerFlags moe;
  if (!read_layer_flags(text, reader, "hybrid_layer_pattern", arch.n_layers, "MiMo-V2", sliding)) return;
  if (text.contains("moe_layer_freq") && !read_layer_flags(text, reader, "moe_layer_freq", arch.n_layers, "MiMo-V2", moe)) return;
  arch.v_head_dim = reader.integer("v_head_dim", 1, kMaxHidden, arch.head_dim).value_or(arch.head_dim);
  int64_t sliding_kv_heads =
      reader.integer("swa_num_key_value_heads", 1, kMaxHeads, arch.n_kv_heads).value_or(arch.n_kv_heads);
  // llama.cpp's conversion requires the sliding layers' head counts and widths to equal the full
  // layers' (only their KV heads differ); a checkpoint that differs is refused, not guessed.
  if (reader.integer("swa_num_attention_heads", 1, kMaxHeads, arch.n_heads) != arch.n_heads ||
      reader.integer("swa_head_dim", 1, kMaxHidden, arch.head_dim) != arch.head_dim ||
      reader.integer("swa_v_head_dim", 1, kMaxHidden, arch.v_head_dim) != arch.v_head_dim) {
    reader.issues().error("not_modelled", reader.path(),
                          "MiMo-V2 sliding layers of other head counts or widths than the full ones are not modelled.");
    return;
  }
  arch.fused_qkv = reader.string("attention_projection_layout", 32, std::string("")).value_or("") == "fused_qkv";
  arch.attention_sinks = reader.boolean("add_swa_attention_sink_bias", false).value_or(false);
  arch.full_attention_sinks = reader.boolean("add_full_attention_sink_bias", false).value_or(false);
  // Its FP8 checkpoints keep every o_proj in BF16: V2.5-Pro's quantization_config.ignored_layers
  // lists model.layers.<i>.self_attn.o_proj for all 70 layers, and the tensor listing stores them
  // so; V2-Flash's as a test fixture spells the Hub checkpoint (search-index file id 71362136706).
  arch.fp8_checkpoint_keeps = {TensorRole::attn_output};
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

// Its GGUF (llama.cpp conversion/mimo.py MimoV2Model, architecture mimo2): head_count_kv and
// sliding_window_pattern per block, the MTP blocks appended as sliding ones; value_length is
// v_head_dim. The file names neither the dense layers nor the sinks: every published MiMo-V2
// checkpoint (V2-Flash, V2.5, V2.5-Pro) has layer 0 dense and sinks on its sliding layers only.
void config_from_gguf(const nlohmann::json& metadata, const std::string& prefix, std::size_t blocks,
                      nlohmann::json& config) {
  auto layers = static_cast<std::size_t>(config.value("num_hidden_layers", int64_t{0}));
  std::optional<std::vector<double>> pattern =
      gguf_per_layer(metadata, prefix + "attention.sliding_window_pattern", blocks);
  std::optional<std::vector<double>> kv_heads = gguf_per_layer(metadata, prefix + "attention.head_count_kv", blocks);
  if (pattern && kv_heads && layers > 0 && layers <= pattern->size()) {
    nlohmann::json hybrid = nlohmann::json::array();
    for (std::size_t i = 0; i < layers; ++i) {
      bool sliding = (*pattern)[i] != 0;
      hybrid.push_back(sliding ? 1 : 0);
      config[sliding ? "swa_num_key_value_heads" : "num_key_value_heads"] = static_cast<int64_t>((*kv_heads)[i]);
    }
    config["hybrid_layer_pattern"] = hybrid;
    nlohmann::json moe = nlohmann::json::array();
    for (std::size_t i = 0; i < layers; ++i) moe.push_back(i == 0 ? 0 : 1);
    config["moe_layer_freq"] = moe;
  }
  if (std::optional<double> value_width = gguf_number(metadata, prefix + "attention.value_length")) {
    config["v_head_dim"] = static_cast<int64_t>(*value_width);
  }
  config["add_swa_attention_sink_bias"] = true;
}

}  // namespace

const FamilyDefinition& mimo_v2_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"mimo_v2", "mimo_v2_flash"};
    f.read_config = read_config;
    f.gguf_architectures = {"mimo2"};
    f.config_from_gguf = config_from_gguf;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
