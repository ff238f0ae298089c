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
  std::vector<DeviceMemory> devices;
  DeviceMemory host;
  bool fits = true;      // every device and the host within its usable memory
  double worst_ratio = 0;  // largest total / usable over devices and host
};

// Places layers, experts and KV on the devices and the host as llama.cpp does, and checks each
// against its usable memory.
void place_llama_cpp(const ModelSpec& model, const WeightPlan& w, const Hardware& hardware,
                     const MemoryRequest& request, int64_t compute_per_device, Totals& t) {
  const EngineSettings& engine = request.engine;
  int64_t n = model.n_layers;
  int64_t devices = std::max<int64_t>(1, request.devices);
  int64_t gpu_layers = request.gpu_layers < 0 ? n + 1 : std::min(request.gpu_layers, n + 1);
  int64_t first_gpu_layer = n - std::min(gpu_layers, n);
  bool output_on_gpu = gpu_layers > n;
  // Layers per device in proportion to --tensor-split (llama.cpp splits by layer count).
  std::vector<double> split(static_cast<std::size_t>(devices), 1.0);
  if (static_cast<int64_t>(request.tensor_split.size()) == devices) split = request.tensor_split;
  double split_sum = 0;
  for (double v : split) split_sum += v;
  t.devices.assign(static_cast<std::size_t>(devices), DeviceMemory{});
  t.host = DeviceMemory{};
  t.host.weights_bytes = w.token_embd_bytes;
  int64_t on_gpu = n - first_gpu_layer;
  for (int64_t i = 0; i < n; ++i) {
    auto index = static_cast<std::size_t>(i);
    int64_t kv = t.kv.per_layer_bytes.empty() ? 0 : t.kv.per_layer_bytes[index];
    bool cpu_experts = i < request.cpu_moe_layers;
    if (i < first_gpu_layer) {
      t.host.weights_bytes += w.layer_dense_bytes[index] + w.layer_expert_bytes[index];
      t.host.kv_cache_bytes += kv;
      ++t.host.layers;
      continue;
    }
    double position = static_cast<double>(i - first_gpu_layer) / static_cast<double>(std::max<int64_t>(1, on_gpu));
    std::size_t d = 0;
    double acc = split[0] / split_sum;
    while (position >= acc && d + 1 < split.size()) acc += split[++d] / split_sum;
    DeviceMemory& device = t.devices[d];
    device.weights_bytes += w.layer_dense_bytes[index] + (cpu_experts ? 0 : w.layer_expert_bytes[index]);
    if (cpu_experts) t.host.weights_bytes += w.layer_expert_bytes[index];
    device.kv_cache_bytes += kv;
    ++device.layers;
  }
  if (output_on_gpu) {
    t.devices.back().weights_bytes += w.output_layer_bytes;
  } else {
    t.host.weights_bytes += w.output_layer_bytes;
  }
  int64_t usable = usable_memory_bytes(hardware, engine);
  bool shared_memory = hardware.kind != "discrete";  // unified / CPU: one pool for all of it
  for (DeviceMemory& device : t.devices) {
    device.compute_bytes = device.layers > 0 || &device == &t.devices.back() ? compute_per_device : 0;
    device.total_bytes = device.weights_bytes + device.kv_cache_bytes + device.compute_bytes;
    device.usable_bytes = usable;
  }
  t.host.total_bytes = t.host.weights_bytes + t.host.kv_cache_bytes;
  if (shared_memory) {
    // One pool: the "host" share lands in the same memory as the device's.
    t.devices.front().total_bytes += t.host.total_bytes;
    t.host.usable_bytes = 0;
  } else {
    t.host.usable_bytes = std::max<int64_t>(0, request.system_memory_bytes - kOsShareBytes);
  }
  t.fits = true;
  t.worst_ratio = 0;
  for (const DeviceMemory& device : t.devices) {
    t.worst_ratio = std::max(t.worst_ratio, static_cast<double>(device.total_bytes) /
                                                static_cast<double>(std::max<int64_t>(1, device.usable_bytes)));
  }
  if (!shared_memory && t.host.total_bytes > 0) {
    t.worst_ratio = std::max(t.worst_ratio, static_cast<double>(t.host.total_bytes) /
                                                static_cast<double>(std::max<int64_t>(1, t.host.usable_bytes)));
  }
  t.fits = t.worst_ratio <= 1.0;
}

