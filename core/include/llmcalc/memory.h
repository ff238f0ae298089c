// Memory per inference engine: weights, KV cache, runtime buffers, where each part is placed
// (llama.cpp's --fit), the fit verdict and the largest context that fits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/language.h"
#include "llmcalc/hardware.h"
#include "llmcalc/kv_cache.h"
#include "llmcalc/model.h"
#include "llmcalc/weights.h"

namespace llmcalc {

/// The newest llama.cpp build whose behaviour the estimate follows (data/engines.json: b11541,
/// 2026-10-10, the newest build the public material we read names); a request may name an older
/// one (`llama_cpp_build`) where a rule changed between them.
constexpr int64_t kLlamaCppNewestBuild = 11541;
/// The llama.cpp build Ollama's llama-server is (v0.34.2, ollama/ollama PR #18446); an Ollama
/// request follows it whatever `llama_cpp_build` says.
constexpr int64_t kOllamaLlamaCppBuild = 10969;

/// Engine settings; every default is the engine's own (the release in data/engines.json), and
/// every one is a request key the user can change.
struct EngineSettings {
  std::string engine = "llama.cpp";  // llama.cpp | ollama | vllm | sglang | mlx | transformers
  int64_t ubatch_tokens = 512;       // llama.cpp -ub default (Ollama: by context, see scenario)
  bool ubatch_auto = false;          // Ollama without num_batch: its automatic batch (ollama_batch.cpp)
  bool flash_attention = true;
  double gpu_memory_utilization = 0.92;  // vLLM default since v0.21 (PR #38284)
  double mem_fraction_static = 0;        // SGLang; 0: computed from GPU memory as SGLang does
  int64_t max_num_batched_tokens = 0;    // vLLM; 0: its default by GPU class
  int64_t max_num_seqs = 0;              // vLLM; 0: its default by GPU class
  int64_t kv_cache_memory_bytes = 0;     // vLLM --kv-cache-memory-bytes (0: profiled budget)
  bool prefix_caching = true;            // vLLM: on by default, hybrid models too since v0.28.0 (PR #50991)
  int64_t reserved_bytes = 512 * kMiB;   // driver / CUDA context per discrete device
  double comfortable_fraction = 0.9;     // verdict "comfortable" at or below this share of usable
  // Unified-memory and CPU machines: the share of RAM the engine may use (0: macOS's wired limit
  // on Apple silicon, RAM minus an OS share elsewhere). `sysctl iogpu.wired_limit_mb` raises it.
  double unified_memory_fraction = 0;
  // llama.cpp / Ollama (llama-server).
  int64_t llama_cpp_build = kLlamaCppNewestBuild;  // the build whose behaviour to follow
  bool fit = true;                         // --fit on (the default since PR #16653)
  int64_t fit_target_bytes = 1024 * kMiB;  // --fit-target: free memory --fit leaves per device
  int64_t fit_min_context_tokens = 4096;   // --fit-ctx: the context --fit may shrink to
  bool kv_unified = false;                 // one KV stream for all slots (-kvu; auto slots)
  int64_t cache_ram_bytes = 8192 * kMiB;   // --cache-ram: host prompt cache limit
  int64_t context_checkpoints = 32;        // --ctx-checkpoints per slot
  bool mtp = false;  // MTP drafting (models with MTP layers): llama.cpp --spec-type draft-mtp, vLLM method "mtp", SGLang EAGLE
  // A vision model's tower loaded: llama.cpp's projector (-hf's default; --no-mmproj), vLLM's tower
  // and its profiling run (--language-model-only).
  bool mmproj = true;
  int64_t mtp_draft_tokens = 2;            // --spec-draft-n-max with MTP
  // Recurrent layers' SSM state in bf16: SGLang --mamba-ssm-dtype bfloat16 (its default float32),
  // vLLM --mamba-ssm-cache-dtype bfloat16 (its default the config's).
  bool ssm_state_bf16 = false;
  int64_t max_mamba_cache_size = 0;  // SGLang --max-mamba-cache-size: recurrent-state slots (0: its rule)
};

/// How vLLM and SGLang spread a model over the devices: `tensor` ranks share each layer,
/// `pipeline` stages hold consecutive layers, `data` replicas each serve their own sequences with
/// whole attention (vLLM --data-parallel-size, SGLang --enable-dp-attention --dp); routed experts
/// are spread over tensor x data ranks with `expert` (vLLM --enable-expert-parallel; SGLang
/// always shards its MoE over the whole --tp group), else over the tensor ranks.
struct ParallelPlan {
  int64_t tensor = 1;
  int64_t pipeline = 1;
  int64_t data = 1;
  bool expert = false;
  int64_t ranks() const { return tensor * pipeline * data; }
};

/// `plan` when it covers `devices`, else one tensor-parallel group of them all (a request that
/// names no layout, or a device count changed after the layout was read).
ParallelPlan covering_plan(const ParallelPlan& plan, int64_t devices);

/// Ranks the routed experts of a layer spread over: tensor x data with expert parallel, and in
/// SGLang always (its MoE runs over the whole --tp group); else the tensor ranks.
int64_t expert_shards(const ParallelPlan& plan, const std::string& engine);

struct MemoryRequest {
  Language lang = Language::en;   // of the "show the math" formulas
  // The vision projector file's published size (0: counted from the tower; -1: the GGUF
  // repository publishes none, so -hf loads none).
  int64_t mmproj_file_bytes = 0;
  int64_t context_tokens = 8192;  // per sequence (unified llama.cpp: the shared pool)
  int64_t sequences = 1;          // sequences with their own state (llama.cpp slots)
  int64_t devices = 1;
  KvType kv_type{"f16", 1, 2};
  EngineSettings engine;
  bool find_max_context = true;  // search the largest context that fits (max_context_tokens)
  // The context was not given (llama-server without -c, vLLM --max-model-len auto): the engine
  // picks it, starting from context_tokens (the model's native window).
  bool context_auto = false;
  // llama.cpp placement: -ngl (layers on the GPUs, counting the output layer as n_layers + 1;
  // -1 = automatic), --n-cpu-moe (expert tensors of the first N layers stay in system RAM) and
  // --tensor-split (relative share of layers per device; empty = equal). Any of them set by the
  // user pins the placement, and --fit leaves it alone.
  int64_t gpu_layers = -1;
  int64_t cpu_moe_layers = 0;
  // -ot "blk\.(i|j|...)\.ffn_.*_exps\.weight=CPU": the routed experts of these layers stay in RAM.
  std::vector<int64_t> cpu_expert_layers;
  std::vector<double> tensor_split;
  int64_t system_memory_bytes = int64_t{64} << 30;  // RAM for what is offloaded (assumption)
  // Each device, in the engine's order (llama.cpp: other machines' first); empty: `devices` of
  // the hardware passed beside the request. Devices of unequal memory get llama.cpp's default
  // split in proportion to their free memory (src/llama-model.cpp load_tensors at b10256).
  bool weights_include_mtp = false;  // the GGUF holds the MTP (nextn) blocks
  std::vector<Hardware> device_hardware;
  std::vector<int64_t> device_nodes;  // the machine of each (0: the head)
  ParallelPlan parallel;  // vLLM / SGLang; ranks() == devices
};

/// What one device (or the host's system RAM) holds.
struct DeviceMemory {
  std::string device;  // the device's catalog id ("custom" inline); "" for the host
  int64_t node = 0;    // its machine
  int64_t weights_bytes = 0;
  int64_t kv_cache_bytes = 0;
  int64_t compute_bytes = 0;
  // llama.cpp MTP drafting: the draft context's KV cache and compute buffer, on the device that
  // holds the output layer (the MTP layers' weights are in weights_bytes).
  int64_t draft_bytes = 0;
  // llama.cpp / Ollama: a vision model's projector file (mmproj) and its warm-up buffer, on the
  // first device (mmproj_memory.h).
  int64_t projector_bytes = 0;
  int64_t total_bytes = 0;
  int64_t usable_bytes = 0;
  int64_t layers = 0;          // decoder layers whose attention runs here
  int64_t expert_layers = 0;   // layers whose routed experts (all or part) sit here
  // Host only: context checkpoints of the slots (sliding / recurrent models) and the ceiling of
  // llama-server's prompt cache (--cache-ram; filled as prompts are cached, not at start).
  int64_t checkpoint_bytes = 0;
  int64_t prompt_cache_limit_bytes = 0;
  // Host only: embedding tables llama.cpp maps and reads on demand (--lazy-mode auto), in the
  // page cache as rows are read rather than loaded; not in weights_bytes.
  int64_t lazy_weights_bytes = 0;
};

/// What llama.cpp's --fit (common/fit.cpp) does before loading: nothing when the model fits
/// with its margin, else a smaller context (only when -c is not given), then layers and expert
/// tensors moved to system RAM. It gives up when -ngl, -ts or -ot/--n-cpu-moe are set.
struct FitPlan {
  std::string status;                // off | fits | context_reduced | offload | pinned | cannot_fit
  int64_t context_tokens = 0;        // the context one request can use (a slot's)
  int64_t cache_tokens = 0;          // cells of the cache, all slots (llama.cpp's n_ctx)
  int64_t auto_slots = 0;            // slots --fit sized a unified cache for without -c (or 0)
  int64_t gpu_layers = 0;            // -ngl it sets (repeating layers, MTP blocks + output on the GPUs)
  int64_t slots = 0;                 // -ngl that puts everything on the GPUs (GGUF blocks + output)
  std::vector<int64_t> layers_per_device;    // -ts it sets
  std::vector<int64_t> host_expert_layers;   // layers whose routed experts stay in system RAM
  std::string tensor_overrides;      // the -ot pattern that reproduces it ("" when none)
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
  int64_t ubatch_tokens = 0;        // llama.cpp / Ollama: the -ub the run uses (0 elsewhere)
  int64_t total_bytes = 0;          // device memory needed, all devices (host RAM is in `host`)
  int64_t usable_bytes = 0;
  int64_t headroom_bytes = 0;
  std::string verdict;             // comfortable | tight | offload | oom
  double utilization = 0;          // total / usable at the tightest device or the system RAM
  int64_t max_context_tokens = 0;  // per sequence, largest that fits on the devices (0 if none)
  int64_t kv_pool_bytes = 0;       // vLLM / SGLang: memory the KV pool gets
  int64_t kv_capacity_tokens = -1; // vLLM / SGLang: tokens the KV pool holds (-1: n/a)
  double max_concurrent_sequences = -1;
  int64_t mtp_bytes = 0;           // llama.cpp MTP draft context: its KV cache and compute buffer
  int64_t projector_bytes = 0;     // llama.cpp / Ollama: the vision projector (mmproj) and its buffer
  KvBreakdown kv;
  std::vector<DeviceMemory> per_device;
  DeviceMemory host;                       // system RAM: offloaded layers, experts, token_embd
  FitPlan fit;                             // llama.cpp / Ollama only (status "" elsewhere)
  int64_t offloaded_read_bytes_per_token = 0;  // weights + KV a decode step reads from RAM
  // llama.cpp / Ollama: layers, experts or the output layer sit in system RAM (fewer GPU layers
  // than n_layer + 1, or tensor overrides such as --n-cpu-moe), which also turns its layer
  // split's pipeline off (SpeedRequest::layer_pipeline).
  bool offloaded = false;
  // llama.cpp / Ollama: weights in system RAM the first GPU copies for each prompt ubatch of 32+
  // tokens (op offload): dense tensors of layers in RAM, and routed experts in RAM.
  int64_t op_offload_dense_bytes = 0;
  int64_t op_offload_expert_bytes = 0;
};

/// llama.cpp's GPU backends take an op on weights in system RAM from batches of this many rows
/// (op offload: ggml-cuda.cu offload_op, GGML_OP_OFFLOAD_MIN_BATCH, 32 by default).
inline constexpr int64_t kOpOffloadMinBatch = 32;

/// Memory a device offers the engine before the engine's own margins: discrete GPUs minus the
/// driver reserve, Apple unified memory to the default GPU wired limit, other unified / CPU
/// systems minus an OS share.
int64_t device_memory_bytes(const Hardware& hardware, const EngineSettings& engine);

/// What the verdict compares a device's total with: device_memory_bytes less llama.cpp's --fit
/// margin on GPUs; for vLLM / SGLang the share of memory they budget.
int64_t usable_memory_bytes(const Hardware& hardware, const EngineSettings& engine);

MemoryEstimate estimate_memory(const ModelSpec& model, const WeightPlan& weights,
                               const Hardware& hardware, const MemoryRequest& request);

/// The largest per-sequence context that fits (what estimate_memory reports as
/// max_context_tokens when the request asks for the search).
int64_t largest_fitting_context(const ModelSpec& model, const WeightPlan& weights,
                                const Hardware& hardware, const MemoryRequest& request);

/// The "show the math" lines of an estimate estimate_memory made from the same inputs: built
/// only for an answer that shows them (rank and explore evaluate thousands of setups without).
std::vector<MathLine> memory_math(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                                  const MemoryRequest& request, const MemoryEstimate& estimate);

/// The estimate and its math lines as JSON text: the estimate answer's "memory".
std::string memory_text(const MemoryEstimate& estimate, const std::vector<MathLine>& math);

}  // namespace llmcalc
