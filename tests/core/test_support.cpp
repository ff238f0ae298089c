// Shared test helpers: catalog lookups, test data files, the JSON boundary.
#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "llmcalc/api.h"

namespace llmcalc_test {

llmcalc::ModelSpec catalog_model(const std::string& id) {
  const llmcalc::CatalogModel* entry = llmcalc::Catalog::instance().find_model(id);
  if (!entry) throw std::runtime_error("catalog has no model " + id);
  llmcalc::Issues issues;
  auto model = llmcalc::build_model(entry->config(), "/model", issues);
  if (!model) throw std::runtime_error("catalog model rejected: " + id);
  return *model;
}

namespace {

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return nlohmann::json::parse(buffer.str());
}

}  // namespace

nlohmann::json read_test_data(const std::string& relative_path) {
  return read_json_file(std::string(LLMCALC_TEST_DATA_DIR) + "/" + relative_path);
}

nlohmann::json data_record(const std::string& relative_path) {
  return read_json_file(std::string(LLMCALC_DATA_DIR) + "/" + relative_path);
}

nlohmann::json estimate(const nlohmann::json& request) {
  return nlohmann::json::parse(llmcalc::estimate_json(request.dump()));
}

bool within_log_tolerance(double estimated_bytes, double logged_mib) {
  double tolerance = std::max(0.05 * logged_mib, 256.0);
  return std::fabs(estimated_bytes / 1048576.0 - logged_mib) <= tolerance;
}

double kv_bytes_per_request(const nlohmann::json& memory) {
  double devices = static_cast<double>(memory["per_device"].size());
  return memory["kv_pool_bytes"].get<double>() / devices / memory["max_concurrent_sequences"].get<double>();
}

}  // namespace llmcalc_test
