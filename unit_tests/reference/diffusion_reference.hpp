// Independent plain-loop host reference of ICON4Py's horizontal diffusion: every stencil program
// of diffusion_spec.md §3/§5.1 and the whole granule (§3.0), written from the specification only
// (/work/shared/docs/diffusion_spec.md, "the spec"; section numbers below refer to it). It is
// the oracle the Kokkos kernels are tested against and shares no code with them.
//
// Conventions (every function):
//  * Names of functions and arguments are ICON4Py's (program names, program argument names).
//  * Fields are test::HostField<double> (points, levels); half-level fields (w, div_ic, hdef_ic,
//    dwdx, dwdy, wgtfac_c) have nlev+1 levels. A field is only required to have at least the
//    levels that are read or written (so a stencil test may pass nlev-level w, as ICON4Py's do).
//  * zd_vertoffset is test::HostField3<int> (C, 3, nlev); zd_intcoef (vcoef) HostField3<double>.
//  * Per-point coefficient tables are HostTable<double> (rows = points) in the connectivity order
//    the spec states (§1.3, §4.4, §4.5):
//      e_bln_c_s, geofac_div             (C,3) C2E order
//      geofac_n2s, geofac_grg_x/_y       (C,4) C2E2CO order (whatever the grid's C2E2CO order is:
//                                              self LAST on the torus, first on ICON grids)
//      geofac_n2s_nbh                    (C,3) C2E2C order
//      rbf_coeff_1/2 (ptr_coeff_1/2)     (V,6) V2E order
//      primal/dual_normal_vert_x/_y      (E,4) E2C2V order
//  * Edge and cell geometry (tangent_orientation, inverse lengths, area_edge, area, nudgecoeff_e,
//    geofac_n2s_c) and K-profiles (diff_multfac_smag, smag_limit, diff_multfac_vn,
//    diff_multfac_n2w) are std::vector<double>.
//  * Connectivity comes from `const Grid&` (c2e, e2c, e2c2v, v2e, c2e2c, c2e2co only); no
//    table is assumed to be ordered in any particular way beyond what the spec states.
//  * Ranges: `horizontal_start, horizontal_end` (points) and `vertical_start, vertical_end`
//    (levels), half-open, exactly where the ICON4Py program has them. Outputs are in/out:
//    written ONLY inside [horizontal_start, horizontal_end) × [vertical_start, vertical_end);
//    everything else is left untouched. A range with start >= end is empty (nothing happens).
//  * Missing neighbours (-1): skipped in V2E (pentagons; §3.3, Addendum 8). Anywhere else a -1
//    that the computation needs is a grid error: std::logic_error naming the function, table,
//    row and slot. Wrong sizes, ranges outside the arrays and invalid vertical offsets throw
//    std::invalid_argument (also a std::logic_error).
//  * Everything is double. The spec's vp casts (§1.1) are only noted in comments.
//
// Build notes: this is test code (library icondiff_test_support), single-threaded, O(points ×
// levels) per stencil; the granule reference runs on R02B03 × 80 levels in well under a second.
#pragma once

#include "support/host_field.hpp"

#include <icondiff/core/host_table.hpp>
#include <icondiff/grid/grid.hpp>

#include <cmath>
#include <vector>

