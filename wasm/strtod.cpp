// The module's strtod: the core's exact decimal conversion (core/src/decimal_to_double.h) in
// place of the C library's, which reads through 128-bit software floating point (16 KB of the
// module's code, 7.9 KB gzip; issue #22). Its callers read decimal numbers: nlohmann's JSON
// lexer and std::atof. The C library's strtod.o also defines strtof and strtold, which libc++'s
// std::stof and std::stold name (the core calls neither); they are defined here too, or that
// object would be linked beside this one.
#include <cerrno>
#include <cstdlib>

#include "decimal_to_double.h"

extern "C" {

double strtod(const char* text, char** end) {
  const char* after = text;
  bool out_of_range = false;
  double value = llmcalc::decimal_to_double(text, &after, &out_of_range);
  if (out_of_range) errno = ERANGE;
  if (end) *end = const_cast<char*>(after);
  return value;
}

float strtof(const char* text, char** end) { return static_cast<float>(strtod(text, end)); }

long double strtold(const char* text, char** end) { return strtod(text, end); }

}  // extern "C"
