// Memory per engine.
// llama.cpp / Ollama: weights + KV cells + the compute buffer of one ubatch, approximated from its
// graph's largest live tensors (logits ubatch x vocab f32; without flash attention the KQ scores
// ubatch x n_ctx x n_head f32) and checked against "compute buffer size" log lines in
// tests/data/engine_logs.json.
// vLLM / SGLang: the KV pool is what the utilization budget leaves after weights, the profiled
// activation peak and non-torch memory (vllm/v1/worker/gpu_worker.py determine_available_memory;
// "Memory profiling results" lines in tests/data/engine_logs.json); CUDA graphs are captured
// after the pool is sized and sit outside the budget.
#include "llmcalc/memory.h"

#include <algorithm>
#include <cmath>

namespace llmcalc {
namespace {

bool is_llama_cpp_family(const std::string& engine) {
  return engine == "llama.cpp" || engine == "ollama";
}
bool is_paged_server(const std::string& engine) { return engine == "vllm" || engine == "sglang"; }

int64_t max_heads(const ModelSpec& model) {
  int64_t heads = 0;
  for (const LayerSpec& layer : model.layers) heads = std::max(heads, layer.attention.n_q_heads);
  return heads;
}

int64_t max_ffn_width(const ModelSpec& model) {
  int64_t width = 0;
  for (const LayerSpec& layer : model.layers) {
    width = std::max(width, layer.mlp.intermediate);
    width = std::max(width, layer.mlp.shared_intermediate);
    width = std::max(width, layer.mlp.expert_intermediate * layer.mlp.n_experts_active);
  }
  return width;
}

// Largest live set of one ubatch in llama.cpp's graph (f32 activations).
int64_t llama_cpp_compute_buffer(const ModelSpec& model, int64_t kv_cells, int64_t ubatch,
                                 bool flash_attention) {
  int64_t hidden_row = ubatch * model.hidden_size * 4;
  int64_t logits = ubatch * model.vocab_size * 4;
  int64_t logits_path = logits + 6 * hidden_row;
  if (flash_attention) return logits_path;
  int64_t kq_scores = ubatch * kv_cells * max_heads(model) * 4;
  return std::max(logits_path, kq_scores + 5 * hidden_row);
}

// Profiled activation peak per device: bf16 gate/up, activation and residual tensors of one
// forward pass over max_num_batched_tokens, (6 x ffn + 6 x hidden) bytes per token. Fitted to the
// Llama-3.1-8B max_model_len=20000 log (2.07 GiB); the 29000 log checks it.
int64_t server_activation_peak(const ModelSpec& model, int64_t batched_tokens, int64_t devices) {
  return batched_tokens * (6 * max_ffn_width(model) / devices + 6 * model.hidden_size);
}

constexpr int64_t kServerNonTorchBytes = 358 * kMiB;  // "non_torch_memory=0.35GiB" (CUDA context)
constexpr int64_t kCudaGraphBytes = 512 * kMiB;       // typical "Graph capturing ... took 0.5 GiB"
constexpr int64_t kOsShareBytes = 4 * kGiB;           // left to the OS on unified / CPU systems
constexpr int64_t kVllmBlockTokens = 16;              // vLLM default block_size

struct Totals {
  KvBreakdown kv;
  int64_t compute = 0;   // compute buffers / activation peak, all devices
  int64_t runtime = 0;   // non-torch memory and CUDA graphs, all devices
  int64_t total = 0;
};

Totals totals_at(const ModelSpec& model, int64_t weights, const MemoryRequest& request,
                 int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  Totals t;
  KvRequest kv_request;
  kv_request.context_tokens = context_tokens;
  kv_request.sequences = request.sequences;
  kv_request.ubatch_tokens = engine.ubatch_tokens;
  kv_request.llama_cpp_layout = is_llama_cpp_family(engine.engine);
  if (is_paged_server(engine.engine)) {
    kv_request.context_tokens =
        (context_tokens + kVllmBlockTokens - 1) / kVllmBlockTokens * kVllmBlockTokens;
  }
  t.kv = kv_cache_bytes(model, request.kv_type, kv_request);
  if (is_llama_cpp_family(engine.engine)) {
    t.compute = llama_cpp_compute_buffer(model, t.kv.cells, engine.ubatch_tokens,
                                         engine.flash_attention) *
                    request.devices +
                request.sequences * model.vocab_size * 4;
  } else if (is_paged_server(engine.engine)) {
    t.compute = server_activation_peak(model, engine.max_num_batched_tokens, request.devices) *
                request.devices;
    t.runtime = (kServerNonTorchBytes + kCudaGraphBytes) * request.devices;
  } else {
    t.compute = llama_cpp_compute_buffer(model, t.kv.cells, engine.ubatch_tokens, true) *
                request.devices;
  }
  t.total = weights + t.kv.total_bytes + t.compute + t.runtime;
  return t;
}

}  // namespace

int64_t usable_memory_bytes(const Hardware& hardware, const EngineSettings& engine) {
  if (is_paged_server(engine.engine)) {
    // The budget the engine sizes itself to, plus the CUDA graphs it captures outside it.
    double fraction = engine.engine == "vllm" ? engine.gpu_memory_utilization
                                              : engine.mem_fraction_static;
    return static_cast<int64_t>(std::floor(fraction * static_cast<double>(hardware.memory_bytes))) +
           kCudaGraphBytes;
  }
  if (hardware.backend == "metal") {
    // macOS caps GPU-wired memory (recommendedMaxWorkingSetSize): about 2/3 of RAM up to 36 GB,
    // 3/4 above; raised with `sysctl iogpu.wired_limit_mb`.
    double fraction = hardware.memory_bytes > 36 * kGiB ? 0.75 : 2.0 / 3.0;
    return static_cast<int64_t>(fraction * static_cast<double>(hardware.memory_bytes));
  }
  if (hardware.kind == "discrete") return hardware.memory_bytes - engine.reserved_bytes;
  return std::max<int64_t>(0, hardware.memory_bytes - kOsShareBytes);
}

MemoryEstimate estimate_memory(const ModelSpec& model, const WeightPlan& weights,
                               const Hardware& hardware, const MemoryRequest& request) {
  MemoryEstimate out;
  const EngineSettings& engine = request.engine;
  out.weights_bytes = weights.total_bytes;
  Totals t = totals_at(model, out.weights_bytes, request, request.context_tokens);
  out.kv = t.kv;
  out.kv_cache_bytes = t.kv.total_bytes;
  out.compute_buffer_bytes = t.compute;
  out.overhead_bytes = t.compute + t.runtime;
  out.total_bytes = t.total;
  out.usable_bytes = usable_memory_bytes(hardware, engine) * request.devices;
  out.headroom_bytes = out.usable_bytes - out.total_bytes;
  double used = static_cast<double>(out.total_bytes);
  double usable = static_cast<double>(out.usable_bytes);
  out.verdict = used <= engine.comfortable_fraction * usable ? "comfortable"
                : used <= usable                            ? "tight"
                                                            : "oom";

  // Largest per-sequence context that fits: totals grow monotonically with context.
  int64_t low = 0;
  int64_t high = model.max_context_tokens;
  if (!request.find_max_context) {
    low = -1;
  } else if (totals_at(model, out.weights_bytes, request, high).total <= out.usable_bytes) {
    low = high;
  } else {
    while (high - low > 1) {
      int64_t mid = low + (high - low) / 2;
      if (totals_at(model, out.weights_bytes, request, mid).total <= out.usable_bytes) {
        low = mid;
      } else {
        high = mid;
      }
    }
    if (low > 0 && totals_at(model, out.weights_bytes, request, low).total > out.usable_bytes) low = 0;
  }
  out.max_context_tokens = low;

  if (is_paged_server(engine.engine) && t.kv.bytes_per_token > 0) {
    // The pool: whatever the budget leaves; vLLM's "GPU KV cache size: N tokens".
    int64_t pool = out.usable_bytes - out.weights_bytes - out.overhead_bytes - t.kv.state_bytes -
                   t.kv.windowed_bytes;
    out.kv_pool_bytes = std::max<int64_t>(0, pool);
    out.kv_capacity_tokens = out.kv_pool_bytes / t.kv.bytes_per_token;
    out.max_concurrent_sequences = static_cast<double>(out.kv_capacity_tokens) /
                                   static_cast<double>(std::max<int64_t>(1, request.context_tokens));
  }

  out.math = {
      {"weights", "sum over tensors of elements / block_elements x block_bytes (" + weights.format + ")",
       out.weights_bytes},
      {"kv_cache", "per layer: cells x n_kv_heads x (head_dim_k + head_dim_v) x bytes(" +
                       request.kv_type.name + "); sliding layers capped at the window; MLA caches "
                       "kv_lora_rank + rope dims; recurrent layers a fixed state",
       out.kv_cache_bytes},
      {"compute_buffer", is_llama_cpp_family(engine.engine)
                             ? "ubatch x vocab x 4 + 6 x ubatch x hidden x 4"
                               " (+ KQ scores ubatch x n_ctx x heads x 4 without flash attention)"
                             : "max_num_batched_tokens x (6 x ffn + 6 x hidden) bytes",
       out.compute_buffer_bytes},
      {"usable", is_paged_server(engine.engine) ? "gpu_memory_utilization x memory + CUDA graphs"
                 : hardware.kind == "discrete"  ? "memory - reserve per device"
                                                : "unified memory x GPU wired-limit fraction",
       out.usable_bytes}};
  return out;
}

nlohmann::json memory_json(const MemoryEstimate& m) {
  nlohmann::json math = nlohmann::json::array();
  for (const MathLine& line : m.math) {
    math.push_back({{"name", line.name}, {"formula", line.formula}, {"bytes", line.bytes}});
  }
  nlohmann::json out = {
      {"weights_bytes", m.weights_bytes},
      {"kv_cache_bytes", m.kv_cache_bytes},
      {"overhead_bytes", m.overhead_bytes},
      {"compute_buffer_bytes", m.compute_buffer_bytes},
      {"total_bytes", m.total_bytes},
      {"usable_bytes", m.usable_bytes},
      {"headroom_bytes", m.headroom_bytes},
      {"verdict", m.verdict},
      {"max_context_tokens", m.max_context_tokens},
      {"kv_cache", {{"full_attention_bytes", m.kv.full_attention_bytes},
                    {"windowed_bytes", m.kv.windowed_bytes},
                    {"latent_bytes", m.kv.latent_bytes},
                    {"state_bytes", m.kv.state_bytes},
                    {"bytes_per_token", m.kv.bytes_per_token},
                    {"cells", m.kv.cells}}},
      {"math", math}};
  if (m.kv_capacity_tokens >= 0) {
    out["kv_pool_bytes"] = m.kv_pool_bytes;
    out["kv_capacity_tokens"] = m.kv_capacity_tokens;
    out["max_concurrent_sequences"] = m.max_concurrent_sequences;
  }
  return out;
}

}  // namespace llmcalc
