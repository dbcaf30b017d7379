// Tests of the plain-loop velocity-advection reference (unit_tests/reference/
// velocity_advection_reference): values derived by hand from ICON4Py's definitions (numbers in
// the comments), the level bands of the CFL clipping and of the extra diffusion, the variants,
// points outside every domain untouched, ICON4Py's treatment of missing neighbours, the scale
// factors and the max_vertical_cfl reduction, and argument errors. Nothing here runs a kernel.
#include "reference/velocity_advection_reference.hpp"
#include "support/expect_error.hpp"
#include "support/host_field.hpp"
#include "support/tiny_grids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace icondiff {
namespace {

namespace ref = reference;
using ref::Field;
using ref::Table;
using ref::Vector;
using test::RandomSource;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr int kLevels = 10;

// ---- Helpers ------------------------------------------------------------------------------------

Table random_table(RandomSource& rng, index_t rows, int cols, double lo = -1.0, double hi = 1.0) {
  Table t(rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform(lo, hi);
  return t;
}

/// A (V,6) coefficient table in the order of `v2x`, NaN in the missing slots: a reference that
/// read them would produce NaN.
Table vertex_table(RandomSource& rng, const HostTable<index_t>& v2x) {
  Table t = random_table(rng, static_cast<index_t>(v2x.rows()), 6);
  for (std::size_t v = 0; v < v2x.rows(); ++v)
    for (std::size_t j = 0; j < 6; ++j)
      if (v2x(v, j) == missing_index) t(v, j) = nan;
  return t;
}

Table constant_table(index_t rows, std::initializer_list<double> row) {
  Table t(rows, row.size());
  for (index_t r = 0; r < rows; ++r) {
    std::size_t j = 0;
    for (double x : row) t(r, j++) = x;
  }
  return t;
}

Field constant_field(index_t points, int levels, double value) {
  return Field(points, levels, value);
}

double rel_diff(double x, double y) {
  if (std::isnan(x) && std::isnan(y)) return 0.0;
  if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
  return std::fabs(x - y) / std::max({1.0, std::fabs(x), std::fabs(y)});
}

/// Bitwise equality of the values (NaN == NaN).
bool identical(const Field& a, const Field& b) {
  if (a.points != b.points || a.levels != b.levels) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double x = a.values[i], y = b.values[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x != y) return false;
  }
  return true;
}

bool inside(index_t i, int k, index_t hs, index_t he, int vs, int ve) {
  return i >= hs && i < he && k >= vs && k < ve;
}

/// Every value of `f` outside [hs, he) × [vs, ve) is NaN (the sentinel the outputs start with).
void expect_nan_outside(const Field& f, index_t hs, index_t he, int vs, int ve, const char* name) {
  int written_outside = 0;
  for (index_t i = 0; i < f.points; ++i)
    for (int k = 0; k < f.levels; ++k)
      if (!inside(i, k, hs, he, vs, ve) && !std::isnan(f(i, k))) ++written_outside;
  EXPECT_EQ(written_outside, 0) << name << " was written outside its domain";
}

/// Sum of c_intp·w over the valid V2C slots (the missing slots skipped).
double vertex_average(const Grid& g, const Table& c_intp, const Field& w, index_t v, int k) {
  double s = 0.0;
  for (int j = 0; j < 6; ++j)
    if (g.v2c(v, j) != missing_index) s += c_intp(v, j) * w(g.v2c(v, j), k);
  return s;
}

// ================================================================================================
// Scale factors and max_vertical_cfl
// ================================================================================================

TEST(VelocityAdvectionScaleFactors, FollowTheGranuleFormulas) {
  const auto s = ref::scale_factors_by_dtime(10.0);
  EXPECT_EQ(s.cfl_w_limit, 0.65 / 10.0);
  EXPECT_EQ(s.scalfac_exdiff, 0.05 / (10.0 * (0.85 - (0.65 / 10.0) * 10.0)));
  EXPECT_NEAR(s.scalfac_exdiff, 0.025, 1e-15);  // 0.05 / (10·0.2)
}

TEST(MaxVerticalCfl, SignedMaximumOverTheCellRangeAndEveryLevel) {
  Field cfl(8, 4, 0.0);
  cfl(0, 1) = 50.0;  // outside the cell range
  cfl(7, 3) = 40.0;  // outside the cell range
  cfl(3, 0) = -9.0;  // signed: a large negative CFL does not count as large
  cfl(5, 3) = 1.25;  // last level counts
  cfl(2, 2) = 0.75;
  EXPECT_EQ(ref::max_vertical_cfl(cfl, 2, 7), 1.25);
  for (auto& v : cfl.values) v = -1.0;
  cfl(4, 2) = -0.5;
  EXPECT_EQ(ref::max_vertical_cfl(cfl, 2, 7), -0.5);
  cfl(6, 1) = nan;
  EXPECT_TRUE(std::isnan(ref::max_vertical_cfl(cfl, 2, 7)));
  EXPECT_EQ(ref::max_vertical_cfl(cfl, 0, 6), -0.5);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::max_vertical_cfl(cfl, 3, 3); },
                                                   {"vertical_cfl"}, "empty range");
  test::expect_throw_naming<std::invalid_argument>([&] { ref::max_vertical_cfl(cfl, 0, 9); },
                                                   {"vertical_cfl"}, "range outside");
}

// ================================================================================================
// compute_diagnostics_from_normal_wind
// ================================================================================================

/// Random inputs, NaN outputs (in/out fields too), the granule's domain: every edge, levels
/// [0, nlev+1), nflatlev = 2.
ref::ComputeDiagnosticsFromNormalWindArgs random_diagnostics_args(const Grid& g, RandomSource& rng,
                                                                  int nlev = kLevels) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ComputeDiagnosticsFromNormalWindArgs a;
  a.tangential_wind = Field(ne, nlev, nan);
  a.tangential_wind_on_half_levels = Field(ne, nlev, nan);
  a.vn_on_half_levels = Field(ne, nlev + 1, nan);
  a.horizontal_kinetic_energy_at_edges_on_model_levels = Field(ne, nlev, nan);
  a.contravariant_correction_at_edges_on_model_levels = Field(ne, nlev, nan);
  a.horizontal_advection_of_w_at_edges_on_half_levels = Field(ne, nlev, nan);
  a.vn = rng.field(ne, nlev);
  a.w = rng.field(nc, nlev + 1);
  a.rbf_vec_coeff_e = random_table(rng, ne, 4);
  a.wgtfac_e = rng.field(ne, nlev + 1, 0.0, 1.0);
  a.ddxn_z_full = rng.field(ne, nlev);
  a.ddxt_z_full = rng.field(ne, nlev);
  a.wgtfacq_e = rng.field(ne, nlev + 1);
  a.c_intp = vertex_table(rng, g.v2c);
  a.inv_dual_edge_length = rng.vector(ne, 0.5, 2.0);
  a.inv_primal_edge_length = rng.vector(ne, 0.5, 2.0);
  a.tangent_orientation = g.tangent_orientation;
  a.skip_compute_predictor_vertical_advection = false;
  a.nflatlev = 2;
  a.horizontal_start = 0;
  a.horizontal_end = static_cast<int>(ne);
  a.vertical_start = 0;
  a.vertical_end = nlev + 1;
  return a;
}

