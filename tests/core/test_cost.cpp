// Cost formulas against hand arithmetic, and offer selection against the data file.
#include <catch2/catch.hpp>

#include <limits>

#include "llmcalc/cost.h"
#include "test_support.h"

TEST_CASE("Owning cost per hour, per million tokens and per month by hand", "[cost]") {
  llmcalc::CostInputs in;
  in.device_id = "custom";  // no cloud offer, no API price
  in.devices = 2;
  in.device_tdp_w = 450;
  in.device_price_usd = 1599;
  in.decode_tokens_per_s = 100;
  in.concurrent_tokens_per_s = 400;
  llmcalc::CostAssumptions a;
  a.electricity_usd_per_kwh = 0.20;
  a.hours_per_day = 10;
  a.amortization_months = 36;
  auto cost = nlohmann::json::parse(llmcalc::estimate_cost(in, a));
  // Power: 2 x 450 W = 0.9 kW x $0.20 = $0.18 per hour.
  CHECK(cost["own"]["power_usd_per_hour"].get<double>() == Approx(0.18));
  // Purchase $3,198 over 36 months x 30.4375 days x 10 h = 10,957.5 h: $0.291855 per hour.
  CHECK(cost["own"]["usd_per_hour"].get<double>() == Approx(0.18 + 3198.0 / 10957.5));
  // Per million tokens at 100 tok/s: $0.471855 / 360,000 tokens x 1e6 = $1.3107.
  CHECK(cost["own"]["usd_per_million_tokens"].get<double>() == Approx(1.31071).epsilon(1e-4));
  CHECK(cost["own"]["usd_per_million_tokens_concurrent"].get<double>() == Approx(1.31071 / 4).epsilon(1e-4));
  // Monthly: $0.18 x 10 h x 30.4375 days = $54.7875 + $3,198 / 36 = $88.8333 -> $143.62.
  CHECK(cost["own"]["monthly_usd"].get<double>() == Approx(143.6208).epsilon(1e-4));
  CHECK(cost["rent"]["offer"].is_null());
  CHECK(cost["break_even_months_vs_rent"].is_null());
}

TEST_CASE("Renting uses the cheapest offer per device; break-even by hand", "[cost]") {
  // The cheapest RTX 4090 offer in data/cloud_offers.json, recomputed here from the file.
  const auto& offers = llmcalc::Catalog::instance().document("cloud_offers.json")["offers"];
  double cheapest = std::numeric_limits<double>::infinity();
  for (const auto& offer : offers) {
    if (offer["device_id"].is_string() && offer["device_id"] == "rtx-4090") {
      cheapest = std::min(cheapest, offer["usd_per_hour"].get<double>() / offer.value("device_count", 1));
    }
  }
  REQUIRE(cheapest < 10);
  llmcalc::CostInputs in;
  in.device_id = "rtx-4090";
  in.devices = 1;
  in.device_tdp_w = 450;
  in.device_price_usd = 1599;
  in.decode_tokens_per_s = 120;
  llmcalc::CostAssumptions a;  // $0.15/kWh, 8 h/day
  auto cost = nlohmann::json::parse(llmcalc::estimate_cost(in, a));
  CHECK(cost["rent"]["offer"]["usd_per_hour"].get<double>() == Approx(cheapest));
  // Renting 8 h x 30.4375 days; owning runs at 0.45 kW x $0.15 = $0.0675 per hour.
  double rent_monthly = cheapest * 8 * 30.4375;
  double running = 0.0675 * 8 * 30.4375;
  CHECK(cost["break_even_months_vs_rent"].get<double>() == Approx(1599.0 / (rent_monthly - running)));

  // The chart: every 3 months to 36; owning starts at the price, renting at zero.
  const auto& chart = cost["chart"];
  REQUIRE(chart.size() == 13);
  CHECK(chart[0]["month"] == 0);
  CHECK(chart[0]["own_usd"].get<double>() == Approx(1599.0));
  CHECK(chart[0]["rent_usd"].get<double>() == Approx(0.0));
  CHECK(chart[4]["month"] == 12);
  // Month 12: $1,599 + $0.0675 x 8 h x 365.25 days = $1,599 + $197.235 = $1,796.235.
  CHECK(chart[4]["own_usd"].get<double>() == Approx(1796.235));
  CHECK(chart[4]["rent_usd"].get<double>() == Approx(cheapest * 8 * 365.25));
  // No API price without a model id.
  CHECK(chart[4]["api_usd"].is_null());
}

TEST_CASE("Cost assumptions from the request, with bad values as issues", "[cost][bad_input]") {
  auto ok = llmcalc_test::estimate({{"cost", {{"hours_per_day", 24}, {"concurrency", 4}}}});
  REQUIRE(ok["ok"] == true);
  CHECK(ok["result"]["cost"]["assumptions"]["hours_per_day"] == 24.0);
  auto bad = llmcalc_test::estimate({{"cost", {{"hours_per_day", 25}}}});
  CHECK(bad["ok"] == false);
  CHECK(bad["issues"][0]["path"] == "/cost/hours_per_day");
}

TEST_CASE("The cheapest API price leaves out prices no longer offered", "[cost]") {
  llmcalc::CostAssumptions a;
  auto api_price = [&](const std::string& model_id) {
    llmcalc::CostInputs in;
    in.device_id = "custom";
    in.model_id = model_id;
    return nlohmann::json::parse(llmcalc::estimate_cost(in, a))["api"]["price"];
  };
  // data/api_prices.json, Llama 3.1 8B: DeepInfra's $0.05 per million output tokens was removed on
  // 2026-06-08 (models.dev commit 077a047eb); Groq's $0.08 is still listed.
  auto llama = api_price("llama-3.1-8b");
  CHECK(llama["provider"] == "Groq");
  CHECK(llama["usd_per_million_output_tokens"].get<double>() == Approx(0.08));
  // Kimi K2: all four hosts' rows are delisted ($2.00 to $3.00); Moonshot's own API lists $2.50.
  auto kimi = api_price("kimi-k2");
  CHECK(kimi["provider"] == "Moonshot AI");
  CHECK(kimi["usd_per_million_output_tokens"].get<double>() == Approx(2.5));
}
