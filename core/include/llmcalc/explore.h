// Everything the page redraws around one estimate, in one call: a quantization x context
// matrix, memory against context, and the same model on every catalog device.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

/// `request`: an estimate request, with "sections" naming some of the panels (matrix, advice,
/// sweep, devices; all by default). Result, as JSON text: {context_tokens, matrix: [{weights,
/// bits, context_tokens, verdict, total_bytes}], advice, sweep: [{context_tokens, total_bytes,
/// kv_cache_bytes, fits, decode_tokens_per_s, decode_low, decode_high, bound}], usable_bytes,
/// devices: [{id, verdict, total_bytes, usable_bytes, max_context_tokens, decode_tokens_per_s,
/// ttft_s, price_usd, price_used_usd}], recommendations}; "" with the reason in `issues`. Each
/// cell is computed as estimate() computes it.
std::string explore(const nlohmann::json& request, Issues& issues);

}  // namespace llmcalc
