// Tests of the plain-loop solve_nonhydro reference (unit_tests/reference/
// solve_nonhydro_reference): values derived by hand from ICON4Py 0.2.0's definitions (numbers in
// the comments) on constant fields and linear profiles, every concat_where branch and level band,
// every variant, points outside every domain untouched (NaN sentinels), ICON4Py's treatment of
// missing neighbours, and argument errors. Nothing here runs a kernel.
#include "reference/solve_nonhydro_reference.hpp"
#include "support/expect_error.hpp"
#include "support/host_field.hpp"
#include "support/tiny_grids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
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
constexpr int kLevels = 6;  // nlev

// ---- Helpers ------------------------------------------------------------------------------------

Table constant_table(index_t rows, std::initializer_list<double> row) {
  Table t(rows, row.size());
  for (index_t r = 0; r < rows; ++r) {
    std::size_t j = 0;
    for (double x : row) t(r, j++) = x;
  }
  return t;
}

Table random_table(RandomSource& rng, index_t rows, int cols) {
  Table t(rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform();
  return t;
}

/// f(i, k) = f0 + slope·k on every point.
Field linear(index_t points, int levels, double f0, double slope) {
  Field f(points, levels);
  for (index_t i = 0; i < points; ++i)
    for (int k = 0; k < levels; ++k) f(i, k) = f0 + slope * k;
  return f;
}

/// NaN everywhere but the given levels, which hold `values` (wgtfacq: only the last 3 are read).
Field only_levels(index_t points, int levels,
                  std::initializer_list<std::pair<int, double>> values) {
  Field f(points, levels, nan);
  for (index_t i = 0; i < points; ++i)
    for (const auto& [k, v] : values)
      if (k >= 0 && k < levels) f(i, k) = v;
  return f;
}

bool identical(const Field& a, const Field& b) {
  if (a.points != b.points || a.levels != b.levels) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double x = a.values[i], y = b.values[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x != y) return false;
  }
  return true;
}

/// Checks every value of `f`: inside `written(i, k)` it must be `expected(i, k)` (relative 1e-13,
/// or bit-exact when exact), elsewhere NaN (the sentinel the outputs start with).
void expect_field(const Field& f, const char* name,
                  const std::function<bool(index_t, int)>& written,
                  const std::function<double(index_t, int)>& expected, bool exact = false) {
  int wrong = 0, outside = 0;
  for (index_t i = 0; i < f.points; ++i)
    for (int k = 0; k < f.levels; ++k) {
      if (!written(i, k)) {
        if (!std::isnan(f(i, k)) && outside++ < 3)
          ADD_FAILURE() << name << "(" << i << ", " << k << ") = " << f(i, k)
                        << " was written outside its domain";
        continue;
      }
      const double x = f(i, k), y = expected(i, k);
      const bool ok =
          exact ? x == y : std::fabs(x - y) <= 1e-13 * std::max({1.0, std::fabs(x), std::fabs(y)});
      if (!ok && wrong++ < 3)
        ADD_FAILURE() << name << "(" << i << ", " << k << ") = " << x << ", expected " << y;
    }
  EXPECT_EQ(wrong, 0) << name << ": wrong values";
  EXPECT_EQ(outside, 0) << name << ": written outside its domain";
}

std::function<bool(index_t, int)> box(index_t hs, index_t he, int vs, int ve) {
  return [=](index_t i, int k) { return i >= hs && i < he && k >= vs && k < ve; };
}

// ================================================================================================
// 1. compute_perturbed_quantities_and_interpolation
// ================================================================================================

// Cells [1, 6) are the main domain (lateral boundary level 3 .. end of halo), cells [6, 8) the
// second halo line, cell 0 lies outside both.
constexpr index_t kMainStart = 1, kMainEnd = 6, kHalo2Start = 6, kHalo2End = 8;

/// Linear profiles whose results are easy by hand (see the test below); every output NaN.
ref::ComputePerturbedQuantitiesAndInterpolationArgs perturbed_args(const Grid& g,
                                                                   int nlev = kLevels) {
  const index_t nc = g.num_cells;
  ref::ComputePerturbedQuantitiesAndInterpolationArgs a;
  a.temporal_extrapolation_of_perturbed_exner = Field(nc, nlev + 1, nan);
  a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = Field(nc, nlev, nan);
  a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = Field(nc, nlev, nan);
  a.perturbed_exner_at_cells_on_model_levels = Field(nc, nlev, 0.25);  // the old exner_pr
  a.exner_at_cells_on_half_levels = Field(nc, nlev + 1, nan);
  a.perturbed_rho_at_cells_on_model_levels = Field(nc, nlev, nan);
  a.perturbed_theta_v_at_cells_on_model_levels = Field(nc, nlev, nan);
  a.rho_at_cells_on_half_levels = Field(nc, nlev + 1, nan);
  a.perturbed_theta_v_at_cells_on_half_levels = Field(nc, nlev + 1, nan);
  a.theta_v_at_cells_on_half_levels = Field(nc, nlev + 1, nan);
  a.current_rho = linear(nc, nlev, 1.0, 0.5);
  a.reference_rho_at_cells_on_model_levels = Field(nc, nlev, 0.25);
  a.current_theta_v = linear(nc, nlev, 300.0, -2.0);
  a.reference_theta_at_cells_on_model_levels = linear(nc, nlev, 290.0, -1.0);
  a.reference_theta_at_cells_on_half_levels = Field(nc, nlev + 1, 280.0);
  a.wgtfacq_c = only_levels(nc, nlev, {{nlev - 1, 0.5}, {nlev - 2, 0.25}, {nlev - 3, 0.25}});
  a.wgtfac_c = Field(nc, nlev + 1, 0.75);
  a.exner_w_explicit_weight_parameter = Vector(nc);
  for (index_t c = 0; c < nc; ++c) a.exner_w_explicit_weight_parameter[c] = 0.25 + 0.125 * c;
  a.ddz_of_reference_exner_at_cells_on_half_levels = Field(nc, nlev + 1, -0.001);
  a.ddqz_z_half = Field(nc, nlev + 1, 100.0);
  a.nonhydro_buoy_at_cells_on_half_levels = Field(nc, nlev, nan);
  a.time_extrapolation_parameter_for_exner = Field(nc, nlev, 0.5);
  a.current_exner = linear(nc, nlev, 0.75, 0.125);
  a.reference_exner_at_cells_on_model_levels = Field(nc, nlev, 0.5);
  a.inv_ddqz_z_full = Field(nc, nlev, 0.01);
  a.d2dexdz2_fac1_mc = Field(nc, nlev, 2.0);
  a.d2dexdz2_fac2_mc = Field(nc, nlev, 0.5);
  a.igradp_method = ref::igradp_method_taylor_hydro;
  a.nflatlev = 2;
  a.nflat_gradp = 3;
  a.start_cell_lateral_boundary = 0;
  a.start_cell_lateral_boundary_level_3 = kMainStart;
  a.start_cell_halo_level_2 = kHalo2Start;
  a.end_cell_halo = kMainEnd;
  a.end_cell_halo_level_2 = kHalo2End;
  a.model_top = 0;
  a.surface_level = nlev + 1;
  return a;
}

bool in_main(index_t c) {
  return c >= kMainStart && c < kMainEnd;
}
bool in_halo2(index_t c) {
  return c >= kHalo2Start && c < kHalo2End;
}

