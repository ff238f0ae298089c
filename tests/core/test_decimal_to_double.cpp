// The module's strtod (core/src/decimal_to_double.h, linked by wasm/strtod.cpp) against the C
// library's own, which rounds to nearest, ties to even, as IEEE 754 asks (glibc natively, musl
// when this suite runs as wasm): the same double, bit for bit, and the same end of the number.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "decimal_to_double.h"

namespace {

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The number of characters read and the double's bits, by ours and by the C library's.
void check_same(const std::string& text) {
  char* library_end = nullptr;
  double expected = std::strtod(text.c_str(), &library_end);
  const char* end = nullptr;
  bool out_of_range = false;
  double value = llmcalc::decimal_to_double(text.c_str(), &end, &out_of_range);
  INFO(text);
  CHECK(bits_of(value) == bits_of(expected));
  CHECK(end - text.c_str() == library_end - text.c_str());
}

}  // namespace

TEST_CASE("decimal_to_double rounds as strtod does at the edges", "[decimal]") {
  for (const char* text : {
           "0", "-0", "1", "-1", "0.1", "0.3", "1.5", "1500", "007", "00.5", ".05", "5.", "+7", "  42",
           "1e23", "8.589973e9", "123456789012345678901234567890", "0.000001", "1e-7",
           // 2^53 + 1: a tie between 2^53 and 2^53 + 2, to the even 2^53.
           "9007199254740993", "9007199254740995", "9007199254740993.0000000000000000001",
           // The largest double, the tie above it (to infinity) and a little below that tie.
           "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "-1e400",
           // The smallest normal and the subnormals around it (PHP and Java once looped here).
           "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
           "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400",
           // Ties decided by a digit far past the seventeenth.
           "0.500000000000000166533453693773481063544750213623046875",
           "0.5000000000000001665334536937734810635447502136230468750000000001",
           // What follows a number: an exponent without digits is not read, a second point ends it.
           "1e", "1e+", "2E-3x", "1.2.3", ".", "-", "e5", "", "x1",
       }) {
    check_same(text);
  }
  // Over 800 digits: the conversion keeps 800 and remembers whether anything nonzero was left.
  check_same("0." + std::string(900, '0') + "1e900");
  check_same("1" + std::string(850, '0') + "e-850");
  check_same("9007199254740993" + std::string(820, '0') + "1e-820");
  check_same("9007199254740993" + std::string(820, '0') + "e-820");
}

TEST_CASE("decimal_to_double matches strtod on 200,000 random decimals", "[decimal]") {
  std::mt19937_64 random(20261202);
  auto below = [&](uint64_t n) { return static_cast<int>(random() % n); };
  for (int i = 0; i < 200000; ++i) {
    std::string text = below(4) == 0 ? "-" : "";
    int digits = 1 + (below(4) == 0 ? below(40) : below(20));
    int point = below(digits + 2) - 1;  // -1: none
    for (int k = 0; k < digits; ++k) {
      if (k == point) text += '.';
      text += static_cast<char>('0' + below(10));
    }
    if (below(3) != 0) text += "e" + std::to_string(below(700) - 350);
    check_same(text);
  }
}
