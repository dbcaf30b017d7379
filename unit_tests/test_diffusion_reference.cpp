// Tests of the plain-loop diffusion reference (unit_tests/reference) and of the 18-cell test
// torus (unit_tests/support/simple_grid): hand-computed values on single points, linearity,
// fused programs against chains of the elementary ones, points outside every range untouched,
// the derived parameters against diffusion_spec.md §2.7, and whole-granule properties
// (never-written levels, zone bookkeeping of §3.11, steady states, conservation).
#include "reference/diffusion_reference.hpp"
#include "support/host_field.hpp"
#include "support/simple_grid.hpp"
#include "support/tiny_grids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

namespace icondiff {
namespace {

namespace ref = reference;
using ref::Field;
using ref::Field3;
using ref::IntField3;
using ref::Table;
using ref::Vector;
using test::RandomSource;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// ---- Helpers ------------------------------------------------------------------------------------

Table random_table(RandomSource& rng, index_t rows, int cols, double lo = -1.0, double hi = 1.0) {
  Table t(rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform(lo, hi);
  return t;
}

Field3 random_field3(RandomSource& rng, index_t n, int slots, int levels) {
  Field3 f(n, slots, levels);
  for (auto& v : f.values) v = rng.uniform();
  return f;
}

/// ICON4Py's construction: offsets in [-k, nlev-k-2] at level k, so k+o+1 <= nlev-1.
IntField3 random_offsets(RandomSource& rng, index_t n, int nlev) {
  IntField3 f(n, 3, nlev);
  for (index_t c = 0; c < n; ++c)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < nlev; ++k) f(c, j, k) = rng.integer(-k, nlev - k - 2);
  return f;
}

Vector random_signs(RandomSource& rng, index_t n) {
  Vector v(n);
  for (auto& x : v) x = rng.uniform() < 0.0 ? -1.0 : 1.0;
  return v;
}

/// Random inside [hs,he) × [vs,ve), NaN outside.
Field poisoned(RandomSource& rng, index_t n, int levels, index_t hs, index_t he, int vs, int ve) {
  Field f(n, levels, nan);
  for (index_t i = hs; i < he; ++i)
    for (int k = vs; k < ve; ++k) f(i, k) = rng.uniform();
  return f;
}

/// NaN exactly outside [hs,he) × [vs,ve) and finite inside.
void expect_written_only_inside(const Field& f, index_t hs, index_t he, int vs, int ve,
                                const char* what) {
  int wrong_outside = 0, wrong_inside = 0;
  for (index_t i = 0; i < f.points; ++i)
    for (int k = 0; k < f.levels; ++k) {
      const bool inside = i >= hs && i < he && k >= vs && k < ve;
      if (inside && !std::isfinite(f(i, k))) ++wrong_inside;
      if (!inside && !std::isnan(f(i, k))) ++wrong_outside;
    }
  EXPECT_EQ(wrong_outside, 0) << what << ": points outside the range were written";
  EXPECT_EQ(wrong_inside, 0) << what << ": points inside the range are not finite";
}

double max_rel_diff(const Field& a, const Field& b) {
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.levels, b.levels);
  double worst = 0.0;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double x = a.values[i], y = b.values[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::fabs(x - y) / std::max(1.0, std::max(std::fabs(x), std::fabs(y))));
  }
  return worst;
}

/// Bitwise equality (NaN == NaN).
bool identical(const Field& a, const Field& b) {
  if (a.points != b.points || a.levels != b.levels) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double x = a.values[i], y = b.values[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x != y) return false;
  }
  return true;
}

Field combine(double a, const Field& x, double b, const Field& y) {
  Field r = x;
  for (std::size_t i = 0; i < r.values.size(); ++i) r.values[i] = a * x.values[i] + b * y.values[i];
  return r;
}

/// Linearity: F(a·x + b·y) == a·F(x) + b·F(y) for a map between lists of fields.
void expect_linear(const std::function<std::vector<Field>(const std::vector<Field>&)>& f,
                   const std::vector<Field>& x, const std::vector<Field>& y, const char* what) {
  const double a = 0.75, b = -1.25;
  std::vector<Field> xy;
  for (std::size_t i = 0; i < x.size(); ++i) xy.push_back(combine(a, x[i], b, y[i]));
  const auto fx = f(x), fy = f(y), fxy = f(xy);
  for (std::size_t i = 0; i < fx.size(); ++i)
    EXPECT_LT(max_rel_diff(fxy[i], combine(a, fx[i], b, fy[i])), 1e-13)
        << what << ": output " << i << " is not linear";
}

constexpr int kLevels = 8;

// ================================================================================================
// The torus
// ================================================================================================

std::set<index_t> row_set(const HostTable<index_t>& t, index_t r) {
  return std::set<index_t>(t.row(r), t.row(r) + t.cols());
}

TEST(SimpleTorus, SizesAndShapes) {
  const Grid g = test::make_simple_torus_grid();
  EXPECT_EQ(g.num_cells, 18);
  EXPECT_EQ(g.num_edges, 27);
  EXPECT_EQ(g.num_vertices, 9);
  EXPECT_FALSE(g.limited_area);
  const auto shape = [](const HostTable<index_t>& t, std::size_t r, std::size_t c) {
    return t.rows() == r && t.cols() == c;
  };
  EXPECT_TRUE(shape(g.c2e, 18, 3));
  EXPECT_TRUE(shape(g.c2v, 18, 3));
  EXPECT_TRUE(shape(g.c2e2c, 18, 3));
  EXPECT_TRUE(shape(g.c2e2co, 18, 4));
  EXPECT_TRUE(shape(g.e2c, 27, 2));
  EXPECT_TRUE(shape(g.e2v, 27, 2));
  EXPECT_TRUE(shape(g.e2c2v, 27, 4));
  EXPECT_TRUE(shape(g.e2c2e, 27, 4));
  EXPECT_TRUE(shape(g.e2c2eo, 27, 5));
  EXPECT_TRUE(shape(g.v2e, 9, 6));
  EXPECT_TRUE(shape(g.v2c, 9, 6));
  for (const auto* t : {&g.c2e, &g.c2v, &g.c2e2c, &g.c2e2co, &g.e2c, &g.e2v, &g.e2c2v, &g.e2c2e,
                        &g.e2c2eo, &g.v2e, &g.v2c})
    for (std::size_t i = 0; i < t->rows() * t->cols(); ++i) EXPECT_GE(t->data()[i], 0);
}

TEST(SimpleTorus, RowsFromAppendixA) {
  const Grid g = test::make_simple_torus_grid();
  const auto row = [](const HostTable<index_t>& t, index_t r) {
    return std::vector<index_t>(t.row(r), t.row(r) + t.cols());
  };
  EXPECT_EQ(row(g.c2e2co, 0), (std::vector<index_t>{15, 4, 3, 0}));
  EXPECT_EQ(row(g.c2e2co, 17), (std::vector<index_t>{14, 2, 13, 17}));
  EXPECT_EQ(row(g.c2e2c, 0), (std::vector<index_t>{15, 4, 3}));
  EXPECT_EQ(row(g.c2e, 0), (std::vector<index_t>{0, 1, 5}));
  EXPECT_EQ(row(g.v2e, 0), (std::vector<index_t>{0, 1, 2, 6, 25, 20}));
  EXPECT_EQ(row(g.v2e, 8), (std::vector<index_t>{24, 25, 26, 21, 13, 17}));
  EXPECT_EQ(row(g.e2c2v, 0), (std::vector<index_t>{0, 1, 4, 6}));
  EXPECT_EQ(row(g.e2c2v, 5), (std::vector<index_t>{1, 4, 5, 0}));
  EXPECT_EQ(row(g.e2c2v, 11), (std::vector<index_t>{3, 6, 5, 7}));
  EXPECT_EQ(row(g.e2c, 26), (std::vector<index_t>{13, 17}));
}

TEST(SimpleTorus, C2E2COHasSelfLastAndC2E2CFirst) {
  const Grid g = test::make_simple_torus_grid();
  for (index_t c = 0; c < 18; ++c) {
    EXPECT_EQ(g.c2e2co(c, 3), c) << "cell " << c;
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(g.c2e2co(c, j), g.c2e2c(c, j)) << "cell " << c;
      EXPECT_NE(g.c2e2c(c, j), c);
    }
  }
}

TEST(SimpleTorus, TablesAreMutuallyConsistent) {
  const Grid g = test::make_simple_torus_grid();
  // C2E <-> E2C, E2V <-> V2E, C2V <-> V2C
  for (index_t c = 0; c < 18; ++c)
    for (index_t e = 0; e < 27; ++e)
      EXPECT_EQ(row_set(g.c2e, c).count(e), row_set(g.e2c, e).count(c)) << c << " " << e;
  for (index_t v = 0; v < 9; ++v) {
    for (index_t e = 0; e < 27; ++e)
      EXPECT_EQ(row_set(g.v2e, v).count(e), row_set(g.e2v, e).count(v)) << v << " " << e;
    for (index_t c = 0; c < 18; ++c)
      EXPECT_EQ(row_set(g.v2c, v).count(c), row_set(g.c2v, c).count(v)) << v << " " << c;
    EXPECT_EQ(row_set(g.v2e, v).size(), 6u);  // a torus: every vertex has 6 edges
  }
  for (index_t c = 0; c < 18; ++c) {
    // C2V = the vertices of the cell's edges
    std::set<index_t> verts;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) verts.insert(g.e2v(g.c2e(c, j), i));
    EXPECT_EQ(verts, row_set(g.c2v, c)) << "cell " << c;
    // C2E2C = the cells across the cell's edges (as a set: not aligned with C2E on this grid)
    std::set<index_t> across;
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      across.insert(g.e2c(e, 0) == c ? g.e2c(e, 1) : g.e2c(e, 0));
    }
    EXPECT_EQ(across, row_set(g.c2e2c, c)) << "cell " << c;
  }
  for (index_t e = 0; e < 27; ++e) {
    EXPECT_EQ(g.e2c2v(e, 0), g.e2v(e, 0));
    EXPECT_EQ(g.e2c2v(e, 1), g.e2v(e, 1));
    const auto far = [&](index_t c) {
      for (int i = 0; i < 3; ++i)
        if (g.c2v(c, i) != g.e2v(e, 0) && g.c2v(c, i) != g.e2v(e, 1)) return g.c2v(c, i);
      return missing_index;
    };
    const bool swapped = e == 5 || e == 11;  // Addendum 11
    EXPECT_EQ(g.e2c2v(e, 2), far(g.e2c(e, swapped ? 1 : 0))) << "edge " << e;
    EXPECT_EQ(g.e2c2v(e, 3), far(g.e2c(e, swapped ? 0 : 1))) << "edge " << e;
    // E2C2E = the other edges of the two cells; E2C2EO = those plus e
    std::set<index_t> diamond;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) diamond.insert(g.c2e(g.e2c(e, i), j));
    diamond.erase(e);
    EXPECT_EQ(diamond, row_set(g.e2c2e, e)) << "edge " << e;
    diamond.insert(e);
    EXPECT_EQ(diamond, row_set(g.e2c2eo, e)) << "edge " << e;
  }
}

TEST(SimpleTorus, ZonesAreSimpleGrids) {
  const Grid g = test::make_simple_torus_grid();
  for (const Location l : all_locations)
    for (int z = 0; z < num_zones; ++z) {
      const auto zone = static_cast<Zone>(z);
      if (!zone_exists(l, zone)) continue;
      const index_t size = g.size(l);
      const bool halo = zone == Zone::Halo || zone == Zone::Halo2;
      EXPECT_EQ(g.start(l, zone), halo ? size : 0) << to_string(l) << " " << to_string(zone);
      EXPECT_EQ(g.end(l, zone), size) << to_string(l) << " " << to_string(zone);
    }
}

// ================================================================================================
// Derived parameters (§2.2–2.4, §2.7)
// ================================================================================================

ref::GranuleConfig config_with_levels(int nlev, double top = 80000.0) {
  ref::GranuleConfig c;
  c.vct_a.resize(nlev + 1);
  for (int k = 0; k <= nlev; ++k) c.vct_a[k] = top * (1.0 - static_cast<double>(k) / nlev);
  return c;
}

