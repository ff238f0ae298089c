// Decode and prefill speed from a roofline: bytes moved and FLOPs per token against effective
// bandwidth and compute, with efficiencies per backend fitted to published measurements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/hardware.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"
#include "llmcalc/network.h"
#include "llmcalc/weights.h"

namespace llmcalc {

/// Efficiency assumptions; defaults come from data/speed_calibration.json per backend.
struct SpeedAssumptions {
  double bandwidth_efficiency = 0.7;  // achieved / datasheet memory bandwidth in decode
  double compute_efficiency = 0.5;    // achieved / datasheet dense FP16 in prefill, 16-bit weights
  // Quantized weights: llama.cpp multiplies them with integer kernels (MMQ), so prefill is
  // measured against dense INT8 throughput (2 x FP16 when INT8 is unknown).
  double quantized_compute_efficiency = 0.3;
  // Whether that share is of dense FP16 instead (data/speed_calibration.json "quantized_basis":
  // "fp16"): llama.cpp's ROCm kernels on RDNA 3, 3.5 and 4 reach one share of the FP16 matrix
  // rate whether the part's INT8 rate equals it (RX 7900 XTX, Strix Halo) or doubles it (R9700,
  // RX 9070 XT).
  bool quantized_fp16_basis = false;
  // A prompt's flash attention (QK^T and AV over the cached and earlier prompt tokens, on f16 K
  // and V), whatever the weights: its own kernels, not the weight matmuls, measured against the
  // peak quantized matmuls are (dense INT8, 2 x FP16 where INT8 is unknown, or FP16 under
  // quantized_fp16_basis). Fitted where prompts at depth were measured (llama.cpp's Vulkan
  // backend on Strix Halo: 7%); elsewhere the key's quantized_compute_efficiency, the rate before
  // attention had its own (data/speed_calibration.json says which).
  double attention_compute_efficiency = 0.3;
  double per_layer_overhead_s = 0.0;  // fixed cost per layer and decoded token (kernel launches)
  // More per MoE layer and decoded token: a server's MoE layer runs its router, top-k,
  // token-alignment and grouped-GEMM kernels (vLLM fused_moe, SGLang's MoE runners) where a
  // dense layer runs two GEMMs. Calibrated for the "/server" keys only; 0 for llama.cpp, whose
  // MoE layers are inside per_layer_overhead_s's fit.
  double per_moe_layer_overhead_s = 0.0;
  double band_fraction = 0.25;        // relative half-width of the uncertainty band
  // MTP drafting: the chance each drafted token is accepted. 0.55 reproduces the published
  // 9.6 -> 15.7 tok/s (1.64x) of Qwen3.6-27B Q8_0 with 2 drafts (mybigday/llama.node PR #136).
  double mtp_acceptance = 0.55;
};

/// The calibration key of a device: its backend, with ".hbm" for HBM parts (llama.cpp reaches a
/// lower share of HBM bandwidth at batch 1, see data/speed_calibration.json).
std::string speed_calibration_key(const Hardware& hardware);

/// The calibrated assumptions for a calibration key ("cuda", "cuda.hbm", "metal", ...).
SpeedAssumptions default_speed_assumptions(const std::string& key, const std::string& engine);

struct SpeedRequest {
  int64_t context_tokens = 0;  // tokens already in the cache when decoding
  // Tokens already cached before the prompt is read (-1: context_tokens, as a benchmark at depth
  // measures it); the page's time to first token is for a prompt into an empty cache (0).
  int64_t prefill_depth_tokens = -1;
  int64_t prompt_tokens = 512;
  int64_t batch = 1;           // concurrent sequences decoding together
  int64_t ubatch_tokens = 512; // prompt chunk: a layer split pipelines prompt / ubatch chunks
  int64_t batch_tokens = 2048; // llama.cpp n_batch: at most n_batch / n_ubatch chunks in flight
  bool flash_attention = true; // without it, prefill writes and reads the KQ scores in memory
  // Partial offload: bytes a decode step reads from system RAM instead of the device, and that
  // RAM's bandwidth (read at the cpu backend's calibrated efficiency).
  int64_t offloaded_read_bytes_per_token = 0;
  double system_memory_bandwidth_bytes_per_s = 76.8e9;
  int64_t devices = 1;         // identical devices
  bool tensor_parallel = true; // false: llama.cpp layer split, devices run one after another
  // llama.cpp's layer split over a list of devices (unequal cards, or other machines over RPC):
  // each device with its share of the bytes the devices hold, in llama.cpp's order, and its
  // machine (0: the head). Empty: `devices` identical devices with equal shares.
  struct SplitDevice {
    Hardware hardware;
    double share = 0;
    int64_t node = 0;
  };
  std::vector<SplitDevice> split;
  // Whether llama.cpp pipelines a layer split's ubatches through the devices. It does only when
  // every layer and the output layer are on the GPUs and no tensor is overridden to another
  // buffer (src/llama-context.cpp pipeline_parallel: n_gpu_layers > n_layer_all, split mode
  // layer, KV offloaded, !has_tensor_overrides(); --n-cpu-moe and --fit's partial layers are
  // overrides). Off, the devices take each ubatch one after another.
  bool layer_pipeline = true;
  // llama.cpp: weights in system RAM the first device copies over its host link for each prompt
  // ubatch of 32+ tokens (MemoryEstimate::op_offload_*).
  int64_t op_offload_dense_bytes = 0;
  int64_t op_offload_expert_bytes = 0;
  double host_link_bytes_per_s = kPcie4x16BytesPerS;
  // vLLM / SGLang across several devices and machines: tensor x pipeline x data ranks, the
  // machines they span (devices / machines in each) and the network between the machines.
  ParallelPlan parallel;
  int64_t expert_shards = 1;  // ranks the routed experts spread over (expert_shards())
  int64_t machines = 1;
  NetworkLink network;
  KvType kv_type{"f16", 1, 2};
  int64_t mtp_draft_tokens = 0;  // llama.cpp --spec-type draft-mtp --spec-draft-n-max (0: off)
  SpeedAssumptions assumptions;
};

struct SpeedEstimate {
  double decode_tokens_per_s = 0;  // per sequence
  double decode_aggregate_tokens_per_s = 0;
  double decode_low = 0;
  double decode_high = 0;
  double mtp_speedup = 1;          // MTP drafting: accepted tokens per step / step cost
  std::string bound;               // memory | compute
  double bytes_per_token = 0;
  double flops_per_token = 0;
  double prefill_tokens_per_s = 0;
  double prefill_low = 0;
  double prefill_high = 0;
  double ttft_s = 0;
};

SpeedEstimate estimate_speed(const ModelSpec& model, const WeightPlan& weights,
                             const Hardware& hardware, const SpeedRequest& request);

/// Nodes of llama.cpp's decode graph for this model (what its logs print as `graph nodes`),
/// estimated per layer kind; without CUDA graphs each is launched from the host (speed.cpp).
double llama_cpp_graph_nodes(const ModelSpec& model);

nlohmann::json speed_json(const SpeedEstimate& speed);

}  // namespace llmcalc
