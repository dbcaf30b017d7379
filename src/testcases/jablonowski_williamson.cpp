// The Jablonowski-Williamson (2006) initial state. Equation numbers refer to JW06 (see the header);
// docs/dev/initial_state.md derives the Newton step and lists the differences from ICON4Py.
#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace icondiff {

namespace {

constexpr double pi = 3.14159265358979323846;

[[noreturn]] void reject(const char* field, double value, const std::string& why) {
  throw ConfigError(fmt::format("Jablonowski-Williamson config: {} = {}: {}", field, value, why));
}

/// Latitude-dependent factors of the balance terms of T (eq. 6) and Φ (eq. 9):
/// A(φ) = 10/63 − 2 sin⁶φ (cos²φ + 1/3) and B(φ) = (8/5 cos³φ (sin²φ + 2/3) − π/4) a Ω.
struct LatitudeFactors {
  double a_term = 0, b_term = 0;
};

LatitudeFactors latitude_factors(double lat, const JablonowskiWilliamsonConfig& c, double a) {
  const double s = std::sin(lat), co = std::cos(lat);
  const double s2 = s * s, c2 = co * co;
  LatitudeFactors f;
  f.a_term = 10.0 / 63.0 - 2.0 * s2 * s2 * s2 * (c2 + 1.0 / 3.0);
  f.b_term = (1.6 * c2 * co * (s2 + 2.0 / 3.0) - 0.25 * pi) * a * c.angular_velocity;
  return f;
}

double temperature_with(double eta, const LatitudeFactors& f,
                        const JablonowskiWilliamsonConfig& c) {
  const double ev = jw::eta_v(eta, c);
  const double cv = std::cos(ev);
  const double cv15 = cv * std::sqrt(cv);
  return jw::mean_temperature(eta, c) + 0.75 * eta * pi * c.u0 / jw::rd * std::sin(ev) *
                                            std::sqrt(cv) *
                                            (2.0 * c.u0 * f.a_term * cv15 + f.b_term);
}

double geopotential_with(double eta, const LatitudeFactors& f,
                         const JablonowskiWilliamsonConfig& c) {
  const double cv = std::cos(jw::eta_v(eta, c));
  const double cv15 = cv * std::sqrt(cv);
  return jw::mean_geopotential(eta, c) + c.u0 * cv15 * (f.a_term * c.u0 * cv15 + f.b_term);
}

/// Newton's iteration for η; returns a negative value if it fails (callers report where).
///
/// The equation is ICON4Py's, Φ(η, φ) − Φ = 0, but the unknown is x = ln η: dΦ/dx = −R_d T
/// (hydrostatic balance; eq. 6 is the η-derivative of eq. 9) varies only with T, so Φ is nearly
/// linear in x and 4–5 steps from the isothermal guess x = −Φ / (R_d T0) converge, where
/// ICON4Py's iteration in η from η = 1e-7 takes 12–14. Both find the same root.
double newton_eta(double phi, const LatitudeFactors& f, const JablonowskiWilliamsonConfig& c) {
  double x = -phi / (jw::rd * c.t0);
  for (int it = 0; it < c.max_newton_iterations; ++it) {
    const double eta = std::exp(x);
    const double t = temperature_with(eta, f, c);
    if (!(t > 0.0)) return -1.0;
    const double step = (geopotential_with(eta, f, c) - phi) / (jw::rd * t);
    x += step;
    if (!std::isfinite(x)) return -1.0;
    if (std::fabs(step) <= c.newton_tolerance) return std::exp(x);
  }
  return -1.0;
}

/// A 64-bit hash (splitmix64's finalizer, Steele, Lea and Flood 2014) of (seed, index):
/// counter-based noise, independent of the order and the thread in which points are visited.
/// Which noise value a point and level get: point + n · level, with the point's global index and
/// the whole grid's count n on a rank's part, so every part gets the whole grid's values.
struct NoiseNumbering {
  const std::vector<index_t>& global;
  std::uint64_t n;
  NoiseNumbering(const std::vector<index_t>& global_index, std::uint64_t whole, std::size_t own)
      : global(global_index), n(whole > 0 ? whole : own) {}
  std::uint64_t index(std::size_t point, std::size_t level) const {
    const auto p = global.empty() ? point : static_cast<std::size_t>(global[point]);
    return p + n * level;
  }
};

double uniform_noise(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * (index + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  const double u = static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
  return 2.0 * u - 1.0;
}

void check_table(const char* name, const HostTable<double>& t, std::size_t rows, std::size_t cols) {
  if (t.rows() != rows || t.cols() != cols)
    throw InvalidArgument(fmt::format(
        "Jablonowski-Williamson state: {} has shape ({}, {}), expected ({}, {}) = (cells, {})",
        name, t.rows(), t.cols(), rows, cols, std::string(name) == "z_ifc" ? "nlev + 1" : "nlev"));
}

void check_grid(const Grid& g) {
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto need = [&](bool ok, const char* what) {
    if (!ok)
      throw GridError(fmt::format(
          "Jablonowski-Williamson state: grid '{}' lacks {} (read it from a grid file or generate "
          "it with its geometry)",
          g.name, what));
  };
  need(g.num_cells > 0 && g.num_edges > 0, "cells and edges");
  need(g.cell_lon.size() == nc && g.cell_lat.size() == nc, "cell coordinates");
  need(g.edge_lon.size() == ne && g.edge_lat.size() == ne, "edge coordinates");
  need(g.primal_normal_east.size() == ne, "edge normals (primal_normal_east)");
  need(g.e2c.rows() == ne && g.e2c.cols() == 2, "the E2C table");
}

}  // namespace

// ---- Config ------------------------------------------------------------------------------------

void JablonowskiWilliamsonConfig::validate() const {
  const auto finite = [](double x) { return std::isfinite(x); };
  if (!finite(u0)) reject("u0 (jw_u0)", u0, "expected a finite wind speed in m/s");
  if (!(eta0 > 0.0 && eta0 < 1.0)) reject("eta0", eta0, "expected 0 < eta0 < 1");
  if (!(eta_t > 0.0 && eta_t < 1.0)) reject("eta_t", eta_t, "expected 0 < eta_t < 1");
  if (!(t0 > 0.0) || !finite(t0)) reject("t0 (jw_temp0)", t0, "expected a positive temperature");
  if (!(lapse_rate > 0.0) || !finite(lapse_rate))
    reject("lapse_rate", lapse_rate, "expected a positive lapse rate in K/m (JW06: 0.005)");
  if (!(delta_t >= 0.0) || !finite(delta_t))
    reject("delta_t", delta_t, "expected a non-negative temperature in K (JW06: 4.8e5)");
  if (!(surface_pressure > 0.0) || !finite(surface_pressure))
    reject("surface_pressure", surface_pressure, "expected a positive pressure in Pa");
  if (!finite(perturbation_amplitude))
    reject("perturbation_amplitude (jw_up)", perturbation_amplitude, "expected a finite number");
  if (!finite(perturbation_lon))
    reject("perturbation_lon", perturbation_lon, "expected a finite longitude in radians");
  if (!(std::fabs(perturbation_lat) <= 0.5 * pi))
    reject("perturbation_lat", perturbation_lat, "expected a latitude in [-pi/2, pi/2] radians");
  if (!(perturbation_radius > 0.0) || !finite(perturbation_radius))
    reject("perturbation_radius", perturbation_radius,
           "expected a positive fraction of the sphere radius (JW06: 0.1)");
  if (!finite(earth_radius))
    reject("earth_radius", earth_radius, "expected metres, or <= 0 for the grid's radius");
  if (!finite(angular_velocity))
    reject("angular_velocity", angular_velocity, "expected a finite rate in rad/s");
  if (!(vn_noise_amplitude >= 0.0) || !finite(vn_noise_amplitude))
    reject("vn_noise_amplitude", vn_noise_amplitude, "expected a non-negative speed in m/s");
  if (!(w_noise_amplitude >= 0.0) || !finite(w_noise_amplitude))
    reject("w_noise_amplitude", w_noise_amplitude, "expected a non-negative speed in m/s");
  if (!(newton_tolerance > 0.0 && newton_tolerance < 1e-3))
    reject("newton_tolerance", newton_tolerance, "expected 0 < tolerance < 1e-3");
  if (max_newton_iterations < 1)
    reject("max_newton_iterations", max_newton_iterations, "expected at least 1");
}

// ---- Analytic fields ---------------------------------------------------------------------------

namespace jw {

double eta_v(double eta, const JablonowskiWilliamsonConfig& c) {
  return (eta - c.eta0) * 0.5 * pi;
}

double zonal_wind(double eta, double lat, const JablonowskiWilliamsonConfig& c) {
  const double cv = std::cos(eta_v(eta, c));
  const double s2 = std::sin(2.0 * lat);
  return c.u0 * cv * std::sqrt(cv) * s2 * s2;
}

double zonal_wind_perturbation(double lon, double lat, const JablonowskiWilliamsonConfig& c) {
  const double angle = sphere::arc_length(
      sphere::to_cartesian(lon, lat), sphere::to_cartesian(c.perturbation_lon, c.perturbation_lat));
  const double r = angle / c.perturbation_radius;  // r / R with r = a·angle and R = a·fraction
  return c.perturbation_amplitude * std::exp(-r * r);
}

double mean_temperature(double eta, const JablonowskiWilliamsonConfig& c) {
  double t = c.t0 * std::pow(eta, rd * c.lapse_rate / grav);  // eq. 4
  if (eta < c.eta_t) {
    const double d = c.eta_t - eta;
    t += c.delta_t * d * d * d * d * d;  // eq. 5
  }
  return t;
}

double mean_geopotential(double eta, const JablonowskiWilliamsonConfig& c) {
  double phi = c.t0 * grav / c.lapse_rate * (1.0 - std::pow(eta, rd * c.lapse_rate / grav));
  if (eta < c.eta_t) {  // eq. 8: the integral of −R_d ΔT (η_t − η)⁵ / η
    const double et = c.eta_t;
    const double et2 = et * et, et3 = et2 * et, et4 = et3 * et, et5 = et4 * et;
    const double e2 = eta * eta, e3 = e2 * eta, e4 = e3 * eta, e5 = e4 * eta;
    phi -= rd * c.delta_t *
           ((std::log(eta / et) + 137.0 / 60.0) * et5 - 5.0 * et4 * eta + 5.0 * et3 * e2 -
            10.0 / 3.0 * et2 * e3 + 1.25 * et * e4 - 0.2 * e5);
  }
  return phi;
}

double temperature(double eta, double lat, const JablonowskiWilliamsonConfig& c, double a) {
  return temperature_with(eta, latitude_factors(lat, c, a), c);
}

double geopotential(double eta, double lat, const JablonowskiWilliamsonConfig& c, double a) {
  return geopotential_with(eta, latitude_factors(lat, c, a), c);
}

double surface_geopotential(double lat, const JablonowskiWilliamsonConfig& c, double a) {
  return geopotential(1.0, lat, c, a);
}

double solve_eta(double phi, double lat, const JablonowskiWilliamsonConfig& c, double a) {
  const double eta = newton_eta(phi, latitude_factors(lat, c, a), c);
  if (!(eta > 0.0))
    throw Error(
        fmt::format("Jablonowski-Williamson: Newton's iteration for eta did not converge within {} "
                    "iterations at geopotential {} m2/s2 (height {} m), latitude {} rad",
                    c.max_newton_iterations, phi, phi / grav, lat));
  return eta;
}

}  // namespace jw

// ---- The state on a grid -----------------------------------------------------------------------

namespace initial_state_detail {
void check_size(const std::string& name, std::size_t size, index_t points, int levels) {
  if (points < 0 || levels < 0 ||
      size != static_cast<std::size_t>(points) * static_cast<std::size_t>(levels))
    throw InvalidArgument(
        fmt::format("initial state: field '{}' has {} values, expected {} points x {} levels", name,
                    size, points, levels));
}
}  // namespace initial_state_detail

std::vector<double> edge_full_level_heights(const Grid& g, const HostTable<double>& z_mc) {
  if (z_mc.rows() != static_cast<std::size_t>(g.num_cells) || z_mc.cols() < 1)
    throw InvalidArgument(fmt::format(
        "edge_full_level_heights: z_mc has shape ({}, {}), expected ({}, nlev >= 1) on grid '{}'",
        z_mc.rows(), z_mc.cols(), g.num_cells, g.name));
  if (g.e2c.rows() != static_cast<std::size_t>(g.num_edges))
    throw GridError(fmt::format("edge_full_level_heights: grid '{}' lacks the E2C table", g.name));
  const std::size_t ne = static_cast<std::size_t>(g.num_edges);
  const std::size_t nlev = z_mc.cols();
  const bool have_distances = g.edge_cell_distance.rows() == ne;
  std::vector<double> z(ne * nlev);
  for (std::size_t e = 0; e < ne; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    double w0 = 0.5;
    if (c0 == missing_index) {
      w0 = 0.0;
    } else if (c1 == missing_index) {
      w0 = 1.0;
    } else if (have_distances) {
      // ICON's c_lin_e (mo_intp_coeffs): each cell weighted by the other cell's distance.
      const double d0 = g.edge_cell_distance(e, 0), d1 = g.edge_cell_distance(e, 1);
      if (d0 + d1 > 0.0) w0 = d1 / (d0 + d1);
    }
    if (c0 == missing_index && c1 == missing_index)
      throw GridError(
          fmt::format("edge_full_level_heights: edge {} of grid '{}' has no cell", e, g.name));
    for (std::size_t k = 0; k < nlev; ++k) {
      const double z0 = c0 == missing_index ? 0.0 : z_mc(static_cast<std::size_t>(c0), k);
      const double z1 = c1 == missing_index ? 0.0 : z_mc(static_cast<std::size_t>(c1), k);
      z[e + ne * k] = w0 * z0 + (1.0 - w0) * z1;
    }
  }
  return z;
}

InitialState jablonowski_williamson_state(const Grid& g, const HostTable<double>& z_ifc,
                                          const HostTable<double>& z_mc,
                                          const JablonowskiWilliamsonConfig& config) {
  config.validate();
  check_grid(g);
  if (z_mc.cols() < 1)
    throw InvalidArgument("Jablonowski-Williamson state: z_mc has no levels, expected nlev >= 1");
  const std::size_t nc = static_cast<std::size_t>(g.num_cells);
  const std::size_t ne = static_cast<std::size_t>(g.num_edges);
  const std::size_t nlev = z_mc.cols();
  check_table("z_mc", z_mc, nc, nlev);
  check_table("z_ifc", z_ifc, nc, nlev + 1);
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t k = 0; k < nlev; ++k) {
      const double top = z_ifc(c, k), bottom = z_ifc(c, k + 1), mid = z_mc(c, k);
      if (!std::isfinite(top) || !std::isfinite(bottom) || !std::isfinite(mid) || !(top > bottom))
        throw InvalidArgument(fmt::format(
            "Jablonowski-Williamson state: cell {}, level {}: z_ifc = ({}, {}) m must be finite "
            "and strictly decreasing with the half level (half level 0 is the model top)",
            c, k, top, bottom));
      if (!(mid <= top && mid >= bottom))
        throw InvalidArgument(fmt::format(
            "Jablonowski-Williamson state: cell {}, level {}: z_mc = {} m lies outside its layer "
            "[{}, {}] m of z_ifc",
            c, k, mid, bottom, top));
    }
  if (!compat::is_initialized())
    throw InvalidArgument(
        "Jablonowski-Williamson state: Kokkos is not initialized (the Newton solves run on the "
        "host execution space); call Kokkos::initialize first");