/// `value` rounds to the spec's printed number: within half a unit of its last printed digit.
void expect_printed(double value, double printed, double last_digit, const char* what) {
  EXPECT_LE(std::fabs(value - printed), 0.5 * last_digit * (1.0 + 1e-9)) << what << ": " << value;
}

TEST(DerivedParameters, DefaultsMatchSpecNumbers) {
  const auto p = ref::derive_parameters(config_with_levels(5), 10.0, false);
  expect_printed(p.K2, 3.4722e-3, 1e-7, "K2");
  expect_printed(p.K4, 4.34028e-4, 1e-9, "K4");
  expect_printed(p.K4W, 1.85185e-3, 1e-8, "K4W");
  expect_printed(p.diff_multfac_vn[0], 7.23380e-4, 1e-9, "diff_multfac_vn");
  expect_printed(p.smag_limit[0], 0.1221065, 1e-7, "smag_limit");
  expect_printed(p.smag_offset, 5.42535e-4, 1e-9, "smag_offset");
  expect_printed(p.diff_multfac_w, 9.25926e-3, 1e-8, "diff_multfac_w");
  expect_printed(p.nudgezone_diff, 0.4, 1e-12, "nudgezone_diff");
  expect_printed(p.fac_bdydiff_v, 0.0111803, 1e-7, "fac_bdydiff_v");
  // exact values
  EXPECT_DOUBLE_EQ(p.K2, 1.0 / 288.0);
  EXPECT_DOUBLE_EQ(p.K4, 1.0 / 2304.0);
  EXPECT_DOUBLE_EQ(p.K4W, 1.0 / 540.0);
  EXPECT_DOUBLE_EQ(p.diff_multfac_vn[4], 5.0 / 6912.0);
  EXPECT_DOUBLE_EQ(p.diff_multfac_w, 5.0 / 540.0);
  EXPECT_NEAR(p.rd_o_cvd, 0.4, 1e-15);
  EXPECT_EQ(p.thresh_tdiff, -5.0);
  EXPECT_EQ(p.smallest_vpfloat, std::numeric_limits<double>::epsilon());
  EXPECT_NEAR(p.bdy_diff, 0.15, 1e-15);
  EXPECT_EQ(p.nlev, 5);
  for (const auto* v : {&p.diff_multfac_vn, &p.smag_limit, &p.enh_smag_fac, &p.diff_multfac_n2w,
                        &p.diff_multfac_smag})
    EXPECT_EQ(v->size(), 5u);
}

TEST(DerivedParameters, MchLikeSetMatchesSpecNumbers) {
  auto c = config_with_levels(5);
  c.hdiff_efdt_ratio = 24.0;
  c.hdiff_w_efdt_ratio = 15.0;
  c.ndyn_substeps = 5;
  c.max_nudging_coefficient = 0.375;
  c.velocity_boundary_diffusion_denominator = 150.0;
  const auto p = ref::derive_parameters(c, 10.0, false);
  expect_printed(p.K4, 6.51042e-4, 1e-9, "K4");
  expect_printed(p.diff_multfac_vn[0], 1.085069e-3, 1e-9, "diff_multfac_vn");
  expect_printed(p.smag_limit[0], 0.1206597, 1e-7, "smag_limit");
  expect_printed(p.smag_offset, 8.13802e-4, 1e-9, "smag_offset");
  expect_printed(p.nudgezone_diff, 0.1066667, 1e-7, "nudgezone_diff");
  expect_printed(p.fac_bdydiff_v, 0.0149071, 1e-7, "fac_bdydiff_v");
}

TEST(DerivedParameters, InitialRunOverrides) {
  for (const double efdt : {36.0, 24.0, 10.0}) {
    auto c = config_with_levels(4);
    c.hdiff_efdt_ratio = efdt;
    const auto reg = ref::derive_parameters(c, 10.0, false);
    const auto ini = ref::derive_parameters(c, 10.0, true);
    EXPECT_EQ(ini.smag_offset, 0.0);
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(ini.diff_multfac_vn[k], 1.0 / 192.0, 1e-17);
      EXPECT_NEAR(ini.smag_limit[k], 0.125 - 4.0 / 192.0, 1e-16);
      EXPECT_NEAR(ini.smag_limit[k], 0.1041666666666667, 1e-15);
    }
    // nothing else changes (Addendum 5)
    EXPECT_EQ(ini.diff_multfac_w, reg.diff_multfac_w);
    EXPECT_EQ(ini.nudgezone_diff, reg.nudgezone_diff);
    EXPECT_EQ(ini.fac_bdydiff_v, reg.fac_bdydiff_v);
    EXPECT_EQ(ini.enh_smag_fac, reg.enh_smag_fac);
    EXPECT_EQ(ini.diff_multfac_n2w, reg.diff_multfac_n2w);
    EXPECT_EQ(ini.diff_multfac_smag, reg.diff_multfac_smag);
  }
}

TEST(DerivedParameters, ZeroEfdtRatioSwitchesBackgroundOff) {
  auto c = config_with_levels(3);
  c.hdiff_efdt_ratio = 0.0;
  c.hdiff_w_efdt_ratio = -1.0;
  const auto p = ref::derive_parameters(c, 10.0, false);
  EXPECT_EQ(p.K2, 0.0);
  EXPECT_EQ(p.K4, 0.0);
  EXPECT_EQ(p.K4W, 0.0);
  EXPECT_EQ(p.smag_offset, 0.0);
  EXPECT_EQ(p.diff_multfac_w, 0.0);
  EXPECT_EQ(p.diff_multfac_vn[0], 0.0);
  EXPECT_EQ(p.smag_limit[0], 0.125);
}

TEST(DerivedParameters, DiffMultfacCapsAt1Over128And1Over48) {
  auto c = config_with_levels(3);
  c.hdiff_efdt_ratio = 1.0;  // K4 = 1/64, K4·N/3 = 5/192 > 1/128
  c.hdiff_w_efdt_ratio = 1.0;
  const auto p = ref::derive_parameters(c, 10.0, false);
  EXPECT_EQ(p.diff_multfac_vn[1], 1.0 / 128.0);
  EXPECT_EQ(p.smag_limit[1], 0.125 - 4.0 / 128.0);
  EXPECT_EQ(p.diff_multfac_w, 1.0 / 48.0);
}

TEST(DerivedParameters, EnhSmagFacByHand) {
  // Control points z = (10,20,30,40), f = (1,2,5,2): alin = 0.1, bqdr = -0.03, aqdr = 0.6, so the
  // quadratic f2 + d·(0.6 - 0.03·d) passes through f3 at z3 and f4 at z4.
  ref::GranuleConfig c;
  c.smagorinski_scaling_factor = 1.0;
  c.smagorinski_scaling_factor2 = 2.0;
  c.smagorinski_scaling_factor3 = 5.0;
  c.smagorinski_scaling_factor4 = 2.0;
  c.smagorinski_scaling_height = 10.0;
  c.smagorinski_scaling_height2 = 20.0;
  c.smagorinski_scaling_height3 = 30.0;
  c.smagorinski_scaling_height4 = 40.0;
  c.vct_a = {60, 40, 30, 20, 10, 0};  // zf = 50, 35, 25, 15, 5
  const auto p = ref::derive_parameters(c, 2.0, false);
  const std::vector<double> expected = {2.0, 4.25, 4.25, 1.5, 1.0};
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(p.enh_smag_fac[k], expected[k], 1e-14) << "k = " << k;
    EXPECT_EQ(p.diff_multfac_smag[k], p.enh_smag_fac[k] * 2.0) << "k = " << k;
  }
  // zf exactly at z3 and z4
  c.vct_a = {45, 35, 25};  // zf = 40, 30
  const auto q = ref::derive_parameters(c, 1.0, false);
  EXPECT_NEAR(q.enh_smag_fac[0], 2.0, 1e-14);
  EXPECT_NEAR(q.enh_smag_fac[1], 5.0, 1e-14);
}

TEST(DerivedParameters, DefaultEnhSmagFacEndsAtF1AndF4) {
  auto c = config_with_levels(4);
  c.vct_a = {100000, 95000, 50000, 20000, 0};  // zf = 97500, 72500, 35000, 10000
  const auto p = ref::derive_parameters(c, 1.0, false);
  EXPECT_NEAR(p.enh_smag_fac[0], 1.0, 1e-12);  // above z4: f4
  EXPECT_EQ(p.enh_smag_fac[3], 0.015);         // below z1: f1
  // between z1 and z2 (35000): linear
  const double alin =
      (c.smagorinski_scaling_factor2 - 0.015) / (c.smagorinski_scaling_height2 - 32500.0);
  EXPECT_NEAR(p.enh_smag_fac[2], 0.015 + 2500.0 * alin, 1e-15);
  EXPECT_NEAR(c.smagorinski_scaling_factor2, 0.0713725067, 1e-10);
  EXPECT_NEAR(c.smagorinski_scaling_height2, 60686.2534, 1e-4);
}

TEST(DerivedParameters, Nabla2FactorInDampingLayer) {
  ref::GranuleConfig c;
  c.vct_a = {60, 40, 30, 20, 10, 0};
  c.nrd = 2;  // k = 1, 2: (1/12)·((vct_a[k] - vct_a[3]) / (vct_a[1] - vct_a[3]))^4
  auto p = ref::derive_parameters(c, 1.0, false);
  EXPECT_EQ(p.diff_multfac_n2w, (std::vector<double>{0.0, 1.0 / 12.0, 1.0 / 192.0, 0.0, 0.0}));
  c.nrd = 0;
  p = ref::derive_parameters(c, 1.0, false);
  EXPECT_EQ(p.diff_multfac_n2w, std::vector<double>(5, 0.0));
  c.nrd = 4;  // = nlev-1, reads vct_a[5]
  p = ref::derive_parameters(c, 1.0, false);
  EXPECT_NEAR(p.diff_multfac_n2w[4], (1.0 / 12.0) * std::pow(10.0 / 40.0, 4), 1e-17);
  EXPECT_EQ(p.diff_multfac_n2w[0], 0.0);
}

TEST(DerivedParameters, RejectsInvalidInput) {
  auto c = config_with_levels(5);
  EXPECT_THROW(ref::derive_parameters(c, 0.0, false), std::invalid_argument);
  EXPECT_THROW(ref::derive_parameters(c, -1.0, false), std::invalid_argument);
  EXPECT_THROW(ref::derive_parameters(c, nan, false), std::invalid_argument);
  c.nrd = 5;
  EXPECT_THROW(ref::derive_parameters(c, 1.0, false), std::invalid_argument);
  c.nrd = -1;
  EXPECT_THROW(ref::derive_parameters(c, 1.0, false), std::invalid_argument);
  c.nrd = 0;
  c.shear_type = 3;
  EXPECT_THROW(ref::derive_parameters(c, 1.0, false), std::invalid_argument);
  c.shear_type = 0;
  c.vct_a = {1.0};
  EXPECT_THROW(ref::derive_parameters(c, 1.0, false), std::invalid_argument);
}

TEST(DerivedParameters, TurbulenceDiagnosticsCondition) {
  ref::GranuleConfig c;
  EXPECT_TRUE(ref::turbulence_diagnostics_active(c));  // a_hshr = 1 by default (Addendum 1)
  c.a_hshr = 0.0;
  EXPECT_FALSE(ref::turbulence_diagnostics_active(c));
  c.shear_type = 1;
  EXPECT_TRUE(ref::turbulence_diagnostics_active(c));
  c.shear_type = 0;
  c.loutshs = true;
  EXPECT_TRUE(ref::turbulence_diagnostics_active(c));
}

// ================================================================================================
// S2/S5: RBF
// ================================================================================================

TEST(RbfVertex, HandValue) {
  const Grid g = test::make_simple_torus_grid();  // V2E[4] = (12,13,14,9,1,5)
  Field p(27, 2, 0.0), u(9, 2, 0.0), v(9, 2, 0.0);
  p(12, 0) = 3.0;
  p(5, 0) = 4.0;
  p(9, 1) = 2.0;
  Table c1(9, 6, 0.0), c2(9, 6, 0.0);
  c1(4, 0) = 1.0;
  c1(4, 5) = 2.0;
  c2(4, 3) = 5.0;
  c2(4, 5) = -1.0;
  ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, p, c1, c2, u, v, 0, 9, 0, 2);
  EXPECT_EQ(u(4, 0), 11.0);  // 1·3 + 2·4
  EXPECT_EQ(v(4, 0), -4.0);  // -1·4
  EXPECT_EQ(u(4, 1), 0.0);
  EXPECT_EQ(v(4, 1), 10.0);  // 5·2
}

