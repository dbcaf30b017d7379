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

}  // namespace
}  // namespace icondiff
