// libFuzzer target: bytes as a safetensors header or an index .json.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llmcalc/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  llmcalc::read_safetensors_json(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
