// Metric fields of ICON's dynamical core (solve_nh) beyond the diffusion's, built on the host from
// the diffusion's metric fields (HostMetricFields: z_ifc, z_mc, topography, wgtfac_c, ddxn_z_full,
// maxslp, maxhgtd), the grid and its interpolation coefficients, as ICON4Py 0.2.0's metrics
// factory builds them (model/common/src/icon4py/model/common/metrics/{metrics_factory.py,
// metric_fields.py, reference_atmosphere.py, compute_weight_factors.py, compute_zdiff_gradp.py})
// and ICON's mo_vertical_grid.f90 (set_nh_metrics) does.
//
// Every (point, level) field is a row-major HostTable (points, nlev) or (points, nlev + 1) with
// k = 0 the model top; (edge, E2C slot, level) fields are two (E, nlev) tables, one per slot.
// Points a factory of ICON4Py does not compute (its horizontal start, e.g. lateral boundary row 2
// for the edge reference atmosphere) hold 0, as ICON4Py's allocation does; where ICON4Py reads a
// missing neighbour through the -1 of a table (numpy wrap-around) with a zero weight, icondiff
// skips the neighbour: the same value. Formulas, sources and domains per field:
// docs/dev/metrics.md, "Dycore metric fields".
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/geometry/metric_fields.hpp>
#include <icondiff/grid/grid.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace icondiff {

/// Every metric field of ICON4Py 0.2.0's solve_nh_init that the diffusion's HostMetricFields does
/// not already hold, plus the intermediate fields they derive from (for checks and output).
struct HostDycoreMetricFields {
  /// 0-based level below which every edge's levels are flat enough for the plain pressure
  /// gradient (ICON4Py NFLAT_GRADP; ICON nflat_gradp - 1): the minimum of flat_idx_max over the
  /// owned edges from lateral boundary row 2.
  int nflat_gradp = 0;
  /// (E) the lowest level whose edge height z_me lies inside both neighbour cells' layer k
  /// (ICON4Py FLAT_IDX_MAX; 0 where none, and before lateral boundary row 2).
  std::vector<int> flat_idx_max;

  HostTable<double> ddqz_z_half;      ///< (C, nlev+1) distance between the full levels around kh
  HostTable<double> ddqz_z_full;      ///< (C, nlev) layer thickness z_ifc[k] - z_ifc[k+1]
  HostTable<double> inv_ddqz_z_full;  ///< (C, nlev) its inverse
  HostTable<double> ddqz_z_full_e;    ///< (E, nlev) layer thickness at edges (c_lin_e)
  HostTable<double> coeff1_dwdz, coeff2_dwdz;  ///< (C, nlev) second-order dw/dz; level 0 unused
  HostTable<double> exner_ref_mc, rho_ref_mc;  ///< (C, nlev) reference atmosphere (cells)
  HostTable<double> theta_ref_ic;              ///< (C, nlev+1) reference θ at half levels
  HostTable<double> d_exner_dz_ref_ic;         ///< (C, nlev+1) its dExner/dz = -g / (cpd θ)
  HostTable<double> d2dexdz2_fac1_mc, d2dexdz2_fac2_mc;  ///< (C, nlev) ICON's d2dexdz2_fac*_mc
  HostTable<double> rho_ref_me, theta_ref_me;  ///< (E, nlev) reference atmosphere at edges
  HostTable<double> ddxn_z_half_e;             ///< (E, nlev+1) normal slope of the half levels
  HostTable<double> ddxt_z_half_e;             ///< (E, nlev+1) tangential slope of the half levels
  HostTable<double> ddxt_z_full;               ///< (E, nlev) tangential slope of the full levels
  HostTable<double> exner_exfac;               ///< (C, nlev) Exner extrapolation factor
  std::vector<double> vwind_impl_wgt, vwind_expl_wgt;  ///< (C) w-solver off-centring weights
  HostTable<double> wgtfac_e;                          ///< (E, nlev+1) wgtfac_c at edges (c_lin_e)
  HostTable<double> wgtfacq_c;  ///< (C, nlev) surface extrapolation weights, levels nlev-3..nlev-1
  HostTable<double> wgtfacq_e;  ///< (E, nlev) the same at edges
  HostTable<double> pg_exdist;  ///< (E, nlev) hydrostatic-correction distance (0: none)
  std::array<HostTable<double>, 2> zdiff_gradp;    ///< [E2C slot] (E, nlev) height differences
  std::array<HostTable<int>, 2> vertoffset_gradp;  ///< [E2C slot] (E, nlev) level offsets
  std::vector<double> hmask_dd3d;    ///< (E) horizontal mask of the 3-D divergence damping
  std::vector<double> rayleigh_w;    ///< (nlev+1) Klemp's Rayleigh damping coefficient of w
  std::vector<double> scalfac_dd3d;  ///< (nlev) vertical profile of the 3-D divergence damping
  std::vector<std::uint8_t> mask_prog_halo_c;  ///< (C) 1: a halo cell that is prognostic
  std::vector<std::uint8_t> c_owner_mask;      ///< (C) 1: owned by this rank
};

