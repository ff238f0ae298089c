// llama.cpp / Ollama (llama-server) memory as of llama.cpp b10256 (6c8dcaa, 2026-08):
// - placement: layers [n - ngl, n) and the output layer on the GPUs in proportion to -ts, the
//   rest in system RAM; --n-cpu-moe keeps the expert tensors of the first N layers in RAM
//   (src/llama-model.cpp load_tensors, common/arg.cpp); token_embd always stays in RAM.
// - compute buffers (sched_reserve) at n_ubatch tokens with only the sequences' last rows as
//   outputs: the FFN live set, 4 x n_ff f32 per token for a dense layer and
//   2 x n_expert_used x (n_embd + n_ff_exp) for MUL_MAT_ID, which copies its input per expert;
//   without flash attention the f32 KQ scores of one layer; DeepSeek sparse attention keeps two
//   f32 [n_kv x n_ubatch] buffers (indexer scores and the top-k mask, src/models/deepseek32.cpp,
//   PR #23346); weights kept in RAM are copied to the first GPU for batches of 32+ tokens (op
//   offload), two of their largest tensors at a time. The host buffer holds the f32 KQ masks.
//   Checked against the sched_reserve lines of tests/data/engine_logs.json.
// - --fit (common/fit.cpp, PRs #16653, #18070, #18679): margin --fit-target per device, context
//   reduction when -c is not given, then layers filled back to front (MoE: dense parts first,
//   experts in RAM) and expert tensors brought back front to back, with one partial layer.
#include "llama_cpp_memory.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ollama_mmproj.h"
#include "round_up.h"