TEST(PerturbedQuantities, LinearProfilesByHandTaylorHydro) {
  const Grid g = test::make_octahedron_grid();
  auto a = perturbed_args(g);
  ref::compute_perturbed_quantities_and_interpolation(g, a);
  const int n = kLevels;
  // Step 1: exner - exner_ref = 0.25 + 0.125k, z_ex = 1.5·(0.25 + 0.125k) - 0.5·0.25
  //         = 0.25 + 0.1875k; exner_pr = 0.25 + 0.125k (cells outside keep the old 0.25).
  const auto z_ex = [](double k) { return 0.25 + 0.1875 * k; };
  expect_field(a.temporal_extrapolation_of_perturbed_exner, "z_ex", box(kMainStart, kMainEnd, 0, n),
               [&](index_t, int k) { return z_ex(k); });
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k < n; ++k)
      EXPECT_EQ(a.perturbed_exner_at_cells_on_model_levels(c, k),
                in_main(c) ? 0.25 + 0.125 * k : 0.25);
  // interp(f)[k] = 0.75·f[k] + 0.25·f[k-1] = f at k - 0.25 for a linear f; surf(f) = 0.5·f[n-1] +
  // 0.25·f[n-2] + 0.25·f[n-3] = f at n - 1.75.
  // exner_ic: interp(z_ex) on k >= max(1, nflatlev) = 2, surf(z_ex) at n; levels 0, 1 untouched.
  expect_field(
      a.exner_at_cells_on_half_levels, "exner_ic",
      [&](index_t c, int k) { return in_main(c) && k >= 2; },
      [&](index_t, int k) { return k == n ? z_ex(n - 1.75) : z_ex(k - 0.25); });
  // perturbed rho / theta_v on model levels: 0.75 + 0.5k and 10 - k, main and second halo line.
  expect_field(
      a.perturbed_rho_at_cells_on_model_levels, "rho_pr",
      [&](index_t c, int) { return in_main(c) || in_halo2(c); },
      [&](index_t, int k) { return 0.75 + 0.5 * k; });
  expect_field(
      a.perturbed_theta_v_at_cells_on_model_levels, "theta_v_pr",
      [&](index_t c, int) { return in_main(c) || in_halo2(c); },
      [&](index_t, int k) { return 10.0 - k; });
  // rho_ic: interp(rho) on k >= 1 (level 0 and n untouched).
  expect_field(
      a.rho_at_cells_on_half_levels, "rho_ic",
      [&](index_t c, int k) { return in_main(c) && k >= 1 && k < n; },
      [&](index_t, int k) { return 1.0 + 0.5 * (k - 0.25); });
  // theta_v_pr_ic: 0 at k = 0, interp(10 - k) = 10.25 - k, surf = 10 - (n - 1.75) at n.
  const auto theta_v_pr_ic = [&](int k) {
    return k == 0 ? 0.0 : k == n ? 10.0 - (n - 1.75) : 10.0 - (k - 0.25);
  };
  expect_field(
      a.perturbed_theta_v_at_cells_on_half_levels, "theta_v_pr_ic",
      [&](index_t c, int) { return in_main(c); }, [&](index_t, int k) { return theta_v_pr_ic(k); });
  // theta_v_ic: interp(300 - 2k) on 1 <= k < n, theta_ref_ic + theta_v_pr_ic = 280 + ... at n.
  const auto theta_v_ic = [&](int k) {
    return k == n ? 280.0 + theta_v_pr_ic(n) : 300.0 - 2.0 * (k - 0.25);
  };
  expect_field(
      a.theta_v_at_cells_on_half_levels, "theta_v_ic",
      [&](index_t c, int k) { return in_main(c) && k >= 1; },
      [&](index_t, int k) { return theta_v_ic(k); });
  // buoyancy on 1 <= k < n: wgt·theta_v_ic·(exner_pr[k-1] - exner_pr[k])/100 +
  // theta_v_pr_ic·(-0.001), exner_pr[k-1] - exner_pr[k] = -0.125.
  expect_field(
      a.nonhydro_buoy_at_cells_on_half_levels, "buoy",
      [&](index_t c, int k) { return in_main(c) && k >= 1; },
      [&](index_t c, int k) {
        return (0.25 + 0.125 * c) * theta_v_ic(k) * -0.125 / 100.0 + theta_v_pr_ic(k) * -0.001;
      });
  // ddz: (exner_ic[k] - exner_ic[k+1])·0.01 on k >= nflatlev = 2: -0.1875·0.01 inside,
  // (z_ex(n - 1.25) - z_ex(n - 1.75))·0.01 = 0.1875·0.5·0.01 at k = n-1 (the surface value).
  expect_field(
      a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, "ddz",
      [&](index_t c, int k) { return in_main(c) && k >= 2; },
      [&](index_t, int k) { return k == n - 1 ? 0.09375 * 0.01 : -0.1875 * 0.01; });
  // d2dz2 on k >= nflat_gradp = 3: -0.5·((theta_v_pr_ic[k] - theta_v_pr_ic[k+1])·2 +
  // (10 - k)·0.5); the difference is 1 inside, -0.5 at k = n-1.
  expect_field(
      a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, "d2dz2",
      [&](index_t c, int k) { return in_main(c) && k >= 3; },
      [&](index_t, int k) {
        const double diff = k == n - 1 ? -0.5 : 1.0;
        return -0.5 * (diff * 2.0 + (10.0 - k) * 0.5);
      });
}

TEST(PerturbedQuantities, OtherIgradpMethodSkipsTheTaylorOutputsButNotTheSurfaceExner) {
  const Grid g = test::make_octahedron_grid();
  auto a = perturbed_args(g);
  auto b = a;
  a.igradp_method = 1;
  ref::compute_perturbed_quantities_and_interpolation(g, a);
  ref::compute_perturbed_quantities_and_interpolation(g, b);
  const int n = kLevels;
  // exner_ic: only the surface level (step 4 runs whatever igradp_method is).
  expect_field(
      a.exner_at_cells_on_half_levels, "exner_ic",
      [&](index_t c, int k) { return in_main(c) && k == n; },
      [&](index_t, int) { return 0.25 + 0.1875 * (n - 1.75); });
  expect_field(
      a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, "ddz",
      [](index_t, int) { return false; }, [](index_t, int) { return 0.0; });
  expect_field(
      a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels, "d2dz2",
      [](index_t, int) { return false; }, [](index_t, int) { return 0.0; });
  // Everything else as with TAYLOR_HYDRO.
  EXPECT_TRUE(identical(a.temporal_extrapolation_of_perturbed_exner,
                        b.temporal_extrapolation_of_perturbed_exner));
  EXPECT_TRUE(identical(a.perturbed_exner_at_cells_on_model_levels,
                        b.perturbed_exner_at_cells_on_model_levels));
  EXPECT_TRUE(identical(a.rho_at_cells_on_half_levels, b.rho_at_cells_on_half_levels));
  EXPECT_TRUE(identical(a.perturbed_theta_v_at_cells_on_half_levels,
                        b.perturbed_theta_v_at_cells_on_half_levels));
  EXPECT_TRUE(identical(a.theta_v_at_cells_on_half_levels, b.theta_v_at_cells_on_half_levels));
  EXPECT_TRUE(
      identical(a.nonhydro_buoy_at_cells_on_half_levels, b.nonhydro_buoy_at_cells_on_half_levels));
}

