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
  return {{"matrix", matrix}, {"sweep", sweep}, {"usable_bytes", usable}, {"devices", devices}};
}

}  // namespace llmcalc
