// The fields of the dycore programs, each struct described ONCE by its field list
// (core/field_spec.hpp), names as ICON4Py 0.2.0 has them:
//  * the static fields (DycoreMetricState, DycoreInterpolationState, DycoreEdgeParams): the
//    parts of ICON4Py's MetricStateNonHydro, InterpolationState and EdgeParams these programs
//    read, held once by the Dycore (dycore/dycore_inputs.hpp);
//  * per program, the fields of one call under the program's own argument names, with its
//    scalar arguments beside them.
// Fields are (points[, slots][, levels]) in FieldLayout (point index fastest); vertical profiles
// (KField) are plain (levels) Views next to the list, since a field list describes horizontal
// fields.
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/statics/static_fields.hpp>

namespace icondiff {

// clang-format off
// FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON, ICON4Py)

// The static fields the four programs read: the dycore's selection of the model's static fields,
// each described once in statics/static_fields.hpp.
#define ICONDIFF_DYCORE_METRIC_FIELDS(FIELD)                                                       \
  ICONDIFF_STATIC_reference_rho_at_edges_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_theta_at_edges_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                          \
  ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                               \
  ICONDIFF_STATIC_pg_exdist(FIELD)                                                                 \
  ICONDIFF_STATIC_horizontal_mask_for_3d_divdamp(FIELD)                                            \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_c(FIELD)                                                                 \
  ICONDIFF_STATIC_wgtfac_e(FIELD)                                                                  \
  ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfacq_e(FIELD)                                                                 \
  ICONDIFF_STATIC_coeff_gradekin(FIELD)                                                            \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                             \
  ICONDIFF_STATIC_coeff1_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff2_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                            \
  ICONDIFF_STATIC_reference_rho_at_cells_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_theta_at_cells_on_half_levels(FIELD)                                   \
  ICONDIFF_STATIC_time_extrapolation_parameter_for_exner(FIELD)                                    \
  ICONDIFF_STATIC_d2dexdz2_fac1_mc(FIELD)                                                          \
  ICONDIFF_STATIC_d2dexdz2_fac2_mc(FIELD)

#define ICONDIFF_DYCORE_INTERPOLATION_FIELDS(FIELD)                                                \
  ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grg_y(FIELD)                                                              \
  ICONDIFF_STATIC_pos_on_tplane_e_1(FIELD)                                                         \
  ICONDIFF_STATIC_pos_on_tplane_e_2(FIELD)                                                         \
  ICONDIFF_STATIC_c_lin_e(FIELD)                                                                   \
  ICONDIFF_STATIC_nudgecoeff_e(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_div(FIELD)                                                                \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                           \
  ICONDIFF_STATIC_c_intp(FIELD)                                                                    \
  ICONDIFF_STATIC_geofac_rot(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_n2s(FIELD)                                                                \
  ICONDIFF_STATIC_e_flx_avg(FIELD)

#define ICONDIFF_DYCORE_EDGE_FIELDS(FIELD)                                                         \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                                 \
  ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                               \
  ICONDIFF_STATIC_tangent_orientation(FIELD)                                                       \
  ICONDIFF_STATIC_edge_areas(FIELD)                                                                \
  ICONDIFF_STATIC_coriolis_frequency(FIELD)                                                        \
  ICONDIFF_STATIC_primal_normal_cell_x(FIELD)                                                      \
  ICONDIFF_STATIC_primal_normal_cell_y(FIELD)                                                      \
  ICONDIFF_STATIC_dual_normal_cell_x(FIELD)                                                        \
  ICONDIFF_STATIC_dual_normal_cell_y(FIELD)

#define ICONDIFF_DYCORE_CELL_FIELDS(FIELD)                                                         \
  ICONDIFF_STATIC_cell_area(FIELD)                                                                 \
  ICONDIFF_STATIC_c_owner_mask(FIELD)                                                              \
  ICONDIFF_STATIC_mask_prog_halo_c(FIELD)

// Which static fields each program reads (for the "used by" column of static_field_users(),
// docs/dev/statics.md), and every static array of ICON4Py 0.2.0's solve_nh_init: the statics of
// the solve_nh granule (issue 28).
/// compute_rho_theta_pgrad_and_update_vn: the Green-Gauss gradients at the cells (ICON's
/// z_grad_rth, once per cell), then the edge body's.
#define ICONDIFF_RHO_THETA_PGRAD_STATICS(FIELD)                                                    \
  ICONDIFF_RHO_THETA_GRADIENTS_AT_CELLS_STATICS(FIELD)                                             \
  ICONDIFF_RHO_THETA_PGRAD_EDGE_STATICS(FIELD)
#define ICONDIFF_RHO_THETA_GRADIENTS_AT_CELLS_STATICS(FIELD)                                       \
  ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grg_y(FIELD)
#define ICONDIFF_RHO_THETA_PGRAD_EDGE_STATICS(FIELD)                                               \
  ICONDIFF_STATIC_reference_rho_at_edges_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_theta_at_edges_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_pos_on_tplane_e_1(FIELD)                                                         \
  ICONDIFF_STATIC_pos_on_tplane_e_2(FIELD)                                                         \
  ICONDIFF_STATIC_primal_normal_cell_x(FIELD)                                                      \
  ICONDIFF_STATIC_primal_normal_cell_y(FIELD)                                                      \
  ICONDIFF_STATIC_dual_normal_cell_x(FIELD)                                                        \
  ICONDIFF_STATIC_dual_normal_cell_y(FIELD)                                                        \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_c_lin_e(FIELD)                                                                   \
  ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                          \
  ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                               \
  ICONDIFF_STATIC_pg_exdist(FIELD)                                                                 \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)

#define ICONDIFF_DIVDAMP_UPDATE_VN_STATICS(FIELD)                                                  \
  ICONDIFF_STATIC_horizontal_mask_for_3d_divdamp(FIELD)                                            \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                                 \
  ICONDIFF_STATIC_nudgecoeff_e(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)

#define ICONDIFF_SOLVER_PREDICTOR_STATICS(FIELD)                                                   \
  ICONDIFF_CONTRAVARIANT_CORRECTION_STATICS(FIELD)                                                 \
  ICONDIFF_SOLVER_CORRECTOR_STATICS(FIELD)

/// The predictor's interpolation of the contravariant correction to cells.
#define ICONDIFF_CONTRAVARIANT_CORRECTION_STATICS(FIELD)                                           \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_c(FIELD)

#define ICONDIFF_SOLVER_CORRECTOR_STATICS(FIELD)                                                   \
  ICONDIFF_STATIC_geofac_div(FIELD)                                                                \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)

/// The horizontal advection of w (stencils/horizontal_advection_of_w.hpp): w at the vertices,
/// then the edge term.
#define ICONDIFF_W_AT_VERTICES_STATICS(FIELD) ICONDIFF_STATIC_c_intp(FIELD)
#define ICONDIFF_HORIZONTAL_ADVECTION_OF_W_STATICS(FIELD)                                          \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                                 \
  ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                               \
  ICONDIFF_STATIC_tangent_orientation(FIELD)

/// Velocity advection's compute_diagnostics_from_normal_wind: its edge body's own, then what
/// the horizontal advection of w takes.
#define ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_EDGE_STATICS(FIELD)                                  \
  ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                           \
  ICONDIFF_STATIC_wgtfac_e(FIELD)                                                                  \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfacq_e(FIELD)
#define ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_STATICS(FIELD)                                       \
  ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_EDGE_STATICS(FIELD)                                        \
  ICONDIFF_W_AT_VERTICES_STATICS(FIELD)                                                            \
  ICONDIFF_HORIZONTAL_ADVECTION_OF_W_STATICS(FIELD)

/// Velocity advection's compute_advection_in_horizontal_momentum: the vorticity at the vertices,
/// the kinetic energy at the cells, then the edge body's.
#define ICONDIFF_VORTICITY_AT_VERTICES_STATICS(FIELD) ICONDIFF_STATIC_geofac_rot(FIELD)
#define ICONDIFF_KINETIC_ENERGY_AT_CELLS_STATICS(FIELD) ICONDIFF_STATIC_e_bln_c_s(FIELD)
#define ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_STATICS(FIELD)                                   \
  ICONDIFF_VORTICITY_AT_VERTICES_STATICS(FIELD)                                                    \
  ICONDIFF_KINETIC_ENERGY_AT_CELLS_STATICS(FIELD)                                                  \
  ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_EDGE_STATICS(FIELD)
#define ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_EDGE_STATICS(FIELD)                              \
  ICONDIFF_STATIC_coeff_gradekin(FIELD)                                                            \
  ICONDIFF_STATIC_c_lin_e(FIELD)                                                                   \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                             \
  ICONDIFF_STATIC_edge_areas(FIELD)                                                                \
  ICONDIFF_STATIC_tangent_orientation(FIELD)                                                       \
  ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                               \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                              \
  ICONDIFF_STATIC_coriolis_frequency(FIELD)

/// Velocity advection's compute_advection_in_predictor/corrector_vertical_momentum.
#define ICONDIFF_ADVECTION_IN_VERTICAL_MOMENTUM_COMMON_STATICS(FIELD)                              \
  ICONDIFF_STATIC_coeff1_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff2_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_cell_area(FIELD)                                                                 \
  ICONDIFF_STATIC_geofac_n2s(FIELD)                                                                \
  ICONDIFF_STATIC_c_owner_mask(FIELD)
#define ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_STATICS(FIELD)                           \
  ICONDIFF_ADVECTION_IN_VERTICAL_MOMENTUM_COMMON_STATICS(FIELD)                                    \
  ICONDIFF_STATIC_wgtfac_c(FIELD)
/// The corrector's: the horizontal advection of w's, then the cell body's.
#define ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_STATICS(FIELD)                           \
  ICONDIFF_W_AT_VERTICES_STATICS(FIELD)                                                            \
  ICONDIFF_HORIZONTAL_ADVECTION_OF_W_STATICS(FIELD)                                                \
  ICONDIFF_ADVECTION_IN_VERTICAL_MOMENTUM_COMMON_STATICS(FIELD)

/// The small point programs of solve_nonhydro (stencils/solve_nonhydro_point_programs.hpp).
#define ICONDIFF_EXNER_FROM_RHOTHETA_STATICS(FIELD)
#define ICONDIFF_THETA_AND_EXNER_IN_HALO_STATICS(FIELD) ICONDIFF_STATIC_mask_prog_halo_c(FIELD)
#define ICONDIFF_INIT_CELL_KDIM_FIELD_STATICS(FIELD)
#define ICONDIFF_MASS_FLUX_WEIGHTED_STATICS(FIELD)                                                 \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)
#define ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_STATICS(FIELD) ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)
#define ICONDIFF_HYDROSTATIC_CORRECTION_STATICS(FIELD)                                             \
  ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                          \
  ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                               \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)

