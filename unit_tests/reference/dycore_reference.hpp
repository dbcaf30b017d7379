// Independent plain-loop host reference of four ICON4Py 0.2.0 dycore programs, written from
// ICON4Py's Python field operators only (icon4py/model/atmosphere/dycore/stencils/
// compute_edge_diagnostics_for_dycore_and_update_vn.py and vertically_implicit_dycore_solver.py
// with the elementary stencils they import). It is the oracle the Kokkos kernels are tested
// against and shares no code with them.
//
// Conventions (every program), as in diffusion_reference.hpp:
//  * One argument struct per program; its members carry the ICON4Py program's argument names in
//    the program signature's order, domain arguments included. Inputs and in/out fields are
//    members; the function updates the output members in place.
//  * Fields are test::HostField<double> (points, levels), point index fastest. A field must have
//    exactly the points of its location and at least the levels that are read or written (see
//    each struct); (E, E2C, K) fields are HostField3 (E, 2, K). Per-point coefficient tables are
//    HostTable<double> in the order of their ICON4Py offset: (E,2) E2C, (C,4) C2E2CO (the grid's
//    own C2E2CO order), (E,5) E2C2EO, (C,3) C2E. Edge, cell and K profiles are std::vector.
//  * Outputs are written ONLY inside [horizontal_start, horizontal_end) × [vertical_start,
//    vertical_end) (the solver programs: their own domains, see there), and inside that only where
//    ICON4Py's concat_where / `if` branches write them. Everything else is left untouched.
//  * Missing neighbours: ICON4Py runs on grids whose -1 entries are replaced by the largest valid
//    index of the same row, or by 0 when the row has none (icon4py/model/common/grid/base.py,
//    _replace_skip_values). This reference does the same on the fly for E2C, C2E, C2E2CO and
//    E2C2EO: a -1 reads the largest valid neighbour of that row.
//  * Every expression is evaluated in the order and association of the Python (a + b*c as
//    written, x**2 as x*x, neighbor_sum as a left-to-right sum starting from 0), so that kernels
//    that follow ICON4Py can be compared bit for bit. Everything is double; ICON4Py's vp casts
//    (astype(..., vpfloat)) are no-ops here.
//  * Wrong sizes, ranges outside the arrays and vertical offsets (ikoffset) that leave the field
//    throw std::invalid_argument naming the field.
#pragma once

#include "reference/diffusion_reference.hpp"

