// The matrix, the context sweep and the device leaderboard around one scenario.
#include "llmcalc/explore.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/scenario.h"
#include "stable_insertion_sort.h"

namespace llmcalc {
namespace {

// A catalog price, or null where the data has none (stored as a negative number).
nlohmann::json price_or_null(double usd) { return usd >= 0 ? nlohmann::json(usd) : nlohmann::json(nullptr); }

// Whether the scenario fits comfortably on `count` of `hardware`. `s` is a scratch copy, reused
// so that each probe does not copy the model's tensor list.
bool fits_comfortably(Scenario& s, const ModelSpec& model, const Hardware& hardware, int64_t count) {
  s.use_devices(hardware, count);
  s.speed = default_speed_assumptions(speed_calibration_key(hardware), s.engine.engine);
  Issues issues;
  std::optional<Evaluation> e = evaluate(s, model, issues, false);
  return e && e->memory.verdict == "comfortable";
}

// Priced cloud offers of catalog devices, cheapest per hour first (catalog order among ties).
const std::vector<const nlohmann::json*>& cloud_offers_by_price() {
  static const std::vector<const nlohmann::json*> sorted = [] {
    std::vector<const nlohmann::json*> out;
    const nlohmann::json& document = Catalog::instance().document("cloud_offers.json");
    auto offers = document.find("offers");
    if (offers == document.end() || !offers->is_array()) return out;
    for (const nlohmann::json& offer : *offers) {
      if (offer["device_id"].is_string() && offer["usd_per_hour"].is_number()) out.push_back(&offer);
    }
    stable_insertion_sort(out, [](const nlohmann::json* a, const nlohmann::json* b) {
      return (*a)["usd_per_hour"].get<double>() < (*b)["usd_per_hour"].get<double>();
    });
    return out;
  }();
  return sorted;
}

// Two or four of one priced discrete card, cheapest combination first (launch prices).
struct MultiGpu {
  const Hardware* hardware;
  int64_t count;
  double price_usd;
};

const std::vector<MultiGpu>& multi_gpu_by_price() {
  static const std::vector<MultiGpu> sorted = [] {
    std::vector<MultiGpu> out;
    for (const Hardware& h : catalog_hardware()) {
      if (h.kind != "discrete" || h.price_usd <= 0) continue;
      for (int64_t count : {2, 4}) out.push_back({&h, count, h.price_usd * static_cast<double>(count)});
    }
    stable_insertion_sort(out, [](const MultiGpu& a, const MultiGpu& b) { return a.price_usd < b.price_usd; });
    return out;
  }();
  return sorted;
}

// The cheapest device that fits comfortably, the used card with the most decode speed per dollar
// among those that fit comfortably, a unified-memory option, the cheapest cloud offer and the
// cheapest multi-GPU combination of priced discrete cards (launch and used prices, see data/).
// `devices` are the leaderboard rows, `row_hardware` the device of each row. `probe` is the
// request's scenario, used as scratch: its hardware, device count and speed are overwritten.
nlohmann::json recommendations(Scenario& probe, const ModelSpec& model, const nlohmann::json& devices,
                               const std::vector<const Hardware*>& row_hardware) {
  nlohmann::json cheapest = nullptr;
  nlohmann::json unified = nullptr;
  nlohmann::json used = nullptr;
  double best_speed_per_usd = 0;
  auto named = [&](std::size_t row) {
    nlohmann::json out = devices[row];
    out["name"] = row_hardware[row]->name;
    return out;
  };
  for (std::size_t row = 0; row < devices.size(); ++row) {
    const nlohmann::json& d = devices[row];
    if (d["verdict"] != "comfortable") continue;
    if (d["price_used_usd"].is_number()) {
      double speed_per_usd = d["decode_tokens_per_s"].get<double>() / d["price_used_usd"].get<double>();
      if (speed_per_usd > best_speed_per_usd) {
        best_speed_per_usd = speed_per_usd;
        used = {{"id", d["id"]}, {"name", row_hardware[row]->name}, {"price_used_usd", d["price_used_usd"]},
                {"decode_tokens_per_s", d["decode_tokens_per_s"]},
                {"tokens_per_s_per_1000_usd", 1000.0 * speed_per_usd}};
      }
    }
    bool priced = d["price_usd"].is_number();
    if (priced && (cheapest.is_null() || d["price_usd"].get<double>() < cheapest["price_usd"].get<double>())) {
      cheapest = named(row);
    }
    if (row_hardware[row]->kind == "unified" && (unified.is_null() || d["total_bytes"].get<double>() / d["usable_bytes"].get<double>() >
                                                            unified["total_bytes"].get<double>() / unified["usable_bytes"].get<double>())) {
      unified = named(row);  // the one the model fills best, i.e. the smallest that fits
    }
  }
  // Candidates come in ascending price, so the first that fits is the cheapest.
  nlohmann::json cloud = nullptr;
  for (const nlohmann::json* offer : cloud_offers_by_price()) {
    const Hardware* hardware = find_catalog_hardware((*offer)["device_id"].get<std::string>());
    int64_t count = offer->value("device_count", int64_t{1});
    if (hardware && fits_comfortably(probe, model, *hardware, count)) {
      cloud = {{"id", offer->value("id", "")}, {"provider", offer->value("provider", "")},
               {"device_id", hardware->id}, {"device_count", count},
               {"usd_per_hour", (*offer)["usd_per_hour"]}, {"price_date", offer->value("price_date", "")},
               {"source", offer->value("source", "")}};
      break;
    }
  }
  nlohmann::json multi = nullptr;
  for (const MultiGpu& option : multi_gpu_by_price()) {
    if (fits_comfortably(probe, model, *option.hardware, option.count)) {
      multi = {{"id", option.hardware->id}, {"name", option.hardware->name}, {"count", option.count},
               {"price_usd", option.price_usd}};
      break;
    }
  }
  return {{"cheapest_device", cheapest}, {"unified_memory", unified}, {"cheapest_cloud", cloud},
          {"multi_gpu", multi},
          {"best_value_used", used},
          {"note", "Launch prices, indicative 2026 used prices (median of guide and listing ranges) and dated cloud offers from data/."}};
}

// The panels explore() computes: every one by default, or those named in "sections" (the page
// asks for them one task at a time, so that a keystroke never waits behind the whole set).
struct Sections {
  bool matrix = true;
  bool advice = true;
  bool sweep = true;
  bool devices = true;  // the leaderboard and the recommendations drawn from it
};

std::optional<Sections> read_sections(const nlohmann::json& request, Issues& issues) {
  Sections wanted;
  auto list = request.find("sections");
  if (list == request.end()) return wanted;
  if (!list->is_array() || list->empty() || list->size() > 4) {
    issues.error("bad_sections", "/sections", "'sections' is a list of 'matrix', 'advice', 'sweep' and 'devices'.");
    return std::nullopt;
  }
  wanted = Sections{false, false, false, false};
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& name = (*list)[i];
    bool* flag = !name.is_string()    ? nullptr
                 : name == "matrix"  ? &wanted.matrix
                 : name == "advice"  ? &wanted.advice
                 : name == "sweep"   ? &wanted.sweep
                 : name == "devices" ? &wanted.devices
                                     : nullptr;
    if (!flag) {
      issues.error("bad_sections", "/sections/" + std::to_string(i),
                   "Unknown section; use 'matrix', 'advice', 'sweep' or 'devices'.");
      return std::nullopt;
    }
    *flag = true;
  }
  return wanted;
}

}  // namespace

