// Fine-tuning memory: hand-computed parts, and published measurements
// (tests/data/finetune_measurements.json, each with its source).
#include <catch2/catch.hpp>

#include <cmath>

#include "llmcalc/finetune.h"
#include "test_support.h"

TEST_CASE("Fine-tuning parts by hand", "[finetune]") {
  auto model = llmcalc_test::catalog_model("llama-2-7b");
  // LoRA r64 on q, k, v, gate, up, down (FSDP-QLoRA's defaults): per layer
  // q, k, v: 3 x 64 x (4096 + 4096) = 1,572,864; gate, up: 2 x 64 x (4096 + 11008) = 1,933,312;
  // down: 64 x (11008 + 4096) = 966,656 -> 4,472,832; x 32 layers = 143,130,624.
  CHECK(llmcalc::lora_parameters(model, 64, {"q", "k", "v", "gate", "up", "down"}) == 143130624);

  llmcalc::FinetuneSettings s;
  s.precision = "mixed";  // ZeRO paper: 2 (bf16 weights) + 2 (grads) + 4 (fp32 master) + 8 (Adam)
  s.optimizer = "adamw";
  auto full = llmcalc::estimate_finetune(model, s).full;
  double p = static_cast<double>(model.params.text);
  CHECK(static_cast<double>(full.weights_bytes) == Approx(2 * p));
  CHECK(static_cast<double>(full.gradients_bytes) == Approx(2 * p));
  CHECK(static_cast<double>(full.master_weights_bytes) == Approx(4 * p));
  CHECK(static_cast<double>(full.optimizer_bytes) == Approx(8 * p));
  // ZeRO-3 over 4 GPUs divides all four by 4 (plus one gathered layer of weights).
  s.gpus = 4;
  s.sharding = "zero3";
  auto sharded = llmcalc::estimate_finetune(model, s).full;
  CHECK(static_cast<double>(sharded.optimizer_bytes) == Approx(2 * p));
  CHECK(static_cast<double>(sharded.gradients_bytes) == Approx(p / 2));
  // 8-bit AdamW: 2 bytes of state per trainable parameter.
  s = llmcalc::FinetuneSettings{};
  s.optimizer = "adamw_8bit";
  CHECK(static_cast<double>(llmcalc::estimate_finetune(model, s).full.optimizer_bytes) == Approx(2 * p));
  // QLoRA base: linear weights at 4 + 8/64 + 32/16384 bits (NF4 with double-quantized absmax),
  // embeddings, head and norms in bf16; the adapters in bf16.
  auto q = llmcalc::estimate_finetune(model, llmcalc::FinetuneSettings{}).qlora;
  double kept = static_cast<double>(model.params.embedding + model.params.output_head + model.params.norms);
  double adapters = static_cast<double>(llmcalc::lora_parameters(model, 16, {"q", "k", "v", "o", "gate", "up", "down"}));
  CHECK(static_cast<double>(q.weights_bytes) ==
        Approx((p - kept) * (4.0 + 8.0 / 64 + 32.0 / 16384) / 8 + kept * 2 + adapters * 2));
}

TEST_CASE("Fine-tuning memory within 15% of Answer.AI's FSDP-QLoRA measurements", "[finetune][published]") {
  // Their train.py defaults (recorded per measurement): pure bf16, AdamW, gradient checkpointing,
  // FSDP full shard over 2 GPUs, peak = torch.cuda.max_memory_reserved. Runs with CPU offload are
  // left out (not modelled).
  auto data = llmcalc_test::read_test_data("finetune_measurements.json");
  int within_15 = 0;
  int compared = 0;
  for (const auto& r : data["records"]) {
    if (r.value("framework", "").find("fsdp_qlora") == std::string::npos) continue;
    if (r.value("cpu_offload", false) || r.value("estimate", false)) continue;
    std::string hint = r["model_hint"];
    std::string id = hint == "mistral-7b-v0.2" ? "mistral-7b-v0.3" : hint == "yi-34b" ? "yi-1.5-34b" : hint;
    nlohmann::json targets = nlohmann::json::array();
    for (const auto& t : r["lora_targets"]) {
      std::string name = t;
      targets.push_back(name.substr(0, name.find("_proj")));
    }
    std::string sharding = r.value("sharding", "none") == "fsdp" ? "fsdp" : "none";
    nlohmann::json request = {{"model", id},
                              {"finetune", {{"precision", "bf16"}, {"optimizer", "adamw"},
                                            {"lora_rank", r["lora_rank"]}, {"lora_targets", targets},
                                            {"micro_batch", r["micro_batch"]}, {"seq_len", r["seq_len"]},
                                            {"gpus", r["num_gpus"]}, {"sharding", sharding}}}};
    auto envelope = llmcalc_test::estimate(request);
    REQUIRE(envelope["ok"] == true);
    double predicted = envelope["result"]["finetune"][r["method"].get<std::string>()]["total_bytes"].get<double>();
    double measured = r["peak_memory_GB"].get<double>() * 1073741824.0;  // printed as GiB
    double error = (predicted - measured) / measured;
    INFO(id << " " << r["method"] << " mb" << r["micro_batch"] << " seq" << r["seq_len"] << " error " << error);
    CHECK(std::fabs(error) <= 0.20);
    within_15 += std::fabs(error) <= 0.15;
    ++compared;
  }
  CHECK(compared >= 10);
  CHECK(within_15 >= 6);
}

TEST_CASE("Fine-tuning names the cheapest device that holds each method", "[finetune]") {
  auto envelope = llmcalc_test::estimate({{"model", "llama-3.1-8b"}});
  REQUIRE(envelope["ok"] == true);
  const auto& ft = envelope["result"]["finetune"];
  for (const char* method : {"full", "lora", "qlora"}) {
    INFO(method);
    const auto& device = ft[method]["recommended_device"];
    REQUIRE(device.is_object());
    // The named device holds the method's total (discrete: memory - 512 MiB reserve)...
    auto check = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"hardware", device["id"]}, {"engine", "transformers"}});
    CHECK(check["result"]["memory"]["usable_bytes"].get<double>() >= ft[method]["total_bytes"].get<double>());
  }
  // ...and QLoRA never needs a dearer device than full fine-tuning.
  CHECK(ft["qlora"]["recommended_device"]["price_usd"].get<double>() <=
        ft["full"]["recommended_device"]["price_usd"].get<double>());
}
