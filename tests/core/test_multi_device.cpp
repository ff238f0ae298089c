// Several devices and machines (issue #20): published runs on unequal GPUs, over llama.cpp RPC
// and with vLLM / SGLang pipeline, data and expert parallel (tests/data/multi_device_runs.json),
// and the rules they follow checked by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

constexpr double kMiB = 1048576.0;
constexpr double kGiB = 1073741824.0;

// What a vLLM rank has left for its KV pool: its budget less everything else it holds.
double available_kv_bytes(const nlohmann::json& device) {
  return device["usable_bytes"].get<double>() -
         (device["total_bytes"].get<double>() - device["kv_cache_bytes"].get<double>());
}

nlohmann::json memory_of(const nlohmann::json& request) {
  nlohmann::json envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["memory"];
}

}  // namespace

TEST_CASE("Published runs on several devices: placement, memory per device and decode speed",
          "[multi_device][published]") {
  const nlohmann::json data = llmcalc_test::read_test_data("multi_device_runs.json");
  int compared = 0;
  for (const nlohmann::json& record : data.at("records")) {
    INFO("record " << record.at("id").get<std::string>() << " (" << record.at("source").get<std::string>() << ")");
    nlohmann::json envelope = llmcalc_test::estimate(record.at("request"));
    REQUIRE(envelope["ok"] == true);
    const nlohmann::json& result = envelope["result"];
    const nlohmann::json& memory = result["memory"];
    const nlohmann::json& expect = record.at("expect");
    if (expect.contains("layers_per_device")) {
      CHECK(memory["fit"]["layers_per_device"] == expect["layers_per_device"]);
    }
    if (expect.contains("device_weights_MiB")) {
      for (const auto& [index, mib] : expect["device_weights_MiB"].items()) {
        double bytes = memory["per_device"][std::stoul(index)]["weights_bytes"].get<double>();
        INFO("device " << index << ": estimated " << bytes / kMiB << " MiB, logged " << mib << " MiB");
        CHECK(llmcalc_test::within_log_tolerance(bytes, mib.get<double>()));
      }
    }
    if (expect.contains("device_kv_MiB")) {
      for (const auto& [index, mib] : expect["device_kv_MiB"].items()) {
        double bytes = memory["per_device"][std::stoul(index)]["kv_cache_bytes"].get<double>();
        INFO("device " << index << " KV: estimated " << bytes / kMiB << " MiB, logged " << mib << " MiB");
        CHECK(llmcalc_test::within_log_tolerance(bytes, mib.get<double>()));
      }
    }
    if (expect.contains("device_compute_MiB")) {
      for (const auto& [index, mib] : expect["device_compute_MiB"].items()) {
        double bytes = memory["per_device"][std::stoul(index)]["compute_bytes"].get<double>();
        INFO("device " << index << " compute: estimated " << bytes / kMiB << " MiB, logged " << mib << " MiB");
        CHECK(llmcalc_test::within_log_tolerance(bytes, mib.get<double>()));
      }
    }
    if (expect.contains("host_weights_MiB")) {
      // The log's CPU_Mapped buffers hold every mapped tensor, the tables llama.cpp reads on
      // demand (--lazy-mode) included.
      double bytes = memory["host"]["weights_bytes"].get<double>() + memory["host"]["lazy_weights_bytes"].get<double>();
      INFO("host: estimated " << bytes / kMiB << " MiB, logged " << expect["host_weights_MiB"] << " MiB");
      CHECK(llmcalc_test::within_log_tolerance(bytes, expect["host_weights_MiB"].get<double>()));
    }
    if (expect.contains("rank_weights_GiB")) {
      double bytes = memory["per_device"][0]["weights_bytes"].get<double>();
      INFO("rank weights: estimated " << bytes / kGiB << " GiB, logged " << expect["rank_weights_GiB"] << " GiB");
      CHECK(llmcalc_test::within_log_tolerance(bytes, expect["rank_weights_GiB"].get<double>() * 1024.0));
    }
    if (expect.contains("smallest_available_kv_GiB")) {
      double smallest = available_kv_bytes(memory["per_device"][0]);
      for (const nlohmann::json& device : memory["per_device"]) smallest = std::min(smallest, available_kv_bytes(device));
      INFO("available KV: estimated " << smallest / kGiB << " GiB, logged " << expect["smallest_available_kv_GiB"] << " GiB");
      CHECK(llmcalc_test::within_log_tolerance(smallest, expect["smallest_available_kv_GiB"].get<double>() * 1024.0));
    }
    if (expect.contains("max_concurrency")) {
      // What one request takes: the log's available KV over its "Maximum concurrency", within 2%.
      double per_request = expect["smallest_available_kv_GiB"].get<double>() * kGiB / expect["max_concurrency"].get<double>();
      INFO("KV per request: estimated " << llmcalc_test::kv_bytes_per_request(memory) / kMiB << " MiB, logged "
                                        << per_request / kMiB << " MiB");
      CHECK(llmcalc_test::kv_bytes_per_request(memory) == Approx(per_request).epsilon(0.02));
    }
    if (expect.contains("decode_tokens_per_s")) {
      // A server run reserves memory for its -c but decodes after a short prompt: the speed is
      // estimated at the tokens the run had in its cache (decode_context_tokens) when given.
      nlohmann::json decode = result["decode"];
      if (expect.contains("decode_context_tokens")) {
        nlohmann::json at_context = record.at("request");
        at_context["context_tokens"] = expect["decode_context_tokens"];
        nlohmann::json speed = llmcalc_test::estimate(at_context);
        REQUIRE(speed["ok"] == true);
        decode = speed["result"]["decode"];
      }
      double measured = expect["decode_tokens_per_s"].get<double>();
      INFO("decode: estimated " << decode["tokens_per_s"] << " [" << decode["low"] << ", " << decode["high"]
                                << "], measured " << measured);
      CHECK(decode["low"].get<double>() <= measured);
      CHECK(measured <= decode["high"].get<double>());
    }
    ++compared;
  }
  CHECK(compared == static_cast<int>(data.at("records").size()));
}

