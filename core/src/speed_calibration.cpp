// The calibrated speed assumptions (see the header).
#include "speed_calibration.h"

#include "llmcalc/embedded_data.h"
#include "json_text.h"

namespace llmcalc {

SpeedAssumptions lookup_speed_assumptions(const std::string& key, const std::string& engine) {
  static const nlohmann::json calibration = [] {
    for (const EmbeddedFile& file : embedded_data_files()) {
      if (std::string(file.path) == "speed_calibration.json") return parse_json(file.content);
    }
    return nlohmann::json::object();
  }();
  SpeedAssumptions a;
  auto backends = calibration.find("backends");
  if (backends == calibration.end()) return a;
  std::string backend = key.substr(0, key.find('.'));
  auto entry = backends->end();
  if (engine == "vllm" || engine == "sglang") entry = backends->find(key + "/server");
  if (entry == backends->end()) entry = backends->find(key);
  if (entry == backends->end()) entry = backends->find(backend);
  if (entry == backends->end()) return a;
  a.bandwidth_efficiency = entry->value("bandwidth_efficiency", a.bandwidth_efficiency);
  a.compute_efficiency = entry->value("compute_efficiency", a.compute_efficiency);
  a.quantized_compute_efficiency =
      entry->value("quantized_compute_efficiency", a.quantized_compute_efficiency);
  a.attention_compute_efficiency =
      entry->value("attention_compute_efficiency", a.attention_compute_efficiency);
  a.quantized_fp16_basis = entry->value("quantized_basis", std::string("int8")) == "fp16";
  a.per_layer_overhead_s = entry->value("per_layer_overhead_s", a.per_layer_overhead_s);
  a.per_moe_layer_overhead_s = entry->value("per_moe_layer_overhead_s", a.per_moe_layer_overhead_s);
  a.band_fraction = entry->value("band_fraction", a.band_fraction);
  return a;
}

}  // namespace llmcalc
