// Bad input becomes issues with JSON paths: never a crash, a hang or a NaN.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "llmcalc/api.h"
#include "llmcalc/catalog.h"
#include "test_support.h"

namespace {

nlohmann::json base_config() {
  return {{"model_type", "llama"},        {"hidden_size", 4096},
          {"intermediate_size", 14336},    {"num_hidden_layers", 32},
          {"num_attention_heads", 32},     {"num_key_value_heads", 8},
          {"vocab_size", 128256},          {"max_position_embeddings", 131072}};
}

// The first error issue of an estimate with `config` as the model.
nlohmann::json first_error(const nlohmann::json& config) {
  auto envelope = llmcalc_test::estimate({{"model", config}});
  REQUIRE(envelope["ok"] == false);
  for (const auto& issue : envelope["issues"]) {
    if (issue["severity"] == "error") return issue;
  }
  FAIL("no error issue");
  return nullptr;
}

}  // namespace

TEST_CASE("Config problems are reported at their JSON path", "[bad_input][config]") {
  auto config = base_config();
  config["num_attention_heads"] = nullptr;
  auto issue = first_error(config);
  CHECK(issue["code"] == "missing_key");
  CHECK(issue["path"] == "/model/num_attention_heads");

  config = base_config();
  config["hidden_size"] = 0;
  CHECK(first_error(config)["path"] == "/model/hidden_size");
  config["hidden_size"] = -4096;
  CHECK(first_error(config)["code"] == "out_of_range");
  config["hidden_size"] = "4096";
  CHECK(first_error(config)["code"] == "not_an_integer");
  config["hidden_size"] = 1e300;
  CHECK(first_error(config)["code"] == "not_an_integer");

  config = base_config();
  config["num_hidden_layers"] = 1000000000;
  CHECK(first_error(config)["path"] == "/model/num_hidden_layers");

  config = base_config();
  config["num_key_value_heads"] = 5;  // 32 heads cannot share 5 KV heads evenly
  issue = first_error(config);
  CHECK(issue["code"] == "heads_not_divisible");
  CHECK(issue["path"] == "/model/num_key_value_heads");

  config = base_config();
  config["text_config"] = "not an object";
  CHECK(first_error(config)["path"] == "/model/text_config");

  // Hybrid layouts: a Falcon-H1 mixer whose heads do not tile its width, and an unknown
  // Granite-style layer type.
  config = base_config();
  config["model_type"] = "falcon_h1";
  config["mamba_d_ssm"] = 1536;
  config["mamba_n_heads"] = 25;
  issue = first_error(config);
  CHECK(issue["code"] == "bad_mamba_heads");
  CHECK(issue["path"] == "/model/mamba_n_heads");
  config = base_config();
  config["layer_types"] = nlohmann::json::array();
  for (int i = 0; i < 32; ++i) config["layer_types"].push_back(i == 7 ? "retention" : "mamba");
  CHECK(first_error(config)["path"] == "/model/layer_types/7");
}

TEST_CASE("DeepSeek V4.1 is refused, not computed as a generic decoder", "[bad_input][config]") {
  // The published config nests the language model: model_type deepseek_v41 at the top,
  // deepseek_v41_text in text_config (deepseek-ai/DeepSeek-V4.1-Flash, read in a copy at
  // sfxnz/TensorFold tests/fixtures/deepseek_v41/config.json @b044d500). Shapes from that file.
  nlohmann::json text = {{"model_type", "deepseek_v41_text"}, {"vocab_size", 129280}, {"hidden_size", 5120},
                         {"moe_intermediate_size", 2304}, {"num_hidden_layers", 40}, {"num_attention_heads", 64},
                         {"num_key_value_heads", 1}, {"head_dim", 512}, {"n_routed_experts", 384},
                         {"num_experts_per_tok", 6}, {"n_shared_experts", 1}};
  nlohmann::json config = {{"architectures", {"DeepseekV41ForCausalLM"}}, {"model_type", "deepseek_v41"},
                           {"text_config", text}};
  auto envelope = llmcalc_test::estimate({{"model", config}});
  CHECK(envelope["ok"] == false);
  CHECK(first_error(config)["code"] == "not_modelled");
  CHECK(first_error(config)["path"] == "/model/model_type");
  // A text-only config names the text model type at the top.
  CHECK(first_error(text)["code"] == "not_modelled");
}

