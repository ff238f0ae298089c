// The network between machines: what llama.cpp RPC and NCCL across nodes send their tensors
// over, with its bandwidth and latency (data/links.json).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/hardware.h"
#include "llmcalc/issues.h"

namespace llmcalc {

/// A link kind: a catalog record or an inline object.
struct NetworkLink {
  std::string id;    // catalog id, or "custom"
  std::string name;
  double bandwidth_bytes_per_s = 0;  // per direction
  double latency_s = 0;              // one way, a small message
  bool rdma = false;                 // NCCL crosses it with verbs (InfiniBand, RoCE), else sockets
  double nccl_step_s = 0;            // one NCCL network step of a small message over it (a send;
                                     // an all-reduce between two machines takes two)
};

/// Resolves request.network (string id or object). Errors are recorded at `path`.
std::optional<NetworkLink> resolve_network(const nlohmann::json& value, const std::string& path, Issues& issues);

/// The link assumed between machines when the request names none: InfiniBand NDR between
/// datacenter GPUs (HBM), 10 Gigabit Ethernet between other machines.
NetworkLink default_network(const Hardware& device);

nlohmann::json network_json(const NetworkLink& link);

/// Every catalog link, in data/links.json's order.
std::vector<NetworkLink> catalog_links();

/// Seconds to send `bytes` one way over the link: its latency plus the bytes at its bandwidth.
double transfer_seconds(const NetworkLink& link, double bytes);

}  // namespace llmcalc
