// Validation findings: errors block a result, warnings do not (DESIGN.md "Errors").
#pragma once

#include <string>
#include <vector>

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

 private:
  std::vector<Issue> list_;
};

/// Appends a key to a JSON pointer, escaping '~' and '/' as RFC 6901 requires.
std::string json_pointer_append(const std::string& base, const std::string& key);

}  // namespace llmcalc
