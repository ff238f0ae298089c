// Decode speed against context (explore's sweep) and the speed assumptions a request can set,
// checked by hand from the roofline: a memory-bound decode step reads the weights plus the KV
// cache of the whole context at bandwidth x efficiency, so more context only adds KV bytes.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "llmcalc/api.h"
#include "llmcalc/speed.h"
#include "test_support.h"

namespace {

const nlohmann::json kLlama8bOn4090 = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"},
                                       {"hardware", "rtx-4090"}, {"context_tokens", 8192}};

// A llama-bench prompt row's request: its record's, at the row's prompt length into a cache that
// holds the prompt (-p N, n_ctx about N).
nlohmann::json prompt_row_request(const nlohmann::json& record, const nlohmann::json& run) {
  nlohmann::json request = record.at("request");
  request["prompt_tokens"] = run.at("prompt_tokens");
  request["context_tokens"] = run.at("prompt_tokens").get<int64_t>() + 256;
  return request;
}

double prefill_tokens_per_s(const nlohmann::json& request) {
  nlohmann::json envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["prefill"]["tokens_per_s"].get<double>();
}

}  // namespace

TEST_CASE("Decode against context: each sweep point is the estimate at that context, falling by KV reads",
          "[speed][explore]") {
  auto answer = nlohmann::json::parse(llmcalc::explore_json(kLlama8bOn4090.dump()));
  REQUIRE(answer["ok"] == true);
  const auto& sweep = answer["result"]["sweep"];
  REQUIRE(sweep.size() >= 2);
  REQUIRE(sweep[0]["context_tokens"] == 4096);
  REQUIRE(sweep[1]["context_tokens"] == 8192);

  auto at_8k = llmcalc_test::estimate(kLlama8bOn4090);
  REQUIRE(at_8k["ok"] == true);
  CHECK(sweep[1]["decode_tokens_per_s"].get<double>() ==
        Approx(at_8k["result"]["decode"]["tokens_per_s"].get<double>()));
  CHECK(sweep[1]["decode_low"].get<double>() == Approx(at_8k["result"]["decode"]["low"].get<double>()));
  CHECK(sweep[1]["decode_high"].get<double>() == Approx(at_8k["result"]["decode"]["high"].get<double>()));

  // By hand: Llama 3.1 8B keeps 32 layers x 8 KV heads x 128 dims x (K + V) x 2 bytes (f16)
  // = 131,072 bytes per token. 4K more tokens add 4,096 x 131,072 = 536,870,912 bytes read per
  // step, at 1,008 GB/s (RTX 4090 datasheet, data/devices/rtx-4090.json) x 0.91 (the CUDA
  // bandwidth efficiency in data/speed_calibration.json): 5.8529e-4 s more per token.
  double step_4k = 1.0 / sweep[0]["decode_tokens_per_s"].get<double>();
  double step_8k = 1.0 / sweep[1]["decode_tokens_per_s"].get<double>();
  CHECK(sweep[0]["bound"] == "memory");
  CHECK(step_8k - step_4k == Approx(536870912.0 / (1008e9 * 0.91)).epsilon(1e-6));

  // Speed only falls as the context grows.
  for (std::size_t i = 1; i < sweep.size(); ++i) {
    CHECK(sweep[i]["decode_tokens_per_s"].get<double>() < sweep[i - 1]["decode_tokens_per_s"].get<double>());
  }
}

TEST_CASE("Speed assumptions from the request replace the calibrated ones", "[speed][assumptions]") {
  auto calibrated = llmcalc_test::estimate(kLlama8bOn4090);
  REQUIRE(calibrated["ok"] == true);
  // The calibrated CUDA values, as data/speed_calibration.json lists them.
  const auto& echoed = calibrated["result"]["scenario"]["assumptions"];
  const nlohmann::json cuda = llmcalc_test::data_record("speed_calibration.json").at("backends").at("cuda");
  for (const char* key : {"bandwidth_efficiency", "compute_efficiency", "quantized_compute_efficiency"}) {
    INFO(key);
    CHECK(echoed.at(key).get<double>() == cuda.at(key).get<double>());
  }

  auto with = [](const nlohmann::json& assumptions) {
    nlohmann::json request = kLlama8bOn4090;
    request["assumptions"] = assumptions;
    auto answer = llmcalc_test::estimate(request);
    REQUIRE(answer["ok"] == true);
    return answer["result"];
  };
  // Memory-bound: halving the bandwidth efficiency from 1.0 to 0.5 adds bytes / bandwidth to the
  // step, the fixed per-layer overhead staying the same.
  auto full = with({{"bandwidth_efficiency", 1.0}});
  auto half = with({{"bandwidth_efficiency", 0.5}});
  double bytes = full["decode"]["bytes_per_token"].get<double>();
  CHECK(1.0 / half["decode"]["tokens_per_s"].get<double>() - 1.0 / full["decode"]["tokens_per_s"].get<double>() ==
        Approx(bytes / 1008e9).epsilon(1e-6));
  CHECK(half["scenario"]["assumptions"]["bandwidth_efficiency"].get<double>() == 0.5);

  // Quantized weights prefill on the INT8 path: its efficiency moves the prefill, the FP16 one does not.
  auto slow_int8 = with({{"quantized_compute_efficiency", 0.08}});
  auto slow_fp16 = with({{"compute_efficiency", 0.28}});
  CHECK(slow_int8["prefill"]["tokens_per_s"].get<double>() < calibrated["result"]["prefill"]["tokens_per_s"].get<double>());
  CHECK(slow_fp16["prefill"]["tokens_per_s"].get<double>() ==
        Approx(calibrated["result"]["prefill"]["tokens_per_s"].get<double>()));

  nlohmann::json bad = kLlama8bOn4090;
  bad["assumptions"] = {{"quantized_compute_efficiency", 2.0}};
  auto rejected = llmcalc_test::estimate(bad);
  CHECK(rejected["ok"] == false);
  CHECK(rejected["issues"][0]["path"] == "/assumptions/quantized_compute_efficiency");
}