TEST(RbfVertex, MissingSlotContributesNothing) {
  Grid g = test::make_simple_torus_grid();
  g.v2e(0, 5) = missing_index;  // a "pentagon"
  Field p(27, 1, 1.0), u(9, 1, nan), v(9, 1, nan);
  const Table c1(9, 6, 1.0), c2(9, 6, 2.0);
  ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, p, c1, c2, u, v, 0, 9, 0, 1);
  EXPECT_EQ(u(0, 0), 5.0);
  EXPECT_EQ(v(0, 0), 10.0);
  EXPECT_EQ(u(1, 0), 6.0);
}

TEST(RbfVertex, LinearAndRangeRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(11);
  const Table c1 = random_table(rng, 9, 6), c2 = random_table(rng, 9, 6);
  expect_linear(
      [&](const std::vector<Field>& in) {
        Field u(9, kLevels), v(9, kLevels);
        ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, in[0], c1, c2, u, v, 0, 9, 0, kLevels);
        return std::vector<Field>{u, v};
      },
      {rng.field(27, kLevels)}, {rng.field(27, kLevels)}, "rbf");
  Field u = poisoned(rng, 9, kLevels, 2, 7, 1, 6), v = poisoned(rng, 9, kLevels, 2, 7, 1, 6);
  ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, rng.field(27, kLevels), c1, c2, u, v, 2, 7, 1, 6);
  expect_written_only_inside(u, 2, 7, 1, 6, "p_u_out");
  expect_written_only_inside(v, 2, 7, 1, 6, "p_v_out");
}

// ================================================================================================
// S3: nabla2 and Smagorinsky
// ================================================================================================

struct S3Inputs {
  Vector dmfs, to, ip, ivv, slim;
  Field u, v, vn;
  Table px, py, dx, dy;
};

S3Inputs random_s3(RandomSource& rng, int nlev) {
  S3Inputs s;
  s.dmfs = rng.vector(nlev);
  s.slim = rng.vector(nlev);
  s.to = random_signs(rng, 27);
  s.ip = rng.vector(27);
  s.ivv = rng.vector(27);
  s.u = rng.field(9, nlev);
  s.v = rng.field(9, nlev);
  s.vn = rng.field(27, nlev);
  s.px = random_table(rng, 27, 4);
  s.py = random_table(rng, 27, 4);
  s.dx = random_table(rng, 27, 4);
  s.dy = random_table(rng, 27, 4);
  return s;
}

TEST(Nabla2AndSmag, HandValue) {
  const Grid g = test::make_simple_torus_grid();  // E2C2V[0] = (0,1,4,6)
  S3Inputs s;
  s.dmfs = {2.0, 2.0};
  s.slim = {0.5, 10.0};
  s.to = Vector(27, 1.0);
  s.to[0] = -1.0;
  s.ip = Vector(27, 1.0);
  s.ip[0] = 2.0;
  s.ivv = Vector(27, 1.0);
  s.ivv[0] = 3.0;
  s.u = Field(9, 2, 0.0);
  s.v = Field(9, 2, 0.0);
  const double uu[4] = {1, 2, 3, 4}, vv[4] = {0.5, 1.5, 2, 3};
  const index_t vert[4] = {0, 1, 4, 6};
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 2; ++k) {
      s.u(vert[i], k) = uu[i];
      s.v(vert[i], k) = vv[i];
    }
  s.vn = Field(27, 2, 1.0);
  s.px = Table(27, 4, 1.0);  // vn_i = u_i
  s.py = Table(27, 4, 0.0);
  s.dx = Table(27, 4, 0.0);  // vt_i = v_i
  s.dy = Table(27, 4, 1.0);
  Field kh(27, 2), khc(27, 2), z2(27, 2);
  ref::calculate_nabla2_and_smag_coefficients_for_vn(g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px,
                                                     s.py, s.dx, s.dy, s.vn, s.slim, kh, khc, z2,
                                                     9.0, 0, 27, 0, 2);
  // Lp = -2, Lvv = 3: D1 = (4-3)·3 - (1.5-0.5)·(-2) = 5, D2 = (2-1)·(-2) + (3-2)·3 = 1
  EXPECT_NEAR(khc(0, 0), 2.0 * std::sqrt(26.0), 1e-14);
  EXPECT_EQ(kh(0, 0), 0.5);  // min(max(0, 2√26 - 9), 0.5)
  EXPECT_NEAR(kh(0, 1), 2.0 * std::sqrt(26.0) - 9.0, 1e-14);
  // 4·[(1 + 2 - 2)·2² + (3 + 4 - 2)·3²] = 4·(4 + 45)
  EXPECT_EQ(z2(0, 0), 196.0);
}

TEST(Nabla2AndSmag, AgreesWithTheFortranForm) {
  // §3.4: kh = dmfs·sqrt(((vn4-vn3)·Lvv - dvt_tang·ip)² + ((vn2-vn1)·to·ip + dvt_norm·Lvv)²),
  // dvt_tang = to·(vt2 - vt1), dvt_norm = vt4 - vt3 (1-based slots).
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(12);
  const auto s = random_s3(rng, kLevels);
  Field kh(27, kLevels), khc(27, kLevels), z2(27, kLevels);
  ref::calculate_nabla2_and_smag_coefficients_for_vn(g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px,
                                                     s.py, s.dx, s.dy, s.vn, s.slim, kh, khc, z2,
                                                     0.3, 0, 27, 0, kLevels);
  for (index_t e = 0; e < 27; ++e)
    for (int k = 0; k < kLevels; ++k) {
      double vn1[5], vt1[5];
      for (int i = 0; i < 4; ++i) {
        const index_t vx = g.e2c2v(e, i);
        vn1[i + 1] = s.u(vx, k) * s.px(e, i) + s.v(vx, k) * s.py(e, i);
        vt1[i + 1] = s.u(vx, k) * s.dx(e, i) + s.v(vx, k) * s.dy(e, i);
      }
      const double dvt_tang = s.to[e] * (vt1[2] - vt1[1]), dvt_norm = vt1[4] - vt1[3];
      const double a = (vn1[4] - vn1[3]) * s.ivv[e] - dvt_tang * s.ip[e];
      const double b = (vn1[2] - vn1[1]) * s.to[e] * s.ip[e] + dvt_norm * s.ivv[e];
      const double expected = s.dmfs[k] * std::sqrt(a * a + b * b);
      EXPECT_NEAR(khc(e, k), expected, 1e-13 * std::max(1.0, std::fabs(expected)));
      EXPECT_EQ(kh(e, k), std::min(std::max(0.0, khc(e, k) - 0.3), s.slim[k]));
      const double n2 = 4.0 * ((vn1[1] + vn1[2] - 2 * s.vn(e, k)) * s.ip[e] * s.ip[e] +
                               (vn1[3] + vn1[4] - 2 * s.vn(e, k)) * s.ivv[e] * s.ivv[e]);
      EXPECT_NEAR(z2(e, k), n2, 1e-13 * std::max(1.0, std::fabs(n2)));
    }
}

TEST(Nabla2AndSmag, RangeRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(13);
  const auto s = random_s3(rng, kLevels);
  Field kh = poisoned(rng, 27, kLevels, 3, 20, 2, 7), khc = kh, z2 = kh;
  ref::calculate_nabla2_and_smag_coefficients_for_vn(g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px,
                                                     s.py, s.dx, s.dy, s.vn, s.slim, kh, khc, z2,
                                                     9.0, 3, 20, 2, 7);
  expect_written_only_inside(kh, 3, 20, 2, 7, "kh_smag_e");
  expect_written_only_inside(khc, 3, 20, 2, 7, "kh_smag_ec");
  expect_written_only_inside(z2, 3, 20, 2, 7, "z_nabla2_e");
}

TEST(Nabla2AndSmag, MissingDiamondVertexIsAnError) {
  Grid g = test::make_simple_torus_grid();
  g.e2c2v(7, 3) = missing_index;
  RandomSource rng(14);
  const auto s = random_s3(rng, 2);
  Field kh(27, 2), khc(27, 2), z2(27, 2);
  EXPECT_THROW(ref::calculate_nabla2_and_smag_coefficients_for_vn(
                   g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px, s.py, s.dx, s.dy, s.vn, s.slim, kh,
                   khc, z2, 9.0, 0, 27, 0, 2),
               std::logic_error);
  // outside the range the -1 is never needed
  EXPECT_NO_THROW(ref::calculate_nabla2_and_smag_coefficients_for_vn(
      g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px, s.py, s.dx, s.dy, s.vn, s.slim, kh, khc, z2,
      9.0, 8, 27, 0, 2));
  try {
    ref::calculate_nabla2_and_smag_coefficients_for_vn(g, s.dmfs, s.to, s.ip, s.ivv, s.u, s.v, s.px,
                                                       s.py, s.dx, s.dy, s.vn, s.slim, kh, khc, z2,
                                                       9.0, 0, 27, 0, 2);
  } catch (const std::logic_error& err) {
    EXPECT_NE(std::string(err.what()).find("E2C2V[7][3]"), std::string::npos) << err.what();
  }
}

// ================================================================================================
// S4: turbulence diagnostics
// ================================================================================================

TEST(TurbulenceDiagnostics, HandValue) {
  const Grid g = test::make_simple_torus_grid();  // C2E[0] = (0,1,5)
  Field khec(27, 2, 0.0), vn(27, 2, 0.0), wgt(18, 3, 0.5);
  Table bln(18, 3, 0.0), div_c(18, 3, 0.0);
  bln(0, 0) = 0.5;
  bln(0, 1) = 0.25;
  bln(0, 2) = 1.0;
  div_c(0, 0) = 1.0;
  div_c(0, 1) = 2.0;
  div_c(0, 2) = 3.0;
  const Vector dmfs = {1.0, 2.0};
  // level 1: kh_c = (0.5·1 + 0.25·2 + 1·3)/2 = 2; div = 1·1 + 2·(-1) + 3·2 = 5
  khec(0, 1) = 1.0, khec(1, 1) = 2.0, khec(5, 1) = 3.0;
  vn(0, 1) = 1.0, vn(1, 1) = -1.0, vn(5, 1) = 2.0;
  // level 0: kh_c = (0.5·4 + 1·4)/1 = 6; div = 1
  khec(0, 0) = 4.0, khec(5, 0) = 4.0;
  vn(0, 0) = 1.0;
  wgt(0, 1) = 0.25;
  Field kh_c(18, 2), div(18, 2);
  ref::temporary_fields_for_turbulence_diagnostics(g, khec, vn, bln, div_c, dmfs, kh_c, div, 0, 18,
                                                   0, 2);
  EXPECT_EQ(kh_c(0, 1), 2.0);
  EXPECT_EQ(div(0, 1), 5.0);
  EXPECT_EQ(kh_c(0, 0), 6.0);
  EXPECT_EQ(div(0, 0), 1.0);
  Field div_ic(18, 3, nan), hdef_ic(18, 3, nan);
  ref::calculate_diagnostic_quantities_for_turbulence(g, khec, vn, bln, div_c, dmfs, wgt, div_ic,
                                                      hdef_ic, 0, 18, 1, 2);
  EXPECT_EQ(div_ic(0, 1), 2.0);    // 0.25·5 + 0.75·1
  EXPECT_EQ(hdef_ic(0, 1), 25.0);  // (0.25·2 + 0.75·6)²
  EXPECT_TRUE(std::isnan(div_ic(0, 0)) && std::isnan(div_ic(0, 2)));
}