// What to change when the scenario does not run (issue #21 item 3), each computed: the first
// format of the engine's ladder (best quality first) that runs at this context, the largest
// context at the chosen format, and the fewest of this device that run it; the cheapest other
// device is in the recommendations. `s` is scratch: weights and device count are restored.
nlohmann::json advice(Scenario& s, const ModelSpec& model) {
  const std::string weights = s.weights;
  const int64_t devices = s.devices;
  Issues issues;
  std::optional<Evaluation> own = evaluate(s, model, issues, false);
  const std::string verdict = own ? own->memory.verdict : "oom";
  nlohmann::json out = {{"verdict", verdict}, {"max_context_tokens", nullptr}, {"weights", nullptr},
                        {"devices", nullptr}};
  if (verdict != "oom") return out;  // the page asks only for a setup that does not run
  Issues context_issues;
  std::optional<Evaluation> searched = evaluate(s, model, context_issues);
  out["max_context_tokens"] = searched ? searched->memory.max_context_tokens : 0;
  for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
    s.weights = format;
    Issues format_issues;
    std::optional<Evaluation> e = evaluate(s, model, format_issues, false);
    if (e && e->memory.verdict != "oom") {
      out["weights"] = {{"format", format}, {"bits", bits}, {"verdict", e->memory.verdict}};
      break;
    }
  }
  s.weights = weights;
  // More of the same device in one machine (not asked for a list of devices or machines).
  if (!s.device_groups.empty()) return out;
  const ParallelPlan parallel = s.parallel;
  for (int64_t count : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
    if (count <= devices) continue;
    s.use_devices(s.hardware, count);
    Issues count_issues;
    std::optional<Evaluation> e = evaluate(s, model, count_issues, false);
    if (e && e->memory.verdict != "oom") {
      out["devices"] = {{"count", count}, {"verdict", e->memory.verdict}};
      break;
    }
  }
  s.use_devices(s.hardware, devices);
  s.parallel = parallel;
  return out;
}