TEST_CASE("Tensor parallel over PCIe pays an all-reduce twice per layer, at the latency the cards' peer-to-peer allows",
          "[speed][tensor_parallel]") {
  // vLLM, Llama 3.1 8B BF16 on RTX 4090s (PCIe 4.0 x16, no NVLink, no peer-to-peer). One card:
  // step1 = bytes / (bw x eff) + 32 x overhead. Two cards split the bytes and add the all-reduces:
  // step2 = bytes / (2 x bw x eff) + 32 x overhead + comm, so comm = step2 - step1 + bytes / (2 x bw x eff).
  // By hand: 2 all-reduces x 32 layers x 48 us = 3.072 ms, plus the ring's traffic, 2 x (d - 1) / d
  // of the message per card: 2 x 32 x (4,096 x 2 bytes) x 2 x 1/2 = 524,288 bytes at 31.5 GB/s
  // = 16.6 us: 3.0886 ms.
  nlohmann::json request = {{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"hardware", "rtx-4090"}, {"context_tokens", 1024}, {"prompt_tokens", 16}};
  auto one = llmcalc_test::estimate(request);
  request["devices"] = 2;
  auto two = llmcalc_test::estimate(request);
  REQUIRE(one["ok"] == true);
  REQUIRE(two["ok"] == true);
  double bytes = one["result"]["decode"]["bytes_per_token"].get<double>();
  double eff = one["result"]["scenario"]["assumptions"]["bandwidth_efficiency"].get<double>();
  double step1 = 1.0 / one["result"]["decode"]["tokens_per_s"].get<double>();
  double step2 = 1.0 / two["result"]["decode"]["tokens_per_s"].get<double>();
  double comm = step2 - step1 + bytes / (2 * 1008e9 * eff);
  CHECK(comm == Approx(3.072e-3 + 524288.0 / 31.5e9).epsilon(1e-6));

  // Cards whose driver allows peer-to-peer over PCIe (data/devices: the RTX PRO 6000, vLLM PR
  // #52555): two ranks reduce with vLLM's one-shot kernel, 5.0 us each: 64 x 5.0 us = 0.32 ms plus
  // the same 524,288 B at 31.5 GB/s; four ranks with NCCL over P2P, 20.3 us each: 1.2992 ms plus
  // 2 x 32 x 8,192 B x 2 x 3/4 = 786,432 B at 31.5 GB/s.
  request["hardware"] = "rtx-pro-6000-blackwell";
  request["devices"] = 1;
  auto pro_one = llmcalc_test::estimate(request);
  request["devices"] = 2;
  auto pro_two = llmcalc_test::estimate(request);
  request["devices"] = 4;
  auto pro_four = llmcalc_test::estimate(request);
  REQUIRE(pro_four["ok"] == true);
  double pro_bytes = pro_one["result"]["decode"]["bytes_per_token"].get<double>();
  double pro_eff = pro_one["result"]["scenario"]["assumptions"]["bandwidth_efficiency"].get<double>();
  double pro_step1 = 1.0 / pro_one["result"]["decode"]["tokens_per_s"].get<double>();
  auto comm_of = [&](const nlohmann::json& out, double ranks) {
    double step = 1.0 / out["result"]["decode"]["tokens_per_s"].get<double>();
    return step - pro_step1 + pro_bytes * (1.0 - 1.0 / ranks) / (1792e9 * pro_eff);
  };
  CHECK(comm_of(pro_two, 2) == Approx(0.32e-3 + 524288.0 / 31.5e9).epsilon(1e-6));
  CHECK(comm_of(pro_four, 4) == Approx(64 * 20.3e-6 + 786432.0 / 31.5e9).epsilon(1e-6));
}

