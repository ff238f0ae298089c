// Internal: the commands each machine runs when a deployment spans several (Ray / torch
// multi-node for vLLM, --nnodes for SGLang, rpc-server for llama.cpp), as the engines document
// them (tests/data/engine_cli.json names each file and commit).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/scenario.h"

namespace llmcalc {

using Flags = std::vector<std::pair<std::string, std::string>>;

/// "program flag value flag ..." with valueless flags alone.
std::string join_flags(const std::string& program, const Flags& flags);

/// The placeholder a command uses for machine `node`'s address: <head-ip>, <node1-ip>, ...
std::string machine_address(int64_t node);

/// vLLM's parallel flags for the plan (tensor, pipeline, data, expert parallel).
Flags vllm_parallel_flags(const ParallelPlan& plan);

/// SGLang's: --tp-size is every rank of a stage, attention data parallel and --pp-size beside it.
Flags sglang_parallel_flags(const ParallelPlan& plan);

/// [{"node": k, "role": "head" | "worker", "commands": [...]}] for each machine; `serve` is the
/// single-machine command's program and flags.
nlohmann::json vllm_nodes(const Scenario& s, const std::string& serve, const Flags& flags);
nlohmann::json sglang_nodes(const Scenario& s, const std::string& serve, const Flags& flags);
nlohmann::json llama_cpp_nodes(const Scenario& s, const std::string& serve, const Flags& flags);

}  // namespace llmcalc
