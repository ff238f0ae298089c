// GGUF and safetensors readers on files built byte by byte here: valid, truncated, oversized and
// hostile headers.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "llmcalc/api.h"
#include "llmcalc/gguf_reader.h"
#include "llmcalc/safetensors_reader.h"

namespace {

// A little-endian GGUF writer for tests (layout from ggml docs/gguf.md).
class GgufBuilder {
 public:
  GgufBuilder& u32(uint32_t v) { return raw(&v, 4); }
  GgufBuilder& u64(uint64_t v) { return raw(&v, 8); }
  GgufBuilder& str(const std::string& s) {
    u64(s.size());
    bytes_ += s;
    return *this;
  }
  GgufBuilder& header(uint64_t tensors, uint64_t keys) {
    bytes_ += "GGUF";
    return u32(3).u64(tensors).u64(keys);
  }
  GgufBuilder& kv_u32(const std::string& key, uint32_t value) { return str(key).u32(4).u32(value); }
  GgufBuilder& kv_str(const std::string& key, const std::string& value) {
    return str(key).u32(8).str(value);
  }
  GgufBuilder& tensor(const std::string& name, std::initializer_list<uint64_t> shape, uint32_t type,
                      uint64_t offset) {
    str(name).u32(static_cast<uint32_t>(shape.size()));
    for (uint64_t d : shape) u64(d);
    return u32(type).u64(offset);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  GgufBuilder& raw(const void* p, std::size_t n) {
    bytes_.append(static_cast<const char*>(p), n);
    return *this;
  }
  std::string bytes_;
};

llmcalc::GgufReadResult read(const std::string& bytes, uint64_t file_size, llmcalc::Issues& issues) {
  return llmcalc::read_gguf_header(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                   file_size, "/file", issues);
}

std::string first_code(const llmcalc::Issues& issues) {
  return issues.list().empty() ? "" : issues.list().front().code;
}

}  // namespace

TEST_CASE("GGUF: a small valid header gives exact tensor sizes", "[gguf][reader]") {
  GgufBuilder b;
  b.header(2, 3)
      .kv_str("general.architecture", "llama")
      .kv_u32("llama.block_count", 1)
      .kv_u32("llama.embedding_length", 256)
      // token_embd: 256 x 1000 in Q8_0 (type 8): 1000 rows x 8 blocks x 34 bytes = 272,000
      .tensor("token_embd.weight", {256, 1000}, 8, 0)
      // a norm in F32 (type 0): 256 x 4 = 1,024 bytes
      .tensor("output_norm.weight", {256}, 0, 272000);
  llmcalc::Issues issues;
  auto result = read(b.bytes(), 0, issues);
  REQUIRE(result.status == llmcalc::GgufReadStatus::ok);
  CHECK(result.header.tensors.size() == 2);
  CHECK(result.header.tensors[0].type == "Q8_0");
  CHECK(result.header.tensors[0].bytes == 272000);
  CHECK(result.header.tensor_data_bytes == 273024);
  // Tensor data starts at the header end rounded up to the default 32-byte alignment.
  CHECK(result.header.data_offset % 32 == 0);
  CHECK(result.header.data_offset >= b.bytes().size());
  auto view = llmcalc::gguf_header_json(result.header);
  CHECK(view["architecture"] == "llama");
  CHECK(view["config"]["num_hidden_layers"] == 1);
  CHECK(view["config"]["tie_word_embeddings"] == true);  // no output.weight
  CHECK(view["bytes_by_type"]["Q8_0"] == 272000);
}

TEST_CASE("GGUF: a header cut short asks for more bytes; a whole file cut short is an error",
          "[gguf][reader]") {
  GgufBuilder b;
  b.header(1, 1).kv_str("general.architecture", "llama").tensor("t.weight", {32, 2}, 8, 0);
  std::string cut = b.bytes().substr(0, b.bytes().size() - 5);
  llmcalc::Issues issues;
  auto partial = read(cut, 1u << 30, issues);
  CHECK(partial.status == llmcalc::GgufReadStatus::need_more_bytes);
  CHECK(partial.bytes_needed > cut.size());
  CHECK_FALSE(issues.has_errors());
  auto truncated = read(cut, cut.size(), issues);
  CHECK(truncated.status == llmcalc::GgufReadStatus::invalid);
  CHECK(first_code(issues) == "gguf_truncated");
}

TEST_CASE("GGUF: hostile headers are rejected with a reason", "[gguf][reader][hostile]") {
  struct Case {
    std::string bytes;
    const char* code;
  };
  GgufBuilder bad_magic;
  bad_magic.u32(0x46554747u + 1).u32(3).u64(0).u64(0);
  GgufBuilder many_tensors;
  many_tensors.header(uint64_t{1} << 40, 0);
  GgufBuilder many_keys;
  many_keys.header(0, uint64_t{1} << 62);
  GgufBuilder long_string;
  long_string.header(0, 1).str("k").u32(8).u64(uint64_t{1} << 60);
  GgufBuilder long_array;
  long_array.header(0, 1).str("k").u32(9).u32(4).u64(uint64_t{1} << 50);
  GgufBuilder bad_type;
  bad_type.header(1, 0).tensor("t", {32}, 999, 0);
  GgufBuilder bad_dims;
  bad_dims.header(1, 0).str("t").u32(9);
  // The fuzzers' find: a dimension out of range after a valid one is refused before any size
  // is multiplied (256 x 0xb5b5... would overflow int64_t; UBSan stops the sanitize suite).
  GgufBuilder huge_dim;
  huge_dim.header(1, 0).tensor("t", {256, 0xb5b5b5b5b5b5b5b5u}, 0, 0);
  GgufBuilder overflow;
  overflow.header(1, 0).tensor("t", {uint64_t{1} << 40, uint64_t{1} << 40, 1u << 20}, 0, 0);
  GgufBuilder partial_block;
  partial_block.header(1, 0).tensor("t", {33, 2}, 8, 0);  // Q8_0 rows must be multiples of 32
  GgufBuilder bad_value_type;
  bad_value_type.header(0, 1).str("k").u32(77);
  const Case cases[] = {{bad_magic.bytes(), "gguf_bad_magic"},
                        {many_tensors.bytes(), "gguf_too_many_tensors"},
                        {many_keys.bytes(), "gguf_too_many_keys"},
                        {long_string.bytes(), "gguf_string_too_long"},
                        {long_array.bytes(), "gguf_array_too_long"},
                        {bad_type.bytes(), "gguf_unknown_type"},
                        {bad_dims.bytes(), "gguf_bad_dims"},
                        {huge_dim.bytes(), "gguf_bad_dims"},
                        {overflow.bytes(), "gguf_size_overflow"},
                        {partial_block.bytes(), "gguf_bad_block"},
                        {bad_value_type.bytes(), "gguf_bad_value_type"}};
  for (const Case& c : cases) {
    INFO(c.code);
    llmcalc::Issues issues;
    auto result = read(c.bytes, c.bytes.size() + 1000, issues);
    CHECK(result.status == llmcalc::GgufReadStatus::invalid);
    CHECK(first_code(issues) == c.code);
  }
}

// The fuzzers' find once the core had no exceptions: general.architecture and general.name as
// numbers reached nlohmann's value(..., "") on the way to the page, which aborts on a non-string.
// A well-formed header whose metadata has other types than usual is read, those names empty.
TEST_CASE("GGUF: a number where the architecture's name belongs reads as no name", "[gguf][reader][hostile]") {
  GgufBuilder b;
  b.header(0, 2).kv_u32("general.architecture", 7).kv_u32("general.name", 9);
  nlohmann::json envelope = nlohmann::json::parse(llmcalc::read_gguf_json(b.bytes(), static_cast<double>(b.bytes().size())));
  REQUIRE(envelope["ok"] == true);
  CHECK(envelope["result"]["architecture"] == "");
  CHECK(envelope["result"]["name"] == "");
  CHECK(envelope["result"]["metadata"]["general.architecture"] == 7);
}

TEST_CASE("GGUF: a tensor beyond the end of the file is rejected", "[gguf][reader][hostile]") {
  GgufBuilder b;
  b.header(1, 0).tensor("t.weight", {32, 4}, 8, 1u << 20);
  llmcalc::Issues issues;
  auto result = read(b.bytes(), 4096, issues);
  CHECK(result.status == llmcalc::GgufReadStatus::invalid);
  CHECK(first_code(issues) == "gguf_tensor_out_of_file");
}

namespace {

std::string safetensors_file(const std::string& header) {
  std::string out(8, '\0');
  uint64_t n = header.size();
  std::memcpy(&out[0], &n, 8);
  return out + header;
}

}  // namespace

TEST_CASE("safetensors: header counts and hostile headers", "[safetensors][reader]") {
  // 2 x 3 BF16 = 12 bytes; 4 F32 = 16 bytes.
  std::string header =
      R"({"__metadata__":{"format":"pt"},"a":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,12]},)"
      R"("b":{"dtype":"F32","shape":[4],"data_offsets":[12,28]}})";
  llmcalc::Issues issues;
  auto ok = llmcalc::read_safetensors(safetensors_file(header), "/file", issues);
  REQUIRE(ok);
  CHECK((*ok)["params_total"] == 10);
  CHECK((*ok)["params_by_dtype"]["BF16"] == 6);
  CHECK((*ok)["tensor_data_bytes"] == 28);

  auto more = llmcalc::read_safetensors(safetensors_file(header).substr(0, 20), "/file", issues);
  REQUIRE(more);
  CHECK((*more)["status"] == "need_more_bytes");

  for (const char* bad : {R"({"a":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,11]}})",
                          R"({"a":{"dtype":"X9","shape":[1],"data_offsets":[0,1]}})",
                          R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})",
                          R"({"a":[1,2,3]})", R"(not json at all)"}) {
    INFO(bad);
    llmcalc::Issues bad_issues;
    CHECK_FALSE(llmcalc::read_safetensors(safetensors_file(bad), "/file", bad_issues));
    CHECK(bad_issues.has_errors());
  }
  std::string huge(8, '\0');
  uint64_t n = uint64_t{1} << 40;
  std::memcpy(&huge[0], &n, 8);
  llmcalc::Issues huge_issues;
  CHECK_FALSE(llmcalc::read_safetensors(huge, "/file", huge_issues));
  CHECK(huge_issues.list().front().code == "safetensors_bad_header_size");

  // An index file: total_size of model.safetensors.index.json.
  auto index = llmcalc::read_safetensors(
      R"({"metadata":{"total_size":16060522496},"weight_map":{"a":"m-1.safetensors","b":"m-2.safetensors"}})",
      "/file", issues);
  REQUIRE(index);
  CHECK((*index)["total_size_bytes"] == 16060522496LL);
  CHECK((*index)["shard_count"] == 2);
}
