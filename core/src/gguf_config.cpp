// The JSON view of a GGUF header, including a config.json synthesized from its metadata so the
// architecture engine can size the KV cache (key names from llama.cpp's src/llama-arch.cpp
// LLM_KV_NAMES: "<arch>.block_count", "<arch>.attention.head_count_kv", ...).
#include <map>

#include "llmcalc/embedded_data.h"
#include "llmcalc/gguf_reader.h"

namespace llmcalc {
namespace {

// GGUF general.architecture -> Hugging Face model_type the engine knows.
const std::map<std::string, std::string> kArchitectures = {
    {"llama", "llama"},       {"qwen2", "qwen2"},         {"qwen3", "qwen3"},
    {"qwen2moe", "qwen2_moe"}, {"qwen3moe", "qwen3_moe"}, {"gemma2", "gemma2"},
    {"gemma3", "gemma3_text"}, {"phi3", "phi3"},          {"deepseek2", "deepseek_v3"},
    {"gpt-oss", "gpt_oss"},   {"glm4", "glm4"},           {"glm4moe", "glm4_moe"},
    {"command-r", "cohere"},  {"granite", "granite"},     {"olmo2", "olmo2"},
    {"mistral3", "mistral"}};

const nlohmann::json* find(const nlohmann::json& metadata, const std::string& key) {
  auto it = metadata.find(key);
  return it == metadata.end() || it->is_null() ? nullptr : &*it;
}

// A numeric metadata value; per-layer arrays give their first element.
void copy_number(const nlohmann::json& metadata, const std::string& key, nlohmann::json& config,
                 const char* target) {
  const nlohmann::json* value = find(metadata, key);
  if (!value) return;
  if (value->is_object() && value->contains("values") && !(*value)["values"].empty()) {
    config[target] = (*value)["values"][0];
  } else if (value->is_number()) {
    config[target] = *value;
  }
}

// general.file_type -> llama-quantize's name (data/formats/llama_file_types.json).
nlohmann::json file_type_name(const nlohmann::json& metadata) {
  static const nlohmann::json names = [] {
    for (const EmbeddedFile& file : embedded_data_files()) {
      if (std::string(file.path) == "formats/llama_file_types.json") {
        return nlohmann::json::parse(file.content).at("file_types");
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
  std::string arch = h.metadata.value("general.architecture", "");
  nlohmann::json config = nlohmann::json::object();
  auto known = kArchitectures.find(arch);
  config["model_type"] = known == kArchitectures.end() ? arch : known->second;
  std::string p = arch + ".";
  copy_number(h.metadata, p + "block_count", config, "num_hidden_layers");
  copy_number(h.metadata, p + "embedding_length", config, "hidden_size");
  copy_number(h.metadata, p + "feed_forward_length", config, "intermediate_size");
  copy_number(h.metadata, p + "attention.head_count", config, "num_attention_heads");
  copy_number(h.metadata, p + "attention.head_count_kv", config, "num_key_value_heads");
  copy_number(h.metadata, p + "attention.key_length", config, "head_dim");
  copy_number(h.metadata, p + "context_length", config, "max_position_embeddings");
  copy_number(h.metadata, p + "attention.sliding_window", config, "sliding_window");
  copy_number(h.metadata, p + "expert_count", config, "num_experts");
  copy_number(h.metadata, p + "expert_used_count", config, "num_experts_per_tok");
  copy_number(h.metadata, p + "expert_feed_forward_length", config, "moe_intermediate_size");
  copy_number(h.metadata, p + "expert_shared_feed_forward_length", config,
              "shared_expert_intermediate_size");
  copy_number(h.metadata, p + "leading_dense_block_count", config, "first_k_dense_replace");
  copy_number(h.metadata, p + "attention.kv_lora_rank", config, "kv_lora_rank");
  copy_number(h.metadata, p + "attention.q_lora_rank", config, "q_lora_rank");
  copy_number(h.metadata, p + "vocab_size", config, "vocab_size");
  if (!config.contains("vocab_size")) {
    const nlohmann::json* tokens = find(h.metadata, "tokenizer.ggml.tokens");
    if (tokens && tokens->is_object() && tokens->contains("length")) config["vocab_size"] = (*tokens)["length"];
  }
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
          {"architecture", h.metadata.value("general.architecture", "")},
          {"name", h.metadata.value("general.name", "")},
          {"file_type", h.metadata.value("general.file_type", nlohmann::json(nullptr))},
          {"file_type_name", file_type_name(h.metadata)},
          {"tensor_count", h.tensors.size()},
          {"tensor_data_bytes", h.tensor_data_bytes},
          {"data_offset", h.data_offset},
          {"bytes_by_type", by_type},
          {"split", split},
          {"config", synthesize_config(h)},
          {"metadata", scalars},
          {"tensors", tensors}};
}

}  // namespace llmcalc
