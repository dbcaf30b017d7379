// The command-line options that fix a grid's static fields — vertical grid, topography and the
// metric options, under ICON's namelist names — described once for every command that builds
// them (`icondiff run`, `icondiff grid-info --statics`).
#pragma once

#include <icondiff/setup/static_fields_setup.hpp>

#include <CLI/CLI.hpp>

namespace icondiff::cli {

struct StaticsOptions {
  int nlev = 65;
  // sleve_nml / nonhydrostatic_nml / nh_testcase_nml; defaults: ICON4Py's MCH_CH_R04B09.
  double top_height = 23000.0;
  double min_lay_thckn = 20.0;
  double stretch_fac = 0.65;
  double damp_height = 12500.0;
  double thslp_zdiffu = 0.02;
  double thhgtd_zdiffu = 125.0;
  double mount_height = 4000.0;
  double mount_half_width = 200000.0;
  double mount_lon = 8.0;
  double mount_lat = 46.5;
  /// hill: the Gaussian hill of the mount_* options (flat with mount_height 0); jabw: JW06's
  /// surface geopotential / g, on which the JW state has p_s = 1000 hPa everywhere.
  std::string topography = "hill";
  // The dycore's metric options (only `grid-info --statics` offers them: `run` builds the
  // diffusion's fields only); defaults: ICON's and ICON4Py's.
  MetricsConfig dycore_metrics;
  double htop_moist_proc = 22500.0;
};

/// --nlev and the vertical grid and topography options, in the group "Vertical grid and
/// topography".
void add_vertical_options(CLI::App& app, StaticsOptions& o);

/// --exner_expol, --vwind_offctr, --rayleigh_coeff, --divdamp_type, --divdamp_trans_start,
/// --divdamp_trans_end, --htop_moist_proc, in the group "Dycore metric fields".
void add_dycore_metric_options(CLI::App& app, StaticsOptions& o);

/// Throws InvalidArgument naming the option and its allowed range when a vertical-grid or
/// topography option is implausible (NaN, a negative mountain, more levels than fit, a model top
/// where the vertical grid or the JW state break down), before any work: the factories would
/// otherwise fail late, blaming another option, or not at all.
void check_vertical_options(const StaticsOptions& o);

/// The factories' configuration from the options (not validated: the factories validate it and
/// name the field).
StaticsSetupConfig statics_setup_config(const StaticsOptions& o);

}  // namespace icondiff::cli
