// Metric fields of the diffusion granule on the host, following ICON4Py's metrics factory
// (metrics_factory.py) field by field, with ICON's Fortran (mo_init_vgrid.f90,
// mo_vertical_grid.f90) where ICON4Py leaves a detail open. See docs/dev/metrics.md for formulas
// and ranges.
#include <icondiff/core/error.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/geometry/metric_fields.hpp>

#include "factory_checks.hpp"
#include "reference_atmosphere.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace icondiff {

namespace {

using detail::require_table;

constexpr double pi = 3.14159265358979323846;
constexpr double deg = pi / 180.0;

// ICON's SLEVE layer-thickness limiter constants (mo_init_vgrid.init_vert_coord: dvct1, minrat1,
// dvct2, minrat2; hard-coded there, not namelist parameters).
constexpr double sleve_thickness_1 = 100.0;
constexpr double sleve_relative_thickness_1 = 1.0 / 3.0;
constexpr double sleve_thickness_2 = 500.0;
constexpr double sleve_relative_thickness_2 = 0.5;

[[noreturn]] void reject(const std::string& what, const std::string& why) {
  throw ConfigError(fmt::format("{}: {}", what, why));
}

void require_finite(double value, const std::string& what) {
  if (!std::isfinite(value)) reject(fmt::format("{} = {}", what, value), "expected a finite value");
}

void require_positive(double value, const std::string& what) {
  if (!(std::isfinite(value) && value > 0.0))
    reject(fmt::format("{} = {}", what, value), "expected a finite value > 0");
}

void require_vector(const char* name, const std::vector<double>& v, std::size_t size) {
  if (v.size() != size)
    throw InvalidArgument(
        fmt::format("metrics: {} has {} values, expected {}", name, v.size(), size));
}

// The grid fields the factories read; a grid from a file or the generator has all of them.
void require_grid(const Grid& grid, bool geometry) {
  const auto missing = [&](const char* name) {
    throw GridError(fmt::format("metrics: grid '{}' lacks {}, which the metric factories read",
                                grid.name, name));
  };
  const std::size_t nc = grid.num_cells, ne = grid.num_edges;
  if (grid.c2e.rows() != nc || grid.c2e.cols() != 3) missing("c2e (C,3)");
  if (grid.c2e2c.rows() != nc || grid.c2e2c.cols() != 3) missing("c2e2c (C,3)");
  if (grid.c2e2co.rows() != nc || grid.c2e2co.cols() != 4) missing("c2e2co (C,4)");
  if (grid.e2c.rows() != ne || grid.e2c.cols() != 2) missing("e2c (E,2)");
  if (!geometry) return;
  if (grid.cell_lon.size() != nc || grid.cell_lat.size() != nc) missing("cell_lon/cell_lat");
  if (grid.cell_area.size() != nc) missing("cell_area");
  if (grid.dual_edge_length.size() != ne) missing("dual_edge_length");
}

}  // namespace

// ---- Configuration ------------------------------------------------------------------------------

TopographyConfig TopographyConfig::gaussian_hill(double height, double half_width,
                                                 double centre_lon_deg, double centre_lat_deg) {
  TopographyConfig c;
  c.shape = Shape::GaussianHill;
  c.height = height;
  c.half_width = half_width;
  c.centre_lon_deg = centre_lon_deg;
  c.centre_lat_deg = centre_lat_deg;
  return c;
}

TopographyConfig TopographyConfig::schaer_mountain(double height, double half_width,
                                                   double wavelength, double centre_lon_deg,
                                                   double centre_lat_deg) {
  TopographyConfig c = gaussian_hill(height, half_width, centre_lon_deg, centre_lat_deg);
  c.shape = Shape::SchaerMountain;
  c.wavelength = wavelength;
  return c;
}

void TopographyConfig::validate() const {
  if (shape == Shape::Flat || shape == Shape::JablonowskiWilliamson) return;
  if (shape != Shape::GaussianHill && shape != Shape::SchaerMountain)
    reject(fmt::format("topography: shape = {}", static_cast<int>(shape)),
           "expected Flat, GaussianHill, SchaerMountain or JablonowskiWilliamson");
  require_finite(height, "topography: height (nh_testcase_nml:mount_height)");
  require_positive(half_width, "topography: half_width (nh_testcase_nml:mount_half_width)");
  require_finite(centre_lon_deg,
                 "topography: centre_lon_deg (nh_testcase_nml:mount_lonctr_mrw_deg)");
  if (!(std::isfinite(centre_lat_deg) && std::fabs(centre_lat_deg) <= 90.0))
    reject(fmt::format("topography: centre_lat_deg (nh_testcase_nml:mount_latctr_mrw_deg) = {}",
                       centre_lat_deg),
           "expected a latitude in [-90, 90] degrees");
  if (shape == Shape::SchaerMountain)
    require_positive(wavelength, "topography: wavelength of the Schär mountain");
}

