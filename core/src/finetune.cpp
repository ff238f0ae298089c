// Fine-tuning memory. Bytes per trainable parameter follow the ZeRO paper (Rajbhandari et al.
// 2020, §3.1: 2 + 2 + 12 for mixed-precision Adam) and its sharding stages; QLoRA's NF4 base
// costs 4 + 8/64 + 32/(64*256) bits per weight (Dettmers et al. 2023, §3); activations per layer
// follow the tensors a decoder layer saves for backward (Korthikanti et al. 2022, §4.1), with
// gradient checkpointing keeping only each layer's input plus one layer being recomputed.
#include "llmcalc/finetune.h"

#include <algorithm>

#include "llmcalc/json_reader.h"

namespace llmcalc {
namespace {

bool targets(const std::vector<std::string>& list, const char* name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Bytes per element of the optimizer's states for one trainable parameter.
double optimizer_bytes_per_param(const FinetuneSettings& s) {
  double state = s.precision == "mixed" ? 4.0 : 2.0;
  if (s.optimizer == "adamw") return 2 * state;
  if (s.optimizer == "adamw_8bit" || s.optimizer == "paged_adamw_8bit") return 2.0;
  if (s.optimizer == "sgd") return state;  // momentum
  return 0.0;                              // adafactor: factored moments, negligible per parameter
}

}  // namespace

FinetuneSettings read_finetune_settings(const nlohmann::json& request, Issues& issues) {
  FinetuneSettings s;
  auto it = request.find("finetune");
  if (it == request.end() || it->is_null()) return s;
  JsonReader r(*it, "/finetune", issues);
  if (!r.valid()) return s;
  s.optimizer = r.string("optimizer", 32, s.optimizer).value_or(s.optimizer);
  const std::vector<std::string> optimizers = {"adamw", "adamw_8bit", "paged_adamw_8bit", "adafactor", "sgd"};
  if (std::find(optimizers.begin(), optimizers.end(), s.optimizer) == optimizers.end()) {
    issues.error("unknown_optimizer", "/finetune/optimizer",
                 "optimizer must be adamw, adamw_8bit, paged_adamw_8bit, adafactor or sgd.");
  }
  s.precision = r.string("precision", 16, s.precision).value_or(s.precision);
  if (s.precision != "bf16" && s.precision != "mixed") {
    issues.error("unknown_precision", "/finetune/precision", "precision must be bf16 or mixed.");
  }
  s.lora_rank = r.integer("lora_rank", 1, 4096, s.lora_rank).value_or(s.lora_rank);
  s.micro_batch = r.integer("micro_batch", 1, 4096, s.micro_batch).value_or(s.micro_batch);
  s.seq_len = r.integer("seq_len", 1, kMaxContextTokens, s.seq_len).value_or(s.seq_len);
  s.gradient_checkpointing = r.boolean("gradient_checkpointing", true).value_or(true);
  s.flash_attention = r.boolean("flash_attention", true).value_or(true);
  s.gpus = r.integer("gpus", 1, 1024, s.gpus).value_or(s.gpus);
  s.sharding = r.string("sharding", 8, s.sharding).value_or(s.sharding);
  const std::vector<std::string> shardings = {"none", "zero1", "zero2", "zero3", "fsdp"};
  if (std::find(shardings.begin(), shardings.end(), s.sharding) == shardings.end()) {
    issues.error("unknown_sharding", "/finetune/sharding", "sharding must be none, zero1, zero2, zero3 or fsdp.");
  }
  r.mark_read("lora_targets");
  r.warn_unread();
  auto list = it->find("lora_targets");
  if (list != it->end() && list->is_array()) {
    s.lora_targets.clear();
    for (const auto& name : *list) {
      if (name.is_string() && name.get<std::string>().size() < 16) s.lora_targets.push_back(name.get<std::string>());
    }
  }
  return s;
}

int64_t lora_parameters(const ModelSpec& model, int64_t rank, const std::vector<std::string>& list) {
  // The list read once, not per tensor.
  const bool q = targets(list, "q");
  const bool k = targets(list, "k");
  const bool v = targets(list, "v");
  const bool o = targets(list, "o");
  const bool gate = targets(list, "gate");
  const bool up = targets(list, "up");
  const bool down = targets(list, "down");
  int64_t total = 0;
  for (const TensorSpec& t : model.tensors) {
    if (t.part != ModelPart::text || t.ne2 != 1 || t.ne1 == 1) continue;
    bool hit = (t.role == TensorRole::attn_q && q) || (t.role == TensorRole::attn_k && k) ||
               (t.role == TensorRole::attn_v && v) || (t.role == TensorRole::attn_qkv && (q || k || v)) ||
               (t.role == TensorRole::attn_output && o) || (t.role == TensorRole::ffn_gate && gate) ||
               (t.role == TensorRole::ffn_up && up) || (t.role == TensorRole::ffn_down && down);
    if (hit) total += rank * (t.ne0 + t.ne1);
  }
  return total;
}

FinetuneEstimate estimate_finetune(const ModelSpec& model, const FinetuneSettings& s) {
  const ParamCounts& p = model.params;
  double gpus = static_cast<double>(std::max<int64_t>(1, s.gpus));
  bool zero3 = s.sharding == "zero3" || s.sharding == "fsdp";
  bool zero2 = zero3 || s.sharding == "zero2";
  bool zero1 = zero2 || s.sharding == "zero1";
  double weight_share = zero3 ? 1.0 / gpus : 1.0;
  double grad_share = zero2 ? 1.0 / gpus : 1.0;
  double state_share = zero1 ? 1.0 / gpus : 1.0;

  // Linear weights (what QLoRA quantizes) versus embeddings, head and norms (kept in bf16).
  double text = static_cast<double>(p.text);
  double kept = static_cast<double>(p.embedding + p.output_head + p.norms);
  double linear = text - kept;

  // Activations for one micro-batch, bf16: per layer the saved tensors (about 9 x hidden +
  // 4 x FFN width per token, plus 5 x heads x seq scores without flash attention); the logits as
  // transformers' causal-LM loss holds them: upcast to fp32, their log-softmax and its gradient
  // (3 x 4 bytes per token and vocabulary entry; chunked losses such as torchtune's need less).
  double tokens = static_cast<double>(s.micro_batch * s.seq_len);
  double h = static_cast<double>(model.hidden_size);
  double layer_bytes = 0;
  double heads = 0;
  for (const LayerSpec& layer : model.layers) {
    double ffn = static_cast<double>(std::max({layer.mlp.intermediate,
                                               layer.mlp.expert_intermediate * layer.mlp.n_experts_active +
                                                   layer.mlp.shared_intermediate}));
    layer_bytes = std::max(layer_bytes, tokens * (9 * h + 4 * ffn) * 2);
    heads = std::max(heads, static_cast<double>(layer.attention.n_q_heads));
  }
  if (!s.flash_attention) layer_bytes += 5 * heads * static_cast<double>(s.seq_len) * tokens;
  double layers = static_cast<double>(model.n_layers);
  double activations = (s.gradient_checkpointing ? layers * tokens * h * 2 + layer_bytes : layers * layer_bytes) +
                       tokens * static_cast<double>(model.vocab_size) * 12;

  auto method = [&](double weights, double trainable) {
    bool mixed = s.precision == "mixed";
    double weights_bytes = weights * weight_share;
    double gradients = trainable * 2 * grad_share;
    double master = mixed ? trainable * 4 * state_share : 0.0;
    double optimizer = trainable * optimizer_bytes_per_param(s) * state_share;
    // Full sharding still gathers one layer's weights at a time.
    if (zero3 && gpus > 1) weights_bytes += weights / layers;
    double total = weights_bytes + gradients + master + optimizer + activations +
                   static_cast<double>(s.overhead_bytes);
    FinetuneMemory m;
    m.weights_bytes = static_cast<int64_t>(weights_bytes);
    m.trainable_params = static_cast<int64_t>(trainable);
    m.gradients_bytes = static_cast<int64_t>(gradients);
    m.master_weights_bytes = static_cast<int64_t>(master);
    m.optimizer_bytes = static_cast<int64_t>(optimizer);
    m.activations_bytes = static_cast<int64_t>(activations);
    m.overhead_bytes = s.overhead_bytes;
    m.total_bytes = static_cast<int64_t>(total);
    return m;
  };
  double adapters = static_cast<double>(lora_parameters(model, s.lora_rank, s.lora_targets));
  double nf4_bits = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
  FinetuneEstimate out;
  out.full = method(text * 2, text);
  // The adapters themselves are trainable weights in bf16 next to the frozen base.
  out.lora = method(text * 2 + adapters * 2, adapters);
  out.qlora = method(linear * nf4_bits / 8 + kept * 2 + adapters * 2, adapters);
  return out;
}

}  // namespace llmcalc
