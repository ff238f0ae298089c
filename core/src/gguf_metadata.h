// Internal: reading a GGUF header's metadata (as gguf_reader.cpp stores it: scalars as JSON
// values, arrays as {"length", "values"} with up to 64 leading values) into config values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmcalc {

/// A numeric value; a per-layer array gives its first element.
std::optional<double> gguf_number(const nlohmann::json& metadata, const std::string& key);

/// A count (layers, a period): `fallback` when absent, 0 for a negative or non-numeric value,
/// and `ceiling` for any above it (a damaged header then fails the config's range checks
/// instead of sizing a loop over billions of layers).
std::size_t gguf_count(const nlohmann::json& metadata, const std::string& key, std::size_t fallback,
                       std::size_t ceiling);

/// Every element of a per-layer array (a scalar repeated `layers` times), or nothing when the key
/// is absent or the array was longer than the values the reader keeps.
std::optional<std::vector<double>> gguf_per_layer(const nlohmann::json& metadata, const std::string& key,
                                                  std::size_t layers);

/// layer_types for the first `layers` blocks from a per-layer sliding_window_pattern array at `key`
/// (true: a sliding layer), as llama.cpp's converters write it for Spark-X2.5 and Laguna; nothing
/// for a scalar period (whose layout depends on the architecture) or an array too short.
std::optional<nlohmann::json> gguf_layer_types(const nlohmann::json& metadata, const std::string& key,
                                               std::size_t layers);

}  // namespace llmcalc
