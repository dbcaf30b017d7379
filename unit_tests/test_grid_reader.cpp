// Reading the real ICON grids in ../shared/data/grids: sizes, topology, ICON's ordering
// conventions, zones. Skips with a message when the folder is absent.
#include "support/grid_files.hpp"

#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numeric>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;
using Vec = std::array<double, 3>;

Vec unit_vector(double lon, double lat) {
  return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}
double dot(const Vec& a, const Vec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/// A vector given by (east, north) components at (lon, lat), in Cartesian coordinates.
Vec from_local(double lon, double lat, double east, double north) {
  const Vec e = {-std::sin(lon), std::cos(lon), 0.0};
  const Vec n = {-std::sin(lat) * std::cos(lon), -std::sin(lat) * std::sin(lon), std::cos(lat)};
  return {east * e[0] + north * n[0], east * e[1] + north * n[1], east * e[2] + north * n[2]};
}

int count_valid(const HostTable<index_t>& t, index_t row) {
  int n = 0;
  for (std::size_t s = 0; s < t.cols(); ++s) n += t(row, s) != missing_index;
  return n;
}

/// Every C2E2C neighbour lies across the matching C2E edge.
void expect_neighbours_across_edges(const Grid& g) {
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      const index_t across = g.e2c(e, 0) == c ? g.e2c(e, 1) : g.e2c(e, 0);
      ASSERT_EQ(g.c2e2c(c, j), across) << "cell " << c << " slot " << j;
    }
}

/// E2C2V is [v0, v1, far vertex of e2c0, far vertex of e2c1] and, as the normal points from
/// e2c0 to e2c1, the far vertex of e2c0 lies behind the normal and that of e2c1 in front of it.
/// (At LAM boundary edges the one cell sits in slot 0 whatever the normal's direction.)
void expect_diamond_order(const Grid& g) {
  for (index_t e = 0; e < g.num_edges; ++e) {
    ASSERT_EQ(g.e2c2v(e, 0), g.e2v(e, 0));
    ASSERT_EQ(g.e2c2v(e, 1), g.e2v(e, 1));
    const Vec n =
        from_local(g.edge_lon[e], g.edge_lat[e], g.primal_normal_east[e], g.primal_normal_north[e]);
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k), v = g.e2c2v(e, 2 + k);
      if (c == missing_index) {
        ASSERT_EQ(v, missing_index);
        continue;
      }
      ASSERT_TRUE(v == g.c2v(c, 0) || v == g.c2v(c, 1) || v == g.c2v(c, 2));
      if (g.e2c(e, 1) == missing_index) continue;
      const double side = dot(n, unit_vector(g.vertex_lon[v], g.vertex_lat[v]));
      if (k == 0)
        ASSERT_LT(side, 0.0) << "edge " << e;
      else
        ASSERT_GT(side, 0.0) << "edge " << e;
    }
  }
}

TEST(GridReader, GlobalR02B03) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Grid g = read_icon_grid(path);
  EXPECT_EQ(g.num_cells, 5120);
  EXPECT_EQ(g.num_edges, 7680);
  EXPECT_EQ(g.num_vertices, 2562);
  EXPECT_EQ(g.num_vertices - g.num_edges + g.num_cells, 2);
  EXPECT_FALSE(g.limited_area);
  EXPECT_EQ(g.sphere_radius, 6371229.0);
  EXPECT_NO_THROW(check_grid(g));

  int pentagons = 0;
  for (index_t v = 0; v < g.num_vertices; ++v) {
    const int n = count_valid(g.v2e, v);
    ASSERT_TRUE(n == 5 || n == 6);
    pentagons += n == 5;
    ASSERT_EQ(count_valid(g.v2c, v), n);
  }
  EXPECT_EQ(pentagons, 12);
  for (index_t e = 0; e < g.num_edges; ++e) ASSERT_NE(g.e2c(e, 1), missing_index);

  // This old generator's areas are 0.99984-0.99987 x the exact spherical ones
  // (icon_grid_format.md §5.3), so the sum misses 4 pi R^2 by 1.6e-4.
  const double sphere = 4 * pi * g.sphere_radius * g.sphere_radius;
  const double area = std::accumulate(g.cell_area.begin(), g.cell_area.end(), 0.0);
  EXPECT_NEAR(area / sphere, 1.0, 2e-4);
  const double dual = std::accumulate(g.dual_area.begin(), g.dual_area.end(), 0.0);
  EXPECT_NEAR(dual / sphere, 1.0, 2e-4);

  expect_neighbours_across_edges(g);
  expect_diamond_order(g);

  // A global grid: every ordered zone empty, the interior is everything.
  for (Location l : all_locations) {
    EXPECT_EQ(g.range(l, Zone::LateralBoundary1), (IndexRange{0, 0}));
    EXPECT_EQ(g.range(l, Zone::Nudging), (IndexRange{0, 0}));
    EXPECT_EQ(g.range(l, Zone::Interior), (IndexRange{0, g.size(l)}));
    EXPECT_EQ(g.range(l, Zone::Local), (IndexRange{0, g.size(l)}));
    EXPECT_EQ(g.range(l, Zone::Halo), (IndexRange{g.size(l), g.size(l)}));
    EXPECT_EQ(g.range(l, Zone::End), (IndexRange{g.size(l), g.size(l)}));
  }
}

