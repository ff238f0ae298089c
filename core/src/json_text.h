// Internal: JSON text read into a document, and documents and values written as text exactly as
// nlohmann::json's dump() writes them (compact; numbers by its Grisu2 to_chars, NaN and
// infinities as null; strings escaped as its serializer escapes them, invalid UTF-8 replaced).
// The value writers serve the answers written as text rather than built as documents first:
// rank's 168 rows as a document took a third of a warm rank, explore's leaderboard and the
// estimate's sections half of a page recompute (building, dumping and freeing the maps).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmcalc {

// `text` as a document, or the discarded value when it is not JSON: what json::parse(text,
// nullptr, false) reads, read by the core's own reader (json_parser.cpp) into nlohmann's
// document. Every parse in the core comes here.
nlohmann::json parse_json(std::string_view text);

// The length of the well-formed UTF-8 sequence (Unicode table 3-7) that starts at `at`, or 0 with
// `invalid` set to how many bytes dump() replaces by one U+FFFD: the lead byte alone if it leads
// nothing, else the start of a sequence cut short by the byte after it (which is read again).
std::size_t utf8_sequence(std::string_view text, std::size_t at, std::size_t& invalid);

// A character a JSON string holds as it is: printable ASCII but the quote and the backslash.
inline bool json_plain_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x20 && byte < 0x80 && c != '"' && c != '\\';
}

void append_json_number(std::string& out, double value);
void append_json_integer(std::string& out, int64_t value);
void append_json_bool(std::string& out, bool value);
void append_json_string(std::string& out, const std::string& value);

// The compact text dump() writes for `value`, invalid UTF-8 from user strings replaced rather
// than failing the serialization: every answer's text.
std::string json_text(const nlohmann::json& value);

// One list's items appended to `out`: `item()` gives the text to write the next item into (with
// the comma before every item but the first); the list closes when the writer goes out of
// scope, so the text is complete only after that scope.
class JsonListText {
 public:
  explicit JsonListText(std::string& out) : out_(out) { out_ += '['; }
  ~JsonListText() { out_ += ']'; }
  JsonListText(const JsonListText&) = delete;
  JsonListText& operator=(const JsonListText&) = delete;

  std::string& item() {
    if (!first_) out_ += ',';
    first_ = false;
    return out_;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

// One object's members appended to `out` as they are given, which is in dump()'s sorted key
// order (tests compare the answers written so with the dump of their own parse); the object
// closes when the writer goes out of scope, so the text is complete only after that scope.
class JsonObjectText {
 public:
  explicit JsonObjectText(std::string& out) : out_(out) { out_ += '{'; }
  ~JsonObjectText() { out_ += '}'; }
  JsonObjectText(const JsonObjectText&) = delete;
  JsonObjectText& operator=(const JsonObjectText&) = delete;

  // `"key":`, for a value the caller appends itself (a nested object, a list). A literal name's
  // length is known, so the comma, quotes and colon go in with it in one append (three appends
  // and a strlen per member were 6% of a page recompute in WebAssembly; issue #22).
  template <std::size_t N>
  std::string& key(const char (&name)[N]) {
    char text[N + 3];  // ,"name":
    text[0] = ',';
    text[1] = '"';
    std::memcpy(text + 2, name, N - 1);
    text[N + 1] = '"';
    text[N + 2] = ':';
    const bool first = first_;
    first_ = false;
    return first ? out_.append(text + 1, N + 2) : out_.append(text, N + 3);
  }
  // A name made at run time (a layer kind, a method's name from a list).
  std::string& key(std::string_view name) {
    out_ += first_ ? "\"" : ",\"";
    first_ = false;
    out_ += name;
    out_ += "\":";
    return out_;
  }
  template <typename Name>
  void integer(const Name& name, int64_t value) { append_json_integer(key(name), value); }
  template <typename Name>
  void number(const Name& name, double value) { append_json_number(key(name), value); }
  template <typename Name>
  void boolean(const Name& name, bool value) { append_json_bool(key(name), value); }
  template <typename Name>
  void string(const Name& name, const std::string& value) { append_json_string(key(name), value); }
  template <typename Name>
  void document(const Name& name, const nlohmann::json& value) { key(name) += json_text(value); }
  template <typename Name>
  void integers(const Name& name, const std::vector<int64_t>& values) { append_list(key(name), values); }
  template <typename Name>
  void numbers(const Name& name, const std::vector<double>& values) { append_list(key(name), values); }
  template <typename Name>
  void strings(const Name& name, const std::vector<std::string>& values) { append_list(key(name), values); }
  // A figure where there is one, else null.
  template <typename Name>
  void number_or_null(const Name& name, bool known, double value) {
    if (known) {
      number(name, value);
    } else {
      key(name) += "null";
    }
  }

 private:
  template <typename T>
  static void append_list(std::string& out, const std::vector<T>& values) {
    JsonListText list(out);
    for (const T& value : values) {
      if constexpr (std::is_same_v<T, double>) {
        append_json_number(list.item(), value);
      } else if constexpr (std::is_same_v<T, std::string>) {
        append_json_string(list.item(), value);
      } else {
        append_json_integer(list.item(), value);
      }
    }
  }
  std::string& out_;
  bool first_ = true;
};

}  // namespace llmcalc
