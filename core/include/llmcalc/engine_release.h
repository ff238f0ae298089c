// The engine release whose rules the core follows (data/engines.json), shown with every result.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace llmcalc {

/// {"name", "version", "date", "source"} (and "runs" for Ollama) of `engine`; null if unknown.
nlohmann::json engine_release_json(const std::string& engine);

}  // namespace llmcalc
