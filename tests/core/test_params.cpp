// Parameter counts: hand-computed cases per family, and every catalog model with an exact
// published total (Hugging Face safetensors metadata, cited in data/models/<id>.json).
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "llmcalc/catalog.h"
#include "llmcalc/weights.h"
#include "test_support.h"

using llmcalc_test::catalog_model;

namespace {

// The Hub's published total of a catalog model, as data/models/<id>.json records it with its source.
nlohmann::json published_total(const std::string& id) {
  return llmcalc_test::data_record("models/" + id + ".json").at("published_total_params");
}

}  // namespace

TEST_CASE("Llama 3.1 8B parameters by component, by hand", "[params][llama]") {
  auto m = catalog_model("llama-3.1-8b");
  // embedding 128256 x 4096 = 525,336,576; untied head the same.
  CHECK(m.params.embedding == 525336576);
  CHECK(m.params.output_head == 525336576);
  // attention per layer: q 4096x4096 + k 4096x1024 + v 4096x1024 + o 4096x4096 = 41,943,040; x32
  CHECK(m.params.attention == 41943040LL * 32);
  // MLP per layer: 3 x 4096 x 14336 = 176,160,768; x32
  CHECK(m.params.mlp_dense == 176160768LL * 32);
  // norms: 2 x 4096 per layer x 32 + final 4096 = 266,240
  CHECK(m.params.norms == 266240);
  // total: 1,050,673,152 + 1,342,177,280 + 5,637,144,576 + 266,240 = 8,030,261,248
  CHECK(m.params.total == 8030261248LL);
  CHECK(m.params.active == m.params.total);
}

TEST_CASE("NVFP4 (ModelOpt) checkpoint bytes by hand: Llama 3.1 8B", "[params][weights][nvfp4]") {
  // Every decoder Linear in NVFP4: half a byte per weight plus one E4M3 scale per 16, 0.5625 B;
  // embeddings, lm_head and norms in BF16 (ModelOpt's default disabled quantizers).
  // Linears: (41,943,040 + 176,160,768) x 32 = 6,979,321,856 weights x 0.5625 = 3,925,868,544 B;
  // BF16: (1,050,673,152 + 266,240) x 2 = 2,101,878,784 B. Total 6,027,747,328 B.
  auto out = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"weights", "NVFP4"}, {"engine", "vllm"},
                                     {"hardware", "b200-sxm"}, {"context_tokens", 4096}});
  REQUIRE(out["ok"] == true);
  double bytes = out["result"]["weights"]["total_bytes"].get<double>();
  CHECK(bytes == 6027747328.0);
  // nvidia/Llama-3.1-8B-Instruct-FP4, its files measured at 6,027,861,376 B (a third-party test
  // table of file sizes, code index file id 69457224706): the 114,048 B more are the shards'
  // safetensors headers and the two fp32 scalars per Linear (8 B x 224).
  CHECK(bytes == Approx(6027861376.0).epsilon(0.0001));
}

TEST_CASE("FP8 checkpoints in 128 x 128 blocks, whatever the row length", "[params][weights][fp8]") {
  auto fp8 = [](const char* model) {
    auto out = llmcalc_test::estimate({{"model", model}, {"weights", "FP8"}, {"engine", "vllm"},
                                       {"hardware", "h200-sxm"}, {"devices", 8}, {"context_tokens", 4096}});
    REQUIRE(out["ok"] == true);
    return out["result"]["weights"];
  };
  // Llama 3.3 70B by hand. Per layer, 855,638,016 FP8 weights (q, o 8192 x 8192; k, v 8192 x 1024;
  // gate, up 8192 x 28672; down 28672 x 8192) and 52,224 f32 block scales (4,096 + 512 + 512 +
  // 4,096 + 3 x 224 x 64): 855,846,912 B; x 80 = 68,467,752,960 B. BF16: embedding and head 2 x
  // 128,256 x 8,192 x 2 B = 4,202,692,608 B, norms (2 x 80 + 1) x 8,192 x 2 B = 2,637,824 B.
  // Total 72,673,083,392 B. (down_proj's 28,672-wide rows are not a whole number of 16,384-element
  // groups: a 1-D group rule kept them in 16 bits, 91.5 GB in all.)
  CHECK(fp8("llama-3.3-70b")["total_bytes"].get<double>() == 72673083392.0);
  // DeepSeek-V3's own FP8 checkpoint, the Hub's safetensors count by dtype (data/models/
  // deepseek-v3.json): 680,571,043,840 F8_E4M3 + 3,918,786,560 BF16 x 2 + 41,555,600 F32 x 4
  // = 688,574,839,360 B, the MTP layer included; its three dense layers' down_proj rows are 18,432 wide.
  auto v3 = fp8("deepseek-v3");
  double bytes = v3["total_bytes"].get<double>() + v3["mtp_bytes"].get<double>();
  CHECK(bytes == Approx(688574839360.0).epsilon(0.0005));
  // MiMo-V2.5-Pro's own FP8 checkpoint keeps every o_proj in BF16 (quantization_config
  // ignored_layers): its tensors hold 962.40 GiB (the listing in data/models/mimo-v2.5-pro.json).
  // Left apart here: the router stored in F32 (69 x 384 x 6,144 x 2 B = 325,582,848 B more) and the
  // MTP eh_proj in BF16 (3 x 75,497,472 B more), 0.05% of the whole; with o_proj in FP8 it would be
  // 7.4 GB (0.7%) less.
  auto mimo = fp8("mimo-v2.5-pro");
  double mimo_bytes = mimo["total_bytes"].get<double>() + mimo["mtp_bytes"].get<double>();
  CHECK(mimo_bytes == Approx(962.40 * 1073741824.0).epsilon(0.001));
  CHECK(mimo_bytes < 962.40 * 1073741824.0);
}

TEST_CASE("Mixtral 8x7B active parameters count two of eight experts", "[params][moe]") {
  auto m = catalog_model("mixtral-8x7b");
  // experts: 32 layers x 8 experts x 3 x 4096 x 14336 = 45,097,156,608
  CHECK(m.params.experts_routed == 45097156608LL);
  // router: 32 x 4096 x 8 = 1,048,576
  CHECK(m.params.router == 1048576);
  // active = total - 6/8 of the experts = total - 33,822,867,456
  CHECK(m.params.active == m.params.total - 33822867456LL);
  // total by hand: embed 32000x4096 x2 = 262,144,000; attention 32 x (2x4096x4096 + 2x4096x1024)
  // = 1,342,177,280; experts 45,097,156,608; router 1,048,576; norms 65 x 4096 = 266,240
  CHECK(m.params.total == 46702792704LL);
}

// F32 weight_scale_inv elements of a checkpoint quantized to FP8 in 128 x 128 blocks: one per block
// of every quantized linear; embeddings, head, router, norms, biases and the MTP eh_proj stay
// unquantized (quantization_config.modules_to_not_convert of DeepSeek V3 and MiniMax-M2), and so
// does DeepSeek V3.2's indexer weights_proj: with it quantized, V3.2 would be 62 x 56 above the Hub.
// `also_kept`: a role the checkpoint's ignored_layers keeps too (MiMo-V2.5-Pro's o_proj).
int64_t fp8_block_scales(const llmcalc::ModelSpec& m, std::optional<llmcalc::TensorRole> also_kept = std::nullopt) {
  int64_t scales = 0;
  for (const auto& t : m.tensors) {
    bool kept = t.ne1 == 1 || t.role == also_kept || t.role == llmcalc::TensorRole::token_embd ||
                t.role == llmcalc::TensorRole::output ||
                t.role == llmcalc::TensorRole::ffn_gate_inp || t.role == llmcalc::TensorRole::norm ||
                t.role == llmcalc::TensorRole::bias || t.role == llmcalc::TensorRole::nextn_eh_proj ||
                t.name.find("indexer.proj") != std::string::npos;
    if (!kept) scales += (t.ne0 + 127) / 128 * ((t.ne1 + 127) / 128) * t.ne2;
  }
  return scales;
}

// Tensors some checkpoints store beyond the model's parameters, which the Hub total counts.
int64_t stored_extras(const std::string& id, const llmcalc::ModelSpec& m) {
  // Llama 2 checkpoints save each layer's rotary_emb.inv_freq buffer: head_dim / 2 floats.
  if (id.rfind("llama-2-", 0) == 0) return m.n_layers * (m.layers[0].attention.head_dim_k / 2);
  // Kimi-K2 saves one too, of 56 (hidden / heads / 2, not its 64-wide RoPE): Megatron-Bridge issue
  // #1861 shows the Hub checkpoint's self_attn.rotary_emb.inv_freq as [56].
  if (id == "kimi-k2") return m.n_layers * (m.hidden_size / 64 / 2);
  // Qwen3-0.6B and 1.7B tie the head to the embedding yet also store lm_head.weight; so do the
  // Gemma 4 26B and 31B checkpoints (convert_gemma4_weights.py writes lm_head.weight from
  // embed_tokens); the E2B / E4B ones do not.
  if (id == "qwen3-0.6b" || id == "qwen3-1.7b" || id == "gemma-4-26b-a4b" || id == "gemma-4-31b") {
    return m.params.embedding;
  }
  // DeepSeek V3 / V3.1 and MiniMax-M2 ship FP8 weights with one F32 weight_scale_inv per block.
  if (id == "deepseek-v3" || id == "deepseek-v3.1" || id == "deepseek-r1" || id == "deepseek-v3.2" ||
      id == "deepseek-v3-0324" || id == "deepseek-r1-0528" || id == "deepseek-v3.1-terminus" ||
      id.rfind("minimax-m2", 0) == 0) {
    return fp8_block_scales(m);
  }
  // MiMo-V2.5-Pro: FP8 blocks with o_proj in BF16 (its ignored_layers), and each fused qkv_proj's
  // scale grid is [216, 48] (the tensor listing, data/models/mimo-v2.5-pro.json): its rows restart
  // at every head's K and V, 24,576 / 128 + 8 x ceil(192 / 128) + 8 x ceil(128 / 128) = 216, not
  // ceil(27,136 / 128) = 212: 4 x 48 more on each of the 70 layers and 3 MTP layers.
  if (id == "mimo-v2.5-pro") return fp8_block_scales(m, llmcalc::TensorRole::attn_output) + 73 * 4 * 48;
  // Qwen3-Coder-Next's config declares an MTP layer (as Qwen3-Next's does), but its Hub total is
  // exactly our count without it: the checkpoint does not ship one.
  if (id == "qwen3-coder-next") return -m.params.mtp;
  // Qwen3.8 Flash-Next stores its n-gram layer's address buffers (layer_multipliers [3],
  // ngram_heads_vocab_sizes [16], ngram_heads_offsets [16]) as 35 I64 elements.
  if (id == "qwen3.8-flash-next") return 35;
  // Ling-3.0-tiny's config (the base checkpoint's) declares an MTP layer; the instruct checkpoint,
  // whose total the record gives, ships none (its Q8_0 GGUF has no MTP block either).
  if (id == "ling-3.0-tiny") return -m.params.mtp;
  return 0;
}

TEST_CASE("Catalog models match their exact published totals", "[params][published]") {
  int compared = 0;
  for (const auto& entry : llmcalc::Catalog::instance().models()) {
    const nlohmann::json record = llmcalc_test::data_record("models/" + entry.id + ".json");
    auto published = record.find("published_total_params");
    if (published == record.end() || !published->is_object()) continue;
    auto value = published->find("value");
    if (value == published->end() || !value->is_number_integer()) continue;
    // Packed FP4 experts make the Hub count stored elements, not parameters: see the cases below.
    // So do totals whose record says how the checkpoint stores packed weights (stored_as).
    if (entry.record().value("family", "") == "gpt_oss" || entry.record().value("family", "") == "deepseek_v4" ||
        published->contains("stored_as")) {
      continue;
    }
    // A config whose unknown sizes were solved from the total, or taken from a base model for
    // having its total (a fine-tune's), cannot check it.
    if (published->value("reconstruction_fitted_to_total", false) || published->value("config_chosen_by_total", false)) {
      continue;
    }
    INFO("model " << entry.id << " (" << published->value("source", "") << ")");
    auto m = catalog_model(entry.id);
    int64_t expected = value->get<int64_t>();
    CHECK(m.params.total + stored_extras(entry.id, m) == expected);
    ++compared;
  }
  CHECK(compared >= 128);
}

TEST_CASE("gpt-oss totals as the Hub counts them: weights plus MXFP4 scales",
          "[params][published][gpt_oss]") {
  // Expert weights ship as MXFP4: 4-bit values plus one U8 E8M0 scale per 32 weights. The Hub's
  // safetensors "total" counts every weight once and each scale as one more element, so it is
  // the logical parameter count plus expert_weights / 32.
  for (const char* id : {"gpt-oss-20b", "gpt-oss-120b"}) {
    INFO(id);
    const auto* entry = llmcalc::Catalog::instance().find_model(id);
    REQUIRE(entry);
    auto m = catalog_model(id);
    int64_t expert_weights = 0;
    for (const auto& t : m.tensors) {
      if (t.role == llmcalc::TensorRole::ffn_gate_exps || t.role == llmcalc::TensorRole::ffn_up_exps ||
          t.role == llmcalc::TensorRole::ffn_down_exps) {
        expert_weights += t.elements();
      }
    }
    int64_t hub_total = m.params.total + expert_weights / 32;
    CHECK(hub_total == published_total(entry->id).at("value").get<int64_t>());
  }
}

TEST_CASE("MiniMax-M1 safetensors total_size: BF16 weights with the routers in F32",
          "[params][published][minimax]") {
  // model.safetensors.index.json metadata.total_size = 912,210,767,872 bytes (source in
  // data/models/minimax-m1.json). Every tensor is BF16 except the MoE router gates, kept in F32:
  // bytes = 2 x total + 2 more per router element (80 layers x 32 experts x 6144 = 15,728,640).
  auto m = catalog_model("minimax-m1");
  CHECK(m.params.router == 80LL * 32 * 6144);
  CHECK(2 * m.params.total + 2 * m.params.router == 912210767872LL);
}

