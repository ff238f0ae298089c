// Launch commands: every flag comes from the scenario, and no number appears that the scenario
// did not produce.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>

#include "llmcalc/api.h"
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

TEST_CASE("Fractional flags are written as printf's %g writes them", "[commands]") {
  // %g: six significant digits, trailing zeros dropped, exponent form below 1e-4 and from 1e6
  // (C11 7.21.6.1): 0.875 stays, 2/3 is 0.666667, 999,999.5 (shares stay below 1e6) rounds up to
  // 1e+06, 0.00001234 is 1.234e-05, 3.0 is 3.
  nlohmann::json request = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"devices", 4},
                            {"gpu_memory_utilization", 0.875},
                            {"tensor_split", {2.0 / 3.0, 999999.5, 0.00001234, 3.0}}};
  auto c = commands_for(request);
  CHECK(c["llama.cpp"]["flags"]["-ts"] == "0.666667,1e+06,1.234e-05,3");
  CHECK(c["vllm"]["flags"]["--gpu-memory-utilization"] == "0.875");
}

TEST_CASE("Each engine's command carries the scenario's values", "[commands]") {
  nlohmann::json request = {{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"kv_cache", "q8_0"},
                            {"context_tokens", 32768}, {"batch", 3},          {"devices", 2},
                            {"port", 9001},            {"ubatch", 1024},      {"gpu_memory_utilization", 0.85},
                            {"flash_attention", false}, {"tensor_split", {1, 1}}};
  auto c = commands_for(request);
  const auto& llama = c["llama.cpp"]["flags"];
  CHECK(llama["-c"] == "98304");  // 32,768 per slot x 3 slots (llama-server splits -c across -np)
  CHECK(llama["-np"] == "3");
  CHECK_FALSE(llama.contains("-ngl"));  // --fit chooses the layers
  CHECK(llama["-fa"] == "off");
  CHECK(llama["-ub"] == "1024");
  CHECK(llama["--cache-type-k"] == "q8_0");
  CHECK(llama["--cache-type-v"] == "q8_0");
  CHECK(llama["-ts"] == "1,1");
  CHECK(llama["--port"] == "9001");

  CHECK(c["ollama"]["env"]["OLLAMA_KV_CACHE_TYPE"] == "q8_0");
  CHECK(c["ollama"]["env"]["OLLAMA_NUM_PARALLEL"] == "3");
  CHECK(c["ollama"]["env"]["OLLAMA_FLASH_ATTENTION"] == "0");
  CHECK(c["ollama"]["env"]["OLLAMA_CONTEXT_LENGTH"] == "32768");

  const auto& vllm = c["vllm"]["flags"];
  CHECK(vllm["--max-model-len"] == "32768");
  CHECK(vllm["--gpu-memory-utilization"] == "0.85");
  CHECK(vllm["--tensor-parallel-size"] == "2");
  CHECK(vllm["--port"] == "9001");
  CHECK(c["vllm"]["command"].get<std::string>().rfind("vllm serve Qwen/Qwen3-30B-A3B ", 0) == 0);
  CHECK(c["vllm"]["docker"].get<std::string>().find("-p 9001:9001") != std::string::npos);

  const auto& sglang = c["sglang"]["flags"];
  CHECK(sglang["--context-length"] == "32768");
  // --tp-size, as server_args.py declares it (--tp only works as an argparse abbreviation).
  CHECK(sglang["--tp-size"] == "2");
  CHECK(c["sglang"]["command"].get<std::string>().rfind("sglang serve ", 0) == 0);

  // No number in any command that the scenario did not produce.
  std::set<std::string> allowed = {"32768", "98304", "3", "2", "9001", "1024", "0.85", "1",
                                   "4" /* MLX bits for a 4-bit format */, "0" /* flash attention off */};
  for (const auto& [engine, entry] : c.items()) {
    for (const std::string& n : numbers_in(entry["command"].get<std::string>())) {
      INFO(engine << ": " << entry["command"] << " contains " << n);
      CHECK(allowed.count(n) == 1);
    }
  }
}

