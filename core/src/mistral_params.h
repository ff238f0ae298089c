// Mistral's own checkpoint description (params.json, beside consolidated*.safetensors), read as
// the Hugging Face config.json it corresponds to.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace llmcalc {

/// A params.json (dim, n_layers, n_heads, hidden_dim, ... and no hidden_size) as a config.json:
/// MLA + MoE (Mistral Large 3) as deepseek_v3 with plain softmax top-k routing, MoE without MLA
/// as mixtral, otherwise mistral. nullopt for anything else.
std::optional<nlohmann::json> config_from_mistral_params(const nlohmann::json& params);

}  // namespace llmcalc
