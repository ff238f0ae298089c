// Weight plans: GGUF file types through llama.cpp's quant mix, checkpoint formats through their
// group layouts from data/formats/checkpoint_formats.json.
#include "llmcalc/weights.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "checkpoint_formats.h"
#include "gguf_quant_mix.h"
#include "llmcalc/catalog.h"
#include "json_text.h"

namespace llmcalc {
namespace {

// llama.cpp's --lazy-mode auto reads a marked table lazily above this size (PR #27794: "lazy
// only for marked tensors larger than 4 GiB").
constexpr int64_t kLazyTableBytes = int64_t{4} << 30;

// Embedding tables: the token embeddings and Gemma 4's per-layer embeddings, looked up a row per
// token and kept in RAM by llama.cpp.
bool is_embedding_table(const TensorSpec& t) {
  return t.part == ModelPart::text && (t.role == TensorRole::token_embd || t.role == TensorRole::per_layer_embd);
}

const char* role_name(TensorRole role) {
  switch (role) {
    case TensorRole::token_embd: case TensorRole::per_layer_embd: return "token_embd";
    case TensorRole::output: return "output";
    case TensorRole::ffn_gate_inp: return "ffn_gate_inp";
    case TensorRole::ffn_gate_inp_shexp: return "ffn_gate_inp_shexp";
    case TensorRole::ssm_conv: return "ssm_conv";
    case TensorRole::vision: return "vision";
    case TensorRole::projector: return "projector";
    default: return "";
  }
}

bool is_expert_tensor(const TensorSpec& t) { return t.ne2 > 1; }

// EXL2 / EXL3 at a chosen average bpw: "EXL2-4.65". exllamav2 quantizes every linear layer to the
// target average and the head at 6 bits by default (convert.py --head_bits 6); embeddings stay
// FP16 (exllamav2 README, "EXL2 quantization").
std::optional<double> exl_bits(const std::string& format) {
  if (format.rfind("EXL2-", 0) != 0 && format.rfind("EXL3-", 0) != 0) return std::nullopt;
  std::string number = format.substr(5);
  if (number.empty() || number.size() > 6 ||
      number.find_first_not_of("0123456789.") != std::string::npos) {
    return std::nullopt;
  }
  double bits = std::atof(number.c_str());
  if (!(bits >= 2.0 && bits <= 8.0)) return std::nullopt;
  return bits;
}

int64_t bits_to_bytes(double bits) { return static_cast<int64_t>(std::ceil(bits / 8.0)); }

// `storage` is left naming the dtype the tensor is stored in (a literal or the format's id).
// `kept`: the model's own checkpoint of this format stores the tensor in 16 bits.
int64_t checkpoint_tensor_bytes(const TensorSpec& t, const CheckpointFormat& f, bool kept, std::string_view& storage) {
  bool keep = kept || t.ne1 == 1 || t.role == TensorRole::norm || t.role == TensorRole::bias ||
              std::find(f.keep_roles.begin(), f.keep_roles.end(), role_name(t.role)) !=
                  f.keep_roles.end() ||
              (f.quantize_only_experts && !is_expert_tensor(t));
  int64_t group = f.group_elements == 0 ? t.ne0 : f.group_elements;
  // 2-D blocks cover any shape, the edge blocks partly filled (one scale each); 1-D groups need
  // rows that divide into them.
  bool blocks = f.block_rows > 0;
  if (f.weight_bits >= 16 || keep || group <= 0 || (!blocks && group <= t.ne0 && t.ne0 % group != 0)) {
    storage = "16-bit";
    return t.elements() * 2;
  }
  storage = f.id;
  double elements = static_cast<double>(t.elements());
  double groups = blocks ? static_cast<double>(((t.ne0 + group - 1) / group) * ((t.ne1 + f.block_rows - 1) / f.block_rows) *
                                               std::max<int64_t>(1, t.ne2))
                         : elements / static_cast<double>(group);
  double rows_in = static_cast<double>(t.ne0 * t.ne2);
  double bits = elements * f.weight_bits + groups * f.group_overhead_bits +
                rows_in * f.row_overhead_bits;
  return bits_to_bytes(bits);
}

}  // namespace

double WeightPlan::bits_per_weight() const {
  return elements > 0 ? 8.0 * static_cast<double>(total_bytes) / static_cast<double>(elements) : 0.0;
}

std::vector<std::pair<std::string, int>> engine_format_ladder(const std::string& engine) {
  if (engine == "vllm" || engine == "sglang" || engine == "transformers") {
    return {{"BF16", 16}, {"FP8", 8}, {"AWQ-INT4", 4}};
  }
  if (engine == "mlx") return {{"MLX-8bit", 8}, {"MLX-6bit", 6}, {"MLX-4bit", 4}, {"MLX-3bit", 3}};
  return {{"Q8_0", 8}, {"Q6_K", 6}, {"Q5_K_M", 5}, {"Q4_K_M", 4},
          {"IQ4_XS", 4}, {"Q3_K_M", 3}, {"IQ3_XXS", 3}, {"Q2_K", 2}};
}

bool is_gguf_format(const std::string& format) {
  const auto& types = gguf_file_types();
  return std::find(types.begin(), types.end(), format) != types.end();
}

std::vector<std::string> weight_format_ids() {
  std::vector<std::string> ids;
  for (const CheckpointFormat& f : checkpoint_formats()) ids.push_back(f.id);
  for (const std::string& t : gguf_file_types()) {
    if (std::find(ids.begin(), ids.end(), t) == ids.end()) ids.push_back(t);
  }
  ids.push_back("EXL2-4.0");
  return ids;
}

std::optional<WeightPlan> plan_weights(const ModelSpec& model, const std::string& format,
                                       const std::string& path, Issues& issues, bool imatrix, bool text_only) {
  WeightPlan plan;
  plan.format = format;
  for (auto* per_layer : {&plan.layer_dense_bytes, &plan.layer_expert_bytes, &plan.layer_expert_down_bytes,
                          &plan.layer_expert_max_bytes, &plan.layer_dense_max_bytes}) {
    per_layer->assign(static_cast<std::size_t>(model.n_layers), 0);
  }
  // Bytes per storage type, summed apart from the plan's map: tensors run in groups of one
  // type, and a map lookup per tensor (with a string made for each) took a fifth of the first
  // rank's planning (issue #22). `storage` names a string that outlives the plan.
  std::vector<std::pair<std::string_view, int64_t>> storage_totals;
  std::size_t storage_total = 0;  // the last one added to
  // Routed experts are chosen per token from the first MoE layer's count.
  int64_t experts_active = 1;
  for (const LayerSpec& layer : model.layers) {
    if (layer.mlp.moe) {
      experts_active = layer.mlp.n_experts_active;
      break;
    }
  }
  // Within a plan a storage type is named by the same string each time (a ggml type's name, the
  // format's id, a literal), so its address tells it apart; totals of two strings that spell the
  // same name would still add up in the plan's map.
  auto same_string = [](std::string_view a, std::string_view b) { return a.data() == b.data() && a.size() == b.size(); };
  auto add = [&](std::size_t index, std::string_view storage, int64_t bytes) {
    const TensorSpec& t = model.tensors[index];
    plan.total_bytes += bytes;
    plan.elements += t.elements();
    if (t.part == ModelPart::text) plan.text_bytes += bytes;
    if (t.part == ModelPart::text && is_expert_tensor(t)) {
      plan.expert_bytes += bytes;
      plan.active_expert_bytes += (t.ne2 > 0 ? bytes / t.ne2 : 0) * experts_active;
    }
    if (is_embedding_table(t)) plan.token_embd_bytes += bytes;
    if (t.part == ModelPart::text && t.role == TensorRole::per_layer_embd && bytes > kLazyTableBytes) {
      plan.lazy_table_bytes += bytes;
    }
    if (storage_total >= storage_totals.size() || !same_string(storage_totals[storage_total].first, storage)) {
      storage_total = 0;
      while (storage_total < storage_totals.size() && !same_string(storage_totals[storage_total].first, storage)) {
        ++storage_total;
      }
      if (storage_total == storage_totals.size()) storage_totals.emplace_back(storage, 0);
    }
    storage_totals[storage_total].second += bytes;
    // Where the bytes sit: the token embedding apart, per decoder layer (routed experts apart),
    // and what no layer holds (vision, the output layer) with the output layer.
    if (is_embedding_table(t)) return;
    if (t.part != ModelPart::text || t.layer < 0 || t.layer >= model.n_layers) {
      plan.output_layer_bytes += bytes;
    } else if (t.ne2 > 1) {
      auto layer = static_cast<std::size_t>(t.layer);
      plan.layer_expert_bytes[layer] += bytes;
      if (t.role == TensorRole::ffn_down_exps) plan.layer_expert_down_bytes[layer] += bytes;
      plan.layer_expert_max_bytes[layer] = std::max(plan.layer_expert_max_bytes[layer], bytes);
    } else {
      auto layer = static_cast<std::size_t>(t.layer);
      plan.layer_dense_bytes[layer] += bytes;
      plan.layer_dense_max_bytes[layer] = std::max(plan.layer_dense_max_bytes[layer], bytes);
    }
  };
  auto planned = [&] {
    for (const auto& [storage, bytes] : storage_totals) plan.bytes_by_storage[std::string(storage)] += bytes;
    return std::optional<WeightPlan>(std::move(plan));
  };

  const CheckpointFormat* checkpoint = nullptr;
  for (const CheckpointFormat& f : checkpoint_formats()) {
    if (f.id == format) checkpoint = &f;
  }
  // BF16 and FP16 are checkpoint formats; their GGUF twins are spelled F16 / BF16 via GGUF rules
  // only when the name is not a checkpoint id.
  if (checkpoint) {
    // The MTP layers ship in the checkpoint, but no engine loads them without MTP drafting
    // (vLLM's and SGLang's model classes skip them, as mlx-lm's sanitize and transformers'
    // ignored keys do): kept apart, as for GGUF files.
    static const std::vector<TensorRole> none;
    const std::vector<TensorRole>& kept_roles = checkpoint->id == "FP8" ? model.fp8_checkpoint_keeps : none;
    for (std::size_t i = 0; i < model.tensors.size(); ++i) {
      ModelPart part = model.tensors[i].part;
      if (text_only && part != ModelPart::text && part != ModelPart::mtp) continue;
      std::string_view storage;
      bool kept = std::find(kept_roles.begin(), kept_roles.end(), model.tensors[i].role) != kept_roles.end();
      int64_t bytes = checkpoint_tensor_bytes(model.tensors[i], *checkpoint, kept, storage);
      if (model.tensors[i].part == ModelPart::mtp) {
        plan.mtp_bytes += bytes;
        const TensorRole role = model.tensors[i].role;
        if (role == TensorRole::token_embd || role == TensorRole::output) plan.mtp_shared_bytes += bytes;
      } else {
        add(i, storage, bytes);
      }
    }
    return planned();
  }
  if (std::optional<double> bits = exl_bits(format)) {
    for (std::size_t i = 0; i < model.tensors.size(); ++i) {
      const TensorSpec& t = model.tensors[i];
      if (t.part != ModelPart::text) continue;
      bool full = t.ne1 == 1 || t.role == TensorRole::norm || t.role == TensorRole::bias ||
                  is_embedding_table(t) || t.role == TensorRole::ffn_gate_inp;
      double element_bits = full ? 16.0 : t.role == TensorRole::output ? 6.0 : *bits;
      add(i, full ? std::string_view("16-bit") : std::string_view(format), bits_to_bytes(static_cast<double>(t.elements()) * element_bits));
    }
    return planned();
  }
  if (is_gguf_format(format)) {
    std::vector<const GgmlType*> types = gguf_tensor_types(model, format, imatrix);
    for (std::size_t i = 0; i < model.tensors.size(); ++i) {
      const GgmlType* type = types[i];
      if (!type) continue;
      const TensorSpec& t = model.tensors[i];
      int64_t blocks = (t.ne0 / type->block_elements) * t.ne1 * t.ne2;
      if (t.part == ModelPart::mtp) {
        plan.mtp_bytes += blocks * type->type_size_bytes;
      } else {
        add(i, type->name, blocks * type->type_size_bytes);
      }
    }
    return planned();
  }
  issues.error("unknown_format", path,
               "Unknown weight format '" + format.substr(0, 40) +
                   "'. Use a GGUF file type (Q4_K_M, Q8_0, IQ4_XS, ...), BF16, FP8, AWQ-INT4, "
                   "GPTQ-INT4, BNB-NF4, MLX-4bit, MXFP4 or EXL2-<bits>.");
  return std::nullopt;
}

nlohmann::json weight_plan_json(const WeightPlan& plan) {
  nlohmann::json by_storage = nlohmann::json::object();
  for (const auto& [storage, bytes] : plan.bytes_by_storage) by_storage[storage] = bytes;
  return {{"format", plan.format},
          {"total_bytes", plan.total_bytes},
          {"text_bytes", plan.text_bytes},
          {"expert_bytes", plan.expert_bytes},
          {"bits_per_weight", plan.bits_per_weight()},
          {"mtp_bytes", plan.mtp_bytes},
          {"bytes_by_storage", by_storage}};
}

}  // namespace llmcalc
