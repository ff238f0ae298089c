// printf's integer, string and character directives without the C library's formatter (see
// print_format.h).
#include "print_format.h"

#include <cstdint>
#include <cstring>

namespace llmcalc {
namespace {

struct Output {
  char* buffer;
  std::size_t size;
  std::size_t length = 0;  // what the whole text takes, as snprintf returns it
  void put(char c) {
    if (length + 1 < size) buffer[length] = c;
    ++length;
  }
  void put(const char* text, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) put(text[i]);
  }
};

// Integer conversion: digits of `value` in `base`, at least `precision` of them, padded to `width`.
void put_integer(Output& out, uintmax_t value, bool negative, unsigned base, bool upper, int precision, int width,
                 bool zero_pad, bool left) {
  char digits[48];
  int count = 0;
  const char* alphabet = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    digits[count++] = alphabet[value % base];
    value /= base;
  } while (value != 0 && count < 40);
  if (precision == 0 && count == 1 && digits[0] == '0') count = 0;  // "%.0d" of 0 writes nothing
  int zeros = precision > count ? precision - count : 0;
  int body = count + zeros + (negative ? 1 : 0);
  bool pad_with_zeros = zero_pad && !left && precision < 0;
  int padding = width > body ? width - body : 0;
  if (!left && !pad_with_zeros) for (int i = 0; i < padding; ++i) out.put(' ');
  if (negative) out.put('-');
  if (pad_with_zeros) zeros += padding;
  for (int i = 0; i < zeros; ++i) out.put('0');
  while (count > 0) out.put(digits[--count]);
  if (left) for (int i = 0; i < padding; ++i) out.put(' ');
}

int read_number(const char*& format, va_list& args) {
  if (*format == '*') {
    ++format;
    return va_arg(args, int);
  }
  int value = 0;
  while (*format >= '0' && *format <= '9') value = value * 10 + (*format++ - '0');
  return value;
}

}  // namespace

int print_format(char* buffer, std::size_t size, const char* format, va_list args) {
  Output out{buffer, size};
  va_list list;
  va_copy(list, args);
  while (*format) {
    if (*format != '%') {
      out.put(*format++);
      continue;
    }
    const char* directive = format++;
    bool zero_pad = false;
    bool left = false;
    for (; *format == '0' || *format == '-'; ++format) (*format == '0' ? zero_pad : left) = true;
    int width = read_number(format, list);
    int precision = -1;
    if (*format == '.') {
      ++format;
      precision = read_number(format, list);
    }
    int longs = 0;
    int shorts = 0;
    for (;; ++format) {
      if (*format == 'j') longs += 2;  // intmax_t: long long wide on every target
      else if (*format == 'l' || *format == 'z' || *format == 't') ++longs;
      else if (*format == 'h') ++shorts;
      else break;
    }
    char conversion = *format ? *format++ : '\0';
    switch (conversion) {
      case 'd':
      case 'i': {
        intmax_t value = longs > 1 ? va_arg(list, long long) : longs == 1 ? va_arg(list, long) : va_arg(list, int);
        if (shorts == 1) value = static_cast<short>(value);
        if (shorts > 1) value = static_cast<signed char>(value);
        uintmax_t magnitude = value < 0 ? uintmax_t{0} - static_cast<uintmax_t>(value) : static_cast<uintmax_t>(value);
        put_integer(out, magnitude, value < 0, 10, false, precision, width, zero_pad, left);
        break;
      }
      case 'u':
      case 'x':
      case 'X': {
        uintmax_t value = longs > 1    ? va_arg(list, unsigned long long)
                          : longs == 1 ? va_arg(list, unsigned long)
                                       : va_arg(list, unsigned);
        if (shorts == 1) value = static_cast<unsigned short>(value);
        if (shorts > 1) value = static_cast<unsigned char>(value);
        put_integer(out, value, false, conversion == 'u' ? 10 : 16, conversion == 'X', precision, width, zero_pad, left);
        break;
      }
      case 's': {
        const char* text = va_arg(list, const char*);
        if (!text) text = "(null)";
        std::size_t length = std::strlen(text);
        if (precision >= 0 && static_cast<std::size_t>(precision) < length) length = static_cast<std::size_t>(precision);
        out.put(text, length);
        break;
      }
      case 'c': out.put(static_cast<char>(va_arg(list, int))); break;
      case '%': out.put('%'); break;
      default: out.put(directive, static_cast<std::size_t>(format - directive)); break;
    }
  }
  va_end(list);
  if (size > 0) buffer[out.length < size ? out.length : size - 1] = '\0';
  return static_cast<int>(out.length);
}

}  // namespace llmcalc
