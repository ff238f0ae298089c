// A GGUF header's metadata read back into a config (core/src/gguf_config.cpp), so a file fetched
// from the Hub or dropped on the page sizes its cache as llama.cpp does. Headers are built here
// with the metadata of real files, copied from llama.cpp loader dumps (each cited); the expected
// caches are those dumps' "llama_kv_cache: size = ..." lines or hand arithmetic.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "llmcalc/api.h"
#include "test_support.h"

namespace {

constexpr uint32_t kU32 = 4;
constexpr uint32_t kI32 = 5;
constexpr uint32_t kBool = 7;
constexpr uint32_t kString = 8;
constexpr uint32_t kArray = 9;

// Key-value metadata of a GGUF v3 header with no tensors (docs/gguf.md).
class Metadata {
 public:
  Metadata& u32(const std::string& key, uint32_t value) { return name(key).word(kU32).word(value); }
  Metadata& i32(const std::string& key, int32_t value) { return name(key).word(kI32).raw(&value, 4); }
  Metadata& text(const std::string& key, const std::string& value) { return name(key).word(kString).string(value); }
  Metadata& i32s(const std::string& key, const std::vector<int32_t>& values) {
    name(key).word(kArray).word(kI32).length(values.size());
    for (int32_t v : values) raw(&v, 4);
    return *this;
  }
  Metadata& bools(const std::string& key, const std::vector<bool>& values) {
    name(key).word(kArray).word(kBool).length(values.size());
    for (bool v : values) body_.push_back(v ? '\1' : '\0');
    return *this;
  }
  std::string file() const {
    std::string out = "GGUF";
    uint32_t version = 3;
    uint64_t tensors = 0;
    uint64_t keys = keys_;
    out.append(reinterpret_cast<const char*>(&version), 4);
    out.append(reinterpret_cast<const char*>(&tensors), 8);
    out.append(reinterpret_cast<const char*>(&keys), 8);
    return out + body_;
  }

 private:
  Metadata& name(const std::string& key) {
    ++keys_;
    return string(key);
  }
  Metadata& string(const std::string& s) {
    length(s.size());
    body_ += s;
    return *this;
  }
  Metadata& word(uint32_t v) { return raw(&v, 4); }
  Metadata& length(uint64_t n) { return raw(&n, 8); }
  Metadata& raw(const void* p, std::size_t n) {
    body_.append(static_cast<const char*>(p), n);
    return *this;
  }
  std::string body_;
  uint64_t keys_ = 0;
};

nlohmann::json config_of(const Metadata& metadata) {
  std::string bytes = metadata.file();
  nlohmann::json envelope = nlohmann::json::parse(llmcalc::read_gguf_json(bytes, static_cast<double>(bytes.size())));
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["config"];
}

nlohmann::json kv_of(const nlohmann::json& config, nlohmann::json request) {
  request["model"] = config;
  request["engine"] = "llama.cpp";
  request["hardware"] = "h100-sxm";
  request["fit"] = false;
  nlohmann::json envelope = nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
  INFO(envelope["issues"].dump());
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["memory"]["kv_cache"];
}

template <typename T>
std::vector<T> repeat(const std::vector<T>& period, std::size_t count) {
  std::vector<T> out;
  while (out.size() < count) out.insert(out.end(), period.begin(), period.end());
  out.resize(count);
  return out;
}

constexpr int64_t kMiB = 1024 * 1024;

}  // namespace

TEST_CASE("GGUF metadata: a damaged layer count is refused with its path, not cast", "[gguf][gguf_config]") {
  // A negative block_count (an I32 the fuzzer wrote, tests/fuzz/corpus/gguf/negative-block-count
  // .gguf) was cast to an unsigned size (undefined behaviour); one of four billion sized a loop
  // over the layers. Now a negative count reads as none and a huge one as kMaxLayers + 1, which
  // the estimate refuses at /model/num_hidden_layers.
  Metadata negative;
  negative.text("general.architecture", "llama").i32("llama.block_count", -1811939328);
  CHECK_FALSE(config_of(negative).contains("num_hidden_layers"));
  Metadata huge;
  huge.text("general.architecture", "gpt-oss").u32("gpt-oss.block_count", 4000000000u)
      .u32("gpt-oss.attention.sliding_window_pattern", 4000000000u);
  nlohmann::json config = config_of(huge);
  CHECK(config["num_hidden_layers"] == 1025);
  nlohmann::json envelope = nlohmann::json::parse(
      llmcalc::estimate_json(nlohmann::json{{"model", config}, {"engine", "llama.cpp"}}.dump()));
  CHECK(envelope["ok"] == false);
  bool named = false;
  for (const auto& issue : envelope["issues"]) named = named || issue["path"] == "/model/num_hidden_layers";
  CHECK(named);
}

