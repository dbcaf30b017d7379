// Metric fields of the diffusion granule (diffusion_spec.md §2.5, §2.6, §4.3), built on the host
// from a horizontal grid, a vertical grid configuration and a topography, as ICON4Py's metrics
// factory builds them (model/common/src/icon4py/model/common/metrics/{metrics_factory.py,
// metric_fields.py, compute_weight_factors.py, reference_atmosphere.py,
// compute_diffusion_metrics.py}, grid/vertical.py, topography/) and ICON's mo_vertical_grid.f90 /
// mo_init_vgrid.f90 do.
//
// Every (cell, level) field is a row-major HostTable (C, nlev) or (C, nlev + 1) with k = 0 the
// model top; (edge, level) fields are (E, nlev). The (C, 3, nlev) zd fields are three (C, nlev)
// tables, one per C2E2C slot. Single node: every cell is owned (ICON4Py's c_owner_mask all true).
// Formulas, sources and ranges per field: docs/dev/metrics.md.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <array>
#include <string>
#include <vector>

namespace icondiff {

/// An analytic surface height at the cell centres. ICON reads real topography from external
/// parameter files (run_nml:ltestcase = .false.); test cases define it analytically
/// (nh_testcase_nml). The names beside the fields are the closest ICON namelist variables.
struct TopographyConfig {
  enum class Shape {
    Flat,          ///< h = 0 (aquaplanet; ICON4Py FlatTopographyConfig)
    GaussianHill,  ///< h = h0 · exp(−(d/a)²) (ICON4Py GaussianHillConfig, ICON gauss3D / mrw)
    SchaerMountain,  ///< h = h0 · exp(−(d/a)²) · cos²(π d/λ) (Schär et al. 2002; ICON's DCMIP 2-1)
    /// Jablonowski and Williamson (2006)'s surface geopotential over g (their eq. 7 at η = 1 with
    /// u0 = 35 m/s, η0 = 0.252; ICON's init_nh_topo_jabw): the surface on which the balanced
    /// JW state has p_s = 1000 hPa everywhere. A function of latitude only, -317 m at the poles,
    /// 113 m at the equator.
    JablonowskiWilliamson,
  };
  Shape shape = Shape::Flat;
  /// h0, peak height (m). nh_testcase_nml:mount_height (gauss3D), mount_height_mrw (mrw).
  double height = 0.0;
  /// a, e-folding distance of the Gaussian envelope (m). nh_testcase_nml:mount_width (gauss3D),
  /// mount_half_width (mrw, bell).
  double half_width = 0.0;
  /// λ, wavelength of the Schär ripples (m); Schär mountain only.
  double wavelength = 0.0;
  /// Centre (degrees). nh_testcase_nml:mount_lonctr_mrw_deg, mount_latctr_mrw_deg.
  double centre_lon_deg = 0.0;
  double centre_lat_deg = 0.0;

  static TopographyConfig flat() { return {}; }
  static TopographyConfig gaussian_hill(double height, double half_width, double centre_lon_deg,
                                        double centre_lat_deg);
  static TopographyConfig schaer_mountain(double height, double half_width, double wavelength,
                                          double centre_lon_deg, double centre_lat_deg);
  static TopographyConfig jablonowski_williamson() {
    TopographyConfig c;
    c.shape = Shape::JablonowskiWilliamson;
    return c;
  }

  /// Throws ConfigError naming the field and what is allowed.
  void validate() const;
};

/// The part of ICON4Py's MetricsConfig (metrics_factory.py) the diffusion metrics depend on, plus
/// the topography.
struct MetricsConfig {
  /// nonhydrostatic_nml:thslp_zdiffu: slope threshold above which truly horizontal temperature
  /// diffusion is switched on.
  double thslp_zdiffu = 0.025;
  /// nonhydrostatic_nml:thhgtd_zdiffu: height-difference threshold (m) between neighbouring cells,
  /// the alternative criterion.
  double thhgtd_zdiffu = 200.0;
  /// The surface height (default flat).
  TopographyConfig topography;

