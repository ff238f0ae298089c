// Request validation and defaults: model (catalog id or inline config), format, KV type, sizes,
// engine, hardware and assumptions.
#include "llmcalc/scenario.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "llmcalc/catalog.h"
#include "llmcalc/engine_support.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/weights.h"
#include "checkpoint_quantization.h"
#include "json_text.h"
#include "ollama_batch.h"
#include "ollama_parallel.h"
#include "published_formats.h"
#include "server_memory.h"
#include "sglang_mem_fraction.h"

namespace llmcalc {
namespace {

const std::set<std::string> kEngines = {"llama.cpp", "ollama", "vllm", "sglang", "mlx",
                                        "transformers"};


// The engine's own defaults where the request leaves a setting out (data/engines.json names the
// release each follows).
void apply_engine_defaults(Scenario& s, bool ubatch_given, std::optional<bool> kv_unified) {
  EngineSettings& e = s.engine;
  if (s.context_auto) s.context_tokens = engine_default_context(s, s.model.max_context_tokens);
  if (e.engine == "ollama") {
    // Ollama always passes -np (OLLAMA_NUM_PARALLEL, default 1), so the cache is per slot.
    e.kv_unified = false;
    e.llama_cpp_build = kOllamaLlamaCppBuild;
    // Without num_batch Ollama starts from a batch by context and steps it down by memory
    // (ollama_batch.cpp), which needs the weights: the memory estimate applies it.
    if (!ubatch_given) e.ubatch_tokens = ollama_context_batch(s.context_tokens * s.batch);
    e.ubatch_auto = !ubatch_given;
  } else if (e.engine == "llama.cpp") {
    // llama-server without -np: 4 slots sharing one unified cache (tools/server, PR #16736);
    // an explicit -np turns it off unless -kvu is given.
    e.kv_unified = kv_unified.value_or(s.batch == 1);
  }
  s.mem_fraction_auto = e.mem_fraction_static <= 0;
  s.batched_tokens_auto = e.max_num_batched_tokens <= 0;
  s.max_seqs_auto = e.max_num_seqs <= 0;
  s.apply_device_defaults();
}

// Catalog configs are fixed, so each spec is built once per process (its tensor list again
// after a CatalogSpecVisit gave it back).
std::map<std::string, ModelSpec>& kept_specs() {
  static std::map<std::string, ModelSpec> specs;
  return specs;
}

std::optional<ModelSpec> build_catalog_model(const std::string& id, Issues& issues) {
  const CatalogModel* entry = Catalog::instance().find_model(id);
  if (!entry) return std::nullopt;
  return build_model(entry->config(), "/model", issues);
}

// The kept spec of `id`, built and kept if it is not yet; nullptr (with issues) if it fails.
ModelSpec* kept_spec(const std::string& id, Issues& issues) {
  auto it = kept_specs().find(id);
  if (it != kept_specs().end()) return &it->second;
  std::optional<ModelSpec> built = build_catalog_model(id, issues);
  return built ? &kept_specs().emplace(id, std::move(*built)).first->second : nullptr;
}

}  // namespace

const ModelSpec* catalog_model_spec(const std::string& id, Issues& issues) {
  ModelSpec* spec = kept_spec(id, issues);
  // Every model has tensors: an empty list is one a visit gave back.
  if (spec && spec->tensors.empty()) {
    std::optional<ModelSpec> built = build_catalog_model(id, issues);
    if (!built) return nullptr;
    spec->tensors = std::move(built->tensors);
  }
  return spec;
}

CatalogSpecVisit::CatalogSpecVisit(const std::string& id, Issues& issues) : spec_(kept_spec(id, issues)) {}

CatalogSpecVisit::~CatalogSpecVisit() {
  if (spec_) spec_->tensors = std::vector<TensorSpec>();
}

namespace {

bool resolve_model(const nlohmann::json& request, Scenario& s, Issues& issues) {
  auto it = request.find("model");
  if (it == request.end() || it->is_null()) {
    s.model_id = "llama-3.1-8b";
  } else if (it->is_string()) {
    s.model_id = it->get<std::string>();
  } else if (it->is_object()) {
    s.model_id = "custom";
    s.model_name = "Custom model";
    auto built = build_model(*it, "/model", issues);
    if (!built) return false;
    s.model = std::move(*built);
    CheckpointQuantization quantization = checkpoint_quantization(*it);
    s.checkpoint_format = quantization.format;
    s.checkpoint_vllm_kv_cache = quantization.kv_cache;
    s.checkpoint_sglang_kv_cache = quantization.sglang_kv_cache;
    if (*s.checkpoint_format) s.weights = s.checkpoint_format;
    return true;
  } else {
    issues.error("bad_model", "/model", "model must be a catalog id or a config.json object.");
    return false;
  }
  const CatalogModel* entry = Catalog::instance().find_model(s.model_id);
  if (!entry) {
    issues.error("unknown_model", "/model",
                 "No model with id '" + s.model_id.substr(0, 60) + "' in the catalog.");
    return false;
  }
  s.model_name = entry->record().value("name", s.model_id);
  const ModelSpec* built = catalog_model_spec(s.model_id, issues);
  if (!built) return false;
  s.model = *built;
  return true;
}

// A Hub repository id: owner/name, each 1-96 of [A-Za-z0-9._-], not starting with . or -.
bool valid_repo_id(const std::string& id) {
  std::size_t slash = id.find('/');
  if (slash == std::string::npos || id.find('/', slash + 1) != std::string::npos) return false;
  auto part_ok = [](const std::string& part) {
    if (part.empty() || part.size() > 96 || part[0] == '.' || part[0] == '-') return false;
    return std::all_of(part.begin(), part.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
  };
  return part_ok(id.substr(0, slash)) && part_ok(id.substr(slash + 1));
}

// A file path inside a repository: [A-Za-z0-9._+/-], no empty or dot-dot segment. The path ends
// up in a shell command, so nothing else is let through.
bool valid_repo_path(const std::string& path) {
  if (path.empty() || path.front() == '/' || path.back() == '/' || path.find("//") != std::string::npos ||
      path.find("..") != std::string::npos) {
    return false;
  }
  return std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-' || c == '/';
  });
}

// A format the model's repositories publish with a size but llama.cpp has no file type for
// (unsloth Dynamic): its tensors follow the base type's rules, scaled to the published file
// (made with an importance matrix, as unsloth's are).
void apply_published_format(Scenario& s, Issues& issues) {
  const CatalogModel* entry = Catalog::instance().find_model(s.model_id);
  if (!entry || rules_format_for(s.weights).empty()) return;
  std::optional<PublishedFormat> published = published_format(entry->record(), s.weights);
  if (!published) {
    issues.error("unpublished_format", "/weights",
                 s.weights.substr(0, 32) + " is sized from a published file, and none is known for this model.");
    return;
  }
  s.weights_rules = published->rules;
  s.imatrix = true;
  if (s.weights_bytes == 0) s.weights_bytes = published->file_bytes;
  std::string bytes = std::to_string(published->file_bytes);
  issues.warning("published_size", "/weights",
                 say(s.lang, s.weights + " is sized from the file size " + published->repo + " publishes (" + bytes +
                                 " bytes); its tensors are placed by " + published->rules + "'s rules.",
                     s.weights + " se mide por el tamaño de archivo que publica " + published->repo + " (" + bytes +
                         " bytes); sus tensores se reparten con las reglas de " + published->rules + "."));
}

// hf_repo / hf_file: where a custom model was fetched from (only meaningful with a config object).
void read_hub_source(JsonReader& reader, const nlohmann::json& request, Scenario& s, Issues& issues) {
  if (request.contains("hf_repo") && !request.at("hf_repo").is_null()) {
    std::string repo = reader.string("hf_repo", 200, std::string()).value_or("");
    if (!valid_repo_id(repo)) {
      issues.error("bad_hf_repo", "/hf_repo", "hf_repo must be a Hugging Face repository id, owner/name.");
    } else {
      s.hf_repo = repo;
    }
  }
  if (request.contains("hf_file") && !request.at("hf_file").is_null()) {
    std::string file = reader.string("hf_file", 256, std::string()).value_or("");
    if (!valid_repo_path(file)) {
      issues.error("bad_hf_file", "/hf_file", "hf_file must be a file path inside the repository.");
    } else if (s.hf_repo.empty()) {
      issues.error("hf_file_without_repo", "/hf_file", "hf_file needs hf_repo.");
    } else {
      s.hf_file = file;
    }
  }
}

// Several machines: the list's `node` fields, or `nodes` copies of one machine of `devices`
// devices; and the network between them (request.network, else default_network).
void read_machines(JsonReader& reader, const nlohmann::json& request, bool listed,
                   std::vector<DeviceGroup>& groups, Scenario& s, Issues& issues) {
  int64_t nodes = reader.integer("nodes", 1, kMaxNodes, 1).value_or(1);
  if (listed) {
    if (reader.has("devices")) {
      issues.warning("devices_from_list", "/devices",
                     say(s.lang, "The hardware list's counts give the devices; devices is ignored.",
                         "Los dispositivos salen de las cantidades de la lista de hardware; devices no se tiene en cuenta."));
    }
    if (nodes > 1) {
      issues.error("nodes_with_list", "/nodes", "A hardware list names each group's machine with \"node\"; leave nodes out.");
      return;
    }
  }
  for (int64_t node = 1; node < nodes; ++node) groups.push_back({groups.front().device, s.devices, node});
  s.devices = 0;
  int64_t last_node = 0;
  for (const DeviceGroup& group : groups) {
    s.devices += group.count;
    last_node = std::max(last_node, group.node);
  }
  if (s.devices > kMaxDevices) {
    issues.error("too_many_devices", "/nodes", "At most " + std::to_string(kMaxDevices) + " devices in all.");
    return;
  }
  if (groups.size() > 1) s.device_groups = groups;
  auto network = request.find("network");
  if (network != request.end() && !network->is_null()) {
    if (std::optional<NetworkLink> link = resolve_network(*network, "/network", issues)) s.network = *link;
  } else {
    s.network = default_network(groups.front().device);
  }
  if (last_node == 0 && network != request.end() && !network->is_null()) {
    issues.warning("network_one_machine", "/network",
                   say(s.lang, "One machine: the network is not used.", "Una sola máquina: la red no se usa."));
  }
}

// request.parallel, else default_parallel.
bool read_parallel(const nlohmann::json& request, Scenario& s, Issues& issues) {
  ParallelPlan& p = s.parallel;
  p = default_parallel(s);
  auto it = request.find("parallel");
  if (it == request.end() || it->is_null()) return true;
  JsonReader reader(*it, "/parallel", issues);
  if (!reader.valid()) return false;
  auto tensor = reader.integer("tensor", 1, kMaxDevices, 1);
  auto pipeline = reader.integer("pipeline", 1, kMaxDevices, 1);
  auto data = reader.integer("data", 1, kMaxDevices, 1);
  auto expert = reader.boolean("expert", false);
  if (!tensor || !pipeline || !data || !expert) return false;
  reader.warn_unread();
  p = ParallelPlan{*tensor, *pipeline, *data, *expert};
  if (p.ranks() != s.devices) {
    issues.error("bad_parallel", "/parallel",
                 "tensor x pipeline x data must equal the " + std::to_string(s.devices) + " devices.");
    return false;
  }
  return true;
}

// Every key a request may carry at its top level (README, "JSON contract"); explore, plan and
// rank take their own key ("sections", "plan", "min_bits") off before the scenario is read.
const std::set<std::string> kRequestKeys = {
    "model", "lang", "weights", "imatrix", "weights_bytes", "weights_include_mtp", "hf_repo", "hf_file",
    "kv_cache", "context_tokens", "prompt_tokens", "batch", "engine", "hardware", "devices", "nodes",
    "network", "parallel", "flash_attention", "ubatch", "port", "gpu_layers", "cpu_moe_layers",
    "tensor_split", "cpu_expert_layers", "system_memory_bytes", "system_memory_bandwidth_bytes_per_s", "host_link_bytes_per_s",
    "fit", "fit_target_bytes", "fit_min_context", "kv_unified", "llama_cpp_build", "cache_ram_bytes", "mmproj", "mtp",
    "mtp_draft_tokens", "mamba_ssm_dtype", "max_mamba_cache_size", "prefix_caching", "gpu_memory_utilization", "max_num_batched_tokens", "max_num_seqs",
    "kv_cache_memory_bytes", "mem_fraction_static", "assumptions", "cost", "finetune"};

// Raises `code` at `path` with the note of the first device group that has one (`note` gives ""
// for a device without): engine limits and engine notes are said once, whatever the devices.
void warn_for_first_device(const Scenario& s, Issues& issues, const char* code, const char* path,
                           std::string (*note)(const Scenario&, const Hardware&)) {
  for (const DeviceGroup& group : s.groups()) {
    std::string text = note(s, group.device);
    if (!text.empty()) {
      issues.warning(code, path, text);
      return;
    }
  }
}

}  // namespace

