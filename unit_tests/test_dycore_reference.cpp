// Tests of the plain-loop dycore reference (unit_tests/reference/dycore_reference): hand-computed
// values on single points (numbers worked out in the comments, or the formula rearranged in the
// test), the vertical regimes and horizontal zones of each program, points outside every domain
// untouched, ICON4Py's replacement of missing neighbours, and argument errors.
#include "reference/dycore_reference.hpp"
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
using ref::Field3;
using ref::IntField3;
using ref::Table;
using ref::Vector;
using test::RandomSource;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr int kLevels = 6;

// ---- Helpers ------------------------------------------------------------------------------------

Table random_table(RandomSource& rng, index_t rows, int cols, double lo = -1.0, double hi = 1.0) {
  Table t(rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform(lo, hi);
  return t;
}

/// Relative difference scaled by max(1, |x|, |y|); NaN on exactly one side is infinitely wrong.
double rel_diff(double x, double y) {
  if (std::isnan(x) && std::isnan(y)) return 0.0;
  if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
  return std::fabs(x - y) / std::max({1.0, std::fabs(x), std::fabs(y)});
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

bool inside(index_t i, int k, index_t hs, index_t he, int vs, int ve) {
  return i >= hs && i < he && k >= vs && k < ve;
}

// ================================================================================================
// compute_rho_theta_pgrad_and_update_vn
// ================================================================================================

/// Random inputs on `g` (values in [-1, 1), half of pg_exdist zero, in-range ikoffset), outputs
/// NaN, every zone the whole grid, the domain everything, nflatlev = 2, nflat_gradp = 3.
ref::ComputeRhoThetaPgradAndUpdateVnArgs random_edge_args(const Grid& g, RandomSource& rng,
                                                          int nlev = kLevels) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ComputeRhoThetaPgradAndUpdateVnArgs a;
  a.rho_at_edges_on_model_levels = Field(ne, nlev, nan);
  a.theta_v_at_edges_on_model_levels = Field(ne, nlev, nan);
  a.horizontal_pressure_gradient = Field(ne, nlev, nan);
  a.next_vn = rng.field(ne, nlev);
  a.current_vn = rng.field(ne, nlev);
  a.tangential_wind = rng.field(ne, nlev);
  a.reference_rho_at_edges_on_model_levels = rng.field(ne, nlev);
  a.reference_theta_at_edges_on_model_levels = rng.field(ne, nlev);
  a.perturbed_rho_at_cells_on_model_levels = rng.field(nc, nlev);
  a.perturbed_theta_v_at_cells_on_model_levels = rng.field(nc, nlev);
  a.temporal_extrapolation_of_perturbed_exner = rng.field(nc, nlev);
  a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = rng.field(nc, nlev);
  a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = rng.field(nc, nlev);
  a.hydrostatic_correction_on_lowest_level = rng.vector(ne);
  a.predictor_normal_wind_advective_tendency = rng.field(ne, nlev);
  a.normal_wind_tendency_due_to_slow_physics_process = rng.field(ne, nlev);
  a.normal_wind_iau_increment = rng.field(ne, nlev);
  a.grf_tend_vn = rng.field(ne, nlev);
  a.geofac_grg_x = random_table(rng, nc, 4);
  a.geofac_grg_y = random_table(rng, nc, 4);
  a.pos_on_tplane_e_x = random_table(rng, ne, 2);
  a.pos_on_tplane_e_y = random_table(rng, ne, 2);
  a.primal_normal_cell_x = random_table(rng, ne, 2);
  a.dual_normal_cell_x = random_table(rng, ne, 2);
  a.primal_normal_cell_y = random_table(rng, ne, 2);
  a.dual_normal_cell_y = random_table(rng, ne, 2);
  a.ddxn_z_full = rng.field(ne, nlev);
  a.c_lin_e = random_table(rng, ne, 2);
  a.ikoffset = IntField3(ne, 2, nlev);
  a.zdiff_gradp = Field3(ne, 2, nlev);
  for (index_t e = 0; e < ne; ++e)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < nlev; ++k) {
        a.ikoffset(e, j, k) = rng.integer(-k, nlev - 1 - k);
        a.zdiff_gradp(e, j, k) = rng.uniform();
      }
  a.pg_exdist = rng.field(ne, nlev);
  for (auto& v : a.pg_exdist.values)
    if (rng.uniform() < 0.0) v = 0.0;
  a.inv_dual_edge_length = rng.vector(ne, 0.5, 2.0);
  a.dtime = 2.5;
  a.is_iau_active = false;
  a.iau_wgt_dyn = 0.375;
  a.limited_area = false;
  a.nflatlev = 2;
  a.nflat_gradp = 3;
  a.start_edge_lateral_boundary = 0;
  a.start_edge_lateral_boundary_level_7 = 0;
  a.start_edge_nudging_level_2 = 0;
  a.end_edge_nudging = 0;
  a.end_edge_halo = ne;
  a.horizontal_start = 0;
  a.horizontal_end = ne;
  a.vertical_start = 0;
  a.vertical_end = nlev;
  return a;
}

/// The upwind rho and theta_v at (e,k), written as "reference + perturbation + displacement ·
/// gradient" with the displacement rotated into the cell's (x, y) frame.
void expected_upwind(const Grid& g, const ref::ComputeRhoThetaPgradAndUpdateVnArgs& a, index_t e,
                     int k, double& rho, double& theta) {
  const int s = a.current_vn(e, k) >= 0.0 ? 0 : 1;
  const index_t cell = g.e2c(e, s);
  const double half_dt = a.dtime / 2.0;
  const double normal = -(a.pos_on_tplane_e_x(e, s) + half_dt * a.current_vn(e, k));
  const double tangential = -(a.pos_on_tplane_e_y(e, s) + half_dt * a.tangential_wind(e, k));
  const double dx = a.primal_normal_cell_x(e, s) * normal + a.dual_normal_cell_x(e, s) * tangential;
  const double dy = a.primal_normal_cell_y(e, s) * normal + a.dual_normal_cell_y(e, s) * tangential;
  double grad_rho[2] = {0.0, 0.0}, grad_theta[2] = {0.0, 0.0};
  for (int i = 0; i < 4; ++i) {
    const index_t n = g.c2e2co(cell, i);
    grad_rho[0] += a.perturbed_rho_at_cells_on_model_levels(n, k) * a.geofac_grg_x(cell, i);
    grad_rho[1] += a.perturbed_rho_at_cells_on_model_levels(n, k) * a.geofac_grg_y(cell, i);
    grad_theta[0] += a.perturbed_theta_v_at_cells_on_model_levels(n, k) * a.geofac_grg_x(cell, i);
    grad_theta[1] += a.perturbed_theta_v_at_cells_on_model_levels(n, k) * a.geofac_grg_y(cell, i);
  }
  rho = a.reference_rho_at_edges_on_model_levels(e, k) +
        (a.perturbed_rho_at_cells_on_model_levels(cell, k) + dx * grad_rho[0] + dy * grad_rho[1]);
  theta = a.reference_theta_at_edges_on_model_levels(e, k) +
          (a.perturbed_theta_v_at_cells_on_model_levels(cell, k) + dx * grad_theta[0] +
           dy * grad_theta[1]);
}