  // ---- The dycore's metric fields (geometry/dycore_metric_fields.hpp); ICON4Py's defaults.
  /// nonhydrostatic_nml:exner_expol: temporal extrapolation of the Exner pressure (fraction of
  /// dt) in the horizontal pressure gradient; exner_exfac reduces it over steep slopes.
  double exner_expol = 1.0 / 3.0;
  /// nonhydrostatic_nml:vwind_offctr: off-centring of the vertically implicit w solver (>= 0);
  /// vwind_impl_wgt = 0.5 + at least this.
  double vwind_offctr = 0.15;
  /// nonhydrostatic_nml:rayleigh_type: only 2 (Klemp 2008), as in ICON4Py 0.2.0.
  int rayleigh_type = 2;
  /// nonhydrostatic_nml:rayleigh_coeff: Rayleigh damping coefficient 1/τ0 of w (s-1).
  double rayleigh_coeff = 0.05;
  /// nonhydrostatic_nml:divdamp_type: 3 (3-D divergence damping everywhere) or 32 (3-D below
  /// divdamp_trans_start, 2-D above divdamp_trans_end); ICON's 2 is not supported by ICON4Py.
  int divdamp_type = 3;
  /// nonhydrostatic_nml:divdamp_trans_start / _end (m): the transition zone of divdamp_type 32.
  double divdamp_trans_start = 12500.0;
  double divdamp_trans_end = 17500.0;

  /// Throws ConfigError naming the field, its ICON namelist name, the value and what is allowed.
  void validate() const;
};

/// ICON4Py's MCH_CH_R04B09 metrics parameters (thslp_zdiffu 0.02, thhgtd_zdiffu 125). The real
/// Alpine topography of that experiment is not available here: the topography is flat, set
/// `topography` to an analytic mountain to exercise the zd fields.
MetricsConfig mch_ch_r04b09_metrics_config();
/// ICON4Py's EXCLAIM_APE metrics parameters (thslp_zdiffu 0.02, thhgtd_zdiffu 125; aquaplanet).
MetricsConfig exclaim_ape_metrics_config();
/// The ICON4Py diffusion benchmark: MetricsConfig defaults (0.025, 200), flat topography.
MetricsConfig icon4py_benchmark_metrics_config();

/// Every metric field, plus the intermediate fields the zd_* computation derives (for checks).
struct HostMetricFields {
  VerticalGrid vertical;  ///< vct_a and nrd (make_vertical_grid)
  int nflatlev = 0;       ///< end_index_of_flat_layer(vct_a, flat_height)

  std::vector<double> topography;           ///< (C) surface height (m)
  std::vector<double> smoothed_topography;  ///< (C) SLEVE's large-scale part (m)
  HostTable<double> z_ifc;                  ///< (C, nlev+1) half-level heights (m)
  HostTable<double> z_mc;                   ///< (C, nlev) full-level heights (m)
  HostTable<double> wgtfac_c;               ///< (C, nlev+1) vertical interpolation weights
  HostTable<double> theta_ref_mc;           ///< (C, nlev) reference potential temperature (K)

  HostTable<double> ddxn_z_full;              ///< (E, nlev) normal slope of the full levels
  HostTable<double> maxslp, maxhgtd;          ///< (C, nlev) max over C2E of |slope|, |height step|
  HostTable<double> maxslp_avg, maxhgtd_avg;  ///< (C, nlev) averaged with c_bln_avg
  std::vector<double> max_nbhgt;              ///< (C) max of the neighbours' lowest z_mc

  HostTable<double> zd_diffcoef;                ///< (C, nlev); 0 = no truly horizontal diffusion
  std::array<HostTable<double>, 3> zd_intcoef;  ///< [C2E2C slot] (C, nlev)
  std::array<HostTable<int>, 3> zd_vertoffset;  ///< [C2E2C slot] (C, nlev), relative to k

