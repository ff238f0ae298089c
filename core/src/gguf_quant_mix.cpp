// Reproduces llama.cpp's quantizer type choice, written from reading src/llama-quant.cpp at
// commit 007dbbf3 (llama_tensor_get_type_impl, llama_ftype_get_default_type,
// tensor_type_fallback); summarized in tests/data/llama_cpp_quant_rules.md.
#include "gguf_quant_mix.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <string_view>

#include "llmcalc/catalog.h"

namespace llmcalc {
namespace {

// attn_v-like (category_is_attn_v): attn_v, every fused attn_qkv (a gated-DeltaNet layer's in a
// Qwen3.5 file too) and MLA's attn_kv_b share the attn_v rules and its count.
bool attn_v_like(TensorRole role) {
  return role == TensorRole::attn_v || role == TensorRole::attn_qkv || role == TensorRole::linear_qkv ||
         role == TensorRole::attn_kv_b;
}

// llama.cpp's file types (llama-quantize names), compared as values in the per-tensor rules.
enum class Ftype {
  F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q2_K_S, Q3_K_S, Q3_K_M, Q3_K_L, Q4_K_S, Q4_K_M,
  Q5_K_S, Q5_K_M, Q6_K, IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ2_M, IQ3_XXS, IQ3_XS, IQ3_S, IQ3_M,
  IQ4_NL, IQ4_XS, TQ1_0, TQ2_0, MXFP4_MOE, other
};

struct FileType {
  const char* name;
  Ftype id;
  const char* default_type;
};

// llama_model_quantize_impl: default type per ftype.
const FileType kFileTypes[] = {
    {"F32", Ftype::F32, "F32"},               {"F16", Ftype::F16, "F16"},
    {"BF16", Ftype::BF16, "BF16"},            {"Q4_0", Ftype::Q4_0, "Q4_0"},
    {"Q4_1", Ftype::Q4_1, "Q4_1"},            {"Q5_0", Ftype::Q5_0, "Q5_0"},
    {"Q5_1", Ftype::Q5_1, "Q5_1"},            {"Q8_0", Ftype::Q8_0, "Q8_0"},
    {"Q2_K", Ftype::Q2_K, "Q2_K"},            {"Q2_K_S", Ftype::Q2_K_S, "Q2_K"},
    {"Q3_K_S", Ftype::Q3_K_S, "Q3_K"},        {"Q3_K_M", Ftype::Q3_K_M, "Q3_K"},
    {"Q3_K_L", Ftype::Q3_K_L, "Q3_K"},        {"Q4_K_S", Ftype::Q4_K_S, "Q4_K"},
    {"Q4_K_M", Ftype::Q4_K_M, "Q4_K"},        {"Q5_K_S", Ftype::Q5_K_S, "Q5_K"},
    {"Q5_K_M", Ftype::Q5_K_M, "Q5_K"},        {"Q6_K", Ftype::Q6_K, "Q6_K"},
    {"IQ1_S", Ftype::IQ1_S, "IQ1_S"},         {"IQ1_M", Ftype::IQ1_M, "IQ1_M"},
    {"IQ2_XXS", Ftype::IQ2_XXS, "IQ2_XXS"},   {"IQ2_XS", Ftype::IQ2_XS, "IQ2_XS"},
    {"IQ2_S", Ftype::IQ2_S, "IQ2_XS"},        {"IQ2_M", Ftype::IQ2_M, "IQ2_S"},
    {"IQ3_XXS", Ftype::IQ3_XXS, "IQ3_XXS"},   {"IQ3_XS", Ftype::IQ3_XS, "IQ3_S"},
    {"IQ3_S", Ftype::IQ3_S, "IQ3_S"},         {"IQ3_M", Ftype::IQ3_M, "IQ3_S"},
    {"IQ4_NL", Ftype::IQ4_NL, "IQ4_NL"},      {"IQ4_XS", Ftype::IQ4_XS, "IQ4_XS"},
    {"TQ1_0", Ftype::TQ1_0, "TQ1_0"},         {"TQ2_0", Ftype::TQ2_0, "TQ2_0"},
    {"MXFP4_MOE", Ftype::MXFP4_MOE, "MXFP4"},
};

// Community variants that keep token_embd and output at Q8_0 (llama-quantize
// --token-embedding-type q8_0 --output-tensor-type q8_0), named as bartowski's GGUF repositories
// name them ("Uses Q8_0 for embed and output weights"): variant -> base file type.
constexpr std::pair<std::string_view, std::string_view> kQ8EdgeVariants[] = {
    {"Q2_K_L", "Q2_K"}, {"Q3_K_XL", "Q3_K_L"}, {"Q4_K_L", "Q4_K_M"},
    {"Q5_K_L", "Q5_K_M"}, {"Q6_K_L", "Q6_K"}};

Ftype ftype_of(const std::string& name) {
  for (const FileType& f : kFileTypes) {
    if (name == f.name) return f.id;
  }
  return Ftype::other;
}

bool is(Ftype ftype, std::initializer_list<Ftype> options) {
  return std::find(options.begin(), options.end(), ftype) != options.end();
}

// llama-quant.cpp use_more_bits: first and last eighth, and every third layer between.
bool use_more_bits(int64_t i_layer, int64_t n_layers) {
  return i_layer < n_layers / 8 || i_layer >= 7 * n_layers / 8 || (i_layer - n_layers / 8) % 3 == 2;
}

struct QuantState {
  bool iq_low = false;  // a 1- or 2-bit IQ file type (the rules' first question, once per file)
  int64_t n_gqa = 1;
  int64_t n_expert = 0;
  bool is_70b = false;
  bool has_imatrix = false;
  bool has_output = true;
  int64_t n_attention_wv = 0;
  int64_t n_ffn_down = 0;
  int64_t i_attention_wv = 0;
  int64_t i_ffn_down = 0;
};

// The ggml types the rules name, resolved once from the catalog.
struct Types {
  const GgmlType *F16, *Q8_0, *Q6_K, *Q5_K, *Q5_1, *Q4_K, *Q4_1, *Q4_0, *Q3_K, *Q2_K, *IQ4_NL, *IQ3_S,
      *IQ3_XXS, *IQ2_S, *IQ2_XXS, *MXFP4;
};

const Types& types() {
  static const Types named = [] {
    auto t = [](const char* name) { return Catalog::instance().find_ggml_type(name); };
    return Types{t("F16"),    t("Q8_0"),   t("Q6_K"),    t("Q5_K"),  t("Q5_1"),  t("Q4_K"),
                 t("Q4_1"),   t("Q4_0"),   t("Q3_K"),    t("Q2_K"),  t("IQ4_NL"), t("IQ3_S"),
                 t("IQ3_XXS"), t("IQ2_S"), t("IQ2_XXS"), t("MXFP4")};
  }();
  return named;
}

// Whether `name` holds `text` from `at` on; compared a character at a time, since in
// WebAssembly each string_view comparison was a call to memcmp (issue #22).
bool holds_at(std::string_view name, std::size_t at, std::string_view text) {
  if (at > name.size() || name.size() - at < text.size()) return false;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (name[at + k] != text[k]) return false;
  }
  return true;
}

const GgmlType* choose(Ftype ftype, const GgmlType* base_type, const TensorSpec& t, QuantState& qs,
                       int64_t n_layers) {
  const Types& T = types();
  const GgmlType* type = base_type;
  bool is_output = t.role == TensorRole::output || (!qs.has_output && t.role == TensorRole::token_embd);
  const bool iq_low = qs.iq_low;
  if (is_output) {
    if (ftype == Ftype::MXFP4_MOE || t.ne0 % type->block_elements != 0) return T.Q8_0;
    if (iq_low || ftype == Ftype::IQ3_XXS) return T.Q5_K;
    return type != T.Q8_0 ? T.Q6_K : type;
  }
  bool v_like = attn_v_like(t.role);
  if (ftype == Ftype::MXFP4_MOE) return t.ne2 > 1 ? T.MXFP4 : T.Q8_0;
  // TOKEN_EMBD is token_embd.weight and Gemma's per_layer_token_embd.weight alike.
  if (t.role == TensorRole::token_embd || t.role == TensorRole::per_layer_embd) {
    if (is(ftype, {Ftype::IQ2_XXS, Ftype::IQ2_XS, Ftype::IQ1_S, Ftype::IQ1_M})) return T.Q2_K;
    if (is(ftype, {Ftype::IQ2_S, Ftype::IQ2_M, Ftype::IQ3_XXS})) return T.IQ3_S;
    if (is(ftype, {Ftype::TQ1_0, Ftype::TQ2_0})) return T.Q4_K;
    return type;
  }
  auto name_has = [&t, v_like](QuantNameTest test) { return !v_like && (t.quant_name_tests & test) != 0; };
  if (iq_low) {
    if (v_like) {
      type = (qs.n_gqa >= 4 || qs.n_expert >= 4)    ? T.Q4_K
             : is(ftype, {Ftype::IQ2_S, Ftype::IQ2_M}) ? T.IQ3_S
                                                       : T.Q2_K;
      ++qs.i_attention_wv;
    } else if (qs.n_expert == 8 && name_has(kNameAttnK)) {
      type = T.Q4_K;
    } else if (name_has(kNameFfnDown)) {
      if (qs.i_ffn_down < qs.n_ffn_down / 8) type = is(ftype, {Ftype::IQ2_S, Ftype::IQ2_M}) ? T.IQ3_S : T.Q2_K;
      ++qs.i_ffn_down;
    } else if (name_has(kNameAttnOutput)) {
      if (qs.n_expert == 8) {
        type = T.Q5_K;
      } else if (is(ftype, {Ftype::IQ1_S, Ftype::IQ1_M})) {
        type = T.IQ2_XXS;
      } else if (is(ftype, {Ftype::IQ2_S, Ftype::IQ2_M})) {
        type = T.IQ3_S;
      }
    }
    return type;
  }
  if (v_like) {
    if (ftype == Ftype::Q2_K) {
      type = qs.n_gqa >= 4 ? T.Q4_K : T.Q3_K;
    } else if (ftype == Ftype::Q2_K_S && qs.n_gqa >= 4) {
      type = T.Q4_K;
    } else if (ftype == Ftype::IQ3_XXS) {
      type = qs.n_gqa >= 4 ? T.Q4_K : qs.has_imatrix ? T.IQ3_XXS : T.IQ3_S;
    } else if (is(ftype, {Ftype::IQ3_XS, Ftype::IQ3_S}) && qs.n_gqa >= 4) {
      type = T.Q4_K;
    } else if (ftype == Ftype::IQ3_M) {
      type = T.Q4_K;
    } else if (ftype == Ftype::Q3_K_M) {
      type = qs.i_attention_wv < 2 ? T.Q5_K : T.Q4_K;
    } else if (ftype == Ftype::Q3_K_L) {
      type = T.Q5_K;
    } else if (is(ftype, {Ftype::IQ4_NL, Ftype::IQ4_XS}) && qs.n_gqa >= 4) {
      type = T.Q5_K;
    } else if (is(ftype, {Ftype::Q4_K_M, Ftype::Q5_K_M}) && use_more_bits(qs.i_attention_wv, qs.n_attention_wv)) {
      type = T.Q6_K;
    } else if (ftype == Ftype::Q4_K_S && qs.i_attention_wv < 4) {
      type = T.Q5_K;
    }
    if (qs.is_70b && (type == T.Q3_K || type == T.Q4_K)) type = T.Q5_K;
    if (qs.n_expert == 8) type = T.Q8_0;
    ++qs.i_attention_wv;
  } else if (name_has(kNameAttnK)) {
    if (qs.n_expert == 8) {
      type = T.Q8_0;
    } else if (ftype == Ftype::IQ3_XS) {
      type = T.IQ3_XXS;
    } else if (ftype == Ftype::IQ3_XXS) {
      type = T.IQ2_S;
    }
  } else if (name_has(kNameAttnQ)) {
    if (ftype == Ftype::IQ3_XS) {
      type = T.IQ3_XXS;
    } else if (ftype == Ftype::IQ3_XXS) {
      type = T.IQ2_S;
    }
  } else if (name_has(kNameFfnDown)) {
    // With experts, layer_info() reads the layer from the tensor name.
    int64_t i_layer = qs.n_expert > 1 ? t.layer : qs.i_ffn_down;
    int64_t n_layer = qs.n_expert > 1 ? n_layers : qs.n_ffn_down;
    if (ftype == Ftype::Q2_K) {
      type = T.Q3_K;
    } else if (ftype == Ftype::Q2_K_S) {
      if (i_layer < n_layer / 8) type = T.Q4_K;
    } else if (ftype == Ftype::IQ3_XXS && !qs.has_imatrix) {
      type = i_layer < n_layer / 8 ? T.Q4_K : T.Q3_K;
    } else if (ftype == Ftype::Q3_K_M) {
      type = i_layer < n_layer / 16 ? T.Q5_K : T.Q4_K;
    } else if (ftype == Ftype::IQ3_M &&
               (i_layer < n_layer / 8 || (qs.n_expert == 8 && use_more_bits(i_layer, n_layer)))) {
      type = T.Q4_K;
    } else if (ftype == Ftype::Q3_K_L) {
      type = T.Q5_K;
    } else if (ftype == Ftype::Q4_K_M) {
      if (use_more_bits(i_layer, n_layer)) type = T.Q6_K;
    } else if (i_layer < n_layer / 8 && is(ftype, {Ftype::IQ4_NL, Ftype::IQ4_XS}) && !qs.has_imatrix) {
      type = T.Q5_K;
    } else if (ftype == Ftype::Q5_K_M && use_more_bits(i_layer, n_layer)) {
      type = T.Q6_K;
    } else if (ftype == Ftype::Q4_K_S && i_layer < n_layer / 8) {
      type = T.Q5_K;
    } else if (is(ftype, {Ftype::Q4_0, Ftype::Q5_0}) && qs.has_imatrix && i_layer < n_layer / 8) {
      type = ftype == Ftype::Q4_0 ? T.Q4_1 : T.Q5_1;
    }
    ++qs.i_ffn_down;
  } else if (name_has(kNameAttnOutput)) {
    if (qs.n_expert == 8) {
      if (is(ftype, {Ftype::Q2_K, Ftype::IQ3_XS, Ftype::IQ3_XXS, Ftype::Q3_K_S, Ftype::Q3_K_M, Ftype::IQ4_NL,
                     Ftype::Q4_K_S, Ftype::Q4_K_M, Ftype::IQ3_S, Ftype::IQ3_M, Ftype::IQ4_XS})) {
        type = T.Q5_K;
      }
    } else if (ftype == Ftype::Q2_K) {
      type = T.Q3_K;
    } else if (ftype == Ftype::IQ3_XXS) {
      type = T.IQ3_S;
    } else if (ftype == Ftype::Q3_K_M) {
      type = T.Q4_K;
    } else if (ftype == Ftype::Q3_K_L) {
      type = T.Q5_K;
    } else if (ftype == Ftype::IQ3_M) {
      type = T.Q4_K;
    }
  } else if ((name_has(kNameFfnGate) || name_has(kNameFfnUp)) && ftype == Ftype::IQ3_XS) {
    int64_t i_layer = t.layer;
    if (i_layer >= n_layers / 8 && i_layer < 7 * n_layers / 8) type = T.IQ3_XXS;
  }
  return type;
}

// The least common multiple of every ggml type's block: rows of a multiple of it fit any type.
int64_t common_block_multiple() {
  static const int64_t multiple = [] {
    int64_t lcm = 1;
    for (const GgmlType& type : Catalog::instance().ggml_types()) lcm = std::lcm(lcm, type.block_elements);
    return lcm;
  }();
  return multiple;
}

// Rows whose length is not a multiple of the block fall back (llama-quant.cpp, after the rules).
const GgmlType* apply_row_fallback(const GgmlType* type, int64_t ne0) {
  if (ne0 % common_block_multiple() == 0 || ne0 % type->block_elements == 0) return type;
  static constexpr std::pair<std::string_view, const char*> kFallback[] = {
      {"TQ1_0", "Q4_0"},    {"TQ2_0", "Q4_0"},    {"IQ2_XXS", "IQ4_NL"}, {"IQ2_XS", "IQ4_NL"},
      {"IQ2_S", "IQ4_NL"},  {"IQ3_XXS", "IQ4_NL"}, {"IQ3_S", "IQ4_NL"},  {"IQ1_S", "IQ4_NL"},
      {"IQ1_M", "IQ4_NL"},  {"Q2_K", "Q4_0"},     {"Q3_K", "Q4_0"},     {"IQ4_XS", "IQ4_NL"},
      {"Q4_K", "Q5_0"},     {"Q5_K", "Q5_1"},     {"Q6_K", "Q8_0"}};
  auto it = std::find_if(std::begin(kFallback), std::end(kFallback),
                         [&](const auto& entry) { return entry.first == type->name; });
  const GgmlType* fallback =
      it == std::end(kFallback) ? types().F16 : Catalog::instance().find_ggml_type(it->second);
  if (!fallback || ne0 % fallback->block_elements != 0) return types().F16;
  return fallback;
}

// Tensors llama-quantize leaves as converted: 1-D tensors (norms, biases, sinks) are F32, and so
// is the MoE router (ffn_gate_inp) and the conv1d of recurrent layers. Gemma's per-layer model
// projection (per_layer_model_proj, on the quantizer's skip list) stays at the converter's 16 bits.
bool kept_unquantized(const TensorSpec& t) {
  return t.ne1 == 1 || t.role == TensorRole::norm || t.role == TensorRole::bias ||
         t.role == TensorRole::ffn_gate_inp || t.role == TensorRole::ffn_gate_inp_shexp ||
         t.role == TensorRole::attn_sinks || t.role == TensorRole::ssm_conv ||
         t.role == TensorRole::ssm_small;
}

}  // namespace