/// The pressure gradient at (e,k) from the regime rules of the ICON4Py docstrings.
double expected_gradient(const Grid& g, const ref::ComputeRhoThetaPgradAndUpdateVnArgs& a,
                         index_t e, int k) {
  const Field& ex = a.temporal_extrapolation_of_perturbed_exner;
  const Field& d1 = a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  const Field& d2 = a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  const index_t c[2] = {g.e2c(e, 0), g.e2c(e, 1)};
  double value;
  if (k < a.nflatlev) {
    value = (ex(c[1], k) - ex(c[0], k)) * a.inv_dual_edge_length[e];
  } else if (k > a.nflat_gradp) {
    double taylor[2];
    for (int j = 0; j < 2; ++j) {
      const int l = k + a.ikoffset(e, j, k);
      const double h = a.zdiff_gradp(e, j, k);
      taylor[j] = ex(c[j], l) + h * d1(c[j], l) + h * h * d2(c[j], l);
    }
    value = (taylor[1] - taylor[0]) * a.inv_dual_edge_length[e];
  } else {
    const double ddz_e = a.c_lin_e(e, 0) * d1(c[0], k) + a.c_lin_e(e, 1) * d1(c[1], k);
    value = (ex(c[1], k) - ex(c[0], k)) * a.inv_dual_edge_length[e] - ddz_e * a.ddxn_z_full(e, k);
  }
  return value + a.pg_exdist(e, k) * a.hydrostatic_correction_on_lowest_level[e];
}

TEST(RhoThetaPgrad, PressureGradientByHandInEachVerticalRegime) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(1);
  auto a = random_edge_args(g, rng);  // nflatlev = 2, nflat_gradp = 3
  const index_t e = 0, c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
  for (int k = 0; k < kLevels; ++k) {
    a.temporal_extrapolation_of_perturbed_exner(c0, k) = 1.0 + k;
    a.temporal_extrapolation_of_perturbed_exner(c1, k) = 4.0 + 2.0 * k;
    a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c0, k) = 0.5;
    a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c1, k) = -1.0;
    a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c0, k) = 0.25;
    a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c1, k) = 0.25;
    a.ddxn_z_full(e, k) = 2.0;
    a.zdiff_gradp(e, 0, k) = 2.0;
    a.zdiff_gradp(e, 1, k) = -2.0;
    a.pg_exdist(e, k) = 0.0;
  }
  a.inv_dual_edge_length[e] = 0.5;
  a.c_lin_e(e, 0) = 0.25;
  a.c_lin_e(e, 1) = 0.75;
  // Relative offsets: level 4 reads level 5 of c0 and level 2 of c1; level 5 reads 5 and 4.
  a.ikoffset(e, 0, 4) = 1;
  a.ikoffset(e, 1, 4) = -2;
  a.ikoffset(e, 0, 5) = 0;
  a.ikoffset(e, 1, 5) = -1;
  a.pg_exdist(e, 5) = 2.0;
  a.hydrostatic_correction_on_lowest_level[e] = 0.25;
  ref::compute_rho_theta_pgrad_and_update_vn(g, a);
  const Field& grad = a.horizontal_pressure_gradient;
  EXPECT_EQ(grad(e, 0), 1.5);   // flat: 0.5·(4 - 1)
  EXPECT_EQ(grad(e, 1), 2.0);   // flat: 0.5·(6 - 2)
  EXPECT_EQ(grad(e, 2), 3.75);  // nonflat: 0.5·(8 - 3) - 2·(0.25·0.5 + 0.75·(-1))
  EXPECT_EQ(grad(e, 3), 4.25);  // nonflat (k == nflat_gradp): 0.5·(10 - 4) + 1.25
  // multiple levels: c1 at level 2: 8 + (-2)·(-1 + (-2)·0.25) = 11; c0 at level 5:
  // 6 + 2·(0.5 + 2·0.25) = 8; 0.5·(11 - 8)
  EXPECT_EQ(grad(e, 4), 1.5);
  // c1 at level 4: 12 + 3 = 15; c0 at level 5: 8; 0.5·(15 - 8) + hydrostatic 0.25·2
  EXPECT_EQ(grad(e, 5), 4.0);

  // nflat_gradp below nflatlev: the flat rule wins above nflatlev.
  a.nflatlev = 3;
  a.nflat_gradp = 1;
  ref::compute_rho_theta_pgrad_and_update_vn(g, a);
  EXPECT_EQ(grad(e, 2), 2.5);  // flat: 0.5·(8 - 3), not the multiple-level value
  EXPECT_EQ(grad(e, 4), 1.5);  // multiple levels again
}

TEST(RhoThetaPgrad, RandomValuesAgreeWithTheRearrangedFormulas) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(2);
  auto a = random_edge_args(g, rng);
  ref::compute_rho_theta_pgrad_and_update_vn(g, a);
  double worst = 0.0;
  int upwind_from_second_cell = 0;
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) {
      double rho, theta;
      expected_upwind(g, a, e, k, rho, theta);
      if (a.current_vn(e, k) < 0.0) ++upwind_from_second_cell;
      const double gradient = expected_gradient(g, a, e, k);
      const double vn =
          a.current_vn(e, k) + a.dtime * (a.predictor_normal_wind_advective_tendency(e, k) +
                                          a.normal_wind_tendency_due_to_slow_physics_process(e, k) -
                                          ref::cpd * theta * gradient);
      worst = std::max({worst, rel_diff(a.rho_at_edges_on_model_levels(e, k), rho),
                        rel_diff(a.theta_v_at_edges_on_model_levels(e, k), theta),
                        rel_diff(a.horizontal_pressure_gradient(e, k), gradient),
                        rel_diff(a.next_vn(e, k), vn)});
    }
  EXPECT_LT(worst, 1e-13);
  EXPECT_GT(upwind_from_second_cell, 0);
  EXPECT_LT(upwind_from_second_cell, g.num_edges * kLevels);
}

TEST(RhoThetaPgrad, UpwindValueByHand) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(3);
  auto a = random_edge_args(g, rng);
  const index_t e = 5;
  const int k = 1;
  for (const double vn : {1.0, -1.0}) {
    const int s = vn > 0.0 ? 0 : 1;
    const index_t cell = g.e2c(e, s);
    a.current_vn(e, k) = vn;
    a.tangential_wind(e, k) = 0.5;
    a.dtime = 2.0;  // p_dthalf = 1
    a.pos_on_tplane_e_x(e, s) = 1.0;
    a.pos_on_tplane_e_y(e, s) = 0.5;
    // back-trajectory: normal -(vn + 1), tangential -(0.5 + 0.5) = -1; frame: x = normal,
    // y = tangential, so distv = (-(vn + 1), -1)
    a.primal_normal_cell_x(e, s) = 1.0;
    a.dual_normal_cell_x(e, s) = 0.0;
    a.primal_normal_cell_y(e, s) = 0.0;
    a.dual_normal_cell_y(e, s) = 1.0;
    // gradients: d/dx picks C2E2CO slot 0, d/dy slot 1 (scaled by 2)
    for (int i = 0; i < 4; ++i) {
      a.geofac_grg_x(cell, i) = i == 0 ? 1.0 : 0.0;
      a.geofac_grg_y(cell, i) = i == 1 ? 2.0 : 0.0;
    }
    for (index_t c = 0; c < g.num_cells; ++c) {
      a.perturbed_rho_at_cells_on_model_levels(c, k) = c + 1.0;
      a.perturbed_theta_v_at_cells_on_model_levels(c, k) = 10.0 * (c + 1.0);
    }
    a.reference_rho_at_edges_on_model_levels(e, k) = 100.0;
    a.reference_theta_at_edges_on_model_levels(e, k) = 300.0;
    ref::compute_rho_theta_pgrad_and_update_vn(g, a);
    const double distv_x = -(vn + 1.0), distv_y = -1.0;
    const double ddx_rho = g.c2e2co(cell, 0) + 1.0, ddy_rho = 2.0 * (g.c2e2co(cell, 1) + 1.0);
    EXPECT_EQ(a.rho_at_edges_on_model_levels(e, k),
              100.0 + (cell + 1.0) + distv_x * ddx_rho + distv_y * ddy_rho)
        << "vn = " << vn;
    EXPECT_EQ(a.theta_v_at_edges_on_model_levels(e, k),
              300.0 + 10.0 * ((cell + 1.0) + distv_x * ddx_rho + distv_y * ddy_rho))
        << "vn = " << vn;
  }
}

