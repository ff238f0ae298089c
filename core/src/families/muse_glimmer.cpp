// Meta's Muse Glimmer (meta-models/Muse-Glimmer-30B, model_type muse_glimmer; its language model
// muse_glimmer_text): a dense decoder with layer_types sliding (sliding_window) and full layers,
// four RMSNorms per layer (input, post-attention, pre- and post-feedforward) and a sigmoid output
// gate on every attention layer, self_attn.gate_proj [heads x head_dim, hidden]; its q/k norms carry
// no weights (the checkpoint stores none), nor does the embedding's norm. The vision tower
// (muse_glimmer_vision): a bias-free Linear patch embedding over patch_temporal x 3 x patch_size^2
// values, a pos_emb_height x pos_emb_width position table, ln_pre and ln_post, and ViT blocks of two
// LayerNorms with biases, q/k/v/proj with biases and a plain GELU MLP fc1/fc2 with biases; a
// parameter-free 2 x 2 pixel shuffle (out_hidden_size), then the adapter fc1 [out_hidden_size ->
// projector_hidden_size] and fc2 [projector_hidden_size^2] and vision_projection into the text
// width, none with biases. Shapes from transformers' modeling_muse_glimmer.py
// (huggingface/transformers@0173fbbadd0fcaf8d5e3bb2e4f223d897ba1a5ab) and llama.cpp's
// src/models/muse-glimmer.cpp (@e286e9b8c4088aa427d12799fbde9dbb2cccba7a: attn_gate, attn_post_norm,
// ffn_post_norm). llama.cpp's conversion (conversion/muse_glimmer.py @a92d0ac5) writes the vision
// tower to a separate mmproj file and adds q/k norm weights of head_dim each per layer to the text
// file (13,312 parameters for the 30B), which are not counted here.
#include <string>

#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

constexpr const char* kWidth = "vision_config.hidden_size";
constexpr const char* kMlp = "vision_config.intermediate_size";
constexpr const char* kLayers = "vision_config.num_hidden_layers";
constexpr const char* kPatchValues = "vision_config.patch_values";
constexpr const char* kPositions = "vision_config.positions";
constexpr const char* kShuffled = "out_hidden_size";
constexpr const char* kProjector = "projector_hidden_size";

void read_config(const nlohmann::json& config, const std::string& path, const nlohmann::json&, JsonReader& reader,
                 ArchConfig& arch) {
  arch.norms_per_layer = 4;
  arch.full_rank_output_gate = true;
  JsonReader top(config, path, reader.issues());
  const nlohmann::json* vision = top.object("vision_config");
  if (!vision) return;
  JsonReader tower(*vision, json_pointer_append(path, "vision_config"), reader.issues());
  int64_t width = tower.integer("hidden_size", 1, kMaxHidden).value_or(0);
  int64_t patch = tower.integer("patch_size", 1, 1 << 10).value_or(0);
  int64_t frames = tower.integer("patch_temporal", 1, 16, 1).value_or(0);
  arch.family_sizes[kWidth] = width;
  arch.family_sizes[kMlp] = tower.integer("intermediate_size", 1, kMaxHidden).value_or(0);
  arch.family_sizes[kLayers] = tower.integer("num_hidden_layers", 0, 1 << 10).value_or(0);
  arch.family_sizes[kPatchValues] = frames * 3 * patch * patch;
  arch.family_sizes[kPositions] = tower.integer("pos_emb_height", 0, 1 << 12, 0).value_or(0) *
                                  tower.integer("pos_emb_width", 0, 1 << 12, 0).value_or(0);
  arch.family_sizes[kShuffled] = top.integer("out_hidden_size", 1, kMaxHidden, 4 * width).value_or(0);
  arch.family_sizes[kProjector] = top.integer("projector_hidden_size", 1, kMaxHidden).value_or(0);
}

void add_model_tensors(TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t width = arch.family_size(kWidth);
  int64_t projector = arch.family_size(kProjector);
  if (width <= 0 || projector <= 0 || arch.family_size(kPatchValues) <= 0) return;
  out.set_part(ModelPart::vision);
  out.add_vit_tower(arch.family_size(kPatchValues), width, arch.family_size(kMlp), arch.family_size(kLayers));
  if (int64_t positions = arch.family_size(kPositions)) {
    out.add("v.position_embd.weight", TensorRole::vision, -1, width, positions);
  }
  out.add_tower_norm("v.post_ln", TensorRole::vision, width);
  out.set_part(ModelPart::projector);
  out.add("mm.0.weight", TensorRole::projector, -1, arch.family_size(kShuffled), projector);
  out.add("mm.1.weight", TensorRole::projector, -1, projector, projector);
  out.add("mm.2.weight", TensorRole::projector, -1, projector, arch.hidden);
  out.set_part(ModelPart::text);
}

}  // namespace

const FamilyDefinition& muse_glimmer_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"muse_glimmer", "muse_glimmer_text"};
    f.read_config = read_config;
    f.add_model_tensors = add_model_tensors;
    f.reads_multimodal = true;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
