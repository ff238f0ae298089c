// A tensor's GGUF-style name ("blk.3.attn_v.weight"), held inline. The inventory names thousands
// of tensors per model and rank builds all 168 catalog models: a heap string per name was most of
// that work (and of every copy of a model). Names are our own stems joined to a layer prefix, the
// longest an MTP layer's (43 characters; 45 with a 1,024th layer), so a name beyond the capacity
// is a broken invariant.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace llmcalc {

// The characters are read a word at a time, the first character in a word's lowest byte.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "TensorName reads its characters a word at a time");

class TensorName {
 public:
  static constexpr std::size_t kCapacity = 47;

  TensorName(std::string_view text) { append(text); }  // NOLINT: names convert from text
  TensorName(const char* text) : TensorName(std::string_view(text)) {}  // NOLINT
  TensorName(const std::string& text) : TensorName(std::string_view(text)) {}  // NOLINT
  // A word at a time (and not zeroed first): the size-optimized WebAssembly of the inventory
  // called memcpy for each 48-byte copy, and memset to zero it (the first rank 380M -> 337M
  // instructions with the character loop in append; issue #22).
  TensorName(const TensorName& other)
      : words_{other.words_[0], other.words_[1], other.words_[2], other.words_[3], other.words_[4], other.words_[5]} {}
  TensorName& operator=(const TensorName& other) {
    copy_words(other);
    return *this;
  }

  TensorName& append(std::string_view text) {
    if (text.size() > kCapacity - size()) std::abort();
    char* out = chars() + size();
    for (char c : text) *out++ = c;  // a few characters: a loop, not a call
    bytes()[kCapacity] = static_cast<unsigned char>(size() + text.size());
    return *this;
  }
  // Replaces the first `length` characters with `prefix` (in place when as long).
  void replace_prefix(std::size_t length, std::string_view prefix) {
    if (length > size()) std::abort();
    if (prefix.size() != length) {
      TensorName renamed(prefix);
      renamed.append(view().substr(length));
      copy_words(renamed);
      return;
    }
    char* out = chars();
    for (char c : prefix) *out++ = c;
  }
  friend TensorName operator+(TensorName name, std::string_view text) {
    name.append(text);
    return name;
  }

  std::string_view view() const { return {reinterpret_cast<const char*>(words_), size()}; }
  operator std::string_view() const { return view(); }  // NOLINT
  std::size_t find(std::string_view text, std::size_t pos = 0) const { return view().find(text, pos); }
  std::size_t rfind(std::string_view text, std::size_t pos = std::string_view::npos) const {
    return view().rfind(text, pos);
  }
  bool operator==(std::string_view other) const { return view() == other; }

  // Calls `visit(at)` for each position, in order, where the name holds `c`. A word at a time
  // (eight characters): the quantizer's name tests scanned every character of 194,000 names in
  // the first rank, a sixth of its instructions (issue #22).
  template <typename Visit>
  void for_each_position_of(char c, Visit visit) const {
    constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
    const std::uint64_t pattern = 0x0101010101010101ULL * static_cast<unsigned char>(c);
    const std::size_t length = size();
    for (std::size_t w = 0; w * 8 < length; ++w) {
      const std::uint64_t x = words_[w] ^ pattern;  // a zero byte where the character is c
      // The high bit of each byte set exactly where that byte of x is zero (no carry crosses a
      // byte: 0x7f + 0x7f < 0x100).
      std::uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
      while (zero != 0) {
        const std::size_t at = w * 8 + static_cast<std::size_t>(__builtin_ctzll(zero)) / 8;
        if (at >= length) return;
        visit(at);
        zero &= zero - 1;
      }
    }
  }

 private:
  static constexpr std::size_t kWords = 6;
  // The characters, then their count in the last byte.
  std::uint64_t words_[kWords] = {};
  char* chars() { return reinterpret_cast<char*>(words_); }
  unsigned char* bytes() { return reinterpret_cast<unsigned char*>(words_); }
  std::size_t size() const { return reinterpret_cast<const unsigned char*>(words_)[kCapacity]; }
  void copy_words(const TensorName& other) {
    words_[0] = other.words_[0];
    words_[1] = other.words_[1];
    words_[2] = other.words_[2];
    words_[3] = other.words_[3];
    words_[4] = other.words_[4];
    words_[5] = other.words_[5];
  }
};

}  // namespace llmcalc
