// Independent plain-loop host reference of twelve ICON4Py 0.2.0 solve_nonhydro programs, written
// from ICON4Py's Python definitions only:
//   icon4py/model/atmosphere/dycore/solve_nonhydro.py (callers: domains, constant arguments,
//     variants, which substeps and grids run which program),
//   .../dycore/stencils/compute_cell_diagnostics_for_dycore.py (compute_perturbed_quantities_and_
//     interpolation, compute_interpolation_and_nonhydro_buoy),
//   .../dycore/stencils/compute_horizontal_velocity_quantities.py (compute_horizontal_velocity_
//     quantities_and_fluxes, compute_averaged_vn_and_fluxes),
//   .../dycore/stencils/compute_hydrostatic_correction_term.py, compute_dwdz_for_divergence_
//     damping.py, update_mass_flux_weighted.py, compute_exner_from_rhotheta.py,
//     update_theta_and_exner_in_halo.py, init_cell_kdim_field_with_zero_wp.py,
//   .../dycore/solve_nonhydro_stencils.py (stencils_61_62), .../dycore/dycore_utils.py
//     (compute_rayleigh_damping_factor, a gt4py program in 0.2.0),
// and the field operators they import (extrapolate_temporally_exner_pressure, interpolate_to_
// surface, compute_perturbation_of_rho_and_theta, spatially_average_flux_or_velocity,
// compute_mass_flux, accumulate_prep_adv_fields, compute_tangential_wind, compute_contravariant_
// correction, extrapolate_at_top, update_density_exner_wind, update_wind,
// compute_diagnostics_from_normal_wind's _interpolate_to_half_levels and _compute_horizontal_
// kinetic_energy, common/interpolation/stencils/interpolate_cell_field_to_half_levels_vp/_wp and
// common/math/derivative.py), plus common/grid/base.py and icon.py for missing neighbours and
// common/constants.py. It is the oracle the Kokkos kernels are tested against and shares no code
// with them (nor with the other references).
//
// Conventions (every program), as in dycore_reference.hpp and velocity_advection_reference.hpp:
//  * One argument struct per program; its members carry the ICON4Py program's argument names in
//    the program signature's order, domain arguments and scalars (also those solve_nonhydro.py
//    binds as constant_args) included. Inputs and in/out fields are members; the function
//    updates the output members in place.
//  * Fields are test::HostField<double> (points, levels), point index fastest. A field must have
//    exactly the points of its location and at least the levels that are read or written (each
//    struct lists the levels ICON4Py allocates: nlev or nlev+1). (E, E2C, K) fields are
//    HostField3 (E, 2, K). Per-point coefficient tables are HostTable<double> in the order of
//    their ICON4Py offset: e_flx_avg and geofac_grdiv (E,5) E2C2EO, rbf_vec_coeff_e (E,4) E2C2E.
//    Cell and edge vectors and K profiles are std::vector<double>; masks std::vector<bool>.
//  * Levels are absolute: level k of a field is level k of the model (half level k lies above
//    full level k), whatever the vertical domain is.
//  * Outputs are written ONLY inside the program's domain(s), and inside them only where
//    ICON4Py's concat_where / where / `if` write them (each function lists where). Everything
//    else is left untouched. Where ICON4Py "writes" an output unchanged (the else-branch of a
//    concat_where returning the field itself) this reference does not write at all: the value is
//    the same.
//  * Missing neighbours, as ICON4Py's grids with keep_skip_values=False: E2C, E2C2E and E2C2EO
//    (the only tables these programs use) read a -1 as the largest valid index of the same row
//    (0 when the row has none; grid/base.py, _replace_skip_values).
//  * Every expression is evaluated in the order and association of the Python (a + b*c as
//    written, a*b*c as (a*b)*c, x**2 as x*x, neighbor_sum as a left-to-right sum starting from
//    0, exp/log as std::exp/std::log), so that kernels that follow ICON4Py can be compared bit
//    for bit. Everything is double; ICON4Py's vp casts (astype(..., vpfloat/wpfloat)) are
//    no-ops here.
//  * Wrong sizes, ranges outside the arrays and vertical offsets (Koff, ikoffset) that leave a
//    field throw std::invalid_argument naming the field.
#pragma once

