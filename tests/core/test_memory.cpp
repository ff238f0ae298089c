// KV cache and engine memory by hand for every attention kind and engine rule, and against the
// KV lines of 2025 llama.cpp logs for the rules that have not changed since
// (tests/data/engine_logs_2025.json); the 2026 logs are in test_engine_logs.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "llmcalc/catalog.h"
#include "llmcalc/kv_cache.h"
#include "llmcalc/memory.h"
#include "llmcalc/weights.h"
#include "test_support.h"

namespace {

constexpr double kMiB = 1048576.0;
constexpr double kGiB = 1073741824.0;

int64_t kv_bytes(const std::string& id, const char* type, int64_t context, int64_t sequences = 1,
                 int64_t ubatch = 512, bool llama_cpp = true, bool unified = false) {
  auto model = llmcalc_test::catalog_model(id);
  llmcalc::KvRequest request;
  request.context_tokens = context;
  request.sequences = sequences;
  request.ubatch_tokens = ubatch;
  request.layout = llama_cpp ? llmcalc::KvLayout::llama_cpp : llmcalc::KvLayout::paged;
  request.unified = unified;
  return llmcalc::kv_cache_bytes(model, *llmcalc::find_kv_type(type), request).total_bytes;
}

}  // namespace

TEST_CASE("llama.cpp KV sizes match published 'KV self size' lines", "[kv][published]") {
  // ikawrakow/ik_llama.cpp discussion copies of mainline logs, see tests/data/engine_logs_2025.json:
  // full-attention GQA caches are sized the same way in today's builds.
  CHECK(kv_bytes("qwen3-235b-a22b", "f16", 32768) / kMiB == Approx(6016.00).epsilon(0.03));
  CHECK(kv_bytes("qwen3-235b-a22b", "q8_0", 16384) / kMiB == Approx(1598.00).epsilon(0.03));
  CHECK(kv_bytes("llama-3.1-8b", "f16", 16384) / kMiB == Approx(2048.00).epsilon(0.03));
  CHECK(kv_bytes("llama-3.1-8b", "f16", 4096) / kMiB == Approx(512.00).epsilon(0.03));
  CHECK(kv_bytes("qwen3-30b-a3b", "f16", 16384) / kMiB == Approx(1536.00).epsilon(0.03));
  CHECK(kv_bytes("qwen3-30b-a3b", "f16", 4096) / kMiB == Approx(384.00).epsilon(0.03));
  // DeepSeek-V3-0324 with mainline MLA at 16K (build 5331): "K (f16): 1098.00 MiB, V (f16):
  // 976.00 MiB". Since PR #19067 (Jan 2026) the V cache, a copy of the latent, is not
  // allocated: only the K part remains.
  CHECK(kv_bytes("deepseek-v3", "f16", 16384) / kMiB == Approx(1098.00).epsilon(0.03));
  // Ollama gpt-oss-120b, 2 sequences of 131072, ubatch 1024: non-SWA 9216 MiB + SWA 90 MiB.
  CHECK(kv_bytes("gpt-oss-120b", "f16", 131072, 2, 1024) / kMiB ==
        Approx(9216.00 + 90.00).epsilon(0.03));
}