void MetricsConfig::validate() const {
  if (!(std::isfinite(thslp_zdiffu) && thslp_zdiffu >= 0.0))
    reject(fmt::format("metrics config: thslp_zdiffu (ICON nonhydrostatic_nml:thslp_zdiffu) = {}",
                       thslp_zdiffu),
           "expected a finite slope >= 0 (ICON default 0.025)");
  if (!(std::isfinite(thhgtd_zdiffu) && thhgtd_zdiffu >= 0.0))
    reject(fmt::format("metrics config: thhgtd_zdiffu (ICON nonhydrostatic_nml:thhgtd_zdiffu) = {}",
                       thhgtd_zdiffu),
           "expected a finite height difference >= 0 m (ICON default 200)");
  if (!(std::isfinite(exner_expol) && exner_expol >= 0.0 && exner_expol <= 1.0))
    reject(fmt::format("metrics config: exner_expol (ICON nonhydrostatic_nml:exner_expol) = {}",
                       exner_expol),
           "expected a fraction of the time step in [0, 1] (ICON default 1/3)");
  if (!(std::isfinite(vwind_offctr) && vwind_offctr >= 0.0 && vwind_offctr <= 0.5))
    reject(fmt::format("metrics config: vwind_offctr (ICON nonhydrostatic_nml:vwind_offctr) = {}",
                       vwind_offctr),
           "expected an off-centring in [0, 0.5] (ICON default 0.15; negative values are not "
           "allowed)");
  if (rayleigh_type != 2)
    reject(fmt::format("metrics config: rayleigh_type (ICON nonhydrostatic_nml:rayleigh_type) = {}",
                       rayleigh_type),
           "only 2 (Klemp) is supported, as in ICON4Py 0.2.0");
  if (!(std::isfinite(rayleigh_coeff) && rayleigh_coeff >= 0.0))
    reject(
        fmt::format("metrics config: rayleigh_coeff (ICON nonhydrostatic_nml:rayleigh_coeff) = {}",
                    rayleigh_coeff),
        "expected a finite coefficient >= 0 s-1 (ICON default 0.05)");
  if (divdamp_type != 3 && divdamp_type != 32)
    reject(fmt::format("metrics config: divdamp_type (ICON nonhydrostatic_nml:divdamp_type) = {}",
                       divdamp_type),
           "expected 3 or 32 (ICON's 2 is not supported by ICON4Py 0.2.0)");
  if (!(std::isfinite(divdamp_trans_start) && std::isfinite(divdamp_trans_end) &&
        divdamp_trans_start < divdamp_trans_end))
    reject(fmt::format("metrics config: divdamp_trans_start, divdamp_trans_end (ICON "
                       "nonhydrostatic_nml) = {}, {}",
                       divdamp_trans_start, divdamp_trans_end),
           "expected finite heights with start < end (ICON defaults 12500, 17500 m)");
  topography.validate();
}

MetricsConfig mch_ch_r04b09_metrics_config() {
  MetricsConfig c;
  c.thslp_zdiffu = 0.02;
  c.thhgtd_zdiffu = 125.0;
  return c;
}

MetricsConfig exclaim_ape_metrics_config() {
  MetricsConfig c;
  c.thslp_zdiffu = 0.02;
  c.thhgtd_zdiffu = 125.0;
  return c;
}

MetricsConfig icon4py_benchmark_metrics_config() {
  return MetricsConfig{};
}

// ---- Topography and the SLEVE coordinate --------------------------------------------------------

