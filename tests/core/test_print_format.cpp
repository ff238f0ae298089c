// The module's snprintf (core/src/print_format.cpp, linked as snprintf in the wasm module by
// wasm/snprintf.cpp) against the C library's own, natively: the same text and the same returned
// length for every directive it claims, in buffers large and small.
#include <catch2/catch.hpp>

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "print_format.h"

namespace {

struct Printed {
  std::string text;
  int length;
};

using Vprint = int (*)(char*, std::size_t, const char*, va_list);

// What `print` writes into a buffer of `size` bytes (and the unwritten '#' after it), and returns.
Printed printed(Vprint print, std::size_t size, const char* format, ...) {
  std::string buffer(size + 1, '#');
  va_list args;
  va_start(args, format);
  int length = print(buffer.data(), size, format, args);
  va_end(args);
  return {buffer, length};
}

int libc_vsnprintf(char* buffer, std::size_t size, const char* format, va_list args) {
  return std::vsnprintf(buffer, size, format, args);
}

#define SAME_AS_LIBC(size, ...)                            \
  do {                                                     \
    Printed a = printed(llmcalc::print_format, size, __VA_ARGS__); \
    Printed b = printed(libc_vsnprintf, size, __VA_ARGS__);        \
    INFO(#__VA_ARGS__ << " in " << (size) << " bytes");    \
    CHECK(a.text == b.text);                               \
    CHECK(a.length == b.length);                           \
  } while (false)

}  // namespace

TEST_CASE("The module's snprintf writes integers, strings and characters as the C library does", "[print_format]") {
  for (std::size_t size : {std::size_t{64}, std::size_t{7}, std::size_t{3}, std::size_t{1}, std::size_t{0}}) {
    // nlohmann's directives: control-character escapes, a lexer message, the binary readers.
    SAME_AS_LIBC(size, "\\u%04x", 0x1f);
    SAME_AS_LIBC(size, "\\u%04x\\u%04x", 0xd83d, 0xde00);
    SAME_AS_LIBC(size, "<U+%.4X>", 0x7);
    SAME_AS_LIBC(size, "%.2hhX", 0x1ab);
    // The rest of what it claims.
    SAME_AS_LIBC(size, "%d|%i|%u", -42, 7, 4000000000u);
    SAME_AS_LIBC(size, "%5d|%-5d|%05d|%.3d|%.0d", -42, 42, -42, 7, 0);
    SAME_AS_LIBC(size, "%lld|%llx|%lu|%zu|%hd", -9000000000LL, 0xfedcba9876ULL, 123456789UL, std::size_t{77}, 70000);
    SAME_AS_LIBC(size, "%*d|%.*x|%08X", 6, 12, 4, 0xab, 0xbeef);
    SAME_AS_LIBC(size, "%jd|%jx|%td", -(intmax_t{1} << 40), uintmax_t{1} << 50, std::ptrdiff_t{-5});
    SAME_AS_LIBC(size, "[%s][%.3s][%c]%%", "text", "abcdef", 'z');
  }
}

TEST_CASE("The module's snprintf writes a directive it does not know as it stands", "[print_format]") {
  // Floating point is the core's own business (commands.cpp number); a caller asking for it here
  // sees the directive, not a made-up number.
  Printed a = printed(llmcalc::print_format, 64, "x=%.2f!", 1.5);
  CHECK(a.text.substr(0, 7) == "x=%.2f!");
  CHECK(a.text[7] == '\0');
  CHECK(a.length == 7);
}
