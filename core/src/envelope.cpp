// The JSON envelope of every answer: its issues, the API version, and the result when no issue
// is an error.
#include "envelope.h"

#include <utility>

#include "llmcalc/api.h"
#include "json_text.h"

namespace llmcalc {
namespace {

nlohmann::json issues_json(const Issues& issues) {
  nlohmann::json out = nlohmann::json::array();
  for (const Issue& issue : issues.list()) {
    out.push_back({{"severity", issue.severity == Severity::error ? "error" : "warning"},
                   {"code", issue.code},
                   {"path", issue.path},
                   {"message", issue.message}});
  }
  return out;
}

// The envelope's keys but the result.
nlohmann::json envelope_head(const Issues& issues) {
  return {{"ok", !issues.has_errors()}, {"api_version", kApiVersion}, {"issues", issues_json(issues)}};
}

}  // namespace

std::string envelope(const Issues& issues, nlohmann::json result) {
  nlohmann::json out = envelope_head(issues);
  if (!issues.has_errors()) out["result"] = std::move(result);
  return json_text(out);
}

// "result" sorts after the envelope's other keys, so it closes the text dump() writes without it.
std::string envelope_around(const Issues& issues, const std::string& result_text) {
  if (issues.has_errors()) return envelope(issues, nullptr);
  std::string out = json_text(envelope_head(issues));
  out.pop_back();  // the closing brace
  out += ",\"result\":";
  out += result_text;
  out += '}';
  return out;
}

}  // namespace llmcalc
