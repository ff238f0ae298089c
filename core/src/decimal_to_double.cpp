// Decimal to double: numbers of at most 19 digits whose power of ten is at most 22 in size are
// exact in one IEEE operation (Clinger's fast path; W. D. Clinger, "How to read floating point
// numbers accurately", PLDI 1990). The others are read into a decimal of up to 800 digits and
// scaled by powers of two, digit by digit, until the 53 bits of the double can be rounded off
// exactly: the "simple decimal conversion" Nigel Tao describes for Wuffs (nigeltao.github.io,
// 2020-09) and Go's strconv uses as its fallback (read to understand it; written here anew).
#include "decimal_to_double.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace llmcalc {
namespace {

constexpr int kMaxDigits = 800;  // beyond these a digit only decides exact ties (`truncated`)
constexpr int kMaxShift = 60;    // a digit times 2^60 plus a carry fits in 64 bits
constexpr int kMantissaBits = 52;
constexpr int kExponentBias = -1023;
constexpr int kMaxBiasedExponent = 0x7FF;

// The value 0.d[0]d[1]...d[count-1] x 10^point; digits 0-9, no trailing zeros.
struct Decimal {
  unsigned char d[kMaxDigits];
  int count = 0;
  int point = 0;
  bool truncated = false;  // nonzero digits past kMaxDigits were left out

  void trim() {
    while (count > 0 && d[count - 1] == 0) --count;
    if (count == 0) point = 0;
  }

  // Times 2^bits, 0 < bits <= kMaxShift: from the last digit up, carries making new digits.
  void shift_left(int bits) {
    unsigned char out[kMaxDigits + 20];
    int write = kMaxDigits + 20;
    uint64_t carry = 0;
    for (int read = count - 1; read >= 0; --read) {
      uint64_t n = (uint64_t{d[read]} << bits) + carry;
      out[--write] = static_cast<unsigned char>(n % 10);
      carry = n / 10;
    }
    while (carry > 0) {
      out[--write] = static_cast<unsigned char>(carry % 10);
      carry /= 10;
    }
    int produced = kMaxDigits + 20 - write;
    point += produced - count;
    int kept = std::min(produced, kMaxDigits);
    for (int i = kept; i < produced; ++i) truncated = truncated || out[write + i] != 0;
    std::memcpy(d, out + write, static_cast<std::size_t>(kept));
    count = kept;
    trim();
  }

  // Divided by 2^bits, 0 < bits <= kMaxShift: long division from the first digit down.
  void shift_right(int bits) {
    int read = 0;
    int write = 0;
    uint64_t n = 0;
    while ((n >> bits) == 0) {
      if (read >= count) {
        if (n == 0) {
          count = 0;
          point = 0;
          return;
        }
        while ((n >> bits) == 0) {
          n *= 10;
          ++read;
        }
        break;
      }
      n = n * 10 + d[read++];
    }
    point -= read - 1;
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    for (; read < count; ++read) {
      d[write++] = static_cast<unsigned char>(n >> bits);
      n = (n & mask) * 10 + d[read];
    }
    while (n > 0) {
      auto digit = static_cast<unsigned char>(n >> bits);
      if (write < kMaxDigits) {
        d[write++] = digit;
      } else {
        truncated = truncated || digit != 0;
      }
      n = (n & mask) * 10;
    }
    count = write;
    trim();
  }

  void shift(int bits) {
    for (; bits > kMaxShift; bits -= kMaxShift) shift_left(kMaxShift);
    for (; bits < -kMaxShift; bits += kMaxShift) shift_right(kMaxShift);
    if (bits > 0) shift_left(bits);
    if (bits < 0) shift_right(-bits);
  }

  // Whether the integer part rounds up: the first fraction digit above 5, or exactly 5 with
  // anything after it, or a tie (exactly .5) whose integer part is odd.
  bool rounds_up() const {
    if (point < 0 || point >= count) return false;
    if (d[point] == 5 && point + 1 == count) return truncated || (point > 0 && d[point - 1] % 2 == 1);
    return d[point] >= 5;
  }

  // The integer part rounded (point <= 19 here).
  uint64_t rounded_integer() const {
    uint64_t n = 0;
    for (int i = 0; i < point; ++i) n = n * 10 + (i < count ? d[i] : 0);
    return n + (rounds_up() ? 1 : 0);
  }

