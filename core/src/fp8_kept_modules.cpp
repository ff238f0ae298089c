// The modules an FP8 checkpoint keeps unquantized (see the header). vLLM's Fp8Config reads the
// list as ignored_layers (vllm/model_executor/layers/quantization/fp8.py), transformers' as
// modules_to_not_convert; an entry names one module ("model.layers.7.self_attn.o_proj").
#include "fp8_kept_modules.h"

#include <set>
#include <string>
#include <utility>

namespace llmcalc {
namespace {

// Module names after "model.layers.<i>." and the role of their tensor.
const std::pair<const char*, TensorRole> kModules[] = {
    {"self_attn.o_proj", TensorRole::attn_output}, {"self_attn.qkv_proj", TensorRole::attn_qkv},
    {"self_attn.q_proj", TensorRole::attn_q},       {"self_attn.k_proj", TensorRole::attn_k},
    {"self_attn.v_proj", TensorRole::attn_v},
};

}  // namespace

std::vector<TensorRole> fp8_kept_roles(const nlohmann::json& config, int64_t layers) {
  std::vector<TensorRole> kept;
  auto quantization = config.find("quantization_config");
  if (quantization == config.end() || !quantization->is_object() ||
      quantization->value("quant_method", std::string()) != "fp8") {
    return kept;
  }
  const std::string prefix = "model.layers.";
  for (const char* key : {"ignored_layers", "modules_to_not_convert"}) {
    auto list = quantization->find(key);
    if (list == quantization->end() || !list->is_array()) continue;
    for (const auto& [module, role] : kModules) {
      std::set<std::string> layers_named;
      for (const auto& entry : *list) {
        if (!entry.is_string()) continue;
        const std::string& name = entry.get_ref<const std::string&>();
        std::size_t dot = name.find('.', prefix.size());
        if (name.compare(0, prefix.size(), prefix) == 0 && dot != std::string::npos && name.substr(dot + 1) == module) {
          layers_named.insert(name.substr(prefix.size(), dot - prefix.size()));
        }
      }
      if (static_cast<int64_t>(layers_named.size()) >= layers && layers > 0) kept.push_back(role);
    }
  }
  return kept;
}

}  // namespace llmcalc