TEST(DiagnosticsFromNormalWind, UniformWindByHand) {
  const Grid g = test::make_octahedron_grid();
  const index_t ne = g.num_edges;
  RandomSource rng(11);
  auto a = random_diagnostics_args(g, rng);
  a.vn = constant_field(ne, kLevels, 3.0);
  a.rbf_vec_coeff_e = constant_table(ne, {0.5, 0.5, 0.25, 0.25});  // vt = 1.5·3 = 4.5
  a.wgtfac_e = constant_field(ne, kLevels + 1, 0.75);
  a.ddxn_z_full = constant_field(ne, kLevels, 0.5);
  a.ddxt_z_full = constant_field(ne, kLevels, 2.0);
  a.wgtfacq_e = constant_field(ne, kLevels + 1, 0.0);
  a.wgtfacq_e(0, kLevels - 1) = 0.5;  // edge 0: weights 0.5, 0.25, 0.25 of the last three levels
  a.wgtfacq_e(0, kLevels - 2) = 0.25;
  a.wgtfacq_e(0, kLevels - 3) = 0.25;
  a.w = constant_field(g.num_cells, kLevels + 1, 7.0);  // uniform w: no horizontal gradient
  for (std::size_t v = 0; v < g.v2c.rows(); ++v)
    for (int j = 0; j < 6; ++j)
      a.c_intp(v, j) = g.v2c(v, j) == missing_index ? nan : 0.25;  // skipped on a global grid
  a.contravariant_correction_at_edges_on_model_levels = Field(ne, kLevels, -7.0);
  ref::compute_diagnostics_from_normal_wind(g, a);
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k < kLevels; ++k) {
      SCOPED_TRACE(::testing::Message() << "edge " << e << ", level " << k);
      EXPECT_EQ(a.tangential_wind(e, k), 4.5);
      EXPECT_EQ(a.horizontal_kinetic_energy_at_edges_on_model_levels(e, k), 14.625);  // (9+20.25)/2
      EXPECT_EQ(a.vn_on_half_levels(e, k), 3.0);  // 0.75·3 + 0.25·3, vn at k = 0
      EXPECT_EQ(a.tangential_wind_on_half_levels(e, k), 4.5);
      // vn·ddxn + vt·ddxt = 1.5 + 9 from nflatlev = 2 on; untouched above
      EXPECT_EQ(a.contravariant_correction_at_edges_on_model_levels(e, k), k >= 2 ? 10.5 : -7.0);
      EXPECT_EQ(a.horizontal_advection_of_w_at_edges_on_half_levels(e, k), 0.0);
    }
  // extrapolate_at_top writes level vertical_end - 1 = nlev (the surface half level)
  EXPECT_EQ(a.vn_on_half_levels(0, kLevels), 3.0);  // (0.5 + 0.25 + 0.25)·3
  for (index_t e = 1; e < ne; ++e) EXPECT_EQ(a.vn_on_half_levels(e, kLevels), 0.0);
}

TEST(DiagnosticsFromNormalWind, HalfLevelsAndExtrapolationByHand) {
  const Grid g = test::make_octahedron_grid();
  const index_t ne = g.num_edges;
  const int nlev = 6;
  RandomSource rng(12);
  auto a = random_diagnostics_args(g, rng, nlev);
  for (index_t e = 0; e < ne; ++e) {
    for (int k = 0; k < nlev; ++k) a.vn(e, k) = 1.0 + k;
    for (int k = 0; k <= nlev; ++k) a.wgtfac_e(e, k) = 0.75;
    a.wgtfacq_e(e, nlev - 1) = 2.0;
    a.wgtfacq_e(e, nlev - 2) = -1.5;
    a.wgtfacq_e(e, nlev - 3) = 0.5;
  }
  ref::compute_diagnostics_from_normal_wind(g, a);
  for (index_t e = 0; e < ne; ++e) {
    EXPECT_EQ(a.vn_on_half_levels(e, 0), 1.0);  // vn itself at k = 0
    for (int k = 1; k < nlev; ++k)
      EXPECT_EQ(a.vn_on_half_levels(e, k), k + 0.75);  // 0.75·(k+1) + 0.25·k
    EXPECT_EQ(a.vn_on_half_levels(e, nlev), 6.5);      // 2·6 - 1.5·5 + 0.5·4
  }

  // A domain below the top: the main levels above vertical_start stay untouched, the
  // extrapolation still writes level vertical_end - 1.
  auto b = random_diagnostics_args(g, rng, nlev);
  b.vn = a.vn;
  b.wgtfac_e = a.wgtfac_e;
  b.wgtfacq_e = a.wgtfacq_e;
  b.horizontal_start = 3;
  b.horizontal_end = 9;
  b.vertical_start = 2;
  ref::compute_diagnostics_from_normal_wind(g, b);
  expect_nan_outside(b.vn_on_half_levels, 3, 9, 2, nlev + 1, "vn_on_half_levels");
  expect_nan_outside(b.tangential_wind, 3, 9, 2, nlev, "tangential_wind");
  for (index_t e = 3; e < 9; ++e) {
    EXPECT_EQ(b.vn_on_half_levels(e, 2), 2.75);
    EXPECT_EQ(b.vn_on_half_levels(e, nlev), 6.5);
  }
}

TEST(DiagnosticsFromNormalWind, RandomValuesAgreeWithTheDocstringFormulas) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(13);
  auto a = random_diagnostics_args(g, rng);
  const auto in = a;
  ref::compute_diagnostics_from_normal_wind(g, a);
  auto vt_at = [&](index_t e, int k) {
    double s = 0.0;
    for (int j = 0; j < 4; ++j) s += in.rbf_vec_coeff_e(e, j) * in.vn(g.e2c2e(e, j), k);
    return s;
  };
  double worst = 0.0;
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) {
      const double vt = vt_at(e, k);
      const double wgt = in.wgtfac_e(e, k);
      const double vn_ie = k == 0 ? in.vn(e, 0) : wgt * in.vn(e, k) + (1 - wgt) * in.vn(e, k - 1);
      const double vt_ie = k == 0 ? vt : wgt * vt + (1 - wgt) * vt_at(e, k - 1);
      const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1), v0 = g.e2v(e, 0), v1 = g.e2v(e, 1);
      const double dwdn = (in.w(c0, k) - in.w(c1, k)) * in.inv_dual_edge_length[e];
      const double dwdt =
          (vertex_average(g, in.c_intp, in.w, v0, k) - vertex_average(g, in.c_intp, in.w, v1, k)) *
          in.inv_primal_edge_length[e] * in.tangent_orientation[e];
      worst = std::max({worst, rel_diff(a.tangential_wind(e, k), vt),
                        rel_diff(a.horizontal_kinetic_energy_at_edges_on_model_levels(e, k),
                                 (in.vn(e, k) * in.vn(e, k) + vt * vt) / 2),
                        rel_diff(a.vn_on_half_levels(e, k), vn_ie),
                        rel_diff(a.tangential_wind_on_half_levels(e, k), vt_ie),
                        rel_diff(a.horizontal_advection_of_w_at_edges_on_half_levels(e, k),
                                 vn_ie * dwdn + vt_ie * dwdt)});
      if (k >= in.nflatlev)
        worst = std::max(worst,
                         rel_diff(a.contravariant_correction_at_edges_on_model_levels(e, k),
                                  in.vn(e, k) * in.ddxn_z_full(e, k) + vt * in.ddxt_z_full(e, k)));
      else
        EXPECT_TRUE(std::isnan(a.contravariant_correction_at_edges_on_model_levels(e, k)));
    }
  EXPECT_LT(worst, 1e-13);
  for (index_t e = 0; e < g.num_edges; ++e)
    EXPECT_LT(rel_diff(a.vn_on_half_levels(e, kLevels),
                       in.wgtfacq_e(e, kLevels - 1) * in.vn(e, kLevels - 1) +
                           in.wgtfacq_e(e, kLevels - 2) * in.vn(e, kLevels - 2) +
                           in.wgtfacq_e(e, kLevels - 3) * in.vn(e, kLevels - 3)),
              1e-13);
}