namespace icondiff::reference {

using Field = test::HostField<double>;
using Field3 = test::HostField3<double>;
using IntField3 = test::HostField3<int>;
using Table = HostTable<double>;
using Vector = std::vector<double>;

// ================================================================================================
// Constants (§2.2)
// ================================================================================================

/// Rd [J/(kg K)] and cpd as ICON4Py's constants.py; rd_o_cvd = Rd/(cpd - Rd) ≈ 0.4.
inline constexpr double gas_constant_dry_air = 287.04;
inline constexpr double cpd = 1004.64;
/// DBL_EPS (sys.float_info.epsilon): the cold-pool "inactive" value (smallest_vpfloat, §2.2, §6.4).
inline constexpr double dbl_eps = 2.220446049250313e-16;
/// Cold-pool threshold thresh_tdiff [K] (§2.2).
inline constexpr double default_thresh_tdiff = -5.0;

// ================================================================================================
// S2/S5 (§3.3): RBF vector reconstruction at vertices
// ================================================================================================

/// p_u_out[v,k] = Σ_{j<6} ptr_coeff_1[v,j]·p_e_in[V2E[v,j],k]; p_v_out the same with ptr_coeff_2.
/// V2E slots holding -1 contribute nothing.
///   p_e_in (E,K) edge field; ptr_coeff_1/2 (V,6) V2E order; p_u_out, p_v_out (V,K) in/out.
///   Range: vertices × levels (granule: [S(V,LB2), E(V,LOCAL)) × [0,nlev)).
void mo_intp_rbf_rbf_vec_interpol_vertex(const Grid& grid, const Field& p_e_in,
                                         const Table& ptr_coeff_1, const Table& ptr_coeff_2,
                                         Field& p_u_out, Field& p_v_out, index_t horizontal_start,
                                         index_t horizontal_end, int vertical_start,
                                         int vertical_end);

// ================================================================================================
// S3 (§3.4): nabla2 of vn and the Smagorinsky coefficients (edges, E2C2V)
// ================================================================================================

/// With (v0..v3) = E2C2V[e], vn_i = u_vert[v_i]·primal_normal_vert_x[e,i] + v_vert[v_i]·..._y,
/// vt_i = u_vert[v_i]·dual_normal_vert_x[e,i] + v_vert[v_i]·..._y, Lp = tangent_orientation·
/// inv_primal_edge_length, Lvv = inv_vert_vert_length, ip = inv_primal_edge_length:
///   kh_smag_ec = diff_multfac_smag[k]·sqrt(D1² + D2²),
///     D1 = (vn_3 - vn_2)·Lvv - (vt_1 - vt_0)·Lp,  D2 = (vn_1 - vn_0)·Lp + (vt_3 - vt_2)·Lvv
///   kh_smag_e  = min(max(0, kh_smag_ec - smag_offset), smag_limit[k])
///   z_nabla2_e = 4·[(vn_0 + vn_1 - 2·vn)·ip² + (vn_2 + vn_3 - 2·vn)·Lvv²]
///   diff_multfac_smag, smag_limit (K); tangent_orientation, inv_* (E); u_vert, v_vert (V,K);
///   *_normal_vert_x/_y (E,4) E2C2V order; vn (E,K); outputs kh_smag_e, kh_smag_ec, z_nabla2_e
///   (E,K) in/out. Range: edges × levels (granule: [S(E,LB5), E(E,HALO_LEVEL_2)) × [0,nlev)).
void calculate_nabla2_and_smag_coefficients_for_vn(
    const Grid& grid, const Vector& diff_multfac_smag, const Vector& tangent_orientation,
    const Vector& inv_primal_edge_length, const Vector& inv_vert_vert_length, const Field& u_vert,
    const Field& v_vert, const Table& primal_normal_vert_x, const Table& primal_normal_vert_y,
    const Table& dual_normal_vert_x, const Table& dual_normal_vert_y, const Field& vn,
    const Vector& smag_limit, Field& kh_smag_e, Field& kh_smag_ec, Field& z_nabla2_e,
    double smag_offset, index_t horizontal_start, index_t horizontal_end, int vertical_start,
    int vertical_end);

// ================================================================================================
// S4 (§3.5): turbulence diagnostics div_ic, hdef_ic (cells, C2E, half levels)
// ================================================================================================

/// kh_c[c,k] = (Σ_j e_bln_c_s[c,j]·kh_smag_ec[C2E[c,j],k]) / diff_multfac_smag[k]
/// div[c,k]  = Σ_j geofac_div[c,j]·vn[C2E[c,j],k]
///   kh_smag_ec, vn (E,K); e_bln_c_s, geofac_div (C,3) C2E order; diff_multfac_smag (K);
///   kh_c, div (C,K) in/out. Range: cells × levels.
void temporary_fields_for_turbulence_diagnostics(
    const Grid& grid, const Field& kh_smag_ec, const Field& vn, const Table& e_bln_c_s,
    const Table& geofac_div, const Vector& diff_multfac_smag, Field& kh_c, Field& div,
    index_t horizontal_start, index_t horizontal_end, int vertical_start, int vertical_end);

/// div_ic[c,k]  = wgtfac_c[c,k]·div[c,k] + (1 - wgtfac_c[c,k])·div[c,k-1]
/// hdef_ic[c,k] = (wgtfac_c[c,k]·kh_c[c,k] + (1 - wgtfac_c[c,k])·kh_c[c,k-1])²
/// The ICON4Py program has no range arguments (it writes `div_ic[:, 1:]`): this writes every cell
/// [0, div.points) and levels [1, div.levels); level 0 and any level >= div.levels of div_ic and
/// hdef_ic are untouched. div, kh_c (C,K); wgtfac_c, div_ic, hdef_ic (C, >= K levels).
void calculate_diagnostics_for_turbulence(const Field& div, const Field& kh_c,
                                          const Field& wgtfac_c, Field& div_ic, Field& hdef_ic);

/// The fusion of the two above (S4): div_ic, hdef_ic at half levels k in [vertical_start,
/// vertical_end) from kh_c and div evaluated at full levels k and k-1, so vertical_start >= 1 is
/// required. kh_smag_ec, vn (E,K); e_bln_c_s, geofac_div (C,3) C2E order; diff_multfac_smag (K);
/// wgtfac_c, div_ic, hdef_ic (C, K+1) in/out.
/// Granule range: [S(C,NUDGING), E(C,LOCAL)) × [1, nlev).
void calculate_diagnostic_quantities_for_turbulence(
    const Grid& grid, const Field& kh_smag_ec, const Field& vn, const Table& e_bln_c_s,
    const Table& geofac_div, const Vector& diff_multfac_smag, const Field& wgtfac_c, Field& div_ic,
    Field& hdef_ic, index_t horizontal_start, index_t horizontal_end, int vertical_start,
    int vertical_end);

// ================================================================================================
// S6 (§3.6): nabla4 and the vn update (edges, E2C2V)
// ================================================================================================

/// z_nabla4_e2 = 4·[(nn - 2·z_nabla2_e)·Lvv² + (nt - 2·z_nabla2_e)·ip²] with
/// nt = Σ_{i=0,1} (u_vert[v_i]·primal_normal_vert_v1[e,i] +
/// v_vert[v_i]·primal_normal_vert_v2[e,i]), nn the same over i = 2,3; (v_i) = E2C2V[e]. (v1/v2 =
/// x/y components, E2C2V order.)
///   u_vert, v_vert (V,K); z_nabla2_e (E,K); inv_* (E); z_nabla4_e2 (E,K) in/out.
void calculate_nabla4(const Grid& grid, const Field& u_vert, const Field& v_vert,
                      const Table& primal_normal_vert_v1, const Table& primal_normal_vert_v2,
                      const Field& z_nabla2_e, const Vector& inv_vert_vert_length,
                      const Vector& inv_primal_edge_length, Field& z_nabla4_e2,
                      index_t horizontal_start, index_t horizontal_end, int vertical_start,
                      int vertical_end);

/// vn += area_edge·(max(nudgezone_diff·nudgecoeff_e, kh_smag_e)·z_nabla2_e
///                  - area_edge·diff_multfac_vn[k]·z_nabla4_e2)           (limited-area interior)
///   area_edge, nudgecoeff_e (E); kh_smag_e, z_nabla2_e, z_nabla4_e2 (E,K); diff_multfac_vn (K);
///   vn (E,K) in/out.
void apply_nabla2_and_nabla4_to_vn(const Vector& area_edge, const Field& kh_smag_e,
                                   const Field& z_nabla2_e, const Field& z_nabla4_e2,
                                   const Vector& diff_multfac_vn, const Vector& nudgecoeff_e,
                                   Field& vn, double nudgezone_diff, index_t horizontal_start,
                                   index_t horizontal_end, int vertical_start, int vertical_end);

/// vn += area_edge·(kh_smag_e·z_nabla2_e - diff_multfac_vn[k]·z_nabla4_e2·area_edge)  (global)
void apply_nabla2_and_nabla4_global_to_vn(const Vector& area_edge, const Field& kh_smag_e,
                                          const Field& z_nabla2_e, const Field& z_nabla4_e2,
                                          const Vector& diff_multfac_vn, Field& vn,
                                          index_t horizontal_start, index_t horizontal_end,
                                          int vertical_start, int vertical_end);

/// vn += area_edge·fac_bdydiff_v·z_nabla2_e                     (limited-area boundary rows 5..9)
void apply_nabla2_to_vn_in_lateral_boundary(const Field& z_nabla2_e, const Vector& area_edge,
                                            Field& vn, double fac_bdydiff_v,
                                            index_t horizontal_start, index_t horizontal_end,
                                            int vertical_start, int vertical_end);

/// The fused S6: z_nabla4_e2 on the fly (calculate_nabla4), then for each edge e in range
///   limited_area:  e >= start_2nd_nudge_line_idx_e: apply_nabla2_and_nabla4_to_vn
///                  e <  start_2nd_nudge_line_idx_e: apply_nabla2_to_vn_in_lateral_boundary
///   global:        e >= start_2nd_nudge_line_idx_e: apply_nabla2_and_nabla4_global_to_vn
///                  e <  start_2nd_nudge_line_idx_e: vn unchanged
/// u_vert, v_vert are the RBF of z_nabla2_e (S5). Granule range: [S(E,LB5), E(E,LOCAL)) ×
/// [0,nlev), start_2nd_nudge_line_idx_e = S(E,NUDGING_LEVEL_2).
void apply_diffusion_to_vn(const Grid& grid, const Field& u_vert, const Field& v_vert,
                           const Table& primal_normal_vert_v1, const Table& primal_normal_vert_v2,
                           const Field& z_nabla2_e, const Vector& inv_vert_vert_length,
                           const Vector& inv_primal_edge_length, const Vector& area_edge,
                           const Field& kh_smag_e, const Vector& diff_multfac_vn,
                           const Vector& nudgecoeff_e, Field& vn, double nudgezone_diff,
                           double fac_bdydiff_v, index_t start_2nd_nudge_line_idx_e,
                           bool limited_area, index_t horizontal_start, index_t horizontal_end,
                           int vertical_start, int vertical_end);

// ================================================================================================
// S8 (§3.7): w diffusion and the w gradients for turbulence (cells, C2E2CO)
// ================================================================================================

/// z_nabla2_c[c,k] = Σ_{i<4} geofac_n2s[c,i]·w[C2E2CO[c,i],k].
///   w (C, >=K); geofac_n2s (C,4) C2E2CO order; z_nabla2_c (C,K) in/out.
void calculate_nabla2_for_w(const Grid& grid, const Field& w, const Table& geofac_n2s,
                            Field& z_nabla2_c, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end);

/// w[c,k] -= diff_multfac_w·area[c]²·Σ_{i<4} geofac_n2s[c,i]·z_nabla2_c[C2E2CO[c,i],k]
/// (reads only w[c,k] itself, so the in-place update is exact).
void apply_nabla2_to_w(const Grid& grid, const Vector& area, const Field& z_nabla2_c,
                       const Table& geofac_n2s, Field& w, double diff_multfac_w,
                       index_t horizontal_start, index_t horizontal_end, int vertical_start,
                       int vertical_end);

/// w[c,k] += diff_multfac_n2w[k]·cell_area[c]·z_nabla2_c[c,k]
void apply_nabla2_to_w_in_upper_damping_layer(Field& w, const Vector& diff_multfac_n2w,
                                              const Vector& cell_area, const Field& z_nabla2_c,
                                              index_t horizontal_start, index_t horizontal_end,
                                              int vertical_start, int vertical_end);

/// dwdx[c,k] = Σ_{i<4} geofac_grg_x[c,i]·w[C2E2CO[c,i],k]; dwdy the same with geofac_grg_y.
void calculate_horizontal_gradients_for_turbulence(const Grid& grid, const Field& w,
                                                   const Table& geofac_grg_x,
                                                   const Table& geofac_grg_y, Field& dwdx,
                                                   Field& dwdy, index_t horizontal_start,
                                                   index_t horizontal_end, int vertical_start,
                                                   int vertical_end);

/// The fused S8, for c in [horizontal_start, horizontal_end), k in [vertical_start, vertical_end):
///  * type_shear == 2 and k > 0: dwdx, dwdy = calculate_horizontal_gradients_for_turbulence(w_old);
///    otherwise dwdx, dwdy keep their input values;
///  * interior_idx <= c < halo_idx: w = w_old - diff_multfac_w·area²·Σ_i geofac_n2s[c,i]·
///    z_nabla2_c[C2E2CO[c,i]] (z_nabla2_c = calculate_nabla2_for_w(w_old), evaluated wherever it
///    is needed, also outside the range), and additionally, if 0 < k < nrdmax,
///    w += diff_multfac_n2w[k]·area·z_nabla2_c[c,k];
///  * otherwise w = w_old.
/// w_old is the S7 copy of w (C, K+1); w, dwdx, dwdy (C, K+1) in/out; area (C); geofac_* (C,4)
/// C2E2CO order; diff_multfac_n2w (K). Granule: range [w_start, E(C,HALO)) × [0,nlev),
/// interior_idx = S(C,INTERIOR), halo_idx = E(C,LOCAL), nrdmax = nrd + 1.
void apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
    const Grid& grid, const Vector& area, const Table& geofac_n2s, const Table& geofac_grg_x,
    const Table& geofac_grg_y, const Field& w_old, Field& w, int type_shear, Field& dwdx,
    Field& dwdy, double diff_multfac_w, const Vector& diff_multfac_n2w, int nrdmax,
    index_t interior_idx, index_t halo_idx, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end);

