// The one place that maps a stencil's (point, level) iteration space to a Kokkos policy, so loop
// order and tiling are tuned in one spot for every backend.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/grid/zones.hpp>

#include <string>

namespace icondiff {

/// Launches `body(point, level)` for every point in `points` and level in [level_begin,
/// level_end) on `space`. Empty ranges launch nothing.
template <class ExecSpace, class Body>
void parallel_for_points_levels(const std::string& label, const ExecSpace& space, IndexRange points,
                                index_t level_begin, index_t level_end, const Body& body) {
  if (points.empty() || level_end <= level_begin) return;
  // Point index fastest within and across tiles: consecutive threads/iterations touch
  // consecutive memory of (points, levels) LayoutLeft fields.
  using Policy =
      Kokkos::MDRangePolicy<ExecSpace,
                            Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                            Kokkos::IndexType<index_t>>;
  Kokkos::parallel_for(label, Policy(space, {points.start, level_begin}, {points.end, level_end}),
                       body);
}

/// Launches `body(level)` for level in [level_begin, level_end).
template <class ExecSpace, class Body>
void parallel_for_levels(const std::string& label, const ExecSpace& space, index_t level_begin,
                         index_t level_end, const Body& body) {
  if (level_end <= level_begin) return;
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space, level_begin, level_end),
      body);
}

}  // namespace icondiff
