// Helpers shared by the Catch2 test files.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/catalog.h"
#include "llmcalc/issues.h"
#include "llmcalc/model.h"

namespace llmcalc_test {

/// Builds a catalog model, failing the test when the config is rejected.
llmcalc::ModelSpec catalog_model(const std::string& id);

/// Reads a JSON file under tests/data/.
nlohmann::json read_test_data(const std::string& relative_path);

/// Reads a record under data/ whole ("models/<id>.json"), with the provenance and cross-checks
/// the module's embedded copy leaves out (cmake/embed_data.mjs).
nlohmann::json data_record(const std::string& relative_path);

/// Runs estimate_json on a request object and parses the envelope.
nlohmann::json estimate(const nlohmann::json& request);

/// The tolerance of issues #18 and #20 for a figure an engine printed: 5% of it or 256 MiB,
/// whichever is larger.
bool within_log_tolerance(double estimated_bytes, double logged_mib);

/// vLLM: the KV bytes one request at the context takes, as the estimate's pool per device over
/// its maximum concurrency (what a log's "Available KV cache memory" over its "Maximum
/// concurrency ... Nx" gives). For plans without data-parallel replicas.
double kv_bytes_per_request(const nlohmann::json& memory);

}  // namespace llmcalc_test