TEST(PerturbedQuantities, NflatlevZeroReadsTheIncomingTopHalfLevelExner) {
  const Grid g = test::make_octahedron_grid();
  auto a = perturbed_args(g);
  a.nflatlev = 0;
  a.nflat_gradp = 0;
  a.exner_at_cells_on_half_levels = Field(g.num_cells, kLevels + 1, 5.0);
  ref::compute_perturbed_quantities_and_interpolation(g, a);
  for (index_t c = kMainStart; c < kMainEnd; ++c) {
    // exner_ic is written from max(1, nflatlev) = 1 on: level 0 keeps 5.
    EXPECT_EQ(a.exner_at_cells_on_half_levels(c, 0), 5.0);
    EXPECT_DOUBLE_EQ(a.exner_at_cells_on_half_levels(c, 1), 0.25 + 0.1875 * 0.75);
    // ddz at k = 0 reads it: (5 - exner_ic[1])·0.01.
    EXPECT_DOUBLE_EQ(a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, 0),
                     (5.0 - (0.25 + 0.1875 * 0.75)) * 0.01);
    // d2dz2 at k = 0: theta_v_pr_ic[0] = 0 (broadcast), theta_v_pr_ic[1] = 9.25.
    EXPECT_DOUBLE_EQ(a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, 0),
                     -0.5 * ((0.0 - 9.25) * 2.0 + 10.0 * 0.5));
  }
}

TEST(PerturbedQuantities, ModelTopBelowZeroLevelsReadsIncomingValuesAbove) {
  const Grid g = test::make_octahedron_grid();
  auto a = perturbed_args(g);
  a.model_top = 2;
  a.temporal_extrapolation_of_perturbed_exner = Field(g.num_cells, kLevels + 1, 7.0);
  ref::compute_perturbed_quantities_and_interpolation(g, a);
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k < kLevels + 1; ++k) {
      SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
      const bool main = in_main(c) && k >= 2 && k < kLevels;
      EXPECT_EQ(a.temporal_extrapolation_of_perturbed_exner(c, k), main ? 0.25 + 0.1875 * k : 7.0);
      // level 2 interpolates with the incoming z_ex[1] = 7: 0.75·0.625 + 0.25·7.
      if (in_main(c) && k == 2) {
        EXPECT_EQ(a.exner_at_cells_on_half_levels(c, k), 0.75 * 0.625 + 0.25 * 7.0);
        // buoyancy with the incoming exner_pr[1] = 0.25: exner_pr[2] = 0.5.
        EXPECT_DOUBLE_EQ(a.nonhydro_buoy_at_cells_on_half_levels(c, k),
                         (0.25 + 0.125 * c) * (300.0 - 2.0 * 1.75) * (0.25 - 0.5) / 100.0 +
                             (10.0 - 1.75) * -0.001);
      }
      if (k < 2) {
        EXPECT_TRUE(std::isnan(a.perturbed_theta_v_at_cells_on_half_levels(c, k)));
        EXPECT_TRUE(std::isnan(a.rho_at_cells_on_half_levels(c, k)));
        EXPECT_TRUE(std::isnan(a.perturbed_rho_at_cells_on_model_levels(c, k)));
        EXPECT_EQ(a.perturbed_exner_at_cells_on_model_levels(c, k), 0.25);
      }
    }
  // The surface level is written whatever model_top is.
  for (index_t c = kMainStart; c < kMainEnd; ++c)
    EXPECT_DOUBLE_EQ(a.exner_at_cells_on_half_levels(c, kLevels), 0.25 + 0.1875 * (kLevels - 1.75));
}

TEST(PerturbedQuantities, ArgumentErrorsNameTheField) {
  const Grid g = test::make_octahedron_grid();
  const auto fn = ref::compute_perturbed_quantities_and_interpolation;
  {
    auto a = perturbed_args(g);
    a.exner_at_cells_on_half_levels = Field(g.num_cells, kLevels, nan);
    test::expect_throw_naming<std::invalid_argument>([&] { fn(g, a); },
                                                     {"exner_at_cells_on_half_levels"}, "nlev");
  }
  {
    auto a = perturbed_args(g);
    a.current_theta_v = Field(g.num_cells - 1, kLevels, 1.0);
    test::expect_throw_naming<std::invalid_argument>([&] { fn(g, a); }, {"current_theta_v"},
                                                     "points");
  }
  {
    auto a = perturbed_args(g);
    a.exner_w_explicit_weight_parameter.pop_back();
    test::expect_throw_naming<std::invalid_argument>(
        [&] { fn(g, a); }, {"exner_w_explicit_weight_parameter"}, "vector");
  }
  {
    auto a = perturbed_args(g, 2);
    test::expect_throw_naming<std::invalid_argument>([&] { fn(g, a); },
                                                     {"wgtfacq_c", "surface_level"}, "nlev < 3");
  }
  {
    auto a = perturbed_args(g);
    a.end_cell_halo_level_2 = g.num_cells + 1;
    test::expect_throw_naming<std::invalid_argument>([&] { fn(g, a); }, {"end_cell_halo_level_2"},
                                                     "domain");
  }
}

// ================================================================================================
// 2. compute_hydrostatic_correction_term
// ================================================================================================

ref::ComputeHydrostaticCorrectionTermArgs hydro_args(const Grid& g) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ComputeHydrostaticCorrectionTermArgs a;
  a.theta_v = Field(nc, kLevels, 300.0);
  a.ikoffset = test::HostField3<int>(ne, 2, kLevels, 0);
  a.zdiff_gradp = test::HostField3<double>(ne, 2, kLevels, 0.0);
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k < kLevels; ++k) {
      a.zdiff_gradp(e, 0, k) = 10.0;
      a.zdiff_gradp(e, 1, k) = -10.0;
    }
  a.theta_v_ic = linear(nc, kLevels + 1, 310.0, -2.0);
  a.inv_ddqz_z_full = Field(nc, kLevels, 0.01);
  a.inv_dual_edge_length = Vector(ne, 0.5);
  a.z_hydro_corr = Field(ne, kLevels, nan);
  a.horizontal_start = 2;
  a.horizontal_end = 10;
  a.vertical_start = kLevels - 1;
  a.vertical_end = kLevels;
  return a;
}

TEST(HydrostaticCorrection, ByHandOnTheLowestLevelOnly) {
  const Grid g = test::make_octahedron_grid();
  auto a = hydro_args(g);
  ref::compute_hydrostatic_correction_term(g, a);
  // z_theta_0 = 300 + 10·2·0.01 = 300.2, z_theta_1 = 300 - 10·2·0.01 = 299.8:
  // grav_o_cpd·0.5·(z_theta_1 - z_theta_0)·4/((z_theta_0 + z_theta_1)²) ≈ -5.4e-7·0.5·1.6/360000.
  const double z0 = 300.0 + 10.0 * 2.0 * 0.01, z1 = 300.0 + -10.0 * 2.0 * 0.01;
  const double expected = ref::grav_o_cpd * 0.5 * (z1 - z0) * 4.0 / ((z0 + z1) * (z0 + z1));
  EXPECT_NEAR(expected, 9.80665 / 1004.64 * 0.5 * -0.4 * 4.0 / 360000.0, 1e-20);
  expect_field(
      a.z_hydro_corr, "z_hydro_corr", box(2, 10, kLevels - 1, kLevels),
      [&](index_t, int) { return expected; }, true);
  EXPECT_DOUBLE_EQ(ref::grav_o_cpd, 9.80665 / 1004.64);
  EXPECT_EQ(ref::ComputeHydrostaticCorrectionTermArgs{}.grav_o_cpd, ref::grav_o_cpd);
}

