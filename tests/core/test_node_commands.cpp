// Commands for every machine (issue #20): each flag of each generated command is one the engine's
// own source declares (tests/data/engine_cli.json: vLLM arg_utils.py, SGLang server_args.py,
// llama.cpp common/arg.cpp and tools/rpc, Ray as vLLM's run_cluster.sh starts it), and each
// machine gets the command its engine documents for it.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

nlohmann::json commands_for(const nlohmann::json& request) {
  auto envelope = llmcalc_test::estimate(request);
  REQUIRE(envelope["ok"] == true);
  return envelope["result"]["commands"];
}

// Program -> every flag and alias engine_cli.json lists for it.
const std::map<std::string, std::set<std::string>>& documented_flags() {
  static const std::map<std::string, std::set<std::string>> flags = [] {
    std::map<std::string, std::set<std::string>> out;
    nlohmann::json data = llmcalc_test::read_test_data("engine_cli.json");
    for (const auto& [program, entry] : data.at("programs").items()) {
      for (const nlohmann::json& flag : entry.at("flags")) {
        out[program].insert(flag.at("flag").get<std::string>());
        for (const nlohmann::json& alias : flag.value("aliases", nlohmann::json::array())) {
          out[program].insert(alias.get<std::string>());
        }
      }
    }
    return out;
  }();
  return flags;
}

std::vector<std::string> words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// The program a command runs ("vllm serve", "ray start", ...) and the flags after it; a vLLM
// container line's flags follow the image (its entrypoint is `vllm serve`).
std::pair<std::string, std::vector<std::string>> program_and_flags(const std::string& command) {
  std::vector<std::string> w = words(command);
  std::string program;
  std::size_t first = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::string two = i + 1 < w.size() ? w[i] + " " + w[i + 1] : "";
    if (two == "vllm serve" || two == "sglang serve" || two == "ray start") {
      program = two;
      first = i + 2;
      break;
    }
    if (w[i] == "llama-server" || w[i] == "rpc-server") {
      program = w[i];
      first = i + 1;
      break;
    }
    if (w[i] == "run_cluster.sh") {
      program = w[i];
      first = i + 1;
      break;
    }
    if (w[i].rfind("vllm/vllm-openai", 0) == 0) {
      program = "vllm serve";
      first = i + 1;
      break;
    }
  }
  std::vector<std::string> flags;
  for (std::size_t i = first; i < w.size(); ++i) {
    const std::string& word = w[i];
    if (word.size() < 2 || word[0] != '-' || std::isdigit(static_cast<unsigned char>(word[1]))) continue;
    flags.push_back(word.substr(0, word.find('=')));
  }
  return {program, flags};
}

void check_documented(const std::string& command) {
  auto [program, flags] = program_and_flags(command);
  INFO("command: " << command);
  REQUIRE(documented_flags().count(program) == 1);
  for (const std::string& flag : flags) {
    INFO(program << " " << flag);
    CHECK(documented_flags().at(program).count(flag) == 1);
  }
}

// Every command line of an engine entry: the one-line command, each machine's commands, the
// container and Ray-less forms.
std::vector<std::string> command_lines(const nlohmann::json& entry) {
  std::vector<std::string> out = {entry.at("command").get<std::string>()};
  if (entry.contains("docker")) out.push_back(entry["docker"].get<std::string>());
  for (const nlohmann::json& node : entry.value("nodes", nlohmann::json::array())) {
    for (const nlohmann::json& command : node.at("commands")) out.push_back(command.get<std::string>());
    if (node.contains("docker")) out.push_back(node["docker"].get<std::string>());
    if (node.contains("without_ray")) out.push_back(node["without_ray"].get<std::string>());
  }
  return out;
}

const std::vector<nlohmann::json> kDeployments = {
    // Two 8-GPU machines: vLLM's documented tensor x pipeline layout.
    {{"model", "llama-3.1-405b"}, {"weights", "FP8"}, {"engine", "vllm"}, {"hardware", "h100-sxm"}, {"devices", 8},
     {"nodes", 2}, {"context_tokens", 32768}},
    // Data parallel attention with expert parallel across two machines.
    {{"model", "deepseek-v3"}, {"weights", "FP8"}, {"engine", "vllm"}, {"hardware", "h200-sxm"}, {"devices", 8},
     {"nodes", 2}, {"parallel", {{"tensor", 1}, {"data", 16}, {"expert", true}}}, {"context_tokens", 32768}},
    {{"model", "deepseek-v3"}, {"weights", "FP8"}, {"engine", "sglang"}, {"hardware", "h200-sxm"}, {"devices", 8},
     {"nodes", 2}, {"parallel", {{"tensor", 8}, {"data", 2}, {"expert", true}}}, {"context_tokens", 32768}},
    // A PC and two more machines over RPC, mixed cards.
    {{"model", "llama-3.3-70b"}, {"weights", "Q4_K_M"}, {"context_tokens", 8192}, {"network", "ethernet-10g"},
     {"hardware", {{{"device", "rtx-4090"}}, {{"device", "rtx-3090"}, {"count", 2}, {"node", 1}},
                   {{"device", "rtx-3060-12gb"}, {"node", 2}}}}},
};

}  // namespace

