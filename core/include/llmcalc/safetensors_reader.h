// Reads safetensors headers (8-byte little-endian length + JSON) and index files
// (model.safetensors.index.json) into parameter and byte counts per dtype.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

constexpr uint64_t kSafetensorsMaxHeaderBytes = 100u << 20;  // the format's own 100 MB limit
constexpr std::size_t kSafetensorsMaxTensors = 1u << 17;

/// `bytes`: the start of a .safetensors file (at least 8 + header length bytes), or the text of
/// an index .json. Result: {kind, tensor_count, params_by_dtype, bytes_by_dtype, params_total,
/// tensor_data_bytes} or, for an index, {kind: "index", total_size_bytes, shard_count}; a header
/// longer than the bytes given yields {status: "need_more_bytes", bytes_needed}.
std::optional<nlohmann::json> read_safetensors(const std::string& bytes, const std::string& path,
                                               Issues& issues);

}  // namespace llmcalc
