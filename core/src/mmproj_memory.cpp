// The multimodal projector llama-server loads for a vision model (llama.cpp b10256 and later):
// - `-hf <repo>:<quant>` downloads the repository's mmproj file by default and loads it with
//   --mmproj-offload on (common/arg.cpp, common/download.cpp; --no-mmproj skips it, PR #23378),
//   whole on the first GPU (tools/mtmd/clip.cpp); Ollama passes its model's projector with
//   --mmproj too (llm/llama_server.go appendMMProjArgs, ollama@fb3076099).
// - The file holds the vision tower and projector (and an audio encoder) as llama.cpp's
//   converter writes them: matrices in 16 bits (the F16 / BF16 mmproj files the GGUF
//   repositories publish, which -hf picks for a 4- to 8-bit model unless the repository has a
//   Q8_0 one), vectors (norms, biases) in f32.
// - At load the projector runs a warm-up image through the tower to size its compute buffer
//   (clip.cpp warmup: Qwen-VL towers 1472 x 1472, Gemma 3 896 x 896, Gemma 4 768 x 768,
//   Pixtral 448 x 448); its peak is the widest layer's live set, the MLP's activations beside
//   three tower-wide tensors in f32, and without flash attention the f32 attention scores of all
//   heads over the patches besides.
// - llama-server's --fit counts both on the projector's device since PR #21489 (2026-04): the
//   text gets that much less room there.
// Checked against 2026 logs (tests/core/test_mmproj.cpp): Qwen3.6-27B's BF16 mmproj 887.99 MiB with
// a 248.10 MiB buffer, Gemma 3 4B's 811.79 MiB with 121.25 MiB, and without flash attention
// Qwen3.6's 4,657.81 MiB.
#include "mmproj_memory.h"

#include <string>

namespace llmcalc {
namespace {

// The warm-up image's side for a tower kind (VisionConfig::kind); 0 where not known.
int64_t warmup_side(const std::string& kind) {
  if (kind == "qwen3_vl") return 1472;
  if (kind == "siglip") return 896;
  if (kind == "gemma4") return 768;
  if (kind == "pixtral") return 448;
  return 0;
}

bool in_mmproj(const TensorSpec& tensor) {
  return tensor.part == ModelPart::vision || tensor.part == ModelPart::projector || tensor.part == ModelPart::audio;
}

}  // namespace

int64_t mmproj_file_bytes(const std::vector<TensorSpec>& tensors) {
  int64_t bytes = 0;
  for (const TensorSpec& tensor : tensors) {
    if (!in_mmproj(tensor)) continue;
    bool vector = tensor.ne1 == 1 && tensor.ne2 == 1;
    bytes += tensor.elements() * (vector ? 4 : 2);
  }
  return bytes;
}

MmprojMemory mmproj_memory(const ModelSpec& model, bool flash_attention, int64_t published_file_bytes) {
  MmprojMemory out;
  if (model.mmproj_file_bytes == 0 || published_file_bytes < 0) return out;
  out.weights_bytes = published_file_bytes > 0 ? published_file_bytes : model.mmproj_file_bytes;
  out.warmup_side = warmup_side(model.vision_kind);
  if (out.weights_bytes == 0 || out.warmup_side == 0 || model.vision_patch <= 0) return out;
  int64_t side = out.warmup_side / model.vision_patch;
  int64_t patches = side * side;
  out.compute_bytes = patches * (model.vision_mlp + 3 * model.vision_width) * 4;
  if (!flash_attention) out.compute_bytes += model.vision_heads * patches * patches * 4;
  return out;
}

}  // namespace llmcalc