// ================================================================================================
// S9 (§3.8): cold-pool enhancement of kh_smag_e (edges, E2C then C2E2C)
// ================================================================================================

/// enh_diffu_3d[c,k] = 5e-4·(thresh_tdiff - tdiff + trefdiff) if active, else smallest_vpfloat,
///   tdiff    = theta_v[c,k]      - (Σ_j theta_v[C2E2C[c,j],k])/3
///   trefdiff = theta_ref_mc[c,k] - (Σ_j theta_ref_mc[C2E2C[c,j],k])/3
///   active   = ((tdiff - trefdiff) < thresh_tdiff AND trefdiff < 0)
///              OR (tdiff - trefdiff) < 1.5·thresh_tdiff
///   theta_v, theta_ref_mc (C,K); enh_diffu_3d (C,K) in/out.
void temporary_field_for_grid_point_cold_pools_enhancement(
    const Grid& grid, const Field& theta_v, const Field& theta_ref_mc, Field& enh_diffu_3d,
    double thresh_tdiff, double smallest_vpfloat, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end);

/// kh_smag_e[e,k] = max(kh_smag_e[e,k], enh_diffu_3d[E2C[e,0],k], enh_diffu_3d[E2C[e,1],k])
void enhance_diffusion_coefficient_for_grid_point_cold_pools(const Grid& grid, Field& kh_smag_e,
                                                             const Field& enh_diffu_3d,
                                                             index_t horizontal_start,
                                                             index_t horizontal_end,
                                                             int vertical_start, int vertical_end);

