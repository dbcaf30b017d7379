#include "tiny_grids.hpp"

#include <icondiff/core/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace icondiff::test {

namespace {

using Vec = std::array<double, 3>;
Vec sub(Vec a, Vec b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec add(Vec a, Vec b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
double dot(Vec a, Vec b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec cross(Vec a, Vec b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec unit(Vec a) {
  const double n = std::sqrt(dot(a, a));
  return {a[0] / n, a[1] / n, a[2] / n};
}
double angle(Vec a, Vec b) {
  return std::atan2(std::sqrt(dot(cross(a, b), cross(a, b))), dot(a, b));
}
/// Area of the spherical triangle (a, b, c) on the unit sphere (Eriksson's formula).
double triangle_area(Vec a, Vec b, Vec c) {
  return 2.0 * std::fabs(std::atan2(dot(a, cross(b, c)), 1.0 + dot(a, b) + dot(b, c) + dot(c, a)));
}
double lon(Vec p) {
  return std::atan2(p[1], p[0]);
}
double lat(Vec p) {
  return std::asin(std::clamp(p[2], -1.0, 1.0));
}
Vec east(Vec p) {
  return unit(cross({0, 0, 1}, p));
}
Vec north(Vec p) {
  return cross(p, east(p));
}

}  // namespace

Grid make_octahedron_grid(double radius) {
  const std::vector<Vec> vert = {{0, 0, 1},  {1, 0, 0},  {0, 1, 0},
                                 {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  const std::vector<std::array<int, 3>> cells = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1},
                                                 {5, 2, 1}, {5, 3, 2}, {5, 4, 3}, {5, 1, 4}};
  Grid g;
  g.name = "octahedron";
  g.source = "unit_tests/support/tiny_grids.cpp";
  g.sphere_radius = radius;
  g.num_vertices = 6;
  g.num_cells = 8;
  g.num_edges = 12;
  g.c2v = HostTable<index_t>(8, 3);
  g.c2e = HostTable<index_t>(8, 3);
  g.e2v = HostTable<index_t>(12, 2);
  g.e2c = HostTable<index_t>(12, 2, missing_index);
  std::map<std::pair<int, int>, int> edge_of;
  int ne = 0;
  for (int c = 0; c < 8; ++c)
    for (int j = 0; j < 3; ++j) {
      g.c2v(c, j) = cells[c][j];
      const int a = cells[c][j], b = cells[c][(j + 1) % 3];
      const auto key = std::minmax(a, b);
      auto it = edge_of.find(key);
      if (it == edge_of.end()) {
        it = edge_of.emplace(key, ne).first;
        g.e2v(ne, 0) = a;
        g.e2v(ne, 1) = b;
        ++ne;
      }
      g.c2e(c, j) = it->second;
    }

  // Circumcentres, edge midpoints and primal normals n = unit(v0 x v1); the cell on the side
  // the normal points away from is e2c[0].
  std::vector<Vec> centre(8), mid(12), normal(12), tangent(12);
  for (int c = 0; c < 8; ++c) {
    const Vec a = vert[cells[c][0]], b = vert[cells[c][1]], d = vert[cells[c][2]];
    centre[c] = unit(cross(sub(b, a), sub(d, a)));
  }
  for (int e = 0; e < 12; ++e) {
    const Vec a = vert[g.e2v(e, 0)], b = vert[g.e2v(e, 1)];
    mid[e] = unit(add(a, b));
    normal[e] = unit(cross(a, b));
    tangent[e] = cross(normal[e], mid[e]);  // ICON: dual normal t = n x r
  }
  for (int c = 0; c < 8; ++c)
    for (int j = 0; j < 3; ++j) {
      const int e = g.c2e(c, j);
      const bool normal_points_out = dot(sub(mid[e], centre[c]), normal[e]) > 0;
      const int slot = normal_points_out ? 0 : 1;
      if (g.e2c(e, slot) != missing_index)
        throw GridError("octahedron: edge with two cells on one side");
      g.e2c(e, slot) = c;
    }
  g.c2e2c = HostTable<index_t>(8, 3);
  g.cell_edge_orientation = HostTable<double>(8, 3);
  for (int c = 0; c < 8; ++c)
    for (int j = 0; j < 3; ++j) {
      const int e = g.c2e(c, j);
      g.c2e2c(c, j) = g.e2c(e, 0) == c ? g.e2c(e, 1) : g.e2c(e, 0);
      g.cell_edge_orientation(c, j) = g.e2c(e, 0) == c ? 1.0 : -1.0;
    }

  // V2E in counter-clockwise order around the vertex; V2C[j] lies between edges j and j+1.
  g.v2e = HostTable<index_t>(6, 6, missing_index);
  g.v2c = HostTable<index_t>(6, 6, missing_index);
  g.vertex_edge_orientation = HostTable<double>(6, 6, 0.0);
  for (int v = 0; v < 6; ++v) {
    const Vec p = vert[v];
    const Vec ref = std::fabs(p[2]) > 0.5 ? Vec{1, 0, 0} : Vec{0, 0, 1};
    const Vec u = unit(cross(ref, p)), w = cross(p, u);
    std::vector<std::pair<double, int>> around;
    for (int e = 0; e < 12; ++e)
      if (g.e2v(e, 0) == v || g.e2v(e, 1) == v) {
        const Vec d = sub(mid[e], p);
        around.push_back({std::atan2(dot(d, w), dot(d, u)), e});
      }
    std::sort(around.begin(), around.end());
    for (std::size_t s = 0; s < around.size(); ++s) {
      const int e = around[s].second, e_next = around[(s + 1) % around.size()].second;
      g.v2e(v, s) = e;
      // The normal circulates counter-clockwise if (m - v) x n points outwards.
      g.vertex_edge_orientation(v, s) = dot(cross(sub(mid[e], p), normal[e]), p) > 0 ? 1.0 : -1.0;
      for (int k = 0; k < 2; ++k) {
        const int c = g.e2c(e, k);
        if (g.c2e(c, 0) == e_next || g.c2e(c, 1) == e_next || g.c2e(c, 2) == e_next)
          g.v2c(v, s) = c;
      }
    }
  }

  // Geometry on the sphere of `radius`.
  const double r = radius, r2 = radius * radius;
  for (const Vec& p : vert) {
    g.vertex_lon.push_back(lon(p));
    g.vertex_lat.push_back(lat(p));
  }
  for (int c = 0; c < 8; ++c) {
    g.cell_lon.push_back(lon(centre[c]));
    g.cell_lat.push_back(lat(centre[c]));
    g.cell_area.push_back(r2 *
                          triangle_area(vert[cells[c][0]], vert[cells[c][1]], vert[cells[c][2]]));
  }
  g.edge_cell_distance = HostTable<double>(12, 2);
  g.edge_vertex_distance = HostTable<double>(12, 2);
  for (int e = 0; e < 12; ++e) {
    const Vec a = vert[g.e2v(e, 0)], b = vert[g.e2v(e, 1)];
    g.edge_lon.push_back(lon(mid[e]));
    g.edge_lat.push_back(lat(mid[e]));
    g.edge_length.push_back(r * angle(a, b));
    g.dual_edge_length.push_back(r * angle(centre[g.e2c(e, 0)], centre[g.e2c(e, 1)]));
    for (int k = 0; k < 2; ++k) {
      g.edge_cell_distance(e, k) = r * angle(mid[e], centre[g.e2c(e, k)]);
      g.edge_vertex_distance(e, k) = r * angle(mid[e], vert[g.e2v(e, k)]);
    }
    g.primal_normal_east.push_back(dot(normal[e], east(mid[e])));
    g.primal_normal_north.push_back(dot(normal[e], north(mid[e])));
    g.dual_normal_east.push_back(dot(tangent[e], east(mid[e])));
    g.dual_normal_north.push_back(dot(tangent[e], north(mid[e])));
    g.tangent_orientation.push_back(dot(tangent[e], sub(b, a)) > 0 ? 1.0 : -1.0);
  }
  // Dual area: the kites around the vertex, each split into (vertex, edge midpoint, centre).
  for (int v = 0; v < 6; ++v) {
    double area = 0;
    for (int s = 0; s < 6; ++s) {
      const int e = g.v2e(v, s);
      if (e == missing_index) continue;
      for (int k = 0; k < 2; ++k) area += triangle_area(vert[v], mid[e], centre[g.e2c(e, k)]);
    }
    g.dual_area.push_back(r2 * area);
  }
  for (int l = 0; l < 3; ++l)
    g.refin_ctrl[l].assign(static_cast<std::size_t>(g.size(all_locations[l])), 0);
  compute_grid_zones(g);
  build_derived_connectivity(g);
  return g;
}

}  // namespace icondiff::test
