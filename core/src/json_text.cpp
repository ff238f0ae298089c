// JSON values as text, in nlohmann::json's dump() format (see json_text.h): its Grisu2
// to_chars for doubles (nlohmann/detail/output/serializer.hpp dump_float), its escapes for
// strings and its replacement of invalid UTF-8 (dump_escaped with ensure_ascii off and the
// replace handler), objects in their maps' key order. Written here rather than through dump():
// its serializer writes through a virtual call per piece and cost 7 KB of the module's code
// (issue #22).
#include "json_text.h"

#include <array>
#include <charconv>
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

void append_json_integer(std::string& out, int64_t value) {
  std::array<char, 24> digits;  // into the text, without a string of its own first
  std::to_chars_result written = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  out.append(digits.data(), static_cast<std::size_t>(written.ptr - digits.data()));
}

void append_json_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

std::size_t utf8_sequence(std::string_view text, std::size_t at, std::size_t& invalid) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  unsigned char low = 0x80;  // the second byte's range; the others are 0x80-0xBF
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing beyond U+10FFFF
  } else {
    invalid = 1;
    return 0;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (at + k >= text.size()) {
      invalid = k;  // cut short by the end of the text
      return 0;
    }
    const auto byte = static_cast<unsigned char>(text[at + k]);
    if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) {
      invalid = k;
      return 0;
    }
  }
  return length;
}

namespace {

void append_json(std::string& out, const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        append_json(out, member);
      }
      out += '}';
      break;
    }
    case nlohmann::json::value_t::array: {
      JsonListText list(out);
      for (const nlohmann::json& element : value.get_ref<const nlohmann::json::array_t&>()) {
        append_json(list.item(), element);
      }
      break;
    }
    case nlohmann::json::value_t::string: append_json_string(out, value.get_ref<const std::string&>()); break;
    case nlohmann::json::value_t::boolean: append_json_bool(out, value.get<bool>()); break;
    case nlohmann::json::value_t::number_integer: append_json_integer(out, value.get<int64_t>()); break;
    case nlohmann::json::value_t::number_unsigned: out += std::to_string(value.get<uint64_t>()); break;
    case nlohmann::json::value_t::number_float: append_json_number(out, value.get<double>()); break;
    case nlohmann::json::value_t::discarded: out += "<discarded>"; break;
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::binary:  // never made by a parse or by the core
      out += "null";
      break;
  }
}

}  // namespace

void append_json_string(std::string& out, const std::string& value) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  // Printable ASCII but the quote and the backslash is written as it is, a run at a time (a
  // call per character was a sixth of an estimate's work natively; issue #22).
  for (std::size_t at = 0; at < value.size();) {
    std::size_t end = at;
    while (end < value.size() && json_plain_char(value[end])) ++end;
    if (end > at) {
      out.append(value, at, end - at);
      at = end;
      continue;
    }
    const char c = value[at];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // Beyond ASCII: a well-formed sequence as it is, else U+FFFD (as dump() replaces).
      std::size_t invalid = 0;
      std::size_t length = utf8_sequence(value, at, invalid);
      if (length > 0) {
        out.append(value, at, length);
        at += length;
      } else {
        out += "\xEF\xBF\xBD";
        at += invalid;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default: {  // the other control characters
        const auto byte = static_cast<unsigned char>(c);
        out += "\\u00";
        out += hex[byte >> 4];
        out += hex[byte & 0xF];
      }
    }
    ++at;
  }
  out += '"';
}

std::string json_text(const nlohmann::json& value) {
  std::string out;
  append_json(out, value);
  return out;
}

}  // namespace llmcalc
