// Reads a Hugging Face config.json into ArchConfig: key aliases, text_config nesting, family
// conventions (transformers' modeling_<family>.py files define which tensors exist).
#include "arch_config.h"
#include "family.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>

#include "llmcalc/catalog.h"
#include "llmcalc/json_reader.h"
#include "round_up.h"

namespace llmcalc {
namespace {

constexpr std::string_view kKnownFamilies[] = {
    "llama",     "mistral",     "mistral3", "qwen2",       "qwen3",      "granite",
    "phi3",      "gemma",       "gemma2",   "gemma3",      "gemma3_text", "mixtral",
    "qwen2_moe", "qwen3_moe",   "deepseek_v2", "deepseek_v3", "kimi_k2",  "gpt_oss",
    "glm4",      "glm4_moe",    "cohere",   "cohere2",     "olmo2",      "qwen3_next",
    "smollm3",   "ernie4_5",    "ernie4_5_moe", "llama4",     "deepseek_v32", "hunyuan",
    "nemotron-nas", "minimax_m1", "minimax", "jamba",      "deepseek",   "bailing_moe",
    "nemotron_h", "lfm2",  "exaone4",  "minimax_m2", "hunyuan_v1_dense", "minicpm",
    "granitemoehybrid", "lfm2_moe", "falcon_h1", "gemma4", "glm_moe_dsa", "glm4_moe_lite", "kimi_linear",
    "hy_v3",     "phi4-siglip"};

// A model_type the reader knows: a family of kKnownFamilies or of the registry.
bool known_family(const ArchConfig& arch) {
  return arch.family ||
         std::find(std::begin(kKnownFamilies), std::end(kKnownFamilies), arch.model_type) != std::end(kKnownFamilies);
}

// Bytes per element of a torch dtype named in a config ("float32", "bfloat16"); 0 for none.
int64_t dtype_bytes(const std::string& name) {
  return name == "float32" ? 4 : name == "bfloat16" || name == "float16" ? 2 : 0;
}

// A nested config with transformers' defaults filled in for the keys it omits.
nlohmann::json with_defaults(const nlohmann::json& config) {
  if (!config.is_object()) return config;
  auto type = config.find("model_type");
  if (type == config.end() || !type->is_string()) return config;
  const nlohmann::json* defaults = Catalog::instance().config_defaults(type->get<std::string>());
  if (!defaults) return config;
  nlohmann::json merged = *defaults;
  for (const auto& [key, value] : config.items()) merged[key] = value;
  return merged;
}

bool is_one_of(const std::string& value, std::initializer_list<const char*> options) {
  return std::any_of(options.begin(), options.end(),
                     [&](const char* option) { return value == option; });
}

// First present key among aliases, read as a bounded integer.
std::optional<int64_t> first_integer(JsonReader& reader, std::initializer_list<const char*> keys,
                                     int64_t min, int64_t max, std::optional<int64_t> fallback) {
  for (const char* key : keys) {
    if (reader.has(key)) return reader.integer(key, min, max);
  }
  if (!fallback) {
    reader.issues().error("missing_key", reader.path_of(*keys.begin()),
                          std::string("Required key '") + *keys.begin() + "' is missing.");
  }
  return fallback;
}

AttentionKind attention_kind_from_layer_type(const std::string& type, bool& known) {
  known = true;
  if (type == "full_attention" || type == "attention") return AttentionKind::full;
  if (type == "sliding_attention") return AttentionKind::sliding;
  if (type == "chunked_attention") return AttentionKind::chunked;
  if (type == "linear_attention") return AttentionKind::linear;
  if (type == "mamba") return AttentionKind::ssm;  // Granite 4.0 hybrids
  if (type == "conv") return AttentionKind::ssm;   // LFM2 short-convolution blocks
  known = false;
  return AttentionKind::full;
}

void read_layer_types(const nlohmann::json& text, const std::string& path, ArchConfig& arch,
                      Issues& issues) {
  auto it = text.find("layer_types");
  if (it == text.end() || it->is_null()) return;
  std::string types_path = json_pointer_append(path, "layer_types");
  if (!it->is_array() || static_cast<int64_t>(it->size()) < arch.n_layers) {
    issues.error("bad_layer_types", types_path,
                 "'layer_types' must list one attention type per hidden layer.");
    return;
  }
  arch.layer_attention.clear();
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    const auto& entry = (*it)[static_cast<std::size_t>(i)];
    bool known = false;
    AttentionKind kind = entry.is_string()
                             ? attention_kind_from_layer_type(entry.get<std::string>(), known)
                             : AttentionKind::full;
    if (!known) {
      issues.error("unknown_layer_type", types_path + "/" + std::to_string(i),
                   "Unknown layer type; expected full_attention, sliding_attention, "
                   "chunked_attention, linear_attention, mamba or conv.");
      return;
    }
    arch.layer_attention.push_back(kind);
  }
}

// Sliding-window layout of families whose configs predate `layer_types`.
void default_sliding_pattern(const nlohmann::json& text, ArchConfig& arch, JsonReader& reader) {
  const std::string& type = arch.model_type;
  int64_t period = 0;  // every period-th layer is global, the others slide
  if (type == "gemma2") period = 2;
  if (type == "gemma3" || type == "gemma3_text") {
    period = reader.integer("sliding_window_pattern", 1, kMaxLayers, 6).value_or(6);
  }
  if (type == "cohere2") {
    period = reader.integer("sliding_window_pattern", 1, kMaxLayers, 4).value_or(4);
  }
  if (period > 0 && arch.sliding_window > 0) {
    // gemma2: even layers slide (modeling_gemma2.py `not bool(layer_idx % 2)`);
    // gemma3 / cohere2: layer i is global when (i + 1) % period == 0.
    for (int64_t i = 0; i < arch.n_layers; ++i) {
      bool global = type == "gemma2" ? (i % 2 == 1) : ((i + 1) % period == 0);
      arch.layer_attention[static_cast<std::size_t>(i)] =
          global ? AttentionKind::full : AttentionKind::sliding;
    }
    return;
  }
  // Mistral-style configs: a sliding_window on every layer unless explicitly disabled.
  bool use_sliding = true;
  auto flag = text.find("use_sliding_window");
  if (flag != text.end() && flag->is_boolean()) use_sliding = flag->get<bool>();
  if (is_one_of(type, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe"})) {
    use_sliding = flag != text.end() && flag->is_boolean() && flag->get<bool>();
  }
  if (type == "mistral" && use_sliding && arch.sliding_window > 0 &&
      arch.sliding_window < arch.max_context) {
    std::fill(arch.layer_attention.begin(), arch.layer_attention.end(), AttentionKind::sliding);
  }
}

// A ViT tower's width, MLP, depth and patch size; `layers_key` names its depth.
VisionConfig read_vit_shape(JsonReader& reader, const char* kind, const char* layers_key) {
  VisionConfig vision;
  vision.kind = kind;
  vision.hidden = reader.integer("hidden_size", 1, kMaxHidden).value_or(0);
  vision.intermediate = reader.integer("intermediate_size", 1, kMaxHidden * 8).value_or(0);
  vision.n_layers = reader.integer(layers_key, 1, kMaxLayers).value_or(0);
  vision.patch_size = reader.integer("patch_size", 1, 1 << 12).value_or(0);
  vision.named_layers = reader.integer("num_hidden_layers", 1, kMaxLayers, 0).value_or(0);
  vision.named_hidden = vision.hidden;
  vision.heads = first_integer(reader, {"num_heads", "num_attention_heads"}, 1, kMaxHeads, 0).value_or(0);
  return vision;
}

// Qwen3-VL's vision model (modeling_qwen3_vl.py Qwen3VLVisionModel): a biased Conv3d patch
// embedding over temporal_patch_size frames, learned position embeddings, `depth` ViT blocks, and a
// patch merger (LayerNorm, two linears over spatial_merge_size^2 patches) into the text width, plus
// one more merger, normed after the shuffle, per deepstack_visual_indexes entry.
void read_qwen3_vl_vision(const nlohmann::json& vision_config, const std::string& path,
                          ArchConfig& arch, Issues& issues) {
  JsonReader reader(vision_config, path, issues);
  VisionConfig vision = read_vit_shape(reader, "qwen3_vl", "depth");
  vision.channels = reader.integer("in_channels", 1, 16, 3).value_or(3);
  vision.temporal_patch = reader.integer("temporal_patch_size", 1, 16, 2).value_or(2);
  vision.num_positions = reader.integer("num_position_embeddings", 0, 1 << 20, 2304).value_or(2304);
  int64_t merge = reader.integer("spatial_merge_size", 1, 16, 2).value_or(2);
  vision.adapter_in = vision.hidden * merge * merge;
  vision.projector_out = reader.integer("out_hidden_size", 1, kMaxHidden, arch.hidden).value_or(arch.hidden);
  auto deepstack = vision_config.find("deepstack_visual_indexes");
  if (deepstack != vision_config.end() && deepstack->is_array()) {
    vision.deepstack_mergers = static_cast<int64_t>(std::min<std::size_t>(deepstack->size(), kMaxLayers));
  }
  if (vision.hidden > 0 && vision.patch_size > 0 && vision.n_layers > 0) arch.vision = vision;
}

// Gemma 4's vision model (modeling_gemma4.py Gemma4VisionModel): a bias-free linear patch
// projection, a two-axis learned position table, GQA blocks with q/k norms, gated MLPs and four
// RMSNorms, then embed_vision into the text width. Its standardization buffers are not parameters.
void read_gemma4_vision(const nlohmann::json& vision_config, const std::string& path,
                        ArchConfig& arch, Issues& issues) {
  JsonReader reader(vision_config, path, issues);
  VisionConfig vision = read_vit_shape(reader, "gemma4", "num_hidden_layers");
  vision.num_positions = reader.integer("position_embedding_size", 0, 1 << 20, 10240).value_or(10240);
  vision.heads = reader.integer("num_attention_heads", 1, kMaxHeads, 16).value_or(16);
  vision.kv_heads = reader.integer("num_key_value_heads", 1, kMaxHeads, vision.heads).value_or(vision.heads);
  vision.head_dim = reader.integer("head_dim", 1, kMaxHidden, 64).value_or(64);
  vision.projector_out = arch.hidden;
  if (vision.hidden > 0 && vision.patch_size > 0 && vision.n_layers > 0) arch.vision = vision;
}

void read_gemma4_audio(const nlohmann::json& config, const std::string& path, ArchConfig& arch,
                       Issues& issues) {
  auto found = config.find("audio_config");
  if (found == config.end() || !found->is_object()) return;
  JsonReader reader(*found, json_pointer_append(path, "audio_config"), issues);
  AudioConfig audio;
  audio.hidden = reader.integer("hidden_size", 1, kMaxHidden, 0).value_or(0);
  audio.n_layers = reader.integer("num_hidden_layers", 1, kMaxLayers, 0).value_or(0);
  audio.heads = reader.integer("num_attention_heads", 1, kMaxHeads, 8).value_or(8);
  audio.conv_kernel = reader.integer("conv_kernel_size", 1, 64, 5).value_or(5);
  audio.output_dims = reader.integer("output_proj_dims", 1, kMaxHidden, audio.hidden).value_or(audio.hidden);
  auto channels = found->find("subsampling_conv_channels");
  if (channels != found->end() && channels->is_array() && channels->size() == 2) {
    for (const nlohmann::json& c : *channels) {
      if (c.is_number_integer() && c.get<int64_t>() > 0 && c.get<int64_t>() <= kMaxHidden) {
        audio.subsampling_channels.push_back(c.get<int64_t>());
      }
    }
  }
  if (audio.subsampling_channels.size() != 2 || audio.hidden % audio.heads != 0) {
    issues.warning("audio_not_counted", json_pointer_append(path, "audio_config"),
                   say(issues.language, "The audio tower's shape is not understood; parameters leave it out.",
                       "No se entiende la forma de la torre de audio; los parámetros la dejan fuera."));
    return;
  }
  if (audio.hidden > 0 && audio.n_layers > 0) arch.audio = audio;
}

// Kimi K2.5's MoonViT (modeling_kimi_k25.py / MoonViT): a biased conv patch embedding, a learned
// 2-D position table (init_pos_emb_height x width; the time table is fixed), pre-norm blocks
// with LayerNorms, a fused biased qkv, a biased output and a biased GELU MLP, a final LayerNorm;
// then the patch merger over merge_kernel_size patches (a LayerNorm and two biased linears) into
// the text width. Kimi K3's variant turns the biases off (linear_bias), uses RMSNorms, widens the
// qkv (qkv_hidden_size) and uses patchmergerv2 (two linears, then a norm at the text width).
void read_moonvit(const nlohmann::json& vision_config, const std::string& path, ArchConfig& arch,
                  Issues& issues) {
  JsonReader reader(vision_config, path, issues);
  VisionConfig vision;
  vision.kind = "moonvit";
  vision.hidden = reader.integer("vt_hidden_size", 1, kMaxHidden, 0).value_or(0);
  vision.intermediate = reader.integer("vt_intermediate_size", 1, kMaxHidden * 8, 0).value_or(0);
  vision.n_layers = reader.integer("vt_num_hidden_layers", 1, kMaxLayers, 0).value_or(0);
  vision.heads = reader.integer("vt_num_attention_heads", 1, kMaxHeads, 16).value_or(16);
  vision.patch_size = reader.integer("patch_size", 1, 1024, 14).value_or(14);
  vision.num_positions = reader.integer("init_pos_emb_height", 1, 4096, 64).value_or(64) *
                         reader.integer("init_pos_emb_width", 1, 4096, 64).value_or(64);
  int64_t merge = 1;
  auto kernel = vision_config.find("merge_kernel_size");
  if (kernel != vision_config.end() && kernel->is_array()) {
    for (const nlohmann::json& k : *kernel) {
      if (k.is_number_integer() && k.get<int64_t>() > 0 && k.get<int64_t>() <= 16) merge *= k.get<int64_t>();
    }
  }
  vision.adapter_in = reader.integer("mm_hidden_size", 1, kMaxHidden, vision.hidden).value_or(vision.hidden) * merge;
  vision.projector_out = reader.integer("text_hidden_size", 1, kMaxHidden, arch.hidden).value_or(arch.hidden);
  vision.biases = reader.boolean("linear_bias", true).value_or(true);
  vision.rms_norm = reader.string("norm_type", 32, std::string("layernorm")).value_or("layernorm") == "rmsnorm";
  vision.qkv_width = reader.integer("qkv_hidden_size", 1, kMaxHidden, vision.hidden).value_or(vision.hidden);
  vision.merger_v2 = reader.string("mm_projector_type", 32, std::string("patchmerger")).value_or("") == "patchmergerv2";
  vision.named_layers = reader.integer("num_hidden_layers", 1, kMaxLayers, 0).value_or(0);
  vision.named_hidden = reader.integer("hidden_size", 1, kMaxHidden, 0).value_or(0);
  if (vision.hidden > 0 && vision.intermediate > 0 && vision.n_layers > 0) arch.vision = vision;
}

void read_vision(const nlohmann::json& config, const std::string& path, ArchConfig& arch,
                 Issues& issues) {
  auto found = config.find("vision_config");
  if (found == config.end() || !found->is_object() || (arch.family && arch.family->reads_multimodal)) return;
  nlohmann::json vision_config = with_defaults(*found);
  const nlohmann::json* it = &vision_config;
  std::string model_type = string_or(config, "model_type", "");
  if (is_one_of(model_type, {"qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "qwen4_exp"})) {
    read_qwen3_vl_vision(vision_config, json_pointer_append(path, "vision_config"), arch, issues);
    return;
  }
  if (model_type == "gemma4") {
    read_gemma4_vision(vision_config, json_pointer_append(path, "vision_config"), arch, issues);
    read_gemma4_audio(config, path, arch, issues);
    return;
  }
  if (model_type == "kimi_k25" || model_type == "kimi_k3") {
    read_moonvit(vision_config, json_pointer_append(path, "vision_config"), arch, issues);
    return;
  }
  if (model_type != "gemma3" && model_type != "llama4" && model_type != "mistral3") {
    issues.warning("vision_not_counted", json_pointer_append(path, "vision_config"),
                   say(issues.language,
                       "The vision tower of this family is not counted; parameters cover the text model only.",
                       "La torre de visión de esta familia no se cuenta; los parámetros cubren solo el modelo de texto."));
    return;
  }
  // Gemma 3: SigLIP encoder (modeling_siglip.py) and a linear projector. Llama 4:
  // Llama4VisionModel with a pixel-shuffle MLP adapter and a linear projector (modeling_llama4.py).
  JsonReader reader(*it, json_pointer_append(path, "vision_config"), issues);
  VisionConfig vision;
  vision.kind = model_type == "gemma3" ? "siglip" : model_type == "llama4" ? "llama4" : "pixtral";
  vision.hidden = reader.integer("hidden_size", 1, kMaxHidden).value_or(0);
  vision.intermediate = reader.integer("intermediate_size", 1, kMaxHidden * 8).value_or(0);
  vision.n_layers = reader.integer("num_hidden_layers", 1, kMaxLayers).value_or(0);
  vision.image_size = reader.integer("image_size", 1, 1 << 16).value_or(0);
  vision.patch_size = reader.integer("patch_size", 1, 1 << 12).value_or(0);
  vision.channels = reader.integer("num_channels", 1, 16, 3).value_or(3);
  vision.heads = reader.integer("num_attention_heads", 1, kMaxHeads, 0).value_or(0);
  vision.projector_out = arch.hidden;
  vision.named_layers = vision.n_layers;
  vision.named_hidden = vision.hidden;
  if (vision.kind == "pixtral") {
    // Mistral 3 (modeling_mistral3.py): the patch merger folds spatial_merge_size^2 patches.
    int64_t merge = 2;
    auto merge_it = config.find("spatial_merge_size");
    if (merge_it != config.end() && merge_it->is_number_integer()) merge = merge_it->get<int64_t>();
    vision.adapter_in = vision.hidden * merge * merge;
  }
  if (vision.kind == "llama4") {
    vision.adapter_in = vision.intermediate;
    vision.adapter_mid = reader.integer("projector_input_dim", 1, kMaxHidden).value_or(0);
    vision.adapter_out = reader.integer("projector_output_dim", 1, kMaxHidden).value_or(0);
  }
  if (vision.hidden > 0 && vision.patch_size > 0 && vision.n_layers > 0) arch.vision = vision;
}

void apply_llama4(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  // modeling_llama4.py: MoE on every interleave_moe_layer_step-th layer, each with a shared
  // expert of intermediate_size; dense layers use intermediate_size_mlp. Layers with RoPE use
  // chunked attention over attention_chunk_size; every fourth layer (no_rope_layers == 0) is a
  // global NoPE layer. The QK norm is a weightless L2 norm.
  int64_t expert_width = arch.intermediate;
  arch.intermediate = reader.integer("intermediate_size_mlp", 1, kMaxHidden * 64, expert_width)
                          .value_or(expert_width);
  std::fill(arch.layer_intermediate.begin(), arch.layer_intermediate.end(), arch.intermediate);
  arch.moe_intermediate = expert_width;
  arch.shared_intermediate = expert_width;
  arch.qk_norm = false;
  int64_t step = reader.integer("interleave_moe_layer_step", 1, kMaxLayers, 1).value_or(1);
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    arch.layer_moe[static_cast<std::size_t>(i)] = arch.n_experts > 0 && (i + 1) % step == 0;
  }
  arch.chunk_size = reader.integer("attention_chunk_size", 0, kMaxContextTokens, 0).value_or(0);
  auto no_rope = text.find("no_rope_layers");
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    bool rope = (i + 1) % 4 != 0;
    if (no_rope != text.end() && no_rope->is_array() &&
        static_cast<int64_t>(no_rope->size()) > i) {
      const auto& flag = (*no_rope)[static_cast<std::size_t>(i)];
      rope = flag.is_number() && flag.get<double>() != 0.0;
    }
    arch.layer_attention[static_cast<std::size_t>(i)] =
        rope && arch.chunk_size > 0 ? AttentionKind::chunked : AttentionKind::full;
  }
}

std::set<int64_t> read_index_list(const nlohmann::json& text, const char* key) {
  std::set<int64_t> out;
  auto it = text.find(key);
  if (it == text.end() || !it->is_array()) return out;
  for (const auto& entry : *it) {
    if (entry.is_number_integer()) out.insert(entry.get<int64_t>());
  }
  return out;
}

std::string family_of_architecture(const nlohmann::json& config) {
  auto architectures = config.find("architectures");
  if (architectures == config.end() || !architectures->is_array() || architectures->empty()) return "";
  const nlohmann::json& first = architectures->front();
  return first.is_string() && first.get<std::string>() == "MiniCPMForCausalLM" ? "minicpm" : "";
}

// Mellum (transformers modular_mellum.py MellumDecoderLayer) names each layer's MLP:
// "sparse" (Qwen3-MoE's experts) or "dense" (an intermediate_size SwiGLU).
void read_mlp_layer_types(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  auto it = text.find("mlp_layer_types");
  if (it == text.end() || it->is_null()) return;
  std::string types_path = json_pointer_append(reader.path(), "mlp_layer_types");
  if (!it->is_array() || static_cast<int64_t>(it->size()) < arch.n_layers) {
    reader.issues().error("bad_layer_types", types_path,
                          "'mlp_layer_types' must list one MLP type per hidden layer.");
    return;
  }
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    const auto& entry = (*it)[static_cast<std::size_t>(i)];
    std::string kind = entry.is_string() ? entry.get<std::string>() : "";
    if (kind != "sparse" && kind != "dense") {
      reader.issues().error("unknown_layer_type", types_path + "/" + std::to_string(i),
                            "Unknown MLP type; expected sparse or dense.");
      return;
    }
    arch.layer_moe[static_cast<std::size_t>(i)] = kind == "sparse";
  }
}

void read_moe(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  const std::string& type = arch.model_type;
  arch.n_experts = first_integer(reader, {"num_experts", "num_local_experts", "n_routed_experts",
                                          "moe_num_experts"},
                                 0, kMaxExperts, 0).value_or(0);
  if (arch.n_experts <= 0) return;
  arch.n_experts_active = first_integer(reader, {"num_experts_per_tok", "experts_per_token",
                                                 "moe_k", "num_experts_per_token", "top_k_experts",
                                                 "moe_top_k"},
                                        1, arch.n_experts, std::nullopt).value_or(1);
  arch.moe_intermediate = first_integer(reader, {"moe_intermediate_size"}, 1, kMaxHidden * 64,
                                        arch.intermediate).value_or(0);
  int64_t n_shared = first_integer(reader, {"n_shared_experts", "num_shared_experts",
                                            "moe_num_shared_experts"},
                                   0, kMaxExperts, 0).value_or(0);
  arch.shared_intermediate = n_shared * arch.moe_intermediate;
  if (reader.has("shared_expert_intermediate_size")) {
    arch.shared_intermediate =
        reader.integer("shared_expert_intermediate_size", 0, kMaxHidden * 64).value_or(0);
    arch.shared_expert_gate = arch.shared_intermediate > 0;
  }
  arch.router_bias = type == "gpt_oss";
  arch.expert_bias = type == "gpt_oss";
  // Aux-loss-free routing keeps a per-expert score bias (e_score_correction_bias /
  // moe_statics / expert_bias).
  // DeepSeek V3's gate keeps it only for topk_method noaux_tc (modeling_deepseek_v3.py MoEGate);
  // a plain softmax top-k ("greedy", Mistral Large 3's gate) has none.
  bool plain_topk = reader.string("topk_method", 32, std::string("noaux_tc")).value_or("noaux_tc") == "greedy";
  // Hy3 (hy_v3) keeps it where moe_router_enable_expert_bias says so (its Hub total counts 192 F32
  // per MoE layer, the MTP layer's included).
  arch.expert_score_bias = (is_one_of(type, {"deepseek_v3", "kimi_k2", "glm4_moe", "glm4_moe_lite",
                                              "bailing_moe", "minimax_m2", "kimi_linear"}) && !plain_topk) ||
                           (type == "ernie4_5_moe" && reader.boolean("moe_use_aux_free", false).value_or(false)) ||
                           (type == "hy_v3" && reader.boolean("moe_router_enable_expert_bias", false).value_or(false));

  // Which layers are MoE. DeepSeek / GLM-4.5 (modeling_deepseek_v3.py): i >= first_k_dense_replace
  // and i % moe_layer_freq == 0. Qwen2/3-MoE (modeling_qwen2_moe.py): i not in mlp_only_layers
  // and (i + 1) % decoder_sparse_step == 0.
  // ERNIE 4.5 names them moe_layer_start_index / moe_layer_interval (modeling_ernie4_5_moe.py),
  // LFM2-MoE num_dense_layers (modeling_lfm2_moe.py).
  int64_t first_dense = first_integer(reader, {"first_k_dense_replace", "moe_layer_start_index",
                                               "num_dense_layers"},
                                      0, kMaxLayers, 0).value_or(0);
  // MiMo-V2 lists moe_layer_freq per layer (core/src/families/mimo_v2.cpp reads it).
  auto freq_list = text.find("moe_layer_freq");
  int64_t freq = freq_list != text.end() && freq_list->is_array()
                     ? 1
                     : first_integer(reader, {"moe_layer_freq", "moe_layer_interval"}, 1, kMaxLayers, 1).value_or(1);
  int64_t step = reader.integer("decoder_sparse_step", 1, kMaxLayers, 1).value_or(1);
  std::set<int64_t> dense_only = read_index_list(text, "mlp_only_layers");
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    bool moe = i >= first_dense && i % freq == 0 && (i + 1) % step == 0 && !dense_only.count(i);
    arch.layer_moe[static_cast<std::size_t>(i)] = moe;
  }
  read_mlp_layer_types(text, reader, arch);
  // ERNIE 4.5's MTP block is a dense decoder layer (full FFN, no experts) with mtp_emb_norm,
  // mtp_hidden_norm and a 2h -> h projection, sharing the embedding and head (the -Paddle Hub
  // total: 989,888,512 for the 300B's block).
  if (type == "ernie4_5_moe" && arch.mtp_layers > 0) {
    auto total = static_cast<std::size_t>(arch.n_layers + arch.mtp_layers);
    arch.layer_attention.resize(total, AttentionKind::full);
    arch.layer_moe.resize(total, false);
    arch.layer_intermediate.resize(total, arch.intermediate);
    arch.layer_kv_heads.resize(total, arch.n_kv_heads);
    arch.mtp_own_embeddings = false;
    arch.mtp_shared_head_norm = false;
  }
}

