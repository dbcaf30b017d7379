// The surface pressure of a dry state, as ICON4Py 0.2.0 diagnoses it for its output and its
// Jablonowski-Williamson checks (common/diagnostic_calculations/stencils/
// diagnose_surface_pressure.py, evaluated at the surface half level nlev): the pressure of the
// third level above the ground, p0ref * exner^(cpd/rd), brought down hydrostatically through
// half of that level and the two below it with their virtual temperatures theta_v * exner. It
// is a diagnostic of the driver (progress lines, output), not part of a granule.
#pragma once

#include <icondiff/core/physical_constants.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/kokkos_compat.hpp>

namespace icondiff {

/// pres_sfc(c) for every cell c of `exner`, `theta_v` and `ddqz_z_full` (C, nlev; nlev >= 3) in
/// ICON4Py's operation order, enqueued on `space`.
template <class ExecSpace, class MemorySpace>
void diagnose_surface_pressure(const ExecSpace& space, const View2D<wp, MemorySpace>& exner,
                               const View2D<wp, MemorySpace>& theta_v,
                               const View2D<wp, MemorySpace>& ddqz_z_full,
                               const View1D<wp, MemorySpace>& pres_sfc) {
  const int nlev = static_cast<int>(exner.extent(1));
  const auto ex = exner;
  const auto th = theta_v;
  const auto dz = ddqz_z_full;
  const auto ps = pres_sfc;
  Kokkos::parallel_for(
      "icondiff::diagnostics::diagnose_surface_pressure",
      Kokkos::RangePolicy<ExecSpace>(space, 0, pres_sfc.extent(0)), KOKKOS_LAMBDA(const int c) {
        // ICON4Py's virtual_temperature of a dry atmosphere: theta_v * exner.
        const wp tv1 = th(c, nlev - 1) * ex(c, nlev - 1);
        const wp tv2 = th(c, nlev - 2) * ex(c, nlev - 2);
        const wp tv3 = th(c, nlev - 3) * ex(c, nlev - 3);
        ps(c) = physics::p0ref *
                compat::exp(physics::cpd_o_rd * compat::log(ex(c, nlev - 3)) +
                            physics::grav_o_rd * (dz(c, nlev - 1) / tv1 + dz(c, nlev - 2) / tv2 +
                                                  0.5 * dz(c, nlev - 3) / tv3));
      });
}

}  // namespace icondiff