TEST_CASE("Tensor parallel across machines pays NCCL's all-reduce over the network's transport",
          "[speed][tensor_parallel][network]") {
  // data/links.json collective_latency: over RDMA the two-machine all-reduce is the measured
  // 50.58 us; over sockets two network steps of the link's latency plus NCCL's socket overhead,
  // 45.82 - 23.2 = 22.62 us. A link of 100 us: 2 x (22.62 + 100) = 245.24 us. Llama 3.1 8B has
  // 32 layers, two all-reduces each: 64 x (245.24 - 50.58) us = 12.458 ms more per token over TCP.
  // (One step, a send, is half the RDMA figure and 22.62 us + the link's latency over TCP.)
  nlohmann::json request = {{"model", "llama-3.1-8b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"hardware", "rtx-4090"}, {"devices", 1}, {"nodes", 2}, {"parallel", {{"tensor", 2}}},
                            {"context_tokens", 1024}, {"prompt_tokens", 16}};
  auto step_over = [&](nlohmann::json r, const char* transport) {
    r["network"] = {{"bandwidth_bytes_per_s", 1e12}, {"latency_s", 100e-6}, {"transport", transport}};
    auto result = llmcalc_test::estimate(r);
    REQUIRE(result["ok"] == true);
    return 1.0 / result["result"]["decode"]["tokens_per_s"].get<double>();
  };
  CHECK(step_over(request, "tcp") - step_over(request, "rdma") == Approx(64 * (245.24e-6 - 50.58e-6)).epsilon(1e-6));
  // NCCL's tree crosses the network 2 x log2(machines) times (src/graph/tuning.cc): TP4 over four
  // machines pays each all-reduce twice the two-machine figure, over two machines of two cards once.
  request["parallel"]["tensor"] = 4;
  nlohmann::json four_machines = request;
  four_machines["nodes"] = 4;
  nlohmann::json two_machines = request;
  two_machines["devices"] = 2;
  CHECK(step_over(four_machines, "tcp") - step_over(two_machines, "tcp") == Approx(64 * 245.24e-6).epsilon(1e-6));
  // A pipeline boundary between the machines is one NCCL send, one network step: 122.62 us over
  // TCP against 50.58 / 2 = 25.29 us over RDMA.
  nlohmann::json pipeline = request;
  pipeline["parallel"] = {{"tensor", 1}, {"pipeline", 2}};
  CHECK(step_over(pipeline, "tcp") - step_over(pipeline, "rdma") == Approx(122.62e-6 - 25.29e-6).epsilon(1e-6));
  // Machines of unified memory pay the network as well: two DGX Sparks, one rank each.
  nlohmann::json sparks = request;
  sparks.erase("devices");
  sparks.erase("nodes");
  sparks["hardware"] = {{{"device", "dgx-spark-gb10"}, {"node", 0}}, {{"device", "dgx-spark-gb10"}, {"node", 1}}};
  sparks["parallel"] = {{"tensor", 2}};
  CHECK(step_over(sparks, "tcp") - step_over(sparks, "rdma") == Approx(64 * (245.24e-6 - 50.58e-6)).epsilon(1e-6));
}

TEST_CASE("Per-layer overhead and the comfortable threshold are request assumptions", "[speed][assumptions]") {
  // Decode step = bytes / (bw x eff) + layers x overhead: 32 layers x 250 us = 8 ms more than with
  // no overhead, whatever the bytes.
  nlohmann::json request = kLlama8bOn4090;
  request["assumptions"] = {{"per_layer_overhead_s", 0.0}};
  auto none = llmcalc_test::estimate(request);
  request["assumptions"] = {{"per_layer_overhead_s", 250e-6}};
  auto some = llmcalc_test::estimate(request);
  REQUIRE(none["ok"] == true);
  REQUIRE(some["ok"] == true);
  CHECK(1.0 / some["result"]["decode"]["tokens_per_s"].get<double>() -
            1.0 / none["result"]["decode"]["tokens_per_s"].get<double>() ==
        Approx(32 * 250e-6).epsilon(1e-6));
  CHECK(some["result"]["scenario"]["assumptions"]["per_layer_overhead_s"].get<double>() == 250e-6);

  // The verdict: "comfortable" up to comfortable_fraction of usable memory, "tight" above it.
  nlohmann::json wide = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                         {"context_tokens", 65536}};
  auto standard = llmcalc_test::estimate(wide);
  REQUIRE(standard["ok"] == true);
  double utilization = standard["result"]["memory"]["utilization"].get<double>();
  REQUIRE(utilization > 0.5);
  REQUIRE(utilization <= 0.9);
  CHECK(standard["result"]["memory"]["verdict"] == "comfortable");
  wide["assumptions"] = {{"comfortable_fraction", 0.5}};
  auto strict = llmcalc_test::estimate(wide);
  CHECK(strict["result"]["memory"]["verdict"] == "tight");
}

