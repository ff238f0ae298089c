// Qwen3.8 Flash-Next (Qwen/Qwen3.8-Flash-Next, model_type qwen4_exp; transformers
// models/qwen4_exp/modeling_qwen4_exp.py @009e78d6, configuration_qwen4_exp.py @075d0aed; its MTP
// head from vLLM qwen4_exp/nvidia/mtp.py @03cae783). Qwen3.5's gated DeltaNet and gated
// full-attention layers (every full_attention_interval-th; read as qwen3_next) and experts with a
// gated shared expert, but:
// - no layer norms: each layer's attention and MLP sit behind hyper-connections over hc_count
//   residual streams (Qwen4ExpTextGatedResidual: a norm over the streams, a low-rank input mix
//   down to hc_lowrank and up, the block's injection into each stream), and a last mixer (no
//   injection) replaces the final norm;
// - full-attention layers carry a sparse-attention indexer (one projection to indexer_n_heads +
//   indexer_kv_heads heads of indexer_head_dim, q/k norms; block compression is a parameter-free
//   mean);
// - the layers in ple_layer_ids (one-based) add per-layer n-gram embeddings (Qwen4ExpTextPLELayer):
//   key and value projections, three norms and a dilated depthwise convolution over the streams,
//   and a table of (ngram_size - 1) x heads_per_ngram heads, each with a prime vocabulary (the
//   j-th prime from ngram_vocab_size_base), ple_embed_dim / heads wide, rows padded to
//   make_ngram_vocab_size_divisible_by;
// - the MTP layer (a full-attention layer with its experts) fuses the embedding and the streams
//   with pre_fc_norm_embedding / pre_fc_norm_hidden and fc_embedding / fc_hidden, and has its own
//   last mixer.
// The vision tower is Qwen3-VL's without deepstack mergers. Checked against the checkpoint's
// 1,658 tensors (a per-shard inventory, search-index file id 59431551399; steadfastgaze/MoEspresso
// @6b96f274 src/moespresso/inventory/qwen4/static.py and mtp.py name every text and MTP shape).
#include "../arch_config.h"
#include "../family.h"
#include "../round_up.h"
#include "../tensor_list.h"

namespace llmcalc {
namespace {

constexpr const char* kLowRank = "hc_lowrank";
constexpr const char* kIndexerHeads = "indexer_n_heads";
constexpr const char* kIndexerKvHeads = "indexer_kv_heads";
constexpr const char* kIndexerHeadDim = "indexer_head_dim";
constexpr const char* kPleWidth = "ple_embed_dim";
constexpr const char* kPleKernel = "ple_conv_kernel_size";
constexpr const char* kNgramRows = "ngram_rows";     // one PLE layer's padded n-gram rows
constexpr const char* kNgramWidth = "ngram_width";   // ple_embed_dim / n-gram heads
constexpr const char* kPleLayers = "ple_layers";     // a bit per layer index (below 63)

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) return false;
  }
  return true;
}

// The n-gram table of the `ple_index`-th PLE layer: its heads take the next primes from `base`.
int64_t ngram_rows(int64_t base, int64_t heads, int64_t ple_index, int64_t multiple) {
  int64_t candidate = base;
  int64_t rows = 0;
  for (int64_t head = 0; head < (ple_index + 1) * heads; ++candidate) {
    if (!is_prime(candidate)) continue;
    if (head >= ple_index * heads) rows += candidate;
    ++head;
  }
  return multiple > 0 ? round_up(rows, multiple) : rows;
}

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json& text, JsonReader& reader,
                 ArchConfig& arch) {
  arch.output_norm = false;
  arch.norms_per_layer = 0;
  arch.mtp_eh_proj = false;
  arch.mtp_shared_head_norm = false;
  arch.mtp_own_embeddings = reader.boolean("mtp_use_dedicated_embeddings", false).value_or(false);
  arch.mtp_layers = reader.integer("mtp_num_hidden_layers", 0, 16, 0).value_or(0);
  arch.hc_mult = reader.integer("hc_count", 1, 64, 1).value_or(1);
  arch.family_sizes[kLowRank] = reader.integer("hc_lowrank", 1, kMaxHidden, 1).value_or(1);
  arch.family_sizes[kIndexerHeads] = reader.integer("indexer_n_heads", 0, kMaxHeads, 0).value_or(0);
  arch.family_sizes[kIndexerKvHeads] = reader.integer("indexer_kv_heads", 0, kMaxHeads, 0).value_or(0);
  arch.family_sizes[kIndexerHeadDim] = reader.integer("indexer_head_dim", 0, kMaxHidden, 0).value_or(0);
  int64_t width = reader.integer("ple_embed_dim", 1, kMaxHidden, arch.hidden).value_or(arch.hidden);
  int64_t heads = (reader.integer("ngram_size", 1, 16, 3).value_or(3) - 1) *
                  reader.integer("heads_per_ngram", 1, 1024, 8).value_or(8);
  int64_t base = reader.integer("ngram_vocab_size_base", 2, int64_t{1} << 32, 20000000).value_or(20000000);
  int64_t multiple = reader.integer("make_ngram_vocab_size_divisible_by", 1, 1 << 20, 128).value_or(128);
  arch.family_sizes[kPleWidth] = width;
  arch.family_sizes[kPleKernel] = reader.integer("ple_conv_kernel_size", 1, 64, 4).value_or(4);
  arch.family_sizes[kNgramWidth] = heads > 0 ? width / heads : 0;
  int64_t ple_index = 0;
  auto ids = text.find("ple_layer_ids");
  if (ids != text.end() && ids->is_array()) {
    for (const auto& id : *ids) {
      int64_t layer = id.is_number_integer() ? id.get<int64_t>() - 1 : -1;
      if (layer < 0 || layer >= std::min<int64_t>(arch.n_layers, 63)) {
        reader.issues().error("bad_ple_layer", reader.path_of("ple_layer_ids"),
                              "ple_layer_ids must list one-based layer numbers.");
        return;
      }
      arch.family_sizes[kPleLayers] |= int64_t{1} << layer;
      arch.family_sizes[kNgramRows + std::to_string(layer)] = ngram_rows(base, heads, ple_index++, multiple);
    }
  }
}

