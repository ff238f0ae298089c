// Roofline speed model. Decode reads every active weight once per step (routed experts: only
// the selected ones; token embeddings: one row) plus the attended KV; prefill is compute-bound
// at 2 FLOPs per active weight per token plus attention (Kaplan et al. 2020, Table 1).
#include "llmcalc/speed.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "llmcalc/network.h"
#include "json_text.h"
#include "speed_calibration.h"

namespace llmcalc {

namespace {

// Keys one query token attends to, per layer: the context, capped by windows.
double attended_span(const AttentionGeometry& a, int64_t context) {
  if (a.kind == AttentionKind::linear || a.kind == AttentionKind::ssm || a.kind == AttentionKind::none) {
    return 0.0;
  }
  bool windowed = a.kind == AttentionKind::sliding || a.kind == AttentionKind::chunked;
  return static_cast<double>(windowed ? std::min(context, a.window_tokens) : context);
}

// Attention FLOPs per token at `context` tokens: QK^T and AV, 2 FLOPs per multiply-add each.
double attention_flops_per_token(const ModelSpec& model, int64_t context) {
  double flops = 0;
  for (const LayerSpec& layer : model.layers) {
    const AttentionGeometry& a = layer.attention;
    flops += 2.0 * static_cast<double>(a.n_q_heads) * attended_span(a, context) *
             static_cast<double>(a.head_dim_k + a.head_dim_v);
  }
  return flops;
}

// Attention scores per token (heads x keys, summed over layers).
double attention_scores_per_token(const ModelSpec& model, int64_t context) {
  double scores = 0;
  for (const LayerSpec& layer : model.layers) {
    scores += static_cast<double>(layer.attention.n_q_heads) * attended_span(layer.attention, context);
  }
  return scores;
}

// Bytes of KV read per decoded token at `context` (each layer reads what it attends to).
double kv_read_bytes(const ModelSpec& model, const KvType& type, int64_t context) {
  KvRequest request;
  request.context_tokens = context;
  request.layout = KvLayout::contiguous;
  return static_cast<double>(kv_cache_bytes(model, type, request).total_bytes);
}

}  // namespace

std::string speed_calibration_key(const Hardware& hardware) {
  return hardware.memory_type.rfind("HBM", 0) == 0 ? hardware.backend + ".hbm" : hardware.backend;
}

SpeedAssumptions default_speed_assumptions(const std::string& key, const std::string& engine) {
  // Looked up once per (key, server or not).
  static std::map<std::string, SpeedAssumptions> cache;
  std::string cache_key = key + ((engine == "vllm" || engine == "sglang") ? "/server" : "");
  auto cached = cache.find(cache_key);
  if (cached != cache.end()) return cached->second;
  SpeedAssumptions found = lookup_speed_assumptions(key, engine);
  cache.emplace(cache_key, found);
  return found;
}

namespace {

// One device's effective rates at the assumptions' efficiencies: memory bandwidth, dense FP16
// compute, the rate prefill's weight matmuls run at (quantized weights: llama.cpp's integer
// kernels, against quantized_peak) and the rate of a prompt's flash attention (against the same
// peak, whatever the weights: on a GeForce card, whose INT8 rate is four times the FP16 figure
// with FP32 accumulation, that is twice FP16 with FP16 accumulation, the rate its kernel reaches).
struct Rates {
  double bandwidth = 0;
  double compute = 0;
  double matmul = 0;
  double attention = 0;
};

// NVIDIA parts below compute capability 6.1 (the P100, 6.0) have no __dp4a. llama.cpp's CUDA
// backend (ggml-cuda/common.cuh, ggml_cuda_dp4a: four byte products in software below
// GGML_CUDA_CC_DP4A = 610) then turns the quantized mat-vec of decode into integer work the SMs
// cannot finish at memory speed, and never picks its quantized GEMM (mmq.cu,
// ggml_cuda_should_use_mmq returns false below 610): prompts run through dequantization and FP16
// cuBLAS. The mat-vec rate is the SMs', so it is written per FP16 FLOP/s: 0.013962 bytes per FLOP
// is the rate a P100 (18.7 TFLOPS FP16) gives in the two published P100 rows that pin it
// (pavlokhmel.com, "LLM throughput benchmark on 13 GPUs and 10 models", 2026-06-07, llama.cpp,
// one request, unsloth Q4_K_M): Qwen3.5-9B at 32 tokens/s (31.250 ms) and Qwen3.5-4B at 49
// (20.408 ms), 32 layers and 1,831 graph nodes each (llama_cpp_graph_nodes), 5.0117 and 2.1810 GB
// read per token (this model's decode bytes). Two rows, two unknowns, with the step
// t = bytes / rate + nodes x launch + 32 x 95 us (the per-layer cost of cuda.hbm, the P100's
// calibration key): rate = (5.0117 - 2.1810) GB / (31.250 - 20.408) ms = 261.1 GB/s
// = 0.013962 x 18.7e12; launch = (20.408 - 8.353 - 3.040) ms / 1,831 = 4.92 us.
constexpr double kNoDp4aBytesPerFlop = 0.013962;

// An NVIDIA device whose compute capability is known and below `capability`.
bool cuda_below(const Hardware& h, double capability) {
  return h.backend == "cuda" && h.cuda_compute_capability > 0 && h.cuda_compute_capability < capability;
}

// The peak llama.cpp's quantized matmuls and its flash attention are measured against: dense INT8
// (2 x FP16 when INT8 is unknown), or FP16 on parts without __dp4a and where the key says so.
double quantized_peak(const Hardware& h, const SpeedAssumptions& a) {
  if (cuda_below(h, 6.1) || a.quantized_fp16_basis) return h.fp16_flops_per_s;
  return h.int8_ops_per_s > 0 ? h.int8_ops_per_s : 2.0 * h.fp16_flops_per_s;
}

Rates rates_of(const Hardware& h, const SpeedAssumptions& a, bool quantized) {
  bool no_dp4a = quantized && cuda_below(h, 6.1);
  double bandwidth = h.memory_bandwidth_bytes_per_s * a.bandwidth_efficiency;
  if (no_dp4a) bandwidth = std::min(bandwidth, kNoDp4aBytesPerFlop * h.fp16_flops_per_s);
  double dense = h.fp16_flops_per_s * a.compute_efficiency;
  return {bandwidth, dense, quantized && !no_dp4a ? quantized_peak(h, a) * a.quantized_compute_efficiency : dense,
          quantized_peak(h, a) * a.attention_compute_efficiency};
}

// What reading a prompt costs: the weight matmuls, the attention and one pass over the bytes.
// Flash attention runs its own fused kernel (rates.attention); without it the scores are two
// ordinary f16 matrix products per layer (llama.cpp's mul_mat of K and V, cuBLAS / hipBLAS on
// GPUs) at the dense FP16 rate, their f32 scores written and read in `bytes`.
struct PromptWork {
  double matmul_flops = 0;
  double attention_flops = 0;
  double bytes = 0;
  bool flash_attention = true;
  double attention_rate(const Rates& rates) const { return flash_attention ? rates.attention : rates.compute; }
  // Whether the device has the compute figures this needs (else prefill is unknown).
  bool known(const Rates& rates) const { return rates.matmul > 0 && attention_rate(rates) > 0; }
  double seconds(const Rates& rates) const {
    return matmul_flops / rates.matmul + attention_flops / attention_rate(rates) + bytes / rates.bandwidth;
  }
};

// llama.cpp builds the same graph for every decode step; with CUDA graphs the GPU replays it in
// one launch, without them the host launches node after node. ggml-cuda.cu
// (ggml_cuda_graph_set_enabled) turns graphs off below compute capability 7.0 since PR #25749
// (b10042, 2026-07-16; below 8.0 before), i.e. on every Pascal part. At decode sizes most kernels
// end before the host has launched the next, so a step costs its memory time plus a launch per
// node: 4.92 us, the figure the P100 rows above give (a host-side cost: a faster CPU launches
// faster).
constexpr double kPascalLaunchSeconds = 4.92e-6;

// A link between the devices of one machine: its bandwidth and the latency of a small
// collective through NCCL (all-reduces, all-to-alls, pipeline sends), or through the one case
// below where vLLM and SGLang reduce with their own kernel:
//   NVLink-class links: 10 us, their bytes at the link's rate when it is known.
//   PCIe through host memory, where the driver refuses peer-to-peer (GeForce cards): an
//     all-reduce of 8 bytes takes 42.6 us on 8 RTX 4090s and 54.2 us on 8 RTX 3090s
//     (all_reduce_perf output in NVIDIA/nccl issues #1530 and #1439), so 48 us, the mean of the two.
//   PCIe with peer-to-peer (data/devices: interconnect.pcie_peer_to_peer, each with its source):
//     8 KiB inside a CUDA graph over four V100s behind one switch took NCCL 20.3 us and a one-shot
//     kernel writing into the peers' buffers 5.0 us (haohervchb/sglang-V100 PR #2). vLLM and
//     SGLang reduce with their own one-shot kernel when the tensor group is two such cards of one
//     machine (vllm custom_all_reduce.py: off "on more than two PCIe-only GPUs" and where the P2P
//     test fails), with NCCL otherwise.
// PCIe bytes go at PCIe 4.0 x16's 31.5 GB/s per direction unless the device states its rate.
struct Link {
  double bandwidth = 0;
  double latency = 0;
};

Link device_link(const Hardware& hardware, bool two_rank_all_reduce) {
  const std::string& kind = hardware.interconnect_kind;
  bool pcie = kind.empty() ? hardware.interconnect_bytes_per_s <= 0 : kind.rfind("PCIe", 0) == 0;
  if (!pcie) return Link{hardware.interconnect_bytes_per_s, 10e-6};
  double bandwidth = hardware.interconnect_bytes_per_s > 0 ? hardware.interconnect_bytes_per_s : kPcie4x16BytesPerS;
  if (!hardware.pcie_peer_to_peer) return Link{bandwidth, 48e-6};
  return Link{bandwidth, two_rank_all_reduce ? 5.0e-6 : 20.3e-6};
}

double send_seconds(const Link& link, double bytes) {
  return link.latency + (link.bandwidth > 0 ? bytes / link.bandwidth : 0.0);
}

// What the step of each engine path needs from the model and the request.
struct Work {
  double dense_bytes = 0;      // weights read whatever the batch: all but routed experts and embeddings
  double embd_row = 0;         // bytes of one embedding row (read per token)
  double kv_per_sequence = 0;  // KV read per decoded token of one sequence
  double flops_per_token = 0;
  double offloaded = 0;        // bytes a step reads from system RAM
  double host_time = 0;        // seconds to read them
  int64_t moe_layers = 0;      // layers with routed experts
  int64_t top_k = 0;           // experts a token picks in them (the widest)
  // Routed-expert bytes a step touches when `tokens` tokens select experts. A token's top-k
  // leaves a given expert out with probability 1 - k/E, so independent tokens leave it out with
  // (1 - k/E)^tokens and touch the expected share 1 - (1 - k/E)^tokens: k/E for one token, all of
  // them only in the limit. That is uniform routing; real routers are skewed, so more tokens
  // share experts and this is the upper end.
  const WeightPlan* weights = nullptr;
  double picked_share(double tokens) const {
    if (weights->expert_bytes <= 0) return 0.0;
    double share = static_cast<double>(weights->active_expert_bytes) / static_cast<double>(weights->expert_bytes);
    // (1 - share)^tokens by squaring: libm's pow brings its tables into the WebAssembly module.
    double missed = 1.0;
    double base = 1.0 - std::min(1.0, share);
    for (auto n = static_cast<int64_t>(tokens); n > 0; n /= 2, base *= base) {
      if (n % 2) missed *= base;
    }
    return 1.0 - missed;
  }
  double experts_for(double tokens) const { return picked_share(tokens) * static_cast<double>(weights->expert_bytes); }
};

struct Step {
  double seconds = 0;        // one decode step of a sequence
  bool compute_bound = false;
  double draft_bandwidth = 0;  // where MTP drafts read their weights
};

// One remote device's round trip (ggml-rpc.cpp) for `tokens` tokens: the hidden state sent and
// read back in f32, the f32 KQ mask over the context sent, each way at the network's latency.
double rpc_round_trip_seconds(const ModelSpec& model, const SpeedRequest& r, double tokens) {
  double bytes = (2.0 * static_cast<double>(model.hidden_size) * 4.0 + 4.0 * static_cast<double>(r.context_tokens)) * tokens;
  return transfer_seconds(r.network, bytes) + r.network.latency_s;
}

// Weights in system RAM go to the first device for each prompt ubatch of 32+ tokens (op offload:
// ggml-backend.cpp ggml_backend_sched_backend_id_from_cur gives an op on host weights to the
// first backend whose offload_op wants it; CUDA's and ROCm's from a batch of kOpOffloadMinBatch,
// ggml-cuda.cu ggml_backend_cuda_device_offload_op as 2026 copies quote it, search-index file ids
// 70211699059 and 7108764369), and of routed experts only those the ubatch's tokens picked ("when
// offloading MoE weights ... copying only the experts that are used"; ggml-backend.cpp read at
// b10256, mybigday/llama.rn@8ad14220 cpp/ggml-backend.cpp lines 958 and 1629). They cross the
// host link (host_link_bytes_per_s) at kHostCopyEfficiency of its rate, not overlapping the
// ubatch's compute. 0.62 from one run: an RTX 3060 on a PCIe 3.0 host (15.75 GB/s), 307 prompt
// tokens at 260.20 tokens/s with --n-cpu-moe 20 (castlen3/rtx3060-qwen3.6-35b-guide row n21,
// tests/data/hybrid_offload_runs.json): 1.180 s, of which the estimate's compute takes 0.188, so
// the 20 layers' experts (9.75 GB, 0.619 s at the full link) moved at 9.8 GB/s.
// A smaller ubatch leaves those ops on the CPU, which reads the weights once from RAM, as a
// decode step does.
constexpr double kHostCopyEfficiency = 0.62;

// System RAM as the CPU backend reads it (its calibrated share of the RAM's rate).
double ram_read_bytes_per_s(const SpeedRequest& r) {
  return r.system_memory_bandwidth_bytes_per_s * default_speed_assumptions("cpu", "llama.cpp").bandwidth_efficiency;
}

double weights_in_ram_seconds(const SpeedRequest& r, const Work& w, double ubatch_tokens) {
  double bytes = static_cast<double>(r.op_offload_dense_bytes) +
                 static_cast<double>(r.op_offload_expert_bytes) * w.picked_share(ubatch_tokens);
  if (ubatch_tokens < static_cast<double>(kOpOffloadMinBatch)) return bytes / ram_read_bytes_per_s(r);
  return bytes / (r.host_link_bytes_per_s * kHostCopyEfficiency);
}

// llama.cpp's layer split (-sm layer): the devices run one after another, each over its share of
// the layers; devices on other machines (RPC, ggml-rpc.cpp) each cost a round trip per step: the
// head sends the hidden state and the KQ mask (f32, context x batch) with SET_TENSOR and
// GRAPH_RECOMPUTE (no reply) and reads the result back with GET_TENSOR (a reply).
Step layer_split_step(const ModelSpec& model, const SpeedRequest& r, const Work& w, double batch,
                      const std::vector<SpeedRequest::SplitDevice>& split, bool quantized) {
  Step step;
  double device_bytes = std::max(0.0, w.dense_bytes + w.experts_for(batch) + w.embd_row * batch +
                                          w.kv_per_sequence * batch - w.offloaded);
  double memory = 0;
  double compute = 0;
  for (const SpeedRequest::SplitDevice& d : split) {
    Rates rates = rates_of(d.hardware, r.assumptions, quantized);
    double m = d.share * device_bytes / rates.bandwidth;
    double c = rates.compute > 0 ? d.share * w.flops_per_token * batch / rates.compute : 0.0;
    step.seconds += std::max(m, c);
    // Each device launches its share of the graph (layers left in RAM by -ngl are counted too:
    // an upper bound for a partial offload).
    if (cuda_below(d.hardware, 7.0)) step.seconds += d.share * llama_cpp_graph_nodes(model) * kPascalLaunchSeconds;
    memory += m;
    compute += c;
    if (d.node != 0) step.seconds += rpc_round_trip_seconds(model, r, batch);
  }
  step.seconds += w.host_time;
  step.compute_bound = compute > memory;
  step.draft_bandwidth = rates_of(split.back().hardware, r.assumptions, quantized).bandwidth;
  return step;
}

// vLLM / SGLang: `tensor` ranks share each layer (two all-reduces per layer, Megatron-LM, Shoeybi
// 2019), `pipeline` stages run one after another (vLLM keeps one micro-batch per stage in flight,
// so each stage serves batch / pipeline sequences), `data` replicas decode their own sequences
// while routed experts spread over tensor x data ranks exchange tokens in two all-to-alls per MoE
// layer (dispatch and combine). Links: the machine's own within it, the network across machines.
Step tensor_parallel_step(const ModelSpec& model, const Hardware& hardware, const SpeedRequest& r,
                          const Work& w, double batch, bool quantized) {
  ParallelPlan plan = covering_plan(r.parallel, r.devices);
  int64_t devices = plan.ranks();
  double tensor = static_cast<double>(plan.tensor);
  double stages = static_cast<double>(plan.pipeline);
  double shards = static_cast<double>(std::max<int64_t>(plan.tensor, r.expert_shards));
  int64_t machines = std::max<int64_t>(1, r.machines);
  int64_t per_machine = (devices + machines - 1) / machines;
  double replica = std::ceil(batch / static_cast<double>(plan.data));
  double micro = stages > 1 ? std::max(1.0, std::ceil(replica / stages)) : replica;

  Rates rates = rates_of(hardware, r.assumptions, quantized);
  double rank_bytes = (w.dense_bytes + w.embd_row * micro + w.kv_per_sequence * micro) / tensor +
                      w.experts_for(micro * static_cast<double>(plan.data)) / shards;
  double memory = std::max(0.0, rank_bytes - w.offloaded / tensor) / stages / rates.bandwidth;
  double compute = rates.compute > 0 ? w.flops_per_token * micro / (tensor * stages) / rates.compute : 0.0;
  Step step;
  step.seconds = stages * std::max(memory, compute) + w.host_time;
  step.compute_bound = compute > memory;
  step.draft_bandwidth = rates.bandwidth * tensor;
  // One machine of unified memory (a Mac, a Spark) has no link between devices; several such
  // machines still pay the network between them.
  if (devices <= 1 || (hardware.kind != "discrete" && machines <= 1)) return step;

  Link inside = device_link(hardware, false);
  Link inside_reduce = device_link(hardware, plan.tensor == 2);
  // NCCL across machines (network.h): an all-reduce crosses the network 2 x log2(machines) times
  // (its tree; src/graph/tuning.cc), an all-to-all is charged as the two-machine all-reduce (the
  // steps of a dispatch and a combine), a pipeline send one step.
  double tensor_machines = std::ceil(tensor / static_cast<double>(per_machine));
  double step_s = r.network.nccl_step_s;
  Link across{r.network.bandwidth_bytes_per_s, 2.0 * step_s};
  // (floor(log2) of a whole number by halving: libm's log2 and pow brought 7 KB of tables.)
  double network_crossings = 0;
  for (double m = tensor_machines; m >= 2; m /= 2) network_crossings += 2.0;
  network_crossings = std::max(2.0, network_crossings);
  Link across_reduce{r.network.bandwidth_bytes_per_s, network_crossings * step_s};
  double hidden = static_cast<double>(model.hidden_size);
  bool all_to_all = shards > tensor && w.moe_layers > 0;
  if (plan.tensor > 1) {
    double reduces = static_cast<double>(2 * model.n_layers - (all_to_all ? w.moe_layers : 0));
    double bytes = hidden * 2.0 * micro * 2.0 * (tensor - 1.0) / tensor;
    step.seconds += reduces * send_seconds(plan.tensor > per_machine ? across_reduce : inside_reduce, bytes);
  }
  if (all_to_all) {
    double bytes = micro * hidden * static_cast<double>(w.top_k) * 2.0 * (shards - 1.0) / shards;
    Link link = shards > static_cast<double>(per_machine) ? across : inside;
    step.seconds += 2.0 * static_cast<double>(w.moe_layers) * send_seconds(link, bytes);
  }
  if (plan.pipeline > 1) {
    double bytes = hidden * 2.0 * micro;
    int64_t crossings = std::min(plan.pipeline, machines) - 1;
    Link network{r.network.bandwidth_bytes_per_s, step_s};
    step.seconds += static_cast<double>(crossings) * send_seconds(network, bytes) +
                    static_cast<double>(plan.pipeline - 1 - crossings) * send_seconds(inside, bytes);
  }
  return step;
}

}  // namespace

// Nodes of llama.cpp's decode graph, from the `graph nodes` its logs print: 1,030 for Llama 3.1
// 8B (32 full-attention layers with a dense FFN: 32.19 per layer, output included; index file id
// 48629668660, an Ollama log), 1,831 for Qwen3.5-9B (8 of those and 24 gated delta-net layers:
// 33.375 more per linear-attention layer; tests/data/engine_logs.json,
// qwen3.5-9b-udq4kxl-1070ti-np1), 4,473 for Qwen3.5-122B-A10B (12 + 36 such layers, all MoE:
// 35.97 more per MoE layer; miminashi/llm-server-ops@6b04e192, f16 cache).
double llama_cpp_graph_nodes(const ModelSpec& model) {
  double nodes = 0;
  for (const LayerSpec& layer : model.layers) {
    AttentionKind kind = layer.attention.kind;
    nodes += 32.19 + (kind == AttentionKind::linear || kind == AttentionKind::ssm ? 33.375 : 0.0) +
             (layer.mlp.moe ? 35.97 : 0.0);
  }
  return nodes;
}

SpeedEstimate estimate_speed(const ModelSpec& model, const WeightPlan& weights,
                             const Hardware& hardware, const SpeedRequest& request) {
  SpeedEstimate out;
  const SpeedAssumptions& a = request.assumptions;
  double devices = static_cast<double>(std::max<int64_t>(1, request.devices));
  double batch = static_cast<double>(std::max<int64_t>(1, request.batch));
  bool quantized = weights.bits_per_weight() < 12.0;

  // Weights read per decode step: everything but unselected experts and the embedding table
  // (one row per token). With a batch, more distinct experts are touched, up to all of them.
  Work w;
  w.weights = &weights;
  w.embd_row = model.vocab_size > 0 ? static_cast<double>(weights.token_embd_bytes) /
                                          static_cast<double>(model.vocab_size)
                                    : 0.0;
  w.dense_bytes = static_cast<double>(weights.text_bytes - weights.token_embd_bytes - weights.expert_bytes);
  w.kv_per_sequence = kv_read_bytes(model, request.kv_type, request.context_tokens);
  for (const LayerSpec& layer : model.layers) {
    if (!layer.mlp.moe) continue;
    ++w.moe_layers;
    w.top_k = std::max(w.top_k, layer.mlp.n_experts_active);
  }
  double active_matmul_params = static_cast<double>(model.params.active - model.params.embedding);
  w.flops_per_token = 2.0 * active_matmul_params + attention_flops_per_token(model, request.context_tokens);
  out.flops_per_token = w.flops_per_token;
  out.bytes_per_token = (w.dense_bytes + w.experts_for(batch) + w.embd_row * batch + w.kv_per_sequence * batch) / batch;
  // Offloaded parts stream from system RAM after the device's share (llama.cpp runs them on the
  // CPU, layer by layer).
  w.offloaded = static_cast<double>(request.offloaded_read_bytes_per_token) * batch;
  if (w.offloaded > 0) w.host_time = w.offloaded / ram_read_bytes_per_s(request);

  // A layer split without a list: identical devices with equal shares.
  std::vector<SpeedRequest::SplitDevice> split = request.split;
  if (!request.tensor_parallel && split.empty()) {
    split.assign(static_cast<std::size_t>(devices), {hardware, 1.0 / devices, 0});
  }
  Step decode = request.tensor_parallel ? tensor_parallel_step(model, hardware, request, w, batch, quantized)
                                        : layer_split_step(model, request, w, batch, split, quantized);
  double step = decode.seconds + a.per_layer_overhead_s * static_cast<double>(model.n_layers) +
                a.per_moe_layer_overhead_s * static_cast<double>(w.moe_layers);
  out.bound = decode.compute_bound ? "compute" : "memory";
  if (request.mtp_draft_tokens > 0 && model.mtp_layers > 0) {
    // Speculative decoding with the model's MTP layers (llama.cpp PR #22673): each step drafts k
    // tokens, each draft reading the MTP layers and the output head, then verifies k + 1 in one
    // pass of the model (memory-bound: about one decode step). Accepted tokens per step with
    // acceptance a: 1 + a + ... + a^k, that is (1 - a^(k+1)) / (1 - a).
    double k = static_cast<double>(request.mtp_draft_tokens);
    double acceptance = std::min(0.99, std::max(0.0, a.mtp_acceptance));
    double accepted = 0;
    double chance = 1;  // a^i: the first i drafts all accepted
    for (int64_t i = 0; i <= request.mtp_draft_tokens; ++i, chance *= acceptance) accepted += chance;
    double draft_bytes = static_cast<double>(weights.mtp_bytes) +
                         static_cast<double>(std::max(weights.output_layer_bytes, weights.token_embd_bytes));
    double draft_time = draft_bytes / decode.draft_bandwidth + a.per_layer_overhead_s * static_cast<double>(model.mtp_layers);
    out.mtp_speedup = accepted * step / (step + k * draft_time);
    step /= out.mtp_speedup;
  }
  out.decode_tokens_per_s = 1.0 / step;
  out.decode_aggregate_tokens_per_s = batch / step;
  out.decode_low = out.decode_tokens_per_s * (1.0 - a.band_fraction);
  out.decode_high = out.decode_tokens_per_s * (1.0 + a.band_fraction);

  // Prefill: compute for the prompt after the tokens already cached (attention over the growing
  // prefix: average span depth + p/2), plus one pass over the weights. Without flash attention
  // each layer writes the f32 KQ scores, softmaxes them in place and reads them for V: about
  // 3 x 4 bytes per head, query and key.
  double prompt = static_cast<double>(std::max<int64_t>(1, request.prompt_tokens));
  int64_t depth = request.prefill_depth_tokens >= 0 ? request.prefill_depth_tokens : request.context_tokens;
  int64_t span = depth + request.prompt_tokens / 2;
  PromptWork work;
  work.matmul_flops = prompt * 2.0 * active_matmul_params;
  work.attention_flops = prompt * attention_flops_per_token(model, span);
  work.flash_attention = request.flash_attention;
  double kq_traffic = 0;
  if (!request.flash_attention) kq_traffic = 12.0 * prompt * attention_scores_per_token(model, span);
  work.bytes = static_cast<double>(weights.text_bytes) + kq_traffic;
  double prefill_time = 0;
  if (request.tensor_parallel) {
    // One prompt runs through the stages in turn, each stage's tensor ranks together.
    ParallelPlan plan = covering_plan(request.parallel, request.devices);
    Rates rates = rates_of(hardware, a, quantized);
    if (!work.known(rates)) return out;  // no compute figure for this device: prefill unknown (0)
    prefill_time = work.seconds(rates) / static_cast<double>(plan.tensor);
  } else {
    // A layer split pipelines the ubatch chunks of each n_batch through the devices: chunk c
    // enters device d when the chunk before it has left, so c chunks take the devices' times for
    // one chunk plus c - 1 of the slowest device's. Without the pipeline (layer_pipeline) each
    // chunk passes through all devices before the next starts. Each chunk pays the remote
    // devices' round trips.
    double ubatch = static_cast<double>(std::max<int64_t>(1, request.ubatch_tokens));
    double chunks = std::min(std::ceil(prompt / ubatch),
                             std::max(1.0, std::floor(static_cast<double>(request.batch_tokens) / ubatch)));
    double one_chunk = 0;
    double slowest = 0;
    double round_trips = 0;
    for (const SpeedRequest::SplitDevice& d : split) {
      Rates rates = rates_of(d.hardware, a, quantized);
      if (!work.known(rates)) return out;
      double seconds = d.share * work.seconds(rates) / chunks;
      one_chunk += seconds;
      slowest = std::max(slowest, seconds);
      if (d.node != 0) round_trips += rpc_round_trip_seconds(model, request, std::min(prompt, ubatch));
    }
    double next_chunk = request.layer_pipeline ? slowest : one_chunk;
    prefill_time = one_chunk + (chunks - 1.0) * next_chunk +
                   std::ceil(prompt / ubatch) * (round_trips + weights_in_ram_seconds(request, w, std::min(prompt, ubatch)));
  }
  out.prefill_tokens_per_s = prompt / prefill_time;
  out.prefill_low = out.prefill_tokens_per_s * (1.0 - a.band_fraction);
  out.prefill_high = out.prefill_tokens_per_s * (1.0 + a.band_fraction);
  out.ttft_s = prefill_time;
  return out;
}

nlohmann::json speed_json(const SpeedEstimate& s) {
  return {{"decode", {{"tokens_per_s", s.decode_tokens_per_s},
                      {"aggregate_tokens_per_s", s.decode_aggregate_tokens_per_s},
                      {"low", s.decode_low},
                      {"high", s.decode_high},
                      {"bound", s.bound},
                      {"mtp_speedup", s.mtp_speedup},
                      {"bytes_per_token", s.bytes_per_token},
                      {"flops_per_token", s.flops_per_token}}},
          {"prefill", {{"tokens_per_s", s.prefill_tokens_per_s},
                       {"low", s.prefill_low},
                       {"high", s.prefill_high},
                       {"ttft_s", s.ttft_s}}}};
}

}  // namespace llmcalc
