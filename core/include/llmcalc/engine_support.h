// Which engine runs which weights on which device: the commands and the estimate say plainly when
// the selection is one the engine cannot run (issue #21 item 4).
#pragma once

#include <string>

#include "llmcalc/hardware.h"
#include "llmcalc/language.h"

namespace llmcalc {

/// Why `engine` cannot run `format` (the rules' format) on `device`, in `lang`, or "" when it can:
/// - mlx-lm runs on Apple silicon (Metal) and loads MLX-quantized or 16-bit checkpoints
///   (mlx_lm.convert quantizes those), not GGUF K-quants;
/// - vLLM and SGLang have no Metal backend and load safetensors checkpoints, not MLX or EXL2
///   weights;
/// - llama.cpp and Ollama load GGUF files, whose types include F16 and BF16 but not checkpoint
///   quantizations (FP8, AWQ, GPTQ, bitsandbytes, MLX, EXL2).
std::string engine_limit(const std::string& engine, const Hardware& device, const std::string& format,
                         Language lang);

}  // namespace llmcalc