TEST(HydrostaticCorrection, IkoffsetShiftsEachNeighbourAndLeavingTheColumnThrows) {
  const Grid g = test::make_octahedron_grid();
  auto a = hydro_args(g);
  // theta_v varies with the level: 300 + k. Edge 4: slot 0 reads level k-2, slot 1 level k.
  a.theta_v = linear(g.num_cells, kLevels, 300.0, 1.0);
  const int k = kLevels - 1;
  a.ikoffset(4, 0, k) = -2;
  ref::compute_hydrostatic_correction_term(g, a);
  const double z0 = (300.0 + 1.0 * (k - 2)) + 10.0 * 2.0 * 0.01;
  const double z1 = (300.0 + 1.0 * k) + -10.0 * 2.0 * 0.01;
  EXPECT_EQ(a.z_hydro_corr(4, k),
            ref::grav_o_cpd * 0.5 * (z1 - z0) * 4.0 / ((z0 + z1) * (z0 + z1)));
  // An offset that makes the theta_v_ic read at k + o + 1 leave the column.
  auto b = hydro_args(g);
  b.ikoffset(5, 1, k) = 1;  // theta_v read at level nlev: outside its nlev levels
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_hydrostatic_correction_term(g, b); }, {"theta_v"}, "offset below");
  auto c = hydro_args(g);
  c.ikoffset(5, 0, k) = -kLevels;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_hydrostatic_correction_term(g, c); }, {"theta_v", "level -1"},
      "offset above");
}

TEST(HydrostaticCorrection, MissingE2CNeighbourReadsTheLargestValidIndex) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(3);
  auto base = hydro_args(g);
  base.theta_v = rng.field(g.num_cells, kLevels, 290.0, 310.0);
  Grid missing = g, replaced = g;
  missing.e2c(6, 1) = missing_index;
  replaced.e2c(6, 1) = g.e2c(6, 0);
  missing.e2c(7, 0) = missing.e2c(7, 1) = missing_index;
  replaced.e2c(7, 0) = replaced.e2c(7, 1) = 0;
  auto a = base, b = base, c = base;
  ref::compute_hydrostatic_correction_term(missing, a);
  ref::compute_hydrostatic_correction_term(replaced, b);
  ref::compute_hydrostatic_correction_term(g, c);
  EXPECT_TRUE(identical(a.z_hydro_corr, b.z_hydro_corr));
  EXPECT_NE(a.z_hydro_corr(6, kLevels - 1), c.z_hydro_corr(6, kLevels - 1));
}

TEST(HydrostaticCorrection, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  auto a = hydro_args(g);
  a.zdiff_gradp = test::HostField3<double>(g.num_edges, 3, kLevels, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_hydrostatic_correction_term(g, a); }, {"zdiff_gradp"}, "slots");
  auto b = hydro_args(g);
  b.z_hydro_corr = Field(g.num_edges, kLevels - 1, nan);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_hydrostatic_correction_term(g, b); }, {"z_hydro_corr"}, "levels");
  auto c = hydro_args(g);
  c.inv_dual_edge_length.resize(3);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_hydrostatic_correction_term(g, c); }, {"inv_dual_edge_length"}, "size");
}

// ================================================================================================
// 3. compute_dwdz_for_divergence_damping
// ================================================================================================

ref::ComputeDwdzForDivergenceDampingArgs dwdz_args(const Grid& g) {
  const index_t nc = g.num_cells;
  ref::ComputeDwdzForDivergenceDampingArgs a;
  a.inv_ddqz_z_full = linear(nc, kLevels, 0.01, 0.01);
  a.w = linear(nc, kLevels + 1, 1.0, -0.5);
  a.w_concorr_c = linear(nc, kLevels + 1, 0.0, 0.25);
  a.z_dwdz_dd = Field(nc, kLevels, nan);
  a.horizontal_start = 2;
  a.horizontal_end = 6;
  a.vertical_start = 1;
  a.vertical_end = kLevels;
  return a;
}

TEST(DwdzForDivergenceDamping, LinearProfilesByHand) {
  const Grid g = test::make_octahedron_grid();
  auto a = dwdz_args(g);
  ref::compute_dwdz_for_divergence_damping(g, a);
  // (w[k] - w[k+1]) - (wc[k] - wc[k+1]) = 0.5 + 0.25, times 0.01·(k+1).
  expect_field(a.z_dwdz_dd, "z_dwdz_dd", box(2, 6, 1, kLevels),
               [](index_t, int k) { return (0.01 + 0.01 * k) * 0.75; });
}

TEST(DwdzForDivergenceDamping, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  auto a = dwdz_args(g);
  a.w = Field(g.num_cells, kLevels, 0.0);  // level nlev is read
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_dwdz_for_divergence_damping(g, a); }, {"w "}, "levels");
  auto b = dwdz_args(g);
  b.horizontal_end = 9;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_dwdz_for_divergence_damping(g, b); }, {"horizontal domain"}, "domain");
}

// ================================================================================================
// 4. compute_averaged_vn_and_fluxes
// ================================================================================================

ref::ComputeAveragedVnAndFluxesArgs averaged_args(const Grid& g) {
  const index_t ne = g.num_edges;
  ref::ComputeAveragedVnAndFluxesArgs a;
  a.spatially_averaged_vn = Field(ne, kLevels, nan);
  a.mass_flux_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.theta_v_flux_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.substep_and_spatially_averaged_vn = Field(ne, kLevels, nan);
  a.substep_averaged_mass_flux = Field(ne, kLevels, nan);
  a.e_flx_avg = constant_table(ne, {0.5, 0.125, 0.125, 0.125, 0.125});
  a.vn = Field(ne, kLevels, 2.0);
  a.rho_at_edges_on_model_levels = Field(ne, kLevels, 1.5);
  a.ddqz_z_full_e = Field(ne, kLevels, 4.0);
  a.theta_v_at_edges_on_model_levels = Field(ne, kLevels, 300.0);
  a.prepare_advection = false;
  a.at_first_substep = false;
  a.r_nsubsteps = 0.25;
  a.horizontal_start = 1;
  a.horizontal_end = 11;
  a.vertical_start = 0;
  a.vertical_end = kLevels - 1;
  return a;
}

