// Internal: a count rounded up to whole blocks, the one rule behind cache cell padding, file
// alignment and padded tensor widths.
#pragma once

#include <cstdint>

namespace llmcalc {

/// `value` rounded up to a multiple of `multiple` (which must be positive).
constexpr int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace llmcalc
