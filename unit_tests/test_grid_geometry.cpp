// compute_grid_geometry: against the octahedron built independently in the tests, against the
// geometry stored in real ICON grid files (computed from the files' own coordinates and
// connectivity), and its refusals.
#include "support/grid_conventions.hpp"
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/grid/grid_geometry.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace icondiff {
namespace {

/// Largest |computed/file − 1| over the entries where `use(i)` holds.
template <class Use>
double max_relative_deviation(const std::vector<double>& computed, const std::vector<double>& file,
                              Use use) {
  double worst = 0;
  for (std::size_t i = 0; i < computed.size(); ++i)
    if (use(i)) worst = std::max(worst, std::fabs(file[i] / computed[i] - 1.0));
  return worst;
}
double max_relative_deviation(const std::vector<double>& computed,
                              const std::vector<double>& file) {
  return max_relative_deviation(computed, file, [](std::size_t) { return true; });
}
double max_absolute_deviation(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}
/// One column of an (n, 2) table, optionally only where `keep(i)`.
template <class Keep>
std::vector<double> column(const HostTable<double>& t, int k, Keep keep) {
  std::vector<double> out(t.rows(), 1.0);
  for (std::size_t i = 0; i < t.rows(); ++i)
    if (keep(i)) out[i] = t(i, k);
  return out;
}

/// Recomputes the geometry of a grid read from a file and returns both.
std::pair<Grid, Grid> file_and_computed(const std::string& path) {
  Grid file = read_icon_grid(path);
  Grid computed = file;
  compute_grid_geometry(computed);
  return {std::move(file), std::move(computed)};
}

TEST(GridGeometry, ReproducesTheIndependentOctahedron) {
  const Grid expected = test::make_octahedron_grid();
  Grid g = expected;
  compute_grid_geometry(g);
  ASSERT_NO_THROW(check_grid(g));
  const auto near = [](const std::vector<double>& a, const std::vector<double>& b, double tol) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol * (1 + std::fabs(b[i])));
  };
  near(g.cell_lon, expected.cell_lon, 1e-14);
  near(g.cell_lat, expected.cell_lat, 1e-14);
  near(g.edge_lon, expected.edge_lon, 1e-14);
  near(g.edge_lat, expected.edge_lat, 1e-14);
  near(g.cell_area, expected.cell_area, 1e-14);
  near(g.dual_area, expected.dual_area, 1e-14);
  near(g.edge_length, expected.edge_length, 1e-14);
  near(g.dual_edge_length, expected.dual_edge_length, 1e-14);
  near(g.primal_normal_east, expected.primal_normal_east, 1e-14);
  near(g.primal_normal_north, expected.primal_normal_north, 1e-14);
  near(g.dual_normal_east, expected.dual_normal_east, 1e-14);
  near(g.dual_normal_north, expected.dual_normal_north, 1e-14);
  EXPECT_EQ(g.tangent_orientation, expected.tangent_orientation);
  EXPECT_EQ(g.cell_edge_orientation, expected.cell_edge_orientation);
  EXPECT_EQ(g.vertex_edge_orientation, expected.vertex_edge_orientation);
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < 2; ++k) {
      EXPECT_NEAR(g.edge_cell_distance(e, k), expected.edge_cell_distance(e, k), 1e-7);
      EXPECT_NEAR(g.edge_vertex_distance(e, k), expected.edge_vertex_distance(e, k), 1e-7);
    }
}

TEST(GridGeometry, RefusesMissingInput) {
  Grid g = test::make_octahedron_grid();
  g.vertex_lat.pop_back();
  try {
    compute_grid_geometry(g);
    ADD_FAILURE() << "no error";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("vertex_lon/vertex_lat have 6/5 values, expected 6"),
              std::string::npos)
        << e.what();
  }
  g = test::make_octahedron_grid();
  g.v2e = HostTable<index_t>();
  try {
    compute_grid_geometry(g);
    ADD_FAILURE() << "no error";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("table 'v2e' has shape (0, 0), expected (6, 6)"),
              std::string::npos)
        << e.what();
  }
  g = test::make_octahedron_grid();
  g.sphere_radius = -1;
  EXPECT_THROW(compute_grid_geometry(g), GridError);
}

