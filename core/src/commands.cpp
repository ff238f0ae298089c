// Launch commands. Flags as documented by each engine: llama.cpp tools/server/README.md,
// Ollama docs/faq.md and docs/modelfile.md, vLLM "vllm serve" engine arguments, SGLang
// server arguments, mlx-lm SERVER.md.
#include "llmcalc/commands.h"

#include <cctype>
#include <cstdio>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/weights.h"

namespace llmcalc {
namespace {

using Flags = std::vector<std::pair<std::string, std::string>>;

std::string join(const std::string& program, const Flags& flags) {
  std::string out = program;
  for (const auto& [flag, value] : flags) {
    out += " " + flag;
    if (!value.empty()) out += " " + value;
  }
  return out;
}

nlohmann::json flags_json(const Flags& flags) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [flag, value] : flags) out[flag] = value;
  return out;
}

// Shortest form at six significant digits, as printf's %g (what a user would type).
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string record_string(const nlohmann::json& record, const char* key) {
  auto it = record.find(key);
  return it != record.end() && it->is_string() ? it->get<std::string>() : "";
}

// vLLM / SGLang --quantization for checkpoint formats that need one.
std::string server_quantization(const std::string& format) {
  if (format == "AWQ-INT4") return "awq";
  if (format.rfind("GPTQ", 0) == 0) return "gptq";
  if (format == "FP8") return "fp8";
  if (format == "BNB-NF4" || format == "BNB-INT8") return "bitsandbytes";
  return "";
}

}  // namespace

