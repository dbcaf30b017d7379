// The Jablonowski-Williamson initial state: the analytic fields against the identities JW06 builds
// them from (hydrostatic and gradient-wind balance, the jet maximum, the perturbation shape), and
// the state on generated grids against those fields (eta solved from the heights, p from exner,
// vn the projected wind, w = 0).
#include "support/tiny_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double deg = pi / 180.0;
constexpr double a_earth = 6371229.0;
constexpr double omega = 7.29212e-5;

/// Equidistant half levels from `top` down to the surface height `surface(c)`: z_ifc (C, nlev+1)
/// and the midpoints z_mc (C, nlev).
void make_heights(const Grid& g, int nlev, double top,
                  const std::function<double(index_t)>& surface, HostTable<double>& z_ifc,
                  HostTable<double>& z_mc) {
  const auto nc = static_cast<std::size_t>(g.num_cells);
  z_ifc = HostTable<double>(nc, static_cast<std::size_t>(nlev) + 1);
  z_mc = HostTable<double>(nc, static_cast<std::size_t>(nlev));
  for (std::size_t c = 0; c < nc; ++c) {
    const double zs = surface(static_cast<index_t>(c));
    for (int kh = 0; kh <= nlev; ++kh)
      z_ifc(c, static_cast<std::size_t>(kh)) = zs + (top - zs) * (nlev - kh) / nlev;
    for (int k = 0; k < nlev; ++k)
      z_mc(c, static_cast<std::size_t>(k)) =
          0.5 * (z_ifc(c, static_cast<std::size_t>(k)) + z_ifc(c, static_cast<std::size_t>(k) + 1));
  }
}

double flat(index_t) {
  return 0.0;
}

// ---- Analytic fields
// -----------------------------------------------------------------------------

TEST(JablonowskiWilliamson, JetMaximumIsU0AtEta0And45Degrees) {
  const JablonowskiWilliamsonConfig c{};
  EXPECT_DOUBLE_EQ(jw::eta_v(c.eta0, c), 0.0);
  EXPECT_NEAR(jw::zonal_wind(c.eta0, 45.0 * deg, c), 35.0, 1e-12);
  EXPECT_NEAR(jw::zonal_wind(c.eta0, -45.0 * deg, c), 35.0, 1e-12);
  EXPECT_NEAR(jw::zonal_wind(c.eta0, 0.0, c), 0.0, 1e-12);
  EXPECT_NEAR(jw::zonal_wind(c.eta0, 90.0 * deg, c), 0.0, 1e-12);
  // Anywhere else the wind is weaker: scan η and φ.
  double largest = 0;
  for (double eta = 0.05; eta <= 1.0; eta += 0.01)
    for (double lat = -90.0; lat <= 90.0; lat += 1.0)
      largest = std::max(largest, jw::zonal_wind(eta, lat * deg, c));
  EXPECT_LE(largest, 35.0 + 1e-12);
  EXPECT_GT(largest, 34.9);
  // u0 cos^{3/2}(η_v) sin²(2φ) at η = 0.5, φ = 30°: cos^{3/2}(0.124π) · 0.75.
  EXPECT_NEAR(jw::zonal_wind(0.5, 30.0 * deg, c),
              35.0 * std::pow(std::cos(0.248 * pi / 2.0), 1.5) * 0.75, 1e-12);
}

