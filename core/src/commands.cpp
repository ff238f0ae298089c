// Launch commands. Flags as documented by each engine: llama.cpp tools/server/README.md,
// Ollama docs/faq.md and docs/modelfile.md, vLLM "vllm serve" engine arguments, SGLang
// server arguments, mlx-lm SERVER.md.
#include "llmcalc/commands.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/engine_support.h"
#include "llmcalc/weights.h"
#include "checkpoint_formats.h"
#include "mistral_params.h"
#include "node_commands.h"
#include "published_formats.h"

namespace llmcalc {
namespace {


nlohmann::json flags_json(const Flags& flags) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [flag, value] : flags) out[flag] = value;
  return out;
}

// printf's %g (what a user would type): six significant digits, trailing zeros dropped, the
// exponent form below 1e-4 and from 1e6 (C11 7.21.6.1), written here because printf's formatter
// was 8 KB of the module's code for this one call (issue #22). The value is scaled by powers of
// ten into six integer digits and rounded; `exponent` is its decimal exponent.
std::string number(double value) {
  double magnitude = std::fabs(value);
  if (!(magnitude > 0) || magnitude > 1e300) return magnitude > 0 ? "inf" : "0";
  double up = 1;
  double down = 1;
  int exponent = 5;
  for (; magnitude * up < 1e5; up *= 10) --exponent;
  for (; magnitude / down >= 1e6; down *= 10) ++exponent;
  auto digits = static_cast<int64_t>(std::round(magnitude * up / down));
  if (digits >= 1000000) {
    digits /= 10;
    ++exponent;
  }
  std::string d = std::to_string(digits);
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  std::string text = value < 0 ? "-" : "";
  if (exponent < -4 || exponent >= 6) {
    std::string power = std::to_string(std::abs(exponent));
    text += d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") + (exponent < 0 ? "e-" : "e+") +
            (power.size() < 2 ? "0" : "") + power;
  } else if (exponent < 0) {
    text += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + d;
  } else {
    auto whole = static_cast<std::size_t>(exponent) + 1;
    if (d.size() < whole) d.append(whole - d.size(), '0');
    text += d.substr(0, whole) + (d.size() > whole ? "." + d.substr(whole) : "");
  }
  return text;
}

std::string record_string(const nlohmann::json& record, const char* key) {
  auto it = record.find(key);
  return it != record.end() && it->is_string() ? it->get<std::string>() : "";
}

// A GGUF file type that names no checkpoint format as well (BF16 names both): vLLM's command
// then asks for checkpoint weights instead.
bool gguf_file_only(const std::string& format) {
  if (!is_gguf_format(format)) return false;
  for (const CheckpointFormat& f : checkpoint_formats()) {
    if (f.id == format) return false;
  }
  return true;
}

// A format the server cannot make from the BF16 checkpoint as it loads it (FP8 and bitsandbytes
// it can): the command needs a repository already in that format.
bool needs_prequantized(const std::string& format) {
  return format == "AWQ-INT4" || format.rfind("GPTQ", 0) == 0 || format == "NVFP4";
}

// vLLM's and SGLang's note for such a format: the command's repository is the BF16 one.
std::string prequantized_note(const Scenario& s, const std::string& model_name) {
  if (!needs_prequantized(s.weights) || s.checkpoint_format == s.weights) return "";
  return say(s.lang, "Serve a checkpoint already quantized to " + s.weights + " (its repository in place of " + model_name + "). ",
             "Sirve un checkpoint ya cuantizado a " + s.weights + " (su repositorio en lugar de " + model_name + "). ");
}

// Whether a 16-bit cache is asked of a checkpoint declaring the cache type `declared` (vLLM's or
// SGLang's, Scenario): the engine's --kv-cache-dtype auto would take the declared one instead.
bool overrides_declared_kv(const Scenario& s, const char* declared) {
  return s.kv_named && *declared && (s.kv_type.name == "f16" || s.kv_type.name == "bf16");
}

// vLLM's and SGLang's note for a 16-bit cache asked of a checkpoint that declares its own.
const char* declared_kv_note(Language lang) {
  return lang == Language::es ? "Sin esta opción el servidor usa el tipo de caché KV que declara el checkpoint."
                              : "Without this flag the server uses the KV cache type the checkpoint declares.";
}

