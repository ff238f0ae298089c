// rank(): every row agrees with the single-model estimate (same verdict, same speed) on three
// devices, and the format choice follows its rule.
#include <catch2/catch.hpp>

#include "llmcalc/api.h"
#include "llmcalc/catalog.h"
#include "llmcalc/scenario.h"
#include "llmcalc/weights.h"
#include "llama_cpp_memory.h"
#include "test_support.h"

TEST_CASE("Every ranked row equals its single-model estimate", "[rank]") {
  // SGLang's default memory fraction depends on the model (MLA, multimodal), so its rows check
  // that rank sizes each model's pool with the model's own.
  const std::pair<const char*, const char*> setups[] = {
      {"rtx-4090", "llama.cpp"}, {"m4-max-64gb", "llama.cpp"}, {"rtx-3070", "llama.cpp"}, {"h100-sxm", "sglang"}};
  for (const auto& [device, engine] : setups) {
    // A rank at another context first: rows whose format is the same at both take their largest
    // context from what that rank searched (rank.cpp LargestContexts), which must be the
    // estimate's own search.
    REQUIRE(nlohmann::json::parse(llmcalc::rank_json(
                nlohmann::json{{"hardware", device}, {"engine", engine}, {"context_tokens", 2048}}.dump()))["ok"] == true);
    nlohmann::json request = {{"hardware", device}, {"engine", engine}, {"context_tokens", 16384}};
    auto ranked = nlohmann::json::parse(llmcalc::rank_json(request.dump()));
    REQUIRE(ranked["ok"] == true);
    const auto& rows = ranked["result"]["rows"];
    CHECK(rows.size() >= 80);
    int comfortable = 0;
    for (const auto& row : rows) {
      INFO(device << " " << engine << " " << row["model"] << " " << row["weights"]);
      auto single = llmcalc_test::estimate({{"model", row["model"]}, {"weights", row["weights"]},
                                            {"hardware", device}, {"engine", engine},
                                            {"context_tokens", row["context_tokens"]}});
      REQUIRE(single["ok"] == true);
      const auto& r = single["result"];
      CHECK(row["verdict"] == r["memory"]["verdict"]);
      CHECK(row["max_context_tokens"] == r["memory"]["max_context_tokens"]);
      CHECK(row["decode"]["tokens_per_s"].get<double>() == Approx(r["decode"]["tokens_per_s"].get<double>()));
      CHECK(row["prefill"]["tokens_per_s"].get<double>() == Approx(r["prefill"]["tokens_per_s"].get<double>()));
      comfortable += row["verdict"] == "comfortable";
      // Nothing below the default 4-bit floor.
      CHECK(row["weights"] != "Q3_K_M");
      CHECK(row["weights"] != "Q2_K");
    }
    CHECK(comfortable >= 10);
  }
}

TEST_CASE("Without a context, rank runs each model at its engine's own", "[rank]") {
  // llama.cpp without -c: each model from its own trained window (Qwen3-0.6B's 40,960 per
  // request, its 4 x 40,960 cells fitting a 24 GiB card), not the first catalog model's; Ollama on
  // a 24 GiB card: its 32,768 tier, or the trained window below it. Each row is its single
  // estimate without -c.
  for (const char* engine : {"llama.cpp", "ollama"}) {
    auto ranked = nlohmann::json::parse(llmcalc::rank_json(
        nlohmann::json{{"hardware", "rtx-4090"}, {"engine", engine}, {"context_tokens", 0}}.dump()));
    REQUIRE(ranked["ok"] == true);
    for (const auto& row : ranked["result"]["rows"]) {
      INFO(engine << " " << row["model"] << " " << row["weights"]);
      auto single = llmcalc_test::estimate({{"model", row["model"]}, {"weights", row["weights"]},
                                            {"hardware", "rtx-4090"}, {"engine", engine}, {"context_tokens", 0}});
      REQUIRE(single["ok"] == true);
      CHECK(row["context_tokens"] == single["result"]["scenario"]["context_tokens"]);
      CHECK(row["verdict"] == single["result"]["memory"]["verdict"]);
      int64_t native = row["native_context_tokens"].get<int64_t>();
      if (std::string(engine) == "ollama") {
        // The tier, or 4,096 when the tier fails to load (Ollama's one retry): then -c at the
        // tier does not fit.
        int64_t tier = std::min<int64_t>(32768, native);
        if (row["context_tokens"] != tier) {
          CHECK(row["context_tokens"] == 4096);
          CHECK(llmcalc_test::estimate({{"model", row["model"]}, {"weights", row["weights"]}, {"hardware", "rtx-4090"},
                                        {"engine", engine}, {"context_tokens", tier}})["result"]["memory"]["verdict"] == "oom");
        }
      }
      if (row["model"] == "qwen3-0.6b" && std::string(engine) == "llama.cpp") CHECK(row["context_tokens"] == 40960);
      CHECK(row["context_tokens"].get<int64_t>() <= native);
    }
  }
}