TEST(AveragedVnAndFluxes, UniformWindByHandInEveryVariant) {
  const Grid g = test::make_octahedron_grid();
  const auto dom = box(1, 11, 0, kLevels - 1);
  const auto nowhere = [](index_t, int) { return false; };
  for (bool prepare : {false, true})
    for (bool first : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "prepare_advection " << prepare << ", first " << first);
      auto a = averaged_args(g);
      a.prepare_advection = prepare;
      a.at_first_substep = first;
      if (prepare && !first) {
        a.substep_and_spatially_averaged_vn = Field(g.num_edges, kLevels, 1.0);
        a.substep_averaged_mass_flux = Field(g.num_edges, kLevels, 2.0);
      }
      ref::compute_averaged_vn_and_fluxes(g, a);
      // vn_avg = (0.5 + 4·0.125)·2 = 2; mass = 1.5·2·4 = 12; theta flux = 12·300.
      expect_field(
          a.spatially_averaged_vn, "vn_avg", dom, [](index_t, int) { return 2.0; }, true);
      expect_field(
          a.mass_flux_at_edges_on_model_levels, "mass", dom, [](index_t, int) { return 12.0; },
          true);
      expect_field(
          a.theta_v_flux_at_edges_on_model_levels, "theta flux", dom,
          [](index_t, int) { return 3600.0; }, true);
      if (!prepare) {
        expect_field(a.substep_and_spatially_averaged_vn, "vn_traj", nowhere,
                     [](index_t, int) { return 0.0; });
        expect_field(a.substep_averaged_mass_flux, "mass_flx_me", nowhere,
                     [](index_t, int) { return 0.0; });
      } else if (first) {  // r·avg = 0.5, r·mass = 3
        expect_field(
            a.substep_and_spatially_averaged_vn, "vn_traj", dom, [](index_t, int) { return 0.5; },
            true);
        expect_field(
            a.substep_averaged_mass_flux, "mass_flx_me", dom, [](index_t, int) { return 3.0; },
            true);
      } else {  // 1 + 0.5, 2 + 3; untouched (1, 2) outside the domain
        for (index_t e = 0; e < g.num_edges; ++e)
          for (int k = 0; k < kLevels; ++k) {
            const bool in = dom(e, k);
            EXPECT_EQ(a.substep_and_spatially_averaged_vn(e, k), in ? 1.5 : 1.0);
            EXPECT_EQ(a.substep_averaged_mass_flux(e, k), in ? 5.0 : 2.0);
          }
      }
    }
}

TEST(AveragedVnAndFluxes, NeighbourWeightsFollowE2C2EOAndMissingSlotsReadTheLargestIndex) {
  const Grid g = test::make_octahedron_grid();
  auto a = averaged_args(g);
  a.e_flx_avg = constant_table(g.num_edges, {1.0, 2.0, 4.0, 8.0, 16.0});
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) a.vn(e, k) = e + 100.0 * k;
  auto base = a;
  ref::compute_averaged_vn_and_fluxes(g, a);
  for (index_t e = 1; e < 11; ++e) {
    double s = 0.0;
    for (int j = 0; j < 5; ++j) s += a.e_flx_avg(e, j) * (g.e2c2eo(e, j) + 100.0 * 2);
    EXPECT_EQ(a.spatially_averaged_vn(e, 2), s);
  }
  Grid missing = g, replaced = g;
  missing.e2c2eo(8, 3) = missing_index;
  replaced.e2c2eo(8, 3) =
      std::max({g.e2c2eo(8, 0), g.e2c2eo(8, 1), g.e2c2eo(8, 2), g.e2c2eo(8, 4)});
  auto b = base, c = base;
  ref::compute_averaged_vn_and_fluxes(missing, b);
  ref::compute_averaged_vn_and_fluxes(replaced, c);
  EXPECT_TRUE(identical(b.spatially_averaged_vn, c.spatially_averaged_vn));
  EXPECT_NE(b.spatially_averaged_vn(8, 0), a.spatially_averaged_vn(8, 0));
}

TEST(AveragedVnAndFluxes, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  auto a = averaged_args(g);
  a.e_flx_avg = Table(g.num_edges, 4);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_averaged_vn_and_fluxes(g, a); }, {"e_flx_avg"}, "table");
  auto b = averaged_args(g);
  b.substep_averaged_mass_flux = Field(g.num_edges, 2, 0.0);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_averaged_vn_and_fluxes(g, b); }, {"substep_averaged_mass_flux"}, "levels");
}

// ================================================================================================
// 5. compute_horizontal_velocity_quantities_and_fluxes
// ================================================================================================

ref::ComputeHorizontalVelocityQuantitiesAndFluxesArgs velocity_args(const Grid& g) {
  const index_t ne = g.num_edges;
  ref::ComputeHorizontalVelocityQuantitiesAndFluxesArgs a;
  a.spatially_averaged_vn = Field(ne, kLevels, nan);
  a.horizontal_gradient_of_normal_wind_divergence = Field(ne, kLevels, nan);
  a.tangential_wind = Field(ne, kLevels, nan);
  a.mass_flux_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.theta_v_flux_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.tangential_wind_on_half_levels = Field(ne, kLevels, nan);
  a.vn_on_half_levels = Field(ne, kLevels + 1, nan);
  a.horizontal_kinetic_energy_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.contravariant_correction_at_edges_on_model_levels = Field(ne, kLevels, nan);
  a.vn = linear(ne, kLevels, 1.0, 0.5);
  a.e_flx_avg = constant_table(ne, {0.5, 0.125, 0.125, 0.125, 0.125});
  a.geofac_grdiv = constant_table(ne, {1.0, -0.25, -0.25, -0.25, -0.25});
  a.rbf_vec_coeff_e = constant_table(ne, {0.5, 0.5, 0.25, 0.25});
  a.rho_at_edges_on_model_levels = Field(ne, kLevels, 1.5);
  a.theta_v_at_edges_on_model_levels = Field(ne, kLevels, 300.0);
  a.ddqz_z_full_e = Field(ne, kLevels, 4.0);
  a.ddxn_z_full = Field(ne, kLevels, 0.5);
  a.ddxt_z_full = Field(ne, kLevels, 2.0);
  a.wgtfac_e = Field(ne, kLevels + 1, 0.75);
  a.wgtfacq_e =
      only_levels(ne, kLevels, {{kLevels - 1, 0.5}, {kLevels - 2, 0.25}, {kLevels - 3, 0.25}});
  a.nflatlev = 2;
  a.horizontal_start = 1;
  a.horizontal_end = 11;
  a.vertical_start = 0;
  a.vertical_end = kLevels + 1;
  return a;
}

TEST(HorizontalVelocityQuantities, LinearWindByHand) {
  const Grid g = test::make_octahedron_grid();
  auto a = velocity_args(g);
  ref::compute_horizontal_velocity_quantities_and_fluxes(g, a);
  const int n = kLevels;
  const auto vn = [](double k) { return 1.0 + 0.5 * k; };
  const auto dom = box(1, 11, 0, n);
  expect_field(a.spatially_averaged_vn, "vn_avg", dom, [&](index_t, int k) { return vn(k); });
  expect_field(a.horizontal_gradient_of_normal_wind_divergence, "graddiv", dom,
               [](index_t, int) { return 0.0; });
  expect_field(a.tangential_wind, "vt", dom, [&](index_t, int k) { return 1.5 * vn(k); });
  expect_field(a.mass_flux_at_edges_on_model_levels, "mass", dom,
               [&](index_t, int k) { return 6.0 * vn(k); });
  expect_field(a.theta_v_flux_at_edges_on_model_levels, "theta flux", dom,
               [&](index_t, int k) { return 1800.0 * vn(k); });
  // vn_ie: vn at k = 0, 0.75·vn[k] + 0.25·vn[k-1] = vn(k - 0.25) for 0 < k < n, and at k = n
  // the extrapolation 0.5·vn[n-1] + 0.25·vn[n-2] + 0.25·vn[n-3] = vn(n - 1.75).
  expect_field(a.vn_on_half_levels, "vn_ie", box(1, 11, 0, n + 1), [&](index_t, int k) {
    return k == 0 ? vn(0) : k == n ? vn(n - 1.75) : vn(k - 0.25);
  });
  expect_field(a.tangential_wind_on_half_levels, "vt_ie", dom,
               [&](index_t, int k) { return 1.5 * (k == 0 ? vn(0) : vn(k - 0.25)); });
  expect_field(a.horizontal_kinetic_energy_at_edges_on_model_levels, "ekin", dom,
               [&](index_t, int k) { return 0.5 * (vn(k) * vn(k) + 2.25 * vn(k) * vn(k)); });
  // k >= nflatlev = 2: vn·0.5 + 1.5vn·2 = 3.5vn; untouched above.
  expect_field(a.contravariant_correction_at_edges_on_model_levels, "w_concorr_me",
               box(1, 11, 2, n), [&](index_t, int k) { return 3.5 * vn(k); });
}