TEST(JablonowskiWilliamson, MeanProfiles) {
  const JablonowskiWilliamsonConfig c{};
  const double exponent = jw::rd * 0.005 / jw::grav;  // R_d Γ / g
  EXPECT_DOUBLE_EQ(jw::mean_temperature(1.0, c), 288.0);
  EXPECT_NEAR(jw::mean_geopotential(1.0, c), 0.0, 1e-9);
  EXPECT_NEAR(jw::mean_temperature(0.5, c), 288.0 * std::pow(0.5, exponent), 1e-12);
  // The stratospheric correction ΔT (η_t − η)^5 above the tropopause.
  EXPECT_NEAR(jw::mean_temperature(0.1, c), 288.0 * std::pow(0.1, exponent) + 4.8e5 * 1e-5, 1e-9);
  // T̄ and Φ̄ are continuous with continuous derivatives across η_t.
  const double h = 1e-7;
  EXPECT_NEAR(jw::mean_temperature(0.2 - h, c), jw::mean_temperature(0.2 + h, c), 1e-4);
  EXPECT_NEAR(jw::mean_geopotential(0.2 - h, c), jw::mean_geopotential(0.2 + h, c), 1e-1);
  // The troposphere's Φ̄ = T0 g/Γ (1 − η^{R_d Γ/g}): 500 hPa lies near the standard
  // atmosphere's 5574 m.
  EXPECT_NEAR(jw::mean_geopotential(0.5, c) / jw::grav,
              288.0 / 0.005 * (1.0 - std::pow(0.5, exponent)), 1e-6);
  EXPECT_NEAR(jw::mean_geopotential(0.5, c) / jw::grav, 5574.0, 30.0);
}

TEST(JablonowskiWilliamson, HydrostaticBalance) {
  // dΦ/dη = −R_d T / η: T (eq. 6) and Φ (eq. 9) are coded separately, so this checks both.
  const JablonowskiWilliamsonConfig c{};
  for (double eta : {0.02, 0.1, 0.19, 0.21, 0.252, 0.5, 0.8, 0.99})
    for (double lat : {-80.0, -45.0, 0.0, 20.0, 45.0, 60.0}) {
      const double h = 1e-6 * eta;
      const double dphi = (jw::geopotential(eta + h, lat * deg, c, a_earth) -
                           jw::geopotential(eta - h, lat * deg, c, a_earth)) /
                          (2 * h);
      const double expected = -jw::rd * jw::temperature(eta, lat * deg, c, a_earth) / eta;
      EXPECT_NEAR(dphi / expected, 1.0, 1e-7) << "eta " << eta << ", lat " << lat;
    }
}

TEST(JablonowskiWilliamson, GradientWindBalance) {
  // JW06 build Φ from u by the gradient-wind balance on η surfaces (p_s is constant):
  // (2Ω sin φ + u tan φ / a) u = −(1/a) ∂Φ/∂φ.
  const JablonowskiWilliamsonConfig c{};
  for (double eta : {0.1, 0.252, 0.5, 0.9})
    for (double lat : {-70.0, -45.0, -10.0, 15.0, 45.0, 70.0}) {
      const double phi = lat * deg, h = 1e-6;
      const double u = jw::zonal_wind(eta, phi, c);
      const double lhs = (2.0 * omega * std::sin(phi) + u * std::tan(phi) / a_earth) * u;
      const double rhs = -(jw::geopotential(eta, phi + h, c, a_earth) -
                           jw::geopotential(eta, phi - h, c, a_earth)) /
                         (2 * h) / a_earth;
      EXPECT_NEAR(lhs, rhs, 1e-8 + 1e-6 * std::fabs(lhs)) << "eta " << eta << ", lat " << lat;
    }
}

TEST(JablonowskiWilliamson, Perturbation) {
  const JablonowskiWilliamsonConfig c{};
  EXPECT_DOUBLE_EQ(jw::zonal_wind_perturbation(20.0 * deg, 40.0 * deg, c), 1.0);
  // At r = R = a/10, i.e. 0.1 rad of great circle due north of the centre: u_p / e.
  EXPECT_NEAR(jw::zonal_wind_perturbation(20.0 * deg, 40.0 * deg + 0.1, c), std::exp(-1.0), 1e-12);
  EXPECT_LT(jw::zonal_wind_perturbation(-160.0 * deg, -40.0 * deg, c), 1e-300 + 1e-30);
  JablonowskiWilliamsonConfig steady;
  steady.perturbation_amplitude = 0.0;
  EXPECT_EQ(jw::zonal_wind_perturbation(20.0 * deg, 40.0 * deg, steady), 0.0);
}