TEST_CASE("GGUF metadata: Gemma 4's sliding pattern and per-layer KV heads", "[gguf][gguf_config][gemma4]") {
  // gemma-4-26B-A4B's header as llama.cpp printed it (committed load log, search-index file id
  // 54492899325): 30 blocks, head_count_kv [8 x 5, 2] repeated, key_length 512 (full layers),
  // key_length_swa 256, window 1024, sliding_window_pattern [true x 5, false] repeated.
  Metadata m;
  m.text("general.architecture", "gemma4")
      .u32("gemma4.block_count", 30)
      .u32("gemma4.context_length", 262144)
      .u32("gemma4.embedding_length", 2816)
      .u32("gemma4.feed_forward_length", 2112)
      .u32("gemma4.attention.head_count", 16)
      .i32s("gemma4.attention.head_count_kv", repeat<int32_t>({8, 8, 8, 8, 8, 2}, 30))
      .u32("gemma4.expert_count", 128)
      .u32("gemma4.expert_used_count", 8)
      .u32("gemma4.attention.key_length", 512)
      .u32("gemma4.attention.value_length", 512)
      .u32("gemma4.attention.sliding_window", 1024)
      .u32("gemma4.attention.shared_kv_layers", 0)
      .u32("gemma4.embedding_length_per_layer_input", 0)
      .bools("gemma4.attention.sliding_window_pattern", repeat<bool>({true, true, true, true, true, false}, 30))
      .u32("gemma4.attention.key_length_swa", 256)
      .u32("gemma4.attention.value_length_swa", 256)
      .u32("gemma4.expert_feed_forward_length", 704)
      .u32("gemma4.vocab_size", 262144);
  nlohmann::json config = config_of(m);
  CHECK(config["model_type"] == "gemma4");
  // Its load at -c 262144 -ub 288, one sequence: "creating SWA KV cache, size = 1536 cells",
  // "size = 300.00 MiB (1536 cells, 25 layers, 1/1 seqs), K (f16): 150.00 MiB, V (f16): 150.00
  // MiB" = pad256(1,024 + 288) cells x 25 layers x 8 heads x 256 x 2 B x 2; the 5 full layers
  // (262,144 cells, 2 heads of 512; the log's own K/V types are a fork's) hold 5 x 262,144 x 2 x
  // 512 x 2 B x 2 = 5,120 MiB in f16.
  nlohmann::json kv = kv_of(config, {{"context_tokens", 262144}, {"ubatch", 288}, {"batch", 1}, {"kv_unified", false}});
  CHECK(kv["windowed_bytes"] == 300 * kMiB);
  CHECK(kv["full_attention_bytes"] == 5120 * kMiB);
}