TEST_CASE("vLLM's command states the memory fraction the estimate used, its 0.92 default too", "[commands][engines]") {
  // vLLM to v0.33: an unset --gpu-memory-utilization is 0.92 of the card, the budget the estimate
  // models (rule vllm_budget); from v0.34 an unset flag means the memory free after start-up less
  // a margin. Stated, the flag gives every release the budget the estimate shows.
  auto c = commands_for({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"}});
  CHECK(c["vllm"]["flags"]["--gpu-memory-utilization"] == "0.92");
  CHECK(c["vllm"]["command"].get<std::string>().find("--gpu-memory-utilization 0.92") != std::string::npos);
}

TEST_CASE("llama.cpp command: flags only where they differ from llama-server's defaults", "[commands][engines]") {
  // One sequence: no -np (llama-server's 4 automatic slots on a unified cache), no -ngl (--fit),
  // no -fa / -ub / cache types at their defaults; -c the requested context; --port always, as
  // llama-server's default moves from 8080 to 9931 (PR #26508).
  auto plain = commands_for({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 16384}});
  const auto& flags = plain["llama.cpp"]["flags"];
  std::string source = flags.contains("-hf") ? "-hf " + flags["-hf"].get<std::string>()
                                             : "-m " + flags["-m"].get<std::string>();
  CHECK(plain["llama.cpp"]["command"] == "llama-server " + source + " -c 16384 --port 8080");
  // Context left to the engine (0): no -c at all, and vLLM's --max-model-len auto.
  auto automatic = commands_for({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 0}});
  CHECK_FALSE(automatic["llama.cpp"]["flags"].contains("-c"));
  CHECK(automatic["vllm"]["flags"]["--max-model-len"] == "auto");
  // A model --fit offloads: no -ngl that would disable it, and a note with the placement.
  auto offload = commands_for({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-3070"},
                               {"context_tokens", 8192}});
  CHECK_FALSE(offload["llama.cpp"]["flags"].contains("-ngl"));
  CHECK(offload["llama.cpp"]["notes"].get<std::string>().find("--fit") != std::string::npos);
  // Settings the user pins appear: -ngl, --fit off, MTP drafting.
  auto pinned = commands_for({{"model", "qwen3.5-27b"}, {"weights", "Q4_K_M"}, {"gpu_layers", 20},
                              {"fit", false}, {"mtp", true}});
  CHECK(pinned["llama.cpp"]["flags"]["-ngl"] == "20");
  CHECK(pinned["llama.cpp"]["flags"]["--fit"] == "off");
  CHECK(pinned["llama.cpp"]["flags"]["--spec-type"] == "draft-mtp");
}

TEST_CASE("Ollama command: environment, not flags", "[commands][engines]") {
  // Ollama v0.32 takes the context, slots, flash attention and cache type from the server's
  // environment; left at their defaults they are not written.
  auto plain = commands_for({{"model", "qwen3-8b"}, {"engine", "ollama"}, {"context_tokens", 0}});
  CHECK(plain["ollama"]["env"].empty());
  CHECK(plain["ollama"]["command"] == "ollama serve & ollama run qwen3:8b");
  auto set = commands_for({{"model", "qwen3-8b"}, {"engine", "ollama"}, {"context_tokens", 65536},
                           {"batch", 2}, {"kv_cache", "q8_0"}});
  CHECK(set["ollama"]["command"] == "OLLAMA_CONTEXT_LENGTH=65536 OLLAMA_KV_CACHE_TYPE=q8_0 "
                                    "OLLAMA_NUM_PARALLEL=2 ollama serve & ollama run qwen3:8b");
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
  // NVFP4: vLLM's and SGLang's ModelOpt FP4 method; neither quantizes to it at load time, so the
  // note asks for a checkpoint already in NVFP4 (AWQ and GPTQ likewise; FP8 they make themselves).
  auto nvfp4 = commands_for({{"model", "llama-3.1-8b"}, {"weights", "NVFP4"}, {"hardware", "b200-sxm"}});
  CHECK(nvfp4["vllm"]["flags"]["--quantization"] == "modelopt_fp4");
  CHECK(nvfp4["sglang"]["flags"]["--quantization"] == "modelopt_fp4");
  CHECK(nvfp4["vllm"]["notes"].get<std::string>().find("already quantized to NVFP4") != std::string::npos);
  CHECK(awq["vllm"]["notes"].get<std::string>().find("already quantized to AWQ-INT4") != std::string::npos);
  CHECK(fp8["vllm"]["notes"].get<std::string>().find("already quantized") == std::string::npos);
  // SGLang's command names the same BF16 repository: the same note.
  CHECK(nvfp4["sglang"]["notes"].get<std::string>().find("already quantized to NVFP4") != std::string::npos);
  CHECK(awq["sglang"]["notes"].get<std::string>().find("already quantized to AWQ-INT4") != std::string::npos);
  CHECK(fp8["sglang"]["notes"].get<std::string>().find("already quantized") == std::string::npos);
  // llama.cpp: q8_0 stands in, and the note names the build that added an fp8 cache (release
  // b12274, "llama : Add FP8 KV-cache support (#28392)").
  CHECK(fp8["llama.cpp"]["flags"]["--cache-type-k"] == "q8_0");
  CHECK(fp8["llama.cpp"]["notes"].get<std::string>().find("b12274") != std::string::npos);
}

