// Internal: the tensor roles a model's own FP8 checkpoint leaves in 16 bits on every layer.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/model.h"

namespace llmcalc {

// The roles that config.json's quantization_config (quant_method "fp8") names in ignored_layers
// or modules_to_not_convert for each of the `layers` decoder layers (MiMo-V2.5-Pro lists every
// self_attn.o_proj): its FP8 checkpoint stores them in BF16. Empty for any other config.
std::vector<TensorRole> fp8_kept_roles(const nlohmann::json& config, int64_t layers);

}  // namespace llmcalc