void read_mla(JsonReader& reader, ArchConfig& arch) {
  arch.mla = true;
  arch.q_lora_rank = reader.integer("q_lora_rank", 0, kMaxHidden, 0).value_or(0);
  arch.kv_lora_rank = reader.integer("kv_lora_rank", 1, kMaxHidden).value_or(0);
  arch.qk_rope_head_dim = reader.integer("qk_rope_head_dim", 1, kMaxHidden).value_or(0);
  arch.qk_nope_head_dim = reader.integer("qk_nope_head_dim", 0, kMaxHidden).value_or(0);
  arch.v_head_dim = reader.integer("v_head_dim", 1, kMaxHidden).value_or(0);
  arch.head_dim = arch.qk_nope_head_dim + arch.qk_rope_head_dim;
  arch.n_kv_heads = arch.n_heads;
  std::fill(arch.layer_attention.begin(), arch.layer_attention.end(), AttentionKind::mla);
}

void read_linear_attention(JsonReader& reader, ArchConfig& arch) {
  // Qwen3-Next (modeling_qwen3_next.py): gated DeltaNet layers, a full-attention layer every
  // full_attention_interval layers, and a sigmoid output gate folded into q_proj.
  arch.linear_k_heads = reader.integer("linear_num_key_heads", 1, kMaxHeads).value_or(0);
  arch.linear_v_heads = reader.integer("linear_num_value_heads", 1, kMaxHeads).value_or(0);
  arch.linear_k_head_dim = reader.integer("linear_key_head_dim", 1, kMaxHidden).value_or(0);
  arch.linear_v_head_dim = reader.integer("linear_value_head_dim", 1, kMaxHidden).value_or(0);
  arch.linear_conv_kernel = reader.integer("linear_conv_kernel_dim", 1, 64, 4).value_or(4);
  // Qwen3.5's configs name the recurrent state's dtype (mamba_ssm_dtype: float32), which vLLM
  // keeps (Qwen3.5's model config); Qwen3-Next's name none: the model's dtype.
  arch.ssm_state_dtype_bytes = dtype_bytes(reader.string("mamba_ssm_dtype", 16, std::string()).value_or(""));
  arch.attn_output_gate = true;
  arch.qk_norm = true;
  // The checkpoints ship one multi-token-prediction layer (mtp.* tensors) that the config does
  // not declare; vLLM's Qwen3NextMTP defaults num_nextn_predict_layers to 1.
  if (arch.mtp_layers == 0) arch.mtp_layers = 1;
  int64_t interval = reader.integer("full_attention_interval", 1, kMaxLayers, 4).value_or(4);
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    arch.layer_attention[static_cast<std::size_t>(i)] =
        (i + 1) % interval == 0 ? AttentionKind::full : AttentionKind::linear;
  }
}