nlohmann::json explore(const nlohmann::json& request, Issues& issues) {
  if (!request.is_object()) {
    issues.error("not_an_object", "/", "Expected a JSON object here.");
    return nullptr;
  }
  std::optional<Sections> wanted = read_sections(request, issues);
  if (!wanted) return nullptr;
  nlohmann::json scenario_request = request;
  scenario_request.erase("sections");
  std::optional<Scenario> resolved = resolve_scenario(scenario_request, issues);
  if (!resolved) return nullptr;
  // One scenario, changed and restored section by section (a copy would copy the model's tensors).
  Scenario& s = *resolved;
  const ModelSpec& model = s.model;
  const std::string weights = s.weights;
  const int64_t context_tokens = s.context_tokens;
  const int64_t prompt_tokens = s.prompt_tokens;

  nlohmann::json out = {{"context_tokens", context_tokens}};
  // Quantization x context: the engine's formats at 8K, 32K, 128K and the native maximum.
  if (wanted->matrix) {
    std::vector<int64_t> contexts;
    for (int64_t c : {8192, 32768, 131072}) {
      if (c < model.max_context_tokens) contexts.push_back(c);
    }
    contexts.push_back(model.max_context_tokens);
    nlohmann::json matrix = nlohmann::json::array();
    for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
      s.weights = format;
      for (int64_t context : contexts) {
        s.context_tokens = context;
        s.prompt_tokens = std::min(prompt_tokens, context);
        Issues cell_issues;
        std::optional<Evaluation> e = evaluate(s, model, cell_issues, false);
        if (!e) continue;
        matrix.push_back({{"weights", format}, {"bits", bits}, {"context_tokens", context},
                          {"verdict", e->memory.verdict}, {"total_bytes", e->memory.total_bytes}});
      }
    }
    s.weights = weights;
    s.context_tokens = context_tokens;
    s.prompt_tokens = prompt_tokens;
    out["matrix"] = std::move(matrix);
  }

  if (wanted->advice) out["advice"] = advice(s, model);

  // Memory and decode speed against context, 4K to 1M tokens (beyond the native window when
  // asked for): every point decodes with the whole context in the cache.
  if (wanted->sweep) {
    nlohmann::json sweep = nlohmann::json::array();
    int64_t usable = 0;
    for (int64_t context = 4096; context <= 1048576; context *= 2) {
      s.context_tokens = context;
      s.prompt_tokens = std::min(prompt_tokens, context);
      Issues point_issues;
      std::optional<Evaluation> e = evaluate(s, model, point_issues, false);
      if (!e) break;
      usable = e->memory.usable_bytes;
      sweep.push_back({{"context_tokens", context}, {"total_bytes", e->memory.total_bytes},
                       {"kv_cache_bytes", e->memory.kv_cache_bytes},
                       {"fits", e->memory.verdict != "oom"},
                       {"decode_tokens_per_s", e->speed.decode_tokens_per_s},
                       {"decode_low", e->speed.decode_low},
                       {"decode_high", e->speed.decode_high},
                       {"bound", e->speed.bound}});
    }
    s.context_tokens = context_tokens;
    s.prompt_tokens = prompt_tokens;
    out["sweep"] = std::move(sweep);
    out["usable_bytes"] = usable;
  }

  // The same model and settings on every catalog device.
  if (wanted->devices) {
    nlohmann::json devices = nlohmann::json::array();
    std::vector<const Hardware*> row_hardware;
    const int64_t listed_devices = s.devices;
    // The weights are the same on every device: placed once (no rows where the format fails).
    Issues plan_issues;
    const std::shared_ptr<const WeightPlan> plan = scenario_weights(s, model, plan_issues);
    for (const Hardware& hardware : catalog_hardware()) {
      if (!plan) break;
      s.use_devices(hardware, listed_devices);
      s.speed = default_speed_assumptions(speed_calibration_key(s.hardware), s.engine.engine);
      const Evaluation e = evaluate_plan(s, model, plan);
      devices.push_back({{"id", hardware.id},
                         {"verdict", e.memory.verdict},
                         {"total_bytes", e.memory.total_bytes},
                         {"usable_bytes", e.memory.usable_bytes},
                         {"max_context_tokens", e.memory.max_context_tokens},
                         {"decode_tokens_per_s", e.speed.decode_tokens_per_s},
                         {"ttft_s", e.speed.ttft_s},
                         {"price_usd", price_or_null(s.hardware.price_usd)},
                         {"price_used_usd", price_or_null(s.hardware.price_used_usd)}});
      row_hardware.push_back(&hardware);
    }
    out["recommendations"] = recommendations(s, model, devices, row_hardware);
    out["devices"] = std::move(devices);
  }
  return out;
}

}  // namespace llmcalc