TEST_CASE("rank's answer, written as text, is the text dump() writes for the same document", "[rank]") {
  // Beyond some models' native windows: the rows are clamped to them, the answer keeps the request's.
  for (const char* request : {R"({"hardware": "rtx-4090", "context_tokens": 1048576})",
                              R"({"hardware": "m4-max-64gb", "engine": "mlx", "min_bits": 3})"}) {
    INFO(request);
    std::string text = llmcalc::rank_json(request);
    auto ranked = nlohmann::json::parse(text);
    REQUIRE(ranked["ok"] == true);
    CHECK(text == ranked.dump());
    const auto& result = ranked["result"];
    auto asked = nlohmann::json::parse(request);
    if (asked.contains("context_tokens")) CHECK(result["context_tokens"] == asked["context_tokens"]);
    for (const auto& row : result["rows"]) {
      CHECK(row["context_tokens"] <= result["context_tokens"]);
      CHECK(row["context_tokens"] <= row["native_context_tokens"]);
    }
  }
}

TEST_CASE("rank picks the best format that fits comfortably", "[rank]") {
  auto ranked = nlohmann::json::parse(
      llmcalc::rank_json(nlohmann::json({{"hardware", "rtx-4090"}, {"context_tokens", 8192}}).dump()));
  REQUIRE(ranked["ok"] == true);
  for (const auto& row : ranked["result"]["rows"]) {
    if (row["model"] != "llama-3.1-8b") continue;
    // Llama 3.1 8B Q8_0 (7.95 GiB) + 1 GiB KV at 8K fits a 24 GiB card comfortably: Q8_0 is the
    // highest-quality GGUF type in the list.
    CHECK(row["weights"] == "Q8_0");
    CHECK(row["verdict"] == "comfortable");
  }
  auto bad = nlohmann::json::parse(llmcalc::rank_json(R"({"model": "llama-3.1-8b"})"));
  CHECK(bad["ok"] == false);
  CHECK(bad["issues"][0]["path"] == "/model");
}

TEST_CASE("Models too large for the card run with --fit's offload, as a single estimate says", "[rank][offload]") {
  auto ranked = nlohmann::json::parse(
      llmcalc::rank_json(nlohmann::json({{"hardware", "rtx-3070"}, {"context_tokens", 4096}}).dump()));
  REQUIRE(ranked["ok"] == true);
  int checked = 0;
  for (const auto& row : ranked["result"]["rows"]) {
    if (row["verdict"] != "offload") continue;
    INFO(row["model"] << " " << row["weights"]);
    // The row's placement is what --fit chooses; the single estimate reproduces it, with parts
    // of the model in system RAM.
    auto single = llmcalc_test::estimate({{"model", row["model"]}, {"weights", row["weights"]},
                                          {"hardware", "rtx-3070"}, {"context_tokens", row["context_tokens"]}});
    REQUIRE(single["ok"] == true);
    const auto& memory = single["result"]["memory"];
    CHECK(memory["verdict"] == "offload");
    CHECK(memory["fit"]["status"] == "offload");
    CHECK(row["fit"]["gpu_layers"] == memory["fit"]["gpu_layers"]);
    CHECK(memory["host"]["weights_bytes"].get<double>() > memory["per_device"][0]["weights_bytes"].get<double>() / 100);
    ++checked;
  }
  CHECK(checked >= 3);  // e.g. Qwen3-30B-A3B with experts in RAM on an 8 GB card
}

