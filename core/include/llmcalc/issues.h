// Validation findings: errors block a result, warnings do not (DESIGN.md "Errors").
#pragma once

#include <string>
#include <vector>

#include "llmcalc/language.h"

namespace llmcalc {

enum class Severity { error, warning };

struct Issue {
  Severity severity;
  std::string code;     // stable snake_case identifier
  std::string path;     // JSON pointer into the request, e.g. "/model/num_key_value_heads"
  std::string message;  // one plain sentence
};

class Issues {
 public:
  void error(std::string code, std::string path, std::string message);
  void warning(std::string code, std::string path, std::string message);
  bool has_errors() const;
  const std::vector<Issue>& list() const { return list_; }

  /// The language the messages are written in (the request's "lang"), for code that has the
  /// issues at hand but not the scenario (the config reader's warnings).
  Language language = Language::en;

 private:
  std::vector<Issue> list_;
};

/// Appends a key to a JSON pointer, escaping '~' and '/' as RFC 6901 requires.
std::string json_pointer_append(const std::string& base, const std::string& key);

}  // namespace llmcalc