// Kimi Linear (modeling_kimi.py; the KDA module is fla-org/flash-linear-attention's
// fla/layers/kda.py KimiDeltaAttention): linear_attn_config lists its Kimi Delta Attention layers
// and its MLA layers, both 1-based; KDA keeps a heads x head_dim x head_dim f32 state and a
// short convolution over q, k and v per sequence.
void apply_kimi_linear(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  auto config = text.find("linear_attn_config");
  if (config == text.end() || !config->is_object()) {
    reader.issues().error("missing_key", reader.path_of("linear_attn_config"),
                          "Kimi Linear needs linear_attn_config (its KDA and MLA layer lists).");
    return;
  }
  JsonReader linear(*config, reader.path_of("linear_attn_config"), reader.issues());
  arch.kda = true;
  arch.linear_k_heads = linear.integer("num_heads", 1, kMaxHeads).value_or(0);
  arch.linear_v_heads = arch.linear_k_heads;
  arch.linear_k_head_dim = linear.integer("head_dim", 1, kMaxHidden).value_or(0);
  arch.linear_v_head_dim = arch.linear_k_head_dim;
  arch.linear_conv_kernel = linear.integer("short_conv_kernel_size", 1, 64, 4).value_or(4);
  arch.full_rank_output_gate = linear.boolean("use_full_rank_gate", false).value_or(false);
  // Kimi K3's keys: attention residuals (attn_res_block_size), the LatentMoE latent and its norm.
  arch.attention_residuals = reader.integer("attn_res_block_size", 0, kMaxLayers, 0).value_or(0) > 0;
  arch.moe_latent = reader.integer("routed_expert_hidden_size", 0, kMaxHidden, 0).value_or(0);
  arch.moe_latent_norm = arch.moe_latent > 0 && reader.boolean("latent_moe_use_norm", false).value_or(false);
  std::set<int64_t> kda = read_index_list(*config, "kda_layers");
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    arch.layer_attention[static_cast<std::size_t>(i)] = kda.count(i + 1) ? AttentionKind::linear : AttentionKind::mla;
  }
}

