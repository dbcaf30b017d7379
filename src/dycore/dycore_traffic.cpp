#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/dycore/dycore_traffic.hpp>

#include <algorithm>

namespace icondiff {

template <class ExecSpace>
std::map<std::string, double> dycore_program_bytes(const Dycore<ExecSpace>& dycore,
                                                   const DycoreCallFlags& flags) {
  namespace L = dycore_labels;
  const auto& in = dycore.inputs();
  const double W = sizeof(wp), V = sizeof(vp), I = sizeof(index_t), O = sizeof(int);
  const double K = in.nlev, KH = in.nlev + 1;
  const double C = in.grid.num_cells;
  // Levels of the pressure gradient's three regimes.
  const double flat = in.nflatlev, between = in.nflat_gradp + 1 - in.nflatlev,
               below = in.nlev - (in.nflat_gradp + 1);
  std::map<std::string, double> b;

  // compute_rho_theta_pgrad_and_update_vn over its edges: current_vn, the four outputs, vt, the
  // reference rho/theta, two tendencies and pg_exdist on every level; ddxn_z_full between
  // nflatlev and nflat_gradp; the level offsets and distances below; the five cell fields of
  // the upwind values and the pressure gradient (ddz from nflatlev, d2dz2 below nflat_gradp) on
  // the cells; 16 E2C coefficients, 2 edge scalars and the E2C/C2E2CO tables.
  const double e3 = dycore.rho_theta_pgrad_domain().horizontal.size();
  b[L::rho_theta_pgrad] = e3 * K * (4 * W + 7 * V + (flags.is_iau_active ? V : 0.0)) +
                          e3 * between * V + e3 * below * 2 * (O + V) +
                          C * (K * 3 + (K - flat) + below) * V + e3 * (16 * W + 2 * W + 2 * I) +
                          C * (8 * W + 4 * I);

  // apply_divergence_damping_and_update_vn: next_vn written; current_vn, theta_v at edges and
  // five vp edge fields read; dw/dz on the cells; 8 edge coefficients and E2C/E2C2EO tables.
  const double e4 = dycore.divergence_damping_domain().horizontal.size();
  const bool divdamp =
      flags.apply_2nd_order_divergence_damping || flags.apply_4th_order_divergence_damping;
  b[L::divergence_damping] = e4 * K * (3 * W + 5 * V + (flags.is_iau_active ? V : 0.0)) +
                             (divdamp ? C * K * V : 0.0) + e4 * (8 * W + 7 * I) + 2 * K * W;

  // The solver (both steps) on its cells. Read on full levels: rho, theta_v, exner, exner_pr
  // (wp); the buoyancy, the exner tendency, inv_ddqz_z_full, exner_ref (vp); on half levels: w,
  // rho_ic, theta_v_ic (wp); the contravariant correction, the predictor's advective tendency,
  // ddqz_z_half (vp). Written: w (half levels), rho, exner, theta_v. The two edge fluxes over
  // all edges; two cell weights, three geofac_div and the C2E table per cell.
  const double ns = dycore.solver_domain().horizontal.size();
  const double E = in.grid.num_edges;
  const double solver_common = ns * K * (4 * W + 4 * V) + ns * KH * (3 * W + 3 * V) +
                               ns * (KH * W + 3 * K * W) + E * K * 2 * W + ns * (5 * W + 3 * I) +
                               (flags.is_iau_active ? ns * K * 2 * V : 0.0);
  const double moist = in.nlev - in.kstart_moist;
  const bool dwdz = static_cast<int>(dycore.config().divdamp_type) >= 3;
  b[L::solver_predictor] =
      solver_common + (dwdz ? ns * K * V : 0.0) + (flags.at_first_substep ? ns * moist * V : 0.0);
  b[L::solver_corrector] = solver_common + ns * KH * V /* the corrector's tendency */ +
                           (flags.lprep_adv ? ns * K * 2 * 2 * W : 0.0) +
                           (flags.at_last_substep ? ns * moist * 2 * V : 0.0);
  // The predictor's interpolation to half levels: the edge field from level nflatlev on, the
  // cell field written from nflatlev + 1, wgtfac_c/wgtfacq_c, e_bln_c_s and C2E.
  const ProgramDomain interp = dycore.contravariant_correction_domain();
  const double ni = interp.horizontal.size();
  const double levels = interp.vertical_end - interp.vertical_start;
  b[L::contravariant_correction] =
      E * (K - in.nflatlev) * V + ni * levels * 2 * V + ni * 3 * V + ni * (3 * W + 3 * I);

  // compute_diagnostics_from_normal_wind over its edges: vn read once (its E2C2E neighbours are
  // edges of the same field); vt, the kinetic energy and vn_ie (one more level) written, wgtfac_e
  // read on every level; the contravariant correction written with ddxn/ddxt read from nflatlev
  // on; wgtfacq_e on 3 levels; 4 RBF coefficients and E2C2E per edge. Unless the vertical
  // advection is skipped: vt_ie and the advection of w written, w read on the cells (interpolated
  // to the vertices through 6 c_intp and V2C per vertex), 3 edge scalars and E2C/E2V per edge.
  const double ed = dycore.diagnostics_from_normal_wind_domain().horizontal.size();
  const double NV = in.grid.num_vertices;
  b[L::diagnostics_from_normal_wind] =
      E * K * W + ed * K * 4 * V + ed * V + ed * (K - in.nflatlev) * 3 * V + ed * 3 * V +
      ed * (4 * W + 4 * I) +
      (flags.skip_compute_predictor_vertical_advection
           ? 0.0
           : ed * K * 2 * V + C * K * W + NV * (6 * W + 6 * I) + ed * (3 * W + 4 * I));

  // compute_advection_in_horizontal_momentum over its edges: the tendency written; vn read once
  // (through V2E and E2C2EO: edges of the same field), the kinetic energy (also at the cells'
  // edges), vt, ddqz_z_full_e and vn_ie (one more level) read; w_con on the cells; per edge 2 + 2
  // E2C coefficients, 5 geofac_grdiv, 4 scalars and the E2C/E2V/E2C2EO tables; per cell 3
  // e_bln_c_s and C2E; per vertex 6 geofac_rot and V2E.
  const double eh = dycore.advection_in_horizontal_momentum_domain().horizontal.size();
  b[L::advection_in_horizontal_momentum] =
      eh * K * V + E * K * W + E * K * V + eh * K * 3 * V + eh * V + C * K * V +
      eh * (2 * V + 7 * W + 4 * W + 9 * I) + C * (3 * W + 3 * I) + NV * (6 * W + 6 * I);

  // The vertical-momentum steps over their cells: w read (half levels) and the three outputs
  // written (the tendency on half levels 1..nlev-1); coeff1/coeff2_dwdz and ddqz_z_half read;
  // per cell 3 e_bln_c_s, 4 geofac_n2s, the area, the owner mask and C2E/C2E2CO. The predictor
  // also writes the correction at cells (reading wgtfac_c), reading the edge correction from
  // nflatlev on and the edge advection of w; the corrector reads the cell correction, vn_ie,
  // vt_ie, and w at the vertices through 6 c_intp and V2C per vertex, 3 edge scalars and E2C/E2V.
  const double nvm = dycore.advection_in_vertical_momentum_domain().horizontal.size();
  const double vertical_common = nvm * KH * W + nvm * K * (2 * V + 1 * V) + nvm * K * 3 * V +
                                 nvm * K * V + nvm * (3 * W + 4 * W + W + O + 7 * I);
  b[L::advection_in_predictor_vertical_momentum] =
      vertical_common + nvm * K * 2 * V + E * (K - in.nflatlev) * V +
      (flags.skip_compute_predictor_vertical_advection ? 0.0 : E * K * V);
  b[L::advection_in_corrector_vertical_momentum] = vertical_common + nvm * K * V + E * K * 2 * V +
                                                   E * V + NV * (6 * W + 6 * I) +
                                                   E * (3 * W + 4 * I);

  // ---- solve_nonhydro's other programs.
  // Cells of the programs on the limited-area boundary.
  const double NC = dycore.lateral_boundary_cells_domain().horizontal.size();
  // Levels from nflatlev and from nflat_gradp on (the derivatives, the terrain-following terms).
  const double from_nflatlev = in.nlev - in.nflatlev, from_nflat_gradp = in.nlev - in.nflat_gradp;

  // compute_perturbed_quantities_and_interpolation (Taylor-hydrostatic pressure gradients) over
  // its cells, every level and the surface half level. Read on every level: rho, theta_v, exner
  // (wp) and the exner perturbation (wp, in/out); the reference rho, theta_v and exner,
  // wgtfac_c, ddz of the reference exner, ddqz_z_half and the time-extrapolation parameter (vp);
  // inv_ddqz_z_full from nflatlev, d2dexdz2_fac1/fac2 from nflat_gradp; wgtfacq_c on three
  // levels, the reference theta_v at the surface half level, the explicit weight per cell.
  // Written: the extrapolated exner, the rho and theta_v perturbations (vp), the theta_v
  // perturbation at half levels (vp, nlev + 1), rho and theta_v at half levels (wp, from level 1;
  // theta_v also at the surface), the buoyancy (vp, from level 1), exner at half levels (vp, from
  // max(1, nflatlev) and the surface), its derivatives (vp, from nflatlev / nflat_gradp). The
  // second halo line's perturbations are not counted (none on one rank).
  const double np = dycore.perturbed_quantities_domain().horizontal.size();
  const double exner_ic_levels = KH - std::max(1.0, static_cast<double>(in.nflatlev));
  b[L::perturbed_quantities] =
      np * K * (4 * W + 7 * V) + np * (from_nflatlev + 2 * from_nflat_gradp) * V +
      np * (4 * V + W) +
      np * (K * 3 * V + KH * V + (K - 1) * W + K * W + (K - 1) * V + exner_ic_levels * V +
            from_nflatlev * V + from_nflat_gradp * V);

  // compute_horizontal_velocity_quantities_and_fluxes over its edges: vn read once (its E2C2E
  // and E2C2EO neighbours are edges of the same field), rho and theta_v at edges read; written:
  // the averaged vn, the two fluxes (wp), the divergence gradient, vt, vt and vn at half levels,
  // the kinetic energy (vp; vn_ie one more level), the contravariant correction from nflatlev
  // (vp, reading ddxn/ddxt there); ddqz_z_full_e and wgtfac_e (vp) on every level, wgtfacq_e on
  // three; 5 + 5 + 4 coefficients and the E2C2EO/E2C2E tables per edge.
  const double eq = dycore.horizontal_velocity_quantities_domain().horizontal.size();
  b[L::horizontal_velocity_quantities] = E * K * W + eq * K * (2 * W + 3 * W + 5 * V + 2 * V) +
                                         eq * V + eq * from_nflatlev * 3 * V +
                                         eq * (14 * W + 3 * V + 9 * I);

  // compute_averaged_vn_and_fluxes over its edges: vn read once, rho and theta_v at edges and
  // ddqz_z_full_e read, the averaged vn and the two fluxes written; with prepare_advection the
  // two substep averages written (first substep) or read and written; e_flx_avg and E2C2EO.
  const double ea = dycore.averaged_vn_and_fluxes_domain().horizontal.size();
  b[L::averaged_vn_and_fluxes] =
      E * K * W + ea * K * (2 * W + V + 3 * W) +
      (flags.lprep_adv ? ea * K * 2 * W * (flags.at_first_substep ? 1 : 2) : 0.0) +
      ea * (5 * W + 5 * I);

  // compute_interpolation_and_nonhydro_buoy over its cells from level 1: w, rho and theta_v now
  // and next, the exner perturbation (wp), the contravariant correction, the reference theta_v,
  // ddz of the reference exner, ddqz_z_half, wgtfac_c (vp) read; rho and theta_v at half levels
  // (wp), the theta_v perturbation there and the buoyancy (vp) written; the explicit weight.
  const double nb = dycore.interpolation_and_nonhydro_buoy_domain().horizontal.size();
  b[L::interpolation_and_nonhydro_buoy] = nb * (K - 1) * (6 * W + 5 * V + 2 * W + 2 * V) + nb * W;

  // compute_hydrostatic_correction_term on the lowest level of its edges: per edge the two
  // offsets and distances, the inverse dual length, E2C, the result; per neighbour cell theta_v,
  // theta_v at two half levels and inv_ddqz_z_full (counted per edge: the levels differ).
  const double eh2 = dycore.hydrostatic_correction_domain().horizontal.size();
  b[L::hydrostatic_correction] = eh2 * (2 * (O + V) + W + 2 * I + V + 2 * (3 * W + V));

  // The limited-area boundary's and halo's programs (empty on a global single-rank grid).
  b[L::exner_from_rhotheta] = NC * K * 3 * W;  // rho read, theta_v written, exner in/out
  b[L::theta_and_exner_in_halo] = dycore.halo_cells_domain().horizontal.size() * (K * 6 * W + O);
  b[L::init_cell_kdim_field_with_zero] = NC * KH * W;
  b[L::mass_flux_weighted] = NC * K * (4 * W + V + W) + NC * 2 * W;  // mass_flx_ic read, written
  b[L::dwdz_for_divergence_damping] = NC * (KH * (W + V) + K * 2 * V);
  b[L::stencils_61_62] = NC * (K * 6 * W + KH * 3 * W);
  return b;
}

template <class ExecSpace>
double solve_nh_substep_bytes(const Dycore<ExecSpace>& dycore, const SolveNhStep& step) {
  namespace L = dycore_labels;
  const DycoreConfig& config = dycore.config();
  const bool limited_area = dycore.inputs().grid.limited_area;
  DycoreCallFlags f;
  f.is_iau_active = step.is_iau_active;
  f.at_first_substep = step.at_first_substep;
  f.at_last_substep = step.at_last_substep;
  f.lprep_adv = step.lprep_adv;
  f.skip_compute_predictor_vertical_advection =
      config.itime_scheme == 4 && !(step.at_initial_timestep && step.at_first_substep);
  const DivergenceDampingSwitches switches = divergence_damping_switches(
      config, step.second_order_divdamp_factor,
      step.second_order_divdamp_factor * dycore.inputs().mean_cell_area);
  f.apply_2nd_order_divergence_damping = switches.second_order;
  f.apply_4th_order_divergence_damping = switches.fourth_order;
  const std::map<std::string, double> b = dycore_program_bytes(dycore, f);
  double sum = 0;
  const auto add = [&](const std::string& label) { sum += b.at(label); };
  // The predictor (SolveNonhydro.run_predictor_step).
  if (step.at_first_substep) {
    add(L::diagnostics_from_normal_wind);
    add(L::advection_in_predictor_vertical_momentum);
    add(L::advection_in_horizontal_momentum);
  }
  add(L::perturbed_quantities);
  add(L::hydrostatic_correction);
  add(L::rho_theta_pgrad);
  add(L::horizontal_velocity_quantities);
  add(L::contravariant_correction);
  add(L::solver_predictor);
  if (limited_area) {
    add(L::stencils_61_62);
    if (config.divdamp_type != DivergenceDampingType::TwoDimensional)
      add(L::dwdz_for_divergence_damping);
  }
  // The corrector (run_corrector_step).
  add(L::advection_in_corrector_vertical_momentum);
  add(L::advection_in_horizontal_momentum);
  add(L::interpolation_and_nonhydro_buoy);
  add(L::divergence_damping);
  add(L::averaged_vn_and_fluxes);
  add(L::solver_corrector);
  if (limited_area && step.lprep_adv) {
    if (step.at_first_substep) add(L::init_cell_kdim_field_with_zero);
    add(L::mass_flux_weighted);
  }
  // time_step's end.
  if (limited_area) add(L::exner_from_rhotheta);
  add(L::theta_and_exner_in_halo);
  return sum;
}

#define ICONDIFF_INSTANTIATE_DYCORE_TRAFFIC(SPACE)                                           \
  template std::map<std::string, double> dycore_program_bytes(const Dycore<SPACE>& dycore,   \
                                                              const DycoreCallFlags& flags); \
  template double solve_nh_substep_bytes(const Dycore<SPACE>& dycore, const SolveNhStep& step);
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DYCORE_TRAFFIC)

}  // namespace icondiff
