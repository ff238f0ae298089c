// The entry points of the requests: each request parsed and checked, each answer in the JSON
// envelope (the catalog listing and the model-file readers' answers have files of their own,
// built for size).
#include "llmcalc/api.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "llmcalc/explore.h"
#include "llmcalc/planner.h"
#include "llmcalc/rank.h"
#include "llmcalc/issues.h"
#include "envelope.h"
#include "estimate_answer.h"
#include "json_text.h"

#ifndef LLMCALC_VERSION
#define LLMCALC_VERSION "0.0.0"
#endif

namespace llmcalc {
namespace {

constexpr std::size_t kMaxRequestBytes = 16 * 1024 * 1024;
constexpr int kMaxNestingDepth = 64;

// Deepest [ / { nesting outside strings; checked before parsing so hostile input cannot recurse.
int nesting_depth(const std::string& text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > kMaxNestingDepth) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Size and depth limits and parsing: the request, or nothing with the reason in `issues`.
std::optional<nlohmann::json> parsed_request(const std::string& request_json, Issues& issues) {
  if (request_json.size() > kMaxRequestBytes) {
    issues.error("request_too_large", "", "The request is larger than 16 MiB.");
    return std::nullopt;
  }
  if (nesting_depth(request_json) > kMaxNestingDepth) {
    issues.error("too_deep", "", "The request nests deeper than 64 levels.");
    return std::nullopt;
  }
  nlohmann::json request = parse_json(request_json);
  if (request.is_discarded()) {
    issues.error("malformed_json", "", "The request is not valid JSON.");
    return std::nullopt;
  }
  return request;
}

// The envelope around a request handler, which writes its result as JSON text. The core is
// built without exceptions (core/CMakeLists.txt): a broken invariant aborts, never a half-made
// answer.
std::string guarded(const std::string& request_json, std::string (*handler)(const nlohmann::json&, Issues&)) {
  Issues issues;
  std::optional<nlohmann::json> request = parsed_request(request_json, issues);
  if (!request) return envelope(issues, nullptr);
  std::string result = handler(*request, issues);
  return envelope_around(issues, result);
}

}  // namespace

std::string estimate_json(const std::string& request_json) {
  return guarded(request_json, estimate_answer);
}

std::string rank_json(const std::string& request_json) {
  return guarded(request_json, rank_models);
}

std::string explore_json(const std::string& request_json) {
  return guarded(request_json, explore);
}

std::string plan_json(const std::string& request_json) {
  return guarded(request_json, [](const nlohmann::json& request, Issues& issues) {
    return json_text(plan_deployments(request, issues));
  });
}

std::string version() { return LLMCALC_VERSION; }

}  // namespace llmcalc
