// The Jablonowski-Williamson state (jablonowski_williamson.hpp) as the solve_nh granule's
// per-call states: what a driver of the dynamical core starts from (the baroclinic-wave job, the
// granule's tests and benchmark, the ICON4Py comparison). The prognostic state is JW06's (with
// its optional noise); exner_pr is set from the static reference exner; every other diagnostic
// field starts at 0, as ICON4Py's JW initial condition leaves it: the first
// substep (at_initial_timestep) computes them before reading, except the surface's rho_ic, which
// ICON never writes and whose 0 the implicit solver needs (solve_nh_initial_state.cpp). On a
// limited-area grid the boundary tendencies are allocated (zero: a driver without a parent model
// sets them).
#pragma once

#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/dycore/solve_nonhydro_states.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

namespace icondiff {

/// The per-call states of the granule on the host.
struct SolveNhHostStates {
  SolveNhPrognosticState<Kokkos::HostSpace> current, next;  ///< next: a copy of current
  SolveNhDiagnosticState<Kokkos::HostSpace> diagnostic;
  SolveNhPrepAdvection<Kokkos::HostSpace> prep_adv;
};

/// Whether the analytic state is brought into the model's discrete hydrostatic balance.
enum class HydrostaticAdjustment {
  /// The analytic rho, exner and theta_v as they are (the diffusion's and the granule tests').
  none,
  /// ICON4Py's hydrostatic_adjustment_ndarray (driver/testcases/utils.py, as its JW initialisation
  /// model_initialization_jabw applies it; ICON's hydro_adjust): keeping the virtual temperature,
  /// exner on every level above the lowest is the root of the quadratic that makes the discrete
  /// vertical pressure gradient of solve_nh (reference-state split, wgtfac_c, ddqz_z_half) balance
  /// buoyancy, top-down from the lowest level; theta_v and rho follow. What a dynamics run needs:
  /// one 600 s step of the steady JW state on R2B1 x 12 levels excites max |w| = 0.13 m/s from
  /// the analytic state, 0.004 m/s from the adjusted one (test_dynamics_time_loop).
  icon4py,
};

/// The states on `grid` (the grid of `inputs`; its heights z_ifc (C, nlev + 1) and z_mc
/// (C, nlev) from the metrics factory). Throws what jablonowski_williamson_state throws, and
/// InvalidArgument when `inputs` does not have the grid's sizes.
SolveNhHostStates jablonowski_williamson_solve_nh_states(
    const Grid& grid, const HostTable<double>& z_ifc, const HostTable<double>& z_mc,
    const DycoreInputs<Kokkos::HostSpace>& inputs, const JablonowskiWilliamsonConfig& config,
    HydrostaticAdjustment adjustment = HydrostaticAdjustment::none);

/// ICON4Py's hydrostatic_adjustment_ndarray in place on the host fields rho, exner, theta_v (C,
/// nlev) with the metric fields of `inputs`: levels nlev - 2 up to 0 from the level below, the
/// lowest level kept. Exposed for its test.
void apply_hydrostatic_adjustment(const DycoreInputs<Kokkos::HostSpace>& inputs,
                                  const View2D<wp, Kokkos::HostSpace>& rho,
                                  const View2D<wp, Kokkos::HostSpace>& exner,
                                  const View2D<wp, Kokkos::HostSpace>& theta_v);

}  // namespace icondiff
