// Weights -> memory -> speed for one scenario.
#include "llmcalc/evaluation.h"

#include <algorithm>
#include <map>
#include <string>

#include "llmcalc/catalog.h"
#include "engine_memory.h"
#include "published_formats.h"

namespace llmcalc {

namespace {

// llama.cpp and Ollama load a GGUF, the language model alone whatever its type (a 16-bit one
// too); a vision model's towers come from its mmproj file (the projector in the memory estimate).
// vLLM with --language-model-only (request mmproj false) builds no tower (PR #32605's
// _mark_tower_model: towers whose modalities are all limited to 0 are not created).
bool text_only_file(const Scenario& s) {
  return is_llama_cpp_family(s.engine.engine) || (s.engine.engine == "vllm" && !s.engine.mmproj);
}

// Plans of catalog models depend only on (model, format, imatrix, a text-only file): computed once
// per process, so moving a slider does not re-place every tensor.
std::shared_ptr<const WeightPlan> catalog_plan(const Scenario& s, const ModelSpec& model,
                                               Issues& issues) {
  static std::map<std::string, std::shared_ptr<const WeightPlan>> cache;
  std::string key = s.model_id + "|" + s.rules_format() + (s.imatrix ? "|imatrix" : "") + (text_only_file(s) ? "|text" : "");
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  // A kept spec a rank's visit gave its tensors back to lists them again.
  const ModelSpec* listed = model.tensors.empty() ? catalog_model_spec(s.model_id, issues) : &model;
  if (!listed) return nullptr;
  std::optional<WeightPlan> plan = plan_weights(*listed, s.rules_format(), "/weights", issues, s.imatrix,
                                                text_only_file(s));
  if (!plan) return nullptr;
  auto shared = std::make_shared<const WeightPlan>(std::move(*plan));
  cache.emplace(key, shared);
  return shared;
}

// Each listed device's share of what the devices hold (weights and KV cache), for the layer
// split's speed.
// (the devices in the order the memory estimate lists them: memory_request_for's sequence).
std::vector<SpeedRequest::SplitDevice> layer_split_shares(const MemoryEstimate& memory, const Scenario& s) {
  std::vector<int64_t> nodes;
  const std::vector<Hardware> hardware = device_sequence(s.device_groups, is_llama_cpp_family(s.engine.engine), &nodes);
  std::vector<SpeedRequest::SplitDevice> split;
  double held = 0;
  for (const DeviceMemory& device : memory.per_device) held += static_cast<double>(device.weights_bytes + device.kv_cache_bytes);
  for (std::size_t d = 0; d < memory.per_device.size() && d < hardware.size(); ++d) {
    const DeviceMemory& device = memory.per_device[d];
    double share = held > 0 ? static_cast<double>(device.weights_bytes + device.kv_cache_bytes) / held : 0.0;
    split.push_back({hardware[d], share, nodes[d]});
  }
  return split;
}

}  // namespace

std::shared_ptr<const WeightPlan> scenario_weights(const Scenario& s, const ModelSpec& model,
                                                   Issues& issues) {
  std::shared_ptr<const WeightPlan> plan;
  if (s.model_id != "custom") {
    plan = catalog_plan(s, model, issues);
  } else if (std::optional<WeightPlan> placed =
                 plan_weights(model, s.rules_format(), "/weights", issues, s.imatrix, text_only_file(s))) {
    plan = std::make_shared<const WeightPlan>(std::move(*placed));
  }
  const int64_t exact_bytes = s.exact_weights_bytes();
  if (!plan || exact_bytes <= 0) return plan;
  auto weights = std::make_shared<WeightPlan>(*plan);
  // Exact bytes from a file header replace the computed total; the mix of types (and so the
  // bytes read per token) keeps the computed proportions. A file that holds the MTP (nextn)
  // layers (weights_include_mtp; they load only with MTP drafting) has them scaled with the
  // rest and kept apart.
  int64_t computed = weights->total_bytes + (s.weights_include_mtp ? weights->mtp_bytes : 0);
  double scale = static_cast<double>(exact_bytes) / static_cast<double>(std::max<int64_t>(1, computed));
  auto scaled = [scale](int64_t bytes) {
    return static_cast<int64_t>(static_cast<double>(bytes) * scale);
  };
  weights->text_bytes = scaled(weights->text_bytes);
  weights->expert_bytes = scaled(weights->expert_bytes);
  weights->active_expert_bytes = scaled(weights->active_expert_bytes);
  weights->token_embd_bytes = scaled(weights->token_embd_bytes);
  weights->lazy_table_bytes = scaled(weights->lazy_table_bytes);
  weights->mtp_bytes = scaled(weights->mtp_bytes);
  weights->total_bytes = exact_bytes - (s.weights_include_mtp ? weights->mtp_bytes : 0);
  for (int64_t& bytes : weights->layer_dense_bytes) bytes = scaled(bytes);
  for (int64_t& bytes : weights->layer_expert_bytes) bytes = scaled(bytes);
  for (int64_t& bytes : weights->layer_expert_down_bytes) bytes = scaled(bytes);
  for (int64_t& bytes : weights->layer_expert_max_bytes) bytes = scaled(bytes);
  for (int64_t& bytes : weights->layer_dense_max_bytes) bytes = scaled(bytes);
  weights->output_layer_bytes = scaled(weights->output_layer_bytes);
  return weights;
}

namespace {

// What the memory estimate is asked for `s`.
MemoryRequest memory_request_for(const Scenario& s, const ModelSpec& model, bool find_max_context) {
  MemoryRequest memory_request;
  memory_request.lang = s.lang;
  memory_request.context_tokens = s.context_tokens;
  memory_request.context_auto = s.context_auto;
  // llama-server's automatic slots: 4 sequences sharing one unified cache.
  memory_request.sequences = s.engine.engine == "llama.cpp" && s.engine.kv_unified
                                 ? std::max<int64_t>(s.batch, kLlamaServerAutoSlots)
                                 : s.batch;
  memory_request.devices = s.devices;
  memory_request.kv_type = s.kv_type;
  memory_request.engine = s.engine;
  if (s.engine.engine == "sglang") memory_request.engine.mem_fraction_static = s.mem_fraction_for(model);
  memory_request.find_max_context = find_max_context;
  memory_request.gpu_layers = s.gpu_layers;
  memory_request.cpu_moe_layers = s.cpu_moe_layers;
  memory_request.cpu_expert_layers = s.cpu_expert_layers;
  memory_request.tensor_split = s.tensor_split;
  memory_request.system_memory_bytes = s.system_memory_bytes;
  // A file read or sized by the user holds MTP blocks as the user says; a catalog model's
  // published GGUF files as its record says.
  memory_request.weights_include_mtp = s.exact_weights_bytes() > 0 ? s.weights_include_mtp
                                                                    : s.gguf_holds_mtp && is_gguf_format(s.rules_format());
  // The mmproj file a catalog model's GGUF repository for this format publishes, where its record
  // gives one (a quantized projector rather than the 16-bit one mmproj_memory counts); looked up
  // only where llama-server loads a projector.
  const CatalogModel* entry = model.mmproj_file_bytes > 0 && is_llama_cpp_family(s.engine.engine)
                                  ? Catalog::instance().find_model(s.model_id)
                                  : nullptr;
  if (entry) memory_request.mmproj_file_bytes = published_mmproj_bytes(entry->record(), s.weights);
  if (!s.device_groups.empty()) {
    memory_request.device_hardware =
        device_sequence(s.device_groups, is_llama_cpp_family(s.engine.engine), &memory_request.device_nodes);
  }
  memory_request.parallel = s.parallel;
  return memory_request;
}

}  // namespace

std::vector<MathLine> evaluation_math(const Scenario& s, const ModelSpec& model, const Evaluation& e) {
  return memory_math(model, *e.weights, s.hardware, memory_request_for(s, model, true), e.memory);
}

int64_t max_context_tokens(const Scenario& s, const ModelSpec& model, const WeightPlan& plan) {
  return largest_fitting_context(model, plan, s.hardware, memory_request_for(s, model, true));
}

MemoryEstimate evaluate_memory(const Scenario& s, const ModelSpec& model, const WeightPlan& plan) {
  return estimate_memory(model, plan, s.hardware, memory_request_for(s, model, false));
}

Evaluation evaluate_plan(const Scenario& s, const ModelSpec& model,
                         std::shared_ptr<const WeightPlan> plan, bool find_max_context) {
  MemoryEstimate memory = estimate_memory(model, *plan, s.hardware, memory_request_for(s, model, find_max_context));
  return evaluate_speed(s, model, std::move(plan), std::move(memory));
}

Evaluation evaluate_speed(const Scenario& s, const ModelSpec& model,
                          std::shared_ptr<const WeightPlan> plan, MemoryEstimate memory) {
  Evaluation out{std::move(plan), std::move(memory), {}, {}, 0};
  out.context_tokens = out.memory.fit.context_tokens > 0 ? out.memory.fit.context_tokens : s.context_tokens;
  SpeedRequest& speed_request = out.speed_request;
  speed_request.context_tokens = out.context_tokens;
  speed_request.prompt_tokens = s.prompt_tokens;
  // A prompt opens the conversation: the context setting is the window, not tokens already cached.
  speed_request.prefill_depth_tokens = 0;
  speed_request.batch = s.batch;
  speed_request.devices = s.devices;
  // llama.cpp and Ollama split layers across devices by default (--split-mode layer).
  speed_request.tensor_parallel = s.engine.engine != "llama.cpp" && s.engine.engine != "ollama";
  // llama.cpp and Ollama report the -ub they ran with (Ollama's follows its memory check).
  speed_request.ubatch_tokens = out.memory.ubatch_tokens > 0 ? out.memory.ubatch_tokens : s.engine.ubatch_tokens;
  speed_request.flash_attention = s.engine.flash_attention;
  speed_request.kv_type = s.kv_type;
  speed_request.mtp_draft_tokens = s.engine.mtp ? s.engine.mtp_draft_tokens : 0;
  speed_request.assumptions = s.speed;
  speed_request.offloaded_read_bytes_per_token = out.memory.offloaded_read_bytes_per_token;
  speed_request.system_memory_bandwidth_bytes_per_s = s.system_memory_bandwidth_bytes_per_s;
  speed_request.parallel = s.parallel;
  speed_request.expert_shards = expert_shards(s.parallel, s.engine.engine);
  speed_request.machines = s.machines();
  speed_request.network = s.network;
  const Hardware* pace = &s.hardware;
  if (!s.device_groups.empty()) {
    if (speed_request.tensor_parallel) {
      // Ranks step together: the slowest device sets the pace.
      for (const DeviceGroup& group : s.device_groups) {
        if (group.device.memory_bandwidth_bytes_per_s < pace->memory_bandwidth_bytes_per_s) pace = &group.device;
      }
    } else {
      speed_request.split = layer_split_shares(out.memory, s);
    }
  }
  speed_request.layer_pipeline = !out.memory.offloaded;
  speed_request.op_offload_dense_bytes = out.memory.op_offload_dense_bytes;
  speed_request.op_offload_expert_bytes = out.memory.op_offload_expert_bytes;
  speed_request.host_link_bytes_per_s = s.host_link_bytes_per_s;
  out.speed = estimate_speed(model, *out.weights, *pace, speed_request);
  return out;
}

std::optional<Evaluation> evaluate(const Scenario& s, const ModelSpec& model, Issues& issues,
                                   bool find_max_context) {
  std::shared_ptr<const WeightPlan> weights = scenario_weights(s, model, issues);
  if (!weights) return std::nullopt;
  return evaluate_plan(s, model, std::move(weights), find_max_context);
}

}  // namespace llmcalc
