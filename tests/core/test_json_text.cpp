// The JSON text writers rank's rows go through (core/src/json_text.h) write what nlohmann::json's
// own dump() writes for the same values: the library is the reference.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "json_text.h"

namespace {

std::string dumped(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("JSON text writers match dump() for numbers, integers, booleans and strings", "[json_text]") {
  for (double value : {0.0, -0.0, 1.0, -2.5, 0.1, 1e300, 5e-324, 123456789.0, 2.0 / 3.0, 1e21, 1e-7}) {
    std::string out;
    llmcalc::append_json_number(out, value);
    CHECK(out == dumped(value));
  }
  for (double value : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
    std::string out;
    llmcalc::append_json_number(out, value);
    CHECK(out == "null");  // dump() writes null for what JSON cannot hold
  }
  for (int64_t value : {int64_t{0}, int64_t{-1}, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    std::string out;
    llmcalc::append_json_integer(out, value);
    CHECK(out == dumped(value));
  }
  for (bool value : {true, false}) {
    std::string out;
    llmcalc::append_json_bool(out, value);
    CHECK(out == dumped(value));
  }
  for (const std::string value : {std::string(""), std::string("Llama 3.1 8B"), std::string("a \"quoted\" \\ path"),
                                  std::string("tab\there\nnew\rline\b\f"), std::string("\x01\x1f\x7f", 3),
                                  std::string("Qwen3 — café"), std::string("bad \xff utf-8")}) {
    std::string out;
    llmcalc::append_json_string(out, value);
    CHECK(out == dumped(value));
  }
}