/// solve_nonhydro's horizontal velocity programs (stencils/compute_horizontal_velocity_quantities).
#define ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_STATICS(FIELD)                                     \
  ICONDIFF_STATIC_e_flx_avg(FIELD)                                                                 \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                              \
  ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                           \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                             \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfac_e(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_e(FIELD)
#define ICONDIFF_AVERAGED_VN_AND_FLUXES_STATICS(FIELD)                                             \
  ICONDIFF_STATIC_e_flx_avg(FIELD)                                                                 \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)

#define ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_STATICS(FIELD)                                    \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                            \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)

#define ICONDIFF_PERTURBED_QUANTITIES_STATICS(FIELD)                                               \
  ICONDIFF_STATIC_reference_rho_at_cells_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_reference_theta_at_cells_on_half_levels(FIELD)                                   \
  ICONDIFF_STATIC_wgtfacq_c(FIELD)                                                                 \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                            \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_time_extrapolation_parameter_for_exner(FIELD)                                    \
  ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_d2dexdz2_fac1_mc(FIELD)                                                          \
  ICONDIFF_STATIC_d2dexdz2_fac2_mc(FIELD)

#define ICONDIFF_SOLVE_NH_STATICS(FIELD)                                                           \
  ICONDIFF_STATIC_c_lin_e(FIELD)                                                                   \
  ICONDIFF_STATIC_c_intp(FIELD)                                                                    \
  ICONDIFF_STATIC_e_flx_avg(FIELD)                                                                 \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_rot(FIELD)                                                                \
  ICONDIFF_STATIC_pos_on_tplane_e_1(FIELD)                                                         \
  ICONDIFF_STATIC_pos_on_tplane_e_2(FIELD)                                                         \
  ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                           \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_rbf_coeff_1(FIELD)                                                               \
  ICONDIFF_STATIC_rbf_coeff_2(FIELD)                                                               \
  ICONDIFF_STATIC_geofac_div(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_n2s(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grg_y(FIELD)                                                              \
  ICONDIFF_STATIC_nudgecoeff_e(FIELD)                                                              \
  ICONDIFF_STATIC_mask_prog_halo_c(FIELD)                                                          \
  ICONDIFF_STATIC_time_extrapolation_parameter_for_exner(FIELD)                                    \
  ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_c(FIELD)                                                                 \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_reference_rho_at_cells_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                            \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_reference_theta_at_cells_on_half_levels(FIELD)                                   \
  ICONDIFF_STATIC_d2dexdz2_fac1_mc(FIELD)                                                          \
  ICONDIFF_STATIC_d2dexdz2_fac2_mc(FIELD)                                                          \
  ICONDIFF_STATIC_reference_rho_at_edges_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_theta_at_edges_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                               \
  ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                          \
  ICONDIFF_STATIC_pg_exdist(FIELD)                                                                 \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                             \
  ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfac_e(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_e(FIELD)                                                                 \
  ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_horizontal_mask_for_3d_divdamp(FIELD)                                            \
  ICONDIFF_STATIC_coeff1_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff2_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff_gradekin(FIELD)                                                            \
  ICONDIFF_STATIC_c_owner_mask(FIELD)

/// compute_rho_theta_pgrad_and_update_vn: outputs first, then inputs (the program's order).
#define ICONDIFF_RHO_THETA_PGRAD_FIELDS(FIELD)                                                     \
  FIELD(rho_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-3",                    \
        "upwind density at edges (output)", "z_rho_e", "")                                          \
  FIELD(theta_v_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K",                     \
        "upwind virtual potential temperature at edges (output)", "z_theta_v_e", "")                \
  FIELD(horizontal_pressure_gradient, vp, Edge, None, Full, Required, "m-1",                       \
        "horizontal gradient of the Exner pressure (output)", "z_gradh_exner", "")                  \
  FIELD(next_vn, wp, Edge, None, Full, Required, "m s-1", "normal wind of the new time level "     \
        "(in/out)", "p_nh%prog(nnew)%vn", "")                                                       \
  FIELD(current_vn, wp, Edge, None, Full, Required, "m s-1", "normal wind now",                    \
        "p_nh%prog(nnow)%vn", "")                                                                   \
  FIELD(tangential_wind, vp, Edge, None, Full, Required, "m s-1", "tangential wind",               \
        "p_nh%diag%vt", "")                                                                         \
  FIELD(perturbed_rho_at_cells_on_model_levels, vp, Cell, None, Full, Required, "kg m-3",          \
        "density minus reference density", "z_rth_pr(:,:,:,1)", "")                                 \
  FIELD(perturbed_theta_v_at_cells_on_model_levels, vp, Cell, None, Full, Required, "K",           \
        "theta_v minus reference theta_v", "z_rth_pr(:,:,:,2)", "")                                 \
  FIELD(temporal_extrapolation_of_perturbed_exner, vp, Cell, None, Half, Required, "1",            \
        "perturbation Exner pressure extrapolated in time (levels 0..nlev-1 read; nlev + 1 as "    \
        "ICON4Py allocates it)", "z_exner_ex_pr", "")                                               \
  FIELD(ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,    \
        Required, "m-1", "its first vertical derivative", "z_dexner_dz_c(1,:,:,:)", "")             \
  FIELD(d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,  \
        Required, "m-2", "its second vertical derivative", "z_dexner_dz_c(2,:,:,:)", "")            \
  FIELD(hydrostatic_correction_on_lowest_level, wp, Edge, None, None, Required, "m-1",             \
        "hydrostatic correction of the pressure gradient on the lowest level", "z_hydro_corr", "")  \
  FIELD(predictor_normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",         \
        "advective tendency of vn, predictor", "p_nh%diag%ddt_vn_apc_pc(:,:,:,ntl1)", "")           \
  FIELD(normal_wind_tendency_due_to_slow_physics_process, vp, Edge, None, Full, Required,          \
        "m s-2", "slow-physics tendency of vn", "p_nh%diag%ddt_vn_phy", "")                         \
  FIELD(normal_wind_iau_increment, vp, Edge, None, Full, Required, "m s-1",                        \
        "IAU increment of vn (read when IAU is active)", "p_nh%diag%vn_incr", "")                   \
  FIELD(grf_tend_vn, wp, Edge, None, Full, Required, "m s-2",                                      \
        "lateral boundary tendency of vn (read on limited-area grids)", "p_nh%diag%grf_tend_vn", "")

/// apply_divergence_damping_and_update_vn.
#define ICONDIFF_DIVDAMP_UPDATE_VN_FIELDS(FIELD)                                                   \
  FIELD(horizontal_gradient_of_normal_wind_divergence, vp, Edge, None, Full, Required, "m-1 s-1",  \
        "horizontal gradient of the divergence of vn", "z_graddiv_vn", "")                          \
  FIELD(next_vn, wp, Edge, None, Full, Required, "m s-1", "normal wind of the new time level "     \
        "(output)", "p_nh%prog(nnew)%vn", "")                                                       \
  FIELD(current_vn, wp, Edge, None, Full, Required, "m s-1", "normal wind now",                    \
        "p_nh%prog(nnow)%vn", "")                                                                   \
  FIELD(dwdz_at_cells_on_model_levels, vp, Cell, None, Full, Required, "s-1",                      \
        "dw/dz for the divergence damping", "z_dwdz_dd", "")                                        \
  FIELD(predictor_normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",         \
        "advective tendency of vn, predictor", "p_nh%diag%ddt_vn_apc_pc(:,:,:,ntl1)", "")           \
  FIELD(corrector_normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",         \
        "advective tendency of vn, corrector", "p_nh%diag%ddt_vn_apc_pc(:,:,:,ntl2)", "")           \
  FIELD(normal_wind_tendency_due_to_slow_physics_process, vp, Edge, None, Full, Required,          \
        "m s-2", "slow-physics tendency of vn", "p_nh%diag%ddt_vn_phy", "")                         \
  FIELD(normal_wind_iau_increment, vp, Edge, None, Full, Required, "m s-1",                        \
        "IAU increment of vn (read when IAU is active)", "p_nh%diag%vn_incr", "")                   \
  FIELD(theta_v_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K",                     \
        "virtual potential temperature at edges", "z_theta_v_e", "")                                \
  FIELD(horizontal_pressure_gradient, vp, Edge, None, Full, Required, "m-1",                       \
        "horizontal gradient of the Exner pressure", "z_gradh_exner", "")

/// The new state both solver steps write (next_w: in/out, its surface value set first).
#define ICONDIFF_SOLVER_NEW_STATE_FIELDS(FIELD)                                                    \
  FIELD(next_w, wp, Cell, None, Half, Required, "m s-1", "vertical wind, new time level (in/out)", \
        "p_nh%prog(nnew)%w", "")                                                                   \
  FIELD(next_rho, wp, Cell, None, Full, Required, "kg m-3", "density, new time level (output)",    \
        "p_nh%prog(nnew)%rho", "")                                                                 \
  FIELD(next_exner, wp, Cell, None, Full, Required, "1", "Exner pressure, new time level "         \
        "(output)", "p_nh%prog(nnew)%exner", "")                                                   \
  FIELD(next_theta_v, wp, Cell, None, Full, Required, "K", "virtual potential temperature, new "   \
        "time level (output)", "p_nh%prog(nnew)%theta_v", "")

/// The inputs both solver steps read.
#define ICONDIFF_SOLVER_INPUT_FIELDS(FIELD)                                                        \
  FIELD(mass_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-2 s-1",          \
        "horizontal mass flux at edges", "p_nh%diag%mass_fl_e", "")                                \
  FIELD(theta_v_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K kg m-2 s-1",     \
        "horizontal theta_v flux at edges", "z_theta_v_fl_e", "")                                  \
  FIELD(predictor_vertical_wind_advective_tendency, vp, Cell, None, Half, Required, "m s-2",       \
        "advective tendency of w, predictor", "p_nh%diag%ddt_w_adv_pc(:,:,:,ntl1)", "")            \
  FIELD(nonhydro_buoy_at_cells_on_half_levels, vp, Cell, None, Full, Required, "m-1 K",            \
        "buoyancy term of w (level 0 unused)", "z_th_ddz_exner_c", "")                             \
  FIELD(rho_at_cells_on_half_levels, wp, Cell, None, Half, Required, "kg m-3",                     \
        "density at half levels", "p_nh%diag%rho_ic", "")                                          \
  FIELD(current_exner, wp, Cell, None, Full, Required, "1", "Exner pressure now",                  \
        "p_nh%prog(nnow)%exner", "")                                                               \
  FIELD(current_rho, wp, Cell, None, Full, Required, "kg m-3", "density now",                      \
        "p_nh%prog(nnow)%rho", "")                                                                 \
  FIELD(current_theta_v, wp, Cell, None, Full, Required, "K", "theta_v now",                       \
        "p_nh%prog(nnow)%theta_v", "")                                                             \
  FIELD(current_w, wp, Cell, None, Half, Required, "m s-1", "vertical wind now",                   \
        "p_nh%prog(nnow)%w", "")                                                                   \
  FIELD(theta_v_at_cells_on_half_levels, wp, Cell, None, Half, Required, "K",                      \
        "theta_v at half levels", "p_nh%diag%theta_v_ic", "")                                      \
  FIELD(perturbed_exner_at_cells_on_model_levels, wp, Cell, None, Full, Required, "1",             \
        "Exner pressure minus reference", "p_nh%diag%exner_pr", "")                                \
  FIELD(exner_tendency_due_to_slow_physics, vp, Cell, None, Full, Required, "s-1",                 \
        "slow-physics tendency of exner", "p_nh%diag%ddt_exner_phy", "")                           \
  FIELD(rho_iau_increment, vp, Cell, None, Full, Required, "kg m-3",                               \
        "IAU increment of rho (read when IAU is active)", "p_nh%diag%rho_incr", "")                \
  FIELD(exner_iau_increment, vp, Cell, None, Full, Required, "1",                                  \
        "IAU increment of exner (read when IAU is active)", "p_nh%diag%exner_incr", "")

/// compute_diagnostics_from_normal_wind (velocity advection): outputs first, then inputs.
#define ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_FIELDS(FIELD)                                        \
  FIELD(tangential_wind, vp, Edge, None, Full, Required, "m s-1",                                  \
        "tangential wind (output)", "p_nh%diag%vt", "")                                            \
  FIELD(tangential_wind_on_half_levels, vp, Edge, None, Full, Required, "m s-1",                   \
        "tangential wind at half levels (output unless the predictor's vertical advection is "     \
        "skipped)", "z_vt_ie", "")                                                                 \
  FIELD(vn_on_half_levels, vp, Edge, None, Half, Required, "m s-1",                                \
        "normal wind at half levels (output)", "p_nh%diag%vn_ie", "")                              \
  FIELD(horizontal_kinetic_energy_at_edges_on_model_levels, vp, Edge, None, Full, Required,        \
        "m2 s-2", "horizontal kinetic energy at edges (output)", "z_kin_hor_e", "")                \
  FIELD(contravariant_correction_at_edges_on_model_levels, vp, Edge, None, Full, Required,         \
        "m s-1", "contravariant correction at edges (output on levels nflatlev..nlev-1)",          \
        "z_w_concorr_me", "")                                                                      \
  FIELD(horizontal_advection_of_w_at_edges_on_half_levels, vp, Edge, None, Full, Required,         \
        "m s-2", "vn dw/dn + vt dw/dt at edges (output unless skipped)", "z_v_grad_w", "")         \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1", "normal wind", "p_nh%prog(nnow)%vn", "")      \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "vertical wind", "p_nh%prog(nnow)%w", "")

/// compute_advection_in_horizontal_momentum (velocity advection): the output, then the inputs.
#define ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_FIELDS(FIELD)                                    \
  FIELD(normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",                   \
        "advective tendency of vn (output; ICON4Py passes its predictor or corrector slot)",       \
        "p_nh%diag%ddt_vn_apc_pc", "")                                                             \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1", "normal wind", "p_nh%prog(nnow)%vn", "")      \
  FIELD(horizontal_kinetic_energy_at_edges_on_model_levels, vp, Edge, None, Full, Required,        \
        "m2 s-2", "horizontal kinetic energy at edges", "z_kin_hor_e", "")                        \
  FIELD(tangential_wind, vp, Edge, None, Full, Required, "m s-1", "tangential wind",               \
        "p_nh%diag%vt", "")                                                                        \
  FIELD(contravariant_corrected_w_at_cells_on_model_levels, vp, Cell, None, Full, Required,        \
        "m s-1", "contravariant vertical wind at full levels", "z_w_con_c_full", "")               \
  FIELD(vn_on_half_levels, vp, Edge, None, Half, Required, "m s-1", "normal wind at half levels",  \
        "p_nh%diag%vn_ie", "")

/// compute_advection_in_predictor_vertical_momentum (velocity advection): outputs, then inputs.
#define ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_FIELDS(FIELD)                            \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w at cells (output on levels 0..nlev-1)",                     \
        "p_nh%diag%w_concorr_c", "")                                                               \
  ICONDIFF_VERTICAL_MOMENTUM_OUTPUT_FIELDS(FIELD)                                                  \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "vertical wind", "p_nh%prog(nnow)%w", "")      \
  FIELD(horizontal_advection_of_w_at_edges_on_half_levels, vp, Edge, None, Full, Required,         \
        "m s-2", "vn dw/dn + vt dw/dt at edges", "z_v_grad_w", "")                                 \
  FIELD(contravariant_correction_at_edges_on_model_levels, vp, Edge, None, Full, Required,         \
        "m s-1", "contravariant correction at edges", "z_w_concorr_me", "")

/// compute_advection_in_corrector_vertical_momentum (velocity advection): outputs, then inputs.
#define ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_FIELDS(FIELD)                            \
  ICONDIFF_VERTICAL_MOMENTUM_OUTPUT_FIELDS(FIELD)                                                  \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "vertical wind", "p_nh%prog(nnow)%w", "")      \
  FIELD(tangential_wind_on_half_levels, vp, Edge, None, Full, Required, "m s-1",                   \
        "tangential wind at half levels", "z_vt_ie", "")                                           \
  FIELD(vn_on_half_levels, vp, Edge, None, Half, Required, "m s-1", "normal wind at half levels",  \
        "p_nh%diag%vn_ie", "")                                                                     \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w at cells", "p_nh%diag%w_concorr_c", "")

/// What both vertical-momentum steps write.
#define ICONDIFF_VERTICAL_MOMENTUM_OUTPUT_FIELDS(FIELD)                                            \
  FIELD(vertical_wind_advective_tendency, vp, Cell, None, Half, Required, "m s-2",                 \
        "advective tendency of w (output on levels 1..nlev-1; the predictor's unless skipped)",   \
        "p_nh%diag%ddt_w_adv_pc", "")                                                              \
  FIELD(contravariant_corrected_w_at_cells_on_model_levels, vp, Cell, None, Full, Required,        \
        "m s-1", "contravariant vertical wind at full levels (output)", "z_w_con_c_full", "")      \
  FIELD(vertical_cfl, vp, Cell, None, Full, Required, "1",                                         \
        "vertical CFL number where it exceeds 0.65 in the clipping band, else 0 (output)",         \
        "vcfl", "")

// The small point programs of solve_nonhydro, under ICON4Py's program argument names.
#define ICONDIFF_EXNER_FROM_RHOTHETA_FIELDS(FIELD)                                                 \
  FIELD(rho, wp, Cell, None, Full, Required, "kg m-3", "density", "p_nh%prog(nnew)%rho", "")       \
  FIELD(theta_v, wp, Cell, None, Full, Required, "K",                                              \
        "virtual potential temperature (output: the exner field's values)",                        \
        "p_nh%prog(nnew)%theta_v", "")                                                             \
  FIELD(exner, wp, Cell, None, Full, Required, "1",                                                \
        "in: theta_v of the lateral boundary data; out: exner", "p_nh%prog(nnew)%exner", "")
#define ICONDIFF_THETA_AND_EXNER_IN_HALO_FIELDS(FIELD)                                             \
  FIELD(rho_now, wp, Cell, None, Full, Required, "kg m-3", "density now", "", "")                  \
  FIELD(rho_new, wp, Cell, None, Full, Required, "kg m-3", "density new", "", "")                  \
  FIELD(theta_v_now, wp, Cell, None, Full, Required, "K", "theta_v now", "", "")                   \
  FIELD(theta_v_new, wp, Cell, None, Full, Required, "K", "theta_v new (output)", "", "")          \
  FIELD(exner_new, wp, Cell, None, Full, Required, "1", "exner new (in/out)", "", "")              \
  FIELD(exner_now, wp, Cell, None, Full, Required, "1", "exner now", "", "")
#define ICONDIFF_INIT_CELL_KDIM_FIELD_FIELDS(FIELD)                                                \
  FIELD(field_with_zero_wp, wp, Cell, None, Half, Required, "1", "the field set to 0 (output)",    \
        "", "")
#define ICONDIFF_MASS_FLUX_WEIGHTED_FIELDS(FIELD)                                                  \
  FIELD(rho_ic, wp, Cell, None, Half, Required, "kg m-3", "density at half levels",                \
        "p_nh%diag%rho_ic", "")                                                                    \
  FIELD(w_now, wp, Cell, None, Half, Required, "m s-1", "w now", "", "")                           \
  FIELD(w_new, wp, Cell, None, Half, Required, "m s-1", "w new", "", "")                           \
  FIELD(w_concorr_c, vp, Cell, None, Half, Required, "m s-1", "contravariant correction of w",     \
        "p_nh%diag%w_concorr_c", "")                                                               \
  FIELD(mass_flx_ic, wp, Cell, None, Half, Required, "kg m-2 s-1",                                 \
        "vertical mass flux for tracer advection (in/out)", "prep_adv%mass_flx_ic", "")
#define ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_FIELDS(FIELD)                                         \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "w", "", "")                                   \
  FIELD(w_concorr_c, vp, Cell, None, Half, Required, "m s-1", "contravariant correction of w",     \
        "p_nh%diag%w_concorr_c", "")                                                               \
  FIELD(z_dwdz_dd, vp, Cell, None, Full, Required, "s-1", "dw/dz for the divergence damping "      \
        "(output)", "z_dwdz_dd", "")
#define ICONDIFF_HYDROSTATIC_CORRECTION_FIELDS(FIELD)                                              \
  FIELD(theta_v, wp, Cell, None, Full, Required, "K", "virtual potential temperature", "", "")     \
  FIELD(theta_v_ic, wp, Cell, None, Half, Required, "K", "theta_v at half levels",                 \
        "p_nh%diag%theta_v_ic", "")                                                                \
  FIELD(z_hydro_corr, vp, Edge, None, Full, Required, "m-1",                                       \
        "hydrostatic correction of the pressure gradient (output on the lowest level)",            \
        "z_hydro_corr", "")

/// compute_horizontal_velocity_quantities_and_fluxes (solve_nonhydro's predictor).
#define ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_FIELDS(FIELD)                                      \
  FIELD(spatially_averaged_vn, wp, Edge, None, Full, Required, "m s-1",                            \
        "vn averaged over the edge's neighbours (output)", "z_vn_avg", "")                         \
  FIELD(horizontal_gradient_of_normal_wind_divergence, vp, Edge, None, Full, Required, "m-1 s-1",  \
        "horizontal gradient of the divergence of vn (output)", "z_graddiv_vn", "")                \
  FIELD(tangential_wind, vp, Edge, None, Full, Required, "m s-1", "tangential wind (output)",      \
        "p_nh%diag%vt", "")                                                                        \
  FIELD(mass_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-2 s-1",          \
        "horizontal mass flux (output)", "p_nh%diag%mass_fl_e", "")                                \
  FIELD(theta_v_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K kg m-2 s-1",     \
        "horizontal theta_v flux (output)", "z_theta_v_fl_e", "")                                  \
  FIELD(tangential_wind_on_half_levels, vp, Edge, None, Full, Required, "m s-1",                   \
        "tangential wind at half levels (output)", "z_vt_ie", "")                                  \
  FIELD(vn_on_half_levels, vp, Edge, None, Half, Required, "m s-1",                                \
        "normal wind at half levels (output)", "p_nh%diag%vn_ie", "")                              \
  FIELD(horizontal_kinetic_energy_at_edges_on_model_levels, vp, Edge, None, Full, Required,        \
        "m2 s-2", "horizontal kinetic energy at edges (output)", "z_kin_hor_e", "")                \
  FIELD(contravariant_correction_at_edges_on_model_levels, vp, Edge, None, Full, Required,         \
        "m s-1", "contravariant correction at edges (output from nflatlev on)", "z_w_concorr_me",  \
        "")                                                                                        \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1", "normal wind", "p_nh%prog(nnow)%vn", "")      \
  FIELD(rho_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-3",                    \
        "density at edges", "z_rho_e", "")                                                         \
  FIELD(theta_v_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K",                     \
        "theta_v at edges", "z_theta_v_e", "")

/// compute_averaged_vn_and_fluxes (solve_nonhydro's corrector).
#define ICONDIFF_AVERAGED_VN_AND_FLUXES_FIELDS(FIELD)                                              \
  FIELD(spatially_averaged_vn, wp, Edge, None, Full, Required, "m s-1",                            \
        "vn averaged over the edge's neighbours (output)", "z_vn_avg", "")                         \
  FIELD(mass_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-2 s-1",          \
        "horizontal mass flux (output)", "p_nh%diag%mass_fl_e", "")                                \
  FIELD(theta_v_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K kg m-2 s-1",     \
        "horizontal theta_v flux (output)", "z_theta_v_fl_e", "")                                  \
  FIELD(substep_and_spatially_averaged_vn, wp, Edge, None, Full, Required, "m s-1",                \
        "vn averaged over the substeps for tracer advection (in/out with prepare_advection)",      \
        "prep_adv%vn_traj", "")                                                                    \
  FIELD(substep_averaged_mass_flux, wp, Edge, None, Full, Required, "kg m-2 s-1",                  \
        "mass flux averaged over the substeps (in/out with prepare_advection)",                    \
        "prep_adv%mass_flx_me", "")                                                                \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1", "normal wind", "p_nh%prog(nnew)%vn", "")      \
  FIELD(rho_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-3",                    \
        "density at edges", "z_rho_e", "")                                                         \
  FIELD(theta_v_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K",                     \
        "theta_v at edges", "z_theta_v_e", "")

/// stencils_61_62 (limited-area boundary of the predictor).
#define ICONDIFF_STENCILS_61_62_FIELDS(FIELD)                                                      \
  FIELD(rho_now, wp, Cell, None, Full, Required, "kg m-3", "density now", "", "")                  \
  FIELD(grf_tend_rho, wp, Cell, None, Full, Required, "kg m-3 s-1",                                \
        "lateral boundary tendency of rho", "p_nh%diag%grf_tend_rho", "")                          \
  FIELD(theta_v_now, wp, Cell, None, Full, Required, "K", "theta_v now", "", "")                   \
  FIELD(grf_tend_thv, wp, Cell, None, Full, Required, "K s-1",                                     \
        "lateral boundary tendency of theta_v", "p_nh%diag%grf_tend_thv", "")                      \
  FIELD(w_now, wp, Cell, None, Half, Required, "m s-1", "w now", "", "")                           \
  FIELD(grf_tend_w, wp, Cell, None, Half, Required, "m s-2", "lateral boundary tendency of w",     \
        "p_nh%diag%grf_tend_w", "")                                                                \
  FIELD(rho_new, wp, Cell, None, Full, Required, "kg m-3", "density new (output)", "", "")         \
  FIELD(exner_new, wp, Cell, None, Full, Required, "K",                                            \
        "the exner field of the new level, receiving theta_v (output)", "", "")                    \
  FIELD(w_new, wp, Cell, None, Half, Required, "m s-1", "w new (output)", "", "")

/// compute_interpolation_and_nonhydro_buoy (solve_nonhydro's corrector).
#define ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_FIELDS(FIELD)                                     \
  FIELD(rho_at_cells_on_half_levels, wp, Cell, None, Half, Required, "kg m-3",                     \
        "density at half levels (output)", "p_nh%diag%rho_ic", "")                                 \
  FIELD(perturbed_theta_v_at_cells_on_half_levels, vp, Cell, None, Half, Required, "K",            \
        "theta_v perturbation at half levels (output)", "z_theta_v_pr_ic", "")                     \
  FIELD(theta_v_at_cells_on_half_levels, wp, Cell, None, Half, Required, "K",                      \
        "theta_v at half levels (output)", "p_nh%diag%theta_v_ic", "")                             \
  FIELD(nonhydro_buoy_at_cells_on_half_levels, vp, Cell, None, Full, Required, "m-1 K",            \
        "buoyancy term of w (output; level 0 unused)", "z_th_ddz_exner_c", "")                     \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "w (new)", "", "")                             \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w", "p_nh%diag%w_concorr_c", "")                              \
  FIELD(current_rho, wp, Cell, None, Full, Required, "kg m-3", "density now", "", "")              \
  FIELD(next_rho, wp, Cell, None, Full, Required, "kg m-3", "density new", "", "")                 \
  FIELD(current_theta_v, wp, Cell, None, Full, Required, "K", "theta_v now", "", "")               \
  FIELD(next_theta_v, wp, Cell, None, Full, Required, "K", "theta_v new", "", "")                  \
  FIELD(perturbed_exner_at_cells_on_model_levels, wp, Cell, None, Full, Required, "1",             \
        "exner minus reference", "p_nh%diag%exner_pr", "")

/// compute_perturbed_quantities_and_interpolation (solve_nonhydro's predictor).
#define ICONDIFF_PERTURBED_QUANTITIES_FIELDS(FIELD)                                                \
  FIELD(temporal_extrapolation_of_perturbed_exner, vp, Cell, None, Half, Required, "1",            \
        "exner perturbation extrapolated in time (output on levels 0..nlev-1; ICON4Py allocates "  \
        "nlev + 1)", "z_exner_ex_pr", "")                                                          \
  FIELD(ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,    \
        Required, "m-1", "its first vertical derivative (output from nflatlev on)",                \
        "z_dexner_dz_c(1,:,:,:)", "")                                                              \
  FIELD(d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,  \
        Required, "m-2", "its second vertical derivative (output from nflat_gradp on)",            \
        "z_dexner_dz_c(2,:,:,:)", "")                                                              \
  FIELD(perturbed_exner_at_cells_on_model_levels, wp, Cell, None, Full, Required, "1",             \
        "exner minus reference (in/out)", "p_nh%diag%exner_pr", "")                                \
  FIELD(exner_at_cells_on_half_levels, vp, Cell, None, Half, Required, "1",                        \
        "exner perturbation at half levels (in/out)", "z_exner_ic", "")                            \
  FIELD(perturbed_rho_at_cells_on_model_levels, vp, Cell, None, Full, Required, "kg m-3",          \
        "density minus reference (output)", "z_rth_pr(:,:,:,1)", "")                               \
  FIELD(perturbed_theta_v_at_cells_on_model_levels, vp, Cell, None, Full, Required, "K",           \
        "theta_v minus reference (output)", "z_rth_pr(:,:,:,2)", "")                               \
  FIELD(rho_at_cells_on_half_levels, wp, Cell, None, Half, Required, "kg m-3",                     \
        "density at half levels (in/out)", "p_nh%diag%rho_ic", "")                                 \
  FIELD(perturbed_theta_v_at_cells_on_half_levels, vp, Cell, None, Half, Required, "K",            \
        "theta_v perturbation at half levels (output)", "z_theta_v_pr_ic", "")                     \
  FIELD(theta_v_at_cells_on_half_levels, wp, Cell, None, Half, Required, "K",                      \
        "theta_v at half levels (in/out)", "p_nh%diag%theta_v_ic", "")                             \
  FIELD(nonhydro_buoy_at_cells_on_half_levels, vp, Cell, None, Full, Required, "m-1 K",            \
        "buoyancy term of w (in/out; from level 1)", "z_th_ddz_exner_c", "")                       \
  FIELD(current_rho, wp, Cell, None, Full, Required, "kg m-3", "density now", "", "")              \
  FIELD(current_theta_v, wp, Cell, None, Full, Required, "K", "theta_v now", "", "")               \
  FIELD(current_exner, wp, Cell, None, Full, Required, "1", "exner now", "", "")

/// vertically_implicit_solver_at_predictor_step: outputs first, then inputs.
#define ICONDIFF_SOLVER_PREDICTOR_FIELDS(FIELD)                                                    \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w at cells (in/out: written on half levels nflatlev+1..nlev)", \
        "p_nh%diag%w_concorr_c", "")                                                               \
  ICONDIFF_SOLVER_NEW_STATE_FIELDS(FIELD)                                                          \
  FIELD(dwdz_at_cells_on_model_levels, vp, Cell, None, Full, Required, "s-1",                      \
        "dw/dz for the divergence damping (in/out: written when divdamp_type >= 3)", "z_dwdz_dd", "") \
  FIELD(exner_dynamical_increment, vp, Cell, None, Full, Required, "1",                            \
        "dynamical exner increment (in/out: set on the first substep)", "p_nh%diag%exner_dyn_incr", \
        "")                                                                                        \
  FIELD(contravariant_correction_at_edges_on_model_levels, vp, Edge, None, Full, Required,         \
        "m s-1", "contravariant correction of the normal wind at edges", "z_w_concorr_me", "")     \
  ICONDIFF_SOLVER_INPUT_FIELDS(FIELD)

