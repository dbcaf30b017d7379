#include <icondiff/core/error.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace icondiff {

void apply_hydrostatic_adjustment(const DycoreInputs<Kokkos::HostSpace>& inputs,
                                  const View2D<wp, Kokkos::HostSpace>& rho,
                                  const View2D<wp, Kokkos::HostSpace>& exner,
                                  const View2D<wp, Kokkos::HostSpace>& theta_v) {
  const auto& m = inputs.metric;
  const std::size_t nc = rho.extent(0), nlev = rho.extent(1);
  for (const auto* v : {&exner, &theta_v})
    if (v->extent(0) != nc || v->extent(1) != nlev)
      throw InvalidArgument("apply_hydrostatic_adjustment: rho, exner and theta_v differ in shape");
  if (m.wgtfac_c.extent(0) != nc || m.wgtfac_c.extent(1) != nlev + 1)
    throw InvalidArgument(
        "apply_hydrostatic_adjustment: the metric fields are not on the fields' "
        "cells and levels");
  // ICON4Py's names: the formula reads like utils.py's hydrostatic_adjustment_ndarray.
  const auto& wgtfac_c = m.wgtfac_c;
  const auto& ddqz_z_half = m.ddqz_z_half;
  const auto& exner_ref_mc = m.reference_exner_at_cells_on_model_levels;
  const auto& d_exner_dz_ref_ic = m.ddz_of_reference_exner_at_cells_on_half_levels;
  const auto& theta_ref_mc = m.theta_ref_mc;
  const auto& theta_ref_ic = m.reference_theta_at_cells_on_half_levels;
  auto d = [](const auto& v, std::size_t c, std::size_t k) { return static_cast<double>(v(c, k)); };
  std::vector<double> temp_v(nlev);  // one column's virtual temperature, kept on every level
  for (std::size_t c = 0; c < nc; ++c) {
    for (std::size_t k = 0; k < nlev; ++k) temp_v[k] = theta_v(c, k) * exner(c, k);
    for (std::size_t kk = nlev - 1; kk-- > 0;) {
      const std::size_t k = kk, b = k + 1;  // b: the level below, already balanced
      const double w = d(wgtfac_c, c, b), dz = d(ddqz_z_half, c, b);
      const double fac1 = w * (temp_v[b] - d(theta_ref_mc, c, b) * exner(c, b)) -
                          (1.0 - w) * d(theta_ref_mc, c, k) * exner(c, b);
      const double fac2 = (1.0 - w) * temp_v[k] * exner(c, b);
      const double fac3 = d(exner_ref_mc, c, b) - d(exner_ref_mc, c, k) - exner(c, b);
      const double qa = (d(theta_ref_ic, c, b) * exner(c, b) + fac1) / dz;
      const double qb = -(qa * fac3 + fac2 / dz + fac1 * d(d_exner_dz_ref_ic, c, b));
      const double qc = -(fac2 * fac3 / dz + fac2 * d(d_exner_dz_ref_ic, c, b));
      exner(c, k) = (qb + std::sqrt(qb * qb + 4.0 * qa * qc)) / (2.0 * qa);
      theta_v(c, k) = temp_v[k] / exner(c, k);
      rho(c, k) =
          std::pow(exner(c, k), physics::cvd_o_rd) * physics::p0ref / (physics::rd * theta_v(c, k));
      if (!std::isfinite(exner(c, k)) || !(exner(c, k) > 0))
        throw InvalidArgument("apply_hydrostatic_adjustment: no positive root for exner at cell " +
                              std::to_string(c) + ", level " + std::to_string(k) +
                              " (a state far from the reference atmosphere)");
    }
  }
}

SolveNhHostStates jablonowski_williamson_solve_nh_states(
    const Grid& grid, const HostTable<double>& z_ifc, const HostTable<double>& z_mc,
    const DycoreInputs<Kokkos::HostSpace>& inputs, const JablonowskiWilliamsonConfig& config,
    const HydrostaticAdjustment adjustment) {
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
    }
  }
  if (adjustment == HydrostaticAdjustment::icon4py)
    apply_hydrostatic_adjustment(inputs, s.current.rho, s.current.exner, s.current.theta_v);
  for (std::size_t k = 0; k < nlev; ++k)
    for (std::size_t c = 0; c < nc; ++c)
      s.diagnostic.perturbed_exner_at_cells_on_model_levels(c, k) =
          s.current.exner(c, k) - static_cast<double>(exner_ref(c, k));
  // theta_v_ic and rho_ic stay 0, as ICON4Py's JW initial condition leaves them: the first
  // predictor computes them on every level it uses. The surface's rho_ic must stay 0: ICON's
  // solve_nh writes rho_ic only on half levels 2..nlev, yet the implicit solver's lowest row
  // reads rho_ic(nlev) * w(nlev), with w(nlev) the contravariant correction; a zero there keeps
  // the mass flux through a sloping surface at 0. A nonzero value pumped mass out of the lowest
  // level at every substep (the JW drift traced on 2026-11-28, docs/user/jw_baroclinic_wave.md).
  for (std::size_t k = 0; k <= nlev; ++k)
    for (std::size_t c = 0; c < nc; ++c) s.current.w(c, k) = jw.w[c + nc * k];
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
