// The metric field factories (diffusion_spec §2.5, §2.6, §4.3) on generated grids (R2B4 global; a
// limited-area cut-out of R2B5) and the real ICON grids, with flat topography and with analytic
// mountains steep enough that every zd_* code path runs:
//  * the SLEVE levels (surface = topography, flat above nflatlev, decreasing columns, at or above
//    the unlimited SLEVE heights), z_mc;
//  * wgtfac_c interpolates linear profiles exactly, its boundary values are ICON's ratios;
//  * theta_ref_mc is ICON's reference atmosphere: hydrostatic, its closed form at sea level,
//    increasing with height;
//  * zd_* vanish on flat topography, and on mountains are non-zero exactly where an independent
//    recomputation of the slope/height criteria, kstart/kend and the owner/nudging rules says;
//    the offsets stay in [0, nlev-2] and the weights reproduce z_mc from the neighbour's levels;
//  * the copy into DiffusionMetricState, the presets, and the configuration errors.
// Bit-for-bit agreement with ICON4Py's NumPy/GT4Py code is not testable here (no ICON4Py in the
// build); see docs/dev/metrics.md for the one-off comparison.
#include "support/grid_files.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/geometry/metric_fields.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/setup/diffusion_setup.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double deg = pi / 180.0;

/// A grid and the interpolation coefficients the metrics need, built once per test program.
struct Case {
  Grid grid;
  HostTable<double> geofac_n2s, c_bln_avg;
};

const Case& cached_case(const std::string& key, const std::function<Grid()>& make) {
  static std::map<std::string, std::unique_ptr<Case>> cache;
  auto& slot = cache[key];
  if (!slot) {
    slot = std::make_unique<Case>();
    slot->grid = make();
    slot->geofac_n2s = compute_geofac_n2s(slot->grid, compute_geofac_div(slot->grid));
    slot->c_bln_avg = compute_c_bln_avg(slot->grid, 0.5);
  }
  return *slot;
}

const Case& r2b4_case() {
  return cached_case("R2B4", [] { return generate_icosahedral_grid(2, 4); });
}

/// A limited-area cut-out of R2B5 (about 80 km cells): a 15° cap around (10°E, 45°N).
const Case& lam_case() {
  return cached_case("LAM", [] {
    return cut_limited_area(generate_icosahedral_grid(2, 5),
                            LimitedAreaRegion::cap(10 * deg, 45 * deg, 15 * deg));
  });
}

const Case& file_case(const std::string& path) {
  return cached_case(path, [&] { return read_icon_grid(path); });
}

HostMetricFields metrics_on(const Case& k, const VerticalGridConfig& vertical,
                            const MetricsConfig& config) {
  return compute_metric_fields(k.grid, vertical, config,
                               compute_topography(k.grid, config.topography), k.geofac_n2s,
                               k.c_bln_avg);
}

MetricsConfig with_topography(MetricsConfig config, const TopographyConfig& topography) {
  config.topography = topography;
  return config;
}

// ---- Checks -------------------------------------------------------------------------------------

void expect_shapes(const Grid& g, const HostMetricFields& m) {
  const std::size_t nc = g.num_cells, ne = g.num_edges;
  const std::size_t nlev = m.num_levels();
  EXPECT_EQ(m.topography.size(), nc);
  EXPECT_EQ(m.smoothed_topography.size(), nc);
  EXPECT_EQ(m.z_ifc.rows(), nc);
  EXPECT_EQ(m.z_ifc.cols(), nlev + 1);
  EXPECT_EQ(m.z_mc.cols(), nlev);
  EXPECT_EQ(m.wgtfac_c.cols(), nlev + 1);
  EXPECT_EQ(m.theta_ref_mc.cols(), nlev);
  EXPECT_EQ(m.ddxn_z_full.rows(), ne);
  EXPECT_EQ(m.ddxn_z_full.cols(), nlev);
  EXPECT_EQ(m.maxslp_avg.rows(), nc);
  EXPECT_EQ(m.max_nbhgt.size(), nc);
  EXPECT_EQ(m.zd_diffcoef.rows(), nc);
  EXPECT_EQ(m.zd_diffcoef.cols(), nlev);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(m.zd_intcoef[j].rows(), nc);
    EXPECT_EQ(m.zd_intcoef[j].cols(), nlev);
    EXPECT_EQ(m.zd_vertoffset[j].rows(), nc);
    EXPECT_EQ(m.zd_vertoffset[j].cols(), nlev);
  }
}

