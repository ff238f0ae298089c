// Mistral params.json -> config.json. Key names from mistral-inference's ModelArgs / MoeArgs
// (dim, n_layers, head_dim, hidden_dim, n_heads, n_kv_heads, norm_eps, vocab_size, tied_embeddings,
// moe {num_experts, num_experts_per_tok, expert_hidden_dim, num_shared_experts,
// first_k_dense_replace}) and the MLA keys Mistral Large 3 adds (q_lora_rank, kv_lora_rank,
// qk_nope_head_dim, qk_rope_head_dim, v_head_dim). vLLM serves that model as
// MistralLarge3ForCausalLM, a DeepseekV3ForCausalLM whose router is a plain gate (TensorRT-LLM:
// Mistral3Gate with renormalized softmax top-k): no score-correction bias.
#include "mistral_params.h"

#include "llmcalc/json_reader.h"

namespace llmcalc {

std::optional<nlohmann::json> config_from_mistral_params(const nlohmann::json& params) {
  if (!params.is_object() || params.contains("hidden_size") || params.contains("model_type") ||
      !params.contains("dim") || !params.contains("n_layers")) {
    return std::nullopt;
  }
  nlohmann::json config = nlohmann::json::object();
  // Dense models write the MLA keys as null (Devstral 2): absent, as for a key left out.
  auto copy = [&](const char* from, const char* to) {
    auto it = params.find(from);
    if (it != params.end() && !it->is_null()) config[to] = *it;
  };
  copy("dim", "hidden_size");
  copy("n_layers", "num_hidden_layers");
  copy("n_heads", "num_attention_heads");
  copy("n_kv_heads", "num_key_value_heads");
  copy("head_dim", "head_dim");
  copy("hidden_dim", "intermediate_size");
  copy("vocab_size", "vocab_size");
  copy("norm_eps", "rms_norm_eps");
  copy("rope_theta", "rope_theta");
  copy("max_position_embeddings", "max_position_embeddings");
  copy("sliding_window", "sliding_window");
  config["tie_word_embeddings"] = boolean_or(params, "tied_embeddings", false);
  bool mla = params.contains("kv_lora_rank") && !params["kv_lora_rank"].is_null();
  for (const char* key : {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
    copy(key, key);
  }
  auto moe = params.find("moe");
  bool has_moe = moe != params.end() && moe->is_object();
  if (has_moe) {
    auto take = [&](const char* from, const char* to) {
      auto it = moe->find(from);
      if (it != moe->end()) config[to] = *it;
    };
    take("num_experts_per_tok", "num_experts_per_tok");
    take("first_k_dense_replace", "first_k_dense_replace");
    if (mla) {
      take("num_experts", "n_routed_experts");
      take("num_shared_experts", "n_shared_experts");
      take("expert_hidden_dim", "moe_intermediate_size");
      config["topk_method"] = "greedy";
      config["num_nextn_predict_layers"] = 0;
    } else {
      take("num_experts", "num_local_experts");
    }
  }
  config["model_type"] = mla ? "deepseek_v3" : has_moe ? "mixtral" : "mistral";
  return config;
}

}  // namespace llmcalc