  // The nearest double's exponent and 53-bit mantissa (with its leading bit; subnormals and
  // zero without), as IEEE bits.
  uint64_t double_bits(bool* out_of_range) {
    if (count == 0) return 0;
    if (point > 310) return overflow(out_of_range);
    if (point < -330) return underflow(out_of_range);
    // Into [1/2, 1) by powers of two of about the decimal exponent's size (2^n stays below
    // 10^point for the n of each point: 1, 3, 6, ... bits for 0-8 digits, 27 beyond).
    static constexpr int kBitsForDigits[] = {1, 3, 6, 9, 13, 16, 19, 23, 26};
    auto bits_for = [](int digits) { return digits < 9 ? kBitsForDigits[digits] : 27; };
    int exponent = 0;
    while (point > 0) {
      int n = bits_for(point);
      shift(-n);
      exponent += n;
    }
    while (point < 0 || (point == 0 && d[0] < 5)) {
      int n = bits_for(-point);
      shift(n);
      exponent -= n;
    }
    --exponent;  // a double's mantissa is in [1, 2)
    if (exponent < kExponentBias + 1) {  // subnormal: the smallest exponent, fewer bits
      int n = kExponentBias + 1 - exponent;
      shift(-n);
      exponent += n;
    }
    if (exponent - kExponentBias >= kMaxBiasedExponent) return overflow(out_of_range);
    shift(kMantissaBits + 1);
    uint64_t mantissa = rounded_integer();
    if (mantissa == uint64_t{2} << kMantissaBits) {  // rounding carried into a new bit
      mantissa >>= 1;
      ++exponent;
      if (exponent - kExponentBias >= kMaxBiasedExponent) return overflow(out_of_range);
    }
    if ((mantissa & (uint64_t{1} << kMantissaBits)) == 0) exponent = kExponentBias;
    if (mantissa == 0) return underflow(out_of_range);
    return (mantissa & ((uint64_t{1} << kMantissaBits) - 1)) |
           (static_cast<uint64_t>(exponent - kExponentBias) << kMantissaBits);
  }

  static uint64_t overflow(bool* out_of_range) {
    *out_of_range = true;
    return uint64_t{kMaxBiasedExponent} << kMantissaBits;
  }
  static uint64_t underflow(bool* out_of_range) {
    *out_of_range = true;
    return 0;
  }
};

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// 10^0 ... 10^22, each exactly a double.
constexpr double kExactPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

}  // namespace

double decimal_to_double(const char* text, const char** end, bool* out_of_range) {
  *out_of_range = false;
  *end = text;
  const char* p = text;
  while (is_space(*p)) ++p;
  bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  Decimal decimal;
  bool digits = false;
  bool seen_point = false;
  int significant = 0;  // digits from the first nonzero one, kept or not
  for (;; ++p) {
    if (*p == '.' && !seen_point) {
      seen_point = true;
      decimal.point = significant;
    } else if (is_digit(*p)) {
      digits = true;
      if (*p == '0' && significant == 0) {
        --decimal.point;  // a leading zero: the next digit is a place further down
        continue;
      }
      ++significant;
      if (decimal.count < kMaxDigits) {
        decimal.d[decimal.count++] = static_cast<unsigned char>(*p - '0');
      } else {
        decimal.truncated = decimal.truncated || *p != '0';
      }
    } else {
      break;
    }
  }
  if (!digits) return 0.0;
  if (!seen_point) decimal.point = significant;
  if ((*p == 'e' || *p == 'E') && (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
    ++p;
    int sign = *p == '-' ? -1 : 1;
    if (*p == '+' || *p == '-') ++p;
    int exponent = 0;
    for (; is_digit(*p); ++p) {
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
    }
    decimal.point += sign * exponent;
  }
  *end = p;
  decimal.trim();

  double value;
  int power = decimal.point - decimal.count;  // the value is the digits' integer x 10^power
  uint64_t integer = 0;
  for (int i = 0; i < decimal.count && i < 19; ++i) integer = integer * 10 + decimal.d[i];
  if (!decimal.truncated && decimal.count <= 19 && integer <= (uint64_t{1} << 53) && power >= -22 && power <= 22) {
    auto exact = static_cast<double>(integer);
    value = power >= 0 ? exact * kExactPowersOfTen[power] : exact / kExactPowersOfTen[-power];
  } else {
    uint64_t bits = decimal.double_bits(out_of_range);
    std::memcpy(&value, &bits, sizeof value);
  }
  return negative ? -value : value;
}

}  // namespace llmcalc