/// SLEVE: surface = topography, flat at and above nflatlev, strictly decreasing columns, never
/// below the unlimited SLEVE height (the limiter and its smoothing only lift), and equal to it in
/// columns without topography.
void expect_sleve_levels(const Grid& g, const VerticalGridConfig& vc, const HostMetricFields& m) {
  const int nlev = m.num_levels();
  const auto& vct_a = m.vertical.vct_a;
  ASSERT_EQ(m.nflatlev, end_index_of_flat_layer(vct_a, vc.flat_height));
  const double top = vc.model_top_height, ex = vc.sleve_decay_exponent;
  const auto decay = [&](double z, double s) {
    return std::sinh(std::pow(top / s, ex) - std::pow(z / s, ex)) /
           std::sinh(std::pow(top / s, ex));
  };
  int lifted = 0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    EXPECT_EQ(m.z_ifc(c, nlev), m.topography[c]);
    for (int k = 0; k <= m.nflatlev; ++k) ASSERT_EQ(m.z_ifc(c, k), vct_a[k]) << c << " " << k;
    for (int k = 0; k < nlev; ++k) {
      ASSERT_GT(m.z_ifc(c, k), m.z_ifc(c, k + 1)) << "cell " << c << " k " << k;
      EXPECT_EQ(m.z_mc(c, k), 0.5 * (m.z_ifc(c, k) + m.z_ifc(c, k + 1)));
    }
    // The lowest layer is at least min(50 m, min_lay_thckn) thick (ICON's limiter).
    EXPECT_GE(m.z_ifc(c, nlev - 1) - m.z_ifc(c, nlev),
              std::min(50.0, vc.lowest_layer_thickness) - 1e-12 * vct_a[0]);
    const double small = m.topography[c] - m.smoothed_topography[c];
    bool any = false;
    for (int k = m.nflatlev + 1; k < nlev; ++k) {
      const double raw = vct_a[k] +
                         m.smoothed_topography[c] * decay(vct_a[k], vc.sleve_decay_scale_1) +
                         small * decay(vct_a[k], vc.sleve_decay_scale_2);
      EXPECT_GE(m.z_ifc(c, k), raw - 1e-9 * vct_a[0]) << "cell " << c << " k " << k;
      any = any || m.z_ifc(c, k) > raw + 1e-9 * vct_a[0];
      if (m.topography[c] == 0.0 && m.smoothed_topography[c] == 0.0 && k < nlev - 1) {
        EXPECT_EQ(m.z_ifc(c, k), vct_a[k]);
      }
    }
    lifted += any;
  }
  ::testing::Test::RecordProperty("columns_lifted_by_the_thickness_limiter", lifted);
}

/// ψ = a + b z at full levels; ψ_ic[kh] = w ψ[kh] + (1 − w) ψ[kh−1] must give a + b z_ifc[kh]
/// on the interior half levels (the granule reads 1..nlev−1). Boundary values: ICON's ratios.
void expect_wgtfac_c(const Grid& g, const HostMetricFields& m) {
  const int nlev = m.num_levels();
  const double a = 3.5, b = -2.5e-3;
  for (index_t c = 0; c < g.num_cells; ++c) {
    const double* z = m.z_ifc.row(c);
    for (int kh = 1; kh < nlev; ++kh) {
      const double w = m.wgtfac_c(c, kh);
      ASSERT_GT(w, 0.0);
      ASSERT_LT(w, 1.0);
      const double psi_up = a + b * m.z_mc(c, kh - 1), psi_lo = a + b * m.z_mc(c, kh);
      const double psi_ic = w * psi_lo + (1.0 - w) * psi_up;
      EXPECT_NEAR(psi_ic, a + b * z[kh], 1e-13 * (std::fabs(a) + std::fabs(b * z[0])))
          << "cell " << c << " kh " << kh;
    }
    // ICON's top ratio is the level-1 weight written with both differences negated.
    EXPECT_EQ(m.wgtfac_c(c, 0), m.wgtfac_c(c, 1));
    EXPECT_EQ(m.wgtfac_c(c, 0), (z[1] - z[0]) / (z[2] - z[0]));
    EXPECT_EQ(m.wgtfac_c(c, nlev), (z[nlev - 1] - z[nlev]) / (z[nlev - 2] - z[nlev]));
    EXPECT_NEAR(m.wgtfac_c(c, nlev), 1.0 - m.wgtfac_c(c, nlev - 1), 1e-14);
  }
}

/// ICON's reference atmosphere: T(z) = T0 − ΔT + ΔT exp(−z/H), p hydrostatic (d ln p/dz =
/// −g/(Rd T)) with p(0) = 101325 Pa, θ = T (p0/p)^(Rd/cpd). Recover p from θ and T and check the
/// hydrostatic balance by central differences of the factory itself on a fine column.
void expect_reference_atmosphere(const HostMetricFields& m) {
  constexpr double rd = 287.04, cpd = 1004.64, g = 9.80665;
  const auto temperature = [](double z) { return 213.15 + 75.0 * std::exp(-z / 10000.0); };
  // Sea level: θ = 288.15 K / (101325/100000)^(Rd/cpd).
  HostTable<double> z(1, 1, 0.0);
  EXPECT_NEAR(compute_theta_ref_mc(z)(0, 0), 288.15 / std::pow(1.01325, rd / cpd), 1e-12);
  const int n = 2001;
  HostTable<double> column(1, n);
  for (int i = 0; i < n; ++i) column(0, i) = 40.0 * i;  // 0 .. 80 km
  const HostTable<double> theta = compute_theta_ref_mc(column);
  const auto log_p = [&](int i) {
    const double exner = temperature(column(0, i)) / theta(0, i);
    return std::log(1e5) + cpd / rd * std::log(exner);
  };
  double worst = 0.0;
  for (int i = 1; i + 1 < n; ++i) {
    const double dlnp_dz = (log_p(i + 1) - log_p(i - 1)) / 80.0;
    const double expected = -g / (rd * temperature(column(0, i)));
    worst = std::max(worst, std::fabs(dlnp_dz / expected - 1.0));
    EXPECT_GT(theta(0, i + 1), theta(0, i));  // stable: θ increases with height
  }
  EXPECT_LT(worst, 1e-6);  // second-order differences over 40 m
  // The metric field itself: increasing upwards in every column, physical values.
  const int nlev = m.num_levels();
  for (std::size_t c = 0; c < m.theta_ref_mc.rows(); ++c)
    for (int k = 0; k < nlev; ++k) {
      ASSERT_EQ(m.theta_ref_mc(c, k),
                compute_theta_ref_mc(HostTable<double>(1, 1, m.z_mc(c, k)))(0, 0));
      if (k > 0) {
        ASSERT_GT(m.theta_ref_mc(c, k - 1), m.theta_ref_mc(c, k));
      }
      ASSERT_GT(m.theta_ref_mc(c, k), 250.0);
      ASSERT_LT(m.theta_ref_mc(c, k), 8000.0);
    }
}