TEST(RhoThetaPgrad, ZonesDomainAndBranches) {
  const Grid g = test::make_octahedron_grid();
  const index_t ne = g.num_edges;
  RandomSource rng(4);
  const auto base = random_edge_args(g, rng);
  const index_t hs = 0, he = 11;
  const int vs = 1, ve = 5;
  for (const bool limited_area : {false, true})
    for (const bool iau : {false, true})
      for (const int end_nudging : {3, 7}) {  // 7: the lateral boundary overlaps nudging row 2
        SCOPED_TRACE(::testing::Message() << "limited_area " << limited_area << ", iau " << iau
                                          << ", end_edge_nudging " << end_nudging);
        auto a = base;
        a.limited_area = limited_area;
        a.is_iau_active = iau;
        a.start_edge_lateral_boundary = 1;
        a.end_edge_nudging = end_nudging;
        a.start_edge_lateral_boundary_level_7 = 2;
        a.start_edge_nudging_level_2 = 5;
        a.end_edge_halo = 9;
        a.horizontal_start = hs;
        a.horizontal_end = he;
        a.vertical_start = vs;
        a.vertical_end = ve;
        ref::compute_rho_theta_pgrad_and_update_vn(g, a);
        for (index_t e = 0; e < ne; ++e)
          for (int k = 0; k < kLevels; ++k) {
            SCOPED_TRACE(::testing::Message() << "edge " << e << ", level " << k);
            if (!inside(e, k, hs, he, vs, ve)) {
              EXPECT_TRUE(std::isnan(a.rho_at_edges_on_model_levels(e, k)));
              EXPECT_TRUE(std::isnan(a.theta_v_at_edges_on_model_levels(e, k)));
              EXPECT_TRUE(std::isnan(a.horizontal_pressure_gradient(e, k)));
              EXPECT_EQ(a.next_vn(e, k), base.next_vn(e, k));
              continue;
            }
            double rho = 0.0, theta = 0.0;
            if (e >= 2 && e < 9) expected_upwind(g, a, e, k, rho, theta);
            EXPECT_LT(rel_diff(a.rho_at_edges_on_model_levels(e, k), rho), 1e-13);
            EXPECT_LT(rel_diff(a.theta_v_at_edges_on_model_levels(e, k), theta), 1e-13);
            const double gradient = expected_gradient(g, a, e, k);  // every edge of the domain
            EXPECT_LT(rel_diff(a.horizontal_pressure_gradient(e, k), gradient), 1e-13);
            double vn = base.next_vn(e, k);
            if (limited_area && e >= 1 && e < end_nudging) {
              vn = a.current_vn(e, k) + a.dtime * a.grf_tend_vn(e, k);
            } else if (e >= 5) {
              // theta is 0 from the end of the first halo line on, which drops the gradient term
              vn = a.current_vn(e, k) +
                   a.dtime * (a.predictor_normal_wind_advective_tendency(e, k) +
                              a.normal_wind_tendency_due_to_slow_physics_process(e, k) -
                              ref::cpd * theta * gradient);
              if (iau) vn += a.iau_wgt_dyn * a.normal_wind_iau_increment(e, k);
            }
            EXPECT_LT(rel_diff(a.next_vn(e, k), vn), 1e-13);
          }
      }
}

TEST(RhoThetaPgrad, MissingNeighboursReadTheLargestValidIndexOfTheRow) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(5);
  const auto base = random_edge_args(g, rng);
  // Edge 3 loses its second cell, cell 6 two of its C2E2CO slots, edge 7 both cells.
  Grid missing = g, replaced = g;
  missing.e2c(3, 1) = missing_index;
  replaced.e2c(3, 1) = g.e2c(3, 0);
  missing.c2e2co(6, 0) = missing_index;
  missing.c2e2co(6, 2) = missing_index;
  const index_t largest = std::max(g.c2e2co(6, 1), g.c2e2co(6, 3));
  replaced.c2e2co(6, 0) = largest;
  replaced.c2e2co(6, 2) = largest;
  missing.e2c(7, 0) = missing.e2c(7, 1) = missing_index;
  replaced.e2c(7, 0) = replaced.e2c(7, 1) = 0;
  auto a = base, b = base;
  ref::compute_rho_theta_pgrad_and_update_vn(missing, a);
  ref::compute_rho_theta_pgrad_and_update_vn(replaced, b);
  EXPECT_TRUE(identical(a.rho_at_edges_on_model_levels, b.rho_at_edges_on_model_levels));
  EXPECT_TRUE(identical(a.theta_v_at_edges_on_model_levels, b.theta_v_at_edges_on_model_levels));
  EXPECT_TRUE(identical(a.horizontal_pressure_gradient, b.horizontal_pressure_gradient));
  EXPECT_TRUE(identical(a.next_vn, b.next_vn));
  auto c = base;
  ref::compute_rho_theta_pgrad_and_update_vn(g, c);
  EXPECT_FALSE(identical(a.horizontal_pressure_gradient, c.horizontal_pressure_gradient));
}

TEST(RhoThetaPgrad, IkoffsetLeavingTheColumnThrowsWhereItIsRead) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(6);
  auto a = random_edge_args(g, rng);
  a.ikoffset(4, 1, 0) = -1;  // level 0 is flat: the offset is never read
  EXPECT_NO_THROW(ref::compute_rho_theta_pgrad_and_update_vn(g, a));
  a.ikoffset(4, 1, 5) = 1;  // level 6 of 6
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); },
      {"ikoffset[4][1][5]", "edge 4", "slot 1", "level 5"}, "below the column");
  a.ikoffset(4, 1, 5) = -6;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); }, {"ikoffset[4][1][5]", "-1"},
      "above the column");
}

TEST(RhoThetaPgrad, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(7);
  const auto base = random_edge_args(g, rng);
  auto a = base;
  a.tangential_wind = Field(g.num_edges + 1, kLevels);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); }, {"tangential_wind"}, "points");
  a = base;
  a.perturbed_theta_v_at_cells_on_model_levels = Field(g.num_cells, kLevels - 1);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); },
      {"perturbed_theta_v_at_cells_on_model_levels"}, "levels");
  a = base;
  a.geofac_grg_y = Table(g.num_cells, 3);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); }, {"geofac_grg_y"}, "table");
  a = base;
  a.zdiff_gradp = Field3(g.num_edges, 3, kLevels);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); }, {"zdiff_gradp"}, "slots");
  a = base;
  a.hydrostatic_correction_on_lowest_level.pop_back();
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); },
      {"hydrostatic_correction_on_lowest_level"}, "vector");
  a = base;
  a.vertical_end = kLevels + 1;
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::compute_rho_theta_pgrad_and_update_vn(g, a); }, {"vertical domain"}, "domain");
}

// ================================================================================================
// apply_divergence_damping_and_update_vn
// ================================================================================================

