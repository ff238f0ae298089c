// The checkpoint formats (see the header).
#include "checkpoint_formats.h"

#include "llmcalc/embedded_data.h"
#include "json_text.h"

namespace llmcalc {

const std::vector<CheckpointFormat>& checkpoint_formats() {
  static const std::vector<CheckpointFormat> formats = [] {
    std::vector<CheckpointFormat> out;
    for (const EmbeddedFile& file : embedded_data_files()) {
      if (std::string(file.path) != "formats/checkpoint_formats.json") continue;
      const nlohmann::json document = parse_json(file.content);
      for (const auto& f : document.at("formats")) {
        CheckpointFormat format;
        format.id = f.at("id").get<std::string>();
        format.weight_bits = f.at("weight_bits").get<double>();
        format.group_elements = f.at("group_elements").get<int64_t>();
        format.group_overhead_bits = f.at("group_overhead_bits").get<double>();
        format.block_rows = f.value("block_rows", int64_t{0});
        format.row_overhead_bits = f.value("row_overhead_bits", 0.0);
        format.quantize_only_experts = f.value("quantize_only_experts", false);
        format.keep_roles = f.at("keep_roles").get<std::vector<std::string>>();
        out.push_back(format);
      }
    }
    return out;
  }();
  return formats;
}

}  // namespace llmcalc
