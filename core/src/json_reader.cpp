// Bounded JSON field reads that turn type and range problems into issues.
#include "llmcalc/json_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

namespace llmcalc {

JsonReader::JsonReader(const nlohmann::json& object, std::string path, Issues& issues)
    : object_(object.is_object() ? &object : nullptr), path_(std::move(path)), issues_(issues) {
  if (!object_) {
    issues_.error("not_an_object", path_.empty() ? "/" : path_, "Expected a JSON object here.");
  }
}

const nlohmann::json* JsonReader::member(const char* key) const {
  if (!object_) return nullptr;
  read_.push_back(key);
  // As a string_view the key's length is counted once, not again at each comparison of the
  // object's search (a catalog model's arch config is read through some 200 lookups; issue #22).
  auto it = object_->find(std::string_view(key));
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

bool JsonReader::has(const char* key) const { return member(key) != nullptr; }

void JsonReader::mark_read(const char* key) const { read_.push_back(key); }

void JsonReader::warn_unread(const std::set<std::string>& known) const {
  if (!object_) return;
  int named = 0;
  for (const auto& item : object_->items()) {
    bool asked = std::any_of(read_.begin(), read_.end(), [&](const char* key) { return item.key() == key; });
    if (asked || known.count(item.key()) || ++named > 8) continue;
    std::string key = item.key().substr(0, 40);
    issues_.warning("unknown_key", json_pointer_append(path_, item.key()),
                    say(issues_.language, "'" + key + "' is not a key here; it is ignored.",
                        "'" + key + "' no es una clave válida aquí; se ignora."));
  }
}

std::string JsonReader::path_of(const char* key) const { return json_pointer_append(path_, key); }

void JsonReader::missing(const char* key) {
  issues_.error("missing_key", path_of(key), std::string("Required key '") + key + "' is missing.");
}

std::optional<int64_t> JsonReader::integer(const char* key, int64_t min, int64_t max,
                                           std::optional<int64_t> fallback) {
  const nlohmann::json* value = member(key);
  if (!value) {
    if (!fallback && object_) missing(key);
    return fallback;
  }
  bool integral = value->is_number_integer() || value->is_number_unsigned();
  if (value->is_number_float()) {
    double d = value->get<double>();
    integral = std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15;
  }
  if (!integral) {
    issues_.error("not_an_integer", path_of(key), std::string("'") + key + "' must be a whole number.");
    return std::nullopt;
  }
  bool in_range = false;
  int64_t result = 0;
  if (value->is_number_unsigned()) {
    uint64_t u = value->get<uint64_t>();
    in_range = u <= static_cast<uint64_t>(max) && static_cast<int64_t>(u) >= min;
    result = in_range ? static_cast<int64_t>(u) : 0;
  } else if (value->is_number_integer()) {
    result = value->get<int64_t>();
    in_range = result >= min && result <= max;
  } else {
    double d = value->get<double>();
    in_range = d >= static_cast<double>(min) && d <= static_cast<double>(max);
    result = in_range ? static_cast<int64_t>(d) : 0;
  }
  if (!in_range) {
    issues_.error("out_of_range", path_of(key),
                  std::string("'") + key + "' must be between " + std::to_string(min) + " and " +
                      std::to_string(max) + ".");
    return std::nullopt;
  }
  return result;
}

std::optional<double> JsonReader::number(const char* key, double min, double max,
                                         std::optional<double> fallback) {
  const nlohmann::json* value = member(key);
  if (!value) {
    if (!fallback && object_) missing(key);
    return fallback;
  }
  if (!value->is_number()) {
    issues_.error("not_a_number", path_of(key), std::string("'") + key + "' must be a number.");
    return std::nullopt;
  }
  double d = value->get<double>();
  if (!std::isfinite(d) || d < min || d > max) {
    issues_.error("out_of_range", path_of(key),
                  std::string("'") + key + "' is outside the accepted range.");
    return std::nullopt;
  }
  return d;
}

std::optional<bool> JsonReader::boolean(const char* key, std::optional<bool> fallback) {
  const nlohmann::json* value = member(key);
  if (!value) return fallback;
  if (!value->is_boolean()) {
    issues_.error("not_a_boolean", path_of(key), std::string("'") + key + "' must be true or false.");
    return std::nullopt;
  }
  return value->get<bool>();
}

std::optional<std::string> JsonReader::string(const char* key, std::size_t max_length,
                                              std::optional<std::string> fallback) {
  const nlohmann::json* value = member(key);
  if (!value) {
    if (!fallback && object_) missing(key);
    return fallback;
  }
  if (!value->is_string()) {
    issues_.error("not_a_string", path_of(key), std::string("'") + key + "' must be a string.");
    return std::nullopt;
  }
  const auto& text = value->get_ref<const std::string&>();
  if (text.size() > max_length) {
    issues_.error("too_long", path_of(key),
                  std::string("'") + key + "' is longer than " + std::to_string(max_length) +
                      " characters.");
    return std::nullopt;
  }
  return text;
}

const nlohmann::json* JsonReader::object(const char* key) {
  const nlohmann::json* value = member(key);
  if (!value) return nullptr;
  if (!value->is_object()) {
    issues_.error("not_an_object", path_of(key), std::string("'") + key + "' must be an object.");
    return nullptr;
  }
  return value;
}

namespace {

const nlohmann::json* member_of(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

std::string string_or(const nlohmann::json& object, const char* key, std::string fallback) {
  const nlohmann::json* value = member_of(object, key);
  return value && value->is_string() ? value->get<std::string>() : fallback;
}

bool boolean_or(const nlohmann::json& object, const char* key, bool fallback) {
  const nlohmann::json* value = member_of(object, key);
  return value && value->is_boolean() ? value->get<bool>() : fallback;
}

int64_t integer_or(const nlohmann::json& object, const char* key, int64_t fallback) {
  const nlohmann::json* value = member_of(object, key);
  return value && value->is_number_integer() ? value->get<int64_t>() : fallback;
}

std::optional<std::vector<bool>> read_name_list(const nlohmann::json& request, const char* key,
                                                const std::vector<const char*>& allowed, const char* code,
                                                Issues& issues) {
  auto list = request.find(key);
  if (list == request.end()) return std::vector<bool>();
  std::string names;
  for (const char* name : allowed) names += std::string(names.empty() ? "'" : ", '") + name + "'";
  const std::string path = std::string("/") + key;
  if (!list->is_array() || list->empty() || list->size() > allowed.size()) {
    issues.error(code, path, std::string("'") + key + "' is a list of " + names + ".");
    return std::nullopt;
  }
  std::vector<bool> wanted(allowed.size(), false);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& name = (*list)[i];
    std::size_t at = 0;
    while (at < allowed.size() && !(name.is_string() && name.get_ref<const std::string&>() == allowed[at])) ++at;
    if (at == allowed.size()) {
      issues.error(code, path + "/" + std::to_string(i), "Unknown name; use " + names + ".");
      return std::nullopt;
    }
    wanted[at] = true;
  }
  return wanted;
}

}  // namespace llmcalc
