// The answers of the model-file readers: a GGUF header (or how many more bytes it needs) and a
// safetensors header, read from the bytes the page hands over.
#include <cstdint>
#include <utility>

#include "llmcalc/api.h"
#include "llmcalc/gguf_reader.h"
#include "llmcalc/safetensors_reader.h"
#include "envelope.h"

namespace llmcalc {

std::string read_gguf_json(const std::string& bytes, double file_size) {
  Issues issues;
  uint64_t size = file_size > 0 && file_size < 1e18 ? static_cast<uint64_t>(file_size) : 0;
  GgufReadResult read = read_gguf_header(reinterpret_cast<const uint8_t*>(bytes.data()),
                                         bytes.size(), size, "/file", issues);
  if (read.status == GgufReadStatus::need_more_bytes) {
    return envelope(issues, {{"status", "need_more_bytes"}, {"bytes_needed", read.bytes_needed}});
  }
  if (read.status != GgufReadStatus::ok) return envelope(issues, nullptr);
  nlohmann::json result = gguf_header_json(read.header);
  result["status"] = "ok";
  return envelope(issues, std::move(result));
}

std::string read_safetensors_json(const std::string& bytes) {
  Issues issues;
  auto result = read_safetensors(bytes, "/file", issues);
  return envelope(issues, result ? std::move(*result) : nlohmann::json(nullptr));
}

}  // namespace llmcalc
