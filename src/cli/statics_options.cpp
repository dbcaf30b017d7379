#include "statics_options.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <cmath>

namespace icondiff::cli {

void check_vertical_options(const StaticsOptions& o) {
  const auto within = [](const char* option, double value, double min, double max,
                         const char* why) {
    if (!(value >= min && value <= max))
      throw InvalidArgument(
          fmt::format("--{} {}: expected {} .. {}{}", option, value, min, max, why));
  };
  // ICON's operational grids have 65-150 levels; beyond a few hundred the SLEVE coordinate breaks
  // down between the flat height and the model top (measured: 1000 levels fail).
  if (o.nlev < 2 || o.nlev > 500)
    throw InvalidArgument(fmt::format(
        "--nlev {}: expected at least 2 levels and at most 500 (ICON's grids have 65 to 150)",
        o.nlev));
  // UA-ICON's model top is at 150 km; above about 200 km the JW state has no defined value.
  within("top_height", o.top_height, 1000, 200000, " m (the model top)");
  within("min_lay_thckn", o.min_lay_thckn, 0, o.top_height / o.nlev,
         " m (0: equidistant levels; nlev layers of it must fit below --top_height)");
  within("damp_height", o.damp_height, 0, 1e6, " m");
  within("thslp_zdiffu", o.thslp_zdiffu, 0, 1e3, " (a slope)");
  within("thhgtd_zdiffu", o.thhgtd_zdiffu, 0, 1e5, " m");
  // Higher than any mountain on Earth (8.8 km) and below the flat levels.
  within("mount_height", o.mount_height, 0, 10000, " m (0: flat)");
  within("mount_half_width", o.mount_half_width, 1, 2.1e7,
         " m (up to half the Earth's circumference)");
  within("mount_lon", o.mount_lon, -360, 360, " degrees");
  within("mount_lat", o.mount_lat, -90, 90, " degrees");
}

void add_vertical_options(CLI::App& app, StaticsOptions& o) {
  const std::string group = "Vertical grid and topography";
  const auto add = [&](const char* name, auto& value, const char* help) {
    app.add_option(name, value, help)->group(group)->capture_default_str();
  };
  add("--nlev", o.nlev, "run_nml:num_lev: number of full levels");
  add("--top_height", o.top_height, "sleve_nml: model top (m)");
  add("--min_lay_thckn", o.min_lay_thckn, "sleve_nml: lowest layer thickness (m)");
  add("--stretch_fac", o.stretch_fac, "sleve_nml");
  add("--damp_height", o.damp_height, "nonhydrostatic_nml: Rayleigh damping height (m)");
  add("--thslp_zdiffu", o.thslp_zdiffu, "nonhydrostatic_nml");
  add("--thhgtd_zdiffu", o.thhgtd_zdiffu, "nonhydrostatic_nml (m)");
  add("--mount_height", o.mount_height, "Gaussian hill height (m); 0 = flat");
  add("--mount_half_width", o.mount_half_width, "Gaussian hill e-folding width (m)");
  add("--mount_lon", o.mount_lon, "hill centre longitude (degrees)");
  add("--mount_lat", o.mount_lat, "hill centre latitude (degrees)");
  app.add_option("--topography", o.topography,
                 "hill: the Gaussian hill of --mount_* (flat with --mount_height 0); jabw: "
                 "Jablonowski-Williamson's surface (default of the dynamics run)")
      ->check(CLI::IsMember({"hill", "jabw"}))
      ->group(group)
      ->capture_default_str();
}

void add_dycore_metric_options(CLI::App& app, StaticsOptions& o) {
  const std::string group = "Dycore metric fields (ICON nonhydrostatic_nml names)";
  const auto add = [&](const char* name, auto& value, const char* help) {
    app.add_option(name, value, help)->group(group)->capture_default_str();
  };
  MetricsConfig& m = o.dycore_metrics;
  add("--exner_expol", m.exner_expol,
      "temporal extrapolation of the Exner pressure (fraction of dt)");
  add("--vwind_offctr", m.vwind_offctr, "off-centring of the vertically implicit w solver");
  add("--rayleigh_coeff", m.rayleigh_coeff, "Rayleigh damping coefficient of w (s-1; Klemp)");
  add("--divdamp_type", m.divdamp_type, "3: 3-D divergence damping; 32: 3-D to 2-D with height");
  add("--divdamp_trans_start", m.divdamp_trans_start, "divdamp_type 32: transition start (m)");
  add("--divdamp_trans_end", m.divdamp_trans_end, "divdamp_type 32: transition end (m)");
  add("--htop_moist_proc", o.htop_moist_proc, "height above which moist physics is off (m)");
}

StaticsSetupConfig statics_setup_config(const StaticsOptions& o) {
  StaticsSetupConfig setup;
  setup.vertical = mch_ch_r04b09_vertical_config();
  setup.vertical.num_levels = o.nlev;
  setup.vertical.model_top_height = o.top_height;
  setup.vertical.lowest_layer_thickness = o.min_lay_thckn;
  setup.vertical.stretch_factor = o.stretch_fac;
  setup.vertical.rayleigh_damping_height = o.damp_height;
  setup.vertical.htop_moist_proc = o.htop_moist_proc;
  setup.metrics = o.dycore_metrics;
  setup.metrics.thslp_zdiffu = o.thslp_zdiffu;
  setup.metrics.thhgtd_zdiffu = o.thhgtd_zdiffu;
  setup.metrics.topography = o.topography == "jabw" ? TopographyConfig::jablonowski_williamson()
                             : o.mount_height > 0
                                 ? TopographyConfig::gaussian_hill(
                                       o.mount_height, o.mount_half_width, o.mount_lon, o.mount_lat)
                                 : TopographyConfig::flat();
  return setup;
}

}  // namespace icondiff::cli