TEST_CASE("KV by hand for every attention kind and llama.cpp's stream layouts", "[kv][hand]") {
  // Gemma 3 27B at 128K (llama.cpp, 1 sequence, ubatch 512): 10 global layers of 62
  // (every 6th) x 16 KV heads x (128 + 128) x 2 B = 81,920 B/token x 131,072 = 10,737,418,240;
  // 52 sliding layers x 8,192 B x pad(1024 + 512, 256) = 1,536 cells = 654,311,424.
  CHECK(kv_bytes("gemma-3-27b", "f16", 131072) == 10737418240LL + 654311424LL);
  // DeepSeek-V3 at 64K: 61 MLA layers x (512 + 64) x 2 B x 65,536 = 4,605,345,792, in vLLM and
  // in llama.cpp since its V-less cache (PR #19067).
  CHECK(kv_bytes("deepseek-v3", "f16", 65536, 1, 512, false) == 4605345792LL);
  CHECK(kv_bytes("deepseek-v3", "f16", 65536) == 4605345792LL);
  // GLM-5.2 at 768,000 cells (llama.cpp, DSA): the latent cache 78 x 576 x 2 B x 768,000 =
  // 69,009,408,000 and the indexer keys on the 21 layers whose indexer is not shared
  // (indexer_types "full") 21 x 128 x 2 B x 768,000 = 4,128,768,000 (the log: 65812.50 and
  // 3937.50 MiB).
  CHECK(kv_bytes("glm-5.2", "f16", 768000) == 69009408000LL + 4128768000LL);
  // MiniMax-M3 (MiniMax Sparse Attention): all 60 layers keep K and V, 4 KV heads x (128 + 128);
  // the 57 sparse layers (3-59) add one index key of 128 per token. vLLM (vllm/models/minimax_m3/
  // common/indexer.py: MiniMaxM3IndexerCache, indexer_kv_dtype "bf16" by default) keeps that key in
  // bf16 whatever the KV dtype; llama.cpp's llama_kv_cache_msa (PR #26338) keeps it in a second
  // cache of one KV head in the -ctk / -ctv types, V rows included though unused. At 32,768 tokens:
  //   vLLM, bf16 KV:  60 x 2,048 B + 57 x 256 B = 137,472 B/token x 32,768 = 4,504,682,496
  //   vLLM, fp8 KV:   60 x 1,024 B + 57 x 256 B =  76,032 B/token          = 2,491,416,576
  //   llama.cpp f16:  60 x 2,048 B + 57 x 2 x 256 B = 152,064 B/token      = 4,982,833,152
  //   llama.cpp q8_0: 60 x 2 x 4 x 136 B + 57 x 2 x 136 B = 80,784 B/token = 2,647,130,112
  CHECK(kv_bytes("minimax-m3", "bf16", 32768, 1, 512, false) == 4504682496LL);
  CHECK(kv_bytes("minimax-m3", "fp8", 32768, 1, 512, false) == 2491416576LL);
  CHECK(kv_bytes("minimax-m3", "f16", 32768) == 4982833152LL);
  CHECK(kv_bytes("minimax-m3", "q8_0", 32768) == 2647130112LL);
  // A real log of that cache (llama.cpp PR #26297, 2026-07-31, build b10188: MiniMax-M3 IQ3_S,
  // --ctx-size 96000 --parallel 1, f16 K/V, layers split over five GPUs by --fit). Its
  // common_memory_breakdown_print gives each GPU's context (the KV cache) in MiB: CUDA0 4078, CUDA1
  // 3515, CUDA2 3281, CUDA3 1406. A dense layer holds 2,048 B x 96,000 = 187.5 MiB, a sparse one
  // 2,560 B x 96,000 = 234.375 MiB: CUDA0 the 3 dense layers and 15 sparse ones (4,078.125), CUDA1
  // 15 sparse (3,515.625), CUDA2 14 (3,281.25), CUDA3 6 (1,406.25). (b10188 kept the index key as
  // one f32 row of 128 beside K and V, PR #24908; since PR #26338 it is a K and an unused V row of
  // 128 in f16: 512 B either way.)
  {
    llmcalc::KvRequest request;
    request.context_tokens = 96000;
    request.layout = llmcalc::KvLayout::llama_cpp;
    auto kv = llmcalc::kv_cache_bytes(llmcalc_test::catalog_model("minimax-m3"), *llmcalc::find_kv_type("f16"), request);
    auto layers_mib = [&kv](std::size_t first, std::size_t count) {
      int64_t bytes = 0;
      for (std::size_t i = first; i < first + count; ++i) bytes += kv.per_layer_bytes[i];
      return static_cast<double>(bytes) / kMiB;
    };
    // The breakdown prints whole MiB, the division's remainder dropped.
    CHECK(std::floor(layers_mib(0, 18)) == 4078);
    CHECK(std::floor(layers_mib(18, 15)) == 3515);
    CHECK(std::floor(layers_mib(33, 14)) == 3281);
    CHECK(std::floor(layers_mib(47, 6)) == 1406);
  }
  // Gemma 3 27B at 128K under llama-server's automatic slots (4, one unified cache): the sliding
  // layers keep pad256(1,024 x 4 + 512) = 4,608 cells: 52 x 8,192 B x 4,608 = 1,962,934,272.
  CHECK(kv_bytes("gemma-3-27b", "f16", 131072, 4, 512, true, true) == 10737418240LL + 1962934272LL);
  // With -np 4 each slot gets its own stream of 131,072 cells and a sliding window of
  // pad256(1,024 + 512) = 1,536: 4 x (10,737,418,240 + 654,311,424).
  CHECK(kv_bytes("gemma-3-27b", "f16", 131072, 4, 512, true, false) == 4 * (10737418240LL + 654311424LL));
  // gpt-oss-120b at 128K: 18 full layers x 8 heads x (64 + 64) x 2 B = 2,048 B/layer/token
  // x 131,072 x 18 = 4,831,838,208; 18 sliding (window 128) x 2,048 x pad(128 + 512, 256) = 768
  // cells = 28,311,552.
  CHECK(kv_bytes("gpt-oss-120b", "f16", 131072) == 4831838208LL + 28311552LL);
  // Qwen3-Next-80B at 256K: 12 full layers x 2 KV heads x (256 + 256) x 2 B = 2,048 B x 262,144
  // x 12 = 6,442,450,944; 36 gated-DeltaNet layers keep f32 state: 32 heads x 128 x 128
  // + conv (4 - 1) x (2 x 2,048 + 4,096) = 548,864 floats = 2,195,456 B each = 79,036,416.
  CHECK(kv_bytes("qwen3-next-80b-a3b", "f16", 262144) == 6442450944LL + 79036416LL);
  // DeepSeek V4 Flash (llama.cpp src/llama-kv-cache-dsv4.cpp, f16, one sequence, -ub 512), all
  // K-only: every one of its 43 layers keeps a raw window of pad256(128 + 512) = 768 cells of
  // 512 (43 x 768 x 512 x 2 = 33,816,576); the 21 ratio-4 (CSA) layers add pad256(ceil(n/4))
  // compressed rows of 512 plus as many indexer keys of 128, the 20 ratio-128 (HCA) layers
  // pad256(ceil(n/128)) rows of 512; the f32 compressor states are 21 x (2 x 8 x 1,024 + 2 x 8 x
  // 256) x 4 + 20 x 2 x 128 x 512 x 4 = 12,206,080, fixed. 6,880 B per token beyond the pads.
  //   n = 4,096:     CSA 21 x 1,024 x 1,024 = 22,020,096; HCA 20 x 256 x 1,024 = 5,242,880;
  //                  indexer 21 x 1,024 x 256 = 5,505,024                 total 78,790,656
  //   n = 65,536:    352,321,536 + 10,485,760 + 88,080,384                total 496,910,336
  //   n = 1,048,576: 5,637,144,576 + 167,772,160 + 1,409,286,144          total 7,260,225,536
  // Step-3.5 Flash at 32K under llama-server's automatic slots (4, unified): 12 full layers x 8 KV
  // heads x (128 + 128) x 2 B = 4,096 B a layer a token x 32,768 = 1,610,612,736; the 33 sliding
  // layers (window 512) keep pad256(512 x 4 + 512) = 2,560 cells: 33 x 4,096 x 2,560 = 346,030,080.
  CHECK(kv_bytes("step-3.5-flash", "f16", 32768, 4, 512, true, true) == 1610612736LL + 346030080LL);
  CHECK(kv_bytes("deepseek-v4-flash", "f16", 4096) == 78790656LL);
  CHECK(kv_bytes("deepseek-v4-flash", "f16", 65536) == 496910336LL);
  CHECK(kv_bytes("deepseek-v4-flash", "f16", 1048576) == 7260225536LL);
  // Its stores stay one per sequence under llama-server's unified slots: 4 slots at 65,536
  // hold four of each, window included.
  CHECK(kv_bytes("deepseek-v4-flash", "f16", 65536, 4, 512, true, true) == 4 * 496910336LL);
  // A real log of that cache (llama.cpp issue #27680, DeepSeek-V4-Flash-0731, same shapes, -c
  // 64000, one sequence, K bf16, a 4,096-token ubatch): "creating SWA KV cache, size = 4352
  // cells", "size = 182.75 MiB (4352 cells, 43 layers ...)" = pad256(128 + 4,096) cells; the
  // compressor states "csa ... 1.31 MiB", "hca ... 10.00 MiB", "lid ... 0.33 MiB".
  {
    llmcalc::KvRequest request;
    request.context_tokens = 64000;
    request.ubatch_tokens = 4096;
    request.layout = llmcalc::KvLayout::llama_cpp;
    auto kv = llmcalc::kv_cache_bytes(llmcalc_test::catalog_model("deepseek-v4-flash"),
                                      *llmcalc::find_kv_type("bf16"), request);
    CHECK(kv.windowed_bytes == Approx(182.75 * 1048576).margin(0.005 * 1048576));
    CHECK(kv.state_bytes == Approx((1.31 + 10.00 + 0.33) * 1048576).margin(0.015 * 1048576));
  }
  // MiMo-V2.5's text model (48 layers, hidden 4,096, 64 query heads; 9 full-attention layers with
  // 4 KV heads and 39 sliding ones, window 128, with 8; K 192 and V 128 wide: the Hub card, and
  // sglang-jax PR #1164 "SWA=8, full=4"), as llama.cpp PR #22493's author logged it at -c 262144,
  // one sequence, -ub 4096: "size = 5760.00 MiB (262144 cells, 9 layers, 1/1 seqs), K (f16):
  // 3456.00 MiB, V (f16): 2304.00 MiB" and the SWA cache "size = 828.75 MiB (4352 cells, 39
  // layers, ...)" = pad256(128 + 4,096) cells x 39 x 8 x (192 + 128) x 2 B.
  {
    nlohmann::json config = llmcalc::Catalog::instance().find_model("mimo-v2.5-pro")->config();
    std::vector<int> pattern(48, 1);
    for (int full : {0, 5, 11, 17, 23, 29, 35, 41, 47}) pattern[static_cast<std::size_t>(full)] = 0;
    std::vector<int> moe(48, 1);
    moe[0] = 0;
    config.update({{"num_hidden_layers", 48}, {"hidden_size", 4096}, {"num_attention_heads", 64},
                   {"swa_num_attention_heads", 64}, {"num_key_value_heads", 4}, {"n_routed_experts", 256},
                   {"hybrid_layer_pattern", pattern}, {"moe_layer_freq", moe}});
    config.erase("quantization_config");
    llmcalc::Issues issues;
    auto model = llmcalc::build_model(config, "/model", issues);
    REQUIRE(model);
    llmcalc::KvRequest request;
    request.context_tokens = 262144;
    request.ubatch_tokens = 4096;
    request.layout = llmcalc::KvLayout::llama_cpp;
    auto kv = llmcalc::kv_cache_bytes(*model, *llmcalc::find_kv_type("f16"), request);
    CHECK(kv.full_attention_bytes == 5760LL * 1048576);
    CHECK(kv.windowed_bytes == Approx(828.75 * 1048576));
  }
  // Falcon-H1 0.5B at 8K: every one of its 36 layers caches attention KV (2 heads x (64 + 64) x
  // 2 B = 512 B/token, x 8,192 x 36 = 150,994,944) and keeps its parallel Mamba2 state in f32:
  // conv (4 - 1) x (1,536 + 2 x 128) + SSM 1,536 x 128 = 201,984 floats = 807,936 B, x 36 =
  // 29,085,696.
  CHECK(kv_bytes("falcon-h1-0.5b", "f16", 8192) == 150994944LL + 29085696LL);
}

