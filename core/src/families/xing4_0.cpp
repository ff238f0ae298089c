// Xing4.0 (XingChen-AGI/Xing4.0-29B-A4B, China Telecom, 2026-09-17; model_type xing4_0,
// Xing4_0ForCausalLM; llama.cpp arch "xing4_0", PR #29012). DeepSeek V3's layout, read as
// deepseek_v3: MLA (q_lora 768, kv_lora 512), two leading dense layers, then 64 routed experts
// with a sigmoid noaux_tc router and one shared expert, one MTP layer with its own embedding and
// head copies. Beside it, DeepSeek V4's hyper-connections (mHC, hc_mult residual streams) around
// the attention and the MLP of each decoder layer, none in the MTP layer and no final stream
// mixer: with them the count is the published 31,215,031,088 to the parameter, and the official
// GGUF's 977 tensors (tests/core/test_params.cpp).
#include "../arch_config.h"
#include "../family.h"

namespace llmcalc {
namespace {

void read_config(const nlohmann::json&, const std::string&, const nlohmann::json&, JsonReader& reader,
                 ArchConfig& arch) {
  arch.hc_mult = reader.integer("hc_mult", 1, 64, 1).value_or(1);
}

}  // namespace

const FamilyDefinition& xing4_0_family() {
  static const FamilyDefinition family = [] {
    FamilyDefinition f;
    f.model_types = {"xing4_0"};
    f.reads_text_as = "deepseek_v3";
    f.read_config = read_config;
    f.gguf_architectures = {"xing4_0"};
    return f;
  }();
  return family;
}

}  // namespace llmcalc
