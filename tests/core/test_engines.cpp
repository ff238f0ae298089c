// Engine behaviours of the releases in data/engines.json, each checked by hand or against the
// rule it follows, and the registry itself: every behaviour names tests that exist and a README
// row.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.h"

namespace {

constexpr int64_t kMiB = 1048576;
constexpr int64_t kGiB = 1073741824;

nlohmann::json result_of(const nlohmann::json& request) {
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  return envelope["result"];
}

std::string read_text(const std::string& path_from_tests_data) {
  std::ifstream in(std::string(LLMCALC_TEST_DATA_DIR) + "/" + path_from_tests_data);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("--fit shrinks the context only when -c is not given", "[engines][fit]") {
  // Llama 3.1 8B Q8_0 on an RTX 4090 without -c: its trained 131,072 tokens need 16 GiB of KV
  // beside 7.95 GiB of weights, over the 22.5 GiB --fit allows (24 GiB - 512 MiB reserve -
  // 1 GiB margin). common/fit.cpp interpolates linearly between --fit-ctx (4096) and 131,072 on
  // the projected memory and rounds down to 256. Memory is linear in cells here, so the answer
  // is the largest whole-256 context that fits: the same as the largest context with -c pinned,
  // or one 256-step below it (the interpolation's integer division).
  auto automatic = result_of({{"model", "llama-3.1-8b"}, {"weights", "Q8_0"}, {"hardware", "rtx-4090"},
                              {"context_tokens", 0}});
  const auto& fit = automatic["memory"]["fit"];
  CHECK(fit["status"] == "context_reduced");
  int64_t chosen = fit["context_tokens"].get<int64_t>();
  CHECK(chosen % 256 == 0);
  CHECK(automatic["scenario"]["context_tokens"] == chosen);
  CHECK(automatic["memory"]["verdict"] != "offload");
  int64_t largest = automatic["memory"]["max_context_tokens"].get<int64_t>();
  CHECK(chosen <= largest);
  CHECK(chosen >= largest - 256);
  // With -c 131072 given, --fit keeps the context and moves layers to system RAM instead.
  auto pinned = result_of({{"model", "llama-3.1-8b"}, {"weights", "Q8_0"}, {"hardware", "rtx-4090"},
                           {"context_tokens", 131072}});
  CHECK(pinned["memory"]["fit"]["status"] == "offload");
  CHECK(pinned["memory"]["fit"]["context_tokens"] == 131072);
  CHECK(pinned["memory"]["host"]["layers"].get<int64_t>() > 0);
}

TEST_CASE("Without -c, --fit sized one cache for all of llama-server's slots in b10999..b11200 (PR #28849, reverted)", "[engines][fit]") {
  // Qwen3-0.6B (config.json: 28 layers, 8 KV heads of 128) caches 28 x 8 x 128 x 2 (K, V) x 2 B
  // = 114,688 B per token in f16. llama-server's 4 automatic slots share one unified cache.
  // Today (from b11201, PR #29437 reverted #28849) --fit starts from the trained 40,960 cells.
  nlohmann::json request = {{"model", "qwen3-0.6b"}, {"weights", "Q8_0"}, {"hardware", "rtx-4090"},
                            {"context_tokens", 0}};
  auto now = result_of(request);
  CHECK(now["memory"]["fit"]["status"] == "fits");
  CHECK(now["memory"]["fit"]["auto_slots"] == 0);
  CHECK(now["memory"]["fit"]["cache_tokens"] == 40960);
  CHECK(now["memory"]["kv_cache_bytes"] == 40960LL * 114688);
  CHECK(now["scenario"]["context_tokens"] == 40960);
  // b11146 (v0.5.0), inside the window: n_ctx_train x 4 = 163,840 cells, which fit a 24 GB card
  // (17,920 MiB of cache), each slot capped at the trained 40,960.
  for (int64_t build : {10999, 11146, 11200}) {
    request["llama_cpp_build"] = build;
    auto within = result_of(request);
    const auto& fit = within["memory"]["fit"];
    CHECK(fit["status"] == "fits");
    CHECK(fit["auto_slots"] == 4);
    CHECK(fit["cache_tokens"] == 163840);
    CHECK(fit["context_tokens"] == 40960);
    CHECK(within["memory"]["kv_cache"]["cells"] == 163840);
    CHECK(within["memory"]["kv_cache_bytes"] == 163840LL * 114688);
    CHECK(within["scenario"]["context_tokens"] == 40960);
  }
  // Before it (b10998) and after the revert (b11201): the trained context alone.
  for (int64_t build : {10998, 11201}) {
    request["llama_cpp_build"] = build;
    auto outside = result_of(request);
    CHECK(outside["memory"]["fit"]["auto_slots"] == 0);
    CHECK(outside["memory"]["fit"]["cache_tokens"] == 40960);
    CHECK(outside["memory"]["kv_cache_bytes"] == 40960LL * 114688);
  }
  // -c given: the cache is what it says, whatever the build.
  request["llama_cpp_build"] = 11146;
  request["context_tokens"] = 8192;
  CHECK(result_of(request)["memory"]["fit"]["cache_tokens"] == 8192);
  // -np 2 without -kvu: one stream per slot, each of the trained context (PR #27496).
  request["context_tokens"] = 0;
  request["batch"] = 2;
  auto streams = result_of(request);
  CHECK(streams["memory"]["fit"]["auto_slots"] == 0);
  CHECK(streams["memory"]["fit"]["cache_tokens"] == 2 * 40960);
  CHECK(streams["memory"]["fit"]["context_tokens"] == 40960);

  // Llama 3.1 8B Q4_K_M: 131,072 x 4 cells need 64 GiB of cache (32 layers x 8 x 128 x 2 x 2 B
  // = 128 KiB per token), so --fit shrinks the shared cache by linear interpolation toward 4,096.
  // Memory is linear in cells, so it lands on the largest whole-256 cache that fits, or one step
  // below: -c of that many cells fits as it is, and 512 more do not. It fills the card to its
  // margin, beyond one slot's 131,072.
  nlohmann::json llama = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                          {"context_tokens", 0}, {"llama_cpp_build", 11146}};
  auto full = result_of(llama);
  const auto& shrunk = full["memory"]["fit"];
  CHECK(shrunk["status"] == "context_reduced");
  int64_t cache = shrunk["cache_tokens"].get<int64_t>();
  CHECK(cache % 256 == 0);
  CHECK(cache > 131072);
  CHECK(shrunk["context_tokens"] == 131072);
  CHECK(full["memory"]["total_bytes"].get<int64_t>() <= full["memory"]["usable_bytes"].get<int64_t>());
  llama["context_tokens"] = cache;
  CHECK(result_of(llama)["memory"]["fit"]["status"] == "fits");
  llama["context_tokens"] = cache + 512;
  CHECK(result_of(llama)["memory"]["fit"]["status"] == "offload");
}

TEST_CASE("A b11200 run without -c on an M1 Max: four trained contexts in one cache", "[engines][fit]") {
  // iDoris-ai/AgentEar@94e66937fde6:docs/data/qwen3-asr-runtime-2026-09/RAW.md (2026-09-26),
  // llama-b11200-bin-macos-arm64 on a MacBook M1 Max 64 GB, Qwen3-ASR-1.7B-Q8_0.gguf
  // (2,165,034,944 B) with its mmproj, `llama-server -m ... --mmproj ... -ngl 99` (no -c):
  // "n_ctx_seq (262144) > n_ctx_train (65536); n_slots = 4, n_ctx_slot = 65536", process RSS
  // 32,012,176 KB; the same with -c 4096: 3,097,792 KB, n_ctx_slot = 4096. Its text decoder is
  // Qwen3-1.7B's shape (28 layers: ivan-digital/qwen3-asr-swift docs/asr-model.md; 1,024 K and V
  // values per layer and token, as 7 GB of vLLM cache for 65,536 tokens says:
  // 65,536 x 28 x 1,024 x 2 x 2 B = 7.0 GiB), with the trained context the log prints.
  nlohmann::json config = {{"model_type", "qwen3"}, {"architectures", {"Qwen3ForCausalLM"}},
                           {"hidden_size", 2048}, {"num_hidden_layers", 28},
                           {"num_attention_heads", 16}, {"num_key_value_heads", 8}, {"head_dim", 128},
                           {"intermediate_size", 6144}, {"vocab_size", 151936},
                           {"max_position_embeddings", 65536}, {"tie_word_embeddings", true},
                           {"torch_dtype", "bfloat16"}};
  nlohmann::json request = {{"model", config}, {"weights", "Q8_0"}, {"hardware", "m1-max-64gb"},
                            {"context_tokens", 0}, {"llama_cpp_build", 11200}};
  auto automatic = result_of(request);
  CHECK(automatic["memory"]["fit"]["status"] == "fits");
  CHECK(automatic["memory"]["fit"]["cache_tokens"] == 262144);
  CHECK(automatic["memory"]["fit"]["context_tokens"] == 65536);
  request["context_tokens"] = 4096;
  auto small = result_of(request);
  CHECK(small["memory"]["fit"]["cache_tokens"] == 4096);
  // The two runs' RSS differ by 28,914,384 KB = 27.57 GiB, the caches' estimates by 258,048 x
  // 114,688 B = 27.56 GiB. (RSS counts pages touched: the cache is cleared when made, the compute
  // buffers reserved for 512-token batches are not yet written after a one-token warm-up, so the
  // totals' other ~1 GiB of growth, the masks of 512 x 258,048 more cells, is not in it.)
  const double logged = (32012176.0 - 3097792.0) * 1024.0;
  const double estimated = automatic["memory"]["kv_cache_bytes"].get<double>() -
                           small["memory"]["kv_cache_bytes"].get<double>();
  CHECK(estimated == Approx(logged).epsilon(0.01));
  // From b11201 the same command sizes one trained context for the four slots.
  request["context_tokens"] = 0;
  request["llama_cpp_build"] = 11201;
  CHECK(result_of(request)["memory"]["fit"]["cache_tokens"] == 65536);
}

TEST_CASE("Qwen3.8 Flash-Next keeps its indexer keys in a third cache, K only (PR #28330)", "[engines][kv]") {
  // waired-ai/waired-agent@b6931f8b docs/knowledges/20260920/1400-engine-pins-0342-and-uv-01217.md
  // (2026-09-21): Ollama 0.34.2 (llama.cpp b10969) on a 24 GB CUDA card, num_ctx 8192, f16 cache,
  // `-c 8192 -np 1 -b 512 -ub 512 --flash-attn auto`:
  //   llama_kv_cache: size = 192.00 MiB ( 8192 cells, 12 layers, 1/1 seqs), K (f16): 96.00 MiB, V (f16): 96.00 MiB
  //   llama_memory_recurrent: size = 112.57 MiB (1 cells, 48 layers, 1 seqs 0 rs_seq), R (f32): 4.22 MiB, S (f32): 108.00 MiB, P (f32): 0.35 MiB
  //   llama_kv_cache: size = 24.00 MiB ( 8192 cells, 12 layers, 1/1 seqs), K (f16): 24.00 MiB, V (f16): 0.00 MiB
  // The config's indexer: indexer_kv_heads 1 x indexer_head_dim 128 on each of the 12 full layers:
  // 12 x 128 x 2 B x 8,192 cells = 24 MiB of keys and no values.
  auto kv = result_of({{"model", "qwen3.8-flash-next"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                       {"engine", "ollama"}, {"context_tokens", 8192}})["memory"]["kv_cache"];
  CHECK(kv["full_attention_bytes"] == 192LL * kMiB);
  CHECK(kv["indexer_bytes"] == 24LL * kMiB);
  // The recurrent states (R + S = 112.22 MiB; P, 0.35 MiB, is not modelled) within 0.5%.
  CHECK(kv["state_bytes"].get<double>() == Approx(112.57 * kMiB).epsilon(0.005));
}

TEST_CASE("llama.cpp reads embedding tables over 4 GiB on demand (--lazy-mode auto)", "[engines][lazy]") {
  // Qwen3.8 Flash-Next's n-gram table (layer 2): 2 x 8 heads, each a prime number of rows from
  // 20,000,000 (20,000,003 ... 20,000,171, summed 320,001,446, rounded up to 128: 320,001,536)
  // of 2,560 / 16 = 160 values: 51,200,245,760 values, 102,400,491,520 B in BF16 (95.4 GiB).
  // From b10653 llama.cpp maps it and reads rows as tokens need them, so system RAM holds the
  // rest; not on integrated GPUs (PR #28326) nor in older builds.
  constexpr int64_t kTable = 102400491520LL;
  auto host = [](nlohmann::json request) {
    request["model"] = "qwen3.8-flash-next";
    request["weights"] = "BF16";
    request["context_tokens"] = 8192;
    return result_of(request)["memory"]["host"];
  };
  auto now = host({{"hardware", "rtx-4090"}});
  CHECK(now["lazy_weights_bytes"] == kTable);
  auto before = host({{"hardware", "rtx-4090"}, {"llama_cpp_build", 10645}});
  CHECK(before["lazy_weights_bytes"] == 0);
  CHECK(before["weights_bytes"].get<int64_t>() - now["weights_bytes"].get<int64_t>() == kTable);
  CHECK(host({{"hardware", "dgx-spark-gb10"}})["lazy_weights_bytes"] == 0);
  CHECK(host({{"hardware", "m3-ultra-512gb"}})["lazy_weights_bytes"] == kTable);
  // Ollama 0.34.2's llama-server is b10969, past b10653, whatever build the request names; vLLM
  // loads every tensor.
  CHECK(host({{"hardware", "rtx-4090"}, {"engine", "ollama"}, {"llama_cpp_build", 10645}})["lazy_weights_bytes"] == kTable);
  CHECK(host({{"hardware", "rtx-4090"}, {"engine", "vllm"}})["lazy_weights_bytes"] == 0);
}

TEST_CASE("--fit places dense layers and expert tensors as common/fit.cpp does", "[engines][fit]") {
  // Dense: Llama 3.1 8B F16 (16 GB) on an 8 GiB RTX 3070 at 8K. Step 3 fills the GPU from the
  // back: the output layer and the last k layers, k the largest that fits; -ngl k + 1 pinned
  // (with --fit off) reproduces it and -ngl k + 2 does not fit.
  auto dense = result_of({{"model", "llama-3.1-8b"}, {"weights", "F16"}, {"hardware", "rtx-3070"},
                          {"context_tokens", 8192}});
  const auto& memory = dense["memory"];
  REQUIRE(memory["fit"]["status"] == "offload");
  int64_t on_gpu = memory["per_device"][0]["layers"].get<int64_t>();
  CHECK(on_gpu > 0);
  CHECK(on_gpu < 32);
  CHECK(memory["fit"]["gpu_layers"] == on_gpu + 1);
  CHECK(memory["host"]["layers"] == 32 - on_gpu);
  auto at = [&](int64_t ngl) {
    return result_of({{"model", "llama-3.1-8b"}, {"weights", "F16"}, {"hardware", "rtx-3070"},
                      {"context_tokens", 8192}, {"gpu_layers", ngl}, {"fit", false}})["memory"]["per_device"][0];
  };
  int64_t usable = memory["per_device"][0]["usable_bytes"].get<int64_t>();
  CHECK(at(on_gpu + 1)["total_bytes"] == memory["per_device"][0]["total_bytes"]);
  CHECK(at(on_gpu + 1)["total_bytes"].get<int64_t>() <= usable);
  CHECK(at(on_gpu + 2)["total_bytes"].get<int64_t>() > memory["per_device"][0]["usable_bytes"].get<int64_t>());

  // MoE: Qwen3-30B-A3B Q4_K_M on the same card. Every layer's dense part fits, so step 4 brings
  // experts back front to back: the layers keeping experts in RAM are the last ones, one run to
  // layer 47, and the GPU is filled to within one layer's experts of its limit.
  auto moe = result_of({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-3070"},
                        {"context_tokens", 8192}});
  const auto& m = moe["memory"];
  REQUIRE(m["fit"]["status"] == "offload");
  CHECK(m["per_device"][0]["layers"] == 48);
  const auto& host_layers = m["fit"]["host_expert_layers"];
  REQUIRE(host_layers.size() > 0);
  int64_t first = host_layers[0].get<int64_t>();
  for (std::size_t i = 0; i < host_layers.size(); ++i) CHECK(host_layers[i] == first + static_cast<int64_t>(i));
  CHECK(host_layers.back() == 47);
  // One layer's experts at Q4_K_M: 128 x 3 x 2048 x 768 weights, gate/up in Q4_K (144 B per 256)
  // and down in Q4_K or Q6_K (210 B per 256), so at most 128 x 768 x 2048 x (2 x 144 + 210) / 256.
  int64_t layer_experts = 128LL * 768 * 2048 * (2 * 144 + 210) / 256;
  int64_t free_left = m["per_device"][0]["usable_bytes"].get<int64_t>() - m["per_device"][0]["total_bytes"].get<int64_t>();
  CHECK(free_left >= 0);
  CHECK(free_left < layer_experts);
  // The decode reads the offloaded experts from RAM: slower than all on a 24 GB card.
  auto full = result_of({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-3090"},
                         {"context_tokens", 8192}});
  CHECK(moe["decode"]["tokens_per_s"].get<double>() < full["decode"]["tokens_per_s"].get<double>());
}

TEST_CASE("Host memory: prompt cache and context checkpoints", "[engines][host]") {
  // Gemma 3 27B at 32K, one user (llama-server's automatic slots: one unified cache): a
  // checkpoint holds each sliding layer's last window, 52 layers x 1,024 tokens x 16 KV heads x
  // (128 + 128) x 2 B = 436,207,616 B; one every 8,192 tokens, so 4 at 32K: 1,744,830,464.
  auto gemma = result_of({{"model", "gemma-3-27b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                          {"context_tokens", 32768}});
  CHECK(gemma["memory"]["host"]["checkpoint_bytes"] == 1744830464LL);
  CHECK(gemma["memory"]["host"]["prompt_cache_limit_bytes"] == 8192LL * kMiB);
  // Qwen3-Next at 8K: one checkpoint, the recurrent state of its 36 DeltaNet layers (2,195,456 B
  // each, see the KV hand case): 79,036,416 B.
  auto next = result_of({{"model", "qwen3-next-80b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "h100-sxm"},
                         {"context_tokens", 8192}});
  CHECK(next["memory"]["host"]["checkpoint_bytes"] == 79036416LL);
  // A real one (HilbertRaum's b9849 log of Qwen3.6-27B at -c 8192 -np 1, record
  // qwen3.6-27b-q4km-3090-vulkan): "created context checkpoint 1 of 32 (... size = 149.626 MiB)",
  // its 48 gated-DeltaNet layers' state, the one checkpoint an 8K context holds.
  auto qwen36 = result_of({{"model", "qwen3.6-27b"}, {"weights", "Q4_K_M"}, {"context_tokens", 8192},
                           {"batch", 1}, {"kv_unified", false}});
  CHECK(qwen36["memory"]["host"]["checkpoint_bytes"].get<double>() / 1048576.0 == Approx(149.626).margin(0.001));
  // A plain transformer keeps none; --cache-ram sets the prompt cache's ceiling.
  auto llama = result_of({{"model", "llama-3.1-8b"}, {"cache_ram_bytes", 2 * kGiB}});
  CHECK(llama["memory"]["host"]["checkpoint_bytes"] == 0);
  CHECK(llama["memory"]["host"]["prompt_cache_limit_bytes"] == 2 * kGiB);
  CHECK(llama["commands"]["llama.cpp"]["flags"]["--cache-ram"] == "2048");
}

TEST_CASE("MTP drafting: its memory and the speed it buys", "[engines][mtp]") {
  // Qwen3.5-27B Q4_K_M with --spec-type draft-mtp at 8K (4 automatic slots, one 8,192-cell
  // cache): the MTP layer's weights (with the model's), and a draft context of its KV (4 KV
  // heads x (256 + 256) x 2 B = 4,096 B x 8,192 cells = 33,554,432; the logs of Qwen3.8-27B
  // show 32 MiB) and one layer's live set at -ub 512, 4 x 17,408 f32 x 512 = 142,606,336 (the
  // same shapes log 130.02 MiB = 136,335,360 at -ub 512).
  nlohmann::json request = {{"model", "qwen3.5-27b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                            {"context_tokens", 8192}};
  auto plain = result_of(request);
  request["mtp"] = true;
  auto drafted = result_of(request);
  int64_t mtp_weights = drafted["weights"]["mtp_bytes"].get<int64_t>();
  CHECK(mtp_weights > 0);
  CHECK(drafted["memory"]["mtp_bytes"] == 33554432LL + 142606336LL);
  CHECK(drafted["memory"]["weights_bytes"].get<int64_t>() - plain["memory"]["weights_bytes"].get<int64_t>() == mtp_weights);
  // Drafting also keeps a recurrent state per drafted token to roll back to (rs_seq): 1 + 2
  // copies of each slot's DeltaNet state.
  int64_t states = plain["memory"]["kv_cache"]["state_bytes"].get<int64_t>();
  CHECK(drafted["memory"]["kv_cache"]["state_bytes"] == 3 * states);
  CHECK(drafted["memory"]["total_bytes"].get<int64_t>() - plain["memory"]["total_bytes"].get<int64_t>() ==
        mtp_weights + drafted["memory"]["mtp_bytes"].get<int64_t>() + 2 * states);
  // Speed: 2 drafts accepted with p = 0.55 give (1 - 0.55^3) / 0.45 = 1.8525 tokens per step,
  // at the cost of one verify step plus 2 drafts (MTP layer and output head each).
  double speedup = drafted["decode"]["mtp_speedup"].get<double>();
  CHECK(speedup > 1.3);
  CHECK(speedup < 1.8525);
  CHECK(drafted["decode"]["tokens_per_s"].get<double>() ==
        Approx(plain["decode"]["tokens_per_s"].get<double>() * speedup).epsilon(1e-9));
  // A model without MTP layers: a warning, and nothing changes.
  auto none = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"mtp", true}});
  REQUIRE(none["ok"] == true);
  CHECK(none["issues"][0]["code"] == "no_mtp_layers");
  CHECK_FALSE(none["result"]["memory"].contains("mtp_bytes"));
}

TEST_CASE("Ollama: its default context, batch and slots", "[engines][ollama]") {
  // Without a context: 32,768 from 23 GiB of GPU memory (an RTX 4090's 24 GiB), 4,096 below
  // (an 8 GiB RTX 3070), 262,144 from 47 GiB (two 4090s) but never above the model's trained
  // 40,960 (Qwen3-8B); -b = -ub by that context: 1,024 up to 32K, 512 up to 4K, else 2,048.
  struct Case {
    const char* hardware;
    int devices;
    int64_t context;
    int64_t ubatch;
  };
  for (const Case& c : {Case{"rtx-4090", 1, 32768, 1024}, Case{"rtx-3070", 1, 4096, 512},
                        Case{"rtx-4090", 2, 40960, 2048}}) {
    INFO(c.hardware << " x" << c.devices);
    auto r = result_of({{"model", "qwen3-8b"}, {"engine", "ollama"}, {"hardware", c.hardware},
                        {"devices", c.devices}, {"context_tokens", 0}});
    CHECK(r["scenario"]["context_tokens"] == c.context);
    CHECK(r["scenario"]["ubatch"] == c.ubatch);
    // Qwen3-8B Q4_K_M (~5 GB) and Ollama's f16 cache prediction (36 x 8 x 128 x 2 x 2 B per token)
    // leave the batch where the context puts it: no memory step-down (next test).
    CHECK(r["memory"]["ubatch_tokens"] == c.ubatch);
    // Ollama passes -np 1: one stream of exactly that context.
    CHECK(r["scenario"]["kv_unified"] == false);
    CHECK(r["memory"]["kv_cache"]["cells"] == c.context);
  }
}

TEST_CASE("Ollama serves the architectures its scheduler names one request at a time", "[engines][ollama]") {
  // server/sched.go (ollama@fb3076099): num_parallel goes back to 1 for qwen35/qwen35moe/qwen3next,
  // qwen3vl/qwen3vlmoe, lfm2/lfm2moe and nemotron_h* GGUFs, whatever OLLAMA_NUM_PARALLEL says.
  auto run = [](const char* model, int batch) {
    auto r = llmcalc_test::estimate({{"model", model}, {"engine", "ollama"}, {"batch", batch},
                                     {"context_tokens", 8192}, {"hardware", "h100-sxm"}});
    REQUIRE(r["ok"] == true);
    return r;
  };
  auto warned = [](const nlohmann::json& r) {
    for (const auto& issue : r["issues"]) {
      if (issue["code"] == "ollama_parallel_one") return issue["path"] == "/batch";
    }
    return false;
  };
  // Llama 3.1 8B is not named: 4 slots of 8,192 cells, 32 layers x 8 KV heads x 128 x 2 (K, V)
  // x 2 B = 131,072 B per cell: 4 x 8,192 x 131,072 = 4 GiB, and the command asks for them.
  auto llama = run("llama-3.1-8b", 4);
  CHECK(llama["result"]["memory"]["kv_cache_bytes"] == 4LL * 8192 * 131072);
  CHECK(llama["result"]["scenario"]["batch"] == 4);
  CHECK_FALSE(warned(llama));
  CHECK(llama["result"]["commands"]["ollama"]["env"]["OLLAMA_NUM_PARALLEL"] == "4");
  // Qwen3-VL 8B (qwen3vl; a Qwen3-8B text model: 36 layers x 8 x 128 x 2 x 2 B = 147,456 B per
  // cell), Qwen3.6-27B (qwen35), LFM2 8B-A1B (lfm2moe) and Nemotron 3 Nano (nemotron_h_moe): one
  // slot, the same cache as a request for one, a warning and no OLLAMA_NUM_PARALLEL.
  CHECK(run("qwen3-vl-8b-instruct", 4)["result"]["memory"]["kv_cache_bytes"] == 8192LL * 147456);
  for (const char* model : {"qwen3-vl-8b-instruct", "qwen3.6-27b", "lfm2-8b-a1b", "nemotron-3-nano-30b-a3b"}) {
    INFO(model);
    auto four = run(model, 4);
    CHECK(four["result"]["scenario"]["batch"] == 1);
    CHECK(four["result"]["memory"]["kv_cache_bytes"] == run(model, 1)["result"]["memory"]["kv_cache_bytes"]);
    CHECK(warned(four));
    CHECK_FALSE(four["result"]["commands"]["ollama"]["env"].contains("OLLAMA_NUM_PARALLEL"));
    CHECK_FALSE(warned(run(model, 1)));
  }
  // Real logs of the rule: ollama/ollama issue #14638 (2026-03-05, macOS, OLLAMA_NUM_PARALLEL=2,
  // OLLAMA_CONTEXT_LENGTH=65536, a qwen35moe model): "model architecture does not currently support
  // parallel requests" architecture=qwen35moe, then "load request={... Parallel:1 ... KvSize:65536
  // ...}"; issue #14510 (2026-02-28, OLLAMA_NUM_PARALLEL=8, qwen3.5:35b): "Parallel:1 ...
  // KvSize:32768". One stream of the context, not 2 x 65,536 or 8 x 32,768 cells. (Those logs are of
  // Ollama 0.17, its own runner; the list is the same in sched.go at fb3076099.)
  for (auto [batch, context, device] : {std::make_tuple(2, 65536, "m3-ultra-256gb"), std::make_tuple(8, 32768, "rtx-4090")}) {
    auto logged = llmcalc_test::estimate({{"model", "qwen3.5-35b-a3b"}, {"engine", "ollama"}, {"batch", batch},
                                          {"context_tokens", context}, {"hardware", device}});
    REQUIRE(logged["ok"] == true);
    CHECK(logged["result"]["scenario"]["batch"] == 1);
    CHECK(logged["result"]["memory"]["kv_cache"]["cells"] == context);
  }
  // llama.cpp itself serves them in parallel.
  auto server = llmcalc_test::estimate({{"model", "qwen3.6-27b"}, {"engine", "llama.cpp"}, {"batch", 4}});
  CHECK(server["result"]["scenario"]["batch"] == 4);
}

TEST_CASE("Ollama 0.40's MLX runner on Apple silicon: a warning for the families it names", "[engines][ollama]") {
  // Ollama v0.40.0's release notes (2026-10-06): Qwen3.8, Gemma 4, Qwen3.6 and Qwen3.5 run on MLX on
  // Apple silicon by default. Our Ollama is v0.34.2's llama-server, so such a request says so
  // (Qwen3-Next, read as the same hybrid and registered by the MLX runner, too); other families,
  // other engines and other devices do not.
  auto codes = [](const nlohmann::json& request) {
    auto r = llmcalc_test::estimate(request);
    REQUIRE(r["ok"] == true);
    std::vector<std::string> found;
    for (const auto& issue : r["issues"]) found.push_back(issue["code"].get<std::string>());
    return found;
  };
  auto has = [](const std::vector<std::string>& found) {
    return std::find(found.begin(), found.end(), "ollama_mlx_runner") != found.end();
  };
  for (const char* model : {"gemma-4-12b", "gemma-4-26b-a4b", "qwen3.8-27b", "qwen3.6-35b-a3b", "qwen3.5-9b"}) {
    INFO(model);
    CHECK(has(codes({{"model", model}, {"engine", "ollama"}, {"hardware", "m3-max-128gb"}})));
    CHECK_FALSE(has(codes({{"model", model}, {"engine", "ollama"}, {"hardware", "rtx-4090"}})));
    CHECK_FALSE(has(codes({{"model", model}, {"engine", "llama.cpp"}, {"hardware", "m3-max-128gb"}})));
  }
  CHECK_FALSE(has(codes({{"model", "llama-3.1-8b"}, {"engine", "ollama"}, {"hardware", "m3-max-128gb"}})));
}

TEST_CASE("vLLM and SGLang on AMD GPUs: a warning that their speeds are llama.cpp's ROCm ones", "[engines][sglang][vllm]") {
  // No vLLM or SGLang run on an AMD GPU calibrates the speed model (data/speed_calibration.json
  // has no rocm server key), and SGLang's published MI300X runs decode FP8 MoE models far below
  // such an estimate. The warning says so for vLLM and SGLang on ROCm devices only.
  auto warned = [](const nlohmann::json& request) {
    auto r = llmcalc_test::estimate(request);
    REQUIRE(r["ok"] == true);
    bool found = false;
    for (const auto& issue : r["issues"]) found |= issue["code"] == "server_speed_rocm" && issue["path"] == "/engine";
    return std::make_pair(found, r);
  };
  for (const char* engine : {"vllm", "sglang"}) {
    INFO(engine);
    CHECK(warned({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", engine}, {"hardware", "mi300x"}}).first);
    CHECK(warned({{"model", "qwen3-8b"}, {"weights", "BF16"}, {"engine", engine}, {"hardware", "rx-7900-xtx"}}).first);
    CHECK_FALSE(warned({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", engine}, {"hardware", "h100-sxm"}}).first);
  }
  CHECK_FALSE(warned({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}, {"hardware", "mi300x"}}).first);
  // The case the text quotes: DeepSeek-V3.1 FP8 over eight MI300X under SGLang 0.5.7 decoded at
  // 1000 / 23.90 ms = 41.8 tokens/s (the SGLang cookbook, sgl-project/sgl-cookbook@7b5bd9c0
  // docs/autoregressive/DeepSeek/DeepSeek-V3_1.md line 395; tests/data/server_speed_measurements.json).
  // The estimate is "three to five times" that while the warning stands; a model that closes the
  // gap must change the warning too.
  auto [found, r] = warned({{"model", "deepseek-v3"}, {"weights", "FP8"}, {"engine", "sglang"}, {"hardware", "mi300x"},
                            {"devices", 8}, {"parallel", {{"tensor", 8}}}, {"context_tokens", 8192}});
  CHECK(found);
  const double ratio = r["result"]["decode"]["tokens_per_s"].get<double>() / (1000.0 / 23.90);
  CHECK(ratio > 2.5);
  CHECK(ratio < 5.0);
}

TEST_CASE("llama.cpp on Apple GPUs: a warning for batches of 8 or more sequences", "[engines][llama.cpp]") {
  auto warned = [](nlohmann::json request) {
    request["hardware"] = request.value("hardware", "m2-ultra-192gb");
    request["context_tokens"] = 544;  // 512 tokens of prompt per sequence and the 32 generated
    auto r = llmcalc_test::estimate(request);
    REQUIRE(r["ok"] == true);
    bool found = false;
    for (const auto& issue : r["issues"]) found |= issue["code"] == "metal_batched_decode" && issue["path"] == "/batch";
    return std::make_pair(found, r["result"]["decode"]["aggregate_tokens_per_s"].get<double>());
  };
  // llama.cpp's own M2 Ultra benches (ggml-org/llama.cpp benches/mac-m2-ultra/mac-m2-ultra.md,
  // llama-batched-bench at 512 tokens per sequence; tests/data/speed_measurements.json): aggregate
  // decode of gemma-3-4b Q4_0 788.23 tokens/s with 32 sequences, Qwen2.5-7B Q8_0 321.07 with 16 and
  // 218.67 with 4. The warning's "1/1.7 to 1/3" holds while the estimate is 1.7-3.1 times those at 8+
  // and within Metal's band at 4; a model that closes the gap fails here and must change the text.
  auto [gemma32, gemma_rate] = warned({{"model", "gemma-3-4b"}, {"weights", "Q4_0"}, {"engine", "llama.cpp"}, {"batch", 32}});
  CHECK(gemma32);
  CHECK(gemma_rate / 788.23 > 1.7);
  CHECK(gemma_rate / 788.23 < 3.1);
  auto [qwen16, qwen16_rate] = warned({{"model", "qwen2.5-7b"}, {"weights", "Q8_0"}, {"engine", "ollama"}, {"batch", 16}});
  CHECK(qwen16);
  CHECK(qwen16_rate / 321.07 > 1.7);
  CHECK(qwen16_rate / 321.07 < 3.1);
  auto [qwen4, qwen4_rate] = warned({{"model", "qwen2.5-7b"}, {"weights", "Q8_0"}, {"engine", "llama.cpp"}, {"batch", 4}});
  CHECK_FALSE(qwen4);
  CHECK(qwen4_rate / 218.67 < 1.24);  // Metal's band is +/-24% (data/speed_calibration.json)
  CHECK_FALSE(warned({{"model", "qwen2.5-7b"}, {"weights", "Q8_0"}, {"engine", "llama.cpp"}, {"batch", 32}, {"hardware", "rtx-4090"}}).first);
}

TEST_CASE("Ollama steps its automatic batch down when its own prediction fills the GPU", "[engines][ollama]") {
  // server/sched.go automaticGenerationBatch (ollama/ollama@fb30760). Ollama predicts the load as
  // the GGUF file plus an f16 cache of every layer (fewest KV heads, head width hidden / heads)
  // over the total context, and keeps 1,024 only if that is at most 75% of the free memory (60%
  // for 2,048) with a 768 MiB (2 GiB) surcharge under 80% of it. An RTX 3090 offers
  // 24 GiB - 512 MiB = 25,232,932,864 B: 75% is 18,924,699,648 B, 80% 20,186,346,291 B.
  auto ubatch = [](nlohmann::json request) {
    request["engine"] = "ollama";
    request["weights"] = "Q4_K_M";
    return result_of(request)["memory"]["ubatch_tokens"].get<int64_t>();
  };
  // Llama 3.1 8B at Ollama's 32,768 default: 32 x 8 x 128 x 2 x 2 B x 32,768 = 4,294,967,296 B of
  // predicted cache beside a ~4.9 GB file: ~9.2 GB, under 75%, and 768 MiB fits under 80%: 1,024.
  CHECK(ubatch({{"model", "llama-3.1-8b"}, {"hardware", "rtx-3090"}, {"context_tokens", 0}}) == 1024);
  // Qwen3-32B: hidden 5,120 / 64 heads = a head width of 80 in the prediction (the real heads are
  // 128): 64 x 8 x 80 x 2 x 2 B x 32,768 = 5,368,709,120 B beside a file of ~19.8 GB, over 75%:
  // 512. The estimate's file is well above the 13.6 GB that would have kept 1,024.
  nlohmann::json big = {{"model", "qwen3-32b"}, {"hardware", "rtx-3090"}, {"context_tokens", 0}};
  CHECK(ubatch(big) == 512);
  big["engine"] = "ollama";
  big["weights"] = "Q4_K_M";
  CHECK(result_of(big)["memory"]["weights_bytes"].get<int64_t>() > 18924699648LL - 5368709120LL);
  // Above 32,768 tokens the start is 2,048: Llama 3.1 8B at 65,536 predicts ~4.9 GB + 8.6 GB =
  // ~13.5 GB, under 60% of an RTX A6000's 48 GiB - 512 MiB (30.6 GB) with 2 GiB to spare: 2,048;
  // on a 16 GB RTX 4080 (16 GiB - 512 MiB = 16,642,998,272 B) over 60% and 75% (12.5 GB): 512.
  CHECK(ubatch({{"model", "llama-3.1-8b"}, {"hardware", "rtx-a6000"}, {"context_tokens", 65536}}) == 2048);
  CHECK(ubatch({{"model", "llama-3.1-8b"}, {"hardware", "rtx-4080"}, {"context_tokens", 65536}}) == 512);
  // CUDA without flash attention: 512, and 256 above 4,096 tokens on a card of 8 GiB or less.
  CHECK(ubatch({{"model", "llama-3.1-8b"}, {"hardware", "rtx-4060"}, {"context_tokens", 8192},
                {"flash_attention", false}}) == 256);
  CHECK(ubatch({{"model", "llama-3.1-8b"}, {"hardware", "rtx-3090"}, {"context_tokens", 8192},
                {"flash_attention", false}}) == 512);
  // A num_batch the user sets (ubatch) is passed as it is.
  CHECK(ubatch({{"model", "qwen3-32b"}, {"hardware", "rtx-3090"}, {"context_tokens", 0}, {"ubatch", 1024}}) == 1024);
}

TEST_CASE("An Ollama log: -b 512 at -c 32768 on an RTX 2060, and the layers --fit keeps", "[engines][ollama]") {
  // A user's Ollama server log of 2026-06-28 (search-index file id 61471163053, repository not
  // named; Ollama's llama-server era, where the automatic batch rule has held since v0.30.0):
  //   msg="starting llama-server" cmd=".../llama-server --model ... -c 32768 -np 1 ... --flash-attn auto -b 512 -ub 512 ..."
  //   msg="gpu memory" id=0 library=CUDA available="4.6 GiB" free="5.0 GiB"
  //   CUDA0 : NVIDIA GeForce RTX 2060 (5738 MiB, 5141 MiB free)
  //   general.name = Hermes 3 Llama 3.1 8B, file type Q4_0, file size = 4.33 GiB
  //   common_params_fit_impl:   - CUDA0 (NVIDIA GeForce RTX 2060): 15 layers,   4089 MiB used,   1052 MiB free
  //   load_tensors: offloaded 15/33 layers to GPU
  // Ollama's prediction: the 4.33 GiB file + 32 x 8 x 128 x 2 x 2 B x 32,768 = 4 GiB of f16 cache,
  // above 80% of the card, so 32,768 tokens' 1,024 steps down to 512. The card is the 5,141 MiB
  // llama.cpp found free (Hermes 3 has Llama 3.1 8B's shapes).
  nlohmann::json request = {
      {"model", "llama-3.1-8b"}, {"weights", "Q4_0"}, {"engine", "ollama"}, {"context_tokens", 32768},
      {"hardware", {{"name", "NVIDIA GeForce RTX 2060"}, {"memory_bytes", 5141LL * kMiB},
                    {"memory_bandwidth_bytes_per_s", 336e9}, {"fp16_flops_per_s", 51.6e12}, {"backend", "cuda"}}},
      {"assumptions", {{"reserved_bytes", 0}}}};
  auto r = result_of(request);
  CHECK(r["scenario"]["ubatch"] == 1024);  // the context's batch, before Ollama's memory check
  CHECK(r["memory"]["ubatch_tokens"] == 512);
  // With that batch --fit keeps 15 layers on the card (the log's 15/33; at 1,024 it would be 14),
  // the card holding 4,089 MiB by the log, within 1%.
  CHECK(r["memory"]["fit"]["gpu_layers"] == 15);
  CHECK(r["memory"]["per_device"][0]["total_bytes"].get<double>() == Approx(4089.0 * kMiB).epsilon(0.01));
}

TEST_CASE("Ollama keeps its context and moves layers; a default that fails is retried a tier lower",
          "[engines][ollama]") {
  // Ollama passes -c (llm/llama_server.go), so llama-server's --fit may not shrink the context.
  // Qwen3-32B Q4_K_M on an RTX 3090 with Ollama's 32,768-token default (24 GiB): 64 layers x 8 KV
  // heads x 128 x 2 x 2 B = 256 KiB per token, 8 GiB at 32K beside ~18.4 GiB of weights, over the
  // 22.5 GiB --fit allows: the cache stays at 32,768 cells and layers go to system RAM.
  nlohmann::json request = {{"model", "qwen3-32b"}, {"weights", "Q4_K_M"}, {"engine", "ollama"},
                            {"hardware", "rtx-3090"}, {"context_tokens", 0}};
  auto moved = result_of(request);
  CHECK(moved["memory"]["fit"]["status"] == "offload");
  CHECK(moved["memory"]["fit"]["context_tokens"] == 32768);
  CHECK(moved["memory"]["kv_cache_bytes"] == 32768LL * 262144);
  CHECK(moved["memory"]["host"]["layers"].get<int64_t>() > 0);
  // With 6 GiB of RAM (2 GiB left after the OS's 4) the moved layers do not fit either: the load
  // fails, and Ollama's scheduler retries its automatic context once at the tier below, 4,096
  // (server/sched.go nextLowerAutoNumCtx), where everything fits on the card (1 GiB of cache).
  request["system_memory_bytes"] = 6LL * kGiB;
  auto retried = result_of(request);
  CHECK(retried["memory"]["fit"]["status"] == "fits");
  CHECK(retried["memory"]["fit"]["context_tokens"] == 4096);
  CHECK(retried["memory"]["kv_cache_bytes"] == 4096LL * 262144);
  // The retry's batch follows its context (reduceAutoNumCtxForLoadOOM). Gemma 4 E4B Q4_K_M on
  // the same card and RAM: at 32,768 tokens Ollama's prediction (a ~5 GB file and a small cache)
  // keeps 1,024, but its per-layer embedding table fills the 2 GiB of RAM, so the load fails and
  // the retry at 4,096 runs with that context's 512.
  nlohmann::json small = {{"model", "gemma-4-e4b"}, {"weights", "Q4_K_M"}, {"engine", "ollama"},
                          {"hardware", "rtx-3090"}, {"context_tokens", 32768},
                          {"system_memory_bytes", 6LL * kGiB}};
  CHECK(result_of(small)["memory"]["ubatch_tokens"] == 1024);
  small["context_tokens"] = 0;
  auto small_retried = result_of(small);
  CHECK(small_retried["memory"]["fit"]["context_tokens"] == 4096);
  CHECK(small_retried["memory"]["ubatch_tokens"] == 512);
  // A context the user set is never retried: the same machine at -c 32768 does not fit.
  request["context_tokens"] = 32768;
  CHECK(result_of(request)["memory"]["verdict"] == "oom");
}

TEST_CASE("vLLM: the KV budget by hand", "[engines][vllm]") {
  // Llama 3.1 8B BF16 on an H100 SXM 80 GiB, vLLM v0.31 defaults:
  //   total the driver reports: 79.18 GiB (data/devices/h100-sxm.json, from vLLM's startup lines)
  //                                                = 85,018,877,624
  //   x 0.92 (floor)                               = 78,217,367,414
  //   - weights 8,030,261,248 x 2                  = 16,060,522,496
  //   - activations: 8,192 tokens (>= 70 GiB, not A100, under 160 GiB: vllm/engine/arg_utils.py
  //     get_batch_defaults at v0.28.0) x (6 x 14,336 + 6 x 4,096)                   =    905,969,664
  //   - sampler: 1,024 requests x 128,256 x 18 B (bf16 logits, f32 copy, top-k/top-p sort's f32
  //     values and int64 indices)              =  2,364,014,592
  //   - non-torch 256 MiB and CUDA graphs 400 MiB  =    687,865,856
  //   = 58,198,994,806 B, / 131,072 B per token (32 x 8 x 128 x 2 x 2) = 444,023 tokens.
  auto r = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                      {"hardware", "h100-sxm"}, {"context_tokens", 8192}});
  CHECK(r["memory"]["usable_bytes"] == 78217367414LL);
  CHECK(r["memory"]["kv_pool_bytes"] == 58198994806LL);
  CHECK(r["memory"]["kv_capacity_tokens"] == 444023);
  CHECK(r["scenario"]["max_num_batched_tokens"] == 8192);
  // --max-model-len auto: the native 131,072 fits one request, so it stays.
  auto automatic = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                              {"hardware", "h100-sxm"}, {"context_tokens", 0}});
  CHECK(automatic["scenario"]["context_tokens"] == 131072);
  // On an RTX 4090 the native window does not fit beside 16 GB of weights: auto takes the
  // largest that does, in 16-token pages.
  auto small = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                          {"hardware", "rtx-4090"}, {"context_tokens", 0}});
  int64_t chosen = small["scenario"]["context_tokens"].get<int64_t>();
  CHECK(chosen < 131072);
  CHECK(chosen % 16 == 0);
  CHECK(chosen == small["memory"]["max_context_tokens"]);
  // --kv-cache-memory-bytes replaces the budget.
  auto fixed = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                          {"hardware", "h100-sxm"}, {"kv_cache_memory_bytes", 10 * kGiB}});
  CHECK(fixed["memory"]["kv_pool_bytes"] == 10 * kGiB);
  CHECK(fixed["commands"]["vllm"]["flags"]["--kv-cache-memory-bytes"] == std::to_string(10 * kGiB));
}

TEST_CASE("vLLM: MiniMax-M3's pool per rank and its page size", "[engines][vllm]") {
  // Tensor-parallel 8 on eight H200s: each rank keeps one of the 4 KV heads (vLLM: max(1, 4 / 8)),
  // 60 layers x (128 + 128) x 2 B = 30,720 B a token, and the whole bf16 index key of the 57 sparse
  // layers, 57 x 128 x 2 B = 14,592 B: 45,312 B a token on each rank. Tensor-parallel 2: two KV
  // heads a rank, 61,440 + 14,592 = 76,032 B.
  for (auto [ranks, per_token] : {std::pair<int64_t, int64_t>{8, 45312}, {2, 76032}}) {
    INFO(ranks << " ranks");
    auto r = result_of({{"model", "minimax-m3"}, {"weights", "FP8"}, {"engine", "vllm"},
                        {"hardware", "h200-sxm"}, {"devices", ranks}});
    int64_t per_rank_pool = r["memory"]["kv_pool_bytes"].get<int64_t>() / ranks;
    CHECK(r["memory"]["kv_capacity_tokens"] == per_rank_pool / per_token);
    CHECK(r["commands"]["vllm"]["flags"]["--block-size"] == "128");
  }
}

TEST_CASE("SGLang: mem_fraction_static by hand", "[engines][sglang]") {
  // SGLang main at 031ed82d (arg_groups/memory_hook.py): reserve = 512 + 1.5 x max(chunked
  // prefill, 2,048) + tp x pp / 8 x 1,024 + graphs, in MB; the fraction is (capacity - reserve) /
  // capacity to three places. Prefill-graph token buckets (cuda_graph_hook.py): 4-32 by 4 (8),
  // 48-256 by 16 (14), 288-512 by 32 (8), 576-1,024 by 64 (8), 1,280-4,096 by 256 (12), then
  // 4,608-8,192 by 512 (8): 50 buckets up to 4,096 tokens, 58 up to 8,192.
  auto fraction = [](const nlohmann::json& request) {
    return result_of(request)["scenario"]["mem_fraction_static"].get<double>();
  };
  const nlohmann::json llama = {{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "sglang"}};
  // H100 80 GiB, 79.18 GiB (81,080.32 MiB) as torch reports it (data/devices/h100-sxm.json), TP 1:
  // the 60-160 GiB tier, chunked prefill 8,192, decode graph batch 256: 512 + 12,288 + 128 + 2 x
  // 256 + 8 x 58 = 13,904 (above the 10 GiB floor): 67,176.32 / 81,080.32 = 0.8285 -> 0.829.
  nlohmann::json h100_request = llama;
  h100_request["hardware"] = "h100-sxm";
  auto h100 = result_of(h100_request);
  CHECK(h100["scenario"]["mem_fraction_static"].get<double>() == Approx(0.829));
  // RTX 4090, 23.64 GiB (24,207.36 MiB) as torch reports it (data/devices/rtx-4090.json): the 20-35
  // GiB tier, 4,096 and 48 (PR #37898): 512 + 6,144 + 128 + 96 + 8 x 50 = 7,280: 16,927.36 /
  // 24,207.36 = 0.6993 -> 0.699.
  nlohmann::json rtx = llama;
  rtx["hardware"] = "rtx-4090";
  CHECK(fraction(rtx) == Approx(0.699));
  // Two RTX 4090s as two pipeline stages: no prefill graph, tp x pp / 8 = 1/4 GiB: 512 + 6,144 +
  // 256 + 96 = 7,008: 17,199.36 / 24,207.36 = 0.7105 -> 0.711.
  nlohmann::json stages = rtx;
  stages["devices"] = 2;
  stages["parallel"] = {{"pipeline", 2}};
  CHECK(fraction(stages) == Approx(0.711));
  // MLA (GLM-4.7-Flash) on the H100: the prefill graph reserves 1.5 GiB: 512 + 12,288 + 128 +
  // 512 + 1,536 = 14,976: 66,104.32 / 81,080.32 = 0.8153 -> 0.815.
  CHECK(fraction({{"model", "glm-4.7-flash"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"}}) ==
        Approx(0.815));
  // Kimi Delta Attention (Kimi Linear) keeps no prefill graph: 13,440: 0.8342 -> 0.834.
  CHECK(fraction({{"model", "kimi-linear-48b-a3b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"}}) ==
        Approx(0.834));
  // Qwen3-VL 8B, multimodal: no prefill graph (0.834), then 0.95 x (1 - 0.1 x (24 x 1,152^2 /
  // (24 x 1,024^2) - 1)) = 0.95 x 0.97344 (its vision_config names no num_hidden_layers: 24).
  CHECK(fraction({{"model", "qwen3-vl-8b-instruct"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"}}) ==
        Approx(0.834 * 0.95 * (1.0 - 0.1 * (1152.0 * 1152.0 / (1024.0 * 1024.0) - 1.0))));
  // Eight H100s with data-parallel attention (--tp 8 --dp 8): decode batch 512, plus 3 and 1.5 MB
  // per slot and rank: 1,024 + 12,288 + 6,144 + 464 = 19,920; 512 + 12,288 + 1,024 + 19,920 =
  // 33,744: 47,336.32 / 81,080.32 = 0.5838 -> 0.584.
  nlohmann::json attention_dp = h100_request;
  attention_dp["devices"] = 8;
  attention_dp["parallel"] = {{"data", 8}};
  CHECK(fraction(attention_dp) == Approx(0.584));
  // The pool: 0.829 x the memory free before the weights load (79.18 GiB less the 512 MiB
  // context: 84,482,006,712 B) - weights, per token 131,072 B.
  int64_t pool = static_cast<int64_t>(0.829 * 84482006712.0) - 16060522496LL;
  CHECK(h100["memory"]["kv_pool_bytes"] == pool);
  CHECK(h100["memory"]["kv_capacity_tokens"] == pool / 131072);
  // Sliding layers take 0.8 x the full layers' tokens: gpt-oss-120b's per-token cost is
  // 18 full layers x 2,048 B + 0.8 x 18 sliding layers x 2,048 B = 66,355 B.
  auto oss = result_of({{"model", "gpt-oss-120b"}, {"weights", "MXFP4"}, {"engine", "sglang"}, {"hardware", "h100-sxm"}});
  int64_t oss_pool = oss["memory"]["kv_pool_bytes"].get<int64_t>();
  CHECK(oss["memory"]["kv_capacity_tokens"] == oss_pool / (18 * 2048 + 29491));
}

TEST_CASE("vLLM and SGLang on a DGX Spark start from the 121.69 GiB its driver reports", "[engines][vllm][sglang]") {
  // torch.cuda.mem_get_info on a GB10 reports a 121.69 GiB total (data/devices/dgx-spark-gb10.json
  // cuda_total_source: vLLM "wants 105.87 GiB" at --gpu-memory-utilization 0.87 = 0.87 x 121.69).
  const double total = std::round(121.69 * 1073741824.0);
  auto vllm = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"}, {"hardware", "dgx-spark-gb10"}});
  CHECK(vllm["memory"]["usable_bytes"].get<double>() == std::floor(0.92 * total));
  // SGLang's capacity 124,610.56 MiB: the 60-160 GiB tier, 512 + 12,288 + 128 + 512 + 8 x 58 =
  // 13,904 MB reserved: 110,706.56 / 124,610.56 = 0.8884 -> 0.888.
  auto sglang = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "dgx-spark-gb10"}});
  CHECK(sglang["scenario"]["mem_fraction_static"].get<double>() == Approx(0.888));
}

TEST_CASE("An A40 or L40S starts vLLM from the 44.42 GiB its driver reports, llama.cpp from that less its context", "[engines][vllm]") {
  // With ECC on (the data-center default) nvidia-smi shows 46,068 MiB and torch 44.42 GiB of the
  // nominal 48 (data/devices/l40s.json, a40.json cuda_total_source: vLLM 0.10.2 on 8 x L40S, "Free
  // memory on device (43.93/44.42 GiB) ... Desired GPU memory utilization is (0.9, 39.98 GiB)";
  // 0.9 x 44.42 = 39.978). vLLM's budget is its 0.92 of that total; llama.cpp's --fit starts from
  // what the driver has free, the total less the CUDA context (512 MiB), and leaves 1 GiB.
  const double total = std::round(44.42 * 1073741824.0);
  for (const char* device : {"l40s", "a40"}) {
    auto vllm = result_of({{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"}, {"hardware", device}});
    CHECK(vllm["memory"]["usable_bytes"].get<double>() == std::floor(0.92 * total));
    auto llama = result_of({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", device}});
    CHECK(llama["memory"]["usable_bytes"].get<double>() == total - 512.0 * 1048576 - 1024.0 * 1048576);
  }
}

TEST_CASE("SGLang: a hybrid model's recurrent states take 0.9 / 1.9 of what the weights leave, by hand", "[engines][sglang]") {
  // KVCacheConfigurator._handle_max_mamba_cache (sgl-project/sglang, 2026): without
  // --max-mamba-cache-size the state pool gets rest x 0.9 / (1 + 0.9) in whole per-request states
  // (--mamba-full-memory-ratio, "the ratio of mamba state memory to full kv cache memory", default
  // 0.9 per docs/basic_usage/qwen3.md, PR #15337), the KV pool the rest; running requests are held
  // to the state slots / 5 (3 per request, 2 more for the extra buffer the overlap schedule needs).
  // A v0.5.21 log of a hybrid Mamba model at tp 4 (Nemotron-3 Nano Omni on GB10s, 2026-10-08):
  // "conv_state size: 0.44GB, ssm_state size: 24.84GB" beside "K size: 14.05 GB, V size: 14.05
  // GB": 25.28 / 53.38 = 0.474 of the pools, 0.9 / 1.9 = 0.4737.
  // Qwen3-Next-80B-A3B BF16 on four H100s (tp 4): 36 Gated DeltaNet layers of 32 value heads x 128
  // x 128 f32 SSM elements and 3 x (2 x 16 x 128 + 32 x 128) = 24,576 bf16 conv elements, a quarter
  // per rank: (2,097,152 + 49,152) / 4 = 536,576 B x 36 = 19,316,736 B per request; 12 full layers with 2 KV heads, one per rank: 12 x 256 x 2 x 2 =
  // 12,288 B per token. mem_fraction_static 0.817 (512 + 12,288 + 512 + 2 x 512 + 8 x 58 = 14,800 of
  // the 81,080.32 MiB torch reports: 0.8175), of the memory free before the weights load: those
  // 79.18 GiB less the 512 MiB context, 84,482,006,712 B.
  auto next = result_of({{"model", "qwen3-next-80b-a3b"}, {"weights", "BF16"}, {"engine", "sglang"},
                         {"hardware", "h100-sxm"}, {"devices", 4}, {"context_tokens", 32768}});
  CHECK(next["scenario"]["mem_fraction_static"].get<double>() == Approx(0.817));
  const auto& memory = next["memory"];
  const int64_t weights = memory["per_device"][0]["weights_bytes"].get<int64_t>();
  const int64_t rest = static_cast<int64_t>(0.817 * 84482006712.0) - weights;
  const int64_t per_request = 19316736;
  const int64_t slots = static_cast<int64_t>(static_cast<double>(rest) * 0.9 / 1.9) / per_request;
  const int64_t pool = rest - slots * per_request;
  CHECK(memory["kv_pool_bytes"] == 4 * pool);
  CHECK(memory["kv_capacity_tokens"] == pool / 12288);
  CHECK(memory["max_concurrent_sequences"].get<double>() == Approx(std::min(static_cast<double>(pool / 12288) / 32768.0,
                                                                             static_cast<double>(slots / 5))));
  // The device holds the whole state pool beside the KV one request at 32,768 tokens needs.
  CHECK(memory["per_device"][0]["kv_cache_bytes"] == 12288 * 32768 + slots * per_request);
}

TEST_CASE("SGLang's static share is a fraction of the memory free before the weights load", "[engines][sglang][engine_logs]") {
  // KVCacheConfigurator._profile_available_bytes: the budget is the memory free after the weights
  // less (1 - mem_fraction_static) x pre_model_load_memory, the memory free before them, i.e. that
  // fraction of the free memory, the CUDA context already out of it. Logged: "Load weight end ...
  // avail mem=17.40 GB, mem usage=61.07 GB" on an H100 (78.47 GiB free before the load, of 79.18)
  // and "avail mem=16.00 GB, mem usage=7.08 GB" on each of four RTX 4090s (23.08 of 23.64; records
  // sglang-0.5.19-qwen3-32b-h100 and sglang-ebaf86d-qwen3-14b-bf16-4x-rtx-4090 of
  // tests/data/engine_logs.json). The estimate takes the driver's total less the 512 MiB context.
  auto h100 = result_of({{"model", "qwen3-32b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"}});
  CHECK(h100["memory"]["per_device"][0]["usable_bytes"].get<double>() / 1073741824.0 == Approx(78.47).margin(0.25));
  auto rtx = result_of({{"model", "qwen3-14b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "rtx-4090"}, {"devices", 4}});
  CHECK(rtx["memory"]["per_device"][0]["usable_bytes"].get<double>() / 1073741824.0 == Approx(23.08).margin(0.25));
  // vLLM's budget is a fraction of the total itself: 0.92 x 79.18 GiB.
  auto vllm = result_of({{"model", "qwen3-32b"}, {"weights", "BF16"}, {"engine", "vllm"}, {"hardware", "h100-sxm"}});
  CHECK(vllm["memory"]["per_device"][0]["usable_bytes"] == static_cast<int64_t>(0.92 * 85018877624.0));
}

TEST_CASE("SGLang's --mamba-ssm-dtype and --max-running-requests, and vLLM's --mamba-ssm-cache-dtype", "[engines][sglang][vllm]") {
  // The Qwen3-Next case above with the SSM state in bf16 and four running requests: per rank
  // (49,152 + 1,048,576) / 4 = 274,432 B a layer, x 36 = 9,879,552 B a request.
  nlohmann::json request = {{"model", "qwen3-next-80b-a3b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"},
                            {"devices", 4}, {"context_tokens", 32768}, {"mamba_ssm_dtype", "bfloat16"}, {"max_num_seqs", 4}};
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  const nlohmann::json& memory = envelope["result"]["memory"];
  const int64_t rest = static_cast<int64_t>(0.817 * 84482006712.0) - memory["per_device"][0]["weights_bytes"].get<int64_t>();
  const int64_t slots = static_cast<int64_t>(static_cast<double>(rest) * 0.9 / 1.9) / 9879552;
  CHECK(memory["kv_pool_bytes"] == 4 * (rest - slots * 9879552));
  // Four running requests at most, though the pool holds more at 32,768 tokens.
  CHECK(static_cast<double>(memory["kv_capacity_tokens"].get<int64_t>()) / 32768.0 > 4.0);
  CHECK(memory["max_concurrent_sequences"].get<double>() == Approx(4.0));
  const nlohmann::json& commands = envelope["result"]["commands"];
  CHECK(commands["sglang"]["flags"]["--max-running-requests"] == "4");
  CHECK(commands["sglang"]["flags"]["--mamba-ssm-dtype"] == "bfloat16");
  CHECK(commands["vllm"]["flags"]["--mamba-ssm-cache-dtype"] == "bfloat16");
  CHECK(envelope["result"]["scenario"]["mamba_ssm_dtype"] == "bfloat16");
  // Unset, neither flag is written and SGLang's requests are bounded by its state slots only.
  request.erase("mamba_ssm_dtype");
  request.erase("max_num_seqs");
  auto plain = llmcalc_test::estimate(request);
  REQUIRE(plain["ok"] == true);
  CHECK_FALSE(plain["result"]["commands"]["sglang"]["flags"].contains("--max-running-requests"));
  CHECK_FALSE(plain["result"]["commands"]["sglang"]["flags"].contains("--mamba-ssm-dtype"));
  CHECK_FALSE(plain["result"]["commands"]["vllm"]["flags"].contains("--mamba-ssm-cache-dtype"));
  // vLLM's hybrid page with a bf16 SSM state: Qwen3-Next's 36 linear layers, 32 x 128 x 128 x 2 B
  // + 8,192 x 3 x 2 B = 1,097,728 B at tp 1; the attention block grows to the smallest multiple of
  // 16 tokens whose page (2 KV heads x 256 x 2 x 2 B = 2,048 B a token) holds it: 544 tokens.
  nlohmann::json vllm = {{"model", "qwen3-next-80b-a3b"}, {"weights", "FP8"}, {"engine", "vllm"}, {"hardware", "h200-sxm"},
                         {"context_tokens", 32768}, {"mamba_ssm_dtype", "bfloat16"}, {"prefix_caching", false}};
  auto bf16_state = llmcalc_test::estimate(vllm);
  REQUIRE(bf16_state["ok"] == true);
  // Groups of 12 (12 attention layers, 36 linear): ceil(32,768 / 544) = 61 blocks for each of
  // one attention group and 3 state groups x 1 block, 64 blocks of 12 pages of 1,114,112 B.
  CHECK(llmcalc_test::kv_bytes_per_request(bf16_state["result"]["memory"]) == Approx(64.0 * 12 * 1114112).epsilon(1e-9));

  auto bad = llmcalc_test::estimate({{"model", "qwen3-next-80b-a3b"}, {"mamba_ssm_dtype", "fp8"}});
  REQUIRE(bad["ok"] == false);
  bool named = false;
  for (const auto& issue : bad["issues"]) named |= issue["code"] == "unknown_ssm_dtype" && issue["path"] == "/mamba_ssm_dtype";
  CHECK(named);
}

TEST_CASE("DeepSeek V4 in vLLM's block pool and SGLang's full tokens, by hand", "[engines][vllm][sglang][dsv4]") {
  // vLLM, DeepSeek V4 Flash (43 layers: 2 window-only, 21 CSA, 20 HCA; head 512 with 64 RoPE
  // dims, index_head_dim 128, window 128). fp8_ds_mla rows: 448 + 2 x 64 + 7 + 1 = 584 B; pages
  // aligned to 576 B. The groups' pages, as vLLM issue #54703 printed them from a v0.28.1-based
  // build ("62 MLA/indexer 1,002,240 B/256 - 22 SWA 823,680 B/64 - 21 SWA 786,240 B/64 - 42 state
  // 870,912 B/4 - 20 state 656,640 B/8"):
  //   latents and indexer keys: 21 x (align(64 x 584) = 37,440 + align(64 x 132) = 8,640)
  //                             + 20 x align(2 x 584) = 1,728                      = 1,002,240
  //   CSA states: 21 x (align(4 x 2,048 x 4) = 32,832 + align(4 x 512 x 4) = 8,640) =   870,912
  //   windows: 22 x 37,440 = 823,680; HCA states: 20 x 32,832 = 656,640.
  // One block is the largest, 1,002,240 B. At 131,072 tokens a decoding request holds 512 latent
  // blocks, 2 x (ceil(128 / 64) + 1) window blocks, ceil(8 / 4) + 1 CSA-state and ceil(128 / 8) + 1
  // HCA-state blocks: 538. In flight, 8,192 batched tokens x (1 stage + 1) = 16,384 tokens take
  // 2 x (ceil((127 + 16,384) / 64) + 1) + (ceil((7 + 16,384) / 4) + 1) + (ceil((127 + 16,384) / 8)
  // + 1) = 518 + 4,099 + 2,065 = 6,682 window and state blocks, 6,656 beyond a decoding request's.
  // With --kv-cache-memory-bytes 50 GiB: (53,687,091,200 - 6,656 x 1,002,240) / 1,002,240 =
  // 46,911 whole blocks; 46,911 / 538 requests.
  auto flash = result_of({{"model", "deepseek-v4-flash"}, {"engine", "vllm"}, {"hardware", "h200-sxm"},
                          {"context_tokens", 131072}, {"max_num_batched_tokens", 8192},
                          {"kv_cache_memory_bytes", 50 * kGiB}});
  CHECK(flash["memory"]["kv_pool_bytes"] == 50 * kGiB - 6656 * 1002240LL);
  CHECK(flash["memory"]["max_concurrent_sequences"].get<double>() == Approx(46911.0 / 538.0));
  CHECK(flash["memory"]["kv_capacity_tokens"] == static_cast<int64_t>(46911.0 / 538.0 * 131072.0));
  // V4 Pro (61 layers: 30 CSA, 31 HCA): latents and indexer keys 30 x 46,080 + 31 x 1,728 =
  // 1,435,968 B a block (vLLM PR #48993's FP8-indexer stride for Pro). One request at 4,096
  // tokens: 16 + 26 = 42 blocks.
  auto pro = result_of({{"model", "deepseek-v4-pro"}, {"engine", "vllm"}, {"hardware", "b200-sxm"},
                        {"context_tokens", 4096}, {"max_num_batched_tokens", 8192}, {"kv_cache_memory_bytes", 50 * kGiB}});
  int64_t pro_blocks = (50 * kGiB - 6656 * 1435968LL) / 1435968LL;
  CHECK(pro["memory"]["max_concurrent_sequences"].get<double>() == Approx(static_cast<double>(pro_blocks) / 42.0));
  // SGLang (memory_profiler.py DSv4MemoryCalculator; its log line "DSv4 memory calculation:
  // bytes_per_full_token=15955.85" for Flash, search-index file id 54684172587): over the 44
  // compress_ratios entries, 0.1 x 584 x 44 = 2,569.6 window bytes; CSA 21 x (584 / 4 + 132 / 4) =
  // 3,759; HCA 20 x 584 / 128 = 91.25; state rings 0.1 x 8 / 128 x 21 x (8,192 + 2,048) = 1,344
  // and 0.1 x 20 x 4,096 = 8,192: 15,955.85 B, 15,956 whole bytes a token. KV is not split
  // across tensor ranks (one latent head).
  auto sglang = result_of({{"model", "deepseek-v4-flash"}, {"engine", "sglang"}, {"hardware", "h200-sxm"},
                           {"devices", 8}, {"context_tokens", 131072}});
  int64_t rank_pool = sglang["memory"]["kv_pool_bytes"].get<int64_t>() / 8;
  CHECK(sglang["memory"]["kv_capacity_tokens"] == rank_pool / 15956);
}

TEST_CASE("mlx-lm: cache steps and MLA layouts", "[engines][mlx]") {
  auto kv = [](const char* id, int64_t context) {
    auto r = result_of({{"model", id}, {"engine", "mlx"}, {"weights", "MLX-4bit"}, {"hardware", "m4-max-64gb"},
                        {"context_tokens", context}});
    return r["memory"]["kv_cache_bytes"].get<int64_t>();
  };
  // KVCache grows in 256-token steps: 1,000 tokens hold 1,024; Llama 3.1 8B: 32 x 8 x 256 x 2 B.
  CHECK(kv("llama-3.1-8b", 1000) == 1024LL * 32 * 8 * 256 * 2);
  // DeepSeek-V2 style (deepseek_v2) expands per-head K and V: 27 layers x 16 heads x (192 +
  // 128) x 2 B = 276,480 B per token for V2-Lite; DeepSeek V3 keeps the latent, 61 x 576 x 2 =
  // 70,272 B per token.
  CHECK(kv("deepseek-v2-lite", 1024) == 1024LL * 276480);
  CHECK(kv("deepseek-v3", 1024) == 1024LL * 70272);
  // Sliding layers keep a rotating buffer of exactly the window: Gemma 3 27B at 32K holds
  // 10 x 32,768 full + 52 x 1,024 sliding tokens of 8,192 B.
  CHECK(kv("gemma-3-27b", 32768) == (10LL * 32768 + 52LL * 1024) * 8192);
}

TEST_CASE("vLLM gives a quantized checkpoint the KV cache type its config declares, unless told otherwise", "[engines][vllm]") {
  // Llama 3.1 8B's shapes with the quantization block NVIDIA's ModelOpt writes to
  // hf_quant_config.json (the schema of nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4's file as a
  // parser's test quotes it, search-index file id 69102596464; placed in quantization_config as
  // vLLM's get_config places it).
  nlohmann::json config = llmcalc::Catalog::instance().find_model("llama-3.1-8b")->config();
  config["quantization_config"] = {
      {"producer", {{"name", "modelopt"}, {"version", "0.29.0"}}},
      {"quantization", {{"quant_algo", "NVFP4"}, {"kv_cache_quant_algo", "FP8"}, {"group_size", 16},
                        {"exclude_modules", {"lm_head"}}}}};
  auto run = [&](nlohmann::json extra) {
    nlohmann::json request = {{"model", config}, {"engine", "vllm"}, {"hardware", "rtx-4090"},
                              {"context_tokens", 8192}, {"hf_repo", "someone/Llama-3.1-8B-NVFP4"}};
    if (extra.is_object()) request.update(extra);  // run({}) passes null
    auto envelope = llmcalc_test::estimate(request);
    REQUIRE(envelope["ok"] == true);
    return envelope["result"];
  };
  // By hand: 32 layers x 8 KV heads x 128 x (K + V) = 65,536 elements per token; fp8 one byte
  // each, 16 bits two.
  auto declared = run({});
  CHECK(declared["scenario"]["weights"] == "NVFP4");  // the checkpoint's own format
  CHECK(declared["scenario"]["kv_cache"] == "fp8");
  CHECK(declared["memory"]["kv_cache"]["bytes_per_token"] == 65536);
  CHECK(declared["memory"]["kv_cache_bytes"] == int64_t{65536} * 8192);
  // The command is the plain launch: the checkpoint names its method and its cache.
  CHECK_FALSE(declared["commands"]["vllm"]["flags"].contains("--quantization"));
  CHECK_FALSE(declared["commands"]["vllm"]["flags"].contains("--kv-cache-dtype"));
  CHECK(declared["commands"]["vllm"]["notes"].get<std::string>().find("already quantized") == std::string::npos);
  // A 16-bit cache asked for: 131,072 B per token, and the flag that makes vLLM keep it.
  auto wide = run({{"kv_cache", "bf16"}});
  CHECK(wide["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  CHECK(wide["commands"]["vllm"]["flags"]["--kv-cache-dtype"] == "bfloat16");
  CHECK(wide["commands"]["vllm"]["notes"].get<std::string>().find("the KV cache type the checkpoint declares") != std::string::npos);
  // Other engines keep their own default cache.
  CHECK(run({{"engine", "llama.cpp"}, {"weights", "Q4_K_M"}})["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  // compressed-tensors (llm-compressor): any kv_cache_scheme makes "auto" fp8 (the form of a
  // RedHatAI-style FP8 checkpoint, search-index file id 59855188914); the weights are its
  // float-quantized FP8.
  config["quantization_config"] = {
      {"quant_method", "compressed-tensors"}, {"format", "float-quantized"},
      {"kv_cache_scheme", {{"dynamic", false}, {"num_bits", 8}, {"type", "float"}, {"strategy", "tensor"}}}};
  auto ct = run({});
  CHECK(ct["scenario"]["weights"] == "FP8");
  CHECK(ct["memory"]["kv_cache"]["bytes_per_token"] == 65536);
  // Without a cache scheme (weight-only checkpoints write kv_cache_scheme: null) the cache stays
  // 16-bit and the command needs no flag.
  config["quantization_config"]["kv_cache_scheme"] = nullptr;
  auto weight_only = run({});
  CHECK(weight_only["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  CHECK_FALSE(weight_only["commands"]["vllm"]["flags"].contains("--kv-cache-dtype"));
}

TEST_CASE("SGLang gives a checkpoint declaring an FP8 KV cache fp8_e4m3, never NVFP4, unless told otherwise", "[engines][sglang]") {
  // RadixArk/Qwen3.8-27B-NVFP4 on one DGX Spark, SGLang (lmsysorg/sglang:dev-cu13, 2026-09-19),
  // `kv_cache_dtype: auto`, its hf_quant_config.json declaring "kv_cache_quant_algo": "FP8"
  // (recipes/qwen3 agent guide, search-index file id 70875501629; the quoted log lines in the
  // fact report /work/scratch/sglang_kv_s39.md of the thirty-ninth session): "KV Cache is
  // allocated. dtype: torch.float8_e4m3fn, #tokens: 117125, K size: 1.79 GB" and, without
  // speculation, "#tokens: 268343, K 4.09 GB" (SGLang's GB is GiB). By hand: 16 full-attention
  // layers (full_attention_interval 4 of 64) x 4 KV heads x 256 x 1 B = 16,384 B of K a token;
  // 268,343 x 16,384 B = 4.09 GiB and 117,125 x 16,384 B = 1.79 GiB, as logged. K + V: 32,768 B.
  nlohmann::json config = llmcalc::Catalog::instance().find_model("qwen3.8-27b")->config();
  config["quantization_config"] = {{"producer", {{"name", "modelopt"}}},
                                   {"quantization", {{"quant_algo", "NVFP4"}, {"kv_cache_quant_algo", "FP8"}}}};
  auto run = [&](const nlohmann::json& model, nlohmann::json extra) {
    nlohmann::json request = {{"model", model}, {"engine", "sglang"}, {"hardware", "dgx-spark-gb10"}, {"context_tokens", 65536}};
    if (extra.is_object()) request.update(extra);  // run(model, {}) passes null
    auto envelope = llmcalc_test::estimate(request);
    REQUIRE(envelope["ok"] == true);
    return envelope["result"];
  };
  auto declared = run(config, {});
  CHECK(declared["scenario"]["kv_cache"] == "fp8");
  // "auto", the page's default, is the same engine default; llama.cpp's is f16 whatever the
  // checkpoint declares.
  CHECK(run(config, {{"kv_cache", "auto"}})["scenario"]["kv_cache"] == "fp8");
  CHECK(run(config, {{"kv_cache", "auto"}, {"engine", "llama.cpp"}})["scenario"]["kv_cache"] == "f16");
  CHECK(declared["memory"]["kv_cache"]["bytes_per_token"] == 32768);
  CHECK(std::fabs(268343 * 16384.0 / (1 << 30) - 4.09) < 0.005);  // the log's rounding
  CHECK(std::fabs(117125 * 16384.0 / (1 << 30) - 1.79) < 0.005);
  CHECK_FALSE(declared["commands"]["sglang"]["flags"].contains("--kv-cache-dtype"));
  // A 16-bit cache asked for: twice the bytes, and the flag that keeps it (SGLang spells it bf16).
  auto wide = run(config, {{"kv_cache", "bf16"}});
  CHECK(wide["memory"]["kv_cache"]["bytes_per_token"] == 65536);
  CHECK(wide["commands"]["sglang"]["flags"]["--kv-cache-dtype"] == "bf16");
  CHECK(wide["commands"]["sglang"]["notes"].get<std::string>().find("the KV cache type the checkpoint declares") != std::string::npos);

  // An NVFP4 cache declared: vLLM's auto takes it, SGLang's stays 16-bit (only "FP8" is looked
  // for; PR #18581, which mapped NVFP4 too, was closed unmerged). Llama 3.1 8B's shapes: 32
  // layers x 8 KV heads x 128 x (K + V) = 65,536 elements a token.
  nlohmann::json llama = llmcalc::Catalog::instance().find_model("llama-3.1-8b")->config();
  llama["quantization_config"] = {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"},
                                  {"kv_cache_scheme", {{"type", "float"}, {"num_bits", 4}}}};
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}})["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}, {"engine", "vllm"}})["scenario"]["kv_cache"] == "nvfp4");
  // The flat form of nvidia/Gemma-4-31B-IT-NVFP4 (quant_method modelopt, kv_cache_scheme an 8-bit
  // float; SGLang 0.5.10.post1 logged "Using KV cache dtype: torch.float8_e4m3fn" without the
  // flag, search-index file id 53687654309): fp8.
  llama["quantization_config"]["kv_cache_scheme"] = {{"type", "float"}, {"num_bits", 8}, {"dynamic", false}};
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}})["memory"]["kv_cache"]["bytes_per_token"] == 65536);

  // compressed-tensors since PR #35455 (2026-08-19): a static symmetric per-tensor FP8 scheme is
  // loaded and makes the cache fp8; a dynamic one is skipped (16-bit), where vLLM takes any scheme.
  llama["quantization_config"] = {{"quant_method", "compressed-tensors"}, {"format", "float-quantized"},
                                  {"kv_cache_scheme", {{"type", "float"}, {"num_bits", 8}, {"dynamic", false},
                                                       {"symmetric", true}, {"strategy", "tensor"}}}};
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}})["memory"]["kv_cache"]["bytes_per_token"] == 65536);
  llama["quantization_config"]["kv_cache_scheme"]["dynamic"] = true;
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}})["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  CHECK(run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}, {"engine", "vllm"}})["scenario"]["kv_cache"] == "fp8");
  // Another engine's estimate keeps its own 16-bit default; the SGLang command beside it keeps
  // SGLang's (no flag) unless a 16-bit cache was named, which it then needs the flag for.
  llama["quantization_config"]["kv_cache_scheme"]["dynamic"] = false;
  auto other = run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}, {"engine", "llama.cpp"}, {"weights", "Q4_K_M"}});
  CHECK(other["memory"]["kv_cache"]["bytes_per_token"] == 131072);
  CHECK_FALSE(other["commands"]["sglang"]["flags"].contains("--kv-cache-dtype"));
  auto named = run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}, {"engine", "llama.cpp"},
                           {"weights", "Q4_K_M"}, {"kv_cache", "f16"}});
  CHECK(named["commands"]["sglang"]["flags"]["--kv-cache-dtype"] == "bf16");
  // Under vLLM "auto" gives the declared fp8: the llama.cpp command beside it keeps llama.cpp's
  // f16 (no -ctk), as the SGLang one its own default.
  auto under_vllm = run(llama, {{"hardware", "rtx-4090"}, {"context_tokens", 8192}, {"engine", "vllm"}, {"kv_cache", "auto"}});
  CHECK(under_vllm["scenario"]["kv_cache"] == "fp8");
  CHECK_FALSE(under_vllm["commands"]["vllm"]["flags"].contains("--kv-cache-dtype"));
  CHECK(under_vllm["commands"]["llama.cpp"]["command"].get<std::string>().find("--cache-type-k") == std::string::npos);
}

TEST_CASE("vLLM's hybrid pages: Nemotron 3.5 Lightning NVFP4 on a DGX Spark against its v0.27.1 log", "[engines][vllm][engine_logs]") {
  // damienjose/nvidia-oci-samples dgx-spark-samples/nemotron-lightning-vllm-endpoint README
  // (search-index file id 57367886447): vllm/vllm-openai:v0.27.1, `vllm serve
  // nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4 --max-model-len 65536` and parsers only;
  // "Weights resident 17.85 GiB", "KV cache 90.08 GiB - 24,703,795 tokens", "Maximum concurrency
  // at 64k context 376.95x", and "Using fp8_e4m3 data type to store kv cache appears with no
  // --kv-cache-dtype passed. The checkpoint pins it" (its hf_quant_config.json: the KV part here).
  // v0.27.1 kept prefix caching off for hybrid models (mode "none").
  nlohmann::json config = llmcalc::Catalog::instance().find_model("nemotron-3.5-lightning-30b-a3b")->config();
  config["quantization_config"] = {{"producer", {{"name", "modelopt"}}}, {"quantization", {{"kv_cache_quant_algo", "FP8"}}}};
  nlohmann::json request = {{"model", config},          {"weights", "NVFP4"},          {"engine", "vllm"},
                            {"hardware", "dgx-spark-gb10"}, {"context_tokens", 65536}, {"prefix_caching", false}};
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  const nlohmann::json& memory = envelope["result"]["memory"];
  CHECK(envelope["result"]["commands"]["vllm"]["flags"].contains("--no-enable-prefix-caching"));
  CHECK(llmcalc_test::within_log_tolerance(memory["per_device"][0]["weights_bytes"].get<double>(), 17.85 * 1024));
  CHECK(llmcalc_test::within_log_tolerance(memory["kv_pool_bytes"].get<double>(), 90.08 * 1024));
  // By hand: 23 Mamba2 layers, each state a conv window of 3 x (64 x 64 + 2 x 8 x 128) bf16
  // values (36,864 B) and 64 x 64 x 128 float32 SSM values (2,097,152 B): 2,134,016 B; 6
  // attention layers of 2 KV heads x 128 x (K + V) in fp8: 512 B a token. Block: 16 x
  // ceil(2,134,016 / (16 x 512)) = 4,176 tokens, page 4,176 x 512 = 2,138,112 B; groups of 6
  // (4 Mamba, 1 attention); a 65,536-token request holds ceil(65,536 / 4,176) = 16 + 4 x 1 = 20
  // blocks of 6 pages: 256,573,440 B, the log's 90.08 GiB / 376.95 = 256.59 MB. (Nemotron 3 Nano
  // 30B, the same Mamba2 shapes, logs "Setting attention block size to 4176 tokens" and "Padding
  // mamba page size by 0.19%" with an fp8 cache: 2,138,112 / 2,134,016 = 1.0019; search-index file
  // ids 51923877316, 59839511370.)
  const double per_request = llmcalc_test::kv_bytes_per_request(memory);
  CHECK(per_request == Approx(20.0 * 2138112 * 6).epsilon(1e-6));
  CHECK(per_request == Approx(90.08 * 1073741824.0 / 376.95).epsilon(0.001));
  // vLLM 0.28 and later cache prefixes of hybrid models too ("align": 2 blocks per Mamba group):
  // 16 + 4 x 2 = 24 blocks.
  request.erase("prefix_caching");
  auto aligned = llmcalc_test::estimate(request);
  CHECK(llmcalc_test::kv_bytes_per_request(aligned["result"]["memory"]) == Approx(24.0 * 2138112 * 6).epsilon(1e-6));
  // A 16-bit cache: 1,024 B a token, block 16 x ceil(2,134,016 / 16,384) = 2,096 tokens, a request
  // 32 + 4 blocks of 2,096 x 1,024 = 2,146,304 B x 6.
  request["prefix_caching"] = false;
  request["kv_cache"] = "bf16";
  auto wide = llmcalc_test::estimate(request);
  CHECK(llmcalc_test::kv_bytes_per_request(wide["result"]["memory"]) == Approx(36.0 * 2146304 * 6).epsilon(1e-6));
}

TEST_CASE("vLLM profiles a Qwen3.5 vision tower on its largest image; --language-model-only skips it", "[engines][vllm][engine_logs]") {
  // vLLM 0.29 on one L4, Qwen/Qwen3.5-4B BF16, defaults (tests/data/engine_logs.json record
  // vllm-0.29-qwen3.5-4b-bf16-l4): "Encoder cache will be initialized with a budget of 16384 tokens,
  // and profiled with 1 image items of the maximum feature size" (the Qwen3.5/3.6 logs there), and
  // "2.17 GiB for peak activation" (with the CUDA-graph estimate; 0.24 GiB of graphs were captured).
  nlohmann::json request = {{"model", "qwen3.5-4b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"context_tokens", 32768}, {"hardware", "l4"}};
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  const nlohmann::json& memory = envelope["result"]["memory"];
  // By hand: 16,384 tokens x 2 x 2 merged patches = 65,536 patches of 3 x 2 x 16 x 16 = 1,536 pixel
  // values (f32, 4 B), and in bf16 the position embeddings, a block's input and its norm (3 x 1,024
  // wide) and fc1's output and its activation (2 x 4,096 wide): 65,536 x (6,144 + 6,144 + 16,384) =
  // 1,879,048,192 B (1.75 GiB). The language model's run is smaller: L4 defaults 2,048 tokens and
  // 256 sequences, 2,048 x (6 x 9,216 + 6 x 2,560) = 144,703,488 B, the sampler 256 x 248,320 x 18 =
  // 1,144,258,560 B, the encoder's cached output 16,384 x 2,560 x 2 = 83,886,080 B: 1,372,848,128 B.
  CHECK(memory["per_device"][0]["compute_bytes"].get<int64_t>() == 1879048192);
  // With the CUDA-graph estimate, what the overhead holds beside non-torch memory (256 MiB) against
  // the log's 2.17 GiB.
  CHECK((memory["overhead_bytes"].get<double>() - 256.0 * 1048576.0) / 1073741824.0 == Approx(2.17).margin(0.05));
  CHECK_FALSE(envelope["result"]["commands"]["vllm"]["flags"].contains("--language-model-only"));

  // --language-model-only (request mmproj false): no tower, so no encoder run and no tower weights.
  request["mmproj"] = false;
  auto text = llmcalc_test::estimate(request);
  REQUIRE(text["ok"] == true);
  const nlohmann::json& text_memory = text["result"]["memory"];
  CHECK(text_memory["per_device"][0]["compute_bytes"].get<int64_t>() == 144703488 + 1144258560);
  const int64_t tower = memory["weights_bytes"].get<int64_t>() - text_memory["weights_bytes"].get<int64_t>();
  CHECK(tower == 2 * (text["result"]["params"]["vision"].get<int64_t>() + text["result"]["params"]["projector"].get<int64_t>()));
  CHECK(text["result"]["commands"]["vllm"]["flags"].contains("--language-model-only"));
  CHECK(text_memory["kv_pool_bytes"].get<int64_t>() > memory["kv_pool_bytes"].get<int64_t>() + tower);
}

TEST_CASE("vLLM drafts with the checkpoint's MTP layers: their weights and pages and wider conv windows", "[engines][vllm][engine_logs]") {
  // vLLM 0.22.1rc1 on a DGX Spark, nvidia/Qwen3.6-35B-A3B-NVFP4 with speculative_config mtp, 2
  // tokens (tests/data/engine_logs.json record vllm-0.22-qwen3.6-35b-a3b-nvfp4-dgx-spark): "Setting
  // attention block size to 2128 tokens", "Add 3 padding layers", 74.76 GiB and "Maximum concurrency
  // for 262,144 tokens per request: 24.62x".
  nlohmann::json request = {{"model", "qwen3.6-35b-a3b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"context_tokens", 262144}, {"kv_cache", "fp8"}, {"hardware", "dgx-spark-gb10"},
                            {"mtp", true}};
  auto drafting = llmcalc_test::estimate(request);
  REQUIRE(drafting["ok"] == true);
  // By hand: a linear layer's state is 32 x 128 x 128 f32 (2,097,152 B) and a conv window of
  // 2 x 16 x 128 + 32 x 128 = 8,192 channels x (4 - 1 + 2 drafts) rows in bf16 (81,920 B):
  // 2,179,072 B = 2,128 tokens x 1,024 B (2 KV heads x 256 x K and V, fp8). Groups of 11 (10
  // attention layers + the drafter's); a request: ceil(262,144 / 2,128) = 124 attention blocks and
  // 3 linear groups x (2 + 2 drafts) = 136 blocks of 11 pages: 3,259,891,712 B, against the log's
  // 74.76 GiB / 24.62 = 3,260,476,798 B.
  CHECK(llmcalc_test::kv_bytes_per_request(drafting["result"]["memory"]) == Approx(136.0 * 2179072 * 11).epsilon(1e-9));
  CHECK(llmcalc_test::kv_bytes_per_request(drafting["result"]["memory"]) == Approx(74.76 * 1073741824.0 / 24.62).epsilon(0.001));
  CHECK(drafting["result"]["commands"]["vllm"]["flags"]["--speculative-config"] ==
        "'{\"method\":\"mtp\",\"num_speculative_tokens\":2}'");
  // The drafter's layers load beside the model, in its format (BF16: 2 B a parameter).
  request["mtp"] = false;
  auto plain = llmcalc_test::estimate(request);
  REQUIRE(plain["ok"] == true);
  CHECK(drafting["result"]["memory"]["weights_bytes"].get<int64_t>() - plain["result"]["memory"]["weights_bytes"].get<int64_t>() ==
        2 * plain["result"]["params"]["mtp"].get<int64_t>());
  CHECK_FALSE(plain["result"]["commands"]["vllm"]["flags"].contains("--speculative-config"));
  // Without drafts: 16 x ceil(2,146,304 / 16,384) = 2,096 tokens a block, groups of 10, 126 + 3 x 2
  // blocks of 10 pages of 2,146,304 B.
  CHECK(llmcalc_test::kv_bytes_per_request(plain["result"]["memory"]) == Approx(132.0 * 2146304 * 10).epsilon(1e-9));

  // DeepSeek R1's MTP layer ships its own embedding and head (129,280 x 7,168 each, BF16 in the FP8
  // checkpoint: 3,706,978,304 B); vLLM shares the model's and keeps the rest of the layer.
  nlohmann::json deepseek = {{"model", "deepseek-r1-0528"}, {"weights", "FP8"}, {"engine", "vllm"},
                             {"hardware", "h200-sxm"}, {"devices", 8}, {"mtp", true}};
  auto deepseek_drafting = llmcalc_test::estimate(deepseek);
  deepseek["mtp"] = false;
  auto deepseek_plain = llmcalc_test::estimate(deepseek);
  REQUIRE(deepseek_drafting["ok"] == true);
  REQUIRE(deepseek_plain["ok"] == true);
  CHECK(deepseek_drafting["result"]["memory"]["weights_bytes"].get<int64_t>() -
            deepseek_plain["result"]["memory"]["weights_bytes"].get<int64_t>() ==
        deepseek_plain["result"]["weights"]["mtp_bytes"].get<int64_t>() - 2LL * 129280 * 7168 * 2);

  // Ollama's commands carry no drafting: it is set aside with a warning, its memory and speed
  // those of the plain model.
  nlohmann::json ollama = {{"model", "qwen3.6-27b"}, {"engine", "ollama"}, {"hardware", "h100-sxm"}, {"mtp", true}};
  auto ollama_drafting = llmcalc_test::estimate(ollama);
  ollama.erase("mtp");
  auto ollama_plain = llmcalc_test::estimate(ollama);
  REQUIRE(ollama_drafting["ok"] == true);
  REQUIRE(ollama_plain["ok"] == true);
  bool warned = false;
  for (const auto& issue : ollama_drafting["issues"]) warned |= issue["code"] == "mtp_not_modelled";
  CHECK(warned);
  CHECK(ollama_drafting["result"]["memory"]["weights_bytes"] == ollama_plain["result"]["memory"]["weights_bytes"]);
  CHECK(ollama_drafting["result"]["decode"]["tokens_per_s"] == ollama_plain["result"]["decode"]["tokens_per_s"]);
}

TEST_CASE("SGLang drafts with the MTP layers: the draft's own embedding and head at sizing, its pool and verify states", "[engines][sglang]") {
  // Qwen3.6-27B BF16 on one H100 (79.18 GiB less the 512 MiB context free before the weights load:
  // 84,482,006,712 B), --mem-fraction-static 0.85, 32,768 tokens, 2 drafts: --speculative-num-steps
  // 2, 3 tokens verified a step.
  nlohmann::json request = {{"model", "qwen3.6-27b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "h100-sxm"},
                            {"context_tokens", 32768}, {"mem_fraction_static", 0.85}, {"mtp", true}};
  auto drafting = llmcalc_test::estimate(request);
  request["mtp"] = false;
  auto plain = llmcalc_test::estimate(request);
  REQUIRE(drafting["ok"] == true);
  REQUIRE(plain["ok"] == true);
  bool warned = false;
  for (const auto& issue : drafting["issues"]) warned |= issue["code"] == "mtp_not_modelled";
  CHECK_FALSE(warned);
  const nlohmann::json& flags = drafting["result"]["commands"]["sglang"]["flags"];
  CHECK(flags["--speculative-algorithm"] == "EAGLE");
  CHECK(flags["--speculative-num-steps"] == "2");
  CHECK(flags["--speculative-eagle-topk"] == "1");
  CHECK(flags["--speculative-num-draft-tokens"] == "3");
  CHECK_FALSE(plain["result"]["commands"]["sglang"]["flags"].contains("--speculative-algorithm"));

  // The draft keeps its MTP layer (BF16: 2 B a parameter); while the pools are sized it also holds
  // its own 248,320 x 5,120 embedding and head in bf16, 5,085,593,600 B: together the "Load weight
  // end. type=Qwen3_5ForCausalLMMTP ... mem usage=5.53 GB" of a 27B's BF16 log (search-index doc
  // id 68576807532).
  const int64_t plain_weights = plain["result"]["memory"]["weights_bytes"].get<int64_t>();
  const int64_t drafter = 2 * plain["result"]["params"]["mtp"].get<int64_t>();
  const int64_t vocab_copies = 2LL * 248320 * 5120 * 2;
  CHECK(drafting["result"]["memory"]["weights_bytes"].get<int64_t>() == plain_weights + drafter);
  CHECK(static_cast<double>(drafter + vocab_copies) / 1073741824.0 == Approx(5.53).margin(0.005));

  // By hand: the static share 0.85 x 84,482,006,712 = 71,809,705,705 B less the weights at sizing
  // leaves `rest`. A request's state: 48 Gated DeltaNet layers of 48 x 128 x 128 f32 and 3 x (2 x
  // 16 x 128 + 48 x 128) bf16 elements, 3,207,168 B, 153,944,064 B in all (a third-party reading of
  // SGLang's sizing gives 153.9 MB: search-index id 63144735551). The state budget rest x 0.9 / 1.9
  // holds K slots with (K + 1) states and a verify cache of (min(48, K / 5) + 1) x 3 states.
  const int64_t rest = 71809705705LL - (plain_weights + drafter + vocab_copies);
  const double state = 153944064.0;
  const double budget = static_cast<double>(rest) * 0.9 / 1.9;
  const int64_t slots = static_cast<int64_t>(std::floor((budget - state * 4) / (state * (1 + 3.0 / 5))));
  const int64_t requests = std::min<int64_t>(48, slots / 5);
  CHECK(slots == 18);
  const int64_t states = (slots + 1 + (requests + 1) * 3) * 153944064LL;
  const nlohmann::json& memory = drafting["result"]["memory"];
  CHECK(memory["kv_pool_bytes"] == rest - states);
  // The pool's tokens cost the model's 16 full layers (4 KV heads x 256 x K and V x 2 B: 65,536 B);
  // the draft's pool (one layer, 4,096 B a token) is not in SGLang's cell for Qwen3.5 and later.
  CHECK(memory["kv_capacity_tokens"] == (rest - states) / 65536);
  CHECK(memory["max_concurrent_sequences"].get<double>() ==
        Approx(std::min(static_cast<double>(requests), static_cast<double>((rest - states) / 65536) / 32768.0)));
  CHECK(memory["per_device"][0]["kv_cache_bytes"] == (65536 + 4096) * 32768LL + states);

  // --max-mamba-cache-size 20 with 2 running requests: 20 + 1 states and (2 + 1) x 3 verify states,
  // whatever the budget. The structure as an upstream log shows it (sgl-project/sglang issue
  // #39830, main 2929a399, Qwen3.8-Flash-Next with --max-mamba-cache-size 48, 4 running, 3 drafts,
  // bf16 SSM): "ssm_state size: 2.58GB" = 49 x 36 x 48 x 128 x 128 x 2 B and
  // "intermediate_ssm_state_cache size: 1.05GB" = (4 + 1) x 4 of them (search-index id 71329258881).
  request["mtp"] = true;
  request["max_mamba_cache_size"] = 20;
  request["max_num_seqs"] = 2;
  auto given = llmcalc_test::estimate(request);
  REQUIRE(given["ok"] == true);
  CHECK(given["result"]["memory"]["kv_pool_bytes"] == rest - (21 + 3 * 3) * 153944064LL);
  CHECK(given["result"]["memory"]["max_concurrent_sequences"].get<double>() == Approx(2.0));
  CHECK(given["result"]["commands"]["sglang"]["flags"]["--max-mamba-cache-size"] == "20");
  // Without the radix cache (prefix_caching false: --disable-radix-cache) a request holds one slot
  // and --max-running-requests 2 makes the slots 2: 3 states and (2 + 1) x 3 verify states (a
  // third party's reading of the same code: "K = max_running  # from_max_running_requests branch",
  // search-index id 63144735551).
  request.erase("max_mamba_cache_size");
  request["prefix_caching"] = false;
  auto radixless = llmcalc_test::estimate(request);
  REQUIRE(radixless["ok"] == true);
  CHECK(radixless["result"]["memory"]["kv_pool_bytes"] == rest - (3 + 3 * 3) * 153944064LL);
  CHECK(radixless["result"]["memory"]["max_concurrent_sequences"].get<double>() == Approx(2.0));
  CHECK(radixless["result"]["commands"]["sglang"]["flags"].contains("--disable-radix-cache"));

  // A v0.5.17 log (record sglang-0.5.17-qwen3.6-27b-bf16-a100-pcie-eagle-5-6 of
  // tests/data/engine_logs.json: one A100 80GB PCIe, 0.92, 169,000 tokens, 4 running, 5 drafts, bf16
  // SSM state): "max_mamba_cache_size: 43" and 171,008 tokens. A request's state is 48 x (30,720 +
  // 786,432) x 2 B = 78,446,592 B; the device holds the draft's and the model's KV for the context
  // (69,632 B a token, 169,008 paged) and K + 1 + (4 + 1) x 6 states.
  const nlohmann::json a100 = {{"model", "qwen3.6-27b"}, {"weights", "BF16"}, {"engine", "sglang"}, {"hardware", "a100-80gb-pcie"},
                               {"context_tokens", 169000}, {"mem_fraction_static", 0.92}, {"max_num_seqs", 4},
                               {"mamba_ssm_dtype", "bfloat16"}, {"mtp", true}, {"mtp_draft_tokens", 5}};
  auto logged = llmcalc_test::estimate(a100);
  REQUIRE(logged["ok"] == true);
  const int64_t a100_states = logged["result"]["memory"]["per_device"][0]["kv_cache_bytes"].get<int64_t>() - 69632LL * 169008;
  CHECK(a100_states == (43 + 1 + 5 * 6) * 78446592LL);
  CHECK(logged["result"]["memory"]["kv_capacity_tokens"].get<double>() == Approx(171008.0).epsilon(0.02));

  // DeepSeek R1 at tp 8 on H200s: the draft's pool is in the cell (an MLA row of (512 + 64) x 2 B
  // for each of 61 + 1 layers), and its load at sizing is the whole MTP layer, whose embedding
  // and head it ships (129,280 x 7,168 each, bf16), an eighth a rank; running requests default to 48.
  nlohmann::json deepseek = {{"model", "deepseek-r1-0528"}, {"weights", "FP8"}, {"engine", "sglang"}, {"hardware", "h200-sxm"},
                             {"devices", 8}, {"context_tokens", 32768}, {"mem_fraction_static", 0.85}, {"mtp", true}};
  auto deepseek_drafting = llmcalc_test::estimate(deepseek);
  deepseek["mtp"] = false;
  auto deepseek_plain = llmcalc_test::estimate(deepseek);
  REQUIRE(deepseek_drafting["ok"] == true);
  REQUIRE(deepseek_plain["ok"] == true);
  const nlohmann::json& with = deepseek_drafting["result"]["memory"];
  const nlohmann::json& without = deepseek_plain["result"]["memory"];
  const int64_t mtp_bytes = deepseek_plain["result"]["weights"]["mtp_bytes"].get<int64_t>();
  CHECK(with["weights_bytes"].get<int64_t>() - without["weights_bytes"].get<int64_t>() == mtp_bytes - 2LL * 129280 * 7168 * 2);
  const int64_t plain_pool = without["kv_pool_bytes"].get<int64_t>() / 8;
  CHECK(without["kv_capacity_tokens"] == plain_pool / (61 * 1152));
  const int64_t drafting_pool = with["kv_pool_bytes"].get<int64_t>() / 8;
  CHECK(static_cast<double>(plain_pool - drafting_pool) == Approx(static_cast<double>(mtp_bytes) / 8).margin(8));
  CHECK(with["kv_capacity_tokens"] == drafting_pool / (62 * 1152));
  CHECK(with["max_concurrent_sequences"].get<double>() == Approx(std::min(48.0, static_cast<double>(drafting_pool / (62 * 1152)) / 32768.0)));
}

TEST_CASE("A quantized checkpoint's config names its weights format", "[engines][readers]") {
  nlohmann::json config = llmcalc::Catalog::instance().find_model("llama-3.1-8b")->config();
  auto format_of = [&](nlohmann::json quantization) {
    config["quantization_config"] = quantization;
    auto envelope = llmcalc_test::estimate({{"model", config}, {"engine", "vllm"}});
    REQUIRE(envelope["ok"] == true);
    return envelope["result"]["scenario"]["checkpoint_format"].get<std::string>();
  };
  // The quant_method values transformers writes (its quantizers' configs) and the packing names
  // of compressed-tensors.
  CHECK(format_of({{"quant_method", "fp8"}, {"weight_block_size", {128, 128}}}) == "FP8");
  CHECK(format_of({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}}) == "AWQ-INT4");
  CHECK(format_of({{"quant_method", "gptq"}, {"bits", 8}, {"group_size", 128}}) == "GPTQ-INT8");
  CHECK(format_of({{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}}) == "BNB-NF4");
  CHECK(format_of({{"quant_method", "mxfp4"}}) == "MXFP4");
  CHECK(format_of({{"quant_method", "modelopt"}, {"quant_algo", "FP8"}}) == "FP8");
  CHECK(format_of({{"quant_method", "compressed-tensors"}, {"format", "nvfp4-pack-quantized"}}) == "NVFP4");
  CHECK(format_of({{"quant_method", "compressed-tensors"}, {"format", "pack-quantized"}}) == "GPTQ-INT4");
  // What it cannot map leaves the request's weights alone: a mixed-precision ModelOpt export, a
  // 3-bit GPTQ.
  CHECK(format_of({{"quant_method", "modelopt"}, {"quant_algo", "MIXED_PRECISION"}}).empty());
  CHECK(format_of({{"quant_method", "gptq"}, {"bits", 3}}).empty());
  config.erase("quantization_config");
  auto plain = llmcalc_test::estimate({{"model", config}});
  CHECK(plain["result"]["scenario"]["weights"] == "Q4_K_M");
  // A request naming its weights keeps them.
  config["quantization_config"] = {{"quant_method", "fp8"}};
  auto named = llmcalc_test::estimate({{"model", config}, {"weights", "AWQ-INT4"}, {"engine", "vllm"}});
  CHECK(named["result"]["scenario"]["weights"] == "AWQ-INT4");
  CHECK(named["result"]["commands"]["vllm"]["flags"]["--quantization"] == "awq");
}

TEST_CASE("Every engine behaviour is tested and listed in the README", "[engines][registry]") {
  const nlohmann::json engines = nlohmann::json::parse(read_text("../../data/engines.json"));
  const std::string readme = read_text("../../README.md");
  std::set<std::string> test_names;
  for (const Catch::TestCase& test : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
    test_names.insert(test.getTestCaseInfo().name);
  }
  int behaviours = 0;
  for (const auto& [name, engine] : engines.at("engines").items()) {
    INFO(name);
    CHECK_FALSE(engine.at("version").get<std::string>().empty());
    auto result = result_of({{"model", "llama-3.1-8b"}, {"engine", name}});
    CHECK(result["engine"]["version"] == engine.at("version"));
    for (const auto& behaviour : engine.at("behaviours")) {
      std::string id = behaviour.at("id").get<std::string>();
      INFO(id);
      CHECK_FALSE(behaviour.at("source").get<std::string>().empty());
      CHECK(readme.find("`" + id + "`") != std::string::npos);
      REQUIRE(behaviour.at("tests").size() > 0);
      for (const auto& test : behaviour.at("tests")) CHECK(test_names.count(test.get<std::string>()) == 1);
      ++behaviours;
    }
  }
  CHECK(behaviours >= 25);  // the registry is not silently emptied
}
