// "What runs on my hardware": every catalog model with the best weight format that fits
// comfortably on the requested device(s), evaluated exactly as estimate() evaluates one model.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

/// `request`: an estimate request without "model" (hardware, devices, engine, context_tokens,
/// kv_cache, batch), plus "min_bits" (default 4: no format below 4 bits unless asked).
/// Result: the JSON text of {"rows": [...]} with one row per catalog model (written as text, in
/// nlohmann::json dump()'s form; empty when `issues` has an error).
std::string rank_models(const nlohmann::json& request, Issues& issues);

}  // namespace llmcalc