ref::ApplyDivergenceDampingAndUpdateVnArgs random_damping_args(const Grid& g, RandomSource& rng,
                                                               int nlev = kLevels) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  ref::ApplyDivergenceDampingAndUpdateVnArgs a;
  a.horizontal_gradient_of_normal_wind_divergence = rng.field(ne, nlev);
  a.next_vn = rng.field(ne, nlev);
  a.current_vn = rng.field(ne, nlev);
  a.dwdz_at_cells_on_model_levels = rng.field(nc, nlev);
  a.predictor_normal_wind_advective_tendency = rng.field(ne, nlev);
  a.corrector_normal_wind_advective_tendency = rng.field(ne, nlev);
  a.normal_wind_tendency_due_to_slow_physics_process = rng.field(ne, nlev);
  a.normal_wind_iau_increment = rng.field(ne, nlev);
  a.second_order_divdamp_scaling_coeff = 0.3;
  a.theta_v_at_edges_on_model_levels = rng.field(ne, nlev);
  a.horizontal_pressure_gradient = rng.field(ne, nlev, -1e-3, 1e-3);
  a.horizontal_mask_for_3d_divdamp = rng.vector(ne, 0.0, 1.0);
  a.scaling_factor_for_3d_divdamp = rng.vector(nlev);
  a.inv_dual_edge_length = rng.vector(ne, 0.5, 2.0);
  a.nudgecoeff_e = rng.vector(ne, 0.0, 1.0);
  a.geofac_grdiv = random_table(rng, ne, 5);
  a.interpolated_fourth_order_divdamp_factor = rng.vector(nlev, 0.0, 0.01);
  a.advection_explicit_weight_parameter = 0.25;
  a.advection_implicit_weight_parameter = 0.75;
  a.dtime = 2.5;
  a.is_iau_active = false;
  a.iau_wgt_dyn = 0.375;
  a.limited_area = false;
  a.apply_2nd_order_divergence_damping = false;
  a.apply_4th_order_divergence_damping = false;
  a.divdamp_order = 4;
  a.mean_cell_area = 3.0;
  a.second_order_divdamp_factor = 0.02;
  a.max_nudging_coefficient = 0.375;
  a.dbl_eps = ref::dbl_eps;
  a.horizontal_start = 0;
  a.horizontal_end = ne;
  a.vertical_start = 0;
  a.vertical_end = nlev;
  return a;
}

/// next_vn at (e,k) from the docstring formula, the damping terms summed separately.
double expected_damped_vn(const Grid& g, const ref::ApplyDivergenceDampingAndUpdateVnArgs& a,
                          index_t e, int k) {
  auto total_gradient = [&](index_t edge) {
    const double dwdz_difference = a.dwdz_at_cells_on_model_levels(g.e2c(edge, 1), k) -
                                   a.dwdz_at_cells_on_model_levels(g.e2c(edge, 0), k);
    return a.horizontal_gradient_of_normal_wind_divergence(edge, k) +
           dwdz_difference * a.inv_dual_edge_length[edge] * a.scaling_factor_for_3d_divdamp[k] *
               a.horizontal_mask_for_3d_divdamp[edge];
  };
  const double tendency =
      a.advection_explicit_weight_parameter * a.predictor_normal_wind_advective_tendency(e, k) +
      a.advection_implicit_weight_parameter * a.corrector_normal_wind_advective_tendency(e, k) +
      a.normal_wind_tendency_due_to_slow_physics_process(e, k) -
      ref::cpd * a.theta_v_at_edges_on_model_levels(e, k) * a.horizontal_pressure_gradient(e, k);
  double damping = 0.0;
  if (a.apply_2nd_order_divergence_damping)
    damping += a.second_order_divdamp_scaling_coeff * total_gradient(e);
  if (a.apply_4th_order_divergence_damping) {
    double laplacian = 0.0;
    for (int i = 0; i < 5; ++i) laplacian += a.geofac_grdiv(e, i) * total_gradient(g.e2c2eo(e, i));
    double factor = a.interpolated_fourth_order_divdamp_factor[k];
    if (a.divdamp_order == 24) factor = std::max(0.0, factor - a.second_order_divdamp_factor / 4);
    const double scale = -factor * a.mean_cell_area * a.mean_cell_area;
    const double boundary_weight =
        a.limited_area
            ? std::fabs(scale) * 0.75 / (a.max_nudging_coefficient + a.dbl_eps) * a.nudgecoeff_e[e]
            : 0.0;
    damping += (scale + boundary_weight) * laplacian;
  }
  const double iau = a.is_iau_active ? a.iau_wgt_dyn * a.normal_wind_iau_increment(e, k) : 0.0;
  return a.current_vn(e, k) + a.dtime * tendency + damping + iau;
}

TEST(DivergenceDamping, UpdateByHand) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(8);
  auto a = random_damping_args(g, rng);
  const index_t e = 2, c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
  const int k = 3;
  a.current_vn(e, k) = 1.0;
  a.dtime = 2.0;
  a.predictor_normal_wind_advective_tendency(e, k) = 4.0;  // · 0.25
  a.corrector_normal_wind_advective_tendency(e, k) = 8.0;  // · 0.75
  a.normal_wind_tendency_due_to_slow_physics_process(e, k) = 1.0;
  a.theta_v_at_edges_on_model_levels(e, k) = 0.0;
  a.horizontal_gradient_of_normal_wind_divergence(e, k) = 3.0;
  a.horizontal_mask_for_3d_divdamp[e] = 1.0;
  a.scaling_factor_for_3d_divdamp[k] = 2.0;
  a.inv_dual_edge_length[e] = 0.5;
  a.dwdz_at_cells_on_model_levels(c0, k) = 1.0;
  a.dwdz_at_cells_on_model_levels(c1, k) = 5.0;
  a.second_order_divdamp_scaling_coeff = 0.5;
  a.normal_wind_iau_increment(e, k) = 2.0;
  a.iau_wgt_dyn = 0.5;
  ref::apply_divergence_damping_and_update_vn(g, a);
  EXPECT_EQ(a.next_vn(e, k), 17.0);  // 1 + 2·(1 + 6 + 1)
  a.apply_2nd_order_divergence_damping = true;
  ref::apply_divergence_damping_and_update_vn(g, a);
  EXPECT_EQ(a.next_vn(e, k), 20.5);  // + 0.5·(3 + 1·2·0.5·(5 - 1))
  a.is_iau_active = true;
  ref::apply_divergence_damping_and_update_vn(g, a);
  EXPECT_EQ(a.next_vn(e, k), 21.5);  // + 0.5·2
}

TEST(DivergenceDamping, EveryBranchAgreesWithTheDocstringFormula) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(9);
  const auto base = random_damping_args(g, rng);
  for (const bool second : {false, true})
    for (const bool fourth : {false, true})
      for (const bool limited_area : {false, true})
        for (const int order : {4, 24})
          for (const bool iau : {false, true}) {
            SCOPED_TRACE(::testing::Message()
                         << "2nd " << second << ", 4th " << fourth << ", limited_area "
                         << limited_area << ", divdamp_order " << order << ", iau " << iau);
            auto a = base;
            a.apply_2nd_order_divergence_damping = second;
            a.apply_4th_order_divergence_damping = fourth;
            a.limited_area = limited_area;
            a.divdamp_order = order;
            a.is_iau_active = iau;
            ref::apply_divergence_damping_and_update_vn(g, a);
            double worst = 0.0;
            for (index_t e = 0; e < g.num_edges; ++e)
              for (int k = 0; k < kLevels; ++k)
                worst = std::max(worst, rel_diff(a.next_vn(e, k), expected_damped_vn(g, a, e, k)));
            EXPECT_LT(worst, 1e-13);
          }
}

