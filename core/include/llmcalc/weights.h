// Weight formats: which storage type each tensor gets, and the exact bytes that follow.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"
#include "llmcalc/model.h"

namespace llmcalc {

// What a format's engine loads, summed (tensors it does not load, such as MTP layers, apart).
struct WeightPlan {
  std::string format;
  int64_t total_bytes = 0;
  int64_t elements = 0;             // parameters the plan covers
  int64_t text_bytes = 0;           // decoder + embeddings + head (what generation needs)
  int64_t expert_bytes = 0;         // routed experts, all of them
  int64_t active_expert_bytes = 0;  // routed experts one token reads
  int64_t token_embd_bytes = 0;     // read one row per token, not in full
  // Of token_embd_bytes: per-layer embedding tables (Gemma 4's, Qwen3.8 Flash-Next's n-gram
  // table) of more than 4 GiB each, which llama.cpp's --lazy-mode auto reads on demand.
  int64_t lazy_table_bytes = 0;
  std::map<std::string, int64_t> bytes_by_storage;  // by ggml type ("Q4_K", "F32") or checkpoint dtype
  // Where the bytes sit, for placing layers on devices: per decoder layer (routed experts
  // apart), the output layer with model-level tensors, and the token embedding.
  std::vector<int64_t> layer_dense_bytes;
  std::vector<int64_t> layer_expert_bytes;
  std::vector<int64_t> layer_expert_down_bytes;  // of layer_expert_bytes: the down projection
  std::vector<int64_t> layer_expert_max_bytes;   // the largest single expert tensor of the layer
  std::vector<int64_t> layer_dense_max_bytes;    // the largest single non-expert tensor
  int64_t output_layer_bytes = 0;
  // Multi-token-prediction layers: GGUF files carry them but llama.cpp loads them only for MTP
  // speculative decoding (--spec-type draft-mtp), so they are kept apart from total_bytes.
  int64_t mtp_bytes = 0;
  // Of mtp_bytes in a checkpoint, the MTP block's own token embedding and LM head (DeepSeek V3's
  // layer 61 ships both), which vLLM's drafter shares with the model instead of keeping.
  int64_t mtp_shared_bytes = 0;
  double bits_per_weight() const;
};

/// True for llama.cpp file types (GGUF); false for checkpoint formats (safetensors & co.).
bool is_gguf_format(const std::string& format);

/// The formats an engine loads, best quality first, with their nominal bits per weight.
std::vector<std::pair<std::string, int>> engine_format_ladder(const std::string& engine);

/// Cut at this many bits or more, llama.cpp's ladder ends in the format that places the fewest
/// bytes, for every catalog model (test_rank.cpp checks each cut); lower, it does not: Q2_K
/// places more than IQ3_XXS in small models (it keeps the output table at Q6_K, IQ3_XXS at Q5_K).
constexpr int kLlamaCppLadderSmallestLastFromBits = 3;

/// Lists every accepted format id.
std::vector<std::string> weight_format_ids();

/// Places every tensor of `model` in `format`. An unknown format records an error at `path`.
/// `imatrix`: GGUF quantized with an importance matrix (changes a few llama.cpp type choices).
/// `text_only`: the file holds the language model alone, as a GGUF does whatever its type (BF16
/// included: llama.cpp's converter puts the vision and audio towers in a separate mmproj file).
std::optional<WeightPlan> plan_weights(const ModelSpec& model, const std::string& format,
                                       const std::string& path, Issues& issues,
                                       bool imatrix = false, bool text_only = false);

nlohmann::json weight_plan_json(const WeightPlan& plan);

}  // namespace llmcalc