TEST_CASE("Unknown families compute as a generic decoder with a warning", "[bad_input][config]") {
  auto config = base_config();
  config["model_type"] = "brand_new_arch";
  auto envelope = llmcalc_test::estimate({{"model", config}});
  REQUIRE(envelope["ok"] == true);
  bool warned = false;
  for (const auto& issue : envelope["issues"]) {
    warned |= issue["code"] == "unknown_family" && issue["path"] == "/model/model_type";
  }
  CHECK(warned);
  // Same shapes as Llama 3.1 8B, so the same exact count.
  CHECK(envelope["result"]["params"]["total"] == 8030261248LL);
  // The config reader's warning in the request's language too (issue #21 item 11).
  auto spanish = llmcalc_test::estimate({{"model", config}, {"lang", "es"}});
  REQUIRE(spanish["ok"] == true);
  CHECK(spanish["issues"][0]["message"].get<std::string>().rfind("model_type 'brand_new_arch' desconocido: ", 0) == 0);
}

TEST_CASE("An unknown family with DeepSeek's latent-attention keys caches MLA's latent", "[bad_input][config]") {
  // A release whose model_type is not known yet but whose config names kv_lora_rank and
  // qk_rope_head_dim: Xing4.0's config under another name. By hand, its cache is the latent and
  // the rope key, (512 + 64) x 40 layers x 2 B = 46,080 B a token; as full K and V of 32 heads it
  // would be 40 x 32 x (192 + 128) x 2 B = 819,200.
  nlohmann::json config = llmcalc::Catalog::instance().find_model("xing4.0-29b-a4b")->config();
  config["model_type"] = "brand_new_mla";
  auto envelope = llmcalc_test::estimate({{"model", config}, {"weights", "Q4_K_M"}});
  REQUIRE(envelope["ok"] == true);
  CHECK(envelope["issues"][0]["code"] == "unknown_family");
  CHECK(envelope["result"]["memory"]["kv_cache"]["bytes_per_token"] == 46080);
}

TEST_CASE("An unknown family with gated-DeltaNet keys keeps full K and V only on its full-attention layers", "[bad_input][config]") {
  // Qwen3.8-27B's config under a model_type of its own (a Qwen3.5 derivative renamed). By hand:
  // 16 full-attention layers (full_attention_interval 4 of 64) x 4 KV heads x 256 x (K + V) x 2 B =
  // 65,536 B a token; as a generic decoder all 64 layers held it, 262,144. Its 48 DeltaNet layers'
  // recurrent state is the one the named family reads.
  nlohmann::json config = llmcalc::Catalog::instance().find_model("qwen3.8-27b")->config();
  nlohmann::json renamed = config;
  renamed["model_type"] = "brand_new_hybrid";
  renamed["text_config"]["model_type"] = "brand_new_hybrid_text";
  auto known = llmcalc_test::estimate({{"model", config}, {"context_tokens", 32768}});
  auto envelope = llmcalc_test::estimate({{"model", renamed}, {"context_tokens", 32768}});
  REQUIRE(envelope["ok"] == true);
  REQUIRE(known["ok"] == true);
  CHECK(envelope["issues"][0]["code"] == "unknown_family");
  CHECK(envelope["result"]["memory"]["kv_cache"]["bytes_per_token"] == 65536);
  CHECK(envelope["result"]["memory"]["kv_cache"]["state_bytes"].get<int64_t>() > 0);
  CHECK(envelope["result"]["memory"]["kv_cache"]["state_bytes"] == known["result"]["memory"]["kv_cache"]["state_bytes"]);
}