std::optional<Scenario> resolve_scenario(const nlohmann::json& request, Issues& issues) {
  JsonReader reader(request, "", issues);
  if (!reader.valid()) return std::nullopt;
  Scenario s;
  std::string lang = reader.string("lang", 8, std::string("en")).value_or("en");
  if (lang == "es") {
    s.lang = Language::es;
    issues.language = Language::es;
  } else if (lang != "en") {
    issues.error("unknown_language", "/lang", "lang must be en or es.");
  }
  reader.warn_unread(kRequestKeys);
  bool model_ok = resolve_model(request, s, issues);

  s.weights = reader.string("weights", 32, s.weights).value_or(s.weights);
  s.imatrix = reader.boolean("imatrix", false).value_or(false);
  s.weights_bytes = reader.integer("weights_bytes", 0, int64_t{1} << 52, 0).value_or(0);
  s.weights_include_mtp = reader.boolean("weights_include_mtp", false).value_or(false);
  s.weights_bytes_format = s.weights;
  if (model_ok) apply_published_format(s, issues);
  // A catalog model whose published GGUF files carry the MTP layers as blocks: they take a slot
  // of llama.cpp's layer split and Ollama's file size.
  if (const CatalogModel* entry = model_ok ? Catalog::instance().find_model(s.model_id) : nullptr) {
    s.gguf_holds_mtp = entry->gguf_holds_mtp();
  }
  s.context_tokens = reader.integer("context_tokens", 0, kMaxContextTokens, s.context_tokens)
                         .value_or(s.context_tokens);
  s.context_auto = s.context_tokens == 0;
  bool prompt_given = request.contains("prompt_tokens") && !request.at("prompt_tokens").is_null();
  s.prompt_tokens = reader.integer("prompt_tokens", 1, kMaxContextTokens, 512).value_or(s.prompt_tokens);
  s.batch = reader.integer("batch", 1, kMaxBatch, 1).value_or(1);
  s.devices = reader.integer("devices", 1, kMaxDevices, 1).value_or(1);
  s.port = reader.integer("port", 1, 65535, 8080).value_or(8080);
  read_hub_source(reader, request, s, issues);
  s.gpu_layers = reader.integer("gpu_layers", -1, kMaxLayers + 1, -1).value_or(-1);
  s.cpu_moe_layers = reader.integer("cpu_moe_layers", 0, kMaxLayers, 0).value_or(0);
  if (auto list = request.find("cpu_expert_layers"); list != request.end() && !list->is_null()) {
    bool valid = list->is_array() && list->size() <= static_cast<std::size_t>(kMaxLayers);
    for (const auto& value : valid ? *list : nlohmann::json::array()) {
      valid = valid && value.is_number_integer() && value.get<int64_t>() >= 0 && value.get<int64_t>() < kMaxLayers;
      if (valid) s.cpu_expert_layers.push_back(value.get<int64_t>());
    }
    if (!valid) {
      issues.error("bad_cpu_expert_layers", "/cpu_expert_layers", "cpu_expert_layers must list layer numbers from 0.");
      s.cpu_expert_layers.clear();
    }
  }
  s.system_memory_bytes = static_cast<int64_t>(
      reader.number("system_memory_bytes", 0, 1e15, static_cast<double>(s.system_memory_bytes))
          .value_or(static_cast<double>(s.system_memory_bytes)));
  s.system_memory_bandwidth_bytes_per_s =
      reader.number("system_memory_bandwidth_bytes_per_s", 1e8, 1e13, s.system_memory_bandwidth_bytes_per_s)
          .value_or(s.system_memory_bandwidth_bytes_per_s);
  if (auto split = request.find("tensor_split"); split != request.end() && !split->is_null()) {
    bool valid = split->is_array() && !split->empty() && split->size() <= static_cast<std::size_t>(kMaxDevices);
    for (const auto& value : valid ? *split : nlohmann::json::array()) {
      valid = valid && value.is_number() && value.get<double>() >= 0 && value.get<double>() < 1e6;
      if (valid) s.tensor_split.push_back(value.get<double>());
    }
    double sum = 0;
    for (double v : s.tensor_split) sum += v;
    if (!valid || sum <= 0) {
      issues.error("bad_tensor_split", "/tensor_split",
                   "tensor_split must list one non-negative share per device, not all zero.");
      s.tensor_split.clear();
    }
  }
  s.engine.engine = reader.string("engine", 16, std::string("llama.cpp")).value_or("llama.cpp");
  if (!kEngines.count(s.engine.engine)) {
    issues.error("unknown_engine", "/engine",
                 "engine must be llama.cpp, ollama, vllm, sglang, mlx or transformers.");
  }
  // vLLM's and SGLang's --kv-cache-dtype auto take the cache type a quantized checkpoint declares
  // (checkpoint_quantization.cpp); a request naming kv_cache is the explicit flag, "auto" (or
  // none) the engine's default.
  const char* declared_kv = s.engine.engine == "vllm"     ? s.checkpoint_vllm_kv_cache
                            : s.engine.engine == "sglang" ? s.checkpoint_sglang_kv_cache
                                                          : "";
  const char* kv_default = *declared_kv ? declared_kv : "f16";
  std::string kv_name = reader.string("kv_cache", 16, std::string(kv_default)).value_or(kv_default);
  s.kv_named = request.contains("kv_cache") && !request.at("kv_cache").is_null() && kv_name != "auto";
  if (!s.kv_named) kv_name = kv_default;
  if (auto kv = find_kv_type(kv_name)) {
    s.kv_type = *kv;
  } else {
    issues.error("unknown_kv_type", "/kv_cache", "kv_cache must be auto, f16, bf16, fp8, q8_0 or q4_0.");
  }
  s.engine.flash_attention = reader.boolean("flash_attention", true).value_or(true);
  bool ubatch_given = request.contains("ubatch") && !request.at("ubatch").is_null();
  s.engine.ubatch_tokens = reader.integer("ubatch", 1, 65536, 512).value_or(512);
  s.engine.gpu_memory_utilization =
      reader.number("gpu_memory_utilization", 0.05, 1.0, s.engine.gpu_memory_utilization)
          .value_or(s.engine.gpu_memory_utilization);
  s.engine.mem_fraction_static =
      reader.number("mem_fraction_static", 0, 1.0, 0).value_or(0);
  s.engine.max_num_batched_tokens =
      reader.integer("max_num_batched_tokens", 0, kMaxContextTokens, 0).value_or(0);
  s.engine.max_num_seqs = reader.integer("max_num_seqs", 0, 65536, 0).value_or(0);
  s.engine.kv_cache_memory_bytes = static_cast<int64_t>(
      reader.number("kv_cache_memory_bytes", 0, 1e15, 0).value_or(0));
  // The user's llama.cpp build number (llama-server --version); later builds than the newest
  // followed get its rules.
  s.engine.llama_cpp_build = reader.integer("llama_cpp_build", 1, 999999, kLlamaCppNewestBuild)
                                 .value_or(kLlamaCppNewestBuild);
  s.engine.fit = reader.boolean("fit", true).value_or(true);
  s.engine.fit_target_bytes = static_cast<int64_t>(
      reader.number("fit_target_bytes", 0, 1e13, static_cast<double>(s.engine.fit_target_bytes))
          .value_or(static_cast<double>(s.engine.fit_target_bytes)));
  s.engine.fit_min_context_tokens =
      reader.integer("fit_min_context", 256, kMaxContextTokens, s.engine.fit_min_context_tokens)
          .value_or(s.engine.fit_min_context_tokens);
  s.engine.cache_ram_bytes = static_cast<int64_t>(
      reader.number("cache_ram_bytes", 0, 1e13, static_cast<double>(s.engine.cache_ram_bytes))
          .value_or(static_cast<double>(s.engine.cache_ram_bytes)));
  s.engine.mmproj = reader.boolean("mmproj", true).value_or(true);
  s.engine.mtp = reader.boolean("mtp", false).value_or(false);
  s.engine.prefix_caching = reader.boolean("prefix_caching", true).value_or(true);
  s.engine.mtp_draft_tokens = reader.integer("mtp_draft_tokens", 1, 16, 2).value_or(2);
  const std::string ssm_dtype = reader.string("mamba_ssm_dtype", 16, std::string("float32")).value_or("float32");
  s.engine.ssm_state_bf16 = ssm_dtype == "bfloat16";
  s.engine.max_mamba_cache_size = reader.integer("max_mamba_cache_size", 0, 1 << 20, 0).value_or(0);
  if (!s.engine.ssm_state_bf16 && ssm_dtype != "float32") {
    issues.error("unknown_ssm_dtype", "/mamba_ssm_dtype", "mamba_ssm_dtype must be float32 or bfloat16.");
  }
  std::optional<bool> kv_unified = request.contains("kv_unified") && !request.at("kv_unified").is_null()
                                       ? reader.boolean("kv_unified", false)
                                       : std::nullopt;

  auto hardware_it = request.find("hardware");
  nlohmann::json default_hardware = "rtx-4090";
  const nlohmann::json& hardware_value =
      hardware_it == request.end() || hardware_it->is_null() ? default_hardware : *hardware_it;
  std::optional<std::vector<DeviceGroup>> groups =
      resolve_device_groups(hardware_value, "/hardware", s.devices, issues);
  std::optional<Hardware> hardware;
  if (groups) {
    hardware = groups->front().device;
    read_machines(reader, request, hardware_value.is_array(), *groups, s, issues);
  }
  if (hardware) s.hardware = *hardware;
  const double device_host_link = host_link_bytes_per_s(s.hardware);
  s.host_link_bytes_per_s =
      reader.number("host_link_bytes_per_s", 1e8, 1e12, device_host_link).value_or(device_host_link);

  s.speed = default_speed_assumptions(speed_calibration_key(s.hardware), s.engine.engine);
  if (const nlohmann::json* assumptions = reader.object("assumptions")) {
    JsonReader a(*assumptions, "/assumptions", issues);
    s.speed.bandwidth_efficiency =
        a.number("bandwidth_efficiency", 0.01, 1.0, s.speed.bandwidth_efficiency).value_or(0.7);
    s.speed.compute_efficiency =
        a.number("compute_efficiency", 0.01, 1.0, s.speed.compute_efficiency).value_or(0.5);
    s.speed.quantized_compute_efficiency =
        a.number("quantized_compute_efficiency", 0.01, 1.0, s.speed.quantized_compute_efficiency)
            .value_or(0.3);
    s.speed.attention_compute_efficiency =
        a.number("attention_compute_efficiency", 0.01, 1.0, s.speed.attention_compute_efficiency)
            .value_or(0.3);
    s.speed.per_layer_overhead_s =
        a.number("per_layer_overhead_s", 0, 0.01, s.speed.per_layer_overhead_s).value_or(0.0);
    s.speed.per_moe_layer_overhead_s =
        a.number("per_moe_layer_overhead_s", 0, 0.01, s.speed.per_moe_layer_overhead_s).value_or(0.0);
    s.speed.mtp_acceptance = a.number("mtp_acceptance", 0, 0.99, s.speed.mtp_acceptance).value_or(0.55);
    s.engine.comfortable_fraction =
        a.number("comfortable_fraction", 0.5, 1.0, s.engine.comfortable_fraction).value_or(0.9);
    s.engine.unified_memory_fraction =
        a.number("unified_memory_fraction", 0.1, 1.0, 0.0).value_or(0.0);
    s.engine.reserved_bytes = static_cast<int64_t>(
        a.number("reserved_bytes", 0, 1e12, static_cast<double>(s.engine.reserved_bytes))
            .value_or(0));
    a.warn_unread();
  }
  if (issues.has_errors() || !model_ok || !hardware) return std::nullopt;

  if (!read_parallel(request, s, issues)) return std::nullopt;
  if (s.engine.engine == "ollama" && s.batch > 1 && ollama_forces_one_sequence(s.model)) {
    issues.warning("ollama_parallel_one", "/batch",
                   say(s.lang,
                       "Ollama serves this model's architecture one request at a time whatever OLLAMA_NUM_PARALLEL "
                       "says: the figures are for 1 sequence, not " + std::to_string(s.batch) + ".",
                       "Ollama atiende las peticiones a la arquitectura de este modelo de una en una, diga lo que "
                       "diga OLLAMA_NUM_PARALLEL: las cifras son para 1 secuencia, no " + std::to_string(s.batch) + "."));
    s.batch = 1;
  }
  apply_engine_defaults(s, ubatch_given, kv_unified);
  if (!prompt_given) s.prompt_tokens = std::min<int64_t>(512, s.context_tokens);

  if (!s.tensor_split.empty() && static_cast<int64_t>(s.tensor_split.size()) != s.devices) {
    issues.error("bad_tensor_split", "/tensor_split", "tensor_split needs one share per device.");
    return std::nullopt;
  }
  warn_for_first_device(s, issues, "engine_cannot_run", "/engine", [](const Scenario& sc, const Hardware& device) {
    std::string limit = engine_limit(sc.engine.engine, device, sc.rules_format(), sc.lang);
    return limit.empty() ? limit
                         : limit + say(sc.lang, " The figures follow the engine's rules all the same.",
                                       " Las cifras siguen igualmente las reglas del motor.");
  });
  warn_for_first_device(s, issues, "ollama_mlx_runner", "/engine", [](const Scenario& sc, const Hardware& device) {
    return ollama_mlx_runner_note(sc.engine.engine, device, sc.model.model_type, sc.lang);
  });
  warn_for_first_device(s, issues, "server_speed_rocm", "/engine", [](const Scenario& sc, const Hardware& device) {
    return server_speed_rocm_note(sc.engine.engine, device, sc.lang);
  });
  warn_for_first_device(s, issues, "metal_batched_decode", "/batch", [](const Scenario& sc, const Hardware& device) {
    return metal_batched_decode_note(sc.engine.engine, device, sc.batch, sc.lang);
  });
  if (s.engine.mtp && s.model.mtp_layers == 0) {
    issues.warning("no_mtp_layers", "/mtp",
                   say(s.lang, "This model ships no MTP layers; MTP drafting is ignored.",
                       "Este modelo no trae capas MTP; el borrador MTP no se tiene en cuenta."));
    s.engine.mtp = false;
  }
  // llama-server's --spec-type draft-mtp, vLLM's method "mtp" and SGLang's EAGLE are the drafting
  // modelled; the other engines' commands carry none, so neither do their memory and speed.
  if (s.engine.mtp && s.engine.engine != "llama.cpp" && s.engine.engine != "vllm" && s.engine.engine != "sglang") {
    issues.warning("mtp_not_modelled", "/mtp",
                   say(s.lang, "Under " + s.engine.engine + " MTP drafting is ignored.",
                       "Con " + s.engine.engine + " el borrador MTP no se tiene en cuenta."));
    s.engine.mtp = false;
  }
  if (s.context_tokens > s.model.max_context_tokens) {
    std::string native = std::to_string(s.model.max_context_tokens);
    issues.warning("context_above_native", "/context_tokens",
                   say(s.lang, "Context is above the model's native maximum of " + native + " tokens.",
                       "El contexto supera el máximo nativo del modelo, " + native + " tokens."));
  }
  if (s.prompt_tokens > s.context_tokens) {
    issues.warning("prompt_above_context", "/prompt_tokens",
                   say(s.lang, "The prompt is longer than the context; it is treated as the context.",
                       "El prompt es más largo que el contexto; se toma como el contexto."));
    s.prompt_tokens = s.context_tokens;
  }
  return s;
}

