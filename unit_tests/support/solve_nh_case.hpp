// A solve_nh granule case on a whole grid: the global factories' static fields with every granule
// selected and a gaussian hill, and a Jablonowski-Williamson state with noise
// (testcases/solve_nh_initial_state.hpp; on a limited-area grid small constant boundary
// tendencies), plus the substep arguments and time-level swaps of ICON's integrate_nh. Used by
// the decomposition and savepoint tests.
#pragma once

#include "support/test_grids.hpp"

#include <icondiff/core/state_ops.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>

#include <string>
#include <utility>
#include <vector>

namespace icondiff::test {

/// The per-call states of the granule in one memory space.
template <class MemorySpace>
struct SolveNhStates {
  SolveNhPrognosticState<MemorySpace> current, next;
  SolveNhDiagnosticState<MemorySpace> diagnostic;
  SolveNhPrepAdvection<MemorySpace> prep_adv;
};

/// Fresh copies of every state in `To` (max_vertical_cfl included).
template <class To, class From>
SolveNhStates<To> copy_states(const SolveNhStates<From>& s, const std::string& scope) {
  SolveNhStates<To> out{copy_state<To>(s.current, scope + "current::"),
                        copy_state<To>(s.next, scope + "next::"),
                        copy_state<To>(s.diagnostic, scope + "diagnostic::"),
                        copy_state<To>(s.prep_adv, scope + "prep_adv::")};
  out.diagnostic.max_vertical_cfl = s.diagnostic.max_vertical_cfl;
  return out;
}

struct SolveNhCase {
  HostStaticInputs host;
  DycoreInputs<Kokkos::HostSpace> inputs;  ///< the whole grid's, on the host
  std::vector<double> vct_a;
  SolveNhStates<Kokkos::HostSpace> initial;
};

/// The case on `grid` with `nlev` levels.
inline SolveNhCase make_solve_nh_case(const Grid& grid, int nlev) {
  using H = Kokkos::HostSpace;
  SolveNhCase c;
  StaticsSetupConfig setup;
  setup.vertical.num_levels = nlev;
  setup.interpolation = interpolation_config_for(grid);  // a generated cut-out's narrower rim
  setup.metrics.topography = TopographyConfig::gaussian_hill(3000.0, 300e3, 8.0, 46.5);
  c.host = compute_static_inputs(grid, setup, StaticFieldSelection::all());
  const auto statics = make_static_fields<H>(c.host);
  c.inputs = make_dycore_inputs<H>(c.host, statics, DeviceGrid<H>(c.host.grid));
  c.vct_a = c.host.metrics.vertical.vct_a;

  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 1.0;
  jw.w_noise_amplitude = 0.02;
  jw.noise_seed = 11;
  SolveNhHostStates states = jablonowski_williamson_solve_nh_states(
      c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc, c.inputs, jw);
  SolveNhStates<H>& s = c.initial;
  s.current = states.current;
  s.next = states.next;
  s.diagnostic = states.diagnostic;
  s.prep_adv = states.prep_adv;
  // In a limited-area run the boundary tendencies come from the parent; here small constants.
  if (grid.limited_area) {
    auto& d = s.diagnostic;
    Kokkos::deep_copy(d.grf_tend_rho, 1e-7);
    Kokkos::deep_copy(d.grf_tend_thv, 1e-5);
    Kokkos::deep_copy(d.grf_tend_w, 1e-6);
    Kokkos::deep_copy(d.grf_tend_vn, 1e-5);
  }
  return c;
}

/// The arguments of substep `substep` of physics step `step` (of `substeps` each), as
/// test_mpi_solve_nh runs them: second-order divergence damping in the first physics step only,
/// the tracer fluxes prepared every substep.
inline SolveNhStep solve_nh_substep(int step, int substep, int substeps, double dtime) {
  SolveNhStep s;
  s.dtime = dtime;
  s.ndyn_substeps_var = substeps;
  s.second_order_divdamp_factor = step == 0 ? 0.032 : 0.0;
  s.at_initial_timestep = step == 0;
  s.lprep_adv = true;
  s.at_first_substep = substep == 0;
  s.at_last_substep = substep == substeps - 1;
  return s;
}

/// What ICON's integrate_nh does after a substep: the time levels and the predictor/corrector
/// tendency slots swap.
template <class MemorySpace>
void swap_time_levels(SolveNhStates<MemorySpace>& s) {
  std::swap(s.current, s.next);
  std::swap(s.diagnostic.predictor_normal_wind_advective_tendency,
            s.diagnostic.corrector_normal_wind_advective_tendency);
  std::swap(s.diagnostic.predictor_vertical_wind_advective_tendency,
            s.diagnostic.corrector_vertical_wind_advective_tendency);
}

}  // namespace icondiff::test