std::vector<double> compute_topography(const Grid& grid, const TopographyConfig& config) {
  config.validate();
  std::vector<double> topo(grid.num_cells, 0.0);
  if (config.shape == TopographyConfig::Shape::Flat) return topo;
  if (grid.cell_lon.size() != static_cast<std::size_t>(grid.num_cells) ||
      grid.cell_lat.size() != static_cast<std::size_t>(grid.num_cells))
    throw GridError(fmt::format(
        "metrics: grid '{}' lacks cell_lon/cell_lat, which the analytic topography needs",
        grid.name));
  if (config.shape == TopographyConfig::Shape::JablonowskiWilliamson) {
    // JW06 eq. (7) at the surface (η = 1, η_v = (1 - η0) π/2), divided by g, in ICON's
    // init_nh_topo_jabw operation order.
    constexpr double u0 = 35.0, eta0 = 0.252;
    const double cos_etav_15 = std::pow(std::cos((1.0 - eta0) * pi * 0.5), 1.5);
    const double a_omega = grid.sphere_radius * physics::earth_angular_velocity;
    for (index_t c = 0; c < grid.num_cells; ++c) {
      const double s = std::sin(grid.cell_lat[c]), co = std::cos(grid.cell_lat[c]);
      const double s6 = s * s * s * s * s * s;
      topo[c] = u0 * cos_etav_15 *
                ((-2.0 * s6 * (co * co + 1.0 / 3.0) + 10.0 / 63.0) * u0 * cos_etav_15 +
                 (1.6 * co * co * co * (s * s + 2.0 / 3.0) - 0.25 * pi) * a_omega) /
                physics::grav;
    }
    return topo;
  }
  const sphere::Vec3 centre =
      sphere::to_cartesian(config.centre_lon_deg * deg, config.centre_lat_deg * deg);
  for (index_t c = 0; c < grid.num_cells; ++c) {
    const double d =
        grid.sphere_radius *
        sphere::arc_length(sphere::to_cartesian(grid.cell_lon[c], grid.cell_lat[c]), centre);
    const double x = d / config.half_width;
    double h = config.height * std::exp(-x * x);
    if (config.shape == TopographyConfig::Shape::SchaerMountain) {
      const double ripple = std::cos(pi * d / config.wavelength);
      h *= ripple * ripple;
    }
    topo[c] = h;
  }
  return topo;
}

std::vector<double> smooth_topography(const Grid& grid, const std::vector<double>& topography,
                                      const HostTable<double>& geofac_n2s, int iterations) {
  require_grid(grid, true);
  require_vector("topography", topography, grid.num_cells);
  require_table("geofac_n2s", geofac_n2s, grid.num_cells, 4);
  if (iterations < 0)
    throw InvalidArgument(
        fmt::format("smooth_topography: iterations = {}, expected >= 0", iterations));
  // Jacobi: each step's Laplacian uses the previous step's field (ICON4Py computes nabla2 into a
  // new array, then adds). Missing neighbours have geofac_n2s 0 and are skipped.
  std::vector<double> h = topography, nabla2(grid.num_cells);
  for (int it = 0; it < iterations; ++it) {
    for (index_t c = 0; c < grid.num_cells; ++c) {
      double sum = 0.0;
      for (int i = 0; i < 4; ++i) {
        const index_t n = grid.c2e2co(c, i);
        if (n != missing_index) sum += h[n] * geofac_n2s(c, i);
      }
      nabla2[c] = sum;
    }
    for (index_t c = 0; c < grid.num_cells; ++c) h[c] += 0.125 * nabla2[c] * grid.cell_area[c];
  }
  return h;
}

