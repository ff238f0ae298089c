// llama.cpp's --fit counts whole layers by the method of false position (common/fit.cpp
// common_params_fit_impl, read at 08033df): steps 3 (fill the device back to front with layers
// whose experts stay in RAM) and 4 (bring experts back, front to back). This file replays those
// loops as llama.cpp writes them, on the memory the API reports for each placement they try,
// pinned with -ngl (`gpu_layers`) and -ot (`cpu_expert_layers`), and checks that --fit's own
// search ends on the same counts. It matters where memory does not grow with the count: a
// bisection ends elsewhere there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

// One device's slots as common/fit.cpp's ngl_t counts them: `n_layer` slots from the back (the
// output layer the last, so slot n_layers is the output), of which the first n_layer - n_part
// keep their experts and the rest leave them in RAM.
struct Slots {
  int64_t n_layer = 0;
  int64_t n_part = 0;
};

class PinnedMemory {
 public:
  PinnedMemory(nlohmann::json request, int64_t n_layers) : request_(std::move(request)), n_layers_(n_layers) {}

  // The request that pins `slots`: -ngl n_layer, and -ot for the layers set_ngl_tensor_split_tbo
  // makes partial (il0 = n_layers + 1 - n_layer, plus the full ones; the output slot has no experts).
  nlohmann::json pinned(const Slots& slots) const {
    nlohmann::json r = request_;
    r["gpu_layers"] = slots.n_layer;
    nlohmann::json partial = nlohmann::json::array();
    int64_t first = n_layers_ + 1 - slots.n_layer + (slots.n_layer - slots.n_part);
    for (int64_t il = first; il < first + slots.n_part && il < n_layers_; ++il) partial.push_back(il);
    r["cpu_expert_layers"] = partial;
    return r;
  }

  const nlohmann::json& device(const Slots& slots) {
    nlohmann::json answer = llmcalc_test::estimate(pinned(slots));
    REQUIRE(answer["ok"] == true);
    last_ = answer["result"]["memory"];
    return last_["per_device"][0];
  }
  int64_t bytes(const Slots& slots) { return device(slots)["total_bytes"].get<int64_t>(); }
  const nlohmann::json& memory() const { return last_; }

 private:
  nlohmann::json request_;
  int64_t n_layers_;
  nlohmann::json last_;
};

// common/fit.cpp's loop between a fitting `low` (memory mem_low) and a `high` that does not fit:
// the step interpolates linearly where memory meets the target, at least 1 and at most delta - 1
// (a negative quotient wraps in llama.cpp's uint32_t and is clamped to delta - 1), and replaces
// the bound it lands on until the two are one step apart.
Slots false_position(Slots low, Slots high, int64_t target, PinnedMemory& memory,
                     const std::function<int64_t(const Slots&)>& count,
                     const std::function<Slots(const Slots&, int64_t)>& step_from) {
  int64_t mem_low = memory.bytes(low);
  int64_t mem_high = memory.bytes(high);
  if (mem_high <= target) return high;
  for (int64_t delta = count(high) - count(low); delta > 1; delta = count(high) - count(low)) {
    int64_t headroom = mem_high - mem_low;
    int64_t quotient = headroom > 0 ? delta * (target - mem_low) / headroom : delta - 1;
    int64_t step = quotient < 0 ? delta - 1 : std::min(std::max<int64_t>(quotient, 1), delta - 1);
    Slots trial = step_from(low, step);
    int64_t mem_trial = memory.bytes(trial);
    if (mem_trial <= target) {
      low = trial;
      mem_low = mem_trial;
    } else {
      high = trial;
      mem_high = mem_trial;
    }
  }
  return low;
}

