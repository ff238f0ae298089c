// Internal: llama.cpp's per-tensor type choice for a GGUF file type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/model.h"

namespace llmcalc {

/// llama.cpp file types (LLAMA_FTYPE_MOSTLY_*) this calculator reproduces.
const std::vector<std::string>& gguf_file_types();

/// True for file types llama-quantize only makes with an importance matrix.
bool gguf_requires_imatrix(const std::string& ftype);

/// The QuantNameTest bits `name` passes (the inventory sets each TensorSpec's once).
std::uint8_t quant_name_tests(const TensorName& name);

/// The ggml type llama-quantize writes for each tensor of `model` under `ftype`, in tensor order;
/// null for tensors a GGUF does not hold (vision, audio and projector parts). `imatrix`: the file was
/// quantized with an importance matrix (always assumed where llama-quantize requires one).
std::vector<const GgmlType*> gguf_tensor_types(const ModelSpec& model, const std::string& ftype,
                                               bool imatrix);

}  // namespace llmcalc