TEST(HorizontalVelocityQuantities, VerticalStartBelowTheTopStillExtrapolatesAtTheSurface) {
  const Grid g = test::make_octahedron_grid();
  auto a = velocity_args(g);
  a.vertical_start = 2;
  ref::compute_horizontal_velocity_quantities_and_fluxes(g, a);
  const auto vn = [](double k) { return 1.0 + 0.5 * k; };
  expect_field(a.vn_on_half_levels, "vn_ie", box(1, 11, 2, kLevels + 1), [&](index_t, int k) {
    return k == kLevels ? vn(kLevels - 1.75) : vn(k - 0.25);  // level 2 reads vn[1]
  });
  expect_field(a.tangential_wind_on_half_levels, "vt_ie", box(1, 11, 2, kLevels),
               [&](index_t, int k) { return 1.5 * vn(k - 0.25); });
  expect_field(a.tangential_wind, "vt", box(1, 11, 2, kLevels),
               [&](index_t, int k) { return 1.5 * vn(k); });
}

TEST(HorizontalVelocityQuantities, NeighbourOrderAndMissingNeighbours) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(21);
  auto base = velocity_args(g);
  base.vn = rng.field(g.num_edges, kLevels);
  base.e_flx_avg = random_table(rng, g.num_edges, 5);
  base.geofac_grdiv = random_table(rng, g.num_edges, 5);
  base.rbf_vec_coeff_e = random_table(rng, g.num_edges, 4);
  auto a = base;
  ref::compute_horizontal_velocity_quantities_and_fluxes(g, a);
  for (index_t e = 1; e < 11; ++e)
    for (int k = 0; k < kLevels; ++k) {
      double avg = 0.0, grd = 0.0, vt = 0.0;
      for (int j = 0; j < 5; ++j) avg += a.e_flx_avg(e, j) * a.vn(g.e2c2eo(e, j), k);
      for (int j = 0; j < 5; ++j) grd += a.geofac_grdiv(e, j) * a.vn(g.e2c2eo(e, j), k);
      for (int j = 0; j < 4; ++j) vt += a.rbf_vec_coeff_e(e, j) * a.vn(g.e2c2e(e, j), k);
      EXPECT_EQ(a.spatially_averaged_vn(e, k), avg);
      EXPECT_EQ(a.horizontal_gradient_of_normal_wind_divergence(e, k), grd);
      EXPECT_EQ(a.tangential_wind(e, k), vt);
    }
  Grid missing = g, replaced = g;
  missing.e2c2e(5, 1) = missing_index;
  replaced.e2c2e(5, 1) = std::max({g.e2c2e(5, 0), g.e2c2e(5, 2), g.e2c2e(5, 3)});
  missing.e2c2eo(9, 2) = missing_index;
  replaced.e2c2eo(9, 2) =
      std::max({g.e2c2eo(9, 0), g.e2c2eo(9, 1), g.e2c2eo(9, 3), g.e2c2eo(9, 4)});
  auto b = base, c = base;
  ref::compute_horizontal_velocity_quantities_and_fluxes(missing, b);
  ref::compute_horizontal_velocity_quantities_and_fluxes(replaced, c);
  EXPECT_TRUE(identical(b.tangential_wind, c.tangential_wind));
  EXPECT_TRUE(identical(b.tangential_wind_on_half_levels, c.tangential_wind_on_half_levels));
  EXPECT_TRUE(identical(b.spatially_averaged_vn, c.spatially_averaged_vn));
  EXPECT_TRUE(identical(b.horizontal_gradient_of_normal_wind_divergence,
                        c.horizontal_gradient_of_normal_wind_divergence));
  EXPECT_NE(b.tangential_wind(5, 0), a.tangential_wind(5, 0));
}

TEST(HorizontalVelocityQuantities, ArgumentErrorsNameTheField) {
  const Grid g = test::make_octahedron_grid();
  const auto fn = ref::compute_horizontal_velocity_quantities_and_fluxes;
  auto a = velocity_args(g);
  a.vn_on_half_levels = Field(g.num_edges, kLevels, nan);
  test::expect_throw_naming<std::invalid_argument>([&] { fn(g, a); }, {"vn_on_half_levels"},
                                                   "vn_ie levels");
  auto b = velocity_args(g);
  b.rbf_vec_coeff_e = Table(g.num_edges, 5);
  test::expect_throw_naming<std::invalid_argument>([&] { fn(g, b); }, {"rbf_vec_coeff_e"}, "table");
  auto c = velocity_args(g);
  c.vertical_end = 3;
  test::expect_throw_naming<std::invalid_argument>([&] { fn(g, c); }, {"wgtfacq_e"},
                                                   "vertical_end < 4");
  auto d = velocity_args(g);  // nlev levels are enough for the half-level vt (ICON4Py's shape)
  EXPECT_NO_THROW(fn(g, d));
}

// ================================================================================================
// 6. compute_interpolation_and_nonhydro_buoy
// ================================================================================================

ref::ComputeInterpolationAndNonhydroBuoyArgs buoy_args(const Grid& g) {
  const index_t nc = g.num_cells;
  ref::ComputeInterpolationAndNonhydroBuoyArgs a;
  a.rho_at_cells_on_half_levels = Field(nc, kLevels + 1, nan);
  a.perturbed_theta_v_at_cells_on_half_levels = Field(nc, kLevels + 1, nan);
  a.theta_v_at_cells_on_half_levels = Field(nc, kLevels + 1, nan);
  a.nonhydro_buoy_at_cells_on_half_levels = Field(nc, kLevels, nan);
  a.w = Field(nc, kLevels + 1, 3.0);
  a.contravariant_correction_at_cells_on_half_levels = Field(nc, kLevels + 1, 1.0);  // w - wc = 2
  a.current_rho = linear(nc, kLevels, 1.0, 0.5);
  a.next_rho = linear(nc, kLevels, 1.0, 0.5);
  a.current_theta_v = linear(nc, kLevels, 300.0, -2.0);
  a.next_theta_v = linear(nc, kLevels, 300.0, -2.0);
  a.perturbed_exner_at_cells_on_model_levels = linear(nc, kLevels, 0.0, 0.125);
  a.reference_theta_at_cells_on_model_levels = linear(nc, kLevels, 290.0, -1.0);
  a.ddz_of_reference_exner_at_cells_on_half_levels = Field(nc, kLevels + 1, -0.001);
  a.ddqz_z_half = Field(nc, kLevels + 1, 100.0);
  a.wgtfac_c = Field(nc, kLevels + 1, 0.75);
  a.exner_w_explicit_weight_parameter = Vector(nc, 0.25);
  a.dtime = 10.0;
  a.rhotheta_explicit_weight_parameter = 0.25;
  a.rhotheta_implicit_weight_parameter = 0.75;
  a.horizontal_start = 1;
  a.horizontal_end = 7;
  a.vertical_start = 1;
  a.vertical_end = kLevels;
  return a;
}

