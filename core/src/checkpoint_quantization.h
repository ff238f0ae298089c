// Internal: what a quantized checkpoint's config.json says of its own format and of the KV cache
// vLLM and SGLang give it (see checkpoint_quantization.cpp for the sources).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace llmcalc {

struct CheckpointQuantization {
  const char* format = "";    // a checkpoint format of data/formats (FP8, NVFP4, AWQ-INT4, ...), or ""
  const char* kv_cache = "";         // the KV cache type vLLM's --kv-cache-dtype auto becomes (fp8, nvfp4), or ""
  const char* sglang_kv_cache = "";  // the one SGLang's auto becomes (fp8), or ""
};

/// Reads config["quantization_config"]: the form transformers writes (quant_method fp8, awq, gptq,
/// bitsandbytes, mxfp4, compressed-tensors, modelopt) and ModelOpt's hf_quant_config.json
/// ({"producer": {"name": "modelopt"}, "quantization": {...}}) placed there as vLLM places it.
CheckpointQuantization checkpoint_quantization(const nlohmann::json& config);

}  // namespace llmcalc
