// MiniMax M3 (MiniMaxAI/MiniMax-M3, model_type minimax_m3_vl; its language model
// MiniMaxM3SparseForCausalLM in text_config): 60 decoder layers of grouped-query attention (64
// query and 4 KV heads of head_dim, per-head q/k RMSNorms of head_dim), the first ones with a dense
// SwiGLU MLP of dense_intermediate_size and the rest (moe_layer_freq 1) a MoE of intermediate_size-
// wide experts with a sigmoid router, its score-correction bias (use_routing_bias) and a shared
// expert. MiniMax Sparse Attention (sparse_attention_config) on the layers sparse_attention_freq
// marks: an index projection of sparse_num_index_heads query heads and one key head of
// sparse_index_dim, with an RMSNorm each, which picks sparse_topk_blocks blocks of keys for every
// query; the layer still caches its whole K and V, and the index keys beside them. The released
// checkpoint has no MTP weights, though the config names num_mtp_modules (its safetensors headers
// count none; llama.cpp drops MTP, vLLM's model skips it). The vision tower (clip_vision_model): a
// bias-free Conv3d patch embedding over temporal_patch_size x 3 x patch_size^2 values, pre_layrnorm,
// CLIP blocks with biases and no post-norm or position table (3-D RoPE); then multi_modal_projector
// (two linears with biases into projector_hidden_size) per patch and patch_merge_mlp over each
// spatial_merge_size^2 group of projected patches.
// Shapes from transformers' modeling_minimax_m3_vl.py (huggingface/transformers@01a05aad6d830cacea098be78be92b0e0df6b2f0)
// and the checkpoint's tensor report (search-index file id 62774369633: 23,416 tensors,
// 427,040,140,160 parameters); the index keys' cache from vLLM's vllm/models/minimax_m3/common/indexer.py
// (@0484480b) and llama.cpp's src/llama-kv-cache-msa.cpp (@62c6171f, PR #26338).
#include <string>

#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

constexpr const char* kIndexHeads = "sparse_attention_config.sparse_num_index_heads";
constexpr const char* kIndexDim = "sparse_attention_config.sparse_index_dim";
constexpr const char* kWidth = "vision_config.hidden_size";
constexpr const char* kMlp = "vision_config.intermediate_size";
constexpr const char* kLayers = "vision_config.num_hidden_layers";
constexpr const char* kPatchValues = "vision_config.patch_values";
constexpr const char* kMergedPatches = "vision_config.spatial_merge_size^2";
constexpr const char* kProjector = "projector_hidden_size";

void read_sparse_attention(JsonReader& reader, ArchConfig& arch) {
  const nlohmann::json* sparse = reader.object("sparse_attention_config");
  if (!sparse) return;
  JsonReader config(*sparse, reader.path_of("sparse_attention_config"), reader.issues());
  if (!config.boolean("use_sparse_attention", true).value_or(false)) return;
  if (!read_layer_flags(*sparse, config, "sparse_attention_freq", arch.n_layers, "MiniMax M3", arch.layer_indexer)) {
    return;
  }
  arch.family_sizes[kIndexHeads] = config.integer("sparse_num_index_heads", 1, kMaxHeads).value_or(0);
  arch.family_sizes[kIndexDim] = config.integer("sparse_index_dim", 1, kMaxHidden).value_or(0);
}

void read_vision_tower(const nlohmann::json& config, const std::string& path, JsonReader& reader, ArchConfig& arch) {
  JsonReader top(config, path, reader.issues());
  const nlohmann::json* vision = top.object("vision_config");
  if (!vision) return;
  std::string vision_path = json_pointer_append(path, "vision_config");
  JsonReader tower(*vision, vision_path, reader.issues());
  int64_t patch = tower.integer("patch_size", 1, 1 << 10).value_or(0);
  int64_t frames = 1;
  int64_t merge = 1;
  if (const nlohmann::json* compression = tower.object("img_token_compression_config")) {
    JsonReader c(*compression, json_pointer_append(vision_path, "img_token_compression_config"), reader.issues());
    frames = c.integer("temporal_patch_size", 1, 16, 1).value_or(1);
    merge = c.integer("spatial_merge_size", 1, 16, 1).value_or(1);
  }
  arch.family_sizes[kWidth] = tower.integer("hidden_size", 1, kMaxHidden).value_or(0);
  arch.family_sizes[kMlp] = tower.integer("intermediate_size", 1, kMaxHidden).value_or(0);
  arch.family_sizes[kLayers] = tower.integer("num_hidden_layers", 0, 1 << 10).value_or(0);
  arch.family_sizes[kPatchValues] = frames * tower.integer("num_channels", 1, 16, 3).value_or(3) * patch * patch;
  arch.family_sizes[kMergedPatches] = merge * merge;
  arch.family_sizes[kProjector] = top.integer("projector_hidden_size", 1, kMaxHidden).value_or(0);
}

