// Internal: how vLLM lays out an MXFP4 checkpoint's routed experts in GPU memory.
#pragma once

#include <cstdint>

#include "llmcalc/hardware.h"
#include "llmcalc/model.h"

namespace llmcalc {

/// The factor by which vLLM's stored routed experts of `layer` exceed the checkpoint's MXFP4
/// bytes on one rank of `device`: each expert's hidden width and its per-rank intermediate width
/// (the expert width over `intermediate_shards`: the tensor-parallel ranks, 1 with expert
/// parallel) are padded to the multiples the MoE kernel vLLM picks for the device needs. 1 for a
/// layer without experts and for a device whose kernel is not known.
double vllm_mxfp4_expert_padding(const LayerSpec& layer, int64_t hidden_size, const Hardware& device,
                                 int64_t intermediate_shards);

}  // namespace llmcalc