// Context tokens per step of the engine's cache: llama.cpp pads the cells of all sequences to
// 256 (256 / sequences tokens of context when that divides; sliding-window streams pad to 256
// per sequence, a multiple of it), vLLM and SGLang allocate 16-token blocks; otherwise every token.
int64_t context_step(const std::string& engine, int64_t sequences) {
  if (is_llama_cpp_family(engine)) {
    return sequences > 0 && kLlamaCppKvPadding % sequences == 0 ? kLlamaCppKvPadding / sequences : 1;
  }
  return is_paged_server(engine) ? kVllmBlockTokens : 1;
}

Totals totals_at(const ModelSpec& model, const WeightPlan& plan, const Hardware& hardware,
                 int64_t weights, const MemoryRequest& request, int64_t context_tokens) {
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
    int64_t per_device = llama_cpp_compute_buffer(model, t.kv.cells, engine.ubatch_tokens,
                                                  engine.flash_attention) +
                         request.sequences * model.vocab_size * 4 / request.devices;
    t.compute = per_device * request.devices;
    t.total = weights + t.kv.total_bytes + t.compute;
    place_llama_cpp(model, plan, hardware, request, per_device, t);
    return t;
  } else if (is_paged_server(engine.engine)) {
    t.compute = server_activation_peak(model, engine.max_num_batched_tokens, request.devices) *
                request.devices;
    t.runtime = (kServerNonTorchBytes + kCudaGraphBytes) * request.devices;
  } else {
    t.compute = llama_cpp_compute_buffer(model, t.kv.cells, engine.ubatch_tokens, true) *
                request.devices;
  }
  t.total = weights + t.kv.total_bytes + t.compute + t.runtime;
  // Engines that shard evenly (tensor parallel): one equal share per device.
  int64_t devices = std::max<int64_t>(1, request.devices);
  int64_t usable = usable_memory_bytes(hardware, engine);
  DeviceMemory share;
  share.weights_bytes = weights / devices;
  share.kv_cache_bytes = t.kv.total_bytes / devices;
  share.compute_bytes = (t.compute + t.runtime) / devices;
  share.total_bytes = t.total / devices;
  share.usable_bytes = usable;
  share.layers = model.n_layers;
  t.devices.assign(static_cast<std::size_t>(devices), share);
  t.host = DeviceMemory{};
  t.worst_ratio = static_cast<double>(share.total_bytes) / static_cast<double>(std::max<int64_t>(1, usable));
  t.fits = t.worst_ratio <= 1.0;
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
  if (hardware.kind != "discrete" && engine.unified_memory_fraction > 0) {
    return static_cast<int64_t>(engine.unified_memory_fraction * static_cast<double>(hardware.memory_bytes));
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
  auto at = [&](int64_t context) {
    return totals_at(model, weights, hardware, out.weights_bytes, request, context);
  };
  Totals t = at(request.context_tokens);
  out.kv = t.kv;
  out.kv_cache_bytes = t.kv.total_bytes;
  out.compute_buffer_bytes = t.compute;
  out.overhead_bytes = t.compute + t.runtime;
  out.total_bytes = t.total;
  out.per_device = t.devices;
  out.host = t.host;
  // total / usable describe the device memory; what sits in system RAM is reported as host.
  out.total_bytes = 0;
  for (const DeviceMemory& device : t.devices) out.total_bytes += device.total_bytes;
  out.usable_bytes = usable_memory_bytes(hardware, engine) * request.devices;
  out.headroom_bytes = out.usable_bytes - out.total_bytes;
  // The verdict is the tightest place: any device, or the system RAM holding offloaded parts.
  out.utilization = t.worst_ratio;
  out.verdict = t.worst_ratio <= engine.comfortable_fraction ? "comfortable"
                : t.worst_ratio <= 1.0                       ? "tight"
                                                             : "oom";
  // Bytes a decode step reads from system RAM: offloaded dense layers and KV, the routed experts
  // a token selects among offloaded ones (token_embd is a one-row lookup).
  if (t.host.total_bytes > 0 && hardware.kind == "discrete") {
    double active_share = weights.expert_bytes > 0 ? static_cast<double>(weights.active_expert_bytes) /
                                                         static_cast<double>(weights.expert_bytes)
                                                   : 0.0;
    int64_t gpu_layers = request.gpu_layers < 0 ? model.n_layers + 1 : request.gpu_layers;
    int64_t first_gpu_layer = model.n_layers - std::min(gpu_layers, model.n_layers);
    double read = static_cast<double>(t.host.kv_cache_bytes);
    for (int64_t i = 0; i < model.n_layers; ++i) {
      auto index = static_cast<std::size_t>(i);
      bool host_layer = i < first_gpu_layer;
      if (host_layer) read += static_cast<double>(weights.layer_dense_bytes[index]);
      if (host_layer || i < request.cpu_moe_layers) {
        read += active_share * static_cast<double>(weights.layer_expert_bytes[index]);
      }
    }
    if (gpu_layers <= model.n_layers) read += static_cast<double>(weights.output_layer_bytes);
    out.offloaded_read_bytes_per_token = static_cast<int64_t>(read);
  }

  // Largest per-sequence context that fits: totals grow monotonically with context.
  int64_t low = 0;
  int64_t high = model.max_context_tokens;
  if (!request.find_max_context) {
    low = -1;
  } else {
    // The totals only change where the cache grows a step (context_step), and the worst device
    // ratio is piecewise linear across steps, so interpolating where it crosses 1.0 brackets the
    // answer in a few probes; bisection takes over when interpolation stalls. Counted in steps,
    // with high_step the step holding `high`. Invariant: at(low_step) fits (or low_step = 0),
    // at(high_step) does not.
    Totals top = at(high);
    if (top.fits) {
      low = high;
    } else {
      int64_t step = context_step(engine.engine, request.sequences);
      int64_t low_step = 0;
      int64_t high_step = (high + step - 1) / step;
      double low_ratio = at(0).worst_ratio;
      double high_ratio = top.worst_ratio;
      int64_t probes = 0;
      while (high_step - low_step > 1) {
        int64_t guess = low_step + (high_step - low_step) / 2;
        if (probes++ % 2 == 0 && high_ratio > low_ratio) {
          double fraction = (1.0 - low_ratio) / (high_ratio - low_ratio);
          guess = low_step + static_cast<int64_t>(fraction * static_cast<double>(high_step - low_step));
          guess = std::min(std::max(guess, low_step + 1), high_step - 1);
        }
        Totals probe = at(guess * step);
        if (probe.fits) {
          low_step = guess;
          low_ratio = probe.worst_ratio;
        } else {
          high_step = guess;
          high_ratio = probe.worst_ratio;
        }
      }
      low = low_step * step;
    }
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
      {"utilization", m.utilization},
      {"max_context_tokens", m.max_context_tokens},
      {"kv_cache", {{"full_attention_bytes", m.kv.full_attention_bytes},
                    {"windowed_bytes", m.kv.windowed_bytes},
                    {"latent_bytes", m.kv.latent_bytes},
                    {"state_bytes", m.kv.state_bytes},
                    {"bytes_per_token", m.kv.bytes_per_token},
                    {"cells", m.kv.cells}}},
      {"math", math}};
  auto device_json = [](const DeviceMemory& d) {
    return nlohmann::json{{"weights_bytes", d.weights_bytes}, {"kv_cache_bytes", d.kv_cache_bytes},
                          {"compute_bytes", d.compute_bytes}, {"total_bytes", d.total_bytes},
                          {"usable_bytes", d.usable_bytes}, {"layers", d.layers}};
  };
  out["per_device"] = nlohmann::json::array();
  for (const DeviceMemory& d : m.per_device) out["per_device"].push_back(device_json(d));
  out["host"] = device_json(m.host);
  out["offloaded_read_bytes_per_token"] = m.offloaded_read_bytes_per_token;
  if (m.kv_capacity_tokens >= 0) {
    out["kv_pool_bytes"] = m.kv_pool_bytes;
    out["kv_capacity_tokens"] = m.kv_capacity_tokens;
    out["max_concurrent_sequences"] = m.max_concurrent_sequences;
  }
  return out;
}

}  // namespace llmcalc
