// Internal: JSON values appended to a text exactly as nlohmann::json's dump() writes them
// (compact; numbers by its Grisu2 to_chars, NaN and infinities as null; strings escaped as its
// serializer escapes them), for an answer too large to build as a document first: rank's 168
// rows as a document took a third of a warm rank (building, dumping and freeing the maps).
#pragma once

#include <cstdint>
#include <string>

namespace llmcalc {

void append_json_number(std::string& out, double value);
void append_json_integer(std::string& out, int64_t value);
void append_json_bool(std::string& out, bool value);
void append_json_string(std::string& out, const std::string& value);

}  // namespace llmcalc
