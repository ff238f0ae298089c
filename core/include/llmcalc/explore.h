// Everything the page redraws around one estimate, in one call: a quantization x context
// matrix, memory against context, and the same model on every catalog device.
#pragma once

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

/// `request`: an estimate request. Result: {matrix: [{weights, context_tokens, verdict,
/// total_bytes}], sweep: [{context_tokens, total_bytes, kv_cache_bytes, fits}], usable_bytes,
/// devices: [{id, name, kind, verdict, total_bytes, usable_bytes, max_context_tokens,
/// decode_tokens_per_s, ttft_s, price_usd}]}. Each cell is computed as estimate() computes it.
nlohmann::json explore(const nlohmann::json& request, Issues& issues);

}  // namespace llmcalc
