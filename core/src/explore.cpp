// The matrix, the context sweep and the device leaderboard around one scenario. The answer is
// written as JSON text, keys in dump()'s sorted order: as a document its 129 leaderboard rows
// were built, dumped and freed on every input change (issue #22).
#include "llmcalc/explore.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/scenario.h"
#include "json_text.h"
#include "stable_insertion_sort.h"

namespace llmcalc {
namespace {

// A catalog price, or null where the data has none (stored as a negative number).
bool priced(double usd) { return usd >= 0; }

// The model and settings on one catalog device: a row of the leaderboard.
struct DeviceRow {
  const Hardware* hardware = nullptr;
  std::string verdict;
  int64_t total_bytes = 0;
  int64_t usable_bytes = 0;
  int64_t max_context_tokens = 0;
  double decode_tokens_per_s = 0;
  double ttft_s = 0;
  double price_usd = -1;
  double price_used_usd = -1;
};

// A row, with the device's name in the recommendations.
void append_device_row(std::string& out, const DeviceRow& row, bool named) {
  JsonObjectText o(out);
  o.number("decode_tokens_per_s", row.decode_tokens_per_s);
  o.string("id", row.hardware->id);
  o.integer("max_context_tokens", row.max_context_tokens);
  if (named) o.string("name", row.hardware->name);
  o.number_or_null("price_usd", priced(row.price_usd), row.price_usd);
  o.number_or_null("price_used_usd", priced(row.price_used_usd), row.price_used_usd);
  o.integer("total_bytes", row.total_bytes);
  o.number("ttft_s", row.ttft_s);
  o.integer("usable_bytes", row.usable_bytes);
  o.string("verdict", row.verdict);
}

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
// `rows` are the leaderboard's. `probe` is the request's scenario, used as scratch: its
// hardware, device count and speed are overwritten.
std::string recommendations(Scenario& probe, const ModelSpec& model, const std::vector<DeviceRow>& rows) {
  std::optional<std::size_t> cheapest;
  std::optional<std::size_t> unified;
  nlohmann::json used = nullptr;
  double best_speed_per_usd = 0;
  auto filled = [&](std::size_t row) {
    return static_cast<double>(rows[row].total_bytes) / static_cast<double>(rows[row].usable_bytes);
  };
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const DeviceRow& d = rows[row];
    if (d.verdict != "comfortable") continue;
    if (priced(d.price_used_usd)) {
      double speed_per_usd = d.decode_tokens_per_s / d.price_used_usd;
      if (speed_per_usd > best_speed_per_usd) {
        best_speed_per_usd = speed_per_usd;
        used = {{"id", d.hardware->id}, {"name", d.hardware->name}, {"price_used_usd", d.price_used_usd},
                {"decode_tokens_per_s", d.decode_tokens_per_s},
                {"tokens_per_s_per_1000_usd", 1000.0 * speed_per_usd}};
      }
    }
    if (priced(d.price_usd) && (!cheapest || d.price_usd < rows[*cheapest].price_usd)) cheapest = row;
    if (d.hardware->kind == "unified" && (!unified || filled(row) > filled(*unified))) {
      unified = row;  // the one the model fills best, i.e. the smallest that fits
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
  auto append_row_or_null = [&](std::string& out, std::optional<std::size_t> row) {
    if (row) {
      append_device_row(out, rows[*row], true);
    } else {
      out += "null";
    }
  };
  std::string out;
  {
    JsonObjectText o(out);
    o.document("best_value_used", used);
    o.document("cheapest_cloud", cloud);
    append_row_or_null(o.key("cheapest_device"), cheapest);
    o.document("multi_gpu", multi);
    o.string("note", "Launch prices, indicative 2026 used prices (median of guide and listing ranges) and dated "
                     "cloud offers from data/.");
    append_row_or_null(o.key("unified_memory"), unified);
  }
  return out;
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
  std::optional<std::vector<bool>> named =
      read_name_list(request, "sections", {"matrix", "advice", "sweep", "devices"}, "bad_sections", issues);
  if (!named) return std::nullopt;
  if (named->empty()) return Sections{};
  return Sections{(*named)[0], (*named)[1], (*named)[2], (*named)[3]};
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

std::string explore(const nlohmann::json& request, Issues& issues) {
  if (!request.is_object()) {
    issues.error("not_an_object", "/", "Expected a JSON object here.");
    return "";
  }
  std::optional<Sections> wanted = read_sections(request, issues);
  if (!wanted) return "";
  nlohmann::json scenario_request = request;
  scenario_request.erase("sections");
  std::optional<Scenario> resolved = resolve_scenario(scenario_request, issues);
  if (!resolved) return "";
  // One scenario, changed and restored section by section (a copy would copy the model's tensors).
  Scenario& s = *resolved;
  const ModelSpec& model = s.model;
  const std::string weights = s.weights;
  const int64_t context_tokens = s.context_tokens;
  const int64_t prompt_tokens = s.prompt_tokens;

  // Quantization x context: the engine's formats at 8K, 32K, 128K and the native maximum.
  std::string matrix;
  if (wanted->matrix) {
    JsonListText cells(matrix);
    std::vector<int64_t> contexts;
    for (int64_t c : {8192, 32768, 131072}) {
      if (c < model.max_context_tokens) contexts.push_back(c);
    }
    contexts.push_back(model.max_context_tokens);
    for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
      s.weights = format;
      for (int64_t context : contexts) {
        s.context_tokens = context;
        s.prompt_tokens = std::min(prompt_tokens, context);
        Issues cell_issues;
        std::optional<Evaluation> e = evaluate(s, model, cell_issues, false);
        if (!e) continue;
        JsonObjectText cell(cells.item());
        cell.integer("bits", bits);
        cell.integer("context_tokens", context);
        cell.integer("total_bytes", e->memory.total_bytes);
        cell.string("verdict", e->memory.verdict);
        cell.string("weights", format);
      }
    }
    s.weights = weights;
    s.context_tokens = context_tokens;
    s.prompt_tokens = prompt_tokens;
  }

  const std::string advised = wanted->advice ? json_text(advice(s, model)) : "";

  // Memory and decode speed against context, 4K to 1M tokens (beyond the native window when
  // asked for): every point decodes with the whole context in the cache.
  std::string sweep;
  int64_t usable = 0;
  if (wanted->sweep) {
    JsonListText points(sweep);
    for (int64_t context = 4096; context <= 1048576; context *= 2) {
      s.context_tokens = context;
      s.prompt_tokens = std::min(prompt_tokens, context);
      Issues point_issues;
      std::optional<Evaluation> e = evaluate(s, model, point_issues, false);
      if (!e) break;
      usable = e->memory.usable_bytes;
      JsonObjectText point(points.item());
      point.string("bound", e->speed.bound);
      point.integer("context_tokens", context);
      point.number("decode_high", e->speed.decode_high);
      point.number("decode_low", e->speed.decode_low);
      point.number("decode_tokens_per_s", e->speed.decode_tokens_per_s);
      point.boolean("fits", e->memory.verdict != "oom");
      point.integer("kv_cache_bytes", e->memory.kv_cache_bytes);
      point.integer("total_bytes", e->memory.total_bytes);
    }
    s.context_tokens = context_tokens;
    s.prompt_tokens = prompt_tokens;
  }

  // The same model and settings on every catalog device (the last section: it leaves `s` on
  // the last device).
  std::string devices;
  std::string recommended;
  if (wanted->devices) {
    JsonListText listed(devices);
    std::vector<DeviceRow> rows;
    const int64_t listed_devices = s.devices;
    // The weights are the same on every device: placed once (no rows where the format fails).
    Issues plan_issues;
    const std::shared_ptr<const WeightPlan> plan = scenario_weights(s, model, plan_issues);
    for (const Hardware& hardware : catalog_hardware()) {
      if (!plan) break;
      s.use_devices(hardware, listed_devices);
      s.speed = default_speed_assumptions(speed_calibration_key(s.hardware), s.engine.engine);
      const Evaluation e = evaluate_plan(s, model, plan);
      rows.push_back({&hardware, e.memory.verdict, e.memory.total_bytes, e.memory.usable_bytes,
                      e.memory.max_context_tokens, e.speed.decode_tokens_per_s, e.speed.ttft_s,
                      s.hardware.price_usd, s.hardware.price_used_usd});
      append_device_row(listed.item(), rows.back(), false);
    }
    recommended = recommendations(s, model, rows);
  }

  std::string out;
  {
    JsonObjectText o(out);
    if (wanted->advice) o.key("advice") += advised;
    o.integer("context_tokens", context_tokens);
    if (wanted->devices) o.key("devices") += devices;
    if (wanted->matrix) o.key("matrix") += matrix;
    if (wanted->devices) o.key("recommendations") += recommended;
    if (wanted->sweep) {
      o.key("sweep") += sweep;
      o.integer("usable_bytes", usable);
    }
  }
  return out;
}

}  // namespace llmcalc