TEST_CASE("GGUF metadata: Qwen3.6's gated DeltaNet layers and MTP block", "[gguf][gguf_config][qwen35]") {
  // Qwen3.6-27B UD-Q4_K_XL (committed load log, search-index file id 56835383599): block_count
  // 65 with nextn_predict_layers 1, full_attention_interval 4, ssm keys.
  Metadata m;
  m.text("general.architecture", "qwen35")
      .u32("qwen35.block_count", 65)
      .u32("qwen35.context_length", 262144)
      .u32("qwen35.embedding_length", 5120)
      .u32("qwen35.feed_forward_length", 17408)
      .u32("qwen35.attention.head_count", 24)
      .u32("qwen35.attention.head_count_kv", 4)
      .u32("qwen35.attention.key_length", 256)
      .u32("qwen35.attention.value_length", 256)
      .u32("qwen35.ssm.conv_kernel", 4)
      .u32("qwen35.ssm.state_size", 128)
      .u32("qwen35.ssm.group_count", 16)
      .u32("qwen35.ssm.time_step_rank", 48)
      .u32("qwen35.ssm.inner_size", 6144)
      .u32("qwen35.full_attention_interval", 4)
      .u32("qwen35.nextn_predict_layers", 1)
      .u32("qwen35.vocab_size", 248320);
  nlohmann::json config = config_of(m);
  CHECK(config["num_hidden_layers"] == 64);
  CHECK(config["num_nextn_predict_layers"] == 1);
  // Its load at -c 131072 with 4 slots on one cache, q8_0: "llama_kv_cache: size = 4352.00 MiB
  // (131072 cells, 16 layers, 4/1 seqs)" = 16 x 131,072 x 4 x 256 x 2 x 34 / 32 B;
  // "llama_memory_recurrent: size = 598.50 MiB (4 cells, ...), R (f32): 22.50 MiB, S (f32):
  // 576.00 MiB" = 48 DeltaNet layers x 4 sequences x (3 x (2 x 2,048 + 6,144) + 48 x 128 x 128) x 4 B.
  nlohmann::json kv = kv_of(config, {{"context_tokens", 131072}, {"batch", 4}, {"kv_unified", true}, {"kv_cache", "q8_0"}});
  CHECK(kv["full_attention_bytes"] == 4352 * kMiB);
  CHECK(kv["state_bytes"].get<int64_t>() == 598 * kMiB + kMiB / 2);
}

TEST_CASE("GGUF metadata: LFM2's short-convolution layers have no KV heads", "[gguf][gguf_config][lfm2]") {
  // LFM2-1.2B (committed load log, search-index file id 62876895581; the same array in
  // gpustack/gguf-parser-go issue #31): head_count_kv [0, 0, 8, 0, 0, 8, 0, 0, 8, 0, 8, 0, 8, 0, 8, 0].
  Metadata m;
  m.text("general.architecture", "lfm2")
      .u32("lfm2.block_count", 16)
      .u32("lfm2.context_length", 128000)
      .u32("lfm2.embedding_length", 2048)
      .u32("lfm2.feed_forward_length", 8192)
      .u32("lfm2.attention.head_count", 32)
      .i32s("lfm2.attention.head_count_kv", {0, 0, 8, 0, 0, 8, 0, 0, 8, 0, 8, 0, 8, 0, 8, 0})
      .u32("lfm2.vocab_size", 65536)
      .u32("lfm2.shortconv.l_cache", 3);
  nlohmann::json config = config_of(m);
  // "llama_kv_cache: size = 48.00 MiB (4096 cells, 6 layers, 1/1 seqs)" = 6 x 4,096 x 8 x 64 x 2
  // B x 2; "llama_memory_recurrent: size = 0.16 MiB": 10 conv layers x 2,048 x (3 - 1) x 4 B.
  nlohmann::json kv = kv_of(config, {{"context_tokens", 4096}, {"batch", 1}, {"kv_unified", false}});
  CHECK(kv["full_attention_bytes"] == 48 * kMiB);
  CHECK(kv["state_bytes"] == 10 * 2048 * 2 * 4);
}

