// Memory per engine: the engine's own model (llama_cpp_memory.cpp, server_memory.cpp; mlx-lm
// and transformers here), then the verdict, the largest context that fits and the formulas.
#include "llmcalc/memory.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "compressed_kv_pool.h"
#include "engine_memory.h"
#include "json_text.h"
#include "llama_cpp_memory.h"
#include "ollama_batch.h"
#include "server_memory.h"

namespace llmcalc {

bool is_llama_cpp_family(const std::string& engine) {
  return engine == "llama.cpp" || engine == "ollama";
}
bool is_paged_server(const std::string& engine) { return engine == "vllm" || engine == "sglang"; }

namespace {

constexpr int64_t kOsShareBytes = 4 * kGiB;  // left to the OS on unified / CPU systems
constexpr int64_t kPageTokens = 16;           // vLLM / SGLang page

KvLayout engine_layout(const std::string& engine) {
  if (is_llama_cpp_family(engine)) return KvLayout::llama_cpp;
  if (is_paged_server(engine)) return KvLayout::paged;
  if (engine == "mlx") return KvLayout::mlx;
  return KvLayout::contiguous;
}

// mlx-lm and transformers: weights, the cache, and one chunk's activations (the FFN live set of
// a 512-token prefill chunk in f32, as llama.cpp's with flash attention); one share per device.
EngineTotals plain_totals(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                          const MemoryRequest& request, int64_t context) {
  EngineTotals t;
  t.kv = kv_cache_bytes(model, request.kv_type, engine_kv_request(request, context));
  int64_t live = ffn_live_elements(model);
  int64_t devices = std::max<int64_t>(1, request.devices);
  t.compute = request.engine.ubatch_tokens * 4 * live * devices;
  DeviceMemory share;
  share.weights_bytes = weights.total_bytes / devices;
  share.kv_cache_bytes = t.kv.total_bytes / devices;
  share.compute_bytes = t.compute / devices;
  share.total_bytes = share.weights_bytes + share.kv_cache_bytes + share.compute_bytes;
  share.usable_bytes = usable_memory_bytes(hardware, request.engine);
  share.layers = model.n_layers;
  t.devices.assign(static_cast<std::size_t>(devices), share);
  finish_totals(t, false);
  return t;
}

// Context tokens per step of the engine's cache: llama.cpp pads each stream to 256 cells,
// vLLM and SGLang allocate 16-token pages, mlx-lm grows in 256-token steps.
int64_t context_step(const std::string& engine) {
  if (is_llama_cpp_family(engine) || engine == "mlx") return 256;
  return is_paged_server(engine) ? kPageTokens : 1;
}

struct Engine {
  const ModelSpec& model;
  const WeightPlan& weights;
  const Hardware& hardware;
  const MemoryRequest& request;
  // One set of llama.cpp inputs for every probe: what they derive from the model once holds.
  LlamaCppInputs llama_cpp{model, weights, hardware, request};

  // Memory at `context` with the placement the user's flags give (no --fit).
  EngineTotals at(int64_t context) const {
    const std::string& engine = request.engine.engine;
    if (is_llama_cpp_family(engine)) return llama_cpp_totals(llama_cpp, context);
    if (is_paged_server(engine)) return server_totals(model, weights, hardware, request, context);
    return plain_totals(model, weights, hardware, request, context);
  }

