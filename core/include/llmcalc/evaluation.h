// One scenario evaluated end to end: weights placed, memory sized, speed estimated. The single
// path behind estimate() and rank(), so both report the same numbers.
#pragma once

#include <memory>
#include <optional>

#include "llmcalc/memory.h"
#include "llmcalc/scenario.h"
#include "llmcalc/speed.h"
#include "llmcalc/weights.h"

namespace llmcalc {

struct Evaluation {
  std::shared_ptr<const WeightPlan> weights;  // shared with the plan cache, never copied
  MemoryEstimate memory;
  SpeedEstimate speed;
  SpeedRequest speed_request;  // as used, for follow-up speeds (other batch sizes)
  int64_t context_tokens;      // the context the engine runs with (its own pick when auto)
};

/// Slots llama-server opens when -np is not given (tools/server, "n_parallel is set to auto").
constexpr int64_t kLlamaServerAutoSlots = 4;

/// The weight plan of a scenario, with a file's exact bytes (weights_bytes) applied. For catalog
/// models (`model` must then be the catalog model scenario.model_id names) plans are cached.
std::shared_ptr<const WeightPlan> scenario_weights(const Scenario& scenario,
                                                   const ModelSpec& model, Issues& issues);

/// Memory and speed for a given weight plan.
Evaluation evaluate_plan(const Scenario& scenario, const ModelSpec& model,
                         std::shared_ptr<const WeightPlan> plan, bool find_max_context = true);

/// The memory part of evaluate_plan without the largest-context search (rank's ladder walk reads
/// only the verdict of the formats it passes over) ...
MemoryEstimate evaluate_memory(const Scenario& scenario, const ModelSpec& model, const WeightPlan& plan);

/// ... and the speed part, for the memory estimate evaluate_memory (or evaluate_plan) made.
Evaluation evaluate_speed(const Scenario& scenario, const ModelSpec& model,
                          std::shared_ptr<const WeightPlan> plan, MemoryEstimate memory);

/// The largest context `plan` leaves room for under `scenario`: the max_context_tokens of an
/// evaluation made with find_max_context, for one made without it.
int64_t max_context_tokens(const Scenario& scenario, const ModelSpec& model, const WeightPlan& plan);

/// The "show the math" lines of an evaluation of `scenario` (memory_math with its request).
std::vector<MathLine> evaluation_math(const Scenario& scenario, const ModelSpec& model, const Evaluation& evaluation);

/// Evaluates `scenario` for `model` (normally scenario.model; rank() passes cached catalog
/// models). `find_max_context` false skips the largest-context search. Errors (an unknown format)
/// are recorded at /weights.
std::optional<Evaluation> evaluate(const Scenario& scenario, const ModelSpec& model, Issues& issues,
                                   bool find_max_context = true);

}  // namespace llmcalc