TEST_CASE("vLLM per-rank KV bytes match published logs", "[memory][published][vllm]") {
  // Qwen3-235B-A22B-FP8, tensor parallel 4: "Available KV cache memory: 8.11 GiB" gave
  // "GPU KV cache size: 178,880 tokens": tokens = memory / (KV bytes per token / 4 devices).
  auto model = llmcalc_test::catalog_model("qwen3-235b-a22b");
  llmcalc::KvRequest one_token;
  one_token.context_tokens = 1;
  one_token.layout = llmcalc::KvLayout::paged;
  double per_device = static_cast<double>(
                          llmcalc::kv_cache_bytes(model, *llmcalc::find_kv_type("f16"), one_token)
                              .total_bytes) / 4.0;
  CHECK(8.11 * kGiB / per_device == Approx(178880).epsilon(0.03));
  // DeepSeek-V2-Lite-Chat: "To serve at least one request with the models's max seq len (32768),
  // (0.95 GiB KV cache is needed".
  CHECK(kv_bytes("deepseek-v2-lite", "f16", 32768, 1, 512, false) / kGiB == Approx(0.95).epsilon(0.03));
}

TEST_CASE("vLLM and SGLang pad gpt-oss's MXFP4 experts to their MoE kernel's multiples", "[memory][vllm][sglang][mxfp4]") {
  // gpt-oss-120b: 36 layers of 128 experts, hidden 2880, expert width 2880. One expert of width w
  // and hidden h holds 3wh FP4 values (3wh / 2 B) and 3wh / 32 E8M0 scales; its biases, bf16,
  // 2w + h values. The file's experts: 128 x 36 x (12,441,600 + 777,600) + 128 x 36 x 8,640 x 2
  // = 60,914,073,600 + 79,626,240 = 60,993,699,840 B; per layer the biases are 2,211,840 B.
  static constexpr double kExperts = 60993699840.0;
  auto rank_weights = [](const char* device, int tensor, bool expert_parallel, const char* engine = "vllm") {
    nlohmann::json parallel = {{"tensor", tensor}};
    if (expert_parallel) parallel["expert"] = true;
    auto out = llmcalc_test::estimate({{"model", "gpt-oss-120b"}, {"weights", "MXFP4"}, {"engine", engine},
                                       {"hardware", device}, {"devices", tensor}, {"parallel", parallel},
                                       {"context_tokens", 4096}});
    REQUIRE(out["ok"] == true);
    const auto& result = out["result"];
    CHECK(result["weights"]["expert_bytes"].get<double>() == kExperts);
    double dense = result["weights"]["total_bytes"].get<double>() - kExperts;
    return std::make_pair(result["memory"]["per_device"][0]["weights_bytes"].get<double>(), dense);
  };
  // Hopper, the Triton kernel: width to a multiple of 64 (2880 is one), hidden as is; the scales
  // kept twice and the biases turned f32: 128 x (13,219,200 + 777,600) + 2 x 2,211,840
  // = 1,796,014,080 B per layer (the file's 1,694,269,440 + 101,744,640).
  auto [h100, dense] = rank_weights("h100-sxm", 1, false);
  CHECK(h100 == Approx(dense + 36 * 1796014080.0).epsilon(1e-9));
  // TP2: width 1440 -> 1472: 128 x (6,359,040 + 397,440 + 397,440) + 2 x 2,211,840 x (2 x 1472
  // + 2880) / 8640 = 915,701,760 + 2,981,888 = 918,683,648 B per layer.
  CHECK(rank_weights("h100-sxm", 2, false).first == Approx(dense / 2 + 36 * 918683648.0).epsilon(1e-9));
  // B200, FlashInfer TRT-LLM: both widths to 256 (3072), biases f32: 128 x (14,155,776 + 884,736)
  // + 2 x 2,211,840 x 9,216 / 8,640 = 1,925,185,536 + 4,718,592 = 1,929,904,128 B per layer.
  CHECK(rank_weights("b200-sxm", 1, false).first == Approx(dense + 36 * 1929904128.0).epsilon(1e-9));
  // MI300X, the Triton kernels on ROCm: both widths to 256, the scales twice, f32 biases:
  // 1,925,185,536 + 128 x 884,736 + 4,718,592 = 2,043,150,336 B per layer.
  CHECK(rank_weights("mi300x", 1, false).first == Approx(dense + 36 * 2043150336.0).epsilon(1e-9));
  // A100, Marlin: width to 128, hidden to 256. TP4: 720 -> 768, 2880 -> 3072: 128 x (3,538,944
  // + 221,184) + 2,211,840 x (1,536 + 3,072) / 8,640 = 481,296,384 + 1,179,648 = 482,476,032 B
  // per layer: 17.167 GiB per rank, against 17.2217 logged (multi_device_runs.json,
  // vllm-0.10.1.1-gpt-oss-120b-mxfp4-tp4-4xa100-4-pods); 15.19 GiB unpadded.
  CHECK(rank_weights("a100-80gb-sxm", 4, false).first == Approx(dense / 4 + 36 * 482476032.0).epsilon(1e-9));
  // Expert parallel: 32 whole experts per rank, 2880 -> 2944 and 3072: 32 x (13,565,952 +
  // 847,872) + 2,211,840 x 32 / 128 x (5,888 + 3,072) / 8,640 = 461,242,368 + 573,440 B per layer.
  CHECK(rank_weights("a100-80gb-sxm", 4, true).first == Approx(dense / 4 + 36 * 461815808.0).epsilon(1e-9));
  // SGLang (mxfp4_expert_layout.cpp): the Triton kernels on Hopper pad the width to 64, keep the
  // scales twice and turn the biases f32, as vLLM's. TP4: 720 -> 768, hidden as is: 128 x
  // (3,317,760 + 207,360 + 207,360) + 2 x 2,211,840 x (1,536 + 2,880) / 8,640 = 477,757,440 +
  // 2,260,992 = 480,018,432 B per layer.
  CHECK(rank_weights("h100-sxm", 4, false, "sglang").first == Approx(dense / 4 + 36 * 480018432.0).epsilon(1e-9));
  // On a B200 its flashinfer_mxfp4 runner pads both widths to 256, f32 biases, the scales once.
  // TP2: 1440 -> 1536, 2880 -> 3072: 128 x (7,077,888 + 442,368) + 2 x 2,211,840 x (3,072 +
  // 3,072) / 8,640 = 962,592,768 + 3,145,728 = 965,738,496 B per layer.
  CHECK(rank_weights("b200-sxm", 2, false, "sglang").first == Approx(dense / 2 + 36 * 965738496.0).epsilon(1e-9));
  // Expert parallel leaves SGLang's runner on "auto", which upcasts the experts to bf16: not
  // modelled, the file's bytes per rank.
  CHECK(rank_weights("h100-sxm", 4, true, "sglang").first == Approx(dense / 4 + kExperts / 4).epsilon(1e-9));
  // The GGUF path (llama.cpp) stores the experts as they are.
  auto gguf = llmcalc_test::estimate({{"model", "gpt-oss-120b"}, {"weights", "MXFP4_MOE"}, {"engine", "llama.cpp"},
                                      {"hardware", "a100-80gb-sxm"}, {"context_tokens", 4096}});
  REQUIRE(gguf["ok"] == true);
  CHECK(gguf["result"]["memory"]["weights_bytes"] == gguf["result"]["weights"]["total_bytes"]);
}

