// Ollama's automatic generation batch, as server/sched.go decides it at ollama/ollama@fb30760
// (v0.33.0-rc2; the rule dates from v0.30.0, PR #16031, and v0.34.2 passes the same flags):
// - CUDA without flash attention: 512, or 256 when the total context is above 4,096 and a CUDA
//   card has 8 GiB or less (constrainedCUDAWithoutFlashAttention);
// - else 2048 above 32,768 tokens of total context, 1024 above 4,096, 512 below
//   (generationBatchForContext), stepped down 2048 -> 1024 -> 512 until generationBatchFits:
//   the prediction at most 80% of the free memory, at most 60% (2048) or 75% (1024) of it, and
//   a surcharge of 2 GiB (2048) or 768 MiB (1024) within what is left under the 80%;
// - the prediction (llm/llama_server.go PredictServerVRAM): the GGUF file plus an f16 cache of
//   every block with the fewest KV heads and head width embedding_length / head_count_max, over
//   the total context, whatever the model's real cache is;
// - the free memory: the placement's GPUs' free memory summed (availableMemoryForLoad; here each
//   device's memory less the driver reserve, or macOS's wired limit). Ollama's choice of a single
//   GPU among several (bestSingleGPUFit) is not modelled.
#include "ollama_batch.h"

#include <algorithm>

#include "llama_cpp_memory.h"

namespace llmcalc {
namespace {

constexpr int64_t kBatchSmall = 512;
constexpr int64_t kBatchConstrained = 256;
constexpr int64_t kBatchMedium = 1024;
constexpr int64_t kBatchLarge = 2048;

int64_t surcharge(int64_t batch) {
  if (batch >= kBatchLarge) return 2 * kGiB;
  if (batch >= kBatchMedium) return 768 * kMiB;
  return 0;
}

bool batch_fits(int64_t batch, int64_t predicted, int64_t available) {
  if (predicted == 0 || available == 0) return true;
  const int64_t threshold = available * 80 / 100;
  if (predicted > threshold) return false;
  if (batch >= kBatchLarge && predicted > available * 60 / 100) return false;
  if (batch >= kBatchMedium && batch < kBatchLarge && predicted > available * 75 / 100) return false;
  return surcharge(batch) <= threshold - predicted;
}

// PredictServerVRAM: the file and an f16 cache sized from the GGUF's header alone.
int64_t predicted_load(const ModelSpec& model, const WeightPlan& weights, const MemoryRequest& request,
                       int64_t total_context) {
  int64_t file = weights.total_bytes + (request.weights_include_mtp ? weights.mtp_bytes : 0);
  int64_t fewest_kv_heads = 0;
  int64_t most_heads = 0;
  bool first = true;
  for (const LayerSpec& layer : model.layers) {
    fewest_kv_heads = first ? layer.attention.n_kv_heads : std::min(fewest_kv_heads, layer.attention.n_kv_heads);
    most_heads = std::max(most_heads, layer.attention.n_q_heads);
    first = false;
  }
  fewest_kv_heads = std::max<int64_t>(1, fewest_kv_heads);
  int64_t head_width = most_heads > 0 ? model.hidden_size / most_heads : 0;
  return file + 2 * model.n_layers * fewest_kv_heads * head_width * total_context * 2;
}

}  // namespace

int64_t ollama_context_batch(int64_t total_context) {
  if (total_context > 32768) return kBatchLarge;
  if (total_context > 4096) return kBatchMedium;
  return kBatchSmall;
}

int64_t ollama_generation_batch(const ModelSpec& model, const WeightPlan& weights, const Hardware& hardware,
                                const MemoryRequest& request, int64_t context_tokens) {
  const EngineSettings& engine = request.engine;
  const int64_t total_context = context_tokens * std::max<int64_t>(1, request.sequences);
  bool cuda = false;
  bool small_cuda = false;
  int64_t available = 0;
  for (int d = 0; d < devices_of(request); ++d) {
    const Hardware& h = request_device(request, hardware, d);
    if (h.kind == "cpu") continue;
    bool is_cuda = h.backend == "cuda";
    cuda = cuda || is_cuda;
    small_cuda = small_cuda || (is_cuda && h.memory_bytes <= 8 * kGiB);
    available += device_memory_bytes(h, engine);
  }
  if (cuda && !engine.flash_attention) {
    return total_context > 4096 && small_cuda ? kBatchConstrained : kBatchSmall;
  }
  const int64_t predicted = predicted_load(model, weights, request, total_context);
  int64_t batch = ollama_context_batch(total_context);
  while (batch > kBatchSmall && !batch_fits(batch, predicted, available)) {
    batch = batch > kBatchMedium ? kBatchMedium : kBatchSmall;
  }
  return batch;
}

}  // namespace llmcalc