#include "reference/diffusion_reference.hpp"

#include <vector>

namespace icondiff::reference {

using BoolVector = std::vector<bool>;

// ================================================================================================
// Constants (icon4py/model/common/constants.py; gas_constant_dry_air and cpd are in
// diffusion_reference.hpp). Evaluated in double as Python does.
// ================================================================================================

/// GRAV and GRAV_O_CPD = GRAV / CPD (compute_hydrostatic_correction_term's grav_o_cpd).
inline constexpr double grav = 9.80665;
inline constexpr double grav_o_cpd = grav / cpd;
/// P0REF, RD_O_P0REF = RD / P0REF and RD_O_CVD = RD / CVD with CVD = CPD - RD
/// (compute_exner_from_rhotheta's constant arguments; update_theta_and_exner_in_halo uses them
/// and CVD_O_RD = CVD / RD from PhysicsConstants).
inline constexpr double p0ref = 100000.0;
inline constexpr double rd_o_p0ref = gas_constant_dry_air / p0ref;
inline constexpr double rd_o_cvd = gas_constant_dry_air / (cpd - gas_constant_dry_air);
/// HorizontalPressureDiscretizationType.TAYLOR_HYDRO: the only igradp_method NonHydrostaticConfig
/// accepts (the programs take any int and skip the Taylor-only outputs for other values).
inline constexpr int igradp_method_taylor_hydro = 3;

// ================================================================================================
// 1. compute_perturbed_quantities_and_interpolation (predictor, formerly stencils 1-13)
// ================================================================================================

/// nlev := surface_level - 1 (solve_nonhydro: model_top = 0, surface_level = nlev+1; cells
/// [start_cell_lateral_boundary_level_3, end_cell_halo) and [start_cell_halo_level_2,
/// end_cell_halo_level_2)). Shapes as ICON4Py allocates them; the required level counts are
/// nlev+1 for the fields written or read at half level nlev (marked nlev+1 below, except
/// rho_at_cells_on_half_levels, ddqz_z_half, wgtfac_c and ddz_of_reference_exner..., which only
/// need nlev) and nlev for the others. nlev >= 3 is required (the surface interpolation reads
/// levels nlev-3..nlev-1).
struct ComputePerturbedQuantitiesAndInterpolationArgs {
  Field temporal_extrapolation_of_perturbed_exner;                           ///< (C, nlev+1) out
  Field ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;    ///< (C, nlev) in/out
  Field d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;  ///< (C, nlev) in/out
  Field perturbed_exner_at_cells_on_model_levels;                            ///< (C, nlev) in/out
  Field exner_at_cells_on_half_levels;                                       ///< (C, nlev+1) in/out
  Field perturbed_rho_at_cells_on_model_levels;                              ///< (C, nlev) out
  Field perturbed_theta_v_at_cells_on_model_levels;                          ///< (C, nlev) out
  Field rho_at_cells_on_half_levels;                                         ///< (C, nlev+1) in/out
  Field perturbed_theta_v_at_cells_on_half_levels;                           ///< (C, nlev+1) out
  Field theta_v_at_cells_on_half_levels;                                     ///< (C, nlev+1) in/out
  Field current_rho;                                                         ///< (C, nlev)
  Field reference_rho_at_cells_on_model_levels;                              ///< (C, nlev)
  Field current_theta_v;                                                     ///< (C, nlev)
  Field reference_theta_at_cells_on_model_levels;                            ///< (C, nlev)
  Field reference_theta_at_cells_on_half_levels;                             ///< (C, nlev+1)
  Field wgtfacq_c;  ///< (C, >= nlev), levels nlev-3..nlev-1 read (metrics: K domain [nlev-3, nlev))
  Field wgtfac_c;   ///< (C, nlev+1); levels < nlev read
  Vector exner_w_explicit_weight_parameter;              ///< (C)
  Field ddz_of_reference_exner_at_cells_on_half_levels;  ///< (C, nlev+1); levels < nlev read
  Field ddqz_z_half;                                     ///< (C, nlev+1); levels < nlev read
  Field nonhydro_buoy_at_cells_on_half_levels;           ///< (C, nlev) in/out
  Field time_extrapolation_parameter_for_exner;          ///< (C, nlev)
  Field current_exner;                                   ///< (C, nlev)
  Field reference_exner_at_cells_on_model_levels;        ///< (C, nlev)
  Field inv_ddqz_z_full;                                 ///< (C, nlev)
  Field d2dexdz2_fac1_mc;                                ///< (C, nlev)
  Field d2dexdz2_fac2_mc;                                ///< (C, nlev)
  int igradp_method = igradp_method_taylor_hydro;
  int nflatlev = 0;
  int nflat_gradp = 0;
  int start_cell_lateral_boundary = 0;  ///< a program argument the program never uses
  int start_cell_lateral_boundary_level_3 = 0;
  int start_cell_halo_level_2 = 0;
  int end_cell_halo = 0;
  int end_cell_halo_level_2 = 0;
  int model_top = 0;
  int surface_level = 0;
};

/// Six steps in the program's order (each reads what the previous ones wrote). H = cells
/// [start_cell_lateral_boundary_level_3, end_cell_halo), F = levels [model_top, nlev),
/// S = level nlev; "taylor" = (igradp_method == igradp_method_taylor_hydro); exner_pr =
/// perturbed_exner_at_cells_on_model_levels, z_ex = temporal_extrapolation_of_perturbed_exner,
/// interp(f)[k] = wgtfac_c[k]·f[k] + (1 - wgtfac_c[k])·f[k-1],
/// surf(f) = wgtfacq_c[nlev-1]·f[nlev-1] + wgtfacq_c[nlev-2]·f[nlev-2] +
/// wgtfacq_c[nlev-3]·f[nlev-3].
///  1. H × F: z_ex = (1 + exner_exfac)·(exner - exner_ref) - exner_exfac·exner_pr (old exner_pr);
///     exner_pr = exner - exner_ref.
///  2. H × S: exner_at_cells_on_half_levels = surf(z_ex) if taylor (overwritten by step 4).
///  3. H × F:
///     - perturbed_rho/theta_v_at_cells_on_model_levels = current - reference (every level);
///     - exner_at_cells_on_half_levels = interp(z_ex) if taylor and k >= max(1, nflatlev)
///       (untouched elsewhere);
///     - rho_at_cells_on_half_levels = interp(current_rho) for k >= 1 (level 0 untouched);
///     - perturbed_theta_v_at_cells_on_half_levels = interp(current_theta_v - theta_ref_mc) for
///       k >= 1, and 0.0 at k = 0 (written!);
///     - theta_v_at_cells_on_half_levels = interp(current_theta_v) for k >= 1 (level 0
///       untouched);
///     - nonhydro_buoy_at_cells_on_half_levels, k >= 1 only: exner_w_explicit_weight·theta_v_ic·
///       (exner_pr[k-1] - exner_pr[k]) / ddqz_z_half + theta_v_pr_ic·d_exner_dz_ref_ic, with
///       the theta_v_ic and theta_v_pr_ic of this step.
///  4. H × S (whatever igradp_method is): perturbed_theta_v_at_cells_on_half_levels =
///     surf(perturbed_theta_v_at_cells_on_model_levels); theta_v_at_cells_on_half_levels =
///     reference_theta_at_cells_on_half_levels + that; exner_at_cells_on_half_levels = surf(z_ex).
///  5. H × F, only if taylor: ddz_of_...exner... = (exner_ic[k] - exner_ic[k+1])·inv_ddqz_z_full
///     for k >= nflatlev; d2dz2_of_... = -0.5·((theta_v_pr_ic[k] - theta_v_pr_ic[k+1])·
///     d2dexdz2_fac1_mc + theta_v_pr_mc·d2dexdz2_fac2_mc) for k >= nflat_gradp (untouched
///     elsewhere). At k = 0 (nflatlev = 0) exner_ic[0] is read as it came in.
///  6. cells [start_cell_halo_level_2, end_cell_halo_level_2) × F: perturbed_rho/theta_v_at_
///     cells_on_model_levels = current - reference.
void compute_perturbed_quantities_and_interpolation(
    const Grid& grid, ComputePerturbedQuantitiesAndInterpolationArgs& args);

// ================================================================================================
// 2. compute_hydrostatic_correction_term (predictor, formerly stencil 21)
// ================================================================================================

/// solve_nonhydro: edges [start_edge_nudging_level_2, end_edge_local), levels [nlev-1, nlev)
/// only, grav_o_cpd = GRAV_O_CPD. ICON4Py allocates z_hydro_corr (hydrostatic_correction_on_
/// lowest_level) as an (E, K) field whose K domain is [nlev-1, nlev) only; here it is indexed by
/// absolute level, so it needs >= vertical_end levels (a caller holding the one-level field puts
/// it at level nlev-1). Reads at level k + ikoffset (+1 for theta_v_ic) of the E2C cells; a
/// level outside a field is an error where it is read.
struct ComputeHydrostaticCorrectionTermArgs {
  Field theta_v;                ///< (C, nlev)
  IntField3 ikoffset;           ///< (E, 2, nlev) relative level offsets (vertoffset_gradp)
  Field3 zdiff_gradp;           ///< (E, 2, nlev)
  Field theta_v_ic;             ///< (C, nlev+1)
  Field inv_ddqz_z_full;        ///< (C, nlev)
  Vector inv_dual_edge_length;  ///< (E)
  double grav_o_cpd = reference::grav_o_cpd;
  Field z_hydro_corr;  ///< (E, >= vertical_end) out
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// For every (e,k) of the domain, with c_i = E2C[e,i], o_i = ikoffset[e,i,k],
///   z_theta_i = theta_v[c_i, k+o_i] + zdiff_gradp[e,i,k]·(theta_v_ic[c_i, k+o_i] -
///               theta_v_ic[c_i, k+o_i+1])·inv_ddqz_z_full[c_i, k+o_i]
///   z_hydro_corr = grav_o_cpd·inv_dual_edge_length·(z_theta_1 - z_theta_0)·4 /
///                  ((z_theta_0 + z_theta_1)·(z_theta_0 + z_theta_1)).
void compute_hydrostatic_correction_term(const Grid& grid,
                                         ComputeHydrostaticCorrectionTermArgs& args);

// ================================================================================================
// 3. compute_dwdz_for_divergence_damping (predictor, limited-area only, formerly stencil 56_63)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_lateral_boundary, end_cell_lateral_boundary_level_4),
/// levels [0, nlev); run only if grid.limited_area and divdamp_type >= 3.
struct ComputeDwdzForDivergenceDampingArgs {
  Field inv_ddqz_z_full;  ///< (C, nlev)
  Field w;                ///< (C, nlev+1); levels vertical_start..vertical_end read
  Field w_concorr_c;      ///< (C, nlev+1); levels vertical_start..vertical_end read
  Field z_dwdz_dd;        ///< (C, nlev) out
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain: z_dwdz_dd = inv_ddqz_z_full·((w[k] - w[k+1]) -
/// (w_concorr_c[k] - w_concorr_c[k+1])).
void compute_dwdz_for_divergence_damping(const Grid& grid,
                                         ComputeDwdzForDivergenceDampingArgs& args);

// ================================================================================================
// 4. compute_averaged_vn_and_fluxes (corrector, formerly stencils 31-34)
// ================================================================================================

/// solve_nonhydro: edges [start_edge_lateral_boundary_level_5, end_edge_halo_level_2), levels
/// [0, nlev); variants prepare_advection (= lprep_adv) and at_first_substep; r_nsubsteps =
/// 1.0 / ndyn_substeps_var. Every field (E, nlev).
struct ComputeAveragedVnAndFluxesArgs {
  Field spatially_averaged_vn;                  ///< (E, nlev) out (z_vn_avg)
  Field mass_flux_at_edges_on_model_levels;     ///< (E, nlev) out
  Field theta_v_flux_at_edges_on_model_levels;  ///< (E, nlev) out
  Field substep_and_spatially_averaged_vn;      ///< (E, nlev) in/out (prep_adv.vn_traj)
  Field substep_averaged_mass_flux;             ///< (E, nlev) in/out (prep_adv.mass_flx_me)
  Table e_flx_avg;                              ///< (E,5) E2C2EO order
  Field vn;                                     ///< (E, nlev)
  Field rho_at_edges_on_model_levels;           ///< (E, nlev)
  Field ddqz_z_full_e;                          ///< (E, nlev)
  Field theta_v_at_edges_on_model_levels;       ///< (E, nlev)
  bool prepare_advection = false;
  bool at_first_substep = false;
  double r_nsubsteps = 0.0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (e,k) of the domain:
///  * spatially_averaged_vn = Σ_{j<5} e_flx_avg[e,j]·vn[E2C2EO[e,j]]
///  * mass_flux = rho_e·spatially_averaged_vn·ddqz_z_full_e; theta_v_flux = mass_flux·theta_v_e
///  * only if prepare_advection: at_first_substep: vn_traj = r_nsubsteps·vn_avg, mass_flx_me =
///    r_nsubsteps·mass_flux; otherwise vn_traj += r_nsubsteps·vn_avg, mass_flx_me +=
///    r_nsubsteps·mass_flux (vn_traj + r·avg as written). Untouched if !prepare_advection.
void compute_averaged_vn_and_fluxes(const Grid& grid, ComputeAveragedVnAndFluxesArgs& args);

// ================================================================================================
// 5. compute_horizontal_velocity_quantities_and_fluxes (predictor, formerly stencils 30-38)
// ================================================================================================

/// solve_nonhydro: edges [start_edge_lateral_boundary_level_5, end_edge_halo_level_2),
/// vertical_start = 0, vertical_end = nlev+1. L := vertical_end - 1 (= nlev). Required levels:
/// vn_on_half_levels >= vertical_end; every other (E,K) field >= L; L >= 3.
struct ComputeHorizontalVelocityQuantitiesAndFluxesArgs {
  Field spatially_averaged_vn;                               ///< (E, nlev) out
  Field horizontal_gradient_of_normal_wind_divergence;       ///< (E, nlev) out
  Field tangential_wind;                                     ///< (E, nlev) out
  Field mass_flux_at_edges_on_model_levels;                  ///< (E, nlev) out
  Field theta_v_flux_at_edges_on_model_levels;               ///< (E, nlev) out
  Field tangential_wind_on_half_levels;                      ///< (E, nlev) out (nlev levels!)
  Field vn_on_half_levels;                                   ///< (E, nlev+1) out
  Field horizontal_kinetic_energy_at_edges_on_model_levels;  ///< (E, nlev) out
  Field contravariant_correction_at_edges_on_model_levels;   ///< (E, nlev) in/out (k>=nflatlev)
  Field vn;                                                  ///< (E, nlev)
  Table e_flx_avg;                                           ///< (E,5) E2C2EO order
  Table geofac_grdiv;                                        ///< (E,5) E2C2EO order
  Table rbf_vec_coeff_e;                                     ///< (E,4) E2C2E order
  Field rho_at_edges_on_model_levels;                        ///< (E, nlev)
  Field theta_v_at_edges_on_model_levels;                    ///< (E, nlev)
  Field ddqz_z_full_e;                                       ///< (E, nlev)
  Field ddxn_z_full;                                         ///< (E, nlev)
  Field ddxt_z_full;                                         ///< (E, nlev)
  Field wgtfac_e;                                            ///< (E, nlev+1); levels < L read
  Field wgtfacq_e;  ///< (E, >= L), levels L-3..L-1 read (metrics: K domain [nlev-3, nlev))
  int nflatlev = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Edges [horizontal_start, horizontal_end) and two vertical domains:
///  * levels [vertical_start, L), with vt[k] = Σ_{j<4} rbf_vec_coeff_e[e,j]·vn[E2C2E[e,j],k]:
///    - spatially_averaged_vn = Σ_{j<5} e_flx_avg[e,j]·vn[E2C2EO[e,j]]
///    - horizontal_gradient_of_normal_wind_divergence = Σ_{j<5} geofac_grdiv[e,j]·vn[E2C2EO[e,j]]
///    - tangential_wind = vt
///    - mass_flux = rho_e·vn_avg·ddqz_z_full_e; theta_v_flux = mass_flux·theta_v_e
///    - vn_on_half_levels = wgtfac_e·vn + (1 - wgtfac_e)·vn[k-1] for k > 0, vn at k = 0
///    - tangential_wind_on_half_levels = the same interpolation of vt (vt[k-1] recomputed)
///    - horizontal_kinetic_energy = 0.5·(vn·vn + vt·vt)
///    - contravariant_correction = vn·ddxn_z_full + vt·ddxt_z_full for k >= nflatlev only
///  * level L only (extrapolate_at_top, the surface half level despite its name):
///    vn_on_half_levels[L] = wgtfacq_e[L-1]·vn[L-1] + wgtfacq_e[L-2]·vn[L-2] +
///    wgtfacq_e[L-3]·vn[L-3].
void compute_horizontal_velocity_quantities_and_fluxes(
    const Grid& grid, ComputeHorizontalVelocityQuantitiesAndFluxesArgs& args);

// ================================================================================================
// 6. compute_interpolation_and_nonhydro_buoy (corrector, formerly stencils 1-13 corrector)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_lateral_boundary_level_3, end_cell_local), levels [1, nlev);
/// rhotheta_implicit_weight_parameter = 0.5 + rhotheta_offctr, rhotheta_explicit_weight_
/// parameter = 1 - implicit. Reads level k-1, so vertical_start >= 1 is required. Every (C,K)
/// field needs >= vertical_end levels.
struct ComputeInterpolationAndNonhydroBuoyArgs {
  Field rho_at_cells_on_half_levels;                       ///< (C, nlev+1) out
  Field perturbed_theta_v_at_cells_on_half_levels;         ///< (C, nlev+1) out
  Field theta_v_at_cells_on_half_levels;                   ///< (C, nlev+1) out
  Field nonhydro_buoy_at_cells_on_half_levels;             ///< (C, nlev) out
  Field w;                                                 ///< (C, nlev+1)
  Field contravariant_correction_at_cells_on_half_levels;  ///< (C, nlev+1)
  Field current_rho;                                       ///< (C, nlev)
  Field next_rho;                                          ///< (C, nlev)
  Field current_theta_v;                                   ///< (C, nlev)
  Field next_theta_v;                                      ///< (C, nlev)
  Field perturbed_exner_at_cells_on_model_levels;          ///< (C, nlev)
  Field reference_theta_at_cells_on_model_levels;          ///< (C, nlev)
  Field ddz_of_reference_exner_at_cells_on_half_levels;    ///< (C, nlev+1)
  Field ddqz_z_half;                                       ///< (C, nlev+1)
  Field wgtfac_c;                                          ///< (C, nlev+1)
  Vector exner_w_explicit_weight_parameter;                ///< (C)
  double dtime = 0.0;
  double rhotheta_explicit_weight_parameter = 0.0;
  double rhotheta_implicit_weight_parameter = 0.0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain, with a = rhotheta_explicit_weight, b = rhotheta_implicit_weight,
/// X̄[k] = a·current_X[k] + b·next_X[k] (X = rho, theta_v; X̄[k-1] likewise),
/// bt = -(w - w_concorr)·dtime·0.5/ddqz_z_half:
///  * rho_ic = wgtfac_c·ρ̄[k] + (1 - wgtfac_c)·ρ̄[k-1] + bt·(ρ̄[k-1] - ρ̄[k])
///  * theta_v_pr_ic = wgtfac_c·(θ̄[k] - θ_ref[k]) + (1 - wgtfac_c)·(θ̄[k-1] - θ_ref[k-1])
///  * theta_v_ic = wgtfac_c·θ̄[k] + (1 - wgtfac_c)·θ̄[k-1] + bt·(θ̄[k-1] - θ̄[k])
///  * nonhydro_buoy = exner_w_explicit_weight·theta_v_ic·(exner_pr[k-1] - exner_pr[k]) /
///    ddqz_z_half + theta_v_pr_ic·d_exner_dz_ref_ic.
void compute_interpolation_and_nonhydro_buoy(const Grid& grid,
                                             ComputeInterpolationAndNonhydroBuoyArgs& args);

// ================================================================================================
// 7. stencils_61_62 (predictor, limited-area only)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_lateral_boundary, end_cell_lateral_boundary_level_4),
/// vertical_start = 0, vertical_end = nlev+1; run only if grid.limited_area. L := vertical_end
/// - 1. Required levels: w_now, grf_tend_w, w_new >= vertical_end; the others >= L.
struct Stencils6162Args {
  Field rho_now;       ///< (C, nlev)
  Field grf_tend_rho;  ///< (C, nlev)
  Field theta_v_now;   ///< (C, nlev)
  Field grf_tend_thv;  ///< (C, nlev)
  Field w_now;         ///< (C, nlev+1)
  Field grf_tend_w;    ///< (C, nlev+1)
  Field rho_new;       ///< (C, nlev) out
  Field exner_new;     ///< (C, nlev) out (receives theta_v!)
  Field w_new;         ///< (C, nlev+1) out
  double dtime = 0.0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Cells [horizontal_start, horizontal_end):
///  * levels [vertical_start, L): rho_new = rho_now + dtime·grf_tend_rho; exner_new =
///    theta_v_now + dtime·grf_tend_thv (theta_v, converted later by compute_exner_from_rhotheta);
///    w_new = w_now + dtime·grf_tend_w;
///  * level L only: w_new = w_now + dtime·grf_tend_w.
void stencils_61_62(const Grid& grid, Stencils6162Args& args);

// ================================================================================================
// 8. update_mass_flux_weighted (corrector, limited-area and lprep_adv only, formerly stencil 65)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_lateral_boundary, end_cell_lateral_boundary_level_4), levels
/// [0, nlev); run only if grid.limited_area and lprep_adv; vwind_expl_wgt / vwind_impl_wgt =
/// exner_w_explicit/implicit_weight_parameter, r_nsubsteps = 1.0 / ndyn_substeps_var.
struct UpdateMassFluxWeightedArgs {
  Field rho_ic;           ///< (C, nlev+1)
  Vector vwind_expl_wgt;  ///< (C)
  Vector vwind_impl_wgt;  ///< (C)
  Field w_now;            ///< (C, nlev+1)
  Field w_new;            ///< (C, nlev+1)
  Field w_concorr_c;      ///< (C, nlev+1)
  Field mass_flx_ic;      ///< (C, nlev+1) in/out
  double r_nsubsteps = 0.0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain: mass_flx_ic = mass_flx_ic + r_nsubsteps·rho_ic·(vwind_expl_wgt·w_now
/// + vwind_impl_wgt·w_new - w_concorr_c).
void update_mass_flux_weighted(const Grid& grid, UpdateMassFluxWeightedArgs& args);

// ================================================================================================
// 9. compute_exner_from_rhotheta (end of time_step, limited-area only, formerly stencil 67)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_lateral_boundary, end_cell_lateral_boundary_level_4), levels
/// [0, nlev), rd_o_cvd = RD_O_CVD, rd_o_p0ref = RD_O_P0REF; run only if grid.limited_area.
struct ComputeExnerFromRhothetaArgs {
  Field rho;      ///< (C, nlev)
  Field theta_v;  ///< (C, nlev) out
  Field exner;    ///< (C, nlev) in/out: holds theta_v on input (from stencils_61_62)
  double rd_o_cvd = reference::rd_o_cvd;
  double rd_o_p0ref = reference::rd_o_p0ref;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain, with x = exner on input: theta_v = x; exner =
/// exp(rd_o_cvd·log(rd_o_p0ref·rho·x)).
void compute_exner_from_rhotheta(const Grid& grid, ComputeExnerFromRhothetaArgs& args);

// ================================================================================================
// 10. update_theta_and_exner_in_halo (end of time_step, every grid; formerly stencils 66 + 68)
// ================================================================================================

/// solve_nonhydro: cells [start_cell_halo, end_cell_end), levels [0, nlev) (an empty range on a
/// grid that is not decomposed); mask_prog_halo_c = metric mask (C).
struct UpdateThetaAndExnerInHaloArgs {
  BoolVector mask_prog_halo_c;  ///< (C)
  Field rho_now;                ///< (C, nlev)
  Field rho_new;                ///< (C, nlev)
  Field theta_v_now;            ///< (C, nlev)
  Field theta_v_new;            ///< (C, nlev) out
  Field exner_new;              ///< (C, nlev) in/out
  Field exner_now;              ///< (C, nlev)
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain, with x = exner_new on input:
///  * mask_prog_halo_c[c]: theta_v_new = rho_now·theta_v_now·((x/exner_now - 1)·cvd_o_rd + 1) /
///    rho_new; exner_new unchanged;
///  * otherwise: theta_v_new = x; exner_new = exp(rd_o_cvd·log(rd_o_p0ref·rho_new·x)).
/// (cvd_o_rd = (cpd - rd)/rd, rd_o_cvd, rd_o_p0ref: ICON4Py's PhysicsConstants, not arguments.)
void update_theta_and_exner_in_halo(const Grid& grid, UpdateThetaAndExnerInHaloArgs& args);

// ================================================================================================
// 11. init_cell_kdim_field_with_zero_wp (corrector, limited-area, lprep_adv, first substep)
// ================================================================================================

/// solve_nonhydro: field_with_zero_wp = prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_
/// levels (C, nlev+1); cells [start_cell_lateral_boundary, end_cell_lateral_boundary_level_4),
/// levels [0, nlev+1); run only if grid.limited_area and lprep_adv and at_first_substep.
struct InitCellKdimFieldWithZeroWpArgs {
  Field field_with_zero_wp;  ///< (C, nlev+1) out
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Every (c,k) of the domain: field_with_zero_wp = 0.0.
void init_cell_kdim_field_with_zero_wp(const Grid& grid, InitCellKdimFieldWithZeroWpArgs& args);

// ================================================================================================
// 12. compute_rayleigh_damping_factor (dycore_utils.py; a gt4py program without domain arguments)
// ================================================================================================

/// solve_nonhydro: rayleigh_w = metric rayleigh_w (KHalfDim, nlev+1 values), rayleigh_damping_
/// factor = SolveNonhydro.rayleigh_damping_factor (KDim, nlev values). Called from
/// _get_rayleigh_damping_factor before each of the two solver programs, but only recomputed when
/// dtime differs from the dtime of the previous computation (initially 0.0).
struct ComputeRayleighDampingFactorArgs {
  Vector rayleigh_w;  ///< (nlev+1); the first rayleigh_damping_factor.size() values read
  double dtime = 0.0;
  Vector rayleigh_damping_factor;  ///< (nlev) out
};

/// The output's whole domain (no domain arguments: gt4py takes the out field's domain):
/// rayleigh_damping_factor[k] = 1.0 / (1.0 + dtime·rayleigh_w[k]) for every k of
/// rayleigh_damping_factor.
void compute_rayleigh_damping_factor(ComputeRayleighDampingFactorArgs& args);

}  // namespace icondiff::reference