TEST(TurbulenceDiagnostics, FusedEqualsElementaryChainAndRangeRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(21);
  const int nlev = kLevels;
  const Field khec = rng.field(27, nlev), vn = rng.field(27, nlev);
  const Field wgt = rng.field(18, nlev + 1);
  const Table bln = random_table(rng, 18, 3), div_c = random_table(rng, 18, 3);
  const Vector dmfs = rng.vector(nlev, 0.5, 1.5);
  Field kh_c(18, nlev, nan), div(18, nlev, nan);
  ref::temporary_fields_for_turbulence_diagnostics(g, khec, vn, bln, div_c, dmfs, kh_c, div, 0, 18,
                                                   0, nlev);
  // ICON4Py's elementary test: all fields have nlev levels
  Field wgt_k(18, nlev);
  for (index_t c = 0; c < 18; ++c)
    for (int k = 0; k < nlev; ++k) wgt_k(c, k) = wgt(c, k);
  Field div_ic_e(18, nlev, nan), hdef_ic_e(18, nlev, nan);
  ref::calculate_diagnostics_for_turbulence(div, kh_c, wgt_k, div_ic_e, hdef_ic_e);
  expect_written_only_inside(div_ic_e, 0, 18, 1, nlev, "div_ic (elementary)");
  expect_written_only_inside(hdef_ic_e, 0, 18, 1, nlev, "hdef_ic (elementary)");

  Field div_ic = poisoned(rng, 18, nlev + 1, 2, 15, 1, nlev), hdef_ic = div_ic;
  ref::calculate_diagnostic_quantities_for_turbulence(g, khec, vn, bln, div_c, dmfs, wgt, div_ic,
                                                      hdef_ic, 2, 15, 1, nlev);
  expect_written_only_inside(div_ic, 2, 15, 1, nlev, "div_ic");
  expect_written_only_inside(hdef_ic, 2, 15, 1, nlev, "hdef_ic");
  for (index_t c = 2; c < 15; ++c)
    for (int k = 1; k < nlev; ++k) {
      EXPECT_NEAR(div_ic(c, k), div_ic_e(c, k), 1e-14);
      EXPECT_NEAR(hdef_ic(c, k), hdef_ic_e(c, k), 1e-12 * std::max(1.0, hdef_ic(c, k)));
    }
  EXPECT_THROW(ref::calculate_diagnostic_quantities_for_turbulence(
                   g, khec, vn, bln, div_c, dmfs, wgt, div_ic, hdef_ic, 0, 18, 0, nlev),
               std::invalid_argument);
}

TEST(TurbulenceDiagnostics, TemporariesAreLinearAndRespectRange) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(22);
  const Table bln = random_table(rng, 18, 3), div_c = random_table(rng, 18, 3);
  const Vector dmfs = rng.vector(kLevels, 0.5, 1.5);
  expect_linear(
      [&](const std::vector<Field>& in) {
        Field kh_c(18, kLevels), div(18, kLevels);
        ref::temporary_fields_for_turbulence_diagnostics(g, in[0], in[1], bln, div_c, dmfs, kh_c,
                                                         div, 0, 18, 0, kLevels);
        return std::vector<Field>{kh_c, div};
      },
      {rng.field(27, kLevels), rng.field(27, kLevels)},
      {rng.field(27, kLevels), rng.field(27, kLevels)}, "temporary_fields");
  Field kh_c = poisoned(rng, 18, kLevels, 1, 17, 0, 5), div = kh_c;
  ref::temporary_fields_for_turbulence_diagnostics(
      g, rng.field(27, kLevels), rng.field(27, kLevels), bln, div_c, dmfs, kh_c, div, 1, 17, 0, 5);
  expect_written_only_inside(kh_c, 1, 17, 0, 5, "kh_c");
  expect_written_only_inside(div, 1, 17, 0, 5, "div");
}

// ================================================================================================
// S6: nabla4 and vn
// ================================================================================================

TEST(Nabla4AndVn, HandValues) {
  const Grid g = test::make_simple_torus_grid();  // E2C2V[3] = (1,2,5,7)
  Field u(9, 1), v(9, 1, 100.0);
  for (index_t x = 0; x < 9; ++x) u(x, 0) = x;
  const Table px(27, 4, 1.0), py(27, 4, 0.0);  // v does not enter
  Field z2(27, 1, 1.0);
  Vector ivv(27, 2.0), ip(27, 3.0);
  Field z4(27, 1, nan);
  ref::calculate_nabla4(g, u, v, px, py, z2, ivv, ip, z4, 3, 4, 0, 1);
  // nt = 1 + 2, nn = 5 + 7: 4·[(12 - 2)·4 + (3 - 2)·9]
  EXPECT_EQ(z4(3, 0), 196.0);
  EXPECT_TRUE(std::isnan(z4(2, 0)) && std::isnan(z4(4, 0)));

  const Vector area(27, 2.0), nudge(27, 0.05), dmvn = {0.001};
  const Field kh(27, 1, 0.1);
  Field vn(27, 1, 1.0);
  ref::apply_nabla2_and_nabla4_to_vn(area, kh, z2, z4, dmvn, nudge, vn, 9.0, 3, 4, 0, 1);
  EXPECT_NEAR(vn(3, 0), 1.116, 1e-15);  // 1 + 2·(max(0.45, 0.1)·1 - 2·0.001·196)
  vn = Field(27, 1, 1.0);
  ref::apply_nabla2_and_nabla4_global_to_vn(area, kh, z2, z4, dmvn, vn, 3, 4, 0, 1);
  EXPECT_NEAR(vn(3, 0), 0.416, 1e-15);  // 1 + 2·(0.1·1 - 0.001·196·2)
  vn = Field(27, 1, 1.0);
  ref::apply_nabla2_to_vn_in_lateral_boundary(z2, area, vn, 5.0, 3, 4, 0, 1);
  EXPECT_EQ(vn(3, 0), 11.0);  // 1 + 2·5·1
  EXPECT_EQ(vn(2, 0), 1.0);
}

struct S6Inputs {
  Field u, v, z2, kh, vn;
  Table px, py;
  Vector ivv, ip, area, nudge, dmvn;
};

S6Inputs random_s6(RandomSource& rng, int nlev) {
  S6Inputs s;
  s.u = rng.field(9, nlev);
  s.v = rng.field(9, nlev);
  s.z2 = rng.field(27, nlev);
  s.kh = rng.field(27, nlev);
  s.vn = rng.field(27, nlev);
  s.px = random_table(rng, 27, 4);
  s.py = random_table(rng, 27, 4);
  s.ivv = rng.vector(27);
  s.ip = rng.vector(27);
  s.area = rng.vector(27);
  s.nudge = rng.vector(27);
  s.dmvn = rng.vector(nlev);
  return s;
}

TEST(Nabla4AndVn, Nabla4IsLinear) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(31);
  const auto s = random_s6(rng, kLevels);
  expect_linear(
      [&](const std::vector<Field>& in) {
        Field z4(27, kLevels);
        ref::calculate_nabla4(g, in[0], in[1], s.px, s.py, in[2], s.ivv, s.ip, z4, 0, 27, 0,
                              kLevels);
        return std::vector<Field>{z4};
      },
      {rng.field(9, kLevels), rng.field(9, kLevels), rng.field(27, kLevels)},
      {rng.field(9, kLevels), rng.field(9, kLevels), rng.field(27, kLevels)}, "calculate_nabla4");
}

TEST(Nabla4AndVn, FusedEqualsElementaryChain) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(32);
  const auto s = random_s6(rng, kLevels);
  const index_t hs = 2, he = 24, s2 = 11;
  Field z4(27, kLevels);
  ref::calculate_nabla4(g, s.u, s.v, s.px, s.py, s.z2, s.ivv, s.ip, z4, 0, 27, 0, kLevels);
  for (const bool limited_area : {true, false}) {
    Field expected = s.vn;
    if (limited_area) {
      ref::apply_nabla2_to_vn_in_lateral_boundary(s.z2, s.area, expected, 5.0, hs, s2, 0, kLevels);
      ref::apply_nabla2_and_nabla4_to_vn(s.area, s.kh, s.z2, z4, s.dmvn, s.nudge, expected, 9.0, s2,
                                         he, 0, kLevels);
    } else {
      ref::apply_nabla2_and_nabla4_global_to_vn(s.area, s.kh, s.z2, z4, s.dmvn, expected, s2, he, 0,
                                                kLevels);
    }
    Field vn = s.vn;
    ref::apply_diffusion_to_vn(g, s.u, s.v, s.px, s.py, s.z2, s.ivv, s.ip, s.area, s.kh, s.dmvn,
                               s.nudge, vn, 9.0, 5.0, s2, limited_area, hs, he, 0, kLevels);
    EXPECT_TRUE(identical(vn, expected)) << "limited_area = " << limited_area;
  }
}

TEST(Nabla4AndVn, RangesRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(33);
  const auto s = random_s6(rng, kLevels);
  Field z4 = poisoned(rng, 27, kLevels, 4, 21, 1, 7);
  ref::calculate_nabla4(g, s.u, s.v, s.px, s.py, s.z2, s.ivv, s.ip, z4, 4, 21, 1, 7);
  expect_written_only_inside(z4, 4, 21, 1, 7, "z_nabla4_e2");
  const Field z4_full = rng.field(27, kLevels);
  Field vn = poisoned(rng, 27, kLevels, 4, 21, 1, 7);
  ref::apply_nabla2_and_nabla4_to_vn(s.area, s.kh, s.z2, z4_full, s.dmvn, s.nudge, vn, 9.0, 4, 21,
                                     1, 7);
  expect_written_only_inside(vn, 4, 21, 1, 7, "vn (nabla2+nabla4)");
  ref::apply_nabla2_and_nabla4_global_to_vn(s.area, s.kh, s.z2, z4_full, s.dmvn, vn, 4, 21, 1, 7);
  expect_written_only_inside(vn, 4, 21, 1, 7, "vn (global)");
  ref::apply_nabla2_to_vn_in_lateral_boundary(s.z2, s.area, vn, 5.0, 4, 21, 1, 7);
  expect_written_only_inside(vn, 4, 21, 1, 7, "vn (boundary)");
  for (const bool limited_area : {true, false}) {
    Field vn2 = poisoned(rng, 27, kLevels, 4, 21, 1, 7);
    ref::apply_diffusion_to_vn(g, s.u, s.v, s.px, s.py, s.z2, s.ivv, s.ip, s.area, s.kh, s.dmvn,
                               s.nudge, vn2, 9.0, 5.0, 9, limited_area, 4, 21, 1, 7);
    expect_written_only_inside(vn2, 4, 21, 1, 7, "vn (apply_diffusion_to_vn)");
  }
}

TEST(Nabla4AndVn, GlobalLeavesEdgesBeforeSecondNudgingRowUnchanged) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(34);
  const auto s = random_s6(rng, 2);
  Field vn = s.vn;
  ref::apply_diffusion_to_vn(g, s.u, s.v, s.px, s.py, s.z2, s.ivv, s.ip, s.area, s.kh, s.dmvn,
                             s.nudge, vn, 9.0, 5.0, 10, false, 0, 27, 0, 2);
  for (index_t e = 0; e < 27; ++e)
    for (int k = 0; k < 2; ++k)
      if (e < 10)
        EXPECT_EQ(vn(e, k), s.vn(e, k));
      else
        EXPECT_NE(vn(e, k), s.vn(e, k));
}

// ================================================================================================
// S8: w
// ================================================================================================

