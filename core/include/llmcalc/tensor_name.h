// A tensor's GGUF-style name ("blk.3.attn_v.weight"), held inline. The inventory names thousands
// of tensors per model and rank builds all 168 catalog models: a heap string per name was most of
// that work (and of every copy of a model). Names are our own stems joined to a layer prefix, the
// longest an MTP layer's (43 characters; 45 with a 1,024th layer), so a name beyond the capacity
// is a broken invariant.
#pragma once

#include <array>
#include <cstdlib>
#include <string>
#include <string_view>

namespace llmcalc {

class TensorName {
 public:
  static constexpr std::size_t kCapacity = 47;

  TensorName(std::string_view text) { append(text); }  // NOLINT: names convert from text
  TensorName(const char* text) : TensorName(std::string_view(text)) {}  // NOLINT
  TensorName(const std::string& text) : TensorName(std::string_view(text)) {}  // NOLINT

  TensorName& append(std::string_view text) {
    if (text.size() > kCapacity - size_) std::abort();
    text.copy(chars_.data() + size_, text.size());
    size_ = static_cast<unsigned char>(size_ + text.size());
    return *this;
  }
  friend TensorName operator+(TensorName name, std::string_view text) {
    name.append(text);
    return name;
  }

  std::string_view view() const { return {chars_.data(), size_}; }
  operator std::string_view() const { return view(); }  // NOLINT
  std::size_t find(std::string_view text, std::size_t pos = 0) const { return view().find(text, pos); }
  std::size_t rfind(std::string_view text, std::size_t pos = std::string_view::npos) const {
    return view().rfind(text, pos);
  }
  bool operator==(std::string_view other) const { return view() == other; }

 private:
  std::array<char, kCapacity> chars_{};
  unsigned char size_ = 0;
};

}  // namespace llmcalc
