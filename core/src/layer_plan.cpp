// Per-layer attention and MLP geometry from ArchConfig: what the KV-cache and speed models read.
#include "arch_config.h"
#include "family.h"

namespace llmcalc {

std::vector<LayerSpec> plan_layers(const ArchConfig& arch) {
  std::vector<LayerSpec> layers;
  layers.reserve(static_cast<std::size_t>(arch.n_layers));
  for (int64_t i = 0; i < arch.n_layers; ++i) {
    auto index = static_cast<std::size_t>(i);
    LayerSpec layer;
    AttentionGeometry& attention = layer.attention;
    attention.kind = arch.layer_attention[index];
    attention.n_q_heads = index < arch.layer_q_heads.size() ? arch.layer_q_heads[index] : arch.n_heads;
    attention.n_kv_heads = arch.layer_kv_heads[index];
    attention.head_dim_k = arch.layer_head_dim(attention.kind);
    attention.head_dim_v = arch.layer_v_head_dim(attention.kind);
    if (attention.kind == AttentionKind::sliding) attention.window_tokens = arch.sliding_window;
    if (attention.kind == AttentionKind::chunked) attention.window_tokens = arch.chunk_size;
    attention.kv_shared = i >= arch.n_layers - arch.kv_shared_layers;
    if (attention.kind == AttentionKind::mla) {
      attention.kv_lora_rank = arch.kv_lora_rank;
      attention.qk_rope_head_dim = arch.qk_rope_head_dim;
      bool indexer = index >= arch.layer_indexer.size() || arch.layer_indexer[index];
      if (arch.indexer_heads > 0 && indexer) attention.indexer_head_dim = arch.indexer_head_dim;
    }
    if (arch.family && arch.family->plan_attention) arch.family->plan_attention(arch, i, attention);
    if (attention.kind == AttentionKind::none) {
      attention.n_q_heads = 0;
      attention.n_kv_heads = 0;
    }
    bool parallel_mamba = arch.parallel_mamba && attention.kind == AttentionKind::full;
    if (attention.kind == AttentionKind::ssm || parallel_mamba) {
      // Mamba state per sequence: conv window (d_conv - 1) x d_inner and SSM d_state x d_inner
      // (llama.cpp llama-memory-recurrent.cpp keeps both as f32). Falcon-H1 keeps it beside the
      // KV cache of every layer.
      if (!parallel_mamba) {
        attention.n_q_heads = 0;
        attention.n_kv_heads = 0;
      }
      // Mamba2: the conv window also covers B and C, and the state is heads x head_dim x d_state.
      int64_t conv_channels =
          arch.mamba_d_inner + (arch.mamba2 ? 2 * arch.mamba_groups * arch.mamba_d_state : 0);
      attention.conv_channels = conv_channels;
      attention.conv_state_elements_per_seq = conv_channels * (arch.mamba_d_conv - 1);
      attention.state_elements_per_seq =
          attention.conv_state_elements_per_seq + arch.mamba_d_inner * arch.mamba_d_state;
      // LFM2's short convolution keeps only its last conv_L_cache - 1 inputs.
      if (arch.short_conv_kernel > 0) {
        attention.state_elements_per_seq = (arch.short_conv_kernel - 1) * arch.hidden;
        attention.conv_state_elements_per_seq = attention.state_elements_per_seq;
        attention.conv_channels = arch.hidden;
      }
    }
    if (attention.kind == AttentionKind::linear && arch.lightning_attention) {
      // Lightning attention keeps a head_dim x head_dim KV state per head (MiniMax-01 paper §2.2).
      attention.n_kv_heads = 0;
      attention.state_elements_per_seq = arch.n_heads * arch.head_dim * arch.head_dim;
    } else if (attention.kind == AttentionKind::linear) {
      // Gated DeltaNet state per sequence: a k_dim x v_dim matrix per value head, plus the
      // causal-conv window of (kernel - 1) past inputs over q, k and v channels.
      int64_t key_dim = arch.linear_k_heads * arch.linear_k_head_dim;
      int64_t value_dim = arch.linear_v_heads * arch.linear_v_head_dim;
      attention.n_q_heads = arch.linear_v_heads;
      attention.n_kv_heads = 0;
      attention.conv_channels = 2 * key_dim + value_dim;
      attention.conv_state_elements_per_seq = (arch.linear_conv_kernel - 1) * attention.conv_channels;
      attention.state_elements_per_seq =
          arch.linear_v_heads * arch.linear_k_head_dim * arch.linear_v_head_dim +
          attention.conv_state_elements_per_seq;
    }
    MlpGeometry& mlp = layer.mlp;
    mlp.moe = arch.layer_moe[index];
    mlp.intermediate = mlp.moe ? 0 : arch.layer_intermediate[index];
    mlp.present = mlp.moe || mlp.intermediate > 0;
    if (mlp.moe) {
      mlp.n_experts = arch.n_experts;
      mlp.n_experts_active = arch.n_experts_active;
      mlp.expert_intermediate = arch.moe_intermediate;
      mlp.shared_intermediate = arch.shared_intermediate;
    }
    layers.push_back(layer);
  }
  return layers;
}

}  // namespace llmcalc