TEST_CASE("MiniMax-M2 by hand: full-width q/k norms, 256 experts, no MTP weights",
          "[params][families][minimax_m2]") {
  // 62 layers, hidden 3,072, 48 query and 8 KV heads of 128, 256 experts of 1,536 (top 8),
  // vocab 200,064, untied. Attention 2 x 3,072 x 6,144 + 2 x 3,072 x 1,024 = 44,040,192 per layer.
  auto m = catalog_model("minimax-m2");
  CHECK(m.params.attention == 62 * 44040192LL);
  // q_norm over 48 x 128 = 6,144 and k_norm over 8 x 128 = 1,024, plus two 3,072 layer norms;
  // and the final norm: 62 x 13,312 + 3,072 = 828,416.
  CHECK(m.params.norms == 828416);
  // Router 256 x 3,072 = 786,432 plus the 256-element e_score_correction_bias per layer.
  CHECK(m.params.router == 62 * 786688LL);
  // Experts: 62 x 256 x 3 x 3,072 x 1,536 = 62 x 3,623,878,656.
  CHECK(m.params.experts_routed == 62 * 3623878656LL);
  // num_mtp_modules 3 ships no weights (MiniMax-M2 issue #47): nothing is counted for them.
  CHECK(m.params.mtp == 0);
  // Total: 62 x 3,668,718,848 + 2 x 200,064 x 3,072 + 3,072 = 228,689,764,864.
  CHECK(m.params.total == 228689764864LL);
  // Active: minus 248 of 256 experts in each layer, 62 x 248 x 14,155,776 = 217,659,211,776.
  CHECK(m.params.active == 11030553088LL);
  // Checkpoint bytes 230,121,630,720 (alvarobartt/hf-mem README, run on MiniMaxAI/MiniMax-M2):
  // FP8 attention and experts at 1 byte, F32 block scales, router and score bias at 4, BF16
  // embeddings, head and norms at 2.
  int64_t bytes = m.params.attention + m.params.experts_routed + 4 * fp8_block_scales(m) +
                  4 * m.params.router + 2 * (m.params.embedding + m.params.output_head + m.params.norms);
  CHECK(bytes == 230121630720LL);
}

TEST_CASE("Hunyuan 7B by hand: per-head q/k norms and a tied head", "[params][families][hunyuan_v1_dense]") {
  // 32 layers, hidden 4,096, 32 query and 8 KV heads of 128, FFN 14,336, vocab 128,167, tied.
  auto m = catalog_model("hunyuan-7b-instruct");
  // Attention 2 x 4,096^2 + 2 x 4,096 x 1,024 = 41,943,040 per layer.
  CHECK(m.params.attention == 32 * 41943040LL);
  // Two layer norms and the 128-wide query_layernorm and key_layernorm per layer, plus the final.
  CHECK(m.params.norms == 32 * (2 * 4096 + 2 * 128) + 4096);
  CHECK(m.params.output_head == 0);
  // 1,342,177,280 + 32 x 3 x 4,096 x 14,336 + 274,432 + 128,167 x 4,096 = 7,504,568,320, the
  // index's metadata.total_parameters (data/models/hunyuan-7b-instruct.json).
  CHECK(m.params.total == 7504568320LL);
}

TEST_CASE("Hy3 by hand: q/k norms and a selection bias by its own keys, an MTP layer on the shared head",
          "[params][families][hy_v3]") {
  auto m = catalog_model("hy3");
  // Per layer: q 4,096 x 8,192 + k, v 4,096 x 1,024 + o 8,192 x 4,096 = 75,497,472.
  CHECK(m.params.attention == 80LL * 75497472);
  // qk_norm: a 128-wide q_norm and k_norm on each of the 80 layers; two 4,096 norms each; final.
  CHECK(m.params.norms == 80LL * (2 * 4096 + 2 * 128) + 4096);
  // moe_router_enable_expert_bias: 192 F32 biases beside each of the 79 routers of 192 x 4,096.
  CHECK(m.params.router == 79LL * (192 * 4096 + 192));
  // The MTP layer: a decoder layer with the same MoE (75,497,472 + 256 + 193 x 3 x 4,096 x 1,536 +
  // 786,432 + 192 + 8,192 = 3,719,045,568), eh_proj 8,192 x 4,096 and enorm, hnorm and its final
  // norm (3 x 4,096); no embedding or head of its own (989,855,744 more if it had them).
  CHECK(m.params.mtp == 3719045568LL + 33554432 + 12288);
  CHECK(m.params.total == 298786155776LL);  // the Hub's BF16 298,786,140,416 + F32 15,360
}

TEST_CASE("Ling-3.0-flash by hand: KDA with full-rank gates, gated MLA every sixth layer, an MTP layer",
          "[params][families][bailing_hybrid]") {
  auto m = catalog_model("ling-3.0-flash");
  // KDA (35 layers; 32 heads of 128, width 4,096): q, k, v 3 x 2,560 x 4,096 = 31,457,280; three
  // short convolutions 3 x 4 x 4,096 = 49,152; A_log 32; dt_bias 4,096; beta 2,560 x 32 = 81,920;
  // full-rank f_proj and g_proj 2 x 10,485,760; the gated norm 128; o_proj 10,485,760: 63,049,888.
  // MLA (layers 5, 11, ..., 41): q 2,560 x 32 x 192 = 15,728,640; kv_a 2,560 x 576 = 1,474,560;
  // its norm 512; kv_b 512 x 32 x 256 = 4,194,304; the head gate 2,560 x 32 = 81,920; output
  // 4,096 x 2,560 = 10,485,760: 31,965,696.
  // (Their norms, 128 and 512, count with the layers' 2 x 2,560 and the final 2,560 as norms.)
  CHECK(m.params.attention + m.params.recurrent == 35LL * (63049888 - 128) + 7LL * (31965696 - 512));
  CHECK(m.params.norms == 42LL * 5120 + 2560 + 35 * 128 + 7 * 512);
  // 40 MoE layers: 512 experts x 3 x 2,560 x 768 = 3,019,898,880, the shared one 5,898,240.
  CHECK(m.params.experts_routed == 40LL * 3019898880);
  CHECK(m.params.experts_shared == 40LL * 5898240);
  // The MTP layer: MLA 31,965,696 + MoE 3,027,108,352 (router 512 x 2,560 and 512 biases) + two
  // norms 5,120 + eh_proj 5,120 x 2,560 = 13,107,200 + enorm, hnorm 5,120 + its final norm 2,560.
  CHECK(m.params.mtp == 3072194048LL);
  CHECK(m.params.total == 127486405600LL);  // the instruct checkpoint's safetensors total
}

TEST_CASE("bailing_hybrid without Kimi Delta Attention (Ring-2.5's Lightning form) is refused, not guessed",
          "[params][families][bailing_hybrid]") {
  nlohmann::json config = llmcalc_test::data_record("models/ling-3.0-flash.json").at("config");
  config.erase("no_kda_lora");
  auto out = llmcalc_test::estimate({{"model", config}});
  CHECK(out["ok"] == false);
  REQUIRE(out["issues"].size() >= 1);
  CHECK(out["issues"][0]["code"] == "not_modelled");
  CHECK(out["issues"][0]["path"] == "/model/model_type");
}

TEST_CASE("MiniCPM-2B: the family from its architecture, and the paper's non-embedding count",
          "[params][families][minicpm]") {
  // The config has no model_type; MiniCPMForCausalLM names the family, whose head is tied.
  auto m = catalog_model("minicpm-2b-sft");
  CHECK(m.model_type == "minicpm");
  CHECK(m.params.output_head == 0);
  // 40 layers of 4 x 2,304^2 attention (36 heads, MHA), 3 x 2,304 x 5,760 MLP and two norms,
  // plus the final norm: 40 x 61,051,392 + 2,304 = 2,442,057,984, MiniCPM-2.4B's
  // non-embedding count in the MiniCPM paper's Table 2 (arXiv 2404.06395).
  CHECK(m.params.total - m.params.embedding == 2442057984LL);
  // With the 122,753 x 2,304 embedding: 2,724,880,896 ("2.7B in total", OpenBMB README).
  CHECK(m.params.total == 2724880896LL);
}

TEST_CASE("Granite 4.0 H Small by hand: Mamba2 and attention by layer_types, experts plus a shared MLP",
          "[params][families][granitemoehybrid]") {
  // 40 layers (36 mamba, 4 attention), hidden 4,096, 32 query / 8 KV heads of 128, 72 experts of
  // 768 (top 10), shared MLP 1,536, vocab 100,352, tied.
  auto m = catalog_model("granite-4.0-h-small");
  CHECK(m.params.attention == 4 * (2 * 4096LL * 4096 + 2 * 4096LL * 1024));
  // Mamba2: d_inner 2 x 4,096 = 8,192, conv_dim 8,192 + 2 x 128 = 8,448, 128 heads. in_proj
  // 4,096 x (8,192 + 8,448 + 128) = 68,681,728; conv 8,448 x 4 + 8,448 bias; dt_bias, A, D of 128;
  // out_proj 8,192 x 4,096 = 33,554,432: 102,278,784 per layer.
  CHECK(m.params.recurrent == 36 * 102278784LL);
  CHECK(m.params.experts_routed == 40 * 72 * 3 * 4096LL * 768);
  CHECK(m.params.experts_shared == 40 * 3 * 4096LL * 1536);
  CHECK(m.params.router == 40 * 72 * 4096LL);
  // Two RMSNorms per layer, the gated norm (8,192) of each Mamba layer, the final norm.
  CHECK(m.params.norms == 40 * 2 * 4096 + 36 * 8192 + 4096);
  CHECK(m.params.output_head == 0);
  // Sum with the 100,352 x 4,096 embedding: 32,207,337,984 ("32B total").
  CHECK(m.params.total == 32207337984LL);
  // Active: 62 of 72 experts idle in each layer, 40 x 62 x 9,437,184 = 23,404,216,320 ("9B active").
  CHECK(m.params.active == 32207337984LL - 23404216320LL);
  int mamba = 0;
  for (const auto& layer : m.layers) mamba += layer.attention.kind == llmcalc::AttentionKind::ssm;
  CHECK(mamba == 36);
}

TEST_CASE("LFM2-8B-A1B by hand: short convolutions, 2 dense layers, then 32 experts",
          "[params][families][lfm2_moe]") {
  // 24 layers by layer_types: 18 conv, 6 attention (32 query / 8 KV heads of 64); hidden 2,048,
  // vocab 65,536, tied.
  auto m = catalog_model("lfm2-8b-a1b");
  CHECK(m.params.attention == 6 * (2 * 2048LL * 2048 + 2 * 2048LL * 512));
  // Conv block: in_proj 2,048 x 3 x 2,048, depthwise conv 3 x 2,048 (no bias), out_proj 2,048^2.
  CHECK(m.params.recurrent == 18 * (2048LL * 6144 + 3 * 2048 + 2048LL * 2048));
  // num_dense_layers 2: SwiGLU of 7,168; the other 22 layers: 32 experts of 1,792 and a router.
  CHECK(m.params.mlp_dense == 2 * 3 * 2048LL * 7168);
  CHECK(m.params.experts_routed == 22 * 32 * 3 * 2048LL * 1792);
  CHECK(m.params.router == 22 * 32 * 2048LL);
  // Two norms per layer, per-head q/k norms (64) on attention layers, the final norm.
  CHECK(m.params.norms == 24 * 2 * 2048 + 6 * 2 * 64 + 2048);
  // Top 4 of 32: 22 x 28 x 3 x 2,048 x 1,792 = 6,782,189,568 idle ("1.5B active").
  CHECK(m.params.active == m.params.total - 6782189568LL);
  CHECK(m.params.active == 1557740288LL);
}

TEST_CASE("Mellum2.1 by hand: Qwen3-MoE layers, 3 sliding : 1 full, mlp_layer_types",
          "[params][families][mellum]") {
  // 28 layers, hidden 2,304, 32 query / 4 KV heads of 128, vocab 98,304, untied.
  auto m = catalog_model("mellum2.1-12b-a2.5b-thinking");
  // q and o 2,304 x 4,096 = 9,437,184 each; k and v 2,304 x 512 = 1,179,648 each.
  CHECK(m.params.attention == 28 * (2 * 9437184LL + 2 * 1179648LL));
  // Every layer sparse: 64 experts of 896 (3 x 2,304 x 896 = 6,193,152 each), a 64-way router.
  CHECK(m.params.experts_routed == 28 * 64 * 6193152LL);
  CHECK(m.params.router == 28 * 64 * 2304LL);
  CHECK(m.params.mlp_dense == 0);
  // Two norms per layer, per-head q/k norms (128 each), the final norm.
  CHECK(m.params.norms == 28 * (2 * 2304 + 2 * 128) + 2304);
  // Embedding and head 98,304 x 2,304 = 226,492,416 each. Per layer 417,747,712:
  // 28 x 417,747,712 + 2 x 226,492,416 + 2,304 = 12,149,923,072 ("12B").
  CHECK(m.params.total == 12149923072LL);
  // Top 8 of 64: 28 x 56 x 6,193,152 = 9,710,862,336 idle.
  CHECK(m.params.active == m.params.total - 9710862336LL);
  // Its cache: 7 full layers of every cell and 21 of a 1,024-token window, 4 x 128 x 2 x 2 B per
  // layer and token; vLLM and llama.cpp keep windows their own way, transformers all of them.
  int full = 0, sliding = 0;
  for (const auto& layer : m.layers) {
    if (layer.attention.kind == llmcalc::AttentionKind::full) ++full;
    if (layer.attention.kind == llmcalc::AttentionKind::sliding && layer.attention.window_tokens == 1024) ++sliding;
  }
  CHECK(full == 7);
  CHECK(sliding == 21);
  // Mellum2 (June) has the same shapes: its config differs in eos_token_id and use_sliding_window.
  CHECK(catalog_model("mellum2-12b-a2.5b-instruct").params.total == 12149923072LL);
}

TEST_CASE("Falcon-H1 0.5B by hand: attention and a Mamba2 mixer side by side in every layer",
          "[params][families][falcon_h1]") {
  // 36 layers, hidden 1,024, 8 query / 2 KV heads of 64, SwiGLU 2,048, vocab 32,784, untied.
  auto m = catalog_model("falcon-h1-0.5b");
  CHECK(m.params.attention == 36 * (2 * 1024LL * 512 + 2 * 1024LL * 128));
  // Mixer: d_ssm 1,536, conv_dim 1,536 + 2 x 128 = 1,792, 24 heads. in_proj 1,024 x (1,536 +
  // 1,792 + 24); conv 1,792 x 4 plus its bias; dt_bias, A_log, D of 24; out_proj 1,536 x 1,024;
  // no gated norm (mamba_rms_norm false): 5,014,344 per layer.
  CHECK(m.params.recurrent == 36 * 5014344LL);
  CHECK(m.params.mlp_dense == 36 * 3 * 1024LL * 2048);
  // input_layernorm and pre_ff_layernorm per layer, the final norm.
  CHECK(m.params.norms == 36 * 2 * 1024 + 1024);
  // + 2 x 32,784 x 1,024 = 521,411,104, the Hub total (data/models/falcon-h1-0.5b.json).
  CHECK(m.params.total == 521411104LL);
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[0].attention.n_kv_heads == 2);
  CHECK(m.layers[0].attention.state_elements_per_seq == 3 * 1792 + 1536 * 128);
}