TEST_CASE("rank's format is the one a walk evaluating every format of the ladder picks", "[rank][ladder]") {
  // The rule, applied by brute force to single estimates: from the highest quality down, the first
  // comfortable format, else the first tight one, else the first that offloads, else the smallest.
  // rank skips formats whose weights cannot fit the card; the pick must not change.
  const auto ladder = llmcalc::engine_format_ladder("llama.cpp");
  for (const char* device : {"rtx-3070", "m4-max-64gb"}) {
    nlohmann::json request = {{"hardware", device}, {"context_tokens", 4096}};
    auto ranked = nlohmann::json::parse(llmcalc::rank_json(request.dump()));
    REQUIRE(ranked["ok"] == true);
    const auto& rows = ranked["result"]["rows"];
    int checked = 0;
    for (std::size_t i = 0; i < rows.size(); i += 7) {
      const auto& row = rows[i];
      std::string comfortable, tight, offload, smallest;
      for (const auto& [format, bits] : ladder) {
        if (bits < 4) break;
        auto single = llmcalc_test::estimate({{"model", row["model"]}, {"weights", format},
                                              {"hardware", device}, {"context_tokens", row["context_tokens"]}});
        if (single["ok"] != true) continue;
        std::string verdict = single["result"]["memory"]["verdict"];
        if (verdict == "comfortable" && comfortable.empty()) comfortable = format;
        if (verdict == "tight" && tight.empty()) tight = format;
        if (verdict == "offload" && offload.empty()) offload = format;
        smallest = format;
      }
      std::string expected = !comfortable.empty() ? comfortable : !tight.empty() ? tight
                             : !offload.empty()   ? offload     : smallest;
      INFO(device << " " << row["model"]);
      CHECK(row["weights"] == expected);
      ++checked;
    }
    CHECK(checked >= 20);
  }
}

TEST_CASE("llama.cpp's ladder, cut at 3 bits or more, ends in its smallest format for every catalog model", "[rank][ladder]") {
  // rank's walk leans on it: when the cut ladder's last format is beyond the devices and RAM, so
  // is every format before it. Each plan is llama.cpp's quantizer rules applied tensor by tensor,
  // so this is a property of the rules and the catalog's shapes, checked for both imatrix settings.
  const auto ladder = llmcalc::engine_format_ladder("llama.cpp");
  // On a discrete GPU, with llama.cpp's lazy tables (the newest build) and without (Ollama's).
  llmcalc::Hardware gpu;
  gpu.kind = "discrete";
  llmcalc::EngineSettings lazy;
  llmcalc::EngineSettings eager;
  eager.engine = "ollama";
  int compared = 0;
  for (const llmcalc::CatalogModel& entry : llmcalc::Catalog::instance().models()) {
    llmcalc::Issues issues;
    const llmcalc::ModelSpec* spec = llmcalc::catalog_model_spec(entry.id, issues);
    REQUIRE(spec);
    for (const auto& [imatrix, engine] : {std::make_pair(false, &lazy), std::make_pair(true, &lazy),
                                          std::make_pair(false, &eager), std::make_pair(true, &eager)}) {
      std::vector<int64_t> placed;
      for (const auto& [format, bits] : ladder) {
        std::optional<llmcalc::WeightPlan> plan = llmcalc::plan_weights(*spec, format, "/weights", issues, imatrix);
        REQUIRE(plan);
        placed.push_back(llmcalc::llama_cpp_placed_bytes(*plan, gpu, *engine));
      }
      for (int min_bits = llmcalc::kLlamaCppLadderSmallestLastFromBits; min_bits <= 8; ++min_bits) {
        std::size_t last = 0;
        while (last + 1 < ladder.size() && ladder[last + 1].second >= min_bits) ++last;
        for (std::size_t i = 0; i < last; ++i) {
          INFO(entry.id << " " << ladder[i].first << " vs " << ladder[last].first << (imatrix ? " imatrix" : ""));
          CHECK(placed[i] >= placed[last]);
          ++compared;
        }
      }
    }
  }
  CHECK(compared >= 4 * 160 * 13);  // 6 + 4 + 2 + 1 pairs per model and setting
  // Below the floor the order breaks: Qwen3 1.7B's Q2_K places more than its IQ3_XXS (Q2_K keeps
  // the tied output table at Q6_K, IQ3_XXS at Q5_K, and that table is a sixth of this model).
  llmcalc::Issues issues;
  const llmcalc::ModelSpec* small = llmcalc::catalog_model_spec("qwen3-1.7b", issues);
  REQUIRE(small);
  CHECK(llmcalc::llama_cpp_placed_bytes(*llmcalc::plan_weights(*small, "Q2_K", "/weights", issues, false), gpu, lazy) >
        llmcalc::llama_cpp_placed_bytes(*llmcalc::plan_weights(*small, "IQ3_XXS", "/weights", issues, false), gpu, lazy));
}