// Steps 3 and 4 on one device for a MoE model; the whole-layer counts they end on.
Slots replay_fit(const nlohmann::json& request, int64_t n_layers) {
  PinnedMemory memory(request, n_layers);
  const int64_t target = memory.device(Slots{})["usable_bytes"].get<int64_t>();
  // Step 3: the high bound takes every slot, all but the output layer partial.
  Slots all{n_layers + 1, n_layers};
  Slots placed = false_position(
      Slots{}, all, target, memory, [](const Slots& s) { return s.n_layer; },
      [](const Slots& s, int64_t step) {
        return Slots{s.n_layer + step, s.n_part + (s.n_part == 0 ? step - 1 : step)};
      });
  // Step 4 runs when the dense parts of every layer fit with all experts in RAM (-ngl all,
  // --n-cpu-moe all): convert partial layers to full ones, the first partial ones first.
  nlohmann::json dense = request;
  dense["cpu_moe_layers"] = n_layers;
  nlohmann::json dense_answer = llmcalc_test::estimate(dense);
  REQUIRE(dense_answer["ok"] == true);
  const auto& dense_device = dense_answer["result"]["memory"]["per_device"][0];
  if (dense_device["usable_bytes"].get<int64_t>() - dense_device["total_bytes"].get<int64_t>() <= 0) return placed;
  return false_position(
      placed, Slots{placed.n_layer, 0}, target, memory, [](const Slots& s) { return s.n_layer - s.n_part; },
      [](const Slots& s, int64_t step) { return Slots{s.n_layer, s.n_part - std::min(step, s.n_part)}; });
}

// --fit's answer for `request` against the replay; returns the replayed counts.
Slots check_fit_against_replay(const nlohmann::json& request) {
  nlohmann::json fit = llmcalc_test::estimate(request);
  REQUIRE(fit["ok"] == true);
  const auto& answer = fit["result"];
  REQUIRE(answer["memory"]["fit"]["status"] == "offload");
  const int64_t n_layers = answer["model"]["layers"].get<int64_t>();
  Slots replayed = replay_fit(request, n_layers);
  INFO("replayed: " << replayed.n_layer << " slots, " << replayed.n_part << " partial");
  CHECK(answer["memory"]["fit"]["gpu_layers"] == replayed.n_layer);
  // The layers whose experts stay in RAM: the replayed partial ones (--fit may then put part of
  // one more layer's experts on the GPU, which leaves that layer in the list).
  PinnedMemory memory(request, n_layers);
  memory.device(replayed);
  CHECK(answer["memory"]["fit"]["host_expert_layers"] == memory.memory()["fit"]["host_expert_layers"]);
  return replayed;
}

}  // namespace

TEST_CASE("--fit's layer counts are common/fit.cpp's false position on the memory of each placement",
          "[engines][fit][fit_search]") {
  SECTION("memory that falls as the last layers leave RAM (Mistral Large 3 IQ4_XS, RTX 4090 D, Ollama, 128K)") {
    const nlohmann::json request = {{"model", "mistral-large-3"}, {"weights", "IQ4_XS"}, {"hardware", "rtx-4090-d"},
                                    {"engine", "ollama"}, {"context_tokens", 131072}};
    Slots replayed = check_fit_against_replay(request);
    // What makes the case: fewer slots than the replay's do not fit where its count does (the last
    // layers moved off system RAM take the op-offload copies of their experts with them), so a
    // search that assumes memory grows with the count, a bisection, ends elsewhere.
    PinnedMemory memory(request, 61);
    const int64_t target = memory.device(replayed)["usable_bytes"].get<int64_t>();
    CHECK(memory.bytes(replayed) <= target);
    Slots fewer{replayed.n_layer - 4, replayed.n_layer - 5};
    CHECK(memory.bytes(fewer) > target);
  }
  SECTION("step 4 bringing experts back (Qwen3-30B-A3B Q4_K_M, RTX 3070, 8K)") {
    Slots replayed = check_fit_against_replay({{"model", "qwen3-30b-a3b"}, {"weights", "Q4_K_M"},
                                               {"hardware", "rtx-3070"}, {"context_tokens", 8192}});
    // Every layer's dense part fits in 8 GiB, so step 4 converted layers beyond step 3's one full one.
    CHECK(replayed.n_layer - replayed.n_part > 1);
  }
}