/// vertically_implicit_solver_at_corrector_step: outputs first, then inputs.
#define ICONDIFF_SOLVER_CORRECTOR_FIELDS(FIELD)                                                    \
  ICONDIFF_SOLVER_NEW_STATE_FIELDS(FIELD)                                                          \
  FIELD(dynamical_vertical_mass_flux_at_cells_on_half_levels, wp, Cell, None, Half, Required,      \
        "kg m-2 s-1", "vertical mass flux for tracer advection (in/out: with lprep_adv)",          \
        "prep_adv%mass_flx_ic", "")                                                                \
  FIELD(dynamical_vertical_volumetric_flux_at_cells_on_half_levels, wp, Cell, None, Half,          \
        Required, "m s-1", "vertical volume flux for tracer advection (in/out: with lprep_adv)",   \
        "prep_adv%vol_flx_ic", "")                                                                 \
  FIELD(exner_dynamical_increment, vp, Cell, None, Full, Required, "1",                            \
        "dynamical exner increment (in/out: updated on the last substep)",                         \
        "p_nh%diag%exner_dyn_incr", "")                                                            \
  ICONDIFF_SOLVER_INPUT_FIELDS(FIELD)                                                              \
  FIELD(corrector_vertical_wind_advective_tendency, vp, Cell, None, Half, Required, "m s-2",       \
        "advective tendency of w, corrector", "p_nh%diag%ddt_w_adv_pc(:,:,:,ntl2)", "")            \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w at cells", "p_nh%diag%w_concorr_c", "")
