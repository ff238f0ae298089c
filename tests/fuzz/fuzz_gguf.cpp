// libFuzzer target: bytes as the start of a GGUF file, with and without a known file size.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llmcalc/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  llmcalc::read_gguf_json(bytes, 0);
  llmcalc::read_gguf_json(bytes, static_cast<double>(size));
  return 0;
}