HostTable<double> compute_z_ifc(const Grid& grid, const VerticalGridConfig& vertical,
                                const std::vector<double>& vct_a,
                                const std::vector<double>& topography,
                                const HostTable<double>& geofac_n2s,
                                std::vector<double>* smoothed_topography) {
  vertical.validate();
  const int nlev = vertical.num_levels;
  require_vector("vct_a", vct_a, static_cast<std::size_t>(nlev) + 1);
  require_vector("topography", topography, grid.num_cells);
  for (index_t c = 0; c < grid.num_cells; ++c)
    if (!std::isfinite(topography[c]))
      throw InvalidArgument(
          fmt::format("metrics: topography[{}] = {} is not finite", c, topography[c]));
  const index_t nc = grid.num_cells;
  const int nflatlev = end_index_of_flat_layer(vct_a, vertical.flat_height);
  const std::vector<double> smooth = smooth_topography(grid, topography, geofac_n2s);

  // SLEVE (Leuenberger et al. 2010): half levels 0..nflatlev are flat; below, the large-scale
  // (smoothed) and small-scale topography decay with height on their own scales.
  const double top = vertical.model_top_height;
  const double ex = vertical.sleve_decay_exponent;
  const auto decay = [&](double z, double scale) {
    return std::sinh(std::pow(top / scale, ex) - std::pow(z / scale, ex)) /
           std::sinh(std::pow(top / scale, ex));
  };
  HostTable<double> z(nc, nlev + 1);
  for (index_t c = 0; c < nc; ++c) z(c, nlev) = topography[c];
  for (int k = 0; k <= std::min(nflatlev, nlev - 1); ++k)
    for (index_t c = 0; c < nc; ++c) z(c, k) = vct_a[k];
  for (int k = nflatlev + 1; k < nlev; ++k) {
    const double f1 = decay(vct_a[k], vertical.sleve_decay_scale_1);
    const double f2 = decay(vct_a[k], vertical.sleve_decay_scale_2);
    for (index_t c = 0; c < nc; ++c)
      z(c, k) = vct_a[k] + smooth[c] * f1 + (topography[c] - smooth[c]) * f2;
  }

  // ICON's minimum layer thickness: a fraction of the nominal thickness that falls from 1/3 (thin
  // layers) to 1/2 (at 500 m) and then grows only as the cube root, but never below
  // min(50 m, min_lay_thckn). Layers are lifted from the bottom up; ktop remembers the highest
  // lifted half level of each column.
  std::vector<int> ktop(nc, nlev);
  for (int k = nlev - 1; k >= 0; --k) {
    const double dvct = vct_a[k] - vct_a[k + 1];
    double min_thickness;
    if (dvct < sleve_thickness_1) {
      min_thickness = sleve_relative_thickness_1 * dvct;
    } else if (dvct < sleve_thickness_2) {
      const double w = (sleve_thickness_2 - dvct) / (sleve_thickness_2 - sleve_thickness_1);
      const double wfac = w * w;
      min_thickness =
          (sleve_relative_thickness_1 * wfac + sleve_relative_thickness_2 * (1.0 - wfac)) * dvct;
    } else {
      min_thickness = sleve_relative_thickness_2 * sleve_thickness_2 *
                      std::pow(dvct / sleve_thickness_2, 1.0 / 3.0);
    }
    min_thickness = std::max(min_thickness, std::min(50.0, vertical.lowest_layer_thickness));
    for (index_t c = 0; c < nc; ++c) {
      if (z(c, k + 1) + min_thickness > z(c, k)) {
        z(c, k) = z(c, k + 1) + min_thickness;
        ktop[c] = k;
      }
    }
  }
  // Smooth the thickness ratios in the transition layer of limited columns (not too close to the
  // top or the bottom): a geometric progression dzr over the layers around ktop.
  for (index_t c = 0; c < nc; ++c) {
    const int kt = ktop[c];
    if (kt <= nlev - 3 && kt >= 3) {
      const double dz1 = z(c, kt + 1) - z(c, kt + 2);
      const double dz2 = z(c, kt - 3) - z(c, kt - 2);
      const double dzr = std::pow(dz2 / dz1, 0.25);
      const double dz3 = (z(c, kt - 2) - z(c, kt + 1)) / (dzr * (1.0 + dzr * (1.0 + dzr)));
      z(c, kt) = std::max(z(c, kt), z(c, kt + 1) + dz3 * dzr);
      // dz3 * dzr**2 as ICON (Fortran) and ICON4Py evaluate it: the square first.
      z(c, kt - 1) = std::max(z(c, kt - 1), z(c, kt) + dz3 * (dzr * dzr));
    }
  }
  // ICON stops the model in both cases: "flat_height in sleve_nml or model top is too low".
  for (index_t c = 0; c < nc; ++c)
    if (nlev > 6 && ktop[c] <= 2)
      throw ConfigError(fmt::format(
          "SLEVE coordinate: the minimum layer thickness lifts half level {} of cell {} (surface "
          "{} m), too close to the model top (expected below half level 2): top_height = {} m "
          "(sleve_nml) is too low for this topography or num_lev = {} too small",
          ktop[c], c, topography[c], top, nlev));
  for (index_t c = 0; c < nc; ++c)
    if (z(c, nflatlev) != vct_a[nflatlev])
      throw ConfigError(fmt::format(
          "SLEVE coordinate: half level nflatlev = {} of cell {} (surface {} m) is at {} m, not "
          "flat at vct_a = {} m: flat_height = {} m (sleve_nml) is too low for this topography",
          nflatlev, c, topography[c], z(c, nflatlev), vct_a[nflatlev], vertical.flat_height));
  if (smoothed_topography) *smoothed_topography = smooth;
  return z;
}