// First element of a per-layer list, or the value itself (Hunyuan writes lists).
std::optional<int64_t> scalar_or_first(const nlohmann::json& text, const char* key) {
  auto it = text.find(key);
  if (it == text.end()) return std::nullopt;
  const nlohmann::json& value = it->is_array() && !it->empty() ? it->front() : *it;
  if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > kMaxHidden * 64) {
    return std::nullopt;
  }
  return value.get<int64_t>();
}

// Hunyuan-A13B (modeling_hunyuan.py): every layer MoE, a shared MLP of intermediate_size x
// num_shared_expert, per-layer lists for expert width and top-k, QK RMSNorm per head.
void apply_hunyuan(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  arch.head_dim = reader.integer("attention_head_dim", 1, kMaxHidden, arch.head_dim).value_or(arch.head_dim);
  arch.v_head_dim = arch.head_dim;
  arch.n_experts = reader.integer("num_experts", 0, kMaxExperts, 0).value_or(0);
  arch.n_experts_active = scalar_or_first(text, "moe_topk").value_or(1);
  arch.moe_intermediate = scalar_or_first(text, "moe_intermediate_size").value_or(arch.intermediate);
  bool mixed = reader.boolean("use_mixed_mlp_moe", false).value_or(false);
  arch.shared_intermediate = mixed ? arch.intermediate * scalar_or_first(text, "num_shared_expert").value_or(1) : 0;
  if (arch.n_experts_active > arch.n_experts) arch.n_experts_active = arch.n_experts;
  std::fill(arch.layer_moe.begin(), arch.layer_moe.end(), arch.n_experts > 0);
}