// clang-format on

// The scalar and profile arguments of each call: ARG(name, type, default, meaning).
// clang-format off
/// What every program's call takes: the time step and the IAU switches.
#define ICONDIFF_DYCORE_STEP_SCALARS(ARG)                                                          \
  ARG(dtime, double, 0, "the dynamics time step [s]")                                              \
  ARG(is_iau_active, bool, false, "add the IAU increments")                                        \
  ARG(iau_wgt_dyn, double, 0, "the IAU weight of this substep")

#define ICONDIFF_RHO_THETA_PGRAD_SCALARS(ARG) ICONDIFF_DYCORE_STEP_SCALARS(ARG)

#define ICONDIFF_DIVDAMP_UPDATE_VN_SCALARS(ARG)                                                    \
  ARG(interpolated_fourth_order_divdamp_factor, LevelProfile<MemorySpace>, {},                     \
      "(nlev) the fourth-order divergence damping factor interpolated to each level")             \
  ARG(second_order_divdamp_factor, double, 0, "the second-order divergence damping factor")       \
  ARG(second_order_divdamp_scaling_coeff, double, 0, "its scaling coefficient")                   \
  ARG(apply_2nd_order_divergence_damping, bool, false,                                             \
      "as solve_nonhydro sets it from the configuration (divergence_damping_switches())")         \
  ARG(apply_4th_order_divergence_damping, bool, false, "likewise")                                 \
  ICONDIFF_DYCORE_STEP_SCALARS(ARG)

