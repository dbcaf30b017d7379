// The Jablonowski-Williamson state (jablonowski_williamson.hpp) as the solve_nh granule's
// per-call states: what a driver of the dynamical core starts from (the baroclinic-wave job, the
// granule's tests and benchmark, the ICON4Py comparison). The prognostic state is JW06's (with
// its optional noise); the diagnostic fields ICON initialises from it are set as simple level
// means (theta_v and rho at half levels; the surface and top half levels take the adjacent full
// level), exner_pr from the static reference exner; everything else starts at 0, as the fields
// the first substep (at_initial_timestep) computes before reading. On a limited-area grid the
// boundary tendencies are allocated (zero: a driver without a parent model sets them).
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

/// The states on `grid` (the grid of `inputs`; its heights z_ifc (C, nlev + 1) and z_mc
/// (C, nlev) from the metrics factory). Throws what jablonowski_williamson_state throws, and
/// InvalidArgument when `inputs` does not have the grid's sizes.
SolveNhHostStates jablonowski_williamson_solve_nh_states(
    const Grid& grid, const HostTable<double>& z_ifc, const HostTable<double>& z_mc,
    const DycoreInputs<Kokkos::HostSpace>& inputs, const JablonowskiWilliamsonConfig& config);

}  // namespace icondiff
