// The sentences the core writes for people (warnings, command notes, what an engine cannot run,
// the "show the math" formulas) in Spanish with "lang": "es" (issue #21 item 11), English by
// default, and nothing else accepted.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_support.h"

namespace {

// Every sentence of an answer: its warnings, each engine's notes and "unavailable", the formulas.
std::vector<std::string> sentences(const nlohmann::json& envelope) {
  std::vector<std::string> out;
  for (const auto& issue : envelope["issues"]) out.push_back(issue["message"]);
  const auto& result = envelope["result"];
  for (const auto& [engine, command] : result["commands"].items()) {
    for (const char* key : {"notes", "unavailable"}) {
      if (command.contains(key) && !command[key].get<std::string>().empty()) out.push_back(command[key]);
    }
  }
  for (const auto& line : result["memory"]["math"]) out.push_back(line["formula"]);
  return out;
}

// Whether a sentence has English words in it (a bare formula such as MLX's compute buffer,
// "512 x 4 x max(4 x n_ff, ...)", reads the same in both languages).
bool has_prose(const std::string& text) {
  for (const char* word : {" the ", " of ", " per ", " on ", " in ", " is ", " not ", " for ", " and ", "memory", "sliding",
                           "sum "}) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("The core's sentences in Spanish: each one differs from its English", "[language]") {
  // Requests that make the core say many things: a model that needs --fit offload on a small card
  // (placement note), a prompt longer than the context and a context above the native window
  // (warnings), vLLM on a Mac (cannot run, its warning), a GGUF format for vLLM, a q8_0 cache,
  // several machines (the RPC note), MLX on a GPU.
  std::vector<nlohmann::json> requests = {
      {{"model", "qwen3-235b-a22b"}, {"hardware", "rtx-3060-12gb"}, {"context_tokens", 4096}, {"prompt_tokens", 9000}},
      {{"model", "qwen3-8b"}, {"engine", "vllm"}, {"weights", "BF16"}, {"hardware", "m4-max-128gb"}},
      {{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"kv_cache", "q8_0"}, {"context_tokens", 200000}},
      {{"model", "llama-3.1-8b"}, {"hardware", "rtx-4090"}, {"nodes", 2}, {"kv_cache", "fp8"}},
      {{"model", "gemma-3-27b"}, {"engine", "mlx"}, {"hardware", "rtx-4090"}, {"weights", "Q4_K_M"}},
  };
  int compared = 0;
  for (nlohmann::json request : requests) {
    INFO(request.dump());
    auto english = llmcalc_test::estimate(request);
    request["lang"] = "es";
    auto spanish = llmcalc_test::estimate(request);
    REQUIRE(english["ok"] == true);
    REQUIRE(spanish["ok"] == true);
    std::vector<std::string> en = sentences(english);
    std::vector<std::string> es = sentences(spanish);
    REQUIRE(en.size() == es.size());
    for (std::size_t i = 0; i < en.size(); ++i) {
      if (!has_prose(en[i])) continue;
      INFO(en[i]);
      CHECK(en[i] != es[i]);
      ++compared;
    }
    // The figures do not depend on the language.
    CHECK(english["result"]["memory"]["total_bytes"] == spanish["result"]["memory"]["total_bytes"]);
  }
  CHECK(compared >= 30);
}

TEST_CASE("Spanish sentences say what the English ones say", "[language]") {
  auto offload = llmcalc_test::estimate({{"model", "qwen3-235b-a22b"}, {"hardware", "rtx-3060-12gb"},
                                         {"context_tokens", 4096}, {"prompt_tokens", 9000}, {"lang", "es"}});
  REQUIRE(offload["ok"] == true);
  CHECK(offload["issues"][0]["message"] == "El prompt es más largo que el contexto; se toma como el contexto.");
  std::string notes = offload["result"]["commands"]["llama.cpp"]["notes"];
  CHECK(notes.find("--fit (activo por defecto) deja ") != std::string::npos);
  CHECK(notes.find(" capas en la GPU y los expertos enrutados de ") != std::string::npos);
  CHECK(offload["result"]["commands"]["mlx"]["unavailable"] == "mlx-lm funciona en Apple silicon; NVIDIA GeForce RTX 3060 12GB no es un Mac.");
  CHECK(offload["result"]["memory"]["math"][3]["formula"] == "memoria - reserva - --fit-target, por dispositivo");
}

TEST_CASE("lang is en or es", "[language][bad_input]") {
  auto english = llmcalc_test::estimate({{"model", "llama-3.1-8b"}});
  CHECK(english["result"]["memory"]["math"][0]["formula"].get<std::string>().rfind("sum over tensors", 0) == 0);
  for (const nlohmann::json& bad : {nlohmann::json("fr"), nlohmann::json(3), nlohmann::json("")}) {
    auto refused = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"lang", bad}});
    CHECK(refused["ok"] == false);
    CHECK(refused["issues"][0]["path"] == "/lang");
  }
}