// The deviations quoted below were measured with these files; each tolerance is a few times the
// measured value, so a change in a formula shows up.
TEST(GridGeometry, MatchesIconGlobalR02B03File) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const auto grids = file_and_computed(path);
  const Grid& file = grids.first;
  const Grid& g = grids.second;
  ASSERT_NO_THROW(check_grid(g));
  // Coordinates: circumcentres within 4e-8 m, midpoints within 1.3e-6 m.
  const double r = g.sphere_radius;
  for (index_t c = 0; c < g.num_cells; ++c)
    ASSERT_LT(r * sphere::arc_length(test::cell_position(g, c), test::cell_position(file, c)),
              1e-5);
  for (index_t e = 0; e < g.num_edges; ++e)
    ASSERT_LT(r * sphere::arc_length(test::edge_position(g, e), test::edge_position(file, e)),
              1e-5);
  // The old generator's areas are 0.99984-0.99987 x exact (icon_grid_format.md §5.3); dual
  // areas inherit the same factor.
  for (index_t c = 0; c < g.num_cells; ++c) {
    EXPECT_GT(file.cell_area[c] / g.cell_area[c], 0.99983);
    EXPECT_LT(file.cell_area[c] / g.cell_area[c], 0.99988);
  }
  for (index_t v = 0; v < g.num_vertices; ++v) {
    EXPECT_GT(file.dual_area[v] / g.dual_area[v], 0.99983);
    EXPECT_LT(file.dual_area[v] / g.dual_area[v], 0.99988);
  }
  // Lengths: measured 1.3e-13 (edges), 4.7e-13 (dual edges), 2.3e-12 (edge-cell distances).
  EXPECT_LT(max_relative_deviation(g.edge_length, file.edge_length), 1e-12);
  EXPECT_LT(max_relative_deviation(g.dual_edge_length, file.dual_edge_length), 1e-11);
  const auto all = [](std::size_t) { return true; };
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(max_relative_deviation(column(g.edge_cell_distance, k, all),
                                     column(file.edge_cell_distance, k, all)),
              1e-11);
    EXPECT_LT(max_relative_deviation(column(g.edge_vertex_distance, k, all),
                                     column(file.edge_vertex_distance, k, all)),
              1e-12);
  }
  // Normals: measured 1.8e-13; orientations identical, with the file's mixed tangent signs.
  EXPECT_LT(max_absolute_deviation(g.primal_normal_east, file.primal_normal_east), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.primal_normal_north, file.primal_normal_north), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.dual_normal_east, file.dual_normal_east), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.dual_normal_north, file.dual_normal_north), 1e-12);
  EXPECT_EQ(g.tangent_orientation, file.tangent_orientation);
  EXPECT_EQ(g.cell_edge_orientation, file.cell_edge_orientation);
  EXPECT_EQ(g.vertex_edge_orientation, file.vertex_edge_orientation);
  test::expect_orientation_conventions(g);
}

TEST(GridGeometry, MatchesDwdLimitedAreaR19B04File) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const auto grids = file_and_computed(path);
  const Grid& file = grids.first;
  const Grid& g = grids.second;
  ASSERT_NO_THROW(check_grid(g));
  const double r = g.sphere_radius;
  // Coordinates: circumcentres within 3.3e-7 m, midpoints within 2.2e-9 m.
  for (index_t c = 0; c < g.num_cells; ++c)
    ASSERT_LT(r * sphere::arc_length(test::cell_position(g, c), test::cell_position(file, c)),
              1e-5);
  for (index_t e = 0; e < g.num_edges; ++e)
    ASSERT_LT(r * sphere::arc_length(test::edge_position(g, e), test::edge_position(file, e)),
              1e-5);
  // Cell areas are exact in this file (measured 1.0e-10). Its dual areas are 1.03e-7-1.08e-7
  // smaller than the exact kite sums, uniformly, boundary vertices included (truncated the same
  // way); the parent R19B03 file shows 4x that, so it is icontools' own O(h²) approximation.
  EXPECT_LT(max_relative_deviation(g.cell_area, file.cell_area), 1e-9);
  EXPECT_LT(max_relative_deviation(g.dual_area, file.dual_area), 2e-7);
  // Lengths: measured 8.1e-11 (edges), 3.6e-10 (interior dual edges), 1.1e-9 (boundary dual
  // edges = edge_cell_distance[0]), 1.6e-9 (edge-cell distances).
  const auto interior = [&](std::size_t e) { return g.e2c(e, 1) != missing_index; };
  const auto boundary = [&](std::size_t e) { return g.e2c(e, 1) == missing_index; };
  const auto all = [](std::size_t) { return true; };
  EXPECT_LT(max_relative_deviation(g.edge_length, file.edge_length), 1e-9);
  EXPECT_LT(max_relative_deviation(g.dual_edge_length, file.dual_edge_length, interior), 2e-9);
  EXPECT_LT(max_relative_deviation(g.dual_edge_length, file.dual_edge_length, boundary), 5e-9);
  EXPECT_LT(max_relative_deviation(column(g.edge_cell_distance, 0, all),
                                   column(file.edge_cell_distance, 0, all)),
            5e-9);
  EXPECT_LT(max_relative_deviation(column(g.edge_cell_distance, 1, interior),
                                   column(file.edge_cell_distance, 1, interior)),
            5e-9);
  for (int k = 0; k < 2; ++k)
    EXPECT_LT(max_relative_deviation(column(g.edge_vertex_distance, k, all),
                                     column(file.edge_vertex_distance, k, all)),
              1e-9);
  for (index_t e = 0; e < g.num_edges; ++e)
    if (boundary(static_cast<std::size_t>(e))) {
      EXPECT_EQ(g.edge_cell_distance(e, 1), 0.0);
      EXPECT_EQ(g.dual_edge_length[e], g.edge_cell_distance(e, 0));
    }
  // Normals: measured 4.3e-14; orientations identical (tangent_orientation all +1 here,
  // including the boundary edges whose normal compute_grid_geometry takes along v0 x v1).
  EXPECT_LT(max_absolute_deviation(g.primal_normal_east, file.primal_normal_east), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.primal_normal_north, file.primal_normal_north), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.dual_normal_east, file.dual_normal_east), 1e-12);
  EXPECT_LT(max_absolute_deviation(g.dual_normal_north, file.dual_normal_north), 1e-12);
  EXPECT_EQ(g.tangent_orientation, file.tangent_orientation);
  EXPECT_EQ(g.cell_edge_orientation, file.cell_edge_orientation);
  EXPECT_EQ(g.vertex_edge_orientation, file.vertex_edge_orientation);
  test::expect_orientation_conventions(g);
}

}  // namespace
}  // namespace icondiff
