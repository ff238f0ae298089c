// Gemma 4 12B "Unified" (google/gemma-4-12B, model_type gemma4_unified): Gemma 4's text layers
// (text_config gemma4_unified_text: 512-wide full-attention heads with V taken from K, sliding
// layers, four norms) with a learned layer_scalar per layer, and no vision or audio encoder:
// image patches and audio frames are projected straight into the decoder ("encoder-free"). The
// checkpoint's multimodal tensors (safetensors header of google/gemma-4-12B-it, 677 tensors, as
// listed in a public integration spec, search-index file id 54847188025): vision_embedder
// patch_dense [mm_embed_dim, 3 x model_patch_size^2] with bias, LayerNorms with biases before
// (patch_ln1, over the flattened patch) and after it (patch_ln2), pos_embedding [mm_posemb_size, 2,
// mm_embed_dim] and its pos_norm; embed_vision.embedding_projection [text hidden, output_proj_dims]
// and embed_audio.embedding_projection [text hidden, audio output_proj_dims].
#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

constexpr const char* kEmbedWidth = "vision_config.mm_embed_dim";
constexpr const char* kPatch = "vision_config.model_patch_size";
constexpr const char* kPositions = "vision_config.mm_posemb_size";
constexpr const char* kVisionOut = "vision_config.output_proj_dims";
constexpr const char* kAudioOut = "audio_config.output_proj_dims";

void read_config(const nlohmann::json& config, const std::string& path, const nlohmann::json&, JsonReader& reader,
                 ArchConfig& arch) {
  arch.layer_scalar = true;
  JsonReader top(config, path, reader.issues());
  if (const nlohmann::json* vision = top.object("vision_config")) {
    JsonReader embedder(*vision, json_pointer_append(path, "vision_config"), reader.issues());
    arch.family_sizes[kEmbedWidth] = embedder.integer("mm_embed_dim", 1, kMaxHidden, arch.hidden).value_or(0);
    arch.family_sizes[kPatch] = embedder.integer("model_patch_size", 1, 1 << 10).value_or(0);
    arch.family_sizes[kPositions] = embedder.integer("mm_posemb_size", 0, 1 << 20, 0).value_or(0);
    arch.family_sizes[kVisionOut] =
        embedder.integer("output_proj_dims", 1, kMaxHidden, arch.family_sizes[kEmbedWidth]).value_or(0);
  }
  if (const nlohmann::json* audio = top.object("audio_config")) {
    JsonReader frames(*audio, json_pointer_append(path, "audio_config"), reader.issues());
    arch.family_sizes[kAudioOut] = frames.integer("output_proj_dims", 1, kMaxHidden).value_or(0);
  }
}

void add_model_tensors(TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t width = arch.family_size(kEmbedWidth);
  int64_t patch = arch.family_size(kPatch);
  if (width > 0 && patch > 0) {
    int64_t patch_in = 3 * patch * patch;
    out.set_part(ModelPart::vision);
    out.add("v.patch_ln1.weight", TensorRole::vision, -1, patch_in, 1);
    out.add("v.patch_ln1.bias", TensorRole::vision, -1, patch_in, 1);
    out.add("v.patch_dense.weight", TensorRole::vision, -1, patch_in, width);
    out.add("v.patch_dense.bias", TensorRole::vision, -1, width, 1);
    out.add("v.patch_ln2.weight", TensorRole::vision, -1, width, 1);
    out.add("v.patch_ln2.bias", TensorRole::vision, -1, width, 1);
    int64_t positions = arch.family_size(kPositions);
    if (positions > 0) out.add("v.position_embd.weight", TensorRole::vision, -1, width, 2, positions);
    out.add("v.pos_norm.weight", TensorRole::vision, -1, width, 1);
    out.add("v.pos_norm.bias", TensorRole::vision, -1, width, 1);
    out.set_part(ModelPart::projector);
    out.add("mm.input_projection.weight", TensorRole::projector, -1, arch.family_size(kVisionOut), arch.hidden);
  }
  if (int64_t audio = arch.family_size(kAudioOut)) {
    out.set_part(ModelPart::projector);
    out.add("mm.audio_projection.weight", TensorRole::projector, -1, audio, arch.hidden);
  }
  out.set_part(ModelPart::text);
}

}  // namespace

const FamilyDefinition& gemma4_unified_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"gemma4_unified"};
    f.read_config = read_config;
    f.add_model_tensors = add_model_tensors;
    f.reads_text_as = "gemma4";
    f.reads_multimodal = true;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
