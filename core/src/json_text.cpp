// JSON values as text, in nlohmann::json's dump() format (see json_text.h): its Grisu2
// to_chars for doubles (nlohmann/detail/output/serializer.hpp dump_float), its escapes for
// strings (dump_escaped with ensure_ascii off).
#include "json_text.h"

#include <array>
#include <cmath>

namespace llmcalc {

void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  std::array<char, 64> digits;
  char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), value);
  out.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
}

void append_json_integer(std::string& out, int64_t value) { out += std::to_string(value); }

void append_json_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

void append_json_string(std::string& out, const std::string& value) {
  // Beyond ASCII, dump() checks the UTF-8 (replacing what is invalid): left to it.
  for (char c : value) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      out += json_text(value);
      return;
    }
  }
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          const auto byte = static_cast<unsigned char>(c);
          out += "\\u00";
          out += hex[byte >> 4];
          out += hex[byte & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

nlohmann::json parse_json(std::string_view text) {
  nlohmann::json document;
  nlohmann::detail::json_sax_dom_parser<nlohmann::json> builder(document, false);
  if (!nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &builder)) {
    document = nlohmann::json(nlohmann::json::value_t::discarded);
  }
  return document;
}

std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace llmcalc