/// The fused S9 (enh_diffu_3d evaluated on the fly at the two E2C cells of each edge).
/// Granule: range [S(E,NUDGING), E(E,HALO)) × [nlev-2, nlev), thresh_tdiff = -5,
/// smallest_vpfloat = DBL_EPS; theta_v is the value before S11.
void calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
    const Grid& grid, const Field& theta_v, const Field& theta_ref_mc, double thresh_tdiff,
    double smallest_vpfloat, Field& kh_smag_e, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end);

// ================================================================================================
// S11 (§3.9): theta diffusion and the exner update (cells, C2E, E2C, C2E2C)
// ================================================================================================

/// z_nabla2_e[e,k] = kh_smag_e[e,k]·inv_dual_edge_length[e]·(theta_v[E2C[e,1],k] -
/// theta_v[E2C[e,0],k]) (the θ flux at edges). kh_smag_e (E,K); theta_v (C,K); z_nabla2_e (E,K).
void calculate_nabla2_for_z(const Grid& grid, const Field& kh_smag_e,
                            const Vector& inv_dual_edge_length, const Field& theta_v,
                            Field& z_nabla2_e, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end);

/// z_temp[c,k] = Σ_j geofac_div[c,j]·z_nabla2_e[C2E[c,j],k]. geofac_div (C,3) C2E order.
void calculate_nabla2_of_theta(const Grid& grid, const Field& z_nabla2_e, const Table& geofac_div,
                               Field& z_temp, index_t horizontal_start, index_t horizontal_end,
                               int vertical_start, int vertical_end);