TEST_CASE("A server's MoE layer costs more than a dense one; llama.cpp's do not", "[speed][assumptions][moe]") {
  // Qwen3-30B-A3B has 48 layers, all MoE (config.json: decoder_sparse_step 1, no mlp_only_layers):
  // 100 us more per MoE layer is 48 x 100 us = 4.8 ms more a step, whatever else the step costs.
  nlohmann::json request = {{"model", "qwen3-30b-a3b"}, {"weights", "BF16"}, {"engine", "vllm"},
                            {"hardware", "h100-sxm"}, {"context_tokens", 4096}};
  auto calibrated = llmcalc_test::estimate(request);
  REQUIRE(calibrated["ok"] == true);
  // vLLM / SGLang on an HBM GPU: data/speed_calibration.json's cuda.hbm/server, fitted to
  // today's single-request runs (tests/data/server_speed_measurements.json, "calibrates").
  double fitted = llmcalc_test::data_record("speed_calibration.json")["backends"]["cuda.hbm/server"]["per_moe_layer_overhead_s"];
  CHECK(fitted > 0);
  CHECK(calibrated["result"]["scenario"]["assumptions"]["per_moe_layer_overhead_s"].get<double>() == fitted);
  request["assumptions"] = {{"per_moe_layer_overhead_s", 0.0}};
  auto none = llmcalc_test::estimate(request);
  request["assumptions"] = {{"per_moe_layer_overhead_s", 100e-6}};
  auto some = llmcalc_test::estimate(request);
  CHECK(1.0 / some["result"]["decode"]["tokens_per_s"].get<double>() -
            1.0 / none["result"]["decode"]["tokens_per_s"].get<double>() ==
        Approx(48 * 100e-6).epsilon(1e-6));
  // llama.cpp's calibration has no such term: its per-layer cost was fitted with MoE layers in.
  auto llama = llmcalc_test::estimate({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "h100-sxm"}});
  CHECK(llama["result"]["scenario"]["assumptions"]["per_moe_layer_overhead_s"].get<double>() == 0.0);
}

TEST_CASE("The time to first token of a prompt does not move with the context setting", "[speed][prefill]") {
  // Issue #21 item 10: the context setting is the window; a prompt opens the conversation into an
  // empty cache, so 512 tokens take as long at an 8K as at a 128K window. Decode, which reads the
  // cache, slows with it.
  auto at = [](int64_t context) {
    return llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"context_tokens", context}, {"prompt_tokens", 512}})["result"];
  };
  nlohmann::json small = at(8192);
  nlohmann::json large = at(131072);
  CHECK(small["prefill"]["ttft_s"].get<double>() == Approx(large["prefill"]["ttft_s"].get<double>()));
  CHECK(small["decode"]["tokens_per_s"].get<double>() > large["decode"]["tokens_per_s"].get<double>());
}

TEST_CASE("A Mac has a time to first token: its GPU's FP32 rate is the compute figure", "[speed][prefill]") {
  // M4 Max 40-core: 17.18 TFLOPS (data/devices/m4-max-128gb.json fp16_source: 40 x the 32-core
  // part's 13.74 / 32). Quantized weights multiply at 2 x that (no INT8 figure) x 0.315 (metal's
  // quantized_compute_efficiency) = 10.8234e12 per second, and metal's attention, fitted on no
  // long prompt, runs at that rate too (attention_compute_efficiency 0.315 of the same peak).
  // Llama 3.1 8B: 2 x (8,030,261,248 - 525,336,576 embedding) = 15,009,849,344 FLOPs a token, plus
  // attention over half the 4,096-token prompt: 2 x 32 heads x 2,048 x (128 + 128) x 32 layers =
  // 1,073,741,824; x 4,096 tokens = 6.58784e13 FLOPs = 6.08667 s; one pass over the 4,912,898,048 B of weights at 546 GB/s x 0.85
  // = 0.010586 s. Before the figure the page showed no time to first token on any Mac.
  auto r = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", "m4-max-128gb"},
                                   {"context_tokens", 8192}, {"prompt_tokens", 4096}})["result"];
  CHECK(r["hardware"]["fp16_flops_per_s"].get<double>() == Approx(17.18e12));
  CHECK(r["prefill"]["ttft_s"].get<double>() == Approx(6.08667 + 0.010586).epsilon(1e-4));
}

