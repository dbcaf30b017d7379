// A grid built in the test (the octahedron, with geometry from plain vector algebra): the checks,
// derived connectivities and the write -> read round trip of an ICON grid file.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;

TEST(TinyGrid, OctahedronPassesEveryCheck) {
  const Grid g = test::make_octahedron_grid();
  EXPECT_NO_THROW(check_grid(g));
  EXPECT_EQ(g.num_vertices - g.num_edges + g.num_cells, 2);
  EXPECT_FALSE(g.limited_area);
  const double sphere = 4 * pi * g.sphere_radius * g.sphere_radius;
  EXPECT_NEAR(std::accumulate(g.cell_area.begin(), g.cell_area.end(), 0.0) / sphere, 1.0, 1e-14);
  EXPECT_NEAR(std::accumulate(g.dual_area.begin(), g.dual_area.end(), 0.0) / sphere, 1.0, 1e-14);
  for (index_t v = 0; v < g.num_vertices; ++v) {
    EXPECT_EQ(g.v2e(v, 4), missing_index);  // four edges meet at an octahedron vertex
    EXPECT_EQ(g.v2e(v, 5), missing_index);
  }
}

TEST(TinyGrid, DerivedConnectivityFollowsIconOrder) {
  const Grid g = test::make_octahedron_grid();
  for (index_t c = 0; c < g.num_cells; ++c) {
    EXPECT_EQ(g.c2e2co(c, 0), c);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(g.c2e2co(c, j + 1), g.c2e2c(c, j));
  }
  for (index_t e = 0; e < g.num_edges; ++e) {
    EXPECT_EQ(g.e2c2v(e, 0), g.e2v(e, 0));
    EXPECT_EQ(g.e2c2v(e, 1), g.e2v(e, 1));
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k), far = g.e2c2v(e, 2 + k);
      EXPECT_TRUE(far == g.c2v(c, 0) || far == g.c2v(c, 1) || far == g.c2v(c, 2));
      EXPECT_NE(far, g.e2v(e, 0));
      EXPECT_NE(far, g.e2v(e, 1));
      // e2c2e: the other two edges of c, starting after e in c2e order
      int p = 0;
      while (g.c2e(c, p) != e) ++p;
      EXPECT_EQ(g.e2c2e(e, 2 * k), g.c2e(c, (p + 1) % 3));
      EXPECT_EQ(g.e2c2e(e, 2 * k + 1), g.c2e(c, (p + 2) % 3));
    }
    EXPECT_EQ(g.e2c2eo(e, 0), e);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(g.e2c2eo(e, k + 1), g.e2c2e(e, k));
  }
}

TEST(TinyGrid, OrientationsSatisfyTheGridFileIdentities) {
  // icon_grid_format.md §5.3: t = (n_north, -n_east); edge_orientation at a vertex is
  // (+1 if the vertex is e2v[0] else -1) x edge_system_orientation.
  const Grid g = test::make_octahedron_grid();
  for (index_t e = 0; e < g.num_edges; ++e) {
    EXPECT_NEAR(g.dual_normal_east[e], g.primal_normal_north[e], 1e-15);
    EXPECT_NEAR(g.dual_normal_north[e], -g.primal_normal_east[e], 1e-15);
  }
  for (index_t v = 0; v < g.num_vertices; ++v)
    for (int s = 0; s < 6; ++s) {
      const index_t e = g.v2e(v, s);
      if (e == missing_index) continue;
      const double expected = (g.e2v(e, 0) == v ? 1.0 : -1.0) * g.tangent_orientation[e];
      EXPECT_EQ(g.vertex_edge_orientation(v, s), expected) << "vertex " << v << " slot " << s;
    }
}

TEST(TinyGrid, WriteThenReadGivesTheSameGrid) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("octahedron.nc");
  write_icon_grid(g, path);
  const Grid r = read_icon_grid(path);
  EXPECT_EQ(r.num_cells, g.num_cells);
  EXPECT_EQ(r.num_edges, g.num_edges);
  EXPECT_EQ(r.num_vertices, g.num_vertices);
  EXPECT_EQ(r.sphere_radius, g.sphere_radius);
  EXPECT_EQ(r.c2e, g.c2e);
  EXPECT_EQ(r.c2v, g.c2v);
  EXPECT_EQ(r.c2e2c, g.c2e2c);
  EXPECT_EQ(r.e2c, g.e2c);
  EXPECT_EQ(r.e2v, g.e2v);
  EXPECT_EQ(r.v2e, g.v2e);
  EXPECT_EQ(r.v2c, g.v2c);
  EXPECT_EQ(r.c2e2co, g.c2e2co);
  EXPECT_EQ(r.e2c2v, g.e2c2v);
  EXPECT_EQ(r.e2c2e, g.e2c2e);
  EXPECT_EQ(r.e2c2eo, g.e2c2eo);
  EXPECT_EQ(r.cell_area, g.cell_area);
  EXPECT_EQ(r.dual_area, g.dual_area);
  EXPECT_EQ(r.edge_length, g.edge_length);
  EXPECT_EQ(r.dual_edge_length, g.dual_edge_length);
  EXPECT_EQ(r.edge_cell_distance, g.edge_cell_distance);
  EXPECT_EQ(r.edge_vertex_distance, g.edge_vertex_distance);
  EXPECT_EQ(r.primal_normal_east, g.primal_normal_east);
  EXPECT_EQ(r.dual_normal_north, g.dual_normal_north);
  EXPECT_EQ(r.tangent_orientation, g.tangent_orientation);
  EXPECT_EQ(r.cell_edge_orientation, g.cell_edge_orientation);
  EXPECT_EQ(r.vertex_edge_orientation, g.vertex_edge_orientation);
  EXPECT_EQ(r.cell_lon, g.cell_lon);
  EXPECT_EQ(r.vertex_lat, g.vertex_lat);
  EXPECT_EQ(r.zones, g.zones);
}

TEST(TinyGrid, WritingAGridWithoutGeometryIsRefused) {
  Grid g = test::make_octahedron_grid();
  g.cell_area.clear();
  EXPECT_THROW(write_icon_grid(g, test::scratch_file("no_geometry.nc")), GridError);
}

}  // namespace
}  // namespace icondiff