// DeciLM / Llama-Nemotron (modeling_decilm.py): per-layer block_configs; attention may be a
// no-op or have n_heads / n_heads_in_group KV heads; FFN width from ffn_mult as
// _ffn_mult_to_intermediate_size: int(2 * ffn_mult * hidden / 3) rounded up to 256.
void apply_nemotron_nas(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  auto blocks = text.find("block_configs");
  std::string path = reader.path_of("block_configs");
  if (blocks == text.end() || !blocks->is_array() ||
      static_cast<int64_t>(blocks->size()) < arch.n_layers) {
    reader.issues().error("bad_block_configs", path, "block_configs must list one block per layer.");
    return;
  }
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    auto index = static_cast<std::size_t>(i);
    const nlohmann::json& block = (*blocks)[index];
    const nlohmann::json attention = block.is_object() ? block.value("attention", nlohmann::json::object())
                                                       : nlohmann::json::object();
    const nlohmann::json ffn = block.is_object() ? block.value("ffn", nlohmann::json::object())
                                                 : nlohmann::json::object();
    if (boolean_or(attention, "no_op", false)) {
      arch.layer_attention[index] = AttentionKind::none;
    } else {
      auto group = attention.find("n_heads_in_group");
      int64_t in_group = group != attention.end() && group->is_number_integer() ? group->get<int64_t>() : 1;
      if (in_group < 1 || arch.n_heads % in_group != 0) {
        reader.issues().error("bad_block_configs", path + "/" + std::to_string(i),
                              "n_heads_in_group must divide num_attention_heads.");
        return;
      }
      arch.layer_kv_heads[index] = arch.n_heads / in_group;
    }
    if (boolean_or(ffn, "no_op", false)) {
      arch.layer_intermediate[index] = 0;
    } else {
      auto mult = ffn.find("ffn_mult");
      double m = mult != ffn.end() && mult->is_number() ? mult->get<double>() : 0.0;
      if (!(m > 0.0 && m < 1000.0)) {
        reader.issues().error("bad_block_configs", path + "/" + std::to_string(i),
                              "ffn_mult must be a positive number.");
        return;
      }
      auto width = static_cast<int64_t>(2.0 * m * static_cast<double>(arch.hidden) / 3.0);
      arch.layer_intermediate[index] = (width + 255) / 256 * 256;
    }
  }
}

// MiniMax-01 / M1 (modeling_minimax.py): attn_type_list marks softmax (1) and lightning linear
// attention (0) layers; every layer is MoE.
void apply_minimax(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  arch.lightning_attention = true;
  auto types = text.find("attn_type_list");
  if (types == text.end() || !types->is_array() || static_cast<int64_t>(types->size()) < arch.n_layers) {
    reader.issues().error("bad_attn_type_list", reader.path_of("attn_type_list"),
                          "attn_type_list must list one attention type per layer.");
    return;
  }
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    const auto& entry = (*types)[static_cast<std::size_t>(i)];
    bool softmax = entry.is_number_integer() && entry.get<int64_t>() == 1;
    arch.layer_attention[static_cast<std::size_t>(i)] = softmax ? AttentionKind::full : AttentionKind::linear;
  }
  arch.linear_v_heads = arch.n_heads;
  arch.linear_k_heads = arch.n_heads;
  arch.linear_k_head_dim = arch.head_dim;
  arch.linear_v_head_dim = arch.head_dim;
  arch.linear_conv_kernel = 1;
}

// Jamba (modeling_jamba.py): attention every attn_layer_period layers at attn_layer_offset, Mamba
// elsewhere; MoE every expert_layer_period layers at expert_layer_offset.
void apply_jamba(JsonReader& reader, ArchConfig& arch) {
  int64_t attn_period = reader.integer("attn_layer_period", 1, kMaxLayers, 8).value_or(8);
  int64_t attn_offset = reader.integer("attn_layer_offset", 0, kMaxLayers, 4).value_or(4);
  int64_t expert_period = reader.integer("expert_layer_period", 1, kMaxLayers, 2).value_or(2);
  int64_t expert_offset = reader.integer("expert_layer_offset", 0, kMaxLayers, 1).value_or(1);
  int64_t expand = reader.integer("mamba_expand", 1, 64, 2).value_or(2);
  arch.mamba_d_inner = expand * arch.hidden;
  arch.mamba_d_state = reader.integer("mamba_d_state", 1, 4096, 16).value_or(16);
  arch.mamba_d_conv = reader.integer("mamba_d_conv", 1, 64, 4).value_or(4);
  arch.mamba_dt_rank = reader.integer("mamba_dt_rank", 1, kMaxHidden, (arch.hidden + 15) / 16)
                           .value_or((arch.hidden + 15) / 16);
  arch.mamba_conv_bias = reader.boolean("mamba_conv_bias", true).value_or(true);
  arch.mamba_proj_bias = reader.boolean("mamba_proj_bias", false).value_or(false);
  arch.mamba_dt_norms = true;
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    auto index = static_cast<std::size_t>(i);
    arch.layer_attention[index] = i % attn_period == attn_offset ? AttentionKind::full : AttentionKind::ssm;
    arch.layer_moe[index] = arch.n_experts > 0 && i % expert_period == expert_offset;
  }
}

// Nemotron-H block pattern: a string (hybrid_override_pattern) or, in newer configs such as
// Nemotron 3 Ultra's, a list of block names (layers_block_type), mapped to the same letters.
std::string nemotron_pattern(const nlohmann::json& text, JsonReader& reader, const char* string_key,
                             const char* list_key) {
  if (reader.has(string_key)) return reader.string(string_key, 4096, std::string("")).value_or("");
  auto list = text.find(list_key);
  if (list == text.end() || !list->is_array()) return "";
  std::string pattern;
  for (const auto& name : *list) {
    std::string block = name.is_string() ? name.get<std::string>() : "";
    pattern += block == "mamba" || block == "linear_attention"  ? 'M'
               : block == "attention" || block == "full_attention" ? '*'
               : block == "moe"                                    ? 'E'
               : block == "mlp"                                    ? '-'
                                                                   : '?';
  }
  return pattern;
}

// Nemotron-H (modeling_nemotron_h.py): hybrid_override_pattern gives one block per layer: M =
// Mamba2 mixer, * = attention, - = MLP (squared ReLU, not gated), E = MoE of such MLPs.
void apply_nemotron_h(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  std::string pattern = nemotron_pattern(text, reader, "hybrid_override_pattern", "layers_block_type");
  if (static_cast<int64_t>(pattern.size()) < arch.n_layers) {
    reader.issues().error("bad_hybrid_pattern", reader.path_of("hybrid_override_pattern"),
                          "hybrid_override_pattern must have one character per layer.");
    return;
  }
  arch.gated_mlp = false;
  arch.mamba2 = true;
  arch.mamba_heads = reader.integer("mamba_num_heads", 1, kMaxHeads, 1).value_or(1);
  int64_t head_dim = reader.integer("mamba_head_dim", 1, kMaxHidden, 64).value_or(64);
  arch.mamba_d_inner = arch.mamba_heads * head_dim;
  arch.mamba_d_state = reader.integer("ssm_state_size", 1, 4096, 128).value_or(128);
  arch.mamba_d_conv = reader.integer("conv_kernel", 1, 64, 4).value_or(4);
  arch.mamba_groups = reader.integer("n_groups", 1, kMaxHeads, 1).value_or(1);
  // vLLM keeps the SSM state in the config's mamba_ssm_cache_dtype, float32 when it names none
  // (models/config.py NemotronHForCausalLMConfig; the float32 fallback since PR #39032).
  arch.ssm_state_dtype_bytes = dtype_bytes(reader.string("mamba_ssm_cache_dtype", 16, std::string("float32")).value_or("float32"));
  arch.mamba_conv_bias = reader.boolean("use_conv_bias", true).value_or(true);
  arch.mamba_proj_bias = reader.boolean("mamba_proj_bias", false).value_or(false);
  arch.mamba_out_bias = arch.mamba_proj_bias;
  arch.head_dim = reader.integer("attention_head_dim", 1, kMaxHidden, arch.head_dim).value_or(arch.head_dim);
  arch.v_head_dim = arch.head_dim;
  arch.moe_intermediate = reader.integer("moe_intermediate_size", 0, kMaxHidden * 64, arch.moe_intermediate)
                              .value_or(arch.moe_intermediate);
  arch.shared_intermediate =
      reader.integer("moe_shared_expert_intermediate_size", 0, kMaxHidden * 64, 0).value_or(0);
  // The router's e_score_correction_bias is a buffer the checkpoints do not store (the Hub total
  // of Nemotron-3-Nano-30B-A3B leaves out 23 x 128 such elements).
  arch.expert_score_bias = false;
  // LatentMoE (Nemotron 3 Super / Ultra): the routed experts work in moe_latent_size, between
  // fc1_latent_proj and fc2_latent_proj; the router and the shared expert stay at hidden_size.
  arch.moe_latent = reader.integer("moe_latent_size", 1, kMaxHidden, 0).value_or(0);
  // The MTP block (num_nextn_predict_layers) is one more layer per mtp_hybrid_override_pattern
  // character after the last decoder layer, sharing the embedding and head (Megatron-Bridge
  // nemotron_h_bridge.py flattens them to mtp.layers.{k}).
  std::string mtp_pattern =
      arch.mtp_layers > 0 ? nemotron_pattern(text, reader, "mtp_hybrid_override_pattern", "mtp_layers_block_type")
                          : "";
  if (!mtp_pattern.empty()) {
    arch.mtp_block_layers = static_cast<int64_t>(mtp_pattern.size());
    pattern = pattern.substr(0, static_cast<std::size_t>(arch.n_layers)) + mtp_pattern;
    auto total = static_cast<std::size_t>(arch.n_layers + arch.mtp_block_layers);
    arch.layer_attention.resize(total);
    arch.layer_moe.resize(total);
    arch.layer_intermediate.resize(total);
    arch.layer_kv_heads.resize(total, arch.n_kv_heads);
  }
  for (std::size_t index = 0; index < arch.layer_attention.size(); ++index) {
    char block = pattern[index];
    arch.layer_attention[index] = block == 'M' ? AttentionKind::ssm
                                  : block == '*' ? AttentionKind::full
                                                 : AttentionKind::none;
    arch.layer_moe[index] = block == 'E';
    arch.layer_intermediate[index] = block == '-' ? arch.intermediate : 0;
    if (block != 'M' && block != '*' && block != '-' && block != 'E') {
      reader.issues().error("bad_hybrid_pattern", reader.path_of("hybrid_override_pattern"),
                            "hybrid_override_pattern may only contain M, *, - and E.");
      return;
    }
  }
}