// vLLM / SGLang --quantization for checkpoint formats that need one; none for a checkpoint whose
// config.json names its own (the servers read it there and refuse a --quantization that differs).
std::string server_quantization(const Scenario& s) {
  if (s.checkpoint_format == s.weights) return "";
  const std::string& format = s.weights;
  if (format == "AWQ-INT4") return "awq";
  if (format.rfind("GPTQ", 0) == 0) return "gptq";
  if (format == "FP8") return "fp8";
  if (format == "NVFP4") return "modelopt_fp4";
  if (format == "BNB-NF4" || format == "BNB-INT8") return "bitsandbytes";
  return "";
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// An engine's entry: the command, its flags, notes and documentation, moved in (an initializer
// list copies every part, a twentieth of an estimate).
nlohmann::json command_entry(std::string command, nlohmann::json flags, std::string notes, const char* docs) {
  nlohmann::json entry = nlohmann::json::object();
  entry["command"] = std::move(command);
  entry["docs"] = docs;
  entry["flags"] = std::move(flags);
  entry["notes"] = std::move(notes);
  return entry;
}

// A published repository for a launch command: its id, whether its file list shows the chosen
// quantization, and the checkpoint it holds when that differs (an Instruct upload of a base
// model: same architecture, same figures).
struct PublishedRepo {
  std::string repo;
  bool listed = false;
  std::string variant;
  std::string quant;  // the tag -hf and Ollama ask for: the quantization as the repository names it
  std::string file;   // a file path when no tag names the file (llama.cpp --hf-file)
};

// The GGUF repository for `format` from the record's gguf_repos (data/models: ggml-org, unsloth,
// bartowski, the publisher's own, each with the quantizations its file list shows; gguf_repo_entry).
std::optional<PublishedRepo> gguf_repo_for(const nlohmann::json& record, const std::string& format) {
  bool listed = false;
  const nlohmann::json* entry = gguf_repo_entry(record, format, listed);
  if (!entry) return std::nullopt;
  return PublishedRepo{entry->value("repo", ""), listed, entry->value("variant", ""), format, ""};
}

// The quantization a GGUF file name carries, as llama.cpp's -hf tag matches it: unsloth's
// UD-<name> (Qwen3-8B-UD-Q4_K_XL.gguf -> UD-Q4_K_XL), else the longest GGUF format id standing
// between separators (Q4_K_M, IQ4_XS); "" if none.
std::string quant_tag_in_file_name(const std::string& path) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto separator = [&](std::size_t i) {
    return i >= upper.size() || !std::isalnum(static_cast<unsigned char>(upper[i]));
  };
  // Unsloth Dynamic: UD- and the name it gives (UD-Q4_K_XL, UD-IQ2_XXS), up to a separator.
  std::size_t ud = upper.find("UD-");
  if (ud != std::string::npos && (ud == 0 || separator(ud - 1))) {
    std::size_t end = ud + 3;
    while (end < upper.size() && (std::isalnum(static_cast<unsigned char>(upper[end])) || upper[end] == '_')) ++end;
    if (end > ud + 3) return upper.substr(ud, end - ud);
  }
  std::string best;
  for (const std::string& id : weight_format_ids()) {
    if (!is_gguf_format(id) || id.size() <= best.size()) continue;
    for (std::size_t at = upper.find(id); at != std::string::npos; at = upper.find(id, at + 1)) {
      if ((at == 0 || separator(at - 1)) && separator(at + id.size())) {
        best = id;
        break;
      }
    }
  }
  return best;
}

// A custom model fetched from the Hub: the repository and, for a GGUF, the tag of its file.
std::optional<PublishedRepo> hub_gguf_repo(const Scenario& s) {
  if (s.hf_repo.empty() || s.hf_file.size() < 5 || lower(s.hf_file.substr(s.hf_file.size() - 5)) != ".gguf") {
    return std::nullopt;
  }
  std::string tag = quant_tag_in_file_name(s.hf_file);
  return PublishedRepo{s.hf_repo, true, "", tag, tag.empty() ? s.hf_file : ""};
}

// What the MLX command runs for a chosen format: the checkpoint as it is (a 16-bit format), MLX's
// own 4-bit float mode for a format that is one (mlx_lm.convert --q-mode; mlx_lm/utils.py
// quantize_model at d78bf58e: nvfp4 in groups of 16, mxfp4 of 32), else the closest MLX width
// (2, 3, 4, 5, 6 or 8 bits: mlx_lm/BENCHMARKS.md at d78bf58e measures mlx-community's 5-bit models).
struct MlxWidth {
  bool as_is = false;
  std::string mode;  // "nvfp4", "mxfp4" or empty
  int bits = 4;
  // As a record's mlx_repos "bits" says it.
  nlohmann::json record_bits() const { return mode.empty() ? nlohmann::json(bits) : nlohmann::json(mode); }
  std::string name() const { return mode.empty() ? std::to_string(bits) + "bit" : mode; }
  std::string convert_flags() const { return mode.empty() ? "--q-bits " + std::to_string(bits) : "--q-mode " + mode; }
};

