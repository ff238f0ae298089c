// The deployment planner. For each catalog device it walks a ladder of setups, smallest first
// (one device; a machine filled in doubling steps up to max_devices_per_machine; then 2, 4, ...
// machines of that many), and keeps the first that serves the users: every user's context held
// (vLLM / SGLang: the KV pool holds users x context tokens; llama.cpp and the others: the cache
// of `users` slots fits without offload) and each user decoding at the target speed while all
// decode together. vLLM and SGLang try their documented layout first (tensor parallel in a
// machine, pipeline across machines for vLLM; tensor parallel over all for SGLang), then, for
// MoE models, data-parallel attention with expert parallel over every device, which keeps each
// replica's cache on its own ranks instead of on every rank.
#include "llmcalc/planner.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "llmcalc/cost.h"
#include "llmcalc/evaluation.h"
#include "llmcalc/json_reader.h"
#include "llmcalc/scenario.h"
#include "engine_memory.h"
#include "stable_insertion_sort.h"

namespace llmcalc {
namespace {

struct Targets {
  int64_t users = 1;
  double tokens_per_s = 1;
  std::vector<std::string> devices;  // catalog ids to try; empty: all
  int64_t max_per_machine = 8;
  int64_t max_machines = 8;
};

std::optional<Targets> read_targets(const nlohmann::json& request, Issues& issues) {
  auto it = request.find("plan");
  if (it == request.end() || it->is_null()) {
    issues.error("missing_field", "/plan", "plan needs {\"users\", \"tokens_per_s\"}.");
    return std::nullopt;
  }
  JsonReader reader(*it, "/plan", issues);
  if (!reader.valid()) return std::nullopt;
  Targets t;
  auto users = reader.integer("users", 1, kMaxBatch);
  auto speed = reader.number("tokens_per_s", 0.01, 100000);
  auto per_machine = reader.integer("max_devices_per_machine", 1, 64, 8);
  auto machines = reader.integer("max_machines", 1, kMaxNodes, 8);
  if (!users || !speed || !per_machine || !machines) return std::nullopt;
  t.users = *users;
  t.tokens_per_s = *speed;
  t.max_per_machine = *per_machine;
  t.max_machines = *machines;
  reader.mark_read("devices");
  reader.warn_unread();
  auto devices = it->find("devices");
  if (devices != it->end() && !devices->is_null()) {
    if (!devices->is_array() || devices->size() > 256) {
      issues.error("bad_devices", "/plan/devices", "devices must list up to 256 catalog ids.");
      return std::nullopt;
    }
    for (std::size_t i = 0; i < devices->size(); ++i) {
      const nlohmann::json& id = (*devices)[i];
      if (!id.is_string() || !find_catalog_hardware(id.get<std::string>())) {
        issues.error("unknown_hardware", "/plan/devices/" + std::to_string(i), "Not a catalog device id.");
        return std::nullopt;
      }
      t.devices.push_back(id.get<std::string>());
    }
  }
  return t;
}

// (devices per machine, machines), smallest first. A Mac or another unified-memory machine is
// one device per machine.
std::vector<std::pair<int64_t, int64_t>> ladder(const Hardware& device, const Targets& t) {
  std::vector<std::pair<int64_t, int64_t>> steps;
  int64_t per_machine = 1;
  if (device.kind == "discrete") {
    for (; per_machine <= t.max_per_machine; per_machine *= 2) steps.push_back({per_machine, 1});
    per_machine = steps.back().first;
  } else {
    steps.push_back({1, 1});
  }
  for (int64_t machines = 2; machines <= t.max_machines; machines *= 2) steps.push_back({per_machine, machines});
  return steps;
}

bool serves(const Scenario& s, const Evaluation& e, const Targets& t) {
  const MemoryEstimate& m = e.memory;
  bool held = is_paged_server(s.engine.engine)
                  ? m.verdict != "oom" && m.max_concurrent_sequences >= static_cast<double>(t.users)
                  : m.verdict == "comfortable" || m.verdict == "tight";
  return held && e.speed.decode_tokens_per_s >= t.tokens_per_s;
}

nlohmann::json row(const Scenario& s, const Evaluation& e, bool serving) {
  int64_t machines = s.machines();
  int64_t per_machine = s.devices / machines;
  double buy = s.hardware.price_usd >= 0 ? s.hardware.price_usd * static_cast<double>(s.devices) : -1;
  nlohmann::json offer = cheapest_offer(s.hardware.id, s.devices);
  int64_t largest = 0;
  for (const DeviceMemory& device : e.memory.per_device) largest = std::max(largest, device.total_bytes);
  return {{"device", s.hardware.id},
          {"name", s.hardware.name},
          {"devices", s.devices},
          {"devices_per_machine", per_machine},
          {"machines", machines},
          {"category", s.devices == 1 ? "one_device" : machines == 1 ? "one_machine" : "several_machines"},
          {"parallel", is_paged_server(s.engine.engine)
                           ? nlohmann::json{{"tensor", s.parallel.tensor}, {"pipeline", s.parallel.pipeline},
                                            {"data", s.parallel.data}, {"expert", s.parallel.expert}}
                           : nlohmann::json(nullptr)},
          {"serves", serving},
          {"verdict", e.memory.verdict},
          {"tokens_per_s", e.speed.decode_tokens_per_s},
          {"aggregate_tokens_per_s", e.speed.decode_aggregate_tokens_per_s},
          {"max_concurrent_sequences", e.memory.max_concurrent_sequences},
          {"largest_device_bytes", largest},
          {"usable_per_device_bytes", e.memory.per_device.empty() ? 0 : e.memory.per_device.front().usable_bytes},
          {"buy_usd", buy >= 0 ? nlohmann::json(buy) : nlohmann::json(nullptr)},
          {"rent_usd_per_hour", offer.is_null() ? nlohmann::json(nullptr) : offer["usd_per_hour"]},
          {"rent_offer", offer.is_null() ? nlohmann::json(nullptr)
                                         : nlohmann::json{{"provider", offer["provider"]}, {"product", offer["product"]}}}};
}

double or_infinity(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : std::numeric_limits<double>::infinity();
}

}  // namespace

nlohmann::json plan_deployments(const nlohmann::json& request, Issues& issues) {
  if (!request.is_object()) {
    issues.error("not_an_object", "", "A plan request is a JSON object.");
    return nullptr;
  }
  std::optional<Targets> targets = read_targets(request, issues);
  if (!targets) return nullptr;
  nlohmann::json base_request = request;
  base_request.erase("plan");
  base_request["batch"] = targets->users;
  std::optional<Scenario> resolved = resolve_scenario(base_request, issues);
  if (!resolved) return nullptr;
  Scenario& s = *resolved;  // reused for every setup: the model is never copied
  const ModelSpec& model = s.model;

  Issues own_issues;
  std::optional<Evaluation> own = evaluate(s, model, own_issues, false);
  nlohmann::json current = own ? row(s, *own, serves(s, *own, *targets)) : nlohmann::json(nullptr);

  bool moe = model.params.experts_routed > 0;
  nlohmann::json setups = nlohmann::json::array();
  int64_t evaluated = 0;
  for (const Hardware& device : catalog_hardware()) {
    if (!targets->devices.empty() &&
        std::find(targets->devices.begin(), targets->devices.end(), device.id) == targets->devices.end()) {
      continue;
    }
    for (const auto& [per_machine, machines] : ladder(device, *targets)) {
      s.use_devices(device, per_machine, machines);
      s.network = request.contains("network") ? s.network : default_network(device);
      s.speed = default_speed_assumptions(speed_calibration_key(device), s.engine.engine);
      std::vector<ParallelPlan> layouts = {s.parallel};
      if (moe && is_paged_server(s.engine.engine) && s.devices > 1) layouts.push_back({1, 1, s.devices, true});
      std::optional<nlohmann::json> found;
      for (const ParallelPlan& layout : layouts) {
        s.parallel = layout;
        s.apply_device_defaults();
        Issues setup_issues;
        std::optional<Evaluation> e = evaluate(s, model, setup_issues, false);
        ++evaluated;
        if (e && serves(s, *e, *targets)) {
          found = row(s, *e, true);
          break;
        }
      }
      if (found) {
        setups.push_back(*found);
        break;
      }
    }
  }
  stable_insertion_sort(setups, [](const nlohmann::json& a, const nlohmann::json& b) {
    double ra = or_infinity(a["rent_usd_per_hour"]);
    double rb = or_infinity(b["rent_usd_per_hour"]);
    return ra != rb ? ra < rb : or_infinity(a["buy_usd"]) < or_infinity(b["buy_usd"]);
  });
  nlohmann::json cheapest_rent = nullptr;
  nlohmann::json cheapest_buy = nullptr;
  for (const nlohmann::json& setup : setups) {
    if (setup["rent_usd_per_hour"].is_number() && cheapest_rent.is_null()) cheapest_rent = setup;
    if (setup["buy_usd"].is_number() &&
        (cheapest_buy.is_null() || setup["buy_usd"].get<double>() < cheapest_buy["buy_usd"].get<double>())) {
      cheapest_buy = setup;
    }
  }
  return {{"users", targets->users},
          {"tokens_per_s", targets->tokens_per_s},
          {"context_tokens", s.context_tokens},
          {"engine", s.engine.engine},
          {"current", current},
          {"setups", std::move(setups)},
          {"cheapest_to_buy", cheapest_buy},
          {"cheapest_to_rent", cheapest_rent},
          {"evaluated", evaluated}};
}

}  // namespace llmcalc
