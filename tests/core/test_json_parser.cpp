// The core's JSON reader (core/src/json_parser.cpp) against nlohmann::json's own parser, the
// reference: the same texts accepted, the same documents built (each value's type too: an
// unsigned, a signed integer and a double of the same number differ), on every JSON file of the
// project, crafted edge cases and random damage to them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_text.h"
#include "same_json_document.h"

namespace {

// Whether both readers accept `text` or both refuse it, and agree on what it holds.
bool agrees(const std::string& text) {
  nlohmann::json ours = llmcalc::parse_json(text);
  nlohmann::json reference = nlohmann::json::parse(text, nullptr, false);
  if (ours.is_discarded() || reference.is_discarded()) return ours.is_discarded() == reference.is_discarded();
  return llmcalc_test::same_json_document(ours, reference);
}

std::vector<std::string> project_json_files() {
  std::vector<std::string> texts;
  for (const char* dir : {LLMCALC_DATA_DIR, LLMCALC_TEST_DATA_DIR, LLMCALC_DATA_DIR "/../tests/fuzz/corpus"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream file(entry.path(), std::ios::binary);
      std::stringstream content;
      content << file.rdbuf();
      texts.push_back(content.str());
    }
  }
  return texts;
}

}  // namespace

TEST_CASE("every JSON file of the project reads as nlohmann reads it", "[json_parser]") {
  std::vector<std::string> texts = project_json_files();
  REQUIRE(texts.size() > 300);
  int accepted = 0;
  for (const std::string& text : texts) {
    CHECK(agrees(text));
    if (!llmcalc::parse_json(text).is_discarded()) ++accepted;
  }
  CHECK(accepted > 300);  // the data files are JSON (the GGUF and safetensors seeds are not)
}

TEST_CASE("edge cases of the grammar read as nlohmann reads them", "[json_parser]") {
  const std::vector<std::string> cases = {
      // Numbers: 64-bit limits, signs, fractions, exponents, leading zeros, lone signs.
      "0", "-0", "0.0", "-0.0", "1", "-1", "18446744073709551615", "18446744073709551616",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "-18446744073709551615", "-18446744073709551616", "123456789012345678901234567890", "1e2", "1E+2",
      "1e-2", "-1.5e-300", "1e400", "-1e400", "4.9406564584124654e-324", "2.2250738585072011e-308",
      "0.1", "1.7976931348623157e308", "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "--1",
      "1.e2", "0x10", "1_000", "NaN", "Infinity", "-Infinity", "[1,2,3.5,-4,18446744073709551616]",
      // Strings: escapes, surrogate pairs, lone surrogates, control characters, UTF-8.
      "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u0000\"", "\"\\u00e9\\u20AC\"",
      "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"", "\"\\ude00\"",
      "\"\\u12\"", "\"\\u12g4\"", "\"\\x41\"", "\"\\\"", "\"abc", "\"tab\there\"", "\"nl\nhere\"",
      "\"caf\xC3\xA9\"", "\"\xE2\x82\xAC\"", "\"\xF0\x9F\x98\x80\"", "\"\xC0\x80\"", "\"\xC3\"",
      "\"\xE0\x80\x80\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xF5\x80\x80\x80\"", "\"\xFF\"",
      "\"\x7F\"", std::string("\"a\0b\"", 5),
      // Literals, containers, whitespace, what follows the value, byte order marks.
      "true", "false", "null", "tru", "nul", "True", "[]", "{}", "[ ]", "{ }", "[,]", "[1,]", "[,1]",
      "{\"a\":1,}", "{,}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{1:2}", "{\"a\":1 \"b\":2}",
      "{\"a\":1,\"a\":2}", "{\"b\":[{\"c\":{}}],\"a\":null}", "[[[[[[]]]]]]", "[[[", "]]]", "{\"a\":[}",
      " \t\r\n[1 , 2]\n ", "1 2", "[1] x", "[1]]", "{} {}", "", " ", "\xEF\xBB\xBF{\"a\":1}",
      "\xEF\xBB{}", "\xEF{}", "{}\xEF\xBB\xBF", "/* c */ 1", "[1 // c\n]", std::string("[1]\0", 4),
  };
  for (const std::string& text : cases) {
    INFO(text);
    CHECK(agrees(text));
  }
  // Nesting deeper than a recursive reader would survive, closed and not.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(agrees(deep));
  CHECK(agrees(std::string(100000, '[')));
  std::string objects;
  for (int i = 0; i < 50000; ++i) objects += "{\"k\":";
  CHECK(agrees(objects + "1" + std::string(50000, '}')));
}

TEST_CASE("damaged JSON files read as nlohmann reads them", "[json_parser]") {
  std::vector<std::string> texts = project_json_files();
  std::mt19937 random(20261203);
  const std::string alphabet = "{}[]\",:\\/-+.eE0123456789 \t\nabfnrtu\x01\x7F\x80\xBF\xC3\xE2\xED\xF0\xFF";
  int refused = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = texts[random() % texts.size()].substr(0, 2000);
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = random() % text.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0: text[at] = c; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: text.erase(at, 1 + random() % 4); break;
      }
    }
    INFO(text);
    CHECK(agrees(text));
    if (llmcalc::parse_json(text).is_discarded()) ++refused;
  }
  CHECK(refused > 500);  // the damage breaks most texts, so refusals are compared too
}
