// Spark-X2.5 (XHToken/Spark-X2.5-4B and -1.7B, iFlytek's SparkLLM team; model_type spark2_5, remote
// code modeling_spark.py; llama.cpp arch "spark2_5", PR #27868 merged 2026-09-06, in b10830).
// A dense decoder: one fused QKV projection (GQA), a head-wise sigmoid gate on the attention
// output (g_proj, hidden -> one value per query head), a gated GELU MLP, two RMSNorms per layer and
// tied embeddings; layer_types gives three sliding-window layers to each full-attention one (the
// generic reader reads them, and the window). Per-layer RoPE widths and bases change no tensor.
#include "../arch_config.h"
#include "../family.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json&, JsonReader&, ArchConfig& arch) {
  arch.fused_qkv = true;
}

void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  auto index = static_cast<std::size_t>(i);
  out.add_norm(blk + "attn_norm", i, arch.hidden);
  out.add_attention(blk, i, arch.layer_kv_heads[index], arch.layer_attention[index]);
  out.add_linear(blk + "attn_gate", TensorRole::attn_q, i, arch.hidden, arch.n_heads, false);
  out.add_norm(blk + "ffn_norm", i, arch.hidden);
  out.add_dense_mlp(blk, i, arch.intermediate, "");
}

}  // namespace

const FamilyDefinition& spark2_5_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"spark2_5"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    f.gguf_architectures = {"spark2_5"};
    return f;
  }();
  return family;
}

}  // namespace llmcalc
