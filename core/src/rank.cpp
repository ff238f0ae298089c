// Ranks the catalog for a device: per model, the highest-quality format (in the engine's own
// formats) whose verdict is "comfortable", else the best "tight" one, else the smallest allowed.
#include "llmcalc/rank.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/scenario.h"

namespace llmcalc {
namespace {

nlohmann::json row_json(const Scenario& s, const ModelSpec& model, const CatalogModel& entry,
                        const Evaluation& e) {
  const nlohmann::json& r = entry.record;
  auto text = [&](const char* key) {
    auto it = r.find(key);
    return it != r.end() && it->is_string() ? *it : nlohmann::json(nullptr);
  };
  return {{"model", entry.id},
          {"name", r.value("name", entry.id)},
          {"family", r.value("family", "")},
          {"license", text("license")},
          {"params_total", model.params.total},
          {"params_active", model.params.active},
          {"moe", model.params.experts_routed > 0},
          {"weights", s.weights},
          {"bits_per_weight", e.weights->bits_per_weight()},
          {"verdict", e.memory.verdict},
          {"total_bytes", e.memory.total_bytes},
          {"usable_bytes", e.memory.usable_bytes},
          {"max_context_tokens", e.memory.max_context_tokens},
          {"native_context_tokens", model.max_context_tokens},
          {"decode", {{"tokens_per_s", e.speed.decode_tokens_per_s},
                      {"low", e.speed.decode_low},
                      {"high", e.speed.decode_high}}},
          {"prefill", {{"tokens_per_s", e.speed.prefill_tokens_per_s}, {"ttft_s", e.speed.ttft_s}}}};
}

// For a model that does not fit on the devices, the llama.cpp placement that would: all routed
// experts in system RAM (--n-cpu-moe) for MoE models, else the most layers on the GPU (-ngl).
nlohmann::json offload_option(Scenario& s, const ModelSpec& model) {
  if (s.engine.engine != "llama.cpp" && s.engine.engine != "ollama") return nullptr;
  auto fits = [&]() {
    Issues issues;
    std::optional<Evaluation> e = evaluate(s, model, issues, false);
    return e && e->memory.verdict != "oom";
  };
  if (model.params.experts_routed > 0) {
    s.cpu_moe_layers = model.n_layers;
    if (fits()) return {{"cpu_moe_layers", model.n_layers}};
    s.cpu_moe_layers = 0;
  }
  int64_t low = 0;
  int64_t high = model.n_layers;
  while (high - low > 1) {
    s.gpu_layers = low + (high - low) / 2;
    if (fits()) {
      low = s.gpu_layers;
    } else {
      high = s.gpu_layers;
    }
  }
  s.gpu_layers = low;
  if (low > 0 && fits()) return {{"gpu_layers", low}};
  return nullptr;
}

}  // namespace

nlohmann::json rank_models(const nlohmann::json& request, Issues& issues) {
  JsonReader reader(request, "", issues);
  if (!reader.valid()) return nullptr;
  if (request.contains("model")) {
    issues.error("model_not_allowed", "/model", "rank ranks every catalog model; leave 'model' out.");
    return nullptr;
  }
  int64_t min_bits = reader.integer("min_bits", 1, 16, 4).value_or(4);
  nlohmann::json base_request = request;
  base_request.erase("min_bits");
  base_request["model"] = Catalog::instance().models().front().id;
  std::optional<Scenario> base = resolve_scenario(base_request, issues);
  if (!base) return nullptr;

  const int64_t requested_context = base->context_tokens;
  const int64_t requested_prompt = base->prompt_tokens;
  nlohmann::json rows = nlohmann::json::array();
  for (const CatalogModel& entry : Catalog::instance().models()) {
    Issues model_issues;
    const ModelSpec* spec = catalog_model_spec(entry.id, model_issues);
    if (!spec) continue;
    Scenario& s = *base;  // reused: the model itself is passed by reference, never copied
    s.model_id = entry.id;
    s.model_name = entry.record.value("name", entry.id);
    s.context_tokens = std::min(requested_context, spec->max_context_tokens);
    s.prompt_tokens = std::min(requested_prompt, s.context_tokens);
    nlohmann::json chosen = nullptr;
    std::string chosen_format;
    std::string fallback_format;
    std::string fallback_verdict;
    for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
      if (bits < min_bits) break;
      s.weights = format;
      Issues format_issues;
      std::optional<Evaluation> e = evaluate(s, *spec, format_issues, false);
      if (!e) continue;
      const std::string& verdict = e->memory.verdict;
      if (verdict == "comfortable") {
        chosen_format = format;
        break;
      }
      if (fallback_format.empty() || (verdict == "tight" && fallback_verdict == "oom")) {
        fallback_format = format;
        fallback_verdict = verdict;
      } else if (fallback_verdict == "oom") {
        fallback_format = format;  // smaller is closer to fitting
      }
    }
    if (chosen_format.empty()) chosen_format = fallback_format;
    if (!chosen_format.empty()) {
      s.weights = chosen_format;
      Issues final_issues;
      std::optional<Evaluation> e = evaluate(s, *spec, final_issues);
      if (e) chosen = row_json(s, *spec, entry, *e);
    }
    if (!chosen.is_null()) {
      chosen["context_tokens"] = s.context_tokens;
      chosen["offload"] = chosen["verdict"] == "oom" ? offload_option(s, *spec) : nlohmann::json(nullptr);
      s.cpu_moe_layers = 0;
      s.gpu_layers = -1;
      rows.push_back(std::move(chosen));
    }
  }
  return {{"rows", rows}, {"min_bits", min_bits}, {"hardware", base->hardware.id},
          {"devices", base->devices}, {"engine", base->engine.engine},
          {"context_tokens", base->context_tokens}};
}

}  // namespace llmcalc
