// A half-open [start, end) range of horizontal indices: what every kernel iterates over. ICON
// orders its arrays so each zone is such a range (grid/zones.hpp).
#pragma once

#include <icondiff/core/types.hpp>

namespace icondiff {

struct IndexRange {
  index_t start = 0;
  index_t end = 0;

  constexpr index_t size() const { return end > start ? end - start : 0; }
  constexpr bool empty() const { return end <= start; }
  constexpr bool contains(index_t i) const { return i >= start && i < end; }
  friend constexpr bool operator==(IndexRange a, IndexRange b) {
    return a.start == b.start && a.end == b.end;
  }
};

}  // namespace icondiff
