// Internal: the estimate's answer (core/src/estimate_answer.cpp), the result api.cpp's
// estimate_json puts in its envelope.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

/// The result for an estimate request as JSON text, or "" with the reasons in `issues`.
std::string estimate_answer(const nlohmann::json& request, Issues& issues);

}  // namespace llmcalc