TEST_CASE("Verdict thresholds and the largest context that fits", "[memory][verdict]") {
  auto run = [](int64_t context) {
    return llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q8_0"},
                                   {"hardware", "rtx-4090"}, {"context_tokens", context}});
  };
  auto small = run(4096);
  REQUIRE(small["ok"] == true);
  const auto& m = small["result"]["memory"];
  // comfortable at or below 90% of usable, tight up to 100%; beyond, --fit offloads.
  double ratio = m["total_bytes"].get<double>() / m["usable_bytes"].get<double>();
  CHECK(ratio <= 0.9);
  CHECK(m["verdict"] == "comfortable");
  // Usable on an RTX 4090: the 23.64 GiB its driver reports (data/devices/rtx-4090.json) - 512 MiB
  // for llama.cpp's CUDA context - 1 GiB that --fit leaves free.
  CHECK(m["usable_bytes"].get<int64_t>() == std::llround(23.64 * 1073741824) - 512LL * 1048576 - 1024LL * 1048576);
  int64_t max_context = m["max_context_tokens"].get<int64_t>();
  REQUIRE(max_context > 4096);
  REQUIRE(max_context < 131072);
  // At the reported maximum it fits on the GPU; one 256-cell step beyond, --fit moves a layer to
  // system RAM, and without --fit it does not fit at all.
  CHECK(run(max_context)["result"]["memory"]["verdict"] != "oom");
  CHECK(run(max_context)["result"]["memory"]["verdict"] != "offload");
  auto beyond = run(max_context + 256);
  CHECK(beyond["result"]["memory"]["verdict"] == "offload");
  CHECK(beyond["result"]["memory"]["fit"]["gpu_layers"].get<int64_t>() < 33);
  // --fit off: no margin (a larger context fits), and nothing moves to RAM beyond it.
  auto no_fit = [&](int64_t context) {
    return llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q8_0"}, {"hardware", "rtx-4090"},
                                   {"context_tokens", context}, {"fit", false}})["result"]["memory"];
  };
  int64_t no_fit_max = no_fit(4096)["max_context_tokens"].get<int64_t>();
  CHECK(no_fit_max > max_context);
  CHECK(no_fit(no_fit_max + 256)["verdict"] == "oom");
  // -ngl given: --fit gives up on the placement ("n_gpu_layers already set by user ... abort",
  // common/fit.cpp) and llama.cpp loads it as placed, so the card's memory counts without the
  // margin: a context --fit would have offloaded starts on the GPU, as far as --fit off allows.
  auto pinned = [&](int64_t context) {
    return llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q8_0"}, {"hardware", "rtx-4090"},
                                   {"context_tokens", context}, {"gpu_layers", 99}})["result"]["memory"];
  };
  CHECK(pinned(max_context + 256)["verdict"] == "tight");
  CHECK(pinned(max_context + 256)["usable_bytes"].get<int64_t>() == std::llround(23.64 * 1073741824) - 512LL * 1048576);
  CHECK(pinned(4096)["max_context_tokens"].get<int64_t>() == no_fit_max);
  CHECK(pinned(no_fit_max + 256)["verdict"] == "oom");

  // The search walks the engine's cache steps; the answer is still the last fitting token, for
  // 3 sequences in llama.cpp (256 / 3 is no whole step, so tokens) and for vLLM's 16-token blocks.
  for (const auto& setup : {std::pair<const char*, int>{"llama.cpp", 3}, {"vllm", 2}}) {
    const char* engine = setup.first;  // named, not bound: C++17 lambdas cannot capture bindings
    int sequences = setup.second;
    INFO(engine);
    auto at = [&](int64_t context) {
      return llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "F16"}, {"hardware", "rtx-4090"},
                                     {"engine", engine}, {"batch", sequences}, {"context_tokens", context},
                                     {"fit", false}});
    };
    int64_t largest = at(2048)["result"]["memory"]["max_context_tokens"].get<int64_t>();
    REQUIRE(largest > 0);
    CHECK(at(largest)["result"]["memory"]["verdict"] != "oom");
    CHECK(at(largest + 1)["result"]["memory"]["verdict"] == "oom");
  }
}