/// What both solver steps take.
#define ICONDIFF_SOLVER_SCALARS(ARG)                                                               \
  ARG(rayleigh_damping_factor, LevelProfile<MemorySpace>, {},                                      \
      "(nlev) z_raylfac, the Klemp Rayleigh damping factor of each level")                        \
  ARG(at_first_substep, bool, false, "the first dynamics substep of the physics step")             \
  ICONDIFF_DYCORE_STEP_SCALARS(ARG)

#define ICONDIFF_SOLVER_CORRECTOR_SCALARS(ARG)                                                     \
  ICONDIFF_SOLVER_SCALARS(ARG)                                                                     \
  ARG(lprep_adv, bool, false, "accumulate the vertical mass and volume fluxes for tracers")        \
  ARG(r_nsubsteps, double, 0, "1 / ndyn_substeps_var")                                             \
  ARG(ndyn_substeps_var, double, 0, "the number of dynamics substeps of this physics step")         \
  ARG(at_last_substep, bool, false, "the last dynamics substep of the physics step")

#define ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_SCALARS(ARG)                                         \
  ARG(skip_compute_predictor_vertical_advection, bool, false,                                      \
      "keep tangential_wind_on_half_levels and the horizontal advection of w (ICON's "             \
      "lvn_only: the first substep's predictor after the corrector computed them)")

