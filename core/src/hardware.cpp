// Device records and inline hardware, converted to bytes, bytes/s and FLOP/s.
#include "llmcalc/hardware.h"

#include <cmath>
#include <set>

#include "llmcalc/catalog.h"
#include "llmcalc/json_reader.h"

namespace llmcalc {
namespace {

const std::set<std::string> kBackends = {"cuda", "rocm", "metal", "vulkan", "sycl", "cpu",
                                         "cann", "other"};

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
  h.memory_bandwidth_bytes_per_s = number_or_zero(record, "memory_bandwidth_GBps") * 1e9;
  h.fp16_flops_per_s = number_or_zero(record, "fp16_dense_TFLOPS") * 1e12;
  h.int8_ops_per_s = number_or_zero(record, "int8_dense_TOPS") * 1e12;
  auto link = record.find("interconnect");
  if (link != record.end() && link->is_object()) {
    h.interconnect_bytes_per_s = number_or_zero(*link, "bandwidth_GBps") * 1e9;
    auto kind = link->find("kind");
    if (kind != link->end() && kind->is_string()) h.interconnect_kind = kind->get<std::string>();
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
  if (backend && !kBackends.count(*backend)) {
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
  return h;
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
          {"interconnect_bytes_per_s", h.interconnect_bytes_per_s}};
}

}  // namespace llmcalc
