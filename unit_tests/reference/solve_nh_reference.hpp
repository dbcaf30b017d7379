// Independent plain-loop host reference of one dynamics substep of ICON4Py 0.2.0's solve_nh
// granule (SolveNonhydro.time_step), written from ICON4Py's Python only:
//   icon4py/model/atmosphere/dycore/solve_nonhydro.py: NonHydrostaticConfig, NonHydrostaticParams,
//     SolveNonhydro.__init__ (every program's domain and constant arguments, the call of
//     en_smag_fac_for_zero_nshift), _allocate_local_fields, _determine_local_domains,
//     _get_rayleigh_damping_factor, time_step, run_predictor_step, run_corrector_step;
//   .../dycore/velocity_advection.py: VelocityAdvection (its locals, domains, run_predictor_step,
//     run_corrector_step, _scale_factors_by_dtime and the max_vertical_cfl reduction);
//   icon4py/model/common/math/smagorinsky.py: en_smag_fac_for_zero_nshift (the fourth-order
//     divergence damping factor of each level, computed once at construction).
// It calls the independent per-program references (dycore_reference.hpp,
// solve_nonhydro_reference.hpp, velocity_advection_reference.hpp) in ICON4Py's order, with
// ICON4Py's field in each argument slot, and shares no code with icondiff's granule.
//
// Conventions:
//  * Fields are test::HostField<double> (points, levels), point index fastest; every name below
//    is ICON4Py's (ICON's in the comments). Full-level fields have nlev levels, half-level fields
//    nlev + 1 (as ICON4Py allocates them).
//  * Everything is double (ICON4Py's vp casts are no-ops here).
//  * One rank: the halo exchanges of ICON4Py's time_step are no-ops (marked where they happen).
//  * The reference is an object (SolveNhReference) that holds ICON4Py's SolveNonhydro and
//    VelocityAdvection locals across substeps, zero-initialised at construction as ICON4Py's
//    _allocate_local_fields does, and the dtime of the last Rayleigh-factor computation.
//  * Wrong shapes throw std::invalid_argument (from here or from the program references).
#pragma once

#include "reference/diffusion_reference.hpp"

#include <vector>