TEST_CASE("Qwen3-VL 4B by hand: Conv3d patches, biased ViT blocks, merger and deepstack mergers",
          "[params][families][qwen3_vl]") {
  // vision_config: hidden 1,024, MLP 4,096, depth 24, 3 channels x 2 frames x 16 x 16 patches,
  // 2,304 positions, merge 2 (4,096-wide merger input), out 2,560, 3 deepstack indexes.
  auto m = catalog_model("qwen3-vl-4b-thinking");
  // Conv3d 1,024 x 3 x 2 x 256 + bias 1,024 = 1,573,888; positions 2,304 x 1,024 = 2,359,296;
  // per block two LayerNorms (4 x 1,024), qkv and proj with biases (4 x 1,024^2 + 4 x 1,024) and
  // the MLP with biases (2 x 1,024 x 4,096 + 4,096 + 1,024): 12,596,224, x 24.
  CHECK(m.params.vision == 1573888LL + 2359296LL + 24 * 12596224LL);
  // Merger: LayerNorm over 1,024 (2,048), fc1 4,096^2 + 4,096, fc2 4,096 x 2,560 + 2,560 =
  // 27,271,680; each deepstack merger norms the 4,096-wide shuffle instead: 27,277,824, x 3.
  CHECK(m.params.projector == 27271680LL + 3 * 27277824LL);
  // The language model is Qwen3's layout: 36 layers of hidden 2,560 with 32 / 8 heads of 128
  // (26,214,400 attention), MLP 3 x 2,560 x 9,728, norms 36 x (2 x 2,560 + 2 x 128) + 2,560, and
  // the tied 151,936 x 2,560 embedding: 4,022,468,096.
  CHECK(m.params.text == 36 * (26214400LL + 74711040LL) + 196096 + 388956160LL);
  CHECK(m.params.output_head == 0);
}

TEST_CASE("Qwen3.5 27B by hand: the MTP layer and a vision tower without deepstack mergers",
          "[params][families][qwen3_5]") {
  auto m = catalog_model("qwen3.5-27b");
  // MTP (mtp_num_hidden_layers 1): one full-attention layer, q_proj doubled for the output gate,
  // 5,120 x (24 x 256 x 2) + 2 x 5,120 x (4 x 256) + 24 x 256 x 5,120 plus 256-wide q/k norms =
  // 104,858,112; its SwiGLU 3 x 5,120 x 17,408; fc 2 x 5,120 x 5,120; five 5,120-wide norms.
  CHECK(m.params.mtp == 104858112LL + 3 * 5120LL * 17408 + 2 * 5120LL * 5120 + 5 * 5120);
  // deepstack_visual_indexes is empty: the projector is the one merger, LayerNorm over 1,152,
  // fc1 4,608^2 + 4,608 and fc2 4,608 x 5,120 + 5,120.
  CHECK(m.params.projector == 2 * 1152 + 4608LL * 4608 + 4608 + 4608LL * 5120 + 5120);
  // The Hub total counts text, MTP and vision: 27,781,427,952.
  CHECK(m.params.total == 27781427952LL);
}

TEST_CASE("Nemotron 3 Super by hand: LatentMoE and the MTP block", "[params][families][nemotron_h]") {
  // hidden 4,096; 512 relu2 experts of 2,688 over a 1,024-wide latent; router 512 x 4,096 at full
  // width; shared expert 2 x 4,096 x 5,376; 40 MoE blocks in the main model.
  auto m = catalog_model("nemotron-3-super-120b-a12b");
  CHECK(m.params.experts_routed == 40 * 512 * 2 * 1024LL * 2688);
  // fc1_latent_proj and fc2_latent_proj: 2 x 4,096 x 1,024 per MoE block.
  CHECK(m.params.mlp_dense == 40 * 2 * 4096LL * 1024);
  CHECK(m.params.router == 40 * 512 * 4096LL);
  CHECK(m.params.experts_shared == 40 * 2 * 4096LL * 5376);
  // MTP block '*E': attention (2 x 4,096 x 32 x 128 + 2 x 4,096 x 2 x 128 = 35,651,584), one
  // LatentMoE block (router, latent projections, experts, shared expert: 2,873,098,240), a norm
  // each, eh_proj 2 x 4,096 x 4,096, enorm, hnorm and the final norm.
  CHECK(m.params.mtp == 35651584LL + 2873098240LL + 2 * 4096 + 2 * 4096LL * 4096 + 3 * 4096);
  // The Hub total (BF16, FP8 and Base repos): 123,611,012,096.
  CHECK(m.params.total == 123611012096LL);

  // Nemotron 3 Ultra gives its 108 blocks as a layers_block_type list (no num_hidden_layers).
  // Hidden 8,192. Mamba2: in_proj 8,192 x (2 x 16,384 + 2 x 8 x 128 + 256), conv 18,432 x 4 +
  // 18,432, dt/A/D 3 x 256, gated norm 16,384, out_proj 16,384 x 8,192 = 421,636,864. Attention
  // 2 x 8,192 x 64 x 128 + 2 x 8,192 x 2 x 128 = 138,412,032. LatentMoE: router 512 x 8,192,
  // latent projections 2 x 8,192 x 2,048, experts 512 x 2 x 2,048 x 5,120, shared 2 x 8,192 x
  // 10,240 = 10,942,939,136. One norm per block, embedding and head 131,072 x 8,192 each.
  auto ultra = catalog_model("nemotron-3-ultra-550b-a55b");
  CHECK(ultra.n_layers == 108);
  CHECK(ultra.params.text == 48 * 421636864LL + 12 * 138412032LL + 48 * 10942939136LL + 108 * 8192LL +
                                 2 * 131072LL * 8192 + 8192);
  CHECK(ultra.params.mtp == 138412032LL + 10942939136LL + 2 * 8192 + 2 * 8192LL * 8192 + 3 * 8192);
}

TEST_CASE("Gemma 4 31B by hand: 512-wide global heads without v_proj, and its own vision tower",
          "[params][families][gemma4]") {
  auto m = catalog_model("gemma-4-31b");
  // Sliding layers (50): q and o 5,376 x 32 x 256, k and v 5,376 x 16 x 256 = 132,120,576.
  // Full layers (10): q and o 5,376 x 32 x 512, k 5,376 x 4 x 512, no v_proj = 187,170,816.
  CHECK(m.params.attention == 50 * 132120576LL + 10 * 187170816LL);
  // Four sandwich norms of 5,376 per layer, q/k norms of the layer's head dim, the final norm.
  CHECK(m.params.norms == 60 * 4 * 5376 + 50 * 2 * 256 + 10 * 2 * 512 + 5376);
  // Vision: patches 3 x 16 x 16 x 1,152, positions 2 x 10,240 x 1,152, 27 blocks of 4 x 1,152^2
  // attention, 2 x 72 q/k norms, 3 x 1,152 x 4,304 MLP and 4 x 1,152 norms; embed_vision
  // 1,152 x 5,376.
  CHECK(m.params.vision == 884736LL + 23592960LL + 27 * (4 * 1152LL * 1152 + 144 + 3 * 1152LL * 4304 + 4 * 1152));
  CHECK(m.params.projector == 1152LL * 5376);
  // KV per token: full layers cache 4 heads of 512 for K and V, sliding ones 16 of 256.
  CHECK(m.layers[5].attention.head_dim_k == 512);
  CHECK(m.layers[5].attention.n_kv_heads == 4);
  CHECK(m.layers[0].attention.n_kv_heads == 16);
}

TEST_CASE("GLM-5 by hand: MLA and the indexer at GLM widths, an MTP layer without embedding copies",
          "[params][families][glm_moe_dsa]") {
  auto m = catalog_model("glm-5");
  // MLA per layer: q_a 6,144 x 2,048, q_b 2,048 x 64 x 256, kv_a 6,144 x 576, kv_b 512 x 64 x 448,
  // o 64 x 256 x 6,144 = 165,019,648 (+ 2,560 of q_a / kv_a norms); indexer wq_b 2,048 x 4,096,
  // wk 6,144 x 128, weights_proj 6,144 x 32 = 9,371,648 (+ its 256-element LayerNorm).
  CHECK(m.params.attention == 78 * (165019648LL + 9371648LL));
  // The MTP layer repeats a MoE layer (9,877,404,672 with its norms) plus enorm, hnorm, eh_proj
  // 2 x 6,144 x 6,144 and the shared-head norm, and stores no embedding or head of its own.
  CHECK(m.params.mtp == 9877404672LL + 3 * 6144 + 2 * 6144LL * 6144);
  // Hub total 753,864,139,008 (data/models/glm-5.json).
  CHECK(m.params.total == 753864139008LL);
  // GLM-5.2's indexer_types leaves the indexer (9,371,904 with its LayerNorm) off 57 "shared"
  // layers; its MTP layer keeps one.
  auto glm52 = catalog_model("glm-5.2");
  CHECK(glm52.params.total == 753864139008LL - 57 * 9371904LL);
}

TEST_CASE("Hybrid and heterogeneous layouts by hand", "[params][hybrid]") {
  // Jamba v0.1: attention on layers 4, 12, 20, 28 (period 8, offset 4), Mamba elsewhere;
  // MoE (16 experts, top 2) on odd layers.
  auto jamba = catalog_model("jamba-v0.1");
  int attention_layers = 0;
  int moe_layers = 0;
  for (const auto& layer : jamba.layers) {
    attention_layers += layer.attention.kind == llmcalc::AttentionKind::full;
    moe_layers += layer.mlp.moe;
  }
  CHECK(attention_layers == 4);
  CHECK(moe_layers == 16);
  // Mamba state per sequence: d_inner 8192 x (d_conv - 1 + d_state) = 8192 x 19 = 155,648 floats.
  CHECK(jamba.layers[0].attention.state_elements_per_seq == 155648);
  // Llama-3.3-Nemotron-Super-49B: ffn_mult 5.25 -> int(2 x 5.25 x 8192 / 3) = 28,672 (already a
  // multiple of 256); attention no_op layers have no attention at all.
  auto nemotron = catalog_model("llama-3.3-nemotron-super-49b");
  CHECK(nemotron.layers[1].mlp.intermediate == 28672);
  int no_attention = 0;
  for (const auto& layer : nemotron.layers) no_attention += layer.attention.kind == llmcalc::AttentionKind::none;
  CHECK(no_attention == 31);  // 10 + 8 + 6 + 5 + 1 + 1 no-op blocks in block_configs
  // Per component: 49 attention layers of 64 query / 8 KV heads (n_heads_in_group 8), 2 x 8,192^2
  // + 2 x 8,192 x 1,024 = 150,994,944 each.
  CHECK(nemotron.params.attention == 49 * 150994944LL);
  // FFN widths from ffn_mult, int(2 x mult x 8,192 / 3) rounded up to 256: 5.25 -> 28,672 (49
  // layers), 2.625 -> 14,336 (6), 3.28125 -> 17,920 (1), 1.3125 -> 7,168 (10), 1.0 -> 5,632 (8),
  // 0.5 -> 2,816 (6): widths sum to 1,642,496, times 3 x 8,192.
  CHECK(nemotron.params.mlp_dense == 3 * 8192LL * 1642496);
  // Norms: before each of the 49 attentions and the 80 FFNs, and the final one.
  CHECK(nemotron.params.norms == (49 + 80 + 1) * 8192);
  // + 2 x 128,256 x 8,192 untied = 49,867,145,216, the Hub total.
  CHECK(nemotron.params.total == 49867145216LL);
}

TEST_CASE("Per-component counts by hand for Qwen3, Gemma 2, DeepSeek-V3 and gpt-oss",
          "[params][families]") {
  // Qwen3-8B attention per layer: q 4096x4096 + k 4096x1024 + v 4096x1024 + o 4096x4096
  // = 41,943,040, plus per-head q_norm and k_norm (128 each, counted as norms); x 36 layers.
  auto qwen3 = catalog_model("qwen3-8b");
  CHECK(qwen3.params.attention == 41943040LL * 36);
  // norms: 36 x (2 x 4096 + 2 x 128) + 4096 = 308,224
  CHECK(qwen3.params.norms == 308224);

  // Gemma 2 9B: four RMSNorms per layer, tied embeddings (no output head):
  // 42 x 4 x 3584 + 3584 = 605,696; embedding 256,000 x 3,584 = 917,504,000.
  auto gemma2 = catalog_model("gemma-2-9b");
  CHECK(gemma2.params.norms == 605696);
  CHECK(gemma2.params.embedding == 917504000LL);
  CHECK(gemma2.params.output_head == 0);

  // DeepSeek-V3 MLA per layer: q_a 7168x1536 = 11,010,048; q_b 1536 x (128 x 192) = 37,748,736;
  // kv_a 7168 x (512 + 64) = 4,128,768; kv_b 512 x (128 x 256) = 16,777,216;
  // o (128 x 128) x 7168 = 117,440,512 -> 187,105,280; x 61 layers.
  auto v3 = catalog_model("deepseek-v3");
  CHECK(v3.params.attention == 187105280LL * 61);
  // Routed experts: 58 MoE layers x 256 x 3 x 7168 x 2048 = 653,908,770,816.
  CHECK(v3.params.experts_routed == 653908770816LL);

  // gpt-oss-20b attention per layer with biases and sinks: q 2880x4096 + 4096, k and v
  // 2880x512 + 512 each, o 4096x2880 + 2880, sinks 64 = 26,550,144; x 24 layers.
  auto oss = catalog_model("gpt-oss-20b");
  CHECK(oss.params.attention == 26550144LL * 24);
  // Experts: 24 x 32 x (2880 x 5760 gate/up + 5760 bias + 2880 x 2880 down + 2880 bias).
  CHECK(oss.params.experts_routed == 24LL * 32 * (2880LL * 5760 + 5760 + 2880LL * 2880 + 2880));
}

TEST_CASE("LFM2 short-convolution hybrid by hand", "[params][families][lfm2]") {
  // LFM2-1.2B: tied embedding 65,536 x 2,048 = 134,217,728; 16 layers with two RMSNorms (4,096)
  // and a SwiGLU of 2/3 x 12,288 = 8,192 (3 x 2,048 x 8,192 = 50,331,648); 6 attention layers
  // (q, o 2048x2048; k, v 2048x512; per-head q/k norms 2 x 64) = 10,485,888; 10 conv layers
  // (in_proj 2048x6144, conv 2048x3, out_proj 2048x2048) = 16,783,360; final norm 2,048.
  // Sum: 1,170,340,608 — the model card's "Parameters: 1,170,340,608".
  auto m = catalog_model("lfm2-1.2b");
  CHECK(m.params.total == 134217728LL + 16 * (4096LL + 50331648) + 6 * 10485888LL +
                              10 * 16783360LL + 2048);
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::ssm);
  CHECK(m.layers[2].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[0].attention.state_elements_per_seq == 2 * 2048);  // (L_cache - 1) x hidden
}