TEST(DivergenceDamping, FourthOrderTermsDifferByBranch) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(10);
  auto a = random_damping_args(g, rng);
  a.apply_4th_order_divergence_damping = true;
  // Order 24 subtracts second_order_divdamp_factor/4 = 0.005 and clips at 0: factors below
  // 0.005 give no 4th-order damping at all.
  a.interpolated_fourth_order_divdamp_factor = {0.001, 0.004, 0.006, 0.01, 0.0, 0.02};
  a.divdamp_order = 24;
  auto undamped = a;
  undamped.apply_4th_order_divergence_damping = false;
  ref::apply_divergence_damping_and_update_vn(g, a);
  ref::apply_divergence_damping_and_update_vn(g, undamped);
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) {
      const bool clipped = k == 0 || k == 1 || k == 4;
      EXPECT_EQ(a.next_vn(e, k) == undamped.next_vn(e, k), clipped) << e << " " << k;
    }
  // Limited area adds 0.75/(max_nudging_coefficient + eps)·|scale|·nudgecoeff_e: with
  // nudgecoeff_e = 0 it is the global damping.
  auto global = random_damping_args(g, rng), lam = global;
  global.apply_4th_order_divergence_damping = lam.apply_4th_order_divergence_damping = true;
  lam.limited_area = true;
  lam.nudgecoeff_e.assign(g.num_edges, 0.0);
  ref::apply_divergence_damping_and_update_vn(g, global);
  ref::apply_divergence_damping_and_update_vn(g, lam);
  EXPECT_TRUE(identical(global.next_vn, lam.next_vn));
}

TEST(DivergenceDamping, DomainRespected) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(11);
  auto a = random_damping_args(g, rng);
  const auto before = a.next_vn;
  a.apply_2nd_order_divergence_damping = a.apply_4th_order_divergence_damping = true;
  a.horizontal_start = 3;
  a.horizontal_end = 10;
  a.vertical_start = 2;
  a.vertical_end = 5;
  ref::apply_divergence_damping_and_update_vn(g, a);
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < kLevels; ++k) {
      if (inside(e, k, 3, 10, 2, 5))
        EXPECT_LT(rel_diff(a.next_vn(e, k), expected_damped_vn(g, a, e, k)), 1e-13);
      else
        EXPECT_EQ(a.next_vn(e, k), before(e, k)) << "edge " << e << ", level " << k;
    }
}

TEST(DivergenceDamping, MissingE2C2EONeighbourReadsTheLargestValidIndex) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(12);
  auto a = random_damping_args(g, rng);
  a.apply_4th_order_divergence_damping = true;
  Grid missing = g, replaced = g;
  missing.e2c2eo(8, 3) = missing_index;
  replaced.e2c2eo(8, 3) =
      std::max({g.e2c2eo(8, 0), g.e2c2eo(8, 1), g.e2c2eo(8, 2), g.e2c2eo(8, 4)});
  auto b = a;
  ref::apply_divergence_damping_and_update_vn(missing, a);
  ref::apply_divergence_damping_and_update_vn(replaced, b);
  EXPECT_TRUE(identical(a.next_vn, b.next_vn));
}

TEST(DivergenceDamping, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(13);
  const auto base = random_damping_args(g, rng);
  auto a = base;
  a.geofac_grdiv = Table(g.num_edges, 4);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::apply_divergence_damping_and_update_vn(g, a); }, {"geofac_grdiv"}, "table");
  a = base;
  a.scaling_factor_for_3d_divdamp.resize(kLevels - 1);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::apply_divergence_damping_and_update_vn(g, a); }, {"scaling_factor_for_3d_divdamp"},
      "profile");
  a = base;
  a.dwdz_at_cells_on_model_levels = Field(g.num_edges, kLevels);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::apply_divergence_damping_and_update_vn(g, a); }, {"dwdz_at_cells_on_model_levels"},
      "cells");
}

// ================================================================================================
// vertically_implicit_solver_at_predictor_step / _at_corrector_step
// ================================================================================================

constexpr int kSolverLevels = 8;

/// Fills the members both solver programs share with a random but physically scaled state:
/// positive densities, temperatures, Exner values and layer thicknesses, small fluxes. Outputs
/// are NaN, next_w NaN except where the boundary condition or the solve writes it.
template <class Args>
void fill_common_solver_args(const Grid& g, RandomSource& rng, Args& a, int nlev) {
  const index_t ne = g.num_edges, nc = g.num_cells;
  a.next_w = Field(nc, nlev + 1, nan);
  a.next_rho = Field(nc, nlev, nan);
  a.next_exner = Field(nc, nlev, nan);
  a.next_theta_v = Field(nc, nlev, nan);
  a.exner_dynamical_increment = rng.field(nc, nlev);
  a.geofac_div = random_table(rng, nc, 3, -1e-3, 1e-3);
  a.mass_flux_at_edges_on_model_levels = rng.field(ne, nlev);
  a.theta_v_flux_at_edges_on_model_levels = rng.field(ne, nlev, -300.0, 300.0);
  a.predictor_vertical_wind_advective_tendency = rng.field(nc, nlev, -1e-2, 1e-2);
  a.nonhydro_buoy_at_cells_on_half_levels = rng.field(nc, nlev, -1e-4, 1e-4);
  a.rho_at_cells_on_half_levels = rng.field(nc, nlev + 1, 0.5, 1.5);
  a.contravariant_correction_at_cells_on_half_levels = rng.field(nc, nlev + 1, -0.1, 0.1);
  a.exner_w_explicit_weight_parameter = rng.vector(nc, 0.0, 0.5);
  a.current_exner = rng.field(nc, nlev, 0.6, 1.0);
  a.current_rho = rng.field(nc, nlev, 0.5, 1.5);
  a.current_theta_v = rng.field(nc, nlev, 250.0, 350.0);
  a.current_w = rng.field(nc, nlev, -1.0, 1.0);
  a.inv_ddqz_z_full = rng.field(nc, nlev, 1.0 / 500.0, 1.0 / 50.0);
  a.exner_w_implicit_weight_parameter = rng.vector(nc, 0.5, 1.0);
  a.theta_v_at_cells_on_half_levels = rng.field(nc, nlev + 1, 250.0, 350.0);
  a.perturbed_exner_at_cells_on_model_levels = rng.field(nc, nlev, -1e-3, 1e-3);
  a.exner_tendency_due_to_slow_physics = rng.field(nc, nlev, -1e-5, 1e-5);
  a.rho_iau_increment = rng.field(nc, nlev, -1e-3, 1e-3);
  a.exner_iau_increment = rng.field(nc, nlev, -1e-4, 1e-4);
  a.ddqz_z_half = rng.field(nc, nlev, 50.0, 500.0);
  a.rayleigh_damping_factor = rng.vector(nlev + 1, 0.5, 1.0);
  a.reference_exner_at_cells_on_model_levels = rng.field(nc, nlev, 0.6, 1.0);
  a.iau_wgt_dyn = 0.375;
  a.dtime = 10.0;
  a.is_iau_active = false;
  a.rayleigh_type = 1;  // CLASSIC: no damping in the solver
  a.at_first_substep = false;
  a.end_index_of_damping_layer = 3;
  a.kstart_moist = 4;
  a.start_cell_index_nudging = 0;
  a.end_cell_index_local = nc;
  a.vertical_start_index_model_top = 0;
  a.vertical_end_index_model_surface = nlev + 1;
}