TEST(WDiffusion, HandValuesUseTheGridsC2E2COOrder) {
  const Grid g = test::make_simple_torus_grid();  // C2E2CO[0] = (15,4,3,0): self LAST
  Field w(18, 1, 0.0);
  w(15, 0) = 1.0, w(4, 0) = 2.0, w(3, 0) = 3.0, w(0, 0) = 4.0;
  Table n2s(18, 4, 0.0);
  n2s(0, 0) = 1.0, n2s(0, 1) = 1.0, n2s(0, 2) = 1.0, n2s(0, 3) = -3.0;
  Field z(18, 1, nan);
  ref::calculate_nabla2_for_w(g, w, n2s, z, 0, 1, 0, 1);
  EXPECT_EQ(z(0, 0), -6.0);  // 1 + 2 + 3 - 3·4
  EXPECT_TRUE(std::isnan(z(1, 0)));

  Table grg_x(18, 4, 0.0), grg_y(18, 4, 0.0);
  grg_x(0, 3) = 1.0;   // picks w[0]
  grg_y(0, 0) = -2.0;  // picks w[15]
  Field dwdx(18, 1, nan), dwdy(18, 1, nan);
  ref::calculate_horizontal_gradients_for_turbulence(g, w, grg_x, grg_y, dwdx, dwdy, 0, 1, 0, 1);
  EXPECT_EQ(dwdx(0, 0), 4.0);
  EXPECT_EQ(dwdy(0, 0), -2.0);

  // apply_nabla2_to_w at cell 0: z_nabla2_c = 1 on cell 3, 2 on cell 0
  Field zc(18, 1, 0.0);
  zc(3, 0) = 1.0, zc(0, 0) = 2.0;
  const Vector area(18, 3.0);
  Field w2(18, 1, 10.0);
  ref::apply_nabla2_to_w(g, area, zc, n2s, w2, 0.5, 0, 1, 0, 1);
  EXPECT_EQ(w2(0, 0), 10.0 - 0.5 * 9.0 * (1.0 * 1.0 + (-3.0) * 2.0));  // = 32.5
  ref::apply_nabla2_to_w_in_upper_damping_layer(w2, {0.25}, area, zc, 0, 1, 0, 1);
  EXPECT_EQ(w2(0, 0), 32.5 + 0.25 * 3.0 * 2.0);
}

struct S8Inputs {
  Vector area, n2w;
  Table n2s, gx, gy;
  Field w_old, dwdx, dwdy;
};

S8Inputs random_s8(RandomSource& rng, int nlev) {
  S8Inputs s;
  s.area = rng.vector(18);
  s.n2w = rng.vector(nlev);
  s.n2s = random_table(rng, 18, 4);
  s.gx = random_table(rng, 18, 4);
  s.gy = random_table(rng, 18, 4);
  s.w_old = rng.field(18, nlev + 1);
  s.dwdx = rng.field(18, nlev + 1);
  s.dwdy = rng.field(18, nlev + 1);
  return s;
}

TEST(WDiffusion, ElementaryStencilsAreLinearAndRespectRanges) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(41);
  const auto s = random_s8(rng, kLevels);
  expect_linear(
      [&](const std::vector<Field>& in) {
        Field z(18, kLevels), dx(18, kLevels), dy(18, kLevels);
        ref::calculate_nabla2_for_w(g, in[0], s.n2s, z, 0, 18, 0, kLevels);
        ref::calculate_horizontal_gradients_for_turbulence(g, in[0], s.gx, s.gy, dx, dy, 0, 18, 0,
                                                           kLevels);
        Field w = in[1];
        ref::apply_nabla2_to_w(g, s.area, in[2], s.n2s, w, 5.0, 0, 18, 0, kLevels);
        return std::vector<Field>{z, dx, dy, w};
      },
      {rng.field(18, kLevels), rng.field(18, kLevels), rng.field(18, kLevels)},
      {rng.field(18, kLevels), rng.field(18, kLevels), rng.field(18, kLevels)}, "w stencils");

  const index_t hs = 3, he = 16;
  const int vs = 1, ve = 6;
  Field z = poisoned(rng, 18, kLevels, hs, he, vs, ve);
  ref::calculate_nabla2_for_w(g, s.w_old, s.n2s, z, hs, he, vs, ve);
  expect_written_only_inside(z, hs, he, vs, ve, "z_nabla2_c");
  Field dx = poisoned(rng, 18, kLevels, hs, he, vs, ve), dy = dx;
  ref::calculate_horizontal_gradients_for_turbulence(g, s.w_old, s.gx, s.gy, dx, dy, hs, he, vs,
                                                     ve);
  expect_written_only_inside(dx, hs, he, vs, ve, "dwdx");
  expect_written_only_inside(dy, hs, he, vs, ve, "dwdy");
  Field w = poisoned(rng, 18, kLevels, hs, he, vs, ve);
  const Field zc = rng.field(18, kLevels);
  ref::apply_nabla2_to_w(g, s.area, zc, s.n2s, w, 5.0, hs, he, vs, ve);
  expect_written_only_inside(w, hs, he, vs, ve, "w (apply_nabla2_to_w)");
  ref::apply_nabla2_to_w_in_upper_damping_layer(w, s.n2w, s.area, zc, hs, he, vs, ve);
  expect_written_only_inside(w, hs, he, vs, ve, "w (damping layer)");
}

TEST(WDiffusion, FusedEqualsElementaryChain) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(42);
  const int nlev = kLevels;
  const auto s = random_s8(rng, nlev);
  const index_t hs = 2, he = 17, interior = 5, halo = 14;
  const int nrdmax = 4;
  for (const int type_shear : {0, 1, 2}) {
    // expected from the elementary stencils
    Field z(18, nlev + 1);
    ref::calculate_nabla2_for_w(g, s.w_old, s.n2s, z, 0, 18, 0, nlev);
    Field w_exp = Field(18, nlev + 1, 0.0);
    for (index_t c = hs; c < he; ++c)
      for (int k = 0; k < nlev; ++k) w_exp(c, k) = s.w_old(c, k);
    ref::apply_nabla2_to_w(g, s.area, z, s.n2s, w_exp, 5.0, interior, halo, 0, nlev);
    ref::apply_nabla2_to_w_in_upper_damping_layer(w_exp, s.n2w, s.area, z, interior, halo, 1,
                                                  nrdmax);
    Field dx_exp = s.dwdx, dy_exp = s.dwdy;
    if (type_shear == 2)
      ref::calculate_horizontal_gradients_for_turbulence(g, s.w_old, s.gx, s.gy, dx_exp, dy_exp, hs,
                                                         he, 1, nlev);

    Field w(18, nlev + 1, 0.0), dx = s.dwdx, dy = s.dwdy;  // as ICON4Py's test: w starts at 0
    ref::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
        g, s.area, s.n2s, s.gx, s.gy, s.w_old, w, type_shear, dx, dy, 5.0, s.n2w, nrdmax, interior,
        halo, hs, he, 0, nlev);
    EXPECT_LT(max_rel_diff(w, w_exp), 1e-14) << "type_shear " << type_shear;
    EXPECT_TRUE(identical(dx, dx_exp)) << "type_shear " << type_shear;
    EXPECT_TRUE(identical(dy, dy_exp)) << "type_shear " << type_shear;
  }
}

TEST(WDiffusion, FusedRespectsRangeAndNeverTouchesTheSurface) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(43);
  const int nlev = kLevels;
  const auto s = random_s8(rng, nlev);
  const index_t hs = 1, he = 16;
  Field w = poisoned(rng, 18, nlev + 1, hs, he, 0, nlev);  // level nlev is NaN
  Field dx = poisoned(rng, 18, nlev + 1, hs, he, 0, nlev), dy = dx;
  ref::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
      g, s.area, s.n2s, s.gx, s.gy, s.w_old, w, 2, dx, dy, 5.0, s.n2w, 13, 0, 18, hs, he, 0, nlev);
  expect_written_only_inside(w, hs, he, 0, nlev, "w");
  expect_written_only_inside(dx, hs, he, 0, nlev, "dwdx");
  expect_written_only_inside(dy, hs, he, 0, nlev, "dwdy");
  EXPECT_THROW(
      ref::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
          g, s.area, s.n2s, s.gx, s.gy, w, w, 2, dx, dy, 5.0, s.n2w, 13, 0, 18, hs, he, 0, nlev),
      std::invalid_argument);
}

TEST(WDiffusion, MissingC2E2COIsAnErrorOnlyWhereNeeded) {
  Grid g = test::make_simple_torus_grid();
  g.c2e2co(6, 1) = missing_index;  // cell 6: neighbours 3, 10, 9
  RandomSource rng(44);
  const auto s = random_s8(rng, 3);
  Field w(18, 4), dx = s.dwdx, dy = s.dwdy;
  // cell 3 is a neighbour of 6: updating cell 3 needs z_nabla2_c at 6
  EXPECT_THROW(
      ref::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
          g, s.area, s.n2s, s.gx, s.gy, s.w_old, w, 0, dx, dy, 5.0, s.n2w, 2, 3, 4, 3, 4, 0, 3),
      std::logic_error);
  // outside [interior, halo) w is a copy: nothing needs C2E2CO (type_shear 0)
  EXPECT_NO_THROW(ref::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
      g, s.area, s.n2s, s.gx, s.gy, s.w_old, w, 0, dx, dy, 5.0, s.n2w, 2, 0, 0, 0, 18, 0, 3));
  Field z(18, 3);
  EXPECT_THROW(ref::calculate_nabla2_for_w(g, s.w_old, s.n2s, z, 0, 18, 0, 3), std::logic_error);
}

// ================================================================================================
// S9: cold pools
// ================================================================================================

TEST(ColdPools, HandValues) {
  const Grid g = test::make_simple_torus_grid();  // C2E2C[0] = (15,4,3); E2C[0] = (0,15)
  const auto enh_at_cell0 = [&](double t0, const double tn[3], double r0, const double rn[3]) {
    Field theta(18, 1, 0.0), ref_mc(18, 1, 0.0), enh(18, 1, nan);
    const index_t nb[3] = {15, 4, 3};
    theta(0, 0) = t0;
    ref_mc(0, 0) = r0;
    for (int j = 0; j < 3; ++j) theta(nb[j], 0) = tn[j], ref_mc(nb[j], 0) = rn[j];
    ref::temporary_field_for_grid_point_cold_pools_enhancement(g, theta, ref_mc, enh, -5.0,
                                                               ref::dbl_eps, 0, 1, 0, 1);
    EXPECT_TRUE(std::isnan(enh(1, 0)));
    return enh(0, 0);
  };
  const double zero[3] = {0, 0, 0};
  // tdiff = -10, trefdiff = 0: -10 < 1.5·(-5) → 5e-4·(-5 + 10)
  const double a[3] = {9, 9, 12};
  EXPECT_NEAR(enh_at_cell0(0, a, 0, zero), 2.5e-3, 1e-18);
  // tdiff = -6, trefdiff = -0.5: -5.5 < -5 and trefdiff < 0 → 5e-4·(-5 + 6 - 0.5)
  const double b[3] = {6, 6, 6}, rb[3] = {0.5, 0.5, 0.5};
  EXPECT_NEAR(enh_at_cell0(0, b, 0, rb), 2.5e-4, 1e-18);
  // tdiff = -6, trefdiff = +0.5: -6.5 is neither (trefdiff > 0) nor < -7.5 → inactive
  const double rc[3] = {-0.5, -0.5, -0.5};
  EXPECT_EQ(enh_at_cell0(0, b, 0, rc), ref::dbl_eps);

  Field kh(27, 1, 1e-3), enh(18, 1, 0.0);
  enh(0, 0) = 2e-3;
  enh(15, 0) = 5e-3;
  ref::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, kh, enh, 0, 1, 0, 1);
  EXPECT_EQ(kh(0, 0), 5e-3);
  EXPECT_EQ(kh(1, 0), 1e-3);
  kh(0, 0) = 7e-3;
  ref::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, kh, enh, 0, 1, 0, 1);
  EXPECT_EQ(kh(0, 0), 7e-3);
}

TEST(ColdPools, FusedEqualsChainAndRangesRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(51);
  const int nlev = kLevels;
  const Field theta = rng.field(18, nlev, 280.0, 320.0), ref_mc = rng.field(18, nlev, 280.0, 320.0);
  const Field kh0 = rng.field(27, nlev, 0.0, 0.02);
  Field enh(18, nlev);
  ref::temporary_field_for_grid_point_cold_pools_enhancement(g, theta, ref_mc, enh, -5.0,
                                                             ref::dbl_eps, 0, 18, 0, nlev);
  int active = 0;
  for (double x : enh.values) active += x != ref::dbl_eps;
  EXPECT_GT(active, 0);
  EXPECT_LT(active, static_cast<int>(enh.values.size()));
  Field expected = kh0;
  ref::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, expected, enh, 0, 27, 0, nlev);
  Field kh = kh0;
  ref::calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
      g, theta, ref_mc, -5.0, ref::dbl_eps, kh, 0, 27, 0, nlev);
  EXPECT_TRUE(identical(kh, expected));

  Field e2 = poisoned(rng, 18, nlev, 2, 13, nlev - 2, nlev);
  ref::temporary_field_for_grid_point_cold_pools_enhancement(g, theta, ref_mc, e2, -5.0,
                                                             ref::dbl_eps, 2, 13, nlev - 2, nlev);
  expect_written_only_inside(e2, 2, 13, nlev - 2, nlev, "enh_diffu_3d");
  Field k2 = poisoned(rng, 27, nlev, 5, 22, nlev - 2, nlev);
  ref::calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
      g, theta, ref_mc, -5.0, ref::dbl_eps, k2, 5, 22, nlev - 2, nlev);
  expect_written_only_inside(k2, 5, 22, nlev - 2, nlev, "kh_smag_e (cold pools)");
  Field k3 = poisoned(rng, 27, nlev, 5, 22, 0, 3);
  ref::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, k3, enh, 5, 22, 0, 3);
  expect_written_only_inside(k3, 5, 22, 0, 3, "kh_smag_e (enhance)");
}

