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

std::string ollama_mlx_runner_note(const std::string& engine, const Hardware& device,
                                   const std::string& model_type, Language lang) {
  // The families v0.40.0's notes name read as these model types here: Qwen3.5, 3.6 and 3.8 as
  // Qwen3-Next's hybrid (arch_config.cpp), Gemma 4 and its unified form as gemma4. Qwen3-Next itself
  // reads the same, and Ollama's MLX runner registers it too (x/models/qwen3_5 at fb30760).
  if (engine != "ollama" || device.backend != "metal" || (model_type != "qwen3_next" && model_type != "gemma4")) {
    return "";
  }
  return say(lang,
             "Ollama 0.40 and later can run this model on their MLX runner on Apple silicon (their notes name "
             "Qwen3.5, 3.6, 3.8 and Gemma 4): its cache grows with the tokens in use instead of being set aside "
             "for the whole context, and up to 8 GiB of prompt-cache snapshots can stay in memory. These figures "
             "are Ollama 0.34's llama.cpp runner; the MLX engine's are closer to the newer Ollama.",
             "Ollama 0.40 y posteriores pueden ejecutar este modelo con su motor MLX en Apple silicon (sus notas "
             "nombran Qwen3.5, 3.6, 3.8 y Gemma 4): su caché crece con los tokens en uso en vez de reservarse "
             "para todo el contexto, y hasta 8 GiB de instantáneas de la caché de prompts pueden quedar en "
             "memoria. Estas cifras son las del motor llama.cpp de Ollama 0.34; las del motor MLX se acercan "
             "más al Ollama nuevo.");
}

std::string server_speed_rocm_note(const std::string& engine, const Hardware& device, Language lang) {
  if ((engine != "vllm" && engine != "sglang") || device.backend != "rocm") return "";
  return say(lang,
             "vLLM's and SGLang's speeds on AMD GPUs use llama.cpp's ROCm efficiencies (no run of either "
             "on an AMD GPU calibrates them): SGLang's published MI300X runs decode FP8 MoE models "
             "(DeepSeek-V3.1, MiniMax-M2, Kimi-K2) at a third to a fifth of such an estimate, Llama 4 in "
             "BF16 within 11%.",
             "Las velocidades de vLLM y SGLang en GPU de AMD usan las eficiencias de ROCm de llama.cpp "
             "(ninguna ejecución de ellos en una GPU de AMD las calibra): las ejecuciones publicadas de SGLang "
             "en MI300X decodifican modelos MoE en FP8 (DeepSeek-V3.1, MiniMax-M2, Kimi-K2) a entre un tercio "
             "y un quinto de esa estimación, Llama 4 en BF16 dentro de un 11%.");
}

std::string metal_batched_decode_note(const std::string& engine, const Hardware& device, int64_t batch,
                                      Language lang) {
  if ((engine != "llama.cpp" && engine != "ollama") || device.backend != "metal" || batch < 8) return "";
  return say(lang,
             "On Apple GPUs llama.cpp decodes batches of 8 or more sequences well below this estimate: its "
             "own M2 Ultra benchmarks run them at 1/1.7 to 1/3 of such estimates (batches of 2 and 4 "
             "within the band).",
             "En GPU de Apple llama.cpp decodifica lotes de 8 o más secuencias muy por debajo de esta "
             "estimación: sus propias pruebas en un M2 Ultra los ejecutan a entre 1/1,7 y 1/3 de tales "
             "estimaciones (los lotes de 2 y 4, dentro de la banda).");
}

}  // namespace llmcalc
