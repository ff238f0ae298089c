// Internal: JSON text read into a document, and documents and values written as text exactly as
// nlohmann::json's dump() writes them (compact; numbers by its Grisu2 to_chars, NaN and
// infinities as null; strings escaped as its serializer escapes them, invalid UTF-8 replaced).
// The value writers serve an answer too large to build as a document first: rank's 168 rows as
// a document took a third of a warm rank (building, dumping and freeing the maps).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace llmcalc {

// `text` as a document, or the discarded value when it is not JSON (as json::parse(text,
// nullptr, false) reads it). Every parse in the core comes here: json::parse also builds the
// parser that calls back on each value, which the core never uses (7 KB of the module's code).
nlohmann::json parse_json(std::string_view text);

void append_json_number(std::string& out, double value);
void append_json_integer(std::string& out, int64_t value);
void append_json_bool(std::string& out, bool value);
void append_json_string(std::string& out, const std::string& value);

// The compact text dump() writes for `value`, invalid UTF-8 from user strings replaced rather
// than failing the serialization: every answer's text.
std::string json_text(const nlohmann::json& value);

}  // namespace llmcalc