// ================================================================================================
// S11: theta and exner
// ================================================================================================

TEST(ThetaDiffusion, HandValues) {
  const Grid g = test::make_simple_torus_grid();  // E2C[0] = (0,15); C2E[0] = (0,1,5)
  Field kh(27, 1, 2.0), theta(18, 1, 1.0);
  theta(15, 0) = 5.0;
  const Vector inv_dual(27, 3.0);
  Field flux(27, 1, nan);
  ref::calculate_nabla2_for_z(g, kh, inv_dual, theta, flux, 0, 1, 0, 1);
  EXPECT_EQ(flux(0, 0), 24.0);  // 2·3·(5 - 1)
  EXPECT_TRUE(std::isnan(flux(1, 0)));

  Field z2e(27, 1, 0.0);
  z2e(0, 0) = 1.0, z2e(1, 0) = 2.0, z2e(5, 0) = 3.0;
  Table gdiv(18, 3, 0.0);
  gdiv(0, 0) = 1.0, gdiv(0, 1) = -1.0, gdiv(0, 2) = 2.0;
  Field z_temp(18, 1, nan);
  ref::calculate_nabla2_of_theta(g, z2e, gdiv, z_temp, 0, 1, 0, 1);
  EXPECT_EQ(z_temp(0, 0), 5.0);  // 1 - 2 + 6

  Field th(18, 1, 2.0), ex(18, 1, 1.0);
  const Field zt(18, 1, 2.0);
  ref::update_theta_and_exner(zt, Vector(18, 0.5), th, ex, 0.4, 0, 1, 0, 1);
  EXPECT_EQ(th(0, 0), 3.0);           // 2 + 0.5·2
  EXPECT_NEAR(ex(0, 0), 1.2, 1e-15);  // 1·(1 + 0.4·(3/2 - 1))
  EXPECT_EQ(th(1, 0), 2.0);

  // truly horizontal at (c=0, k=1), C2E2C[0] = (15,4,3), offsets (0, 1, -1), θ[n,k] = 10n + k
  const int nlev = 4;
  Field tv(18, nlev);
  for (index_t c = 0; c < 18; ++c)
    for (int k = 0; k < nlev; ++k) tv(c, k) = 10.0 * c + k;
  IntField3 off(18, 3, nlev, 0);
  off(0, 1, 1) = 1;
  off(0, 2, 1) = -1;
  Field3 vcoef(18, 3, nlev, 0.5);
  vcoef(0, 1, 1) = 0.25;
  vcoef(0, 2, 1) = 1.0;
  Vector n2s_c(18, 2.0);
  Table nbh(18, 3, 0.0);
  nbh(0, 0) = 1.0, nbh(0, 1) = 2.0, nbh(0, 2) = 3.0;
  Field zd(18, nlev, 0.01);
  Field zt2(18, nlev, nan);
  zt2(0, 1) = 1.0;
  ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(g, off, zd, n2s_c, nbh, vcoef,
                                                                   tv, zt2, 0, 1, 1, 2);
  // S = 2·1 + 1·(0.5·151 + 0.5·152) + 2·(0.25·42 + 0.75·43) + 3·(1·30 + 0·31) = 329
  EXPECT_NEAR(zt2(0, 1), 1.0 + 0.01 * 329.0, 1e-13);
  EXPECT_TRUE(std::isnan(zt2(0, 0)) && std::isnan(zt2(1, 1)));

  off(0, 0, 1) = 2;  // k+o+1 = 4 = nlev: invalid
  EXPECT_THROW(ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
                   g, off, zd, n2s_c, nbh, vcoef, tv, zt2, 0, 1, 1, 2),
               std::invalid_argument);
  off(0, 0, 1) = -2;  // k+o = -1: invalid
  EXPECT_THROW(ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
                   g, off, zd, n2s_c, nbh, vcoef, tv, zt2, 0, 1, 1, 2),
               std::invalid_argument);
}

struct S11Inputs {
  Field kh, theta_in, zd, exner;
  Vector inv_dual, n2s_c, area;
  Table gdiv, nbh;
  IntField3 off;
  Field3 vcoef;
};

S11Inputs random_s11(RandomSource& rng, int nlev) {
  S11Inputs s;
  s.kh = rng.field(27, nlev);
  s.theta_in = rng.field(18, nlev, 1.0, 2.0);
  s.zd = rng.field(18, nlev);
  for (std::size_t i = 0; i < s.zd.values.size(); i += 3) s.zd.values[i] = 0.0;  // mask
  s.exner = rng.field(18, nlev);
  s.inv_dual = rng.vector(27);
  s.n2s_c = rng.vector(18);
  s.area = rng.vector(18);
  s.gdiv = random_table(rng, 18, 3);
  s.nbh = random_table(rng, 18, 3);
  s.off = random_offsets(rng, 18, nlev);
  s.vcoef = random_field3(rng, 18, 3, nlev);
  return s;
}

TEST(ThetaDiffusion, ElementaryStencilsAreLinearInTheta) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(61);
  const auto s = random_s11(rng, kLevels);
  expect_linear(
      [&](const std::vector<Field>& in) {
        Field flux(27, kLevels), zt(18, kLevels), zt_fused(18, kLevels), zth(18, kLevels, 0.0);
        ref::calculate_nabla2_for_z(g, s.kh, s.inv_dual, in[0], flux, 0, 27, 0, kLevels);
        ref::calculate_nabla2_of_theta(g, in[1], s.gdiv, zt, 0, 18, 0, kLevels);
        ref::calculate_nabla2_for_theta(g, s.kh, s.inv_dual, in[0], s.gdiv, zt_fused, 0, 18, 0,
                                        kLevels);
        ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
            g, s.off, s.zd, s.n2s_c, s.nbh, s.vcoef, in[0], zth, 0, 18, 0, kLevels);
        return std::vector<Field>{flux, zt, zt_fused, zth};
      },
      {rng.field(18, kLevels), rng.field(27, kLevels)},
      {rng.field(18, kLevels), rng.field(27, kLevels)}, "theta stencils");
}

TEST(ThetaDiffusion, FusedEqualsElementaryChain) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(62);
  const int nlev = kLevels;
  const auto s = random_s11(rng, nlev);
  const index_t hs = 1, he = 17;
  for (const bool zdiffu : {true, false}) {
    Field flux(27, nlev), zt(18, nlev), zt2(18, nlev);
    ref::calculate_nabla2_for_z(g, s.kh, s.inv_dual, s.theta_in, flux, 0, 27, 0, nlev);
    ref::calculate_nabla2_of_theta(g, flux, s.gdiv, zt, 0, 18, 0, nlev);
    ref::calculate_nabla2_for_theta(g, s.kh, s.inv_dual, s.theta_in, s.gdiv, zt2, 0, 18, 0, nlev);
    EXPECT_TRUE(identical(zt, zt2));
    if (zdiffu) {
      Field zth = zt;
      ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
          g, s.off, s.zd, s.n2s_c, s.nbh, s.vcoef, s.theta_in, zth, 0, 18, 0, nlev);
      for (std::size_t i = 0; i < zt.values.size(); ++i)
        if (s.zd.values[i] != 0.0) zt.values[i] = zth.values[i];
    }
    Field th_exp = s.theta_in, ex_exp = s.exner;
    ref::update_theta_and_exner(zt, s.area, th_exp, ex_exp, 5.0, hs, he, 0, nlev);

    Field th = poisoned(rng, 18, nlev, hs, he, 0, nlev);  // its inside values are never read
    for (index_t c = 0; c < 18; ++c)
      if (c < hs || c >= he)
        for (int k = 0; k < nlev; ++k) th(c, k) = s.theta_in(c, k);
    Field ex = s.exner;
    ref::apply_diffusion_to_theta_and_exner(g, s.kh, s.inv_dual, s.theta_in, s.gdiv, s.off, s.zd,
                                            s.n2s_c, s.nbh, s.vcoef, s.area, th, ex, 5.0, zdiffu,
                                            hs, he, 0, nlev);
    EXPECT_LT(max_rel_diff(th, th_exp), 1e-14) << "zdiffu " << zdiffu;
    EXPECT_LT(max_rel_diff(ex, ex_exp), 1e-13) << "zdiffu " << zdiffu;
  }
}

TEST(ThetaDiffusion, RangesRespected) {
  const Grid g = test::make_simple_torus_grid();
  RandomSource rng(63);
  const auto s = random_s11(rng, kLevels);
  const index_t hs = 4, he = 15;
  const int vs = 2, ve = 7;
  Field flux = poisoned(rng, 27, kLevels, 6, 20, vs, ve);
  ref::calculate_nabla2_for_z(g, s.kh, s.inv_dual, s.theta_in, flux, 6, 20, vs, ve);
  expect_written_only_inside(flux, 6, 20, vs, ve, "z_nabla2_e (theta)");
  Field zt = poisoned(rng, 18, kLevels, hs, he, vs, ve);
  ref::calculate_nabla2_of_theta(g, rng.field(27, kLevels), s.gdiv, zt, hs, he, vs, ve);
  expect_written_only_inside(zt, hs, he, vs, ve, "z_temp (nabla2_of_theta)");
  ref::calculate_nabla2_for_theta(g, s.kh, s.inv_dual, s.theta_in, s.gdiv, zt, hs, he, vs, ve);
  expect_written_only_inside(zt, hs, he, vs, ve, "z_temp (nabla2_for_theta)");
  ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
      g, s.off, s.zd, s.n2s_c, s.nbh, s.vcoef, s.theta_in, zt, hs, he, vs, ve);
  expect_written_only_inside(zt, hs, he, vs, ve, "z_temp (truly horizontal)");
  Field th = poisoned(rng, 18, kLevels, hs, he, vs, ve), ex = th;
  for (auto& x : th.values)
    if (!std::isnan(x)) x += 3.0;  // keep θ away from 0
  ref::update_theta_and_exner(zt, s.area, th, ex, 0.4, hs, he, vs, ve);
  expect_written_only_inside(th, hs, he, vs, ve, "theta_v (update)");
  expect_written_only_inside(ex, hs, he, vs, ve, "exner (update)");
  Field th2 = poisoned(rng, 18, kLevels, hs, he, vs, ve), ex2 = th2;
  ref::apply_diffusion_to_theta_and_exner(g, s.kh, s.inv_dual, s.theta_in, s.gdiv, s.off, s.zd,
                                          s.n2s_c, s.nbh, s.vcoef, s.area, th2, ex2, 0.4, true, hs,
                                          he, vs, ve);
  expect_written_only_inside(th2, hs, he, vs, ve, "theta_v (fused)");
  expect_written_only_inside(ex2, hs, he, vs, ve, "exner (fused)");
}

