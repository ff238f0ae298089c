// The families defined in their own files (core/src/families/). Adding one: its file, and its
// accessor here and in family.h.
#include "family.h"

#include <algorithm>

namespace llmcalc {
namespace {

const std::vector<const FamilyDefinition*>& families() {
  static const std::vector<const FamilyDefinition*> all = {&deepseek_v4_family(), &step3p5_family(),
                                                           &gemma4_unified_family(), &qwen4_exp_family(),
                                                           &mimo_v2_family(), &muse_glimmer_family(),
                                                           &minimax_m3_family(), &spark2_5_family(),
                                                           &laguna_family(), &xing4_0_family(),
                                                           &bailing_hybrid_family()};
  return all;
}

const FamilyDefinition* find_by(const std::string& name, std::vector<std::string> FamilyDefinition::*names) {
  for (const FamilyDefinition* family : families()) {
    const auto& list = family->*names;
    if (std::find(list.begin(), list.end(), name) != list.end()) return family;
  }
  return nullptr;
}

}  // namespace

const FamilyDefinition* find_family(const std::string& model_type) {
  return find_by(model_type, &FamilyDefinition::model_types);
}

const FamilyDefinition* find_family_of_gguf(const std::string& architecture) {
  return find_by(architecture, &FamilyDefinition::gguf_architectures);
}

}  // namespace llmcalc