// The Mamba2 mixer keys Bamba-style configs share (Granite 4.0 H, Falcon-H1), with
// transformers' defaults.
void read_bamba_mixer(JsonReader& reader, ArchConfig& arch) {
  arch.mamba2 = true;
  arch.mamba_heads = reader.integer("mamba_n_heads", 1, kMaxHeads, 128).value_or(128);
  arch.mamba_d_state = reader.integer("mamba_d_state", 1, 4096, 256).value_or(256);
  arch.mamba_d_conv = reader.integer("mamba_d_conv", 1, 64, 4).value_or(4);
  arch.mamba_groups = reader.integer("mamba_n_groups", 1, kMaxHeads, 1).value_or(1);
  arch.mamba_conv_bias = reader.boolean("mamba_conv_bias", true).value_or(true);
  arch.mamba_proj_bias = reader.boolean("mamba_proj_bias", false).value_or(false);
}

// Granite 4.0 hybrids (modeling_granitemoehybrid.py): layer_types picks a Mamba2 mixer (as
// Bamba's, d_inner = mamba_expand x hidden) or GQA attention; every layer has a gated shared MLP
// of shared_intermediate_size, and a MoE of intermediate_size-wide experts when num_local_experts > 0.
void apply_granitemoehybrid(JsonReader& reader, ArchConfig& arch) {
  int64_t expand = reader.integer("mamba_expand", 1, 64, 2).value_or(2);
  arch.mamba_d_inner = expand * arch.hidden;
  read_bamba_mixer(reader, arch);
  arch.mamba_out_bias = arch.mamba_proj_bias;
  int64_t shared = reader.integer("shared_intermediate_size", 0, kMaxHidden * 64, 1024).value_or(1024);
  if (arch.n_experts > 0) {
    arch.shared_intermediate = shared;
    arch.shared_expert_gate = false;
  } else {
    arch.intermediate = shared;
    std::fill(arch.layer_intermediate.begin(), arch.layer_intermediate.end(), shared);
  }
}

// Falcon-H1 (modeling_falcon_h1.py): every layer runs GQA attention and a Mamba2 mixer side by
// side on the same normed input, then a SwiGLU MLP. The mixer is mamba_d_ssm wide (else
// mamba_expand x hidden); its gated RMSNorm exists only with mamba_rms_norm, and its out_proj bias
// follows projectors_bias.
void apply_falcon_h1(JsonReader& reader, ArchConfig& arch) {
  arch.parallel_mamba = true;
  int64_t expand = reader.integer("mamba_expand", 1, 64, 2).value_or(2);
  arch.mamba_d_inner = reader.integer("mamba_d_ssm", 1, kMaxHidden * 64, expand * arch.hidden)
                           .value_or(expand * arch.hidden);
  read_bamba_mixer(reader, arch);
  arch.mamba_out_bias = reader.boolean("projectors_bias", false).value_or(false);
  arch.mamba_gated_norm = reader.boolean("mamba_rms_norm", false).value_or(false);
  if (arch.mamba_d_inner % arch.mamba_heads != 0) {
    reader.issues().error("bad_mamba_heads", reader.path_of("mamba_n_heads"),
                          "mamba_n_heads must divide the mixer width (mamba_d_ssm).");
  }
}

// Gemma 4 (modeling_gemma4.py): Gemma 3's sandwich norms and per-head q/k norms, with
// full-attention layers of global_head_dim and, under attention_k_eq_v, num_global_key_value_heads
// and no v_proj (V comes from the k_proj output through a weightless norm). With
// enable_moe_block every layer also runs experts beside its dense MLP (the converter calls that
// MLP the shared expert), with a router that scales its input and each expert, and three more
// norms around the experts.
void apply_gemma4(JsonReader& reader, ArchConfig& arch) {
  arch.global_head_dim = reader.integer("global_head_dim", 1, kMaxHidden, arch.head_dim).value_or(arch.head_dim);
  // E2B / E4B: per-layer embeddings, KV sharing and the double-wide MLP of the sharing layers
  // (Gemma4TextMLP: layer_idx >= num_hidden_layers - num_kv_shared_layers).
  arch.ple_width = reader.integer("hidden_size_per_layer_input", 0, kMaxHidden, 0).value_or(0);
  arch.ple_vocab = reader.integer("vocab_size_per_layer_input", 0, kMaxVocab, arch.vocab).value_or(arch.vocab);
  arch.kv_shared_layers = reader.integer("num_kv_shared_layers", 0, arch.n_layers - 1, 0).value_or(0);
  // E2B / E4B checkpoints store each layer's layer_scalar; the 26B and 31B Hub totals count none.
  arch.layer_scalar = arch.ple_width > 0;
  if (reader.boolean("use_double_wide_mlp", false).value_or(false)) {
    for (int64_t i = arch.n_layers - arch.kv_shared_layers; i < arch.n_layers; ++i) {
      arch.layer_intermediate[static_cast<std::size_t>(i)] *= 2;
    }
  }
  arch.k_eq_v = reader.boolean("attention_k_eq_v", false).value_or(false);
  int64_t global_kv = reader.integer("num_global_key_value_heads", 1, kMaxHeads, arch.n_kv_heads)
                          .value_or(arch.n_kv_heads);
  for (std::size_t i = 0; i < arch.layer_attention.size(); ++i) {
    if (arch.layer_attention[i] == AttentionKind::full && arch.k_eq_v) arch.layer_kv_heads[i] = global_kv;
  }
  if (!reader.boolean("enable_moe_block", false).value_or(false)) {
    std::fill(arch.layer_moe.begin(), arch.layer_moe.end(), false);
    return;
  }
  arch.shared_intermediate = arch.intermediate;
  arch.shared_expert_gate = false;
  arch.router_scales = true;
  arch.moe_extra_norms = 3;
}

// LFM2 (modeling_lfm2.py): gated short-convolution blocks, with GQA attention (per-head QK
// RMSNorm) at full_attn_idxs; the SwiGLU width is block_ff_dim auto-adjusted like Llama's
// (2/3 of it, times the multiplier, rounded up to block_multiple_of); embeddings tied. LFM2-MoE
// (modeling_lfm2_moe.py) keeps the blocks and swaps the FFN of all but the first num_dense_layers
// for sigmoid-routed experts.
void apply_lfm2(const nlohmann::json& text, JsonReader& reader, ArchConfig& arch) {
  arch.short_conv_kernel = reader.integer("conv_L_cache", 1, 64, 3).value_or(3);
  arch.short_conv_bias = reader.boolean("conv_bias", false).value_or(false);
  arch.qk_norm = true;
  arch.tied = reader.boolean("tie_embedding", true).value_or(true);
  int64_t ff = reader.integer("block_ff_dim", 1, kMaxHidden * 64, arch.intermediate).value_or(arch.intermediate);
  if (reader.boolean("block_auto_adjust_ff_dim", false).value_or(false)) {
    double multiplier = reader.number("block_ffn_dim_multiplier", 0.01, 100, 1.0).value_or(1.0);
    int64_t multiple = reader.integer("block_multiple_of", 1, 65536, 256).value_or(256);
    ff = static_cast<int64_t>(multiplier * static_cast<double>(2 * ff / 3));
    ff = round_up(ff, multiple);
  }
  arch.intermediate = ff;
  std::fill(arch.layer_intermediate.begin(), arch.layer_intermediate.end(), ff);
  // Newer configs (LFM2-2.6B, LFM2-MoE) list layer_types ("conv" / "full_attention") instead.
  if (text.contains("layer_types")) return;
  std::set<int64_t> attention = read_index_list(text, "full_attn_idxs");
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    arch.layer_attention[static_cast<std::size_t>(i)] =
        attention.count(i) ? AttentionKind::full : AttentionKind::ssm;
  }
}