TEST_CASE("Catalog commands download what they run: -hf, hf.co and mlx-community repositories", "[commands][catalog]") {
  // Every model with a known GGUF repository gets `llama-server -hf <repo>:<quant>`; where a
  // repository's file list shows the quantization, that repository is the one named.
  int with_repo = 0;
  int models = 0;
  for (const auto& entry : llmcalc::Catalog::instance().models()) {
    ++models;
    const auto& record = entry.record();
    if (!record.contains("gguf_repos")) continue;
    ++with_repo;
    auto c = commands_for({{"model", entry.id}, {"weights", "Q4_K_M"}, {"hardware", "h200-sxm"}});
    INFO(entry.id << ": " << c["llama.cpp"]["command"]);
    std::string hf = c["llama.cpp"]["flags"].value("-hf", "");
    REQUIRE_FALSE(hf.empty());
    std::string repo = hf.substr(0, hf.rfind(':'));
    bool listed_anywhere = false;
    bool named_lists_it = false;
    for (const auto& published : record["gguf_repos"]) {
      for (const auto& quant : published["quants"]) {
        if (quant != "Q4_K_M") continue;
        listed_anywhere = true;
        if (published["repo"] == repo) named_lists_it = true;
      }
    }
    CHECK(named_lists_it == listed_anywhere);
    // Ollama runs the library tag or the same GGUF from Hugging Face.
    std::string ollama = c["ollama"]["command"].get<std::string>();
    CHECK((ollama.find("ollama run hf.co/") != std::string::npos ||
           (record["ollama_tag"].is_string() && ollama.find(record["ollama_tag"].get<std::string>()) != std::string::npos)));
  }
  // Issue #19: at least 90% of the catalog.
  CHECK(with_repo * 10 >= models * 9);
}

TEST_CASE("A model fetched from the Hub: its commands download that repository and file", "[commands][hub]") {
  // The page's "fetch by name" sends the config it read with the repository (and GGUF file) it
  // came from; the commands name them instead of a local path.
  const nlohmann::json config = llmcalc::Catalog::instance().find_model("qwen3-8b")->config();
  auto with = [&](nlohmann::json extra) {
    nlohmann::json request = {{"model", config}, {"weights", "Q4_K_M"}};
    request.update(extra);
    return commands_for(request);
  };
  // A checkpoint repository: vLLM, SGLang and the MLX conversion start from it.
  auto checkpoint = with({{"hf_repo", "Qwen/Qwen3-8B"}});
  CHECK(checkpoint["vllm"]["command"].get<std::string>().rfind("vllm serve Qwen/Qwen3-8B ", 0) == 0);
  CHECK(checkpoint["sglang"]["flags"]["--model-path"] == "Qwen/Qwen3-8B");
  CHECK(checkpoint["mlx"]["command"].get<std::string>().find("--hf-path Qwen/Qwen3-8B ") != std::string::npos);
  CHECK(checkpoint["llama.cpp"]["flags"].contains("-m"));  // no GGUF named: a local file
  // A GGUF file: the quantization its name carries is the -hf tag (unsloth's UD- kept), for
  // llama-server and for Ollama's hf.co pull.
  auto ud = with({{"hf_repo", "unsloth/Qwen3-8B-GGUF"}, {"hf_file", "Qwen3-8B-UD-Q4_K_XL.gguf"}});
  CHECK(ud["llama.cpp"]["flags"]["-hf"] == "unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL");
  CHECK(ud["ollama"]["command"].get<std::string>().find("ollama run hf.co/unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL") !=
        std::string::npos);
  // The first split in a folder: the tag is the folder's quantization; IQ4_XS beats its
  // substring-free neighbours; Q4_K_M is not mistaken for Q4_K.
  auto split = with({{"hf_repo", "unsloth/Qwen3-235B-A22B-GGUF"},
                     {"hf_file", "Q4_K_M/Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf"}});
  CHECK(split["llama.cpp"]["flags"]["-hf"] == "unsloth/Qwen3-235B-A22B-GGUF:Q4_K_M");
  auto iq = with({{"hf_repo", "bartowski/Qwen_Qwen3-8B-GGUF"}, {"hf_file", "Qwen_Qwen3-8B-IQ4_XS.gguf"}});
  CHECK(iq["llama.cpp"]["flags"]["-hf"] == "bartowski/Qwen_Qwen3-8B-GGUF:IQ4_XS");
  // A file whose name carries no quantization: --hf-repo and --hf-file; Ollama cannot pull it.
  auto plain = with({{"hf_repo", "someone/tiny-GGUF"}, {"hf_file", "model.gguf"}});
  CHECK(plain["llama.cpp"]["flags"]["--hf-repo"] == "someone/tiny-GGUF");
  CHECK(plain["llama.cpp"]["flags"]["--hf-file"] == "model.gguf");
  CHECK(plain["ollama"]["command"].get<std::string>().find("hf.co/") == std::string::npos);
}

