// Roofline speed model. Decode reads every active weight once per step (routed experts: only
// the selected ones; token embeddings: one row) plus the attended KV; prefill is compute-bound
// at 2 FLOPs per active weight per token plus attention (Kaplan et al. 2020, Table 1).
#include "llmcalc/speed.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "llmcalc/embedded_data.h"

namespace llmcalc {

SpeedAssumptions lookup_speed_assumptions(const std::string& key, const std::string& engine);

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

SpeedAssumptions lookup_speed_assumptions(const std::string& key, const std::string& engine) {
  static const nlohmann::json calibration = [] {
    for (const EmbeddedFile& file : embedded_data_files()) {
      if (std::string(file.path) == "speed_calibration.json") return nlohmann::json::parse(file.content);
    }
    return nlohmann::json::object();
  }();
  SpeedAssumptions a;
  auto backends = calibration.find("backends");
  if (backends == calibration.end()) return a;
  std::string backend = key.substr(0, key.find('.'));
  auto entry = backends->end();
  if (engine == "vllm" || engine == "sglang") entry = backends->find(key + "/server");
  if (entry == backends->end()) entry = backends->find(key);
  if (entry == backends->end()) entry = backends->find(backend);
  if (entry == backends->end()) return a;
  a.bandwidth_efficiency = entry->value("bandwidth_efficiency", a.bandwidth_efficiency);
  a.compute_efficiency = entry->value("compute_efficiency", a.compute_efficiency);
  a.quantized_compute_efficiency =
      entry->value("quantized_compute_efficiency", a.quantized_compute_efficiency);
  a.per_layer_overhead_s = entry->value("per_layer_overhead_s", a.per_layer_overhead_s);
  a.band_fraction = entry->value("band_fraction", a.band_fraction);
  return a;
}

SpeedEstimate estimate_speed(const ModelSpec& model, const WeightPlan& weights,
                             const Hardware& hardware, const SpeedRequest& request) {
  SpeedEstimate out;
  const SpeedAssumptions& a = request.assumptions;
  double devices = static_cast<double>(std::max<int64_t>(1, request.devices));
  double batch = static_cast<double>(std::max<int64_t>(1, request.batch));

  // Weights read per decode step: everything but unselected experts and the embedding table
  // (one row per token). With a batch, more distinct experts are touched, up to all of them.
  double embd_row = model.vocab_size > 0 ? static_cast<double>(weights.token_embd_bytes) /
                                               static_cast<double>(model.vocab_size)
                                         : 0.0;
  double expert_share = weights.expert_bytes > 0
                            ? std::min(1.0, static_cast<double>(weights.active_expert_bytes) /
                                                static_cast<double>(weights.expert_bytes) * batch)
                            : 0.0;
  double weight_bytes = static_cast<double>(weights.text_bytes - weights.token_embd_bytes -
                                            weights.expert_bytes) +
                        expert_share * static_cast<double>(weights.expert_bytes) + embd_row * batch;
  double kv_bytes = kv_read_bytes(model, request.kv_type, request.context_tokens) * batch;
  out.bytes_per_token = (weight_bytes + kv_bytes) / batch;

  double active_matmul_params = static_cast<double>(model.params.active - model.params.embedding);
  out.flops_per_token = 2.0 * active_matmul_params +
                        attention_flops_per_token(model, request.context_tokens);

  // Tensor parallel adds the devices' bandwidth and compute; a layer split runs them in turn, so
  // one token still streams every weight at one device's speed.
  double parallel = request.tensor_parallel ? devices : 1.0;
  double bandwidth = hardware.memory_bandwidth_bytes_per_s * a.bandwidth_efficiency * parallel;
  double compute = hardware.fp16_flops_per_s * a.compute_efficiency * parallel;
  bool quantized = weights.bits_per_weight() < 12.0;
  double matmul_peak = quantized ? (hardware.int8_ops_per_s > 0 ? hardware.int8_ops_per_s
                                                                : 2.0 * hardware.fp16_flops_per_s)
                                 : hardware.fp16_flops_per_s;
  double matmul_efficiency = quantized ? a.quantized_compute_efficiency : a.compute_efficiency;
  // A layer split pipelines the ubatch chunks of each n_batch through the devices (llama.cpp
  // enables pipeline parallelism when n_batch > n_ubatch): c chunks on d stages take c + d - 1
  // stage times instead of c x d.
  double ubatch = static_cast<double>(std::max<int64_t>(1, request.ubatch_tokens));
  double chunks = std::min(std::ceil(static_cast<double>(std::max<int64_t>(1, request.prompt_tokens)) / ubatch),
                           std::max(1.0, std::floor(static_cast<double>(request.batch_tokens) / ubatch)));
  double prefill_parallel =
      request.tensor_parallel ? devices : chunks * devices / (chunks + devices - 1.0);
  double prefill_compute = matmul_peak * matmul_efficiency * prefill_parallel;
  // Offloaded parts stream from system RAM after the device's share (llama.cpp runs them on the
  // CPU, layer by layer).
  double offloaded = static_cast<double>(request.offloaded_read_bytes_per_token) * batch;
  double host_time = 0;
  if (offloaded > 0) {
    double cpu_efficiency = default_speed_assumptions("cpu", "llama.cpp").bandwidth_efficiency;
    host_time = offloaded / (request.system_memory_bandwidth_bytes_per_s * cpu_efficiency);
  }
  double memory_time = std::max(0.0, weight_bytes + kv_bytes - offloaded) / bandwidth + host_time;
  double compute_time = compute > 0 ? out.flops_per_token * batch / compute : 0.0;
  // Tensor parallel: two all-reduces of the hidden state per layer (Megatron-LM, Shoeybi 2019),
  // 10 us each over NVLink-class links (their bytes at the link's rate when it is known). Cards
  // whose only link is PCIe: a NCCL all-reduce of 8 bytes takes 42.6 us on 8 RTX 4090s and
  // 54.2 us on 8 RTX 3090s (all_reduce_perf output in NVIDIA/nccl issues #1530 and #1439), so
  // 48 us, the mean of the two, at PCIe 4.0 x16's 31.5 GB/s per direction.
  double comm_time = 0;
  if (request.tensor_parallel && devices > 1 && hardware.kind == "discrete") {
    bool pcie = hardware.interconnect_bytes_per_s <= 0 &&
                (hardware.interconnect_kind.empty() || hardware.interconnect_kind.rfind("PCIe", 0) == 0);
    double link = pcie ? 31.5e9 : hardware.interconnect_bytes_per_s;
    double bytes = 2.0 * static_cast<double>(model.n_layers) * static_cast<double>(model.hidden_size) *
                   2.0 * batch * 2.0 * (devices - 1) / devices;
    comm_time = (link > 0 ? bytes / link : 0.0) +
                2.0 * static_cast<double>(model.n_layers) * (pcie ? 48e-6 : 10e-6);
  }
  double step = std::max(memory_time, compute_time) + comm_time +
                a.per_layer_overhead_s * static_cast<double>(model.n_layers);
  out.bound = compute_time > memory_time ? "compute" : "memory";
  if (request.mtp_draft_tokens > 0 && model.mtp_layers > 0) {
    // Speculative decoding with the model's MTP layers (llama.cpp PR #22673): each step drafts k
    // tokens, each draft reading the MTP layers and the output head, then verifies k + 1 in one
    // pass of the model (memory-bound: about one decode step). Accepted tokens per step with
    // acceptance a: (1 - a^(k+1)) / (1 - a).
    double k = static_cast<double>(request.mtp_draft_tokens);
    double acceptance = std::min(0.99, std::max(0.0, a.mtp_acceptance));
    double accepted = (1.0 - std::pow(acceptance, k + 1.0)) / (1.0 - acceptance);
    double draft_bytes = static_cast<double>(weights.mtp_bytes) +
                         static_cast<double>(std::max(weights.output_layer_bytes, weights.token_embd_bytes));
    double draft_time = draft_bytes / bandwidth + a.per_layer_overhead_s * static_cast<double>(model.mtp_layers);
    out.mtp_speedup = accepted * step / (step + k * draft_time);
    step /= out.mtp_speedup;
  }
  out.decode_tokens_per_s = 1.0 / step;
  out.decode_aggregate_tokens_per_s = batch / step;
  out.decode_low = out.decode_tokens_per_s * (1.0 - a.band_fraction);
  out.decode_high = out.decode_tokens_per_s * (1.0 + a.band_fraction);

  // Prefill: compute for the prompt (attention over the growing prefix: average span p/2),
  // plus one pass over the weights.
  double prompt = static_cast<double>(std::max<int64_t>(1, request.prompt_tokens));
  double prefill_flops =
      prompt * (2.0 * active_matmul_params +
                attention_flops_per_token(model, request.context_tokens + request.prompt_tokens / 2));
  if (prefill_compute <= 0) return out;  // no compute figure for this device: prefill unknown (0)
  // Without flash attention each layer writes the f32 KQ scores, softmaxes them in place and
  // reads them for V: about 3 x 4 bytes per head, query and key.
  double kq_traffic = 0;
  if (!request.flash_attention) {
    kq_traffic = 12.0 * prompt *
                 attention_scores_per_token(model, request.context_tokens + request.prompt_tokens / 2);
  }
  double prefill_time = prefill_flops / prefill_compute +
                        (static_cast<double>(weights.text_bytes) + kq_traffic) / (bandwidth * prefill_parallel);
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