/// What velocity advection's programs take: VelocityAdvection._scale_factors_by_dtime of the
/// call's dtime (velocity_advection_scale_factors(), dycore_config.hpp).
#define ICONDIFF_VELOCITY_ADVECTION_SCALARS(ARG)                                                   \
  ARG(cfl_w_limit, vp, 0, "0.65 / dtime: |w_con| > cfl_w_limit dz marks a CFL above 0.65")        \
  ARG(scalfac_exdiff, double, 0, "0.05 / (dtime (0.85 - cfl_w_limit dtime))")                     \
  ARG(dtime, double, 0, "the dynamics time step [s]")

#define ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_SCALARS(ARG)                            \
  ICONDIFF_VELOCITY_ADVECTION_SCALARS(ARG)                                                         \
  ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_SCALARS(ARG)
#define ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_SCALARS(ARG)                            \
  ICONDIFF_VELOCITY_ADVECTION_SCALARS(ARG)

#define ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_SCALARS(ARG)                                     \
  ICONDIFF_VELOCITY_ADVECTION_SCALARS(ARG)                                                         \
  ARG(apply_extra_diffusion_on_vn, bool, true,                                                     \
      "extra diffusion where the vertical CFL approaches its limit (VelocityAdvection: always)")

#define ICONDIFF_AVERAGED_VN_AND_FLUXES_SCALARS(ARG)                                               \
  ARG(prepare_advection, bool, false, "accumulate the substep averages for tracer advection "      \
      "(lprep_adv)")                                                                               \
  ARG(at_first_substep, bool, false, "the first dynamics substep: set instead of accumulate")      \
  ARG(r_nsubsteps, double, 0, "1 / ndyn_substeps_var")