TEST_CASE("Commands and the estimate say when the engine cannot run the selection", "[commands][engines]") {
  auto envelope_for = [](const nlohmann::json& request) { return llmcalc_test::estimate(request); };
  auto warned = [](const nlohmann::json& envelope) {
    for (const auto& issue : envelope["issues"]) {
      if (issue["code"] == "engine_cannot_run") return issue["path"] == "/engine";
    }
    return false;
  };
  // mlx-lm on an NVIDIA card; vLLM on a Mac; llama.cpp with an FP8 checkpoint; mlx-lm with a GGUF
  // K-quant on a Mac.
  auto mlx_nvidia = envelope_for({{"model", "qwen3-8b"}, {"engine", "mlx"}, {"weights", "MLX-4bit"}, {"hardware", "rtx-4090"}});
  CHECK(warned(mlx_nvidia));
  CHECK(mlx_nvidia["result"]["commands"]["mlx"]["unavailable"].get<std::string>().find("Apple silicon") != std::string::npos);
  auto vllm_mac = envelope_for({{"model", "qwen3-8b"}, {"engine", "vllm"}, {"weights", "BF16"}, {"hardware", "m4-max-128gb"}});
  CHECK(warned(vllm_mac));
  CHECK(vllm_mac["result"]["commands"]["vllm"]["unavailable"].get<std::string>().find("Metal") != std::string::npos);
  CHECK(vllm_mac["result"]["commands"]["mlx"]["unavailable"] == "");
  auto fp8_llama = envelope_for({{"model", "qwen3-8b"}, {"weights", "FP8"}});
  CHECK(warned(fp8_llama));
  CHECK(fp8_llama["result"]["commands"]["llama.cpp"]["unavailable"].get<std::string>().find("GGUF") != std::string::npos);
  auto gguf_mlx = envelope_for({{"model", "qwen3-8b"}, {"engine", "mlx"}, {"weights", "Q4_K_M"}, {"hardware", "m4-max-128gb"}});
  CHECK(warned(gguf_mlx));
  // What each engine runs raises nothing.
  for (const nlohmann::json& request :
       {nlohmann::json{{"model", "qwen3-8b"}, {"engine", "mlx"}, {"weights", "MLX-4bit"}, {"hardware", "m4-max-128gb"}},
        nlohmann::json{{"model", "qwen3-8b"}, {"engine", "vllm"}, {"weights", "FP8"}, {"hardware", "h100-sxm"}},
        nlohmann::json{{"model", "qwen3-8b"}, {"weights", "BF16"}, {"hardware", "rtx-4090"}}}) {
    INFO(request.dump());
    CHECK_FALSE(warned(envelope_for(request)));
  }
}

