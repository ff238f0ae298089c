// The JSON text writers the answers go through (core/src/json_text.h) write what nlohmann::json's
// own dump() writes for the same values: the library is the reference. So do the answers written
// as text (estimate's, explore's and rank's): keys in dump()'s sorted order, each once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "json_text.h"
#include "llmcalc/api.h"
#include "llmcalc/catalog.h"

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

// Every string of 3 bytes drawn from the bytes UTF-8's rules turn on (ASCII, the continuation
// ranges' edges, every lead class, the never-valid C0, C1 and F5-FF), and 100,000 random ones of
// 1-12 such bytes: what dump() writes, invalid sequences replaced as its decoder replaces them.
TEST_CASE("append_json_string replaces invalid UTF-8 as dump() does", "[json_text]") {
  const unsigned char bytes[] = {0x41, 0x22, 0x0A, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
                                 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
  const std::size_t n = sizeof bytes;
  auto check = [](const std::string& value) {
    std::string out;
    llmcalc::append_json_string(out, value);
    std::string hex;
    for (char c : value) hex += "0123456789abcdef"[static_cast<unsigned char>(c) >> 4], hex += "0123456789abcdef"[c & 0xF];
    INFO(hex);
    CHECK(out == dumped(value));
  };
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      for (std::size_t c = 0; c < n; ++c) {
        check(std::string{static_cast<char>(bytes[a]), static_cast<char>(bytes[b]), static_cast<char>(bytes[c])});
      }
    }
  }
  std::mt19937 random(22);
  for (int i = 0; i < 100000; ++i) {
    std::string value(1 + random() % 12, '\0');
    for (char& c : value) c = static_cast<char>(bytes[random() % n]);
    check(value);
  }
}

// A document as json_text writes it and as dump() does: nested objects (keys in order), arrays,
// every kind of value, and strings with escapes and invalid UTF-8.
TEST_CASE("json_text writes a document as dump() does", "[json_text]") {
  nlohmann::json document = {
      {"b", {1, -2, 3.5, 1e300, true, false, nullptr, "x\"y\\z\n", std::string("caf\xc3\xa9 \xe2\x80", 8)}},
      {"a", {{"nested", {{"z", 0}, {"y", {{"deeper", nlohmann::json::array()}}}}}, {"empty", nlohmann::json::object()}}},
      {"u", std::numeric_limits<uint64_t>::max()},
      {"i", std::numeric_limits<int64_t>::min()},
      {"nan", std::numeric_limits<double>::quiet_NaN()},
      {std::string("k\xff"), "key with an invalid byte"}};
  CHECK(llmcalc::json_text(document) == dumped(document));
  CHECK(llmcalc::json_text(nlohmann::json()) == "null");
  CHECK(llmcalc::json_text(nlohmann::json::array()) == "[]");
}

// Written by hand in dump()'s key order, an answer whose keys were out of order or repeated would
// differ from the dump of its own parse. Every catalog model's estimate, with costs that give
// both figures and nulls, and the explore of every fourth model on several engines.
TEST_CASE("estimate's and explore's answers, written as text, are the text dump() writes for the same document",
          "[json_text]") {
  const auto& models = llmcalc::Catalog::instance().models();
  const char* engines[] = {"llama.cpp", "vllm", "mlx", "ollama", "sglang"};
  for (std::size_t i = 0; i < models.size(); ++i) {
    nlohmann::json request = {{"model", models[i].id}, {"hardware", i % 2 ? "rtx-4090" : "m4-max-64gb"},
                              {"engine", engines[i % 5]}};
    if (i % 3 == 0) request["cost"] = {{"purchase_usd", 0}, {"tokens_per_day", 1e10}};
    INFO(request.dump());
    std::string estimate = llmcalc::estimate_json(request.dump());
    auto parsed = nlohmann::json::parse(estimate);
    REQUIRE(parsed["ok"] == true);
    CHECK(estimate == dumped(parsed));
    if (i % 4 != 0) continue;
    std::string explore = llmcalc::explore_json(request.dump());
    auto explored = nlohmann::json::parse(explore);
    REQUIRE(explored["ok"] == true);
    CHECK(explore == dumped(explored));
  }
}