TEST_CASE("GGUF metadata: a Step-3.5 Flash file sizes its cache as the catalog entry does", "[gguf][gguf_config][step3p5]") {
  // conversion/step3.py Step35Model writes per-layer head_count / head_count_kv and a
  // sliding_window_pattern over all 48 blocks (45 + 3 MTP); a Step-3.7 file's header asserted in
  // a public test (search-index file id 57398570390) has the same layout. Full layers at 0, 4, ...
  std::vector<bool> pattern;
  std::vector<int32_t> heads;
  for (int i = 0; i < 48; ++i) {
    pattern.push_back(i % 4 != 0);
    heads.push_back(i % 4 != 0 ? 96 : 64);
  }
  Metadata m;
  m.text("general.architecture", "step35")
      .u32("step35.block_count", 48)
      .u32("step35.nextn_predict_layers", 3)
      .u32("step35.context_length", 262144)
      .u32("step35.embedding_length", 4096)
      .u32("step35.feed_forward_length", 11264)
      .i32s("step35.attention.head_count", heads)
      .i32s("step35.attention.head_count_kv", std::vector<int32_t>(48, 8))
      .u32("step35.attention.key_length", 128)
      .u32("step35.attention.value_length", 128)
      .u32("step35.attention.sliding_window", 512)
      .bools("step35.attention.sliding_window_pattern", pattern)
      .u32("step35.expert_count", 288)
      .u32("step35.expert_used_count", 8)
      .u32("step35.expert_feed_forward_length", 1280)
      .u32("step35.expert_shared_feed_forward_length", 1280)
      .u32("step35.leading_dense_block_count", 3)
      .u32("step35.vocab_size", 128896);
  nlohmann::json config = config_of(m);
  CHECK(config["model_type"] == "step3p5");
  nlohmann::json request = {{"context_tokens", 32768}, {"batch", 1}};
  nlohmann::json from_file = kv_of(config, request);
  nlohmann::json from_catalog = kv_of("step-3.5-flash", request);
  CHECK(from_file == from_catalog);
  // The hand case of test_memory.cpp: 12 full layers x 4,096 B x 32,768 cells, 33 sliding layers
  // x 4,096 B x pad256(512 x 4 + 512) cells.
  CHECK(from_file["full_attention_bytes"] == 1610612736LL);
  CHECK(from_file["windowed_bytes"] == 346030080LL);
}

TEST_CASE("GGUF metadata: Spark-X2.5 and Laguna files size their caches as the catalog entries do", "[gguf][gguf_config][spark2_5][laguna]") {
  // Both write sliding_window_pattern per block (llama.cpp PR #27868 for spark2_5; Laguna's
  // converters, e.g. Ollama's, with head_count per block too): full layers at 3, 7, ... (Spark) and
  // 0, 4, ... (Laguna, 48 query heads there and 64 on the sliding layers).
  std::vector<bool> spark_pattern;
  std::vector<bool> laguna_pattern;
  std::vector<int32_t> laguna_heads;
  for (int i = 0; i < 40; ++i) {
    if (i < 36) spark_pattern.push_back(i % 4 != 3);
    laguna_pattern.push_back(i % 4 != 0);
    laguna_heads.push_back(i % 4 != 0 ? 64 : 48);
  }
  Metadata spark;
  spark.text("general.architecture", "spark2_5")
      .u32("spark2_5.block_count", 36)
      .u32("spark2_5.context_length", 1048576)
      .u32("spark2_5.embedding_length", 2560)
      .u32("spark2_5.feed_forward_length", 10240)
      .u32("spark2_5.attention.head_count", 16)
      .u32("spark2_5.attention.head_count_kv", 4)
      .u32("spark2_5.attention.key_length", 256)
      .u32("spark2_5.attention.value_length", 256)
      .u32("spark2_5.attention.sliding_window", 512)
      .bools("spark2_5.attention.sliding_window_pattern", spark_pattern)
      .u32("spark2_5.vocab_size", 131072);
  nlohmann::json request = {{"context_tokens", 32768}, {"batch", 1}};
  nlohmann::json spark_kv = kv_of(config_of(spark), request);
  CHECK(spark_kv == kv_of("spark-x2.5-4b", request));
  // 9 full layers x 2 x 4 x 256 x 2 B x 32,768 cells.
  CHECK(spark_kv["full_attention_bytes"] == 9LL * 4096 * 32768);
  Metadata laguna;
  laguna.text("general.architecture", "laguna")
      .u32("laguna.block_count", 40)
      .u32("laguna.context_length", 262144)
      .u32("laguna.embedding_length", 2048)
      .u32("laguna.feed_forward_length", 8192)
      .i32s("laguna.attention.head_count", laguna_heads)
      .u32("laguna.attention.head_count_kv", 8)
      .u32("laguna.attention.key_length", 128)
      .u32("laguna.attention.value_length", 128)
      .u32("laguna.attention.sliding_window", 512)
      .bools("laguna.attention.sliding_window_pattern", laguna_pattern)
      .u32("laguna.expert_count", 256)
      .u32("laguna.expert_used_count", 8)
      .u32("laguna.expert_feed_forward_length", 512)
      .u32("laguna.expert_shared_feed_forward_length", 512)
      .u32("laguna.leading_dense_block_count", 1)
      .u32("laguna.vocab_size", 100352);
  nlohmann::json config = config_of(laguna);
  CHECK(config["model_type"] == "laguna");
  CHECK(config["num_attention_heads_per_layer"][1] == 64);
  nlohmann::json laguna_kv = kv_of(config, request);
  CHECK(laguna_kv == kv_of("laguna-xs-2.1", request));
  // 10 full layers x 2 x 8 x 128 x 2 B x 32,768 cells.
  CHECK(laguna_kv["full_attention_bytes"] == 10LL * 4096 * 32768);
}

