// The vision projector llama-server loads beside a vision model (core/src/mmproj_memory.cpp)
// against llama.cpp logs of 2026 that print its size and its warm-up buffer.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "mmproj_memory.h"
#include "test_support.h"

namespace {

constexpr double kMiB = 1048576.0;
constexpr int64_t kMiBytes = 1048576;

double within(double estimated_bytes, double logged_mib) {
  return std::fabs(estimated_bytes / kMiB - logged_mib) / logged_mib;
}

}  // namespace

TEST_CASE("The projector's file and warm-up buffer match llama.cpp's clip lines of 2026", "[mmproj][engine_logs]") {
  // llama-server -hf unsloth/Qwen3.6-27B-MTP-GGUF:UD-Q4_K_XL on an RTX 5090, 2026-05-14, flash
  // attention on (search-index file id 56678392724): "loaded multimodal model, ...mmproj-BF16.gguf",
  // "load_hparams: model size: 887.99 MiB", "warmup with image size = 1472 x 1472",
  // "alloc_compute_meta: CUDA0 compute buffer size = 248.10 MiB".
  auto qwen = llmcalc::mmproj_memory(llmcalc_test::catalog_model("qwen3.6-27b"), true);
  CHECK(qwen.warmup_side == 1472);
  CHECK(within(static_cast<double>(qwen.weights_bytes), 887.99) < 0.02);
  CHECK(within(static_cast<double>(qwen.compute_bytes), 248.10) < 0.02);
  // Without flash attention the same tower's warm-up asked for 4,657.81 MiB on a Tesla P100
  // ("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4657.81 MiB on device 0", "warmup:
  // flash attention is disabled"; a downstream test fixture transcribing the log, search-index
  // file id 58091952734).
  auto qwen_no_fa = llmcalc::mmproj_memory(llmcalc_test::catalog_model("qwen3.6-27b"), false);
  CHECK(within(static_cast<double>(qwen_no_fa.compute_bytes), 4657.81) < 0.02);
  // llama-mtmd-cli with ggml-org/gemma-3-4b-it-GGUF (Q4_K_M) on an NVIDIA L4, ggml-org/llama.cpp
  // PR #22790 (2026-05-07): "load_hparams: model size: 811.79 MiB", "warmup with image size =
  // 896 x 896", "alloc_compute_meta: CUDA0 compute buffer size = 121.25 MiB".
  auto gemma = llmcalc::mmproj_memory(llmcalc_test::catalog_model("gemma-3-4b"), true);
  CHECK(gemma.warmup_side == 896);
  CHECK(within(static_cast<double>(gemma.weights_bytes), 811.79) < 0.02);
  CHECK(within(static_cast<double>(gemma.compute_bytes), 121.25) < 0.02);
  // A text-only model has none.
  auto text = llmcalc::mmproj_memory(llmcalc_test::catalog_model("llama-3.1-8b"), true);
  CHECK(text.weights_bytes == 0);
  CHECK(text.compute_bytes == 0);
}

TEST_CASE("llama-server and Ollama hold a vision model's projector on the first GPU; --no-mmproj drops it",
          "[mmproj][engines]") {
  for (const char* engine : {"llama.cpp", "ollama"}) {
    INFO(engine);
    nlohmann::json request = {{"model", "qwen3.6-27b"}, {"weights", "Q4_K_M"}, {"engine", engine},
                              {"hardware", "rtx-4090"}, {"devices", 2}, {"context_tokens", 8192}};
    auto with = llmcalc_test::estimate(request)["result"];
    request["mmproj"] = false;
    auto without = llmcalc_test::estimate(request)["result"];
    const nlohmann::json& memory = with["memory"];
    int64_t projector = memory["projector_bytes"].get<int64_t>();
    CHECK(projector > 0);
    CHECK(memory["per_device"][0]["projector_bytes"] == projector);
    CHECK_FALSE(memory["per_device"][1].contains("projector_bytes"));
    CHECK(memory["per_device"][0]["total_bytes"].get<int64_t>() ==
          without["memory"]["per_device"][0]["total_bytes"].get<int64_t>() + projector);
    CHECK_FALSE(without["memory"].contains("projector_bytes"));
  }
  nlohmann::json off = {{"model", "qwen3.6-27b"}, {"weights", "Q4_K_M"}, {"engine", "llama.cpp"}, {"mmproj", false}};
  std::string command = llmcalc_test::estimate(off)["result"]["commands"]["llama.cpp"]["command"];
  CHECK(command.find("--no-mmproj") != std::string::npos);
}

TEST_CASE("A 16-bit GGUF holds the text model: llama.cpp counts the towers once, in the projector", "[mmproj][engines]") {
  // llama.cpp's converter writes a vision model's towers to the mmproj file, whatever the text
  // file's type: Ornith-1.5-35B-A3B's BF16 GGUF (the shapes of Qwen3.6-35B-A3B) is 71,066,994,400
  // B for 35,505,251,456 parameters, the text model and its MTP layer without the 446,571,248 of
  // vision tower and projector (tests/data/gguf_file_sizes.json). vLLM loads the checkpoint whole.
  auto weights = [](const char* engine) {
    auto result = llmcalc_test::estimate({{"model", "qwen3.6-35b-a3b"}, {"weights", "BF16"}, {"engine", engine},
                                          {"hardware", "h200-sxm"}, {"context_tokens", 8192}})["result"];
    return std::make_pair(result["memory"]["weights_bytes"].get<int64_t>(), result["params"]);
  };
  auto [llama, params] = weights("llama.cpp");
  auto [vllm, unused] = weights("vllm");
  int64_t towers = params["vision"].get<int64_t>() + params["projector"].get<int64_t>();
  CHECK(towers == 446571248);
  CHECK(llama == vllm - 2 * towers);  // every tower tensor is BF16 in the checkpoint
  CHECK(weights("ollama").first == llama);
}

