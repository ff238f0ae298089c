// A request resolved into typed inputs with every default filled in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/language.h"
#include "llmcalc/hardware.h"
#include "llmcalc/issues.h"
#include "llmcalc/kv_cache.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"
#include "llmcalc/network.h"
#include "llmcalc/speed.h"

namespace llmcalc {

struct Scenario {
  Language lang = Language::en;  // of the sentences in the answer ("lang": "en" or "es")
  std::string model_id;    // catalog id, or "custom"
  std::string model_name;
  ModelSpec model;
  std::string weights = "Q4_K_M";
  bool imatrix = false;  // GGUF made with an importance matrix
  int64_t weights_bytes = 0;  // exact tensor bytes read from a file (0: computed from the format)
  bool weights_include_mtp = false;  // that file holds the MTP (nextn) layers too
  bool gguf_holds_mtp = false;  // the model's published GGUF files hold its MTP layers as blocks
  std::string weights_bytes_format;  // the format weights_bytes belongs to (the requested one)
  // A format sized from its published file (unsloth Dynamic): the llama.cpp file type whose rules
  // place its tensors.
  std::string weights_rules;

  /// The format whose rules place the tensors: the requested one, or a published format's base.
  const std::string& rules_format() const {
    return weights == weights_bytes_format && !weights_rules.empty() ? weights_rules : weights;
  }
  /// weights_bytes when the scenario still has the format it was given for (the explore matrix
  /// and the rank ladder switch formats), else 0.
  int64_t exact_weights_bytes() const { return weights == weights_bytes_format ? weights_bytes : 0; }
  KvType kv_type{"f16", 1, 2};
  // The request named the cache type; "auto" or none: each engine's default, so the commands
  // of the engines not estimated pass no cache flag.
  bool kv_named = false;
  // What a custom model's config.json says of a quantized checkpoint: its format (the weights
  // when the request names none) and the KV cache vLLM's and SGLang's default (--kv-cache-dtype
  // auto) give it, or "" (static names: a Scenario is copied in many places, and two more
  // strings there cost 1.3 KB of module).
  const char* checkpoint_format = "";
  const char* checkpoint_vllm_kv_cache = "";
  const char* checkpoint_sglang_kv_cache = "";
  int64_t context_tokens = 8192;
  // context_tokens 0 in the request: the engine picks the context (llama-server without -c,
  // Ollama's default by VRAM, vLLM --max-model-len auto); context_tokens then holds the start
  // (the native window, or Ollama's choice) and the evaluation the engine's final choice.
  bool context_auto = false;
  int64_t prompt_tokens = 512;
  int64_t batch = 1;
  int64_t devices = 1;
  int64_t port = 8080;  // for the launch commands
  // Where a custom model came from on the Hugging Face Hub (the page's "fetch by name"), for
  // commands that download it: "owner/name" and a file path in the repository (a GGUF), or "".
  std::string hf_repo;
  std::string hf_file;
  // llama.cpp placement (see MemoryRequest) and the system RAM that holds offloaded parts.
  int64_t gpu_layers = -1;
  int64_t cpu_moe_layers = 0;
  std::vector<int64_t> cpu_expert_layers;  // -ot ...ffn_*_exps=CPU for these layers
  std::vector<double> tensor_split;
  int64_t system_memory_bytes = int64_t{64} << 30;
  double system_memory_bandwidth_bytes_per_s = 76.8e9;  // dual-channel DDR5-4800 (assumption)
  // Between the first device and the host's memory: the request's, else host_link_bytes_per_s.
  double host_link_bytes_per_s = 0;
  Hardware hardware;  // the first device group's device
  // A list of device groups or several machines (request.hardware as a list, or `nodes`); empty:
  // `devices` of `hardware` in one machine.
  std::vector<DeviceGroup> device_groups;
  NetworkLink network;      // between machines (used when there are several)
  ParallelPlan parallel;    // vLLM / SGLang (request.parallel, else the engine's documented layout)

  /// The devices as groups, whichever way the request gave them.
  std::vector<DeviceGroup> groups() const;
  int64_t machines() const;
  /// Replaces the devices with `count` of `device` in each of `machines` machines, with the
  /// engine's layout and its rules for the device (the explore matrix, the rank ladder and the
  /// planner try other devices).
  void use_devices(const Hardware& device, int64_t count, int64_t machines = 1);
  /// The engine settings the request left to a rule of the device (SGLang's
  /// mem_fraction_static, vLLM's batch defaults by GPU class), recomputed for `hardware`.
  void apply_device_defaults();
  /// SGLang's --mem-fraction-static for `model` on these devices and layout when the request
  /// leaves it unset (rank evaluates other models than `model`); else the request's.
  double mem_fraction_for(const ModelSpec& model) const;
  bool mem_fraction_auto = true;
  bool batched_tokens_auto = true;
  bool max_seqs_auto = true;
  EngineSettings engine;
  SpeedAssumptions speed;
};

/// Request limits (issue #11): context up to 10M tokens, up to 1024 sequences (devices: see
/// kMaxDevices).
constexpr int64_t kMaxBatch = 1024;

/// A catalog model's architecture, built once and kept (the pointer stays valid), with its
/// tensor list; nullptr (with issues) if it fails.
const ModelSpec* catalog_model_spec(const std::string& id, Issues& issues);

/// A catalog model's spec for a pass over the whole catalog (rank): the kept spec, built if it
/// is not kept yet, whose tensor list the visit gives back when it ends (catalog_plan, for a
/// format not planned yet, and catalog_model_spec list it again). The lists of all 168 catalog
/// models were 10.6 MB (120,430 tensors of 88 bytes), most of the memory the first rank
/// touched, and this machine spends ~8 us on each 4 KiB page a process touches first: natively,
/// 35 ms of the first rank's 58 were the kernel's (perf stat: 4,159 page faults; issue #22). One
/// model's list at a time reuses the same pages.
class CatalogSpecVisit {
 public:
  CatalogSpecVisit(const std::string& id, Issues& issues);
  ~CatalogSpecVisit();
  CatalogSpecVisit(const CatalogSpecVisit&) = delete;
  CatalogSpecVisit& operator=(const CatalogSpecVisit&) = delete;
  const ModelSpec* spec() const { return spec_; }

 private:
  ModelSpec* spec_ = nullptr;
};

/// Parses and validates a request object. Returns nullopt when an error was recorded.
std::optional<Scenario> resolve_scenario(const nlohmann::json& request, Issues& issues);

/// The resolved scenario as JSON text, with the context the evaluation ran at (the requested
/// one, or the one the engine chose when it picks).
std::string scenario_text(const Scenario& scenario, int64_t context_tokens);

/// The context the engine starts from when the request gives none, for a model of `native`
/// tokens: Ollama's default by the GPUs' memory, the others the native window (which llama.cpp's
/// --fit and vLLM's --max-model-len auto then fit to the memory).
int64_t engine_default_context(const Scenario& scenario, int64_t native);

/// The layout each engine documents for the scenario's devices: vLLM tensor parallel within a
/// machine and pipeline parallel across machines (docs/serving/parallelism_scaling.md), SGLang
/// and the others one tensor-parallel group over every device.
ParallelPlan default_parallel(const Scenario& scenario);

}  // namespace llmcalc