/// The slope measures recomputed independently (differences divided by the dual edge length,
/// levels paired before differencing), compared with the factory's, then the zd_* fields against
/// the rules of diffusion_spec §2.5 evaluated from the recomputed values.
struct ZdSummary {
  int nonzero = 0, cells = 0, by_slope = 0, by_height = 0, offsets = 0, clipped = 0;
};

void check_zd_fields(const Case& kase, const HostMetricFields& m, const MetricsConfig& config,
                     ZdSummary& s) {
  const Grid& g = kase.grid;
  const int nlev = m.num_levels();
  const index_t nc = g.num_cells;
  const index_t edge_start = g.start(Location::Edge, Zone::LateralBoundary2);
  const index_t cell_lb2 = g.start(Location::Cell, Zone::LateralBoundary2);
  const index_t cell_nudging = g.start(Location::Cell, Zone::Nudging);
  const double thslp = config.thslp_zdiffu, thhgtd = config.thhgtd_zdiffu;

  // Edge slopes of the full levels: 0 on lateral boundary row 1 (ICON4Py starts at row 2).
  HostTable<double> slope(g.num_edges, nlev, 0.0);
  for (index_t e = edge_start; e < g.num_edges; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    for (int k = 0; k < nlev; ++k)
      slope(e, k) =
          ((m.z_ifc(c1, k) + m.z_ifc(c1, k + 1)) - (m.z_ifc(c0, k) + m.z_ifc(c0, k + 1))) /
          (2.0 * g.dual_edge_length[e]);
  }
  HostTable<double> maxslp(nc, nlev, 0.0), maxhgtd(nc, nlev, 0.0);
  for (index_t c = 0; c < nc; ++c)
    for (int k = 0; k < nlev; ++k)
      for (int j = 0; j < 3; ++j) {
        const index_t e = g.c2e(c, j);
        maxslp(c, k) = std::max(maxslp(c, k), std::fabs(slope(e, k)));
        maxhgtd(c, k) = std::max(maxhgtd(c, k), std::fabs(slope(e, k)) * g.dual_edge_length[e]);
      }
  HostTable<double> slp(nc, nlev, 0.0), hgt(nc, nlev, 0.0);
  for (index_t c = cell_lb2; c < nc; ++c)
    for (int i = 0; i < 4; ++i) {
      const index_t n = g.c2e2co(c, i);
      if (n == missing_index) continue;
      for (int k = 0; k < nlev; ++k) {
        slp(c, k) += kase.c_bln_avg(c, i) * maxslp(n, k);
        hgt(c, k) += kase.c_bln_avg(c, i) * maxhgtd(n, k);
      }
    }
  double worst_slope = 0.0, worst_height = 0.0;
  for (index_t c = 0; c < nc; ++c)
    for (int k = 0; k < nlev; ++k) {
      worst_slope = std::max(worst_slope, std::fabs(slp(c, k) - m.maxslp_avg(c, k)));
      worst_height = std::max(worst_height, std::fabs(hgt(c, k) - m.maxhgtd_avg(c, k)));
    }
  EXPECT_LT(worst_slope, 1e-14);
  EXPECT_LT(worst_height, 1e-9);

  // Values this close to (but not at) a threshold could fall on either side with other rounding;
  // none of the test cases has one (checked), so the comparison below is unambiguous.
  const auto near = [](double v, double t) {
    return v != t && std::fabs(v - t) <= 1e-9 * std::max(1.0, t);
  };
  const auto steep = [&](index_t c, int k) { return slp(c, k) >= thslp || hgt(c, k) >= thhgtd; };
  s = ZdSummary{};
  for (index_t c = 0; c < nc; ++c) {
    for (int k = 0; k < nlev; ++k)
      ASSERT_FALSE(near(slp(c, k), thslp) || near(hgt(c, k), thhgtd)) << "cell " << c << " k " << k;
    // Range: owned (single node: all), from the nudging row, steep at the lowest level; from the
    // first steep level down to the last level above every neighbour's lowest full level.
    double max_nbhgt = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < 3; ++j)
      if (g.c2e2c(c, j) != missing_index)
        max_nbhgt = std::max(max_nbhgt, m.z_mc(g.c2e2c(c, j), nlev - 1));
    if (c >= cell_nudging) {
      EXPECT_EQ(m.max_nbhgt[c], max_nbhgt);
    }
    int kstart = nlev, kend = 0;
    if (c >= cell_nudging && steep(c, nlev - 1)) {
      for (int k = 0; k < nlev; ++k) kend += m.z_mc(c, k) >= max_nbhgt;  // levels decrease
      for (int k = nlev - 1; k >= 0; --k)
        if (steep(c, k)) kstart = k;
    }
    bool any = false;
    for (int k = 0; k < nlev; ++k) {
      const bool in_range = k >= kstart && k < kend;
      const double by_slope = std::sqrt(std::max(0.0, slp(c, k) - thslp)) / 250.0;
      const double by_height = 2e-4 * std::sqrt(std::max(0.0, hgt(c, k) - thhgtd));
      const double expected = in_range ? std::min(0.002, std::max(by_slope, by_height)) : 0.0;
      ASSERT_NEAR(m.zd_diffcoef(c, k), expected, 1e-12 * 0.002) << "cell " << c << " k " << k;
      // Non-zero exactly where a criterion is exceeded strictly, inside the range.
      ASSERT_EQ(m.zd_diffcoef(c, k) != 0.0, in_range && (slp(c, k) > thslp || hgt(c, k) > thhgtd))
          << "cell " << c << " k " << k;
      if (m.zd_diffcoef(c, k) != 0.0) {
        ++s.nonzero;
        any = true;
        s.by_slope += slp(c, k) > thslp;
        s.by_height += hgt(c, k) > thhgtd;
      }
      for (int j = 0; j < 3; ++j) {
        const int o = m.zd_vertoffset[j](c, k);
        const double w = m.zd_intcoef[j](c, k);
        if (!in_range) {
          ASSERT_EQ(o, 0) << "cell " << c << " k " << k;
          ASSERT_EQ(w, 0.0) << "cell " << c << " k " << k;
          continue;
        }
        s.offsets += o != 0;
        // The offset is valid for the granule (k+o and k+o+1 exist) and the two neighbour levels
        // interpolate (or, clipped at the top, extrapolate) linearly to the cell's height.
        const int kn = k + o;
        ASSERT_GE(kn, 0) << "cell " << c << " k " << k;
        ASSERT_LE(kn, nlev - 2) << "cell " << c << " k " << k;
        const double* zn = m.z_mc.row(g.c2e2c(c, j));
        const double zc = m.z_mc(c, k);
        EXPECT_NEAR(w * zn[kn] + (1.0 - w) * zn[kn + 1], zc, 1e-11 * m.vertical.vct_a[0]);
        // kn is the lowest neighbour level at or above the cell's level.
        if (zn[kn] >= zc && zn[kn + 1] < zc) {
          EXPECT_GT(w, 0.0);
          EXPECT_LE(w, 1.0);
        } else {
          ++s.clipped;
          EXPECT_TRUE((kn == 0 && zn[0] < zc) || (kn == nlev - 2 && zn[nlev - 1] >= zc))
              << "cell " << c << " k " << k << " slot " << j;
        }
      }
    }
    s.cells += any;
  }
  ::testing::Test::RecordProperty("zd_nonzero", s.nonzero);
  ::testing::Test::RecordProperty("zd_cells", s.cells);
}

