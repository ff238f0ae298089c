// Engine, device and format combinations no engine of the selection can run (see the header).
#include "llmcalc/engine_support.h"

#include "llmcalc/weights.h"

namespace llmcalc {

std::string engine_limit(const std::string& engine, const Hardware& device, const std::string& format,
                         Language lang) {
  bool gguf = is_gguf_format(format);
  bool sixteen_bit = format == "BF16" || format == "FP16" || format == "F16";
  bool mlx_format = format.rfind("MLX-", 0) == 0;
  if (engine == "mlx") {
    if (device.backend != "metal") {
      return say(lang, "mlx-lm runs on Apple silicon; " + device.name + " is not a Mac.",
                 "mlx-lm funciona en Apple silicon; " + device.name + " no es un Mac.");
    }
    if (!mlx_format && !sixteen_bit) {
      return say(lang, "mlx-lm loads MLX-quantized or 16-bit weights, not " + format + ": pick MLX-4bit (or another MLX width).",
                 "mlx-lm carga pesos cuantizados para MLX o de 16 bits, no " + format +
                     ": elige MLX-4bit (u otro ancho de MLX).");
    }
    return "";
  }
  if (engine == "vllm" || engine == "sglang") {
    std::string name = engine == "vllm" ? "vLLM" : "SGLang";
    if (device.backend == "metal") {
      return say(lang, name + " has no Metal backend: on a Mac use llama.cpp, Ollama or MLX.",
                 name + " no tiene backend de Metal: en un Mac usa llama.cpp, Ollama o MLX.");
    }
    if (mlx_format || format.rfind("EXL2-", 0) == 0) {
      return say(lang, name + " loads safetensors checkpoints (BF16, FP8, AWQ, GPTQ, ...), not " + format + " weights.",
                 name + " carga checkpoints safetensors (BF16, FP8, AWQ, GPTQ, ...), no pesos " + format + ".");
    }
    return "";
  }
  if ((engine == "llama.cpp" || engine == "ollama") && !gguf && !sixteen_bit) {
    std::string name = engine == "ollama" ? "Ollama" : "llama.cpp";
    return say(lang, name + " loads GGUF files; " + format + " is a checkpoint format: pick a GGUF type (Q4_K_M, Q8_0, ...).",
               name + " carga archivos GGUF; " + format +
                   " es un formato de checkpoint: elige un tipo GGUF (Q4_K_M, Q8_0, ...).");
  }
  return "";
}

}  // namespace llmcalc
