// Independent plain-loop host reference of ICON4Py 0.2.0's four velocity-advection programs,
// written from ICON4Py's Python definitions only:
//   icon4py/model/atmosphere/dycore/velocity_advection.py (callers: domains, variants, the scale
//     factors cfl_w_limit / scalfac_exdiff, the max_vertical_cfl reduction),
//   .../dycore/stencils/compute_diagnostics_from_normal_wind.py,
//   .../dycore/stencils/compute_advection_in_vertical_momentum_equation.py (predictor, corrector),
//   .../dycore/stencils/compute_advection_in_horizontal_momentum_equation.py,
// and the field operators they import (compute_tangential_wind, compute_contravariant_correction,
// compute_horizontal_advection_term_for_vertical_velocity, extrapolate_at_top,
// mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl,
// add_extra_diffusion_for_w_con_approaching_cfl, add_interpolated_horizontal_advection_of_w,
// mo_math_divrot_rot_vertex_ri_dsl, and common/interpolation/stencils/
// interpolate_cell_field_to_half_levels_vp and interpolate_to_cell_center) plus
// common/grid/base.py and icon.py for the missing-neighbour rules. It is the oracle the Kokkos
// kernels are tested against and shares no code with them (nor with dycore_reference.cpp).
//
// Conventions (every program), as in dycore_reference.hpp:
//  * One argument struct per program; its members carry the ICON4Py program's argument names in
//    the program signature's order, domain arguments and scalars included. Inputs and in/out
//    fields are members; the function updates the output members in place.
//  * Fields are test::HostField<double> (points, levels), point index fastest. A field must have
//    exactly the points of its location and at least the levels that are read or written (each
//    struct lists the levels ICON4Py allocates: nlev or nlev+1). Per-point coefficient tables
//    are HostTable<double> in the order of their ICON4Py offset: rbf_vec_coeff_e (E,4) E2C2E,
//    c_intp (V,6) V2C, e_bln_c_s (C,3) C2E, geofac_n2s (C,4) C2E2CO (the grid's own C2E2CO
//    order), geofac_rot (V,6) V2E, coeff_gradekin and c_lin_e (E,2) E2C, geofac_grdiv (E,5)
//    E2C2EO. Edge and cell geometry are std::vector<double>; owner_mask is std::vector<bool>.
//  * Outputs are written ONLY inside [horizontal_start, horizontal_end) × [vertical_start,
//    vertical_end) (the diagnostics program: see there), and inside that only where ICON4Py's
//    concat_where / `if` branches write them. Everything else is left untouched. Intermediate
//    fields that are not program outputs (cfl_clipping, w at vertices, vorticity, ...) are
//    computed on the fly and never stored.
//  * Missing neighbours, as ICON4Py's grids do with keep_skip_values=False (the setting of its
//    dycore drivers and bindings; icon4py/model/common/grid/icon.py, _should_replace_skip_values,
//    and grid/base.py, _replace_skip_values):
//      - E2C, E2V, C2E, C2E2CO, E2C2E, E2C2EO: a -1 reads the largest valid index of the same row
//        (0 when the row has none);
//      - V2C and V2E (ICON4Py's CONNECTIVITIES_ON_PENTAGONS): on a global grid run on one rank
//        (!grid.limited_area && grid.num_ranks <= 1) the -1 stays a gt4py skip value and
//        neighbor_sum leaves the slot out (its coefficient is not read); on a limited-area or
//        decomposed grid it is replaced by the largest valid index of the row like the others.
//  * Every expression is evaluated in the order and association of the Python (a + b*c as
//    written, x**2 as x*x, neighbor_sum as a left-to-right sum starting from 0), so that kernels
//    that follow ICON4Py can be compared bit for bit. Everything is double; ICON4Py's vp casts
//    (astype(..., vpfloat)) are no-ops here.
//  * Wrong sizes, ranges outside the arrays and vertical offsets that leave a field throw
//    std::invalid_argument naming the field.
#pragma once

#include "reference/diffusion_reference.hpp"

#include <vector>