TEST_CASE("GGUF metadata: Nemotron-H blocks from their KV-head and FFN arrays", "[gguf][gguf_config][nemotron_h]") {
  // Nemotron 3 Nano 30B-A3B's header (llama.cpp issue #20570; its ssm keys in
  // lmstudio-ai/lmstudio-bug-tracker issue #1365): 52 blocks, head_count_kv 2 on the attention
  // blocks and 0 elsewhere, feed_forward_length 1,856 on the MoE blocks and 0 elsewhere, as its
  // print_info n_embd_k_gqa and n_ff lists show; a block with neither is a Mamba2 mixer.
  const std::string blocks = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
  std::vector<int32_t> kv;
  std::vector<int32_t> ff;
  for (char block : blocks) {
    kv.push_back(block == '*' ? 2 : 0);
    ff.push_back(block == 'E' ? 1856 : 0);
  }
  Metadata m;
  m.text("general.architecture", "nemotron_h_moe")
      .u32("nemotron_h_moe.block_count", 52)
      .u32("nemotron_h_moe.context_length", 1048576)
      .u32("nemotron_h_moe.embedding_length", 2688)
      .i32s("nemotron_h_moe.feed_forward_length", ff)
      .u32("nemotron_h_moe.attention.head_count", 32)
      .i32s("nemotron_h_moe.attention.head_count_kv", kv)
      .u32("nemotron_h_moe.expert_used_count", 6)
      .u32("nemotron_h_moe.vocab_size", 131072)
      .u32("nemotron_h_moe.ssm.conv_kernel", 4)
      .u32("nemotron_h_moe.ssm.state_size", 128)
      .u32("nemotron_h_moe.ssm.group_count", 8)
      .u32("nemotron_h_moe.ssm.inner_size", 4096)
      .u32("nemotron_h_moe.ssm.time_step_rank", 64)
      .u32("nemotron_h_moe.attention.key_length", 128)
      .u32("nemotron_h_moe.attention.value_length", 128)
      .u32("nemotron_h_moe.expert_feed_forward_length", 1856)
      .u32("nemotron_h_moe.expert_shared_feed_forward_length", 3712)
      .u32("nemotron_h_moe.expert_count", 128);
  nlohmann::json config = config_of(m);
  CHECK(config["hybrid_override_pattern"] == blocks);
  nlohmann::json request = {{"context_tokens", 65536}, {"batch", 1}};
  nlohmann::json from_file = kv_of(config, request);
  CHECK(from_file == kv_of("nemotron-3-nano-30b-a3b", request));
  // By hand: 6 attention blocks x 2 heads x 128 x 2 x 2 B x 65,536 cells (one unified cache) =
  // 384 MiB; 23 Mamba2 mixers x ((4 - 1) x (4,096 + 2 x 8 x 128) + 128 x 4,096) x 4 B for each of
  // llama-server's 4 automatic slots.
  CHECK(from_file["full_attention_bytes"] == 384 * kMiB);
  CHECK(from_file["state_bytes"] == 4 * 23 * (3 * (4096 + 2 * 8 * 128) + 128 * 4096) * 4);
}