TEST(JablonowskiWilliamson, SolveEtaInvertsTheGeopotential) {
  const JablonowskiWilliamsonConfig c{};
  for (double eta : {0.005, 0.05, 0.2, 0.252, 0.6, 1.0, 1.02})
    for (double lat : {-89.0, -30.0, 0.0, 45.0, 89.9}) {
      const double phi = jw::geopotential(eta, lat * deg, c, a_earth);
      EXPECT_NEAR(jw::solve_eta(phi, lat * deg, c, a_earth), eta, 1e-13 * eta)
          << "eta " << eta << ", lat " << lat;
    }
  // JW06's surface: η = 1 exactly on z_s = Φ_s / g.
  for (double lat : {-60.0, 0.0, 30.0}) {
    const double phis = jw::surface_geopotential(lat * deg, c, a_earth);
    EXPECT_DOUBLE_EQ(phis, jw::geopotential(1.0, lat * deg, c, a_earth));
    EXPECT_NEAR(jw::solve_eta(phis, lat * deg, c, a_earth), 1.0, 1e-14);
  }
  // Equatorial Φ_s ≈ 1.1e3 m²/s² (JW06's topography of ~113 m), so at z = 0 η is ~1.3 % above 1.
  const double phis_eq = jw::surface_geopotential(0.0, c, a_earth);
  EXPECT_NEAR(phis_eq / jw::grav, 113.0, 2.0);
  const double eta_flat = jw::solve_eta(0.0, 0.0, c, a_earth);
  EXPECT_NEAR(std::log(eta_flat), phis_eq / (jw::rd * jw::temperature(1.0, 0.0, c, a_earth)), 1e-4);
  // Above 107 km, the height of η = 1e-7 (ICON4Py's start value, which cannot reach it).
  const double high = 120000.0 * jw::grav;
  const double eta_high = jw::solve_eta(high, 0.3, c, a_earth);
  EXPECT_NEAR(jw::geopotential(eta_high, 0.3, c, a_earth), high, 1e-6 * high);
}

TEST(JablonowskiWilliamson, ConfigValidation) {
  JablonowskiWilliamsonConfig c;
  EXPECT_NO_THROW(c.validate());
  c.eta0 = 1.5;
  EXPECT_THROW(c.validate(), ConfigError);
  c = {};
  c.lapse_rate = 0.0;
  EXPECT_THROW(c.validate(), ConfigError);
  c = {};
  c.vn_noise_amplitude = -1.0;
  EXPECT_THROW(c.validate(), ConfigError);
  c = {};
  c.w_noise_amplitude = std::nan("");
  EXPECT_THROW(c.validate(), ConfigError);
  c = {};
  c.perturbation_lat = 2.0;
  try {
    c.validate();
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("perturbation_lat"), std::string::npos) << e.what();
  }
}

// ---- The state on a grid
// -------------------------------------------------------------------------

class InitialStateOnGrid : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { grid_ = new Grid(generate_icosahedral_grid(2, 2)); }
  static void TearDownTestSuite() {
    delete grid_;
    grid_ = nullptr;
  }
  static Grid* grid_;
};
Grid* InitialStateOnGrid::grid_ = nullptr;

