// The module's snprintf and vsnprintf: core/src/print_format.cpp in place of the C library's,
// whose printf_core and helpers were 8 KB of the module's code (issue #22) for the only callers
// left, nlohmann's JSON writer and reader, which format integers in hexadecimal ("\\u%04x" escapes
// of control characters, "<U+%.4X>" in a lexer message, "%.2hhX" in its binary readers).
#include <cstdarg>
#include <cstddef>

#include "print_format.h"

extern "C" {

int vsnprintf(char* buffer, std::size_t size, const char* format, va_list args) {
  return llmcalc::print_format(buffer, size, format, args);
}

int snprintf(char* buffer, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int length = llmcalc::print_format(buffer, size, format, args);
  va_end(args);
  return length;
}

}  // extern "C"