std::vector<DeviceGroup> Scenario::groups() const {
  if (!device_groups.empty()) return device_groups;
  return {{hardware, devices, 0}};
}

int64_t Scenario::machines() const {
  int64_t last = 0;
  for (const DeviceGroup& group : device_groups) last = std::max(last, group.node);
  return last + 1;
}

void Scenario::use_devices(const Hardware& device, int64_t count, int64_t machines) {
  hardware = device;
  devices = count * machines;
  device_groups.clear();
  for (int64_t node = 0; machines > 1 && node < machines; ++node) device_groups.push_back({device, count, node});
  parallel = default_parallel(*this);
  apply_device_defaults();
}

void Scenario::apply_device_defaults() {
  EngineSettings& e = engine;
  if (e.engine == "sglang") e.mem_fraction_static = mem_fraction_for(model);
  if (batched_tokens_auto) e.max_num_batched_tokens = vllm_default_batched_tokens(hardware);
  // SGLang's --max-running-requests is the request's max_num_seqs when given, else its own rule.
  if (max_seqs_auto) e.max_num_seqs = e.engine == "sglang" ? 0 : vllm_default_max_seqs(hardware);
}

double Scenario::mem_fraction_for(const ModelSpec& spec) const {
  return mem_fraction_auto ? sglang_default_mem_fraction(spec, hardware, parallel)
                           : engine.mem_fraction_static;
}