TEST_CASE("estimate's 'omit' leaves out commands, cost or fine-tune, the rest as in the whole answer", "[commands][request]") {
  nlohmann::json request = {{"model", "qwen3-32b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                            {"context_tokens", 32768}};
  const nlohmann::json whole = nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
  REQUIRE(whole["ok"] == true);
  request["omit"] = {"commands", "cost", "finetune"};
  const nlohmann::json part = nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
  REQUIRE(part["ok"] == true);
  nlohmann::json expected = whole["result"];
  for (const char* key : {"commands", "cost", "finetune"}) expected.erase(key);
  CHECK(part["result"] == expected);
  CHECK(part["issues"] == whole["issues"]);
  request["omit"] = {"cost"};
  const nlohmann::json no_cost = nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
  CHECK(!no_cost["result"].contains("cost"));
  CHECK(no_cost["result"]["commands"] == whole["result"]["commands"]);
  request["omit"] = {"commands", "speed"};
  const nlohmann::json bad = nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
  CHECK(bad["ok"] == false);
  CHECK(bad["issues"][0]["path"] == "/omit/1");
  request["omit"] = nlohmann::json::array();
  CHECK(nlohmann::json::parse(llmcalc::estimate_json(request.dump()))["issues"][0]["path"] == "/omit");
}

TEST_CASE("A repository whose config class or tokenizer is its own code gets --trust-remote-code where the engine loads that part through transformers", "[commands][engines]") {
  // Kimi K2's tokenizer is tokenization_kimi.TikTokenTokenizer, code in the repository; MiMo-V2's
  // config class is configuration_mimo_v2.MiMoV2Config, a model_type transformers does not ship
  // (data/models, remote_code with its evidence). vLLM and SGLang load both the config and the
  // tokenizer through transformers with the user's flag; mlx-lm only the tokenizer (its own
  // model classes read config.json): the engines' code cited in core/src/commands.cpp.
  auto has_flag = [](const nlohmann::json& command) { return command["flags"].contains("--trust-remote-code"); };
  auto kimi = commands_for({{"model", "kimi-k2"}, {"weights", "FP8"}, {"hardware", "h200-sxm"}, {"devices", 8}});
  CHECK(has_flag(kimi["vllm"]));
  CHECK(has_flag(kimi["sglang"]));
  CHECK(has_flag(kimi["mlx"]));
  CHECK(kimi["vllm"]["command"].get<std::string>().find(" --trust-remote-code") != std::string::npos);
  CHECK(kimi["vllm"]["notes"].get<std::string>().find("tokenizer") != std::string::npos);
  // No MLX repository at 8 bits is known for Kimi K2: the conversion loads the tokenizer too.
  std::string mlx = kimi["mlx"]["command"];
  REQUIRE(mlx.rfind("mlx_lm.convert", 0) == 0);
  CHECK(mlx.substr(0, mlx.find("&&")).find("--trust-remote-code") != std::string::npos);

  auto mimo = commands_for({{"model", "mimo-v2.5-pro"}, {"weights", "FP8"}, {"hardware", "h200-sxm"}, {"devices", 8}});
  CHECK(has_flag(mimo["vllm"]));
  CHECK(has_flag(mimo["sglang"]));
  CHECK_FALSE(has_flag(mimo["mlx"]));
  CHECK(mimo["sglang"]["notes"].get<std::string>().find("config class") != std::string::npos);

  // MiniCPM4-8B's config names model_type minicpm with its own AutoConfig class: transformers
  // registers no such type (huggingface/transformers issue #47732, August 2026: MiniCPM4 checkpoints
  // "require trust_remote_code=True") and vLLM's _CONFIG_REGISTRY lists none (config.py at 0036026e).
  auto minicpm = commands_for({{"model", "minicpm4-8b"}, {"weights", "BF16"}});
  CHECK(has_flag(minicpm["vllm"]));
  CHECK(has_flag(minicpm["sglang"]));
  CHECK_FALSE(has_flag(minicpm["mlx"]));

  // Llama 3.1's config has no auto_map and its tokenizer is tokenizer.json: nothing to trust.
  auto llama = commands_for({{"model", "llama-3.1-8b"}, {"weights", "BF16"}});
  for (const char* engine : {"vllm", "sglang", "mlx"}) CHECK_FALSE(has_flag(llama[engine]));
}

TEST_CASE("MLX runs a 16-bit format as it is and NVFP4 or MXFP4 in MLX's own mode, not an affine width read from the format's name", "[commands][engines]") {
  // "BF16" holds the digit 6: the width was read from the format's name, and BF16 became
  // mlx_lm.convert -q --q-bits 6. mlx-lm loads a Hub checkpoint at its own dtype (its README at
  // d78bf58e runs `mlx_lm.generate --model mistralai/Mistral-7B-Instruct-v0.3`).
  auto mlx = [](const char* model, const char* weights) {
    return commands_for({{"model", model}, {"weights", weights}, {"hardware", "m4-max-128gb"}})["mlx"]["command"].get<std::string>();
  };
  // Qwen3-8B: no 16-bit mlx-community repository in its record; Qwen3.5-27B: mlx-community/Qwen3.5-27B-bf16
  // (data/models, mlx_repos bits 16).
  CHECK(mlx("qwen3-8b", "BF16") == "mlx_lm.server --model Qwen/Qwen3-8B");
  CHECK(mlx("qwen3-8b", "FP16") == "mlx_lm.server --model Qwen/Qwen3-8B");
  CHECK(mlx("qwen3.5-27b", "BF16") == "mlx_lm.server --model mlx-community/Qwen3.5-27B-bf16");
  // Quantized formats keep their MLX width: Q6_K -> 6 bits, Q8_0 -> 8.
  CHECK(mlx("qwen3-8b", "Q6_K").find("--q-bits 6 ") != std::string::npos);
  CHECK(mlx("qwen3-8b", "Q8_0").find("--q-bits 8 ") != std::string::npos);
  // Q5 types: MLX's 5 bits (mlx_lm/BENCHMARKS.md at d78bf58e: mlx-community/Qwen3-4B-Instruct-2507-5bit).
  CHECK(mlx("qwen3-8b", "Q5_K_M").find("--q-bits 5 ") != std::string::npos);
  // 2-bit and 1-bit GGUF types: MLX's 2 bits (mlx_lm/convert.py's mixed_2_6 recipe uses them), not 4.
  CHECK(mlx("qwen3-8b", "IQ2_XXS").find("--q-bits 2 ") != std::string::npos);
  CHECK(mlx("qwen3-8b", "Q2_K").find("--q-bits 2 ") != std::string::npos);
  CHECK(mlx("qwen3-8b", "IQ1_M").find("--q-bits 2 ") != std::string::npos);
  // NVFP4 and MXFP4 are MLX quantization modes of their own (mlx_lm.convert --q-mode, d78bf58e),
  // not 4-bit affine: a published repository in that mode (Qwen3.6-27B: mlx-community/Qwen3.6-27B-nvfp4),
  // else the conversion to it.
  CHECK(mlx("qwen3.6-27b", "NVFP4") == "mlx_lm.server --model mlx-community/Qwen3.6-27B-nvfp4");
  CHECK(mlx("qwen3-8b", "NVFP4").find("-q --q-mode nvfp4 --mlx-path qwen3-8b-mlx-nvfp4 ") != std::string::npos);
  CHECK(mlx("qwen3-8b", "MXFP4").find("-q --q-mode mxfp4 ") != std::string::npos);
}

TEST_CASE("vLLM's command asks for checkpoint weights only for a GGUF file type that is no checkpoint format", "[commands][engines]") {
  // BF16 names a GGUF file type and a checkpoint format (data/formats/checkpoint_formats.json):
  // vLLM serves the BF16 checkpoint, so its note must not ask for BF16 weights. Q4_K_M and F16 are
  // GGUF spellings only (the checkpoint's 16-bit float is FP16).
  auto asks = [](const std::string& weights) {
    auto commands = commands_for({{"model", "llama-3.1-8b"}, {"weights", weights}, {"engine", "vllm"}});
    return commands["vllm"]["notes"].get<std::string>().find("vLLM serves safetensors checkpoints") != std::string::npos;
  };
  CHECK_FALSE(asks("BF16"));
  CHECK_FALSE(asks("FP16"));
  CHECK_FALSE(asks("FP8"));
  CHECK(asks("Q4_K_M"));
  CHECK(asks("F16"));
}

TEST_CASE("Each remote_code fact in data/models carries its evidence, and a config only its own class can read declares one", "[commands][catalog]") {
  int declared = 0;
  for (const auto& entry : llmcalc::Catalog::instance().models()) {
    const nlohmann::json record = llmcalc_test::data_record("models/" + entry.id + ".json");
    const nlohmann::json& config = entry.config();
    std::string config_class;
    if (config.contains("auto_map") && config["auto_map"].contains("AutoConfig")) config_class = config["auto_map"]["AutoConfig"];
    INFO(entry.id);
    // transformers' AutoConfig finds a class by model_type; a config without one that names its
    // own AutoConfig class loads only from the repository's code (MiniCPM's first releases).
    if (!config_class.empty() && !config.contains("model_type")) {
      REQUIRE(record.contains("remote_code"));
      CHECK(record["remote_code"]["part"] == "config");
    }
    if (!record.contains("remote_code")) continue;
    ++declared;
    std::string part = record["remote_code"].at("part");
    std::string evidence = record["remote_code"].at("evidence");
    CHECK((part == "config" || part == "tokenizer"));
    CHECK(evidence.size() > 40);
    // A config class said to be the repository's own is the one its auto_map names.
    if (part == "config") CHECK(evidence.find(config_class) != std::string::npos);
  }
  CHECK(declared >= 12);  // the twelve records of the thirty-third session's survey
}
