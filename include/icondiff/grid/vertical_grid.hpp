// What the diffusion granule needs of the vertical grid (diffusion_spec.md §1.2, §4.6), and the
// factory that builds it from ICON's namelist parameters as ICON and ICON4Py do
// (ICON mo_init_vgrid.f90 init_sleve_coord / prepare_sleve_coord; ICON4Py
// model/common/src/icon4py/model/common/grid/vertical.py). Formulas: docs/dev/metrics.md.
#pragma once

#include <array>
#include <vector>

namespace icondiff {

struct VerticalGrid {
  /// Nominal interface heights in metres, nlev + 1 values, decreasing: vct_a[0] is the model top.
  std::vector<double> vct_a;
  /// nrd: the largest half level kh with vct_a[kh] >= the Rayleigh damping height (0 if none);
  /// ICON's nrdmax = nrd + 1. Diffusion damps w on the half levels 1..nrd.
  int end_index_of_damping_layer = 0;

  int num_levels() const { return static_cast<int>(vct_a.size()) - 1; }

  /// Throws ConfigError unless vct_a has at least 2 finite, strictly decreasing values and
  /// 0 <= nrd <= nlev - 1 (diff_multfac_n2w reads vct_a[nrd + 1]).
  void validate() const;
};

/// A factor per full level k that is f[0] up to height z[0], linear to f[1] at z[1], and
/// quadratic above through f[2] at z[2] and f[3] at z[3], evaluated at the level's nominal height
/// (vct_a[k] + vct_a[k + 1]) / 2: ICON4Py's math/smagorinsky.en_smag_fac_for_zero_nshift, which
/// gives the diffusion's Smagorinsky factor (ICON's enh_smag_fac, from hdiff_smag_fac*/z*) and
/// solve_nh's fourth-order divergence damping factor (enh_divdamp_fac, from divdamp_fac*/z*).
/// The operations are ICON4Py's, in its order, so the values are bit-identical.
std::vector<double> en_smag_fac_for_zero_nshift(const std::vector<double>& vct_a,
                                                const std::array<double, 4>& factors,
                                                const std::array<double, 4>& heights);

/// nrd for a damping height (ICON4Py VerticalGrid.end_index_of_damping_layer).
int end_index_of_damping_layer(const std::vector<double>& vct_a, double rayleigh_damping_height);

/// The parameters of ICON's analytic vertical coordinate (ICON4Py VerticalGridConfig), with the
/// ICON namelist variable beside each. Defaults are ICON's namelist defaults (= ICON4Py's), except
/// num_levels, which has none and must be set.
struct VerticalGridConfig {
  /// run_nml:num_lev: number of full levels (nlev >= 2).
  int num_levels = 0;
  /// sleve_nml:top_height: model top (m), the nominal height of half level 0.
  double model_top_height = 23500.0;
  /// sleve_nml:min_lay_thckn: thickness of the lowest layer (m). <= 0.01 selects ICON's
  /// equidistant levels, vct_a[k] = top · (nlev − k) / nlev.
  double lowest_layer_thickness = 50.0;
  /// sleve_nml:max_lay_thckn: maximal layer thickness below top_height_limit_for_maximal_
  /// layer_thickness (m). ICON applies this limiter only if
  /// 2 · min_lay_thckn < max_lay_thckn < 0.5 · htop_thcknlimit, which the defaults do not meet.
  double maximal_layer_thickness = 25000.0;
  /// sleve_nml:htop_thcknlimit: height below which layers are at most max_lay_thckn thick (m).
  double top_height_limit_for_maximal_layer_thickness = 15000.0;
  /// sleve_nml:stretch_fac: < 1 gives thinner layers near the top, > 1 thicker (ICON's
  /// arccos(k^s / nlev^s) distribution).
  double stretch_factor = 1.0;
  /// sleve_nml:flat_height: height above which coordinate surfaces are flat (m); gives nflatlev.
  double flat_height = 16000.0;
  /// nonhydrostatic_nml:damp_height: Rayleigh damping starts here (m); gives nrd.
  double rayleigh_damping_height = 45000.0;
  /// sleve_nml:decay_scale_1: SLEVE decay scale of the large-scale (smoothed) topography (m).
  double sleve_decay_scale_1 = 4000.0;
  /// sleve_nml:decay_scale_2: SLEVE decay scale of the small-scale topography (m).
  double sleve_decay_scale_2 = 2500.0;
  /// sleve_nml:decay_exp: exponent of the SLEVE decay function.
  double sleve_decay_exponent = 1.2;
  /// nonhydrostatic_nml:htop_moist_proc: height (m) above which moist physics and the advection
  /// of cloud and precipitation are off; gives kstart_moist.
  double htop_moist_proc = 22500.0;

  /// Throws ConfigError naming the field, its ICON namelist name, the value and what is allowed.
  void validate() const;
};

/// ICON4Py's MCH_CH_R04B09 experiment (diffusion_spec §5.2; 65 levels, top 23000 m, lowest layer
/// 20 m, stretch 0.65, damping height 12500 m, other parameters ICON defaults).
VerticalGridConfig mch_ch_r04b09_vertical_config();
/// ICON4Py's EXCLAIM_APE experiment (60 levels, top 75000 m, lowest layer 50 m, stretch 0.9,
/// damping height 50000 m).
VerticalGridConfig exclaim_ape_vertical_config();
/// ICON4Py's diffusion benchmark (test_benchmark_diffusion.py: 80 levels by default, top 23500 m,
/// lowest layer 50 m, stretch 1.0, damping height 1 m, so nrd = nlev − 1).
VerticalGridConfig icon4py_benchmark_vertical_config(int num_levels = 80);

/// vct_a (nlev + 1 interface heights, top first) from ICON's analytic formula
/// (mo_init_vgrid.init_sleve_coord with itype_laydistr = 1; ICON4Py vertical._compute_vct_a_and_
/// vct_b), including the max_lay_thckn limiter and its smoothing. vct_a[0] = top_height, except
/// where the limiter leaves no layer to stretch: then ICON resets the top (ICON4Py warns), and so
/// do we. Validates `config`; throws ConfigError if the result is not strictly decreasing.
std::vector<double> compute_vct_a(const VerticalGridConfig& config);

/// nflatlev: the largest half level kh with vct_a[kh] >= flat_height, 0 if flat_height lies
/// above vct_a[0] (ICON4Py VerticalGrid._determine_end_index_of_flat_layers; ICON's 1-based
/// nflatlev minus 1). Half levels 0..nflatlev are flat in the SLEVE coordinate.
int end_index_of_flat_layer(const std::vector<double>& vct_a, double flat_height);

/// kstart_moist: the first full level (0-based) whose nominal height 0.5 (vct_a[k] + vct_a[k+1])
/// lies below htop_moist_proc (ICON4Py VerticalGrid._determine_start_level_of_moist_physics);
/// nlev if none does.
int start_index_of_moist_physics(const std::vector<double>& vct_a, double htop_moist_proc);

/// The vertical grid of `config`: vct_a = compute_vct_a(config) and nrd =
/// end_index_of_damping_layer(vct_a, rayleigh_damping_height). Throws ConfigError if `config` is
/// invalid or nrd would exceed nlev − 1 (VerticalGrid::validate).
VerticalGrid make_vertical_grid(const VerticalGridConfig& config);

}  // namespace icondiff
