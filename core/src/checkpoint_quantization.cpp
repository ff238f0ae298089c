#include "checkpoint_quantization.h"

#include <cctype>

namespace llmcalc {
namespace {

// One lookup for every key (nlohmann's find is a template per key type: each literal length
// would be an instantiation of its own in the module).
const nlohmann::json* member(const nlohmann::json* object, const char* key) {
  if (!object || !object->is_object()) return nullptr;
  auto it = object->find(key);
  return it == object->end() || it->is_null() ? nullptr : &*it;
}

// A string value in lower case ("" for anything else): vLLM compares these case-insensitively.
std::string lowered(const nlohmann::json* value) {
  if (!value || !value->is_string()) return "";
  std::string text = value->get<std::string>();
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

int64_t integer(const nlohmann::json* object, const char* key) {
  const nlohmann::json* value = member(object, key);
  return value && value->is_number_integer() ? value->get<int64_t>() : 0;
}

// A boolean value: 1 true, 0 false, -1 absent or not a boolean.
int boolean(const nlohmann::json* object, const char* key) {
  const nlohmann::json* value = member(object, key);
  return value && value->is_boolean() ? value->get<bool>() : -1;
}

// A ModelOpt key, from the "quantization" block of hf_quant_config.json or the config's own level.
const nlohmann::json* modelopt_value(const nlohmann::json* qc, const char* key) {
  const nlohmann::json* inner = member(member(qc, "quantization"), key);
  return inner ? inner : member(qc, key);
}

// vllm/utils/torch_utils.py get_kv_cache_quant_algo_string (PR #30785, merged December 2025, in
// every release since v0.14): for a ModelOpt checkpoint the first of kv_cache_scheme and
// kv_cache_quant_algo (in the "quantization" block, then at the top) names the cache: "FP8" or
// {dynamic: false, num_bits: 8, type: float} is fp8_e4m3, "NVFP4" or {num_bits: 4, type: float}
// nvfp4.
const char* modelopt_kv_cache(const nlohmann::json* qc) {
  const nlohmann::json* kv = modelopt_value(qc, "kv_cache_scheme");
  if (!kv) kv = modelopt_value(qc, "kv_cache_quant_algo");
  if (kv && kv->is_object()) {
    if (lowered(member(kv, "type")) != "float") return "";
    if (integer(kv, "num_bits") == 4) return "nvfp4";
    return integer(kv, "num_bits") == 8 && boolean(kv, "dynamic") == 0 ? "fp8" : "";
  }
  std::string name = lowered(kv);
  return name == "fp8" ? "fp8" : name == "nvfp4" ? "nvfp4" : "";
}

// SGLang's rule for the same fields (python/sglang/srt/layers/quantization/modelopt_quant.py
// from_config, read at main 2026-10: a {type float, num_bits 8} scheme or the string FP8 / FLOAT8
// is "FP8"; mem_cache/kv_cache_dtype.py configure_kv_cache_dtype, moved there by PR #31147,
// 2026-07-14): only "FP8" turns --kv-cache-dtype auto into fp8_e4m3. An NVFP4 cache is never
// chosen by auto (PR #18581, which would have, was closed unmerged).
bool sglang_fp8_scheme(const nlohmann::json* kv) {
  if (kv && kv->is_object()) return lowered(member(kv, "type")) == "float" && integer(kv, "num_bits") == 8;
  std::string name = lowered(kv);
  return name == "fp8" || name == "float8";
}

const char* modelopt_format(const nlohmann::json* qc) {
  std::string name = lowered(modelopt_value(qc, "quant_algo"));
  return name == "fp8" ? "FP8" : name == "nvfp4" ? "NVFP4" : "";
}

// compressed-tensors' "format" (the packing of llm-compressor's checkpoints); pack-quantized is
// its packing of 4-bit integer weights into int32 (W4A16; 8-bit integers are int-quantized).
const char* compressed_tensors_format(const nlohmann::json* qc) {
  std::string packing = lowered(member(qc, "format"));
  if (packing == "float-quantized") return "FP8";
  if (packing == "nvfp4-pack-quantized") return "NVFP4";
  if (packing == "mxfp4-pack-quantized") return "MXFP4";
  return packing == "pack-quantized" ? "GPTQ-INT4" : "";
}

}  // namespace

CheckpointQuantization checkpoint_quantization(const nlohmann::json& config) {
  CheckpointQuantization found;
  const nlohmann::json* qc = member(&config, "quantization_config");
  if (!qc || !qc->is_object()) return found;
  std::string method = lowered(member(qc, "quant_method"));
  // vLLM names a checkpoint whose only quantization file is hf_quant_config.json after its
  // producer (ModelConfig._parse_quant_hf_config): modelopt, or modelopt_fp4 for NVFP4.
  if (method.rfind("modelopt", 0) == 0 ||
      (method.empty() && lowered(member(member(qc, "producer"), "name")) == "modelopt")) {
    found.format = modelopt_format(qc);
    found.kv_cache = modelopt_kv_cache(qc);
    const nlohmann::json* kv = modelopt_value(qc, "kv_cache_scheme");
    found.sglang_kv_cache = sglang_fp8_scheme(kv ? kv : modelopt_value(qc, "kv_cache_quant_algo")) ? "fp8" : "";
  } else if (method == "compressed-tensors") {
    found.format = compressed_tensors_format(qc);
    // vllm/model_executor/layers/attention/attention.py (Attention.__init__, PR #30141; an
    // explicit --kv-cache-dtype wins since PR #42782, 2026-05-16): any kv_cache_scheme turns
    // "auto" into fp8.
    const nlohmann::json* kv = member(qc, "kv_cache_scheme");
    if (kv && kv->is_object()) found.kv_cache = "fp8";
    // SGLang reads the scheme since PR #35455 (2026-08-19) and keeps only what its KV method
    // represents, a static symmetric per-tensor FP8 scale; another scheme is skipped with a
    // warning and the cache stays 16-bit. (compressed-tensors' QuantizationArgs: static and
    // symmetric by default, and no strategy nor group size is per-tensor.)
    std::string strategy = lowered(member(kv, "strategy"));
    if (kv && kv->is_object() && sglang_fp8_scheme(kv) && boolean(kv, "dynamic") != 1 && boolean(kv, "symmetric") != 0 &&
        (strategy == "tensor" || (strategy.empty() && !member(kv, "group_size")))) {
      found.sglang_kv_cache = "fp8";
    }
  } else if (method == "fp8") {
    found.format = "FP8";
  } else if (method == "mxfp4") {
    found.format = "MXFP4";
  } else if (method == "awq") {
    found.format = integer(qc, "bits") == 4 ? "AWQ-INT4" : "";
  } else if (method == "gptq") {
    found.format = integer(qc, "bits") == 4 ? "GPTQ-INT4" : integer(qc, "bits") == 8 ? "GPTQ-INT8" : "";
  } else if (method == "bitsandbytes") {
    found.format = boolean(qc, "load_in_4bit") == 1 ? "BNB-NF4" : boolean(qc, "load_in_8bit") == 1 ? "BNB-INT8" : "";
  }
  return found;
}

}  // namespace llmcalc
