// Engine releases from data/engines.json (the behaviours they list stay in the data file and
// the README; the module carries the version, date and source).
#include "llmcalc/engine_release.h"

#include "llmcalc/catalog.h"

namespace llmcalc {

nlohmann::json engine_release_json(const std::string& engine) {
  const nlohmann::json& document = Catalog::instance().document("engines.json");
  auto engines = document.find("engines");
  if (engines == document.end() || !engines->contains(engine)) return nullptr;
  const nlohmann::json& entry = engines->at(engine);
  nlohmann::json out = {{"name", engine},
                        {"version", entry.value("version", "")},
                        {"date", entry.value("date", "")},
                        {"source", entry.value("source", "")}};
  if (entry.contains("runs")) out["runs"] = entry.at("runs");
  return out;
}

}  // namespace llmcalc