namespace icondiff::reference {

using BoolVector = std::vector<bool>;

/// The options of ICON4Py's NonHydrostaticConfig that solve_nonhydro.py reads, ICON4Py's
/// defaults. make_solve_nh_reference refuses what NonHydrostaticConfig._validate refuses
/// (itime_scheme != 4, igradp_method != 3, rayleigh_type != 2, divdamp_type == 2).
struct SolveNhConfig {
  int itime_scheme = 4;   ///< TimeSteppingScheme.MOST_EFFICIENT
  int igradp_method = 3;  ///< HorizontalPressureDiscretizationType.TAYLOR_HYDRO
  int rayleigh_type = 2;  ///< RayleighType.KLEMP
  int divdamp_order = 24;
  int divdamp_type = 3;
  bool iau_init = false;
  double rhotheta_offctr = -0.1;
  double veladv_offctr = 0.25;
  double max_nudging_coefficient = 5.0 * 0.02;
  double fourth_order_divdamp_factor = 0.0025;
  double fourth_order_divdamp_factor2 = 0.004;
  double fourth_order_divdamp_factor3 = 0.004;
  double fourth_order_divdamp_factor4 = 0.004;
  double fourth_order_divdamp_z = 32500.0;
  double fourth_order_divdamp_z2 = 40000.0;
  double fourth_order_divdamp_z3 = 60000.0;
  double fourth_order_divdamp_z4 = 80000.0;
};

/// What SolveNonhydro.__init__ receives besides the grid and the configuration, under ICON4Py's
/// names (MetricStateNonHydro, InterpolationState, VerticalGrid, EdgeParams, CellParams,
/// owner_mask). Shapes as ICON4Py allocates them; tables in the order of their offset.
struct SolveNhStatics {
  int nlev = 0;
  // VerticalGrid
  int nflatlev = 0;
  int end_index_of_damping_layer = 0;
  int kstart_moist = 0;
  Vector interface_physical_height;  ///< (nlev+1) vct_a, vct_a[0] the model top
  // MetricStateNonHydro
  int nflat_gradp = 0;
  BoolVector mask_prog_halo_c;                           ///< (C)
  Vector rayleigh_w;                                     ///< (nlev+1)
  Field wgtfac_c;                                        ///< (C, nlev+1)
  Field wgtfacq_c;                                       ///< (C, nlev)
  Field wgtfac_e;                                        ///< (E, nlev+1)
  Field wgtfacq_e;                                       ///< (E, nlev)
  Field time_extrapolation_parameter_for_exner;          ///< (C, nlev)
  Field reference_exner_at_cells_on_model_levels;        ///< (C, nlev)
  Field reference_rho_at_cells_on_model_levels;          ///< (C, nlev)
  Field reference_theta_at_cells_on_model_levels;        ///< (C, nlev) theta_ref_mc
  Field reference_rho_at_edges_on_model_levels;          ///< (E, nlev)
  Field reference_theta_at_edges_on_model_levels;        ///< (E, nlev)
  Field reference_theta_at_cells_on_half_levels;         ///< (C, nlev+1)
  Field ddz_of_reference_exner_at_cells_on_half_levels;  ///< (C, nlev+1)
  Field ddqz_z_half;                                     ///< (C, nlev+1)
  Field d2dexdz2_fac1_mc, d2dexdz2_fac2_mc;              ///< (C, nlev)
  Field ddxn_z_full, ddqz_z_full_e, ddxt_z_full;         ///< (E, nlev)
  Field inv_ddqz_z_full;                                 ///< (C, nlev)
  IntField3 vertoffset_gradp;                            ///< (E, 2, nlev)
  Field3 zdiff_gradp;                                    ///< (E, 2, nlev)
  Field pg_exdist;                                       ///< (E, nlev)
  Vector exner_w_explicit_weight_parameter;              ///< (C)
  Vector exner_w_implicit_weight_parameter;              ///< (C)
  Vector horizontal_mask_for_3d_divdamp;                 ///< (E)
  Vector scaling_factor_for_3d_divdamp;                  ///< (nlev)
  Field coeff1_dwdz, coeff2_dwdz;                        ///< (C, nlev)
  Table coeff_gradekin;                                  ///< (E, 2) E2C
  // InterpolationState
  Table e_bln_c_s;                   ///< (C, 3) C2E
  Table geofac_div;                  ///< (C, 3) C2E
  Table geofac_n2s;                  ///< (C, 4) C2E2CO
  Table geofac_grg_x, geofac_grg_y;  ///< (C, 4) C2E2CO
  Vector nudgecoeff_e;               ///< (E)
  Table c_lin_e;                     ///< (E, 2) E2C
  Table geofac_grdiv;                ///< (E, 5) E2C2EO
  Table rbf_vec_coeff_e;             ///< (E, 4) E2C2E
  Table c_intp;                      ///< (V, 6) V2C
  Table geofac_rot;                  ///< (V, 6) V2E
  Table pos_on_tplane_e_1;           ///< (E, 2) E2C
  Table pos_on_tplane_e_2;           ///< (E, 2) E2C
  Table e_flx_avg;                   ///< (E, 5) E2C2EO
  // EdgeParams
  Vector inverse_dual_edge_lengths;                  ///< (E)
  Vector inverse_primal_edge_lengths;                ///< (E)
  Vector tangent_orientation;                        ///< (E)
  Vector edge_areas;                                 ///< (E)
  Vector coriolis_frequency;                         ///< (E)
  Table primal_normal_cell_x, primal_normal_cell_y;  ///< (E, 2) E2C (primal_normal_cell[0/1])
  Table dual_normal_cell_x, dual_normal_cell_y;      ///< (E, 2) E2C (dual_normal_cell[0/1])
  // CellParams
  Vector area;                ///< (C)
  double mean_cell_area = 0;  ///< CellParams.mean_cell_area
  BoolVector owner_mask;      ///< (C) c_owner_mask
};

/// ICON4Py's PrognosticState: one time level.
struct SolveNhPrognosticState {
  Field w;        ///< (C, nlev+1)
  Field vn;       ///< (E, nlev)
  Field theta_v;  ///< (C, nlev)
  Field rho;      ///< (C, nlev)
  Field exner;    ///< (C, nlev)
};

/// common_utils.PredictorCorrectorPair.
struct PredictorCorrectorPair {
  Field predictor;
  Field corrector;
  /// The pair's swap() (icon4py_driver's _update_time_levels_for_velocity_tendencies).
  void swap();
};

/// ICON4Py's DiagnosticStateNonHydro (every field present: a caller without limited-area
/// tendencies or IAU increments passes zeros, as ICON4Py allocates them).
struct SolveNhDiagnosticState {
  /// max_vertical_cfl (a scalar-like array in ICON4Py, initially 0.0).
  double max_vertical_cfl = 0.0;
  Field tangential_wind;                                    ///< (E, nlev) vt
  Field vn_on_half_levels;                                  ///< (E, nlev+1) vn_ie
  Field contravariant_correction_at_cells_on_half_levels;   ///< (C, nlev+1) w_concorr_c
  Field theta_v_at_cells_on_half_levels;                    ///< (C, nlev+1) theta_v_ic
  Field perturbed_exner_at_cells_on_model_levels;           ///< (C, nlev) exner_pr
  Field rho_at_cells_on_half_levels;                        ///< (C, nlev+1) rho_ic
  Field exner_tendency_due_to_slow_physics;                 ///< (C, nlev) ddt_exner_phy
  Field grf_tend_rho, grf_tend_thv;                         ///< (C, nlev)
  Field grf_tend_w;                                         ///< (C, nlev+1)
  Field mass_flux_at_edges_on_model_levels;                 ///< (E, nlev) mass_fl_e
  Field normal_wind_tendency_due_to_slow_physics_process;   ///< (E, nlev) ddt_vn_phy
  Field grf_tend_vn;                                        ///< (E, nlev)
  PredictorCorrectorPair normal_wind_advective_tendency;    ///< (E, nlev) ddt_vn_apc_pc
  PredictorCorrectorPair vertical_wind_advective_tendency;  ///< (C, nlev+1) ddt_w_adv_pc
  Field rho_iau_increment;                                  ///< (C, nlev) rho_incr
  Field normal_wind_iau_increment;                          ///< (E, nlev) vn_incr
  Field exner_iau_increment;                                ///< (C, nlev) exner_incr
  Field exner_dynamical_increment;                          ///< (C, nlev) exner_dyn_incr
};

/// ICON4Py's PrepAdvection.
struct SolveNhPrepAdvection {
  Field vn_traj;                                                     ///< (E, nlev)
  Field mass_flx_me;                                                 ///< (E, nlev)
  Field dynamical_vertical_mass_flux_at_cells_on_half_levels;        ///< (C, nlev+1) mass_flx_ic
  Field dynamical_vertical_volumetric_flux_at_cells_on_half_levels;  ///< (C, nlev+1) vol_flx_ic
};

/// The keyword arguments of SolveNonhydro.time_step after the states.
struct SolveNhTimeStepArgs {
  double second_order_divdamp_factor = 0.0;
  double dtime = 0.0;
  int ndyn_substeps_var = 0;
  bool at_initial_timestep = false;
  bool lprep_adv = false;
  bool at_first_substep = false;
  bool at_last_substep = false;
  bool is_iau_active = false;
  double iau_wgt_dyn = 0.0;
};

/// SolveNonhydro's locals (_allocate_local_fields), its IntermediateFields and VelocityAdvection's
/// locals, under ICON4Py's names; zero at construction, kept across substeps.
struct SolveNhLocals {
  // SolveNonhydro._allocate_local_fields
  Field temporal_extrapolation_of_perturbed_exner;                           ///< (C, nlev+1)
  Field exner_at_cells_on_half_levels;                                       ///< (C, nlev+1)
  Field ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;    ///< (C, nlev)
  Field perturbed_theta_v_at_cells_on_half_levels;                           ///< (C, nlev+1)
  Field nonhydro_buoy_at_cells_on_half_levels;                               ///< (C, nlev)
  Field perturbed_rho_at_cells_on_model_levels;                              ///< (C, nlev)
  Field perturbed_theta_v_at_cells_on_model_levels;                          ///< (C, nlev)
  Field d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;  ///< (C, nlev)
  Field z_vn_avg;                                                            ///< (E, nlev)
  Field theta_v_flux_at_edges_on_model_levels;                               ///< (E, nlev)
  Field contravariant_correction_at_edges_on_model_levels;  ///< (E, nlev) z_w_concorr_me
  /// z_hydro_corr: ICON4Py's field lives on level nlev-1 only ((E, [nlev-1, nlev))); held here as
  /// (E, nlev) with absolute levels, levels < nlev-1 never written (zero). Its 1-D view
  /// (hydrostatic_correction_on_lowest_level_1d_view) is level nlev-1.
  Field hydrostatic_correction_on_lowest_level;
  Vector rayleigh_damping_factor;                   ///< (nlev) z_raylfac
  Vector interpolated_fourth_order_divdamp_factor;  ///< (nlev) enh_divdamp_fac
  // IntermediateFields (z_fields)
  Field horizontal_pressure_gradient;                        ///< (E, nlev) z_gradh_exner
  Field rho_at_edges_on_model_levels;                        ///< (E, nlev) z_rho_e
  Field theta_v_at_edges_on_model_levels;                    ///< (E, nlev) z_theta_v_e
  Field horizontal_kinetic_energy_at_edges_on_model_levels;  ///< (E, nlev) z_kin_hor_e
  Field tangential_wind_on_half_levels;                      ///< (E, nlev) z_vt_ie
  Field horizontal_gradient_of_normal_wind_divergence;       ///< (E, nlev) z_graddiv_vn
  Field dwdz_at_cells_on_model_levels;                       ///< (C, nlev) z_dwdz_dd
  // VelocityAdvection._allocate_local_fields
  Field horizontal_advection_of_w_at_edges_on_half_levels;   ///< (E, nlev) z_v_grad_w
  Field contravariant_corrected_w_at_cells_on_model_levels;  ///< (C, nlev) z_w_con_c_full
  Field vertical_cfl;                                        ///< (C, nlev)
};

/// The granule: configuration, statics, locals and _dtime_previous_substep (0.0 initially).
struct SolveNhReference {
  const Grid* grid = nullptr;
  SolveNhConfig config;
  SolveNhStatics statics;
  SolveNhLocals locals;
  double dtime_previous_substep = 0.0;
};

/// en_smag_fac_for_zero_nshift (smagorinsky.py) on the levels of `vct_a` (nlev+1 interface
/// heights): for k in [0, nlev), zf = 0.5·(vct_a[k] + vct_a[k+1]),
///   dzlin = min(z2 - z, max(0, zf - z)), dzqdr = min(z4 - z2, max(0, zf - z2)),
///   result = fac + dzlin·alin + dzqdr·(aqdr + dzqdr·bqdr)
/// with alin, aqdr, bqdr from the four factors and heights as the Python computes them.
Vector en_smag_fac_for_zero_nshift(const Vector& vct_a, double fac, double fac2, double fac3,
                                   double fac4, double z, double z2, double z3, double z4);

/// SolveNonhydro.__init__: checks the configuration (as NonHydrostaticConfig._validate) and the
/// statics' shapes, allocates the zeroed locals and computes interpolated_fourth_order_divdamp_
/// factor from interface_physical_height. `grid` must outlive the result.
SolveNhReference make_solve_nh_reference(const Grid& grid, const SolveNhConfig& config,
                                         SolveNhStatics statics);

/// SolveNonhydro.time_step: run_predictor_step, run_corrector_step, then (limited area)
/// compute_exner_from_rhotheta on the boundary and update_theta_and_exner_in_halo. Reads
/// `current`, writes `next`, `diagnostic` (max_vertical_cfl included), `prep_adv` (lprep_adv) and
/// the reference's locals. Every field is lent (moved) to the program references for their calls
/// and moved back, so `current` and the inputs come back unchanged (also when a program throws).
/// The caller swaps the time levels and the tendency pairs between substeps, as ICON4Py's driver
/// does.
void solve_nh_time_step(SolveNhReference& self, SolveNhDiagnosticState& diagnostic,
                        SolveNhPrognosticState& current, SolveNhPrognosticState& next,
                        SolveNhPrepAdvection& prep_adv, const SolveNhTimeStepArgs& args);

}  // namespace icondiff::reference
