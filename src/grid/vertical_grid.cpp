// The vertical grid factory: ICON's analytic vct_a (mo_init_vgrid.f90 init_sleve_coord,
// itype_laydistr = 1) as ICON4Py computes it (grid/vertical.py _compute_vct_a_and_vct_b), with
// ICON's 1-based indices translated to 0-based ones, and the checks and indices of VerticalGrid.
#include <icondiff/core/error.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace icondiff {

namespace {

constexpr double pi = 3.14159265358979323846;

[[noreturn]] void reject(const char* field, const char* namelist, const std::string& value,
                         const std::string& why) {
  throw ConfigError(
      fmt::format("vertical grid config: {} (ICON {}) = {}: {}", field, namelist, value, why));
}

void require_positive(double value, const char* field, const char* namelist) {
  if (!(std::isfinite(value) && value > 0.0))
    reject(field, namelist, fmt::format("{}", value), "expected a finite value > 0");
}

}  // namespace

void VerticalGridConfig::validate() const {
  if (num_levels < 2)
    reject("num_levels", "run_nml:num_lev", std::to_string(num_levels),
           "expected at least 2 full levels (wgtfac_c's top and bottom extrapolation and the zd "
           "neighbour search read two levels)");
  require_positive(model_top_height, "model_top_height", "sleve_nml:top_height");
  require_positive(htop_moist_proc, "htop_moist_proc", "nonhydrostatic_nml:htop_moist_proc");
  if (!(std::isfinite(lowest_layer_thickness) && lowest_layer_thickness >= 0.0))
    reject("lowest_layer_thickness", "sleve_nml:min_lay_thckn",
           fmt::format("{}", lowest_layer_thickness),
           "expected a finite value >= 0 (<= 0.01 selects equidistant levels)");
  if (lowest_layer_thickness > 0.01 && !(lowest_layer_thickness < model_top_height))
    reject("lowest_layer_thickness", "sleve_nml:min_lay_thckn",
           fmt::format("{}", lowest_layer_thickness),
           fmt::format("expected less than the model top, top_height = {} m", model_top_height));
  require_positive(maximal_layer_thickness, "maximal_layer_thickness", "sleve_nml:max_lay_thckn");
  require_positive(top_height_limit_for_maximal_layer_thickness,
                   "top_height_limit_for_maximal_layer_thickness", "sleve_nml:htop_thcknlimit");
  require_positive(stretch_factor, "stretch_factor", "sleve_nml:stretch_fac");
  if (!(std::isfinite(flat_height) && flat_height >= 0.0))
    reject("flat_height", "sleve_nml:flat_height", fmt::format("{}", flat_height),
           "expected a finite value >= 0 m");
  // The surface half level has vct_a = 0, so a damping height <= 0 would make nrd = nlev; the
  // granule needs nrd <= nlev - 1 (diff_multfac_n2w reads vct_a[nrd + 1]).
  require_positive(rayleigh_damping_height, "rayleigh_damping_height",
                   "nonhydrostatic_nml:damp_height");
  require_positive(sleve_decay_scale_1, "sleve_decay_scale_1", "sleve_nml:decay_scale_1");
  require_positive(sleve_decay_scale_2, "sleve_decay_scale_2", "sleve_nml:decay_scale_2");
  require_positive(sleve_decay_exponent, "sleve_decay_exponent", "sleve_nml:decay_exp");
  // ICON's init_vert_coord switches to the hybrid Gal-Chen coordinate in this case; neither ICON4Py
  // nor icondiff implements that branch, so refuse instead of silently building SLEVE levels.
  if (!(sleve_decay_scale_1 < 0.5 * model_top_height))
    reject("sleve_decay_scale_1", "sleve_nml:decay_scale_1", fmt::format("{}", sleve_decay_scale_1),
           fmt::format("expected less than half the model top ({} m); ICON would switch to the "
                       "hybrid Gal-Chen coordinate, which is not implemented",
                       0.5 * model_top_height));
}

VerticalGridConfig mch_ch_r04b09_vertical_config() {
  VerticalGridConfig c;
  c.num_levels = 65;
  c.model_top_height = 23000.0;
  c.lowest_layer_thickness = 20.0;
  c.stretch_factor = 0.65;
  c.rayleigh_damping_height = 12500.0;
  return c;
}

VerticalGridConfig exclaim_ape_vertical_config() {
  VerticalGridConfig c;
  c.num_levels = 60;
  c.model_top_height = 75000.0;
  c.lowest_layer_thickness = 50.0;
  c.stretch_factor = 0.9;
  c.rayleigh_damping_height = 50000.0;
  return c;
}

VerticalGridConfig icon4py_benchmark_vertical_config(int num_levels) {
  VerticalGridConfig c;
  c.num_levels = num_levels;
  c.model_top_height = 23500.0;
  c.lowest_layer_thickness = 50.0;
  c.stretch_factor = 1.0;
  c.rayleigh_damping_height = 1.0;
  return c;
}

