// Fits the speed model's efficiencies per backend to published llama.cpp measurements (and, per
// "<backend>/server" key, to vLLM / SGLang single-request runs) and prints the fit and its
// residuals. Held out of the fit (and reported separately): every measurement from llama.cpp's
// own benches/ folder (DGX Spark, M2 Ultra: devices and MoE models the fit never sees), from
// geerlingguy/ai-benchmarks, and the server runs named below.
//   fit_speed                 print the fit and residuals
//   fit_speed --write FILE    also write the fitted efficiencies (data/speed_calibration.json)
//   fit_speed --residuals     also print every measurement with its prediction
//   fit_speed --check         no fit: score the committed data/speed_calibration.json and fail
//                             unless median errors meet the targets (decode <= 10% calibration,
//                             <= 15% held out; prefill <= 20% calibration)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "llmcalc/catalog.h"
#include "llmcalc/hardware.h"
#include "llmcalc/model.h"
#include "llmcalc/speed.h"
#include "llmcalc/weights.h"

namespace {

using llmcalc::Hardware;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return nlohmann::json::parse(buffer.str());
}

// Prompts whose tokens attend this many keys on average pin the attention's efficiency (a
// 4,096-token prompt into an empty cache, or any prompt after 2,048 cached tokens): there it
// takes a tenth or more of a dense model's prompt FLOPs.
constexpr int64_t kLongPromptSpan = 2048;

struct Sample {
  std::string label;
  std::string backend;
  bool decode = true;
  bool held_out = false;
  int64_t attention_span = 0;  // prompts: the mean keys a prompt token attends (depth + prompt / 2)
  double measured = 0;
  llmcalc::ModelSpec* model = nullptr;
  llmcalc::WeightPlan* weights = nullptr;
  Hardware hardware;
  llmcalc::SpeedRequest request;
};

// Weight labels in the measurements that are llama-quantize file types (custom mixes skipped).
std::string file_type(const std::string& label) {
  if (label == "MXFP4" || label.find("gpt-oss: MXFP4") != std::string::npos) return "MXFP4_MOE";
  if (label.rfind("i1-", 0) == 0) return label.substr(3);
  if (label.rfind("UD-", 0) == 0) return "";
  return label;
}

double predict(const Sample& s, const llmcalc::SpeedAssumptions& a) {
  llmcalc::SpeedRequest request = s.request;
  request.assumptions = a;
  auto speed = llmcalc::estimate_speed(*s.model, *s.weights, s.hardware, request);
  return s.decode ? speed.decode_aggregate_tokens_per_s : speed.prefill_tokens_per_s;
}

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

std::vector<double> abs_errors(const std::vector<const Sample*>& samples,
                               const std::map<std::string, llmcalc::SpeedAssumptions>& fit) {
  std::vector<double> out;
  for (const Sample* s : samples) {
    double p = predict(*s, fit.at(s->backend));
    if (p > 0) out.push_back(std::fabs(p - s->measured) / s->measured);
  }
  return out;
}

// Whether a server run is of a release the speed model describes: vLLM 0.11 and later (the V1
// engine alone, with CUDA graphs captured for decode by default) and SGLang 0.5 and later. The
// 2024-25 runs (vLLM 0.6.3, SGLang 0.4.6) took about twice as long a layer; they stay in the data.
bool modelled_server_release(const std::string& engine, const nlohmann::json& version) {
  if (!version.is_string()) return false;
  int major = 0;
  int minor = 0;
  if (std::sscanf(version.get<std::string>().c_str(), "%d.%d", &major, &minor) != 2) return false;
  int first_minor = engine == "vllm" ? 11 : engine == "sglang" ? 5 : 1000;
  return major > 0 || minor >= first_minor;
}

// Whether a fit key is a vLLM / SGLang one ("<key>/server").
bool is_server_key(const std::string& fit_key) {
  const std::string server = "/server";
  return fit_key.size() > server.size() &&
         fit_key.compare(fit_key.size() - server.size(), server.size(), server) == 0;
}