TEST_CASE("llama.cpp placement matches published model-buffer lines", "[memory][placement][published]") {
  // Llama 3.1 8B Q4_0 on Vulkan, all layers offloaded: "Vulkan0 model buffer size = 4155.99 MiB",
  // "CPU_Mapped model buffer size = 281.81 MiB" (token_embd stays in host memory:
  // 128,256 x 4,096 x 18 / 32 bytes = 295,501,824 B = 281.81 MiB).
  auto llama = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q4_0"}, {"hardware", "rtx-4090"}});
  REQUIRE(llama["ok"] == true);
  const auto& m = llama["result"]["memory"];
  CHECK(m["host"]["weights_bytes"] == 295501824);
  CHECK(m["per_device"][0]["weights_bytes"].get<double>() / kMiB == Approx(4155.99).epsilon(0.01));

  // Qwen3-30B-A3B Q4_K_M on two GPUs with every expert tensor kept in RAM (-ot exps=CPU, the
  // same as --n-cpu-moe 48): "CPU_Mapped model buffer size = 17447.91 MiB",
  // "CUDA0 ... 135.76 MiB", "CUDA1 ... 648.66 MiB".
  auto qwen = llmcalc_test::estimate({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"},
                                      {"hardware", "rtx-3090"}, {"devices", 2}, {"cpu_moe_layers", 48}});
  REQUIRE(qwen["ok"] == true);
  const auto& q = qwen["result"]["memory"];
  double on_gpus = q["per_device"][0]["weights_bytes"].get<double>() + q["per_device"][1]["weights_bytes"].get<double>();
  CHECK(on_gpus / kMiB == Approx(135.76 + 648.66).epsilon(0.02));
  // With mmap, CPU_Mapped spans the file range from the first to the last CPU tensor, so it also
  // counts GPU tensors lying in between: CPU_Mapped - (GPU buffers) <= host tensors <= CPU_Mapped.
  double host = q["host"]["weights_bytes"].get<double>() / kMiB;
  CHECK(host <= 17447.91);
  CHECK(host >= 17447.91 - (135.76 + 648.66));
}