TEST_CASE("Hostile requests: huge, deep, odd numbers, wrong types", "[bad_input][request]") {
  // A 10 MB config: extra keys are ignored, the estimate still runs.
  auto config = base_config();
  config["padding"] = std::string(10 * 1024 * 1024, 'x');
  CHECK(llmcalc_test::estimate({{"model", config}})["ok"] == true);

  // Nesting beyond the limit is refused before parsing.
  std::string deep(100000, '[');
  auto envelope = nlohmann::json::parse(llmcalc::estimate_json(deep));
  CHECK(envelope["ok"] == false);
  CHECK(envelope["issues"][0]["code"] == "too_deep");

  for (const char* request : {"", "null", "42", "\"text\"", "{\"context_tokens\": 1e999}",
                              "{\"context_tokens\": 9007199254740993}",
                              "{\"devices\": 0}", "{\"devices\": 100000}",
                              "{\"batch\": -1}", "{\"weights\": 7}",
                              "{\"hardware\": {\"memory_bytes\": -1}}",
                              "{\"hardware\": {\"memory_bytes\": 1e9, \"memory_bandwidth_bytes_per_s\": 0}}"}) {
    INFO(request);
    auto answer = nlohmann::json::parse(llmcalc::estimate_json(request));
    CHECK(answer["ok"] == false);
    CHECK(answer["issues"].size() >= 1);
  }
  // Invalid UTF-8 in a string comes back replaced, not as an exception.
  auto answer = nlohmann::json::parse(llmcalc::estimate_json("{\"model\": \"\xff\xfe\"}"));
  CHECK(answer["ok"] == false);
}

TEST_CASE("A Hub repository or file that is not one is refused at its path", "[bad_input][request][hub]") {
  // hf_repo / hf_file end up in shell commands: only owner/name and plain paths pass.
  auto issue_path = [](const nlohmann::json& request) {
    auto answer = llmcalc_test::estimate(request);
    return answer["ok"] == false ? answer["issues"][0]["path"].get<std::string>() : std::string("accepted");
  };
  auto config = base_config();
  CHECK(issue_path({{"model", config}, {"hf_repo", "owner/name; rm -rf ~"}}) == "/hf_repo");
  CHECK(issue_path({{"model", config}, {"hf_repo", "no-slash"}}) == "/hf_repo");
  CHECK(issue_path({{"model", config}, {"hf_repo", "a/b/c"}}) == "/hf_repo");
  CHECK(issue_path({{"model", config}, {"hf_repo", "-a/b"}}) == "/hf_repo");
  CHECK(issue_path({{"model", config}, {"hf_repo", 7}}) == "/hf_repo");
  CHECK(issue_path({{"model", config}, {"hf_repo", "a/b"}, {"hf_file", "../../etc/passwd"}}) == "/hf_file");
  CHECK(issue_path({{"model", config}, {"hf_repo", "a/b"}, {"hf_file", "x.gguf`id`"}}) == "/hf_file");
  CHECK(issue_path({{"model", config}, {"hf_repo", "a/b"}, {"hf_file", "/abs.gguf"}}) == "/hf_file");
  CHECK(issue_path({{"model", config}, {"hf_file", "x.gguf"}}) == "/hf_file");
  CHECK(issue_path({{"model", config}, {"hf_repo", "Org.x/Name_1-GGUF"}, {"hf_file", "Q4_K_M/a+b-00001-of-00002.gguf"}}) ==
        "accepted");
}

