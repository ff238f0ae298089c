// Fine-tuning memory per GPU for full fine-tuning, LoRA and QLoRA: weights, trainable
// parameters, gradients, optimizer states, activations and framework overhead, with ZeRO / FSDP
// sharding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"
#include "llmcalc/model.h"

namespace llmcalc {

struct FinetuneSettings {
  std::string optimizer = "adamw";   // adamw | adamw_8bit | paged_adamw_8bit | adafactor | sgd
  std::string precision = "bf16";    // bf16: weights, grads, states in bf16 (torchtune, FSDP-QLoRA);
                                     // mixed: bf16 weights and grads + fp32 master and states (ZeRO)
  int64_t lora_rank = 16;
  std::vector<std::string> lora_targets = {"q", "k", "v", "o", "gate", "up", "down"};
  int64_t micro_batch = 1;
  int64_t seq_len = 2048;
  bool gradient_checkpointing = true;
  bool flash_attention = true;
  int64_t gpus = 1;
  std::string sharding = "none";     // none | zero1 | zero2 | zero3 | fsdp (= zero3)
  int64_t overhead_bytes = int64_t{3} << 29;  // CUDA context + allocator slack (1.5 GiB, assumption)
};

/// Reads request.finetune (optional) into settings; problems become issues at /finetune/...
FinetuneSettings read_finetune_settings(const nlohmann::json& request, Issues& issues);

/// LoRA adapter parameters: rank x (in + out) for every targeted projection of every layer.
int64_t lora_parameters(const ModelSpec& model, int64_t rank, const std::vector<std::string>& targets);

/// One method's memory per GPU.
struct FinetuneMemory {
  int64_t weights_bytes = 0;
  int64_t trainable_params = 0;
  int64_t gradients_bytes = 0;
  int64_t master_weights_bytes = 0;
  int64_t optimizer_bytes = 0;
  int64_t activations_bytes = 0;
  int64_t overhead_bytes = 0;
  int64_t total_bytes = 0;
};

struct FinetuneEstimate {
  FinetuneMemory full;
  FinetuneMemory lora;
  FinetuneMemory qlora;
};

FinetuneEstimate estimate_finetune(const ModelSpec& model, const FinetuneSettings& settings);

}  // namespace llmcalc