TEST_CASE("A prompt's attention runs at its own rate: slow on Strix Halo, the scores as matmuls without flash attention", "[speed][prefill]") {
  // Llama 3.1 8B Q4_K_M on a Ryzen AI Max+ 395 (Radeon 8060S, llama.cpp's Vulkan backend by
  // default): a 32,768-token prompt into an empty cache. Weight matmuls: 15,009,849,344 FLOPs a
  // token (the Mac case above) x 32,768 at the INT8 figure 59.4e12 x 0.3 (vulkan's
  // quantized_compute_efficiency) = 27.60060 s. Attention over half the prompt: 2 x 32 heads x
  // 16,384 x 256 x 32 layers = 8,589,934,592 FLOPs a token, x 32,768 at the same INT8 peak,
  // 59.4e12, x 0.07 (vulkan's attention_compute_efficiency, fitted on kyuz0's pp2048 runs after
  // 32K and 64K tokens) =
  // 67.69480 s. One pass over the 4,912,898,048 B of weights at 256 GB/s x 0.83 = 0.02312 s.
  // At the matmul rate, the rule before, the attention took 15.8 s and the prompt 43.4 s.
  nlohmann::json request = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", "ryzen-ai-max-395-128gb"},
                            {"context_tokens", 32768}, {"prompt_tokens", 32768}};
  nlohmann::json r = llmcalc_test::estimate(request)["result"];
  REQUIRE(r["scenario"]["assumptions"]["attention_compute_efficiency"].get<double>() == 0.07);
  CHECK(r["prefill"]["ttft_s"].get<double>() == Approx(27.60060 + 67.69480 + 0.02312).epsilon(1e-4));
  // Without flash attention each layer multiplies Q by K and the scores by V as ordinary f16
  // matrix products, at the dense FP16 rate 59.4e12 x 0.3 (vulkan's compute_efficiency):
  // 2.81475e14 FLOPs / 17.82e12 = 15.79545 s; and writes, softmaxes and reads the f32 scores:
  // 12 B x 32 heads x 16,384 keys x 32 layers x 32,768 tokens = 6.59707e12 B at 2.1248e11 B/s =
  // 31.04797 s.
  request["flash_attention"] = false;
  r = llmcalc_test::estimate(request)["result"];
  CHECK(r["prefill"]["ttft_s"].get<double>() == Approx(27.60060 + 15.79545 + 0.02312 + 31.04797).epsilon(1e-4));
}

TEST_CASE("ROCm's quantized prompts run at a share of FP16 whatever the INT8 rate", "[speed][prefill][rocm]") {
  // llama.cpp's ROCm rows of RDNA 3 / 3.5 / 4 reach one share of the FP16 matrix rate with
  // quantized weights (data/speed_calibration.json rocm: quantized_basis fp16, 0.32), though the
  // R9700's INT8 (383 TOPS) is twice its FP16 (191 TFLOPS) and the RX 7900 XTX's equals it (122.8).
  // Llama 3.1 8B Q4_K_M, 512 tokens into an empty cache: 15,009,849,344 x 512 matmul FLOPs and
  // 134,217,728 x 512 of attention (2 x 32 heads x 256 keys x 256 x 32 layers), at 0.32 of FP16;
  // one pass over 4,912,898,048 B at 0.81 of bandwidth.
  // R9700: 7.753762e12 / 61.12e12 = 0.126861 s + 4,912,898,048 / 522.126e9 = 0.009409 s.
  // RX 7900 XTX: 7.753762e12 / 39.296e12 = 0.197317 s + 4,912,898,048 / 777.6e9 = 0.006318 s.
  // (Against INT8 the R9700 would take half the matmul time.)
  auto ttft = [](const char* device) {
    auto r = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"hardware", device},
                                     {"context_tokens", 8192}})["result"];
    return r["prefill"]["ttft_s"].get<double>();
  };
  CHECK(ttft("radeon-ai-pro-r9700") == Approx(0.126861 + 0.009409).epsilon(1e-4));
  CHECK(ttft("rx-7900-xtx") == Approx(0.197317 + 0.006318).epsilon(1e-4));
}

TEST_CASE("A device described by its INT8 rate alone has a prompt speed with flash attention, none without", "[speed][prefill]") {
  // Without flash attention the scores are FP16 matmuls: a device without an FP16 figure has no
  // rate for them, so the prompt speed is unknown (0), never infinite. With it, the weight matmuls
  // and the attention both run against the INT8 peak.
  nlohmann::json request = {{"model", "llama-3.1-8b"}, {"weights", "Q4_K_M"}, {"context_tokens", 4096},
                            {"hardware", {{"memory_bytes", 25769803776.0}, {"memory_bandwidth_bytes_per_s", 1.0e12},
                                          {"int8_ops_per_s", 400e12}, {"backend", "cuda"}}}};
  nlohmann::json with_fa = llmcalc_test::estimate(request)["result"]["prefill"];
  CHECK(with_fa["tokens_per_s"].get<double>() > 0);
  CHECK(std::isfinite(with_fa["ttft_s"].get<double>()));
  request["flash_attention"] = false;
  nlohmann::json without = llmcalc_test::estimate(request)["result"]["prefill"];
  CHECK(without["tokens_per_s"].get<double>() == 0);
  CHECK(without["ttft_s"].get<double>() == 0);
}