MlxWidth mlx_width(const std::string& format) {
  MlxWidth width;
  if (format == "BF16" || format == "FP16" || format == "F16") {
    width.as_is = true;
    width.bits = 16;
  } else if (format == "NVFP4") {
    width.mode = "nvfp4";
  } else if (format == "MXFP4" || format == "MXFP4_MOE") {
    width.mode = "mxfp4";
  } else if (format.rfind("MLX-", 0) == 0) {
    const char digit = format.size() > 4 ? format[4] : '4';
    width.bits = digit >= '1' && digit <= '9' ? digit - '0' : 4;
  } else {
    if (format.find('8') != std::string::npos) width.bits = 8;
    if (format.find('6') != std::string::npos) width.bits = 6;
    if (format.rfind("Q3", 0) == 0 || format.rfind("IQ3", 0) == 0) width.bits = 3;
    if (format.rfind("Q5", 0) == 0) width.bits = 5;
    // Two bits and below (mlx_lm/convert.py's mixed_2_6 recipe quantizes to 2 bits).
    for (const char* low : {"Q2", "IQ2", "IQ1", "TQ"}) {
      if (format.rfind(low, 0) == 0) width.bits = 2;
    }
  }
  return width;
}

// The mlx-community repository quantized to `width` (its record's "bits": a number of bits, or
// "nvfp4" / "mxfp4"), the exact checkpoint first.
std::optional<PublishedRepo> mlx_repo_for(const nlohmann::json& record, const nlohmann::json& width) {
  auto repos = record.find("mlx_repos");
  if (repos == record.end() || !repos->is_array()) return std::nullopt;
  for (bool variants : {false, true}) {
    for (const nlohmann::json& entry : *repos) {
      if (entry.contains("variant") != variants) continue;
      auto bits = entry.find("bits");
      if (bits != entry.end() && *bits == width) {
        return PublishedRepo{entry.value("repo", ""), true, entry.value("variant", ""), "", ""};
      }
    }
  }
  return std::nullopt;
}

// The -ot pattern and counts --fit arrives at, for the note beside a command that lets it.
std::string fit_note(const FitPlan& fit, Language lang) {
  if (fit.status == "offload") {
    std::string gpu = std::to_string(fit.gpu_layers);
    std::string all = std::to_string(fit.slots);
    std::string experts = std::to_string(fit.host_expert_layers.size());
    bool host_experts = !fit.host_expert_layers.empty();
    std::string flags = "-ngl " + gpu + (fit.tensor_overrides.empty() ? "" : " -ot \"" + fit.tensor_overrides + "\"");
    return say(lang,
               "--fit (on by default) keeps " + gpu + " of " + all + " layers on the GPU" +
                   (host_experts ? " and the routed experts of " + experts + " layers in system RAM" : "") +
                   "; llama-fit-params prints the same placement as flags (" + flags + ").",
               "--fit (activo por defecto) deja " + gpu + " de " + all + " capas en la GPU" +
                   (host_experts ? " y los expertos enrutados de " + experts + " capas en la RAM del sistema" : "") +
                   "; llama-fit-params da el mismo reparto como opciones (" + flags + ").");
  }
  if (fit.auto_slots > 0 && (fit.status == "fits" || fit.status == "context_reduced")) {
    std::string slots = std::to_string(fit.auto_slots);
    std::string cache = std::to_string(fit.cache_tokens);
    std::string context = std::to_string(fit.context_tokens);
    return say(lang,
               "Without -c, --fit sizes the cache the " + slots + " slots share to " + cache +
                   " tokens (at most the trained context x " + slots + "), each request up to " + context + ".",
               "Sin -c, --fit da a la caché que comparten los " + slots + " slots " + cache +
                   " tokens (como mucho el contexto de entrenamiento x " + slots + "), cada petición hasta " +
                   context + ".");
  }
  if (fit.status == "context_reduced") {
    std::string context = std::to_string(fit.context_tokens);
    return say(lang, "Without -c, --fit lowers the context to " + context + " tokens to fit.",
               "Sin -c, --fit baja el contexto a " + context + " tokens para que quepa.");
  }
  return "";
}

