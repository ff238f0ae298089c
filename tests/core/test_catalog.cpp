// Catalog integrity: ids, units, sources, and every model builds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <vector>

#include "llmcalc/api.h"
#include "llmcalc/catalog.h"
#include "llmcalc/hardware.h"
#include "test_support.h"

namespace {
const std::regex kKebab(R"(^[a-z0-9]+(\.[0-9]+)?([.-][a-z0-9]+)*$)");
}

TEST_CASE("Model records: kebab-case ids, sources, configs that build", "[catalog][models]") {
  const auto& models = llmcalc::Catalog::instance().models();
  CHECK(models.size() >= 80);
  std::set<std::string> ids;
  for (const auto& entry : models) {
    INFO(entry.id);
    CHECK(std::regex_match(entry.id, kKebab));
    CHECK(ids.insert(entry.id).second);
    CHECK(entry.source().rfind("https://", 0) == 0);
    // What data/ says, whether or not the module's copy of the record spells it out.
    CHECK(entry.source() == llmcalc_test::data_record("models/" + entry.id + ".json").at("source"));
    CHECK_FALSE(entry.record().value("name", "").empty());
    // The catalog reads a model's id from its file name, data/models/<id>.json.
    CHECK(llmcalc_test::data_record("models/" + entry.id + ".json").at("id") == entry.id);
    llmcalc::Issues issues;
    auto model = llmcalc::build_model(entry.config(), "/model", issues);
    REQUIRE(model);
    CHECK(model->params.total > 0);
    CHECK(model->params.active > 0);
    CHECK(model->params.active <= model->params.total);
  }
}

TEST_CASE("The catalog listing gives each model's repositories as data/ does", "[catalog][models]") {
  // The module's copy of a record leaves out what it derives (cmake/embed_data.mjs): the listing
  // must still say what data/ says.
  auto catalog = nlohmann::json::parse(llmcalc::catalog_json());
  const auto& models = catalog.at("result").at("models");
  CHECK(models.size() == llmcalc::Catalog::instance().models().size());
  for (const auto& model : models) {
    const std::string id = model.at("id").get<std::string>();
    INFO(id);
    const nlohmann::json data = llmcalc_test::data_record("models/" + id + ".json");
    CHECK(model.at("gguf_repo") == data.value("gguf_repo", nlohmann::json(nullptr)));
    CHECK(model.at("hf_repo") == data.at("hf_repo"));
    CHECK(model.at("source") == data.at("source"));
  }
}

TEST_CASE("Every catalog model estimates with finite, positive figures", "[catalog][models][estimate]") {
  // Every family end to end (inventory, GGUF mix, KV, speed, cost) on a large GPU and on a Mac,
  // at Q4_K_M with 32K: nothing may come back null (a NaN serializes as null) or non-positive.
  for (const auto& entry : llmcalc::Catalog::instance().models()) {
    for (const char* hardware : {"h200-sxm", "m4-max-128gb"}) {
      INFO(entry.id << " on " << hardware);
      auto envelope = llmcalc_test::estimate({{"model", entry.id}, {"weights", "Q4_K_M"},
                                              {"hardware", hardware}, {"context_tokens", 32768}});
      REQUIRE(envelope["ok"] == true);
      const auto& r = envelope["result"];
      CHECK(r["params"]["total"].get<double>() > 0);
      CHECK(r["weights"]["total_bytes"].get<double>() > 0);
      CHECK(r["memory"]["total_bytes"].get<double>() > 0);
      CHECK(r["memory"]["kv_cache_bytes"].get<double>() >= 0);
      CHECK(r["decode"]["tokens_per_s"].is_number());
      CHECK(r["decode"]["tokens_per_s"].get<double>() > 0);
      CHECK(r["memory"]["max_context_tokens"].get<double>() >= 0);
    }
  }
}