TEST_CASE("A batch of MoE decodes reads the experts independent top-k routing leaves expected", "[speed][moe]") {
  // Qwen3-30B-A3B: 48 MoE layers, each token picks 8 of 128 experts (config.json), so one token
  // leaves an expert out with probability 15/16 and B tokens read the share 1 - (15/16)^B of the
  // expert bytes X: 1/16 = 0.0625 (B = 1), 0.12109375 (B = 2), 1 - 0.356074 = 0.643926 (B = 16;
  // (15/16)^16 = e^(16 ln 0.9375) = e^-1.032616). A step of B sequences reads f(B) = D + c(B) X +
  // B L (D the other weights, L one embedding row and one sequence's KV), so
  // f(16) - f(1) - 15 (f(2) - f(1)) = X [(c16 - c1) - 15 (c2 - c1)] = X (0.581426 - 0.878906)
  // = -0.297480 X. (A share growing as B k/E until all are read would give 0.)
  auto step_bytes = [](int64_t batch) {
    auto r = llmcalc_test::estimate({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"},
                                     {"context_tokens", 1024}, {"batch", batch}})["result"];
    return std::make_pair(static_cast<double>(batch) * r["decode"]["bytes_per_token"].get<double>(),
                          r["weights"]["expert_bytes"].get<double>());
  };
  auto [f1, experts] = step_bytes(1);
  double f2 = step_bytes(2).first;
  double f16 = step_bytes(16).first;
  CHECK(f16 - f1 - 15.0 * (f2 - f1) == Approx(-0.297480 * experts).epsilon(1e-4));
}

TEST_CASE("llama.cpp's decode graph: node counts against the counts logs print", "[speed][pascal]") {
  // The per-layer counts come from Llama 3.1 8B (1,030), Qwen3.5-9B (1,831) and Qwen3.5-122B-A10B
  // (4,473) (core/src/speed.cpp). Logs of other models, none used there: Qwen3.6-27B, 16 full and
  // 48 linear-attention layers, "sched_reserve: graph nodes  = 3655" (tests/data/engine_logs.json,
  // qwen3.6-27b-q4km-3090-vulkan); Qwen3-30B-A3B "graph nodes  = 3222" (build 5622, the mainline
  // run in ik_llama.cpp issue #514); Qwen3-235B-A22B 5,741 (builds 5192-5274, ik_llama.cpp
  // discussion #357); Qwen3-4B 1,267 (a 2026 CUDA log, index file id 55587500709); gpt-oss-20b
  // 1,352 (build 6699, ik_llama.cpp issue #822). The count is a proxy for launches (views launch
  // nothing, fusions launch once), so within a quarter is what it is good for; the hybrid
  // Qwen3.6 layout is within 1%.
  struct Logged {
    const char* model;
    double nodes;
    double tolerance;
  };
  for (const Logged& logged : {Logged{"qwen3.6-27b", 3655, 0.01}, Logged{"qwen3-30b-a3b", 3222, 0.25},
                               Logged{"qwen3-235b-a22b", 5741, 0.25}, Logged{"qwen3-4b", 1267, 0.25},
                               Logged{"gpt-oss-20b", 1352, 0.25}}) {
    double estimated = llmcalc::llama_cpp_graph_nodes(llmcalc_test::catalog_model(logged.model));
    INFO(logged.model << ": estimated " << estimated << " nodes, logged " << logged.nodes);
    CHECK(estimated == Approx(logged.nodes).epsilon(logged.tolerance));
  }
}