namespace icondiff::reference {

using BoolVector = std::vector<bool>;

// ================================================================================================
// Scale factors and the CFL reduction of VelocityAdvection (velocity_advection.py)
// ================================================================================================

/// VelocityAdvection's constants: cfl_w_limit = 0.65 and scalfac_exdiff = 0.05.
inline constexpr double velocity_advection_cfl_w_limit = 0.65;
inline constexpr double velocity_advection_scalfac_exdiff = 0.05;

struct VelocityAdvectionScaleFactors {
  double cfl_w_limit = 0.0;     ///< 0.65 / dtime (a velocity per metre: |w_con| > it·dz clips)
  double scalfac_exdiff = 0.0;  ///< 0.05 / (dtime·(0.85 - cfl_w_limit·dtime))
};

/// VelocityAdvection._scale_factors_by_dtime: the cfl_w_limit and scalfac_exdiff arguments the
/// granule passes to the three advection programs, evaluated in the Python's order:
///   cfl_w_limit = 0.65 / dtime;  scalfac_exdiff = 0.05 / (dtime * (0.85 - cfl_w_limit * dtime)).
VelocityAdvectionScaleFactors scale_factors_by_dtime(double dtime);

/// The reduction run_predictor_step / run_corrector_step perform after the vertical-momentum
/// program: numpy max of vertical_cfl over cells [start_cell, end_cell) × EVERY level of the field
/// (the granule passes start_cell_lateral_boundary_level_4 and end_cell_halo, the horizontal
/// domain of the vertical programs). The values are signed (w_con·dtime/dz, 0 outside the CFL
/// band and where no clipping happens), so this is the largest signed value, not the largest
/// |CFL|. A NaN anywhere in the range gives NaN (numpy max). An empty range throws (numpy max of
/// an empty array raises). The granule then keeps
///   diagnostic_state.max_vertical_cfl = maximum(this, previous max_vertical_cfl)
/// (numpy maximum: NaN-propagating), starting from 0.0 (dycore_states: scalar_like_array(0.0)).
double max_vertical_cfl(const Field& vertical_cfl, index_t start_cell, index_t end_cell);

// ================================================================================================
// compute_diagnostics_from_normal_wind (formerly velocity advection stencils 1-7, predictor)
// ================================================================================================

/// Level counts (nlev full levels; the granule calls it with vertical_start = 0 and
/// vertical_end = nlev+1, edges [start_edge_lateral_boundary_level_5, end_edge_halo_level_2)).
/// Let L = vertical_end - 1 (= nlev in the granule). Required levels: vn_on_half_levels >=
/// vertical_end; every other (·,K) field >= L.
struct ComputeDiagnosticsFromNormalWindArgs {
  Field tangential_wind;                                     ///< (E, nlev) out
  Field tangential_wind_on_half_levels;                      ///< (E, nlev) in/out (!skip)
  Field vn_on_half_levels;                                   ///< (E, nlev+1) out
  Field horizontal_kinetic_energy_at_edges_on_model_levels;  ///< (E, nlev) out
  Field contravariant_correction_at_edges_on_model_levels;   ///< (E, nlev) in/out (k >= nflatlev)
  Field horizontal_advection_of_w_at_edges_on_half_levels;   ///< (E, nlev) in/out (!skip)
  Field vn;                                                  ///< (E, nlev)
  Field w;                                                   ///< (C, nlev+1); levels < L are read
  Table rbf_vec_coeff_e;                                     ///< (E,4) E2C2E order
  Field wgtfac_e;                                            ///< (E, nlev+1); levels < L are read
  Field ddxn_z_full;                                         ///< (E, nlev)
  Field ddxt_z_full;                                         ///< (E, nlev)
  Field wgtfacq_e;                                           ///< (E, nlev+1); levels L-3..L-1 read
  Table c_intp;                                              ///< (V,6) V2C order
  Vector inv_dual_edge_length;                               ///< (E)
  Vector inv_primal_edge_length;                             ///< (E)
  Vector tangent_orientation;                                ///< (E)
  bool skip_compute_predictor_vertical_advection = false;
  int nflatlev = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// Two domains, both over edges [horizontal_start, horizontal_end):
///  * main, levels [vertical_start, L), L = vertical_end - 1 (full levels 0..nlev-1):
///    - tangential_wind = Σ_{j<4} rbf_vec_coeff_e[e,j]·vn[E2C2E[e,j]]            (every level)
///    - horizontal_kinetic_energy_at_edges_on_model_levels = 0.5·(vn·vn + vt·vt)   (every level)
///    - vn_on_half_levels = wgtfac_e·vn + (1 - wgtfac_e)·vn[k-1] for k > 0, vn[0] at k = 0
///    - tangential_wind_on_half_levels: the same interpolation of vt; only if
///      !skip_compute_predictor_vertical_advection (else untouched)
///    - contravariant_correction_at_edges_on_model_levels = vn·ddxn_z_full + vt·ddxt_z_full on
///      levels k >= nflatlev only (untouched above)
///    - horizontal_advection_of_w_at_edges_on_half_levels = vn_ie·inv_dual·(w[E2C0] - w[E2C1]) +
///      vt_ie·inv_primal·tangent_orientation·(w_v[E2V0] - w_v[E2V1]), w_v = Σ c_intp·w(V2C), with
///      vn_ie / vt_ie the half-level values just computed; only if !skip (else untouched)
///  * extrapolate_at_top, level L = vertical_end - 1 only (the SURFACE half level nlev in the
///    granule, despite the name), whatever vertical_start is:
///    vn_on_half_levels[e,L] = wgtfacq_e[L-1]·vn[L-1] + wgtfacq_e[L-2]·vn[L-2] +
///    wgtfacq_e[L-3]·vn[L-3]  (so vertical_end >= 4 is required).
void compute_diagnostics_from_normal_wind(const Grid& grid,
                                          ComputeDiagnosticsFromNormalWindArgs& args);

// ================================================================================================
// compute_advection_in_predictor_vertical_momentum (formerly stencils 8-10, 13-18, predictor)
// ================================================================================================

/// nlev := vertical_end (the granule: vertical_start = 0, vertical_end = nlev, cells
/// [start_cell_lateral_boundary_level_4, end_cell_halo)). Required levels: w >= nlev+1 unless
/// skip_compute_predictor_vertical_advection (then >= nlev); every other (·,K) field >= nlev.
struct ComputeAdvectionInPredictorVerticalMomentumArgs {
  Field contravariant_correction_at_cells_on_half_levels;    ///< (C, nlev+1) out, levels < nlev
  Field vertical_wind_advective_tendency;                    ///< (C, nlev+1) in/out (!skip, k>=1)
  Field contravariant_corrected_w_at_cells_on_model_levels;  ///< (C, nlev) out
  Field vertical_cfl;                                        ///< (C, nlev) out
  Field w;                                                   ///< (C, nlev+1)
  Field horizontal_advection_of_w_at_edges_on_half_levels;   ///< (E, nlev)
  Field contravariant_correction_at_edges_on_model_levels;   ///< (E, nlev)
  Field coeff1_dwdz;                                         ///< (C, nlev)
  Field coeff2_dwdz;                                         ///< (C, nlev)
  Table e_bln_c_s;                                           ///< (C,3) C2E order
  Field wgtfac_c;                                            ///< (C, nlev+1)
  Field ddqz_z_half;                                         ///< (C, nlev+1)
  Vector area;                                               ///< (C)
  Table geofac_n2s;                                          ///< (C,4) C2E2CO order
  BoolVector owner_mask;                                     ///< (C)
  double scalfac_exdiff = 0.0;
  double cfl_w_limit = 0.0;
  double dtime = 0.0;
  bool skip_compute_predictor_vertical_advection = false;
  int nflatlev = 0;
  int end_index_of_damping_layer = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// For every cell c of the domain and level k in [vertical_start, vertical_end), nlev =
/// vertical_end, with w_cc the (temporary) contravariant correction on half levels,
///   w_cc[k] = wgtfac_c·cc[k] + (1 - wgtfac_c)·cc[k-1] if k >= nflatlev+1, else 0, where
///   cc[k] = Σ_j e_bln_c_s[c,j]·contravariant_correction_at_edges_on_model_levels[C2E[c,j],k],
/// and with z[k] = w[k] - w_cc[k], clipped in the CFL band B = {max(2, end_index_of_damping_layer
/// - 2) <= k < nlev - 3}: there cfl_clipping = |z| > cfl_w_limit·ddqz_z_half, and where it holds
/// vertical_cfl = z·dtime/ddqz_z_half and z is set to -0.85·ddqz_z_half/dtime if vertical_cfl <
/// -0.85, to 0.85·ddqz_z_half/dtime if vertical_cfl > 0.85:
///  * contravariant_correction_at_cells_on_half_levels = w_cc on every level of the domain (0
///    above nflatlev+1; level nlev is NOT written: the solver writes it)
///  * vertical_cfl = z·dtime/ddqz_z_half where cfl_clipping, 0 elsewhere (every level)
///  * contravariant_corrected_w_at_cells_on_model_levels = 0.5·(z[k] + z[k+1]) for k < nlev-1,
///    0.5·z[k] at k = nlev-1 (z clipped; every level)
///  * vertical_wind_advective_tendency, only if !skip_compute_predictor_vertical_advection, on
///    levels k >= 1 (level 0 untouched): -z·(w[k-1]·coeff1_dwdz - w[k+1]·coeff2_dwdz +
///    w[k]·(coeff2_dwdz - coeff1_dwdz)) + Σ_j horizontal_advection_of_w[C2E[c,j]]·e_bln_c_s[c,j],
///    then + difcoef·area·Σ_j w[C2E2CO[c,j]]·geofac_n2s[c,j] where cfl_clipping && owner_mask,
///    difcoef = scalfac_exdiff·min(0.85 - cfl_w_limit·dtime, |z|·dtime/ddqz_z_half -
///    cfl_w_limit·dtime).
void compute_advection_in_predictor_vertical_momentum(
    const Grid& grid, ComputeAdvectionInPredictorVerticalMomentumArgs& args);

// ================================================================================================
// compute_advection_in_corrector_vertical_momentum (formerly stencils 7, 11-18, corrector)
// ================================================================================================

/// nlev := vertical_end (the granule: vertical_start = 0, vertical_end = nlev, cells
/// [start_cell_lateral_boundary_level_4, end_cell_halo)). Required levels: w >= nlev+1; every
/// other (·,K) field >= nlev.
struct ComputeAdvectionInCorrectorVerticalMomentumArgs {
  Field vertical_wind_advective_tendency;                    ///< (C, nlev+1) in/out (k >= 1)
  Field contravariant_corrected_w_at_cells_on_model_levels;  ///< (C, nlev) out
  Field vertical_cfl;                                        ///< (C, nlev) out
  Field w;                                                   ///< (C, nlev+1)
  Field tangential_wind_on_half_levels;                      ///< (E, nlev)
  Field vn_on_half_levels;                                   ///< (E, nlev+1); levels < nlev read
  Field contravariant_correction_at_cells_on_half_levels;    ///< (C, nlev+1); levels < nlev read
  Field coeff1_dwdz;                                         ///< (C, nlev)
  Field coeff2_dwdz;                                         ///< (C, nlev)
  Table c_intp;                                              ///< (V,6) V2C order
  Vector inv_dual_edge_length;                               ///< (E)
  Vector inv_primal_edge_length;                             ///< (E)
  Vector tangent_orientation;                                ///< (E)
  Table e_bln_c_s;                                           ///< (C,3) C2E order
  Field ddqz_z_half;                                         ///< (C, nlev+1)
  Vector area;                                               ///< (C)
  Table geofac_n2s;                                          ///< (C,4) C2E2CO order
  BoolVector owner_mask;                                     ///< (C)
  double scalfac_exdiff = 0.0;
  double cfl_w_limit = 0.0;
  double dtime = 0.0;
  int end_index_of_damping_layer = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// As the predictor (same band B, clipping, vertical_cfl, full-level interpolation and tendency;
/// the tendency always computed, on levels k >= 1, level 0 untouched), except that
///  * z[k] = w[k] - contravariant_correction_at_cells_on_half_levels[k] (the input field; nothing
///    is interpolated from the edges and the correction is not written), and
///  * the horizontal advection of w at the C2E edges is recomputed on the fly at level k from
///    vn_on_half_levels and tangential_wind_on_half_levels (the formula of
///    horizontal_advection_of_w_at_edges_on_half_levels in compute_diagnostics_from_normal_wind).
/// Outputs: vertical_wind_advective_tendency (levels >= 1), vertical_cfl and
/// contravariant_corrected_w_at_cells_on_model_levels (every level of the domain).
void compute_advection_in_corrector_vertical_momentum(
    const Grid& grid, ComputeAdvectionInCorrectorVerticalMomentumArgs& args);

// ================================================================================================
// compute_advection_in_horizontal_momentum (formerly stencils 19-20)
// ================================================================================================

/// nlev := vertical_end (the granule: vertical_start = 0, vertical_end = nlev, edges
/// [start_edge_nudging_level_2, end_edge_local), apply_extra_diffusion_on_vn = True).
/// Required levels: vn_on_half_levels >= nlev+1; every other (·,K) field >= nlev.
struct ComputeAdvectionInHorizontalMomentumArgs {
  Field normal_wind_advective_tendency;                      ///< (E, nlev) out
  Field vn;                                                  ///< (E, nlev)
  Field horizontal_kinetic_energy_at_edges_on_model_levels;  ///< (E, nlev)
  Field tangential_wind;                                     ///< (E, nlev)
  Vector coriolis_frequency;                                 ///< (E)
  Field contravariant_corrected_w_at_cells_on_model_levels;  ///< (C, nlev)
  Field vn_on_half_levels;                                   ///< (E, nlev+1)
  Table e_bln_c_s;                                           ///< (C,3) C2E order
  Table geofac_rot;                                          ///< (V,6) V2E order
  Table coeff_gradekin;                                      ///< (E,2) E2C order
  Table c_lin_e;                                             ///< (E,2) E2C order
  Field ddqz_z_full_e;                                       ///< (E, nlev)
  Vector area_edge;                                          ///< (E)
  Vector tangent_orientation;                                ///< (E)
  Vector inv_primal_edge_length;                             ///< (E)
  Table geofac_grdiv;                                        ///< (E,5) E2C2EO order
  double cfl_w_limit = 0.0;
  double scalfac_exdiff = 0.0;
  double dtime = 0.0;
  bool apply_extra_diffusion_on_vn = false;
  int end_index_of_damping_layer = 0;
  int horizontal_start = 0;
  int horizontal_end = 0;
  int vertical_start = 0;
  int vertical_end = 0;
};

/// For every (e,k) of the domain (every point written), with ζ[v] = Σ_j vn[V2E[v,j]]·
/// geofac_rot[v,j] (vorticity at vertices), ekin_c[c] = Σ_j e_bln_c_s[c,j]·ekin_e[C2E[c,j]],
/// w_con_e = Σ_j c_lin_e[e,j]·contravariant_corrected_w_at_cells_on_model_levels[E2C[e,j]]:
///   normal_wind_advective_tendency = -(h + v + f) with
///     h = ekin_e·(cg0 - cg1) + cg1·ekin_c[E2C1] - cg0·ekin_c[E2C0]   (cg = coeff_gradekin[e])
///     v = w_con_e·(vn_on_half_levels[k] - vn_on_half_levels[k+1]) / ddqz_z_full_e
///     f = tangential_wind·(coriolis_frequency + 0.5·(ζ[E2V0] + ζ[E2V1]))
/// and then, only if apply_extra_diffusion_on_vn, on levels max(2, end_index_of_damping_layer - 2)
/// <= k < nlev - 4, where |w_con_e| > cfl_w_limit·ddqz_z_full_e:
///   + difcoef·area_edge·(Σ_j geofac_grdiv[e,j]·vn[E2C2EO[e,j]] + tangent_orientation·
///     inv_primal_edge_length·(ζ[E2V1] - ζ[E2V0])),
///   difcoef = scalfac_exdiff·min(0.85 - cfl_w_limit·dtime, |w_con_e|·dtime/ddqz_z_full_e -
///   cfl_w_limit·dtime).
void compute_advection_in_horizontal_momentum(const Grid& grid,
                                              ComputeAdvectionInHorizontalMomentumArgs& args);

}  // namespace icondiff::reference
