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

/// nlev := next_vn.levels. Edge fields (E, nlev); cell fields (C, nlev); ikoffset, zdiff_gradp
/// (E, 2, nlev); the domain must lie inside [0, E) × [0, nlev).
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

/// nlev := next_vn.levels. Edge fields (E, nlev); dwdz_at_cells_on_model_levels (C, nlev);
/// K profiles at least vertical_end values. The 4th-order damping reads the total divergence
/// gradient at the E2C2EO neighbours, so those inputs must be valid at every edge.
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

}  // namespace icondiff::reference
