// libFuzzer target: bytes parsed as JSON and given to the architecture engine as a config.json.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json config = nlohmann::json::parse(data, data + size, nullptr, false);
  if (config.is_discarded()) return 0;
  nlohmann::json request = {{"model", config}, {"context_tokens", 4096}};
  llmcalc::estimate_json(request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return 0;
}
