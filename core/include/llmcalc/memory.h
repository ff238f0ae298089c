// Memory per inference engine: weights, KV cache, runtime buffers, the fit verdict and the
// largest context that fits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/hardware.h"
#include "llmcalc/kv_cache.h"
#include "llmcalc/model.h"
#include "llmcalc/weights.h"

namespace llmcalc {

/// Engine settings; every default is an explicit, user-visible assumption.
struct EngineSettings {
  std::string engine = "llama.cpp";  // llama.cpp | ollama | vllm | sglang | mlx | transformers
  int64_t ubatch_tokens = 512;       // llama.cpp -ub default
  bool flash_attention = true;
  double gpu_memory_utilization = 0.9;   // vLLM default
  double mem_fraction_static = 0.88;     // SGLang default on large GPUs
  int64_t max_num_batched_tokens = 8192; // vLLM V1 `vllm serve` default
  int64_t reserved_bytes = 512 * kMiB;   // driver / CUDA context per discrete device (llama.cpp)
  double comfortable_fraction = 0.9;     // verdict "comfortable" at or below this share of usable
  // Unified-memory and CPU machines: the share of RAM the engine may use (0: macOS's wired limit
  // on Apple silicon, RAM minus an OS share elsewhere). `sysctl iogpu.wired_limit_mb` raises it.
  double unified_memory_fraction = 0;
};

struct MemoryRequest {
  int64_t context_tokens = 8192;
  int64_t sequences = 1;
  int64_t devices = 1;
  KvType kv_type{"f16", 1, 2};
  EngineSettings engine;
  bool find_max_context = true;  // search the largest context that fits (max_context_tokens)
  // llama.cpp placement: -ngl (layers on the GPUs, counting the output layer as n_layers + 1;
  // -1 = all), --n-cpu-moe (expert tensors of the first N layers stay in system RAM) and
  // --tensor-split (relative share of layers per device; empty = equal).
  int64_t gpu_layers = -1;
  int64_t cpu_moe_layers = 0;
  std::vector<double> tensor_split;
  int64_t system_memory_bytes = int64_t{64} << 30;  // RAM for what is offloaded (assumption)
};

/// What one device (or the host's system RAM) holds.
struct DeviceMemory {
  int64_t weights_bytes = 0;
  int64_t kv_cache_bytes = 0;
  int64_t compute_bytes = 0;
  int64_t total_bytes = 0;          // device memory needed, all devices (host RAM is in `host`)
  int64_t usable_bytes = 0;
  int64_t layers = 0;
};

struct MathLine {
  std::string name;
  std::string formula;
  int64_t bytes;
};

struct MemoryEstimate {
  int64_t weights_bytes = 0;
  int64_t kv_cache_bytes = 0;
  int64_t overhead_bytes = 0;      // compute/activation buffers + runtime (CUDA context, graphs)
  int64_t compute_buffer_bytes = 0;
  int64_t total_bytes = 0;          // device memory needed, all devices (host RAM is in `host`)
  int64_t usable_bytes = 0;
  int64_t headroom_bytes = 0;
  std::string verdict;             // comfortable | tight | oom
  double utilization = 0;          // total / usable at the tightest device or the system RAM
  int64_t max_context_tokens = 0;  // per sequence, largest that fits (0 if none; -1 not searched)
  int64_t kv_pool_bytes = 0;       // vLLM / SGLang: memory the KV pool gets
  int64_t kv_capacity_tokens = -1; // vLLM / SGLang: tokens the KV pool holds (-1: n/a)
  double max_concurrent_sequences = -1;
  KvBreakdown kv;
  std::vector<DeviceMemory> per_device;
  DeviceMemory host;                       // system RAM: offloaded layers, experts, token_embd
  int64_t offloaded_read_bytes_per_token = 0;  // weights + KV a decode step reads from RAM
  std::vector<MathLine> math;
};

/// Memory the device offers to the engine: discrete GPUs minus the reserve, Apple unified memory
/// to the default GPU wired limit, other unified / CPU systems minus an OS share.
int64_t usable_memory_bytes(const Hardware& hardware, const EngineSettings& engine);

MemoryEstimate estimate_memory(const ModelSpec& model, const WeightPlan& weights,
                               const Hardware& hardware, const MemoryRequest& request);

nlohmann::json memory_json(const MemoryEstimate& estimate);

}  // namespace llmcalc
