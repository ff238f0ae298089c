// Whether two documents hold the same values of the same types (nlohmann's == holds 1, 1u and
// 1.0 equal, and 0.0 and -0.0), walked with a stack of its own so any depth a parser accepts
// can be compared. Shared by test_json_parser.cpp and tests/fuzz/fuzz_json.cpp.
#pragma once

#include <cstring>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmcalc_test {

inline bool same_json_document(const nlohmann::json& first, const nlohmann::json& second) {
  std::vector<std::pair<const nlohmann::json*, const nlohmann::json*>> pending{{&first, &second}};
  while (!pending.empty()) {
    const auto [a, b] = pending.back();
    pending.pop_back();
    if (a->type() != b->type()) return false;
    switch (a->type()) {
      case nlohmann::json::value_t::object: {
        if (a->size() != b->size()) return false;
        auto j = b->begin();
        for (auto i = a->begin(); i != a->end(); ++i, ++j) {
          if (i.key() != j.key()) return false;
          pending.emplace_back(&*i, &*j);
        }
        break;
      }
      case nlohmann::json::value_t::array:
        if (a->size() != b->size()) return false;
        for (std::size_t k = 0; k < a->size(); ++k) pending.emplace_back(&(*a)[k], &(*b)[k]);
        break;
      case nlohmann::json::value_t::number_float: {
        const double x = a->get<double>();
        const double y = b->get<double>();
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
        break;
      }
      default:
        if (*a != *b) return false;
    }
  }
  return true;
}

}  // namespace llmcalc_test