const std::vector<std::string>& gguf_file_types() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const FileType& f : kFileTypes) out.emplace_back(f.name);
    for (const auto& variant : kQ8EdgeVariants) out.emplace_back(variant.first);
    return out;
  }();
  return names;
}

bool gguf_requires_imatrix(const std::string& ftype) {
  // llama-quantize refuses these without an importance matrix (IQ1/IQ2/IQ3_XXS destinations and
  // the Q2_K tensors of Q2_K_S), so every such file was made with one.
  return is(ftype_of(ftype), {Ftype::IQ1_S, Ftype::IQ1_M, Ftype::IQ2_XXS, Ftype::IQ2_XS, Ftype::IQ2_S,
                              Ftype::IQ2_M, Ftype::IQ3_XXS, Ftype::Q2_K_S});
}

std::uint8_t quant_name_tests(const TensorName& tensor_name) {
  // From the name's underscores: every occurrence of "attn_" or "ffn_" ends at one, and a test
  // passes when any occurrence is followed by its rest (whose first character picks the test).
  using namespace std::string_view_literals;
  const std::string_view name = tensor_name.view();
  std::uint8_t tests = 0;
  auto test = [&](std::size_t at, std::string_view rest, QuantNameTest bit) {
    if (holds_at(name, at, rest)) tests |= bit;
  };
  tensor_name.for_each_position_of('_', [&](std::size_t at) {
    const char next = at + 1 < name.size() ? name[at + 1] : '\0';
    if (at >= 4 && holds_at(name, at - 4, "attn"sv)) {
      if (next == 'k') test(at + 1, "k.weight"sv, kNameAttnK);
      if (next == 'q') test(at + 1, "q.weight"sv, kNameAttnQ);
      if (next == 'o') test(at + 1, "output.weight"sv, kNameAttnOutput);
    } else if (at >= 3 && holds_at(name, at - 3, "ffn"sv)) {
      if (next == 'd') test(at + 1, "down"sv, kNameFfnDown);
      if (next == 'g') test(at + 1, "gate"sv, kNameFfnGate);
      if (next == 'u') test(at + 1, "up"sv, kNameFfnUp);
    }
  });
  return tests;
}

