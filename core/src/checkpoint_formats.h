// Internal: the checkpoint formats of data/formats/checkpoint_formats.json (bits per weight, group
// layout, the roles each keeps in 16 bits), read once. Apart from weights.cpp so that this one-time
// reading is built for size while the weight plans stay built for speed (issue #22).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llmcalc {

struct CheckpointFormat {
  std::string id;
  double weight_bits = 16;
  int64_t group_elements = 1;  // 0: one group per row
  int64_t block_rows = 0;      // > 0: 2-D blocks of block_rows rows x group_elements columns
  double group_overhead_bits = 0;
  double row_overhead_bits = 0;
  bool quantize_only_experts = false;
  std::vector<std::string> keep_roles;
};

const std::vector<CheckpointFormat>& checkpoint_formats();

}  // namespace llmcalc