// A repository whose config class or tokenizer is Python code of its own (the record's
// remote_code, data/models, each with its evidence): "config", "tokenizer" or "". transformers'
// AutoConfig and AutoTokenizer import such code only with trust_remote_code.
std::string remote_code_part(const nlohmann::json& record) {
  auto it = record.find("remote_code");
  return it != record.end() && it->is_object() ? it->value("part", "") : "";
}

// Why a command carries --trust-remote-code, said beside it.
const char* remote_code_note(const std::string& part, Language lang) {
  bool es = lang == Language::es;
  if (part == "tokenizer") {
    return es ? "--trust-remote-code: el tokenizador del repositorio es código Python propio. "
              : "--trust-remote-code: the repository's tokenizer is Python code of its own. ";
  }
  return es ? "--trust-remote-code: la clase de configuración del repositorio es código Python propio. "
            : "--trust-remote-code: the repository's config class is Python code of its own. ";
}

// A repository that holds another checkpoint of the same architecture (a fine-tune or a dated
// release), said beside the command that downloads it.
std::string variant_note(const PublishedRepo& repo, Language lang) {
  return say(lang, repo.repo + " holds " + repo.variant + ", a different checkpoint of the same architecture.",
             repo.repo + " contiene " + repo.variant + ", otro checkpoint de la misma arquitectura.");
}

}  // namespace