  const double a = config.earth_radius > 0.0 ? config.earth_radius : g.sphere_radius;
  InitialState s;
  s.num_cells = g.num_cells;
  s.num_edges = g.num_edges;
  s.num_levels = static_cast<int>(nlev);
  s.vn.assign(ne * nlev, 0.0);
  s.w.assign(nc * (nlev + 1), 0.0);
  const NoiseNumbering cell_noise(g.cell_global_index, config.whole_grid_cells, nc);
  const NoiseNumbering edge_noise(g.edge_global_index, config.whole_grid_edges, ne);
  if (config.w_noise_amplitude > 0.0)
    for (std::size_t kh = 1; kh < nlev; ++kh)
      for (std::size_t c = 0; c < nc; ++c)
        s.w[c + nc * kh] = config.w_noise_amplitude *
                           uniform_noise(config.noise_seed + 1, cell_noise.index(c, kh));
  s.theta_v.assign(nc * nlev, 0.0);
  s.exner.assign(nc * nlev, 0.0);
  s.rho.assign(nc * nlev, 0.0);
  s.eta_cell.assign(nc * nlev, 0.0);
  s.eta_edge.assign(ne * nlev, 0.0);
  s.temperature.assign(nc * nlev, 0.0);
  s.pressure.assign(nc * nlev, 0.0);
  s.surface_pressure.assign(nc, 0.0);
  s.z_edge = edge_full_level_heights(g, z_mc);

