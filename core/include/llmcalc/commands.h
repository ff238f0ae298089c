// Launch commands for every engine, built from the resolved scenario so each flag is a value the
// estimate assumed.
#pragma once

#include <nlohmann/json.hpp>

#include "llmcalc/memory.h"
#include "llmcalc/scenario.h"

namespace llmcalc {

/// {"llama.cpp": {...}, "ollama": {...}, "vllm": {...}, "sglang": {...}, "mlx": {...}}; each entry
/// has "command" (one line), "flags" (flag -> value as written), "notes", "docs" (URL), and
/// engine-specific extras ("env", "modelfile", "docker").
/// `memory` gives the placement and context llama.cpp's --fit arrives at, for its note.
nlohmann::json launch_commands(const Scenario& scenario, const MemoryEstimate& memory);

}  // namespace llmcalc