TEST_CASE("-ngl, --tensor-split and offload speed by hand", "[memory][placement]") {
  auto base = nlohmann::json{{"model", "llama-3.1-8b"}, {"weights", "Q8_0"}, {"hardware", "rtx-3090"}};
  // -ngl 16: llama.cpp counts 33 slots (32 layers, then the output layer) and offloads the last
  // 16: layers 17..31 and the output layer on the GPU, layers 0..16 in RAM.
  auto half = base;
  half["gpu_layers"] = 16;
  auto offloaded = llmcalc_test::estimate(half);
  REQUIRE(offloaded["ok"] == true);
  const auto& m = offloaded["result"]["memory"];
  CHECK(m["per_device"][0]["layers"] == 15);
  CHECK(m["host"]["layers"] == 17);
  // Q8_0 layer: (4096x4096x2 + 4096x1024x2 + 3x4096x14336) x 34/32 + 2 x 4096 x 4 (norms)
  // = 218,103,808 x 34/32 + 32,768 = 231,768,064 bytes. GPU: 15 layers + output
  // (128,256 x 4,096 x 34/32 = 558,170,112) + output_norm (16,384).
  CHECK(m["per_device"][0]["weights_bytes"] == 15LL * 231768064 + 558170112 + 4096 * 4);
  // Host: 17 layers + token_embd (558,170,112).
  CHECK(m["host"]["weights_bytes"] == 17LL * 231768064 + 558170112);
  // Reading half the layers from RAM makes decoding slower than with everything on the GPU.
  auto full = llmcalc_test::estimate(base);
  CHECK(offloaded["result"]["decode"]["tokens_per_s"].get<double>() <
        full["result"]["decode"]["tokens_per_s"].get<double>() / 2);

  // --tensor-split 3,1 over two devices: llama.cpp splits 33 slots (32 layers and the output
  // layer); slot i goes to the first device while i / 33 < 3/4, so layers 0..24 (25) there,
  // 7 layers and the output layer on the second.
  auto split = base;
  split["devices"] = 2;
  split["tensor_split"] = {3, 1};
  auto two = llmcalc_test::estimate(split);
  REQUIRE(two["ok"] == true);
  CHECK(two["result"]["memory"]["per_device"][0]["layers"] == 25);
  CHECK(two["result"]["memory"]["per_device"][1]["layers"] == 7);
  auto bad = split;
  bad["tensor_split"] = {1};
  CHECK(llmcalc_test::estimate(bad)["issues"][0]["path"] == "/tensor_split");
}