namespace llmcalc {

int devices_of(const MemoryRequest& request) {
  return static_cast<int>(std::max<int64_t>(1, request.devices));
}

const Hardware& request_device(const MemoryRequest& request, const Hardware& hardware, int d) {
  const std::vector<Hardware>& list = request.device_hardware;
  return static_cast<std::size_t>(d) < list.size() ? list[static_cast<std::size_t>(d)] : hardware;
}

namespace {

constexpr int64_t kOsShareBytes = 4 * kGiB;   // RAM left to the OS on unified / CPU systems
constexpr int64_t kCheckpointStepTokens = 8192;  // server --checkpoint-min-step (b10256)

bool uses_gpus(const Hardware& hardware) { return hardware.kind == "discrete"; }

int64_t host_usable_bytes(int64_t system_memory_bytes) {
  return std::max<int64_t>(0, system_memory_bytes - kOsShareBytes);
}

const Hardware& device_hardware(const LlamaCppInputs& in, int d) {
  return request_device(in.request, in.hardware, d);
}

// Blocks of the GGUF: the decoder layers, and the MTP (nextn) layers when the file holds them:
// always for GLM-4.5 and later (convert_hf_to_gguf.py Glm4MoeModel counts them in block_count) and
// MiMo-V2 (conversion/mimo.py MimoV2Model since PR #22493: model.mtp.layers.<i> become blocks
// n_layer + i, sliding-window, unless --no-mtp), and in files published with them
// (weights_include_mtp, e.g. unsloth's Qwen3.6 "MTP-GGUF": a b10xxx log puts layer 0 in RAM at
// -ngl 41 of 40 layers + 1 nextn + output, issue #23679).
// They take a slot of the layer split; their weights load only with MTP drafting.
int64_t gguf_blocks(const ModelSpec& model, const MemoryRequest& request) {
  bool nextn_blocks = model.model_type == "glm4_moe" || model.model_type == "glm_moe_dsa" ||
                      model.model_type == "mimo_v2" || model.model_type == "mimo_v2_flash" || request.weights_include_mtp;
  return model.n_layers + (nextn_blocks ? model.mtp_layers : 0);
}

// The placement the user's flags give: -ngl (default all), -ts (default equal), --n-cpu-moe.
// load_tensors (b10256): the blocks and the output layer are n_layer_all + 1 slots, the output
// the last; slots from n_layer_all + 1 - ngl on go to the GPUs, split in order by -ts
// (il / act_gpu_layers against the cumulative shares).
// Computed once per inputs: every context probe and --fit step starts from it.
const LayerPlacement& flag_placement(const LlamaCppInputs& in) {
  if (in.flags) return *in.flags;
  const MemoryRequest& r = in.request;
  int64_t n = in.model.n_layers;
  int64_t blocks = gguf_blocks(in.model, in.request);
  int devices = devices_of(r);
  int64_t gpu_slots = r.gpu_layers < 0 ? blocks + 1 : std::min(r.gpu_layers, blocks + 1);
  int64_t first_gpu_slot = blocks + 1 - gpu_slots;
  // Without -ts, load_tensors splits in proportion to each device's free memory (equal shares on
  // identical devices).
  std::vector<double> split(static_cast<std::size_t>(devices), 1.0);
  for (int d = 0; d < devices; ++d) {
    split[static_cast<std::size_t>(d)] = static_cast<double>(device_memory_bytes(device_hardware(in, d), r.engine));
  }
  if (static_cast<int>(r.tensor_split.size()) == devices) split = r.tensor_split;
  double split_sum = 0;
  for (double v : split) split_sum += v;
  auto device_of = [&](int64_t slot) {
    double position = static_cast<double>(slot - first_gpu_slot) / static_cast<double>(std::max<int64_t>(1, gpu_slots));
    std::size_t d = 0;
    double acc = split[0] / split_sum;
    while (position >= acc && d + 1 < split.size()) acc += split[++d] / split_sum;
    return static_cast<int>(d);
  };
  LayerPlacement p;
  p.device.assign(static_cast<std::size_t>(n), -1);
  p.expert_share.assign(static_cast<std::size_t>(n), 1.0);
  p.overflow.assign(static_cast<std::size_t>(n), -1);
  for (int64_t i = std::max<int64_t>(0, first_gpu_slot); i < n; ++i) {
    p.device[static_cast<std::size_t>(i)] = device_of(i);
    bool listed = std::find(r.cpu_expert_layers.begin(), r.cpu_expert_layers.end(), i) != r.cpu_expert_layers.end();
    if (i < r.cpu_moe_layers || listed) p.expert_share[static_cast<std::size_t>(i)] = 0.0;
  }
  p.output_device = gpu_slots > 0 ? device_of(blocks) : -1;
  p.gpu_slots = gpu_slots;
  in.flags = std::move(p);
  return *in.flags;
}

// The KQ masks on a device (sched_reserve lines in tests/data/engine_logs.json): CUDA and ROCm
// copy the f32 input and cast it to f16 for flash attention (6 B per cell and token), Metal
// keeps 4 B, Vulkan 2 B.
LlamaCppTraits::Backend backend_of(const Hardware& hardware) {
  LlamaCppTraits::Backend b;
  b.mask_bytes = hardware.backend == "vulkan" ? 2 : hardware.backend == "metal" ? 4 : 6;
  b.cuda = hardware.backend == "cuda";
  return b;
}

// One pass over the layers and the devices for what every measure() reads. The checkpoint of
// one sequence holds the sliding layers' last window and the recurrent state (server-context.cpp
// create_checkpoint, LLAMA_STATE_SEQ_FLAGS_PARTIAL_ONLY); the MTP layers' KV rows are the
// decoder's full-attention rows.
const LlamaCppTraits& traits_of(const LlamaCppInputs& in) {
  if (in.traits) return *in.traits;
  const ModelSpec& model = in.model;
  const KvType& type = in.request.kv_type;
  LlamaCppTraits t;
  t.ffn_live_elements = ffn_live_elements(model);
  const AttentionGeometry* last_full = nullptr;
  for (const LayerSpec& layer : model.layers) {
    const AttentionGeometry& a = layer.attention;
    t.max_heads = std::max(t.max_heads, a.n_q_heads);
    // DeepSeek sparse attention (MLA layers with an indexer); Qwen3.8 Flash-Next's pooled indexer
    // on full-attention layers keeps the ordinary mask (its scratch: README, not modelled).
    t.sparse_attention = t.sparse_attention || (a.kind == AttentionKind::mla && a.indexer_head_dim > 0);
    if (a.kind == AttentionKind::sliding || a.kind == AttentionKind::chunked) {
      if (t.window_tokens == 0) t.window_tokens = a.window_tokens;
      t.checkpoint_bytes += kv_row_bytes(model, a, type, KvLayout::llama_cpp) * a.window_tokens;
    }
    t.checkpoint_bytes += a.state_elements_per_seq * 4;
    if (a.kind == AttentionKind::full || a.kind == AttentionKind::mla) last_full = &a;
  }
  if (last_full) t.mtp_kv_row_bytes = kv_row_bytes(model, *last_full, type, KvLayout::llama_cpp);
  t.gpus = uses_gpus(in.hardware);
  t.cpu_only = in.hardware.kind == "cpu";
  t.lazy_weights_bytes = llama_cpp_lazy_bytes(in.weights, in.hardware, in.request.engine);
  if (in.request.engine.mmproj) {
    t.mmproj = mmproj_memory(model, in.request.engine.flash_attention, in.request.mmproj_file_bytes);
  }
  t.projector_on_host = t.cpu_only;
  for (int d = 0; d < devices_of(in.request); ++d) {
    t.device_backends.push_back(backend_of(device_hardware(in, d)));
    t.usable_bytes.push_back(usable_memory_bytes(device_hardware(in, d), in.request.engine));
  }
  if (in.request.engine.engine == "ollama" && !t.cpu_only && t.mmproj.weights_bytes > 0) {
    std::vector<int64_t> free_bytes;
    for (int d = 0; d < devices_of(in.request); ++d) {
      free_bytes.push_back(device_memory_bytes(device_hardware(in, d), in.request.engine));
    }
    OllamaProjectorPlan plan =
        ollama_projector_plan(in.request, free_bytes, gguf_blocks(model, in.request), t.mmproj.weights_bytes);
    t.projector_on_host = t.projector_on_host || plan.on_host;
    if (plan.fit_target_bytes > 0 && in.request.engine.fit) {
      for (std::size_t d = 0; d < free_bytes.size(); ++d) {
        t.usable_bytes[d] = std::max<int64_t>(0, free_bytes[d] - plan.fit_target_bytes);
      }
    }
  }
  t.host_backend = backend_of(in.hardware);
  in.traits = std::move(t);
  return *in.traits;
}

// Cells of one sliding-window stream (the host's mask buffer and its f16 copy on the device),
// as llama-kv-cache-iswa.cpp sizes them; 0 without sliding layers.
int64_t window_cells(int64_t window_tokens, const KvRequest& kv, int64_t stream_cells) {
  if (window_tokens == 0) return 0;
  int64_t span = window_tokens * (kv.unified ? kv.sequences : 1) + kv.ubatch_tokens;
  return round_up(std::min(stream_cells, span), kLlamaCppKvPadding);
}

// MTP draft context (PR #22673): a second context over the MTP layers, with their KV cache and
// a compute buffer of one decoder layer's live set at -ub tokens; its logits are a few drafted
// rows. Qwen3.8-27B (17,408-wide MLP): 4 x 17,408 f32 x 2,048 = 544 MiB against the 520.06 MiB
// logged at -ub 2048 (b9849 and b11146), 136 against 130.02 at -ub 512 (tests/data/engine_logs.json).
int64_t mtp_context_bytes(const LlamaCppInputs& in, const KvBreakdown& kv) {
  const ModelSpec& m = in.model;
  if (!in.request.engine.mtp || m.mtp_layers <= 0 || m.layers.empty()) return 0;
  const LlamaCppTraits& traits = traits_of(in);
  return m.mtp_layers * traits.mtp_kv_row_bytes * kv.cells + in.request.engine.ubatch_tokens * 4 * traits.ffn_live_elements;
}

EngineTotals measure(const LlamaCppInputs& in, const LayerPlacement& p, int64_t context) {
  const ModelSpec& model = in.model;
  const WeightPlan& w = in.weights;
  const MemoryRequest& r = in.request;
  const EngineSettings& engine = r.engine;
  EngineTotals t;
  if (in.kv_context != context) {
    in.kv_request = engine_kv_request(r, context);
    in.kv = kv_cache_bytes(model, r.kv_type, in.kv_request);
    in.kv_layer_bytes = std::move(in.kv.per_layer_bytes);
    in.kv.per_layer_bytes.clear();
    in.kv_context = context;
  }
  t.kv = in.kv;
  const LlamaCppTraits& traits = traits_of(in);
  int devices = devices_of(r);
  t.devices.assign(static_cast<std::size_t>(devices), DeviceMemory{});
  t.host = DeviceMemory{};
  auto at = [&](int d) -> DeviceMemory& {
    return d < 0 ? t.host : t.devices[static_cast<std::size_t>(d)];
  };
  t.host.lazy_weights_bytes = traits.lazy_weights_bytes;
  t.host.weights_bytes = w.token_embd_bytes - t.host.lazy_weights_bytes;
  double active_share = w.expert_bytes > 0 ? static_cast<double>(w.active_expert_bytes) /
                                                 static_cast<double>(w.expert_bytes)
                                           : 0.0;
  double host_reads = 0;
  // Op-offload copies (on the first GPU): of layers held in RAM, which add to the live set, and
  // of the RAM experts of layers on the GPUs, which the allocator overlaps with it.
  int64_t added_copy = 0;
  int64_t overlapped_copy = 0;
  const int64_t ubatch = engine.ubatch_tokens;
  const bool op_offload = traits.gpus && ubatch >= kOpOffloadMinBatch;
  for (std::size_t i = 0; i < static_cast<std::size_t>(model.n_layers); ++i) {
    int d = p.device[i];
    DeviceMemory& home = at(d);
    int64_t kv = in.kv_layer_bytes.empty() ? 0 : in.kv_layer_bytes[i];
    home.weights_bytes += w.layer_dense_bytes[i];
    home.kv_cache_bytes += kv;
    ++home.layers;
    if (d < 0) host_reads += static_cast<double>(w.layer_dense_bytes[i] + kv);
    int64_t experts = w.layer_expert_bytes[i];
    int64_t experts_in_ram = 0;
    if (experts > 0) {
      // All or none of them but for one partial layer (llround is a libm call in WebAssembly).
      double share = p.expert_share[i];
      int64_t kept = share == 1.0   ? experts
                     : share == 0.0 ? 0
                                    : static_cast<int64_t>(std::llround(static_cast<double>(experts) * share));
      home.weights_bytes += kept;
      if (kept > 0) ++home.expert_layers;
      if (experts - kept > 0) {
        DeviceMemory& rest = at(p.overflow[i]);
        rest.weights_bytes += experts - kept;
        ++rest.expert_layers;
      }
      experts_in_ram = (d < 0 ? kept : 0) + (p.overflow[i] < 0 ? experts - kept : 0);
      host_reads += active_share * static_cast<double>(experts_in_ram);
    }
    // Weights in RAM are copied to a GPU for batched matmuls, always the first one: the
    // scheduler gives an op on host weights to the first backend that wants to offload it
    // (ggml-backend.cpp, ggml_backend_sched_backend_id_from_cur: "check if a backend with higher
    // prio wants to offload the op", b = 0 first), whichever GPU holds the layer's other tensors.
    // Four P100s at b8829 with RAM experts in layers on every card: CUDA0's compute buffer alone
    // grows, by the two expert copies whatever the live set (960 MiB of copies, 1,030-1,112 MiB
    // logged at -ub 256 to 2048 while the live set grows 73 -> 584 MiB; tests/data/
    // multi_device_runs.json, the llm-server-ops records); with whole layers in RAM the copies
    // add to it (the --fit records of tests/data/engine_logs.json).
    // Beside discrete GPUs, what a prompt's ubatch needs of the weights in RAM: a layer in RAM
    // whole, experts in RAM (speed.cpp counts the ones the ubatch picks).
    if (traits.gpus) {
      if (d < 0) t.op_offload_dense_bytes += w.layer_dense_bytes[i];
      t.op_offload_expert_bytes += experts_in_ram;
    }
    if (op_offload) {
      bool host_experts = experts > 0 && (d < 0 || (p.overflow[i] < 0 && p.expert_share[i] < 1.0));
      int64_t largest = host_experts ? w.layer_expert_max_bytes[i] : d < 0 ? w.layer_dense_max_bytes[i] : 0;
      int64_t& copy = d < 0 ? added_copy : overlapped_copy;
      copy = std::max(copy, 2 * largest);
    }
  }
  // The MTP layers load with drafting only (mparams.load_mtp), after the decoder's last layer.
  const bool drafting = engine.mtp && model.mtp_layers > 0;
  at(p.output_device).weights_bytes += w.output_layer_bytes + (drafting ? w.mtp_bytes : 0);
  if (p.output_device < 0) host_reads += static_cast<double>(w.output_layer_bytes);

  // Cells one ubatch attends over: one stream's.
  bool one_stream = engine.kv_unified && !model.per_sequence_streams;
  int64_t stream_cells = t.kv.cells / (one_stream ? 1 : std::max<int64_t>(1, r.sequences));
  // The FFN live set, and the KQ masks (full and sliding caches) on the device (backend_of);
  // with CUDA the cast is made once, on the GPU of the first layer, and the GPUs after it
  // receive the f16 mask (2 B: four P100s at b8829, whose later cards' buffers grow by exactly
  // 2 B per cell and token from 32K to 128K, tests/data/multi_device_runs.json). DeepSeek sparse
  // attention replaces the mask with its own two f32 buffers (indexer scores and top-k mask).
  // Without flash attention one layer's f32 KQ scores.
  int64_t swa_cells = window_cells(traits.window_tokens, in.kv_request, stream_cells);
  bool sparse = traits.sparse_attention;
  int64_t dsa_buffer = sparse ? stream_cells * ubatch * 4 : 0;
  const int64_t ffn_live = traits.ffn_live_elements;
  // The GPU running the first layer on a GPU casts the mask (a single GPU keeps its 6 B).
  int cast_device = -1;
  for (int d : p.device) {
    if (d >= 0) {
      cast_device = d;
      break;
    }
  }
  auto live_set = [&](const LlamaCppTraits::Backend& backend, int d) {
    bool f16_copy = backend.cuda && engine.flash_attention && d != cast_device;
    int64_t mask_bytes = f16_copy ? 2 : backend.mask_bytes;
    int64_t bytes = ubatch * 4 * ffn_live +
                    (sparse ? 0 : ubatch * mask_bytes * (stream_cells + swa_cells));
    if (!engine.flash_attention) bytes += ubatch * stream_cells * traits.max_heads * 4;
    return bytes;
  };
  int64_t outputs = r.sequences * model.vocab_size * 4;
  t.mtp = mtp_context_bytes(in, t.kv);
  for (int d = 0; d < devices; ++d) {
    DeviceMemory& device = t.devices[static_cast<std::size_t>(d)];
    bool busy = device.layers > 0 || d == p.output_device;
    int64_t live = busy ? live_set(traits.device_backends[static_cast<std::size_t>(d)], d) : 0;
    bool copies_here = d == 0 && (added_copy > 0 || overlapped_copy > 0);
    int64_t peak = d == 0 ? std::max(live + added_copy, overlapped_copy) : live;
    // With an op-offload copy in the same graph split, one of the two DSA buffers is freed
    // first (GLM-5.2 at 768K: 1 x n_kv x n_ubatch on the device with RAM experts, 2 x elsewhere).
    device.compute_bytes = busy ? peak + (copies_here ? 1 : 2) * dsa_buffer : 0;
    if (d == p.output_device) {
      device.compute_bytes += outputs;
      device.draft_bytes = t.mtp;
    }
    device.total_bytes = device.weights_bytes + device.kv_cache_bytes + device.compute_bytes + device.draft_bytes;
  }
  // Host compute: the f32 KQ masks (full and sliding) built for each ubatch, and the CPU's own
  // live set when it runs layers.
  t.host.compute_bytes = ubatch * 4 * (stream_cells + swa_cells);
  if (t.host.layers > 0 || traits.cpu_only) t.host.compute_bytes += live_set(traits.host_backend, -1);
  if (traits.cpu_only) {
    t.host.compute_bytes += outputs;
    t.host.draft_bytes = t.mtp;
  }
  int64_t model_checkpoint = traits.checkpoint_bytes;
  if (model_checkpoint > 0 && engine.context_checkpoints > 0) {
    int64_t per_slot = std::min(engine.context_checkpoints, std::max<int64_t>(1, context / kCheckpointStepTokens));
    int64_t slots = engine.kv_unified ? 1 : r.sequences;
    t.host.checkpoint_bytes = model_checkpoint * per_slot * slots;
  }
  t.host.prompt_cache_limit_bytes = engine.cache_ram_bytes;
  // A vision model's projector, whole on the first device (system RAM on a CPU, or where Ollama
  // keeps it off the GPUs).
  t.projector = traits.mmproj.weights_bytes + traits.mmproj.compute_bytes;
  if (t.projector > 0) {
    DeviceMemory& place = traits.projector_on_host ? t.host : t.devices.front();
    place.projector_bytes = t.projector;
    if (!traits.projector_on_host) place.total_bytes += t.projector;
  }
  t.host.total_bytes = t.host.weights_bytes + t.host.kv_cache_bytes + t.host.compute_bytes +
                       t.host.draft_bytes + t.host.checkpoint_bytes + t.host.projector_bytes;

  t.compute = 0;
  for (int d = 0; d < devices; ++d) {
    DeviceMemory& device = t.devices[static_cast<std::size_t>(d)];
    device.usable_bytes = traits.usable_bytes[static_cast<std::size_t>(d)];
    t.compute += device.compute_bytes;
  }
  t.offloaded = t.host.layers > 0 || t.host.expert_layers > 0 || p.output_device < 0;
  if (traits.gpus) {
    t.host.usable_bytes = host_usable_bytes(r.system_memory_bytes);
    t.offloaded_read_bytes_per_token = static_cast<int64_t>(host_reads);
  } else {
    // Unified memory and CPUs: one pool, so what sits "in RAM" lands beside the device's share.
    t.devices.front().total_bytes += t.host.total_bytes;
    t.host.usable_bytes = 0;
  }
  finish_totals(t, traits.gpus);
  return t;
}

bool devices_fit(const EngineTotals& t) {
  for (const DeviceMemory& device : t.devices) {
    if (device.total_bytes > device.usable_bytes) return false;
  }
  return true;
}

int64_t device_sum(const EngineTotals& t) {
  int64_t sum = 0;
  for (const DeviceMemory& device : t.devices) sum += device.total_bytes;
  return sum;
}

constexpr int64_t kContextStep = 256;

// Step 2 of common_params_fit_impl: interpolate the context between --fit-ctx and the trained
// context on the projected device memory, rounded down to 256. Negative (minus --fit-ctx) when
// even --fit-ctx does not fit: the context stays there and layers move next.
int64_t reduced_context(const LlamaCppInputs& in, const LayerPlacement& base, int64_t full_context,
                        const EngineTotals& at_full) {
  const EngineSettings& engine = in.request.engine;
  int64_t min_context = engine.fit_min_context_tokens;
  int devices = devices_of(in.request);
  double target = 0;
  for (const DeviceMemory& device : at_full.devices) target += static_cast<double>(device.usable_bytes);
  if (devices > 1) {
    // Safety term for the layer split: (devices + 1) x model bytes per layer / (dense ? 2 : 6).
    double model_bytes = 0;
    for (const DeviceMemory& device : at_full.devices) model_bytes += static_cast<double>(device.weights_bytes);
    double per_layer = model_bytes / static_cast<double>(std::max<int64_t>(1, in.model.n_layers));
    target -= static_cast<double>(devices + 1) * per_layer / (in.weights.expert_bytes > 0 ? 6.0 : 2.0);
  }
  double used_min = static_cast<double>(device_sum(measure(in, base, min_context)));
  double used_full = static_cast<double>(device_sum(at_full));
  if (target <= used_min || used_full <= used_min) return -min_context;  // not enough even then
  double context = static_cast<double>(min_context) +
                   static_cast<double>(full_context - min_context) * (target - used_min) / (used_full - used_min);
  auto rounded = static_cast<int64_t>(context) / kContextStep * kContextStep;
  return std::min(full_context, std::max(min_context, rounded));
}

std::string layer_alternation(const std::vector<int64_t>& layers) {
  std::string out;
  for (int64_t layer : layers) out += (out.empty() ? "" : "|") + std::to_string(layer);
  return out;
}

// How many slots (layers; the output layer is slot n) a device holds, how many of them are
// "partial" (their routed experts elsewhere), and what the first partial one keeps
// (common/fit.cpp ngl_t and common_layer_fraction_t).
enum class Fraction { moe, up, gate, attn };
struct DeviceSlots {
  int64_t n_layer = 0;
  int64_t n_part = 0;
  Fraction first_part = Fraction::moe;
  bool overflow_to_next = false;  // the first partial layer overflows to the next device
  int64_t n_full() const { return n_layer - n_part; }
};

// set_ngl_tensor_split_tbo: the first n + 1 - sum(n_layer) slots stay in RAM, then each device
// in turn takes its full layers and its partial ones.
LayerPlacement to_placement(const LlamaCppInputs& in, const std::vector<DeviceSlots>& slots) {
  int64_t n = in.model.n_layers;
  int64_t blocks = gguf_blocks(in.model, in.request);
  LayerPlacement p;
  p.device.assign(static_cast<std::size_t>(n), -1);
  p.expert_share.assign(static_cast<std::size_t>(n), 1.0);
  p.overflow.assign(static_cast<std::size_t>(n), -1);
  p.output_device = -1;
  int64_t used = 0;
  for (const DeviceSlots& d : slots) used += d.n_layer;
  p.gpu_slots = used;
  int64_t slot = blocks + 1 - used;
  for (std::size_t d = 0; d < slots.size(); ++d) {
    for (int64_t k = 0; k < slots[d].n_layer; ++k, ++slot) {
      if (slot == blocks) p.output_device = static_cast<int>(d);
      if (slot >= n) continue;  // an MTP block or the output layer
      auto i = static_cast<std::size_t>(slot);
      p.device[i] = static_cast<int>(d);
      if (k < slots[d].n_full()) continue;
      bool first = k == slots[d].n_full();
      Fraction fraction = first ? slots[d].first_part : Fraction::moe;
      double experts = static_cast<double>(in.weights.layer_expert_bytes[i]);
      double down = static_cast<double>(in.weights.layer_expert_down_bytes[i]);
      // ATTN and MOE keep none of the experts; UP keeps ffn_up, GATE ffn_up and ffn_gate.
      double kept = fraction == Fraction::gate ? experts - down
                    : fraction == Fraction::up ? (experts - down) / 2.0
                                               : 0.0;
      p.expert_share[i] = experts > 0 ? kept / experts : 1.0;
      p.overflow[i] = first && slots[d].overflow_to_next ? static_cast<int>(d) + 1 : -1;
    }
  }
  return p;
}

// Steps 3 and 4 of common_params_fit_impl: fill the devices back to front with whole layers
// (MoE: "dense-only" layers, experts in RAM; the last device's output layer always whole), then
// for MoE models whose dense parts all fit, convert dense-only layers into full layers on the
// devices front to back, and fit part of one more layer on each.
// Each count is found as common/fit.cpp finds it (read at 08033df; its step on the last device
// was fixed in PR #18415, December 2025), by the method of false position: between the
// configuration that fits (`slots`, whose memory is `current`) and the nearest one known not to,
// the next try is where the device's memory, interpolated linearly, meets its target (at least
// one step from each), and it replaces the bound it falls on until the two are one step apart.
// Memory does not always grow with the count (the last layers moved off system RAM take their
// op-offload copies with them), so the order of the tries decides some counts, and it is
// llama.cpp's: bisection put 33 of Mistral Large 3's layers at IQ4_XS on an RTX 4090 where this
// search puts 60 (issue #22).
LayerPlacement place_layers(const LlamaCppInputs& in, int64_t context) {
  int64_t blocks = gguf_blocks(in.model, in.request);
  int devices = devices_of(in.request);
  bool moe = in.weights.expert_bytes > 0;
  auto used = [&](const std::vector<DeviceSlots>& slots) {
    return measure(in, to_placement(in, slots), context);
  };
  auto fits = [](const EngineTotals& t, std::size_t d) {
    return t.devices[d].total_bytes <= t.devices[d].usable_bytes;
  };
  std::vector<DeviceSlots> slots(static_cast<std::size_t>(devices));
  EngineTotals current = used(slots);  // llama.cpp measures the empty devices first
  // `more(from, step)`: `from` with `step` more on device d; the highest try is `span` steps on.
  auto false_position = [&](std::size_t d, int64_t span, auto more) {
    if (span <= 0) return;
    std::vector<DeviceSlots> high = more(slots, span);
    EngineTotals at_high = used(high);
    if (fits(at_high, d)) {
      slots = std::move(high);
      current = std::move(at_high);
      return;
    }
    for (int64_t delta = span; delta > 1;) {
      const int64_t low_bytes = current.devices[d].total_bytes;
      const int64_t headroom = at_high.devices[d].total_bytes - low_bytes;
      const int64_t room = current.devices[d].usable_bytes - low_bytes;
      // llama.cpp's uint32_t step wraps a negative quotient (the lower bound over its target)
      // to a large one, which the clamp below makes delta - 1.
      int64_t step = headroom > 0 && room >= 0 ? delta * room / headroom : delta - 1;
      step = std::min(std::max<int64_t>(step, 1), delta - 1);
      std::vector<DeviceSlots> trial = more(slots, step);
      EngineTotals at_trial = used(trial);
      if (fits(at_trial, d)) {
        slots = std::move(trial);
        current = std::move(at_trial);
        delta -= step;
      } else {
        at_high = std::move(at_trial);
        delta = step;
      }
    }
  };
  for (int d = devices - 1; d >= 0; --d) {
    auto id = static_cast<std::size_t>(d);
    int64_t unassigned = blocks + 1;
    for (std::size_t later = id + 1; later < slots.size(); ++later) unassigned -= slots[later].n_layer;
    const bool last = d == devices - 1;
    false_position(id, unassigned, [&](std::vector<DeviceSlots> from, int64_t step) {
      // The last device's first layer is the output layer, which is never partial.
      if (moe) from[id].n_part += last && from[id].n_part == 0 ? step - 1 : step;
      from[id].n_layer += step;
      return from;
    });
  }
  if (!moe) return to_placement(in, slots);
  // Only when the dense parts of every layer fit with all experts in RAM.
  LayerPlacement all_dense = flag_placement(in);
  std::fill(all_dense.expert_share.begin(), all_dense.expert_share.end(), 0.0);
  EngineTotals dense = measure(in, all_dense, context);
  double surplus = 0;
  for (const DeviceMemory& device : dense.devices) {
    surplus += static_cast<double>(device.usable_bytes - device.total_bytes);
  }
  if (surplus <= 0) return to_placement(in, slots);

  std::size_t dense_start = slots.size();
  for (std::size_t id = slots.size(); id-- > 0;) {
    if (slots[id].n_layer == 0) break;
    dense_start = id;
  }
  if (dense_start >= slots.size()) return to_placement(in, slots);
  // Moves `count` dense-only layers, from dense_start onwards, to device `id` as full layers.
  auto convert = [&](std::vector<DeviceSlots> from, std::size_t& start, std::size_t id, int64_t count) {
    for (; start < from.size() && count > 0;) {
      int64_t take = std::min(count, from[start].n_part);
      from[start].n_layer -= take;
      from[start].n_part -= take;
      from[id].n_layer += take;
      count -= take;
      if (from[start].n_part > 0) break;
      ++start;
    }
    return from;
  };
  for (std::size_t id = 0; id <= dense_start && dense_start < slots.size(); ++id) {
    int64_t movable = 0;
    for (std::size_t j = dense_start; j < slots.size(); ++j) movable += slots[j].n_part;
    // Each try converts, in order, the layers the last fitting one converted and `step` more.
    const std::vector<DeviceSlots> before = slots;
    auto converted = [&](const std::vector<DeviceSlots>& config) { return config[id].n_full() - before[id].n_full(); };
    false_position(id, movable, [&](const std::vector<DeviceSlots>& from, int64_t step) {
      std::size_t start = dense_start;
      return convert(before, start, id, converted(from) + step);
    });
    convert(before, dense_start, id, converted(slots));  // where the accepted conversions stopped
    if (dense_start >= slots.size() || slots[dense_start].n_layer <= (id + 1 < slots.size() ? 0 : 1)) continue;
    // Part of one more layer: UP, then GATE; ATTN when UP does not fit.
    std::vector<DeviceSlots> trial = slots;
    std::size_t trial_start = dense_start;
    --trial[trial_start].n_layer;
    --trial[trial_start].n_part;
    ++trial[id].n_layer;
    ++trial[id].n_part;
    if (trial[trial_start].n_part == 0) ++trial_start;
    trial[id].overflow_to_next = id + 1 < slots.size();
    auto accept = [&](Fraction fraction) {
      trial[id].first_part = fraction;
      EngineTotals t = used(trial);
      if (!fits(t, id) || (id + 1 < slots.size() && !fits(t, id + 1))) return false;
      slots = trial;
      current = std::move(t);
      dense_start = trial_start;
      return true;
    };
    if (accept(Fraction::up)) {
      accept(Fraction::gate);
    } else {
      accept(Fraction::attn);
    }
  }
  return to_placement(in, slots);
}

FitPlan describe(const LlamaCppInputs& in, const LayerPlacement& p, int64_t context, std::string status) {
  FitPlan fit;
  fit.status = std::move(status);
  fit.context_tokens = context;
  int64_t n = in.model.n_layers;
  fit.layers_per_device.assign(static_cast<std::size_t>(devices_of(in.request)), 0);
  for (int64_t i = 0; i < n; ++i) {
    int d = p.device[static_cast<std::size_t>(i)];
    if (d >= 0) ++fit.layers_per_device[static_cast<std::size_t>(d)];
    if (in.weights.layer_expert_bytes[static_cast<std::size_t>(i)] > 0 &&
        p.expert_share[static_cast<std::size_t>(i)] < 1.0) {
      fit.host_expert_layers.push_back(i);
    }
  }
  // -ngl counts slots: the MTP blocks a GGUF holds between the last layer and the output too.
  fit.gpu_layers = p.gpu_slots;
  fit.slots = gguf_blocks(in.model, in.request) + 1;
  std::vector<int64_t> whole;  // layers on a GPU whose experts all stay in RAM
  for (int64_t i : fit.host_expert_layers) {
    if (p.device[static_cast<std::size_t>(i)] >= 0 && p.expert_share[static_cast<std::size_t>(i)] == 0.0) {
      whole.push_back(i);
    }
  }
  if (!whole.empty()) {
    fit.tensor_overrides = "blk\\.(" + layer_alternation(whole) + ")\\.ffn_(up|down|gate)_exps=CPU";
  }
  return fit;
}

// --fit gives up on a placement the flags pin (common/fit.cpp at b10256: "n_gpu_layers already set
// by user ... abort", after its context step): llama.cpp then loads it as placed, and a device
// (a discrete GPU or an Apple one; a CPU has no margin) needs the memory itself, not the
// --fit-target margin on top.
bool pinned_by_flags(const MemoryRequest& r) {
  return r.gpu_layers >= 0 || r.cpu_moe_layers > 0 || !r.cpu_expert_layers.empty() || !r.tensor_split.empty();
}

void without_fit_margin(const LlamaCppInputs& in, EngineTotals& totals) {
  for (int d = 0; d < static_cast<int>(totals.devices.size()); ++d) {
    totals.devices[static_cast<std::size_t>(d)].usable_bytes = device_memory_bytes(device_hardware(in, d), in.request.engine);
  }
  finish_totals(totals, uses_gpus(in.hardware));
}

}  // namespace

EngineTotals llama_cpp_totals(const LlamaCppInputs& in, int64_t context_tokens) {
  EngineTotals totals = measure(in, flag_placement(in), context_tokens);
  if (in.request.engine.fit && pinned_by_flags(in.request)) without_fit_margin(in, totals);
  return totals;
}

constexpr int64_t kLazyModeBuild = 10653;

int64_t llama_cpp_lazy_bytes(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine) {
  bool integrated_gpu = hardware.kind == "unified" && hardware.backend != "metal";
  bool llama_server = engine.engine == "llama.cpp" || engine.engine == "ollama";
  bool lazy = llama_server && engine.llama_cpp_build >= kLazyModeBuild && !integrated_gpu;
  return lazy ? weights.lazy_table_bytes : 0;
}

int64_t llama_cpp_placed_bytes(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine) {
  // What measure() places: token_embd, each layer's dense and expert tensors, the output layer.
  int64_t placed = weights.token_embd_bytes - llama_cpp_lazy_bytes(weights, hardware, engine) +
                   weights.output_layer_bytes;
  for (int64_t bytes : weights.layer_dense_bytes) placed += bytes;
  for (int64_t bytes : weights.layer_expert_bytes) placed += bytes;
  return placed;
}

bool llama_cpp_beyond_memory(const WeightPlan& weights, const Hardware& hardware, const EngineSettings& engine,
                             int64_t devices_usable_bytes, int64_t system_memory_bytes) {
  // Unified memory and CPUs are one pool: measure() adds what sits "in RAM" to the first
  // device, so every placed byte counts against the devices' usable memory.
  int64_t pool = devices_usable_bytes + (uses_gpus(hardware) ? host_usable_bytes(system_memory_bytes) : 0);
  return llama_cpp_placed_bytes(weights, hardware, engine) > pool;
}

namespace {

// The steps of common_params_fit_impl from `context` cells: the placement the flags give if it
// fits, else (with context_auto) the context reduced, else the layers placed.
LlamaCppRun fit_run(const LlamaCppInputs& in, int64_t context_tokens, bool context_auto) {
  const MemoryRequest& r = in.request;
  const EngineSettings& engine = r.engine;
  const LayerPlacement& base = flag_placement(in);
  LlamaCppRun run;
  run.totals = measure(in, base, context_tokens);
  if (!engine.fit) {
    run.fit = describe(in, base, context_tokens, "off");
    return run;
  }
  if (devices_fit(run.totals)) {
    run.fit = describe(in, base, context_tokens, "fits");
    return run;
  }
  int64_t context = context_tokens;
  bool gpus = uses_gpus(in.hardware);
  if (context_auto && context > engine.fit_min_context_tokens) {
    int64_t reduced = reduced_context(in, base, context, run.totals);
    context = std::abs(reduced);
    run.totals = measure(in, base, context);
    if (reduced > 0 && (devices_of(r) <= 1 || !gpus || devices_fit(run.totals))) {
      run.fit = describe(in, base, context, "context_reduced");
      return run;
    }
  }
  bool pinned = pinned_by_flags(r);
  if (pinned || !gpus) {
    if (pinned) without_fit_margin(in, run.totals);
    run.fit = describe(in, base, context, pinned ? "pinned" : "cannot_fit");
    return run;
  }
  LayerPlacement placed = place_layers(in, context);
  run.totals = measure(in, placed, context);
  run.fit = describe(in, placed, context, devices_fit(run.totals) ? "offload" : "cannot_fit");
  return run;
}

// PR #28849 ("Change max context length for auto-fitting with unified KV", b10999, 2026-09-16;
// common/fit.cpp read at GenerelSchwerz/llama.cpp@947a0b6): without -c, --fit sized the one
// unified cache for every slot, n_ctx_train x n_seq_max cells at most (4 x with llama-server's
// automatic slots), and shrank it toward --fit-ctx as before (the minimum and the 256-cell
// alignment stay those of one stream); llama-server still capped each slot at n_ctx_train
// (tools/server, "capping"). PR #29437 reverted it in b11201 (2145525a, 2026-09-26: it allocated
// four times the context by default), back to PR #27496's rule: the ceiling is the trained
// context of one stream, and without a unified cache a stream per slot.
constexpr int64_t kFitAllSlotsBuild = 10999;
constexpr int64_t kFitAllSlotsRevertedBuild = 11201;

bool fits_all_slots(const MemoryRequest& r) {
  const int64_t build = r.engine.llama_cpp_build;
  return r.engine.kv_unified && build >= kFitAllSlotsBuild && build < kFitAllSlotsRevertedBuild;
}

}  // namespace

LlamaCppRun llama_cpp_run(const LlamaCppInputs& in, int64_t context_tokens, bool context_auto) {
  const MemoryRequest& r = in.request;
  const bool all_slots = context_auto && r.engine.fit && fits_all_slots(r);
  const int64_t slots = std::max<int64_t>(1, r.sequences);
  LlamaCppRun run = fit_run(in, all_slots ? context_tokens * slots : context_tokens, context_auto);
  // The cells of one stream, the context a slot can use, and llama.cpp's n_ctx.
  const int64_t stream_cells = run.fit.context_tokens;
  const bool one_stream = r.engine.kv_unified;
  run.fit.context_tokens = all_slots ? std::min(stream_cells, context_tokens) : stream_cells;
  run.fit.cache_tokens = one_stream ? stream_cells : stream_cells * slots;
  run.fit.auto_slots = all_slots ? slots : 0;
  run.ubatch_tokens = r.engine.ubatch_tokens;
  return run;
}

}  // namespace llmcalc
