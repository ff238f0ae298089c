// The matrix, the context sweep and the device leaderboard around one scenario.
#include "llmcalc/explore.h"

#include <algorithm>

#include "llmcalc/catalog.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/scenario.h"

namespace llmcalc {
namespace {

// Catalog devices in SI units, converted once.
const std::vector<Hardware>& catalog_hardware() {
  static const std::vector<Hardware> devices = [] {
    std::vector<Hardware> out;
    for (const CatalogDevice& device : Catalog::instance().devices()) {
      out.push_back(hardware_from_record(device.record));
    }
    return out;
  }();
  return devices;
}

const Hardware* find_hardware(const std::string& id) {
  for (const Hardware& h : catalog_hardware()) {
    if (h.id == id) return &h;
  }
  return nullptr;
}

// Whether `scenario` fits comfortably on `count` of `hardware`.
bool fits_comfortably(Scenario s, const ModelSpec& model, const Hardware& hardware, int64_t count) {
  s.hardware = hardware;
  s.devices = count;
  s.speed = default_speed_assumptions(speed_calibration_key(hardware), s.engine.engine);
  Issues issues;
  std::optional<Evaluation> e = evaluate(s, model, issues, false);
  return e && e->memory.verdict == "comfortable";
}

// The cheapest device that fits comfortably, a unified-memory option, the cheapest cloud offer
// and the cheapest multi-GPU combination of priced discrete cards (launch prices, see data/).
nlohmann::json recommendations(const Scenario& base, const ModelSpec& model, const nlohmann::json& devices) {
  nlohmann::json cheapest = nullptr;
  nlohmann::json unified = nullptr;
  for (const auto& d : devices) {
    if (d["verdict"] != "comfortable") continue;
    bool priced = d["price_usd"].is_number();
    if (priced && (cheapest.is_null() || d["price_usd"].get<double>() < cheapest["price_usd"].get<double>())) {
      cheapest = d;
    }
    if (d["kind"] == "unified" && (unified.is_null() || d["total_bytes"].get<double>() / d["usable_bytes"].get<double>() >
                                                            unified["total_bytes"].get<double>() / unified["usable_bytes"].get<double>())) {
      unified = d;  // the one the model fills best, i.e. the smallest that fits
    }
  }
  nlohmann::json cloud = nullptr;
  const nlohmann::json& offers = Catalog::instance().document("cloud_offers.json");
  for (const auto& offer : offers.value("offers", nlohmann::json::array())) {
    if (!offer["device_id"].is_string() || !offer["usd_per_hour"].is_number()) continue;
    const Hardware* hardware = find_hardware(offer["device_id"].get<std::string>());
    int64_t count = offer.value("device_count", int64_t{1});
    if (!hardware || (!cloud.is_null() && offer["usd_per_hour"].get<double>() >= cloud["usd_per_hour"].get<double>())) {
      continue;
    }
    if (fits_comfortably(base, model, *hardware, count)) {
      cloud = {{"id", offer.value("id", "")}, {"provider", offer.value("provider", "")},
               {"device_id", hardware->id}, {"device_count", count},
               {"usd_per_hour", offer["usd_per_hour"]}, {"price_date", offer.value("price_date", "")},
               {"source", offer.value("source", "")}};
    }
  }
  nlohmann::json multi = nullptr;
  for (const Hardware& h : catalog_hardware()) {
    if (h.kind != "discrete" || h.price_usd <= 0) continue;
    for (int64_t count : {2, 4}) {
      double price = h.price_usd * static_cast<double>(count);
      if (!multi.is_null() && price >= multi["price_usd"].get<double>()) continue;
      if (fits_comfortably(base, model, h, count)) {
        multi = {{"id", h.id}, {"name", h.name}, {"count", count}, {"price_usd", price}};
        break;
      }
    }
  }
  return {{"cheapest_device", cheapest}, {"unified_memory", unified}, {"cheapest_cloud", cloud},
          {"multi_gpu", multi},
          {"best_value_used", nullptr},  // no used prices in the data yet
          {"note", "Launch prices and dated cloud offers from data/; used prices are not collected yet."}};
}

}  // namespace

nlohmann::json explore(const nlohmann::json& request, Issues& issues) {
  std::optional<Scenario> resolved = resolve_scenario(request, issues);
  if (!resolved) return nullptr;
  Scenario s = *resolved;
  const ModelSpec& model = resolved->model;

  // Quantization x context: the engine's formats at 8K, 32K, 128K and the native maximum.
  std::vector<int64_t> contexts = {8192, 32768, 131072, model.max_context_tokens};
  std::sort(contexts.begin(), contexts.end());
  contexts.erase(std::unique(contexts.begin(), contexts.end()), contexts.end());
  contexts.erase(std::remove_if(contexts.begin(), contexts.end(),
                                [&](int64_t c) { return c > model.max_context_tokens; }),
                 contexts.end());
  nlohmann::json matrix = nlohmann::json::array();
  for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
    s.weights = format;
    for (int64_t context : contexts) {
      s.context_tokens = context;
      s.prompt_tokens = std::min(resolved->prompt_tokens, context);
      Issues cell_issues;
      std::optional<Evaluation> e = evaluate(s, model, cell_issues, false);
      if (!e) continue;
      matrix.push_back({{"weights", format}, {"bits", bits}, {"context_tokens", context},
                        {"verdict", e->memory.verdict}, {"total_bytes", e->memory.total_bytes}});
    }
  }

  // Memory against context, 4K to 1M tokens (beyond the native window when asked for).
  s = *resolved;
  nlohmann::json sweep = nlohmann::json::array();
  int64_t usable = 0;
  for (int64_t context = 4096; context <= 1048576; context *= 2) {
    s.context_tokens = context;
    s.prompt_tokens = std::min(resolved->prompt_tokens, context);
    Issues point_issues;
    std::optional<Evaluation> e = evaluate(s, model, point_issues, false);
    if (!e) break;
    usable = e->memory.usable_bytes;
    sweep.push_back({{"context_tokens", context}, {"total_bytes", e->memory.total_bytes},
                     {"kv_cache_bytes", e->memory.kv_cache_bytes},
                     {"fits", e->memory.verdict != "oom"}});
  }

  // The same model and settings on every catalog device.
  s = *resolved;
  nlohmann::json devices = nlohmann::json::array();
  for (const Hardware& hardware : catalog_hardware()) {
    s.hardware = hardware;
    s.speed = default_speed_assumptions(speed_calibration_key(s.hardware), s.engine.engine);
    Issues device_issues;
    std::optional<Evaluation> e = evaluate(s, model, device_issues);
    if (!e) continue;
    devices.push_back({{"id", hardware.id},
                       {"name", s.hardware.name},
                       {"kind", s.hardware.kind},
                       {"verdict", e->memory.verdict},
                       {"total_bytes", e->memory.total_bytes},
                       {"usable_bytes", e->memory.usable_bytes},
                       {"max_context_tokens", e->memory.max_context_tokens},
                       {"decode_tokens_per_s", e->speed.decode_tokens_per_s},
                       {"ttft_s", e->speed.ttft_s},
                       {"price_usd", s.hardware.price_usd >= 0 ? nlohmann::json(s.hardware.price_usd)
                                                               : nlohmann::json(nullptr)}});
  }
  return {{"matrix", matrix}, {"sweep", sweep}, {"usable_bytes", usable}, {"devices", devices},
          {"recommendations", recommendations(*resolved, model, devices)}};
}

}  // namespace llmcalc
