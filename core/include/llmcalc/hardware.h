// A device the estimate runs on: a catalog id or an inline description, in SI units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

struct Hardware {
  std::string id;    // catalog id, or "custom"
  std::string name;
  std::string backend;  // cuda | rocm | metal | vulkan | sycl | cpu
  std::string kind;     // discrete | unified | cpu
  std::string memory_type;  // "HBM3", "GDDR6X", "LPDDR5x", ... ("" if unknown)
  int64_t memory_bytes = 0;
  double memory_bandwidth_bytes_per_s = 0;
  double fp16_flops_per_s = 0;
  double int8_ops_per_s = 0;            // dense INT8 tensor throughput; 0 if unknown
  double interconnect_bytes_per_s = 0;  // per direction between devices; 0 if unknown
  std::string interconnect_kind;        // "PCIe 4.0 x16", "NVLink 4", ... ("" if unknown)
  double tdp_w = 0;
  double price_usd = -1;  // launch price of one device (< 0: unknown)
  double price_used_usd = -1;  // indicative second-hand price (< 0: unknown), see data/devices
};

/// Resolves request.hardware (string id or object). Errors are recorded at `path`.
std::optional<Hardware> resolve_hardware(const nlohmann::json& value, const std::string& path,
                                         Issues& issues);

/// A catalog device record (data/devices/<id>.json) in SI units.
Hardware hardware_from_record(const nlohmann::json& record);

/// Every catalog device in SI units, converted once per process.
const std::vector<Hardware>& catalog_hardware();

/// The catalog device with this id, or nullptr.
const Hardware* find_catalog_hardware(const std::string& id);

nlohmann::json hardware_json(const Hardware& hardware);

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kMiB = int64_t{1} << 20;

}  // namespace llmcalc
