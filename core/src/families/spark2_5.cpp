// Spark-X2.5 (XHToken/Spark-X2.5-4B and -1.7B, iFlytek's SparkLLM team; model_type spark2_5, remote
// code modeling_spark.py; llama.cpp arch "spark2_5", its model_type too, so a GGUF reads as this family
// without a mapping; PR #27868 merged 2026-09-06, in b10830).
// A dense decoder: one fused QKV projection (GQA), a head-wise sigmoid gate on the attention
// output (g_proj, hidden -> one value per query head), a gated GELU MLP, two RMSNorms per layer and
// tied embeddings; layer_types gives three sliding-window layers to each full-attention one (the
// generic readers read them and the window, from its GGUF too: PR #27868 writes
// sliding_window_pattern per block). Per-layer RoPE widths and bases change no tensor.
#include "../arch_config.h"
#include "../family.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json&, JsonReader&, ArchConfig& arch) {
  arch.fused_qkv = true;
  arch.head_output_gate = true;
}

}  // namespace

const FamilyDefinition& spark2_5_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"spark2_5"};
    f.read_config = read_config;
    return f;
  }();
  return family;
}

}  // namespace llmcalc