TEST_F(InitialStateOnGrid, ThermodynamicsFollowFromEta) {
  const Grid& g = *grid_;
  const int nlev = 30;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, nlev, 30000.0, flat, z_ifc, z_mc);
  const JablonowskiWilliamsonConfig c{};
  const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  const std::size_t nc = static_cast<std::size_t>(g.num_cells);
  ASSERT_EQ(s.num_cells, g.num_cells);
  ASSERT_EQ(s.num_levels, nlev);
  ASSERT_EQ(s.theta_v.size(), nc * nlev);
  ASSERT_EQ(s.w.size(), nc * (nlev + 1));
  EXPECT_TRUE(std::all_of(s.w.begin(), s.w.end(), [](double w) { return w == 0.0; }));

  for (std::size_t cell = 0; cell < nc; ++cell) {
    const double lat = g.cell_lat[cell];
    for (std::size_t k = 0; k < static_cast<std::size_t>(nlev); ++k) {
      const std::size_t i = cell + nc * k;
      const double eta = s.eta_cell[i];
      // η reproduces the height, and every field is the JW06 one at that η.
      EXPECT_NEAR(jw::geopotential(eta, lat, c, g.sphere_radius), jw::grav * z_mc(cell, k), 1e-7);
      EXPECT_NEAR(s.temperature[i], jw::temperature(eta, lat, c, g.sphere_radius), 1e-10);
      EXPECT_NEAR(s.pressure[i], 1e5 * eta, 1e-9);
      // p from exner = (p/p0)^{R_d/c_pd} matches JW's p = p_s η.
      EXPECT_NEAR(1e5 * std::pow(s.exner[i], jw::cpd / jw::rd) / s.pressure[i], 1.0, 1e-13);
      EXPECT_NEAR(s.theta_v[i] * s.exner[i], s.temperature[i], 1e-10);
      EXPECT_NEAR(s.rho[i] * jw::rd * s.temperature[i] / s.pressure[i], 1.0, 1e-13);
      if (k > 0) {
        // Exner (and p) increase downwards (k = 0 is the top) ...
        const std::size_t above = cell + nc * (k - 1);
        EXPECT_GT(s.exner[i], s.exner[above]);
        // ... hydrostatically: ln(p_k / p_{k-1}) = g/R_d ∫ dz / T over the 1 km between them
        // (Simpson's rule, T at the midpoint from the analytic state).
        const double dz = z_mc(cell, k - 1) - z_mc(cell, k);
        const double z_mid = 0.5 * (z_mc(cell, k - 1) + z_mc(cell, k));
        const double t_mid = jw::temperature(
            jw::solve_eta(jw::grav * z_mid, lat, c, g.sphere_radius), lat, c, g.sphere_radius);
        const double expected =
            jw::grav * dz / jw::rd *
            (1.0 / s.temperature[i] + 4.0 / t_mid + 1.0 / s.temperature[above]) / 6.0;
        EXPECT_NEAR(std::log(s.pressure[i] / s.pressure[above]) / expected, 1.0, 2e-5);
      }
    }
    // Zero topography: η(z = 0) = η solved at Φ = 0, and ln η ≈ Φ_s / (R_d T): JW06's surface
    // lies Φ_s / g above z = 0 (113 m at the equator, η = 1.0125 at z = 0) or below it (−316 m
    // at the poles, η = 0.954).
    const double ps = s.surface_pressure[cell];
    const double phis = jw::surface_geopotential(lat, c, g.sphere_radius);
    EXPECT_NEAR(ps / 1e5, jw::solve_eta(0.0, lat, c, g.sphere_radius), 1e-13);
    EXPECT_NEAR(std::log(ps / 1e5), phis / (jw::rd * jw::temperature(1.0, lat, c, g.sphere_radius)),
                3e-3);
    EXPECT_NEAR(ps / 1e5, 1.0, 0.05);
  }
}

TEST_F(InitialStateOnGrid, SurfacePressureIsPsOnJwTopography) {
  const Grid& g = *grid_;
  const JablonowskiWilliamsonConfig c{};
  HostTable<double> z_ifc, z_mc;
  make_heights(
      g, 8, 25000.0,
      [&](index_t cell) {
        return jw::surface_geopotential(g.cell_lat[cell], c, g.sphere_radius) / jw::grav;
      },
      z_ifc, z_mc);
  const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  for (double ps : s.surface_pressure) EXPECT_NEAR(ps, 1e5, 1e-8);
}