TEST_CASE("explore(): matrix and leaderboard agree with estimate; recommendations follow their rules", "[explore]") {
  nlohmann::json request = {{"model", "qwen3-32b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                            {"context_tokens", 32768}};
  auto answer = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
  REQUIRE(answer["ok"] == true);
  const auto& r = answer["result"];
  for (const auto& cell : r["matrix"]) {
    auto single = llmcalc_test::estimate({{"model", "qwen3-32b"}, {"weights", cell["weights"]},
                                          {"hardware", "rtx-4090"}, {"context_tokens", cell["context_tokens"]}});
    CHECK(cell["verdict"] == single["result"]["memory"]["verdict"]);
    CHECK(cell["total_bytes"] == single["result"]["memory"]["total_bytes"]);
  }
  double cheapest = 1e18;
  double best_value = 0;
  std::string best_value_id;
  for (const auto& d : r["devices"]) {
    if (d["id"] == "rtx-3090") {
      auto single = llmcalc_test::estimate({{"model", "qwen3-32b"}, {"weights", "Q4_K_M"},
                                            {"hardware", "rtx-3090"}, {"context_tokens", 32768}});
      CHECK(d["max_context_tokens"] == single["result"]["memory"]["max_context_tokens"]);
      CHECK(d["decode_tokens_per_s"].get<double>() == Approx(single["result"]["decode"]["tokens_per_s"].get<double>()));
    }
    if (d["verdict"] == "comfortable" && d["price_usd"].is_number()) cheapest = std::min(cheapest, d["price_usd"].get<double>());
    // Best value used: the most decode tokens/s per used dollar among the cards that fit comfortably.
    if (d["verdict"] == "comfortable" && d["price_used_usd"].is_number()) {
      double value = d["decode_tokens_per_s"].get<double>() / d["price_used_usd"].get<double>();
      if (value > best_value) {
        best_value = value;
        best_value_id = d["id"].get<std::string>();
      }
    }
  }
  const auto& rec = r["recommendations"];
  REQUIRE(rec["cheapest_device"].is_object());
  CHECK(rec["cheapest_device"]["price_usd"].get<double>() == cheapest);
  CHECK(rec["cheapest_device"]["verdict"] == "comfortable");
  REQUIRE(rec["best_value_used"].is_object());
  CHECK(rec["best_value_used"]["id"] == best_value_id);
  REQUIRE(rec["cheapest_cloud"].is_object());
  auto cloud = llmcalc_test::estimate({{"model", "qwen3-32b"}, {"weights", "Q4_K_M"},
                                       {"hardware", rec["cheapest_cloud"]["device_id"]},
                                       {"devices", rec["cheapest_cloud"]["device_count"]}, {"context_tokens", 32768}});
  CHECK(cloud["result"]["memory"]["verdict"] == "comfortable");
}

TEST_CASE("explore(): 'sections' asks for some panels, each the same as in the whole answer", "[explore]") {
  nlohmann::json request = {{"model", "qwen3-32b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                            {"context_tokens", 32768}};
  auto whole = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
  REQUIRE(whole["ok"] == true);
  const std::vector<std::pair<std::string, std::vector<std::string>>> panels = {
      {"matrix", {"matrix"}}, {"advice", {"advice"}}, {"sweep", {"sweep", "usable_bytes"}},
      {"devices", {"devices", "recommendations"}}};
  for (const auto& [section, keys] : panels) {
    INFO("section " << section);
    request["sections"] = {section};
    auto part = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
    REQUIRE(part["ok"] == true);
    CHECK(part["result"].size() == keys.size() + 1);  // and context_tokens
    CHECK(part["result"]["context_tokens"] == whole["result"]["context_tokens"]);
    for (const std::string& key : keys) CHECK(part["result"][key] == whole["result"][key]);
  }
  request["sections"] = {"matrix", "colour"};
  auto bad = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
  CHECK(bad["ok"] == false);
  CHECK(bad["issues"][0]["path"] == "/sections/1");
  request["sections"] = "matrix";
  bad = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
  CHECK(bad["issues"][0]["path"] == "/sections");
}

TEST_CASE("When a setup does not run, the advice is what would, each checked", "[explore][advice]") {
  // Llama 3.1 70B in BF16 on one H100 under vLLM does not run (141 GB of weights).
  nlohmann::json request = {{"model", "llama-3.1-70b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"hardware", "h100-sxm"}, {"context_tokens", 8192}};
  auto explore = nlohmann::json::parse(llmcalc::explore_json(request.dump()));
  REQUIRE(explore["ok"] == true);
  const auto& advice = explore["result"]["advice"];
  CHECK(advice["verdict"] == "oom");
  auto verdict_with = [&](const nlohmann::json& change) {
    nlohmann::json changed = request;
    changed.update(change);
    return llmcalc_test::estimate(changed)["result"]["memory"]["verdict"].get<std::string>();
  };
  // The advised format runs, and every format above it on vLLM's ladder (BF16, FP8, AWQ-INT4) does not.
  REQUIRE(advice["weights"].is_object());
  std::string format = advice["weights"]["format"];
  CHECK(verdict_with({{"weights", format}}) != "oom");
  for (const char* better : {"BF16", "FP8", "AWQ-INT4"}) {
    if (format == better) break;
    CHECK(verdict_with({{"weights", better}}) == "oom");
  }
  // The advised count of H100s runs BF16, and one fewer does not.
  REQUIRE(advice["devices"].is_object());
  int64_t count = advice["devices"]["count"];
  CHECK(verdict_with({{"devices", count}}) != "oom");
  CHECK(verdict_with({{"devices", count - 1}}) == "oom");
}

TEST_CASE("A rank gives back the tensor lists of the catalog's specs; a plan or an estimate lists them again", "[rank]") {
  // The first rank touched 10.6 MB of tensor lists it then kept (scenario.h, CatalogSpecVisit).
  REQUIRE(nlohmann::json::parse(llmcalc::rank_json(R"({"hardware":"rtx-4090"})"))["ok"] == true);
  int given_back = 0;
  for (const llmcalc::CatalogModel& entry : llmcalc::Catalog::instance().models()) {
    llmcalc::Issues issues;
    llmcalc::CatalogSpecVisit visit(entry.id, issues);
    REQUIRE(visit.spec());
    given_back += visit.spec()->tensors.empty();
  }
  CHECK(given_back == static_cast<int>(llmcalc::Catalog::instance().models().size()));
  // A rank of another engine plans formats the first did not: each from a given-back spec, whose
  // list catalog_plan has built again. Every row's bits per weight is its format's plan of a spec
  // built afresh from the catalog's config (no cache between them).
  auto ranked = nlohmann::json::parse(llmcalc::rank_json(R"({"hardware":"m4-max-64gb","engine":"mlx"})"));
  REQUIRE(ranked["ok"] == true);
  int compared = 0;
  for (const auto& row : ranked["result"]["rows"]) {
    const std::string id = row["model"];
    INFO(id << " " << row["weights"]);
    llmcalc::Issues issues;
    std::optional<llmcalc::ModelSpec> fresh =
        llmcalc::build_model(llmcalc::Catalog::instance().find_model(id)->config(), "/model", issues);
    REQUIRE(fresh);
    std::optional<llmcalc::WeightPlan> plan = llmcalc::plan_weights(*fresh, row["weights"], "/weights", issues, false);
    REQUIRE(plan);
    CHECK(row["bits_per_weight"].get<double>() == Approx(plan->bits_per_weight()).epsilon(1e-12));
    // An estimate lists the spec's tensors again: the same list as the fresh spec's.
    const llmcalc::ModelSpec* kept = llmcalc::catalog_model_spec(id, issues);
    REQUIRE(kept);
    CHECK(kept->tensors.size() == fresh->tensors.size());
    ++compared;
  }
  CHECK(compared >= 100);
}