// ---- Everything at once -------------------------------------------------------------------------

/// Computes every field of HostDycoreMetricFields from the diffusion's metric fields `base` (of
/// the same grid and `vertical`), the cell-to-edge weights c_lin_e (E, 2) and the cell-to-vertex
/// weights c_intp (V, 6). Validates `config` (ConfigError); throws InvalidArgument when a table
/// does not fit the grid, GridError when an edge from lateral boundary row 2 lacks a cell.
HostDycoreMetricFields compute_dycore_metric_fields(const Grid& grid,
                                                    const VerticalGridConfig& vertical,
                                                    const MetricsConfig& config,
                                                    const HostMetricFields& base,
                                                    const HostTable<double>& c_lin_e,
                                                    const HostTable<double>& c_intp);

// ---- The factories one by one (each as ICON4Py's function of the same name) ---------------------

/// ddqz_z_half (C, nlev+1): 2 (z_ifc - z_mc) at kh = 0, z_mc[kh-1] - z_mc[kh] inside,
/// 2 (z_mc[nlev-1] - z_ifc[nlev]) at the surface (metric_fields.compute_ddqz_z_half).
HostTable<double> compute_ddqz_z_half(const HostTable<double>& z_ifc,
                                      const HostTable<double>& z_mc);

/// ddqz_z_full = z_ifc[k] - z_ifc[k+1] and its inverse (compute_ddqz_z_full_and_inverse).
void compute_ddqz_z_full_and_inverse(const HostTable<double>& z_ifc, HostTable<double>& ddqz_z_full,
                                     HostTable<double>& inv_ddqz_z_full);

/// (E, ncols) Σ over E2C of cell_field(E2C) · c_lin_e on every edge (cell_2_edge_interpolation;
/// a missing cell is skipped).
HostTable<double> interpolate_cells_to_edges(const Grid& grid, const HostTable<double>& cell_field,
                                             const HostTable<double>& c_lin_e);

/// coeff1_dwdz, coeff2_dwdz (C, nlev) on levels 1..nlev-1, 0 on level 0 (compute_coeff_dwdz).
void compute_coeff_dwdz(const HostTable<double>& ddqz_z_full, const HostTable<double>& z_ifc,
                        HostTable<double>& coeff1_dwdz, HostTable<double>& coeff2_dwdz);

/// ICON's reference atmosphere on cells at z_mc: exner_ref_mc, rho_ref_mc (θ is
/// compute_theta_ref_mc, the same evaluation) (reference_atmosphere.compute_reference_atmosphere_
/// cell_fields).
void compute_reference_atmosphere_cells(const HostTable<double>& z_mc,
                                        HostTable<double>& exner_ref_mc,
                                        HostTable<double>& rho_ref_mc);

/// theta_ref_ic and d_exner_dz_ref_ic at z_ifc (compute_theta_d_exner_dz_ref_ic).
void compute_theta_d_exner_dz_ref_ic(const HostTable<double>& z_ifc,
                                     HostTable<double>& theta_ref_ic,
                                     HostTable<double>& d_exner_dz_ref_ic);

/// d2dexdz2_fac1_mc, d2dexdz2_fac2_mc (compute_d2dexdz2_fac_mc).
void compute_d2dexdz2_fac_mc(const HostTable<double>& theta_ref_mc,
                             const HostTable<double>& inv_ddqz_z_full,
                             const HostTable<double>& exner_ref_mc, const HostTable<double>& z_mc,
                             HostTable<double>& fac1, HostTable<double>& fac2);

/// rho_ref_me, theta_ref_me (E, nlev) at the edge height Σ c_lin_e z_mc, on edges from lateral
/// boundary row 2 (compute_reference_atmosphere_edge_fields).
void compute_reference_atmosphere_edges(const Grid& grid, const HostTable<double>& z_mc,
                                        const HostTable<double>& c_lin_e,
                                        HostTable<double>& rho_ref_me,
                                        HostTable<double>& theta_ref_me);

/// ddxn_z_half_e (E, nlev+1): (z_ifc[E2C[1]] - z_ifc[E2C[0]]) / dual_edge_length on edges
/// [start of lateral boundary row 2, end of INTERIOR) (compute_ddxn_z_half_e).
HostTable<double> compute_ddxn_z_half_e(const Grid& grid, const HostTable<double>& z_ifc);

