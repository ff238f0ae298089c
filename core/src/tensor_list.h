// Internal: the list a checkpoint's tensors are collected into, with the shapes every family
// shares (norms with their optional bias, linears, attention, gated DeltaNet, MLPs, experts).
// The generic inventory and the family files (families/*.cpp) add to it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arch_config.h"
#include "gguf_quant_mix.h"

namespace llmcalc {

// A tensor name's prefix ("blk.3.", "v.blk.0.", or none), joined with a stem into a name.
class TensorPrefix {
 public:
  TensorPrefix(std::string text) : text_(std::move(text)) {}  // NOLINT: a prefix is its text
  TensorPrefix(const char* text) : text_(text) {}             // NOLINT
  TensorName operator+(std::string_view stem) const {
    TensorName name(text_);
    name.append(stem);
    return name;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

class TensorList {
 public:
  // Room for a typical decoder layer's tensors (more with routed experts) and a vision tower's
  // blocks, so the list is not moved as it grows.
  explicit TensorList(const ArchConfig& arch) : arch_(arch) {
    int64_t per_layer = arch.n_experts > 0 ? kTensorsPerMoeLayer : kTensorsPerLayer;
    int64_t vision_layers = arch.vision ? arch.vision->n_layers : 0;
    tensors_.reserve(static_cast<std::size_t>(per_layer * (arch.n_layers + arch.mtp_layers) +
                                              kTensorsPerLayer * vision_layers + 64));
  }

  void add(const TensorName& name, TensorRole role, int layer, int64_t ne0, int64_t ne1, int64_t ne2 = 1) {
    add(name, "", role, layer, ne0, ne1, ne2);
  }
  // `name` without its ".weight" (and ".bias" where the family has them).
  void add_norm(const TensorName& name, int layer, int64_t width) {
    add(name, ".weight", TensorRole::norm, layer, width, 1, 1);
    if (arch_.norm_bias) add(name, ".bias", TensorRole::norm, layer, width, 1, 1);
  }
  void add_linear(const TensorName& name, TensorRole role, int layer, int64_t in, int64_t out, bool bias,
                  int64_t experts = 1) {
    add(name, ".weight", role, layer, in, out, experts);
    if (bias) add(name, ".bias", TensorRole::bias, layer, out, 1, experts);
  }
  // A dense MLP of `width` (gated unless the family's is not); suffix "_shexp" names a shared expert.
  void add_dense_mlp(const TensorPrefix& blk, int layer, int64_t width, const std::string& suffix);

  // A hyper-connection around sublayer `where` ("attn", "ffn"; DeepSeek V4's mHC, Xing4.0's): the
  // mixing weights of hc_mult streams, (2 + hc_mult) x hc_mult of them, their bias and 3 scales.
  void add_hyper_connection(const TensorPrefix& blk, const char* where, int layer);

  // Routed experts (with the router, its score bias, scales and norms where the family has
  // them, a LatentMoE's projections) and the shared expert.
  void add_moe(const TensorPrefix& blk, int i);
  void add_attention(const TensorPrefix& blk, int i, int64_t kv_heads, AttentionKind kind);
  void add_linear_attention(const TensorPrefix& blk, int i);

  // Outside the decoder layers (vision and audio towers, projectors): a LayerNorm's weight and
  // bias, a linear layer and its bias, and a CLIP / ViT block of both (ln1, q/k/v/out, ln2, a
  // plain MLP ffn_up / ffn_down), named from `name` / `blk`.
  void add_tower_norm(const std::string& name, TensorRole role, int64_t width);
  void add_tower_linear(const std::string& name, TensorRole role, int64_t in, int64_t out);
  void add_vit_block(const std::string& blk, int64_t width, int64_t mlp);
  // A ViT tower's bias-free patch embedding over `patch_values` inputs, its pre-LayerNorm and
  // `layers` such blocks.
  void add_vit_tower(int64_t patch_values, int64_t width, int64_t mlp, int64_t layers);

  // Appends a copy of tensors [first, end), decoder layer `from`'s (each named "blk.<from>."
  // + its stem), as layer `to`: the same shapes, roles and part, the names "blk.<to>." + stem.
  void repeat_layer(std::size_t first, std::size_t end, int from, int to);
  std::size_t size() const { return tensors_.size(); }

  const ArchConfig& arch() const { return arch_; }
  void set_part(ModelPart part) { part_ = part; }
  std::vector<TensorSpec> take() { return std::move(tensors_); }

 private:
  // `stem` + `suffix`, written into the list's own record (names are copied once).
  void add(const TensorName& stem, std::string_view suffix, TensorRole role, int layer, int64_t ne0, int64_t ne1,
           int64_t ne2) {
    tensors_.emplace_back(stem, role, part_, layer, ne0, ne1, ne2);
    TensorSpec& t = tensors_.back();
    t.name.append(suffix);
    // Only the text's tensors (MTP layers included) are quantized by llama.cpp's rules.
    if (part_ == ModelPart::text || part_ == ModelPart::mtp) t.quant_name_tests = quant_name_tests(t.name);
  }
  static constexpr int64_t kTensorsPerLayer = 16;
  static constexpr int64_t kTensorsPerMoeLayer = 20;
  const ArchConfig& arch_;
  ModelPart part_ = ModelPart::text;
  std::vector<TensorSpec> tensors_;
};

}  // namespace llmcalc