TEST_F(InitialStateOnGrid, VnIsTheProjectedAnalyticWind) {
  const Grid& g = *grid_;
  const int nlev = 12;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, nlev, 24000.0, flat, z_ifc, z_mc);
  const JablonowskiWilliamsonConfig c{};
  const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  const std::size_t ne = static_cast<std::size_t>(g.num_edges);
  ASSERT_EQ(s.vn.size(), ne * nlev);
  const std::vector<double> z_edge = edge_full_level_heights(g, z_mc);
  ASSERT_EQ(s.z_edge, z_edge);
  double largest_u = 0;
  for (std::size_t e = 0; e < ne; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    for (std::size_t k = 0; k < static_cast<std::size_t>(nlev); ++k) {
      const std::size_t i = e + ne * k;
      // The edge height lies between its cells' (flat levels here: equal to them).
      EXPECT_NEAR(z_edge[i], z_mc(c0, k), 1e-9);
      EXPECT_NEAR(z_edge[i], z_mc(c1, k), 1e-9);
      const double eta = s.eta_edge[i];
      EXPECT_NEAR(jw::geopotential(eta, g.edge_lat[e], c, g.sphere_radius), jw::grav * z_edge[i],
                  1e-7);
      const double u = jw::zonal_wind(eta, g.edge_lat[e], c) +
                       jw::zonal_wind_perturbation(g.edge_lon[e], g.edge_lat[e], c);
      EXPECT_NEAR(s.vn[i], u * g.primal_normal_east[e], 1e-12);
      largest_u = std::max(largest_u, jw::zonal_wind(eta, g.edge_lat[e], c));
    }
  }
  // The jet (u0 = 35 m/s at η0 = 0.252, ±45°) is resolved: R2B2 edges lie within ~4° of 45°
  // latitude and a 2 km level lies near η0 (~10 km).
  EXPECT_GT(largest_u, 0.9 * 35.0);
  EXPECT_LE(largest_u, 35.0);
}

TEST_F(InitialStateOnGrid, PerturbationIsCentredAt20E40N) {
  const Grid& g = *grid_;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, 4, 20000.0, flat, z_ifc, z_mc);
  JablonowskiWilliamsonConfig steady;
  steady.perturbation_amplitude = 0.0;
  const InitialState with = jablonowski_williamson_state(g, z_ifc, z_mc);
  const InitialState without = jablonowski_williamson_state(g, z_ifc, z_mc, steady);
  const std::size_t ne = static_cast<std::size_t>(g.num_edges);
  std::size_t strongest = 0;
  double strongest_u = 0;
  for (std::size_t e = 0; e < ne; ++e) {
    if (std::fabs(g.primal_normal_east[e]) < 0.5) continue;
    const double du = (with.vn[e] - without.vn[e]) / g.primal_normal_east[e];
    EXPECT_GE(du, -1e-12);
    EXPECT_LE(du, 1.0 + 1e-12);
    if (du > strongest_u) {
      strongest_u = du;
      strongest = e;
    }
  }
  EXPECT_GT(strongest_u, 0.3);
  EXPECT_NEAR(g.edge_lon[strongest] / deg, 20.0, 8.0);
  EXPECT_NEAR(g.edge_lat[strongest] / deg, 40.0, 8.0);
}

TEST_F(InitialStateOnGrid, NoiseIsReproducibleAndBounded) {
  const Grid& g = *grid_;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, 3, 15000.0, flat, z_ifc, z_mc);
  JablonowskiWilliamsonConfig c;
  const InitialState clean = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  c.vn_noise_amplitude = 0.5;
  c.noise_seed = 42;
  const InitialState noisy = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  const InitialState again = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  c.noise_seed = 43;
  const InitialState other = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  EXPECT_EQ(noisy.vn, again.vn);
  EXPECT_NE(noisy.vn, other.vn);
  double sum = 0, largest = 0;
  for (std::size_t i = 0; i < clean.vn.size(); ++i) {
    const double d = noisy.vn[i] - clean.vn[i];
    sum += d;
    largest = std::max(largest, std::fabs(d));
  }
  EXPECT_LE(largest, 0.5);
  EXPECT_GT(largest, 0.45);
  // Uniform in [-A, A]: the mean of ~11500 values is 0 within ~4 standard errors.
  EXPECT_NEAR(sum / clean.vn.size(), 0.0, 4.0 * 0.5 / std::sqrt(3.0 * clean.vn.size()));
  EXPECT_EQ(noisy.theta_v, clean.theta_v);
  EXPECT_EQ(noisy.w, clean.w);
}

