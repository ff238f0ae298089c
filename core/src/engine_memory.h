// Internal: what every engine's memory model returns for one context, shared by memory.cpp
// (verdict, largest context, JSON) and the per-engine files (llama_cpp_memory.cpp,
// server_memory.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "llmcalc/memory.h"

namespace llmcalc {

/// One engine's memory at one context: per device, host RAM, and whether each place fits.
struct EngineTotals {
  KvBreakdown kv;
  int64_t compute = 0;   // compute buffers / activation peak, all devices
  int64_t runtime = 0;   // non-torch memory and CUDA graphs, all devices
  int64_t mtp = 0;       // llama.cpp MTP draft context, all devices
  int64_t projector = 0;  // llama.cpp vision projector (mmproj) and its warm-up buffer
  std::vector<DeviceMemory> devices;
  DeviceMemory host;
  double worst_ratio = 0;    // largest total / usable over devices and the host RAM
  bool fits = true;          // every device and the host within its usable memory
  bool offloaded = false;    // layers or experts sit in system RAM (llama.cpp placement)
  int64_t offloaded_read_bytes_per_token = 0;  // what a decode step reads from system RAM
  // Weights in system RAM the first GPU copies for each prompt ubatch of 32+ tokens (op offload):
  // the dense tensors of layers in RAM, and routed experts in RAM (copied as far as the
  // ubatch's tokens pick them).
  int64_t op_offload_dense_bytes = 0;
  int64_t op_offload_expert_bytes = 0;
};

/// Worst ratio and fit over devices and (when it holds anything) the host.
void finish_totals(EngineTotals& t, bool host_counts);

/// f32 elements per token of the largest FFN live set: 4 x n_ff for a dense layer, and
/// 2 x n_expert_used x (n_embd + n_ff_exp) for MUL_MAT_ID, which copies its input per expert.
int64_t ffn_live_elements(const ModelSpec& model);

bool is_llama_cpp_family(const std::string& engine);
bool is_paged_server(const std::string& engine);

/// The KV request an engine makes for `context_tokens` per sequence.
KvRequest engine_kv_request(const MemoryRequest& request, int64_t context_tokens);

}  // namespace llmcalc