/// The two above fused (the flux evaluated on the fly at the C2E edges of each cell).
void calculate_nabla2_for_theta(const Grid& grid, const Field& kh_smag_e,
                                const Vector& inv_dual_edge_length, const Field& theta_v,
                                const Table& geofac_div, Field& z_temp, index_t horizontal_start,
                                index_t horizontal_end, int vertical_start, int vertical_end);

/// z_temp[c,k] += zd_diffcoef[c,k]·( geofac_n2s_c[c]·theta_v[c,k]
///     + Σ_j geofac_n2s_nbh[c,j]·( vcoef[c,j,k]·theta_v[n_j, k+o_j]
///                                 + (1 - vcoef[c,j,k])·theta_v[n_j, k+o_j+1] ) ),
/// n_j = C2E2C[c,j], o_j = zd_vertoffset[c,j,k] (relative). Applied at every point of the range
/// (no mask: the mask zd_diffcoef != 0 belongs to the fused program). Requires 0 <= k+o_j and
/// k+o_j+1 <= theta_v.levels-1, else std::invalid_argument.
///   zd_vertoffset (C,3,K) int; zd_diffcoef (C,K); geofac_n2s_c (C); geofac_n2s_nbh (C,3) C2E2C
///   order; vcoef = zd_intcoef (C,3,K); theta_v (C,K); z_temp (C,K) in/out.
void truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
    const Grid& grid, const IntField3& zd_vertoffset, const Field& zd_diffcoef,
    const Vector& geofac_n2s_c, const Table& geofac_n2s_nbh, const Field3& vcoef,
    const Field& theta_v, Field& z_temp, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end);