TEST(DiagnosticsFromNormalWind, SkipLeavesTheVerticalAdvectionInputsUntouched) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(14);
  const auto base = random_diagnostics_args(g, rng);
  auto full = base, skip = base;
  skip.skip_compute_predictor_vertical_advection = true;
  ref::compute_diagnostics_from_normal_wind(g, full);
  ref::compute_diagnostics_from_normal_wind(g, skip);
  EXPECT_TRUE(identical(skip.tangential_wind_on_half_levels, base.tangential_wind_on_half_levels));
  EXPECT_TRUE(identical(skip.horizontal_advection_of_w_at_edges_on_half_levels,
                        base.horizontal_advection_of_w_at_edges_on_half_levels));
  EXPECT_FALSE(identical(full.horizontal_advection_of_w_at_edges_on_half_levels,
                         base.horizontal_advection_of_w_at_edges_on_half_levels));
  EXPECT_TRUE(identical(skip.tangential_wind, full.tangential_wind));
  EXPECT_TRUE(identical(skip.vn_on_half_levels, full.vn_on_half_levels));
  EXPECT_TRUE(identical(skip.horizontal_kinetic_energy_at_edges_on_model_levels,
                        full.horizontal_kinetic_energy_at_edges_on_model_levels));
  EXPECT_TRUE(identical(skip.contravariant_correction_at_edges_on_model_levels,
                        full.contravariant_correction_at_edges_on_model_levels));
}

TEST(DiagnosticsFromNormalWind, DomainRespected) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(15);
  auto a = random_diagnostics_args(g, rng);
  a.horizontal_start = 2;
  a.horizontal_end = 10;
  a.vertical_start = 1;
  a.vertical_end = 8;  // main levels [1, 7), extrapolation at level 7
  a.nflatlev = 0;
  ref::compute_diagnostics_from_normal_wind(g, a);
  expect_nan_outside(a.tangential_wind, 2, 10, 1, 7, "tangential_wind");
  expect_nan_outside(a.tangential_wind_on_half_levels, 2, 10, 1, 7,
                     "tangential_wind_on_half_levels");
  expect_nan_outside(a.vn_on_half_levels, 2, 10, 1, 8, "vn_on_half_levels");
  expect_nan_outside(a.horizontal_kinetic_energy_at_edges_on_model_levels, 2, 10, 1, 7,
                     "horizontal_kinetic_energy_at_edges_on_model_levels");
  expect_nan_outside(a.contravariant_correction_at_edges_on_model_levels, 2, 10, 1, 7,
                     "contravariant_correction_at_edges_on_model_levels");
  expect_nan_outside(a.horizontal_advection_of_w_at_edges_on_half_levels, 2, 10, 1, 7,
                     "horizontal_advection_of_w_at_edges_on_half_levels");
  for (index_t e = 2; e < 10; ++e) {
    EXPECT_FALSE(std::isnan(a.vn_on_half_levels(e, 7)));
    EXPECT_FALSE(std::isnan(a.horizontal_advection_of_w_at_edges_on_half_levels(e, 1)));
  }
}

TEST(DiagnosticsFromNormalWind, PentagonSlotsSkippedOnGlobalGridsReplacedOtherwise) {
  const Grid global = test::make_octahedron_grid();  // V2C slots 4 and 5 are missing
  RandomSource rng(16);
  auto base = random_diagnostics_args(global, rng);
  for (std::size_t v = 0; v < global.v2c.rows(); ++v) {
    base.c_intp(v, 4) = 0.125;  // finite in the missing slots this time
    base.c_intp(v, 5) = 0.375;
  }
  auto skipped = base;
  ref::compute_diagnostics_from_normal_wind(global, skipped);

  // Limited area or decomposed: the -1 reads the largest valid cell of the row.
  Grid lam = global, decomposed = global, replaced = global;
  lam.limited_area = true;
  decomposed.num_ranks = 2;
  for (std::size_t v = 0; v < replaced.v2c.rows(); ++v) {
    const index_t* row = replaced.v2c.row(v);
    const index_t largest = *std::max_element(row, row + 6);
    for (int j = 0; j < 6; ++j)
      if (replaced.v2c(v, j) == missing_index) replaced.v2c(v, j) = largest;
  }
  auto on_lam = base, on_decomposed = base, on_replaced = base;
  ref::compute_diagnostics_from_normal_wind(lam, on_lam);
  ref::compute_diagnostics_from_normal_wind(decomposed, on_decomposed);
  ref::compute_diagnostics_from_normal_wind(replaced, on_replaced);
  const Field& adv = skipped.horizontal_advection_of_w_at_edges_on_half_levels;
  EXPECT_TRUE(identical(on_lam.horizontal_advection_of_w_at_edges_on_half_levels,
                        on_replaced.horizontal_advection_of_w_at_edges_on_half_levels));
  EXPECT_TRUE(identical(on_decomposed.horizontal_advection_of_w_at_edges_on_half_levels,
                        on_replaced.horizontal_advection_of_w_at_edges_on_half_levels));
  EXPECT_FALSE(identical(on_lam.horizontal_advection_of_w_at_edges_on_half_levels, adv));

  // The skipped version is the sum over the four valid slots only.
  const index_t e = 4;
  const int k = 3;
  const double wgt = base.wgtfac_e(e, k);
  const double vn_ie = wgt * base.vn(e, k) + (1 - wgt) * base.vn(e, k - 1);
  auto vt_at = [&](int level) {
    double s = 0.0;
    for (int j = 0; j < 4; ++j)
      s += base.rbf_vec_coeff_e(e, j) * base.vn(global.e2c2e(e, j), level);
    return s;
  };
  const double vt_ie = wgt * vt_at(k) + (1 - wgt) * vt_at(k - 1);
  const double expected = vn_ie * base.inv_dual_edge_length[e] *
                              (base.w(global.e2c(e, 0), k) - base.w(global.e2c(e, 1), k)) +
                          vt_ie * base.inv_primal_edge_length[e] * base.tangent_orientation[e] *
                              (vertex_average(global, base.c_intp, base.w, global.e2v(e, 0), k) -
                               vertex_average(global, base.c_intp, base.w, global.e2v(e, 1), k));
  EXPECT_LT(rel_diff(adv(e, k), expected), 1e-13);
}

TEST(DiagnosticsFromNormalWind, MissingE2C2ENeighbourReadsTheLargestValidIndex) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(17);
  const auto base = random_diagnostics_args(g, rng);
  Grid missing = g, replaced = g;
  missing.e2c2e(5, 1) = missing_index;
  const index_t* row = g.e2c2e.row(5);
  index_t largest = -1;
  for (int j = 0; j < 4; ++j)
    if (j != 1) largest = std::max(largest, row[j]);
  replaced.e2c2e(5, 1) = largest;
  auto a = base, b = base;
  ref::compute_diagnostics_from_normal_wind(missing, a);
  ref::compute_diagnostics_from_normal_wind(replaced, b);
  EXPECT_TRUE(identical(a.tangential_wind, b.tangential_wind));
  EXPECT_TRUE(identical(a.horizontal_kinetic_energy_at_edges_on_model_levels,
                        b.horizontal_kinetic_energy_at_edges_on_model_levels));
}

