// Device records and inline hardware, converted to bytes, bytes/s and FLOP/s.
#include "llmcalc/hardware.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "llmcalc/catalog.h"
#include "llmcalc/json_reader.h"

namespace llmcalc {
namespace {

constexpr std::string_view kBackends[] = {"cuda", "rocm", "metal", "vulkan", "sycl", "cpu", "cann", "other"};

double number_or_zero(const nlohmann::json& record, const char* key) {
  auto it = record.find(key);
  return it != record.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

Hardware hardware_from_record(const nlohmann::json& record) {
  Hardware h;
  h.id = record.at("id").get<std::string>();
  h.name = record.value("name", h.id);
  h.backend = record.value("backend", "cuda");
  h.kind = record.value("kind", "discrete");
  auto memory_type = record.find("memory_type");
  if (memory_type != record.end() && memory_type->is_string()) h.memory_type = memory_type->get<std::string>();
  h.memory_bytes = static_cast<int64_t>(std::llround(number_or_zero(record, "memory_GiB") *
                                                     static_cast<double>(kGiB)));
  h.driver_total_bytes = static_cast<int64_t>(std::llround(number_or_zero(record, "cuda_total_GiB") *
                                                           static_cast<double>(kGiB)));
  h.memory_bandwidth_bytes_per_s = number_or_zero(record, "memory_bandwidth_GBps") * 1e9;
  h.fp16_flops_per_s = number_or_zero(record, "fp16_dense_TFLOPS") * 1e12;
  h.int8_ops_per_s = number_or_zero(record, "int8_dense_TOPS") * 1e12;
  h.cuda_compute_capability = number_or_zero(record, "cuda_compute_capability");
  auto link = record.find("interconnect");
  if (link != record.end() && link->is_object()) {
    h.interconnect_bytes_per_s = number_or_zero(*link, "bandwidth_GBps") * 1e9;
    auto kind = link->find("kind");
    if (kind != link->end() && kind->is_string()) h.interconnect_kind = kind->get<std::string>();
    h.pcie_peer_to_peer = link->value("pcie_peer_to_peer", false);
  }
  h.tdp_w = number_or_zero(record, "tdp_W");
  auto price = record.find("price_new_usd");
  if (price != record.end() && price->is_number()) h.price_usd = price->get<double>();
  auto used = record.find("price_used_usd");
  if (used != record.end() && used->is_number()) h.price_used_usd = used->get<double>();
  return h;
}

const std::vector<Hardware>& catalog_hardware() {
  static const std::vector<Hardware> devices = [] {
    std::vector<Hardware> out;
    for (const CatalogDevice& device : Catalog::instance().devices()) {
      out.push_back(hardware_from_record(device.record));
    }
    return out;
  }();
  return devices;
}

const Hardware* find_catalog_hardware(const std::string& id) {
  for (const Hardware& h : catalog_hardware()) {
    if (h.id == id) return &h;
  }
  return nullptr;
}

std::optional<Hardware> resolve_hardware(const nlohmann::json& value, const std::string& path,
                                         Issues& issues) {
  if (value.is_string()) {
    const std::string& id = value.get_ref<const std::string&>();
    const Hardware* device = find_catalog_hardware(id);
    if (!device) {
      issues.error("unknown_hardware", path,
                   "No device with id '" + id.substr(0, 60) + "' in the catalog.");
      return std::nullopt;
    }
    return *device;
  }
  JsonReader reader(value, path, issues);
  if (!reader.valid()) return std::nullopt;
  Hardware h;
  h.id = "custom";
  h.name = reader.string("name", 80, std::string("Custom device")).value_or("Custom device");
  auto memory = reader.number("memory_bytes", 1, 1e16);
  auto bandwidth = reader.number("memory_bandwidth_bytes_per_s", 1, 1e15);
  auto flops = reader.number("fp16_flops_per_s", 1, 1e19, 0.0);
  auto backend = reader.string("backend", 16, std::string("cuda"));
  if (backend && std::find(std::begin(kBackends), std::end(kBackends), *backend) == std::end(kBackends)) {
    issues.error("unknown_backend", reader.path_of("backend"),
                 "backend must be one of cuda, rocm, metal, vulkan, sycl, cpu.");
    return std::nullopt;
  }
  auto kind = reader.string("kind", 16, std::string(*backend == "metal" ? "unified" : "discrete"));
  if (!memory || !bandwidth || !flops || !backend || !kind) return std::nullopt;
  h.memory_bytes = static_cast<int64_t>(*memory);
  h.memory_bandwidth_bytes_per_s = *bandwidth;
  h.fp16_flops_per_s = *flops;
  h.backend = *backend;
  h.kind = *kind;
  h.interconnect_bytes_per_s =
      reader.number("interconnect_bytes_per_s", 0, 1e13, 0.0).value_or(0.0);
  h.int8_ops_per_s = reader.number("int8_ops_per_s", 0, 1e19, 0.0).value_or(0.0);
  h.cuda_compute_capability = reader.number("cuda_compute_capability", 0, 20, 0.0).value_or(0.0);
  h.memory_type = reader.string("memory_type", 16, std::string()).value_or("");
  h.pcie_peer_to_peer = reader.boolean("pcie_peer_to_peer", false).value_or(false);
  reader.warn_unread();
  return h;
}

std::optional<std::vector<DeviceGroup>> resolve_device_groups(const nlohmann::json& value,
                                                              const std::string& path,
                                                              int64_t count, Issues& issues) {
  if (!value.is_array()) {
    std::optional<Hardware> device = resolve_hardware(value, path, issues);
    if (!device) return std::nullopt;
    return std::vector<DeviceGroup>{{*device, count, 0}};
  }
  if (value.empty() || value.size() > 64) {
    issues.error("bad_hardware_list", path, "A hardware list needs 1 to 64 device groups.");
    return std::nullopt;
  }
  std::vector<DeviceGroup> groups;
  int64_t total = 0;
  int64_t last_node = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string group_path = path + "/" + std::to_string(i);
    JsonReader reader(value[i], group_path, issues);
    if (!reader.valid()) return std::nullopt;
    auto group_count = reader.integer("count", 1, kMaxDevices, 1);
    auto node = reader.integer("node", 0, kMaxDevices - 1, 0);
    if (!reader.has("device")) {
      issues.error("missing_field", reader.path_of("device"), "Each group needs a device: a catalog id or an object.");
      return std::nullopt;
    }
    std::optional<Hardware> device = resolve_hardware(value[i].at("device"), reader.path_of("device"), issues);
    if (!device || !group_count || !node) return std::nullopt;
    reader.warn_unread();
    total += *group_count;
    last_node = std::max(last_node, *node);
    groups.push_back({*device, *group_count, *node});
  }
  if (total > kMaxDevices) {
    issues.error("too_many_devices", path, "A hardware list holds at most " + std::to_string(kMaxDevices) + " devices.");
    return std::nullopt;
  }
  for (int64_t node = 0; node <= last_node; ++node) {
    bool used = std::any_of(groups.begin(), groups.end(), [node](const DeviceGroup& g) { return g.node == node; });
    if (!used) {
      issues.error("empty_node", path, "Machine " + std::to_string(node) + " has no devices; number machines from 0 without gaps.");
      return std::nullopt;
    }
  }
  return groups;
}

std::vector<Hardware> device_sequence(const std::vector<DeviceGroup>& groups, bool remote_first,
                                      std::vector<int64_t>* nodes_out) {
  std::vector<Hardware> out;
  if (nodes_out) nodes_out->clear();
  int64_t last_node = 0;
  for (const DeviceGroup& group : groups) last_node = std::max(last_node, group.node);
  // remote_first: machines 1, 2, ... and the head (0) last.
  for (int64_t step = 0; step <= last_node; ++step) {
    int64_t node = remote_first ? (step + 1) % (last_node + 1) : step;
    for (const DeviceGroup& group : groups) {
      if (group.node != node) continue;
      for (int64_t k = 0; k < group.count; ++k) {
        out.push_back(group.device);
        if (nodes_out) nodes_out->push_back(node);
      }
    }
  }
  return out;
}

nlohmann::json hardware_json(const Hardware& h) {
  return {{"id", h.id},
          {"name", h.name},
          {"backend", h.backend},
          {"kind", h.kind},
          {"memory_bytes", h.memory_bytes},
          {"memory_bandwidth_bytes_per_s", h.memory_bandwidth_bytes_per_s},
          {"fp16_flops_per_s", h.fp16_flops_per_s},
          {"int8_ops_per_s", h.int8_ops_per_s},
          {"cuda_compute_capability", h.cuda_compute_capability},
          {"interconnect_bytes_per_s", h.interconnect_bytes_per_s},
          {"pcie_peer_to_peer", h.pcie_peer_to_peer}};
}

// A PCIe generation and width read off the device's interconnect ("PCIe 4.0 x16": 16 GT/s x
// 128/130 per lane and direction, 1.969 GB/s a lane), else PCIe 4.0 x16's 31.5 GB/s (NVLink parts
// reach the host through PCIe too).
double host_link_bytes_per_s(const Hardware& hardware) {
  const std::string& kind = hardware.interconnect_kind;
  if (kind.rfind("PCIe ", 0) == 0 && kind.size() >= 11 && kind[6] == '.' && kind[8] == ' ' && kind[9] == 'x') {
    int generation = kind[5] - '0';
    int lanes = std::atoi(kind.c_str() + 10);
    if (generation >= 3 && generation <= 5 && lanes > 0) return 0.985e9 * static_cast<double>(1 << (generation - 3)) * lanes;
  }
  return kPcie4x16BytesPerS;
}

}  // namespace llmcalc