ref::VerticallyImplicitSolverAtPredictorStepArgs random_predictor_args(const Grid& g,
                                                                       RandomSource& rng,
                                                                       int nlev = kSolverLevels) {
  ref::VerticallyImplicitSolverAtPredictorStepArgs a;
  fill_common_solver_args(g, rng, a, nlev);
  a.dwdz_at_cells_on_model_levels = Field(g.num_cells, nlev, nan);
  a.contravariant_correction_at_edges_on_model_levels = rng.field(g.num_edges, nlev, -0.1, 0.1);
  a.e_bln_c_s = random_table(rng, g.num_cells, 3, 0.2, 0.5);
  a.wgtfac_c = rng.field(g.num_cells, nlev, 0.3, 0.7);
  a.wgtfacq_c = rng.field(g.num_cells, nlev, 0.2, 1.2);
  a.divdamp_type = 3;
  a.flat_level_index_plus1 = 3;
  a.start_cell_index_lateral_lvl3 = 0;
  a.end_cell_index_halo_lvl1 = g.num_cells;
  return a;
}

ref::VerticallyImplicitSolverAtCorrectorStepArgs random_corrector_args(const Grid& g,
                                                                       RandomSource& rng,
                                                                       int nlev = kSolverLevels) {
  ref::VerticallyImplicitSolverAtCorrectorStepArgs a;
  fill_common_solver_args(g, rng, a, nlev);
  a.dynamical_vertical_mass_flux_at_cells_on_half_levels = rng.field(g.num_cells, nlev);
  a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels = rng.field(g.num_cells, nlev);
  a.corrector_vertical_wind_advective_tendency = rng.field(g.num_cells, nlev, -1e-2, 1e-2);
  a.advection_explicit_weight_parameter = 0.25;
  a.advection_implicit_weight_parameter = 0.75;
  a.lprep_adv = false;
  a.r_nsubsteps = 0.2;
  a.ndyn_substeps_var = 5.0;
  a.at_last_substep = false;
  return a;
}

/// The column quantities of the solver, rearranged from the ICON4Py docstrings: the tridiagonal
/// system rows a·w[k-1] + b·w[k] + c·w[k+1] = rhs (k >= 1) and the explicit parts.
struct ExpectedColumn {
  std::vector<double> flux, beta, alpha, rho_explicit, exner_explicit, a, b, c, rhs;
};

template <class Args>
ExpectedColumn expected_column(const Grid& g, const Args& s, index_t cell,
                               const std::vector<double>& w_explicit) {
  const int nlev = s.vertical_end_index_model_surface - 1;
  const double wgt = s.exner_w_implicit_weight_parameter[cell];
  ExpectedColumn x;
  x.flux.assign(nlev + 1, 0.0);
  for (int k = 1; k < nlev; ++k)
    x.flux[k] = (s.exner_w_explicit_weight_parameter[cell] * s.current_w(cell, k) -
                 s.contravariant_correction_at_cells_on_half_levels(cell, k)) *
                s.rho_at_cells_on_half_levels(cell, k);
  x.beta.assign(nlev, 0.0);
  x.alpha.assign(nlev + 1, 0.0);
  x.rho_explicit.assign(nlev, 0.0);
  x.exner_explicit.assign(nlev, 0.0);
  for (int k = 0; k < nlev; ++k) {
    x.beta[k] = (s.dtime * ref::rd / ref::cvd) * s.current_exner(cell, k) *
                s.inv_ddqz_z_full(cell, k) / (s.current_rho(cell, k) * s.current_theta_v(cell, k));
    x.alpha[k] =
        wgt * s.rho_at_cells_on_half_levels(cell, k) * s.theta_v_at_cells_on_half_levels(cell, k);
    double div_mass = 0.0, div_theta = 0.0;
    for (int j = 0; j < 3; ++j) {
      div_mass += s.geofac_div(cell, j) * s.mass_flux_at_edges_on_model_levels(g.c2e(cell, j), k);
      div_theta +=
          s.geofac_div(cell, j) * s.theta_v_flux_at_edges_on_model_levels(g.c2e(cell, j), k);
    }
    const double iau = s.is_iau_active ? s.iau_wgt_dyn : 0.0;
    x.rho_explicit[k] =
        s.current_rho(cell, k) + iau * s.rho_iau_increment(cell, k) -
        s.dtime * s.inv_ddqz_z_full(cell, k) * (div_mass + (x.flux[k] - x.flux[k + 1]));
    x.exner_explicit[k] =
        s.perturbed_exner_at_cells_on_model_levels(cell, k) +
        s.dtime * s.exner_tendency_due_to_slow_physics(cell, k) +
        iau * s.exner_iau_increment(cell, k) -
        x.beta[k] * (div_theta + s.theta_v_at_cells_on_half_levels(cell, k) * x.flux[k] -
                     s.theta_v_at_cells_on_half_levels(cell, k + 1) * x.flux[k + 1]);
  }
  x.a.assign(nlev, 0.0);
  x.b.assign(nlev, 0.0);
  x.c.assign(nlev, 0.0);
  x.rhs.assign(nlev, 0.0);
  for (int k = 1; k < nlev; ++k) {
    const double gamma = s.dtime * ref::cpd * wgt * s.theta_v_at_cells_on_half_levels(cell, k) /
                         s.ddqz_z_half(cell, k);
    x.a[k] = -gamma * x.beta[k - 1] * x.alpha[k - 1];
    x.c[k] = -gamma * x.beta[k] * x.alpha[k + 1];
    x.b[k] = 1.0 + gamma * x.alpha[k] * (x.beta[k - 1] + x.beta[k]);
    x.rhs[k] = w_explicit[k] + gamma * (x.exner_explicit[k] - x.exner_explicit[k - 1]);
  }
  return x;
}

std::vector<double> predictor_w_explicit(const ref::VerticallyImplicitSolverAtPredictorStepArgs& s,
                                         index_t cell) {
  const int nlev = s.vertical_end_index_model_surface - 1;
  std::vector<double> w(nlev, 0.0);
  for (int k = 1; k < nlev; ++k)
    w[k] = s.current_w(cell, k) + s.dtime * s.predictor_vertical_wind_advective_tendency(cell, k) -
           s.dtime * ref::cpd * s.nonhydro_buoy_at_cells_on_half_levels(cell, k);
  return w;
}

/// max(worst, r) that keeps a NaN r visible (std::max would drop it).
double worse(double worst, double r) {
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : std::max(worst, r);
}

/// Residual of row k of the system for the reference's w, relative to the size of its terms.
double row_residual(const ExpectedColumn& x, const Field& w, index_t cell, int k) {
  const double terms[4] = {x.a[k] * w(cell, k - 1), x.b[k] * w(cell, k), x.c[k] * w(cell, k + 1),
                           -x.rhs[k]};
  const double scale = std::fabs(terms[0]) + std::fabs(terms[1]) + std::fabs(terms[2]) +
                       std::fabs(terms[3]) + 1e-300;
  return std::fabs(terms[0] + terms[1] + terms[2] + terms[3]) / scale;
}