// ---- Vertical averages, weights, reference atmosphere -------------------------------------------

HostTable<double> compute_z_mc(const HostTable<double>& z_ifc) {
  if (z_ifc.cols() < 2)
    throw InvalidArgument(
        fmt::format("compute_z_mc: z_ifc has {} half levels, expected >= 2", z_ifc.cols()));
  const std::size_t nlev = z_ifc.cols() - 1;
  HostTable<double> z_mc(z_ifc.rows(), nlev);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c)
    for (std::size_t k = 0; k < nlev; ++k) z_mc(c, k) = 0.5 * (z_ifc(c, k) + z_ifc(c, k + 1));
  return z_mc;
}

HostTable<double> compute_wgtfac_c(const HostTable<double>& z_ifc) {
  if (z_ifc.cols() < 3)
    throw InvalidArgument(fmt::format(
        "compute_wgtfac_c: z_ifc has {} half levels, expected >= 3 (nlev >= 2)", z_ifc.cols()));
  const std::size_t nlev = z_ifc.cols() - 1;
  HostTable<double> w(z_ifc.rows(), nlev + 1);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c) {
    const double* z = z_ifc.row(c);
    // ψ_ic[kh] = w[kh] ψ[kh] + (1 − w[kh]) ψ[kh−1] interpolates linearly in z between the full
    // levels kh−1 and kh for 1 <= kh <= nlev−1. The boundary values are ICON's one-sided ratios
    // (w[0] equals w[1]; w[nlev] equals 1 − w[nlev−1] up to round-off); the granule
    // reads 1..nlev−1.
    w(c, 0) = (z[1] - z[0]) / (z[2] - z[0]);
    for (std::size_t kh = 1; kh < nlev; ++kh)
      w(c, kh) = (z[kh - 1] - z[kh]) / (z[kh - 1] - z[kh + 1]);
    w(c, nlev) = (z[nlev - 1] - z[nlev]) / (z[nlev - 2] - z[nlev]);
  }
  return w;
}

HostTable<double> compute_theta_ref_mc(const HostTable<double>& z_mc) {
  HostTable<double> theta(z_mc.rows(), z_mc.cols());
  for (std::size_t c = 0; c < z_mc.rows(); ++c)
    for (std::size_t k = 0; k < z_mc.cols(); ++k)
      theta(c, k) = detail::reference_atmosphere_at(z_mc(c, k)).theta;
  return theta;
}

// ---- Slopes and the zd fields -------------------------------------------------------------------

HostTable<double> compute_ddxn_z_full(const Grid& grid, const HostTable<double>& z_ifc) {
  require_grid(grid, true);
  if (z_ifc.rows() != static_cast<std::size_t>(grid.num_cells) || z_ifc.cols() < 2)
    throw InvalidArgument(
        fmt::format("compute_ddxn_z_full: z_ifc is ({}, {}), expected ({}, nlev+1)", z_ifc.rows(),
                    z_ifc.cols(), grid.num_cells));
  // The half-level slope on edges [start(LB2), end(INTERIOR)), 0 elsewhere, averaged to the full
  // levels on every edge (metrics_factory: compute_ddxn_z_half_e, then compute_ddxn_z_full).
  return average_half_levels_on_edges(compute_ddxn_z_half_e(grid, z_ifc), 0);
}