TEST_F(InitialStateOnGrid, VerticalWindNoiseStaysInsideTheColumn) {
  const Grid& g = *grid_;
  const std::size_t nlev = 4, nc = static_cast<std::size_t>(g.num_cells);
  HostTable<double> z_ifc, z_mc;
  make_heights(g, nlev, 15000.0, flat, z_ifc, z_mc);
  JablonowskiWilliamsonConfig c;
  c.w_noise_amplitude = 0.1;
  c.noise_seed = 7;
  const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc, c);
  ASSERT_EQ(s.w.size(), nc * (nlev + 1));
  double largest = 0;
  for (std::size_t kh = 0; kh <= nlev; ++kh)
    for (std::size_t cell = 0; cell < nc; ++cell) {
      const double w = s.w[cell + nc * kh];
      if (kh == 0 || kh == nlev)
        ASSERT_EQ(w, 0.0) << "w must vanish at the top and the ground; cell " << cell;
      else
        largest = std::max(largest, std::fabs(w));
    }
  EXPECT_LE(largest, 0.1);
  EXPECT_GT(largest, 0.09);
  EXPECT_EQ(jablonowski_williamson_state(g, z_ifc, z_mc, c).w, s.w);
}

TEST_F(InitialStateOnGrid, EdgeHeightsUseTheLinearWeights) {
  const Grid& g = *grid_;
  HostTable<double> z_ifc, z_mc;
  // Topography varying with the cell index, so the two cells of an edge differ.
  make_heights(
      g, 5, 20000.0, [](index_t cell) { return 10.0 * (cell % 7); }, z_ifc, z_mc);
  const std::vector<double> z = edge_full_level_heights(g, z_mc);
  const std::size_t ne = static_cast<std::size_t>(g.num_edges);
  for (std::size_t e = 0; e < ne; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    const double d0 = g.edge_cell_distance(e, 0), d1 = g.edge_cell_distance(e, 1);
    for (std::size_t k = 0; k < 5; ++k)
      EXPECT_NEAR(z[e + ne * k], (d1 * z_mc(c0, k) + d0 * z_mc(c1, k)) / (d0 + d1), 1e-9);
  }
  EXPECT_NO_THROW(jablonowski_williamson_state(g, z_ifc, z_mc));
}

TEST_F(InitialStateOnGrid, BadHeightsAreRejected) {
  const Grid& g = *grid_;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, 4, 20000.0, flat, z_ifc, z_mc);
  HostTable<double> short_ifc(z_mc.rows(), z_mc.cols());
  EXPECT_THROW(jablonowski_williamson_state(g, short_ifc, z_mc), InvalidArgument);
  HostTable<double> upside_down = z_ifc;
  std::swap(upside_down(3, 0), upside_down(3, 4));
  try {
    jablonowski_williamson_state(g, upside_down, z_mc);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cell 3"), std::string::npos) << e.what();
  }
  HostTable<double> outside = z_mc;
  outside(5, 2) = 1e5;
  EXPECT_THROW(jablonowski_williamson_state(g, z_ifc, outside), InvalidArgument);
  JablonowskiWilliamsonConfig one_step;
  one_step.max_newton_iterations = 1;
  try {
    jablonowski_williamson_state(g, z_ifc, z_mc, one_step);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did not converge"), std::string::npos) << e.what();
  }
  Grid bare;
  bare.num_cells = g.num_cells;
  EXPECT_THROW(jablonowski_williamson_state(bare, z_ifc, z_mc), GridError);
}