TEST(ThetaDiffusion, ConservesTheUnweightedSumOnAClosedSphere) {
  // Addendum 14: with geofac_div = l_e·o_ce/A_c the per-cell change is Σ_e l_e·o_ce·F_e, and the
  // edge fluxes cancel pairwise on a closed grid.
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(64);
  const int nlev = 3;
  Table gdiv(8, 3);
  for (index_t c = 0; c < 8; ++c)
    for (int j = 0; j < 3; ++j)
      gdiv(c, j) = g.edge_length[g.c2e(c, j)] * g.cell_edge_orientation(c, j) / g.cell_area[c];
  Vector inv_dual(12);
  for (index_t e = 0; e < 12; ++e) inv_dual[e] = 1.0 / g.dual_edge_length[e];
  const Field kh = rng.field(12, nlev, 0.0, 0.1), theta_in = rng.field(8, nlev, 280.0, 320.0);
  const Field zero(8, nlev, 0.0);
  const IntField3 off(8, 3, nlev, 0);
  const Field3 vcoef(8, 3, nlev, 0.0);
  Field theta(8, nlev, nan), exner(8, nlev, 1.0);
  ref::apply_diffusion_to_theta_and_exner(g, kh, inv_dual, theta_in, gdiv, off, zero,
                                          Vector(8, 0.0), Table(8, 3, 0.0), vcoef, g.cell_area,
                                          theta, exner, 0.4, true, 0, 8, 0, nlev);
  for (int k = 0; k < nlev; ++k) {
    double before = 0.0, after = 0.0, change = 0.0;
    for (index_t c = 0; c < 8; ++c) {
      before += theta_in(c, k);
      after += theta(c, k);
      change += std::fabs(theta(c, k) - theta_in(c, k));
    }
    EXPECT_GT(change, 1e-3) << "level " << k;  // it does diffuse
    EXPECT_NEAR(after, before, 1e-11 * before) << "level " << k;
  }
  // a constant θ has no flux: θ and exner stay exactly
  const Field flat(8, nlev, 300.0);
  Field theta2(8, nlev, nan), exner2(8, nlev, 0.9);
  ref::apply_diffusion_to_theta_and_exner(g, kh, inv_dual, flat, gdiv, off, zero, Vector(8, 0.0),
                                          Table(8, 3, 0.0), vcoef, g.cell_area, theta2, exner2, 0.4,
                                          true, 0, 8, 0, nlev);
  EXPECT_TRUE(identical(theta2, flat));
  EXPECT_TRUE(identical(exner2, Field(8, nlev, 0.9)));
}

// ================================================================================================
// The granule
// ================================================================================================

struct GranuleCase {
  Grid grid;
  ref::GranuleConfig config;
  ref::GranuleInputs in;
  ref::GranuleState state;
};

/// Random inputs on the torus as ICON4Py's stencil tests draw them (uniform in [-1,1)), with θ
/// in [280,320) so that cold pools occur and S11 never divides by ~0.
GranuleCase make_torus_case(std::uint64_t seed, int nlev) {
  RandomSource rng(seed);
  GranuleCase t;
  t.grid = test::make_simple_torus_grid();
  t.config = config_with_levels(nlev);
  t.config.shear_type = 2;
  t.config.nrd = 3;
  const index_t nc = 18, ne = 27, nv = 9;
  auto& in = t.in;
  in.theta_ref_mc = rng.field(nc, nlev, 280.0, 320.0);
  in.wgtfac_c = rng.field(nc, nlev + 1);
  in.zd_vertoffset = random_offsets(rng, nc, nlev);
  in.zd_diffcoef = rng.field(nc, nlev);
  for (std::size_t i = 0; i < in.zd_diffcoef.values.size(); i += 2) in.zd_diffcoef.values[i] = 0.0;
  in.zd_intcoef = random_field3(rng, nc, 3, nlev);
  in.e_bln_c_s = random_table(rng, nc, 3);
  in.rbf_coeff_1 = random_table(rng, nv, 6);
  in.rbf_coeff_2 = random_table(rng, nv, 6);
  in.geofac_div = random_table(rng, nc, 3);
  in.geofac_n2s = random_table(rng, nc, 4);
  in.geofac_grg_x = random_table(rng, nc, 4);
  in.geofac_grg_y = random_table(rng, nc, 4);
  in.nudgecoeff_e = rng.vector(ne);
  in.tangent_orientation = random_signs(rng, ne);
  in.inverse_primal_edge_lengths = rng.vector(ne);
  in.inverse_vertex_vertex_lengths = rng.vector(ne);
  in.inverse_dual_edge_lengths = rng.vector(ne);
  in.edge_areas = rng.vector(ne);
  in.primal_normal_vert_x = random_table(rng, ne, 4);
  in.primal_normal_vert_y = random_table(rng, ne, 4);
  in.dual_normal_vert_x = random_table(rng, ne, 4);
  in.dual_normal_vert_y = random_table(rng, ne, 4);
  in.cell_area = rng.vector(nc);
  auto& st = t.state;
  st.vn = rng.field(ne, nlev);
  st.w = rng.field(nc, nlev + 1);
  st.theta_v = rng.field(nc, nlev, 280.0, 320.0);
  st.exner = rng.field(nc, nlev, 0.5, 1.0);
  st.div_ic = rng.field(nc, nlev + 1);
  st.hdef_ic = rng.field(nc, nlev + 1);
  st.dwdx = rng.field(nc, nlev + 1);
  st.dwdy = rng.field(nc, nlev + 1);
  return t;
}

TEST(Granule, EqualsTheElementaryStencilsInSpecOrderOnTheTorus) {
  const int nlev = 10;
  for (const bool initial_run : {false, true}) {
    auto t = make_torus_case(71, nlev);
    const Grid& g = t.grid;
    const auto& in = t.in;
    const double dtime = 10.0;
    const auto p = ref::derive_parameters(t.config, dtime, initial_run);

    // Expected result, built from the elementary stencils over the torus (every zone is the
    // whole array, so every range is full).
    auto st = t.state;
    Field u(9, nlev), v(9, nlev), kh(27, nlev), khc(27, nlev), z2(27, nlev);
    ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, st.vn, in.rbf_coeff_1, in.rbf_coeff_2, u, v, 0, 9,
                                             0, nlev);
    ref::calculate_nabla2_and_smag_coefficients_for_vn(
        g, p.diff_multfac_smag, in.tangent_orientation, in.inverse_primal_edge_lengths,
        in.inverse_vertex_vertex_lengths, u, v, in.primal_normal_vert_x, in.primal_normal_vert_y,
        in.dual_normal_vert_x, in.dual_normal_vert_y, st.vn, p.smag_limit, kh, khc, z2,
        p.smag_offset, 0, 27, 0, nlev);
    {  // S4 from the two elementary stencils, with the vn of before S6
      Field kh_c(18, nlev), div(18, nlev);
      ref::temporary_fields_for_turbulence_diagnostics(g, khc, st.vn, in.e_bln_c_s, in.geofac_div,
                                                       p.diff_multfac_smag, kh_c, div, 0, 18, 0,
                                                       nlev);
      Field div_ic = st.div_ic, hdef_ic = st.hdef_ic;
      ref::calculate_diagnostics_for_turbulence(div, kh_c, in.wgtfac_c, div_ic, hdef_ic);
      st.div_ic = div_ic;
      st.hdef_ic = hdef_ic;
    }
    ref::mo_intp_rbf_rbf_vec_interpol_vertex(g, z2, in.rbf_coeff_1, in.rbf_coeff_2, u, v, 0, 9, 0,
                                             nlev);
    {  // S6 (global)
      Field z4(27, nlev);
      ref::calculate_nabla4(g, u, v, in.primal_normal_vert_x, in.primal_normal_vert_y, z2,
                            in.inverse_vertex_vertex_lengths, in.inverse_primal_edge_lengths, z4, 0,
                            27, 0, nlev);
      ref::apply_nabla2_and_nabla4_global_to_vn(in.edge_areas, kh, z2, z4, p.diff_multfac_vn, st.vn,
                                                0, 27, 0, nlev);
    }
    {  // S7, S8
      const Field w_old = st.w;
      Field zc(18, nlev);
      ref::calculate_nabla2_for_w(g, w_old, in.geofac_n2s, zc, 0, 18, 0, nlev);
      ref::calculate_horizontal_gradients_for_turbulence(g, w_old, in.geofac_grg_x, in.geofac_grg_y,
                                                         st.dwdx, st.dwdy, 0, 18, 1, nlev);
      ref::apply_nabla2_to_w(g, in.cell_area, zc, in.geofac_n2s, st.w, p.diff_multfac_w, 0, 18, 0,
                             nlev);
      ref::apply_nabla2_to_w_in_upper_damping_layer(st.w, p.diff_multfac_n2w, in.cell_area, zc, 0,
                                                    18, 1, t.config.nrd + 1);
    }
    {  // S9
      Field enh(18, nlev);
      ref::temporary_field_for_grid_point_cold_pools_enhancement(
          g, st.theta_v, in.theta_ref_mc, enh, -5.0, ref::dbl_eps, 0, 18, nlev - 2, nlev);
      ref::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, kh, enh, 0, 27, nlev - 2,
                                                                   nlev);
    }
    {  // S10, S11; the torus has self LAST in C2E2CO: self = slot 3, C2E2C = slots 0..2
      const Field theta_star = st.theta_v;
      Vector n2s_c(18);
      Table nbh(18, 3);
      for (index_t c = 0; c < 18; ++c) {
        n2s_c[c] = in.geofac_n2s(c, 3);
        for (int j = 0; j < 3; ++j) nbh(c, j) = in.geofac_n2s(c, j);
      }
      Field flux(27, nlev), zt(18, nlev);
      ref::calculate_nabla2_for_z(g, kh, in.inverse_dual_edge_lengths, theta_star, flux, 0, 27, 0,
                                  nlev);
      ref::calculate_nabla2_of_theta(g, flux, in.geofac_div, zt, 0, 18, 0, nlev);
      Field zth = zt;
      ref::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
          g, in.zd_vertoffset, in.zd_diffcoef, n2s_c, nbh, in.zd_intcoef, theta_star, zth, 0, 18, 0,
          nlev);
      for (std::size_t i = 0; i < zt.values.size(); ++i)
        if (in.zd_diffcoef.values[i] != 0.0) zt.values[i] = zth.values[i];
      ref::update_theta_and_exner(zt, in.cell_area, st.theta_v, st.exner, p.rd_o_cvd, 0, 18, 0,
                                  nlev);
    }

    ref::GranuleWork work;
    ref::run_diffusion_reference(g, t.config, in, t.state, dtime, initial_run, &work);
    const auto& got = t.state;
    EXPECT_LT(max_rel_diff(got.vn, st.vn), 1e-13) << "initial_run " << initial_run;
    EXPECT_LT(max_rel_diff(got.w, st.w), 1e-13);
    EXPECT_LT(max_rel_diff(got.theta_v, st.theta_v), 1e-14);
    EXPECT_LT(max_rel_diff(got.exner, st.exner), 1e-13);
    EXPECT_LT(max_rel_diff(got.div_ic, st.div_ic), 1e-13);
    EXPECT_LT(max_rel_diff(got.hdef_ic, st.hdef_ic), 1e-12);
    EXPECT_TRUE(identical(got.dwdx, st.dwdx));
    EXPECT_TRUE(identical(got.dwdy, st.dwdy));
    EXPECT_TRUE(identical(work.kh_smag_e, kh));
    EXPECT_TRUE(identical(work.kh_smag_ec, khc));
    EXPECT_TRUE(identical(work.z_nabla2_e, z2));
    EXPECT_TRUE(identical(work.u_vert, u));
    EXPECT_EQ(work.parameters.smag_offset, p.smag_offset);
  }
}

