// Cost: owning (electricity + amortized purchase), renting (the cheapest cloud offer for the
// device) and serverless APIs, per million output tokens and per month, with break-even points.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/hardware.h"
#include "llmcalc/issues.h"

namespace llmcalc {

/// Usage and price assumptions; every default is visible in the result.
struct CostAssumptions {
  double electricity_usd_per_kwh = 0.15;
  double hours_per_day = 8;
  double tokens_per_day = 1e6;      // output tokens generated per day
  double amortization_months = 36;
  double purchase_usd = -1;         // < 0: the device's launch price x device count (if known)
  int64_t concurrency = 8;          // sequences served together for the "concurrent" figures
};

struct CostInputs {
  std::string model_id;
  std::string device_id;            // catalog id ("custom" for inline hardware)
  int64_t devices = 1;
  double device_tdp_w = 0;
  double device_price_usd = -1;     // launch price of one device, < 0 if unknown
  double decode_tokens_per_s = 0;   // one sequence
  double concurrent_tokens_per_s = 0;  // aggregate at `concurrency` sequences
};

/// Reads request.cost (optional object) into assumptions, recording issues at /cost/...
CostAssumptions read_cost_assumptions(const nlohmann::json& request, Issues& issues);

/// Owning, renting and API costs and the cumulative chart, as JSON text: {assumptions, own, rent,
/// api, break_even_months_vs_rent, break_even_months_vs_api, chart}.
std::string estimate_cost(const CostInputs& inputs, const CostAssumptions& assumptions);

/// The cheapest cloud offer of a catalog device (data/cloud_offers.json, per device-hour) for
/// `devices` of it: {id, provider, product, usd_per_device_hour, usd_per_hour, ...}, or null.
const nlohmann::json& cheapest_offer(const std::string& device_id, int64_t devices);

}  // namespace llmcalc
