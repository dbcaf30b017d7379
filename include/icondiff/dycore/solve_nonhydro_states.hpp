// The per-call states of the solve_nh granule (SolveNonhydro, solve_nonhydro.hpp), each described
// once by its field list: ICON4Py 0.2.0's PrognosticState, DiagnosticStateNonHydro and
// PrepAdvection under ICON4Py's names, with ICON's variable and the name ICON4Py's Fortran
// binding (`solve_nh_run`) gives the argument; the granule's own fields (ICON4Py's
// SolveNonhydro and VelocityAdvection locals and IntermediateFields) and the scalars of one
// substep. FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON,
// binding argument).
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>

#include <array>

namespace icondiff {

// clang-format off
/// One time level of the prognostic state (ICON4Py's PrognosticState; `now` and `new`).
#define ICONDIFF_SOLVE_NH_PROGNOSTIC_FIELDS(FIELD)                                                  \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "vertical wind", "p_nh%prog(n)%w", "w_now/w_new") \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1", "normal wind", "p_nh%prog(n)%vn",              \
        "vn_now/vn_new")                                                                            \
  FIELD(theta_v, wp, Cell, None, Full, Required, "K", "virtual potential temperature",              \
        "p_nh%prog(n)%theta_v", "theta_v_now/theta_v_new")                                          \
  FIELD(rho, wp, Cell, None, Full, Required, "kg m-3", "density", "p_nh%prog(n)%rho",                \
        "rho_now/rho_new")                                                                          \
  FIELD(exner, wp, Cell, None, Full, Required, "1", "Exner pressure", "p_nh%prog(n)%exner",         \
        "exner_now/exner_new")