TEST(Granule, NeverWrittenLevelsAndSwitchedOffFieldsStayUntouched) {
  const int nlev = 6;
  auto t = make_torus_case(72, nlev);
  for (index_t c = 0; c < 18; ++c) {
    t.state.w(c, nlev) = nan;
    for (Field* f : {&t.state.div_ic, &t.state.hdef_ic, &t.state.dwdx, &t.state.dwdy}) {
      (*f)(c, 0) = nan;
      (*f)(c, nlev) = nan;
    }
  }
  auto run = t;
  ref::run_diffusion_reference(run.grid, run.config, run.in, run.state, 5.0, false);
  expect_written_only_inside(run.state.w, 0, 18, 0, nlev, "w");
  for (const Field* f : {&run.state.div_ic, &run.state.hdef_ic, &run.state.dwdx, &run.state.dwdy})
    expect_written_only_inside(*f, 0, 18, 1, nlev, "half-level diagnostic");

  // switched off: no turbulence diagnostics, no dwdx/dwdy, no temperature
  auto off = t;
  off.config.shear_type = 0;
  off.config.a_hshr = 0.0;
  off.config.apply_to_temperature = false;
  ref::run_diffusion_reference(off.grid, off.config, off.in, off.state, 5.0, false);
  EXPECT_TRUE(identical(off.state.div_ic, t.state.div_ic));
  EXPECT_TRUE(identical(off.state.hdef_ic, t.state.hdef_ic));
  EXPECT_TRUE(identical(off.state.dwdx, t.state.dwdx));
  EXPECT_TRUE(identical(off.state.dwdy, t.state.dwdy));
  EXPECT_TRUE(identical(off.state.theta_v, t.state.theta_v));
  EXPECT_TRUE(identical(off.state.exner, t.state.exner));
  EXPECT_FALSE(identical(off.state.vn, t.state.vn));
  // w and vn do not depend on those switches
  EXPECT_TRUE(identical(off.state.vn, run.state.vn));
  EXPECT_TRUE(identical(off.state.w, run.state.w));
}

TEST(Granule, QuiescentStateIsSteady) {
  const int nlev = 6;
  auto t = make_torus_case(73, nlev);
  auto& in = t.in;
  // Laplacian rows that annihilate constants (the self slot is wherever C2E2CO holds c)
  for (index_t c = 0; c < 18; ++c) {
    double others = 0.0;
    for (int i = 0; i < 3; ++i) others += in.geofac_n2s(c, i);
    in.geofac_n2s(c, 3) = -others;
  }
  in.zd_diffcoef = Field(18, nlev, 0.0);
  t.state.vn = Field(27, nlev, 0.0);
  t.state.w = Field(18, nlev + 1, 0.25);
  t.state.theta_v = Field(18, nlev, 300.0);
  in.theta_ref_mc = Field(18, nlev, 290.0);
  const auto before = t.state;
  ref::GranuleWork work;
  ref::run_diffusion_reference(t.grid, t.config, in, t.state, 10.0, false, &work);
  EXPECT_TRUE(identical(t.state.vn, before.vn));
  EXPECT_LT(max_rel_diff(t.state.w, before.w), 1e-14);
  EXPECT_TRUE(identical(t.state.theta_v, before.theta_v));
  EXPECT_TRUE(identical(t.state.exner, before.exner));
  for (index_t c = 0; c < 18; ++c)
    for (int k = 1; k < nlev; ++k) {
      EXPECT_EQ(t.state.div_ic(c, k), 0.0);
      EXPECT_EQ(t.state.hdef_ic(c, k), 0.0);
    }
  // kh_smag_e = 0, except the cold-pool "inactive" DBL_EPS on the two lowest levels (§6.4)
  for (index_t e = 0; e < 27; ++e)
    for (int k = 0; k < nlev; ++k)
      EXPECT_EQ(work.kh_smag_e(e, k), k >= nlev - 2 ? ref::dbl_eps : 0.0) << e << " " << k;
}

/// Torus zones rearranged as a limited-area, decomposed grid would have them, so that every
/// range of §3.0 is a proper sub-range (the torus has no missing neighbours, so this is legal).
void set_lam_like_zones(Grid& g) {
  const auto zones = [](Location l, const std::vector<std::pair<Zone, IndexRange>>& list) {
    std::array<IndexRange, num_zones> r{};
    for (const auto& [zone, range] : list) r[static_cast<int>(zone)] = range;
    return Zones(l, r);
  };
  using Z = Zone;
  g.zones[0] = zones(Location::Cell, {{Z::LateralBoundary1, {0, 1}},
                                      {Z::LateralBoundary2, {1, 2}},
                                      {Z::LateralBoundary3, {2, 3}},
                                      {Z::LateralBoundary4, {3, 4}},
                                      {Z::Nudging, {4, 5}},
                                      {Z::Interior, {5, 15}},
                                      {Z::Local, {0, 15}},
                                      {Z::Halo, {15, 17}},
                                      {Z::Halo2, {17, 18}},
                                      {Z::End, {18, 18}}});
  std::vector<std::pair<Zone, IndexRange>> edges;
  for (int row = 1; row <= 8; ++row) edges.push_back({lateral_boundary_zone(row), {row - 1, row}});
  edges.insert(edges.end(), {{Z::Nudging, {8, 9}},
                             {Z::Nudging2, {9, 10}},
                             {Z::Interior, {10, 22}},
                             {Z::Local, {0, 22}},
                             {Z::Halo, {22, 25}},
                             {Z::Halo2, {25, 27}},
                             {Z::End, {27, 27}}});
  g.zones[1] = zones(Location::Edge, edges);
  g.zones[2] = zones(Location::Vertex, {{Z::LateralBoundary1, {0, 1}},
                                        {Z::LateralBoundary2, {1, 2}},
                                        {Z::LateralBoundary3, {2, 3}},
                                        {Z::LateralBoundary4, {3, 4}},
                                        {Z::Nudging, {4, 5}},
                                        {Z::Interior, {5, 7}},
                                        {Z::Local, {0, 7}},
                                        {Z::Halo, {7, 8}},
                                        {Z::Halo2, {8, 9}},
                                        {Z::End, {9, 9}}});
}

/// a == b exactly outside [hs,he) × [vs,ve) and a != b at every point inside.
void expect_changed_exactly_inside(const Field& a, const Field& b, index_t hs, index_t he, int vs,
                                   int ve, const char* what) {
  int unchanged_inside = 0, changed_outside = 0;
  for (index_t i = 0; i < a.points; ++i)
    for (int k = 0; k < a.levels; ++k) {
      const bool inside = i >= hs && i < he && k >= vs && k < ve;
      if (inside && a(i, k) == b(i, k)) ++unchanged_inside;
      if (!inside && a(i, k) != b(i, k)) ++changed_outside;
    }
  EXPECT_EQ(changed_outside, 0) << what << ": changed outside its valid region";
  EXPECT_EQ(unchanged_inside, 0) << what << ": unchanged inside its valid region";
}

TEST(Granule, LimitedAreaZonesGiveTheValidRegionsOfSection3_11) {
  const int nlev = 6;
  for (const bool limited_area : {true, false}) {
    auto t = make_torus_case(74, nlev);
    set_lam_like_zones(t.grid);
    t.grid.limited_area = limited_area;
    t.config.limited_area = limited_area;
    const auto before = t.state;
    ref::GranuleWork work;
    ref::run_diffusion_reference(t.grid, t.config, t.in, t.state, 10.0, false, &work);
    const auto& st = t.state;
    // vn: edges [S(E,LB5), E(E,LOCAL)) = [4, 22); for a global grid only from S(E,NUDGING_LEVEL_2)
    expect_changed_exactly_inside(st.vn, before.vn, limited_area ? 4 : 9, 22, 0, nlev, "vn");
    if (limited_area) {  // boundary rows 5..9: vn + area_edge·fac_bdydiff_v·z_nabla2_e
      for (index_t e = 4; e < 9; ++e)
        for (int k = 0; k < nlev; ++k)
          EXPECT_EQ(st.vn(e, k), before.vn(e, k) + t.in.edge_areas[e] *
                                                       work.parameters.fac_bdydiff_v *
                                                       work.z_nabla2_e(e, k));
    }
    // w: cells [S(C,INTERIOR), E(C,LOCAL)) × [0,nlev)
    expect_changed_exactly_inside(st.w, before.w, 5, 15, 0, nlev, "w");
    // dwdx, dwdy: [w_start, E(C,HALO)) × [1,nlev); w_start = S(C,NUDGING) or S(C,LB4)
    const index_t w_start = limited_area ? 4 : 3;
    expect_changed_exactly_inside(st.dwdx, before.dwdx, w_start, 17, 1, nlev, "dwdx");
    expect_changed_exactly_inside(st.dwdy, before.dwdy, w_start, 17, 1, nlev, "dwdy");
    // theta_v, exner, div_ic, hdef_ic: [S(C,NUDGING), E(C,LOCAL))
    expect_changed_exactly_inside(st.theta_v, before.theta_v, 4, 15, 0, nlev, "theta_v");
    expect_changed_exactly_inside(st.exner, before.exner, 4, 15, 0, nlev, "exner");
    expect_changed_exactly_inside(st.div_ic, before.div_ic, 4, 15, 1, nlev, "div_ic");
    expect_changed_exactly_inside(st.hdef_ic, before.hdef_ic, 4, 15, 1, nlev, "hdef_ic");
    // work arrays: S3 on [S(E,LB5), E(E,HALO_LEVEL_2)) = [4, 27); S5 on [S(V,LB2), E(V,LOCAL))
    const Field zero_e(27, nlev, 0.0), zero_v(9, nlev, 0.0);
    expect_changed_exactly_inside(work.kh_smag_ec, zero_e, 4, 27, 0, nlev, "kh_smag_ec");
    expect_changed_exactly_inside(work.z_nabla2_e, zero_e, 4, 27, 0, nlev, "z_nabla2_e");
    expect_changed_exactly_inside(work.u_vert, zero_v, 1, 7, 0, nlev, "u_vert");
  }
}

TEST(Granule, RejectsBadInput) {
  auto t = make_torus_case(75, 4);
  auto bad = t;
  EXPECT_THROW(ref::run_diffusion_reference(bad.grid, bad.config, bad.in, bad.state, 0.0, false),
               std::invalid_argument);
  bad.state.w = Field(18, 4);  // must have nlev+1 levels
  EXPECT_THROW(ref::run_diffusion_reference(bad.grid, bad.config, bad.in, bad.state, 1.0, false),
               std::invalid_argument);
  bad = t;
  bad.grid.c2e2c(5, 0) = missing_index;
  EXPECT_THROW(ref::run_diffusion_reference(bad.grid, bad.config, bad.in, bad.state, 1.0, false),
               std::logic_error);
  bad = t;
  bad.in.zd_vertoffset(3, 1, 3) = 1;  // level 3 + 1 + 1 = 5 > nlev-1
  bad.in.zd_diffcoef(3, 3) = 0.5;
  EXPECT_THROW(ref::run_diffusion_reference(bad.grid, bad.config, bad.in, bad.state, 1.0, false),
               std::invalid_argument);
  bad.config.apply_zdiffusion_t = false;  // then the offsets are never used
  EXPECT_NO_THROW(
      ref::run_diffusion_reference(bad.grid, bad.config, bad.in, bad.state, 1.0, false));
}

TEST(Granule, SplitGeofacN2sFindsSelfWhereverItIs) {
  Grid g = test::make_simple_torus_grid();
  RandomSource rng(76);
  const Table n2s = random_table(rng, 18, 4);
  Vector c_part;
  Table nbh;
  ref::split_geofac_n2s(g, n2s, 0, 18, c_part, nbh);
  for (index_t c = 0; c < 18; ++c) {
    EXPECT_EQ(c_part[c], n2s(c, 3));  // torus: self last
    for (int j = 0; j < 3; ++j) EXPECT_EQ(nbh(c, j), n2s(c, j));
  }
  // ICON order (self first) on the same topology
  Table n2s_first(18, 4);
  for (index_t c = 0; c < 18; ++c) {
    g.c2e2co(c, 0) = c;
    for (int j = 0; j < 3; ++j) g.c2e2co(c, j + 1) = g.c2e2c(c, j);
    n2s_first(c, 0) = n2s(c, 3);
    for (int j = 0; j < 3; ++j) n2s_first(c, j + 1) = n2s(c, j);
  }
  Vector c2;
  Table nbh2;
  ref::split_geofac_n2s(g, n2s_first, 2, 10, c2, nbh2);
  for (index_t c = 0; c < 18; ++c) {
    if (c < 2 || c >= 10) {
      EXPECT_TRUE(std::isnan(c2[c]));
      continue;
    }
    EXPECT_EQ(c2[c], c_part[c]);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(nbh2(c, j), nbh(c, j));
  }
  std::swap(g.c2e2co(4, 1), g.c2e2co(4, 2));  // neighbours out of C2E2C order
  EXPECT_THROW(ref::split_geofac_n2s(g, n2s_first, 0, 18, c2, nbh2), std::logic_error);
}

}  // namespace
}  // namespace icondiff
