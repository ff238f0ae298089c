// Internal: llama.cpp's per-tensor type choice for a GGUF file type.
#pragma once

#include <string>
#include <vector>

#include "llmcalc/model.h"

namespace llmcalc {

/// llama.cpp file types (LLAMA_FTYPE_MOSTLY_*) this calculator reproduces.
const std::vector<std::string>& gguf_file_types();

/// The ggml type llama-quantize writes for each tensor of `model` under `ftype`, in tensor order;
/// "" for tensors a GGUF does not hold (vision, projector and MTP parts).
std::vector<std::string> gguf_tensor_types(const ModelSpec& model, const std::string& ftype);

}  // namespace llmcalc