TEST_CASE("llama.cpp splits layers in proportion to each device's free memory without -ts",
          "[multi_device][llama_cpp]") {
  // src/llama-model.cpp load_tensors at b10256: with no -ts, each device's share is its free
  // memory. An RTX 4090 (24 GiB) and an RTX 3060 (12 GiB), each less the 512 MiB driver reserve:
  // 24,064 / (24,064 + 11,776) = 0.6714. Llama 3.1 8B has 32 layers + the output layer = 33
  // slots; slot i goes to the 4090 while i / 33 < 0.6714, i.e. slots 0-22: 23 layers there, 9
  // layers and the output on the 3060.
  nlohmann::json memory = memory_of({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 4096},
                                     {"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3060-12gb"}}}}});
  CHECK(memory["fit"]["layers_per_device"] == nlohmann::json::array({23, 9}));
  CHECK(memory["per_device"][0]["device"] == "rtx-4090");
  CHECK(memory["per_device"][1]["device"] == "rtx-3060-12gb");
  // Identical devices keep the equal split: 33 slots at 0.5 give 17 and 15 + output.
  nlohmann::json same = memory_of({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 4096},
                                   {"hardware", "rtx-4090"}, {"devices", 2}});
  CHECK(same["fit"]["layers_per_device"] == nlohmann::json::array({17, 15}));
}

TEST_CASE("llama.cpp lists the devices of other machines (RPC) before the head's", "[multi_device][llama_cpp]") {
  // src/llama.cpp at b10256: "add RPC servers at the front of the list to minimize network
  // transfers". The head's 4090 is listed last and takes the output layer.
  nlohmann::json memory = memory_of({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 4096},
                                     {"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3090"}, {"node", 1}}}},
                                     {"network", "ethernet-10g"}});
  CHECK(memory["per_device"][0]["device"] == "rtx-3090");
  CHECK(memory["per_device"][0]["node"] == 1);
  CHECK(memory["per_device"][1]["device"] == "rtx-4090");
  CHECK(memory["per_device"][1]["node"] == 0);
}

TEST_CASE("vLLM pipeline stages take get_pp_indices' layers", "[multi_device][servers]") {
  // vllm/distributed/utils.py get_pp_indices: n // pp layers each, the remainder one by one to
  // the stages before the last. DeepSeek V3's 61 layers: PP2 -> 31, 30 and PP4 -> 15, 15, 16,
  // 15 (the examples vLLM's documentation gives for a 61-layer model).
  for (const auto& [stages, layers] : std::vector<std::pair<int, std::vector<int>>>{{2, {31, 30}}, {4, {15, 15, 16, 15}}}) {
    nlohmann::json memory = memory_of({{"model", "deepseek-v3"}, {"weights", "FP8"}, {"engine", "vllm"},
                                       {"hardware", "h200-sxm"}, {"devices", 8}, {"nodes", stages},
                                       {"context_tokens", 8192}});
    std::vector<int> seen;
    for (int stage = 0; stage < stages; ++stage) seen.push_back(memory["per_device"][stage * 8]["layers"].get<int>());
    CHECK(seen == layers);
    CHECK(memory["per_device"].size() == static_cast<std::size_t>(8 * stages));
  }
}

TEST_CASE("Data-parallel attention keeps each replica's sequences whole on its own rank", "[multi_device][servers]") {
  // DeepSeek V3's MLA cache is one latent per token and layer: (512 + 64) x 2 B x 61 layers =
  // 70,272 B per token, on every tensor-parallel rank. 8 sequences of 32,768 tokens on 8 H200s:
  // TP8 keeps all 8 on each rank (8 x 32,768 x 70,272 = 18,421,383,168 B); DP8 one per rank
  // (2,302,672,896 B).
  nlohmann::json base = {{"model", "deepseek-v3"}, {"weights", "FP8"}, {"engine", "vllm"}, {"hardware", "h200-sxm"},
                         {"devices", 8}, {"context_tokens", 32768}, {"batch", 8}};
  nlohmann::json tp = memory_of(base);
  nlohmann::json dp_request = base;
  dp_request["parallel"] = {{"tensor", 1}, {"data", 8}, {"expert", true}};
  nlohmann::json dp = memory_of(dp_request);
  CHECK(tp["per_device"][0]["kv_cache_bytes"] == 18421383168LL);
  CHECK(dp["per_device"][0]["kv_cache_bytes"] == 2302672896LL);
}
