// Typed, bounded reads of user-supplied JSON objects; every problem becomes an Issue with a path.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmcalc/issues.h"

namespace llmcalc {

class JsonReader {
 public:
  /// `object` must outlive the reader; a non-object records an error and reads nothing.
  JsonReader(const nlohmann::json& object, std::string path, Issues& issues);

  bool valid() const { return object_ != nullptr; }
  /// True when the key is present and not null.
  bool has(const char* key) const;
  std::string path_of(const char* key) const;

  /// Integer in [min, max]. Absent or null gives `fallback` (or an error when required).
  std::optional<int64_t> integer(const char* key, int64_t min, int64_t max,
                                 std::optional<int64_t> fallback = std::nullopt);
  std::optional<double> number(const char* key, double min, double max,
                               std::optional<double> fallback = std::nullopt);
  std::optional<bool> boolean(const char* key, std::optional<bool> fallback = std::nullopt);
  std::optional<std::string> string(const char* key, std::size_t max_length = 256,
                                    std::optional<std::string> fallback = std::nullopt);
  /// The member if it is an object, else nullptr (an error if present but not an object).
  const nlohmann::json* object(const char* key);

  /// A key read some other way (a list, a nested object) counts as read.
  void mark_read(const char* key) const;
  /// Names the keys of the object no read asked for (nor listed in `known`): a warning
  /// `unknown_key` at each one's path, up to eight, so a misspelt key is not silently dropped.
  void warn_unread(const std::set<std::string>& known = {}) const;

  Issues& issues() { return issues_; }
  const std::string& path() const { return path_; }

 private:
  const nlohmann::json* member(const char* key) const;
  void missing(const char* key);

  const nlohmann::json* object_;
  std::string path_;
  Issues& issues_;
  mutable std::vector<const char*> read_;  // the keys asked for (string literals)
};

/// The names `request[key]` lists, as flags in `allowed`'s order: empty when the key is absent;
/// nullopt, with the error `code` (its message naming the allowed names) at the list's or the
/// item's path, when the value is not a non-empty list of at most as many allowed names.
std::optional<std::vector<bool>> read_name_list(const nlohmann::json& request, const char* key,
                                                const std::vector<const char*>& allowed, const char* code,
                                                Issues& issues);

/// `object[key]` when `object` is an object whose `key` holds a value of the fallback's type,
/// else the fallback, silently: for JSON a user or a file supplied, where nlohmann's value()
/// would throw on another type (the core is built without exceptions, so it must never).
std::string string_or(const nlohmann::json& object, const char* key, std::string fallback);
bool boolean_or(const nlohmann::json& object, const char* key, bool fallback);
int64_t integer_or(const nlohmann::json& object, const char* key, int64_t fallback);

}  // namespace llmcalc
