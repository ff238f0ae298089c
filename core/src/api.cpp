// The entry points: each request parsed and checked, each answer in the JSON envelope; the
// listing of the catalog and the model-file readers' answers.
#include "llmcalc/api.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "llmcalc/catalog.h"
#include "llmcalc/engine_release.h"
#include "llmcalc/explore.h"
#include "llmcalc/planner.h"
#include "llmcalc/rank.h"
#include "llmcalc/gguf_reader.h"
#include "llmcalc/safetensors_reader.h"
#include "llmcalc/hardware.h"
#include "llmcalc/network.h"
#include "llmcalc/issues.h"
#include "llmcalc/weights.h"
#include "estimate_answer.h"
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

// The envelope around a result already written as JSON text (rank's, explore's): "result"
// sorts after the envelope's other keys, so it closes the text dump() writes without it.
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

// The envelope around a request handler, which writes its result as JSON text. The core is
// built without exceptions (core/CMakeLists.txt): a broken invariant aborts, never a half-made
// answer.
std::string guarded(const std::string& request_json, std::string (*handler)(const nlohmann::json&, Issues&)) {
  Issues issues;
  std::optional<nlohmann::json> request = parsed_request(request_json, issues);
  if (!request) return envelope(issues, nullptr);
  std::string result = handler(*request, issues);
  return envelope_around(issues, result);
}

}  // namespace

std::string estimate_json(const std::string& request_json) {
  return guarded(request_json, estimate_answer);
}

std::string rank_json(const std::string& request_json) {
  return guarded(request_json, rank_models);
}

std::string explore_json(const std::string& request_json) {
  return guarded(request_json, explore);
}

std::string plan_json(const std::string& request_json) {
  return guarded(request_json, [](const nlohmann::json& request, Issues& issues) {
    return json_text(plan_deployments(request, issues));
  });
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
