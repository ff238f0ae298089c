// Links between machines from data/links.json (each with its datasheet and measured sources), or
// inline, in bytes/s and seconds.
#include "llmcalc/network.h"

#include <utility>

#include "llmcalc/catalog.h"
#include "llmcalc/json_reader.h"

namespace llmcalc {
namespace {

// One NCCL network step of a small message (data/links.json collective_latency): half the
// published two-machine all-reduce over RDMA (two steps); over sockets the link's latency plus
// what NCCL's socket transport adds to it.
double nccl_step_seconds(bool rdma, double latency_s) {
  const nlohmann::json& document = Catalog::instance().document("links.json");
  auto entry = document.find("collective_latency");
  if (entry == document.end()) return latency_s;
  if (rdma) return entry->value("rdma_all_reduce_us", 0.0) * 1e-6 / 2.0;
  double socket_overhead = entry->value("socket_step_us", 0.0) - entry->value("socket_step_link_latency_us", 0.0);
  return socket_overhead * 1e-6 + latency_s;
}

NetworkLink make_link(std::string id, std::string name, double bandwidth, double latency, bool rdma) {
  return NetworkLink{std::move(id), std::move(name), bandwidth, latency, rdma, nccl_step_seconds(rdma, latency)};
}

NetworkLink link_from_record(const nlohmann::json& record) {
  std::string id = record.at("id").get<std::string>();
  std::string name = record.value("name", id);
  return make_link(std::move(id), std::move(name), record.at("bandwidth_GBps").get<double>() * 1e9,
                   record.at("latency_us").get<double>() * 1e-6, record.value("transport", "tcp") == "rdma");
}

const nlohmann::json* find_link_record(const std::string& id) {
  const nlohmann::json& document = Catalog::instance().document("links.json");
  auto links = document.find("links");
  if (links == document.end()) return nullptr;
  for (const nlohmann::json& record : *links) {
    if (record.value("id", "") == id) return &record;
  }
  return nullptr;
}

}  // namespace

std::optional<NetworkLink> resolve_network(const nlohmann::json& value, const std::string& path, Issues& issues) {
  if (value.is_string()) {
    const std::string& id = value.get_ref<const std::string&>();
    const nlohmann::json* record = find_link_record(id);
    if (!record) {
      issues.error("unknown_network", path, "No link with id '" + id.substr(0, 60) + "' in the catalog.");
      return std::nullopt;
    }
    return link_from_record(*record);
  }
  JsonReader reader(value, path, issues);
  if (!reader.valid()) return std::nullopt;
  auto bandwidth = reader.number("bandwidth_bytes_per_s", 1e6, 1e13);
  auto latency = reader.number("latency_s", 0, 1.0);
  auto name = reader.string("name", 80, std::string("Custom link"));
  auto transport = reader.string("transport", 8, std::string("tcp"));
  if (transport && *transport != "tcp" && *transport != "rdma") {
    issues.error("unknown_transport", reader.path_of("transport"), "transport must be tcp or rdma.");
    return std::nullopt;
  }
  if (!bandwidth || !latency || !name || !transport) return std::nullopt;
  reader.warn_unread();
  return make_link("custom", *name, *bandwidth, *latency, *transport == "rdma");
}

std::vector<NetworkLink> catalog_links() {
  std::vector<NetworkLink> out;
  const nlohmann::json& document = Catalog::instance().document("links.json");
  auto links = document.find("links");
  if (links == document.end()) return out;
  for (const nlohmann::json& record : *links) out.push_back(link_from_record(record));
  return out;
}

NetworkLink default_network(const Hardware& device) {
  bool datacenter = device.memory_type.rfind("HBM", 0) == 0;
  const nlohmann::json* record = find_link_record(datacenter ? "infiniband-ndr" : "ethernet-10g");
  return record ? link_from_record(*record) : NetworkLink{};
}

nlohmann::json network_json(const NetworkLink& link) {
  return {{"id", link.id},
          {"name", link.name},
          {"bandwidth_bytes_per_s", link.bandwidth_bytes_per_s},
          {"latency_s", link.latency_s},
          {"transport", link.rdma ? "rdma" : "tcp"},
          {"nccl_step_s", link.nccl_step_s}};
}

double transfer_seconds(const NetworkLink& link, double bytes) {
  return link.latency_s + (link.bandwidth_bytes_per_s > 0 ? bytes / link.bandwidth_bytes_per_s : 0.0);
}

}  // namespace llmcalc