TEST(VerticalSolver, RestingStateStaysAtRest) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(20);
  auto a = random_predictor_args(g, rng);
  // No motion, no fluxes, no tendencies, no perturbation: the reference state is steady.
  for (Field* f :
       {&a.mass_flux_at_edges_on_model_levels, &a.theta_v_flux_at_edges_on_model_levels,
        &a.predictor_vertical_wind_advective_tendency, &a.nonhydro_buoy_at_cells_on_half_levels,
        &a.current_w, &a.perturbed_exner_at_cells_on_model_levels,
        &a.exner_tendency_due_to_slow_physics, &a.contravariant_correction_at_edges_on_model_levels,
        &a.contravariant_correction_at_cells_on_half_levels})
    std::fill(f->values.begin(), f->values.end(), 0.0);
  a.reference_exner_at_cells_on_model_levels = a.current_exner;
  a.rayleigh_type = ref::rayleigh_type_klemp;
  ref::vertically_implicit_solver_at_predictor_step(g, a);
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k < kSolverLevels; ++k) {
      SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
      EXPECT_EQ(a.next_w(c, k), 0.0);
      EXPECT_EQ(a.next_rho(c, k), a.current_rho(c, k));
      EXPECT_EQ(a.next_exner(c, k), a.current_exner(c, k));
      EXPECT_LT(rel_diff(a.next_theta_v(c, k), a.current_theta_v(c, k)), 1e-15);
      EXPECT_EQ(a.dwdz_at_cells_on_model_levels(c, k), 0.0);
    }
}

TEST(VerticalSolver, PredictorSolvesTheTridiagonalSystemOfTheForwardSweep) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(21);
  for (const bool iau : {false, true}) {
    SCOPED_TRACE(::testing::Message() << "iau " << iau);
    auto a = random_predictor_args(g, rng);
    a.is_iau_active = iau;
    const auto before = a;
    ref::vertically_implicit_solver_at_predictor_step(g, a);
    // The system's inputs: the interpolated w_concorr (checked below) and the surface w.
    auto inputs = before;
    inputs.contravariant_correction_at_cells_on_half_levels =
        a.contravariant_correction_at_cells_on_half_levels;
    double worst = 0.0, worst_state = 0.0;
    for (index_t c = 0; c < g.num_cells; ++c) {
      const ExpectedColumn x = expected_column(g, inputs, c, predictor_w_explicit(inputs, c));
      EXPECT_EQ(a.next_w(c, 0), 0.0);  // the model top
      for (int k = 1; k < kSolverLevels; ++k) worst = worse(worst, row_residual(x, a.next_w, c, k));
      for (int k = 0; k < kSolverLevels; ++k) {
        const double w_top = a.next_w(c, k), w_bottom = a.next_w(c, k + 1);
        const double rho =
            x.rho_explicit[k] - a.dtime * a.exner_w_implicit_weight_parameter[c] *
                                    a.inv_ddqz_z_full(c, k) *
                                    (a.rho_at_cells_on_half_levels(c, k) * w_top -
                                     a.rho_at_cells_on_half_levels(c, k + 1) * w_bottom);
        const double exner = x.exner_explicit[k] +
                             a.reference_exner_at_cells_on_model_levels(c, k) -
                             x.beta[k] * (x.alpha[k] * w_top - x.alpha[k + 1] * w_bottom);
        // theta_v from the linearised equation of state: exner ∝ (rho·theta_v)^(rd/cvd)
        const double theta =
            a.current_rho(c, k) * a.current_theta_v(c, k) / rho *
            (1.0 + ref::cvd_o_rd * (exner - a.current_exner(c, k)) / a.current_exner(c, k));
        worst_state =
            std::max({worst_state, rel_diff(a.next_rho(c, k), rho),
                      rel_diff(a.next_exner(c, k), exner), rel_diff(a.next_theta_v(c, k), theta)});
      }
    }
    EXPECT_LT(worst, 1e-13);
    EXPECT_LT(worst_state, 1e-12);
  }
}

TEST(VerticalSolver, ContravariantCorrectionInterpolationAndSurfaceBoundaryCondition) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(22);
  auto a = random_predictor_args(g, rng);
  const int nlev = kSolverLevels;
  a.start_cell_index_lateral_lvl3 = 1;
  a.end_cell_index_halo_lvl1 = 7;
  a.start_cell_index_nudging = 2;
  a.end_cell_index_local = 6;
  a.flat_level_index_plus1 = 3;
  const auto before = a;
  ref::vertically_implicit_solver_at_predictor_step(g, a);
  const Field& wc = a.contravariant_correction_at_cells_on_half_levels;
  for (index_t c = 0; c < g.num_cells; ++c) {
    auto edge_average = [&](int k) {
      double sum = 0.0;
      for (int j = 0; j < 3; ++j)
        sum +=
            a.e_bln_c_s(c, j) * a.contravariant_correction_at_edges_on_model_levels(g.c2e(c, j), k);
      return sum;
    };
    for (int k = 0; k <= nlev; ++k) {
      SCOPED_TRACE(::testing::Message() << "cell " << c << ", half level " << k);
      if (c < 1 || c >= 7 || k < 3) {
        EXPECT_EQ(wc(c, k), before.contravariant_correction_at_cells_on_half_levels(c, k));
      } else if (k < nlev) {  // linear between the full levels around half level k
        const double wgt = a.wgtfac_c(c, k);
        EXPECT_LT(
            rel_diff(wc(c, k), edge_average(k - 1) + wgt * (edge_average(k) - edge_average(k - 1))),
            1e-14);
      } else {  // quadratic extrapolation from the three lowest full levels
        double expected = 0.0;
        for (int j = 1; j <= 3; ++j) expected += a.wgtfacq_c(c, nlev - j) * edge_average(nlev - j);
        EXPECT_LT(rel_diff(wc(c, k), expected), 1e-14);
      }
    }
    // The boundary condition and the solve: only the cells [2, 6).
    const bool solved = c >= 2 && c < 6;
    EXPECT_EQ(a.next_w(c, nlev) == wc(c, nlev), solved) << "cell " << c;
    for (int k = 0; k < nlev; ++k) {
      EXPECT_EQ(std::isnan(a.next_w(c, k)), !solved) << "cell " << c << ", level " << k;
      EXPECT_EQ(std::isnan(a.next_rho(c, k)), !solved) << "cell " << c << ", level " << k;
      EXPECT_EQ(std::isnan(a.dwdz_at_cells_on_model_levels(c, k)), !solved);
    }
  }
}

TEST(VerticalSolver, PredictorOptionalOutputs) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(23);
  const auto base = random_predictor_args(g, rng);
  for (const int divdamp_type : {2, 3})
    for (const bool first : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "divdamp_type " << divdamp_type << ", first " << first);
      auto a = base;
      a.divdamp_type = divdamp_type;
      a.at_first_substep = first;
      a.vertical_start_index_model_top = 1;
      ref::vertically_implicit_solver_at_predictor_step(g, a);
      const Field& wc = a.contravariant_correction_at_cells_on_half_levels;
      for (index_t c = 0; c < g.num_cells; ++c)
        for (int k = 0; k < kSolverLevels; ++k) {
          SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
          if (divdamp_type == 3 && k >= 1) {
            const double dwdz =
                ((a.next_w(c, k) - wc(c, k)) - (a.next_w(c, k + 1) - wc(c, k + 1))) *
                a.inv_ddqz_z_full(c, k);
            EXPECT_LT(rel_diff(a.dwdz_at_cells_on_model_levels(c, k), dwdz), 1e-13);
          } else {
            EXPECT_TRUE(std::isnan(a.dwdz_at_cells_on_model_levels(c, k)));
          }
          const bool replaced = first && k >= a.kstart_moist;
          EXPECT_EQ(a.exner_dynamical_increment(c, k),
                    replaced ? a.current_exner(c, k) : base.exner_dynamical_increment(c, k));
          if (k == 0) {
            EXPECT_TRUE(std::isnan(a.next_w(c, k)));  // above the domain
          }
        }
    }
}

