// The families defined in their own files (core/src/families/). Adding one: its file, and its
// accessor here and in family.h.
#include "family.h"

#include <algorithm>

namespace llmcalc {

const FamilyDefinition* find_family(const std::string& model_type) {
  for (const FamilyDefinition* family : {&deepseek_v4_family(), &step3p5_family(), &gemma4_unified_family()}) {
    const auto& types = family->model_types;
    if (std::find(types.begin(), types.end(), model_type) != types.end()) return family;
  }
  return nullptr;
}

}  // namespace llmcalc