/// ICON4Py's DiagnosticStateNonHydro (max_vertical_cfl is SolveNhDiagnosticState's scalar
/// member). The predictor/corrector pairs are separate fields: ICON swaps its time levels
/// ntl1/ntl2 between substeps and hands over the pair it wants (as ICON4Py's binding does).
/// The limited-area tendencies (grf_tend_*) may be empty on a global grid and the IAU
/// increments when IAU is inactive (IfAvailable): the granule then passes zeros to programs
/// that would not read them.
#define ICONDIFF_SOLVE_NH_DIAGNOSTIC_FIELDS(FIELD)                                                  \
  FIELD(tangential_wind, vp, Edge, None, Full, Required, "m s-1", "tangential wind",              \
        "p_nh%diag%vt", "vt")                                                                       \
  FIELD(vn_on_half_levels, vp, Edge, None, Half, Required, "m s-1", "normal wind at half levels",  \
        "p_nh%diag%vn_ie", "vn_ie")                                                                 \
  FIELD(contravariant_correction_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m s-1", \
        "contravariant correction of w at cells", "p_nh%diag%w_concorr_c", "w_concorr_c")          \
  FIELD(theta_v_at_cells_on_half_levels, wp, Cell, None, Half, Required, "K",                      \
        "theta_v at half levels", "p_nh%diag%theta_v_ic", "theta_v_ic")                             \
  FIELD(perturbed_exner_at_cells_on_model_levels, wp, Cell, None, Full, Required, "1",             \
        "Exner pressure minus reference", "p_nh%diag%exner_pr", "exner_pr")                        \
  FIELD(rho_at_cells_on_half_levels, wp, Cell, None, Half, Required, "kg m-3",                     \
        "density at half levels", "p_nh%diag%rho_ic", "rho_ic")                                     \
  FIELD(exner_tendency_due_to_slow_physics, vp, Cell, None, Full, Required, "s-1",                 \
        "slow-physics tendency of exner", "p_nh%diag%ddt_exner_phy", "ddt_exner_phy")              \
  FIELD(grf_tend_rho, wp, Cell, None, Full, IfAvailable, "kg m-3 s-1",                             \
        "lateral boundary tendency of rho (limited area)", "p_nh%diag%grf_tend_rho", "grf_tend_rho") \
  FIELD(grf_tend_thv, wp, Cell, None, Full, IfAvailable, "K s-1",                                  \
        "lateral boundary tendency of theta_v (limited area)", "p_nh%diag%grf_tend_thv",           \
        "grf_tend_thv")                                                                             \
  FIELD(grf_tend_w, wp, Cell, None, Half, IfAvailable, "m s-2",                                    \
        "lateral boundary tendency of w (limited area)", "p_nh%diag%grf_tend_w", "grf_tend_w")     \
  FIELD(mass_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-2 s-1",          \
        "horizontal mass flux at edges", "p_nh%diag%mass_fl_e", "mass_fl_e")                        \
  FIELD(normal_wind_tendency_due_to_slow_physics_process, vp, Edge, None, Full, Required,          \
        "m s-2", "slow-physics tendency of vn", "p_nh%diag%ddt_vn_phy", "ddt_vn_phy")               \
  FIELD(grf_tend_vn, wp, Edge, None, Full, IfAvailable, "m s-2",                                   \
        "lateral boundary tendency of vn (limited area)", "p_nh%diag%grf_tend_vn", "grf_tend_vn")  \
  FIELD(predictor_normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",         \
        "advective tendency of vn, predictor", "p_nh%diag%ddt_vn_apc_pc(:,:,:,ntl1)",              \
        "ddt_vn_apc_ntl1")                                                                          \
  FIELD(corrector_normal_wind_advective_tendency, vp, Edge, None, Full, Required, "m s-2",         \
        "advective tendency of vn, corrector", "p_nh%diag%ddt_vn_apc_pc(:,:,:,ntl2)",              \
        "ddt_vn_apc_ntl2")                                                                          \
  FIELD(predictor_vertical_wind_advective_tendency, vp, Cell, None, Half, Required, "m s-2",       \
        "advective tendency of w, predictor", "p_nh%diag%ddt_w_adv_pc(:,:,:,ntl1)",                \
        "ddt_w_adv_ntl1")                                                                           \
  FIELD(corrector_vertical_wind_advective_tendency, vp, Cell, None, Half, Required, "m s-2",       \
        "advective tendency of w, corrector", "p_nh%diag%ddt_w_adv_pc(:,:,:,ntl2)",                \
        "ddt_w_adv_ntl2")                                                                           \
  FIELD(rho_iau_increment, vp, Cell, None, Full, IfAvailable, "kg m-3",                            \
        "IAU increment of rho (read when IAU is active)", "p_nh%diag%rho_incr", "rho_incr")        \
  FIELD(normal_wind_iau_increment, vp, Edge, None, Full, IfAvailable, "m s-1",                     \
        "IAU increment of vn (read when IAU is active)", "p_nh%diag%vn_incr", "vn_incr")           \
  FIELD(exner_iau_increment, vp, Cell, None, Full, IfAvailable, "1",                               \
        "IAU increment of exner (read when IAU is active)", "p_nh%diag%exner_incr", "exner_incr")  \
  FIELD(exner_dynamical_increment, vp, Cell, None, Full, Required, "1",                            \
        "dynamical exner increment", "p_nh%diag%exner_dyn_incr", "exner_dyn_incr")

/// ICON4Py's PrepAdvection: what tracer advection receives (written with lprep_adv).
#define ICONDIFF_SOLVE_NH_PREP_ADVECTION_FIELDS(FIELD)                                              \
  FIELD(vn_traj, wp, Edge, None, Full, Required, "m s-1",                                          \
        "substep- and space-averaged vn for the back trajectories", "prep_adv%vn_traj", "vn_traj") \
  FIELD(mass_flx_me, wp, Edge, None, Full, Required, "kg m-2 s-1",                                 \
        "substep-averaged horizontal mass flux", "prep_adv%mass_flx_me", "mass_flx_me")            \
  FIELD(dynamical_vertical_mass_flux_at_cells_on_half_levels, wp, Cell, None, Half, Required,      \
        "kg m-2 s-1", "substep-averaged vertical mass flux", "prep_adv%mass_flx_ic", "mass_flx_ic") \
  FIELD(dynamical_vertical_volumetric_flux_at_cells_on_half_levels, wp, Cell, None, Half,          \
        Required, "m s-1", "substep-averaged vertical volume flux", "prep_adv%vol_flx_ic",         \
        "vol_flx_ic")

/// The granule's own fields, allocated (zeroed) once and kept between calls as ICON4Py keeps
/// them: SolveNonhydro's locals, its IntermediateFields (state built up over the predictor and
/// corrector of a substep) and VelocityAdvection's locals. ICON's z_ variables of solve_nh.
#define ICONDIFF_SOLVE_NH_LOCAL_FIELDS(FIELD)                                                       \
  FIELD(temporal_extrapolation_of_perturbed_exner, vp, Cell, None, Half, Required, "1",            \
        "exner perturbation extrapolated in time", "z_exner_ex_pr", "")                             \
  FIELD(exner_at_cells_on_half_levels, vp, Cell, None, Half, Required, "1",                        \
        "exner perturbation at half levels", "z_exner_ic", "")                                      \
  FIELD(ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,    \
        Required, "m-1", "its first vertical derivative", "z_dexner_dz_c(1,:,:,:)", "")             \
  FIELD(d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, vp, Cell, None, Full,  \
        Required, "m-2", "its second vertical derivative", "z_dexner_dz_c(2,:,:,:)", "")            \
  FIELD(perturbed_theta_v_at_cells_on_half_levels, vp, Cell, None, Half, Required, "K",            \
        "theta_v perturbation at half levels", "z_theta_v_pr_ic", "")                               \
  FIELD(nonhydro_buoy_at_cells_on_half_levels, vp, Cell, None, Full, Required, "m-1 K",            \
        "buoyancy term of w", "z_th_ddz_exner_c", "")                                               \
  FIELD(perturbed_rho_at_cells_on_model_levels, vp, Cell, None, Full, Required, "kg m-3",          \
        "density minus reference", "z_rth_pr(:,:,:,1)", "")                                         \
  FIELD(perturbed_theta_v_at_cells_on_model_levels, vp, Cell, None, Full, Required, "K",           \
        "theta_v minus reference", "z_rth_pr(:,:,:,2)", "")                                         \
  FIELD(spatially_averaged_vn, wp, Edge, None, Full, Required, "m s-1",                            \
        "vn averaged over the edge's neighbours", "z_vn_avg", "")                                   \
  FIELD(theta_v_flux_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K kg m-2 s-1",     \
        "horizontal theta_v flux", "z_theta_v_fl_e", "")                                            \
  FIELD(contravariant_correction_at_edges_on_model_levels, vp, Edge, None, Full, Required,         \
        "m s-1", "contravariant correction at edges", "z_w_concorr_me", "")                         \
  FIELD(hydrostatic_correction, vp, Edge, None, Full, Required, "m-1",                             \
        "hydrostatic correction of the pressure gradient (written on level nlev - 1)",             \
        "z_hydro_corr", "")                                                                         \
  FIELD(hydrostatic_correction_on_lowest_level, wp, Edge, None, None, Required, "m-1",             \
        "the same, the lowest level only (what the pressure gradient reads)", "z_hydro_corr", "") \
  FIELD(horizontal_pressure_gradient, vp, Edge, None, Full, Required, "m-1",                       \
        "horizontal gradient of the Exner pressure", "z_gradh_exner", "")                           \
  FIELD(rho_at_edges_on_model_levels, wp, Edge, None, Full, Required, "kg m-3",                    \
        "upwind density at edges", "z_rho_e", "")                                                   \
  FIELD(theta_v_at_edges_on_model_levels, wp, Edge, None, Full, Required, "K",                     \
        "upwind theta_v at edges", "z_theta_v_e", "")                                               \
  FIELD(horizontal_kinetic_energy_at_edges_on_model_levels, vp, Edge, None, Full, Required,        \
        "m2 s-2", "horizontal kinetic energy at edges", "z_kin_hor_e", "")                          \
  FIELD(tangential_wind_on_half_levels, vp, Edge, None, Full, Required, "m s-1",                   \
        "tangential wind at half levels", "z_vt_ie", "")                                            \
  FIELD(horizontal_gradient_of_normal_wind_divergence, vp, Edge, None, Full, Required, "m-1 s-1",  \
        "horizontal gradient of the divergence of vn", "z_graddiv_vn", "")                          \
  FIELD(dwdz_at_cells_on_model_levels, vp, Cell, None, Full, Required, "s-1",                      \
        "dw/dz for the divergence damping", "z_dwdz_dd", "")                                        \
  FIELD(horizontal_advection_of_w_at_edges_on_half_levels, vp, Edge, None, Full, Required,         \
        "m s-2", "vn dw/dn + vt dw/dt at edges (velocity advection)", "z_v_grad_w", "")             \
  FIELD(contravariant_corrected_w_at_cells_on_model_levels, vp, Cell, None, Full, Required,        \
        "m s-1", "contravariant vertical wind at full levels (velocity advection)",                \
        "z_w_con_c_full", "")                                                                       \
  FIELD(vertical_cfl, vp, Cell, None, Full, Required, "1",                                         \
        "vertical CFL number where it is large (velocity advection)", "cfl_clipping", "")

/// The scalars of one substep (ICON4Py's SolveNonhydro.time_step; ICON's solve_nh arguments):
/// ARG(name, type, default, meaning).
#define ICONDIFF_SOLVE_NH_STEP_SCALARS(ARG)                                                         \
  ARG(second_order_divdamp_factor, double, 0, "divdamp_fac_o2: the second-order divergence "       \
      "damping factor of this step")                                                                \
  ARG(dtime, double, 0, "the dynamics substep [s] (> 0)")                                           \
  ARG(ndyn_substeps_var, int, 0, "the number of dynamics substeps of this physics step (>= 1)")     \
  ARG(at_initial_timestep, bool, false, "the model's first time step (the predictor then "         \
      "computes the vertical advection on its first substep)")                                      \
  ARG(lprep_adv, bool, false, "prepare the fluxes for tracer advection")                            \
  ARG(at_first_substep, bool, false, "the first dynamics substep of the physics step")              \
  ARG(at_last_substep, bool, false, "the last dynamics substep of the physics step")                \
  ARG(is_iau_active, bool, false, "add the IAU increments (needs the configuration's iau_init)")    \
  ARG(iau_wgt_dyn, double, 0, "the IAU weight of this substep")
// clang-format on

template <class MemorySpace>
struct SolveNhPrognosticState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVE_NH_PROGNOSTIC_FIELDS)
};

template <class MemorySpace>
struct SolveNhDiagnosticState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVE_NH_DIAGNOSTIC_FIELDS)
  /// In/out: the running maximum of the vertical CFL number over the physics step (ICON resets
  /// it to 0 before the first substep; ICON4Py's signed maximum, see docs/dev/dycore.md).
  double max_vertical_cfl = 0;
};

template <class MemorySpace>
struct SolveNhPrepAdvection {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVE_NH_PREP_ADVECTION_FIELDS)
};

template <class MemorySpace>
struct SolveNhLocalFields {
  ICONDIFF_STATE_FIELDS(ICONDIFF_SOLVE_NH_LOCAL_FIELDS)
};

#define ICONDIFF_SOLVE_NH_STEP_MEMBER(name, type, default_value, meaning) type name = default_value;
/// The scalars of one substep.
struct SolveNhStep {
  ICONDIFF_SOLVE_NH_STEP_SCALARS(ICONDIFF_SOLVE_NH_STEP_MEMBER)
};
#undef ICONDIFF_SOLVE_NH_STEP_MEMBER

}  // namespace icondiff
