// vLLM V1 and SGLang memory.
// vLLM (v0.21 and later; vllm/v1/worker/gpu_worker.py determine_available_memory): the KV pool
// is gpu_memory_utilization x the total the driver reports, less the weights, the activation
// peak of a profiling run over max_num_batched_tokens tokens (with its sampler logits for
// max_num_seqs requests, bf16 plus an f32 copy), the growth of non-torch memory and, since v0.21
// (PR #38284), the estimated CUDA-graph memory; the default utilization rose to 0.92 there.
// SGLang: mem_fraction_static (its default: sglang_mem_fraction.cpp) of the free memory before
// the weights load covers weights and KV pool; the rest holds activations and CUDA graphs. Sliding
// layers get 0.8 x the full layers' tokens (PR #22389, --swa-full-tokens-ratio).
// Both: one KV page per 16 tokens; tensor parallel splits KV heads across ranks, but an MLA
// latent (one head) is stored whole on every rank, as is a KV head shared by several ranks.
// Several devices (ParallelPlan): pipeline stages hold consecutive layers, split as vLLM's
// get_pp_indices does (vllm/distributed/utils.py: equal shares, the remainder to the stages
// before the last, which holds the norm and LM head; the first holds the embedding); data-parallel
// attention replicas each hold their own sequences' cache; routed experts are spread over
// tensor x data ranks with expert parallel (and always in SGLang, whose MoE runs over its whole
// --tp group). The KV pool is sized on every rank and the engine keeps the smallest
// (vLLM: the minimum of the workers' block counts), so the smallest device bounds a mixed set.
#include "server_memory.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "compressed_kv_pool.h"
#include "mxfp4_expert_layout.h"

