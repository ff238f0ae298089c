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
  // The total the CUDA driver reports for the device where it differs from memory_bytes (a
  // unified-memory GB10 reports 121.69 GiB of its 128); 0 if the same or unknown. vLLM's and
  // SGLang's budgets are fractions of it.
  int64_t driver_total_bytes = 0;
  double memory_bandwidth_bytes_per_s = 0;
  double fp16_flops_per_s = 0;
  double int8_ops_per_s = 0;            // dense INT8 tensor throughput; 0 if unknown
  // NVIDIA compute capability (6.0 for a P100, 6.1 for a P40 or GTX 10xx); 0 if unknown or not
  // NVIDIA. llama.cpp's CUDA backend runs Pascal (below 7.0) without CUDA graphs, and below 6.1
  // without __dp4a (see speed.cpp); vLLM and SGLang pick their MXFP4 MoE kernel by it (mxfp4_expert_layout.cpp).
  double cuda_compute_capability = 0;
  double interconnect_bytes_per_s = 0;  // per direction between devices; 0 if unknown
  std::string interconnect_kind;        // "PCIe 4.0 x16", "NVLink 4", ... ("" if unknown)
  bool pcie_peer_to_peer = false;       // the stock driver lets cards read each other over PCIe
  double tdp_w = 0;
  double price_usd = -1;  // launch price of one device (< 0: unknown)
  double price_used_usd = -1;  // indicative second-hand price (< 0: unknown), see data/devices
};

/// Resolves one device: a catalog id (string) or an inline object. Errors are recorded at `path`.
std::optional<Hardware> resolve_hardware(const nlohmann::json& value, const std::string& path,
                                         Issues& issues);

/// Identical devices in one machine: `count` of `device` in machine `node` (0 is the head, where
/// llama-server, the Ray head or SGLang's rank 0 runs).
struct DeviceGroup {
  Hardware device;
  int64_t count = 1;
  int64_t node = 0;
};

/// request.hardware as device groups: an id or an object (one group of `count` devices), or a
/// list of {"device": id or object, "count": n, "node": k}. Every machine from 0 to the highest
/// node must hold a group. Errors are recorded at `path`.
std::optional<std::vector<DeviceGroup>> resolve_device_groups(const nlohmann::json& value,
                                                              const std::string& path,
                                                              int64_t count, Issues& issues);

/// The devices one by one with the machine of each in `nodes_out`: machine by machine, or with
/// `remote_first` in the order llama.cpp lists them (src/llama.cpp at b10256: the devices of other
/// machines, reached over RPC, first "to minimize network transfers", then the head's).
std::vector<Hardware> device_sequence(const std::vector<DeviceGroup>& groups, bool remote_first,
                                      std::vector<int64_t>* nodes_out);

/// A catalog device record (data/devices/<id>.json) in SI units.
Hardware hardware_from_record(const nlohmann::json& record);

/// Every catalog device in SI units, converted once per process.
const std::vector<Hardware>& catalog_hardware();

/// The catalog device with this id, or nullptr.
const Hardware* find_catalog_hardware(const std::string& id);

nlohmann::json hardware_json(const Hardware& hardware);

/// PCIe 4.0 x16 per direction (16 lanes x 16 GT/s x 128/130): the link a device is taken to have
/// where its record states none.
constexpr double kPcie4x16BytesPerS = 31.5e9;

/// The link between a device and the host's memory, bytes/s per direction.
double host_link_bytes_per_s(const Hardware& hardware);

/// Request limit (issue #11): up to 1024 devices in all.
constexpr int64_t kMaxDevices = 1024;
constexpr int64_t kMaxNodes = 64;  // machines

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kMiB = int64_t{1} << 20;

}  // namespace llmcalc