TEST_CASE("A device list, machines, network or parallel layout that cannot be is refused at its path",
          "[bad_input][request][multi_device]") {
  auto issue_path = [](const nlohmann::json& request) {
    auto answer = llmcalc_test::estimate(request);
    if (answer["ok"] == true) return std::string("accepted");
    for (const auto& issue : answer["issues"]) {
      if (issue["severity"] == "error") return issue["path"].get<std::string>();
    }
    return std::string("no error");
  };
  using J = nlohmann::json;
  CHECK(issue_path({{"hardware", J::array()}}) == "/hardware");
  CHECK(issue_path({{"hardware", {{{"count", 2}}}}}) == "/hardware/0/device");
  CHECK(issue_path({{"hardware", {{{"device", "no-such-gpu"}}}}}) == "/hardware/0/device");
  CHECK(issue_path({{"hardware", {{{"device", "rtx-4090"}, {"count", 0}}}}}) == "/hardware/0/count");
  CHECK(issue_path({{"hardware", {{{"device", "rtx-4090"}, {"count", 1000}}, {{"device", "rtx-3090"}, {"count", 1000}}}}}) ==
        "/hardware");
  // Machines numbered with a gap: machine 1 holds nothing.
  CHECK(issue_path({{"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3090"}, {"node", 2}}}}}) == "/hardware");
  CHECK(issue_path({{"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3090"}, {"node", 1}}}}, {"nodes", 2}}) ==
        "/nodes");
  CHECK(issue_path({{"hardware", "h100-sxm"}, {"devices", 8}, {"nodes", 0}}) == "/nodes");
  CHECK(issue_path({{"hardware", "h100-sxm"}, {"devices", 8}, {"nodes", 200}}) == "/nodes");
  CHECK(issue_path({{"hardware", "h100-sxm"}, {"devices", 1024}, {"nodes", 2}}) == "/nodes");
  CHECK(issue_path({{"nodes", 2}, {"network", "carrier-pigeon"}}) == "/network");
  CHECK(issue_path({{"nodes", 2}, {"network", {{"bandwidth_bytes_per_s", 1e9}}}}) == "/network/latency_s");
  CHECK(issue_path({{"nodes", 2},
                    {"network", {{"bandwidth_bytes_per_s", 1e9}, {"latency_s", 1e-5}, {"transport", "pigeon"}}}}) ==
        "/network/transport");
  CHECK(issue_path({{"engine", "vllm"}, {"hardware", "h100-sxm"}, {"devices", 8}, {"parallel", {{"tensor", 3}}}}) ==
        "/parallel");
  CHECK(issue_path({{"engine", "vllm"}, {"devices", 2}, {"parallel", {{"tensor", "two"}}}}) == "/parallel/tensor");
  CHECK(issue_path({{"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3090"}, {"node", 1}}}},
                    {"network", "ethernet-10g"}}) == "accepted");
}

TEST_CASE("Family files refuse their own bad keys at their paths", "[bad_input][config][families]") {
  // Step-3.5 Flash: moe_layers_enum lists layer indices; Qwen3.8 Flash-Next: ple_layer_ids are
  // one-based layer numbers; DeepSeek V4: compress_ratios are 0, 4 or 128; Laguna: head counts.
  auto step = llmcalc::Catalog::instance().find_model("step-3.5-flash")->record()["config"];
  step["moe_layers_enum"] = "3,4,x";
  auto issue = first_error(step);
  CHECK(issue["code"] == "bad_moe_layers");
  CHECK(issue["path"] == "/model/moe_layers_enum");
  step["moe_layers_enum"] = "3,999";
  CHECK(first_error(step)["code"] == "bad_moe_layers");
  auto qwen = llmcalc::Catalog::instance().find_model("qwen3.8-flash-next")->record()["config"];
  qwen["text_config"]["ple_layer_ids"] = {0};
  issue = first_error(qwen);
  CHECK(issue["code"] == "bad_ple_layer");
  CHECK(issue["path"] == "/model/text_config/ple_layer_ids");
  auto v4 = llmcalc::Catalog::instance().find_model("deepseek-v4-flash")->record()["config"];
  v4["compress_ratios"][5] = 7;
  CHECK(first_error(v4)["code"] == "bad_compress_ratio");
  // Laguna: a query-head count per layer, each from 1 to 16,384, as many as the layers.
  auto laguna = llmcalc::Catalog::instance().find_model("laguna-xs-2.1")->record()["config"];
  laguna["num_attention_heads_per_layer"][3] = 0;
  issue = first_error(laguna);
  CHECK(issue["code"] == "bad_layer_pattern");
  CHECK(issue["path"] == "/model/num_attention_heads_per_layer");
  laguna["num_attention_heads_per_layer"] = {48, 64};
  CHECK(first_error(laguna)["code"] == "bad_layer_pattern");
}

