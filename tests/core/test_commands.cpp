// Launch commands: every flag comes from the scenario, and no number appears that the scenario
// did not produce.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>

#include "test_support.h"

namespace {

nlohmann::json commands_for(const nlohmann::json& request) {
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["commands"];
}

// Every number written in a command (model names such as "qwen3-30b-a3b" excluded by the
// word boundaries).
std::set<std::string> numbers_in(const std::string& command) {
  std::set<std::string> out;
  std::regex number(R"((^|[\s=,:])(\d+(\.\d+)?)(?=$|[\s,]))");
  for (auto it = std::sregex_iterator(command.begin(), command.end(), number); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[2].str());
  }
  return out;
}

}  // namespace

TEST_CASE("Each engine's command carries the scenario's values", "[commands]") {
  nlohmann::json request = {{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"kv_cache", "q8_0"},
                            {"context_tokens", 32768}, {"batch", 3},          {"devices", 2},
                            {"port", 9001},            {"ubatch", 1024},      {"gpu_memory_utilization", 0.85},
                            {"flash_attention", false}};
  auto c = commands_for(request);
  const auto& llama = c["llama.cpp"]["flags"];
  CHECK(llama["-c"] == "98304");  // 32,768 per slot x 3 slots (llama-server splits -c across -np)
  CHECK(llama["-np"] == "3");
  CHECK(llama["-ngl"] == "49");   // 48 layers + output
  CHECK(llama["-fa"] == "off");
  CHECK(llama["-ub"] == "1024");
  CHECK(llama["--cache-type-k"] == "q8_0");
  CHECK(llama["--cache-type-v"] == "q8_0");
  CHECK(llama["-ts"] == "1,1");
  CHECK(llama["--port"] == "9001");

  CHECK(c["ollama"]["env"]["OLLAMA_KV_CACHE_TYPE"] == "q8_0");
  CHECK(c["ollama"]["env"]["OLLAMA_NUM_PARALLEL"] == "3");
  CHECK(c["ollama"]["env"]["OLLAMA_FLASH_ATTENTION"] == "0");
  CHECK(c["ollama"]["modelfile"].get<std::string>().find("PARAMETER num_ctx 32768") != std::string::npos);

  const auto& vllm = c["vllm"]["flags"];
  CHECK(vllm["--max-model-len"] == "32768");
  CHECK(vllm["--gpu-memory-utilization"] == "0.85");
  CHECK(vllm["--tensor-parallel-size"] == "2");
  CHECK(vllm["--max-num-seqs"] == "3");
  CHECK(vllm["--port"] == "9001");
  CHECK(c["vllm"]["command"].get<std::string>().rfind("vllm serve Qwen/Qwen3-30B-A3B ", 0) == 0);
  CHECK(c["vllm"]["docker"].get<std::string>().find("-p 9001:9001") != std::string::npos);

  const auto& sglang = c["sglang"]["flags"];
  CHECK(sglang["--context-length"] == "32768");
  CHECK(sglang["--tp"] == "2");
  CHECK(sglang["--max-running-requests"] == "3");

  // No number in any command that the scenario did not produce.
  std::set<std::string> allowed = {"32768", "98304", "3", "2", "9001", "1024", "0.85", "49", "1",
                                   "0.88" /* SGLang mem_fraction_static default, in scenario */,
                                   "4" /* MLX bits for a 4-bit format */, "0" /* flash attention off */};
  for (const auto& [engine, entry] : c.items()) {
    for (const std::string& n : numbers_in(entry["command"].get<std::string>())) {
      INFO(engine << ": " << entry["command"] << " contains " << n);
      CHECK(allowed.count(n) == 1);
    }
  }
}

TEST_CASE("Checkpoint formats get the server's --quantization flag", "[commands]") {
  auto awq = commands_for({{"model", "qwen2.5-7b"}, {"weights", "AWQ-INT4"}, {"engine", "vllm"}});
  CHECK(awq["vllm"]["flags"]["--quantization"] == "awq");
  CHECK(awq["sglang"]["flags"]["--quantization"] == "awq");
  auto fp8 = commands_for({{"model", "llama-3.1-8b"}, {"weights", "FP8"}, {"kv_cache", "fp8"}});
  CHECK(fp8["vllm"]["flags"]["--quantization"] == "fp8");
  CHECK(fp8["vllm"]["flags"]["--kv-cache-dtype"] == "fp8");
  auto bf16 = commands_for({{"model", "llama-3.1-8b"}, {"weights", "BF16"}});
  CHECK_FALSE(bf16["vllm"]["flags"].contains("--quantization"));
}
