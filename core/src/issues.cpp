// Issue list and JSON-pointer helpers.
#include "llmcalc/issues.h"

#include <algorithm>
#include <utility>

namespace llmcalc {

void Issues::error(std::string code, std::string path, std::string message) {
  list_.push_back({Severity::error, std::move(code), std::move(path), std::move(message)});
}

void Issues::warning(std::string code, std::string path, std::string message) {
  list_.push_back({Severity::warning, std::move(code), std::move(path), std::move(message)});
}

bool Issues::has_errors() const {
  return std::any_of(list_.begin(), list_.end(),
                     [](const Issue& issue) { return issue.severity == Severity::error; });
}

std::string json_pointer_append(const std::string& base, const std::string& key) {
  std::string out = base + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace llmcalc
