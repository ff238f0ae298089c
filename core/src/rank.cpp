// Ranks the catalog for a device: per model, the highest-quality format (in the engine's own
// formats) whose verdict is "comfortable", else the best "tight" one, else the best that runs
// with llama.cpp's --fit offload, else the smallest allowed.
#include "llmcalc/rank.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/memory.h"
#include "llmcalc/scenario.h"
#include "llama_cpp_memory.h"

namespace llmcalc {
namespace {

// Built key by key: an initializer list makes a two-element array per key before the object
// (three allocations a key instead of one), and rank builds 168 of these rows per call.
nlohmann::json row_json(const Scenario& s, const ModelSpec& model, const CatalogModel& entry,
                        const Evaluation& e) {
  const nlohmann::json& r = entry.record();
  auto text = [&](const char* key) {
    auto it = r.find(key);
    return it != r.end() && it->is_string() ? *it : nlohmann::json(nullptr);
  };
  nlohmann::json row = nlohmann::json::object();
  row["model"] = entry.id;
  row["name"] = r.value("name", entry.id);
  row["family"] = r.value("family", "");
  row["license"] = text("license");
  row["params_total"] = model.params.total;
  row["params_active"] = model.params.active;
  row["moe"] = model.params.experts_routed > 0;
  row["weights"] = s.weights;
  row["bits_per_weight"] = e.weights->bits_per_weight();
  row["verdict"] = e.memory.verdict;
  row["total_bytes"] = e.memory.total_bytes;
  row["usable_bytes"] = e.memory.usable_bytes;
  row["max_context_tokens"] = e.memory.max_context_tokens;
  nlohmann::json& fit = row["fit"];
  if (!e.memory.fit.status.empty()) {
    fit["status"] = e.memory.fit.status;
    fit["gpu_layers"] = e.memory.fit.gpu_layers;
    fit["host_expert_layers"] = e.memory.fit.host_expert_layers.size();
  }
  row["native_context_tokens"] = model.max_context_tokens;
  row["context_tokens"] = s.context_tokens;
  nlohmann::json& decode = row["decode"];
  decode["tokens_per_s"] = e.speed.decode_tokens_per_s;
  decode["low"] = e.speed.decode_low;
  decode["high"] = e.speed.decode_high;
  nlohmann::json& prefill = row["prefill"];
  prefill["tokens_per_s"] = e.speed.prefill_tokens_per_s;
  prefill["ttft_s"] = e.speed.ttft_s;
  return row;
}

// Memory the devices offer the weights (the engine's usable share of each).
int64_t device_memory(const Scenario& s) {
  int64_t total = 0;
  for (const DeviceGroup& group : s.groups()) total += usable_memory_bytes(group.device, s.engine) * group.count;
  return total;
}

// The evaluation (without the largest-context search) of the format rank_models reports for
// `s`, whose weights are left at that format: in the engine's ladder from the highest quality
// down, the first whose verdict is "comfortable", else the first "tight" one, else the first
// that runs with llama.cpp's --fit offload, else the smallest. A format whose weights (less the
// token embeddings llama.cpp keeps in RAM) exceed `device_memory` can be neither comfortable
// nor tight, so its memory is estimated (a --fit search each) only when no format is; a
// format's weights are planned only when the walk reaches it, and the speed is estimated for
// the pick alone. The answer is the one a walk evaluating every format gives, at a fraction of
// the cost.
std::optional<Evaluation> ladder_pick(Scenario& s, const ModelSpec& spec, int64_t min_bits,
                                      int64_t device_memory) {
  std::vector<std::string> formats;
  for (const auto& [format, bits] : engine_format_ladder(s.engine.engine)) {
    if (bits < min_bits) break;
    formats.push_back(format);
  }
  struct Candidate {
    std::size_t format;
    std::shared_ptr<const WeightPlan> plan;
    MemoryEstimate memory;
  };
  // The format's weights (cached per model and format); null where the format does not apply.
  auto plan_of = [&](std::size_t i) {
    s.weights = formats[i];
    Issues plan_issues;
    return scenario_weights(s, spec, plan_issues);
  };
  auto candidate_of = [&](std::size_t i, std::shared_ptr<const WeightPlan> plan) {
    s.weights = formats[i];
    MemoryEstimate memory = evaluate_memory(s, spec, *plan);
    return Candidate{i, std::move(plan), std::move(memory)};
  };
  auto picked = [&](Candidate c) {
    s.weights = formats[c.format];
    return std::optional<Evaluation>(evaluate_speed(s, spec, std::move(c.plan), std::move(c.memory)));
  };
  std::optional<Candidate> tight;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    std::shared_ptr<const WeightPlan> plan = plan_of(i);
    if (!plan || plan->text_bytes - plan->token_embd_bytes > device_memory) continue;
    Candidate c = candidate_of(i, std::move(plan));
    if (c.memory.verdict == "comfortable") return picked(std::move(c));
    if (c.memory.verdict == "tight" && !tight) tight = std::move(c);
  }
  if (tight) return picked(std::move(*tight));
  const bool llama_cpp = is_llama_cpp_family(s.engine.engine);
  std::optional<Candidate> smallest;
  std::optional<std::size_t> smallest_unestimated;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    std::shared_ptr<const WeightPlan> plan = plan_of(i);
    if (!plan) continue;
    // A format llama.cpp cannot hold in the GPUs and RAM together is "oom" without a --fit search.
    if (llama_cpp && llama_cpp_beyond_memory(*plan, s.hardware, device_memory, s.system_memory_bytes)) {
      smallest_unestimated = i;
      smallest.reset();
      continue;
    }
    Candidate c = candidate_of(i, std::move(plan));
    if (c.memory.verdict == "offload") return picked(std::move(c));
    smallest_unestimated.reset();
    smallest = std::move(c);
  }
  if (smallest) return picked(std::move(*smallest));
  if (!smallest_unestimated) return std::nullopt;
  return picked(candidate_of(*smallest_unestimated, plan_of(*smallest_unestimated)));
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
    s.model_name = entry.record().value("name", entry.id);
    s.context_tokens = std::min(requested_context, spec->max_context_tokens);
    s.prompt_tokens = std::min(requested_prompt, s.context_tokens);
    std::optional<Evaluation> e = ladder_pick(s, *spec, min_bits, device_memory(s));
    if (!e) continue;
    e->memory.max_context_tokens = max_context_tokens(s, *spec, *e->weights);
    rows.push_back(row_json(s, *spec, entry, *e));
  }
  return {{"rows", std::move(rows)}, {"min_bits", min_bits}, {"hardware", base->hardware.id},
          {"devices", base->devices}, {"engine", base->engine.engine},
          {"context_tokens", base->context_tokens}};
}

}  // namespace llmcalc