std::vector<const GgmlType*> gguf_tensor_types(const ModelSpec& model, const std::string& requested,
                                               bool imatrix) {
  std::string ftype = requested;
  auto variant = std::find_if(std::begin(kQ8EdgeVariants), std::end(kQ8EdgeVariants),
                              [&](const auto& entry) { return entry.first == requested; });
  bool q8_edges = variant != std::end(kQ8EdgeVariants);
  if (q8_edges) ftype = std::string(variant->second);
  const Catalog& catalog = Catalog::instance();
  const GgmlType* base_type = nullptr;
  for (const FileType& f : kFileTypes) {
    if (ftype == f.name) base_type = catalog.find_ggml_type(f.default_type);
  }
  QuantState qs;
  qs.has_imatrix = imatrix || gguf_requires_imatrix(ftype);
  if (!model.layers.empty() && model.layers[0].attention.n_kv_heads > 0) {
    qs.n_gqa = model.layers[0].attention.n_q_heads / model.layers[0].attention.n_kv_heads;
  }
  for (const LayerSpec& layer : model.layers) qs.n_expert = std::max(qs.n_expert, layer.mlp.n_experts);
  qs.is_70b = model.n_layers == 80 && (model.model_type == "llama" || model.model_type == "qwen2");
  qs.has_output = !model.tied_embeddings;
  qs.n_ffn_down = model.n_layers;
  for (const TensorSpec& t : model.tensors) {
    if (t.part != ModelPart::text) continue;
    if (attn_v_like(t.role)) ++qs.n_attention_wv;
  }
  Ftype id = ftype_of(ftype);
  qs.iq_low = is(id, {Ftype::IQ2_XXS, Ftype::IQ2_XS, Ftype::IQ1_S, Ftype::IQ2_S, Ftype::IQ2_M, Ftype::IQ1_M});
  bool full_precision = is(id, {Ftype::F32, Ftype::F16, Ftype::BF16});
  const GgmlType* f32 = catalog.find_ggml_type("F32");
  // gpt-oss ships its experts in MXFP4 and llama-quantize keeps them so: every published
  // gpt-oss-20b quant (Q2_K ... Q6_K) is 11.5-12.1 GB, with only the other tensors changing.
  const bool mxfp4_experts = model.model_type == "gpt_oss";
  std::vector<const GgmlType*> out;
  out.reserve(model.tensors.size());
  for (const TensorSpec& t : model.tensors) {
    // MTP layers get a type like any decoder layer (weights.cpp keeps their bytes apart).
    if (t.part != ModelPart::text && t.part != ModelPart::mtp) {
      out.push_back(nullptr);
      continue;
    }
    if (kept_unquantized(t)) {
      out.push_back(f32);
      continue;
    }
    if (t.role == TensorRole::per_layer_proj && t.name == "per_layer_model_proj.weight") {
      out.push_back(full_precision ? base_type : types().F16);
      continue;
    }
    const GgmlType* type = full_precision ? base_type
                           : mxfp4_experts && t.ne2 > 1 ? types().MXFP4
                                           : apply_row_fallback(choose(id, base_type, t, qs, model.n_layers), t.ne0);
    bool edge = t.role == TensorRole::token_embd || t.role == TensorRole::output;
    if (q8_edges && edge) type = types().Q8_0;
    out.push_back(type);
  }
  return out;
}

}  // namespace llmcalc