nlohmann::json launch_commands(const Scenario& s) {
  const CatalogModel* entry = Catalog::instance().find_model(s.model_id);
  nlohmann::json record = entry ? entry->record : nlohmann::json::object();
  std::string hf_repo = record_string(record, "hf_repo");
  std::string gguf_repo = record_string(record, "gguf_repo");
  std::string ollama_tag = record_string(record, "ollama_tag");
  std::string model_name = hf_repo.empty() ? "<your-model>" : hf_repo;
  std::string port = std::to_string(s.port);
  std::string ctx = std::to_string(s.context_tokens);
  std::string seqs = std::to_string(s.batch);
  std::string devices = std::to_string(s.devices);
  bool gguf = is_gguf_format(s.weights);
  nlohmann::json out = nlohmann::json::object();

  // llama.cpp: -c is the total across the -np slots, each slot gets c / np.
  {
    Flags flags;
    std::string notes;
    // A repository named after one quantization (e.g. "...-qat-q4_0-gguf") only serves that one.
    std::string repo_lower = gguf_repo;
    for (char& c : repo_lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string weights_lower = s.weights;
    for (char& c : weights_lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool single_quant_repo = false;
    for (const char* quant : {"q4_0", "q8_0", "q4_k_m", "q5_k_m", "q6_k", "bf16", "f16"}) {
      if (repo_lower.find(quant) != std::string::npos && weights_lower != quant) single_quant_repo = true;
    }
    if (!gguf_repo.empty() && gguf && !single_quant_repo) {
      flags.push_back({"-hf", gguf_repo + ":" + s.weights});
    } else {
      flags.push_back({"-m", s.model_id + "-" + s.weights + ".gguf"});
      notes = "No GGUF repository is known for this model: point -m at your " + s.weights +
              " file.";
    }
    flags.push_back({"-c", std::to_string(s.context_tokens * s.batch)});
    flags.push_back({"-np", seqs});
    // -ngl counts the repeating layers plus the output layer; all of them unless offloading.
    flags.push_back({"-ngl", std::to_string(s.gpu_layers < 0 ? s.model.n_layers + 1 : s.gpu_layers)});
    if (s.cpu_moe_layers > 0) flags.push_back({"--n-cpu-moe", std::to_string(s.cpu_moe_layers)});
    flags.push_back({"-fa", s.engine.flash_attention ? "on" : "off"});
    flags.push_back({"-ub", std::to_string(s.engine.ubatch_tokens)});
    if (s.kv_type.name != "f16") {
      std::string type = s.kv_type.name == "fp8" ? "q8_0" : s.kv_type.name;
      flags.push_back({"--cache-type-k", type});
      flags.push_back({"--cache-type-v", type});
      if (s.kv_type.name == "fp8") notes += " llama.cpp has no fp8 KV cache; q8_0 is the closest.";
    }
    if (s.devices > 1) {
      std::string split;
      for (int64_t i = 0; i < s.devices; ++i) {
        if (i > 0) split += ",";
        split += s.tensor_split.empty() ? "1" : number(s.tensor_split[static_cast<std::size_t>(i)]);
      }
      flags.push_back({"-ts", split});
    }
    flags.push_back({"--port", port});
    out["llama.cpp"] = {{"command", join("llama-server", flags)},
                        {"flags", flags_json(flags)},
                        {"notes", notes},
                        {"docs", "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md"}};
  }

  // Ollama: the context per request is num_ctx; the server allocates num_ctx x num_parallel.
  {
    std::string tag = ollama_tag.empty() ? s.model_id : ollama_tag;
    std::string kv = s.kv_type.name == "q8_0" || s.kv_type.name == "q4_0" ? s.kv_type.name : "f16";
    nlohmann::json env = {{"OLLAMA_FLASH_ATTENTION", s.engine.flash_attention ? "1" : "0"},
                          {"OLLAMA_KV_CACHE_TYPE", kv},
                          {"OLLAMA_NUM_PARALLEL", seqs}};
    std::string modelfile = "FROM " + tag + "\nPARAMETER num_ctx " + ctx + "\nPARAMETER num_batch " +
                            std::to_string(s.engine.ubatch_tokens) + "\n";
    std::string env_line = "OLLAMA_FLASH_ATTENTION=" + env["OLLAMA_FLASH_ATTENTION"].get<std::string>() +
                           " OLLAMA_KV_CACHE_TYPE=" + kv + " OLLAMA_NUM_PARALLEL=" + seqs;
    out["ollama"] = {{"command", env_line + " ollama serve & ollama create " + s.model_id +
                                     "-calc -f Modelfile && ollama run " + s.model_id + "-calc"},
                     {"env", env},
                     {"modelfile", modelfile},
                     {"flags", {{"num_ctx", ctx}, {"num_batch", std::to_string(s.engine.ubatch_tokens)}}},
                     {"notes", ollama_tag.empty() ? "No Ollama library tag is known; FROM can name a local GGUF."
                                                  : ""},
                     {"docs", "https://github.com/ollama/ollama/blob/main/docs/faq.md"}};
  }

  // vLLM: max_model_len per request, max_num_seqs concurrent sequences.
  {
    Flags flags = {{"--max-model-len", ctx},
                   {"--gpu-memory-utilization", number(s.engine.gpu_memory_utilization)},
                   {"--tensor-parallel-size", devices},
                   {"--max-num-seqs", seqs},
                   {"--kv-cache-dtype", s.kv_type.name == "fp8" ? "fp8" : "auto"},
                   {"--enable-prefix-caching", ""},
                   {"--port", port}};
    std::string quantization = server_quantization(s.weights);
    if (!quantization.empty()) flags.push_back({"--quantization", quantization});
    std::string command = join("vllm serve " + model_name, flags);
    out["vllm"] = {{"command", command},
                   {"docker", "docker run --gpus all --ipc=host -p " + port + ":" + port +
                                  " vllm/vllm-openai:latest --model " + model_name + " " +
                                  command.substr(std::string("vllm serve " + model_name + " ").size())},
                   {"flags", flags_json(flags)},
                   {"notes", std::string(gguf ? "vLLM serves safetensors checkpoints; pick BF16, FP8, AWQ or GPTQ weights. " : "") +
                                 (s.kv_type.name == "q8_0" || s.kv_type.name == "q4_0" ? "vLLM has no " + s.kv_type.name + " KV cache; fp8 is its 8-bit option." : "")},
                   {"docs", "https://docs.vllm.ai/en/latest/cli/serve.html"}};
  }

  // SGLang.
  {
    Flags flags = {{"--model-path", model_name},
                   {"--context-length", ctx},
                   {"--mem-fraction-static", number(s.engine.mem_fraction_static)},
                   {"--tp", devices},
                   {"--max-running-requests", seqs},
                   {"--kv-cache-dtype", s.kv_type.name == "fp8" ? "fp8_e5m2" : "auto"},
                   {"--port", port}};
    std::string quantization = server_quantization(s.weights);
    if (!quantization.empty()) flags.push_back({"--quantization", quantization});
    out["sglang"] = {{"command", join("python -m sglang.launch_server", flags)},
                     {"flags", flags_json(flags)},
                     {"notes", ""},
                     {"docs", "https://docs.sglang.ai/advanced_features/server_arguments.html"}};
  }

  // MLX-LM: convert to the chosen bit width, then serve.
  {
    // The MLX width closest to the chosen format (MLX quantizes to 2, 3, 4, 6 or 8 bits).
    std::string bits = s.weights.rfind("MLX-", 0) == 0 ? s.weights.substr(4, 1) : "4";
    if (s.weights.rfind("MLX-", 0) != 0) {
      if (s.weights.find("8") != std::string::npos) bits = "8";
      if (s.weights.find("6") != std::string::npos) bits = "6";
      if (s.weights.rfind("Q3", 0) == 0 || s.weights.rfind("IQ3", 0) == 0) bits = "3";
    }
    std::string local = s.model_id + "-mlx-" + bits + "bit";
    Flags flags = {{"--model", local}, {"--port", port}};
    out["mlx"] = {{"command", "mlx_lm.convert --hf-path " + model_name + " -q --q-bits " + bits +
                                  " --mlx-path " + local + " && " + join("mlx_lm.server", flags)},
                  {"flags", flags_json(flags)},
                  {"notes", "mlx_lm.server sizes the KV cache per request; context is not a server flag."},
                  {"docs", "https://github.com/ml-explore/mlx-lm/blob/main/mlx_lm/SERVER.md"}};
  }
  return out;
}

}  // namespace llmcalc
