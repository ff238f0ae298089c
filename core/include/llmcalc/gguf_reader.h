// Reads a GGUF header from the first bytes of a (possibly multi-GB, possibly split) file:
// metadata, every tensor's type and exact size. Hostile input is rejected with a reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

struct GgufTensor {
  std::string name;
  std::vector<int64_t> shape;  // ne0 first
  std::string type;            // ggml type name
  int64_t bytes = 0;
  uint64_t offset = 0;         // relative to the start of the tensor data
};

struct GgufHeader {
  uint32_t version = 0;
  nlohmann::json metadata = nlohmann::json::object();  // scalars; arrays as {"array": type, "length": n}
  std::vector<GgufTensor> tensors;
  int64_t tensor_data_bytes = 0;  // sum of tensor sizes
  uint64_t data_offset = 0;       // where tensor data starts in the file (aligned)
};

/// Caps against hostile headers (ggml's gguf.cpp keeps similar limits).
constexpr uint64_t kGgufMaxTensors = 1u << 16;
constexpr uint64_t kGgufMaxKeys = 1u << 16;
constexpr uint64_t kGgufMaxStringBytes = 1u << 20;
constexpr uint64_t kGgufMaxArrayLength = 1u << 25;
constexpr uint32_t kGgufMaxDims = 4;

enum class GgufReadStatus { ok, need_more_bytes, invalid };

struct GgufReadResult {
  GgufReadStatus status = GgufReadStatus::invalid;
  uint64_t bytes_needed = 0;  // with need_more_bytes: read at least this many bytes and retry
  GgufHeader header;
};

/// Parses the header in `data[0, size)`. `file_size` is the whole file's size (0 if unknown), used
/// to check that tensors lie inside it. Problems are recorded as issues at `path`.
GgufReadResult read_gguf_header(const uint8_t* data, std::size_t size, uint64_t file_size,
                                const std::string& path, Issues& issues);

/// The JSON view of a header: architecture, file type, tensor bytes by type, a synthesized
/// config.json (for the architecture engine) and the tensor list (capped).
nlohmann::json gguf_header_json(const GgufHeader& header);

}  // namespace llmcalc