// The committed assumptions for a fit key, looked up as the engine does: "<key>/server" for
// vLLM / SGLang (falling back to the llama.cpp values of the key), "<key>" for llama.cpp.
llmcalc::SpeedAssumptions committed(const std::string& fit_key) {
  return is_server_key(fit_key) ? llmcalc::default_speed_assumptions(fit_key.substr(0, fit_key.find('/')), "vllm")
                                : llmcalc::default_speed_assumptions(fit_key, "llama.cpp");
}

}  // namespace

int main(int argc, char** argv) {
  std::string write_path = argc == 3 && std::string(argv[1]) == "--write" ? argv[2] : "";
  bool print_residuals = argc == 2 && std::string(argv[1]) == "--residuals";
  bool check_only = argc == 2 && std::string(argv[1]) == "--check";
  std::string data = LLMCALC_TEST_DATA_DIR;
  auto measurements = read_json(data + "/speed_measurements.json");
  auto device_map = read_json(data + "/speed_device_map.json");
  std::map<std::string, nlohmann::json> devices;
  for (const auto& d : device_map.at("devices")) devices[d.at("device").get<std::string>()] = d;

  std::map<std::string, llmcalc::ModelSpec> models;
  std::map<std::string, llmcalc::WeightPlan> plans;
  // The weight plan of a catalog model in a format, built once; nullptr if the format does not apply.
  auto plan_for = [&](const std::string& id, const std::string& format) -> llmcalc::WeightPlan* {
    if (!models.count(id)) {
      llmcalc::Issues issues;
      models[id] = *llmcalc::build_model(llmcalc::Catalog::instance().find_model(id)->config(), "", issues);
    }
    std::string key = id + "|" + format;
    if (!plans.count(key)) {
      llmcalc::Issues issues;
      auto plan = llmcalc::plan_weights(models[id], format, "", issues);
      if (!plan) return nullptr;
      plans[key] = *plan;
    }
    return &plans[key];
  };
  std::vector<Sample> samples;
  std::map<std::string, int> skipped;
  const std::regex test_pattern(R"(^(batched_)?(tg|pp)(\d+)$)");
  for (const auto& r : measurements.at("records")) {
    std::string engine = r.value("engine", "");
    std::string id = r.value("model_hint", "");
    std::string type = file_type(r.value("weights", ""));
    std::string test = r.value("test", "");
    std::smatch match;
    if (engine != "llama.cpp") { ++skipped["engine is not mainline llama.cpp"]; continue; }
    if (!llmcalc::Catalog::instance().find_model(id)) { ++skipped["model not in catalog"]; continue; }
    if (type.empty() || !llmcalc::is_gguf_format(type)) { ++skipped["custom quant mix"]; continue; }
    if (!std::regex_match(test, match, test_pattern) || (match[1].matched && match[2] == "pp")) {
      ++skipped["batched prefill"]; continue;
    }
    auto device = devices.find(r.value("device", ""));
    if (device == devices.end()) { ++skipped["device not mapped"]; continue; }
    if (device->second.contains("exclude_from_fit")) { ++skipped["device excluded in the map"]; continue; }
    Hardware hw;
    const auto& entry = device->second;
    if (entry.contains("catalog_id") && entry["catalog_id"].is_string()) {
      const auto* record = llmcalc::Catalog::instance().find_device(entry["catalog_id"].get<std::string>());
      if (!record) { ++skipped["device not mapped"]; continue; }
      hw = llmcalc::hardware_from_record(record->record);
    } else if (entry.contains("inline") && entry["inline"].is_object()) {
      nlohmann::json spec = entry["inline"];
      spec["id"] = "inline";
      hw = llmcalc::hardware_from_record(spec);
    } else {
      ++skipped["device not mapped"];
      continue;
    }
    hw.backend = r.value("backend", hw.backend);
    llmcalc::WeightPlan* plan = plan_for(id, type);
    if (!plan) { ++skipped["custom quant mix"]; continue; }
    Sample s;
    s.label = r.value("device", "").substr(0, 40) + " x" + std::to_string(r.value("device_count", 1)) +
              " | " + id + " " + type + " | " + test + " @" + std::to_string(r.value("context_tokens", 0)) +
              (r.value("batch", 1) > 1 ? " B" + std::to_string(r.value("batch", 1)) : "");
    s.backend = llmcalc::speed_calibration_key(hw);
    s.decode = match[2] == "tg";
    s.measured = r.value("tokens_per_s", 0.0);
    std::string source = r.value("source", "");
    s.held_out = source.find("ggml-org/llama.cpp") != std::string::npos ||
                 source.find("geerlingguy") != std::string::npos || r.value("held_out", false);
    s.model = &models[id];
    s.weights = plan;
    s.hardware = hw;
    int64_t n = std::stoll(match[3].str());
    int64_t depth = r.value("context_tokens", int64_t{0});
    s.request.batch = r.value("batch", int64_t{1});
    s.request.devices = r.value("device_count", int64_t{1});
    s.request.tensor_parallel = false;  // llama.cpp's default layer split
    if (match[1].matched) {  // llama-batched-bench: prompt of context_tokens per sequence, then N
      s.request.context_tokens = depth + n / 2;
    } else if (s.decode) {
      s.request.context_tokens = depth + n / 2;
    } else {
      s.request.context_tokens = depth;
      s.request.prompt_tokens = n;
      s.attention_span = depth + n / 2;
    }
    s.request.ubatch_tokens = 512;   // llama-bench defaults: n_ubatch 512, n_batch 2048
    s.request.batch_tokens = 2048;
    // llama-bench ran without flash attention unless the source prints fa = 1.
    s.request.flash_attention = r.contains("flash_attention") && r["flash_attention"].is_boolean() &&
                                r["flash_attention"].get<bool>();
    if (s.measured <= 0 || (!s.decode && hw.fp16_flops_per_s <= 0)) { ++skipped["no compute figure"]; continue; }
    if (!s.decode && entry.contains("exclude_prefill_from_fit")) { ++skipped["prefill excluded in the map"]; continue; }
    samples.push_back(s);
  }
  // vLLM / SGLang at one request (tests/data/server_speed_measurements.json), fitted per
  // "<calibration key>/server": tensor parallel over tensor_parallel devices, or pipeline stages
  // in turn. Fitted: the rows marked "calibrates" (vLLM 0.20-0.30 and SGLang 0.5.6-0.5.10 on
  // NVIDIA HBM GPUs: silybench, AccelMark, the SGLang cookbook); held out: every other row of a
  // modelled release.
  const nlohmann::json server_runs = read_json(data + "/server_speed_measurements.json");
  for (const auto& r : server_runs.at("records")) {
    std::string id = r.value("model_hint", "");
    const auto* device = llmcalc::Catalog::instance().find_device(r.value("catalog_device_id", ""));
    if (!device || !llmcalc::Catalog::instance().find_model(id)) { ++skipped["server run not in catalog"]; continue; }
    if (!modelled_server_release(r.value("engine", ""), r.value("engine_version", nlohmann::json(nullptr)))) {
      ++skipped["server release before the modelled ones, or unstated"];
      continue;
    }
    llmcalc::WeightPlan* plan = plan_for(id, r.value("weights", ""));
    if (!plan) { ++skipped["server weights unknown"]; continue; }
    Sample s;
    s.hardware = llmcalc::hardware_from_record(device->record);
    s.backend = llmcalc::speed_calibration_key(s.hardware) + "/server";
    s.model = &models[id];
    s.weights = plan;
    s.measured = r.value("tokens_per_s", 0.0);
    s.held_out = !r.value("calibrates", false);
    std::string test = r.value("test", "tg1");
    int64_t generated = std::stoll(test.substr(2));
    int64_t prompt = std::max<int64_t>(1, r.value("context_tokens", int64_t{1}));
    int64_t pipeline = r.value("pipeline_parallel", int64_t{1});
    s.request.tensor_parallel = pipeline <= 1;
    s.request.devices = pipeline > 1 ? pipeline : r.value("tensor_parallel", int64_t{1});
    s.request.context_tokens = prompt + generated / 2;
    s.request.prompt_tokens = prompt;
    s.label = r.value("engine", "") + " " + r.value("catalog_device_id", "") + " x" + std::to_string(s.request.devices) +
              " | " + id + " " + r.value("weights", "") + " | " + test + " @" + std::to_string(prompt);
    samples.push_back(s);
  }

  std::map<std::string, std::vector<const Sample*>> decode_fit, prefill_fit, decode_held, prefill_held;
  for (const Sample& s : samples) {
    auto& bucket = s.decode ? (s.held_out ? decode_held : decode_fit) : (s.held_out ? prefill_held : prefill_fit);
    bucket[s.backend].push_back(&s);
  }
  std::map<std::string, llmcalc::SpeedAssumptions> fit;
  if (check_only) {
    std::vector<const Sample*> dec, dec_held, pre;
    for (const Sample& s : samples) {
      if (!fit.count(s.backend)) fit[s.backend] = committed(s.backend);
      (s.decode ? (s.held_out ? dec_held : dec) : pre).push_back(&s);
    }
    std::vector<const Sample*> pre_fit;
    for (const Sample* s : pre) {
      if (!s->held_out) pre_fit.push_back(s);
    }
    double d = median(abs_errors(dec, fit));
    double h = median(abs_errors(dec_held, fit));
    double p = median(abs_errors(pre_fit, fit));
    std::printf("committed calibration: decode %.1f%% (n=%zu), held-out decode %.1f%% (n=%zu), "
                "prefill %.1f%% (n=%zu)\n", 100 * d, dec.size(), 100 * h, dec_held.size(), 100 * p,
                pre_fit.size());
    bool pass = d <= 0.10 && h <= 0.15 && p <= 0.20 && dec.size() >= 300 && pre_fit.size() >= 200;
    std::printf("%s\n", pass ? "targets met" : "TARGETS MISSED");
    return pass ? 0 : 1;
  }
  for (const auto& [backend, list] : decode_fit) {
    llmcalc::SpeedAssumptions best = committed(backend);
    double best_error = 1e300;
    // Servers' MoE layers get their own cost (speed.h, per_moe_layer_overhead_s).
    double moe_limit = is_server_key(backend) ? 0.0002001 : 0.0;
    for (double eff = 0.20; eff <= 1.0001; eff += 0.01) {
      for (double overhead = 0; overhead <= 0.0003001; overhead += 0.000005) {
        for (double moe = 0; moe <= moe_limit; moe += 0.00001) {
          llmcalc::SpeedAssumptions a = best;
          a.bandwidth_efficiency = eff;
          a.per_layer_overhead_s = overhead;
          a.per_moe_layer_overhead_s = moe;
          std::map<std::string, llmcalc::SpeedAssumptions> trial = {{backend, a}};
          double error = median(abs_errors(list, trial));
          if (error < best_error) {
            best_error = error;
            best = a;
          }
        }
      }
    }
    fit[backend] = best;
  }
  // Prefill: the weight matmuls on short prompts and on prompts without flash attention (whose
  // scores are ordinary matmuls), 16-bit and quantized weights separately (different kernels),
  // and flash attention on all prompts, which long prompts and prompts at depth with it pin
  // (coordinate descent, three rounds: each efficiency shifts the others' best). A key whose
  // prompts are all short keeps its attention at the rate its quantized matmuls reach (the same
  // share of the same peak), the rule before attention had its own efficiency.
  for (const auto& entry : prefill_fit) {
    const std::string& backend = entry.first;  // named, not bound: the lambda below captures it
    const std::vector<const Sample*>& list = entry.second;
    llmcalc::SpeedAssumptions base = fit.count(backend) ? fit[backend]
                                                        : committed(backend);
    // The efficiency `field` of `base` that fits `subset` best (median absolute error).
    auto fit_field = [&](double llmcalc::SpeedAssumptions::*field, const std::vector<const Sample*>& subset) {
      if (subset.empty()) return;
      double best_error = 1e300;
      llmcalc::SpeedAssumptions best = base;
      for (double eff = 0.005; eff <= 1.0001; eff += 0.005) {
        llmcalc::SpeedAssumptions a = base;
        a.*field = eff;
        std::map<std::string, llmcalc::SpeedAssumptions> trial = {{backend, a}};
        double error = median(abs_errors(subset, trial));
        if (error < best_error) {
          best_error = error;
          best = a;
        }
      }
      base = best;
    };
    std::vector<const Sample*> wide, quantized, long_prompts;
    for (const Sample* s : list) {
      if (s->attention_span >= kLongPromptSpan && s->request.flash_attention) {
        long_prompts.push_back(s);
      } else {
        (s->weights->bits_per_weight() < 12.0 ? quantized : wide).push_back(s);
      }
    }
    for (int round = 0; round < 3; ++round) {
      fit_field(&llmcalc::SpeedAssumptions::compute_efficiency, wide);
      fit_field(&llmcalc::SpeedAssumptions::quantized_compute_efficiency, quantized);
      if (long_prompts.empty()) {
        base.attention_compute_efficiency = base.quantized_compute_efficiency;
      } else {
        fit_field(&llmcalc::SpeedAssumptions::attention_compute_efficiency, list);
      }
    }
    fit[backend] = base;
  }
  // A key with no prompts measured keeps that rule too; servers' prompts are not fitted: a
  // server key reads them as its llama.cpp key does.
  for (auto& [backend, a] : fit) {
    if (is_server_key(backend)) {
      std::string base = backend.substr(0, backend.find('/'));
      const llmcalc::SpeedAssumptions& prompts = fit.count(base) ? fit[base] : committed(base);
      a.compute_efficiency = prompts.compute_efficiency;
      a.quantized_compute_efficiency = prompts.quantized_compute_efficiency;
      a.attention_compute_efficiency = prompts.attention_compute_efficiency;
    } else if (prefill_fit[backend].empty()) {
      a.attention_compute_efficiency = a.quantized_compute_efficiency;
    }
  }
  for (const auto& [backend, list] : decode_held) {
    if (!fit.count(backend)) fit[backend] = committed(backend);
  }
  for (const auto& [backend, list] : prefill_held) {
    if (!fit.count(backend)) fit[backend] = committed(backend);
  }

  // The band: the 80th percentile of the calibration residuals per backend (decode and prefill).
  std::printf("%-7s %6s %7s %7s %7s %7s | %5s %9s %9s | %5s %9s %9s | band\n", "backend", "bw_eff",
              "f16_eff", "q_eff", "att_eff", "ovh_us", "n_dec", "fit_med%", "held_med%", "n_pre", "fit_med%",
              "held_med%");
  std::vector<const Sample*> all_decode_fit, all_decode_held, all_prefill_fit, all_prefill_held;
  for (auto& [backend, a] : fit) {
    auto dec_fit = abs_errors(decode_fit[backend], fit);
    auto dec_held = abs_errors(decode_held[backend], fit);
    auto pre_fit = abs_errors(prefill_fit[backend], fit);
    auto pre_held = abs_errors(prefill_held[backend], fit);
    std::vector<double> both = dec_fit;
    both.insert(both.end(), pre_fit.begin(), pre_fit.end());
    a.band_fraction = std::isnan(quantile(both, 0.8)) ? a.band_fraction
                                                        : std::min(0.9, quantile(both, 0.8));
    std::printf("%-7s %6.2f %7.3f %7.3f %7.3f %7.2f | %5zu %9.1f %9.1f | %5zu %9.1f %9.1f | %.2f\n",
                backend.c_str(), a.bandwidth_efficiency, a.compute_efficiency,
                a.quantized_compute_efficiency, a.attention_compute_efficiency, a.per_layer_overhead_s * 1e6, dec_fit.size(), 100 * median(dec_fit),
                100 * median(dec_held), pre_fit.size(), 100 * median(pre_fit),
                100 * median(pre_held), a.band_fraction);
    all_decode_fit.insert(all_decode_fit.end(), decode_fit[backend].begin(), decode_fit[backend].end());
    all_decode_held.insert(all_decode_held.end(), decode_held[backend].begin(), decode_held[backend].end());
    all_prefill_fit.insert(all_prefill_fit.end(), prefill_fit[backend].begin(), prefill_fit[backend].end());
    all_prefill_held.insert(all_prefill_held.end(), prefill_held[backend].begin(), prefill_held[backend].end());
  }
  if (print_residuals) {
    for (const Sample& s : samples) {
      double p = predict(s, fit.at(s.backend));
      std::printf("%s %-7s %s measured %9.1f predicted %9.1f error %+6.1f%%  %s\n",
                  s.held_out ? "held" : "fit ", s.backend.c_str(), s.decode ? "decode " : "prefill",
                  s.measured, p, 100 * (p - s.measured) / s.measured, s.label.c_str());
    }
  }
  std::printf("\nmedian absolute error, all backends:\n");
  std::printf("  decode   calibration %.1f%% (n=%zu)   held out %.1f%% (n=%zu)\n",
              100 * median(abs_errors(all_decode_fit, fit)), all_decode_fit.size(),
              100 * median(abs_errors(all_decode_held, fit)), all_decode_held.size());
  std::printf("  prefill  calibration %.1f%% (n=%zu)   held out %.1f%% (n=%zu)\n",
              100 * median(abs_errors(all_prefill_fit, fit)), all_prefill_fit.size(),
              100 * median(abs_errors(all_prefill_held, fit)), all_prefill_held.size());
  std::printf("skipped records:");
  for (const auto& [reason, count] : skipped) std::printf(" %s %d;", reason.c_str(), count);
  std::printf("\n");

  if (!write_path.empty()) {
    nlohmann::json out = read_json(write_path);
    for (const auto& [backend, a] : fit) {
      // Keys seen only in held-out data keep their committed values (or stay absent).
      if (decode_fit[backend].empty() && prefill_fit[backend].empty()) continue;
      out["backends"][backend] = {{"bandwidth_efficiency", std::round(a.bandwidth_efficiency * 100) / 100},
                                  {"compute_efficiency", std::round(a.compute_efficiency * 1000) / 1000},
                                  {"quantized_compute_efficiency", std::round(a.quantized_compute_efficiency * 1000) / 1000},
                                  {"attention_compute_efficiency", std::round(a.attention_compute_efficiency * 1000) / 1000},
                                  {"per_layer_overhead_s", std::round(a.per_layer_overhead_s * 1e7) / 1e7},
                                  {"band_fraction", std::round(a.band_fraction * 100) / 100}};
      if (a.quantized_fp16_basis) out["backends"][backend]["quantized_basis"] = "fp16";
      if (is_server_key(backend)) {
        out["backends"][backend]["per_moe_layer_overhead_s"] = std::round(a.per_moe_layer_overhead_s * 1e7) / 1e7;
      }
    }
    std::ofstream(write_path) << out.dump(2) << "\n";
    std::printf("wrote %s\n", write_path.c_str());
  }
  return 0;
}