TEST_CASE("GGUF metadata: DeepSeek V3's MLA widths and gpt-oss's alternating windows", "[gguf][gguf_config][deepseek2][gpt_oss]") {
  // unsloth's DeepSeek-V3-0324 GGUF as a loader printed it (search-index file id 17707504965):
  // key_length 576 / value_length 512 (the K-only latent), key_length_mla 192, value_length_mla
  // 128, rope.dimension_count 64, kv_lora_rank 512, 256 experts and one shared.
  Metadata deepseek;
  deepseek.text("general.architecture", "deepseek2")
      .u32("deepseek2.block_count", 61)
      .u32("deepseek2.context_length", 163840)
      .u32("deepseek2.embedding_length", 7168)
      .u32("deepseek2.feed_forward_length", 18432)
      .u32("deepseek2.attention.head_count", 128)
      .u32("deepseek2.attention.head_count_kv", 1)
      .u32("deepseek2.expert_used_count", 8)
      .u32("deepseek2.leading_dense_block_count", 3)
      .u32("deepseek2.vocab_size", 129280)
      .u32("deepseek2.attention.q_lora_rank", 1536)
      .u32("deepseek2.attention.kv_lora_rank", 512)
      .u32("deepseek2.attention.key_length", 576)
      .u32("deepseek2.attention.value_length", 512)
      .u32("deepseek2.attention.key_length_mla", 192)
      .u32("deepseek2.attention.value_length_mla", 128)
      .u32("deepseek2.expert_feed_forward_length", 2048)
      .u32("deepseek2.expert_count", 256)
      .u32("deepseek2.expert_shared_count", 1)
      .u32("deepseek2.rope.dimension_count", 64);
  nlohmann::json request = {{"context_tokens", 65536}, {"batch", 1}};
  nlohmann::json from_file = kv_of(config_of(deepseek), request);
  // test_memory.cpp's hand case: 61 layers x (512 + 64) x 2 B x 65,536 cells.
  CHECK(from_file["latent_bytes"] == 4605345792LL);
  CHECK(from_file == kv_of("deepseek-v3", request));

  // gpt-oss-20b's header (a loader dump, search-index file id 32713047379): sliding_window 128,
  // 64 heads, 8 KV heads of 64, no pattern key: llama.cpp's period of 2, even layers sliding.
  Metadata oss;
  oss.text("general.architecture", "gpt-oss")
      .u32("gpt-oss.block_count", 24)
      .u32("gpt-oss.context_length", 131072)
      .u32("gpt-oss.embedding_length", 2880)
      .u32("gpt-oss.feed_forward_length", 2880)
      .u32("gpt-oss.attention.head_count", 64)
      .u32("gpt-oss.attention.head_count_kv", 8)
      .u32("gpt-oss.expert_count", 32)
      .u32("gpt-oss.expert_used_count", 4)
      .u32("gpt-oss.attention.key_length", 64)
      .u32("gpt-oss.attention.value_length", 64)
      .u32("gpt-oss.attention.sliding_window", 128)
      .u32("gpt-oss.expert_feed_forward_length", 2880)
      .u32("gpt-oss.vocab_size", 201088);
  nlohmann::json oss_kv = kv_of(config_of(oss), request);
  // 12 full layers x 8 x (64 + 64) x 2 B x 65,536 = 1,610,612,736; 12 sliding layers keep
  // pad256(128 x 4 + 512) = 1,024 cells of 2,048 B (llama-server's 4 automatic slots).
  CHECK(oss_kv["full_attention_bytes"] == 1610612736LL);
  CHECK(oss_kv["windowed_bytes"] == 12 * 2048LL * 1024);
  CHECK(oss_kv == kv_of("gpt-oss-20b", request));
}

