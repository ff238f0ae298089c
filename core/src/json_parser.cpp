// JSON text read into a document (json_text.h parse_json): the grammar and the values of
// nlohmann::json's own parser (RFC 8259; a UTF-8 byte order mark skipped at the start; strings
// of well-formed UTF-8 only; an integer without sign read as unsigned, with a sign as signed,
// either read as a double by strtod where it does not fit in 64 bits), written from reading
// nlohmann/detail/input/lexer.hpp and parser.hpp of 3.11.2 and checked against them
// (test_json_parser.cpp, fuzz_json.cpp). The document is built by nlohmann's own DOM builder;
// only the reading is ours. Its lexer reads a character at a time through a callback and copies
// each string a character at a time: the catalog's model records parsed with it were a sixth of
// the first rank's instructions (issue #22). This reads runs of plain characters at once.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "json_text.h"

namespace llmcalc {
namespace {

using DomBuilder = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

class Parser {
 public:
  Parser(std::string_view text, DomBuilder& builder)
      : at_(text.data()), end_(text.data() + text.size()), builder_(builder) {}

  // The whole text as one value (and nothing after it but whitespace).
  bool parse() {
    skip_byte_order_mark();
    // What encloses the value being read: '{' or '['.
    std::vector<char> open;
    for (;;) {
      skip_whitespace();
      if (at_ == end_) return false;
      // A value.
      const char c = *at_;
      if (c == '{' || c == '[') {
        ++at_;
        if (!(c == '{' ? builder_.start_object(std::size_t(-1)) : builder_.start_array(std::size_t(-1)))) {
          return false;
        }
        skip_whitespace();
        if (at_ != end_ && *at_ == (c == '{' ? '}' : ']')) {
          ++at_;
          if (!(c == '{' ? builder_.end_object() : builder_.end_array())) return false;
        } else {
          open.push_back(c);
          if (c == '{' && !read_key()) return false;
          continue;
        }
      } else if (!read_scalar()) {
        return false;
      }
      // After a value: a comma and the next member or element, or the end of its container(s).
      for (;;) {
        if (open.empty()) {
          // nlohmann's lexer ends the input at a NUL character too.
          skip_whitespace();
          return at_ == end_ || *at_ == '\0';
        }
        skip_whitespace();
        if (at_ == end_) return false;
        const bool object = open.back() == '{';
        if (*at_ == ',') {
          ++at_;
          if (object && !read_key()) return false;
          break;
        }
        if (*at_ != (object ? '}' : ']')) return false;
        ++at_;
        open.pop_back();
        if (!(object ? builder_.end_object() : builder_.end_array())) return false;
      }
    }
  }

 private:
  void skip_byte_order_mark() {
    if (end_ - at_ >= 3 && static_cast<unsigned char>(at_[0]) == 0xEF &&
        static_cast<unsigned char>(at_[1]) == 0xBB && static_cast<unsigned char>(at_[2]) == 0xBF) {
      at_ += 3;
    }
  }

  void skip_whitespace() {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
  }

  // `"name" :` of an object's member.
  bool read_key() {
    skip_whitespace();
    if (at_ == end_ || *at_ != '"' || !read_string()) return false;
    if (!builder_.key(text_)) return false;
    skip_whitespace();
    if (at_ == end_ || *at_ != ':') return false;
    ++at_;
    return true;
  }

  bool read_scalar() {
    switch (*at_) {
      case '"': return read_string() && builder_.string(text_);
      case 't': return read_literal("true") && builder_.boolean(true);
      case 'f': return read_literal("false") && builder_.boolean(false);
      case 'n': return read_literal("null") && builder_.null();
      default: return read_number();
    }
  }

  bool read_literal(std::string_view literal) {
    if (static_cast<std::size_t>(end_ - at_) < literal.size()) return false;
    for (char c : literal) {
      if (*at_++ != c) return false;
    }
    return true;
  }

  // A string (at its opening quote) into text_.
  bool read_string() {
    ++at_;
    text_.clear();
    for (;;) {
      const char* run = at_;
      while (at_ != end_ && json_plain_char(*at_)) ++at_;
      text_.append(run, static_cast<std::size_t>(at_ - run));
      if (at_ == end_) return false;
      const auto byte = static_cast<unsigned char>(*at_);
      if (byte == '"') {
        ++at_;
        return true;
      }
      if (byte == '\\') {
        if (!read_escape()) return false;
      } else if (byte >= 0x80) {
        if (!read_utf8()) return false;
      } else {
        return false;  // a control character
      }
    }
  }

