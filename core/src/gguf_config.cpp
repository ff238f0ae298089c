// The JSON view of a GGUF header, including a config.json synthesized from its metadata so the
// architecture engine can size the KV cache (key names from llama.cpp's src/llama-arch.cpp
// LLM_KV_NAMES: "<arch>.block_count", "<arch>.attention.head_count_kv", ...).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>
#include <utility>

#include "family.h"
#include "gguf_metadata.h"
#include "llmcalc/embedded_data.h"
#include "llmcalc/gguf_reader.h"
#include "llmcalc/json_reader.h"
#include "json_text.h"

namespace llmcalc {
namespace {

// Counts read from a header stop one past the largest layer count a config may have.
constexpr std::size_t kCountCeiling = static_cast<std::size_t>(kMaxLayers) + 1;

// GGUF general.architecture -> Hugging Face model_type the engine knows (families in their own
// files name their GGUF architectures themselves: family.h).
constexpr std::pair<std::string_view, std::string_view> kArchitectures[] = {
    {"llama", "llama"},       {"qwen2", "qwen2"},         {"qwen3", "qwen3"},
    {"qwen2moe", "qwen2_moe"}, {"qwen3moe", "qwen3_moe"}, {"gemma2", "gemma2"},
    {"gemma3", "gemma3_text"}, {"phi3", "phi3"},          {"deepseek2", "deepseek_v3"},
    {"gpt-oss", "gpt_oss"},   {"glm4", "glm4"},           {"glm4moe", "glm4_moe"},
    {"command-r", "cohere"},  {"granite", "granite"},     {"olmo2", "olmo2"},
    {"mistral3", "mistral"},  {"gemma4", "gemma4"},       {"qwen35", "qwen3_5"},
    {"qwen35moe", "qwen3_5_moe"}, {"qwen3next", "qwen3_next"}, {"nemotron_h", "nemotron_h"},
    {"nemotron_h_moe", "nemotron_h"}, {"lfm2", "lfm2"},   {"lfm2moe", "lfm2_moe"},
    {"granitehybrid", "granitemoehybrid"}};

const nlohmann::json* find(const nlohmann::json& metadata, const std::string& key) {
  auto it = metadata.find(key);
  return it == metadata.end() || it->is_null() ? nullptr : &*it;
}

// A numeric metadata value; per-layer arrays give their first element.
void copy_number(const nlohmann::json& metadata, const std::string& key, nlohmann::json& config,
                 const char* target) {
  if (std::optional<double> value = gguf_number(metadata, key)) {
    bool whole = std::floor(*value) == *value;
    config[target] = whole ? nlohmann::json(static_cast<int64_t>(*value)) : nlohmann::json(*value);
  }
}

// Gemma 4 (conversion/gemma.py Gemma4Model; src/models/gemma4.cpp): sliding_window_pattern marks
// the sliding layers, key_length is the full layers' head dim and key_length_swa the sliding
// ones'; head_count_kv is one value per layer when the config has num_global_key_value_heads
// (the 26B and 31B, whose full layers take V from K: attention_k_eq_v, under which the config
// reader applies the global count); the last shared_kv_layers layers read earlier layers' caches.
void gemma4_config(const nlohmann::json& m, const std::string& p, std::size_t layers, nlohmann::json& config) {
  std::optional<std::vector<double>> pattern = gguf_per_layer(m, p + "attention.sliding_window_pattern", layers);
  std::optional<std::vector<double>> kv = gguf_per_layer(m, p + "attention.head_count_kv", layers);
  if (pattern) {
    nlohmann::json types = nlohmann::json::array();
    std::optional<double> sliding_heads;
    std::optional<double> full_heads;
    for (std::size_t i = 0; i < layers; ++i) {
      bool sliding = (*pattern)[i] != 0;
      types.push_back(sliding ? "sliding_attention" : "full_attention");
      if (kv) (sliding ? sliding_heads : full_heads) = (*kv)[i];
    }
    config["layer_types"] = types;
    if (sliding_heads) config["num_key_value_heads"] = static_cast<int64_t>(*sliding_heads);
    if (sliding_heads && full_heads && *full_heads != *sliding_heads) {
      config["num_global_key_value_heads"] = static_cast<int64_t>(*full_heads);
      config["attention_k_eq_v"] = true;
    }
  }
  copy_number(m, p + "attention.key_length", config, "global_head_dim");
  copy_number(m, p + "attention.key_length_swa", config, "head_dim");
  copy_number(m, p + "attention.shared_kv_layers", config, "num_kv_shared_layers");
  copy_number(m, p + "embedding_length_per_layer_input", config, "hidden_size_per_layer_input");
}

// The config keys a family names llama.cpp's ssm.* values by: conv_kernel, state_size,
// group_count, time_step_rank (the value heads) and inner_size / time_step_rank (a head's width).
struct SsmKeys {
  const char* conv_kernel;
  const char* state_size;
  const char* groups;
  const char* heads;
  const char* head_dim;
};

void copy_ssm(const nlohmann::json& m, const std::string& p, const SsmKeys& keys, nlohmann::json& config) {
  copy_number(m, p + "ssm.conv_kernel", config, keys.conv_kernel);
  copy_number(m, p + "ssm.state_size", config, keys.state_size);
  copy_number(m, p + "ssm.group_count", config, keys.groups);
  copy_number(m, p + "ssm.time_step_rank", config, keys.heads);
  std::optional<double> inner = gguf_number(m, p + "ssm.inner_size");
  std::optional<double> heads = gguf_number(m, p + "ssm.time_step_rank");
  if (inner && heads && *heads > 0) config[keys.head_dim] = static_cast<int64_t>(*inner / *heads);
}

// layer_types from a per-layer head_count_kv: `other` where it is 0 (a recurrent or convolution
// layer), `attention` elsewhere, whose KV heads become num_key_value_heads.
void kinds_from_kv_heads(const nlohmann::json& m, const std::string& p, std::size_t layers, const char* attention,
                         const char* other, nlohmann::json& config) {
  std::optional<std::vector<double>> kv = gguf_per_layer(m, p + "attention.head_count_kv", layers);
  if (!kv) return;
  nlohmann::json types = nlohmann::json::array();
  for (std::size_t i = 0; i < layers; ++i) {
    types.push_back((*kv)[i] > 0 ? attention : other);
    if ((*kv)[i] > 0) config["num_key_value_heads"] = static_cast<int64_t>((*kv)[i]);
  }
  config["layer_types"] = types;
}

// Qwen3.5 / 3.6 and Qwen3-Next (conversion/qwen.py Qwen3NextModel): gated DeltaNet widths from the
// ssm keys, a full-attention layer every full_attention_interval layers.
void qwen3_next_config(const nlohmann::json& m, const std::string& p, nlohmann::json& config) {
  copy_number(m, p + "full_attention_interval", config, "full_attention_interval");
  copy_ssm(m, p,
           {"linear_conv_kernel_dim", "linear_key_head_dim", "linear_num_key_heads", "linear_num_value_heads",
            "linear_value_head_dim"},
           config);
}

// Nemotron-H (conversion/nemotron.py; src/models/nemotron-h.cpp): a block is attention where
// head_count_kv is set, an MLP (or MoE) where feed_forward_length is, else a Mamba2 mixer.
void nemotron_h_config(const nlohmann::json& m, const std::string& p, std::size_t layers, nlohmann::json& config) {
  std::optional<std::vector<double>> kv = gguf_per_layer(m, p + "attention.head_count_kv", layers);
  std::optional<std::vector<double>> ff = gguf_per_layer(m, p + "feed_forward_length", layers);
  if (kv && ff) {
    bool moe = gguf_number(m, p + "expert_count").value_or(0) > 0;
    std::string pattern;
    for (std::size_t i = 0; i < layers; ++i) {
      if ((*kv)[i] > 0) {
        pattern += '*';
        config["num_key_value_heads"] = static_cast<int64_t>((*kv)[i]);
      } else if ((*ff)[i] > 0) {
        pattern += moe ? 'E' : '-';
        config["intermediate_size"] = static_cast<int64_t>((*ff)[i]);
      } else {
        pattern += 'M';
      }
    }
    config["hybrid_override_pattern"] = pattern;
  }
  copy_number(m, p + "attention.key_length", config, "attention_head_dim");
  copy_ssm(m, p, {"conv_kernel", "ssm_state_size", "n_groups", "mamba_num_heads", "mamba_head_dim"}, config);
}

// Granite 4.0 H (conversion/granite.py GraniteHybridModel): head_count_kv is 0 on the Mamba2
// layers; ssm.inner_size is mamba_expand x hidden, ssm.time_step_rank the mixer's heads.
void granite_hybrid_config(const nlohmann::json& m, const std::string& p, std::size_t layers, nlohmann::json& config) {
  kinds_from_kv_heads(m, p, layers, "attention", "mamba", config);
  copy_ssm(m, p, {"mamba_d_conv", "mamba_d_state", "mamba_n_groups", "mamba_n_heads", "mamba_d_head"}, config);
  std::optional<double> inner = gguf_number(m, p + "ssm.inner_size");
  std::optional<double> hidden = gguf_number(m, p + "embedding_length");
  if (inner && hidden && *hidden > 0) config["mamba_expand"] = static_cast<int64_t>(*inner / *hidden);
  copy_number(m, p + "expert_shared_feed_forward_length", config, "shared_intermediate_size");
}

// DeepSeek V2/V3 and their MLA kin (src/models/deepseek2.cpp): since llama.cpp stores MLA as one
// K-only head, key_length / value_length are the latent's (576 / 512) and the per-head widths are
// key_length_mla / value_length_mla (older files give them as key_length / value_length);
// rope.dimension_count is the decoupled RoPE width, expert_shared_count the shared experts.
void deepseek2_config(const nlohmann::json& m, const std::string& p, nlohmann::json& config) {
  std::optional<double> rope = gguf_number(m, p + "rope.dimension_count");
  std::optional<double> key = gguf_number(m, p + "attention.key_length_mla");
  std::optional<double> value = gguf_number(m, p + "attention.value_length_mla");
  if (!key) key = gguf_number(m, p + "attention.key_length");
  if (!value) value = gguf_number(m, p + "attention.value_length");
  if (rope && key && *key > *rope) {
    config["qk_rope_head_dim"] = static_cast<int64_t>(*rope);
    config["qk_nope_head_dim"] = static_cast<int64_t>(*key - *rope);
  }
  if (value) config["v_head_dim"] = static_cast<int64_t>(*value);
  copy_number(m, p + "expert_shared_count", config, "n_shared_experts");
}

// gpt-oss (src/models/openai-moe.cpp at b10256): sliding-window layers in a period of
// sliding_window_pattern (default 2), every layer but the period's last one sliding
// (llama_hparams::set_swa_pattern): 0, 2, 4, ... slide.
void gpt_oss_config(const nlohmann::json& m, const std::string& p, std::size_t layers, nlohmann::json& config) {
  std::size_t period = gguf_count(m, p + "attention.sliding_window_pattern", 2, kCountCeiling);
  nlohmann::json types = nlohmann::json::array();
  for (std::size_t i = 0; i < layers; ++i) {
    bool sliding = period == 0 || i % period < period - 1;
    types.push_back(sliding ? "sliding_attention" : "full_attention");
  }
  config["layer_types"] = types;
}

// LFM2 (conversion/lfm2.py; src/models/lfm2.cpp): head_count_kv is 0 on the short-convolution
// layers; their cache is shortconv.l_cache - 1 inputs.
void lfm2_config(const nlohmann::json& m, const std::string& p, std::size_t layers, nlohmann::json& config) {
  kinds_from_kv_heads(m, p, layers, "full_attention", "conv", config);
  copy_number(m, p + "shortconv.l_cache", config, "conv_L_cache");
}

// general.file_type -> llama-quantize's name (data/formats/llama_file_types.json).
nlohmann::json file_type_name(const nlohmann::json& metadata) {
  static const nlohmann::json names = [] {
    for (const EmbeddedFile& file : embedded_data_files()) {
      if (std::string(file.path) == "formats/llama_file_types.json") {
        return parse_json(file.content).at("file_types");
      }
    }
    return nlohmann::json::object();
  }();
  const nlohmann::json* value = find(metadata, "general.file_type");
  if (!value || !value->is_number_unsigned()) return nullptr;
  std::string key = std::to_string(value->get<uint64_t>());
  return names.contains(key) ? names[key] : nlohmann::json(nullptr);
}

nlohmann::json synthesize_config(const GgufHeader& h) {
  std::string arch = string_or(h.metadata, "general.architecture", "");
  const nlohmann::json& m = h.metadata;
  nlohmann::json config = nlohmann::json::object();
  const FamilyDefinition* family = find_family_of_gguf(arch);
  auto known = std::find_if(std::begin(kArchitectures), std::end(kArchitectures),
                            [&](const auto& entry) { return entry.first == arch; });
  config["model_type"] = family                                ? family->model_types.front()
                         : known == std::end(kArchitectures) ? arch
                                                               : std::string(known->second);
  std::string p = arch + ".";
  // block_count counts the MTP (nextn) layers appended after the decoder's.
  std::size_t blocks = gguf_count(m, p + "block_count", 0, kCountCeiling);
  std::size_t nextn = gguf_count(m, p + "nextn_predict_layers", 0, kCountCeiling);
  if (blocks > 0) config["num_hidden_layers"] = static_cast<int64_t>(blocks - std::min(blocks, nextn));
  if (nextn > 0) config["num_nextn_predict_layers"] = static_cast<int64_t>(nextn);
  copy_number(m, p + "embedding_length", config, "hidden_size");
  copy_number(m, p + "feed_forward_length", config, "intermediate_size");
  copy_number(m, p + "attention.head_count", config, "num_attention_heads");
  copy_number(m, p + "attention.head_count_kv", config, "num_key_value_heads");
  copy_number(m, p + "attention.key_length", config, "head_dim");
  copy_number(m, p + "context_length", config, "max_position_embeddings");
  copy_number(m, p + "attention.sliding_window", config, "sliding_window");
  copy_number(m, p + "expert_count", config, "num_experts");
  copy_number(m, p + "expert_used_count", config, "num_experts_per_tok");
  copy_number(m, p + "expert_feed_forward_length", config, "moe_intermediate_size");
  copy_number(m, p + "expert_shared_feed_forward_length", config, "shared_expert_intermediate_size");
  copy_number(m, p + "leading_dense_block_count", config, "first_k_dense_replace");
  copy_number(m, p + "attention.kv_lora_rank", config, "kv_lora_rank");
  copy_number(m, p + "attention.q_lora_rank", config, "q_lora_rank");
  copy_number(m, p + "vocab_size", config, "vocab_size");
  if (!config.contains("vocab_size")) {
    const nlohmann::json* tokens = find(m, "tokenizer.ggml.tokens");
    if (tokens && tokens->is_object() && tokens->contains("length")) config["vocab_size"] = (*tokens)["length"];
  }
  // A per-layer sliding_window_pattern (Spark-X2.5, Laguna, Muse Glimmer, ...) marks the sliding
  // layers; the families below that read it otherwise write their own.
  std::size_t layers = blocks - std::min(blocks, nextn);
  if (auto types = gguf_layer_types(m, p + "attention.sliding_window_pattern", layers)) config["layer_types"] = *types;
  if (arch == "gemma4") gemma4_config(m, p, blocks, config);
  if (arch == "qwen35" || arch == "qwen35moe" || arch == "qwen3next") qwen3_next_config(m, p, config);
  if (arch == "nemotron_h" || arch == "nemotron_h_moe") nemotron_h_config(m, p, blocks, config);
  if (arch == "lfm2" || arch == "lfm2moe") lfm2_config(m, p, blocks, config);
  if (arch == "deepseek2") deepseek2_config(m, p, config);
  if (arch == "granitehybrid") granite_hybrid_config(m, p, blocks, config);
  if (arch == "gpt-oss") gpt_oss_config(m, p, blocks - std::min(blocks, nextn), config);
  if (family && family->config_from_gguf) family->config_from_gguf(m, p, blocks, config);
  bool has_output = false;
  for (const GgufTensor& t : h.tensors) has_output |= t.name == "output.weight";
  config["tie_word_embeddings"] = !has_output;
  return config;
}

}  // namespace

nlohmann::json gguf_header_json(const GgufHeader& h) {
  nlohmann::json by_type = nlohmann::json::object();
  for (const GgufTensor& t : h.tensors) by_type[t.type] = by_type.value(t.type, int64_t{0}) + t.bytes;
  nlohmann::json tensors = nlohmann::json::array();
  for (std::size_t i = 0; i < h.tensors.size() && i < 2048; ++i) {
    const GgufTensor& t = h.tensors[i];
    tensors.push_back({{"name", t.name}, {"type", t.type}, {"shape", t.shape}, {"bytes", t.bytes}});
  }
  nlohmann::json split = nullptr;
  if (const nlohmann::json* count = find(h.metadata, "split.count")) {
    split = {{"count", *count}, {"no", h.metadata.value("split.no", nlohmann::json(0))}};
  }
  nlohmann::json scalars = nlohmann::json::object();
  for (const auto& [key, value] : h.metadata.items()) {
    if (!value.is_object()) scalars[key] = value;
  }
  return {{"version", h.version},
          {"architecture", string_or(h.metadata, "general.architecture", "")},
          {"name", string_or(h.metadata, "general.name", "")},
          {"file_type", h.metadata.value("general.file_type", nlohmann::json(nullptr))},
          {"file_type_name", file_type_name(h.metadata)},
          {"tensor_count", h.tensors.size()},
          {"tensor_data_bytes", h.tensor_data_bytes},
          {"data_offset", h.data_offset},
          {"bytes_by_type", std::move(by_type)},
          {"split", std::move(split)},
          {"config", synthesize_config(h)},
          {"metadata", std::move(scalars)},
          {"tensors", std::move(tensors)}};
}

}  // namespace llmcalc