TEST(DiagnosticsFromNormalWind, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(18);
  const auto base = random_diagnostics_args(g, rng);
  auto a = base;
  a.vn_on_half_levels = Field(g.num_edges, kLevels, 0.0);  // needs nlev+1 levels
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"vn_on_half_levels"},
      "nlev-level vn_on_half_levels");
  a = base;
  a.rbf_vec_coeff_e = Table(g.num_edges, 3);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"rbf_vec_coeff_e"}, "rbf cols");
  a = base;
  a.wgtfacq_e = Field(g.num_edges, kLevels - 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"wgtfacq_e"}, "short wgtfacq_e");
  a = base;
  a.w = Field(g.num_cells + 1, kLevels + 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"w has shape"}, "w points");
  a = base;
  a.vertical_end = 3;  // extrapolate_at_top would read level -1
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"vn", "wgtfacq_e"},
      "extrapolation above the top");
  a = base;
  a.horizontal_end = static_cast<int>(g.num_edges) + 1;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_diagnostics_from_normal_wind(g, a); }, {"horizontal domain"},
      "edges beyond the grid");
}

// ================================================================================================
// compute_advection_in_predictor_vertical_momentum
// ================================================================================================

/// Random inputs with dz = ddqz_z_half in [50, 100) so that nothing clips (|w_con| < 2 and
/// cfl_w_limit = 0.325 after scale_factors_by_dtime(2)); NaN outputs except the in/out tendency
/// (random); the granule's domain: every cell, levels [0, nlev); nflatlev = 2,
/// end_index_of_damping_layer = 5 (CFL band [3, nlev-3)).
ref::ComputeAdvectionInPredictorVerticalMomentumArgs random_predictor_args(const Grid& g,
                                                                           RandomSource& rng,
                                                                           int nlev = kLevels) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ComputeAdvectionInPredictorVerticalMomentumArgs a;
  a.contravariant_correction_at_cells_on_half_levels = Field(nc, nlev + 1, nan);
  a.vertical_wind_advective_tendency = rng.field(nc, nlev + 1);
  a.contravariant_corrected_w_at_cells_on_model_levels = Field(nc, nlev, nan);
  a.vertical_cfl = Field(nc, nlev, nan);
  a.w = rng.field(nc, nlev + 1);
  a.horizontal_advection_of_w_at_edges_on_half_levels = rng.field(ne, nlev);
  a.contravariant_correction_at_edges_on_model_levels = rng.field(ne, nlev);
  a.coeff1_dwdz = rng.field(nc, nlev);
  a.coeff2_dwdz = rng.field(nc, nlev);
  a.e_bln_c_s = random_table(rng, nc, 3);
  a.wgtfac_c = rng.field(nc, nlev + 1, 0.0, 1.0);
  a.ddqz_z_half = rng.field(nc, nlev + 1, 50.0, 100.0);
  a.area = rng.vector(nc, 1.0, 2.0);
  a.geofac_n2s = random_table(rng, nc, 4);
  a.owner_mask = ref::BoolVector(nc, true);
  const auto s = ref::scale_factors_by_dtime(2.0);
  a.scalfac_exdiff = s.scalfac_exdiff;
  a.cfl_w_limit = s.cfl_w_limit;
  a.dtime = 2.0;
  a.skip_compute_predictor_vertical_advection = false;
  a.nflatlev = 2;
  a.end_index_of_damping_layer = 5;
  a.horizontal_start = 0;
  a.horizontal_end = static_cast<int>(nc);
  a.vertical_start = 0;
  a.vertical_end = nlev;
  return a;
}

TEST(PredictorVerticalMomentum, ContravariantCorrectionOnHalfLevelsByHand) {
  const Grid g = test::make_octahedron_grid();
  const index_t nc = g.num_cells;
  RandomSource rng(21);
  auto a = random_predictor_args(g, rng);
  a.nflatlev = 3;
  a.e_bln_c_s = constant_table(nc, {0.5, 0.25, 0.25});
  a.wgtfac_c = constant_field(nc, kLevels + 1, 0.75);
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k)
      a.contravariant_correction_at_edges_on_model_levels(e, k) = 2.0 * k;
  ref::compute_advection_in_predictor_vertical_momentum(g, a);
  for (index_t c = 0; c < nc; ++c) {
    for (int k = 0; k < kLevels; ++k)  // 0 down to nflatlev, then 0.75·2k + 0.25·2(k-1)
      EXPECT_EQ(a.contravariant_correction_at_cells_on_half_levels(c, k),
                k >= 4 ? 2.0 * k - 0.5 : 0.0)
          << "cell " << c << ", level " << k;
    EXPECT_TRUE(std::isnan(a.contravariant_correction_at_cells_on_half_levels(c, kLevels)))
        << "level nlev belongs to the solver";
  }
}

TEST(PredictorVerticalMomentum, ClippingOnlyInTheCflBand) {
  const Grid g = test::make_octahedron_grid();
  const index_t nc = g.num_cells;
  RandomSource rng(22);
  for (const int damping_end : {5, 0}) {
    SCOPED_TRACE(::testing::Message() << "end_index_of_damping_layer " << damping_end);
    // band: [max(2, damping_end - 2), nlev - 3) = [3, 7) or [2, 7)
    const int band_start = std::max(2, damping_end - 2), band_end = kLevels - 3;
    auto a = random_predictor_args(g, rng);
    a.end_index_of_damping_layer = damping_end;
    a.contravariant_correction_at_edges_on_model_levels = Field(g.num_edges, kLevels, 0.0);
    a.ddqz_z_half = constant_field(nc, kLevels + 1, 1.0);
    // dtime = 2, cfl_w_limit = 0.325: |w| > 0.325 clips; vertical_cfl = 2w; |2w| > 0.85 limits
    // w to ±0.425.
    const double w_of_cell[8] = {1.0, -1.0, 0.3, 0.4, -0.4, 1.0, 1.0, 0.2};
    for (index_t c = 0; c < nc; ++c)
      for (int k = 0; k <= kLevels; ++k) a.w(c, k) = w_of_cell[c];
    a.owner_mask[6] = false;
    const auto in = a;
    ref::compute_advection_in_predictor_vertical_momentum(g, a);
    for (index_t c = 0; c < nc; ++c) {
      const double w = w_of_cell[c];
      const bool clips = std::fabs(w) > a.cfl_w_limit;
      const double limited = std::fabs(2.0 * w) > 0.85 ? (w > 0 ? 0.425 : -0.425) : w;
      std::vector<double> z(kLevels);
      for (int k = 0; k < kLevels; ++k) {
        SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
        const bool band = k >= band_start && k < band_end;
        z[k] = band && clips ? limited : w;
        EXPECT_EQ(a.vertical_cfl(c, k), band && clips ? 2.0 * w : 0.0);
      }
      for (int k = 0; k < kLevels; ++k) {
        SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
        EXPECT_EQ(a.contravariant_corrected_w_at_cells_on_model_levels(c, k),
                  k < kLevels - 1 ? 0.5 * (z[k] + z[k + 1]) : 0.5 * z[k]);
        // The tendency differs from the no-diffusion formula only where clipped and owned. With
        // uniform w the vertical advection is -z·w·(c1 - c2 + c2 - c1), which is not exactly 0,
        // so compare with the same formula evaluated on the clipped z.
        if (k == 0) {
          EXPECT_EQ(a.vertical_wind_advective_tendency(c, k),
                    in.vertical_wind_advective_tendency(c, k));
          continue;
        }
        const double c1 = in.coeff1_dwdz(c, k), c2 = in.coeff2_dwdz(c, k);
        double horizontal = 0.0;
        for (int j = 0; j < 3; ++j)
          horizontal += in.horizontal_advection_of_w_at_edges_on_half_levels(g.c2e(c, j), k) *
                        in.e_bln_c_s(c, j);
        double expected = -z[k] * (w * c1 - w * c2 + w * (c2 - c1)) + horizontal;
        const bool band = k >= band_start && k < band_end;
        if (band && clips && in.owner_mask[c]) {
          // difcoef = scalfac·min(0.85 - 0.65, |z|·2/1 - 0.65), times area and the C2E2CO
          // Laplacian of w
          const double difcoef =
              a.scalfac_exdiff * std::min(0.85 - a.cfl_w_limit * 2.0,
                                          std::fabs(z[k]) * 2.0 / 1.0 - a.cfl_w_limit * 2.0);
          double laplacian = 0.0;
          for (int j = 0; j < 4; ++j) laplacian += in.w(g.c2e2co(c, j), k) * in.geofac_n2s(c, j);
          expected = expected + difcoef * in.area[c] * laplacian;
        }
        EXPECT_LT(rel_diff(a.vertical_wind_advective_tendency(c, k), expected), 1e-14)
            << "cell " << c << ", level " << k;
      }
    }
  }
}