  // One well-formed UTF-8 sequence, copied as it is.
  bool read_utf8() {
    std::size_t invalid = 0;
    const std::size_t length = utf8_sequence({at_, static_cast<std::size_t>(end_ - at_)}, 0, invalid);
    if (length == 0) return false;
    text_.append(at_, length);
    at_ += length;
    return true;
  }

  // An escape (at its backslash); \u escapes of a surrogate pair make one code point.
  bool read_escape() {
    ++at_;
    if (at_ == end_) return false;
    const char c = *at_++;
    switch (c) {
      case '"': text_ += '"'; return true;
      case '\\': text_ += '\\'; return true;
      case '/': text_ += '/'; return true;
      case 'b': text_ += '\b'; return true;
      case 'f': text_ += '\f'; return true;
      case 'n': text_ += '\n'; return true;
      case 'r': text_ += '\r'; return true;
      case 't': text_ += '\t'; return true;
      case 'u': break;
      default: return false;
    }
    long code = read_hex4();
    if (code < 0 || (code >= 0xDC00 && code <= 0xDFFF)) return false;
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u') return false;
      at_ += 2;
      const long low = read_hex4();
      if (low < 0xDC00 || low > 0xDFFF) return false;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(code);
    return true;
  }

  // Four hex digits, or -1.
  long read_hex4() {
    if (end_ - at_ < 4) return -1;
    long code = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = *at_++;
      int digit = -1;
      if (c >= '0' && c <= '9') digit = c - '0';
      if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      if (digit < 0) return -1;
      code = code * 16 + digit;
    }
    return code;
  }

  void append_utf8(long code) {
    if (code < 0x80) {
      text_ += static_cast<char>(code);
    } else if (code < 0x800) {
      text_ += static_cast<char>(0xC0 | (code >> 6));
      text_ += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      text_ += static_cast<char>(0xE0 | (code >> 12));
      text_ += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      text_ += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      text_ += static_cast<char>(0xF0 | (code >> 18));
      text_ += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      text_ += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      text_ += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool read_number() {
    const char* start = at_;
    const bool negative = *at_ == '-';
    if (negative) ++at_;
    if (at_ == end_ || !is_digit(*at_)) return false;
    // Integer digits, accumulated while they fit in 64 bits.
    uint64_t magnitude = 0;
    bool fits = true;
    if (*at_ == '0') {
      ++at_;
    } else {
      while (at_ != end_ && is_digit(*at_)) {
        const uint64_t digit = static_cast<uint64_t>(*at_ - '0');
        if (magnitude > (UINT64_MAX - digit) / 10) fits = false;
        magnitude = magnitude * 10 + digit;
        ++at_;
      }
    }
    bool integer = true;
    if (at_ != end_ && *at_ == '.') {
      integer = false;
      ++at_;
      if (at_ == end_ || !is_digit(*at_)) return false;
      while (at_ != end_ && is_digit(*at_)) ++at_;
    }
    if (at_ != end_ && (*at_ == 'e' || *at_ == 'E')) {
      integer = false;
      ++at_;
      if (at_ != end_ && (*at_ == '+' || *at_ == '-')) ++at_;
      if (at_ == end_ || !is_digit(*at_)) return false;
      while (at_ != end_ && is_digit(*at_)) ++at_;
    }
    if (integer && fits) {
      if (!negative) return builder_.number_unsigned(magnitude);
      constexpr uint64_t kInt64MinMagnitude = uint64_t{1} << 63;
      if (magnitude < kInt64MinMagnitude) return builder_.number_integer(-static_cast<int64_t>(magnitude));
      if (magnitude == kInt64MinMagnitude) return builder_.number_integer(INT64_MIN);
    }
    // A fraction, an exponent or an integer beyond 64 bits: strtod reads the text, as
    // nlohmann's lexer has it read (the module's strtod is wasm/strtod.cpp).
    // Beyond the doubles' range it refuses the text.
    text_.assign(start, static_cast<std::size_t>(at_ - start));
    const double value = std::strtod(text_.c_str(), nullptr);
    return std::isfinite(value) && builder_.number_float(value, text_);
  }

  const char* at_;
  const char* end_;
  DomBuilder& builder_;
  std::string text_;  // the string or number being read
};

}  // namespace

nlohmann::json parse_json(std::string_view text) {
  nlohmann::json document;
  DomBuilder builder(document, false);
  if (!Parser(text, builder).parse()) document = nlohmann::json(nlohmann::json::value_t::discarded);
  return document;
}

}  // namespace llmcalc