TEST_CASE("A key the request does not know is named at its path, and the estimate goes on", "[bad_input][request]") {
  // "n_cpu_moe" is llama.cpp's flag, not the request's cpu_moe_layers: without the warning the
  // experts would silently stay on the GPU.
  auto envelope = llmcalc_test::estimate({{"model", "qwen3-30b-a3b"}, {"n_cpu_moe", 24}, {"a/b~c", 1}});
  REQUIRE(envelope["ok"] == true);
  std::vector<std::string> paths;
  for (const auto& issue : envelope["issues"]) {
    if (issue["code"] == "unknown_key") {
      CHECK(issue["severity"] == "warning");
      paths.push_back(issue["path"].get<std::string>());
    }
  }
  // RFC 6901: '~' becomes "~0" and '/' "~1" in a pointer (nlohmann's object keeps keys sorted).
  CHECK(paths == std::vector<std::string>{"/a~1b~0c", "/n_cpu_moe"});
  // Every documented key passes: the page's own request (tests/js/state.test.mjs builds it) names
  // none, and neither do explore's, plan's and rank's own keys, which they take off first.
  auto known = llmcalc_test::estimate({{"model", "llama-3.1-8b"}, {"lang", "es"}, {"cpu_moe_layers", 0},
                                       {"system_memory_bandwidth_bytes_per_s", 9e10}, {"cost", nlohmann::json::object()},
                                       {"finetune", nlohmann::json::object()}, {"assumptions", nlohmann::json::object()}});
  REQUIRE(known["ok"] == true);
  for (const auto& issue : known["issues"]) CHECK(issue["code"] != "unknown_key");
  auto explored = nlohmann::json::parse(llmcalc::explore_json(R"({"model":"llama-3.1-8b","sections":["advice"]})"));
  REQUIRE(explored["ok"] == true);
  for (const auto& issue : explored["issues"]) CHECK(issue["code"] != "unknown_key");
  // Inside the objects a request carries too: an inline device, a device group, the assumptions,
  // the cost and fine-tuning settings, each at its own path.
  auto nested = llmcalc_test::estimate(
      {{"model", "llama-3.1-8b"},
       {"hardware", {{{"device", {{"memory_bytes", 1e10}, {"memory_bandwidth_bytes_per_s", 5e11}, {"bandwith", 1}}},
                      {"nodes", 1}}}},
       {"assumptions", {{"bw_eff", 0.5}}}, {"cost", {{"hours", 3}}}, {"finetune", {{"rank", 8}}}});
  REQUIRE(nested["ok"] == true);
  std::vector<std::string> nested_paths;
  for (const auto& issue : nested["issues"]) {
    if (issue["code"] == "unknown_key") nested_paths.push_back(issue["path"].get<std::string>());
  }
  CHECK(nested_paths == std::vector<std::string>{"/hardware/0/device/bandwith", "/hardware/0/nodes",
                                                 "/assumptions/bw_eff", "/cost/hours", "/finetune/rank"});
  // A flood of unknown keys names eight.
  nlohmann::json many = {{"model", "llama-3.1-8b"}};
  for (int i = 0; i < 50; ++i) many["k" + std::to_string(i)] = i;
  int named = 0;
  auto flooded = llmcalc_test::estimate(many);
  for (const auto& issue : flooded["issues"]) named += issue["code"] == "unknown_key";
  CHECK(named == 8);
}