  // Largest per-sequence context that fits: totals grow monotonically with context, and only
  // where the cache grows a step; the worst ratio is piecewise linear across steps, so
  // interpolating where it crosses 1.0 brackets the answer in a few probes, with bisection
  // when interpolation stalls. Where the ratio is linear (one device, no step in between) the
  // interpolated step is the answer, so its neighbour is probed next and closes the bracket
  // (a rank of the catalog on an RTX 4090 at 4,096 tokens: 463 -> 431 probes, issue #22).
  // Invariant: at(low_step) fits (or low_step = 0), at(high_step) does not.
  int64_t largest_context() const {
    int64_t high = model.max_context_tokens;
    EngineTotals top = at(high);
    if (top.fits) return high;
    int64_t step = context_step(request.engine.engine);
    int64_t low_step = 0;
    int64_t high_step = (high + step - 1) / step;
    double low_ratio = at(0).worst_ratio;
    double high_ratio = top.worst_ratio;
    int64_t probes = 0;
    int64_t neighbour = -1;  // the step next to the last interpolated one, probed next
    while (high_step - low_step > 1) {
      int64_t guess = low_step + (high_step - low_step) / 2;
      bool interpolated = false;
      if (neighbour > low_step && neighbour < high_step) {
        guess = neighbour;
      } else if (probes++ % 2 == 0 && high_ratio > low_ratio) {
        double fraction = (1.0 - low_ratio) / (high_ratio - low_ratio);
        guess = low_step + static_cast<int64_t>(fraction * static_cast<double>(high_step - low_step));
        guess = std::min(std::max(guess, low_step + 1), high_step - 1);
        interpolated = true;
      }
      EngineTotals probe = at(guess * step);
      neighbour = interpolated ? guess + (probe.fits ? 1 : -1) : -1;
      if (probe.fits) {
        low_step = guess;
        low_ratio = probe.worst_ratio;
      } else {
        high_step = guess;
        high_ratio = probe.worst_ratio;
      }
    }
    return low_step * step;
  }
};

std::string kv_formula(const MemoryRequest& request, bool compressed) {
  const std::string& engine = request.engine.engine;
  const Language lang = request.lang;
  std::string bytes = "bytes(" + request.kv_type.name + ")";
  if (compressed && engine == "vllm") {
    return say(lang,
               "per rank, in blocks of the largest cache group's pages (fp8_ds_mla rows of 584 B): each request "
               "ceil(tokens / 256) latent blocks + 26 of its windows and compressor states, plus the blocks the "
               "tokens in flight (max_num_batched_tokens x (pipeline stages + 1)) take in those groups",
               "por rango, en bloques del mayor grupo de páginas de la caché (filas fp8_ds_mla de 584 B): cada "
               "petición ceil(tokens / 256) bloques latentes + 26 de sus ventanas y estados de compresión, más los "
               "bloques que ocupan en esos grupos los tokens en curso (max_num_batched_tokens x (etapas + 1))");
  }
  if (compressed && engine == "sglang") {
    return say(lang,
               "per rank: tokens x SGLang's bytes per full token (compressed rows, indexer keys, a window pool of "
               "0.1 tokens per layer and the compressors' state rings)",
               "por rango: tokens x los bytes por token completo de SGLang (filas comprimidas, claves del indexador, "
               "un pool de ventana de 0,1 tokens por capa y los anillos de estado de compresión)");
  }
  if (is_llama_cpp_family(engine)) {
    return say(lang,
               "per layer and stream: pad256(cells) x n_kv_heads x (head_dim_k + head_dim_v) x " + bytes +
                   "; sliding layers pad256(window x (unified ? slots : 1) + ubatch) cells; MLA the K-only "
                   "latent (kv_lora_rank + rope dims); DSA adds index_head_dim per token; recurrent layers "
                   "an f32 state per slot",
               "por capa y flujo: pad256(celdas) x n_kv_heads x (head_dim_k + head_dim_v) x " + bytes +
                   "; capas de ventana deslizante pad256(ventana x (unified ? slots : 1) + ubatch) celdas; MLA el "
                   "latente solo K (kv_lora_rank + dims rope); DSA suma index_head_dim por token; capas recurrentes "
                   "un estado f32 por slot");
  }
  if (is_paged_server(engine)) {
    const bool sglang = engine == "sglang";
    return say(lang,
               "per rank: 16-token pages x KV heads / TP x (head_dim_k + head_dim_v) x " + bytes +
                   "; MLA the whole latent on every rank; sliding layers their window" +
                   (sglang ? "; recurrent layers a state pool of 0.9 / 1.9 of what the weights leave" : ""),
               "por rango: páginas de 16 tokens x cabezas KV / TP x (head_dim_k + head_dim_v) x " + bytes +
                   "; MLA el latente entero en cada rango; capas de ventana deslizante su ventana" +
                   (sglang ? "; capas recurrentes un pool de estados de 0,9 / 1,9 de lo que dejan los pesos" : ""));
  }
  return say(lang,
             "per layer: tokens (mlx-lm: 256-token steps) x n_kv_heads x (head_dim_k + head_dim_v) x " + bytes +
                 "; sliding layers their window",
             "por capa: tokens (mlx-lm: pasos de 256 tokens) x n_kv_heads x (head_dim_k + head_dim_v) x " + bytes +
                 "; capas de ventana deslizante su ventana");
}

// The compute buffers' formula of the engine.
std::string compute_formula(const MemoryRequest& request, bool llama) {
  const Language lang = request.lang;
  const std::string& engine = request.engine.engine;
  if (llama) {
    return say(lang,
               "n_ubatch x 4 x max(4 x n_ff, 2 x n_expert_used x (n_embd + n_ff_exp)) (+ KQ scores without flash "
               "attention, DSA indexer buffers, weights copied from RAM for batches)",
               "n_ubatch x 4 x max(4 x n_ff, 2 x n_expert_used x (n_embd + n_ff_exp)) (+ puntuaciones KQ sin flash "
               "attention, búferes del indexador DSA, pesos copiados desde la RAM para los lotes)");
  }
  if (engine == "vllm") {
    return say(lang,
               "max_num_batched_tokens x (6 x ffn / TP + 6 x hidden) bytes; on the last pipeline stage + sampler "
               "(min(max_num_seqs, tokens) x vocab x 18)",
               "max_num_batched_tokens x (6 x ffn / TP + 6 x hidden) bytes; en la última etapa del pipeline + "
               "muestreador (min(max_num_seqs, tokens) x vocab x 18)");
  }
  if (engine == "sglang") return say(lang, "(1 - mem_fraction_static) x free memory", "(1 - mem_fraction_static) x memoria libre");
  return "512 x 4 x max(4 x n_ff, 2 x n_expert_used x (n_embd + n_ff_exp))";
}

// What the engine may use of the device's memory.
std::string usable_formula(const MemoryRequest& request, const Hardware& hardware, bool llama, bool per_device) {
  const Language lang = request.lang;
  const std::string& engine = request.engine.engine;
  if (engine == "vllm") {
    return say(lang, "gpu_memory_utilization x (memory - driver reserve)",
               "gpu_memory_utilization x (memoria - reserva del driver)");
  }
  if (engine == "sglang") return say(lang, "memory - driver reserve", "memoria - reserva del driver");
  if (llama && per_device && hardware.kind == "discrete" && request.engine.fit) {
    return say(lang, "memory - reserve - --fit-target, per device", "memoria - reserva - --fit-target, por dispositivo");
  }
  if (hardware.kind == "discrete") return say(lang, "memory - reserve per device", "memoria - reserva por dispositivo");
  return say(lang, "unified memory x GPU wired-limit fraction", "memoria unificada x fracción del límite fijado para la GPU");
}

// The request with Ollama's automatic batch for `context` (ollama_batch.cpp), when it applies.
std::optional<MemoryRequest> with_ollama_batch(const ModelSpec& model, const WeightPlan& weights,
                                               const Hardware& hardware, const MemoryRequest& request,
                                               int64_t context) {
  if (!request.engine.ubatch_auto) return std::nullopt;
  MemoryRequest batched = request;
  batched.engine.ubatch_tokens = ollama_generation_batch(model, weights, hardware, request, context);
  return batched;
}

// What llama-server runs with. Ollama always passes -c (llm/llama_server.go startLlamaServer,
// v0.30 to v0.34), so --fit never shrinks its context and moves layers instead; when its
// automatic default context still fails to load, the scheduler retries once a tier lower
// (server/sched.go nextLowerAutoNumCtx: above 32,768 to 32,768, above 4,096 to 4,096), with the
// automatic batch of the new context (reduceAutoNumCtxForLoadOOM).
LlamaCppRun llama_server_run(const LlamaCppInputs& in, int64_t context) {
  const MemoryRequest& request = in.request;
  if (request.engine.engine != "ollama") return llama_cpp_run(in, context, request.context_auto);
  LlamaCppRun run = llama_cpp_run(in, context, false);
  if (run.totals.fits || !request.context_auto || context <= 4096) return run;
  const int64_t lower = context > 32768 ? 32768 : 4096;
  std::optional<MemoryRequest> retry = with_ollama_batch(in.model, in.weights, in.hardware, request, lower);
  if (!retry) return llama_cpp_run(in, lower, false);
  return llama_cpp_run(LlamaCppInputs(in.model, in.weights, in.hardware, *retry), lower, false);
}

}  // namespace

int64_t ffn_live_elements(const ModelSpec& model) {
  int64_t live = 0;
  for (const LayerSpec& layer : model.layers) {
    const MlpGeometry& m = layer.mlp;
    live = std::max(live, 4 * std::max(m.intermediate, m.shared_intermediate));
    if (m.moe) live = std::max(live, 2 * m.n_experts_active * (model.hidden_size + m.expert_intermediate));
  }
  return live;
}

void finish_totals(EngineTotals& t, bool host_counts) {
  t.worst_ratio = 0;
  for (const DeviceMemory& device : t.devices) {
    t.worst_ratio = std::max(t.worst_ratio, static_cast<double>(device.total_bytes) /
                                                static_cast<double>(std::max<int64_t>(1, device.usable_bytes)));
  }
  if (host_counts && t.host.total_bytes > 0) {
    t.worst_ratio = std::max(t.worst_ratio, static_cast<double>(t.host.total_bytes) /
                                                static_cast<double>(std::max<int64_t>(1, t.host.usable_bytes)));
  }
  t.fits = t.worst_ratio <= 1.0;
}

KvRequest engine_kv_request(const MemoryRequest& request, int64_t context_tokens) {
  KvRequest kv;
  kv.context_tokens = context_tokens;
  kv.sequences = request.sequences;
  kv.ubatch_tokens = request.engine.ubatch_tokens;
  kv.layout = engine_layout(request.engine.engine);
  kv.unified = request.engine.kv_unified;
  // llama.cpp drafting keeps one recurrent state per drafted token to roll back to
  // (llama-memory-recurrent rs_seq): Qwen3.8-27B with 2 MTP drafts holds 3 states, 448.88 MiB.
  if (is_llama_cpp_family(request.engine.engine) && request.engine.mtp) {
    kv.state_copies = 1 + request.engine.mtp_draft_tokens;
  }
  if (kv.layout == KvLayout::paged) {
    kv.context_tokens = (context_tokens + kPageTokens - 1) / kPageTokens * kPageTokens;
  }
  return kv;
}

int64_t device_memory_bytes(const Hardware& hardware, const EngineSettings& engine) {
  if (hardware.kind != "discrete" && engine.unified_memory_fraction > 0) {
    return static_cast<int64_t>(engine.unified_memory_fraction * static_cast<double>(hardware.memory_bytes));
  }
  // The total the driver reports (cudaMemGetInfo, torch.cuda.mem_get_info), where a device's record
  // has it (an A40 or L40S with ECC on: 44.42 GiB of 48). vLLM sizes its budget from it, the CUDA
  // context inside (vLLM counts it as non-torch memory); on a discrete GPU the other engines have it
  // less their context (the reserve, which below also stands in for the driver's share of a nominal
  // capacity): SGLang's static share is a fraction of the memory free before the weights load
  // ("Load weight begin. avail mem": 78.47 of an H100's 79.18 GiB, 23.08 of a 4090's 23.64 in the
  // logs of tests/data/engine_logs.json).
  if (hardware.driver_total_bytes > 0) {
    if (engine.engine == "vllm") return hardware.driver_total_bytes;
    if (hardware.kind == "discrete") return hardware.driver_total_bytes - engine.reserved_bytes;
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

int64_t usable_memory_bytes(const Hardware& hardware, const EngineSettings& engine) {
  int64_t device = device_memory_bytes(hardware, engine);
  if (engine.engine == "vllm") {
    return static_cast<int64_t>(std::floor(engine.gpu_memory_utilization * static_cast<double>(device)));
  }
  // --fit leaves its margin free on every GPU (discrete or Apple's), not on a CPU.
  bool gpu = hardware.kind == "discrete" || hardware.backend == "metal";
  if (is_llama_cpp_family(engine.engine) && engine.fit && gpu) {
    return std::max<int64_t>(0, device - engine.fit_target_bytes);
  }
  return device;
}

int64_t largest_fitting_context(const ModelSpec& model, const WeightPlan& weights,
                                const Hardware& hardware, const MemoryRequest& asked) {
  std::optional<MemoryRequest> batched = with_ollama_batch(model, weights, hardware, asked, asked.context_tokens);
  return Engine{model, weights, hardware, batched ? *batched : asked}.largest_context();
}

MemoryEstimate estimate_memory(const ModelSpec& model, const WeightPlan& weights,
                               const Hardware& hardware, const MemoryRequest& asked) {
  std::optional<MemoryRequest> batched = with_ollama_batch(model, weights, hardware, asked, asked.context_tokens);
  const MemoryRequest& request = batched ? *batched : asked;
  MemoryEstimate out;
  const EngineSettings& engine = request.engine;
  const Engine memory{model, weights, hardware, request};
  bool llama = is_llama_cpp_family(engine.engine);

  int64_t largest = request.find_max_context || (request.context_auto && !llama) ? memory.largest_context() : -1;
  int64_t context = request.context_tokens;
  // vLLM --max-model-len auto (PR #29431): the native window if one request fits, else the
  // largest that does; engines without such a rule take the native window.
  if (request.context_auto && !llama && largest > 0) context = std::min(context, largest);

  EngineTotals t;
  if (llama) {
    LlamaCppRun run = llama_server_run(memory.llama_cpp, context);
    t = std::move(run.totals);
    out.fit = std::move(run.fit);
    out.ubatch_tokens = run.ubatch_tokens;
  } else {
    t = memory.at(context);
    out.fit.context_tokens = context;
  }
  out.max_context_tokens = request.find_max_context ? largest : -1;

  // With MTP drafting llama.cpp, vLLM and SGLang load the MTP layers' weights beside the model's.
  out.weights_bytes = weights.total_bytes + (llama && engine.mtp && model.mtp_layers > 0 ? weights.mtp_bytes : 0) +
                      server_drafter_bytes(model, weights, request);
  out.kv = t.kv;
  out.kv_cache_bytes = t.host.kv_cache_bytes;
  for (const DeviceMemory& device : t.devices) out.kv_cache_bytes += device.kv_cache_bytes;
  out.compute_buffer_bytes = t.compute;
  out.mtp_bytes = t.mtp;
  out.projector_bytes = t.projector;
  out.overhead_bytes = t.compute + t.runtime + t.mtp;
  out.per_device = t.devices;
  for (std::size_t d = 0; d < out.per_device.size(); ++d) {
    bool listed = d < request.device_hardware.size();
    out.per_device[d].device = listed ? request.device_hardware[d].id : hardware.id;
    out.per_device[d].node = d < request.device_nodes.size() ? request.device_nodes[d] : 0;
  }
  out.host = t.host;
  out.offloaded_read_bytes_per_token = t.offloaded_read_bytes_per_token;
  out.offloaded = t.offloaded;
  out.op_offload_dense_bytes = t.op_offload_dense_bytes;
  out.op_offload_expert_bytes = t.op_offload_expert_bytes;
  // total / usable describe the device memory; what sits in system RAM is reported as host.
  out.total_bytes = 0;
  out.usable_bytes = 0;
  for (const DeviceMemory& device : t.devices) {
    out.total_bytes += device.total_bytes;
    out.usable_bytes += device.usable_bytes;
  }
  out.headroom_bytes = out.usable_bytes - out.total_bytes;
  // The verdict is the tightest place: any device, or the system RAM holding offloaded parts.
  out.utilization = t.worst_ratio;
  out.verdict = !t.fits                                      ? "oom"
                : t.offloaded                                ? "offload"
                : t.worst_ratio <= engine.comfortable_fraction ? "comfortable"
                                                             : "tight";

  if (is_paged_server(engine.engine)) {
    // The pool: whatever the budget leaves; vLLM's "GPU KV cache size: N tokens".
    ServerPool pool = server_pool(model, weights, hardware, request, context);
    out.kv_pool_bytes = pool.total_pool_bytes;
    if (pool.request_bytes > 0) {
      // vLLM, sliding layers: "Maximum concurrency" = pool / what one request holds, and "GPU
      // KV cache size" = that concurrency x the context.
      double requests = static_cast<double>(pool.pool_bytes) / static_cast<double>(pool.request_bytes);
      out.kv_capacity_tokens = static_cast<int64_t>(requests * static_cast<double>(context));
      out.max_concurrent_sequences = requests * static_cast<double>(pool.replicas);
    } else if (pool.slab_bytes > 0 && pool.blocks_per_request > 0) {
      // vLLM, DeepSeek V4: whole blocks, each decoding request holding blocks_per_request.
      double requests = static_cast<double>(pool.pool_bytes / pool.slab_bytes) /
                        static_cast<double>(pool.blocks_per_request);
      out.kv_capacity_tokens = static_cast<int64_t>(requests * static_cast<double>(context));
      out.max_concurrent_sequences = requests * static_cast<double>(pool.replicas);
    } else if (pool.bytes_per_token > 0) {
      // Per replica, as each engine core logs it; every data-parallel replica holds as many.
      out.kv_capacity_tokens = pool.pool_bytes / pool.bytes_per_token;
      out.max_concurrent_sequences = static_cast<double>(out.kv_capacity_tokens * pool.replicas) /
                                     static_cast<double>(std::max<int64_t>(1, context));
    }
    if (pool.max_requests > 0) {
      out.max_concurrent_sequences =
          std::min(out.max_concurrent_sequences, static_cast<double>(pool.max_requests * pool.replicas));
    }
  }

  return out;
}

std::vector<MathLine> memory_math(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                                  const MemoryRequest& request, const MemoryEstimate& estimate) {
  const bool llama = is_llama_cpp_family(request.engine.engine);
  std::vector<MathLine> lines = {
      {"weights",
       say(request.lang, "sum over tensors of elements / block_elements x block_bytes (" + weights.format + ")",
           "suma sobre los tensores de elementos / block_elements x block_bytes (" + weights.format + ")"),
       estimate.weights_bytes},
      {"kv_cache", kv_formula(request, has_compressed_attention(model, 0, model.n_layers)), estimate.kv_cache_bytes},
      {"compute_buffer", compute_formula(request, llama), estimate.compute_buffer_bytes}};
  if (estimate.projector_bytes > 0) {
    lines.push_back({"projector",
                     say(request.lang,
                         "mmproj (-hf loads it; --no-mmproj does not): tower and projector tensors x 2 B (vectors 4 B) "
                         "+ warm-up buffer: (image side / patch)^2 patches x (MLP + 3 x width) x 4 B" +
                             std::string(request.engine.flash_attention ? "" : " + heads x patches^2 x 4 B"),
                         "mmproj (-hf lo carga; --no-mmproj no): tensores de la torre y el proyector x 2 B (vectores "
                         "4 B) + búfer de calentamiento: (lado de la imagen / parche)^2 parches x (MLP + 3 x ancho) x 4 B" +
                             std::string(request.engine.flash_attention ? "" : " + cabezas x parches^2 x 4 B")),
                     estimate.projector_bytes});
  }
  lines.push_back({"usable", usable_formula(request, hardware, llama, !estimate.per_device.empty()), estimate.usable_bytes});
  return lines;
}

std::string memory_text(const MemoryEstimate& m, const std::vector<MathLine>& lines) {
  // A device's memory; the host's adds its checkpoints and prompt cache.
  auto append_device = [](std::string& out, const DeviceMemory& d, bool host) {
    JsonObjectText o(out);
    if (host) o.integer("checkpoint_bytes", d.checkpoint_bytes);
    o.integer("compute_bytes", d.compute_bytes);
    o.string("device", d.device);
    o.integer("draft_bytes", d.draft_bytes);
    o.integer("expert_layers", d.expert_layers);
    o.integer("kv_cache_bytes", d.kv_cache_bytes);
    o.integer("layers", d.layers);
    if (host) o.integer("lazy_weights_bytes", d.lazy_weights_bytes);
    o.integer("node", d.node);
    if (d.projector_bytes > 0) o.integer("projector_bytes", d.projector_bytes);
    if (host) o.integer("prompt_cache_limit_bytes", d.prompt_cache_limit_bytes);
    o.integer("total_bytes", d.total_bytes);
    o.integer("usable_bytes", d.usable_bytes);
    o.integer("weights_bytes", d.weights_bytes);
  };
  const bool pool = m.kv_capacity_tokens >= 0;  // vLLM / SGLang
  std::string out;
  {
    JsonObjectText o(out);
    o.integer("compute_buffer_bytes", m.compute_buffer_bytes);
    if (!m.fit.status.empty()) {
      JsonObjectText fit(o.key("fit"));
      fit.integer("auto_slots", m.fit.auto_slots);
      fit.integer("cache_tokens", m.fit.cache_tokens);
      fit.integer("context_tokens", m.fit.context_tokens);
      fit.integer("gpu_layers", m.fit.gpu_layers);
      fit.integers("host_expert_layers", m.fit.host_expert_layers);
      fit.integers("layers_per_device", m.fit.layers_per_device);
      fit.integer("slots", m.fit.slots);
      fit.string("status", m.fit.status);
      fit.string("tensor_overrides", m.fit.tensor_overrides);
    }
    o.integer("headroom_bytes", m.headroom_bytes);
    append_device(o.key("host"), m.host, true);
    {
      JsonObjectText kv(o.key("kv_cache"));
      kv.integer("bytes_per_token", m.kv.bytes_per_token);
      kv.integer("cells", m.kv.cells);
      kv.integer("full_attention_bytes", m.kv.full_attention_bytes);
      kv.integer("indexer_bytes", m.kv.indexer_bytes);
      kv.integer("latent_bytes", m.kv.latent_bytes);
      kv.integer("state_bytes", m.kv.state_bytes);
      kv.integer("windowed_bytes", m.kv.windowed_bytes);
    }
    o.integer("kv_cache_bytes", m.kv_cache_bytes);
    if (pool) {
      o.integer("kv_capacity_tokens", m.kv_capacity_tokens);
      o.integer("kv_pool_bytes", m.kv_pool_bytes);
    }
    {
      JsonListText math(o.key("math"));
      for (const MathLine& line : lines) {
        JsonObjectText item(math.item());
        item.integer("bytes", line.bytes);
        item.string("formula", line.formula);
        item.string("name", line.name);
      }
    }
    if (pool) o.number("max_concurrent_sequences", m.max_concurrent_sequences);
    o.integer("max_context_tokens", m.max_context_tokens);
    if (m.mtp_bytes > 0) o.integer("mtp_bytes", m.mtp_bytes);
    o.integer("offloaded_read_bytes_per_token", m.offloaded_read_bytes_per_token);
    o.integer("overhead_bytes", m.overhead_bytes);
    {
      JsonListText devices(o.key("per_device"));
      for (const DeviceMemory& device : m.per_device) append_device(devices.item(), device, false);
    }
    if (m.projector_bytes > 0) o.integer("projector_bytes", m.projector_bytes);
    o.integer("total_bytes", m.total_bytes);
    if (m.ubatch_tokens > 0) o.integer("ubatch_tokens", m.ubatch_tokens);
    o.integer("usable_bytes", m.usable_bytes);
    o.number("utilization", m.utilization);
    o.string("verdict", m.verdict);
    o.integer("weights_bytes", m.weights_bytes);
  }
  return out;
}

}  // namespace llmcalc