namespace llmcalc {
namespace {

constexpr int64_t kPageTokens = 16;
// Non-torch growth from the worker's start to the end of profiling on one GPU: 0.24-0.27 GiB in
// the 40 one-GPU vLLM 0.19 logs of jgchn/llm-d-planner@d3121e05 (accuracy/results/v0.19.0/logs,
// "non-torch forward increase memory"), 15.26 - 15.0 GiB in a v0.31 log ("consumed memory
// (weights + non-torch)" less "Model loading took"; tests/data/engine_logs.json).
constexpr int64_t kNonTorchBytes = 256 * kMiB;
constexpr int64_t kCudaGraphBytes = 400 * kMiB;  // "Estimated CUDA graph memory: 0.14-0.55 GiB total"
constexpr double kSwaFullTokensRatio = 0.8;      // SGLang --swa-full-tokens-ratio default
constexpr double kMambaFullMemoryRatio = 0.9;    // SGLang --mamba-full-memory-ratio default
// SGLang holds running requests to its recurrent-state slots / 5: 3 per request
// (MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO) and 2 for the extra buffer with the overlap
// schedule (no_buffer needs --disable-overlap-schedule; arg_groups/mamba_hook.py).
constexpr int64_t kStateSlotsPerRequest = 3 + 2;

ParallelPlan plan_of(const MemoryRequest& request) { return covering_plan(request.parallel, request.devices); }

int64_t tensor_parallel(const MemoryRequest& request) { return plan_of(request).tensor; }

// vLLM drafting with the checkpoint's MTP layers (request mtp: --speculative-config method "mtp"):
// the drafter's layers load beside the model, its embedding and LM head shared with the model's
// ("Detected MTP model. Sharing target model embedding weights with the draft model";
// vllm/v1/spec_decode/llm_base_proposer.py), and each of its decoder layers, a full-attention layer,
// has pages in the same KV pool (the Qwen3.6-35B-A3B log of tests/data/engine_logs.json, 10 + 1
// attention layers beside 30 linear ones: "Add 3 padding layers").
bool vllm_drafts_mtp(const ModelSpec& model, const MemoryRequest& request) {
  return request.engine.engine == "vllm" && request.engine.mtp && model.mtp_layers > 0;
}

// SGLang drafting with the checkpoint's MTP layers (request mtp: --speculative-algorithm EAGLE,
// which NEXTN becomes; server_args.py _handle_speculative_decoding). Its draft model builds its own
// token embedding and LM head (VocabParallelEmbedding and ParallelLMHead, 16-bit, split over the
// tensor ranks: models/qwen3_5_mtp.py, deepseek_nextn.py) and swaps in the model's only after the
// target's pool is sized (set_embed_and_head, called from alloc_memory_pool after
// init_target_memory_pool), so at sizing the draft holds both beside its own layers: "Load weight
// end. type=Qwen3_5ForCausalLMMTP ... mem usage=5.53 GB" for a 27B (open PRs #35567, #35996,
// #38147 would allocate none). The draft's KV pool holds as many tokens as the model's, one
// full-attention layer per MTP layer; the pool's cell counts the draft's layers only where SGLang
// sets the draft path itself (DeepSeek V3 and V3.2, GLM-4.5 and later MoE: server_args.py
// auto draft path, pool_configurator.py "scale cell_size to account for draft model KV cache");
// elsewhere (Qwen3.5 and later, PR #35566 open) it comes out of the share left to activations.
// Running requests default to 48.
bool sglang_drafts_mtp(const ModelSpec& model, const MemoryRequest& request) {
  return request.engine.engine == "sglang" && request.engine.mtp && model.mtp_layers > 0;
}

constexpr int64_t kSglangDraftRequests = 48;

bool sglang_budgets_draft(const ModelSpec& model) {
  const std::string& type = model.model_type;
  return type == "deepseek_v3" || type == "deepseek_v32" || type == "glm4_moe" || type == "glm4_moe_lite";
}

// The draft's own embedding and head while the pool is sized (one when tied), all ranks together.
int64_t sglang_draft_vocab_bytes(const ModelSpec& model, const MemoryRequest& request) {
  if (!sglang_drafts_mtp(model, request)) return 0;
  return (model.tied_embeddings ? 1 : 2) * model.vocab_size * model.hidden_size * 2;
}

// --max-num-batched-tokens, or vllm serve's default for the GPU.
int64_t batched_tokens(const Hardware& hardware, const MemoryRequest& request) {
  return request.engine.max_num_batched_tokens > 0 ? request.engine.max_num_batched_tokens
                                                   : vllm_default_batched_tokens(hardware);
}

// [first, last) layers of pipeline stage `stage` (vllm/distributed/utils.py get_pp_indices).
std::pair<int64_t, int64_t> stage_layers(int64_t layers, int64_t stage, int64_t stages) {
  std::vector<int64_t> sizes(static_cast<std::size_t>(stages), layers / stages);
  for (int64_t i = 2; i < layers % stages + 2; ++i) ++sizes[static_cast<std::size_t>(stages - i)];
  int64_t first = 0;
  for (int64_t k = 0; k < stage; ++k) first += sizes[static_cast<std::size_t>(k)];
  return {first, first + sizes[static_cast<std::size_t>(stage)]};
}

// The usable memory of the smallest device: every rank budgets its own, the engine keeps the
// smallest pool.
int64_t smallest_usable(const Hardware& hardware, const MemoryRequest& request) {
  int64_t usable = usable_memory_bytes(hardware, request.engine);
  for (const Hardware& device : request.device_hardware) {
    usable = std::min(usable, usable_memory_bytes(device, request.engine));
  }
  return usable;
}

// Weight bytes one rank of pipeline stage `stage` holds on `device`. vLLM and SGLang store an
// MXFP4 checkpoint's experts as their MoE kernel needs them (mxfp4_expert_layout.h).
int64_t rank_weights(const ModelSpec& model, const WeightPlan& weights, const Hardware& device,
                     const MemoryRequest& request, int64_t stage) {
  ParallelPlan plan = plan_of(request);
  int64_t shards = expert_shards(plan, request.engine.engine);
  bool kernel_layout = weights.format == "MXFP4";
  auto [first, last] = stage_layers(model.n_layers, stage, plan.pipeline);
  int64_t dense = 0;
  int64_t experts = 0;
  int64_t layered = 0;
  for (std::size_t i = 0; i < weights.layer_dense_bytes.size(); ++i) {
    layered += weights.layer_dense_bytes[i] + weights.layer_expert_bytes[i];
    if (static_cast<int64_t>(i) < first || static_cast<int64_t>(i) >= last) continue;
    dense += weights.layer_dense_bytes[i];
    experts += kernel_layout && i < model.layers.size()
                   ? mxfp4_rank_expert_bytes(request.engine.engine, model.layers[i], model.hidden_size,
                                             weights.layer_expert_bytes[i], device, shards, plan.expert)
                   : weights.layer_expert_bytes[i] / shards;
  }
  // Embedding and what is not in a layer (encoders, norms) on the first stage, the head on the last,
  // with the MTP drafter (vllm_drafts_mtp, sglang_drafts_mtp).
  int64_t rest = weights.total_bytes - layered - weights.output_layer_bytes;
  if (stage == 0) dense += rest;
  if (stage == plan.pipeline - 1) dense += weights.output_layer_bytes + server_drafter_bytes(model, weights, request);
  return dense / plan.tensor + experts;
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

// One layer's KV geometry on one rank: KV heads split across ranks (at least one each).
AttentionGeometry rank_share(const AttentionGeometry& a, int64_t ranks) {
  AttentionGeometry share = a;
  if (a.kind != AttentionKind::mla && a.n_kv_heads > 0) {
    share.n_kv_heads = std::max<int64_t>(1, (a.n_kv_heads + ranks - 1) / ranks);
  }
  return share;
}

struct PoolShape {
  int64_t per_token = 0;       // bytes per full-context token, one rank
  int64_t window = 0;          // sliding layers, one rank, all sequences (vLLM DeepSeek V4: the chunk in flight)
  int64_t state = 0;           // recurrent state, one rank, all sequences
  int64_t state_per_sequence = 0;  // recurrent state, one rank, one sequence
  int64_t swa_per_token = 0;   // sliding layers' bytes per token (SGLang's SWA pool)
  // vLLM DeepSeek V4: the pool's block, the blocks a decoding request holds, and what the
  // request's sequences hold in all.
  int64_t slab = 0;
  int64_t blocks_per_request = 0;
  int64_t decode_bytes = 0;
  // vLLM with sliding layers: what one request at the context holds from the shared block pool,
  // its full layers' pages for the whole context and its sliding layers' pages for the window plus
  // a batch of prompt tokens (kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes;
  // kv_cache_utils.py get_max_concurrency_for_kv_cache_config sums the groups' pages).
  int64_t request_bytes = 0;
  // vLLM, recurrent layers beside full attention: request_bytes holds the request's states too.
  bool states_in_request = false;
  int64_t draft_per_token = 0;  // SGLang's draft pool (sglang_drafts_mtp), one rank of the last stage
};

// vLLM with recurrent (Mamba, gated DeltaNet) layers beside full-attention ones: one block pool
// for both, in groups of g layers whose pages are the same size (vLLM's hybrid allocator, as read
// for v0.27-v0.31: kv_cache_utils.py get_max_concurrency_for_kv_cache_config and the uniform-page
// grouping, platforms/interface.py _align_hybrid_block_size, kv_cache_interface.py MambaSpec):
// - a recurrent layer's page is its state for one sequence, the conv window in the model's dtype
//   (16-bit) and the SSM state in the config's (ModelSpec::ssm_state_dtype_bytes);
// - the attention block grows to the smallest multiple of 16 tokens whose page (block x one
//   layer's KV per token) holds that state, and the state page is padded to it;
// - g = the fewer layer count of the two kinds (the larger when it is under 1.5 x the fewer),
//   ceil(n / g) groups of each kind;
// - a request at the context holds ceil(context / block) blocks of each attention group and of
//   each recurrent group 2 (prefix caching's "align" mode, the default since v0.28.0, PR #50991)
//   or 1 (--no-enable-prefix-caching), plus one per speculative token (MambaSpec's
//   num_speculative_blocks), whose drafts also widen the conv window by a row each
//   (mamba_utils.py: conv_kernel - 1 + num_spec); every block is g pages.
// Checked against a v0.27.1 log of Nemotron 3.5 Lightning NVFP4 (tests/core/test_engines.cpp) and,
// with MTP drafting, a v0.22 log of Qwen3.6-35B-A3B ("Setting attention block size to 2128 tokens").
int64_t vllm_hybrid_request_bytes(int64_t attention_layers, int64_t attention_row, int64_t state_layers,
                                  int64_t state_page, int64_t context, bool prefix_caching, int64_t drafts) {
  constexpr int64_t kAlign = 16;  // the CUDA attention kernels' block alignment
  const int64_t block = kAlign * std::max<int64_t>(1, (state_page + kAlign * attention_row - 1) / (kAlign * attention_row));
  const int64_t page = block * attention_row;
  const int64_t fewer = std::min(attention_layers, state_layers);
  const int64_t more = std::max(attention_layers, state_layers);
  const int64_t group = 2 * more < 3 * fewer ? more : fewer;
  const int64_t blocks = (attention_layers + group - 1) / group * ((context + block - 1) / block) +
                         (state_layers + group - 1) / group * ((prefix_caching ? 2 : 1) + drafts);
  return blocks * page * group;
}

// One rank of pipeline stage `stage`: its layers, KV heads split over the tensor ranks, and the
// sequences of its data-parallel replica.
PoolShape pool_shape(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request, int64_t context,
                     int64_t stage) {
  ParallelPlan plan = plan_of(request);
  int64_t pages = (context + kPageTokens - 1) / kPageTokens;
  int64_t prompt_batch = batched_tokens(hardware, request);
  int64_t sliding_request_bytes = 0;
  int64_t ranks = plan.tensor;
  int64_t sequences = (std::max<int64_t>(1, request.sequences) + plan.data - 1) / plan.data;
  auto [first, last] = stage_layers(model.n_layers, stage, plan.pipeline);
  PoolShape shape;
  // vLLM's hybrid pages (vllm_hybrid_request_bytes): full-attention layers, recurrent ones, and
  // the largest of each one's KV per token and state.
  int64_t attention_layers = 0, attention_row = 0, state_layers = 0, state_page = 0;
  bool other_layers = false;
  constexpr int64_t kModelDtypeBytes = 2;  // the conv window, and an SSM state the config names no dtype for
  const bool sglang = request.engine.engine == "sglang";
  // The SSM state's dtype: bf16 when asked; else vLLM's the config's, SGLang's float32
  // (server_args.py mamba_ssm_dtype "float32").
  const int64_t ssm_bytes = request.engine.ssm_state_bf16          ? kModelDtypeBytes
                            : sglang                               ? 4
                            : model.ssm_state_dtype_bytes > 0      ? model.ssm_state_dtype_bytes
                                                                   : kModelDtypeBytes;
  // One token of a layer on this rank: its K and V (or latent) and its indexer's keys, paged.
  const auto paged_row_bytes = [&](const AttentionGeometry& a) {
    return kv_row_bytes(model, a, request.kv_type, KvLayout::paged) + indexer_row_bytes(a, request.kv_type, KvLayout::paged);
  };
  // The last stage also holds the MTP drafter's layers, which attend as the model's last
  // full-attention layer does.
  const int64_t drafts = vllm_drafts_mtp(model, request) ? request.engine.mtp_draft_tokens : 0;
  const AttentionGeometry* drafter = nullptr;
  for (const LayerSpec& layer : model.layers) {
    if (layer.attention.kind == AttentionKind::full || layer.attention.kind == AttentionKind::mla) drafter = &layer.attention;
  }
  const int64_t drafter_layers = stage == plan.pipeline - 1 && drafts > 0 && drafter ? model.mtp_layers : 0;
  for (int64_t i = first; i < last + drafter_layers; ++i) {
    AttentionGeometry a = rank_share(i < last ? model.layers[static_cast<std::size_t>(i)].attention : *drafter, ranks);
    int64_t row = paged_row_bytes(a);
    if (a.state_elements_per_seq > 0) {
      other_layers |= a.kind == AttentionKind::full;  // a layer with both (Falcon-H1)
      ++state_layers;
      state_page = std::max(state_page, (a.conv_state_elements_per_seq + drafts * a.conv_channels + ranks - 1) / ranks * kModelDtypeBytes +
                                            (a.state_elements_per_seq - a.conv_state_elements_per_seq + ranks - 1) / ranks * ssm_bytes);
    } else if (a.kind == AttentionKind::full && row > 0) {
      ++attention_layers;
      attention_row = std::max(attention_row, row);
    } else if (a.kind != AttentionKind::none) {
      other_layers = true;
    }
    switch (a.kind) {
      case AttentionKind::full:
      case AttentionKind::mla: shape.per_token += row; break;
      case AttentionKind::sliding:
      case AttentionKind::chunked:
        shape.window += row * std::min(context, a.window_tokens) * sequences;
        shape.swa_per_token += row;
        sliding_request_bytes +=
            row * kPageTokens *
            ((std::min(a.window_tokens - 1 + prompt_batch, context) + kPageTokens - 1) / kPageTokens + 1);
        break;
      default: break;
    }
    // SGLang's states: the conv window in the model's dtype, the SSM state in ssm_bytes (the
    // "Mamba Cache is allocated" lines' conv_state and ssm_state); vLLM's outside its hybrid pages in f32.
    shape.state_per_sequence += sglang ? (a.conv_state_elements_per_seq * kModelDtypeBytes +
                                          (a.state_elements_per_seq - a.conv_state_elements_per_seq) * ssm_bytes + ranks - 1) /
                                             ranks
                                       : (a.state_elements_per_seq * 4 + ranks - 1) / ranks;
  }
  shape.state = shape.state_per_sequence * sequences;
  if (stage == plan.pipeline - 1 && sglang_drafts_mtp(model, request) && drafter) {
    shape.draft_per_token = model.mtp_layers * paged_row_bytes(rank_share(*drafter, ranks));
  }
  if (request.engine.engine == "vllm" && sliding_request_bytes > 0) {
    shape.request_bytes = shape.per_token * kPageTokens * pages + sliding_request_bytes;
  } else if (request.engine.engine == "vllm" && attention_layers > 0 && state_layers > 0 && !other_layers) {
    shape.request_bytes = vllm_hybrid_request_bytes(attention_layers, attention_row, state_layers, state_page, context,
                                                    request.engine.prefix_caching, drafts);
    shape.states_in_request = true;
  }
  return shape;
}

// vLLM profiles a multimodal model's encoder first (gpu_model_runner.py profile_run): its tower runs
// on as many inputs of the largest size the processor accepts as the encoder budget,
// max(max_num_batched_tokens, one input's tokens), holds ("Encoder cache will be initialized with a
// budget of 16384 tokens, and profiled with 1 image items of the maximum feature size", the Qwen3.5
// and 3.6 logs of tests/data/engine_logs.json). Qwen3-VL towers (Qwen3-VL, Qwen3.5, 3.6, 3.8): an
// image of at most 16,384 tokens (the preprocessors' longest_edge, 16,777,216 pixels, over 32 x 32
// pixels per merged token). The tower's peak is in a block's MLP (models/qwen3_vl.py
// Qwen3_VisionTransformer.forward, Qwen3_VisionMLP; the tower's linears split over the tensor ranks):
// the f32 pixel rows, and in bf16 the position embeddings, the block's input and its norm (tower
// width each), fc1's output and its activation (MLP width / ranks each). Its output stays in the
// encoder cache through the language model's dummy run and the sampler. Off with --language-model-only
// (request mmproj false), which loads no tower either.
constexpr int64_t kQwenVlImageTokens = 16384;

struct EncoderProfile {
  int64_t peak = 0;   // the tower's own run
  int64_t cache = 0;  // its output, held while the language model is profiled
};

EncoderProfile encoder_profile(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request) {
  EncoderProfile profile;
  if (!request.engine.mmproj || model.vision_merge_unit <= 0 || model.vision_width <= 0) return profile;
  const int64_t images = std::max(batched_tokens(hardware, request), kQwenVlImageTokens) / kQwenVlImageTokens;
  const int64_t tokens = images * kQwenVlImageTokens;
  const int64_t patches = tokens * model.vision_merge_unit;
  const int64_t ranks = tensor_parallel(request);
  profile.peak = patches * (4 * model.vision_patch_values + 2 * 3 * model.vision_width + 2 * 2 * model.vision_mlp / ranks);
  profile.cache = tokens * model.vision_embed_width * 2;
  return profile;
}

// The profiling run's torch peak on one rank of a pipeline stage: the encoder's run (first stage),
// or the language model's: bf16 gate/up, activation and residual tensors of max_num_batched_tokens
// tokens, (6 x ffn / tp + 6 x hidden) bytes per token, on every stage (each runs all the tokens
// through its own layers); the last stage alone then runs the sampler (profile_run: "only run
// sampler/pooler on last PP rank") on min(max_num_seqs, tokens) requests (gpu_model_runner.py
// _dummy_sampler_run, which sets top-k and top-p for the worst case): bf16 logits, their f32 copy
// and the top-k/top-p sort's f32 values and int64 indices, 18 bytes per vocabulary entry. (Model
// Runner V2's sampler skips top-k/top-p and vLLM keeps one torch peak rather than a sum; the 2026
// logs in tests/data/engine_logs.json fit the summed 18-byte form better, median 0.35 against 0.69
// GiB, so it stays. With the encoder's run counted, one peak of the two 18-byte phases gives a
// median of 0.21 against 0.30 GiB, closer on five logs and further on four, Qwen3-32B NVFP4 on a
// B200 0.80 -> 2.10 GiB: not conclusive either.)
int64_t activation_peak(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request,
                        int64_t stage) {
  const EngineSettings& engine = request.engine;
  const ParallelPlan plan = plan_of(request);
  int64_t tokens = batched_tokens(hardware, request);
  int64_t seqs = engine.max_num_seqs > 0 ? engine.max_num_seqs : vllm_default_max_seqs(hardware);
  int64_t language = tokens * (6 * max_ffn_width(model) / plan.tensor + 6 * model.hidden_size);
  if (stage == plan.pipeline - 1) language += std::min(seqs, tokens) * model.vocab_size * 18;
  if (stage > 0) return language;
  EncoderProfile encoder = encoder_profile(model, hardware, request);
  return std::max(encoder.peak, language + encoder.cache);
}

// Tokens vLLM's scheduler has in flight: max_num_batched_tokens per batch, and Model Runner V2
// keeps pipeline stages + 1 batches going (max_concurrent_batches).
int64_t vllm_tokens_in_flight(const Hardware& hardware, const MemoryRequest& request) {
  return batched_tokens(hardware, request) * (plan_of(request).pipeline + 1);
}

int64_t compressed_window(const ModelSpec& model, int64_t first) {
  return model.layers[static_cast<std::size_t>(first)].attention.window_tokens;
}

// DeepSeek V4 on one rank of a stage (compressed_kv_pool.h; one latent head, the same on every
// tensor rank). vLLM: blocks of the slab, `sequences` decoding plus the chunk in flight; SGLang:
// its bytes per full token (rounded up), the MTP entry in the window pool on the last stage.
PoolShape compressed_pool_shape(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request,
                                int64_t context, int64_t stage) {
  ParallelPlan plan = plan_of(request);
  auto [first, last] = stage_layers(model.n_layers, stage, plan.pipeline);
  int64_t sequences = (std::max<int64_t>(1, request.sequences) + plan.data - 1) / plan.data;
  PoolShape shape;
  if (request.engine.engine == "sglang") {
    int64_t entries = last - first + (stage == plan.pipeline - 1 ? model.mtp_layers : 0);
    shape.per_token = static_cast<int64_t>(std::ceil(sglang_bytes_per_full_token(model, first, last, entries)));
    return shape;
  }
  VllmCompressedPool pool = vllm_compressed_pool(model, first, last);
  int64_t window = compressed_window(model, first);
  shape.slab = pool.slab_bytes;
  shape.blocks_per_request = vllm_decode_blocks(context, window);
  shape.window = vllm_chunk_blocks(vllm_tokens_in_flight(hardware, request), window) * pool.slab_bytes;
  shape.decode_bytes = shape.blocks_per_request * pool.slab_bytes * sequences;
  return shape;
}

// The pool shape of one rank of a stage, whichever layout its layers need.
PoolShape stage_pool_shape(const ModelSpec& model, const Hardware& hardware, const MemoryRequest& request,
                           int64_t context, int64_t stage) {
  auto [first, last] = stage_layers(model.n_layers, stage, plan_of(request).pipeline);
  return has_compressed_attention(model, first, last) ? compressed_pool_shape(model, hardware, request, context, stage)
                                                      : pool_shape(model, hardware, request, context, stage);
}

// SGLang's static share of one rank (weights and pools): mem_fraction_static of its memory.
int64_t sglang_static_bytes(const EngineSettings& engine, int64_t usable) {
  return static_cast<int64_t>(engine.mem_fraction_static * static_cast<double>(usable));
}

// SGLang with recurrent layers, --max-mamba-cache-size unset (KVCacheConfigurator
// _handle_max_mamba_cache, sgl-project/sglang 2026): the state pool takes mamba_full_memory_ratio
// / (1 + ratio) of what the static share leaves after the weights (`rest`), in whole
// per-request states, and the KV pool the remainder, whatever the sequences asked for; running
// requests are held to the slots / 5 and --max-running-requests (`running`, 0: none). Drafting
// (D = drafts + 1 tokens verified a step, --speculative-eagle-topk 1) adds a verify cache of D
// states per running request plus one, and the budget is solved for both: K slots with
// (K + 1) x state + (min(running, K / 5) + 1) x D x state within it. --max-mamba-cache-size K
// (`slots_given`) takes K + 1 states and the verify cache, whatever the budget. Without the radix
// cache (--disable-radix-cache) a request holds one slot (`ratio` 1, _calculate_mamba_ratio), and
// with --max-running-requests the slots are that many.
struct SglangStates {
  int64_t bytes = 0;         // state pool and verify cache, one rank
  int64_t max_requests = 0;  // 0: no cap but the pool's
  int64_t rest = 0;          // the static share less the weights at sizing, one rank
};

SglangStates sglang_states(int64_t rest, int64_t per_request, int64_t draft_tokens, int64_t running,
                           int64_t slots_given, int64_t ratio) {
  SglangStates out{0, running, rest};
  if (per_request <= 0) return out;
  if (slots_given > 0) {
    out.max_requests = running > 0 ? std::min(running, slots_given / ratio) : slots_given / ratio;
    out.bytes = (slots_given + 1 + (draft_tokens > 0 ? (out.max_requests + 1) * draft_tokens : 0)) * per_request;
    return out;
  }
  if (rest <= 0) return out;
  const double budget = static_cast<double>(rest) * kMambaFullMemoryRatio / (1.0 + kMambaFullMemoryRatio);
  const double state = static_cast<double>(per_request);
  const double verified = static_cast<double>(draft_tokens);
  const int64_t slots =
      draft_tokens == 0
          ? static_cast<int64_t>(budget) / per_request
          : std::max<int64_t>(0, static_cast<int64_t>(std::floor((budget - state * (1 + verified)) /
                                                                 (state * (1 + verified / static_cast<double>(ratio))))));
  out.max_requests = slots / ratio;
  if (running > 0) out.max_requests = std::min(running, out.max_requests);
  out.bytes = draft_tokens == 0 ? slots * per_request
                                : (slots + 1 + (out.max_requests + 1) * draft_tokens) * per_request;
  return out;
}

// Tokens SGLang verifies a step when drafting: its drafts and the model's own.
int64_t sglang_verified_tokens(const ModelSpec& model, const MemoryRequest& request) {
  return sglang_drafts_mtp(model, request) ? request.engine.mtp_draft_tokens + 1 : 0;
}

// --max-running-requests: the request's max_num_seqs, else 48 when drafting (server_args.py
// _handle_speculative_decoding), else none.
int64_t sglang_running_requests(const ModelSpec& model, const MemoryRequest& request) {
  if (request.engine.max_num_seqs > 0) return request.engine.max_num_seqs;
  return sglang_drafts_mtp(model, request) ? kSglangDraftRequests : 0;
}

// The state pool and verify cache of one SGLang rank of a stage holding `rank_weights` bytes of
// weights, and what its static share leaves; on the last stage the draft's own embedding and head
// are held too while the pools are sized (sglang_drafts_mtp).
SglangStates sglang_stage_states(const ModelSpec& model, const MemoryRequest& request, int64_t usable, int64_t stage,
                                 int64_t rank_weights, int64_t state_per_sequence) {
  const ParallelPlan plan = plan_of(request);
  const int64_t vocab = stage == plan.pipeline - 1 ? sglang_draft_vocab_bytes(model, request) / plan.tensor : 0;
  const int64_t rest = sglang_static_bytes(request.engine, usable) - rank_weights - vocab;
  const int64_t running = sglang_running_requests(model, request);
  const bool radix = request.engine.prefix_caching;
  const int64_t slots = request.engine.max_mamba_cache_size > 0 ? request.engine.max_mamba_cache_size
                        : radix                                 ? 0
                                                                : running;
  return sglang_states(rest, state_per_sequence, sglang_verified_tokens(model, request), running, slots,
                       radix ? kStateSlotsPerRequest : 1);
}

}  // namespace

ParallelPlan covering_plan(const ParallelPlan& plan, int64_t devices) {
  devices = std::max<int64_t>(1, devices);
  return plan.ranks() == devices ? plan : ParallelPlan{devices, 1, 1, false};
}

int64_t expert_shards(const ParallelPlan& plan, const std::string& engine) {
  return engine == "sglang" || plan.expert ? plan.tensor * plan.data : plan.tensor;
}

int64_t server_drafter_bytes(const ModelSpec& model, const WeightPlan& weights, const MemoryRequest& request) {
  const bool drafts = vllm_drafts_mtp(model, request) || sglang_drafts_mtp(model, request);
  return drafts ? weights.mtp_bytes - weights.mtp_shared_bytes : 0;
}

int64_t vllm_default_batched_tokens(const Hardware& hardware) {
  // `vllm serve` (vllm/engine/arg_utils.py get_batch_defaults): 8192 on GPUs with 70 GiB or more
  // other than the A100 (PR #17885); 16384 from 160 GiB (PR #51726, v0.28.0); 2048 elsewhere.
  if (hardware.memory_bytes >= 160 * kGiB) return 16384;
  bool large = hardware.memory_bytes >= 70 * kGiB && hardware.name.find("A100") == std::string::npos;
  return large ? 8192 : 2048;
}

int64_t vllm_default_max_seqs(const Hardware& hardware) {
  bool large = hardware.memory_bytes >= 70 * kGiB && hardware.name.find("A100") == std::string::npos;
  return large ? 1024 : 256;
}

ServerPool server_pool(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                       const MemoryRequest& request, int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  ParallelPlan plan = plan_of(request);
  int64_t usable = smallest_usable(hardware, request);
  ServerPool limiting;
  double fewest_tokens = -1;
  int64_t total = 0;
  for (int64_t stage = 0; stage < plan.pipeline; ++stage) {
    PoolShape shape = stage_pool_shape(model, hardware, request, context_tokens, stage);
    int64_t weights_per_rank = rank_weights(model, weights, hardware, request, stage);
    ServerPool pool;
    pool.fixed_bytes = shape.window + shape.state;
    pool.bytes_per_token = shape.per_token;
    pool.slab_bytes = shape.slab;
    pool.blocks_per_request = shape.blocks_per_request;
    pool.request_bytes = shape.request_bytes;
    // vLLM budgets sliding layers inside each request's share of the pool, not beside it.
    if (shape.request_bytes > 0) pool.fixed_bytes = shape.states_in_request ? 0 : shape.state;
    if (engine.engine == "sglang") {
      // SGLang: the sliding pool holds 0.8 x the full pool's tokens beside it.
      pool.bytes_per_token += static_cast<int64_t>(kSwaFullTokensRatio * static_cast<double>(shape.swa_per_token));
      if (sglang_budgets_draft(model)) pool.bytes_per_token += shape.draft_per_token;
      const SglangStates states =
          sglang_stage_states(model, request, usable, stage, weights_per_rank, shape.state_per_sequence);
      pool.fixed_bytes = states.bytes;
      pool.max_requests = states.max_requests;
      pool.pool_bytes = states.rest - pool.fixed_bytes;
    } else if (engine.kv_cache_memory_bytes > 0) {
      pool.pool_bytes = engine.kv_cache_memory_bytes - pool.fixed_bytes;
    } else {
      pool.pool_bytes = usable - weights_per_rank - activation_peak(model, hardware, request, stage) - kNonTorchBytes -
                        kCudaGraphBytes - pool.fixed_bytes;
    }
    pool.pool_bytes = std::max<int64_t>(0, pool.pool_bytes);
    total += pool.pool_bytes * plan.tensor * plan.data;
    double tokens = pool.bytes_per_token > 0 ? static_cast<double>(pool.pool_bytes) / static_cast<double>(pool.bytes_per_token) : 0.0;
    if (pool.request_bytes > 0) {
      tokens = static_cast<double>(pool.pool_bytes) / static_cast<double>(pool.request_bytes);
    } else if (pool.slab_bytes > 0) {
      tokens = static_cast<double>(pool.pool_bytes / pool.slab_bytes) / static_cast<double>(pool.blocks_per_request);
    }
    if (fewest_tokens < 0 || tokens < fewest_tokens) {
      fewest_tokens = tokens;
      limiting = pool;
    }
  }
  limiting.total_pool_bytes = total;
  limiting.replicas = plan.data;
  return limiting;
}

EngineTotals server_totals(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                           const MemoryRequest& request, int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  ParallelPlan plan = plan_of(request);
  EngineTotals t;
  int64_t paged = (context_tokens + kPageTokens - 1) / kPageTokens * kPageTokens;
  t.kv = kv_cache_bytes(model, request.kv_type, engine_kv_request(request, context_tokens));
  int64_t sequences = (std::max<int64_t>(1, request.sequences) + plan.data - 1) / plan.data;
  int64_t usable = smallest_usable(hardware, request);
  // SGLang: activations and graphs live in the (1 - mem_fraction_static) share.
  int64_t sglang_compute = usable - sglang_static_bytes(engine, usable);
  int64_t runtime = engine.engine == "sglang" ? 0 : kNonTorchBytes + kCudaGraphBytes;
  t.compute = 0;
  // Ranks in order: stage by stage, each stage's data replicas x tensor ranks.
  for (int64_t stage = 0; stage < plan.pipeline; ++stage) {
    int64_t compute = engine.engine == "sglang" ? sglang_compute
                                                : activation_peak(model, hardware, request, stage);
    t.compute += compute * plan.tensor * plan.data;
    PoolShape shape = stage_pool_shape(model, hardware, request, paged, stage);
    auto [first, last] = stage_layers(model.n_layers, stage, plan.pipeline);
    DeviceMemory share;
    share.weights_bytes = rank_weights(model, weights, hardware, request, stage);
    // SGLang allocates its whole recurrent-state pool up front.
    const int64_t state =
        engine.engine == "sglang"
            ? sglang_stage_states(model, request, usable, stage, share.weights_bytes, shape.state_per_sequence).bytes
            : shape.state;
    share.kv_cache_bytes =
        (shape.per_token + shape.draft_per_token) * paged * sequences + shape.window + state + shape.decode_bytes;
    share.compute_bytes = compute;
    share.total_bytes = share.weights_bytes + share.kv_cache_bytes + share.compute_bytes + runtime;
    share.usable_bytes = usable;
    share.layers = last - first;
    for (int64_t k = 0; k < plan.tensor * plan.data; ++k) t.devices.push_back(share);
  }
  t.runtime = runtime * plan.ranks();
  t.host = DeviceMemory{};
  finish_totals(t, false);
  return t;
}

}  // namespace llmcalc
