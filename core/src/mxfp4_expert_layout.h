// Internal: how vLLM and SGLang lay out an MXFP4 checkpoint's routed experts in GPU memory.
#pragma once

#include <cstdint>
#include <string>

#include "llmcalc/hardware.h"
#include "llmcalc/model.h"

namespace llmcalc {

/// Bytes of `layer`'s routed experts one rank of `device` holds when `engine` (vllm or sglang)
/// serves an MXFP4 checkpoint whose experts take `checkpoint_bytes` in the file, over `shards`
/// ranks: with expert parallel each rank holds whole experts, without it a slice of every
/// expert's width. The MoE kernel the engine picks for the device decides the padding and what
/// is kept beside it. Falls back to checkpoint_bytes / shards for a layer that is not an MXFP4
/// expert layout, and where the engine's choice is not modelled.
int64_t mxfp4_rank_expert_bytes(const std::string& engine, const LayerSpec& layer, int64_t hidden_size,
                                int64_t checkpoint_bytes, const Hardware& device, int64_t shards,
                                bool expert_parallel);

}  // namespace llmcalc
