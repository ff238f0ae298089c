// Internal: a model family defined in one file (core/src/families/<family>.cpp), as llama.cpp keeps
// one file per architecture under src/models/ and transformers one modeling_<family>.py: how its
// config.json reads, which tensors a checkpoint stores, and what each layer attends over (which
// the KV-cache, memory and speed models read). The generic reader, inventory and layer planner
// call a family's hooks where it has them; families not yet moved here are the generic paths.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/json_reader.h"
#include "llmcalc/model.h"

namespace llmcalc {

struct ArchConfig;
class TensorList;
class TensorPrefix;

struct FamilyDefinition {
  std::vector<std::string> model_types;  // config.json model_type values it reads
  // The family's own keys, read after the generic ones (widths, depth, heads, vocab, layer_types,
  // MoE); it may override what they set. `config` is the whole file at `path`, `text` its
  // language model (text_config when nested) that `reader` reads.
  void (*read_config)(const nlohmann::json& config, const std::string& path, const nlohmann::json& text,
                      JsonReader& reader, ArchConfig& arch) = nullptr;
  // Every tensor of decoder layer `layer` (MTP layers included), named "blk.<layer>." + ...
  void (*add_layer_tensors)(const TensorPrefix& blk, int layer, TensorList& out) = nullptr;
  // Tensors beside each output head: after the last layer (prefix "", layer -1) and in each MTP
  // layer (prefix "blk.<layer>.nextn.").
  void (*add_head_tensors)(const TensorPrefix& prefix, int layer, TensorList& out) = nullptr;
  // Adjusts the generic geometry of one layer's attention (what its cache and compute hold).
  void (*plan_attention)(const ArchConfig& arch, int64_t layer, AttentionGeometry& attention) = nullptr;
  // Tensors outside the decoder layers and heads (multimodal embedders), after the generic towers.
  void (*add_model_tensors)(TensorList& out) = nullptr;
  // The generic reader treats the language model as this model_type ("" : its own), so a family
  // that wraps another one adds only what differs.
  std::string reads_text_as;
  // read_config reads vision_config / audio_config itself; the generic tower readers skip them.
  bool reads_multimodal = false;
  // llama.cpp's general.architecture names for it, and the config keys its GGUF metadata gives
  // (`prefix` is "<arch>."; `blocks` the block_count, MTP layers included), after the generic ones.
  std::vector<std::string> gguf_architectures;
  void (*config_from_gguf)(const nlohmann::json& metadata, const std::string& prefix, std::size_t blocks,
                           nlohmann::json& config) = nullptr;
};

// The family that reads this model_type, or nullptr when the generic paths do.
const FamilyDefinition* find_family(const std::string& model_type);
// The family whose GGUF files name this general.architecture, or nullptr.
const FamilyDefinition* find_family_of_gguf(const std::string& architecture);

// One accessor per family file.
const FamilyDefinition& deepseek_v4_family();
const FamilyDefinition& step3p5_family();
const FamilyDefinition& gemma4_unified_family();
const FamilyDefinition& qwen4_exp_family();
const FamilyDefinition& mimo_v2_family();
const FamilyDefinition& muse_glimmer_family();
const FamilyDefinition& minimax_m3_family();
const FamilyDefinition& spark2_5_family();
const FamilyDefinition& xing4_0_family();
const FamilyDefinition& laguna_family();
const FamilyDefinition& bailing_hybrid_family();

}  // namespace llmcalc