  // Per point: −1 if fine, else the first level whose Newton solve failed (nlev: the surface).
  // Exceptions cannot leave a parallel region, so failures are reported after it.
  std::vector<long long> cell_failure(nc, -1), edge_failure(ne, -1);
  const double rd_o_cpd = jw::rd / jw::cpd;
  using Host = Kokkos::DefaultHostExecutionSpace;

  Kokkos::parallel_for("icondiff::initial_state::cells",
                       Kokkos::RangePolicy<Host>(0, static_cast<std::int64_t>(nc)),
                       [&](std::int64_t cell) {
                         const auto c = static_cast<std::size_t>(cell);
                         const LatitudeFactors f = latitude_factors(g.cell_lat[c], config, a);
                         for (std::size_t k = 0; k < nlev; ++k) {
                           const double eta = newton_eta(jw::grav * z_mc(c, k), f, config);
                           if (!(eta > 0.0)) {
                             cell_failure[c] = static_cast<long long>(k);
                             return;
                           }
                           const std::size_t i = c + nc * k;
                           const double t = temperature_with(eta, f, config);
                           const double p = eta * config.surface_pressure;
                           const double exner = std::pow(p / jw::p0ref, rd_o_cpd);
                           s.eta_cell[i] = eta;
                           s.temperature[i] = t;
                           s.pressure[i] = p;
                           s.exner[i] = exner;
                           s.theta_v[i] = t / exner;  // dry atmosphere: T_v = T
                           s.rho[i] = p / (jw::rd * t);
                         }
                         const double eta_s = newton_eta(jw::grav * z_ifc(c, nlev), f, config);
                         if (!(eta_s > 0.0)) cell_failure[c] = static_cast<long long>(nlev);
                         s.surface_pressure[c] = eta_s * config.surface_pressure;
                       });

