// libFuzzer target: the core's JSON reader (core/src/json_parser.cpp) against nlohmann::json's
// parser on the same bytes; any text one accepts and the other refuses, or read into another
// document, aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "../core/same_json_document.h"
#include "json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json ours = llmcalc::parse_json(text);
  nlohmann::json reference = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (ours.is_discarded() != reference.is_discarded()) std::abort();
  if (!ours.is_discarded() && !llmcalc_test::same_json_document(ours, reference)) std::abort();
  return 0;
}