TEST_CASE("Unified memory: the usable share of RAM is an assumption", "[memory][unified]") {
  // M4 Max 64 GB: macOS wires at most 3/4 of RAM above 36 GB by default (48 GiB), and --fit
  // leaves 1 GiB of it free: 47 GiB usable. `sysctl iogpu.wired_limit_mb` can raise the limit,
  // here to 90%: 0.9 x 64 GiB - 1 GiB.
  nlohmann::json request = {{"model", "qwen3-32b"}, {"weights", "Q4_K_M"}, {"hardware", "m4-max-64gb"},
                            {"context_tokens", 8192}};
  auto standard = llmcalc_test::estimate(request);
  REQUIRE(standard["ok"] == true);
  CHECK(standard["result"]["memory"]["usable_bytes"].get<int64_t>() == 47LL * 1073741824);
  request["assumptions"] = {{"unified_memory_fraction", 0.9}};
  auto raised = llmcalc_test::estimate(request);
  REQUIRE(raised["ok"] == true);
  CHECK(raised["result"]["memory"]["usable_bytes"].get<int64_t>() ==
        static_cast<int64_t>(0.9 * 64 * 1073741824.0) - 1073741824LL);
  // A discrete card keeps its own rule.
  request["hardware"] = "rtx-4090";
  auto discrete = llmcalc_test::estimate(request);
  CHECK(discrete["result"]["memory"]["usable_bytes"].get<int64_t>() ==
        std::llround(23.64 * 1073741824) - 512LL * 1048576 - 1073741824LL);
}

