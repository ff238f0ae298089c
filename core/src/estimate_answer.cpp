// The estimate's answer: the scenario evaluated, with its model card, launch commands, cost and
// fine-tuning memory (api.cpp puts it in the envelope).
#include "estimate_answer.h"

#include <optional>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/commands.h"
#include "llmcalc/cost.h"
#include "llmcalc/engine_release.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/finetune.h"
#include "llmcalc/hardware.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/language.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"
#include "llmcalc/scenario.h"
#include "llmcalc/speed.h"
#include "llmcalc/weights.h"
#include "json_text.h"

namespace llmcalc {
namespace {

void append_model_card(std::string& out, const Scenario& s) {
  const ModelSpec& m = s.model;
  JsonObjectText card(out);
  card.integer("hidden_size", m.hidden_size);
  card.string("id", s.model_id);
  append_layer_counts(card.key("layer_counts"), m);
  append_layer_summary(card.key("layer_groups"), m);
  card.integer("layers", m.n_layers);
  card.integer("max_context_tokens", m.max_context_tokens);
  card.string("model_type", m.model_type);
  card.string("name", s.model_name);
  card.boolean("tied_embeddings", m.tied_embeddings);
  card.integer("vocab_size", m.vocab_size);
}

// The catalog devices a fine-tuning run can be recommended on (priced, not CPUs), with the
// memory the training engine can use on each: the same for every estimate, so found once (three
// passes over the catalog per estimate were 6% of its work; issue #22).
struct TrainingDevice {
  const Hardware* hardware;
  double usable_bytes;
};
const std::vector<TrainingDevice>& training_devices() {
  static const std::vector<TrainingDevice> devices = [] {
    EngineSettings training;
    training.engine = "transformers";
    std::vector<TrainingDevice> out;
    for (const Hardware& h : catalog_hardware()) {
      if (h.price_usd <= 0 || h.kind == "cpu") continue;
      out.push_back({&h, static_cast<double>(usable_memory_bytes(h, training))});
    }
    return out;
  }();
  return devices;
}

// The cheapest priced catalog device whose usable memory holds `need` bytes (launch prices from
// data/devices; the first in catalog order at a tie), or null.
const Hardware* cheapest_training_device(double need) {
  const Hardware* best = nullptr;
  for (const TrainingDevice& device : training_devices()) {
    if (device.usable_bytes < need) continue;
    if (!best || device.hardware->price_usd < best->price_usd) best = device.hardware;
  }
  return best;
}

// Fine-tuning memory per method, each with the cheapest device that holds its per-GPU total,
// and the settings, as JSON text.
std::string finetune_text(const Scenario& s, const FinetuneSettings& settings) {
  const FinetuneEstimate estimate = estimate_finetune(s.model, settings);
  std::string out;
  {
    JsonObjectText o(out);
    for (const auto& [name, m] : {std::pair<const char*, const FinetuneMemory&>{"full", estimate.full},
                                  {"lora", estimate.lora}, {"qlora", estimate.qlora}}) {
      JsonObjectText method(o.key(name));
      method.integer("activations_bytes", m.activations_bytes);
      method.integer("gradients_bytes", m.gradients_bytes);
      method.integer("master_weights_bytes", m.master_weights_bytes);
      method.integer("optimizer_bytes", m.optimizer_bytes);
      method.integer("overhead_bytes", m.overhead_bytes);
      if (const Hardware* best = cheapest_training_device(static_cast<double>(m.total_bytes))) {
        JsonObjectText device(method.key("recommended_device"));
        device.string("id", best->id);
        device.string("name", best->name);
        device.number("price_usd", best->price_usd);
      } else {
        method.key("recommended_device") += "null";
      }
      method.integer("total_bytes", m.total_bytes);
      method.integer("trainable_params", m.trainable_params);
      method.integer("weights_bytes", m.weights_bytes);
    }
    JsonObjectText given(o.key("settings"));
    given.boolean("flash_attention", settings.flash_attention);
    given.integer("gpus", settings.gpus);
    given.boolean("gradient_checkpointing", settings.gradient_checkpointing);
    given.integer("lora_rank", settings.lora_rank);
    given.strings("lora_targets", settings.lora_targets);
    given.integer("micro_batch", settings.micro_batch);
    given.string("optimizer", settings.optimizer);
    given.string("precision", settings.precision);
    given.integer("seq_len", settings.seq_len);
    given.string("sharding", settings.sharding);
  }
  return out;
}

// The answer with the parts asked for (`commands`, `cost`, `finetune`), or "" with the reasons.
std::string estimate_parts(const nlohmann::json& request, bool commands, bool cost, bool finetune, Issues& issues) {
  std::optional<Scenario> scenario = resolve_scenario(request, issues);
  if (!scenario) return "";
  const Scenario& s = *scenario;
  std::optional<Evaluation> evaluation = evaluate(s, s.model, issues);
  if (!evaluation) return "";
  const WeightPlan* weights = evaluation->weights.get();
  const MemoryEstimate& memory = evaluation->memory;
  const SpeedEstimate& speed = evaluation->speed;
  const SpeedRequest& speed_request = evaluation->speed_request;
  if (memory.verdict == "oom") {
    issues.warning("does_not_fit", "/context_tokens",
                   say(s.lang, "This configuration needs more memory than the device offers.",
                       "Esta configuración necesita más memoria de la que ofrece el dispositivo."));
  }
  nlohmann::json speed_parts = speed_json(speed);

  // The cost at the request's concurrency as well as at its batch.
  auto cost_text = [&] {
    CostAssumptions cost_assumptions = read_cost_assumptions(request, issues);
    SpeedRequest concurrent_request = speed_request;
    concurrent_request.batch = cost_assumptions.concurrency;
    CostInputs cost_inputs;
    cost_inputs.model_id = s.model_id;
    cost_inputs.device_id = s.hardware.id;
    cost_inputs.devices = s.devices;
    cost_inputs.device_tdp_w = s.hardware.tdp_w;
    cost_inputs.device_price_usd = s.hardware.price_usd;
    cost_inputs.decode_tokens_per_s = speed.decode_tokens_per_s;
    cost_inputs.concurrent_tokens_per_s =
        estimate_speed(s.model, *weights, s.hardware, concurrent_request).decode_aggregate_tokens_per_s;
    return estimate_cost(cost_inputs, cost_assumptions);
  };

  // The sections in dump()'s sorted order, the commands, engine, hardware, speeds and weights
  // through documents, the others written as text.
  std::string out = "{";
  if (commands) out += "\"commands\":" + json_text(launch_commands(s, memory)) + ",";
  if (cost) out += "\"cost\":" + cost_text() + ",";
  out += "\"decode\":" + json_text(speed_parts["decode"]);
  out += ",\"engine\":" + json_text(engine_release_json(s.engine.engine));
  if (finetune) out += ",\"finetune\":" + finetune_text(s, read_finetune_settings(request, issues));
  out += ",\"hardware\":" + json_text(hardware_json(s.hardware));
  out += ",\"memory\":" + memory_text(memory, evaluation_math(s, s.model, *evaluation));
  out += ",\"model\":";
  append_model_card(out, s);
  out += ",\"params\":";
  append_params(out, s.model.params);
  out += ",\"prefill\":" + json_text(speed_parts["prefill"]);
  out += ",\"scenario\":" + scenario_text(s, evaluation->context_tokens);
  out += ",\"weights\":" + json_text(weight_plan_json(*weights)) + "}";
  return out;
}

}  // namespace

std::string estimate_answer(const nlohmann::json& request, Issues& issues) {
  // "omit": answer parts the caller does not need now (the page's slider leaves them to a later
  // task, so a step shows its figures sooner); the scenario is read without the key.
  std::optional<std::vector<bool>> omitted =
      read_name_list(request, "omit", {"commands", "cost", "finetune"}, "bad_omit", issues);
  if (!omitted) return "";
  if (!omitted->empty()) {
    nlohmann::json scenario_request = request;
    scenario_request.erase("omit");
    return estimate_parts(scenario_request, !(*omitted)[0], !(*omitted)[1], !(*omitted)[2], issues);
  }
  return estimate_parts(request, true, true, true, issues);
}

}  // namespace llmcalc
