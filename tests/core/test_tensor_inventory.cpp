// The inventory's shortcut (a decoder layer alike its predecessor is the latter's tensors
// renumbered) lists exactly what building every layer from its parts lists.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "arch_config.h"
#include "llmcalc/catalog.h"
#include "llmcalc/issues.h"
#include "mistral_params.h"

namespace {

std::string described(const llmcalc::TensorSpec& t) {
  return std::string(t.name.view()) + " role " + std::to_string(static_cast<int>(t.role)) + " part " +
         std::to_string(static_cast<int>(t.part)) + " layer " + std::to_string(t.layer) + " tests " +
         std::to_string(t.quant_name_tests) + " [" +
         std::to_string(t.ne0) + ", " + std::to_string(t.ne1) + ", " + std::to_string(t.ne2) + "]";
}

// Builds `config`'s inventory both ways and compares them tensor by tensor.
void check_repeated_as_built(const nlohmann::json& config) {
  llmcalc::Issues issues;
  std::optional<nlohmann::json> from_params = llmcalc::config_from_mistral_params(config);
  std::optional<llmcalc::ArchConfig> arch =
      llmcalc::read_arch_config(from_params ? *from_params : config, "/model", issues);
  REQUIRE(arch);
  const std::vector<llmcalc::TensorSpec> repeated = llmcalc::tensor_inventory(*arch, true);
  const std::vector<llmcalc::TensorSpec> built = llmcalc::tensor_inventory(*arch, false);
  REQUIRE(repeated.size() == built.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < built.size(); ++k) {
    if (described(repeated[k]) != described(built[k]) && differ++ < 3) {
      FAIL_CHECK(described(repeated[k]) << " instead of " << described(built[k]));
    }
  }
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("Repeating alike layers lists every catalog model's tensors as building each layer does",
          "[tensor_inventory]") {
  for (const llmcalc::CatalogModel& entry : llmcalc::Catalog::instance().models()) {
    INFO(entry.id);
    check_repeated_as_built(entry.config());
  }
}

TEST_CASE("Repeating alike layers tells layers apart by their KV heads alone", "[tensor_inventory]") {
  // Llama-3.3-Nemotron-Super-49B's block_configs with every other attention block's
  // n_heads_in_group 4 instead of 8 (16 KV heads instead of 8), its FFN blocks unchanged: no
  // catalog model has layers differing in their KV heads alone.
  const llmcalc::CatalogModel* entry = llmcalc::Catalog::instance().find_model("llama-3.3-nemotron-super-49b");
  REQUIRE(entry);
  nlohmann::json config = entry->config();
  int changed = 0;
  for (std::size_t k = 0; k < config.at("block_configs").size(); k += 2) {
    nlohmann::json& attention = config["block_configs"][k]["attention"];
    if (attention.value("no_op", false) || !attention.contains("n_heads_in_group")) continue;
    attention["n_heads_in_group"] = 4;
    ++changed;
  }
  REQUIRE(changed > 10);
  check_repeated_as_built(config);
}