TEST(PredictorVerticalMomentum, TendencyByHandWithoutClipping) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(23);
  auto a = random_predictor_args(g, rng);
  const auto in = a;
  ref::compute_advection_in_predictor_vertical_momentum(g, a);
  double worst = 0.0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    auto cell_average = [&](int k) {
      double s = 0.0;
      for (int j = 0; j < 3; ++j)
        s += in.e_bln_c_s(c, j) *
             in.contravariant_correction_at_edges_on_model_levels(g.c2e(c, j), k);
      return s;
    };
    auto z = [&](int k) {
      const double wgt = in.wgtfac_c(c, k);
      const double cc =
          k >= in.nflatlev + 1 ? wgt * cell_average(k) + (1 - wgt) * cell_average(k - 1) : 0.0;
      return in.w(c, k) - cc;
    };
    EXPECT_EQ(a.vertical_wind_advective_tendency(c, 0), in.vertical_wind_advective_tendency(c, 0));
    for (int k = 0; k < kLevels; ++k) {
      EXPECT_EQ(a.vertical_cfl(c, k), 0.0);
      const double full = k < kLevels - 1 ? (z(k) + z(k + 1)) / 2 : z(k) / 2;
      worst = std::max(worst,
                       rel_diff(a.contravariant_corrected_w_at_cells_on_model_levels(c, k), full));
      if (k == 0) continue;
      // -z·dw/dz with dw/dz = c1·(w[k-1] - w[k]) + c2·(w[k] - w[k+1]), plus the edge average
      const double dwdz = in.coeff1_dwdz(c, k) * (in.w(c, k - 1) - in.w(c, k)) +
                          in.coeff2_dwdz(c, k) * (in.w(c, k) - in.w(c, k + 1));
      double horizontal = 0.0;
      for (int j = 0; j < 3; ++j)
        horizontal += in.e_bln_c_s(c, j) *
                      in.horizontal_advection_of_w_at_edges_on_half_levels(g.c2e(c, j), k);
      worst = std::max(
          worst, rel_diff(a.vertical_wind_advective_tendency(c, k), horizontal - z(k) * dwdz));
    }
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(PredictorVerticalMomentum, SkipLeavesTheTendencyUntouched) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(24);
  auto base = random_predictor_args(g, rng);
  base.ddqz_z_half = constant_field(g.num_cells, kLevels + 1, 0.5);  // clipping somewhere
  auto full = base, skip = base;
  skip.skip_compute_predictor_vertical_advection = true;
  skip.w = Field(g.num_cells, kLevels, 0.0);  // w[nlev] is not read when skipping
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k < kLevels; ++k) skip.w(c, k) = base.w(c, k);
  ref::compute_advection_in_predictor_vertical_momentum(g, full);
  ref::compute_advection_in_predictor_vertical_momentum(g, skip);
  EXPECT_TRUE(
      identical(skip.vertical_wind_advective_tendency, base.vertical_wind_advective_tendency));
  EXPECT_FALSE(
      identical(full.vertical_wind_advective_tendency, base.vertical_wind_advective_tendency));
  EXPECT_TRUE(identical(skip.contravariant_correction_at_cells_on_half_levels,
                        full.contravariant_correction_at_cells_on_half_levels));
  EXPECT_TRUE(identical(skip.contravariant_corrected_w_at_cells_on_model_levels,
                        full.contravariant_corrected_w_at_cells_on_model_levels));
  EXPECT_TRUE(identical(skip.vertical_cfl, full.vertical_cfl));
  double largest = 0.0;
  for (double v : full.vertical_cfl.values) largest = std::max(largest, std::fabs(v));
  EXPECT_GT(largest, 0.0) << "the test meant to clip somewhere";
}

TEST(PredictorVerticalMomentum, DomainRespected) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(25);
  auto a = random_predictor_args(g, rng);
  a.ddqz_z_half = constant_field(g.num_cells, kLevels + 1, 0.5);
  const int nlev_domain = 8;  // the program takes nlev = vertical_end
  a.horizontal_start = 1;
  a.horizontal_end = 6;
  a.vertical_start = 2;
  a.vertical_end = nlev_domain;
  const auto in = a;
  ref::compute_advection_in_predictor_vertical_momentum(g, a);
  expect_nan_outside(a.contravariant_correction_at_cells_on_half_levels, 1, 6, 2, nlev_domain,
                     "contravariant_correction_at_cells_on_half_levels");
  expect_nan_outside(a.contravariant_corrected_w_at_cells_on_model_levels, 1, 6, 2, nlev_domain,
                     "contravariant_corrected_w_at_cells_on_model_levels");
  expect_nan_outside(a.vertical_cfl, 1, 6, 2, nlev_domain, "vertical_cfl");
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k <= kLevels; ++k)
      if (!inside(c, k, 1, 6, 2, nlev_domain)) {
        EXPECT_EQ(a.vertical_wind_advective_tendency(c, k),
                  in.vertical_wind_advective_tendency(c, k));
      }
  // nlev = vertical_end = 8: band [3, 5), last full level 7 is 0.5·z[7]
  for (index_t c = 1; c < 6; ++c) {
    EXPECT_EQ(a.vertical_cfl(c, 5), 0.0);
    EXPECT_EQ(a.vertical_cfl(c, 2), 0.0);
    const double z7 = in.w(c, 7) - a.contravariant_correction_at_cells_on_half_levels(c, 7);
    EXPECT_EQ(a.contravariant_corrected_w_at_cells_on_model_levels(c, 7), 0.5 * z7);
  }
}