  int num_levels() const { return vertical.num_levels(); }
};

// ---- Everything at once -------------------------------------------------------------------------

/// Computes every field from the grid alone: vct_a from `vertical` (make_vertical_grid), the
/// topography from `config.topography`, geofac_n2s and c_bln_avg (divavg_cntrwgt 0.5) with the
/// interpolation factories. Validates both configurations (ConfigError); throws GridError if the
/// grid lacks a field the factories read, ConfigError if the SLEVE levels cannot be built.
HostMetricFields compute_metric_fields(const Grid& grid, const VerticalGridConfig& vertical,
                                       const MetricsConfig& config);

/// The same with a given topography (C values; `config.topography` is ignored) and given
/// interpolation coefficients (e.g. InterpolationCoefficients::geofac_n2s and c_bln_avg, so that
/// c_bln_avg's 1000 sweeps are not repeated).
HostMetricFields compute_metric_fields(const Grid& grid, const VerticalGridConfig& vertical,
                                       const MetricsConfig& config,
                                       const std::vector<double>& topography,
                                       const HostTable<double>& geofac_n2s,
                                       const HostTable<double>& c_bln_avg);

// ---- The factories one by one -------------------------------------------------------------------

/// (C) the analytic topography at the cell centres; d = great-circle distance (m) on the grid's
/// sphere from the centre. Validates `config`.
std::vector<double> compute_topography(const Grid& grid, const TopographyConfig& config);

/// (C) ICON4Py's topography smoothing for SLEVE (topography/smoothing.py): `iterations` Jacobi
/// steps h ← h + 0.125 · A_c · Σ_i geofac_n2s[c,i] h[C2E2CO[c,i]].
std::vector<double> smooth_topography(const Grid& grid, const std::vector<double>& topography,
                                      const HostTable<double>& geofac_n2s, int iterations = 25);

/// (C, nlev+1) half-level heights in the SLEVE coordinate (ICON mo_init_vgrid.init_vert_coord,
/// ivctype 2; ICON4Py vertical.compute_vertical_coordinate), including ICON's minimum layer
/// thickness limiter and its smoothing. `vct_a` from compute_vct_a(vertical). Throws ConfigError
/// when ICON would stop ("flat_height in sleve_nml or model top is too low").
HostTable<double> compute_z_ifc(const Grid& grid, const VerticalGridConfig& vertical,
                                const std::vector<double>& vct_a,
                                const std::vector<double>& topography,
                                const HostTable<double>& geofac_n2s,
                                std::vector<double>* smoothed_topography = nullptr);

/// (C, nlev) z_mc = (z_ifc[k] + z_ifc[k+1]) / 2 (vertical_operations.average_two_vertical_levels_
/// downwards_on_cells).
HostTable<double> compute_z_mc(const HostTable<double>& z_ifc);

/// (C, nlev+1) wgtfac_c (compute_weight_factors._compute_wgtfac_c): for 1 <= kh <= nlev−1
/// (z[kh−1] − z[kh]) / (z[kh−1] − z[kh+1]); at kh = 0 (z[1] − z[0]) / (z[2] − z[0]); at kh = nlev
/// (z[nlev−1] − z[nlev]) / (z[nlev−2] − z[nlev]), with z = z_ifc.
HostTable<double> compute_wgtfac_c(const HostTable<double>& z_ifc);

/// (C, nlev) ICON's reference atmosphere θ at z_mc (reference_atmosphere.compute_reference_
/// atmosphere_cell_fields; ICON mo_vertical_grid.set_nh_metrics).
HostTable<double> compute_theta_ref_mc(const HostTable<double>& z_mc);

/// (E, nlev) the full-level normal slope: the half-level slopes (z_ifc[E2C[e,1]] −
/// z_ifc[E2C[e,0]]) · (1/dual_edge_length) on edges from boundary row 2 (0 before), averaged over
/// kh = k, k+1 (metric_fields.compute_ddxn_z_half_e,
/// average_two_vertical_levels_downwards_on_edges).
HostTable<double> compute_ddxn_z_full(const Grid& grid, const HostTable<double>& z_ifc);

/// (C, nlev) maxslp, maxhgtd (metric_fields.compute_maxslp_maxhgtd, all cells) and their
/// c_bln_avg averages over C2E2CO (compute_weighted_cell_neighbor_sum, cells from boundary row 2;
/// 0 before).
void compute_slope_measures(const Grid& grid, const HostTable<double>& ddxn_z_full,
                            const HostTable<double>& c_bln_avg, HostTable<double>& maxslp,
                            HostTable<double>& maxhgtd, HostTable<double>& maxslp_avg,
                            HostTable<double>& maxhgtd_avg);

/// (C) max over the existing C2E2C neighbours n of z_mc(n, nlev−1)
/// (compute_diffusion_metrics.compute_max_nbhgt_array_ns).
std::vector<double> compute_max_nbhgt(const Grid& grid, const HostTable<double>& z_mc);

/// zd_diffcoef, zd_intcoef, zd_vertoffset (diffusion_spec §2.5; compute_diffusion_metrics.
/// compute_diffusion_mask_and_coef, compute_diffusion_intcoef_and_vertoffset), every cell owned.
/// Writes the three fields of `out`.
void compute_zdiffu_fields(const Grid& grid, const HostTable<double>& z_mc,
                           const std::vector<double>& max_nbhgt,
                           const HostTable<double>& maxslp_avg,
                           const HostTable<double>& maxhgtd_avg, const MetricsConfig& config,
                           HostMetricFields& out);

}  // namespace icondiff