TEST_CASE("llama.cpp counts MiMo-V2's three MTP blocks in -ngl", "[memory][llama_cpp][mimo_v2]") {
  // conversion/mimo.py (PR #22493) appends model.mtp.layers.0-2 as blocks 70-72 of MiMo-V2.5-Pro's
  // GGUF; -ngl offloads the last blocks, the output counting as one more (llama.cpp issue #23679:
  // -ngl 41 of 40 layers + 1 nextn + output leaves layer 0 in RAM). So -ngl 73 of 73 blocks + output
  // leaves block 0 in system RAM, and -ngl 70 blocks 0-3.
  auto host_layers = [](int ngl) {
    auto out = llmcalc_test::estimate({{"model", "mimo-v2.5-pro"}, {"weights", "Q4_K_M"}, {"engine", "llama.cpp"},
                                       {"hardware", "h200-sxm"}, {"devices", 8}, {"context_tokens", 32768},
                                       {"gpu_layers", ngl}, {"fit", false}});
    REQUIRE(out["ok"] == true);
    return out["result"]["memory"]["host"]["layers"].get<int>();
  };
  CHECK(host_layers(73) == 1);
  CHECK(host_layers(70) == 4);
  CHECK(host_layers(74) == 0);
}

TEST_CASE("--fit's -ngl counts the MTP block a model's published GGUF files hold", "[memory][llama_cpp][nemotron_h]") {
  // Nemotron 3.5 Lightning's GGUF files hold its MTP layer as block 52 (unsloth's Q8_0: 417
  // tensors, 16 of them block 52's, onnxruntime/mobius issue #483; llama.cpp conversion/nemotron.py
  // at 003ebfc1): 52 layers + 1 MTP block + the output are 54 slots, so with every layer's dense
  // part on an RTX 4090 (24 GB) and some experts in RAM, --fit sets -ngl 54 of 54. A file the user
  // sizes without saying it holds the MTP block has 53.
  nlohmann::json request = {{"model", "nemotron-3.5-lightning-30b-a3b"}, {"weights", "Q8_0"},
                            {"engine", "llama.cpp"}, {"hardware", "rtx-4090"}, {"context_tokens", 8192}};
  auto out = llmcalc_test::estimate(request);
  REQUIRE(out["ok"] == true);
  const auto& fit = out["result"]["memory"]["fit"];
  REQUIRE(fit["status"] == "offload");
  REQUIRE_FALSE(fit["host_expert_layers"].empty());
  CHECK(fit["slots"] == 54);
  CHECK(fit["gpu_layers"] == 54);
  CHECK(out["result"]["commands"]["llama.cpp"]["notes"].get<std::string>().find("-ngl 54 ") != std::string::npos);
  request["weights_bytes"] = 33577587968;  // the main model's tensors at Q8_0, without the MTP block
  auto sized = llmcalc_test::estimate(request);
  REQUIRE(sized["ok"] == true);
  CHECK(sized["result"]["memory"]["fit"]["slots"] == 53);
}