void compute_slope_measures(const Grid& grid, const HostTable<double>& ddxn_z_full,
                            const HostTable<double>& c_bln_avg, HostTable<double>& maxslp,
                            HostTable<double>& maxhgtd, HostTable<double>& maxslp_avg,
                            HostTable<double>& maxhgtd_avg) {
  require_grid(grid, true);
  const index_t nc = grid.num_cells;
  const std::size_t nlev = ddxn_z_full.cols();
  require_table("ddxn_z_full", ddxn_z_full, grid.num_edges, nlev);
  require_table("c_bln_avg", c_bln_avg, nc, 4);
  maxslp = HostTable<double>(nc, nlev, 0.0);
  maxhgtd = HostTable<double>(nc, nlev, 0.0);
  for (index_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) {
      const index_t e = grid.c2e(c, j);
      for (std::size_t k = 0; k < nlev; ++k) {
        const double slope = std::fabs(ddxn_z_full(e, k));
        const double step = std::fabs(ddxn_z_full(e, k) * grid.dual_edge_length[e]);
        // max_over starts from the first slot (not from 0); |.| >= 0, so the result is the same.
        if (j == 0 || slope > maxslp(c, k)) maxslp(c, k) = slope;
        if (j == 0 || step > maxhgtd(c, k)) maxhgtd(c, k) = step;
      }
    }
  maxslp_avg = HostTable<double>(nc, nlev, 0.0);
  maxhgtd_avg = HostTable<double>(nc, nlev, 0.0);
  for (index_t c = grid.start(Location::Cell, Zone::LateralBoundary2); c < nc; ++c)
    for (int i = 0; i < 4; ++i) {
      const index_t n = grid.c2e2co(c, i);
      if (n == missing_index) continue;  // its weight is 0 (interpolation factory)
      const double w = c_bln_avg(c, i);
      for (std::size_t k = 0; k < nlev; ++k) {
        maxslp_avg(c, k) += maxslp(n, k) * w;
        maxhgtd_avg(c, k) += maxhgtd(n, k) * w;
      }
    }
}

std::vector<double> compute_max_nbhgt(const Grid& grid, const HostTable<double>& z_mc) {
  require_grid(grid, false);
  if (z_mc.rows() != static_cast<std::size_t>(grid.num_cells) || z_mc.cols() < 1)
    throw InvalidArgument(fmt::format("compute_max_nbhgt: z_mc is ({}, {}), expected ({}, nlev)",
                                      z_mc.rows(), z_mc.cols(), grid.num_cells));
  const std::size_t low = z_mc.cols() - 1;
  std::vector<double> h(grid.num_cells);
  for (index_t c = 0; c < grid.num_cells; ++c) {
    // ICON4Py replaces missing neighbours (lateral boundary row 1 only) by valid ones; we skip
    // them. Either way the value is read only for cells from the nudging row, which have all three.
    double m = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < 3; ++j) {
      const index_t n = grid.c2e2c(c, j);
      if (n != missing_index) m = std::max(m, z_mc(n, low));
    }
    h[c] = std::isfinite(m) ? m : z_mc(c, low);
  }
  return h;
}

