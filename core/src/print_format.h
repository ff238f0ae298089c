// Internal: vsnprintf for the directives the module's callers use, without the C library's
// formatter (printf_core and its helpers were 8 KB of the module's code, issue #22): integers
// (d, i, u, x, X) with the flags '0' and '-', a width, a precision ('*' too) and the length
// modifiers, strings (s), characters (c) and "%%". Any other directive (floating point among them:
// the core formats its own decimals) is written out as it stands, so a new caller's output shows
// what it asked for. wasm/snprintf.cpp makes it the module's snprintf and vsnprintf.
#pragma once

#include <cstdarg>
#include <cstddef>

namespace llmcalc {

/// As vsnprintf: writes at most `size` bytes (the last a NUL) and returns the whole text's length.
int print_format(char* buffer, std::size_t size, const char* format, va_list args);

}  // namespace llmcalc