TEST_CASE("GLM-4-0414 by hand: four norms per layer, q/k/v biases only where the config asks", "[params][families][glm4]") {
  // GLM-4-32B-0414 (attention_bias false): embedding and untied head 151,552 x 6,144 = 931,135,488
  // each; attention per layer q 6144x6144 + k, v 6144x256 + o 6144x6144 = 78,643,200, x 61;
  // MLP 3 x 6,144 x 23,040 = 424,673,280, x 61; norms 61 x 4 x 6,144 + 6,144 = 1,505,280.
  // Total 32,566,081,536 (llama.cpp prints "model params = 32.57 B" for GLM-Z1-32B-0414, same shapes).
  auto big = catalog_model("glm-4-32b-0414");
  CHECK(big.params.embedding == 931135488LL);
  CHECK(big.params.output_head == 931135488LL);
  CHECK(big.params.attention == 78643200LL * 61);
  CHECK(big.params.mlp_dense == 424673280LL * 61);
  CHECK(big.params.norms == 1505280);
  CHECK(big.params.total == 32566081536LL);
  // GLM-4-9B-0414 (attention_bias true): q 4096x4096 + 4,096, k and v 4096x256 + 256 each,
  // o 4096x4096 = 35,656,192 per layer, x 40; MLP 3 x 4,096 x 13,696 = 168,296,448, x 40;
  // embedding and head 151,552 x 4,096 = 620,756,992 each; norms 40 x 4 x 4,096 + 4,096 = 659,456.
  // Total 9,400,279,040.
  auto small = catalog_model("glm-4-9b-0414");
  CHECK(small.params.attention == 35656192LL * 40);
  CHECK(small.params.mlp_dense == 168296448LL * 40);
  CHECK(small.params.norms == 659456);
  CHECK(small.params.total == 9400279040LL);
  // 48 query and 2 KV heads of 128 (head_dim, not 6,144 / 48) on every layer.
  CHECK(big.layers[0].attention.n_q_heads == 48);
  CHECK(big.layers[0].attention.n_kv_heads == 2);
  CHECK(big.layers[60].attention.head_dim_k == 128);
}