nlohmann::json launch_commands(const Scenario& s, const MemoryEstimate& memory) {
  const CatalogModel* entry = Catalog::instance().find_model(s.model_id);
  // A custom model fetched from the Hub: a checkpoint repository serves vLLM, SGLang and MLX; a
  // GGUF file llama.cpp and Ollama.
  std::optional<PublishedRepo> hub_gguf = entry ? std::nullopt : hub_gguf_repo(s);
  nlohmann::json custom_record = nlohmann::json::object();
  if (!entry && !s.hf_repo.empty() && !hub_gguf) custom_record["hf_repo"] = s.hf_repo;
  // A catalog model's record is read in place (a copy per estimate was a third of the commands').
  const nlohmann::json& record = entry ? entry->record() : custom_record;
  auto gguf_repo = [&]() { return entry ? gguf_repo_for(record, s.weights) : hub_gguf; };
  std::string hf_repo = record_string(record, "hf_repo");
  std::string ollama_tag = record_string(record, "ollama_tag");
  std::string model_name = hf_repo.empty() ? "<your-model>" : hf_repo;
  std::string port = std::to_string(s.port);
  std::string ctx = std::to_string(s.context_tokens);
  std::string seqs = std::to_string(s.batch);
  std::string remote_code = remote_code_part(record);
  bool gguf = is_gguf_format(s.rules_format());
  const EngineSettings& e = s.engine;
  nlohmann::json out = nlohmann::json::object();

  // llama-server, only the flags that differ from its defaults (common/arg.cpp at b10256):
  // -c from the model and --fit, slots automatic, -ngl automatic, -fa auto, -ub 512, f16 cache.
  {
    Flags flags;
    std::string notes;
    std::optional<PublishedRepo> repo = gguf ? gguf_repo() : std::nullopt;
    if (repo && !repo->file.empty()) {
      flags.push_back({"--hf-repo", repo->repo});
      flags.push_back({"--hf-file", repo->file});
    } else if (repo) {
      flags.push_back({"-hf", repo->repo + ":" + repo->quant});
      if (!repo->listed) {
        notes = say(s.lang, "The file list of " + repo->repo + " was not read here: check that it offers " + s.weights + ".",
                    "La lista de archivos de " + repo->repo + " no se leyó aquí: comprueba que ofrece " + s.weights + ".");
      }
      if (!repo->variant.empty()) notes += (notes.empty() ? "" : " ") + variant_note(*repo, s.lang);
    } else {
      flags.push_back({"-m", s.model_id + "-" + s.weights + ".gguf"});
      notes = gguf ? say(s.lang, "No GGUF repository is known for this model: point -m at your " + s.weights + " file.",
                         "No se conoce ningún repositorio GGUF de este modelo: apunta -m a tu archivo " + s.weights + ".")
                   : say(s.lang, s.weights + " is not a GGUF format: pick a GGUF type (Q4_K_M, Q8_0, ...) for llama.cpp.",
                         s.weights + " no es un formato GGUF: elige un tipo GGUF (Q4_K_M, Q8_0, ...) para llama.cpp.");
    }
    // -c is the total across explicit slots (each gets -c / -np); without -np, 4 slots share it.
    if (!s.context_auto) flags.push_back({"-c", std::to_string(s.context_tokens * s.batch)});
    if (s.batch > 1) flags.push_back({"-np", seqs});
    if (s.gpu_layers >= 0) flags.push_back({"-ngl", std::to_string(s.gpu_layers)});
    if (s.cpu_moe_layers > 0) flags.push_back({"--n-cpu-moe", std::to_string(s.cpu_moe_layers)});
    // The listed layers' experts in RAM: the pattern the placement gives (layers on the GPUs).
    if (!s.cpu_expert_layers.empty() && !memory.fit.tensor_overrides.empty()) {
      flags.push_back({"-ot", "\"" + memory.fit.tensor_overrides + "\""});
    }
    if (!e.flash_attention) flags.push_back({"-fa", "off"});
    if (e.ubatch_tokens != 512) flags.push_back({"-ub", std::to_string(e.ubatch_tokens)});
    if (s.kv_named && s.kv_type.name != "f16") {
      std::string type = s.kv_type.name == "fp8" ? "q8_0" : s.kv_type.name;
      flags.push_back({"--cache-type-k", type});
      flags.push_back({"--cache-type-v", type});
      if (s.kv_type.name == "fp8") {
        // An fp8 KV cache came with b12274 (PR #28392, November 2026), after the release modelled
        // (data/engines.json); its -ctk name is not in a source read here.
        notes += say(s.lang, " llama.cpp has an fp8 KV cache only from b12274 (PR #28392); before it, q8_0 is the closest.",
                     " llama.cpp tiene caché KV fp8 solo desde b12274 (PR #28392); antes, q8_0 es lo más cercano.");
      }
    }
    if (!s.tensor_split.empty()) {
      std::string split;
      for (std::size_t i = 0; i < s.tensor_split.size(); ++i) split += (i > 0 ? "," : "") + number(s.tensor_split[i]);
      flags.push_back({"-ts", split});
    }
    if (!e.fit) flags.push_back({"--fit", "off"});
    if (e.fit && e.fit_target_bytes != 1024 * kMiB) {
      flags.push_back({"--fit-target", std::to_string(e.fit_target_bytes / kMiB)});
    }
    if (e.fit && e.fit_min_context_tokens != 4096) flags.push_back({"--fit-ctx", std::to_string(e.fit_min_context_tokens)});
    if (e.cache_ram_bytes != 8192 * kMiB) flags.push_back({"--cache-ram", std::to_string(e.cache_ram_bytes / kMiB)});
    if (!e.mmproj) flags.push_back({"--no-mmproj", ""});
    if (e.mtp) {
      flags.push_back({"--spec-type", "draft-mtp"});
      flags.push_back({"--spec-draft-n-max", std::to_string(e.mtp_draft_tokens)});
    }
    // Always named: llama-server's default moves from 8080 to 9931 (PR #26508).
    flags.push_back({"--port", port});
    std::string placement = fit_note(memory.fit, s.lang);
    if (!placement.empty()) notes += (notes.empty() ? "" : " ") + placement;
    out["llama.cpp"] = command_entry(join_flags("llama-server", flags), flags_json(flags), notes,
                                     "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md");
    if (s.machines() > 1) {
      out["llama.cpp"]["nodes"] = llama_cpp_nodes(s, "llama-server", flags);
      out["llama.cpp"]["command"] = out["llama.cpp"]["nodes"][0]["commands"][0];
      out["llama.cpp"]["notes"] = notes + (notes.empty() ? "" : " ") +
          say(s.lang,
              "Build llama.cpp with -DGGML_RPC=ON on every machine; each other machine runs rpc-server, which serves all "
              "its devices. The RPC backend is a proof of concept: never expose rpc-server to an open network.",
              "Compila llama.cpp con -DGGML_RPC=ON en cada máquina; cada una de las otras ejecuta rpc-server, que sirve "
              "todos sus dispositivos. El backend RPC es una prueba de concepto: nunca expongas rpc-server a una red abierta.");
      out["llama.cpp"]["docs"] = "https://github.com/ggml-org/llama.cpp/blob/master/tools/rpc/README.md";
    }
  }

  // Ollama (v0.32, llama-server underneath): settings through the server's environment; the
  // context by VRAM, one slot, flash attention auto and f16 cache when left alone.
  {
    // The library tag serves its default quantization (Q4_K_M); another format, or a model with
    // no tag, comes from a GGUF repository on Hugging Face (`ollama run hf.co/<repo>:<quant>`).
    std::optional<PublishedRepo> hub = gguf ? gguf_repo() : std::nullopt;
    if (hub && hub->quant.empty()) hub.reset();  // Ollama pulls by tag only
    bool library = !ollama_tag.empty() && (s.weights == "Q4_K_M" || !hub);
    std::string tag = library ? ollama_tag : hub ? "hf.co/" + hub->repo + ":" + hub->quant : s.model_id;
    nlohmann::json env = nlohmann::json::object();
    if (!s.context_auto) env["OLLAMA_CONTEXT_LENGTH"] = ctx;
    if (s.batch > 1) env["OLLAMA_NUM_PARALLEL"] = seqs;
    if (!e.flash_attention) env["OLLAMA_FLASH_ATTENTION"] = "0";
    if (s.kv_named && (s.kv_type.name == "q8_0" || s.kv_type.name == "q4_0")) env["OLLAMA_KV_CACHE_TYPE"] = s.kv_type.name;
    // Passed through to llama-server (envconfig), and then left as given (rule ollama_mmproj_offload).
    if (e.fit && e.fit_target_bytes != 1024 * kMiB) env["LLAMA_ARG_FIT_TARGET"] = std::to_string(e.fit_target_bytes / kMiB);
    std::string env_line;
    for (const auto& [key, value] : env.items()) env_line += key + "=" + value.get<std::string>() + " ";
    std::string notes = library || hub ? (library && s.weights != "Q4_K_M"
                                              ? say(s.lang, "The library tag " + ollama_tag + " serves Q4_K_M, not " + s.weights + ".",
                                                    "La etiqueta de la biblioteca " + ollama_tag + " sirve Q4_K_M, no " + s.weights + ".")
                                              : "")
                                       : say(s.lang, "No Ollama library tag or GGUF repository is known for this model.",
                                             "No se conoce ninguna etiqueta de Ollama ni repositorio GGUF de este modelo.");
    out["ollama"] = command_entry(env_line + "ollama serve & ollama run " + tag, nlohmann::json::object(), std::move(notes),
                                  "https://github.com/ollama/ollama/blob/main/docs/faq.md");
    out["ollama"]["env"] = std::move(env);
  }

  // vLLM (V1): max_model_len per request ("auto" fits it to memory), the defaults of v0.31 left out.
  {
    Flags flags = {{"--max-model-len", s.context_auto ? "auto" : ctx}};
    // A repository in Mistral's own format (params.json, consolidated safetensors): vLLM reads it
    // with its mistral tokenizer, config and loader (the model cards' vllm serve line).
    if (entry && config_from_mistral_params(entry->config())) {
      for (const char* flag : {"--tokenizer-mode", "--config-format", "--load-format"}) flags.push_back({flag, "mistral"});
    }
    // v0.31 loads the config through AutoConfig with the user's trust_remote_code unless it
    // registers the model_type itself (vllm/transformers_utils/config.py, HFConfigParser), and
    // hands the flag to every tokenizer class (vllm/tokenizers/registry.py).
    if (!remote_code.empty()) flags.push_back({"--trust-remote-code", ""});
    // MiniMax Sparse Attention's kernels page the cache in blocks of 128 tokens, one sparse block a
    // page (vllm-project/recipes models/MiniMaxAI/MiniMax-M3.yaml: --block-size 128 required).
    bool msa = std::any_of(s.model.layers.begin(), s.model.layers.end(),
                           [](const LayerSpec& layer) { return layer.attention.msa_indexer; });
    if (msa) flags.push_back({"--block-size", "128"});
    // Stated even at 0.92, the default to v0.33: from v0.34 (November 2026) an unset fraction is
    // the memory free after start-up less a margin (gpu-fit's v0.4.2 and v1.2.0 release notes; the
    // mechanism is PR #50779's extensible KV cache, whose landed margin was not found), a budget
    // this estimate does not model.
    flags.push_back({"--gpu-memory-utilization", number(e.gpu_memory_utilization)});
    for (const auto& flag : vllm_parallel_flags(s.parallel)) flags.push_back(flag);
    // A checkpoint that declares its cache type gets it from --kv-cache-dtype auto (scenario.cpp):
    // a 16-bit cache needs the flag, which wins over the checkpoint since PRs #38922 (ModelOpt,
    // 2026-04-03) and #42782 (compressed-tensors, 2026-05-16).
    const bool checkpoint_kv_overridden = overrides_declared_kv(s, s.checkpoint_vllm_kv_cache);
    const bool narrow_kv = s.kv_type.name == "fp8" || s.kv_type.name == "fp8_e5m2" || s.kv_type.name == "nvfp4";
    if ((s.kv_named && narrow_kv && s.kv_type.name != s.checkpoint_vllm_kv_cache) || checkpoint_kv_overridden) {
      flags.push_back({"--kv-cache-dtype", narrow_kv ? s.kv_type.name : "bfloat16"});
    }
    if (e.kv_cache_memory_bytes > 0) flags.push_back({"--kv-cache-memory-bytes", std::to_string(e.kv_cache_memory_bytes)});
    if (!e.prefix_caching) flags.push_back({"--no-enable-prefix-caching", ""});
    if (e.ssm_state_bf16) flags.push_back({"--mamba-ssm-cache-dtype", "bfloat16"});
    // MTP drafting (request mtp): the checkpoint's MTP layers draft, vLLM's generic "mtp" method.
    if (e.mtp) {
      flags.push_back({"--speculative-config",
                       "'{\"method\":\"mtp\",\"num_speculative_tokens\":" + std::to_string(e.mtp_draft_tokens) + "}'"});
    }
    // A vision model served for text (request mmproj false): no tower loaded nor profiled.
    if (!e.mmproj && !s.model.vision_kind.empty()) flags.push_back({"--language-model-only", ""});
    if (s.port != 8000) flags.push_back({"--port", port});
    std::string quantization = server_quantization(s);
    if (!quantization.empty()) flags.push_back({"--quantization", quantization});
    std::string command = join_flags("vllm serve " + model_name, flags);
    std::string docker_port = s.port != 8000 ? port : "8000";
    // The image's entrypoint is `vllm serve`: the model and the same flags follow it.
    std::string docker = join_flags("docker run --gpus all --ipc=host -p " + docker_port + ":" + docker_port +
                                        " vllm/vllm-openai:latest " + model_name,
                                    flags);
    nlohmann::json nodes = s.machines() > 1 ? vllm_nodes(s, "vllm serve " + model_name, flags) : nlohmann::json();
    if (!nodes.is_null()) {
      command = nodes[0]["commands"].back();
      if (nodes[0].contains("docker")) docker = nodes[0]["docker"];
    }
    std::string notes = (remote_code.empty() ? std::string() : remote_code_note(remote_code, s.lang)) +
                        (gguf_file_only(s.rules_format())
                             ? say(s.lang, "vLLM serves safetensors checkpoints; pick BF16, FP8, AWQ or GPTQ weights. ",
                                   "vLLM sirve checkpoints safetensors; elige pesos BF16, FP8, AWQ o GPTQ. ")
                             : std::string()) +
                        prequantized_note(s, model_name) +
                        (s.kv_type.name == "q8_0" || s.kv_type.name == "q4_0"
                             ? say(s.lang, "vLLM has no " + s.kv_type.name + " KV cache; fp8 is its 8-bit option.",
                                   "vLLM no tiene caché KV " + s.kv_type.name + "; fp8 es su opción de 8 bits.")
                             : "") +
                        (checkpoint_kv_overridden ? declared_kv_note(s.lang) : "");
    out["vllm"] = command_entry(std::move(command), flags_json(flags), std::move(notes), "https://docs.vllm.ai/en/latest/cli/serve.html");
    out["vllm"]["docker"] = std::move(docker);
    if (!nodes.is_null()) {
      out["vllm"]["nodes"] = nodes;
      out["vllm"]["docs"] = "https://docs.vllm.ai/en/latest/serving/parallelism_scaling.html";
    }
  }

  // SGLang: `sglang serve` with the same arguments as python -m sglang.launch_server.
  {
    Flags flags = {{"--model-path", model_name}};
    // get_config and get_tokenizer call AutoConfig and AutoTokenizer with the user's
    // trust_remote_code; its own config classes replace the loaded one only afterwards
    // (python/sglang/srt/utils/hf_transformers_utils.py, read at 2aa2e2d0).
    if (!remote_code.empty()) flags.push_back({"--trust-remote-code", ""});
    if (!s.context_auto) flags.push_back({"--context-length", ctx});
    for (const auto& flag : sglang_parallel_flags(s.parallel)) flags.push_back(flag);
    // A checkpoint declaring an FP8 cache gets fp8_e4m3 from --kv-cache-dtype auto
    // (scenario.cpp); a 16-bit cache then needs bf16 (an explicit type is never looked up).
    const bool sglang_kv_overridden = overrides_declared_kv(s, s.checkpoint_sglang_kv_cache);
    if (s.kv_named && (s.kv_type.name == "fp8_e5m2" || (s.kv_type.name == "fp8" && !*s.checkpoint_sglang_kv_cache))) {
      flags.push_back({"--kv-cache-dtype", "fp8_e5m2"});
    }
    if (sglang_kv_overridden) flags.push_back({"--kv-cache-dtype", "bf16"});
    if (s.port != 30000) flags.push_back({"--port", port});
    std::string quantization = server_quantization(s);
    if (!quantization.empty()) flags.push_back({"--quantization", quantization});
    if (!s.max_seqs_auto) flags.push_back({"--max-running-requests", std::to_string(s.engine.max_num_seqs)});
    if (s.engine.ssm_state_bf16) flags.push_back({"--mamba-ssm-dtype", "bfloat16"});
    if (!s.engine.prefix_caching) flags.push_back({"--disable-radix-cache", ""});
    if (s.engine.max_mamba_cache_size > 0) {
      flags.push_back({"--max-mamba-cache-size", std::to_string(s.engine.max_mamba_cache_size)});
    }
    // MTP drafting (request mtp): the checkpoint's MTP layers draft as EAGLE (NEXTN's name for it),
    // one chain of --speculative-num-steps drafts (docs/basic_usage/deepseek_v3.md, qwen3.md).
    if (s.engine.mtp) {
      flags.push_back({"--speculative-algorithm", "EAGLE"});
      flags.push_back({"--speculative-num-steps", std::to_string(s.engine.mtp_draft_tokens)});
      flags.push_back({"--speculative-eagle-topk", "1"});
      flags.push_back({"--speculative-num-draft-tokens", std::to_string(s.engine.mtp_draft_tokens + 1)});
    }
    out["sglang"] = command_entry(join_flags("sglang serve", flags), flags_json(flags),
                                  (remote_code.empty() ? "" : remote_code_note(remote_code, s.lang)) +
                                      prequantized_note(s, model_name) +
                                      (sglang_kv_overridden ? declared_kv_note(s.lang) : ""),
                                  "https://docs.sglang.ai/advanced_features/server_arguments.html");
    if (s.machines() > 1) {
      out["sglang"]["nodes"] = sglang_nodes(s, "sglang serve", flags);
      out["sglang"]["command"] = out["sglang"]["nodes"][0]["commands"][0];
    }
  }
  // MLX-LM: an mlx-community repository at the chosen width when one is published, else a
  // conversion to it; mlx_lm.server loads it. A 16-bit format needs no conversion: mlx-lm loads a
  // Hub checkpoint at its own dtype (README at d78bf58e: `mlx_lm.generate --model <repo>` downloads
  // and runs it).
  {
    const MlxWidth width = mlx_width(s.rules_format());
    std::optional<PublishedRepo> repo = mlx_repo_for(record, width.record_bits());
    std::string model = repo ? repo->repo : width.as_is ? model_name : s.model_id + "-mlx-" + width.name();
    Flags flags = {{"--model", model}};
    if (s.port != 8080) flags.push_back({"--port", port});
    // mlx-lm builds the model from its own classes and only the tokenizer through AutoTokenizer,
    // with --trust-remote-code passed on by mlx_lm.server and mlx_lm.convert alike
    // (mlx_lm/tokenizer_utils.py load, server.py, convert.py at d78bf58e).
    std::string trust = remote_code == "tokenizer" ? " --trust-remote-code" : "";
    if (!trust.empty()) flags.push_back({"--trust-remote-code", ""});
    std::string command = repo || width.as_is ? join_flags("mlx_lm.server", flags)
                                              : "mlx_lm.convert --hf-path " + model_name + " -q " + width.convert_flags() +
                                                    " --mlx-path " + model + trust + " && " + join_flags("mlx_lm.server", flags);
    std::string notes = (trust.empty() ? std::string() : remote_code_note(remote_code, s.lang)) +
                        say(s.lang, "mlx_lm.server sizes the KV cache per request; context is not a server flag.",
                            "mlx_lm.server dimensiona la caché KV por petición; el contexto no es una opción del servidor.");
    if (repo && !repo->variant.empty()) notes += " " + variant_note(*repo, s.lang);
    out["mlx"] = command_entry(std::move(command), flags_json(flags), std::move(notes),
                               "https://github.com/ml-explore/mlx-lm/blob/main/mlx_lm/SERVER.md");
  }
  // What an engine cannot run on this device (or, for llama.cpp and Ollama, in this format): said
  // beside its command. The MLX command converts to an MLX width (a 16-bit format it runs as it is),
  // so only its device counts.
  for (auto& [engine, command] : out.items()) {
    std::string format = engine == "mlx" ? "MLX-4bit" : s.rules_format();
    command["unavailable"] = engine_limit(engine, s.hardware, format, s.lang);
  }
  return out;
}

}  // namespace llmcalc