TEST_CASE("Pascal runs llama.cpp node by node, and the P100 without dp4a", "[speed][pascal]") {
  // By hand, Qwen3.5-9B Q4_K_M on a P100 (data/devices/tesla-p100-pcie-16gb.json: cc 6.0, HBM2,
  // 18.7 TFLOPS FP16) at 512 tokens: 5.1155 GB per token (the text weights but the embedding table,
  // in the mix that gives Ornith-1.5-9B's published files to their metadata, tests/data/
  // gguf_file_sizes.json, plus the cache) at 0.013962 x 18.7e12 = 261.09 GB/s (the mat-vec without
  // __dp4a, below cuda.hbm's 0.52 x 732 = 380.6 GB/s) = 19.593 ms, plus 8 x 32.19 + 24 x (32.19 +
  // 33.375) = 1,831.08 nodes x 4.92 us = 9.009 ms, plus 32 layers x 95 us = 3.040 ms: 31.642 ms,
  // 31.6 tokens/s (the published row the constants came from: 32.0).
  nlohmann::json p100 = {{"model", "qwen3.5-9b"}, {"weights", "Q4_K_M"},
                         {"hardware", "tesla-p100-pcie-16gb"}, {"context_tokens", 512}};
  auto on_p100 = llmcalc_test::estimate(p100);
  REQUIRE(on_p100["ok"] == true);
  double bytes = on_p100["result"]["decode"]["bytes_per_token"].get<double>();
  CHECK(bytes == Approx(5.1155e9).epsilon(1e-4));
  double step = bytes / (0.013962 * 18.7e12) + 1831.08 * 4.92e-6 + 32 * 95e-6;
  CHECK(1.0 / on_p100["result"]["decode"]["tokens_per_s"].get<double>() == Approx(step).epsilon(1e-4));

  // The same card described as Volta (cc 7.0): CUDA graphs and dp4a, so neither term; the
  // step is the memory read at cuda.hbm's 380.6 GB/s plus the per-layer cost.
  nlohmann::json volta = p100;
  volta["hardware"] = {{"memory_bytes", 17179869184.0}, {"memory_bandwidth_bytes_per_s", 732e9},
                       {"fp16_flops_per_s", 18.7e12}, {"memory_type", "HBM2"}, {"cuda_compute_capability", 7.0}};
  auto on_volta = llmcalc_test::estimate(volta);
  REQUIRE(on_volta["ok"] == true);
  CHECK(1.0 / on_volta["result"]["decode"]["tokens_per_s"].get<double>() ==
        Approx(bytes / (0.52 * 732e9) + 32 * 95e-6).epsilon(1e-4));

  // Held out: the same post's GTX 1080 column (cc 6.1: dp4a, no graphs; data/devices/gtx-1080.json),
  // Qwen3.5-9B at 28 and Qwen3.5-4B at 48 tokens/s, land inside the band (34.0 and 50.8 estimated;
  // without the launch term about 49 and 93).
  for (const auto& [model, measured] : std::vector<std::pair<std::string, double>>{{"qwen3.5-9b", 28.0}, {"qwen3.5-4b", 48.0}}) {
    auto gtx = llmcalc_test::estimate({{"model", model}, {"weights", "Q4_K_M"}, {"hardware", "gtx-1080"},
                                       {"context_tokens", 512}});
    REQUIRE(gtx["ok"] == true);
    INFO(model << " on a GTX 1080: estimated " << gtx["result"]["decode"]["tokens_per_s"] << ", measured " << measured);
    CHECK(gtx["result"]["decode"]["low"].get<double>() <= measured);
    CHECK(measured <= gtx["result"]["decode"]["high"].get<double>());
  }

  // Held out: a P40 (cc 6.1: dp4a, no graphs) on Llama 2 7B Q4_0, tg128 56.79 tokens/s in
  // llama.cpp PR #4766 (JohannesGaessler, January 2024; Pascal has never run CUDA graphs), lands
  // inside the band.
  auto p40 = llmcalc_test::estimate({{"model", "llama-2-7b"}, {"weights", "Q4_0"}, {"hardware", "tesla-p40"},
                                     {"context_tokens", 64}});
  REQUIRE(p40["ok"] == true);
  INFO("P40 decode estimated " << p40["result"]["decode"]["tokens_per_s"] << ", measured 56.79");
  CHECK(p40["result"]["decode"]["low"].get<double>() <= 56.79);
  CHECK(56.79 <= p40["result"]["decode"]["high"].get<double>());
}

TEST_CASE("Experts in RAM beside one GPU: published decode speeds inside the band", "[speed][hybrid]") {
  // tests/data/hybrid_offload_runs.json: the GPU's share at its bandwidth, the experts in RAM at
  // the cpu key's 62% of the RAM's datasheet rate (data/speed_calibration.json); none of these
  // runs is in the calibration.
  const nlohmann::json data = llmcalc_test::read_test_data("hybrid_offload_runs.json");
  REQUIRE(data.at("records").size() >= 4);
  for (const nlohmann::json& record : data.at("records")) {
    INFO("record " << record.at("id").get<std::string>());
    nlohmann::json envelope = llmcalc_test::estimate(record.at("request"));
    REQUIRE(envelope["ok"] == true);
    const nlohmann::json& decode = envelope["result"]["decode"];
    double measured = record.at("decode_tokens_per_s").get<double>();
    INFO("decode: estimated " << decode["tokens_per_s"] << " [" << decode["low"] << ", " << decode["high"] << "], measured " << measured);
    CHECK(decode["low"].get<double>() <= measured);
    CHECK(measured <= decode["high"].get<double>());
  }
}