/// theta_new = theta_v + area·z_temp; exner *= 1 + rd_o_cvd·(theta_new/theta_v - 1);
/// theta_v = theta_new. z_temp (C,K); area (C); theta_v, exner (C,K) in/out.
void update_theta_and_exner(const Field& z_temp, const Vector& area, Field& theta_v, Field& exner,
                            double rd_o_cvd, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end);

/// The fused S11: with θ* = theta_v_in (the S10 copy; every θ read uses it),
///   z_temp = calculate_nabla2_for_theta(θ*);
///   if apply_zdiffusion_t and zd_diffcoef[c,k] != 0: z_temp += truly-horizontal term (above);
///   theta_v = θ* + area·z_temp; exner *= 1 + rd_o_cvd·(theta_v/θ* - 1).
/// theta_v_in (C,K); theta_v, exner (C,K) in/out (theta_v's old values are never read).
/// Granule range: [S(C,NUDGING), E(C,LOCAL)) × [0,nlev).
void apply_diffusion_to_theta_and_exner(const Grid& grid, const Field& kh_smag_e,
                                        const Vector& inv_dual_edge_length, const Field& theta_v_in,
                                        const Table& geofac_div, const IntField3& zd_vertoffset,
                                        const Field& zd_diffcoef, const Vector& geofac_n2s_c,
                                        const Table& geofac_n2s_nbh, const Field3& vcoef,
                                        const Vector& area, Field& theta_v, Field& exner,
                                        double rd_o_cvd, bool apply_zdiffusion_t,
                                        index_t horizontal_start, index_t horizontal_end,
                                        int vertical_start, int vertical_end);

// ================================================================================================
// The whole granule (§2, §3.0)
// ================================================================================================

