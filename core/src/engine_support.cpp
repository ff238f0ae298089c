// Engine, device and format combinations no engine of the selection can run (see the header).
#include "llmcalc/engine_support.h"

#include "llmcalc/weights.h"

namespace llmcalc {

std::string engine_limit(const std::string& engine, const Hardware& device, const std::string& format) {
  bool gguf = is_gguf_format(format);
  bool sixteen_bit = format == "BF16" || format == "FP16" || format == "F16";
  bool mlx_format = format.rfind("MLX-", 0) == 0;
  if (engine == "mlx") {
    if (device.backend != "metal") return "mlx-lm runs on Apple silicon; " + device.name + " is not a Mac.";
    if (!mlx_format && !sixteen_bit) {
      return "mlx-lm loads MLX-quantized or 16-bit weights, not " + format + ": pick MLX-4bit (or another MLX width).";
    }
    return "";
  }
  if (engine == "vllm" || engine == "sglang") {
    std::string name = engine == "vllm" ? "vLLM" : "SGLang";
    if (device.backend == "metal") return name + " has no Metal backend: on a Mac use llama.cpp, Ollama or MLX.";
    if (mlx_format || format.rfind("EXL2-", 0) == 0) {
      return name + " loads safetensors checkpoints (BF16, FP8, AWQ, GPTQ, ...), not " + format + " weights.";
    }
    return "";
  }
  if ((engine == "llama.cpp" || engine == "ollama") && !gguf && !sixteen_bit) {
    return std::string(engine == "ollama" ? "Ollama" : "llama.cpp") + " loads GGUF files; " + format +
           " is a checkpoint format: pick a GGUF type (Q4_K_M, Q8_0, ...).";
  }
  return "";
}

}  // namespace llmcalc
