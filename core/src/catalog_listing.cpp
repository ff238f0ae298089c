// The catalog listing the page reads once at start: model names and ids, devices, engine
// releases, network links and the format and cache ids; each model's architecture is built only
// when it is first estimated.
#include <utility>

#include "llmcalc/api.h"
#include "llmcalc/catalog.h"
#include "llmcalc/engine_release.h"
#include "llmcalc/hardware.h"
#include "llmcalc/network.h"
#include "llmcalc/weights.h"
#include "envelope.h"
#include "published_formats.h"

namespace llmcalc {

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
    // The module's copy leaves out a gguf_repo that is the first of gguf_repos (cmake/embed_data.mjs).
    auto repos = r.find("gguf_repos");
    if (!r.contains("gguf_repo") && repos != r.end() && repos->is_array() && !repos->empty()) {
      item["gguf_repo"] = repos->front().value("repo", "");
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
                           {"kv_cache_types", {"auto", "f16", "bf16", "fp8", "q8_0", "q4_0"}},
                           {"engines", {"llama.cpp", "ollama", "vllm", "sglang", "mlx",
                                        "transformers"}}};
  return envelope(issues, std::move(result));
}

}  // namespace llmcalc