// Ollama's default context by the GPUs' memory (server/sched.go at v0.32.15, to v0.34.x): 256K from 47 GiB,
// 32K from 23 GiB, else 4K; never above the model's trained context.
int64_t engine_default_context(const Scenario& s, int64_t native) {
  if (s.engine.engine != "ollama") return native;
  int64_t memory = 0;
  for (const DeviceGroup& group : s.groups()) memory += group.device.memory_bytes * group.count;
  int64_t context = memory >= 47 * kGiB ? 262144 : memory >= 23 * kGiB ? 32768 : 4096;
  return std::min(context, native);
}

ParallelPlan default_parallel(const Scenario& s) {
  int64_t machines = s.machines();
  if (s.engine.engine == "vllm" && machines > 1 && s.devices % machines == 0) {
    return ParallelPlan{s.devices / machines, machines, 1, false};
  }
  return ParallelPlan{s.devices, 1, 1, false};
}

namespace {

nlohmann::json groups_json(const std::vector<DeviceGroup>& groups) {
  nlohmann::json out = nlohmann::json::array();
  for (const DeviceGroup& group : groups) {
    out.push_back({{"device", group.device.id}, {"count", group.count}, {"node", group.node}});
  }
  return out;
}

}  // namespace

std::string scenario_text(const Scenario& s, int64_t context_tokens) {
  std::string out;
  {  // the object closes at the end of the block
    JsonObjectText o(out);
    {
      JsonObjectText assumptions(o.key("assumptions"));
      assumptions.number("attention_compute_efficiency", s.speed.attention_compute_efficiency);
      assumptions.number("bandwidth_efficiency", s.speed.bandwidth_efficiency);
      assumptions.number("comfortable_fraction", s.engine.comfortable_fraction);
      assumptions.number("compute_efficiency", s.speed.compute_efficiency);
      assumptions.number("mtp_acceptance", s.speed.mtp_acceptance);
      assumptions.number("per_layer_overhead_s", s.speed.per_layer_overhead_s);
      assumptions.number("per_moe_layer_overhead_s", s.speed.per_moe_layer_overhead_s);
      assumptions.number("quantized_compute_efficiency", s.speed.quantized_compute_efficiency);
      assumptions.integer("reserved_bytes", s.engine.reserved_bytes);
      assumptions.number("unified_memory_fraction", s.engine.unified_memory_fraction);
    }
    o.integer("batch", s.batch);
    o.integer("cache_ram_bytes", s.engine.cache_ram_bytes);
    o.string("checkpoint_format", s.checkpoint_format);
    o.boolean("context_auto", s.context_auto);
    o.integer("context_tokens", context_tokens);
    o.integers("cpu_expert_layers", s.cpu_expert_layers);
    o.integer("cpu_moe_layers", s.cpu_moe_layers);
    o.document("device_groups", groups_json(s.device_groups));
    o.integer("devices", s.devices);
    o.string("engine", s.engine.engine);
    o.boolean("fit", s.engine.fit);
    o.integer("fit_min_context", s.engine.fit_min_context_tokens);
    o.integer("fit_target_bytes", s.engine.fit_target_bytes);
    o.boolean("flash_attention", s.engine.flash_attention);
    o.integer("gpu_layers", s.gpu_layers);
    o.number("gpu_memory_utilization", s.engine.gpu_memory_utilization);
    o.string("hardware", s.hardware.id);
    o.string("hf_file", s.hf_file);
    o.string("hf_repo", s.hf_repo);
    o.number("host_link_bytes_per_s", s.host_link_bytes_per_s);
    o.boolean("imatrix", s.imatrix);
    o.string("kv_cache", s.kv_type.name);
    o.boolean("kv_unified", s.engine.kv_unified);
    o.integer("llama_cpp_build", s.engine.llama_cpp_build);
    o.string("mamba_ssm_dtype", s.engine.ssm_state_bf16 ? "bfloat16" : "float32");
    o.integer("max_mamba_cache_size", s.engine.max_mamba_cache_size);
    o.integer("max_num_batched_tokens", s.engine.max_num_batched_tokens);
    o.integer("max_num_seqs", s.engine.max_num_seqs);
    o.number("mem_fraction_static", s.engine.mem_fraction_static);
    o.boolean("mmproj", s.engine.mmproj);
    o.string("model", s.model_id);
    o.boolean("mtp", s.engine.mtp);
    o.integer("mtp_draft_tokens", s.engine.mtp_draft_tokens);
    o.document("network", s.machines() > 1 ? network_json(s.network) : nlohmann::json(nullptr));
    {
      JsonObjectText parallel(o.key("parallel"));
      parallel.integer("data", s.parallel.data);
      parallel.boolean("expert", s.parallel.expert);
      parallel.integer("pipeline", s.parallel.pipeline);
      parallel.integer("tensor", s.parallel.tensor);
    }
    o.integer("port", s.port);
    o.boolean("prefix_caching", s.engine.prefix_caching);
    o.integer("prompt_tokens", s.prompt_tokens);
    o.number("system_memory_bandwidth_bytes_per_s", s.system_memory_bandwidth_bytes_per_s);
    o.integer("system_memory_bytes", s.system_memory_bytes);
    o.numbers("tensor_split", s.tensor_split);
    o.integer("ubatch", s.engine.ubatch_tokens);
    o.string("weights", s.weights);
    o.integer("weights_bytes", s.weights_bytes);
    o.boolean("weights_include_mtp", s.weights_include_mtp);
  }
  return out;
}

}  // namespace llmcalc