ZdSummary expect_zd_fields(const Case& kase, const HostMetricFields& m,
                           const MetricsConfig& config) {
  ZdSummary s;
  check_zd_fields(kase, m, config, s);
  return s;
}

void expect_zd_zero(const HostMetricFields& m) {
  for (std::size_t i = 0; i < m.zd_diffcoef.rows() * m.zd_diffcoef.cols(); ++i) {
    ASSERT_EQ(m.zd_diffcoef.data()[i], 0.0);
    for (int j = 0; j < 3; ++j) {
      ASSERT_EQ(m.zd_intcoef[j].data()[i], 0.0);
      ASSERT_EQ(m.zd_vertoffset[j].data()[i], 0);
    }
  }
}

void expect_flat(const Grid& g, const VerticalGridConfig& vc, const HostMetricFields& m) {
  expect_shapes(g, m);
  const int nlev = m.num_levels();
  for (index_t c = 0; c < g.num_cells; ++c) {
    ASSERT_EQ(m.topography[c], 0.0);
    // Every column is the same; ICON's limiter may move the lowest interface by an ulp where
    // vct_a's lowest layer rounds to just below min_lay_thckn.
    for (int k = 0; k <= nlev; ++k) {
      ASSERT_EQ(m.z_ifc(c, k), m.z_ifc(0, k));
      ASSERT_NEAR(m.z_ifc(c, k), m.vertical.vct_a[k], 1e-12 * vc.model_top_height);
    }
  }
  for (std::size_t i = 0; i < m.ddxn_z_full.rows() * m.ddxn_z_full.cols(); ++i)
    ASSERT_EQ(m.ddxn_z_full.data()[i], 0.0);
  for (std::size_t i = 0; i < m.maxslp_avg.rows() * m.maxslp_avg.cols(); ++i) {
    ASSERT_EQ(m.maxslp_avg.data()[i], 0.0);
    ASSERT_EQ(m.maxhgtd_avg.data()[i], 0.0);
  }
  expect_zd_zero(m);
}

}  // namespace