TEST_CASE("Device records: units positive, GiB and GB consistent, sourced", "[catalog][devices]") {
  const auto& devices = llmcalc::Catalog::instance().devices();
  CHECK(devices.size() >= 90);
  std::set<std::string> ids;
  for (const auto& entry : devices) {
    INFO(entry.id);
    CHECK(std::regex_match(entry.id, kKebab));
    CHECK(ids.insert(entry.id).second);
    CHECK(entry.record.value("source", "").rfind("http", 0) == 0);
    auto hw = llmcalc::hardware_from_record(entry.record);
    // The catalog reads a device's id from its file name, data/devices/<id>.json.
    CHECK(llmcalc_test::data_record("devices/" + entry.id + ".json").at("id") == entry.id);
    CHECK(hw.id == entry.id);
    CHECK(hw.memory_bytes > 0);
    CHECK(hw.memory_bandwidth_bytes_per_s > 0);
    // memory_GiB is binary: bytes = GiB x 2^30 (the JSON keeps decimal GB out of this field).
    CHECK(static_cast<double>(hw.memory_bytes) ==
          Approx(entry.record.at("memory_GiB").get<double>() * 1073741824.0));
    const std::set<std::string> kinds = {"discrete", "unified", "cpu"};
    CHECK(kinds.count(hw.kind) == 1);
    if (entry.record.contains("fp16_dense_TFLOPS") && entry.record["fp16_dense_TFLOPS"].is_number()) {
      CHECK(hw.fp16_flops_per_s > 0);
    }
  }
}

TEST_CASE("New prices: dated, and sourced where a record names its source", "[catalog][devices][price]") {
  int sourced = 0;
  for (const auto& entry : llmcalc::Catalog::instance().devices()) {
    auto price = entry.record.find("price_new_usd");
    if (price == entry.record.end() || !price->is_number()) continue;
    INFO(entry.id);
    CHECK(price->get<double>() > 0);
    CHECK(entry.record.value("price_date", "").size() >= 4);
    const nlohmann::json record = llmcalc_test::data_record("devices/" + entry.id + ".json");
    auto source = record.find("price_new_source");
    if (source == record.end()) continue;
    CHECK(source->at("source").get<std::string>().rfind("https://", 0) == 0);
    CHECK_FALSE(source->at("kind").get<std::string>().empty());  // its quote stays in data/ only
    ++sourced;
  }
  CHECK(sourced >= 33);
}

TEST_CASE("Used prices: each is the median of its sources' range midpoints, every source dated", "[catalog][devices][used]") {
  int priced = 0;
  for (const auto& entry : llmcalc::Catalog::instance().devices()) {
    auto used = entry.record.find("price_used_usd");
    if (used == entry.record.end() || !used->is_number()) continue;
    INFO(entry.id);
    const nlohmann::json record = llmcalc_test::data_record("devices/" + entry.id + ".json");
    const auto& sources = record.at("price_used_sources");
    REQUIRE(sources.is_array());
    REQUIRE_FALSE(sources.empty());
    std::vector<double> midpoints;
    for (const auto& source : sources) {
      CHECK(source.at("source").get<std::string>().rfind("https://", 0) == 0);
      CHECK(source.at("date").get<std::string>().rfind("2026", 0) == 0);
      CHECK(source.at("low_usd").get<double>() <= source.at("high_usd").get<double>());
      midpoints.push_back((source.at("low_usd").get<double>() + source.at("high_usd").get<double>()) / 2);
    }
    std::sort(midpoints.begin(), midpoints.end());
    std::size_t n = midpoints.size();
    double median = n % 2 ? midpoints[n / 2] : (midpoints[n / 2 - 1] + midpoints[n / 2]) / 2;
    CHECK(used->get<double>() == median);
    ++priced;
  }
  // RTX 3060 12GB, 3070, 3090, 3090 Ti, 4060 Ti 16GB, 4070, 4090, A6000, L4, RX 7900 XTX, Tesla P40
  CHECK(priced >= 11);
}
