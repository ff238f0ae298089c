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
#include "json_text.h"
#include "llama_cpp_memory.h"

namespace llmcalc {
namespace {

// One row, written as text in dump()'s form (keys in its sorted order).
void append_row(std::string& out, const Scenario& s, const ModelSpec& model, const CatalogModel& entry,
                const Evaluation& e) {
  const nlohmann::json& r = entry.record();
  const MemoryEstimate& m = e.memory;
  JsonObjectText row(out);
  row.number("bits_per_weight", e.weights->bits_per_weight());
  row.integer("context_tokens", e.context_tokens);  // one request's: the one the engine chose without -c
  {
    JsonObjectText decode(row.key("decode"));
    decode.number("high", e.speed.decode_high);
    decode.number("low", e.speed.decode_low);
    decode.number("tokens_per_s", e.speed.decode_tokens_per_s);
  }
  row.string("family", r.value("family", ""));
  if (m.fit.status.empty()) {
    row.key("fit") += "null";
  } else {
    JsonObjectText fit(row.key("fit"));
    fit.integer("gpu_layers", m.fit.gpu_layers);
    fit.integer("host_expert_layers", static_cast<int64_t>(m.fit.host_expert_layers.size()));
    fit.string("status", m.fit.status);
  }
  auto license = r.find("license");
  if (license != r.end() && license->is_string()) {
    row.string("license", license->get_ref<const std::string&>());
  } else {
    row.key("license") += "null";
  }
  row.integer("max_context_tokens", m.max_context_tokens);
  row.string("model", entry.id);
  row.boolean("moe", model.params.experts_routed > 0);
  row.string("name", s.model_name);  // the record's name, set by rank_models
  row.integer("native_context_tokens", model.max_context_tokens);
  row.integer("params_active", model.params.active);
  row.integer("params_total", model.params.total);
  {
    JsonObjectText prefill(row.key("prefill"));
    prefill.number("tokens_per_s", e.speed.prefill_tokens_per_s);
    prefill.number("ttft_s", e.speed.ttft_s);
  }
  row.integer("total_bytes", m.total_bytes);
  row.integer("usable_bytes", m.usable_bytes);
  row.string("verdict", m.verdict);
  row.string("weights", s.weights);
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
// the pick alone. With llama.cpp's ladder cut at kLlamaCppLadderSmallestLastFromBits or more,
// no format places fewer bytes than the last, so once the largest format is beyond what the
// devices and RAM can hold the last is planned next: beyond memory too, every format is, and
// the pick is the last without planning the others (a third of the first rank's work was
// planning the formats of models no format fits; issue #22). The answer is the one a walk
// evaluating every format gives, at a fraction of the cost.
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
  const bool llama_cpp = is_llama_cpp_family(s.engine.engine);
  auto beyond_memory = [&](const WeightPlan& plan) {
    return llama_cpp && llama_cpp_beyond_memory(plan, s.hardware, s.engine, device_memory, s.system_memory_bytes);
  };
  // Sizes from a file's header replace the plans' totals, which then follow no order.
  const bool last_is_smallest =
      llama_cpp && min_bits >= kLlamaCppLadderSmallestLastFromBits && s.exact_weights_bytes() <= 0;
  std::optional<Candidate> tight;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    std::shared_ptr<const WeightPlan> plan = plan_of(i);
    if (plan && i == 0 && last_is_smallest && beyond_memory(*plan)) {
      const std::size_t last = formats.size() - 1;
      std::shared_ptr<const WeightPlan> last_plan = plan_of(last);
      if (last_plan && beyond_memory(*last_plan)) return picked(candidate_of(last, std::move(last_plan)));
    }
    if (!plan || plan->text_bytes - plan->token_embd_bytes > device_memory) continue;
    Candidate c = candidate_of(i, std::move(plan));
    if (c.memory.verdict == "comfortable") return picked(std::move(c));
    if (c.memory.verdict == "tight" && !tight) tight = std::move(c);
  }
  if (tight) return picked(std::move(*tight));
  std::optional<Candidate> smallest;
  std::optional<std::size_t> smallest_unestimated;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    std::shared_ptr<const WeightPlan> plan = plan_of(i);
    if (!plan) continue;
    // A format llama.cpp cannot hold in the GPUs and RAM together is "oom" without a --fit search.
    if (beyond_memory(*plan)) {
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

// The largest context each model's pick fits in, by the request's settings less the context
// asked for (which the search never reads: it probes contexts of its own), then by model and
// format. Ranking again at another context, as the page does while its context slider moves,
// reuses them: a quarter of a warm rank's work was this search (issue #22). The tables of
// kMaxSettings settings are kept; one more clears them.
class LargestContexts {
 public:
  explicit LargestContexts(const nlohmann::json& request) {
    nlohmann::json settings = request;
    settings.erase("context_tokens");
    settings.erase("prompt_tokens");
    auto& tables = by_settings();
    std::string key = settings.dump();
    if (tables.size() >= kMaxSettings && tables.find(key) == tables.end()) tables.clear();
    table_ = &tables[key];
  }

  int64_t of(const Scenario& s, const ModelSpec& spec, const WeightPlan& plan) {
    std::string key;
    key.reserve(s.model_id.size() + 1 + s.weights.size());
    key.append(s.model_id).append(1, '\n').append(s.weights);
    auto found = table_->find(key);
    if (found != table_->end()) return found->second;
    int64_t tokens = max_context_tokens(s, spec, plan);
    table_->emplace(std::move(key), tokens);
    return tokens;
  }

 private:
  using Table = std::map<std::string, int64_t>;  // "<model>\n<format>" -> tokens
  static constexpr std::size_t kMaxSettings = 64;
  static std::map<std::string, Table>& by_settings() {
    static std::map<std::string, Table> tables;
    return tables;
  }
  Table* table_;
};

}  // namespace

std::string rank_models(const nlohmann::json& request, Issues& issues) {
  JsonReader reader(request, "", issues);
  if (!reader.valid()) return "";
  if (request.contains("model")) {
    issues.error("model_not_allowed", "/model", "rank ranks every catalog model; leave 'model' out.");
    return "";
  }
  int64_t min_bits = reader.integer("min_bits", 1, 16, 4).value_or(4);
  nlohmann::json base_request = request;
  base_request.erase("min_bits");
  base_request["model"] = Catalog::instance().models().front().id;
  std::optional<Scenario> base = resolve_scenario(base_request, issues);
  if (!base) return "";

  LargestContexts largest_contexts(request);
  const int64_t requested_context = base->context_tokens;
  const int64_t requested_prompt = base->prompt_tokens;
  // The result's keys in dump()'s sorted order, the rows last.
  std::string out;
  {
    JsonObjectText o(out);
    o.integer("context_tokens", requested_context);
    o.integer("devices", base->devices);
    o.string("engine", base->engine.engine);
    o.string("hardware", base->hardware.id);
    o.integer("min_bits", min_bits);
    JsonListText rows(o.key("rows"));
    for (const CatalogModel& entry : Catalog::instance().models()) {
      Issues model_issues;
      CatalogSpecVisit visit(entry.id, model_issues);
      const ModelSpec* spec = visit.spec();
      if (!spec) continue;
      Scenario& s = *base;  // reused: the model itself is passed by reference, never copied
      s.model_id = entry.id;
      s.model_name = entry.record().value("name", entry.id);
      s.gguf_holds_mtp = entry.gguf_holds_mtp();
      // Without a context, each model's own default (its native window, Ollama's by memory).
      s.context_tokens = s.context_auto ? engine_default_context(s, spec->max_context_tokens)
                                        : std::min(requested_context, spec->max_context_tokens);
      s.prompt_tokens = std::min(requested_prompt, s.context_tokens);
      std::optional<Evaluation> e = ladder_pick(s, *spec, min_bits, device_memory(s));
      if (!e) continue;
      e->memory.max_context_tokens = largest_contexts.of(s, *spec, *e->weights);
      append_row(rows.item(), s, *spec, entry, *e);
    }
  }
  return out;
}

}  // namespace llmcalc