// ---- Tests --------------------------------------------------------------------------------------

TEST(MetricFields, FlatTopographyOnR2B4) {
  const Case& k = r2b4_case();
  for (const VerticalGridConfig& vc :
       {mch_ch_r04b09_vertical_config(), exclaim_ape_vertical_config(),
        icon4py_benchmark_vertical_config()}) {
    SCOPED_TRACE(vc.num_levels);
    const HostMetricFields m = metrics_on(k, vc, mch_ch_r04b09_metrics_config());
    expect_flat(k.grid, vc, m);
    expect_sleve_levels(k.grid, vc, m);
    expect_wgtfac_c(k.grid, m);
  }
}

TEST(MetricFields, FlatTopographyOnALimitedAreaGrid) {
  const Case& k = lam_case();
  ASSERT_TRUE(k.grid.limited_area);
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  const HostMetricFields m = metrics_on(k, vc, MetricsConfig{});
  expect_flat(k.grid, vc, m);
  // Zero thresholds make every cell "steep" (0 >= 0) and every level part of the range, yet
  // zd_diffcoef = sqrt(0)/250 = 0 everywhere; the neighbour levels are the cell's own (offset 0,
  // weight 1; clipped to offset -1, weight 0 at the lowest level).
  MetricsConfig zero;
  zero.thslp_zdiffu = 0.0;
  zero.thhgtd_zdiffu = 0.0;
  const HostMetricFields z = metrics_on(k, vc, zero);
  expect_zd_fields(k, z, zero);
  const int nlev = z.num_levels();
  for (index_t c = k.grid.start(Location::Cell, Zone::Nudging); c < k.grid.num_cells; ++c)
    for (int j = 0; j < 3; ++j) {
      for (int kk = 0; kk < nlev - 1; ++kk) {
        ASSERT_EQ(z.zd_vertoffset[j](c, kk), 0);
        ASSERT_EQ(z.zd_intcoef[j](c, kk), 1.0);
      }
      ASSERT_EQ(z.zd_vertoffset[j](c, nlev - 1), -1);
      ASSERT_EQ(z.zd_intcoef[j](c, nlev - 1), 0.0);
    }
}

TEST(MetricFields, GaussianHillOnR2B4) {
  const Case& k = r2b4_case();
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  // R2B4 cells are about 160 km apart: a 3 km hill with a 400 km e-folding distance has steps of
  // up to 900 m between neighbours (the height criterion), slopes below 0.01.
  const MetricsConfig mc = with_topography(
      mch_ch_r04b09_metrics_config(), TopographyConfig::gaussian_hill(3000.0, 400e3, 10.0, 45.0));
  const HostMetricFields m = metrics_on(k, vc, mc);
  expect_shapes(k.grid, m);
  expect_sleve_levels(k.grid, vc, m);
  expect_wgtfac_c(k.grid, m);
  expect_reference_atmosphere(m);
  const ZdSummary s = expect_zd_fields(k, m, mc);
  EXPECT_GT(s.cells, 20);
  EXPECT_GT(s.nonzero, 500);
  EXPECT_GT(s.by_height, 0);
  EXPECT_GT(s.offsets, 0);
  // ICON's default thresholds (0.025, 200 m) switch it on in fewer places.
  MetricsConfig defaults = mc;
  defaults.thslp_zdiffu = 0.025;
  defaults.thhgtd_zdiffu = 200.0;
  const ZdSummary d = expect_zd_fields(k, metrics_on(k, vc, defaults), defaults);
  EXPECT_GT(d.nonzero, 0);
  EXPECT_LT(d.nonzero, s.nonzero);
}

TEST(MetricFields, MountainsOnALimitedAreaGrid) {
  const Case& k = lam_case();
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  // About 80 km cells: a narrow Gaussian hill (slopes up to 0.034, the slope criterion) and a
  // Schär mountain (ripples), both inside the domain; and the APE levels with ICON's defaults.
  const MetricsConfig hill = with_topography(
      mch_ch_r04b09_metrics_config(), TopographyConfig::gaussian_hill(4000.0, 100e3, 10.0, 45.0));
  const MetricsConfig schaer =
      with_topography(mch_ch_r04b09_metrics_config(),
                      TopographyConfig::schaer_mountain(4000.0, 250e3, 200e3, 10.0, 45.0));
  for (const MetricsConfig& mc : {hill, schaer}) {
    SCOPED_TRACE(static_cast<int>(mc.topography.shape));
    const HostMetricFields m = metrics_on(k, vc, mc);
    expect_shapes(k.grid, m);
    expect_sleve_levels(k.grid, vc, m);
    expect_wgtfac_c(k.grid, m);
    const ZdSummary s = expect_zd_fields(k, m, mc);
    EXPECT_GT(s.cells, 10);
    EXPECT_GT(s.by_slope, 0);
    EXPECT_GT(s.by_height, 0);
    EXPECT_GT(s.offsets, 0);
    // Lateral boundary row 1 edges have no slope (ICON4Py starts at row 2), no zd before the
    // nudging row.
    for (index_t e = 0; e < k.grid.start(Location::Edge, Zone::LateralBoundary2); ++e)
      for (int kk = 0; kk < m.num_levels(); ++kk) ASSERT_EQ(m.ddxn_z_full(e, kk), 0.0);
    for (index_t c = 0; c < k.grid.start(Location::Cell, Zone::Nudging); ++c)
      for (int kk = 0; kk < m.num_levels(); ++kk) ASSERT_EQ(m.zd_diffcoef(c, kk), 0.0);
  }
  MetricsConfig ape = MetricsConfig{};
  ape.topography = hill.topography;
  const VerticalGridConfig ape_levels = exclaim_ape_vertical_config();
  const HostMetricFields m = metrics_on(k, ape_levels, ape);
  expect_sleve_levels(k.grid, ape_levels, m);
  EXPECT_GT(expect_zd_fields(k, m, ape).nonzero, 0);
}

