// Derived edge geometry (ICON4Py's construction) against what the grid files store, and its
// internal identities.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace icondiff {
namespace {

struct Deviation {
  double normal = 0, tangent = 0, vertex = 0;
};

/// Largest differences between the recomputed normals/tangents and the file's, and the largest
/// deviation of the at-vertex normal from the at-midpoint one (they differ by the rotation of
/// the local basis over half an edge, so they must be close but not equal).
Deviation compare_with_file(const Grid& g, const EdgeGeometry& eg) {
  Deviation d;
  for (index_t e = 0; e < g.num_edges; ++e) {
    d.normal = std::max({d.normal, std::fabs(eg.primal_normal_x[e] - g.primal_normal_east[e]),
                         std::fabs(eg.primal_normal_y[e] - g.primal_normal_north[e])});
    d.tangent = std::max({d.tangent, std::fabs(eg.dual_normal_x[e] - g.dual_normal_east[e]),
                          std::fabs(eg.dual_normal_y[e] - g.dual_normal_north[e])});
    for (int i = 0; i < 2; ++i)
      d.vertex =
          std::max({d.vertex, std::fabs(eg.primal_normal_vert_x(e, i) - eg.primal_normal_x[e]),
                    std::fabs(eg.primal_normal_vert_y(e, i) - eg.primal_normal_y[e])});
  }
  return d;
}

/// `perpendicular_tolerance`: how far from perpendicular the normal and the tangent may be once
/// both are projected onto a vertex's tangent plane (exact at the midpoint; the projection skews
/// them by the angle between the planes, which is large only on very coarse grids and at the
/// poles, where the (east, north) basis turns with the longitude convention).
void expect_identities(const Grid& g, const EdgeGeometry& eg, double perpendicular_tolerance) {
  for (index_t e = 0; e < g.num_edges; ++e) {
    EXPECT_NEAR(sphere::norm(eg.normal_cartesian[e]), 1.0, 1e-14);
    EXPECT_NEAR(sphere::dot(eg.normal_cartesian[e], eg.tangent_cartesian[e]), 0.0, 1e-14);
    EXPECT_EQ(eg.inverse_primal_edge_length[e], 1.0 / g.edge_length[e]);
    EXPECT_EQ(eg.edge_area[e], g.edge_length[e] * g.dual_edge_length[e]);
    for (int i = 0; i < 4; ++i)
      if (g.e2c2v(e, i) != missing_index) {
        EXPECT_NEAR(std::hypot(eg.primal_normal_vert_x(e, i), eg.primal_normal_vert_y(e, i)), 1.0,
                    1e-14);
        if (std::fabs(g.vertex_lat[g.e2c2v(e, i)]) < 1.5) {
          EXPECT_NEAR(eg.primal_normal_vert_x(e, i) * eg.dual_normal_vert_x(e, i) +
                          eg.primal_normal_vert_y(e, i) * eg.dual_normal_vert_y(e, i),
                      0.0, perpendicular_tolerance);
        }
      }
    if (g.e2c(e, 1) != missing_index) {
      // The diamond's far vertices are about one dual edge apart.
      EXPECT_GT(eg.vertex_vertex_length[e], g.dual_edge_length[e]);
      EXPECT_LT(eg.vertex_vertex_length[e], 4 * g.dual_edge_length[e]);
    }
  }
}

TEST(EdgeGeometry, OctahedronMatchesItsOwnNormals) {
  const Grid g = test::make_octahedron_grid();
  const EdgeGeometry eg = compute_edge_geometry(g);
  expect_identities(g, eg, 1.0);
  const Deviation d = compare_with_file(g, eg);
  EXPECT_LT(d.normal, 1e-14);
  EXPECT_LT(d.tangent, 1e-14);
}

TEST(EdgeGeometry, GlobalR02B03AgreesWithTheFileNormals) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Grid g = read_icon_grid(path);
  const EdgeGeometry eg = compute_edge_geometry(g);
  expect_identities(g, eg, 1e-3);
  const Deviation d = compare_with_file(g, eg);
  std::printf(
      "R02B03: max |normal - file| = %.3g, |tangent - file| = %.3g, |vertex - midpoint| = %.3g\n",
      d.normal, d.tangent, d.vertex);
  EXPECT_LT(d.normal, 1e-6);
  EXPECT_LT(d.tangent, 1e-6);
}

TEST(EdgeGeometry, LimitedAreaR19B04AgreesWithTheFileNormals) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid g = read_icon_grid(path);
  const EdgeGeometry eg = compute_edge_geometry(g);
  expect_identities(g, eg, 1e-3);
  const Deviation d = compare_with_file(g, eg);
  std::printf(
      "R19B04: max |normal - file| = %.3g, |tangent - file| = %.3g, |vertex - midpoint| = %.3g\n",
      d.normal, d.tangent, d.vertex);
  EXPECT_LT(d.normal, 1e-6);
  EXPECT_LT(d.tangent, 1e-6);
}

}  // namespace
}  // namespace icondiff
