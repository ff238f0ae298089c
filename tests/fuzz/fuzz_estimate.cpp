// libFuzzer target: any bytes as an estimate request (and as a rank request).
#include <cstddef>
#include <cstdint>
#include <string>

#include "llmcalc/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string request(reinterpret_cast<const char*>(data), size);
  llmcalc::estimate_json(request);
  if (size < 256) llmcalc::rank_json(request);
  return 0;
}
