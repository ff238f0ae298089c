// Commands per machine, from the engines' documentation:
// - vLLM (docs/serving/parallelism_scaling.md; examples/ray_serving/run_cluster.sh;
//   docs/serving/expert_parallel_deployment.md): a Ray cluster (`ray start --head --port=6379`
//   on the head, `ray start --block --address=<head>:6379` on the others) and one `vllm serve
//   --distributed-executor-backend ray` on the head, or the same `vllm serve` on every machine
//   with --nnodes / --node-rank / --master-addr (--headless on the others); data parallel
//   across machines with --data-parallel-size-local, --data-parallel-address and
//   --data-parallel-start-rank.
// - SGLang (docs/references/multi_node_deployment/multi_node.md): the same command on every
//   machine with --nnodes, --node-rank and --dist-init-addr <head>:20000.
// - llama.cpp (tools/rpc/README.md): `rpc-server` on every other machine (built with
//   -DGGML_RPC=ON; it exposes all its devices), and `--rpc host:port,...` on the head.
#include "node_commands.h"

#include <utility>

namespace llmcalc {
namespace {

constexpr int kRayPort = 6379;
constexpr int kSglangInitPort = 20000;
constexpr int kRpcPort = 50052;
constexpr int kVllmDataParallelRpcPort = 13345;

nlohmann::json node_entry(int64_t node, const std::vector<std::string>& commands) {
  return {{"node", node}, {"role", node == 0 ? "head" : "worker"}, {"address", machine_address(node)}, {"commands", commands}};
}

// Devices in machine `node`.
int64_t devices_in(const Scenario& s, int64_t node) {
  int64_t count = 0;
  for (const DeviceGroup& group : s.groups()) {
    if (group.node == node) count += group.count;
  }
  return count;
}

}  // namespace

std::string join_flags(const std::string& program, const Flags& flags) {
  std::string out = program;
  for (const auto& [flag, value] : flags) {
    out += " " + flag;
    if (!value.empty()) out += " " + value;
  }
  return out;
}

std::string machine_address(int64_t node) {
  return node == 0 ? "<head-ip>" : "<node" + std::to_string(node) + "-ip>";
}

Flags vllm_parallel_flags(const ParallelPlan& plan) {
  Flags flags;
  if (plan.tensor > 1) flags.push_back({"--tensor-parallel-size", std::to_string(plan.tensor)});
  if (plan.pipeline > 1) flags.push_back({"--pipeline-parallel-size", std::to_string(plan.pipeline)});
  if (plan.data > 1) flags.push_back({"--data-parallel-size", std::to_string(plan.data)});
  if (plan.expert) flags.push_back({"--enable-expert-parallel", ""});
  return flags;
}

Flags sglang_parallel_flags(const ParallelPlan& plan) {
  Flags flags;
  int64_t stage_ranks = plan.tensor * plan.data;
  if (stage_ranks > 1) flags.push_back({"--tp-size", std::to_string(stage_ranks)});
  if (plan.data > 1) {
    flags.push_back({"--dp-size", std::to_string(plan.data)});
    flags.push_back({"--enable-dp-attention", ""});
  }
  if (plan.expert) flags.push_back({"--ep-size", std::to_string(stage_ranks)});
  if (plan.pipeline > 1) flags.push_back({"--pp-size", std::to_string(plan.pipeline)});
  return flags;
}

nlohmann::json vllm_nodes(const Scenario& s, const std::string& serve, const Flags& flags) {
  nlohmann::json nodes = nlohmann::json::array();
  int64_t machines = s.machines();
  if (s.parallel.data > 1) {
    // Data parallel across machines: each runs its share of the replicas.
    int64_t local = s.parallel.data / machines;
    int64_t start = 0;
    for (int64_t node = 0; node < machines; ++node) {
      Flags own = flags;
      own.push_back({"--data-parallel-size-local", std::to_string(local)});
      own.push_back({"--data-parallel-address", machine_address(0)});
      own.push_back({"--data-parallel-rpc-port", std::to_string(kVllmDataParallelRpcPort)});
      if (node > 0) {
        own.push_back({"--data-parallel-start-rank", std::to_string(start)});
        own.push_back({"--headless", ""});
      }
      nodes.push_back(node_entry(node, {join_flags(serve, own)}));
      start += local;
    }
    return nodes;
  }
  Flags ray = flags;
  ray.push_back({"--distributed-executor-backend", "ray"});
  for (int64_t node = 0; node < machines; ++node) {
    std::vector<std::string> commands;
    if (node == 0) {
      commands.push_back("ray start --head --port=" + std::to_string(kRayPort));
      commands.push_back(join_flags(serve, ray));
    } else {
      commands.push_back("ray start --block --address=" + machine_address(0) + ":" + std::to_string(kRayPort));
    }
    nlohmann::json entry = node_entry(node, commands);
    // The container form: vLLM's run_cluster.sh starts Ray inside vllm/vllm-openai.
    entry["docker"] = "bash run_cluster.sh vllm/vllm-openai " + machine_address(0) + (node == 0 ? " --head" : " --worker") +
                      " ~/.cache/huggingface -e VLLM_HOST_IP=" + machine_address(node);
    // Without Ray: the same command on every machine.
    Flags torch = flags;
    torch.push_back({"--nnodes", std::to_string(machines)});
    torch.push_back({"--node-rank", std::to_string(node)});
    torch.push_back({"--master-addr", machine_address(0)});
    if (node > 0) torch.push_back({"--headless", ""});
    entry["without_ray"] = join_flags(serve, torch);
    nodes.push_back(std::move(entry));
  }
  return nodes;
}

nlohmann::json sglang_nodes(const Scenario& s, const std::string& serve, const Flags& flags) {
  nlohmann::json nodes = nlohmann::json::array();
  int64_t machines = s.machines();
  for (int64_t node = 0; node < machines; ++node) {
    Flags own = flags;
    own.push_back({"--dist-init-addr", machine_address(0) + ":" + std::to_string(kSglangInitPort)});
    own.push_back({"--nnodes", std::to_string(machines)});
    own.push_back({"--node-rank", std::to_string(node)});
    nodes.push_back(node_entry(node, {join_flags(serve, own)}));
  }
  return nodes;
}

nlohmann::json llama_cpp_nodes(const Scenario& s, const std::string& serve, const Flags& flags) {
  nlohmann::json nodes = nlohmann::json::array();
  int64_t machines = s.machines();
  std::string servers;
  for (int64_t node = 1; node < machines; ++node) {
    servers += (servers.empty() ? "" : ",") + machine_address(node) + ":" + std::to_string(kRpcPort);
  }
  Flags head = flags;
  head.push_back({"--rpc", servers});
  nodes.push_back(node_entry(0, {join_flags(serve, head)}));
  for (int64_t node = 1; node < machines; ++node) {
    nlohmann::json entry = node_entry(node, {join_flags("rpc-server", {{"-H", "0.0.0.0"}, {"-p", std::to_string(kRpcPort)}})});
    entry["devices"] = devices_in(s, node);
    nodes.push_back(std::move(entry));
  }
  return nodes;
}

}  // namespace llmcalc
