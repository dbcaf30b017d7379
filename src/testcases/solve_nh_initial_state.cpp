#include <icondiff/core/error.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>

#include <string>

namespace icondiff {

SolveNhHostStates jablonowski_williamson_solve_nh_states(
    const Grid& grid, const HostTable<double>& z_ifc, const HostTable<double>& z_mc,
    const DycoreInputs<Kokkos::HostSpace>& inputs, const JablonowskiWilliamsonConfig& config) {
  using H = Kokkos::HostSpace;
  const FieldSizes sizes = inputs.sizes();
  if (sizes.cells != static_cast<std::size_t>(grid.num_cells) ||
      sizes.edges != static_cast<std::size_t>(grid.num_edges))
    throw InvalidArgument("jablonowski_williamson_solve_nh_states: the static inputs have " +
                          std::to_string(sizes.cells) + " cells and " +
                          std::to_string(sizes.edges) + " edges, the grid " +
                          std::to_string(grid.num_cells) + " and " +
                          std::to_string(grid.num_edges));
  const InitialState jw = jablonowski_williamson_state(grid, z_ifc, z_mc, config);
  const std::string scope = "icondiff::initial_state::";
  SolveNhHostStates s;
  s.current = allocate_state<SolveNhPrognosticState, H>(sizes, scope + "current::");
  s.diagnostic = allocate_state<SolveNhDiagnosticState, H>(sizes, scope + "diagnostic::");
  s.prep_adv = allocate_state<SolveNhPrepAdvection, H>(sizes, scope + "prep_adv::");
  const std::size_t nc = sizes.cells, ne = sizes.edges, nlev = sizes.nlev;
  const auto& exner_ref = inputs.metric.reference_exner_at_cells_on_model_levels;
  for (std::size_t k = 0; k < nlev; ++k) {
    for (std::size_t e = 0; e < ne; ++e) s.current.vn(e, k) = jw.vn[e + ne * k];
    for (std::size_t c = 0; c < nc; ++c) {
      s.current.theta_v(c, k) = jw.theta_v[c + nc * k];
      s.current.exner(c, k) = jw.exner[c + nc * k];
      s.current.rho(c, k) = jw.rho[c + nc * k];
      s.diagnostic.perturbed_exner_at_cells_on_model_levels(c, k) =
          s.current.exner(c, k) - static_cast<double>(exner_ref(c, k));
    }
  }
  for (std::size_t k = 0; k <= nlev; ++k)
    for (std::size_t c = 0; c < nc; ++c) {
      s.current.w(c, k) = jw.w[c + nc * k];
      const std::size_t above = k == 0 ? 0 : k - 1, below = k == nlev ? k - 1 : k;
      s.diagnostic.theta_v_at_cells_on_half_levels(c, k) =
          0.5 * (s.current.theta_v(c, above) + s.current.theta_v(c, below));
      s.diagnostic.rho_at_cells_on_half_levels(c, k) =
          0.5 * (s.current.rho(c, above) + s.current.rho(c, below));
    }
  s.next = copy_state<H>(s.current, scope + "next::");
  if (!grid.limited_area) {
    // IfAvailable fields a global grid does not need: left empty.
    s.diagnostic.grf_tend_rho = {};
    s.diagnostic.grf_tend_thv = {};
    s.diagnostic.grf_tend_w = {};
    s.diagnostic.grf_tend_vn = {};
  }
  return s;
}

}  // namespace icondiff