TEST_CASE("Command A by hand: parallel blocks with one LayerNorm, tied embeddings, 3 sliding : 1 global", "[params][families][cohere2]") {
  // c4ai-command-a-03-2025: embedding 256,000 x 12,288 = 3,145,728,000, shared with the head;
  // attention per layer q 12288x12288 + k, v 12288x1024 + o 12288x12288 = 327,155,712, x 64;
  // MLP 3 x 12,288 x 36,864 = 1,358,954,496, x 64; one LayerNorm weight per layer (the parallel
  // block feeds attention and MLP from the same norm) plus the final norm: 65 x 12,288 = 798,720.
  // Total 111,057,580,032: Cohere's "111B".
  auto m = catalog_model("command-a-03-2025");
  CHECK(m.params.embedding == 3145728000LL);
  CHECK(m.params.output_head == 0);
  CHECK(m.params.attention == 327155712LL * 64);
  CHECK(m.params.mlp_dense == 1358954496LL * 64);
  CHECK(m.params.norms == 798720);
  CHECK(m.params.total == 111057580032LL);
  // sliding_window_pattern 4: layers 0-2 slide over 4,096 tokens, layer 3 attends globally.
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(m.layers[0].attention.window_tokens == 4096);
  CHECK(m.layers[2].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(m.layers[3].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[63].attention.kind == llmcalc::AttentionKind::full);
}

TEST_CASE("Per-component counts by hand for Qwen2, Mistral, Qwen3-MoE, Qwen2-MoE, DeepSeek-V2 and Phi-3",
          "[params][families]") {
  // Qwen2.5-7B (qwen2): q/k/v carry biases, o does not. Per layer q 3584x3584 + 3,584,
  // k and v 3584x512 + 512, o 3584x3584 = 29,364,736, x 28; MLP 3 x 3,584 x 18,944 = 203,685,888,
  // x 28; untied embedding and head 152,064 x 3,584 = 544,997,376; norms 28 x 2 x 3,584 + 3,584.
  auto qwen2 = catalog_model("qwen2.5-7b");
  CHECK(qwen2.params.attention == 29364736LL * 28);
  CHECK(qwen2.params.mlp_dense == 203685888LL * 28);
  CHECK(qwen2.params.embedding == 544997376LL);
  CHECK(qwen2.params.norms == 204288);
  CHECK(qwen2.params.total == 7615616512LL);

  // Mistral 7B v0.3 (mistral): no biases; q, o 4096x4096, k, v 4096x1024 = 41,943,040 per layer;
  // MLP 3 x 4,096 x 14,336 = 176,160,768; embedding 32,768 x 4,096 = 134,217,728, untied.
  auto mistral = catalog_model("mistral-7b-v0.3");
  CHECK(mistral.params.attention == 41943040LL * 32);
  CHECK(mistral.params.mlp_dense == 176160768LL * 32);
  CHECK(mistral.params.total == 2 * 134217728LL + 32 * (41943040LL + 176160768LL) + 266240);

  // Qwen3-30B-A3B (qwen3_moe): 48 layers, 128 experts of 3 x 2,048 x 768 = 4,718,592 (603,979,776
  // per layer), router 2,048 x 128 = 262,144 per layer. Active per token: every non-expert
  // parameter plus 8 of the 128 experts.
  auto qwen3moe = catalog_model("qwen3-30b-a3b");
  CHECK(qwen3moe.params.experts_routed == 603979776LL * 48);
  CHECK(qwen3moe.params.router == 262144LL * 48);
  // 2 x 311,164,928 (embedding, head) + 48 x (18,874,368 attention + 262,144 router
  // + 8 x 4,718,592) + 210,944 norms = 3,353,032,704.
  CHECK(qwen3moe.params.active == 2 * 311164928LL + 48 * (18874368LL + 262144LL + 8 * 4718592LL) + 210944);

  // Qwen1.5-MoE-A2.7B (qwen2_moe): 60 experts of 3 x 2,048 x 1,408 per layer (519,045,120), a
  // shared expert of 3 x 2,048 x 5,632 plus its 2,048-wide sigmoid gate (34,605,056), router
  // 2,048 x 60 = 122,880; biased q/k/v (16 heads of 128, no GQA): 16,783,360 per layer.
  auto qwen2moe = catalog_model("qwen1.5-moe-a2.7b");
  CHECK(qwen2moe.params.experts_routed == 519045120LL * 24);
  CHECK(qwen2moe.params.experts_shared == 34605056LL * 24);
  CHECK(qwen2moe.params.router == 122880LL * 24);
  CHECK(qwen2moe.params.attention == 16783360LL * 24);
  CHECK(qwen2moe.params.total == 14315784192LL);

  // DeepSeek-V2-Lite (deepseek_v2, MLA without a query LoRA): q_proj 2,048 x 16 x (128 + 64),
  // kv_a_proj_with_mqa 2,048 x (512 + 64), kv_b_proj 512 x 16 x (128 + 128), o 16 x 128 x 2,048
  // = 13,762,560 per layer; kv_a_layernorm (512) is a norm. Layer 0 is dense (3 x 2,048 x 10,944
  // = 67,239,936); 26 MoE layers with 64 routed experts (553,648,128), 2 shared (17,301,504) and a
  // 2,048 x 64 router. Norms 27 x (2 x 2,048 + 512) + 2,048 = 126,464.
  auto v2 = catalog_model("deepseek-v2-lite");
  CHECK(v2.params.attention == 13762560LL * 27);
  CHECK(v2.params.mlp_dense == 67239936LL);
  CHECK(v2.params.experts_routed == 553648128LL * 26);
  CHECK(v2.params.experts_shared == 17301504LL * 26);
  CHECK(v2.params.router == 131072LL * 26);
  CHECK(v2.params.norms == 126464);

  // Phi-4 (phi3): fused qkv 5,120 x (40 + 2 x 10) x 128 + o 5,120 x 5,120 = 65,536,000 per layer;
  // fused gate_up 5,120 x 2 x 17,920 + down 17,920 x 5,120 = 275,251,200; embedding 100,352 x 5,120.
  auto phi4 = catalog_model("phi-4");
  CHECK(phi4.params.attention == 65536000LL * 40);
  CHECK(phi4.params.mlp_dense == 275251200LL * 40);
  CHECK(phi4.params.total == 2 * 513802240LL + 40 * (65536000LL + 275251200LL) + 414720);
}

TEST_CASE("Per-component counts by hand for Gemma 3, Granite 3.3 and 4.2, OLMo 2 and GLM-4.5-Air", "[params][families]") {
  // Gemma 3 4B text (gemma3_text, missing keys from transformers' defaults: 8 heads, 4 KV heads,
  // head_dim 256, vocab 262,208): q, o 2,560 x 2,048 and k, v 2,560 x 1,024 = 15,728,640 per layer;
  // MLP 3 x 2,560 x 10,240 = 78,643,200; four RMSNorms per layer plus q/k norms of 256:
  // 34 x 10,752 + 2,560 = 368,128; tied embedding 262,208 x 2,560 = 671,252,480. Text 3,880,263,168.
  auto gemma3 = catalog_model("gemma-3-4b");
  CHECK(gemma3.params.attention == 15728640LL * 34);
  CHECK(gemma3.params.mlp_dense == 78643200LL * 34);
  CHECK(gemma3.params.norms == 368128);
  CHECK(gemma3.params.output_head == 0);
  CHECK(gemma3.params.text == 3880263168LL);

  // Granite 3.3 8B (granite): llama-shaped, tied. Embedding 49,159 x 4,096 = 201,355,264;
  // attention 2 x 4,096^2 + 2 x 4,096 x 1,024 = 41,943,040 and MLP 3 x 4,096 x 12,800 =
  // 157,286,400 per layer, x 40; norms 40 x 2 x 4,096 + 4,096 = 331,776. Total 8,170,864,640.
  auto granite = catalog_model("granite-3.3-8b");
  CHECK(granite.params.total == 201355264LL + 40 * (41943040LL + 157286400LL) + 331776);
  // Granite 4.2 30B (granite, untied): the same attention at 8 KV heads, 41,943,040 per layer;
  // MLP 3 x 4,096 x 32,768 = 402,653,184; embedding and head 100,352 x 4,096 = 411,041,792 each;
  // norms 64 x 2 x 4,096 + 4,096 = 528,384. Total 29,276,770,304, the Hub's published count.
  auto granite42 = catalog_model("granite-4.2-30b");
  CHECK(granite42.params.attention == 41943040LL * 64);
  CHECK(granite42.params.mlp_dense == 402653184LL * 64);
  CHECK(granite42.params.output_head == 411041792LL);
  CHECK(granite42.params.norms == 528384);
  CHECK(granite42.params.total == 29276770304LL);

  // OLMo 2 7B (olmo2): MHA (4 x 4,096^2 = 67,108,864 per layer); norms after attention and after
  // the MLP plus q_norm and k_norm over the full 4,096 width: 32 x 4 x 4,096 + 4,096 = 528,384.
  auto olmo2 = catalog_model("olmo-2-7b");
  CHECK(olmo2.params.attention == 67108864LL * 32);
  CHECK(olmo2.params.norms == 528384);

  // GLM-4.5-Air (glm4_moe): biased q/k/v, 96 query heads of 128, 8 KV heads:
  // q 4,096 x 12,288 + 12,288, k and v 4,096 x 1,024 + 1,024, o 12,288 x 4,096 = 109,066,240 per
  // layer, x 46. Layer 0 dense: 3 x 4,096 x 10,944 = 134,479,872. 45 MoE layers: 128 experts of
  // 3 x 4,096 x 1,408 = 17,301,504, one shared expert of the same size, router 128 x 4,096 plus
  // 128 correction biases = 524,416. The MTP layer (num_nextn_predict_layers 1) is a whole MoE
  // layer (109,066,240 + 128 x 17,301,504 + 17,301,504 + 524,416 + 2 x 4,096 norms) plus eh_proj
  // 2 x 4,096 x 4,096, enorm, hnorm and the shared head's norm (3 x 4,096), plus the embedding
  // and head copies it stores (2 x 151,552 x 4,096 = 1,241,513,984): 3,616,573,568.
  auto air = catalog_model("glm-4.5-air");
  CHECK(air.params.attention == 109066240LL * 46);
  CHECK(air.params.mlp_dense == 134479872LL);
  CHECK(air.params.experts_routed == 45LL * 128 * 17301504);
  CHECK(air.params.experts_shared == 45LL * 17301504);
  CHECK(air.params.router == 45LL * 524416);
  CHECK(air.params.mtp == 109066240LL + 128LL * 17301504 + 17301504 + 524416 + 2 * 4096 +
                          2LL * 4096 * 4096 + 3 * 4096 + 2LL * 151552 * 4096);
}

TEST_CASE("Spark-X2.5 4B by hand: a fused QKV and a sigmoid gate per query head", "[params][families][spark2_5]") {
  // 36 layers, hidden 2,560, 16 query and 4 KV heads of 256: fused QKV 2,560 x (4,096 + 1,024 +
  // 1,024) = 15,728,640, output 4,096 x 2,560 = 10,485,760, gate 2,560 x 16 = 40,960 per layer;
  // gated MLP 3 x 2,560 x 10,240 = 78,643,200; two norms per layer, 36 x 5,120 + 2,560 = 186,880;
  // tied embedding 131,072 x 2,560 = 335,544,320. Total 4,112,079,360, the Hub's published count.
  auto m = catalog_model("spark-x2.5-4b");
  CHECK(m.params.attention == 36LL * (15728640 + 10485760 + 40960));
  CHECK(m.params.mlp_dense == 36LL * 78643200);
  CHECK(m.params.norms == 186880);
  CHECK(m.params.output_head == 0);
  CHECK(m.params.total == 4112079360LL);
  // layer_types: three layers slide over 512 tokens, then one attends over everything.
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(m.layers[0].attention.window_tokens == 512);
  CHECK(m.layers[3].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[35].attention.kind == llmcalc::AttentionKind::full);
}

TEST_CASE("Laguna XS 2.1 and S 2.1 by hand: query heads per layer and a gate per head", "[params][families][laguna]") {
  // XS 2.1: hidden 2,048, 8 KV heads of 128. A layer of H query heads: q and o 2 x 2,048 x 128 x H,
  // gate 2,048 x H, k and v 2 x 2,048 x 1,024, q/k norms 2 x 128: 526,336 H + 4,194,560; full
  // layers (0, 4, ...) have 48 heads, sliding ones 64. Layer 0's MLP 3 x 2,048 x 8,192; 39 MoE
  // layers of 256 experts 3 x 2,048 x 512, a shared expert of 512, router 256 x 2,048 and its 256
  // biases; two norms per layer; untied 100,352 x 2,048 embedding and head.
  auto xs = catalog_model("laguna-xs-2.1");
  CHECK(xs.params.attention == 10 * (526336LL * 48 + 4194560) + 30 * (526336LL * 64 + 4194560) - 40 * 256);
  CHECK(xs.params.mlp_dense == 3LL * 2048 * 8192);
  CHECK(xs.params.experts_routed == 39LL * 256 * 3 * 2048 * 512);
  CHECK(xs.params.experts_shared == 39LL * 3 * 2048 * 512);
  CHECK(xs.params.router == 39LL * (256 * 2048 + 256));
  CHECK(xs.params.total == 33442617088LL);
  CHECK(xs.layers[0].attention.n_q_heads == 48);
  CHECK(xs.layers[1].attention.n_q_heads == 64);
  CHECK(xs.layers[1].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(xs.layers[4].attention.kind == llmcalc::AttentionKind::full);
  // S 2.1: hidden 3,072, 48 heads on the full layers and 72 on the sliding ones, 47 MoE layers of
  // 256 experts of 1,024 and a shared one; total 117,561,977,600 (the Hub's count).
  auto s = catalog_model("laguna-s-2.1");
  CHECK(s.params.attention == 12 * (789504LL * 48 + 6291712) + 36 * (789504LL * 72 + 6291712) - 48 * 256);
  CHECK(s.params.total == 117561977600LL);
}

TEST_CASE("EXAONE 4.0 32B by hand: QK-Reorder-Norm adds per-head q/k norms to the two post-norms", "[params][families][exaone4]") {
  // 64 layers, hidden 5,120, 40 query and 8 KV heads of 128: attention 2 x 5,120^2 +
  // 2 x 5,120 x 1,024 = 62,914,560 per layer; MLP 3 x 5,120 x 27,392 = 420,741,120; norms after
  // attention and after the MLP plus q_norm and k_norm of 128: 64 x (2 x 5,120 + 2 x 128) + 5,120
  // = 676,864; untied embedding and head 102,400 x 5,120 = 524,288,000 each.
  auto m = catalog_model("exaone-4.0-32b");
  CHECK(m.params.attention == 62914560LL * 64);
  CHECK(m.params.mlp_dense == 420741120LL * 64);
  CHECK(m.params.norms == 676864);
  CHECK(m.params.total == 2 * 524288000LL + 64 * (62914560LL + 420741120LL) + 676864);
  // The model card's "Number of Parameters (without embeddings): 30.95B".
  CHECK(std::llround((m.params.total - m.params.embedding - m.params.output_head) / 1e7) == 3095);
  // layer_types: three sliding layers (window 4,096) then one global.
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(m.layers[3].attention.kind == llmcalc::AttentionKind::full);
}

TEST_CASE("Per-component counts by hand for Llama 4 Scout, Command R and SmolLM3", "[params][families]") {
  // Llama 4 Scout text (llama4_text, interleave_moe_layer_step 1: all 48 layers MoE): attention
  // q, o 5,120 x 5,120 and k, v 5,120 x 1,024 = 62,914,560 per layer (its q/k norm has no weights);
  // 16 routed experts and one shared expert of 3 x 5,120 x 8,192 = 125,829,120 each; router
  // 5,120 x 16 = 81,920; embedding and head 202,048 x 5,120 = 1,034,485,760 each.
  auto scout = catalog_model("llama-4-scout");
  CHECK(scout.params.attention == 62914560LL * 48);
  CHECK(scout.params.experts_routed == 48LL * 16 * 125829120);
  CHECK(scout.params.experts_shared == 48LL * 125829120);
  CHECK(scout.params.router == 48LL * 81920);
  CHECK(scout.params.norms == 48 * 2 * 5120 + 5120);
  // One routed expert per token plus the shared one: 2 x 1,034,485,760 + 48 x (62,914,560 +
  // 81,920 + 2 x 125,829,120) + 496,640 = 17,172,894,720 ("17B active").
  CHECK(scout.params.active == 17172894720LL);

  // Llama 4 Maverick (interleave_moe_layer_step 2): the 24 odd layers are MoE (128 experts and the
  // shared one of 8,192), the 24 even layers dense SwiGLU of intermediate_size_mlp 16,384.
  auto maverick = catalog_model("llama-4-maverick");
  CHECK(maverick.params.mlp_dense == 24 * 3 * 5120LL * 16384);
  CHECK(maverick.params.experts_routed == 24LL * 128 * 125829120);
  CHECK(maverick.params.experts_shared == 24LL * 125829120);

  // Command R 35B (cohere): MHA with 64 heads (4 x 8,192^2 per layer), MLP 3 x 8,192 x 22,528,
  // one LayerNorm weight per layer (parallel block), tied embedding 256,000 x 8,192.
  auto command_r = catalog_model("command-r-35b");
  CHECK(command_r.params.total == 2097152000LL + 40 * (268435456LL + 553648128LL) + 41 * 8192);

  // SmolLM3-3B (smollm3, tied): q, o 2,048 x 2,048 and k, v 2,048 x 512 = 10,485,760 per layer;
  // MLP 3 x 2,048 x 11,008 = 67,633,152; embedding 128,256 x 2,048 = 262,668,288.
  auto smol = catalog_model("smollm3-3b");
  CHECK(smol.params.total == 262668288LL + 36 * (10485760LL + 67633152LL) + 36 * 2 * 2048 + 2048);
}

TEST_CASE("Qwen3-Next by hand: gated attention, gated DeltaNet, 512 experts and the MTP layer", "[params][families][qwen3_next]") {
  // Qwen3-Next-80B-A3B, 48 layers, full attention every 4th (12 layers): q_proj carries the
  // output gate, 2,048 x (16 x 256 x 2) = 16,777,216; k, v 2,048 x 512 = 1,048,576 each;
  // o 4,096 x 2,048 = 8,388,608: 27,262,976 per layer.
  auto m = catalog_model("qwen3-next-80b-a3b");
  CHECK(m.params.attention == 27262976LL * 12);
  // 36 gated DeltaNet layers (key dim 16 x 128 = 2,048, value dim 32 x 128 = 4,096):
  // in_proj_qkvz 2,048 x (2 x 2,048 + 2 x 4,096) = 25,165,824; in_proj_ba 2,048 x 64 = 131,072;
  // conv1d (2 x 2,048 + 4,096) x 4 = 32,768; dt_bias and A_log 32 each; out_proj 4,096 x 2,048
  // = 8,388,608: 33,718,336 (the gated RMSNorm of 128 is counted with the norms).
  CHECK(m.params.recurrent == 33718336LL * 36);
  // MoE on every layer: 512 experts of 3 x 2,048 x 512 = 3,145,728; a shared expert of the same
  // size plus its 2,048-wide gate; router 2,048 x 512.
  CHECK(m.params.experts_routed == 48LL * 512 * 3145728);
  CHECK(m.params.experts_shared == 48LL * (3145728 + 2048));
  CHECK(m.params.router == 48LL * 2048 * 512);
  // Norms: 48 x 2 x 2,048 + 2,048 + q/k norms 12 x 2 x 256 + DeltaNet norms 36 x 128 = 209,408.
  CHECK(m.params.norms == 48LL * 2 * 2048 + 2048 + 12 * 2 * 256 + 36 * 128);
  // MTP: one full-attention MoE layer (27,262,976 + 512 q/k norm + 512 x 3,145,728 + 3,147,776
  // shared + 1,048,576 router + 2 x 2,048 norms) + fc 2 x 2,048 x 2,048 + three norms of 2,048.
  CHECK(m.params.mtp == 27262976LL + 512 + 512LL * 3145728 + 3147776 + 1048576 + 2 * 2048 +
                          2LL * 2048 * 2048 + 3 * 2048);
}

TEST_CASE("Per-component counts by hand for ERNIE 4.5 MoE, Ling (bailing_moe) and Hunyuan-A13B", "[params][families]") {
  // ERNIE-4.5-21B-A3B (ernie4_5_moe): 20 heads of 128, 4 KV heads: 15,728,640 attention per layer;
  // layer 0 dense (3 x 2,560 x 12,288 = 94,371,840), 27 MoE layers of 64 experts and 2 shared
  // experts, each 3 x 2,560 x 1,536 = 11,796,480; router 64 x 2,560 plus 64 correction biases
  // (moe_use_aux_free); tied embedding 103,424 x 2,560. Total 21,825,437,888.
  auto ernie = catalog_model("ernie-4.5-21b-a3b-thinking");
  CHECK(ernie.params.attention == 15728640LL * 28);
  CHECK(ernie.params.experts_routed == 27LL * 64 * 11796480);
  CHECK(ernie.params.experts_shared == 27LL * 2 * 11796480);
  CHECK(ernie.params.router == 27LL * (64 * 2560 + 64));
  CHECK(ernie.params.total == 264765440LL + 28 * 15728640LL + 94371840LL + 27LL * 66 * 11796480 +
                                  27LL * (64 * 2560 + 64) + 28 * 2 * 2560 + 2560);

  // Ling-flash-2.0 (bailing_moe): fused query_key_value 4,096 x (32 + 2 x 4) x 128 plus dense
  // 4,096 x 4,096 = 37,748,736 per layer; layer 0 dense 3 x 4,096 x 9,216; 31 MoE layers of 256
  // experts and 1 shared of 3 x 4,096 x 1,024 = 12,582,912; router 256 x 4,096 + 256 biases;
  // norms 32 x (2 x 4,096 + 2 x 128 q/k) + 4,096 = 274,432.
  auto ling = catalog_model("ling-flash-2.0");
  CHECK(ling.params.attention == 37748736LL * 32);
  CHECK(ling.params.experts_routed == 31LL * 256 * 12582912);
  CHECK(ling.params.experts_shared == 31LL * 12582912);
  CHECK(ling.params.router == 31LL * (256 * 4096 + 256));
  CHECK(ling.params.norms == 274432);

  // Hunyuan-A13B (hunyuan): every layer has 64 experts and one shared MLP, all 3 x 4,096 x 3,072
  // = 37,748,736; router 64 x 4,096; attention 41,943,040 per layer; q/k norms of 128;
  // tied embedding 128,167 x 4,096 = 524,972,032.
  auto hunyuan = catalog_model("hunyuan-a13b");
  CHECK(hunyuan.params.experts_routed == 32LL * 64 * 37748736);
  CHECK(hunyuan.params.experts_shared == 32LL * 37748736);
  CHECK(hunyuan.params.router == 32LL * 64 * 4096);
  CHECK(hunyuan.params.attention == 41943040LL * 32);
  CHECK(hunyuan.params.norms == 274432);
  CHECK(hunyuan.params.embedding == 524972032LL);
}

TEST_CASE("Mamba hybrids by hand: Jamba v0.1 and Nemotron-H 56B", "[params][families][hybrid]") {
  // Jamba v0.1, 28 Mamba layers (d_inner 8,192, d_state 16, d_conv 4, dt_rank 256): in_proj
  // 4,096 x 16,384 = 67,108,864; conv1d 8,192 x 4 + 8,192 bias = 40,960; x_proj 8,192 x (256 +
  // 2 x 16) = 2,359,296; dt_proj 256 x 8,192 + 8,192 = 2,105,344; A_log 8,192 x 16 = 131,072;
  // D 8,192; out_proj 8,192 x 4,096 = 33,554,432: 105,308,160 (its dt/B/C norms, 256 + 16 + 16,
  // are counted with the norms). 4 attention layers of 41,943,040. 16 MoE layers of 16 experts
  // and 16 dense layers, all 3 x 4,096 x 14,336 = 176,160,768; router 4,096 x 16.
  auto jamba = catalog_model("jamba-v0.1");
  CHECK(jamba.params.recurrent == 105308160LL * 28);
  CHECK(jamba.params.attention == 41943040LL * 4);
  CHECK(jamba.params.experts_routed == 16LL * 16 * 176160768);
  CHECK(jamba.params.mlp_dense == 16LL * 176160768);
  CHECK(jamba.params.router == 16LL * 4096 * 16);
  CHECK(jamba.params.norms == 32LL * 2 * 4096 + 4096 + 28 * 288);
  // Card: "52B total, 12B active": 51,570,323,328 and 12,110,311,296 (2 of 16 experts).
  CHECK(jamba.params.total == 2 * 268435456LL + 105308160LL * 28 + 41943040LL * 4 + 16LL * 16 * 176160768 +
                                  16LL * 176160768 + 16LL * 4096 * 16 + 274304);
  CHECK(jamba.params.active == jamba.params.total - 16LL * 14 * 176160768);

  // Nemotron-H 56B: hybrid_override_pattern has 54 Mamba2 (M), 54 MLP (-) and 10 attention (*)
  // blocks, each with one RMSNorm. Mamba2 (256 heads of 64 = d_inner 16,384, 8 groups, state 256):
  // in_proj 8,192 x (2 x 16,384 + 2 x 8 x 256 + 256) = 304,087,040; conv1d over 16,384 + 4,096
  // channels, kernel 4, with bias: 102,400; dt_bias, A_log, D 3 x 256; out_proj 16,384 x 8,192 =
  // 134,217,728: 438,407,936 (the gated norm of 16,384 is with the norms). MLP (relu2, no gate)
  // 2 x 8,192 x 32,768 = 536,870,912; attention 2 x 8,192^2 + 2 x 8,192 x 1,024 = 150,994,944.
  auto nemotron_h = catalog_model("nemotron-h-56b");
  CHECK(nemotron_h.params.recurrent == 438407936LL * 54);
  CHECK(nemotron_h.params.mlp_dense == 536870912LL * 54);
  CHECK(nemotron_h.params.attention == 150994944LL * 10);
  CHECK(nemotron_h.params.norms == 118LL * 8192 + 8192 + 54 * 16384);
  CHECK(nemotron_h.params.total == 2 * 1073741824LL + 438407936LL * 54 + 536870912LL * 54 +
                                       150994944LL * 10 + 1859584);
}

TEST_CASE("Kimi K2 and DeepSeek-MoE 16B by hand", "[params][families][kimi_k2]") {
  // Kimi K2 (kimi_k2, the DeepSeek-V3 layout with 64 heads, 384 experts and no MTP layer):
  // MLA per layer q_a 7,168 x 1,536 + q_b 1,536 x 64 x 192 + kv_a 7,168 x 576 + kv_b 512 x 64 x 256
  // + o 64 x 128 x 7,168 = 101,122,048, x 61; layer 0 dense 3 x 7,168 x 18,432; 60 MoE layers of
  // 384 experts and 1 shared, each 3 x 7,168 x 2,048 = 44,040,192; router 384 x 7,168 + 384
  // biases; norms 61 x (2 x 7,168 + 1,536 + 512) + 7,168; embedding 163,840 x 7,168, untied.
  // The Hub's total is 3,416 above (1,026,408,235,864): 61 x 56, the rotary_emb.inv_freq buffer
  // each layer of the checkpoint stores (stored_extras above).
  auto kimi = catalog_model("kimi-k2");
  // Kimi K2.5's text_config has K2's dimensions, beside a MoonViT tower (d = 1,152, 27 blocks,
  // MLP 4,304, 14 x 14 patches, a 64 x 64 position table): patch conv 1,152 x 3 x 14 x 14 +
  // 1,152, positions 64 x 64 x 1,152, per block two LayerNorms 4 x 1,152, qkv 3 x 1,152^2 +
  // 3,456, out 1,152^2 + 1,152, MLP 2 x 1,152 x 4,304 + 4,304 + 1,152 = 15,239,504, a final
  // LayerNorm 2,304: 416,866,032; the 2 x 2 patch merger: LayerNorm 2,304, 4,608^2 + 4,608 and
  // 4,608 x 7,168 + 7,168 = 54,277,888.
  auto k25 = catalog_model("kimi-k2.5");
  CHECK(k25.params.text == kimi.params.text);
  CHECK(k25.params.vision == 677376LL + 1152 + 4718592 + 27LL * 15239504 + 2304);
  CHECK(k25.params.projector == 2304LL + 4608LL * 4608 + 4608 + 4608LL * 7168 + 7168);
  // Kimi K2.7 Code "shares the same architecture as Kimi-K2.5 / Kimi-K2.6" (vLLM's recipe,
  // vllm-project/recipes@657f1183:models/moonshotai/Kimi-K2.7-Code.yaml): the same counts.
  auto k27 = catalog_model("kimi-k2.7-code");
  CHECK(k27.params.text == kimi.params.text);
  CHECK(k27.params.vision == 677376LL + 1152 + 4718592 + 27LL * 15239504 + 2304);
  CHECK(k27.params.projector == 2304LL + 4608LL * 4608 + 4608 + 4608LL * 7168 + 7168);
  CHECK(kimi.params.attention == 101122048LL * 61);
  CHECK(kimi.params.experts_routed == 60LL * 384 * 44040192);
  CHECK(kimi.params.experts_shared == 60LL * 44040192);
  CHECK(kimi.params.router == 60LL * (384 * 7168 + 384));
  CHECK(kimi.params.norms == 61LL * (2 * 7168 + 1536 + 512) + 7168);
  CHECK(kimi.params.total == 2 * 1174405120LL + 101122048LL * 61 + 396361728LL + 60LL * 385 * 44040192 +
                                 60LL * (384 * 7168 + 384) + 61LL * (2 * 7168 + 1536 + 512) + 7168);
  // "32B activated": 8 routed experts and the shared one.
  CHECK(kimi.params.active == 2 * 1174405120LL + 101122048LL * 61 + 396361728LL + 60LL * 9 * 44040192 +
                                  60LL * (384 * 7168 + 384) + kimi.params.norms);

  // DeepSeek-MoE 16B (deepseek): MHA 4 x 2,048^2 per layer; layer 0 dense 3 x 2,048 x 10,944;
  // 27 MoE layers of 64 experts and 2 shared, each 3 x 2,048 x 1,408 = 8,650,752; router 64 x 2,048.
  auto moe16 = catalog_model("deepseek-moe-16b");
  CHECK(moe16.params.attention == 16777216LL * 28);
  CHECK(moe16.params.experts_routed == 27LL * 64 * 8650752);
  CHECK(moe16.params.experts_shared == 27LL * 2 * 8650752);
  CHECK(moe16.params.router == 27LL * 64 * 2048);
}

TEST_CASE("Muse Glimmer 30B by hand, and against its checkpoint's shard sizes", "[params][families][muse_glimmer]") {
  // transformers' modeling_muse_glimmer.py (@0173fbba). Text: embeddings and an untied head of
  // 202,048 x 6,656 = 1,344,831,488 each; per layer q and o 6,656 x 4,096 = 27,262,976 each, k and
  // v 6,656 x 256 = 1,703,936 each, the output gate gate_proj 6,656 x 4,096 = 27,262,976 (attention
  // 85,196,800); four norms 4 x 6,656 = 26,624 (q/k norms and the embedding norm carry no weight);
  // MLP 3 x 6,656 x 19,968 = 398,721,024; x 52 layers; the final norm 6,656.
  auto muse = catalog_model("muse-glimmer-30b");
  CHECK(muse.params.attention == 85196800LL * 52);
  CHECK(muse.params.mlp_dense == 398721024LL * 52);
  CHECK(muse.params.norms == 26624LL * 52 + 6656);
  CHECK(muse.params.text == 2 * 1344831488LL + (85196800LL + 26624 + 398721024) * 52 + 6656);
  // Vision: a bias-free patch Linear 1,536 x (2 x 3 x 14 x 14 = 1,176) = 1,806,336, a 32 x 32
  // position table x 1,536 = 1,572,864, ln_pre and ln_post (weight and bias) 3,072 each; per block
  // two LayerNorms 6,144, q/k/v/proj 4 x (1,536^2 + 1,536) = 9,443,328, fc1 8,960 x 1,536 + 8,960 =
  // 13,771,520, fc2 1,536 x 8,960 + 1,536 = 13,764,096 (36,985,088), x 50. The 2 x 2 pixel shuffle
  // has no weights; the adapter 6,144 x 4,096 and 4,096 x 4,096, the projection 4,096 x 6,656.
  CHECK(muse.params.vision == 1806336LL + 1572864 + 2 * 3072 + 36985088LL * 50);
  CHECK(muse.params.projector == 25165824LL + 16777216 + 27262976);
  // The BF16 checkpoint at a4e59da5: two shards of 49,950,112,952 and 9,603,322,320 B (the
  // repository's manifest, search-index file id 58819756568) hold two bytes a parameter and a JSON
  // header per file naming its tensors (1,436 in all: a few hundred kilobytes at most).
  const int64_t shards = 49950112952LL + 9603322320LL;
  CHECK(shards - 2 * muse.params.total > 0);
  CHECK(shards - 2 * muse.params.total < 1436 * 256);
}

TEST_CASE("MiniMax-M3 by hand, and against its checkpoint's safetensors headers", "[params][families][minimax_m3]") {
  // transformers' modeling_minimax_m3_vl.py (@01a05aad) and the checkpoint's tensor report
  // (search-index file id 62774369633). Text: embeddings and an untied head 200,064 x 6,144 =
  // 1,229,193,216 each; per layer q 6,144 x 8,192 and o 8,192 x 6,144 = 50,331,648 each, k and v
  // 6,144 x 512 = 3,145,728 each (106,954,752); on the 57 sparse layers the indexer's q 6,144 x 512
  // = 3,145,728 and k 6,144 x 128 = 786,432 (3,932,160); norms per layer 2 x 6,144 + q/k norms of
  // 128 each (12,544), the indexer's two more of 128 (256); layers 0-2 a dense MLP 3 x 6,144 x
  // 12,288 = 226,492,416; layers 3-59 128 experts x 3 x 6,144 x 3,072 = 7,247,757,312, the shared
  // expert 56,623,104, the router 128 x 6,144 = 786,432 and its 128 score biases; the final norm.
  auto m3 = catalog_model("minimax-m3");
  CHECK(m3.params.attention == 106954752LL * 60 + 3932160LL * 57);
  CHECK(m3.params.mlp_dense == 226492416LL * 3);
  CHECK(m3.params.experts_routed == 7247757312LL * 57);
  CHECK(m3.params.experts_shared == 56623104LL * 57);
  CHECK(m3.params.router == (786432LL + 128) * 57);
  CHECK(m3.params.norms == 12544LL * 60 + 256LL * 57 + 6144);
  CHECK(m3.params.mtp == 0);  // the config names 7 MTP modules; the checkpoint stores none
  // Vision: a bias-free Conv3d 1,280 x 3 x 2 x 14 x 14 = 1,505,280, pre_layrnorm 2,560; per block
  // two LayerNorms 5,120, q/k/v/out 4 x (1,280^2 + 1,280) = 6,558,720, fc1 1,280 x 5,120 + 5,120 =
  // 6,558,720, fc2 5,120 x 1,280 + 1,280 = 6,554,880 (19,677,440), x 32. The projector 1,280 x
  // 6,144 + 6,144 and 6,144^2 + 6,144; the patch merger (2 x 2 patches) 24,576 x 6,144 + 6,144 and
  // 6,144^2 + 6,144.
  CHECK(m3.params.vision == 1505280LL + 2560 + 19677440LL * 32);
  CHECK(m3.params.projector == 7870464LL + 37754880 + 151001088 + 37754880);
  // The safetensors headers count 427,040,140,160 values in 23,416 tensors, none of them MTP
  // (KinChow/model-structure-viewer header-truth.json, search-index file id 69729208192).
  CHECK(m3.params.total == 427040140160LL);
}

TEST_CASE("DeepSeek-V3.2 by hand: V3's MLA plus the lightning indexer", "[params][families][deepseek_v32]") {
  // Per layer, V3's MLA (187,105,280) plus the indexer: wq_b 1,536 x (64 heads x 128) = 12,582,912,
  // wk 7,168 x 128 = 917,504, weights_proj 7,168 x 64 = 458,752; its k_norm (LayerNorm, weight and
  // bias: 256) is counted with the norms.
  auto v32 = catalog_model("deepseek-v3.2");
  auto v3 = catalog_model("deepseek-v3");
  CHECK(v32.params.attention == (187105280LL + 12582912 + 917504 + 458752) * 61);
  CHECK(v32.params.norms == v3.params.norms + 61 * 256);
  CHECK(v32.params.experts_routed == v3.params.experts_routed);
}

TEST_CASE("MiniMax-M1 by hand: lightning attention on 7 of every 8 layers", "[params][families][minimax]") {
  // 80 layers; attn_type_list puts softmax attention on 10 of them. Lightning layers: qkv_proj
  // 6,144 x 3 x 8,192 = 150,994,944, output_gate 6,144 x 8,192 and out_proj 8,192 x 6,144 =
  // 50,331,648 each: 251,658,240 (their RMSNorm of 8,192 is with the norms). Softmax layers:
  // q, o 6,144 x 8,192 and k, v 6,144 x 1,024 = 113,246,208. 32 experts of 3 x 6,144 x 9,216 =
  // 169,869,312 per layer, router 32 x 6,144.
  auto m1 = catalog_model("minimax-m1");
  CHECK(m1.params.attention == 70LL * 251658240 + 10LL * 113246208);
  CHECK(m1.params.experts_routed == 80LL * 32 * 169869312);
  CHECK(m1.params.router == 80LL * 32 * 6144);
  CHECK(m1.params.norms == 80LL * 2 * 6144 + 6144 + 70 * 8192);
}

TEST_CASE("Mistral Small 3.1 by hand: the Pixtral tower and its projector", "[params][families][mistral3]") {
  // Pixtral (1,024 wide, 24 layers, 16 heads, MLP 4,096, patches of 14, no biases): patch_conv
  // 3 x 1,024 x 14 x 14 = 602,112, ln_pre 1,024; per layer q, k, v, o 4 x 1,024^2 = 4,194,304,
  // gated MLP 3 x 1,024 x 4,096 = 12,582,912 and two norms of 1,024: 16,779,264, x 24.
  // Projector: RMSNorm 1,024, patch merger 4 x 1,024 x 1,024, linear_1 1,024 x 5,120,
  // linear_2 5,120 x 5,120 = 35,652,608.
  auto m = catalog_model("mistral-small-3.1-24b");
  CHECK(m.params.vision == 602112LL + 1024 + 24 * 16779264LL);
  CHECK(m.params.projector == 1024LL + 4 * 1024 * 1024 + 1024LL * 5120 + 5120LL * 5120);
  // Text: q, o 5,120 x 4,096 (32 heads of 128) and k, v 5,120 x 1,024 = 52,428,800 per layer,
  // MLP 3 x 5,120 x 32,768 = 503,316,480, embedding and head 131,072 x 5,120 = 671,088,640 each.
  CHECK(m.params.text == 2 * 671088640LL + 40 * (52428800LL + 503316480LL) + 40 * 2 * 5120 + 5120);
}

TEST_CASE("GLM-4.7-Flash (glm4_moe_lite) by hand: MLA and MoE at GLM widths", "[params][hand]") {
  auto m = catalog_model("glm-4.7-flash");
  // Attention per layer (MLA): q_a 2,048 x 768 + q_b 768 x (20 heads x (192 + 64)) + kv_a
  // 2,048 x (512 + 64) + kv_b 512 x 20 x (192 + 256) + o (20 x 256) x 2,048 = 1,572,864 +
  // 3,932,160 + 1,179,648 + 4,587,520 + 10,485,760 = 21,757,952 (the q_a and kv_a norms, 768 +
  // 512, count as norms); x 47 layers = 1,022,623,744.
  CHECK(m.params.attention == 1022623744LL);
  // Layer 0 dense (first_k_dense_replace 1): 3 x 2,048 x 10,240 = 62,914,560. Layers 1..46: 64
  // experts of 3 x 2,048 x 1,536 = 603,979,776 each layer (27,783,069,696), one shared expert
  // 9,437,184 (434,110,464), a router 64 x 2,048 plus its 64 score biases (6,032,256).
  CHECK(m.params.mlp_dense == 62914560LL);
  CHECK(m.params.experts_routed == 27783069696LL);
  CHECK(m.params.experts_shared == 434110464LL);
  CHECK(m.params.router == 6032256LL);
  // Embedding and untied head 154,880 x 2,048 = 317,194,240 each; norms 47 x (2 x 2,048 +
  // 768 + 512) + 2,048 = 254,720. Text: 29,943,393,920, the count of lmstudio's MLX conversions.
  CHECK(m.params.norms == 254720);
  CHECK(m.params.text == 29943393920LL);
  // The MTP layer 47 is a full MoE layer with its own embedding and head copies: the Hub total
  // 31,221,488,576 minus the text.
  CHECK(m.params.mtp == 31221488576LL - 29943393920LL);
}

TEST_CASE("Kimi Linear (kimi_linear) by hand: KDA and MLA layers, MoE", "[params][hand]") {
  auto m = catalog_model("kimi-linear-48b-a3b");
  // linear_attn_config's lists are 1-based: KDA on layers 1-3, 5-7, ..., 25-26 (20), MLA on 4,
  // 8, ..., 24, 27 (7). A KDA layer (fla KimiDeltaAttention, 32 heads of 128): q/k/v
  // 3 x 4,096 x 2,304, their short convs 3 x 4,096 x 4, f_a 128 x 2,304, f_b 4,096 x 128,
  // g_a 128 x 2,304, g_b 4,096 x 128, beta 32 x 2,304, A_log 32, dt_bias 4,096, o_norm 128,
  // o_proj 2,304 x 4,096 = 39,514,272. An MLA layer without q LoRA: q 32 x 192 x 2,304 +
  // kv_a (512 + 64) x 2,304 + its norm 512 + kv_b 32 x (128 + 128) x 512 + o 2,304 x 4,096 =
  // 29,114,880. Their norms (o_norm, kv_a norm) are counted as norms here.
  CHECK(m.params.attention + m.params.recurrent + (20 * 128 + 7 * 512) == 20 * 39514272LL + 7 * 29114880LL);
  // Layer 0 dense (3 x 2,304 x 9,216), then 26 MoE layers of 256 experts of 1,024, a shared one
  // and a sigmoid router with its score bias (256 x 2,304 + 256).
  CHECK(m.params.mlp_dense == 3LL * 2304 * 9216);
  CHECK(m.params.experts_routed == 26LL * 256 * 3 * 1024 * 2304);
  CHECK(m.params.experts_shared == 26LL * 3 * 1024 * 2304);
  CHECK(m.params.router == 26LL * (256 * 2304 + 256));
  // KDA state per sequence: 20 layers x (32 x 128 x 128 + (4 - 1) x 3 x 4,096) f32 =
  // 44,892,160 B, whatever the context; the MLA layers cache 7 x 576 x 2 B per token.
  auto r = llmcalc_test::estimate({{"model", "kimi-linear-48b-a3b"}, {"context_tokens", 8192}, {"kv_unified", false}});
  CHECK(r["result"]["memory"]["kv_cache"]["state_bytes"] == 44892160);
  CHECK(r["result"]["memory"]["kv_cache"]["latent_bytes"] == 7LL * 576 * 2 * 8192);
}

TEST_CASE("DeepSeek V4 Flash and Pro: logical parameters and the Hub's stored-element totals", "[params][published][dsv4]") {
  // The checkpoints store routed experts as FP4 packed two per I8 element with one E8M0 scale per
  // 32 values, the attention, shared-expert and MTP projections as FP8 with one scale per 128 x 128
  // block (wq_a, wq_b, wkv, wo_a, wo_b, the indexer's wq_b, shared w1/w2/w3, MTP e_proj/h_proj),
  // everything else BF16 or F32, and three hash layers' token-to-expert tables (129,280 x 6 I64
  // each). The Hub's safetensors total counts stored elements.
  auto hub_total = [](const llmcalc::ModelSpec& m) {
    int64_t fp8_scales = 0;
    for (const auto& t : m.tensors) {
      bool fp8 = t.role == llmcalc::TensorRole::attn_q_a || t.role == llmcalc::TensorRole::attn_q_b ||
                 t.role == llmcalc::TensorRole::attn_kv_a_mqa || t.role == llmcalc::TensorRole::nextn_eh_proj ||
                 t.role == llmcalc::TensorRole::ffn_gate_shexp || t.role == llmcalc::TensorRole::ffn_up_shexp ||
                 t.role == llmcalc::TensorRole::ffn_down_shexp ||
                 (t.role == llmcalc::TensorRole::attn_output && t.name.find("indexer") == std::string::npos);
      if (fp8) fp8_scales += (t.ne0 + 127) / 128 * ((t.ne1 + 127) / 128);
    }
    int64_t routed = 0;  // the MTP block's experts included (params.experts_routed leaves them in params.mtp)
    for (const auto& t : m.tensors) {
      if (t.role == llmcalc::TensorRole::ffn_gate_exps || t.role == llmcalc::TensorRole::ffn_up_exps ||
          t.role == llmcalc::TensorRole::ffn_down_exps) {
        routed += t.elements();
      }
    }
    return m.params.total - routed / 2 + routed / 32 + fp8_scales + 3LL * 129280 * 6;
  };
  for (const char* id : {"deepseek-v4-flash", "deepseek-v4-pro"}) {
    INFO(id);
    auto m = catalog_model(id);
    const auto* entry = llmcalc::Catalog::instance().find_model(id);
    CHECK(hub_total(m) == published_total(entry->id).at("value").get<int64_t>());
  }
  // Flash by hand (model card: 284B total, 13B active, without the MTP block): 43 layers + 1 MTP
  // of 256 experts x 3 x 2,048 x 4,096 = 283,467,841,536 routed parameters; the logical total
  // 290,942,289,362, of which the MTP block 6,610,048,891 (a layer with e_proj, h_proj, three
  // norms and its stream mixer), so 284,332,240,471 without it.
  auto flash = catalog_model("deepseek-v4-flash");
  CHECK(flash.params.experts_routed + flash.params.mtp > 283467841536LL);
  CHECK(flash.params.total == 290942289362LL);
  CHECK(flash.params.total - flash.params.mtp == 284332240471LL);
  // One layer's attention projections by hand (layer 2 of Flash compresses 4:1): wq_a 1,024 x
  // 4,096 + wq_b 32,768 x 1,024 + wkv 512 x 4,096 + wo_a (8 groups x 1,024) x (64 x 512 / 8) +
  // wo_b 4,096 x 8,192 = 106,954,752, plus 64 sinks; the compressor's kv and gate projections
  // 2 x (2 x 512) x 4,096 (overlapping windows double the width at ratio 4) = 8,388,608.
  int64_t projections = 0, sinks = 0, compressor = 0;
  for (const auto& t : flash.tensors) {
    if (t.name.rfind("blk.2.", 0) != 0) continue;
    if (t.name == "blk.2.attn_q_a.weight" || t.name == "blk.2.attn_q_b.weight" || t.name == "blk.2.attn_kv.weight" ||
        t.name == "blk.2.attn_output_a.weight" || t.name == "blk.2.attn_output_b.weight") {
      projections += t.elements();
    }
    if (t.name == "blk.2.attn_sinks.weight") sinks += t.elements();
    if (t.name == "blk.2.attn_compressor_kv.weight" || t.name == "blk.2.attn_compressor_gate.weight") {
      compressor += t.elements();
    }
  }
  CHECK(projections == 4194304LL + 33554432 + 2097152 + 33554432 + 33554432);
  CHECK(sinks == 64);
  CHECK(compressor == 8388608);
}

TEST_CASE("Gemma 4 E2B: per-layer embeddings, KV-shared layers, the audio tower", "[params][gemma4]") {
  // google/gemma-4-E2B-it (modeling_gemma4.py): hidden 1,536, 35 layers (every 5th full with
  // 512-wide heads, the rest sliding with 256), 8 heads and 1 KV head, MLP 6,144 doubled on the
  // 20 KV-shared layers, per-layer embeddings of 256 per layer from a 262,144-row table.
  auto m = catalog_model("gemma-4-e2b");
  // Embedding 262,144 x 1,536 = 402,653,184; per-layer table 262,144 x 35 x 256 =
  // 2,348,810,240; its projection 8,960 x 1,536 = 13,762,560; per layer an input gate and a
  // projection, 2 x 256 x 1,536 = 786,432 (x 35 = 27,525,120).
  CHECK(m.params.embedding == 402653184LL + 2348810240LL + 13762560LL + 35LL * 786432);
  // Attention: 28 sliding layers of q, o 8 x 256 x 1,536 and k, v 256 x 1,536 (7,077,888) and
  // 7 full ones at 512 (14,155,776), each with k/v stored even when shared: 297,271,296.
  CHECK(m.params.attention == 28LL * 7077888 + 7LL * 14155776);
  // MLP: 15 layers x 3 x 1,536 x 6,144 + 20 x 3 x 1,536 x 12,288 = 1,557,135,360.
  CHECK(m.params.mlp_dense == 15LL * 3 * 1536 * 6144 + 20LL * 3 * 1536 * 12288);
  // Audio (gemma4_audio, 1,024 wide, 12 Conformer blocks): per block 24 x 1,024^2 + 14 x 1,024
  // + 128 = 25,180,288; subsampler 9 x 128 + 128 + 9 x 128 x 32 + 32 + 1,024 x 1,024; output
  // projection 1,024 x 1,536 + 1,536: 304,824,608.
  CHECK(m.params.audio == 12LL * 25180288 + (1152 + 128 + 36864 + 32 + 1048576) + (1572864 + 1536));
  // Its projector into the text width beside the vision one: 1,536 x 1,536 + 768 x 1,536.
  CHECK(m.params.projector == 1536LL * 1536 + 768LL * 1536);
  // KV: only the first 15 layers keep a cache (3 full, 12 sliding); at 32,768 tokens, one
  // unified stream of 4 automatic slots: full 3 x 32,768 x (512 + 512) x 2 B = 201,326,592,
  // sliding 12 x pad256(4 x 512 + 512) = 2,560 cells x (256 + 256) x 2 B = 31,457,280.
  auto r = llmcalc_test::estimate({{"model", "gemma-4-e2b"}, {"context_tokens", 32768}});
  CHECK(r["result"]["memory"]["kv_cache"]["full_attention_bytes"] == 201326592LL);
  CHECK(r["result"]["memory"]["kv_cache"]["windowed_bytes"] == 31457280LL);
  // llama.cpp keeps both embedding tables in RAM. Q4_K_M: the tied token_embd doubles as the
  // output head (Q6_K, 210 B per 256), per_layer_token_embd is quantized as a token embedding
  // (the file type's Q4_K, 144 B per 256).
  llmcalc::Issues issues;
  auto plan = llmcalc::plan_weights(m, "Q4_K_M", "/weights", issues, false);
  REQUIRE(plan);
  CHECK(plan->token_embd_bytes == 402653184LL / 256 * 210 + 2348810240LL / 256 * 144);
}

TEST_CASE("Qwen3.8-2.4T-A95B: a text-only qwen3_5_moe_text config is Qwen3.5's MoE layout", "[params][families]") {
  // Its config.json names the text model alone (Qwen3_5MoeForCausalLM); llmfit's MODELS.md
  // (AlexsJones/llmfit@3f44fd30) lists 2446.2B total, the card 95B active.
  auto envelope = llmcalc_test::estimate({{"model", "qwen3.8-2.4t-a95b"}});
  REQUIRE(envelope["ok"] == true);
  for (const auto& issue : envelope["issues"]) CHECK(issue["code"] != "unknown_family");
  auto m = catalog_model("qwen3.8-2.4t-a95b");
  CHECK(std::llround(static_cast<double>(m.params.total) / 1e8) == 24462);
  CHECK(std::llround(static_cast<double>(m.params.active) / 1e9) == 95);
}

TEST_CASE("Kimi K3: KDA and MLA with full-rank gates, LatentMoE, MXFP4 experts", "[params][families][kimi_k3]") {
  // moonshotai/Kimi-K3 (text_config kimi_linear): hidden 7,168, 93 layers (69 KDA, 24 MLA by the
  // 1-based lists), 96 heads of 128, layer 0 dense (33,792), then 896 routed experts of 3,072 in a
  // 3,584-wide latent, top 16, and 2 shared experts of 3,072.
  auto m = catalog_model("kimi-k3");
  // Attention: every layer's full-rank gate and output, 2 x 12,288 x 7,168 = 176,160,768; KDA
  // q, k, v 3 x 12,288 x 7,168 = 264,241,152; MLA q_a 1,536 x 7,168 + q_b 1,536 x 96 x 192 +
  // kv_a 7,168 x 576 + kv_b 512 x 96 x 256 = 56,033,280 (its two norms are norms here).
  CHECK(m.params.attention == 93LL * 176160768 + 69LL * 264241152 + 24LL * 56033280);
  // KDA's recurrent parts: convolutions 3 x 4 x 12,288, f_a 7,168 x 128, f_b 128 x 12,288, b
  // 7,168 x 96, A_log 128, dt bias 12,288 = 3,338,368 per layer (o_norm 128 is a norm).
  CHECK(m.params.recurrent == 69LL * 3338368);
  // LatentMoE per layer: routed 896 x 3 x 3,072 x 3,584, the latent in and out 2 x 7,168 x 3,584,
  // router 896 x 7,168 + 896 score biases, shared 3 x 7,168 x 6,144.
  CHECK(m.params.experts_routed == 92LL * 896 * 3 * 3072 * 3584);
  CHECK(m.params.router == 92LL * (896 * 7168 + 896));
  CHECK(m.params.experts_shared == 92LL * 3 * 7168 * 6144);
  CHECK(m.params.mlp_dense == 3LL * 33792 * 7168 + 92LL * 2 * 7168 * 3584);
  // Its MoonViT (1,024 wide, 27 blocks, qkv 1,536, no biases, RMSNorm): patch 1,024 x 588 +
  // positions 64 x 64 x 1,024 + 27 x (2 x 1,024 + 4,608 x 1,024 + 1,536 x 1,024 + 2 x 4,096 x
  // 1,024) + 1,024 = 401,214,464; patchmergerv2 4,096^2 + 4,096 x 7,168 + 7,168 = 46,144,512.
  CHECK(m.params.vision == 602112LL + 4194304 + 27LL * 14682112 + 1024);
  CHECK(m.params.projector == 4096LL * 4096 + 4096LL * 7168 + 7168);
  // The Hub counts the routed experts as MXFP4 packed two per U8 with one U8 scale per 32.
  const auto* entry = llmcalc::Catalog::instance().find_model("kimi-k3");
  int64_t routed = m.params.experts_routed;
  CHECK(m.params.total - routed / 2 + routed / 32 ==
        published_total(entry->id).at("value").get<int64_t>());
  // Per sequence, its KDA state is 69 x 96 x 128 x 128 f32 plus the convolutions' (4 - 1) x 3 x
  // 12,288, whatever the context; the MLA layers cache 24 x 576 x 2 B per token.
  auto r = llmcalc_test::estimate({{"model", "kimi-k3"}, {"context_tokens", 8192}, {"kv_unified", false}});
  CHECK(r["result"]["memory"]["kv_cache"]["state_bytes"] == 69LL * (96 * 128 * 128 + 3 * 3 * 12288) * 4);
  CHECK(r["result"]["memory"]["kv_cache"]["latent_bytes"] == 24LL * 576 * 2 * 8192);
}

TEST_CASE("Mistral Large 3 from its params.json: DeepSeek V3's layout with a plain gate", "[params][families][mistral_params]") {
  // mistralai/Mistral-Large-3-675B-Instruct-2512 ships params.json (dim 7,168, 61 layers, 128
  // heads, MLA q_lora 1,536 / kv_lora 512 / nope 128 / rope 64 / v 128, hidden_dim 16,384 on the
  // first 3 layers, then 128 experts of 4,096, top 4, 1 shared; vocabulary 131,072, untied).
  auto m = catalog_model("mistral-large-3");
  // MLA per layer: q_a 7,168 x 1,536 + q_b 1,536 x 128 x 192 + kv_a 7,168 x 576 + kv_b 512 x 128 x
  // 256 + o 128 x 128 x 7,168 = 187,105,280.
  CHECK(m.params.attention == 61LL * 187105280);
  CHECK(m.params.mlp_dense == 3LL * 3 * 7168 * 16384);
  CHECK(m.params.experts_routed == 58LL * 128 * 3 * 7168 * 4096);
  CHECK(m.params.experts_shared == 58LL * 3 * 7168 * 4096);
  // A plain gate: 128 x 7,168 per MoE layer and no score-correction bias.
  CHECK(m.params.router == 58LL * 128 * 7168);
  CHECK(m.params.embedding == 131072LL * 7168);
  CHECK(m.params.output_head == 131072LL * 7168);
  // vLLM loads Mistral's format with its own tokenizer, config and loader.
  auto r = llmcalc_test::estimate({{"model", "mistral-large-3"}, {"weights", "FP8"}, {"hardware", "h200-sxm"}, {"devices", 8}});
  CHECK(r["result"]["commands"]["vllm"]["flags"]["--config-format"] == "mistral");
  CHECK(r["result"]["commands"]["vllm"]["flags"]["--load-format"] == "mistral");
  // A params.json dropped in the page reads the same way.
  auto custom = llmcalc_test::estimate({{"model", llmcalc::Catalog::instance().find_model("mistral-large-3")->config()}});
  REQUIRE(custom["ok"] == true);
  CHECK(custom["result"]["params"]["total"] == m.params.total);
}

TEST_CASE("Step-3.5 Flash (step3p5) by hand: 64- and 96-head layers, head-wise gates, MTP heads", "[params][families][step3p5]") {
  auto m = catalog_model("step-3.5-flash");
  // Full-attention layers 0, 4, ..., 44 (12): q 4,096 x 64 x 128 = 33,554,432, k and v 4,096 x 8 x 128
  // = 4,194,304 each, o 33,554,432, the head-wise gate 4,096 x 64 = 262,144: 75,759,616. Sliding
  // layers (33, 96 heads): 50,331,648 x 2 + 4,194,304 x 2 + 393,216 = 109,445,120.
  // 12 x 75,759,616 + 33 x 109,445,120 = 909,115,392 + 3,611,688,960.
  CHECK(m.params.attention == 909115392LL + 3611688960LL);
  // Dense layers 0-2: 3 x 4,096 x 11,264 each. MoE layers 3-44 (moe_layers_enum): 288 experts of
  // 3 x 4,096 x 1,280 = 4,529,848,320 a layer (the size of each of the checkpoint's shards 3-44),
  // a shared expert of 1,280 (15,728,640), a router 288 x 4,096 plus 288 router biases.
  CHECK(m.params.mlp_dense == 3 * 138412032LL);
  CHECK(m.params.experts_routed == 42 * 4529848320LL);
  CHECK(m.params.experts_shared == 42 * 15728640LL);
  CHECK(m.params.router == 42 * (288 * 4096LL + 288));
  // Norms: 45 x (2 x 4,096 + q and k norms 2 x 128) + the final 4,096.
  CHECK(m.params.norms == 45 * 8448LL + 4096);
  // Untied embedding and head 128,896 x 4,096 = 527,958,016 each. The text total is the checkpoint
  // without its MTP layers, 196,956,130,368 (jamesyc/MoEspeedcalc models/step-3.5-flash.json).
  CHECK(m.params.text == 196956130368LL);
  // Each MTP layer is a sliding 96-head layer (109,445,120 + 8,448 of norms) with a dense MLP
  // (138,412,032), eh_proj 8,192 x 4,096 = 33,554,432, enorm / hnorm / head norm 3 x 4,096 and its
  // own output head 527,958,016: 809,390,336; x 3 = 2,428,171,008, the dump's MTP group.
  CHECK(m.params.mtp == 3 * 809390336LL);
  CHECK(m.params.total == 199384301376LL);
  // Query heads per layer reach the layer plan (attention compute, llama.cpp's KQ buffer).
  REQUIRE(m.layers.size() == 45);
  CHECK(m.layers[0].attention.n_q_heads == 64);
  CHECK(m.layers[1].attention.n_q_heads == 96);
  CHECK(m.layers[44].attention.n_q_heads == 64);
}

TEST_CASE("MiMo-V2.5-Pro (mimo_v2) by hand: 10 full and 60 sliding layers, fused qkv, sinks, 3 MTP layers", "[params][families][mimo_v2]") {
  auto m = catalog_model("mimo-v2.5-pro");
  // hybrid_layer_pattern: full attention on layers 0, 7, 15, 23, 31, 39, 47, 55, 62 and 69, sliding
  // (window 128) elsewhere; 8 KV heads in both (num_key_value_heads, swa_num_key_value_heads).
  REQUIRE(m.layers.size() == 70);
  int full = 0;
  for (const auto& layer : m.layers) full += layer.attention.kind == llmcalc::AttentionKind::full;
  CHECK(full == 10);
  CHECK(m.layers[7].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[8].attention.kind == llmcalc::AttentionKind::sliding);
  CHECK(m.layers[8].attention.window_tokens == 128);
  CHECK(m.layers[8].attention.head_dim_k == 192);
  CHECK(m.layers[8].attention.head_dim_v == 128);
  // Per layer: qkv_proj 6,144 x (128 x 192 + 8 x 192 + 8 x 128 = 27,136) = 166,723,584 and o_proj
  // 16,384 x 6,144 = 100,663,296 (the tensor listing's [27136, 6144] and [6144, 16384]).
  CHECK(m.params.attention == 70 * (166723584LL + 100663296LL) + 60 * 128);  // + a sink per head, sliding layers
  // Layer 0 dense (moe_layer_freq [0, 1, ...]): 3 x 6,144 x 16,384. Layers 1-69: 384 experts of
  // 3 x 2,048 x 6,144 = 37,748,736, a router 384 x 6,144 and 384 score-correction biases.
  CHECK(m.params.mlp_dense == 301989888LL);
  CHECK(m.params.experts_routed == 69 * 384 * 37748736LL);
  CHECK(m.params.router == 69 * (384 * 6144LL + 384));
  CHECK(m.params.norms == 70 * 2 * 6144LL + 6144);
  // Untied embedding and head, 152,576 x 6,144 = 937,426,944 each.
  CHECK(m.params.embedding == 937426944LL);
  CHECK(m.params.output_head == 937426944LL);
  // Each MTP layer (model.mtp.layers.0-2): eh_proj 12,288 x 6,144 = 75,497,472, five norms of 6,144
  // (enorm, hnorm, input, pre-MLP, final), sliding attention with its 128 sinks (267,386,880 + 128),
  // a dense MLP of 16,384 (301,989,888): 644,905,088.
  CHECK(m.params.mtp == 3 * 644905088LL);
  // 1,023,182,841,600 in all; the listing's 1,023,244,718,976 adds the 61,877,376 FP8 block scales
  // (the published-totals case above).
  CHECK(m.params.total == 1023182841600LL);
  // Active: 8 of 384 experts per MoE layer, 69 x 376 x 37,748,736 left out: 41,894,919,552 (the
  // model card's "42B active").
  CHECK(m.params.active == m.params.total - m.params.mtp - 69 * 376 * 37748736LL);
}

TEST_CASE("Gemma 4 12B (gemma4_unified) by hand: Gemma 4's text with layer scalars, encoder-free embedders", "[params][families][gemma4_unified]") {
  auto m = catalog_model("gemma-4-12b");
  // 40 sliding layers: q 3,840 x 16 x 256 = 15,728,640, k and v 3,840 x 8 x 256 = 7,864,320 each,
  // o 15,728,640: 47,185,920. 8 full layers (1 KV head of 512, V from K, no v_proj): q 3,840 x 16 x
  // 512 = 31,457,280, k 3,840 x 512 = 1,966,080, o 31,457,280: 64,880,640.
  CHECK(m.params.attention == 40 * 47185920LL + 8 * 64880640LL);
  // GeGLU MLP 3 x 3,840 x 15,360 = 176,947,200 on each of the 48 layers.
  CHECK(m.params.mlp_dense == 48 * 176947200LL);
  // Four norms of 3,840, q/k norms (2 x 256 sliding, 2 x 512 full) and the [1] layer_scalar per
  // layer, the final norm: 48 x (15,360 + 1) + 40 x 512 + 8 x 1,024 + 3,840.
  CHECK(m.params.norms == 48 * 15361LL + 40 * 512 + 8 * 1024 + 3840);
  // Tied embedding 262,144 x 3,840 = 1,006,632,960; text 11,907,350,320.
  CHECK(m.params.text == 11907350320LL);
  // Vision embedder: patch_dense 6,912 x 3,840 + bias = 26,545,920, patch_ln1 2 x 6,912, patch_ln2
  // and pos_norm 2 x 3,840 each, pos_embedding 1,120 x 2 x 3,840 = 8,601,600: 35,176,704.
  CHECK(m.params.vision == 26545920LL + 13824 + 7680 + 7680 + 8601600);
  // Projections into the text: embed_vision 3,840 x 3,840 = 14,745,600, embed_audio 640 x 3,840.
  CHECK(m.params.projector == 14745600LL + 2457600);
  // The Hub total of google/gemma-4-12B: 11,959,730,224.
  CHECK(m.params.total == 11959730224LL);
}

TEST_CASE("Devstral 2 123B from its params.json by hand: a dense decoder whose MLA keys are null", "[params][families][mistral_params]") {
  auto m = catalog_model("devstral-2-123b");
  // Per layer: q 12,288 x 96 x 128 = 150,994,944, k and v 12,288 x 8 x 128 = 12,582,912 each, o
  // 150,994,944 (327,155,712); SwiGLU 3 x 12,288 x 28,672 = 1,056,964,608; two norms 24,576.
  CHECK(m.params.attention == 88 * 327155712LL);
  CHECK(m.params.mlp_dense == 88 * 1056964608LL);
  CHECK(m.params.norms == 88 * 24576LL + 12288);
  // Untied embedding and head 131,072 x 12,288 = 1,610,612,736 each: 125,025,988,608 in all.
  CHECK(m.params.embedding == 1610612736LL);
  CHECK(m.params.output_head == 1610612736LL);
  CHECK(m.params.total == 125025988608LL);
  REQUIRE(m.layers.size() == 88);
  CHECK(m.layers[0].attention.kind == llmcalc::AttentionKind::full);
  CHECK(m.layers[0].attention.n_kv_heads == 8);
}

TEST_CASE("Qwen3.8 Flash-Next (qwen4_exp) by hand: hyper-connections, n-gram embeddings, indexer, MTP", "[params][families][qwen4_exp]") {
  auto m = catalog_model("qwen3.8-flash-next");
  // Each of the 48 layers: two gated residuals over 4 x 2,560 = 10,240 stream values (a norm of
  // 10,240, a mix down to 320 and up, an injection 4 x 10,240): 2 x 6,604,800 = 13,209,600.
  // 36 gated DeltaNet layers: qkv 2,560 x (2 x 2,048 + 6,144), z 2,560 x 6,144, b and a 2,560 x 48,
  // conv 10,240 x 4, dt_bias and A_log 48 each, norm 128, out 6,144 x 2,560 = 57,958,624 (the norm
  // among the norms). 12 full-attention layers: gated q 2,560 x 12,288, k and v 2,560 x 512, o 6,144
  // x 2,560, q/k norms 256 each; the indexer 2,560 x (4 + 1) x 128 and two norms of 128.
  // The gated residuals' mixes (2 x 10,240 x 320 each; 96 of them and the final mixer's) count
  // with the attention projections, the rest of them with the norms.
  CHECK(m.params.attention == 12 * (31457280LL + 2 * 1310720 + 15728640 + 1638400) + 97 * 6553600LL);
  // The DeltaNet layers, and layer 2's dilated depthwise convolution over the streams (10,240 x 4).
  CHECK(m.params.recurrent == 36 * (57958624LL - 128) + 40960);
  // Experts on all 48 layers: router 512 x 2,560, 512 experts of 3 x 2,560 x 640, a shared expert
  // 3 x 2,560 x 640 and its gate 2,560.
  CHECK(m.params.router == 48 * 1310720LL);
  CHECK(m.params.experts_routed == 48 * 2516582400LL);
  CHECK(m.params.experts_shared == 48 * (4915200LL + 2560));
  // Norms: each gated residual's 10,240 and its injection 4 x 10,240 (96 of them), the final
  // mixer's 10,240, 36 DeltaNet norms of 128, 12 x (2 x 256 + 2 x 128), the n-gram layer's three
  // of 10,240 (no final norm, no layer norms).
  CHECK(m.params.norms == 96 * (10240LL + 40960) + 10240 + 36 * 128 + 12 * 768 + 3 * 10240);
  // Embedding 248,320 x 2,560 = 635,699,200, untied head as large. Layer 2's n-gram table: 16
  // heads whose vocabularies are the 16 primes from 20,000,003 to 20,000,171 (320,001,446 rows,
  // padded to 320,001,536) of 2,560 / 16 = 160 values = 51,200,245,760, plus its key (2,560 x
  // 10,240) and value (2,560 x 2,560) projections.
  CHECK(m.params.embedding == 635699200LL + 51200245760LL + 26214400 + 6553600);
  CHECK(m.params.output_head == 635699200LL);
  // The published split (search-index file id 68711192417): text 125,743,653,760 + n-gram
  // 51,200,245,760; MTP 2,607,150,848; vision 448,931,056 (tower and merger).
  CHECK(m.params.text == 125743653760LL + 51200245760LL);
  CHECK(m.params.mtp == 2607150848LL);
  CHECK(m.params.vision + m.params.projector == 448931056LL);
}

TEST_CASE("Xing4.0-29B-A4B: DeepSeek V3's layout with hyper-connections, as its official GGUF's 977 tensors", "[params][families]") {
  // PocketLLM's audit of the official IQ4_NL GGUF (lvyufeng/PocketLLM
  // docs/architecture/xing4_0_29b_a4b_audit.md@8c11c0d1, search-index file id 68818123337; its
  // design record, file id 70793939644: "977 tensors"). By hand, llama.cpp's names: a layer's MLA
  // is attn_norm, attn_q_a, attn_q_a_norm, attn_q_b, attn_kv_a_mqa, attn_kv_a_norm, attn_k_b,
  // attn_v_b, attn_output and ffn_norm (10); a dense MLP 3 tensors, the MoE 8 (router, score
  // bias, three expert stacks, three shared-expert projections); the hyper-connections 6 (fn,
  // base and scale around attention and MLP). 2 x (10 + 3 + 6) + 38 x (10 + 8 + 6) = 950, with
  // token_embd, output_norm and output 953; the MTP block 40 has no hyper-connections: 10 + 8
  // and eh_proj, enorm, hnorm, shared_head_norm and its embedding and head copies, 24: 977. The
  // inventory keeps the checkpoint's kv_b_proj whole (attn_kv_b) where llama.cpp's converter
  // splits it into attn_k_b and attn_v_b (PR #12801): one tensor fewer in each of the 41 blocks.
  auto m = catalog_model("xing4.0-29b-a4b");
  CHECK(m.tensors.size() == 977 - 41);
  // The cache is MLA's latent, (512 + 64) x 40 layers x 2 B = 46,080 B a token, the design
  // record's "KV 46,080 bytes a token across the 40 layers, fp16".
  auto envelope = llmcalc_test::estimate({{"model", "xing4.0-29b-a4b"}, {"weights", "Q4_K_M"}, {"context_tokens", 8192}});
  REQUIRE(envelope["ok"] == true);
  CHECK(envelope["result"]["memory"]["kv_cache"]["bytes_per_token"] == 46080);
}