TEST(InterpolationAndNonhydroBuoy, LinearProfilesByHand) {
  const Grid g = test::make_octahedron_grid();
  auto a = buoy_args(g);
  ref::compute_interpolation_and_nonhydro_buoy(g, a);
  // Time averages equal the profiles (current = next, weights 0.25 + 0.75). Back trajectory
  // -(3 - 1)·10·0.5/100 = -0.1.
  //   rho_ic = rho(k - 0.25) - 0.1·(rho[k-1] - rho[k]) = 1 + 0.5(k - 0.25) + 0.05
  //   theta_v_pr_ic = interp(10 - k) = 10.25 - k
  //   theta_v_ic = 300 - 2(k - 0.25) - 0.1·2
  //   buoy = 0.25·theta_v_ic·(-0.125)/100 + theta_v_pr_ic·(-0.001)
  const auto dom = box(1, 7, 1, kLevels);
  expect_field(a.rho_at_cells_on_half_levels, "rho_ic", dom,
               [](index_t, int k) { return 1.0 + 0.5 * (k - 0.25) + 0.05; });
  expect_field(a.perturbed_theta_v_at_cells_on_half_levels, "theta_v_pr_ic", dom,
               [](index_t, int k) { return 10.25 - k; });
  const auto theta_v_ic = [](int k) { return 300.0 - 2.0 * (k - 0.25) - 0.2; };
  expect_field(a.theta_v_at_cells_on_half_levels, "theta_v_ic", dom,
               [&](index_t, int k) { return theta_v_ic(k); });
  expect_field(a.nonhydro_buoy_at_cells_on_half_levels, "buoy", dom, [&](index_t, int k) {
    return 0.25 * theta_v_ic(k) * -0.125 / 100.0 + (10.25 - k) * -0.001;
  });
}

TEST(InterpolationAndNonhydroBuoy, TimeWeightsAverageCurrentAndNext) {
  const Grid g = test::make_octahedron_grid();
  auto a = buoy_args(g);
  a.w = Field(g.num_cells, kLevels + 1, 1.0);  // no back trajectory
  a.current_rho = Field(g.num_cells, kLevels, 1.0);
  a.next_rho = Field(g.num_cells, kLevels, 3.0);
  a.current_theta_v = Field(g.num_cells, kLevels, 280.0);
  a.next_theta_v = Field(g.num_cells, kLevels, 300.0);
  a.reference_theta_at_cells_on_model_levels = Field(g.num_cells, kLevels, 290.0);
  ref::compute_interpolation_and_nonhydro_buoy(g, a);
  // 0.25·1 + 0.75·3 = 2.5; 0.25·280 + 0.75·300 = 295; theta_v_pr = 5.
  expect_field(a.rho_at_cells_on_half_levels, "rho_ic", box(1, 7, 1, kLevels),
               [](index_t, int) { return 2.5; });
  expect_field(a.theta_v_at_cells_on_half_levels, "theta_v_ic", box(1, 7, 1, kLevels),
               [](index_t, int) { return 295.0; });
  expect_field(a.perturbed_theta_v_at_cells_on_half_levels, "theta_v_pr_ic", box(1, 7, 1, kLevels),
               [](index_t, int) { return 5.0; });
}

TEST(InterpolationAndNonhydroBuoy, ArgumentErrors) {
  const Grid g = test::make_octahedron_grid();
  auto a = buoy_args(g);
  a.vertical_start = 0;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_interpolation_and_nonhydro_buoy(g, a); },
      {"vertical_start", "current_rho"}, "Koff[-1] at level 0");
  auto b = buoy_args(g);
  b.wgtfac_c = Field(g.num_cells, 3, 0.5);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_interpolation_and_nonhydro_buoy(g, b); }, {"wgtfac_c"}, "levels");
}

// ================================================================================================
// 7. stencils_61_62
// ================================================================================================

ref::Stencils6162Args stencils_61_62_args(const Grid& g) {
  const index_t nc = g.num_cells;
  ref::Stencils6162Args a;
  a.rho_now = Field(nc, kLevels, 1.0);
  a.grf_tend_rho = Field(nc, kLevels, 0.5);
  a.theta_v_now = Field(nc, kLevels, 300.0);
  a.grf_tend_thv = Field(nc, kLevels, -1.0);
  a.w_now = Field(nc, kLevels + 1, 0.5);
  a.grf_tend_w = Field(nc, kLevels + 1, 0.25);
  a.rho_new = Field(nc, kLevels, nan);
  a.exner_new = Field(nc, kLevels, nan);
  a.w_new = Field(nc, kLevels + 1, nan);
  a.dtime = 2.0;
  a.horizontal_start = 0;
  a.horizontal_end = 3;
  a.vertical_start = 0;
  a.vertical_end = kLevels + 1;
  return a;
}

TEST(Stencils6162, BoundaryTendenciesByHand) {
  const Grid g = test::make_octahedron_grid();
  for (int vs : {0, 2}) {
    SCOPED_TRACE(::testing::Message() << "vertical_start " << vs);
    auto a = stencils_61_62_args(g);
    a.vertical_start = vs;
    ref::stencils_61_62(g, a);
    expect_field(
        a.rho_new, "rho_new", box(0, 3, vs, kLevels), [](index_t, int) { return 2.0; }, true);
    // exner_new receives theta_v: 300 - 2.
    expect_field(
        a.exner_new, "exner_new", box(0, 3, vs, kLevels), [](index_t, int) { return 298.0; }, true);
    // w_new on [vs, nlev) and at nlev (_update_wind), 0.5 + 2·0.25.
    expect_field(
        a.w_new, "w_new", box(0, 3, vs, kLevels + 1), [](index_t, int) { return 1.0; }, true);
  }
}

TEST(Stencils6162, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  auto a = stencils_61_62_args(g);
  a.grf_tend_w = Field(g.num_cells, kLevels, 0.0);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::stencils_61_62(g, a); },
                                                   {"grf_tend_w"}, "nlev+1 needed");
  auto b = stencils_61_62_args(g);
  b.rho_new = Field(g.num_cells, kLevels - 1, 0.0);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::stencils_61_62(g, b); }, {"rho_new"},
                                                   "levels");
}

// ================================================================================================
// 8. update_mass_flux_weighted
// ================================================================================================

TEST(UpdateMassFluxWeighted, ByHandInTheDomainOnly) {
  const Grid g = test::make_octahedron_grid();
  const index_t nc = g.num_cells;
  ref::UpdateMassFluxWeightedArgs a;
  a.rho_ic = Field(nc, kLevels + 1, 2.0);
  a.vwind_expl_wgt = Vector(nc, 0.25);
  a.vwind_impl_wgt = Vector(nc, 0.75);
  a.w_now = Field(nc, kLevels + 1, 4.0);
  a.w_new = Field(nc, kLevels + 1, 8.0);
  a.w_concorr_c = Field(nc, kLevels + 1, 1.0);
  a.mass_flx_ic = Field(nc, kLevels + 1, 1.0);
  a.r_nsubsteps = 0.5;
  a.horizontal_start = 2;
  a.horizontal_end = 5;
  a.vertical_start = 0;
  a.vertical_end = kLevels;
  ref::update_mass_flux_weighted(g, a);
  // 1 + 0.5·2·(0.25·4 + 0.75·8 - 1) = 7; 1 elsewhere (level nlev included).
  for (index_t c = 0; c < nc; ++c)
    for (int k = 0; k <= kLevels; ++k)
      EXPECT_EQ(a.mass_flx_ic(c, k), box(2, 5, 0, kLevels)(c, k) ? 7.0 : 1.0);
  a.vwind_impl_wgt.resize(2);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::update_mass_flux_weighted(g, a); },
                                                   {"vwind_impl_wgt"}, "size");
}

