// GGUF metadata values as config numbers (llama.cpp's get_key_or_arr: a scalar or one value per
// layer, src/llama-model-loader.cpp).
#include "gguf_metadata.h"

namespace llmcalc {
namespace {

const nlohmann::json* find(const nlohmann::json& metadata, const std::string& key) {
  auto it = metadata.find(key);
  return it == metadata.end() || it->is_null() ? nullptr : &*it;
}

std::optional<double> as_number(const nlohmann::json& value) {
  if (value.is_boolean()) return value.get<bool>() ? 1.0 : 0.0;
  if (value.is_number()) return value.get<double>();
  return std::nullopt;
}

}  // namespace

std::optional<double> gguf_number(const nlohmann::json& metadata, const std::string& key) {
  const nlohmann::json* value = find(metadata, key);
  if (!value) return std::nullopt;
  if (value->is_object()) {
    auto values = value->find("values");
    if (values == value->end() || !values->is_array() || values->empty()) return std::nullopt;
    return as_number(values->front());
  }
  return as_number(*value);
}

std::size_t gguf_count(const nlohmann::json& metadata, const std::string& key, std::size_t fallback,
                       std::size_t ceiling) {
  std::optional<double> value = gguf_number(metadata, key);
  if (!value) return fallback;
  if (!(*value >= 0)) return 0;  // negative, or NaN
  return *value >= static_cast<double>(ceiling) ? ceiling : static_cast<std::size_t>(*value);
}

std::optional<std::vector<double>> gguf_per_layer(const nlohmann::json& metadata, const std::string& key,
                                                  std::size_t layers) {
  const nlohmann::json* value = find(metadata, key);
  if (!value) return std::nullopt;
  std::vector<double> out;
  if (!value->is_object()) {
    std::optional<double> scalar = as_number(*value);
    if (!scalar) return std::nullopt;
    out.assign(layers, *scalar);
    return out;
  }
  auto values = value->find("values");
  if (values == value->end() || !values->is_array() || values->size() != value->value("length", uint64_t{0})) {
    return std::nullopt;
  }
  for (const auto& element : *values) {
    std::optional<double> number = as_number(element);
    if (!number) return std::nullopt;
    out.push_back(*number);
  }
  return out;
}

std::optional<nlohmann::json> gguf_layer_types(const nlohmann::json& metadata, const std::string& key,
                                               std::size_t layers) {
  const nlohmann::json* value = find(metadata, key);
  if (!value || !value->is_object()) return std::nullopt;
  std::optional<std::vector<double>> pattern = gguf_per_layer(metadata, key, layers);
  if (!pattern || pattern->size() < layers) return std::nullopt;
  nlohmann::json types = nlohmann::json::array();
  for (std::size_t i = 0; i < layers; ++i) types.push_back((*pattern)[i] != 0 ? "sliding_attention" : "full_attention");
  return types;
}

}  // namespace llmcalc
