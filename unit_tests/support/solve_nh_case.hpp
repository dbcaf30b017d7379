// A solve_nh granule case on a whole grid, as test_mpi_solve_nh builds it: the global factories'
// static fields with every granule selected and a gaussian hill, and a Jablonowski-Williamson
// state with noise (exner_pr from the reference exner, theta_v and rho on half levels as level
// means, everything else 0; on a limited-area grid small constant boundary tendencies), plus the
// substep arguments and time-level swaps of ICON's integrate_nh. Used by the savepoint tests.
#pragma once

#include <icondiff/core/state_ops.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

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
  setup.metrics.topography = TopographyConfig::gaussian_hill(3000.0, 300e3, 8.0, 46.5);
  c.host = compute_static_inputs(grid, setup, StaticFieldSelection::all());
  const auto statics = make_static_fields<H>(c.host);
  c.inputs = make_dycore_inputs<H>(c.host, statics, DeviceGrid<H>(c.host.grid));
  c.vct_a = c.host.metrics.vertical.vct_a;

  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 1.0;
  jw.w_noise_amplitude = 0.02;
  jw.noise_seed = 11;
  const InitialState jws =
      jablonowski_williamson_state(c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc, jw);
  const FieldSizes sizes = c.inputs.sizes();
  SolveNhStates<H>& s = c.initial;
  s.current = allocate_state<SolveNhPrognosticState, H>(sizes, "icondiff::test::current::");
  s.diagnostic = allocate_state<SolveNhDiagnosticState, H>(sizes, "icondiff::test::diag::");
  s.prep_adv = allocate_state<SolveNhPrepAdvection, H>(sizes, "icondiff::test::prep_adv::");
  const std::size_t nc = sizes.cells, ne = sizes.edges, k_end = sizes.nlev;
  for (std::size_t k = 0; k < k_end; ++k) {
    for (std::size_t e = 0; e < ne; ++e) s.current.vn(e, k) = jws.vn[e + ne * k];
    for (std::size_t i = 0; i < nc; ++i) {
      s.current.theta_v(i, k) = jws.theta_v[i + nc * k];
      s.current.exner(i, k) = jws.exner[i + nc * k];
      s.current.rho(i, k) = jws.rho[i + nc * k];
      s.diagnostic.perturbed_exner_at_cells_on_model_levels(i, k) =
          s.current.exner(i, k) -
          static_cast<double>(c.inputs.metric.reference_exner_at_cells_on_model_levels(i, k));
    }
  }
  for (std::size_t k = 0; k <= k_end; ++k)
    for (std::size_t i = 0; i < nc; ++i) {
      s.current.w(i, k) = jws.w[i + nc * k];
      const std::size_t above = k == 0 ? 0 : k - 1, below = k == k_end ? k - 1 : k;
      s.diagnostic.theta_v_at_cells_on_half_levels(i, k) =
          0.5 * (s.current.theta_v(i, above) + s.current.theta_v(i, below));
      s.diagnostic.rho_at_cells_on_half_levels(i, k) =
          0.5 * (s.current.rho(i, above) + s.current.rho(i, below));
    }
  s.next = copy_state<H>(s.current, "icondiff::test::next::");
  // In a limited-area run the boundary tendencies come from the parent; here small constants.
  if (grid.limited_area) {
    auto& d = s.diagnostic;
    d.grf_tend_rho = Kokkos::View<wp**, FieldLayout, H>("grf_tend_rho", nc, k_end);
    d.grf_tend_thv = Kokkos::View<wp**, FieldLayout, H>("grf_tend_thv", nc, k_end);
    d.grf_tend_w = Kokkos::View<wp**, FieldLayout, H>("grf_tend_w", nc, k_end + 1);
    d.grf_tend_vn = Kokkos::View<wp**, FieldLayout, H>("grf_tend_vn", ne, k_end);
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
