// Internal: the multimodal projector file (mmproj) llama-server loads beside a vision model's
// text weights, and the compute buffer of its warm-up (see mmproj_memory.cpp for the sources).
#pragma once

#include <cstdint>
#include <vector>

#include "llmcalc/model.h"

namespace llmcalc {

struct MmprojMemory {
  int64_t weights_bytes = 0;  // the tower, projector (and audio encoder) tensors as the file stores them
  int64_t compute_bytes = 0;  // the warm-up graph's buffer on the projector's device
  int64_t warmup_side = 0;    // the square warm-up image's side in pixels (0: not known for this tower)
};

/// The bytes of the mmproj file llama.cpp's converter writes for these tensors: the tower,
/// projector and audio encoder ones; 0 for a text-only model.
int64_t mmproj_file_bytes(const std::vector<TensorSpec>& tensors);

/// What llama-server's mmproj of `model` takes on its device; zeros for a text-only model. A
/// `published_file_bytes` above 0 (the repository's own projector file) is the file's size; below
/// 0 the repository has none (zeros).
MmprojMemory mmproj_memory(const ModelSpec& model, bool flash_attention, int64_t published_file_bytes = 0);

}  // namespace llmcalc