TEST_CASE("Every flag of every machine's command is one the engine declares", "[commands][multi_device]") {
  for (const nlohmann::json& request : kDeployments) {
    nlohmann::json commands = commands_for(request);
    for (const char* engine : {"vllm", "sglang", "llama.cpp"}) {
      INFO(request.dump() << " / " << engine);
      for (const std::string& line : command_lines(commands[engine])) check_documented(line);
    }
  }
}

TEST_CASE("Each machine gets the command its engine documents for it", "[commands][multi_device]") {
  SECTION("vLLM: a Ray cluster and one vllm serve, tensor parallel in a machine, pipeline across") {
    // docs/serving/parallelism_scaling.md: "set tensor_parallel_size=8 and pipeline_parallel_size=2
    // when using 2 nodes with 8 GPUs per node".
    nlohmann::json vllm = commands_for(kDeployments[0])["vllm"];
    REQUIRE(vllm["nodes"].size() == 2);
    CHECK(vllm["nodes"][0]["commands"][0] == "ray start --head --port=6379");
    CHECK(vllm["nodes"][1]["commands"][0] == "ray start --block --address=<head-ip>:6379");
    std::string serve = vllm["nodes"][0]["commands"][1];
    CHECK(serve.find("--tensor-parallel-size 8 --pipeline-parallel-size 2") != std::string::npos);
    CHECK(serve.find("--distributed-executor-backend ray") != std::string::npos);
    CHECK(vllm["nodes"][1]["without_ray"].get<std::string>().find("--nnodes 2 --node-rank 1 --master-addr <head-ip> --headless") !=
          std::string::npos);
  }
  SECTION("vLLM data parallel across machines: local replicas, the head's address, start ranks") {
    // docs/serving/expert_parallel_deployment.md: --data-parallel-start-rank is the local DP size
    // of the machines before; the others run --headless.
    nlohmann::json nodes = commands_for(kDeployments[1])["vllm"]["nodes"];
    REQUIRE(nodes.size() == 2);
    std::string head = nodes[0]["commands"][0];
    std::string worker = nodes[1]["commands"][0];
    CHECK(head.find("--data-parallel-size 16 --enable-expert-parallel") != std::string::npos);
    CHECK(head.find("--data-parallel-size-local 8 --data-parallel-address <head-ip>") != std::string::npos);
    CHECK(head.find("--headless") == std::string::npos);
    CHECK(worker.find("--data-parallel-start-rank 8 --headless") != std::string::npos);
  }
  SECTION("SGLang: the same command on each machine with its rank") {
    // multi_node.md: --tp 16 --dist-init-addr <head>:20000 --nnodes 2 --node-rank 0 / 1;
    // deepseek_v3.md: "--enable-dp-attention --tp 16 --dp 2" on 2 nodes of 8.
    nlohmann::json nodes = commands_for(kDeployments[2])["sglang"]["nodes"];
    REQUIRE(nodes.size() == 2);
    for (int rank = 0; rank < 2; ++rank) {
      std::string line = nodes[rank]["commands"][0];
      CHECK(line.find("--tp-size 16 --dp-size 2 --enable-dp-attention --ep-size 16") != std::string::npos);
      CHECK(line.find("--dist-init-addr <head-ip>:20000 --nnodes 2 --node-rank " + std::to_string(rank)) !=
            std::string::npos);
    }
  }
  SECTION("llama.cpp: rpc-server on each other machine, --rpc with all of them on the head") {
    // tools/rpc/README.md: rpc-server on each remote host, `--rpc host:port,host:port` on the main one.
    nlohmann::json llama = commands_for(kDeployments[3])["llama.cpp"];
    REQUIRE(llama["nodes"].size() == 3);
    CHECK(llama["nodes"][0]["commands"][0].get<std::string>().find("--rpc <node1-ip>:50052,<node2-ip>:50052") !=
          std::string::npos);
    CHECK(llama["nodes"][1]["commands"][0] == "rpc-server -H 0.0.0.0 -p 50052");
    CHECK(llama["nodes"][1]["devices"] == 2);
    CHECK(llama["nodes"][2]["devices"] == 1);
    CHECK(llama["notes"].get<std::string>().find("GGML_RPC=ON") != std::string::npos);
  }
}