TEST_CASE("llama.cpp pipelines a layer split's prompt only with every layer and expert on the GPUs",
          "[speed][prefill][layer_split]") {
  // tests/data/layer_split_prompt_runs.json: one R9700 against two, -sm layer, build 8797. With
  // -ub 512, a 2,048-token prompt is 4 ubatches; pipelined over two equal GPUs they take
  // 1 + 3 x 1/2 = 2.5 ubatch-times instead of 4 (x1.6), and a 4,096-token one, two n_batch of
  // 2,048, the same (x1.6). With every routed expert in RAM (--n-cpu-moe 999, a tensor override)
  // llama.cpp does not pipeline, each ubatch crosses both GPUs in turn: x1.0. The measured ratio
  // must be within 15% of the estimate's (the old rule, a pipeline whatever the placement, gave
  // x1.6 where 0.93-0.99 were measured).
  const nlohmann::json data = llmcalc_test::read_test_data("layer_split_prompt_runs.json");
  REQUIRE(data.at("records").size() == 4);
  for (const nlohmann::json& record : data.at("records")) {
    for (const nlohmann::json& run : record.at("runs")) {
      INFO("record " << record.at("id").get<std::string>() << " " << run.at("test").get<std::string>());
      nlohmann::json request = prompt_row_request(record, run);
      auto prefill = [&request](int devices) {
        request["devices"] = devices;
        return prefill_tokens_per_s(request);
      };
      double estimated = prefill(2) / prefill(1);
      double measured = run.at("two_gpus_tokens_per_s").get<double>() / run.at("one_gpu_tokens_per_s").get<double>();
      INFO("two GPUs / one: estimated " << estimated << ", measured " << measured);
      CHECK(measured == Approx(estimated).epsilon(0.15));
    }
  }
}

TEST_CASE("Weights in system RAM cross the host link for every prompt ubatch", "[speed][prefill][op_offload]") {
  // tests/data/op_offload_prompt_runs.json: one R9700, every routed expert of Qwen3.6-35B-A3B in
  // RAM, three files. A 512-token ubatch picks all 256 experts of each layer (a given expert is
  // left out with (1 - 8/256)^512 < 1e-7), so each ubatch copies every expert in RAM, 20-30 GB,
  // at 0.62 x 31.5 GB/s: 1.0-1.5 s a ubatch, over 90% of the prompt's time, hence 320-450
  // tokens/s where the same GPU with the experts on it reads 2,800-3,100. Within 10% of each row.
  const nlohmann::json data = llmcalc_test::read_test_data("op_offload_prompt_runs.json");
  REQUIRE(data.at("records").size() == 3);
  for (const nlohmann::json& record : data.at("records")) {
    for (const nlohmann::json& run : record.at("runs")) {
      INFO("record " << record.at("id").get<std::string>() << " " << run.at("test").get<std::string>());
      double estimated = prefill_tokens_per_s(prompt_row_request(record, run));
      double measured = run.at("tokens_per_s").get<double>();
      INFO("prompt tokens/s: estimated " << estimated << ", measured " << measured);
      CHECK(estimated == Approx(measured).epsilon(0.10));
    }
  }
}

TEST_CASE("A ubatch under 32 tokens reads the weights in RAM on the CPU, a larger one copies them over the host link",
          "[speed][prefill][op_offload]") {
  // Llama 3.3 70B Q4_K_M on one RTX 4090: --fit leaves some layers in RAM. Those layers' time is
  // bytes / rate: over system RAM (the cpu key's share of it) for a 16-token prompt, below the
  // offload batch of 32; over the host link for 512 tokens. So halving the rate that applies
  // doubles the added time (t(r/2) - t(r) = 2 x (t(r) - t(2r))), and the other rate changes nothing.
  auto ttft = [](int64_t prompt, double ram, double link) {
    nlohmann::json envelope = llmcalc_test::estimate(
        {{"model", "llama-3.3-70b"}, {"weights", "Q4_K_M"}, {"hardware", "rtx-4090"}, {"prompt_tokens", prompt},
         {"system_memory_bandwidth_bytes_per_s", ram}, {"host_link_bytes_per_s", link}});
    REQUIRE(envelope["ok"] == true);
    REQUIRE(envelope["result"]["memory"]["verdict"] == "offload");
    return envelope["result"]["prefill"]["ttft_s"].get<double>();
  };
  const double ram = 76.8e9;
  const double link = 31.5e9;
  CHECK(ttft(16, ram / 2, link) - ttft(16, ram, link) == Approx(2 * (ttft(16, ram, link) - ttft(16, 2 * ram, link))));
  CHECK(ttft(16, ram, link / 2) == Approx(ttft(16, ram, link)));
  CHECK(ttft(512, ram, link / 2) - ttft(512, ram, link) == Approx(2 * (ttft(512, ram, link) - ttft(512, ram, 2 * link))));
  CHECK(ttft(512, ram / 2, link) == Approx(ttft(512, ram, link)));
  CHECK(ttft(16, ram / 2, link) > 1.1 * ttft(16, ram, link));
  CHECK(ttft(512, ram, link / 2) > 1.1 * ttft(512, ram, link));
}