TEST_CASE("GGUF metadata: Granite 4.0 H's Mamba2 layers where head_count_kv is 0", "[gguf][gguf_config][granitemoehybrid]") {
  // A header as conversion/granite.py (GraniteHybridModel) writes it for granite-4.0-h-small:
  // head_count_kv 8 on the attention layers (5, 15, 25, 35) and 0 elsewhere, ssm.inner_size =
  // mamba_expand x hidden = 8,192, ssm.time_step_rank = the mixer's 128 heads.
  std::vector<int32_t> kv(40, 0);
  for (int layer : {5, 15, 25, 35}) kv[static_cast<std::size_t>(layer)] = 8;
  Metadata m;
  m.text("general.architecture", "granitehybrid")
      .u32("granitehybrid.block_count", 40)
      .u32("granitehybrid.context_length", 131072)
      .u32("granitehybrid.embedding_length", 4096)
      .u32("granitehybrid.attention.head_count", 32)
      .i32s("granitehybrid.attention.head_count_kv", kv)
      .u32("granitehybrid.expert_count", 72)
      .u32("granitehybrid.expert_used_count", 10)
      .u32("granitehybrid.expert_feed_forward_length", 768)
      .u32("granitehybrid.expert_shared_feed_forward_length", 1536)
      .u32("granitehybrid.ssm.conv_kernel", 4)
      .u32("granitehybrid.ssm.state_size", 128)
      .u32("granitehybrid.ssm.group_count", 1)
      .u32("granitehybrid.ssm.inner_size", 8192)
      .u32("granitehybrid.ssm.time_step_rank", 128)
      .u32("granitehybrid.vocab_size", 100352);
  nlohmann::json config = config_of(m);
  CHECK(config["model_type"] == "granitemoehybrid");
  nlohmann::json request = {{"context_tokens", 32768}, {"batch", 1}};
  nlohmann::json from_file = kv_of(config, request);
  // By hand: 4 attention layers x 8 x 128 x 2 x 2 B x 32,768 cells = 512 MiB; 36 Mamba2 mixers x
  // ((4 - 1) x (8,192 + 2 x 1 x 128) + 8,192 x 128) x 4 B for each of the 4 automatic slots.
  CHECK(from_file["full_attention_bytes"] == 512 * kMiB);
  CHECK(from_file["state_bytes"] == 4 * 36 * (3 * (8192 + 256) + 8192 * 128) * 4LL);
  CHECK(from_file == kv_of("granite-4.0-h-small", request));
}

TEST_CASE("GGUF metadata: a MiMo-V2.5-Pro file sizes its cache as the catalog entry does", "[gguf][gguf_config][mimo_v2]") {
  // llama.cpp conversion/mimo.py MimoV2Model (search-index file id 68800367040) writes head_count_kv
  // and sliding_window_pattern per block, hybrid_layer_pattern + [1] x 3 MTP blocks (an i32 array:
  // "mimo2.attention.sliding_window_pattern arr[i32,51]" in a MiMo-V2.5 file's dump, llama.cpp
  // issue #25487), value_length = v_head_dim and nextn_predict_layers 3; block_count 70 + 3.
  std::vector<int32_t> pattern;
  for (int i = 0; i < 73; ++i) {
    bool full = i == 0 || i == 7 || i == 62 || i == 69 || (i % 8 == 7 && i > 7 && i < 56);
    pattern.push_back(full ? 0 : 1);
  }
  Metadata m;
  m.text("general.architecture", "mimo2")
      .u32("mimo2.block_count", 73)
      .u32("mimo2.nextn_predict_layers", 3)
      .u32("mimo2.context_length", 1048576)
      .u32("mimo2.embedding_length", 6144)
      .u32("mimo2.feed_forward_length", 16384)
      .u32("mimo2.attention.head_count", 128)
      .i32s("mimo2.attention.head_count_kv", std::vector<int32_t>(73, 8))
      .u32("mimo2.attention.key_length", 192)
      .u32("mimo2.attention.value_length", 128)
      .u32("mimo2.attention.sliding_window", 128)
      .i32s("mimo2.attention.sliding_window_pattern", pattern)
      .u32("mimo2.expert_count", 384)
      .u32("mimo2.expert_used_count", 8)
      .u32("mimo2.expert_feed_forward_length", 2048)
      .u32("mimo2.vocab_size", 152576);
  nlohmann::json config = config_of(m);
  CHECK(config["model_type"] == "mimo_v2");
  CHECK(config["hybrid_layer_pattern"].size() == 70);
  nlohmann::json request = {{"context_tokens", 32768}, {"batch", 1}};
  nlohmann::json from_file = kv_of(config, request);
  CHECK(from_file == kv_of("mimo-v2.5-pro", request));
  // By hand: 10 full layers x 8 KV heads x (192 + 128) x 2 B = 51,200 B a token x 32,768; the 60
  // sliding layers (window 128) keep pad256(128 x 4 + 512) = 1,024 cells under llama-server's 4
  // unified slots: 60 x 5,120 x 1,024.
  CHECK(from_file["full_attention_bytes"] == 51200LL * 32768);
  CHECK(from_file["windowed_bytes"] == 60LL * 5120 * 1024);
}