TEST(MetricFields, MountainOnTheRealGlobalGrid) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Case& k = file_case(path);
  const VerticalGridConfig vc = exclaim_ape_vertical_config();
  const MetricsConfig mc = with_topography(
      exclaim_ape_metrics_config(), TopographyConfig::gaussian_hill(4000.0, 800e3, -100.0, 40.0));
  const HostMetricFields flat = metrics_on(k, vc, exclaim_ape_metrics_config());
  expect_flat(k.grid, vc, flat);
  const HostMetricFields m = metrics_on(k, vc, mc);
  expect_sleve_levels(k.grid, vc, m);
  expect_wgtfac_c(k.grid, m);
  expect_reference_atmosphere(m);
  EXPECT_GT(expect_zd_fields(k, m, mc).nonzero, 0);
}

TEST(MetricFields, MountainOnTheRealLimitedAreaGrid) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Case& k = file_case(path);
  ASSERT_TRUE(k.grid.limited_area);
  double lon = 0, lat = 0;
  test::centre_of(k.grid, lon, lat);
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  expect_flat(k.grid, vc, metrics_on(k, vc, mch_ch_r04b09_metrics_config()));
  const MetricsConfig mc = with_topography(mch_ch_r04b09_metrics_config(),
                                           TopographyConfig::gaussian_hill(3000.0, 40e3, lon, lat));
  const HostMetricFields m = metrics_on(k, vc, mc);
  expect_sleve_levels(k.grid, vc, m);
  expect_wgtfac_c(k.grid, m);
  const ZdSummary s = expect_zd_fields(k, m, mc);
  EXPECT_GT(s.by_slope, 0);
  EXPECT_GT(s.offsets, 0);
  // Each criterion alone (the other threshold out of reach) switches on a subset.
  MetricsConfig slope_only = mc, height_only = mc;
  slope_only.thhgtd_zdiffu = 1e9;
  height_only.thslp_zdiffu = 1e9;
  const ZdSummary by_slope = expect_zd_fields(k, metrics_on(k, vc, slope_only), slope_only);
  const ZdSummary by_height = expect_zd_fields(k, metrics_on(k, vc, height_only), height_only);
  EXPECT_GT(by_slope.nonzero, 0);
  EXPECT_EQ(by_slope.by_height, 0);
  EXPECT_GT(by_height.nonzero, 0);
  EXPECT_EQ(by_height.by_slope, 0);
  EXPECT_LE(by_slope.nonzero, s.nonzero);
  EXPECT_LE(by_height.nonzero, s.nonzero);
}

TEST(MetricFields, AnalyticTopography) {
  const Grid& g = r2b4_case().grid;
  const TopographyConfig hill = TopographyConfig::gaussian_hill(1000.0, 500e3, 30.0, -20.0);
  const TopographyConfig schaer =
      TopographyConfig::schaer_mountain(1000.0, 500e3, 300e3, 30.0, -20.0);
  const std::vector<double> h = compute_topography(g, hill);
  const std::vector<double> s = compute_topography(g, schaer);
  const sphere::Vec3 centre = sphere::to_cartesian(30.0 * deg, -20.0 * deg);
  double peak = 0.0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    const double d = g.sphere_radius *
                     sphere::arc_length(sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]), centre);
    EXPECT_NEAR(h[c], 1000.0 * std::exp(-(d / 500e3) * (d / 500e3)), 1e-9);
    EXPECT_NEAR(s[c], h[c] * std::pow(std::cos(pi * d / 300e3), 2), 1e-9);
    peak = std::max(peak, h[c]);
  }
  EXPECT_GT(peak, 950.0);  // a cell centre lies within ~100 km of the summit
  for (double v : compute_topography(g, TopographyConfig::flat())) ASSERT_EQ(v, 0.0);
}

TEST(MetricFields, TopographySmoothing) {
  const Case& k = r2b4_case();
  const Grid& g = k.grid;
  // A constant is left unchanged (the Laplacian of a constant vanishes to round-off); a hill is
  // flattened but keeps its summit where it was.
  const std::vector<double> constant(g.num_cells, 700.0);
  for (double v : smooth_topography(g, constant, k.geofac_n2s)) ASSERT_NEAR(v, 700.0, 1e-9);
  const std::vector<double> h =
      compute_topography(g, TopographyConfig::gaussian_hill(3000.0, 300e3, 10.0, 45.0));
  const std::vector<double> s = smooth_topography(g, h, k.geofac_n2s);
  const auto top_h = std::max_element(h.begin(), h.end());
  const auto top_s = std::max_element(s.begin(), s.end());
  EXPECT_EQ(top_h - h.begin(), top_s - s.begin());
  EXPECT_LT(*top_s, *top_h);
  EXPECT_GT(*top_s, 0.0);
  EXPECT_EQ(smooth_topography(g, h, k.geofac_n2s, 0), h);
  EXPECT_THROW(smooth_topography(g, h, k.geofac_n2s, -1), InvalidArgument);
}