std::vector<double> compute_vct_a(const VerticalGridConfig& config) {
  config.validate();
  const int nlev = config.num_levels;
  const double top = config.model_top_height;
  const double dmin = config.lowest_layer_thickness;
  const double dmax = config.maximal_layer_thickness;
  const double hlimit = config.top_height_limit_for_maximal_layer_thickness;
  const double s = config.stretch_factor;
  std::vector<double> vct_a(nlev + 1);

  if (!(dmin > 0.01)) {
    // Equidistant levels (ICON: min_lay_thckn <= 0.01).
    for (int k = 0; k <= nlev; ++k)
      vct_a[k] =
          top * (static_cast<double>(nlev) - static_cast<double>(k)) / static_cast<double>(nlev);
  } else {
    // vct_a[k] = top · (2/π · arccos(k^s / nlev^s))^z_exp (ICON takes the shape from COSMO's
    // src_artifdata); z_exp makes the lowest layer, vct_a[nlev-1] - vct_a[nlev] = vct_a[nlev-1],
    // exactly min_lay_thckn thick. Evaluated in ICON4Py's order of operations.
    const double two_over_pi = 2.0 / pi;
    const double nlev_s = std::pow(static_cast<double>(nlev), s);
    const double z_exp =
        std::log(dmin / top) /
        std::log(two_over_pi * std::acos(std::pow(static_cast<double>(nlev - 1), s) / nlev_s));
    for (int k = 0; k <= nlev; ++k)
      vct_a[k] =
          top *
          std::pow(two_over_pi * std::acos(std::pow(static_cast<double>(k), s) / nlev_s), z_exp);

    // Optional limiter on the layer thickness in the middle and upper troposphere. 0-based
    // translation of ICON's jk1, jk2, jks: `exceeding` = lowest layer thicker than max_lay_thckn
    // (-1 if none), `first_unlimited` = lowest half level at or above htop_thcknlimit in the
    // provisional column (0 = not reached), `shift` = how far layer thicknesses above it are
    // taken from lower layers, to avoid a sudden jump.
    if (dmax > 2.0 * dmin && dmax < 0.5 * hlimit) {
      std::vector<double> dvct(nlev);
      int exceeding = -1;
      for (int k = 0; k < nlev; ++k) {
        dvct[k] = vct_a[k] - vct_a[k + 1];
        if (dvct[k] > dmax) exceeding = k;
      }
      const auto thickness = [&](int k) {
        if (k < 0 || k >= nlev)
          throw ConfigError(fmt::format(
              "vertical grid config: the max_lay_thckn limiter (max_lay_thckn = {} m, "
              "htop_thcknlimit = {} m) needs the thickness of layer {} of {}; choose a larger "
              "max_lay_thckn or a lower htop_thcknlimit",
              dmax, hlimit, k, nlev));
        return dvct[k];
      };
      std::vector<double> zvcta(nlev + 1, 0.0);
      int first_unlimited = 0, shift = 0;
      for (int k = nlev - 1; k >= 0; --k) {
        if (zvcta[k + 1] < hlimit) {
          zvcta[k] = zvcta[k + 1] + std::min(dmax, dvct[k]);
        } else {
          if (first_unlimited == 0) {
            first_unlimited = k + 1;
            shift = std::max(0, exceeding - first_unlimited);
          }
          zvcta[k] = zvcta[k + 1] + thickness(k + shift);
        }
      }
      // Stretch the layers above the limited ones so that the model top stays top_height; if
      // nothing was shifted ICON keeps the factor 1 (and the top may move).
      const double stretchfac =
          shift == 0
              ? 1.0
              : (vct_a[0] - zvcta[first_unlimited] - static_cast<double>(first_unlimited) * dmax) /
                    (zvcta[0] - zvcta[first_unlimited] -
                     static_cast<double>(first_unlimited) * dmax);
      for (int k = nlev - 1; k >= 0; --k) {
        if (vct_a[k + 1] < hlimit)
          vct_a[k] = vct_a[k + 1] + std::min(dmax, dvct[k]);
        else
          vct_a[k] = vct_a[k + 1] + dmax + (thickness(k + shift) - dmax) * stretchfac;
      }
      // Smooth the stretching above the constant-thickness layers where ICON does (ICON: jk1 <
      // nlev-3 in 1-based numbering), and keep the result only if the top is unchanged.
      if (stretchfac != 1.0 && exceeding < nlev - 4) {
        for (int k = nlev - 1; k >= 0; --k) {
          if (zvcta[k + 1] < hlimit) {
            zvcta[k] = vct_a[k];
          } else {
            const double ratio = (zvcta[exceeding + 1] - zvcta[exceeding + 2]) /
                                 (zvcta[exceeding + 2] - zvcta[exceeding + 3]);
            const double dz = std::min(1.025 * (vct_a[k] - vct_a[k + 1]),
                                       1.025 * ratio * (zvcta[k + 1] - zvcta[k + 2]));
            zvcta[k] = std::min(vct_a[k], zvcta[k + 1] + dz);
          }
        }
        if (zvcta[0] == vct_a[0]) {
          vct_a[0] = zvcta[0];
          vct_a[1] = zvcta[1];
          for (int k = first_unlimited; k < nlev; ++k) vct_a[k] = zvcta[k];
          for (int k = 2; k <= first_unlimited; ++k) vct_a[k] = 0.5 * (zvcta[k - 1] + zvcta[k + 1]);
        }
      }
    }
  }

  const auto describe = [&] {
    return fmt::format(
        "num_lev = {}, top_height = {} m, min_lay_thckn = {} m, stretch_fac = {}, "
        "max_lay_thckn = {} m, htop_thcknlimit = {} m",
        nlev, top, dmin, s, dmax, hlimit);
  };
  for (int k = 0; k <= nlev; ++k) {
    if (!std::isfinite(vct_a[k]))
      throw ConfigError(fmt::format("vertical grid config: {} give vct_a[{}] = {} (not finite)",
                                    describe(), k, vct_a[k]));
    if (k > 0 && !(vct_a[k] < vct_a[k - 1]))
      throw ConfigError(fmt::format(
          "vertical grid config: {} give levels that do not decrease strictly from the top: "
          "vct_a[{}] = {} m, vct_a[{}] = {} m",
          describe(), k - 1, vct_a[k - 1], k, vct_a[k]));
  }
  return vct_a;
}