void apply_family_conventions(const nlohmann::json& config, const std::string& path, const nlohmann::json& text,
                              JsonReader& reader, ArchConfig& arch) {
  const std::string& type = arch.model_type;
  bool attention_bias = reader.boolean("attention_bias", false).value_or(false);
  arch.qkv_bias = attention_bias || type == "qwen2" || type == "qwen2_moe";
  arch.o_bias = attention_bias && is_one_of(type, {"llama", "mistral", "granite", "gpt_oss",
                                                    "smollm3", "olmo2", "granitemoehybrid",
                                                    "falcon_h1"});
  if (reader.has("qkv_bias")) arch.qkv_bias = reader.boolean("qkv_bias").value_or(false);
  arch.mlp_bias = reader.boolean("mlp_bias", false).value_or(false);
  // EXAONE 4 (QK-Reorder-Norm): per-head RMSNorm after the q and k projections, and its two
  // norms per layer sit after attention and after the MLP.
  // MiniMax-M2 (modeling_minimax_m2.py) normalizes the whole q and k projections before the
  // split into heads, as OLMo 2 does.
  // Hy3 (HYV3Config) names the switch qk_norm.
  arch.qk_norm = is_one_of(type, {"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "olmo2", "exaone4",
                                  "minimax_m2", "gemma4"}) ||
                 reader.boolean("use_qk_norm", false).value_or(false) ||
                 (type == "hy_v3" && reader.boolean("qk_norm", false).value_or(false));
  arch.qk_norm_full_width = type == "olmo2" || type == "minimax_m2";
  if (is_one_of(type, {"gemma2", "gemma3", "gemma3_text", "gemma4"})) arch.norms_per_layer = 4;
  if (type == "glm4") arch.norms_per_layer = 4;
  if (type == "cohere" || type == "cohere2") {
    arch.norms_per_layer = 1;  // parallel attention and MLP share one LayerNorm (no bias)
  }
  // Phi-4-reasoning-vision (phi4-siglip) is Phi-4's language model under a SigLIP-2 tower: its
  // GGUF files are Phi-3's fused layout (9,059,696,640 B at Q4_K_M against 9,055,703,040 of
  // tensors here; tests/data/gguf_file_sizes.json).
  arch.fused_qkv = type == "phi3" || type == "phi4-siglip";
  arch.attention_sinks = type == "gpt_oss";
  // Families whose config classes default to tied embeddings (SmolLM3Config and MiniCPM's too).
  if (type == "gemma" || type == "gemma2" || type == "gemma3" || type == "gemma3_text" ||
      type == "cohere" || type == "cohere2" || type == "smollm3" || type == "minicpm" ||
      type == "gemma4") {
    arch.tied = reader.boolean("tie_word_embeddings", true).value_or(true);
  }
  // GLM-5 (glm_moe_dsa) is DeepSeek V3.2's layout (MLA and the lightning indexer) with GLM's
  // widths; its MTP layer shares the main embedding and head (Qwen3-Next's and Hy3's do too).
  bool dsa = type == "deepseek_v32" || type == "glm_moe_dsa";
  arch.mtp_own_embeddings = !is_one_of(type, {"qwen3_next", "glm_moe_dsa", "hy_v3"});
  // GLM-4.7-Flash (glm4_moe_lite, modeling_glm4_moe_lite.py) is DeepSeek V3's MLA and MoE at
  // GLM widths, its MTP layer with its own embedding and head copies.
  // A model_type not known yet with DeepSeek's latent-attention keys (a new release before its
  // family is here, as Xing4.0 was) is read as DeepSeek's MLA: as a generic decoder its cache
  // came out a dozen times too large.
  if (is_one_of(type, {"deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32", "glm_moe_dsa",
                       "glm4_moe_lite", "kimi_linear"}) ||
      (!known_family(arch) && reader.has("kv_lora_rank") && reader.has("qk_rope_head_dim"))) {
    read_mla(reader, arch);
  }
  if (type == "kimi_linear") apply_kimi_linear(text, reader, arch);
  if (dsa) {
    arch.indexer_heads = reader.integer("index_n_heads", 1, kMaxHeads).value_or(0);
    // GLM-5.2's IndexShare: "shared" layers reuse the previous "full" layer's top-k and ship no
    // indexer weights (its FP8 config's modules_to_not_convert lists indexers on 21 of 78).
    auto types = text.find("indexer_types");
    if (types != text.end() && types->is_array()) {
      for (const auto& type_name : *types) {
        arch.layer_indexer.push_back(!(type_name.is_string() && type_name.get<std::string>() == "shared"));
      }
    }
    arch.indexer_head_dim = reader.integer("index_head_dim", 1, kMaxHidden).value_or(0);
  }
  if (type == "qwen3_next") read_linear_attention(reader, arch);
  read_layer_types(text, reader.path(), arch, reader.issues());
  if (arch.layer_attention.size() == static_cast<std::size_t>(arch.n_layers) &&
      !text.contains("layer_types") && type != "qwen3_next" && !arch.mla) {
    default_sliding_pattern(text, arch, reader);
  }
  if (type == "hunyuan") {
    apply_hunyuan(text, reader, arch);
  } else {
    read_moe(text, reader, arch);
  }
  if (type == "llama4") apply_llama4(text, reader, arch);
  if (type == "nemotron-nas") apply_nemotron_nas(text, reader, arch);
  if (type == "minimax_m1" || type == "minimax") apply_minimax(text, reader, arch);
  if (type == "jamba") apply_jamba(reader, arch);
  if (type == "nemotron_h") apply_nemotron_h(text, reader, arch);
  if (type == "lfm2" || type == "lfm2_moe") apply_lfm2(text, reader, arch);
  if (type == "granitemoehybrid") apply_granitemoehybrid(reader, arch);
  if (type == "falcon_h1") apply_falcon_h1(reader, arch);
  if (type == "gemma4") apply_gemma4(reader, arch);
  if (dsa) arch.expert_score_bias = true;
  if (arch.family && arch.family->read_config) arch.family->read_config(config, path, text, reader, arch);
}

}  // namespace

bool read_layer_integers(const nlohmann::json& object, JsonReader& reader, const char* key, int64_t layers,
                         int64_t low, int64_t high, const std::string& need, std::vector<int64_t>& values) {
  auto list = object.find(key);
  reader.mark_read(key);
  bool valid = list != object.end() && list->is_array() && static_cast<int64_t>(list->size()) == layers;
  values.clear();
  for (std::size_t i = 0; valid && i < list->size(); ++i) {
    const auto& entry = (*list)[i];
    int64_t value = entry.is_number_integer() ? entry.get<int64_t>() : low - 1;
    valid = value >= low && value <= high;
    values.push_back(value);
  }
  if (!valid) reader.issues().error("bad_layer_pattern", reader.path_of(key), need + " here for each layer.");
  return valid;
}

bool read_layer_flags(const nlohmann::json& object, JsonReader& reader, const char* key, int64_t layers,
                      const char* model, LayerFlags& flags) {
  std::vector<int64_t> values;
  bool valid = read_layer_integers(object, reader, key, layers, 0, 1, std::string(model) + " needs a 0 or 1", values);
  flags.assign(values.begin(), values.end());
  return valid;
}