TEST(MetricFields, FactoriesOneByOneAgreeWithTheWhole) {
  const Case& k = lam_case();
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  const MetricsConfig mc = with_topography(
      mch_ch_r04b09_metrics_config(), TopographyConfig::gaussian_hill(4000.0, 100e3, 10.0, 45.0));
  const HostMetricFields m = metrics_on(k, vc, mc);
  const std::vector<double> topo = compute_topography(k.grid, mc.topography);
  EXPECT_EQ(m.topography, topo);
  const HostTable<double> z_ifc = compute_z_ifc(k.grid, vc, compute_vct_a(vc), topo, k.geofac_n2s);
  EXPECT_EQ(z_ifc, m.z_ifc);
  EXPECT_EQ(compute_z_mc(z_ifc), m.z_mc);
  EXPECT_EQ(compute_wgtfac_c(z_ifc), m.wgtfac_c);
  EXPECT_EQ(compute_theta_ref_mc(m.z_mc), m.theta_ref_mc);
  const HostTable<double> ddxn = compute_ddxn_z_full(k.grid, z_ifc);
  EXPECT_EQ(ddxn, m.ddxn_z_full);
  HostTable<double> a, b, c, d;
  compute_slope_measures(k.grid, ddxn, k.c_bln_avg, a, b, c, d);
  EXPECT_EQ(a, m.maxslp);
  EXPECT_EQ(b, m.maxhgtd);
  EXPECT_EQ(c, m.maxslp_avg);
  EXPECT_EQ(d, m.maxhgtd_avg);
  EXPECT_EQ(compute_max_nbhgt(k.grid, m.z_mc), m.max_nbhgt);
  HostMetricFields z;
  compute_zdiffu_fields(k.grid, m.z_mc, m.max_nbhgt, c, d, mc, z);
  EXPECT_EQ(z.zd_diffcoef, m.zd_diffcoef);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(z.zd_intcoef[j], m.zd_intcoef[j]);
    EXPECT_EQ(z.zd_vertoffset[j], m.zd_vertoffset[j]);
  }
  // The grid-only overload computes the same interpolation coefficients internally.
  const HostMetricFields whole = compute_metric_fields(k.grid, vc, mc);
  EXPECT_EQ(whole.z_ifc, m.z_ifc);
  EXPECT_EQ(whole.zd_diffcoef, m.zd_diffcoef);
  EXPECT_EQ(whole.vertical.vct_a, m.vertical.vct_a);
  EXPECT_EQ(whole.vertical.end_index_of_damping_layer, m.vertical.end_index_of_damping_layer);
}

TEST(MetricFields, CopyIntoTheGranuleMetricState) {
  using Memory = Kokkos::DefaultExecutionSpace::memory_space;
  const Case& k = lam_case();
  const MetricsConfig mc = with_topography(
      mch_ch_r04b09_metrics_config(), TopographyConfig::gaussian_hill(4000.0, 100e3, 10.0, 45.0));
  const HostMetricFields m = metrics_on(k, mch_ch_r04b09_vertical_config(), mc);
  const DiffusionMetricState<Memory> s = make_diffusion_metric_state<Memory>(m);
  const std::size_t nc = k.grid.num_cells, nlev = m.num_levels();
  EXPECT_EQ(s.theta_ref_mc.label(), "icondiff::inputs::theta_ref_mc");
  EXPECT_EQ(s.wgtfac_c.label(), "icondiff::inputs::wgtfac_c");
  EXPECT_EQ(s.zd_diffcoef.label(), "icondiff::inputs::zd_diffcoef");
  EXPECT_EQ(s.zd_intcoef.label(), "icondiff::inputs::zd_intcoef");
  EXPECT_EQ(s.zd_vertoffset.label(), "icondiff::inputs::zd_vertoffset");
  ASSERT_EQ(s.theta_ref_mc.extent(0), nc);
  ASSERT_EQ(s.theta_ref_mc.extent(1), nlev);
  ASSERT_EQ(s.wgtfac_c.extent(1), nlev + 1);
  ASSERT_EQ(s.zd_intcoef.extent(1), 3u);
  ASSERT_EQ(s.zd_vertoffset.extent(2), nlev);
  const auto theta = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.theta_ref_mc);
  const auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.wgtfac_c);
  const auto dc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.zd_diffcoef);
  const auto ic = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.zd_intcoef);
  const auto vo = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.zd_vertoffset);
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t kk = 0; kk < nlev; ++kk) {
      ASSERT_EQ(theta(c, kk), static_cast<vp>(m.theta_ref_mc(c, kk)));
      ASSERT_EQ(w(c, kk), static_cast<vp>(m.wgtfac_c(c, kk)));
      ASSERT_EQ(dc(c, kk), m.zd_diffcoef(c, kk));
      for (int j = 0; j < 3; ++j) {
        ASSERT_EQ(ic(c, j, kk), m.zd_intcoef[j](c, kk));
        ASSERT_EQ(vo(c, j, kk), m.zd_vertoffset[j](c, kk));
      }
    }
  HostMetricFields broken = m;
  broken.wgtfac_c = HostTable<double>(nc, nlev);
  try {
    make_diffusion_metric_state<Memory>(broken);
    ADD_FAILURE() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("wgtfac_c"), std::string::npos) << e.what();
  }
}

