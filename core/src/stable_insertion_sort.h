// Internal: a stable sort for the short lists the core orders (cloud offers, multi-GPU
// combinations, a plan's setups: a few hundred entries at most), where libc++'s std::stable_sort
// cost 3-5 KB of the module's code for each comparator (issue #22).
#pragma once

#include <cstddef>
#include <utility>

namespace llmcalc {

// Orders `items` (a std::vector, or a JSON array) by `less`, keeping equal ones in the order
// they had.
template <typename Items, typename Less>
void stable_insertion_sort(Items& items, Less less) {
  for (std::size_t i = 1; i < items.size(); ++i) {
    auto item = std::move(items[i]);
    std::size_t at = i;
    for (; at > 0 && less(item, items[at - 1]); --at) items[at] = std::move(items[at - 1]);
    items[at] = std::move(item);
  }
}

}  // namespace llmcalc
