// Decimal text to the nearest double, ties to even: what the C library's strtod gives for a
// decimal number. The module links it as its strtod (wasm/strtod.cpp): the C library's reads
// through 128-bit software floating point, 16 KB of the module's code (issue #22).
#pragma once

namespace llmcalc {

/// Reads [spaces][+|-]digits[.digits][(e|E)[+|-]digits] (digits on at least one side of the
/// point) at `text`. `*end` is left after the number, or at `text` when there is none (the
/// result is then 0). A value beyond the largest double is ±infinity, one nearer zero than the
/// smallest subnormal ±0, with `*out_of_range` set. Hexadecimal, "inf" and "nan" are not read.
double decimal_to_double(const char* text, const char** end, bool* out_of_range);

}  // namespace llmcalc
