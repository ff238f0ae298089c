// The JSON boundary (api_version 1): one request string in, one envelope string out. Nothing
// throws across it; every failure is an issue in the envelope.
#pragma once

#include <string>

namespace llmcalc {

constexpr int kApiVersion = 1;

/// Runs one estimate. See README "JSON contract" for keys; never throws.
std::string estimate_json(const std::string& request_json);

/// Every catalog model ranked for a device (request as estimate's, without "model"); never throws.
std::string rank_json(const std::string& request_json);

/// The matrix, context sweep and device leaderboard around an estimate request; never throws.
std::string explore_json(const std::string& request_json);

/// The smallest setups of each catalog device that serve `plan.users` at `plan.tokens_per_s`
/// each (request as estimate's plus "plan"; see planner.h), with their costs; never throws.
std::string plan_json(const std::string& request_json);

/// Models, devices, formats, KV types and engines with their key figures; never throws.
std::string catalog_json();

/// Reads a GGUF header from the first bytes of a file (`file_size`: the whole file's size, 0 if
/// unknown). result.status is "ok" (with the header), or "need_more_bytes" with bytes_needed.
std::string read_gguf_json(const std::string& bytes, double file_size);

/// Reads a safetensors header (8-byte length + JSON) or a model.safetensors.index.json.
std::string read_safetensors_json(const std::string& bytes);

/// Library version, e.g. "0.1.0".
std::string version();

}  // namespace llmcalc