std::optional<ArchConfig> read_arch_config(const nlohmann::json& config, const std::string& path,
                                           Issues& issues) {
  JsonReader top(config, path, issues);
  if (!top.valid()) return std::nullopt;
  // Multimodal wrappers nest the language model under text_config (Gemma 3, Mistral 3, Llama 4).
  const nlohmann::json* text = &config;
  std::string text_path = path;
  nlohmann::json nested_text;
  if (const nlohmann::json* nested = top.object("text_config")) {
    nested_text = with_defaults(*nested);
    text = &nested_text;
    text_path = json_pointer_append(path, "text_config");
  }
  JsonReader reader(*text, text_path, issues);

  ArchConfig arch;
  arch.model_type = top.string("model_type", 64, std::string("")).value_or("");
  if (arch.model_type.empty()) {
    arch.model_type = reader.string("model_type", 64, std::string("")).value_or("");
  }
  // Early MiniCPM configs carry no model_type; their architecture names the family.
  if (arch.model_type.empty()) arch.model_type = family_of_architecture(config);
  // Qwen3-Next's files split ssm_in into attn_qkv and attn_gate since llama.cpp PR #18683
  // (2026-01-11; 843 tensors where the older files have 807); a family read as Qwen3-Next keeps
  // the fused form.
  if (arch.model_type == "qwen3_next") arch.linear_input = LinearInputLayout::qkv_gate;
  arch.family = find_family(arch.model_type);
  if (arch.family && !arch.family->reads_text_as.empty()) arch.model_type = arch.family->reads_text_as;
  if (arch.model_type == "mistral3") arch.model_type = "mistral";
  // Qwen3-VL's language models are Qwen3 and Qwen3-MoE (modeling_qwen3_vl*.py); Qwen3.5's are
  // Qwen3-Next's gated-DeltaNet hybrid, dense or MoE, with the same MTP layer (modeling_qwen3_5*.py,
  // vLLM qwen3_5_mtp.py), and its vision tower is Qwen3-VL's without deepstack mergers.
  if (arch.model_type == "qwen3_vl") arch.model_type = "qwen3";
  if (arch.model_type == "qwen3_vl_moe") arch.model_type = "qwen3_moe";
  // Mellum is Qwen3-MoE's attention (q/k norms) and experts with layer_types sliding windows,
  // per-type RoPE and mlp_layer_types (transformers modular_mellum.py).
  if (arch.model_type == "mellum") arch.model_type = "qwen3_moe";
  // A text-only checkpoint names its config qwen3_5_text / qwen3_5_moe_text (Qwen3.8-2.4T-A95B).
  if (is_one_of(arch.model_type, {"qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"})) {
    arch.model_type = "qwen3_next";
    arch.linear_input = LinearInputLayout::qkv_gate_beta_alpha;
  }
  // Kimi K2.5 wraps Kimi K2's language model (text_config.model_type kimi_k2) with a MoonViT tower;
  // Kimi K3 wraps a Kimi Linear one (KDA + MLA, LatentMoE) with another MoonViT.
  if (arch.model_type == "kimi_k25") arch.model_type = "kimi_k2";
  if (arch.model_type == "kimi_k3") arch.model_type = "kimi_linear";
  // Read but not modelled: DeepSeek V4.1 (deepseek-ai/DeepSeek-V4.1-Flash, config.json of
  // 2026-09-10) keeps about 196B parameters in two Engram tables that vLLM holds in host memory,
  // adds three DSpark layers and shares compressed KV from kv_source_layer_ids; as a generic
  // decoder it came out at 606B parameters where the checkpoint holds a 552B backbone and 196B of
  // Engram tables (NeMo AutoModel's deepseek_v41 README), so it is refused.
  if (is_one_of(arch.model_type, {"deepseek_v41", "deepseek_v41_text"})) {
    issues.error("not_modelled", json_pointer_append(path, "model_type"),
                 say(issues.language,
                     "DeepSeek V4.1 (" + arch.model_type + ") is not modelled yet: its Engram tables, DSpark "
                     "layers and shared compressed KV are beyond the generic decoder, whose figures would be wrong.",
                     "DeepSeek V4.1 (" + arch.model_type + ") aún no está modelado: sus tablas Engram, sus capas "
                     "DSpark y su KV comprimida compartida van más allá del decodificador genérico, cuyas cifras "
                     "serían erróneas."));
    return std::nullopt;
  }
  if (!known_family(arch)) {
    std::string type = arch.model_type.substr(0, 40);
    issues.warning("unknown_family", json_pointer_append(path, "model_type"),
                   say(issues.language,
                       "Unknown model_type '" + type + "': computed as a generic decoder (RMSNorm, gated MLP, no "
                       "biases, untied embeddings unless tie_word_embeddings says so).",
                       "model_type '" + type + "' desconocido: se calcula como un decodificador genérico (RMSNorm, MLP "
                       "con compuerta, sin sesgos, embeddings sin atar salvo que tie_word_embeddings diga lo contrario)."));
    // One with Qwen3-Next's gated-DeltaNet keys (a Qwen3.5 derivative under a name of its own) is
    // read as Qwen3.5's layout: as a generic decoder every layer held full K and V and no state.
    if (text->contains("linear_num_key_heads") && text->contains("linear_num_value_heads")) {
      arch.model_type = "qwen3_next";
      arch.linear_input = LinearInputLayout::qkv_gate_beta_alpha;
    }
  }

  size_t errors_before = issues.list().size();
  arch.hidden = first_integer(reader, {"hidden_size", "n_embd", "d_model"}, 1, kMaxHidden,
                              std::nullopt).value_or(0);
  // Nemotron 3 Ultra's config gives the depth only as its layers_block_type list.
  auto block_list = text->find("layers_block_type");
  std::optional<int64_t> listed_layers;
  if (block_list != text->end() && block_list->is_array() && !block_list->empty()) {
    listed_layers = static_cast<int64_t>(block_list->size());
  }
  arch.n_layers = first_integer(reader, {"num_hidden_layers", "n_layer", "num_layers"}, 1,
                                kMaxLayers, listed_layers).value_or(0);
  arch.n_heads = first_integer(reader, {"num_attention_heads", "n_head"}, 1, kMaxHeads,
                               std::nullopt).value_or(0);
  arch.vocab = reader.integer("vocab_size", 1, kMaxVocab).value_or(0);
  // DeciLM (nemotron-nas) sizes each layer's FFN in block_configs instead, and all-MoE configs
  // (Qwen3.5-MoE) may give only moe_intermediate_size.
  bool no_dense_width = arch.model_type == "nemotron-nas" || reader.has("moe_intermediate_size");
  std::optional<int64_t> no_default;
  arch.intermediate = first_integer(reader, {"intermediate_size", "ffn_hidden_size", "block_ff_dim"}, 1,
                                    kMaxHidden * 64,
                                    no_dense_width ? std::optional<int64_t>(0) : no_default)
                          .value_or(0);
  if (issues.has_errors()) return std::nullopt;

  arch.n_kv_heads = reader.integer("num_key_value_heads", 1, kMaxHeads, arch.n_heads)
                        .value_or(arch.n_heads);
  if (arch.n_heads % arch.n_kv_heads != 0) {
    issues.error("heads_not_divisible", reader.path_of("num_key_value_heads"),
                 "num_attention_heads (" + std::to_string(arch.n_heads) +
                     ") must be a multiple of num_key_value_heads (" +
                     std::to_string(arch.n_kv_heads) + ").");
  }
  // head_dim is explicit in many modern configs and need not equal hidden / heads (Gemma, Qwen3);
  // MLA configs give their head widths as qk_nope_head_dim + qk_rope_head_dim instead.
  if (!reader.has("head_dim") && !reader.has("qk_nope_head_dim") && arch.hidden % arch.n_heads != 0) {
    issues.error("head_dim_undefined", reader.path_of("head_dim"),
                 "head_dim is absent and hidden_size is not a multiple of num_attention_heads.");
  }
  arch.head_dim = reader.integer("head_dim", 1, kMaxHidden, arch.hidden / arch.n_heads)
                      .value_or(arch.hidden / arch.n_heads);
  arch.v_head_dim = arch.head_dim;
  arch.max_context = first_integer(reader, {"max_position_embeddings", "max_sequence_length",
                                            "n_positions", "seq_length", "model_max_length", "max_seq_len"},
                                   1, int64_t{1} << 40, 4096).value_or(4096);
  arch.max_context = std::min(arch.max_context, kMaxContextTokens);
  arch.tied = top.has("tie_word_embeddings")
                  ? top.boolean("tie_word_embeddings", false).value_or(false)
                  : reader.boolean("tie_word_embeddings", false).value_or(false);
  arch.sliding_window = reader.integer("sliding_window", 0, kMaxContextTokens, 0).value_or(0);
  arch.layer_attention.assign(static_cast<std::size_t>(arch.n_layers), AttentionKind::full);
  arch.layer_moe.assign(static_cast<std::size_t>(arch.n_layers), false);
  arch.layer_intermediate.assign(static_cast<std::size_t>(arch.n_layers), arch.intermediate);
  arch.layer_kv_heads.assign(static_cast<std::size_t>(arch.n_layers), arch.n_kv_heads);
  arch.mtp_layers = first_integer(reader, {"num_nextn_predict_layers", "num_mtp_layers",
                                           "mtp_num_hidden_layers"}, 0, 16,
                                  0).value_or(0);

  apply_family_conventions(config, path, *text, reader, arch);
  read_vision(config, path, arch, issues);
  if (issues.list().size() > errors_before && issues.has_errors()) return std::nullopt;
  return arch;
}

}  // namespace llmcalc