void VerticalGrid::validate() const {
  if (vct_a.size() < 2)
    throw ConfigError(
        fmt::format("vertical grid: vct_a has {} values, expected nlev + 1 >= 2", vct_a.size()));
  for (std::size_t k = 0; k < vct_a.size(); ++k) {
    if (!std::isfinite(vct_a[k]))
      throw ConfigError(fmt::format("vertical grid: vct_a[{}] = {} is not finite", k, vct_a[k]));
    if (k > 0 && !(vct_a[k] < vct_a[k - 1]))
      throw ConfigError(fmt::format(
          "vertical grid: vct_a must decrease from the model top (index 0) to the surface, but "
          "vct_a[{}] = {} >= vct_a[{}] = {}",
          k, vct_a[k], k - 1, vct_a[k - 1]));
  }
  const int nrd = end_index_of_damping_layer;
  if (nrd < 0 || nrd > num_levels() - 1)
    throw ConfigError(fmt::format(
        "vertical grid: end_index_of_damping_layer (nrd) = {} is outside [0, nlev - 1 = {}] "
        "(diff_multfac_n2w reads vct_a[nrd + 1])",
        nrd, num_levels() - 1));
}

int end_index_of_damping_layer(const std::vector<double>& vct_a, double rayleigh_damping_height) {
  int nrd = 0;
  for (std::size_t kh = 0; kh < vct_a.size(); ++kh)
    if (vct_a[kh] >= rayleigh_damping_height) nrd = static_cast<int>(kh);
  return nrd;
}

int end_index_of_flat_layer(const std::vector<double>& vct_a, double flat_height) {
  int nflatlev = 0;
  for (std::size_t kh = 0; kh < vct_a.size(); ++kh)
    if (vct_a[kh] >= flat_height) nflatlev = static_cast<int>(kh);
  return nflatlev;
}

int start_index_of_moist_physics(const std::vector<double>& vct_a, double htop_moist_proc) {
  for (std::size_t k = 0; k + 1 < vct_a.size(); ++k)
    if (0.5 * (vct_a[k] + vct_a[k + 1]) < htop_moist_proc) return static_cast<int>(k);
  return vct_a.empty() ? 0 : static_cast<int>(vct_a.size()) - 1;
}

VerticalGrid make_vertical_grid(const VerticalGridConfig& config) {
  VerticalGrid grid;
  grid.vct_a = compute_vct_a(config);
  grid.end_index_of_damping_layer =
      end_index_of_damping_layer(grid.vct_a, config.rayleigh_damping_height);
  grid.validate();
  return grid;
}

std::vector<double> en_smag_fac_for_zero_nshift(const std::vector<double>& vct_a,
                                                const std::array<double, 4>& factors,
                                                const std::array<double, 4>& heights) {
  const double f1 = factors[0], f2 = factors[1], f3 = factors[2], f4 = factors[3];
  const double z1 = heights[0], z2 = heights[1], z3 = heights[2], z4 = heights[3];
  const double dz21 = z2 - z1;
  const double alin = (f2 - f1) / dz21;
  const double df32 = f3 - f2, df42 = f4 - f2;
  const double dz32 = z3 - z2, dz42 = z4 - z2;
  const double bqdr = (df42 * dz32 - df32 * dz42) / (dz32 * dz42 * (dz42 - dz32));
  const double aqdr = df32 / dz32 - bqdr * dz32;
  std::vector<double> profile;
  for (std::size_t k = 0; k + 1 < vct_a.size(); ++k) {
    const double zf = 0.5 * (vct_a[k] + vct_a[k + 1]);
    const double dzlin = std::min(dz21, std::max(0.0, zf - z1));
    const double dzqdr = std::min(dz42, std::max(0.0, zf - z2));
    profile.push_back(f1 + (dzlin * alin) + dzqdr * (aqdr + dzqdr * bqdr));
  }
  return profile;
}

}  // namespace icondiff