/// Every scalar the granule needs (§2.1; defaults as ICON4Py's DiffusionConfig). Options that
/// run() does not read or that only one value is implemented for are absent (Addendum 10).
struct GranuleConfig {
  double hdiff_efdt_ratio = 36.0;
  double hdiff_w_efdt_ratio = 15.0;
  double smagorinski_scaling_factor = 0.015;
  double smagorinski_scaling_factor2 =
      2e-6 * (1600.0 + 25000.0 + std::sqrt(1600.0 * (1600.0 + 50000.0)));
  double smagorinski_scaling_factor3 = 0.0;
  double smagorinski_scaling_factor4 = 1.0;
  double smagorinski_scaling_height = 32500.0;
  double smagorinski_scaling_height2 = 1600.0 + 50000.0 + std::sqrt(1600.0 * (1600.0 + 50000.0));
  double smagorinski_scaling_height3 = 50000.0;
  double smagorinski_scaling_height4 = 90000.0;
  int ndyn_substeps = 5;
  /// Already scaled by the dynamics/physics ratio 5 (§2.1); MCH uses 0.375.
  double max_nudging_coefficient = 5.0 * 0.02;
  double velocity_boundary_diffusion_denominator = 200.0;
  /// 0, 1 or 2 (2 computes dwdx/dwdy); 3 is rejected.
  int shear_type = 0;
  bool apply_to_temperature = true;
  bool apply_zdiffusion_t = true;
  double a_hshr = 1.0;
  bool loutshs = false;
  /// Selects the limited-area branches (S6 split, w_start). Should equal grid.limited_area.
  bool limited_area = false;
  /// End index of the damping layer (vertical_grid.end_index_of_damping_layer), 0 <= nrd <= nlev-1.
  int nrd = 0;
  /// Nominal interface heights [m], nlev+1 values, vct_a[0] = model top. Defines nlev.
  std::vector<double> vct_a;
};

/// §2.2–2.4 for one run() call. Profiles have nlev entries.
struct DerivedParameters {
  int nlev = 0;
  double K2 = 0, K4 = 0, K6 = 0, K4W = 0;
  double smag_offset = 0;     ///< 0.25·K4·N, or 0 in the initial run (S0)
  double diff_multfac_w = 0;  ///< min(1/48, K4W·N)
  double nudgezone_diff = 0;  ///< 0.04/(max_nudging_coefficient + DBL_EPS)
  double bdy_diff = 0;        ///< 0.015/(max_nudging_coefficient + DBL_EPS) (unused by run)
  double fac_bdydiff_v = 0;   ///< sqrt(N)/velocity_boundary_diffusion_denominator
  double rd_o_cvd = 0;        ///< Rd/(cpd - Rd)
  double thresh_tdiff = default_thresh_tdiff;
  double smallest_vpfloat = dbl_eps;
  Vector diff_multfac_vn;  ///< min(1/128, K4·N/3), or K4/3·hdiff_efdt_ratio (initial run)
  Vector smag_limit;       ///< 0.125 - 4·diff_multfac_vn
  Vector enh_smag_fac;     ///< §2.3 piecewise linear/quadratic profile of zf
  Vector
      diff_multfac_n2w;  ///< (1/12)·((vct_a[k]-vct_a[nrd+1])/(vct_a[1]-vct_a[nrd+1]))^4, k=1..nrd
  Vector diff_multfac_smag;  ///< enh_smag_fac·dtime (S1)
};

/// Derives §2.2–2.4 (initial-run overrides included) and S1. Throws std::invalid_argument for
/// vct_a with fewer than 2 values, dtime <= 0 (Addendum 12), nrd outside [0, nlev-1]
/// (Addendum 3) and shear_type outside {0,1,2} (§2.1).
DerivedParameters derive_parameters(const GranuleConfig& config, double dtime, bool initial_run);

/// S4's condition (§3.5, Addendum 1): shear_type >= 1 or loutshs or a_hshr > 0.
bool turbulence_diagnostics_active(const GranuleConfig& config);