TEST(PredictorVerticalMomentum, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(26);
  const auto base = random_predictor_args(g, rng);
  auto a = base;
  a.w = Field(g.num_cells, kLevels, 0.0);  // the tendency reads w[nlev]
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_predictor_vertical_momentum(g, a); }, {"w has shape"},
      "nlev-level w");
  a = base;
  a.owner_mask = ref::BoolVector(g.num_cells - 1, true);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_predictor_vertical_momentum(g, a); }, {"owner_mask"},
      "owner_mask size");
  a = base;
  a.geofac_n2s = Table(g.num_cells, 3);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_predictor_vertical_momentum(g, a); }, {"geofac_n2s"},
      "geofac_n2s cols");
  a = base;
  a.horizontal_advection_of_w_at_edges_on_half_levels = Field(g.num_edges, kLevels - 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_predictor_vertical_momentum(g, a); },
      {"horizontal_advection_of_w_at_edges_on_half_levels"}, "short edge field");
  a = base;
  a.vertical_end = kLevels + 1;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_predictor_vertical_momentum(g, a); }, {"vertical domain"},
      "levels beyond the outputs");
}

// ================================================================================================
// compute_advection_in_corrector_vertical_momentum
// ================================================================================================

ref::ComputeAdvectionInCorrectorVerticalMomentumArgs corrector_args_from(
    const ref::ComputeDiagnosticsFromNormalWindArgs& d,
    const ref::ComputeAdvectionInPredictorVerticalMomentumArgs& p) {
  ref::ComputeAdvectionInCorrectorVerticalMomentumArgs a;
  const index_t nc = p.w.points;
  const int nlev = p.vertical_end;
  a.vertical_wind_advective_tendency = p.vertical_wind_advective_tendency;
  a.contravariant_corrected_w_at_cells_on_model_levels = Field(nc, nlev, nan);
  a.vertical_cfl = Field(nc, nlev, nan);
  a.w = p.w;
  a.tangential_wind_on_half_levels = d.tangential_wind_on_half_levels;
  a.vn_on_half_levels = d.vn_on_half_levels;
  a.contravariant_correction_at_cells_on_half_levels =
      p.contravariant_correction_at_cells_on_half_levels;
  a.coeff1_dwdz = p.coeff1_dwdz;
  a.coeff2_dwdz = p.coeff2_dwdz;
  a.c_intp = d.c_intp;
  a.inv_dual_edge_length = d.inv_dual_edge_length;
  a.inv_primal_edge_length = d.inv_primal_edge_length;
  a.tangent_orientation = d.tangent_orientation;
  a.e_bln_c_s = p.e_bln_c_s;
  a.ddqz_z_half = p.ddqz_z_half;
  a.area = p.area;
  a.geofac_n2s = p.geofac_n2s;
  a.owner_mask = p.owner_mask;
  a.scalfac_exdiff = p.scalfac_exdiff;
  a.cfl_w_limit = p.cfl_w_limit;
  a.dtime = p.dtime;
  a.end_index_of_damping_layer = p.end_index_of_damping_layer;
  a.horizontal_start = p.horizontal_start;
  a.horizontal_end = p.horizontal_end;
  a.vertical_start = p.vertical_start;
  a.vertical_end = p.vertical_end;
  return a;
}

/// diagnostics -> predictor on random inputs with clipping at some points; returns both.
void run_predictor_chain(const Grid& g, RandomSource& rng,
                         ref::ComputeDiagnosticsFromNormalWindArgs& d,
                         ref::ComputeAdvectionInPredictorVerticalMomentumArgs& p) {
  d = random_diagnostics_args(g, rng);
  ref::compute_diagnostics_from_normal_wind(g, d);
  p = random_predictor_args(g, rng);
  p.w = d.w;
  p.horizontal_advection_of_w_at_edges_on_half_levels =
      d.horizontal_advection_of_w_at_edges_on_half_levels;
  p.contravariant_correction_at_edges_on_model_levels =
      d.contravariant_correction_at_edges_on_model_levels;
  for (index_t e = 0; e < g.num_edges; ++e)  // above nflatlev the diagnostics left NaN
    for (int k = 0; k < d.nflatlev; ++k)
      p.contravariant_correction_at_edges_on_model_levels(e, k) = 0.0;
  p.ddqz_z_half = rng.field(g.num_cells, kLevels + 1, 0.5, 4.0);  // clips where |w_con| > 0.325·dz
  p.owner_mask[3] = false;
}

TEST(CorrectorVerticalMomentum, AgreesBitForBitWithThePredictorOnTheSameState) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(31);
  ref::ComputeDiagnosticsFromNormalWindArgs d;
  ref::ComputeAdvectionInPredictorVerticalMomentumArgs p;
  run_predictor_chain(g, rng, d, p);
  auto corrector = corrector_args_from(d, p);
  ref::compute_advection_in_predictor_vertical_momentum(g, p);
  corrector.contravariant_correction_at_cells_on_half_levels =
      p.contravariant_correction_at_cells_on_half_levels;
  ref::compute_advection_in_corrector_vertical_momentum(g, corrector);
  // The corrector recomputes the horizontal advection of w from the half-level winds exactly as
  // the diagnostics program did, and reads the correction the predictor interpolated.
  EXPECT_TRUE(
      identical(corrector.vertical_wind_advective_tendency, p.vertical_wind_advective_tendency));
  EXPECT_TRUE(identical(corrector.contravariant_corrected_w_at_cells_on_model_levels,
                        p.contravariant_corrected_w_at_cells_on_model_levels));
  EXPECT_TRUE(identical(corrector.vertical_cfl, p.vertical_cfl));
  int clipped = 0;
  for (double v : p.vertical_cfl.values) clipped += v != 0.0;
  EXPECT_GT(clipped, 0) << "the test meant to clip somewhere";
  EXPECT_GT(ref::max_vertical_cfl(p.vertical_cfl, 0, g.num_cells), 0.0);
}

TEST(CorrectorVerticalMomentum, ReadsTheGivenCorrectionAndRespectsTheDomain) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(32);
  ref::ComputeDiagnosticsFromNormalWindArgs d;
  ref::ComputeAdvectionInPredictorVerticalMomentumArgs p;
  run_predictor_chain(g, rng, d, p);
  auto a = corrector_args_from(d, p);
  a.contravariant_correction_at_cells_on_half_levels = rng.field(g.num_cells, kLevels + 1);
  a.ddqz_z_half = constant_field(g.num_cells, kLevels + 1, 1000.0);  // no clipping
  a.horizontal_start = 2;
  a.horizontal_end = 7;
  a.vertical_start = 1;
  const auto in = a;
  ref::compute_advection_in_corrector_vertical_momentum(g, a);
  expect_nan_outside(a.vertical_cfl, 2, 7, 1, kLevels, "vertical_cfl");
  expect_nan_outside(a.contravariant_corrected_w_at_cells_on_model_levels, 2, 7, 1, kLevels,
                     "contravariant_corrected_w_at_cells_on_model_levels");
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k <= kLevels; ++k)
      if (!inside(c, k, 2, 7, 1, kLevels)) {
        EXPECT_EQ(a.vertical_wind_advective_tendency(c, k),
                  in.vertical_wind_advective_tendency(c, k));
      }
  const Field& cc = in.contravariant_correction_at_cells_on_half_levels;
  for (index_t c = 2; c < 7; ++c)
    for (int k = 1; k < kLevels; ++k) {
      const double z = in.w(c, k) - cc(c, k);
      const double z_below = k + 1 < kLevels ? in.w(c, k + 1) - cc(c, k + 1) : 0.0;
      EXPECT_EQ(a.vertical_cfl(c, k), 0.0);
      EXPECT_EQ(a.contravariant_corrected_w_at_cells_on_model_levels(c, k),
                k < kLevels - 1 ? 0.5 * (z + z_below) : 0.5 * z);
    }
}

