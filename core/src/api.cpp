// The JSON envelope around every estimate; the only place exceptions are caught.
#include "llmcalc/api.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <utility>

#include "llmcalc/catalog.h"
#include "llmcalc/commands.h"
#include "llmcalc/cost.h"
#include "llmcalc/engine_release.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/explore.h"
#include "llmcalc/finetune.h"
#include "llmcalc/planner.h"
#include "llmcalc/rank.h"
#include "llmcalc/gguf_reader.h"
#include "llmcalc/safetensors_reader.h"
#include "llmcalc/hardware.h"
#include "llmcalc/network.h"
#include "llmcalc/issues.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"
#include "llmcalc/scenario.h"
#include "llmcalc/speed.h"
#include "llmcalc/weights.h"
#include "json_text.h"
#include "published_formats.h"

#ifndef LLMCALC_VERSION
#define LLMCALC_VERSION "0.0.0"
#endif

namespace llmcalc {
namespace {

constexpr std::size_t kMaxRequestBytes = 16 * 1024 * 1024;
constexpr int kMaxNestingDepth = 64;

// Deepest [ / { nesting outside strings; checked before parsing so hostile input cannot recurse.
int nesting_depth(const std::string& text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > kMaxNestingDepth) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json issues_json(const Issues& issues) {
  nlohmann::json out = nlohmann::json::array();
  for (const Issue& issue : issues.list()) {
    out.push_back({{"severity", issue.severity == Severity::error ? "error" : "warning"},
                   {"code", issue.code},
                   {"path", issue.path},
                   {"message", issue.message}});
  }
  return out;
}

// The envelope's keys but the result.
nlohmann::json envelope_head(const Issues& issues) {
  return {{"ok", !issues.has_errors()}, {"api_version", kApiVersion}, {"issues", issues_json(issues)}};
}

std::string envelope(const Issues& issues, nlohmann::json result) {
  nlohmann::json out = envelope_head(issues);
  if (!issues.has_errors()) out["result"] = std::move(result);
  return json_text(out);
}

nlohmann::json model_card_json(const Scenario& s) {
  const ModelSpec& m = s.model;
  return {{"id", s.model_id},
          {"name", s.model_name},
          {"model_type", m.model_type},
          {"hidden_size", m.hidden_size},
          {"layers", m.n_layers},
          {"vocab_size", m.vocab_size},
          {"max_context_tokens", m.max_context_tokens},
          {"tied_embeddings", m.tied_embeddings},
          {"layer_counts", layer_counts_json(m)},
          {"layer_groups", layer_summary_json(m)}};
}

// The envelope around a result already written as JSON text (rank's): "result" sorts after
// the envelope's other keys, so it closes the text dump() writes without it.
std::string envelope_around(const Issues& issues, const std::string& result_text) {
  if (issues.has_errors()) return envelope(issues, nullptr);
  std::string out = json_text(envelope_head(issues));
  out.pop_back();  // the closing brace
  out += ",\"result\":";
  out += result_text;
  out += '}';
  return out;
}

// Size and depth limits and parsing: the request, or nothing with the reason in `issues`.
std::optional<nlohmann::json> parsed_request(const std::string& request_json, Issues& issues) {
  if (request_json.size() > kMaxRequestBytes) {
    issues.error("request_too_large", "", "The request is larger than 16 MiB.");
    return std::nullopt;
  }
  if (nesting_depth(request_json) > kMaxNestingDepth) {
    issues.error("too_deep", "", "The request nests deeper than 64 levels.");
    return std::nullopt;
  }
  nlohmann::json request = parse_json(request_json);
  if (request.is_discarded()) {
    issues.error("malformed_json", "", "The request is not valid JSON.");
    return std::nullopt;
  }
  return request;
}

// The envelope around a request handler. The core is built without exceptions
// (core/CMakeLists.txt): a broken invariant aborts, never a half-made answer.
std::string guarded(const std::string& request_json,
                    nlohmann::json (*handler)(const nlohmann::json&, Issues&)) {
  Issues issues;
  std::optional<nlohmann::json> request = parsed_request(request_json, issues);
  if (!request) return envelope(issues, nullptr);
  nlohmann::json result = handler(*request, issues);
  return envelope(issues, std::move(result));
}

// Fine-tuning memory, with the cheapest priced catalog device whose usable memory holds each
// method's per-GPU total (launch prices from data/devices).
nlohmann::json finetune_with_devices(const Scenario& s, const FinetuneSettings& settings) {
  nlohmann::json out = estimate_finetune(s.model, settings);
  EngineSettings training;
  training.engine = "transformers";
  for (const char* method : {"full", "lora", "qlora"}) {
    double need = out[method]["total_bytes"].get<double>();
    nlohmann::json best = nullptr;
    for (const Hardware& h : catalog_hardware()) {
      if (h.price_usd <= 0 || h.kind == "cpu") continue;
      if (static_cast<double>(usable_memory_bytes(h, training)) < need) continue;
      if (best.is_null() || h.price_usd < best["price_usd"].get<double>()) {
        best = {{"id", h.id}, {"name", h.name}, {"price_usd", h.price_usd}};
      }
    }
    out[method]["recommended_device"] = best;
  }
  return out;
}

nlohmann::json run_estimate(const nlohmann::json& request, Issues& issues) {
  std::optional<Scenario> scenario = resolve_scenario(request, issues);
  if (!scenario) return nullptr;
  const Scenario& s = *scenario;
  std::optional<Evaluation> evaluation = evaluate(s, s.model, issues);
  if (!evaluation) return nullptr;
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

  nlohmann::json resolved = scenario_json(s);
  resolved["context_tokens"] = evaluation->context_tokens;
  return {{"model", model_card_json(s)},
          {"engine", engine_release_json(s.engine.engine)},
          {"params", params_json(s.model.params)},
          {"weights", weight_plan_json(*weights)},
          {"memory", memory_json(memory, evaluation_math(s, s.model, *evaluation))},
          {"decode", speed_parts["decode"]},
          {"prefill", speed_parts["prefill"]},
          {"hardware", hardware_json(s.hardware)},
          {"commands", launch_commands(s, memory)},
          {"cost", estimate_cost(cost_inputs, cost_assumptions)},
          {"finetune", finetune_with_devices(s, read_finetune_settings(request, issues))},
          {"scenario", resolved}};
}

}  // namespace

std::string estimate_json(const std::string& request_json) {
  return guarded(request_json, run_estimate);
}

std::string rank_json(const std::string& request_json) {
  Issues issues;
  std::optional<nlohmann::json> request = parsed_request(request_json, issues);
  if (!request) return envelope(issues, nullptr);
  std::string result = rank_models(*request, issues);
  return envelope_around(issues, result);
}

std::string explore_json(const std::string& request_json) {
  return guarded(request_json, explore);
}

std::string plan_json(const std::string& request_json) {
  return guarded(request_json, plan_deployments);
}

std::string catalog_json() {
  Issues issues;
  const Catalog& catalog = Catalog::instance();
  nlohmann::json models = nlohmann::json::array();
  // Listing only: architectures are built when a model is estimated, keeping the first call
  // (page load) cheap.
  for (const CatalogModel& entry : catalog.models()) {
    const nlohmann::json& r = entry.record();
    nlohmann::json item = {{"id", entry.id},
                           {"name", r.value("name", entry.id)},
                           {"family", r.value("family", "")},
                           {"hf_repo", r.value("hf_repo", "")},
                           {"source", entry.source()}};
    for (const char* key : {"ollama_tag", "gguf_repo", "license", "release_date"}) {
      item[key] = r.contains(key) ? r.at(key) : nlohmann::json(nullptr);
    }
    // Formats its repositories publish that only a file size describes (unsloth Dynamic).
    item["published_formats"] = nlohmann::json::array();
    for (const PublishedFormat& p : published_formats(r)) item["published_formats"].push_back(p.format);
    models.push_back(std::move(item));
  }
  nlohmann::json devices = nlohmann::json::array();
  for (const CatalogDevice& entry : catalog.devices()) {
    nlohmann::json item = hardware_json(hardware_from_record(entry.record));
    item["source"] = entry.record.value("source", "");
    devices.push_back(std::move(item));
  }
  nlohmann::json releases = nlohmann::json::object();
  for (const char* engine : {"llama.cpp", "ollama", "vllm", "sglang", "mlx", "transformers"}) {
    releases[engine] = engine_release_json(engine);
  }
  nlohmann::json links = nlohmann::json::array();
  for (const NetworkLink& link : catalog_links()) links.push_back(network_json(link));
  nlohmann::json result = {{"models", std::move(models)},
                           {"engine_releases", std::move(releases)},
                           {"devices", std::move(devices)},
                           {"links", std::move(links)},
                           {"weight_formats", weight_format_ids()},
                           {"kv_cache_types", {"f16", "bf16", "fp8", "q8_0", "q4_0"}},
                           {"engines", {"llama.cpp", "ollama", "vllm", "sglang", "mlx",
                                        "transformers"}}};
  return envelope(issues, std::move(result));
}

std::string read_gguf_json(const std::string& bytes, double file_size) {
  Issues issues;
  uint64_t size = file_size > 0 && file_size < 1e18 ? static_cast<uint64_t>(file_size) : 0;
  GgufReadResult read = read_gguf_header(reinterpret_cast<const uint8_t*>(bytes.data()),
                                         bytes.size(), size, "/file", issues);
  if (read.status == GgufReadStatus::need_more_bytes) {
    return envelope(issues, {{"status", "need_more_bytes"}, {"bytes_needed", read.bytes_needed}});
  }
  if (read.status != GgufReadStatus::ok) return envelope(issues, nullptr);
  nlohmann::json result = gguf_header_json(read.header);
  result["status"] = "ok";
  return envelope(issues, std::move(result));
}

std::string read_safetensors_json(const std::string& bytes) {
  Issues issues;
  auto result = read_safetensors(bytes, "/file", issues);
  return envelope(issues, result ? std::move(*result) : nlohmann::json(nullptr));
}

std::string version() { return LLMCALC_VERSION; }

}  // namespace llmcalc