/// Metric, interpolation and geometry inputs (§4.3–4.5), sizes as stated there.
struct GranuleInputs {
  // Metric state (§4.3)
  Field theta_ref_mc;       ///< (C, nlev)
  Field wgtfac_c;           ///< (C, nlev+1)
  IntField3 zd_vertoffset;  ///< (C, 3, nlev), relative level offsets, C2E2C order
  Field zd_diffcoef;        ///< (C, nlev); != 0 marks the truly-horizontal points
  Field3 zd_intcoef;        ///< (C, 3, nlev), C2E2C order
  // Interpolation state (§4.4)
  Table e_bln_c_s;      ///< (C,3) C2E order
  Table rbf_coeff_1;    ///< (V,6) V2E order
  Table rbf_coeff_2;    ///< (V,6) V2E order
  Table geofac_div;     ///< (C,3) C2E order
  Table geofac_n2s;     ///< (C,4) C2E2CO order
  Table geofac_grg_x;   ///< (C,4) C2E2CO order
  Table geofac_grg_y;   ///< (C,4) C2E2CO order
  Vector nudgecoeff_e;  ///< (E)
  // Geometry (§4.5)
  Vector tangent_orientation;                        ///< (E)
  Vector inverse_primal_edge_lengths;                ///< (E)
  Vector inverse_vertex_vertex_lengths;              ///< (E)
  Vector inverse_dual_edge_lengths;                  ///< (E)
  Vector edge_areas;                                 ///< (E) area_edge
  Table primal_normal_vert_x, primal_normal_vert_y;  ///< (E,4) E2C2V order
  Table dual_normal_vert_x, dual_normal_vert_y;      ///< (E,4) E2C2V order
  Vector cell_area;                                  ///< (C)
};

/// The prognostic and diagnostic fields run() updates in place (§4.1, §4.2).
struct GranuleState {
  Field vn;       ///< (E, nlev)
  Field w;        ///< (C, nlev+1)
  Field theta_v;  ///< (C, nlev)
  Field exner;    ///< (C, nlev)
  Field div_ic;   ///< (C, nlev+1)
  Field hdef_ic;  ///< (C, nlev+1)
  Field dwdx;     ///< (C, nlev+1)
  Field dwdy;     ///< (C, nlev+1)
};

/// The granule's work arrays as run() leaves them (for comparing intermediate results).
struct GranuleWork {
  DerivedParameters parameters;
  Field u_vert, v_vert;  ///< (V, nlev), values of S5 (RBF of z_nabla2_e)
  Field kh_smag_e;       ///< (E, nlev), after S9 (S3's values where S9 did not run)
  Field kh_smag_ec;      ///< (E, nlev)
  Field z_nabla2_e;      ///< (E, nlev)
  Field w_tmp;           ///< (C, nlev+1), the S7 copy
  Field theta_v_tmp;     ///< (C, nlev), the S10 copy (empty if apply_to_temperature is false)
};

/// geofac_n2s_c and geofac_n2s_nbh for S11 from geofac_n2s (C,4) in the grid's C2E2CO order,
/// without assuming where "self" is: for each cell c in [horizontal_start, horizontal_end) the
/// self slot is the one with C2E2CO[c,i] == c, and the other three slots, in order, must hold
/// C2E2C[c,0..2] (true for ICON grids, self first, and for the torus, self last); otherwise
/// std::logic_error. Cells outside the range get NaN. (ICON4Py slices [:,0] and [:,1:4], which is
/// the same on ICON grids.)
void split_geofac_n2s(const Grid& grid, const Table& geofac_n2s, index_t horizontal_start,
                      index_t horizontal_end, Vector& geofac_n2s_c, Table& geofac_n2s_nbh);

/// One diffusion step (§3.0, S0–S11) on a single node (halo exchanges X1–X6 are no-ops):
/// updates state.vn, w, theta_v, exner, div_ic, hdef_ic, dwdx, dwdy in place, only inside the
/// regions of §3.11. Work arrays start at zero (Addendum 9). `work`, if given, receives the
/// derived parameters and the final work arrays.
void run_diffusion_reference(const Grid& grid, const GranuleConfig& config,
                             const GranuleInputs& inputs, GranuleState& state, double dtime,
                             bool initial_run, GranuleWork* work = nullptr);

}  // namespace icondiff::reference
