// Geometric checks of ICON's grid conventions (icon_grid_format.md §5) that a generated or cut-out
// grid must follow. They use only the vertex coordinates, the tables and the stored normals, so
// they test compute_grid_geometry's output instead of repeating its formulas.
#pragma once

#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace icondiff::test {

inline sphere::Vec3 vertex_position(const Grid& g, index_t v) {
  return sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
}
inline sphere::Vec3 cell_position(const Grid& g, index_t c) {
  return sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]);
}
inline sphere::Vec3 edge_position(const Grid& g, index_t e) {
  return sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
}
/// The stored primal normal of edge e as a Cartesian vector.
inline sphere::Vec3 primal_normal(const Grid& g, index_t e) {
  return sphere::local_to_cartesian(g.primal_normal_east[e], g.primal_normal_north[e],
                                    g.edge_lon[e], g.edge_lat[e]);
}
inline bool row_has(const HostTable<index_t>& t, index_t row, index_t value) {
  for (std::size_t s = 0; s < t.cols(); ++s)
    if (t(row, s) == value) return true;
  return false;
}

/// Cells counter-clockwise; c2e[j] joins c2v[j] and c2v[j+1]; c2e2c[j] across c2e[j].
inline void expect_cell_conventions(const Grid& g) {
  for (index_t c = 0; c < g.num_cells; ++c) {
    const auto a = vertex_position(g, g.c2v(c, 0)), b = vertex_position(g, g.c2v(c, 1)),
               d = vertex_position(g, g.c2v(c, 2));
    ASSERT_GT(sphere::triple_product(a, b, d), 0.0) << "cell " << c << " is not counter-clockwise";
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j), p = g.c2v(c, j), q = g.c2v(c, (j + 1) % 3);
      ASSERT_TRUE((g.e2v(e, 0) == p && g.e2v(e, 1) == q) || (g.e2v(e, 0) == q && g.e2v(e, 1) == p))
          << "cell " << c << " slot " << j;
      const index_t across = g.e2c(e, 0) == c ? g.e2c(e, 1) : g.e2c(e, 0);
      ASSERT_EQ(g.c2e2c(c, j), across) << "cell " << c << " slot " << j;
    }
  }
}

/// The normal points from e2c[0] to e2c[1] (interior edges); t = (n_north, −n_east);
/// tangent_orientation = sign(t · (v1 − v0)); cell_edge_orientation = +1 iff n points out of the
/// cell; vertex_edge_orientation = +1 iff n circulates counter-clockwise around the vertex, equal
/// to (+1 if v == e2v[0] else −1) · tangent_orientation, and 0 in missing slots.
inline void expect_orientation_conventions(const Grid& g) {
  for (index_t e = 0; e < g.num_edges; ++e) {
    const auto n = primal_normal(g, e);
    ASSERT_NEAR(sphere::norm(n), 1.0, 1e-12) << "edge " << e;
    if (g.e2c(e, 1) != missing_index) {
      const auto from = cell_position(g, g.e2c(e, 0)), to = cell_position(g, g.e2c(e, 1));
      ASSERT_GT(sphere::dot(n, to - from), 0.0) << "edge " << e << ": normal not from e2c0 to e2c1";
    }
    ASSERT_EQ(g.dual_normal_east[e], g.primal_normal_north[e]) << "edge " << e;
    ASSERT_EQ(g.dual_normal_north[e], -g.primal_normal_east[e]) << "edge " << e;
    const auto t = sphere::local_to_cartesian(g.dual_normal_east[e], g.dual_normal_north[e],
                                              g.edge_lon[e], g.edge_lat[e]);
    const double along =
        sphere::dot(t, vertex_position(g, g.e2v(e, 1)) - vertex_position(g, g.e2v(e, 0)));
    ASSERT_EQ(g.tangent_orientation[e], along > 0 ? 1.0 : -1.0) << "edge " << e;
  }
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      const double out =
          sphere::dot(primal_normal(g, e), edge_position(g, e) - cell_position(g, c));
      ASSERT_EQ(g.cell_edge_orientation(c, j), out > 0 ? 1.0 : -1.0)
          << "cell " << c << " slot " << j;
    }
  for (index_t v = 0; v < g.num_vertices; ++v) {
    const auto p = vertex_position(g, v);
    for (int s = 0; s < 6; ++s) {
      const index_t e = g.v2e(v, s);
      if (e == missing_index) {
        ASSERT_EQ(g.vertex_edge_orientation(v, s), 0.0) << "vertex " << v << " slot " << s;
        continue;
      }
      const double ccw =
          sphere::dot(sphere::cross(edge_position(g, e) - p, primal_normal(g, e)), p);
      ASSERT_EQ(g.vertex_edge_orientation(v, s), ccw > 0 ? 1.0 : -1.0)
          << "vertex " << v << " slot " << s;
      const double identity = (g.e2v(e, 0) == v ? 1.0 : -1.0) * g.tangent_orientation[e];
      ASSERT_EQ(g.vertex_edge_orientation(v, s), identity) << "vertex " << v << " slot " << s;
    }
  }
}

/// V2E clockwise seen from outside, v2c[j] the cell between v2e[j−1] and v2e[j] (cyclically over
/// the present edges), missing slots only at the end; at a lateral-boundary vertex the last
/// present edge has no cell.
inline void expect_vertex_conventions(const Grid& g) {
  for (index_t v = 0; v < g.num_vertices; ++v) {
    int m = 0;
    while (m < 6 && g.v2e(v, m) != missing_index) ++m;
    for (int s = m; s < 6; ++s) {
      ASSERT_EQ(g.v2e(v, s), missing_index) << "vertex " << v << ": gap in v2e";
      ASSERT_EQ(g.v2c(v, s), missing_index) << "vertex " << v << ": cell without edge";
    }
    ASSERT_GE(m, 2) << "vertex " << v;
    int cells = 0;
    while (cells < m && g.v2c(v, cells) != missing_index) ++cells;
    ASSERT_TRUE(cells == m || cells == m - 1) << "vertex " << v;
    const auto p = vertex_position(g, v);
    for (int j = 0; j < m; ++j) {
      const index_t e = g.v2e(v, j), e_next = g.v2e(v, (j + 1) % m);
      // At a boundary vertex the step from the last cell's edge to the remaining boundary edge
      // crosses the outside, which may be wider than 180°.
      const bool across_outside = cells == m - 1 && j == m - 2;
      if (!across_outside) {
        const double turn =
            sphere::dot(sphere::cross(edge_position(g, e) - p, edge_position(g, e_next) - p), p);
        ASSERT_LT(turn, 0.0) << "vertex " << v << ": v2e not clockwise at slot " << j;
      }
      if (j < cells) {
        const index_t c = g.v2c(v, j), e_prev = g.v2e(v, (j + m - 1) % m);
        ASSERT_TRUE(row_has(g.c2e, c, e) && row_has(g.c2e, c, e_prev))
            << "vertex " << v << ": v2c[" << j << "] not between v2e[j-1] and v2e[j]";
      }
    }
  }
}

}  // namespace icondiff::test