TEST(CorrectorVerticalMomentum, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(33);
  ref::ComputeDiagnosticsFromNormalWindArgs d;
  ref::ComputeAdvectionInPredictorVerticalMomentumArgs p;
  run_predictor_chain(g, rng, d, p);
  const auto base = corrector_args_from(d, p);
  auto a = base;
  a.w = Field(g.num_cells, kLevels, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_corrector_vertical_momentum(g, a); }, {"w has shape"},
      "nlev-level w");
  a = base;
  a.c_intp = Table(g.num_vertices, 5);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_corrector_vertical_momentum(g, a); }, {"c_intp"},
      "c_intp cols");
  a = base;
  a.tangential_wind_on_half_levels = Field(g.num_edges, kLevels - 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_corrector_vertical_momentum(g, a); },
      {"tangential_wind_on_half_levels"}, "short tangential wind");
}

// ================================================================================================
// compute_advection_in_horizontal_momentum
// ================================================================================================

/// Random inputs, NaN output, the granule's domain (every edge, levels [0, nlev)),
/// apply_extra_diffusion_on_vn = true, end_index_of_damping_layer = 5 (band [3, nlev-4)),
/// dtime = 2.
ref::ComputeAdvectionInHorizontalMomentumArgs random_horizontal_args(const Grid& g,
                                                                     RandomSource& rng,
                                                                     int nlev = kLevels) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ComputeAdvectionInHorizontalMomentumArgs a;
  a.normal_wind_advective_tendency = Field(ne, nlev, nan);
  a.vn = rng.field(ne, nlev);
  a.horizontal_kinetic_energy_at_edges_on_model_levels = rng.field(ne, nlev, 0.0, 1.0);
  a.tangential_wind = rng.field(ne, nlev);
  a.coriolis_frequency = rng.vector(ne);
  a.contravariant_corrected_w_at_cells_on_model_levels = rng.field(nc, nlev);
  a.vn_on_half_levels = rng.field(ne, nlev + 1);
  a.e_bln_c_s = random_table(rng, nc, 3);
  a.geofac_rot = vertex_table(rng, g.v2e);
  a.coeff_gradekin = random_table(rng, ne, 2);
  a.c_lin_e = random_table(rng, ne, 2, 0.0, 1.0);
  a.ddqz_z_full_e = rng.field(ne, nlev, 0.5, 1.0);
  a.area_edge = rng.vector(ne, 1.0, 2.0);
  a.tangent_orientation = g.tangent_orientation;
  a.inv_primal_edge_length = rng.vector(ne, 0.5, 2.0);
  a.geofac_grdiv = random_table(rng, ne, 5);
  const auto s = ref::scale_factors_by_dtime(2.0);
  a.cfl_w_limit = s.cfl_w_limit;
  a.scalfac_exdiff = s.scalfac_exdiff;
  a.dtime = 2.0;
  a.apply_extra_diffusion_on_vn = true;
  a.end_index_of_damping_layer = 5;
  a.horizontal_start = 0;
  a.horizontal_end = static_cast<int>(ne);
  a.vertical_start = 0;
  a.vertical_end = nlev;
  return a;
}

TEST(HorizontalMomentum, UniformStateByHand) {
  const Grid g = test::make_octahedron_grid();
  const index_t ne = g.num_edges, nc = g.num_cells;
  RandomSource rng(41);
  auto a = random_horizontal_args(g, rng);
  a.apply_extra_diffusion_on_vn = false;
  a.horizontal_kinetic_energy_at_edges_on_model_levels = constant_field(ne, kLevels, 2.0);
  a.e_bln_c_s = constant_table(nc, {0.5, 0.25, 0.25});  // ekin at cells = 2
  a.coeff_gradekin = constant_table(ne, {0.75, 0.25});  // 2·0.5 + 0.25·2 - 0.75·2 = 0
  a.contravariant_corrected_w_at_cells_on_model_levels = constant_field(nc, kLevels, 0.5);
  a.c_lin_e = constant_table(ne, {0.5, 0.5});  // w_con_e = 0.5
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k <= kLevels; ++k) a.vn_on_half_levels(e, k) = 3.0 * k;
  a.ddqz_z_full_e = constant_field(ne, kLevels, 2.0);  // vertical: 0.5·(-3)/2 = -0.75
  a.tangential_wind = constant_field(ne, kLevels, 1.0);
  a.coriolis_frequency = Vector(ne, 0.5);
  a.vn = constant_field(ne, kLevels, 0.0);  // no vorticity: coriolis term 1·0.5
  ref::compute_advection_in_horizontal_momentum(g, a);
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k < kLevels; ++k)
      EXPECT_EQ(a.normal_wind_advective_tendency(e, k), 0.25) << "edge " << e << ", level " << k;

  // Uniform vn = 2 with geofac_rot = (0.5, -0.5, 0.25, 0.25, NaN, NaN): vorticity 1 at every
  // vertex (the missing slots are skipped on a global grid); coriolis term 1·(0.5 + 0.5·2) = 1.5.
  a.vn = constant_field(ne, kLevels, 2.0);
  for (std::size_t v = 0; v < g.v2e.rows(); ++v) {
    const double row[6] = {0.5, -0.5, 0.25, 0.25, nan, nan};
    for (int j = 0; j < 6; ++j) a.geofac_rot(v, j) = row[j];
  }
  ref::compute_advection_in_horizontal_momentum(g, a);
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k < kLevels; ++k)
      EXPECT_EQ(a.normal_wind_advective_tendency(e, k), -0.75) << "edge " << e << ", level " << k;
}

