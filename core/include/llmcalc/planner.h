// The deployment planner (issue #20): for a model, a context, a number of concurrent users and a
// decode speed per user, the smallest setup of each catalog device that serves them (one device,
// several in one machine, several machines), with its cost to buy and to rent. Each setup is
// evaluated exactly as estimate() evaluates one request.
#pragma once

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

/// `request`: an estimate request (model, weights, engine, context_tokens, kv_cache, hardware
/// as the user's own setup) plus "plan": {"users" (1-1024), "tokens_per_s" (per user),
/// "devices" (catalog ids to try; default all), "max_devices_per_machine" (default 8),
/// "max_machines" (default 8)}. Result: {"current", "setups" (those that serve the users,
/// cheapest to rent first), "cheapest_to_buy", "cheapest_to_rent", "evaluated"}.
nlohmann::json plan_deployments(const nlohmann::json& request, Issues& issues);

}  // namespace llmcalc