#define ICONDIFF_DTIME_SCALAR(ARG) ARG(dtime, double, 0, "the dynamics time step [s]")
#define ICONDIFF_MASS_FLUX_WEIGHTED_SCALARS(ARG)                                                   \
  ARG(r_nsubsteps, double, 0, "1 / ndyn_substeps_var")

// Everything one call passes, fields then scalars: the lists the Dycore fills its kernel bodies
// from by name (dycore/dycore_stencils.hpp).
#define ICONDIFF_RHO_THETA_PGRAD_ARGUMENTS(X)                                                      \
  ICONDIFF_RHO_THETA_PGRAD_FIELDS(X) ICONDIFF_RHO_THETA_PGRAD_SCALARS(X)
#define ICONDIFF_DIVDAMP_UPDATE_VN_ARGUMENTS(X)                                                    \
  ICONDIFF_DIVDAMP_UPDATE_VN_FIELDS(X) ICONDIFF_DIVDAMP_UPDATE_VN_SCALARS(X)
#define ICONDIFF_SOLVER_CORRECTOR_ARGUMENTS(X)                                                     \
  ICONDIFF_SOLVER_CORRECTOR_FIELDS(X) ICONDIFF_SOLVER_CORRECTOR_SCALARS(X)
#define ICONDIFF_AVERAGED_VN_AND_FLUXES_ARGUMENTS(X)                                               \
  ICONDIFF_AVERAGED_VN_AND_FLUXES_FIELDS(X) ICONDIFF_AVERAGED_VN_AND_FLUXES_SCALARS(X)