TEST(GridReader, LimitedAreaR19B04) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid g = read_icon_grid(path);
  EXPECT_EQ(g.num_cells, 4444);
  EXPECT_EQ(g.num_edges, 6761);
  EXPECT_EQ(g.num_vertices, 2318);
  EXPECT_TRUE(g.limited_area);
  EXPECT_NO_THROW(check_grid(g));
  expect_neighbours_across_edges(g);
  expect_diamond_order(g);

  // Cell rows as counted in icon_grid_format.md §6-7 (verified there by re-implementing ICON4Py).
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary1), (IndexRange{0, 374}));
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary2), (IndexRange{374, 736}));
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary3), (IndexRange{736, 1082}));
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary4), (IndexRange{1082, 1404}));
  EXPECT_EQ(g.range(Location::Cell, Zone::Nudging), (IndexRange{1404, 1710}));
  EXPECT_EQ(g.range(Location::Cell, Zone::Interior), (IndexRange{1710, 4444}));
  EXPECT_EQ(g.start(Location::Edge, Zone::Interior), 2585);
  EXPECT_EQ(g.start(Location::Vertex, Zone::Interior), 875);

  // Zones are contiguous and ordered; each starts where refin_ctrl says.
  for (Location l : all_locations) {
    const int rows = l == Location::Edge ? 8 : 4;
    std::vector<Zone> ordered;
    for (int row = 1; row <= rows; ++row) ordered.push_back(lateral_boundary_zone(row));
    ordered.push_back(Zone::Nudging);
    if (l == Location::Edge) ordered.push_back(Zone::Nudging2);
    ordered.push_back(Zone::Interior);
    EXPECT_EQ(g.start(l, ordered.front()), 0);
    for (std::size_t i = 0; i + 1 < ordered.size(); ++i)
      EXPECT_EQ(g.end(l, ordered[i]), g.start(l, ordered[i + 1])) << to_string(l) << " " << i;
    EXPECT_EQ(g.end(l, Zone::Interior), g.size(l));
    const auto& refin = g.refin_ctrl[static_cast<int>(l)];
    for (std::size_t i = 0; i + 1 < ordered.size(); ++i) {
      const auto r = g.range(l, ordered[i]);
      for (index_t p = r.start; p < r.end; ++p) ASSERT_EQ(refin[p], static_cast<int>(i) + 1);
    }
    const int last_ordered = static_cast<int>(ordered.size()) - 1;
    for (index_t p = g.start(l, Zone::Interior); p < g.size(l); ++p)
      ASSERT_TRUE(refin[p] == 0 || refin[p] > last_ordered) << to_string(l) << " " << p;
  }

  // The 190 boundary edges (one cell only) are exactly lateral boundary row 1.
  int boundary_edges = 0;
  for (index_t e = 0; e < g.num_edges; ++e) {
    const bool one_cell = g.e2c(e, 1) == missing_index;
    boundary_edges += one_cell;
    ASSERT_EQ(one_cell, g.range(Location::Edge, Zone::LateralBoundary1).contains(e)) << e;
  }
  EXPECT_EQ(boundary_edges, 190);
  EXPECT_EQ(g.range(Location::Edge, Zone::LateralBoundary1), (IndexRange{0, 190}));
}

TEST(GridReader, ParentOfTheLimitedAreaGridUsesIcon4pyNestConversion) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04_parent);
  const Grid g = read_icon_grid(path);
  EXPECT_EQ(g.num_cells, 1111);
  EXPECT_EQ(g.num_edges, 1714);
  EXPECT_EQ(g.num_vertices, 604);
  // Nest-overlap rows -1..-7 become rows 1..7; -4 is "unordered" in a parent grid, so row 4 is
  // empty (ICON4Py's convert_to_non_nested_refinement_values), where it would be: after row 3.
  EXPECT_TRUE(g.limited_area);
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary1), (IndexRange{0, 184}));
  const index_t row3_end = g.end(Location::Cell, Zone::LateralBoundary3);
  EXPECT_EQ(row3_end, 501);
  EXPECT_EQ(g.range(Location::Cell, Zone::LateralBoundary4), (IndexRange{row3_end, row3_end}));
  EXPECT_EQ(g.range(Location::Cell, Zone::Nudging), (IndexRange{637, 756}));
  EXPECT_EQ(g.start(Location::Cell, Zone::Interior), 756);
  EXPECT_EQ(g.start(Location::Edge, Zone::Interior), 1154);
  expect_neighbours_across_edges(g);
  expect_diamond_order(g);
}

}  // namespace
}  // namespace icondiff
