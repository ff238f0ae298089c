// Internal: the JSON envelope every entry point answers with ({"ok", "api_version", "issues",
// "result"}, README "JSON contract").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

// The envelope around a result document; the result is left out when `issues` has an error.
std::string envelope(const Issues& issues, nlohmann::json result);

// The envelope around a result already written as JSON text (rank's, explore's).
std::string envelope_around(const Issues& issues, const std::string& result_text);

}  // namespace llmcalc