TEST_CASE("A repository's published projector file is what -hf loads, where the record gives it", "[mmproj][engines]") {
  // meta-models/Muse-Glimmer-30B-GGUF holds one projector, mmproj-Muse-Glimmer-30B-Q4_K_M.gguf of
  // 1,400,328,928 B (its file list, search-index file ids 68635025417 and 59786093522): the
  // Q4_K_M command's repository. No warm-up size is known for this tower, so no buffer is added.
  auto result = llmcalc_test::estimate({{"model", "muse-glimmer-30b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"}})["result"];
  CHECK(result["commands"]["llama.cpp"]["command"].get<std::string>().find("meta-models/Muse-Glimmer-30B-GGUF:Q4_K_M") !=
        std::string::npos);
  CHECK(result["memory"]["projector_bytes"] == 1400328928);
  // unsloth's repository publishes several projectors; its UD file gets the tower counted at 16 bits
  // (1,921,845,760 parameters: 2 B each, and 2 B more for each of the vectors' elements).
  auto unsloth = llmcalc_test::estimate({{"model", "muse-glimmer-30b"}, {"weights", "UD-Q4_K_XL"}, {"hardware", "rtx-4090"}})["result"];
  CHECK(unsloth["memory"]["projector_bytes"].get<int64_t>() > 2 * 1921845760LL);
  // unsloth's MiniMax-M3 files are text-only conversions (llama.cpp PR #24523; mmproj_bytes 0):
  // -hf finds no projector there, though the model has a vision tower.
  CHECK(llmcalc_test::catalog_model("minimax-m3").params.vision > 0);
  auto m3 = llmcalc_test::estimate({{"model", "minimax-m3"}, {"weights", "Q4_K_M"}, {"hardware", "h200-sxm"}, {"devices", 2}})["result"];
  CHECK_FALSE(m3["memory"].contains("projector_bytes"));
}

TEST_CASE("Ollama keeps the projector in RAM by its own rules, and otherwise widens --fit's margin for it",
          "[mmproj][engines]") {
  // llm/llama_server.go at ollama/ollama@fb3076099 (shouldDisableMMProjOffload, mmprojFitTargetMiB).
  // Qwen3.6-27B's projector: the warm-up buffer at 1472 px is (1472/16)^2 = 8464 patches x (4304 +
  // 3 x 1152) x 4 B = 262,722,560 B; the rest of projector_bytes is the tensors W.
  nlohmann::json request = {{"model", "qwen3.6-27b"}, {"weights", "Q4_K_M"}, {"engine", "ollama"},
                            {"hardware", "rtx-4090"}, {"devices", 2}, {"context_tokens", 8192}};
  auto padded = llmcalc_test::estimate(request)["result"]["memory"];
  int64_t weights = padded["projector_bytes"].get<int64_t>() - 8464LL * (4304 + 3 * 1152) * 4;
  // LLAMA_ARG_FIT_TARGET = ceil((W + 1 GiB) / MiB) on every GPU, in place of llama-server's 1024 MiB.
  int64_t target_mib = (weights + 1024 * kMiBytes + kMiBytes - 1) / kMiBytes;
  request["mmproj"] = false;
  auto plain = llmcalc_test::estimate(request)["result"]["memory"];
  for (int d = 0; d < 2; ++d) {
    INFO("GPU " << d);
    CHECK(padded["per_device"][d]["usable_bytes"].get<int64_t>() ==
          plain["per_device"][d]["usable_bytes"].get<int64_t>() + (1024 - target_mib) * kMiBytes);
  }
  // A margin of the user's (LLAMA_ARG_FIT_TARGET) is left as given.
  request["mmproj"] = true;
  request["fit_target_bytes"] = 2048 * kMiBytes;
  auto own = llmcalc_test::estimate(request)["result"]["memory"];
  request["mmproj"] = false;
  auto own_plain = llmcalc_test::estimate(request)["result"]["memory"];
  CHECK(own["per_device"][0]["usable_bytes"] == own_plain["per_device"][0]["usable_bytes"]);
  request["mmproj"] = true;
  CHECK(llmcalc_test::estimate(request)["result"]["commands"]["ollama"]["env"]["LLAMA_ARG_FIT_TARGET"] == "2048");
  // num_gpu below the layers + 1 ("partial-text-offload"): --no-mmproj-offload, the projector in RAM.
  request.erase("fit_target_bytes");
  request["mmproj"] = true;
  request["gpu_layers"] = 20;
  auto partial = llmcalc_test::estimate(request)["result"]["memory"];
  CHECK(partial["host"]["projector_bytes"] == partial["projector_bytes"]);
  CHECK_FALSE(partial["per_device"][0].contains("projector_bytes"));
  // llama-server itself keeps it on the first GPU with the same -ngl.
  request["engine"] = "llama.cpp";
  auto llama = llmcalc_test::estimate(request)["result"]["memory"];
  CHECK(llama["per_device"][0]["projector_bytes"] == llama["projector_bytes"]);
}
