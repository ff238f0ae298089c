// Which engine runs which weights on which device: the commands and the estimate say plainly when
// the selection is one the engine cannot run (issue #21 item 4).
#pragma once

#include <cstdint>
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

/// Ollama from v0.40.0 (2026-10-06, release notes: "Models run on MLX on Apple Silicon by default",
/// naming Qwen3.5, Qwen3.6, Qwen3.8 and Gemma 4) runs these architectures on its MLX runner on a
/// Mac, whose memory differs from the llama-server path we model as Ollama v0.34.2: no cache is
/// allocated for num_ctx, it grows 256 tokens at a time (x/mlxrunner/cache/kvcache.go), and up to
/// 8 GiB of paged-out prefix-cache snapshots stay resident (x/mlxrunner/prefix_cache.go,
/// maxPagedOutBytes; ollama/ollama@fb30760). Returns that note in `lang` for an Ollama request on a
/// Metal device whose model reads as one of these families (`model_type` qwen3_next or gemma4, as
/// the spec keeps it), else "".
std::string ollama_mlx_runner_note(const std::string& engine, const Hardware& device,
                                   const std::string& model_type, Language lang);

/// vLLM and SGLang on an AMD GPU: no run of either on one calibrates the speed model, so their
/// speeds use llama.cpp's ROCm efficiencies (data/speed_calibration.json has no rocm server key).
/// SGLang 0.5.7's published MI300X runs (the SGLang cookbook; tests/data/server_speed_measurements.json,
/// held out) decode FP8 MoE checkpoints (DeepSeek-V3.1, MiniMax-M2, Kimi-K2) at 1/2.7 to 1/4.9 of
/// that estimate and Llama 4 Scout and Maverick in BF16 within 11%. Returns that note in `lang`
/// for a vLLM or SGLang request on a ROCm device, else "".
std::string server_speed_rocm_note(const std::string& engine, const Hardware& device, Language lang);

/// llama.cpp (and Ollama, which runs it) on an Apple GPU with 8 or more sequences decoding together:
/// llama.cpp's own M2 Ultra benches (llama-batched-bench, benches/mac-m2-ultra/mac-m2-ultra.md; held
/// out of the fit) decode such batches at 1/1.7 to 1/3.1 of the estimate (gemma-3-4b Q4_0 and
/// Qwen2.5-7B Q8_0 at 512 tokens), batches of 2 and 4 within the band; Metal's matmul kernels for a
/// few columns are not modelled. Returns that note in `lang`, else "".
std::string metal_batched_decode_note(const std::string& engine, const Hardware& device, int64_t batch,
                                      Language lang);

}  // namespace llmcalc