void read_config(const nlohmann::json& config, const std::string& path, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  LayerFlags moe;
  if (!read_layer_flags(text, reader, "moe_layer_freq", arch.n_layers, "MiniMax M3", moe)) return;
  int64_t dense = reader.integer("dense_intermediate_size", 1, kMaxHidden * 64, arch.intermediate).value_or(0);
  for (std::size_t i = 0; i < moe.size(); ++i) {
    arch.layer_moe[i] = moe[i] != 0 && arch.n_experts > 0;
    arch.layer_intermediate[i] = arch.layer_moe[i] ? arch.intermediate : dense;
  }
  arch.expert_score_bias = reader.boolean("use_routing_bias", false).value_or(false);
  arch.mtp_layers = 0;  // no MTP weights are published (see above)
  read_sparse_attention(reader, arch);
  read_vision_tower(config, path, reader, arch);
}

bool indexed(const ArchConfig& arch, int64_t layer) {
  auto index = static_cast<std::size_t>(layer);
  return arch.family_size(kIndexDim) > 0 && index < arch.layer_indexer.size() && arch.layer_indexer[index];
}

void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  auto index = static_cast<std::size_t>(i);
  out.add_norm(blk + "attn_norm", i, arch.hidden);
  out.add_attention(blk, i, arch.n_kv_heads, AttentionKind::full);
  if (indexed(arch, i)) {
    int64_t dim = arch.family_size(kIndexDim);
    out.add_linear(blk + "indexer.attn_q", TensorRole::attn_q, i, arch.hidden, arch.family_size(kIndexHeads) * dim, false);
    out.add_linear(blk + "indexer.attn_k", TensorRole::attn_k, i, arch.hidden, dim, false);
    out.add_norm(blk + "indexer.q_norm", i, dim);
    out.add_norm(blk + "indexer.k_norm", i, dim);
  }
  out.add_norm(blk + "ffn_norm", i, arch.hidden);
  if (arch.layer_moe[index]) {
    out.add_moe(blk, i);
  } else {
    out.add_dense_mlp(blk, i, arch.layer_intermediate[index], "");
  }
}

void plan_attention(const ArchConfig& arch, int64_t layer, AttentionGeometry& attention) {
  if (!indexed(arch, layer)) return;
  attention.indexer_head_dim = arch.family_size(kIndexDim);
  attention.msa_indexer = true;
}

void add_model_tensors(TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t width = arch.family_size(kWidth);
  int64_t projector = arch.family_size(kProjector);
  if (width <= 0 || projector <= 0 || arch.family_size(kPatchValues) <= 0) return;
  out.set_part(ModelPart::vision);
  out.add_vit_tower(arch.family_size(kPatchValues), width, arch.family_size(kMlp), arch.family_size(kLayers));
  out.set_part(ModelPart::projector);
  out.add_tower_linear("mm.1", TensorRole::projector, width, projector);
  out.add_tower_linear("mm.2", TensorRole::projector, projector, projector);
  out.add_tower_linear("mm.merge.fc1", TensorRole::projector, arch.family_size(kMergedPatches) * projector, projector);
  out.add_tower_linear("mm.merge.fc2", TensorRole::projector, projector, projector);
  out.set_part(ModelPart::text);
}

}  // namespace

const FamilyDefinition& minimax_m3_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"minimax_m3_vl", "minimax_m3_vl_text"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    f.plan_attention = plan_attention;
    f.add_model_tensors = add_model_tensors;
    f.reads_multimodal = true;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
