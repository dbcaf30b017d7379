// A cheap guard after a granule call: the first non-finite value of the prognostic state (one
// Kokkos min-reduction per field over (point, level)), so a driver can stop with the field,
// point and level instead of running on with inf/NaN. Optional in the library (the granule does
// not call it); the CLI runs it after every step unless told not to.
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <optional>
#include <string>

namespace icondiff {

struct NonFiniteValue {
  std::string field;  ///< "vn", "w", "theta_v", "exner"
  Location location = Location::Cell;
  index_t point = 0;  ///< local point index (0-based)
  int level = 0;      ///< 0-based (half levels for w)
  double value = 0.0;
};

namespace detail {
/// The level-major linear index k * points + i of the first non-finite value of a (point, level)
/// field (the lowest level first, then the lowest point on it), or points * levels if none.
/// A function of its own, not a generic lambda: CUDA forbids device lambdas inside those.
template <class ExecSpace, class View>
long first_non_finite_index(const ExecSpace& space, const View& view) {
  const auto points = static_cast<long>(view.extent(0));
  const auto levels = static_cast<long>(view.extent(1));
  long first = points * levels;
  Kokkos::parallel_reduce(
      "icondiff::checks::non_finite", Kokkos::RangePolicy<ExecSpace>(space, 0, points * levels),
      KOKKOS_LAMBDA(const long n, long& lowest) {
        const long i = n % points, k = n / points;
        if (!compat::isfinite(view(i, k)) && n < lowest) lowest = n;
      },
      Kokkos::Min<long>(first));
  return first;
}
}  // namespace detail

/// The first (lowest point, then lowest level, field by field in list order) non-finite value of
/// `state`, or none. Fences `space`.
template <class ExecSpace, class MemorySpace>
std::optional<NonFiniteValue> find_non_finite(const ExecSpace& space,
                                              const DiffusionPrognosticState<MemorySpace>& state) {
  std::optional<NonFiniteValue> found;
  DiffusionPrognosticState<MemorySpace>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if (found || view.size() == 0) return;
        const auto points = static_cast<long>(view.extent(0));
        const long first = detail::first_non_finite_index(space, view);
        if (first >= points * static_cast<long>(view.extent(1))) return;
        const long i = first % points, k = first / points;
        double value = 0.0;
        Kokkos::deep_copy(space, Kokkos::View<double, Kokkos::HostSpace>(&value),
                          Kokkos::subview(view, i, k));
        space.fence();
        found = NonFiniteValue{spec.name, spec.location, static_cast<index_t>(i),
                               static_cast<int>(k), value};
      },
      state);
  return found;
}

}  // namespace icondiff