TEST(MetricFields, Presets) {
  EXPECT_EQ(mch_ch_r04b09_metrics_config().thslp_zdiffu, 0.02);
  EXPECT_EQ(mch_ch_r04b09_metrics_config().thhgtd_zdiffu, 125.0);
  EXPECT_EQ(exclaim_ape_metrics_config().thslp_zdiffu, 0.02);
  EXPECT_EQ(exclaim_ape_metrics_config().thhgtd_zdiffu, 125.0);
  EXPECT_EQ(icon4py_benchmark_metrics_config().thslp_zdiffu, 0.025);
  EXPECT_EQ(icon4py_benchmark_metrics_config().thhgtd_zdiffu, 200.0);
  EXPECT_EQ(MetricsConfig{}.topography.shape, TopographyConfig::Shape::Flat);
}

void expect_error_words(const std::function<void()>& f, const std::vector<std::string>& words) {
  try {
    f();
    ADD_FAILURE() << "expected an icondiff::Error containing '" << words.front() << "'";
  } catch (const Error& e) {
    const std::string message = e.what();
    for (const auto& w : words)
      EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' not in: " << message;
  }
}

TEST(MetricFields, BadConfigurationsAreRejectedWithClearMessages) {
  const Case& k = r2b4_case();
  const VerticalGridConfig vc = mch_ch_r04b09_vertical_config();
  const auto run = [&](const MetricsConfig& mc) { return [&, mc] { metrics_on(k, vc, mc); }; };
  MetricsConfig mc;
  mc.thslp_zdiffu = -0.1;
  expect_error_words(run(mc), {"thslp_zdiffu", "nonhydrostatic_nml", ">= 0"});
  mc = MetricsConfig{};
  mc.thhgtd_zdiffu = std::nan("");
  expect_error_words(run(mc), {"thhgtd_zdiffu", "nan"});
  mc = MetricsConfig{};
  mc.topography = TopographyConfig::gaussian_hill(1000.0, 0.0, 0.0, 0.0);
  expect_error_words(run(mc), {"half_width", "> 0"});
  mc.topography = TopographyConfig::gaussian_hill(1000.0, 1e5, 0.0, 95.0);
  expect_error_words(run(mc), {"centre_lat_deg", "[-90, 90]"});
  mc.topography = TopographyConfig::gaussian_hill(std::nan(""), 1e5, 0.0, 0.0);
  expect_error_words(run(mc), {"height", "finite"});
  mc.topography = TopographyConfig::schaer_mountain(1000.0, 1e5, 0.0, 0.0, 0.0);
  expect_error_words(run(mc), {"wavelength", "> 0"});
  // An invalid vertical configuration is reported as such.
  VerticalGridConfig bad = vc;
  bad.num_levels = 0;
  expect_error_words([&] { metrics_on(k, bad, MetricsConfig{}); }, {"run_nml:num_lev"});
  // A mountain reaching the model top: ICON stops ("model top is too low").
  mc.topography = TopographyConfig::gaussian_hill(22000.0, 1000e3, 10.0, 45.0);
  expect_error_words(run(mc), {"SLEVE", "too close to the model top", "top_height"});
  // A flat height below the mountain: the limiter lifts the first flat level.
  VerticalGridConfig low_flat = vc;
  low_flat.flat_height = 2000.0;
  MetricsConfig hill;
  hill.topography = TopographyConfig::gaussian_hill(3000.0, 400e3, 10.0, 45.0);
  expect_error_words([&] { metrics_on(k, low_flat, hill); },
                     {"SLEVE", "nflatlev", "flat_height", "too low"});
  // Inputs of the wrong size.
  expect_error_words([&] { compute_z_mc(HostTable<double>(3, 1)); }, {"z_ifc", ">= 2"});
  expect_error_words([&] { compute_wgtfac_c(HostTable<double>(3, 2)); }, {"z_ifc", ">= 3"});
  expect_error_words(
      [&] {
        compute_metric_fields(k.grid, vc, MetricsConfig{}, std::vector<double>(5, 0.0),
                              k.geofac_n2s, k.c_bln_avg);
      },
      {"topography", "5 values", std::to_string(k.grid.num_cells)});
  expect_error_words(
      [&] {
        compute_metric_fields(k.grid, vc, MetricsConfig{},
                              std::vector<double>(k.grid.num_cells, 0.0), k.geofac_n2s,
                              HostTable<double>(k.grid.num_cells, 3));
      },
      {"c_bln_avg", "expected"});
  Grid no_geometry = k.grid;
  no_geometry.dual_edge_length.clear();
  expect_error_words([&] { compute_metric_fields(no_geometry, vc, MetricsConfig{}); },
                     {"lacks dual_edge_length"});
}

}  // namespace icondiff
