#include "checkpoint_quantization.h"

#include <algorithm>
#include <cctype>

namespace llmcalc {
namespace {

std::string lower_string(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  std::string text = it->get<std::string>();
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

int64_t integer(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

bool flag(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

// A ModelOpt key, from the "quantization" block of hf_quant_config.json or the config's own level.
const nlohmann::json* modelopt_value(const nlohmann::json& qc, const char* key) {
  auto inner = qc.find("quantization");
  if (inner != qc.end() && inner->is_object()) {
    auto it = inner->find(key);
    if (it != inner->end() && !it->is_null()) return &*it;
  }
  auto it = qc.find(key);
  return it != qc.end() && !it->is_null() ? &*it : nullptr;
}

// A quantization scheme given as {num_bits, type}: 8-bit float is fp8, 4-bit float nvfp4.
std::string float_scheme(const nlohmann::json& scheme) {
  if (!scheme.is_object() || lower_string(scheme, "type") != "float") return "";
  if (integer(scheme, "num_bits") == 8) return "fp8";
  if (integer(scheme, "num_bits") == 4) return "nvfp4";
  return "";
}

// vllm/utils/torch_utils.py get_kv_cache_quant_algo_string (PR #30785, merged December 2025, in
// every release since v0.14): for a ModelOpt checkpoint the first of kv_cache_scheme and
// kv_cache_quant_algo (in the "quantization" block, then at the top) names the cache: "FP8" or
// {dynamic: false, num_bits: 8, type: float} is fp8_e4m3, "NVFP4" or a 4-bit float scheme nvfp4.
std::string modelopt_kv_cache(const nlohmann::json& qc) {
  const nlohmann::json* kv = modelopt_value(qc, "kv_cache_scheme");
  if (!kv) kv = modelopt_value(qc, "kv_cache_quant_algo");
  if (!kv) return "";
  if (kv->is_object()) return kv->value("dynamic", true) ? "" : float_scheme(*kv);
  if (!kv->is_string()) return "";
  std::string name = kv->get<std::string>();
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name == "fp8" || name == "nvfp4" ? name : "";
}

std::string modelopt_format(const nlohmann::json& qc) {
  const nlohmann::json* algo = modelopt_value(qc, "quant_algo");
  if (!algo || !algo->is_string()) return "";
  const std::string& name = algo->get_ref<const std::string&>();
  return name == "FP8" ? "FP8" : name == "NVFP4" ? "NVFP4" : "";
}

// compressed-tensors' "format" (the packing of llm-compressor's checkpoints).
std::string compressed_tensors_format(const nlohmann::json& qc) {
  std::string packing = lower_string(qc, "format");
  if (packing == "float-quantized") return "FP8";
  if (packing == "nvfp4-pack-quantized") return "NVFP4";
  if (packing == "mxfp4-pack-quantized") return "MXFP4";
  if (packing != "pack-quantized") return "";
  // Integer weights packed into int32: their width from the first group (W4A16 in practice).
  auto groups = qc.find("config_groups");
  if (groups == qc.end() || !groups->is_object() || groups->empty()) return "";
  const nlohmann::json& group = groups->begin().value();
  auto weights = group.is_object() ? group.find("weights") : group.end();
  if (weights == group.end() || !weights->is_object()) return "";
  return integer(*weights, "num_bits") == 4 ? "GPTQ-INT4" : integer(*weights, "num_bits") == 8 ? "GPTQ-INT8" : "";
}

}  // namespace

CheckpointQuantization checkpoint_quantization(const nlohmann::json& config) {
  CheckpointQuantization found;
  auto it = config.find("quantization_config");
  if (it == config.end() || !it->is_object()) return found;
  const nlohmann::json& qc = *it;
  std::string method = lower_string(qc, "quant_method");
  // vLLM names a checkpoint whose only quantization file is hf_quant_config.json after its
  // producer (ModelConfig._parse_quant_hf_config): modelopt, or modelopt_fp4 for NVFP4.
  auto producer = qc.find("producer");
  bool modelopt = method.rfind("modelopt", 0) == 0 ||
                  (method.empty() && producer != qc.end() && producer->is_object() &&
                   lower_string(*producer, "name") == "modelopt");
  if (modelopt) {
    found.format = modelopt_format(qc);
    found.kv_cache = modelopt_kv_cache(qc);
  } else if (method == "compressed-tensors") {
    found.format = compressed_tensors_format(qc);
    // vllm/model_executor/layers/attention/attention.py (Attention.__init__, PR #30141; an
    // explicit --kv-cache-dtype wins since PR #42782, 2026-05-16): any kv_cache_scheme turns
    // "auto" into fp8.
    auto kv = qc.find("kv_cache_scheme");
    if (kv != qc.end() && kv->is_object()) found.kv_cache = "fp8";
  } else if (method == "fp8") {
    found.format = "FP8";
  } else if (method == "mxfp4") {
    found.format = "MXFP4";
  } else if (method == "awq") {
    found.format = integer(qc, "bits") == 4 ? "AWQ-INT4" : "";
  } else if (method == "gptq") {
    found.format = integer(qc, "bits") == 4 ? "GPTQ-INT4" : integer(qc, "bits") == 8 ? "GPTQ-INT8" : "";
  } else if (method == "bitsandbytes") {
    found.format = flag(qc, "load_in_4bit") ? "BNB-NF4" : flag(qc, "load_in_8bit") ? "BNB-INT8" : "";
  }
  return found;
}

}  // namespace llmcalc