TEST_F(InitialStateOnGrid, CopiesIntoLabelledViews) {
  const Grid& g = *grid_;
  HostTable<double> z_ifc, z_mc;
  make_heights(g, 6, 20000.0, flat, z_ifc, z_mc);
  const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc);
  const auto p = to_prognostic_state<Kokkos::HostSpace>(s);
  EXPECT_EQ(p.vn.label(), "icondiff::initial_state::vn");
  EXPECT_EQ(p.w.label(), "icondiff::initial_state::w");
  EXPECT_EQ(p.theta_v.label(), "icondiff::initial_state::theta_v");
  EXPECT_EQ(p.exner.label(), "icondiff::initial_state::exner");
  ASSERT_EQ(p.vn.extent(0), static_cast<std::size_t>(g.num_edges));
  ASSERT_EQ(p.vn.extent(1), 6u);
  ASSERT_EQ(p.w.extent(1), 7u);
  const std::size_t ne = p.vn.extent(0), nc = p.theta_v.extent(0);
  for (std::size_t k = 0; k < 6; ++k) {
    for (std::size_t e = 0; e < ne; e += 17) EXPECT_EQ(p.vn(e, k), s.vn[e + ne * k]);
    for (std::size_t c = 0; c < nc; c += 13) {
      EXPECT_EQ(p.theta_v(c, k), s.theta_v[c + nc * k]);
      EXPECT_EQ(p.exner(c, k), s.exner[c + nc * k]);
    }
  }
  const auto rho = initial_state_view<Kokkos::HostSpace>("rho", s.rho, s.num_cells, 6);
  EXPECT_EQ(rho.label(), "icondiff::initial_state::rho");
  EXPECT_EQ(rho(5, 3), s.rho[5 + nc * 3]);
  EXPECT_THROW(initial_state_view<Kokkos::HostSpace>("rho", s.rho, s.num_cells, 7),
               InvalidArgument);
}

TEST(InitialStateOtherGrids, LimitedAreaAndOctahedron) {
  const Grid global = generate_icosahedral_grid(2, 3);
  const Grid lam =
      cut_limited_area(global, LimitedAreaRegion::cap(10.0 * deg, 45.0 * deg, 20.0 * deg));
  ASSERT_TRUE(lam.limited_area);
  HostTable<double> z_ifc, z_mc;
  make_heights(lam, 5, 20000.0, flat, z_ifc, z_mc);
  const InitialState s = jablonowski_williamson_state(lam, z_ifc, z_mc);
  const std::size_t ne = static_cast<std::size_t>(lam.num_edges);
  const JablonowskiWilliamsonConfig c{};
  std::size_t boundary_edges = 0;
  for (std::size_t e = 0; e < ne; ++e) {
    if (lam.e2c(e, 1) != missing_index) continue;
    ++boundary_edges;
    // Lateral-boundary edges: height from their one cell, the same formula as inside.
    for (std::size_t k = 0; k < 5; ++k) {
      const std::size_t i = e + ne * k;
      EXPECT_EQ(s.z_edge[i], z_mc(lam.e2c(e, 0), k));
      const double u = jw::zonal_wind(s.eta_edge[i], lam.edge_lat[e], c) +
                       jw::zonal_wind_perturbation(lam.edge_lon[e], lam.edge_lat[e], c);
      EXPECT_NEAR(s.vn[i], u * lam.primal_normal_east[e], 1e-12);
    }
  }
  EXPECT_GT(boundary_edges, 0u);

  const Grid octahedron = test::make_octahedron_grid();
  make_heights(octahedron, 3, 10000.0, flat, z_ifc, z_mc);
  const InitialState o = jablonowski_williamson_state(octahedron, z_ifc, z_mc);
  EXPECT_EQ(o.vn.size(), 12u * 3u);
  for (double p : o.pressure) EXPECT_GT(p, 2e4);
}

}  // namespace
}  // namespace icondiff