/// ddxt_z_half_e (E, nlev+1): tangent_orientation · (z_v[E2V[1]] - z_v[E2V[0]]) /
/// edge_length with z_v = Σ over V2C of c_intp · z_ifc, on edges [start of lateral boundary row 3,
/// end of INTERIOR) (compute_ddxt_z_half_e).
HostTable<double> compute_ddxt_z_half_e(const Grid& grid, const HostTable<double>& z_ifc,
                                        const HostTable<double>& c_intp);

/// (E, nlev) 0.5 · (half[k] + half[k+1]) on edges from `start`, 0 before
/// (average_two_vertical_levels_downwards_on_edges).
HostTable<double> average_half_levels_on_edges(const HostTable<double>& half, index_t start);

/// exner_exfac (C, nlev) from the (not averaged) maxslp, maxhgtd (compute_exner_exfac).
HostTable<double> compute_exner_exfac(const Grid& grid, const HostTable<double>& maxslp,
                                      const HostTable<double>& maxhgtd, double exner_expol);

/// vwind_impl_wgt (C) (metric_fields.compute_exner_w_implicit_weight_parameter); the explicit
/// weight is 1 minus it.
std::vector<double> compute_vwind_impl_wgt(const Grid& grid, const std::vector<double>& vct_a,
                                           const HostTable<double>& z_ifc,
                                           const HostTable<double>& ddxn_z_half_e,
                                           const HostTable<double>& ddxt_z_half_e,
                                           double vwind_offctr);

/// wgtfacq_c (C, nlev), levels nlev-3..nlev-1 (compute_weight_factors.compute_wgtfacq_c_dsl):
/// weights of levels nlev-1, nlev-2, nlev-3 in the quadratic extrapolation to the surface.
HostTable<double> compute_wgtfacq_c(const HostTable<double>& z_ifc);

/// wgtfacq_e (E, nlev), levels nlev-3..nlev-1 (compute_wgtfacq_e_dsl).
HostTable<double> compute_wgtfacq_e(const Grid& grid, const HostTable<double>& z_ifc,
                                    const HostTable<double>& wgtfacq_c,
                                    const HostTable<double>& c_lin_e);

/// flat_idx_max (E) (metric_fields.compute_flat_max_idx) on edges from lateral boundary row 2.
std::vector<int> compute_flat_idx_max(const Grid& grid, const HostTable<double>& z_mc,
                                      const HostTable<double>& z_ifc,
                                      const HostTable<double>& c_lin_e);

/// nflat_gradp: the minimum of flat_idx_max over the owned edges from lateral boundary row 2,
/// nlev if there is none (compute_nflat_gradp; single rank: no global reduction).
int compute_nflat_gradp(const Grid& grid, const std::vector<int>& flat_idx_max, int nlev);

/// pg_exdist (E, nlev), dense (compute_pressure_gradient_downward_extrapolation_mask_distance).
HostTable<double> compute_pg_exdist(const Grid& grid, const HostTable<double>& z_mc,
                                    const HostTable<double>& c_lin_e,
                                    const std::vector<double>& topography,
                                    const std::vector<int>& flat_idx_max);

/// zdiff_gradp and vertoffset_gradp per E2C slot (compute_zdiff_gradp.compute_zdiff_gradp).
void compute_zdiff_gradp(const Grid& grid, const HostTable<double>& z_mc,
                         const HostTable<double>& z_ifc, const HostTable<double>& c_lin_e,
                         const std::vector<double>& topography,
                         const std::vector<int>& flat_idx_max,
                         std::array<HostTable<double>, 2>& zdiff_gradp,
                         std::array<HostTable<int>, 2>& vertoffset_gradp);

/// hmask_dd3d (E) from the edges' refin_ctrl (compute_horizontal_mask_for_3d_divdamp).
std::vector<double> compute_hmask_dd3d(const Grid& grid);

/// rayleigh_w (nlev+1): Klemp's damping coefficient on half levels 0..nrd, 0 below
/// (compute_rayleigh_w, rayleigh_type 2).
std::vector<double> compute_rayleigh_w(const VerticalGrid& vertical, double damping_height,
                                       double rayleigh_coeff);

/// scalfac_dd3d (nlev): 1, or with divdamp_type 32 the transition from 3-D to 2-D damping
/// between divdamp_trans_start and divdamp_trans_end (ICON's mo_vertical_grid).
std::vector<double> compute_scalfac_dd3d(const std::vector<double>& vct_a,
                                         const MetricsConfig& config);

/// mask_prog_halo_c (C): halo cells whose refin_ctrl is not in [1, 4] (compute_mask_prog_halo_c).
std::vector<std::uint8_t> compute_mask_prog_halo_c(const Grid& grid);

}  // namespace icondiff