void compute_zdiffu_fields(const Grid& grid, const HostTable<double>& z_mc,
                           const std::vector<double>& max_nbhgt,
                           const HostTable<double>& maxslp_avg,
                           const HostTable<double>& maxhgtd_avg, const MetricsConfig& config,
                           HostMetricFields& out) {
  config.validate();
  require_grid(grid, false);
  const index_t nc = grid.num_cells;
  const int nlev = static_cast<int>(z_mc.cols());
  if (nlev < 2)
    throw InvalidArgument(fmt::format("compute_zdiffu_fields: nlev = {}, expected >= 2", nlev));
  require_table("z_mc", z_mc, nc, nlev);
  require_table("maxslp_avg", maxslp_avg, nc, nlev);
  require_table("maxhgtd_avg", maxhgtd_avg, nc, nlev);
  require_vector("max_nbhgt", max_nbhgt, nc);
  const double thslp = config.thslp_zdiffu, thhgtd = config.thhgtd_zdiffu;

  out.zd_diffcoef = HostTable<double>(nc, nlev, 0.0);
  for (int j = 0; j < 3; ++j) {
    out.zd_intcoef[j] = HostTable<double>(nc, nlev, 0.0);
    out.zd_vertoffset[j] = HostTable<int>(nc, nlev, 0);
  }
  // Cells before the nudging row never get truly horizontal diffusion (ICON4Py cell_nudging;
  // ICON's loop starts at grf_bdywidth_c + 1).
  const index_t cell_nudging = grid.start(Location::Cell, Zone::Nudging);
  const auto steep = [&](index_t c, int k) {
    return maxslp_avg(c, k) >= thslp || maxhgtd_avg(c, k) >= thhgtd;
  };
  for (index_t c = cell_nudging; c < nc; ++c) {
    // A candidate is an (owned) cell that is steep at the lowest level. kend: one past the lowest
    // level still above every neighbour's lowest full level (below it the cell's levels would
    // intersect the neighbours' terrain). kstart: the first steep level from the top.
    if (!steep(c, nlev - 1)) continue;
    int kend = 0;
    for (int k = nlev - 1; k >= 0; --k)
      if (z_mc(c, k) >= max_nbhgt[c]) {
        kend = k + 1;
        break;
      }
    int kstart = 0;
    while (kstart < nlev && !steep(c, kstart)) ++kstart;
    if (kstart > kend) kstart = nlev;
    if (!(kend > kstart)) continue;

    for (int k = kstart; k < kend; ++k) {
      const double by_slope = std::sqrt(std::max(0.0, maxslp_avg(c, k) - thslp)) / 250.0;
      const double by_height = 2.0e-4 * std::sqrt(std::max(0.0, maxhgtd_avg(c, k) - thhgtd));
      out.zd_diffcoef(c, k) = std::min(0.002, std::max(by_slope, by_height));
    }
    for (int j = 0; j < 3; ++j) {
      const index_t n = grid.c2e2c(c, j);
      if (n == missing_index)
        throw GridError(fmt::format(
            "compute_zdiffu_fields: cell {} (from the nudging row on) lacks neighbour slot {}", c,
            j));
      const double* zn = z_mc.row(n);
      // kn: the lowest neighbour level at or above z_mc(c,k) (levels run top-down, so the last k'
      // with zn[k'] >= z), clipped to [0, nlev−2] so that kn+1 exists. ICON4Py finds it with one
      // searchsorted over all cells; for a column searched from the top this is the same index.
      int kn = -1;
      for (int k = kstart; k < kend; ++k) {
        const double zc = z_mc(c, k);
        while (kn + 1 < nlev && zn[kn + 1] >= zc) ++kn;
        // zc decreases with k, so kn never has to move back up.
        const int kc = std::min(std::max(kn, 0), nlev - 2);
        out.zd_vertoffset[j](c, k) = kc - k;
        out.zd_intcoef[j](c, k) = (zc - zn[kc + 1]) / (zn[kc] - zn[kc + 1]);
      }
    }
  }
}

// ---- Everything ---------------------------------------------------------------------------------

HostMetricFields compute_metric_fields(const Grid& grid, const VerticalGridConfig& vertical,
                                       const MetricsConfig& config,
                                       const std::vector<double>& topography,
                                       const HostTable<double>& geofac_n2s,
                                       const HostTable<double>& c_bln_avg) {
  config.validate();
  require_grid(grid, true);
  require_table("geofac_n2s", geofac_n2s, grid.num_cells, 4);
  require_table("c_bln_avg", c_bln_avg, grid.num_cells, 4);
  HostMetricFields m;
  m.vertical = make_vertical_grid(vertical);
  m.nflatlev = end_index_of_flat_layer(m.vertical.vct_a, vertical.flat_height);
  m.topography = topography;
  m.z_ifc = compute_z_ifc(grid, vertical, m.vertical.vct_a, topography, geofac_n2s,
                          &m.smoothed_topography);
  m.z_mc = compute_z_mc(m.z_ifc);
  m.wgtfac_c = compute_wgtfac_c(m.z_ifc);
  m.theta_ref_mc = compute_theta_ref_mc(m.z_mc);
  m.ddxn_z_full = compute_ddxn_z_full(grid, m.z_ifc);
  compute_slope_measures(grid, m.ddxn_z_full, c_bln_avg, m.maxslp, m.maxhgtd, m.maxslp_avg,
                         m.maxhgtd_avg);
  m.max_nbhgt = compute_max_nbhgt(grid, m.z_mc);
  compute_zdiffu_fields(grid, m.z_mc, m.max_nbhgt, m.maxslp_avg, m.maxhgtd_avg, config, m);
  return m;
}

HostMetricFields compute_metric_fields(const Grid& grid, const VerticalGridConfig& vertical,
                                       const MetricsConfig& config) {
  config.validate();
  vertical.validate();
  require_grid(grid, true);
  const std::vector<double> topography = compute_topography(grid, config.topography);
  const HostTable<double> geofac_n2s = compute_geofac_n2s(grid, compute_geofac_div(grid));
  const HostTable<double> c_bln_avg =
      compute_c_bln_avg(grid, InterpolationConfig{}.divergence_averaging_central_cell_weight);
  return compute_metric_fields(grid, vertical, config, topography, geofac_n2s, c_bln_avg);
}

}  // namespace icondiff
