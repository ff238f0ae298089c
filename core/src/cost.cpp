// Cost arithmetic. Per million tokens = hourly cost / (tokens per second x 3600) x 1e6; owning
// costs electricity (TDP x devices x hours x price per kWh) plus the purchase spread over the
// amortization period; renting uses the cheapest catalog offer (data/cloud_offers.json); APIs the
// cheapest listed output price for the model (data/api_prices.json).
#include "llmcalc/cost.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "llmcalc/catalog.h"
#include "llmcalc/json_reader.h"
#include "json_text.h"

namespace llmcalc {
namespace {

constexpr double kDaysPerMonth = 365.25 / 12.0;

double per_million(double usd_per_hour, double tokens_per_s) {
  return tokens_per_s > 0 ? usd_per_hour / (tokens_per_s * 3600.0) * 1e6 : 0.0;
}

// Looked up once per model: the price list is fixed for the life of the module. A row marked
// `delisted` (the date its provider stopped offering it) is history, not a price to pay.
const nlohmann::json& cheapest_api(const std::string& model_id) {
  static std::map<std::string, nlohmann::json> found;
  auto cached = found.find(model_id);
  if (cached != found.end()) return cached->second;
  nlohmann::json best = nullptr;
  const nlohmann::json& prices = Catalog::instance().document("api_prices.json");
  if (!prices.contains("prices")) return found.emplace(model_id, best).first->second;
  for (const auto& price : prices["prices"]) {
    auto id = price.find("model_id");
    if (id == price.end() || !id->is_string() || id->get_ref<const std::string&>() != model_id ||
        !price["usd_per_million_output_tokens"].is_number() || price.contains("delisted")) {
      continue;
    }
    if (best.is_null() || price["usd_per_million_output_tokens"].get<double>() <
                              best["usd_per_million_output_tokens"].get<double>()) {
      best = {{"provider", price.value("provider", "")},
              {"usd_per_million_input_tokens", price.value("usd_per_million_input_tokens", nlohmann::json(nullptr))},
              {"usd_per_million_output_tokens", price["usd_per_million_output_tokens"]},
              {"price_date", price.value("price_date", "")},
              {"source", price.value("source", "")}};
    }
  }
  return found.emplace(model_id, std::move(best)).first->second;
}

// The cheapest offer per device of a device (looked up once per device id) and its price per device.
struct BestOffer {
  const nlohmann::json* offer = nullptr;
  double per_device = std::numeric_limits<double>::infinity();
};

const BestOffer& best_offer(const std::string& device_id) {
  static std::map<std::string, BestOffer> found;
  auto cached = found.find(device_id);
  if (cached != found.end()) return cached->second;
  BestOffer best;
  const nlohmann::json& offers = Catalog::instance().document("cloud_offers.json");
  if (offers.contains("offers")) {
    for (const auto& offer : offers["offers"]) {
      auto id = offer.find("device_id");
      if (id == offer.end() || !id->is_string() || id->get_ref<const std::string&>() != device_id ||
          !offer["usd_per_hour"].is_number()) {
        continue;
      }
      double count = static_cast<double>(std::max<int64_t>(1, offer.value("device_count", int64_t{1})));
      double per_device = offer["usd_per_hour"].get<double>() / count;
      if (per_device < best.per_device) best = {&offer, per_device};
    }
  }
  return found.emplace(device_id, best).first->second;
}

// The cheapest offer for `devices` of the device, as the answer writes it; null without one.
nlohmann::json offer_json(const std::string& device_id, int64_t devices) {
  const BestOffer& best = best_offer(device_id);
  if (!best.offer) return nullptr;
  const nlohmann::json& offer = *best.offer;
  return {{"id", offer.value("id", "")},
          {"provider", offer.value("provider", "")},
          {"product", offer.value("product", "")},
          {"usd_per_device_hour", best.per_device},
          {"usd_per_hour", best.per_device * static_cast<double>(devices)},
          {"billing_granularity", offer.value("billing_granularity", nlohmann::json(nullptr))},
          {"price_date", offer.value("price_date", "")},
          {"source", offer.value("source", "")}};
}

}  // namespace

const nlohmann::json& cheapest_offer(const std::string& device_id, int64_t devices) {
  // Built once per device and count: the offers are fixed for the life of the module.
  static std::map<std::pair<std::string, int64_t>, nlohmann::json> built;
  auto key = std::make_pair(device_id, devices);
  auto cached = built.find(key);
  if (cached != built.end()) return cached->second;
  return built.emplace(std::move(key), offer_json(device_id, devices)).first->second;
}

CostAssumptions read_cost_assumptions(const nlohmann::json& request, Issues& issues) {
  CostAssumptions a;
  auto it = request.find("cost");
  if (it == request.end() || it->is_null()) return a;
  JsonReader reader(*it, "/cost", issues);
  if (!reader.valid()) return a;
  a.electricity_usd_per_kwh = reader.number("electricity_usd_per_kwh", 0, 10, a.electricity_usd_per_kwh).value_or(a.electricity_usd_per_kwh);
  a.hours_per_day = reader.number("hours_per_day", 0.1, 24, a.hours_per_day).value_or(a.hours_per_day);
  a.tokens_per_day = reader.number("tokens_per_day", 0, 1e13, a.tokens_per_day).value_or(a.tokens_per_day);
  a.amortization_months = reader.number("amortization_months", 1, 240, a.amortization_months).value_or(a.amortization_months);
  a.purchase_usd = reader.number("purchase_usd", 0, 1e9, a.purchase_usd).value_or(a.purchase_usd);
  a.concurrency = reader.integer("concurrency", 1, 1024, a.concurrency).value_or(a.concurrency);
  reader.warn_unread();
  return a;
}

std::string estimate_cost(const CostInputs& in, const CostAssumptions& a) {
  double devices = static_cast<double>(in.devices);
  double purchase = a.purchase_usd >= 0 ? a.purchase_usd
                    : in.device_price_usd > 0 ? in.device_price_usd * devices
                                              : -1.0;
  // Owning, per hour of use: power draw at TDP, plus the purchase spread over the hours of use in
  // the amortization period.
  double power_usd_per_hour = in.device_tdp_w * devices / 1000.0 * a.electricity_usd_per_kwh;
  double hours_of_use = a.amortization_months * kDaysPerMonth * a.hours_per_day;
  double own_usd_per_hour = purchase >= 0 ? power_usd_per_hour + purchase / hours_of_use : -1.0;
  double own_monthly = purchase >= 0 ? power_usd_per_hour * a.hours_per_day * kDaysPerMonth +
                                           purchase / a.amortization_months
                                     : -1.0;

  const nlohmann::json& offer = cheapest_offer(in.device_id, in.devices);
  double rent_usd_per_hour = offer.is_null() ? -1.0 : offer.at("usd_per_hour").get<double>();
  double rent_monthly = rent_usd_per_hour >= 0 ? rent_usd_per_hour * a.hours_per_day * kDaysPerMonth : -1.0;

  const nlohmann::json& api = cheapest_api(in.model_id);
  double api_monthly = api.is_null() ? -1.0
                                     : api.at("usd_per_million_output_tokens").get<double>() *
                                           a.tokens_per_day / 1e6 * kDaysPerMonth;

  // Buying pays off when the monthly saving has covered the purchase; -1 when it never does.
  auto break_even = [&](double alternative_monthly) {
    if (purchase < 0 || alternative_monthly < 0) return -1.0;
    double running = power_usd_per_hour * a.hours_per_day * kDaysPerMonth;
    double saving = alternative_monthly - running;
    return saving > 0 ? purchase / saving : -1.0;
  };
  const double even_rent = break_even(rent_monthly);
  const double even_api = break_even(api_monthly);
  // The chart runs 36 months, or to the year after a later break-even (up to 10 years), so the
  // crossing the figures name is on it; 13 points either way.
  int horizon = 36;
  for (double even : {even_rent, even_api}) {
    if (even >= 0) horizon = std::max(horizon, std::min(120, static_cast<int>(std::ceil(even / 12.0)) * 12));
  }
  auto per_million_or_none = [&](double usd_per_hour, double tokens_per_s) {
    return usd_per_hour >= 0 ? per_million(usd_per_hour, tokens_per_s) : -1.0;
  };
  // A figure, or null where there is none (negative).
  auto maybe = [](JsonObjectText& o, const auto& name, double value) { o.number_or_null(name, value >= 0, value); };
  // The answer as JSON text, keys in dump()'s sorted order (issue #22: built as a document, the
  // estimate's largest section was a fifth of its allocations).
  std::string out;
  {
    JsonObjectText cost(out);
    {
      JsonObjectText api_cost(cost.key("api"));
      maybe(api_cost, "monthly_usd", api_monthly);
      api_cost.document("price", api);
    }
    {
      JsonObjectText assumptions(cost.key("assumptions"));
      assumptions.number("amortization_months", a.amortization_months);
      assumptions.integer("concurrency", a.concurrency);
      assumptions.number("electricity_usd_per_kwh", a.electricity_usd_per_kwh);
      assumptions.number("hours_per_day", a.hours_per_day);
      maybe(assumptions, "purchase_usd", purchase);
      assumptions.number("tokens_per_day", a.tokens_per_day);
    }
    maybe(cost, "break_even_months_vs_api", even_api);
    maybe(cost, "break_even_months_vs_rent", even_rent);
    {
      JsonListText chart(cost.key("chart"));
      for (int month = 0; month <= horizon; month += horizon / 12) {
        double m = month;
        double running = power_usd_per_hour * a.hours_per_day * kDaysPerMonth * m;
        JsonObjectText point(chart.item());
        maybe(point, "api_usd", api_monthly >= 0 ? api_monthly * m : -1.0);
        point.integer("month", month);
        point.number_or_null("own_usd", purchase >= 0, purchase + running);
        maybe(point, "rent_usd", rent_monthly >= 0 ? rent_monthly * m : -1.0);
      }
    }
    {
      JsonObjectText own(cost.key("own"));
      maybe(own, "monthly_usd", own_monthly);
      own.number("power_usd_per_hour", power_usd_per_hour);
      maybe(own, "usd_per_hour", own_usd_per_hour);
      maybe(own, "usd_per_million_tokens", per_million_or_none(own_usd_per_hour, in.decode_tokens_per_s));
      maybe(own, "usd_per_million_tokens_concurrent", per_million_or_none(own_usd_per_hour, in.concurrent_tokens_per_s));
    }
    JsonObjectText rent(cost.key("rent"));
    maybe(rent, "monthly_usd", rent_monthly);
    rent.document("offer", offer);
    maybe(rent, "usd_per_million_tokens", per_million_or_none(rent_usd_per_hour, in.decode_tokens_per_s));
    maybe(rent, "usd_per_million_tokens_concurrent", per_million_or_none(rent_usd_per_hour, in.concurrent_tokens_per_s));
  }
  return out;
}

}  // namespace llmcalc