namespace icondiff::reference {

// ================================================================================================
// Constants (icon4py/model/common/constants.py; gas_constant_dry_air, cpd and dbl_eps are in
// diffusion_reference.hpp)
// ================================================================================================

inline constexpr double rd = gas_constant_dry_air;
/// CVD = CPD - RD and CVD_O_RD = CVD / RD, evaluated in double as Python does.
inline constexpr double cvd = cpd - rd;
inline constexpr double cvd_o_rd = cvd / rd;
/// RayleighType.KLEMP: the only rayleigh_type that damps w in the solver.
inline constexpr int rayleigh_type_klemp = 2;

// ================================================================================================
// compute_rho_theta_pgrad_and_update_vn (predictor, formerly stencils 15-28)
// ================================================================================================

/// Shapes as ICON4Py: edge fields (E, nlev), cell fields (C, nlev), ikoffset and zdiff_gradp
/// (E, 2, nlev); at least vertical_end levels are required. The domain must lie inside [0, E) ×
/// [0, next_vn.levels); a level k + ikoffset outside the cell fields is an error where it is read.
struct ComputeRhoThetaPgradAndUpdateVnArgs {
  Field rho_at_edges_on_model_levels;                                        ///< (E,K) out
  Field theta_v_at_edges_on_model_levels;                                    ///< (E,K) out
  Field horizontal_pressure_gradient;                                        ///< (E,K) out
  Field next_vn;                                                             ///< (E,K) in/out
  Field current_vn;                                                          ///< (E,K)
  Field tangential_wind;                                                     ///< (E,K)
  Field reference_rho_at_edges_on_model_levels;                              ///< (E,K)
  Field reference_theta_at_edges_on_model_levels;                            ///< (E,K)
  Field perturbed_rho_at_cells_on_model_levels;                              ///< (C,K)
  Field perturbed_theta_v_at_cells_on_model_levels;                          ///< (C,K)
  Field temporal_extrapolation_of_perturbed_exner;                           ///< (C,K)
  Field ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;    ///< (C,K)
  Field d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;  ///< (C,K)
  Vector hydrostatic_correction_on_lowest_level;                             ///< (E)
  Field predictor_normal_wind_advective_tendency;                            ///< (E,K)
  Field normal_wind_tendency_due_to_slow_physics_process;                    ///< (E,K)
  Field normal_wind_iau_increment;                                           ///< (E,K)
  Field grf_tend_vn;                                                         ///< (E,K)
  Table geofac_grg_x, geofac_grg_y;                                          ///< (C,4) C2E2CO order
  Table pos_on_tplane_e_x, pos_on_tplane_e_y;                                ///< (E,2) E2C order
  Table primal_normal_cell_x, dual_normal_cell_x;                            ///< (E,2) E2C order
  Table primal_normal_cell_y, dual_normal_cell_y;                            ///< (E,2) E2C order
  Field ddxn_z_full;                                                         ///< (E,K)
  Table c_lin_e;                                                             ///< (E,2) E2C order
  IntField3 ikoffset;           ///< (E,2,K) relative level offsets
  Field3 zdiff_gradp;           ///< (E,2,K)
  Field pg_exdist;              ///< (E,K)
  Vector inv_dual_edge_length;  ///< (E)
  double dtime = 0.0;
  bool is_iau_active = false;
  double iau_wgt_dyn = 0.0;
  bool limited_area = false;
  int nflatlev = 0;
  int nflat_gradp = 0;
  int start_edge_lateral_boundary = 0;
  int start_edge_lateral_boundary_level_7 = 0;
  int start_edge_nudging_level_2 = 0;
  int end_edge_nudging = 0;
  int end_edge_halo = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// For every (e,k) of the domain:
///  * rho/theta_v_at_edges: the upwind (by sign of current_vn, vn >= 0 takes E2C[0]) value of
///    the reference state plus the perturbation at the upwind cell, extrapolated along the
///    back-trajectory with Green-Gauss gradients (geofac_grg) of the cell perturbations, for
///    start_edge_lateral_boundary_level_7 <= e < end_edge_halo; 0 elsewhere.
///  * horizontal_pressure_gradient: k < nflatlev: inv_dual_edge_length·(exner[c1] - exner[c0]);
///    nflatlev <= k <= nflat_gradp: minus ddxn_z_full·Σ c_lin_e·ddz_exner; k >= nflat_gradp + 1:
///    Taylor expansion at level k + ikoffset of each neighbour; then + hydrostatic correction ×
///    pg_exdist where pg_exdist != 0 (every edge of the domain).
///  * next_vn: e >= start_edge_nudging_level_2: current_vn + dtime·(tendencies - cpd·θ_e·∇π);
///    then + iau_wgt_dyn·increment there if is_iau_active; then, if limited_area, current_vn +
///    dtime·grf_tend_vn for start_edge_lateral_boundary <= e < end_edge_nudging (overwriting).
///    Elsewhere next_vn keeps its value.
void compute_rho_theta_pgrad_and_update_vn(const Grid& grid,
                                           ComputeRhoThetaPgradAndUpdateVnArgs& args);

// ================================================================================================
// apply_divergence_damping_and_update_vn (corrector, formerly stencils 17, 23, 25-28)
// ================================================================================================

/// Shapes as ICON4Py: edge fields (E, nlev), dwdz_at_cells_on_model_levels (C, nlev), K profiles
/// (nlev); at least vertical_end levels are required. The 4th-order damping reads the total
/// divergence gradient at the E2C2EO neighbours, so its inputs must be valid at every edge.
struct ApplyDivergenceDampingAndUpdateVnArgs {
  Field horizontal_gradient_of_normal_wind_divergence;     ///< (E,K)
  Field next_vn;                                           ///< (E,K) in/out
  Field current_vn;                                        ///< (E,K)
  Field dwdz_at_cells_on_model_levels;                     ///< (C,K)
  Field predictor_normal_wind_advective_tendency;          ///< (E,K)
  Field corrector_normal_wind_advective_tendency;          ///< (E,K)
  Field normal_wind_tendency_due_to_slow_physics_process;  ///< (E,K)
  Field normal_wind_iau_increment;                         ///< (E,K)
  double second_order_divdamp_scaling_coeff = 0.0;
  Field theta_v_at_edges_on_model_levels;           ///< (E,K)
  Field horizontal_pressure_gradient;               ///< (E,K)
  Vector horizontal_mask_for_3d_divdamp;            ///< (E)
  Vector scaling_factor_for_3d_divdamp;             ///< (K)
  Vector inv_dual_edge_length;                      ///< (E)
  Vector nudgecoeff_e;                              ///< (E)
  Table geofac_grdiv;                               ///< (E,5) E2C2EO order
  Vector interpolated_fourth_order_divdamp_factor;  ///< (K)
  double advection_explicit_weight_parameter = 0.0;
  double advection_implicit_weight_parameter = 0.0;
  double dtime = 0.0;
  bool is_iau_active = false;
  double iau_wgt_dyn = 0.0;
  bool limited_area = false;
  bool apply_2nd_order_divergence_damping = false;
  bool apply_4th_order_divergence_damping = false;
  int divdamp_order = 0;
  double mean_cell_area = 0.0;
  double second_order_divdamp_factor = 0.0;
  double max_nudging_coefficient = 0.0;
  double dbl_eps = 0.0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// For every (e,k) of the domain, with G = graddiv + mask·scaling[k]·inv_dual·(dwdz[c1]-dwdz[c0]):
///   next_vn = current_vn + dtime·(w_expl·adv_pc + w_impl·adv_corr + phy - cpd·θ_e·∇π)
///   + scal_o2·G                                            if apply_2nd_order_divergence_damping
///   + (s4[k] + bdy·nudgecoeff_e)·Σ geofac_grdiv·G(E2C2EO)   if apply_4th_order (limited_area)
///   + s4[k]·Σ geofac_grdiv·G(E2C2EO)                        if apply_4th_order (global)
///   + iau_wgt_dyn·increment                                 if is_iau_active
/// with s4 = -f4·mean_cell_area², f4 = max(0, factor - second_order_divdamp_factor/4) if
/// divdamp_order == 24 else factor, bdy = 0.75/(max_nudging_coefficient + dbl_eps)·|s4|.
void apply_divergence_damping_and_update_vn(const Grid& grid,
                                            ApplyDivergenceDampingAndUpdateVnArgs& args);

// ================================================================================================
// vertically_implicit_solver_at_predictor_step / _at_corrector_step (formerly stencils 39-60)
// ================================================================================================
//
// Shared semantics of both solver programs (nlev := vertical_end_index_model_surface - 1, the
// number of full levels; half-level index k lies above full level k):
//  1. (predictor only) contravariant_correction_at_cells_on_half_levels is interpolated from the
//     edges for cells [start_cell_index_lateral_lvl3, end_cell_index_halo_lvl1) and half levels
//     [flat_level_index_plus1, nlev]: wgtfac_c between full levels k-1 and k above the surface,
//     the quadratic extrapolation wgtfacq_c at k = nlev.
//  2. next_w[c, nlev] = contravariant_correction_at_cells_on_half_levels[c, nlev] (the surface
//     boundary condition) for cells [start_cell_index_nudging, end_cell_index_local).
//  3. The column solve for those cells and levels [vertical_start_index_model_top, nlev); every
//     output below is written only there (next_w at nlev only by step 2):
//     - divergence of the edge fluxes (C2E, geofac_div), vertical mass flux
//       rho_ic·(-w_concorr + explicit_weight·current_w) on half levels 1..nlev-1 (0 at 0, nlev),
//       tridiagonal coefficients beta (full levels) and alpha (half levels, 0 at nlev), explicit
//       rho/exner terms (+ IAU increments if is_iau_active), w_explicit on half levels >= 1;
//     - the tridiagonal forward sweep: a scan upwards starting at level
//       max(1, vertical_start_index_model_top) from the state (c, d) = (0, 0); level 0 holds
//       (0, 0). It solves rows k >= 1 of  a_k·w[k-1] + b_k·w[k] + c_k·w[k+1] = w_prep[k] with
//         gamma_k = dtime·cpd·implicit_weight·theta_v_ic[k] / ddqz_z_half[k],
//         a_k = -gamma_k·beta[k-1]·alpha[k-1],  c_k = -gamma_k·beta[k]·alpha[k+1],
//         b_k = 1 + gamma_k·alpha[k]·(beta[k-1] + beta[k]),
//         w_prep[k] = w_explicit[k] - gamma_k·(exner_explicit[k-1] - exner_explicit[k]),
//       with w[0] = 0 and alpha[nlev] = 0 (so next_w[nlev] does not enter);
//     - the back substitution: a scan downwards from level nlev-1 (state 0) to the domain top;
//     - Rayleigh damping (rayleigh_type == rayleigh_type_klemp) of w on levels
//       1..end_index_of_damping_layer, by rayleigh_damping_factor[k];
//     - next_rho, next_exner, next_theta_v from the new w at k and k+1 (w[nlev] = next_w[nlev]).
//
// Level counts: full-level cell fields >= nlev levels; next_w, rho_at_cells_on_half_levels,
// theta_v_at_cells_on_half_levels and contravariant_correction_at_cells_on_half_levels >= nlev+1
// (they are read or written at half level nlev); the other half-level fields are read at most at
// level nlev-1 and need >= nlev. Edge fields (E, >= nlev). rayleigh_damping_factor: at least
// min(end_index_of_damping_layer, nlev) + 1 values when rayleigh_type == rayleigh_type_klemp.

struct VerticallyImplicitSolverAtPredictorStepArgs {
  Field contravariant_correction_at_cells_on_half_levels;   ///< (C, nlev+1) in/out (step 1)
  Field next_w;                                             ///< (C, nlev+1) in/out
  Field next_rho;                                           ///< (C, nlev) out
  Field next_exner;                                         ///< (C, nlev) out
  Field next_theta_v;                                       ///< (C, nlev) out
  Field dwdz_at_cells_on_model_levels;                      ///< (C, nlev) out if divdamp_type >= 3
  Field exner_dynamical_increment;                          ///< (C, nlev) out if at_first_substep
  Table geofac_div;                                         ///< (C,3) C2E order
  Field mass_flux_at_edges_on_model_levels;                 ///< (E, nlev)
  Field theta_v_flux_at_edges_on_model_levels;              ///< (E, nlev)
  Field predictor_vertical_wind_advective_tendency;         ///< (C, nlev) half levels 1..nlev-1
  Field nonhydro_buoy_at_cells_on_half_levels;              ///< (C, nlev) half levels 1..nlev-1
  Field rho_at_cells_on_half_levels;                        ///< (C, nlev+1)
  Field contravariant_correction_at_edges_on_model_levels;  ///< (E, nlev)
  Vector exner_w_explicit_weight_parameter;                 ///< (C)
  Field current_exner;                                      ///< (C, nlev)
  Field current_rho;                                        ///< (C, nlev)
  Field current_theta_v;                                    ///< (C, nlev)
  Field current_w;                                          ///< (C, nlev) half levels 1..nlev-1
  Field inv_ddqz_z_full;                                    ///< (C, nlev)
  Vector exner_w_implicit_weight_parameter;                 ///< (C)
  Field theta_v_at_cells_on_half_levels;                    ///< (C, nlev+1)
  Field perturbed_exner_at_cells_on_model_levels;           ///< (C, nlev)
  Field exner_tendency_due_to_slow_physics;                 ///< (C, nlev)
  Field rho_iau_increment;                                  ///< (C, nlev)
  Field exner_iau_increment;                                ///< (C, nlev)
  Field ddqz_z_half;                                        ///< (C, nlev) half levels 1..nlev-1
  Vector rayleigh_damping_factor;                           ///< (K)
  Field reference_exner_at_cells_on_model_levels;           ///< (C, nlev)
  Table e_bln_c_s;                                          ///< (C,3) C2E order
  Field wgtfac_c;   ///< (C, nlev) half levels flat_level_index_plus1..nlev-1
  Field wgtfacq_c;  ///< (C, nlev) full levels nlev-3..nlev-1
  double iau_wgt_dyn = 0.0;
  double dtime = 0.0;
  bool is_iau_active = false;
  int rayleigh_type = 0;
  int divdamp_type = 0;
  bool at_first_substep = false;
  int end_index_of_damping_layer = 0;
  int kstart_moist = 0;
  int flat_level_index_plus1 = 0;
  int start_cell_index_nudging = 0;
  int end_cell_index_local = 0;
  int start_cell_index_lateral_lvl3 = 0;
  int end_cell_index_halo_lvl1 = 0;
  int vertical_start_index_model_top = 0;
  int vertical_end_index_model_surface = 0;
};

/// Steps 1-3 with the predictor's w_explicit = current_w + dtime·(advective tendency -
/// cpd·buoyancy); then, in the solve domain, dwdz_at_cells_on_model_levels = inv_ddqz_z_full·
/// ((w[k] - w[k+1]) - (w_concorr[k] - w_concorr[k+1])) if divdamp_type >= 3, and
/// exner_dynamical_increment = current_exner on levels >= kstart_moist if at_first_substep.
void vertically_implicit_solver_at_predictor_step(
    const Grid& grid, VerticallyImplicitSolverAtPredictorStepArgs& args);

struct VerticallyImplicitSolverAtCorrectorStepArgs {
  Field next_w;                                                ///< (C, nlev+1) in/out
  Field next_rho;                                              ///< (C, nlev) out
  Field next_exner;                                            ///< (C, nlev) out
  Field next_theta_v;                                          ///< (C, nlev) out
  Field dynamical_vertical_mass_flux_at_cells_on_half_levels;  ///< (C, nlev) in/out (lprep_adv)
  Field dynamical_vertical_volumetric_flux_at_cells_on_half_levels;  ///< (C, nlev) in/out
  Field exner_dynamical_increment;                         ///< (C, nlev) in/out (at_last_substep)
  Table geofac_div;                                        ///< (C,3) C2E order
  Field mass_flux_at_edges_on_model_levels;                ///< (E, nlev)
  Field theta_v_flux_at_edges_on_model_levels;             ///< (E, nlev)
  Field predictor_vertical_wind_advective_tendency;        ///< (C, nlev) half levels 1..nlev-1
  Field corrector_vertical_wind_advective_tendency;        ///< (C, nlev) half levels 1..nlev-1
  Field nonhydro_buoy_at_cells_on_half_levels;             ///< (C, nlev) half levels 1..nlev-1
  Field rho_at_cells_on_half_levels;                       ///< (C, nlev+1)
  Field contravariant_correction_at_cells_on_half_levels;  ///< (C, nlev+1)
  Vector exner_w_explicit_weight_parameter;                ///< (C)
  Field current_exner;                                     ///< (C, nlev)
  Field current_rho;                                       ///< (C, nlev)
  Field current_theta_v;                                   ///< (C, nlev)
  Field current_w;                                         ///< (C, nlev) half levels 1..nlev-1
  Field inv_ddqz_z_full;                                   ///< (C, nlev)
  Vector exner_w_implicit_weight_parameter;                ///< (C)
  Field theta_v_at_cells_on_half_levels;                   ///< (C, nlev+1)
  Field perturbed_exner_at_cells_on_model_levels;          ///< (C, nlev)
  Field exner_tendency_due_to_slow_physics;                ///< (C, nlev)
  Field rho_iau_increment;                                 ///< (C, nlev)
  Field exner_iau_increment;                               ///< (C, nlev)
  Field ddqz_z_half;                                       ///< (C, nlev) half levels 1..nlev-1
  Vector rayleigh_damping_factor;                          ///< (K)
  Field reference_exner_at_cells_on_model_levels;          ///< (C, nlev)
  double advection_explicit_weight_parameter = 0.0;
  double advection_implicit_weight_parameter = 0.0;
  bool lprep_adv = false;
  double r_nsubsteps = 0.0;
  double ndyn_substeps_var = 0.0;
  double iau_wgt_dyn = 0.0;
  double dtime = 0.0;
  bool is_iau_active = false;
  int rayleigh_type = 0;
  bool at_first_substep = false;
  bool at_last_substep = false;
  int end_index_of_damping_layer = 0;
  int kstart_moist = 0;
  int start_cell_index_nudging = 0;
  int end_cell_index_local = 0;
  int vertical_start_index_model_top = 0;
  int vertical_end_index_model_surface = 0;
};

/// Steps 2-3 with the corrector's w_explicit = current_w + dtime·(explicit_weight·predictor
/// tendency + implicit_weight·corrector tendency - cpd·buoyancy); then, in the solve domain:
///  * if lprep_adv: the dynamical mass and volume fluxes (reset to 0 first if at_first_substep,
///    level 0 included) += r_nsubsteps·(vertical mass flux + rho_ic·implicit_weight·w) (divided
///    by rho_ic for the volume flux) on half levels >= 1;
///  * if at_last_substep: exner_dynamical_increment = next_exner - (exner_dynamical_increment +
///    ndyn_substeps_var·dtime·exner_tendency_due_to_slow_physics) on levels >= kstart_moist.
void vertically_implicit_solver_at_corrector_step(
    const Grid& grid, VerticallyImplicitSolverAtCorrectorStepArgs& args);

}  // namespace icondiff::reference
