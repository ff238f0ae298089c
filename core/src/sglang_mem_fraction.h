// Internal: SGLang's --mem-fraction-static when the user leaves it unset.
#pragma once

#include <cstdint>

#include "llmcalc/hardware.h"
#include "llmcalc/memory.h"
#include "llmcalc/model.h"

namespace llmcalc {

/// The share of a GPU's memory SGLang gives weights and KV pool by default, for `model` on
/// `hardware` with `plan` (its --tp is every rank of a pipeline stage, the data-parallel
/// attention ranks included). The release modelled is named in sglang_mem_fraction.cpp and
/// data/engines.json.
double sglang_default_mem_fraction(const ModelSpec& model, const Hardware& hardware, const ParallelPlan& plan);

}  // namespace llmcalc
