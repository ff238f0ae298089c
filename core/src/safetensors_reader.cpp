// safetensors reader, from the format description (huggingface/safetensors README "Format"):
// u64 little-endian N, then N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}},
// optional "__metadata__" of strings. Offsets must match dtype x shape and stay in order.
#include "llmcalc/safetensors_reader.h"
#include "json_text.h"

#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace llmcalc {
namespace {

// Bits per element of each safetensors dtype.
const std::map<std::string, int64_t> kDtypeBits = {
    {"F64", 64}, {"F32", 32}, {"F16", 16}, {"BF16", 16}, {"I64", 64}, {"I32", 32}, {"I16", 16},
    {"I8", 8},   {"U8", 8},   {"U16", 16}, {"U32", 32},  {"U64", 64}, {"BOOL", 8},
    {"F8_E4M3", 8}, {"F8_E5M2", 8}, {"F8_E8M0", 8}, {"F4", 4}};

std::optional<nlohmann::json> read_index(const nlohmann::json& index, const std::string& path,
                                         Issues& issues) {
  auto metadata = index.find("metadata");
  auto weight_map = index.find("weight_map");
  if (metadata == index.end() || !metadata->is_object() || weight_map == index.end() ||
      !weight_map->is_object()) {
    issues.error("safetensors_bad_index", path, "An index needs 'metadata' and 'weight_map' objects.");
    return std::nullopt;
  }
  auto total = metadata->find("total_size");
  if (total == metadata->end() || !total->is_number_unsigned()) {
    issues.error("safetensors_bad_index", path + "/metadata/total_size", "total_size must be a whole number.");
    return std::nullopt;
  }
  std::set<std::string> shards;
  for (const auto& [name, shard] : weight_map->items()) {
    if (shard.is_string()) shards.insert(shard.get<std::string>());
  }
  return nlohmann::json{{"kind", "index"},
                        {"total_size_bytes", *total},
                        {"tensor_count", weight_map->size()},
                        {"shard_count", shards.size()}};
}

}  // namespace

std::optional<nlohmann::json> read_safetensors(const std::string& bytes, const std::string& path,
                                               Issues& issues) {
  if (!bytes.empty() && bytes.front() == '{') {
    nlohmann::json index = parse_json(bytes);
    if (index.is_discarded() || !index.is_object()) {
      issues.error("safetensors_bad_index", path, "The index is not valid JSON.");
      return std::nullopt;
    }
    return read_index(index, path, issues);
  }
  if (bytes.size() < 8) {
    return nlohmann::json{{"status", "need_more_bytes"}, {"bytes_needed", 8}};
  }
  uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, bytes.data(), 8);
  if (header_bytes < 2 || header_bytes > kSafetensorsMaxHeaderBytes) {
    issues.error("safetensors_bad_header_size", path, "The header length is not plausible.");
    return std::nullopt;
  }
  if (bytes.size() - 8 < header_bytes) {
    return nlohmann::json{{"status", "need_more_bytes"}, {"bytes_needed", header_bytes + 8}};
  }
  nlohmann::json header = parse_json(std::string_view(bytes).substr(8, static_cast<std::size_t>(header_bytes)));
  if (header.is_discarded() || !header.is_object()) {
    issues.error("safetensors_bad_header", path, "The header is not a JSON object.");
    return std::nullopt;
  }
  if (header.size() > kSafetensorsMaxTensors) {
    issues.error("safetensors_too_many_tensors", path, "More tensors than the limit.");
    return std::nullopt;
  }
  nlohmann::json params = nlohmann::json::object();
  nlohmann::json sizes = nlohmann::json::object();
  int64_t total_params = 0;
  int64_t total_bytes = 0;
  std::size_t count = 0;
  for (const auto& [name, info] : header.items()) {
    if (name == "__metadata__") continue;
    std::string where = json_pointer_append(path, name.substr(0, 200));
    if (!info.is_object() || !info.contains("dtype") || !info["dtype"].is_string() ||
        !info.contains("shape") || !info["shape"].is_array() || !info.contains("data_offsets") ||
        !info["data_offsets"].is_array() || info["data_offsets"].size() != 2) {
      issues.error("safetensors_bad_tensor", where, "A tensor entry needs dtype, shape and data_offsets.");
      return std::nullopt;
    }
    auto bits = kDtypeBits.find(info["dtype"].get<std::string>());
    if (bits == kDtypeBits.end()) {
      issues.error("safetensors_unknown_dtype", where, "Unknown dtype.");
      return std::nullopt;
    }
    int64_t elements = 1;
    for (const auto& dim : info["shape"]) {
      if (!dim.is_number_unsigned() || dim.get<uint64_t>() > (uint64_t{1} << 40) ||
          (dim.get<int64_t>() != 0 && elements > std::numeric_limits<int64_t>::max() / 64 / dim.get<int64_t>())) {
        issues.error("safetensors_bad_shape", where, "A dimension is not a valid size.");
        return std::nullopt;
      }
      elements *= dim.get<int64_t>();
    }
    const auto& offsets = info["data_offsets"];
    if (!offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned() ||
        offsets[1].get<uint64_t>() < offsets[0].get<uint64_t>() ||
        offsets[1].get<uint64_t>() - offsets[0].get<uint64_t>() !=
            static_cast<uint64_t>((elements * bits->second + 7) / 8)) {
      issues.error("safetensors_bad_offsets", where, "data_offsets do not match dtype and shape.");
      return std::nullopt;
    }
    const std::string& dtype = bits->first;
    int64_t tensor_bytes = static_cast<int64_t>(offsets[1].get<uint64_t>() - offsets[0].get<uint64_t>());
    params[dtype] = params.value(dtype, int64_t{0}) + elements;
    sizes[dtype] = sizes.value(dtype, int64_t{0}) + tensor_bytes;
    total_params += elements;
    total_bytes += tensor_bytes;
    ++count;
  }
  return nlohmann::json{{"kind", "safetensors"},
                        {"status", "ok"},
                        {"header_bytes", header_bytes},
                        {"tensor_count", count},
                        {"params_by_dtype", params},
                        {"bytes_by_dtype", sizes},
                        {"params_total", total_params},
                        {"tensor_data_bytes", total_bytes}};
}

}  // namespace llmcalc