// ================================================================================================
// 9. compute_exner_from_rhotheta
// ================================================================================================

TEST(ExnerFromRhotheta, ExnerFieldHoldsThetaVOnInput) {
  const Grid g = test::make_octahedron_grid();
  const index_t nc = g.num_cells;
  ref::ComputeExnerFromRhothetaArgs a;
  a.rho = Field(nc, kLevels, 1.2);
  a.theta_v = Field(nc, kLevels, nan);
  a.exner = Field(nc, kLevels, 300.0);
  a.horizontal_start = 0;
  a.horizontal_end = 4;
  a.vertical_start = 0;
  a.vertical_end = kLevels;
  EXPECT_EQ(a.rd_o_cvd, 287.04 / (1004.64 - 287.04));
  EXPECT_EQ(a.rd_o_p0ref, 287.04 / 100000.0);
  ref::compute_exner_from_rhotheta(g, a);
  // exner = (rd·rho·theta_v/p0)^(rd/cvd)
  const double exner = std::pow(287.04 * 1.2 * 300.0 / 100000.0, 287.04 / 717.6);
  expect_field(
      a.theta_v, "theta_v", box(0, 4, 0, kLevels), [](index_t, int) { return 300.0; }, true);
  for (index_t c = 0; c < nc; ++c)
    for (int k = 0; k < kLevels; ++k) {
      if (c < 4)
        EXPECT_NEAR(a.exner(c, k), exner, 1e-14);
      else
        EXPECT_EQ(a.exner(c, k), 300.0);
    }
  a.theta_v = Field(nc, 2, 0.0);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::compute_exner_from_rhotheta(g, a); },
                                                   {"theta_v"}, "levels");
}

// ================================================================================================
// 10. update_theta_and_exner_in_halo
// ================================================================================================

TEST(UpdateThetaAndExnerInHalo, PrognosticAndBoundaryHaloCells) {
  const Grid g = test::make_octahedron_grid();
  const index_t nc = g.num_cells;
  ref::UpdateThetaAndExnerInHaloArgs a;
  a.mask_prog_halo_c = ref::BoolVector(nc, false);
  a.mask_prog_halo_c[3] = a.mask_prog_halo_c[4] = a.mask_prog_halo_c[0] = true;
  a.rho_now = Field(nc, kLevels, 1.0);
  a.rho_new = Field(nc, kLevels, 1.25);
  a.theta_v_now = Field(nc, kLevels, 300.0);
  a.theta_v_new = Field(nc, kLevels, nan);
  a.exner_now = Field(nc, kLevels, 0.8);
  a.exner_new = Field(nc, kLevels, 0.88);
  for (index_t c : {5, 6})  // boundary halo cells: exner_new holds theta_v
    for (int k = 0; k < kLevels; ++k) a.exner_new(c, k) = 310.0;
  a.horizontal_start = 3;
  a.horizontal_end = 7;
  a.vertical_start = 1;
  a.vertical_end = kLevels;
  ref::update_theta_and_exner_in_halo(g, a);
  // Prognostic halo cells 3, 4: 1·300·((0.88/0.8 - 1)·2.5 + 1)/1.25 = 300·1.25/1.25 = 300 (cvd_o_rd
  // = 717.6/287.04 = 2.5); exner_new unchanged. Cells 5, 6: theta_v_new = 310, exner_new =
  // (rd·1.25·310/p0)^(rd/cvd).
  const double exner = std::pow(287.04 * 1.25 * 310.0 / 100000.0, 287.04 / 717.6);
  for (index_t c = 0; c < nc; ++c)
    for (int k = 0; k < kLevels; ++k) {
      SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
      const bool in = c >= 3 && c < 7 && k >= 1;
      if (!in) {
        EXPECT_TRUE(std::isnan(a.theta_v_new(c, k)));
        EXPECT_EQ(a.exner_new(c, k), (c == 5 || c == 6) ? 310.0 : 0.88);
      } else if (c < 5) {
        EXPECT_NEAR(a.theta_v_new(c, k), 300.0, 1e-12);
        EXPECT_EQ(a.theta_v_new(c, k),
                  1.0 * 300.0 * ((0.88 / 0.8 - 1.0) * ((1004.64 - 287.04) / 287.04) + 1.0) / 1.25);
        EXPECT_EQ(a.exner_new(c, k), 0.88);
      } else {
        EXPECT_EQ(a.theta_v_new(c, k), 310.0);
        EXPECT_NEAR(a.exner_new(c, k), exner, 1e-14);
      }
    }
  a.mask_prog_halo_c.pop_back();
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::update_theta_and_exner_in_halo(g, a); }, {"mask_prog_halo_c"}, "size");
}

// ================================================================================================
// 11. init_cell_kdim_field_with_zero_wp
// ================================================================================================

TEST(InitCellKdimFieldWithZero, ZeroInTheDomainOnly) {
  const Grid g = test::make_octahedron_grid();
  ref::InitCellKdimFieldWithZeroWpArgs a;
  a.field_with_zero_wp = Field(g.num_cells, kLevels + 1, nan);
  a.horizontal_start = 1;
  a.horizontal_end = 4;
  a.vertical_start = 0;
  a.vertical_end = kLevels + 1;
  ref::init_cell_kdim_field_with_zero_wp(g, a);
  expect_field(
      a.field_with_zero_wp, "field", box(1, 4, 0, kLevels + 1), [](index_t, int) { return 0.0; },
      true);
  a.field_with_zero_wp = Field(g.num_cells, kLevels, nan);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::init_cell_kdim_field_with_zero_wp(g, a); }, {"field_with_zero_wp"}, "levels");
}

// ================================================================================================
// 12. compute_rayleigh_damping_factor
// ================================================================================================

TEST(RayleighDampingFactor, EveryLevelOfTheOutput) {
  ref::ComputeRayleighDampingFactorArgs a;
  a.rayleigh_w = {0.0, 0.1, 0.5, 0.025};  // nlev+1 values
  a.dtime = 10.0;
  a.rayleigh_damping_factor = Vector(3, nan);  // nlev
  ref::compute_rayleigh_damping_factor(a);
  EXPECT_EQ(a.rayleigh_damping_factor[0], 1.0);
  EXPECT_EQ(a.rayleigh_damping_factor[1], 1.0 / (1.0 + 10.0 * 0.1));
  EXPECT_EQ(a.rayleigh_damping_factor[2], 1.0 / 6.0);
  a.rayleigh_w.resize(2);
  test::expect_throw_naming<std::invalid_argument>([&] { ref::compute_rayleigh_damping_factor(a); },
                                                   {"rayleigh_w"}, "too short");
}

}  // namespace
}  // namespace icondiff