#define ICONDIFF_STENCILS_61_62_ARGUMENTS(X)                                                       \
  ICONDIFF_STENCILS_61_62_FIELDS(X) ICONDIFF_DTIME_SCALAR(X)
#define ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_ARGUMENTS(X)                                      \
  ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_FIELDS(X) ICONDIFF_DTIME_SCALAR(X)
#define ICONDIFF_MASS_FLUX_WEIGHTED_ARGUMENTS(X)                                                   \
  ICONDIFF_MASS_FLUX_WEIGHTED_FIELDS(X) ICONDIFF_MASS_FLUX_WEIGHTED_SCALARS(X)
#define ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_ARGUMENTS(X)                            \
  ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_FIELDS(X)                                      \
  ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_SCALARS(X)
#define ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_ARGUMENTS(X)                            \
  ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_FIELDS(X)                                      \
  ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_SCALARS(X)
#define ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_ARGUMENTS(X)                                     \
  ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_FIELDS(X)                                              \
  ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_SCALARS(X)
#define ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_ARGUMENTS(X)                                         \
  ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_FIELDS(X) ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_SCALARS(X)
// clang-format on

/// A scalar or profile argument as a member with its default.
#define ICONDIFF_ARGUMENT_MEMBER(name, type, default_value, meaning) type name = default_value;

/// A vertical profile argument: (nlev) values, one per full level.
template <class MemorySpace>
using LevelProfile = View1D<wp, MemorySpace>;

template <class MemorySpace>
struct DycoreMetricState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DYCORE_METRIC_FIELDS)
  /// (nlev): scalfac_dd3d, the vertical profile of the dw/dz term of the divergence damping.
  LevelProfile<MemorySpace> scaling_factor_for_3d_divdamp;
  /// (nlev + 1): rayleigh_w, Klemp's damping coefficient of w on half levels.
  LevelProfile<MemorySpace> rayleigh_w;
};

template <class MemorySpace>
struct DycoreInterpolationState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DYCORE_INTERPOLATION_FIELDS)
};

template <class MemorySpace>
struct DycoreEdgeParams {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DYCORE_EDGE_FIELDS)
};

template <class MemorySpace>
struct DycoreCellParams {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DYCORE_CELL_FIELDS)
};

/// One call of compute_rho_theta_pgrad_and_update_vn.
template <class MemorySpace>
struct RhoThetaPgradArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_RHO_THETA_PGRAD_FIELDS)
  ICONDIFF_RHO_THETA_PGRAD_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of apply_divergence_damping_and_update_vn.
template <class MemorySpace>
struct DivergenceDampingArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIVDAMP_UPDATE_VN_FIELDS)
  ICONDIFF_DIVDAMP_UPDATE_VN_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of vertically_implicit_solver_at_predictor_step.
template <class MemorySpace>
struct SolverPredictorArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVER_PREDICTOR_FIELDS)
  ICONDIFF_SOLVER_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of compute_diagnostics_from_normal_wind.
template <class MemorySpace>
struct DiagnosticsFromNormalWindArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_FIELDS)
  ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of compute_horizontal_velocity_quantities_and_fluxes.
template <class MemorySpace>
struct HorizontalVelocityQuantitiesArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_FIELDS)
};
/// One call of compute_averaged_vn_and_fluxes.
template <class MemorySpace>
struct AveragedVnAndFluxesArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_AVERAGED_VN_AND_FLUXES_FIELDS)
  ICONDIFF_AVERAGED_VN_AND_FLUXES_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of compute_perturbed_quantities_and_interpolation.
template <class MemorySpace>
struct PerturbedQuantitiesArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_PERTURBED_QUANTITIES_FIELDS)
};
/// One call of stencils_61_62.
template <class MemorySpace>
struct Stencils6162Arguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_STENCILS_61_62_FIELDS)
  ICONDIFF_DTIME_SCALAR(ICONDIFF_ARGUMENT_MEMBER)
};
/// One call of compute_interpolation_and_nonhydro_buoy.
template <class MemorySpace>
struct InterpolationAndNonhydroBuoyArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_FIELDS)
  ICONDIFF_DTIME_SCALAR(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of each small point program of solve_nonhydro.
template <class MemorySpace>
struct ExnerFromRhothetaArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_EXNER_FROM_RHOTHETA_FIELDS)
};
template <class MemorySpace>
struct ThetaAndExnerInHaloArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_THETA_AND_EXNER_IN_HALO_FIELDS)
};
template <class MemorySpace>
struct InitCellKdimFieldArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_INIT_CELL_KDIM_FIELD_FIELDS)
};
template <class MemorySpace>
struct MassFluxWeightedArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_MASS_FLUX_WEIGHTED_FIELDS)
  ICONDIFF_MASS_FLUX_WEIGHTED_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};
template <class MemorySpace>
struct DwdzForDivergenceDampingArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_FIELDS)
};
template <class MemorySpace>
struct HydrostaticCorrectionArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_HYDROSTATIC_CORRECTION_FIELDS)
};

/// One call of compute_advection_in_predictor_vertical_momentum.
template <class MemorySpace>
struct AdvectionInPredictorVerticalMomentumArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_FIELDS)
  ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of compute_advection_in_corrector_vertical_momentum.
template <class MemorySpace>
struct AdvectionInCorrectorVerticalMomentumArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_FIELDS)
  ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of compute_advection_in_horizontal_momentum.
template <class MemorySpace>
struct AdvectionInHorizontalMomentumArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_FIELDS)
  ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

/// One call of vertically_implicit_solver_at_corrector_step.
template <class MemorySpace>
struct SolverCorrectorArguments {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVER_CORRECTOR_FIELDS)
  ICONDIFF_SOLVER_CORRECTOR_SCALARS(ICONDIFF_ARGUMENT_MEMBER)
};

}  // namespace icondiff