TEST(VerticalSolver, RayleighDampingScalesWOnTheDampingLayerLevels) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(24);
  auto classic = random_corrector_args(g, rng), klemp = classic;
  klemp.rayleigh_type = ref::rayleigh_type_klemp;
  ref::vertically_implicit_solver_at_corrector_step(g, classic);
  ref::vertically_implicit_solver_at_corrector_step(g, klemp);
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int k = 0; k < kSolverLevels; ++k) {
      const bool damped = k >= 1 && k <= klemp.end_index_of_damping_layer;
      EXPECT_EQ(klemp.next_w(c, k), damped ? klemp.rayleigh_damping_factor[k] * classic.next_w(c, k)
                                           : classic.next_w(c, k))
          << "cell " << c << ", level " << k;
      // The thermodynamic update sees the damped w.
      if (damped) {
        EXPECT_NE(klemp.next_rho(c, k), classic.next_rho(c, k));
      }
    }
}

TEST(VerticalSolver, CorrectorSolvesTheSystemAndUpdatesFluxesAndExnerIncrement) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(25);
  const auto base = random_corrector_args(g, rng);
  for (const bool first : {false, true})
    for (const bool last : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "first " << first << ", last " << last);
      auto a = base;
      a.lprep_adv = true;
      a.at_first_substep = first;
      a.at_last_substep = last;
      a.is_iau_active = true;
      ref::vertically_implicit_solver_at_corrector_step(g, a);
      double worst = 0.0;
      for (index_t c = 0; c < g.num_cells; ++c) {
        std::vector<double> w_explicit(kSolverLevels, 0.0);
        for (int k = 1; k < kSolverLevels; ++k)
          w_explicit[k] = a.current_w(c, k) +
                          a.dtime * (0.25 * a.predictor_vertical_wind_advective_tendency(c, k) +
                                     0.75 * a.corrector_vertical_wind_advective_tendency(c, k)) -
                          a.dtime * ref::cpd * a.nonhydro_buoy_at_cells_on_half_levels(c, k);
        const ExpectedColumn x = expected_column(g, a, c, w_explicit);
        for (int k = 1; k < kSolverLevels; ++k)
          worst = worse(worst, row_residual(x, a.next_w, c, k));
        for (int k = 0; k < kSolverLevels; ++k) {
          SCOPED_TRACE(::testing::Message() << "cell " << c << ", level " << k);
          const double rho_ic = a.rho_at_cells_on_half_levels(c, k);
          const double added =
              k == 0
                  ? 0.0
                  : a.r_nsubsteps * (x.flux[k] + rho_ic * a.exner_w_implicit_weight_parameter[c] *
                                                     a.next_w(c, k));
          const double mass_before =
              first ? 0.0 : base.dynamical_vertical_mass_flux_at_cells_on_half_levels(c, k);
          const double volume_before =
              first ? 0.0 : base.dynamical_vertical_volumetric_flux_at_cells_on_half_levels(c, k);
          EXPECT_LT(rel_diff(a.dynamical_vertical_mass_flux_at_cells_on_half_levels(c, k),
                             mass_before + added),
                    1e-14);
          EXPECT_LT(rel_diff(a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels(c, k),
                             volume_before + added / rho_ic),
                    1e-14);
          const double increment =
              last && k >= a.kstart_moist
                  ? a.next_exner(c, k) - base.exner_dynamical_increment(c, k) -
                        5.0 * a.dtime * a.exner_tendency_due_to_slow_physics(c, k)
                  : base.exner_dynamical_increment(c, k);
          EXPECT_LT(rel_diff(a.exner_dynamical_increment(c, k), increment), 1e-14);
        }
      }
      EXPECT_LT(worst, 1e-13);
    }
  // Without lprep_adv the fluxes are untouched.
  auto a = base;
  a.at_first_substep = true;
  ref::vertically_implicit_solver_at_corrector_step(g, a);
  EXPECT_TRUE(identical(a.dynamical_vertical_mass_flux_at_cells_on_half_levels,
                        base.dynamical_vertical_mass_flux_at_cells_on_half_levels));
  EXPECT_TRUE(identical(a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels,
                        base.dynamical_vertical_volumetric_flux_at_cells_on_half_levels));
}

TEST(VerticalSolver, DomainBelowTheTopRestartsTheSweepThere) {
  // The forward sweep is a scan over the levels whose result is used: with the domain starting at
  // level 2 it starts there from (0, 0), i.e. row 2 is solved as if w[1] were 0.
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(26);
  auto a = random_predictor_args(g, rng);
  a.vertical_start_index_model_top = 2;
  const auto before = a;
  ref::vertically_implicit_solver_at_predictor_step(g, a);
  auto inputs = before;
  inputs.contravariant_correction_at_cells_on_half_levels =
      a.contravariant_correction_at_cells_on_half_levels;
  double worst = 0.0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    const ExpectedColumn x = expected_column(g, inputs, c, predictor_w_explicit(inputs, c));
    for (int k = 0; k < 2; ++k) {
      EXPECT_TRUE(std::isnan(a.next_w(c, k)));
      EXPECT_TRUE(std::isnan(a.next_exner(c, k)));
    }
    Field w = a.next_w;
    w(c, 1) = 0.0;
    for (int k = 2; k < kSolverLevels; ++k) worst = worse(worst, row_residual(x, w, c, k));
  }
  EXPECT_LT(worst, 1e-13);
}

TEST(VerticalSolver, MissingC2ENeighbourReadsTheLargestValidIndex) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(27);
  const auto base = random_predictor_args(g, rng);
  Grid missing = g, replaced = g;
  missing.c2e(5, 1) = missing_index;
  replaced.c2e(5, 1) = std::max(g.c2e(5, 0), g.c2e(5, 2));
  auto a = base, b = base;
  ref::vertically_implicit_solver_at_predictor_step(missing, a);
  ref::vertically_implicit_solver_at_predictor_step(replaced, b);
  EXPECT_TRUE(identical(a.next_w, b.next_w));
  EXPECT_TRUE(identical(a.next_theta_v, b.next_theta_v));
  EXPECT_TRUE(identical(a.contravariant_correction_at_cells_on_half_levels,
                        b.contravariant_correction_at_cells_on_half_levels));
}

TEST(VerticalSolver, WrongShapesThrowNamingTheField) {
  const Grid g = test::make_octahedron_grid();
  RandomSource rng(28);
  const auto base = random_predictor_args(g, rng);
  auto a = base;
  a.next_w = Field(g.num_cells, kSolverLevels);  // needs the surface level too
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::vertically_implicit_solver_at_predictor_step(g, a); }, {"next_w"}, "next_w");
  a = base;
  a.e_bln_c_s = Table(g.num_cells, 4);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::vertically_implicit_solver_at_predictor_step(g, a); }, {"e_bln_c_s"}, "table");
  a = base;
  a.rayleigh_type = ref::rayleigh_type_klemp;
  a.rayleigh_damping_factor.resize(3);  // levels 1..3 are damped: 4 values needed
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::vertically_implicit_solver_at_predictor_step(g, a); }, {"rayleigh_damping_factor"},
      "profile");
  auto c = random_corrector_args(g, rng);
  c.theta_v_at_cells_on_half_levels = Field(g.num_cells, kSolverLevels);
  test::expect_throw_naming<std::invalid_argument>(
      [&] { ref::vertically_implicit_solver_at_corrector_step(g, c); },
      {"theta_v_at_cells_on_half_levels"}, "half levels");
}

}  // namespace
}  // namespace icondiff