// One Qwen4ExpTextGatedResidual over the hc_count streams; the last mixer has no injection.
void add_gated_residual(const TensorName& name, int layer, bool inject, TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t streams = arch.hc_mult * arch.hidden;
  int64_t low_rank = arch.family_size(kLowRank);
  out.add(name + ".hc_norm.weight", TensorRole::norm, layer, streams, 1);
  out.add_linear(name + ".input_mix_down", TensorRole::attn_q, layer, streams, low_rank, false);
  out.add_linear(name + ".input_mix_up", TensorRole::attn_q, layer, low_rank, streams, false);
  if (inject) out.add(name + ".block_inject.weight", TensorRole::norm, layer, streams, arch.hc_mult);
}

void add_ple(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  int64_t streams = arch.hc_mult * arch.hidden;
  int64_t width = arch.family_size(kPleWidth);
  out.add_linear(blk + "ple_key", TensorRole::per_layer_proj, i, width, streams, false);
  out.add_linear(blk + "ple_value", TensorRole::per_layer_proj, i, width, arch.hidden, false);
  for (const char* norm : {"ple_norm_key", "ple_norm_query", "ple_norm_conv"}) out.add_norm(blk + norm, i, streams);
  out.add(blk + "ple_conv1d.weight", TensorRole::ssm_conv, i, arch.family_size(kPleKernel), streams);
  out.add(blk + "ple_ngram_embd.weight", TensorRole::per_layer_embd, i, arch.family_size(kNgramWidth),
          arch.family_size(kNgramRows + std::to_string(i)));
}

void add_layer_tensors(const TensorPrefix& blk, int i, TensorList& out) {
  const ArchConfig& arch = out.arch();
  auto index = static_cast<std::size_t>(i);
  add_gated_residual(blk + "attn_hc", i, true, out);
  add_gated_residual(blk + "ffn_hc", i, true, out);
  // MTP layers (past the decoder's) are full-attention layers with experts.
  bool linear = index < arch.layer_attention.size() && arch.layer_attention[index] == AttentionKind::linear;
  if (linear) {
    out.add_linear_attention(blk, i);
  } else {
    out.add_attention(blk, i, arch.n_kv_heads, AttentionKind::full);
    int64_t dim = arch.family_size(kIndexerHeadDim);
    out.add_linear(blk + "indexer.attn_qk", TensorRole::attn_q, i, arch.hidden,
                   (arch.family_size(kIndexerHeads) + arch.family_size(kIndexerKvHeads)) * dim, false);
    out.add_norm(blk + "indexer.q_norm", i, dim);
    out.add_norm(blk + "indexer.k_norm", i, dim);
  }
  out.add_moe(blk, i);
  if (i < 63 && (arch.family_size(kPleLayers) >> i & 1)) add_ple(blk, i, out);
}

// Each full-attention layer caches its indexer's keys beside K and V: indexer_kv_heads x
// indexer_head_dim per token (llama.cpp keeps them K-only since PR #28330, b10889: the Ollama
// 0.34.2 / b10969 log of tests/core/test_engines.cpp has 12 layers x 128 x 2 B per cell).
void plan_attention(const ArchConfig& arch, int64_t, AttentionGeometry& attention) {
  if (attention.kind != AttentionKind::full) return;
  attention.indexer_head_dim = arch.family_size(kIndexerKvHeads) * arch.family_size(kIndexerHeadDim);
}

// After the last layer, the final mixer; in each MTP layer, its input fusion and its own mixer.
void add_head_tensors(const TensorPrefix& prefix, int layer, TensorList& out) {
  const ArchConfig& arch = out.arch();
  if (layer >= 0) {
    out.add_norm(prefix + "pre_fc_norm_embedding", layer, arch.hidden);
    out.add_norm(prefix + "pre_fc_norm_hidden", layer, arch.hc_mult * arch.hidden);
    out.add(prefix + "fc_embedding.weight", TensorRole::nextn_eh_proj, layer, arch.hidden, arch.hidden);
    out.add(prefix + "fc_hidden.weight", TensorRole::nextn_eh_proj, layer, arch.hidden, arch.hidden);
  }
  add_gated_residual(prefix + "hc_mixer", layer, false, out);
}

}  // namespace

const FamilyDefinition& qwen4_exp_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"qwen4_exp", "qwen4_exp_text"};
    f.read_config = read_config;
    f.add_layer_tensors = add_layer_tensors;
    f.add_head_tensors = add_head_tensors;
    f.plan_attention = plan_attention;
    f.reads_text_as = "qwen3_next";
    return f;
  }();
  return family;
}

}  // namespace llmcalc