  Kokkos::parallel_for(
      "icondiff::initial_state::edges", Kokkos::RangePolicy<Host>(0, static_cast<std::int64_t>(ne)),
      [&](std::int64_t edge) {
        const auto e = static_cast<std::size_t>(edge);
        const double lat = g.edge_lat[e];
        const LatitudeFactors f = latitude_factors(lat, config, a);
        const double u_prime = jw::zonal_wind_perturbation(g.edge_lon[e], lat, config);
        for (std::size_t k = 0; k < nlev; ++k) {
          const std::size_t i = e + ne * k;
          const double eta = newton_eta(jw::grav * s.z_edge[i], f, config);
          if (!(eta > 0.0)) {
            edge_failure[e] = static_cast<long long>(k);
            return;
          }
          s.eta_edge[i] = eta;
          // v = 0 in JW06, so the normal component is u times the eastward part of the normal.
          double vn = (jw::zonal_wind(eta, lat, config) + u_prime) * g.primal_normal_east[e];
          if (config.vn_noise_amplitude > 0.0)
            vn += config.vn_noise_amplitude *
                  uniform_noise(config.noise_seed, edge_noise.index(e, k));
          s.vn[i] = vn;
        }
      });
  Kokkos::fence();

  const auto report = [&](const char* where, std::size_t point, long long level, double z,
                          double lat) {
    throw Error(fmt::format(
        "Jablonowski-Williamson state: Newton's iteration for eta did not converge within {} "
        "iterations at {} {}, {} {} (height {} m, latitude {} rad)",
        config.max_newton_iterations, where, point,
        level == static_cast<long long>(nlev) ? "surface half level" : "level", level, z, lat));
  };
  for (std::size_t c = 0; c < nc; ++c)
    if (cell_failure[c] >= 0) {
      const auto k = static_cast<std::size_t>(cell_failure[c]);
      report("cell", c, cell_failure[c], k == nlev ? z_ifc(c, nlev) : z_mc(c, k), g.cell_lat[c]);
    }
  for (std::size_t e = 0; e < ne; ++e)
    if (edge_failure[e] >= 0)
      report("edge", e, edge_failure[e],
             s.z_edge[e + ne * static_cast<std::size_t>(edge_failure[e])], g.edge_lat[e]);
  return s;
}

}  // namespace icondiff