TEST(HorizontalMomentum, ExtraDiffusionOnlyInItsBandAndAboveTheLimit) {
  const Grid g = test::make_octahedron_grid();
  const index_t ne = g.num_edges, nc = g.num_cells;
  RandomSource rng(42);
  for (const int damping_end : {5, 0}) {
    SCOPED_TRACE(::testing::Message() << "end_index_of_damping_layer " << damping_end);
    const int band_start = std::max(2, damping_end - 2), band_end = kLevels - 4;  // [3|2, 6)
    auto a = random_horizontal_args(g, rng);
    a.end_index_of_damping_layer = damping_end;
    // |w_con_e| is 0 or large: cells alternate between w_con = 0 and 5 on each level, so edges
    // between equal cells are 0 or 5 and mixed edges get c_lin_e-weighted values.
    for (index_t c = 0; c < nc; ++c)
      for (int k = 0; k < kLevels; ++k)
        a.contravariant_corrected_w_at_cells_on_model_levels(c, k) = c % 3 == 0 ? 0.0 : 5.0;
    auto without = a;
    without.apply_extra_diffusion_on_vn = false;
    const auto in = a;
    ref::compute_advection_in_horizontal_momentum(g, a);
    ref::compute_advection_in_horizontal_momentum(g, without);
    int diffused = 0, above_limit_outside_band = 0;
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < kLevels; ++k) {
        SCOPED_TRACE(::testing::Message() << "edge " << e << ", level " << k);
        const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
        const double w_con_e =
            in.c_lin_e(e, 0) * in.contravariant_corrected_w_at_cells_on_model_levels(c0, k) +
            in.c_lin_e(e, 1) * in.contravariant_corrected_w_at_cells_on_model_levels(c1, k);
        const double dz = in.ddqz_z_full_e(e, k);
        const bool above = std::fabs(w_con_e) > in.cfl_w_limit * dz;
        const bool band = k >= band_start && k < band_end;
        if (!(band && above)) {
          EXPECT_EQ(a.normal_wind_advective_tendency(e, k),
                    without.normal_wind_advective_tendency(e, k));
          above_limit_outside_band += above && !band;
          continue;
        }
        ++diffused;
        auto zeta = [&](index_t v) {
          double s = 0.0;
          for (int j = 0; j < 6; ++j)
            if (g.v2e(v, j) != missing_index) s += in.vn(g.v2e(v, j), k) * in.geofac_rot(v, j);
          return s;
        };
        double graddiv = 0.0;
        for (int j = 0; j < 5; ++j) graddiv += in.geofac_grdiv(e, j) * in.vn(g.e2c2eo(e, j), k);
        const double gradrot = in.tangent_orientation[e] * in.inv_primal_edge_length[e] *
                               (zeta(g.e2v(e, 1)) - zeta(g.e2v(e, 0)));
        // difcoef = scalfac·min(0.85 - 0.65, |w_con_e|·dtime/dz - 0.65)
        const double limit = in.cfl_w_limit * in.dtime;  // 0.65
        const double difcoef =
            in.scalfac_exdiff * std::min(0.85 - limit, std::fabs(w_con_e) * 2.0 / dz - limit);
        EXPECT_LT(rel_diff(a.normal_wind_advective_tendency(e, k),
                           without.normal_wind_advective_tendency(e, k) +
                               difcoef * in.area_edge[e] * (graddiv + gradrot)),
                  1e-12);
      }
    EXPECT_GT(diffused, 0);
    EXPECT_GT(above_limit_outside_band, 0);
  }
}

TEST(HorizontalMomentum, RandomValuesAgreeWithTheDocstringFormula) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(43);
  auto a = random_horizontal_args(g, rng);
  a.apply_extra_diffusion_on_vn = false;
  const auto in = a;
  ref::compute_advection_in_horizontal_momentum(g, a);
  double worst = 0.0;
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) {
      const index_t c[2] = {g.e2c(e, 0), g.e2c(e, 1)};
      auto ekin_c = [&](index_t cell) {
        double s = 0.0;
        for (int j = 0; j < 3; ++j)
          s += in.e_bln_c_s(cell, j) *
               in.horizontal_kinetic_energy_at_edges_on_model_levels(g.c2e(cell, j), k);
        return s;
      };
      auto zeta = [&](index_t v) {
        double s = 0.0;
        for (int j = 0; j < 6; ++j)
          if (g.v2e(v, j) != missing_index) s += in.geofac_rot(v, j) * in.vn(g.v2e(v, j), k);
        return s;
      };
      // gradient of kinetic energy: cg0·(ekin_e - ekin_c0) + cg1·(ekin_c1 - ekin_e)
      const double ekin_e = in.horizontal_kinetic_energy_at_edges_on_model_levels(e, k);
      const double h = in.coeff_gradekin(e, 0) * (ekin_e - ekin_c(c[0])) +
                       in.coeff_gradekin(e, 1) * (ekin_c(c[1]) - ekin_e);
      const double w_con_e =
          in.c_lin_e(e, 0) * in.contravariant_corrected_w_at_cells_on_model_levels(c[0], k) +
          in.c_lin_e(e, 1) * in.contravariant_corrected_w_at_cells_on_model_levels(c[1], k);
      const double v = w_con_e / in.ddqz_z_full_e(e, k) *
                       (in.vn_on_half_levels(e, k) - in.vn_on_half_levels(e, k + 1));
      const double f = in.tangential_wind(e, k) *
                       (in.coriolis_frequency[e] + (zeta(g.e2v(e, 0)) + zeta(g.e2v(e, 1))) / 2);
      worst = std::max(worst, rel_diff(a.normal_wind_advective_tendency(e, k), -(h + v + f)));
    }
  EXPECT_LT(worst, 1e-12);
}

TEST(HorizontalMomentum, DomainRespected) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(44);
  auto a = random_horizontal_args(g, rng);
  a.horizontal_start = 4;
  a.horizontal_end = 11;
  a.vertical_start = 2;
  a.vertical_end = 7;
  ref::compute_advection_in_horizontal_momentum(g, a);
  expect_nan_outside(a.normal_wind_advective_tendency, 4, 11, 2, 7,
                     "normal_wind_advective_tendency");
  for (index_t e = 4; e < 11; ++e)
    for (int k = 2; k < 7; ++k) EXPECT_FALSE(std::isnan(a.normal_wind_advective_tendency(e, k)));
}

TEST(HorizontalMomentum, MissingV2EOnLimitedAreaAndE2C2EOReadTheLargestValidIndex) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(45);
  auto base = random_horizontal_args(g, rng);
  for (std::size_t v = 0; v < g.v2e.rows(); ++v)
    base.geofac_rot(v, 4) = base.geofac_rot(v, 5) = 0.5;
  for (auto& w : base.contravariant_corrected_w_at_cells_on_model_levels.values) w *= 5.0;
  Grid missing = g, replaced = g;
  missing.limited_area = replaced.limited_area = true;
  for (std::size_t v = 0; v < g.v2e.rows(); ++v) {
    const index_t* row = g.v2e.row(v);
    const index_t largest = *std::max_element(row, row + 6);
    for (int j = 0; j < 6; ++j)
      if (g.v2e(v, j) == missing_index) replaced.v2e(v, j) = largest;
  }
  missing.e2c2eo(7, 2) = missing_index;
  const index_t* row = g.e2c2eo.row(7);
  index_t largest = -1;
  for (int j = 0; j < 5; ++j)
    if (j != 2) largest = std::max(largest, row[j]);
  replaced.e2c2eo(7, 2) = largest;
  auto a = base, b = base, global = base;
  ref::compute_advection_in_horizontal_momentum(missing, a);
  ref::compute_advection_in_horizontal_momentum(replaced, b);
  ref::compute_advection_in_horizontal_momentum(g, global);
  EXPECT_TRUE(identical(a.normal_wind_advective_tendency, b.normal_wind_advective_tendency));
  EXPECT_FALSE(identical(a.normal_wind_advective_tendency, global.normal_wind_advective_tendency));
}

TEST(HorizontalMomentum, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(46);
  const auto base = random_horizontal_args(g, rng);
  auto a = base;
  a.vn_on_half_levels = Field(g.num_edges, kLevels, 0.0);  // reads level k+1
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_horizontal_momentum(g, a); }, {"vn_on_half_levels"},
      "nlev-level vn_on_half_levels");
  a = base;
  a.geofac_grdiv = Table(g.num_edges, 4);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_horizontal_momentum(g, a); }, {"geofac_grdiv"},
      "geofac_grdiv cols");
  a = base;
  a.coriolis_frequency = Vector(g.num_edges + 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_horizontal_momentum(g, a); }, {"coriolis_frequency"},
      "coriolis size");
  a = base;
  a.contravariant_corrected_w_at_cells_on_model_levels = Field(g.num_cells, kLevels - 2, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_advection_in_horizontal_momentum(g, a); },
      {"contravariant_corrected_w_at_cells_on_model_levels"}, "short cell field");
}

}  // namespace
}  // namespace icondiff
