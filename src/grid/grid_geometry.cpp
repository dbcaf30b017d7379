// Grid geometry from vertex coordinates and connectivity (see grid_geometry.hpp for the
// definitions). Sources of the formulas:
//  * circumcentres, great-circle midpoints and the sign conventions of the normals and the three
//    orientation fields: icon_grid_format.md §5.1 and §5.3 (checked there against ICON grid files);
//  * tangent from the chord v1 − v0 and normal = midpoint × tangent: ICON4Py
//    model/common/src/icon4py/model/common/grid/geometry_stencils.py
//    (cartesian_coordinates_of_edge_tangent / _normal); the (east, north) components follow ICON's
//    cvec2gvec (mo_math_utilities.f90) through sphere::cartesian_to_local;
//  * the dual edge of a boundary edge ends at the edge midpoint: ICON4Py geometry_stencils.py
//    cell_center_arc_distance ("edge center for boundary edges");
//  * spherical triangle areas: Eriksson's formula (sphere::triangle_area); the dual cell is split
//    into half kites (vertex, edge midpoint, circumcentre), whose sum is the area of the polygon of
//    circumcentres because each dual edge passes through the midpoint of its primal edge.
#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid_geometry.hpp>

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace icondiff {

namespace {

using sphere::Vec3;

void require_table(const char* name, const HostTable<index_t>& t, index_t rows, std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    throw GridError(fmt::format(
        "compute_grid_geometry: table '{}' has shape ({}, {}), expected ({}, {}); the geometry "
        "is computed from c2v, c2e, e2v, e2c and v2e",
        name, t.rows(), t.cols(), rows, cols));
}

/// The vertex of cell `c` that is not an end of edge `e`.
index_t far_vertex(const Grid& g, index_t c, index_t e) {
  for (int j = 0; j < 3; ++j) {
    const index_t v = g.c2v(c, j);
    if (v != g.e2v(e, 0) && v != g.e2v(e, 1)) return v;
  }
  throw GridError(fmt::format(
      "compute_grid_geometry: cell {} does not have a vertex off its edge {} (c2v {}, {}, {}; "
      "e2v {}, {}); expected a triangle with the edge's two ends among its three vertices",
      c, e, g.c2v(c, 0), g.c2v(c, 1), g.c2v(c, 2), g.e2v(e, 0), g.e2v(e, 1)));
}

double sign_of(double x) {
  return x > 0.0 ? 1.0 : -1.0;
}

}  // namespace

void compute_grid_geometry(Grid& g) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  if (nc <= 0 || ne <= 0 || nv <= 0)
    throw GridError(
        fmt::format("compute_grid_geometry: cells/edges/vertices = {}/{}/{}, expected all positive",
                    nc, ne, nv));
  if (!(g.sphere_radius > 0.0) || !std::isfinite(g.sphere_radius))
    throw GridError(fmt::format(
        "compute_grid_geometry: sphere_radius is {}, expected a positive finite radius in metres",
        g.sphere_radius));
  if (g.vertex_lon.size() != static_cast<std::size_t>(nv) ||
      g.vertex_lat.size() != static_cast<std::size_t>(nv))
    throw GridError(fmt::format(
        "compute_grid_geometry: vertex_lon/vertex_lat have {}/{} values, expected {} (one per "
        "vertex)",
        g.vertex_lon.size(), g.vertex_lat.size(), nv));
  require_table("c2v", g.c2v, nc, 3);
  require_table("c2e", g.c2e, nc, 3);
  require_table("e2v", g.e2v, ne, 2);
  require_table("e2c", g.e2c, ne, 2);
  require_table("v2e", g.v2e, nv, 6);

  const double r = g.sphere_radius, r2 = r * r;
  const auto nc_s = static_cast<std::size_t>(nc), ne_s = static_cast<std::size_t>(ne),
             nv_s = static_cast<std::size_t>(nv);

  std::vector<Vec3> vertex(nv_s);
  for (std::size_t v = 0; v < nv_s; ++v)
    vertex[v] = sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);

  // ---- Cells: circumcentre and exact area. ----
  std::vector<Vec3> centre(nc_s);
  g.cell_lon.resize(nc_s);
  g.cell_lat.resize(nc_s);
  g.cell_area.resize(nc_s);
  for (std::size_t c = 0; c < nc_s; ++c) {
    const Vec3 a = vertex[g.c2v(c, 0)], b = vertex[g.c2v(c, 1)], d = vertex[g.c2v(c, 2)];
    centre[c] = sphere::circumcentre(a, b, d);
    g.cell_lon[c] = sphere::longitude(centre[c]);
    g.cell_lat[c] = sphere::latitude(centre[c]);
    g.cell_area[c] = r2 * sphere::triangle_area(a, b, d);
  }

  // ---- Edges: midpoint, lengths, normal direction, half kites of the dual cells. ----
  g.edge_lon.resize(ne_s);
  g.edge_lat.resize(ne_s);
  g.edge_length.resize(ne_s);
  g.dual_edge_length.resize(ne_s);
  g.edge_cell_distance = HostTable<double>(ne_s, 2, 0.0);
  g.edge_vertex_distance = HostTable<double>(ne_s, 2, 0.0);
  g.primal_normal_east.resize(ne_s);
  g.primal_normal_north.resize(ne_s);
  g.dual_normal_east.resize(ne_s);
  g.dual_normal_north.resize(ne_s);
  g.tangent_orientation.resize(ne_s);
  g.dual_area.assign(nv_s, 0.0);
  for (std::size_t e = 0; e < ne_s; ++e) {
    const auto ei = static_cast<index_t>(e);
    const index_t v0 = g.e2v(e, 0), v1 = g.e2v(e, 1);
    const Vec3 a = vertex[v0], b = vertex[v1];
    const Vec3 mid = sphere::normalize(a + b);
    const double mid_lon = sphere::longitude(mid), mid_lat = sphere::latitude(mid);
    g.edge_lon[e] = mid_lon;
    g.edge_lat[e] = mid_lat;
    g.edge_length[e] = r * sphere::arc_length(a, b);
    g.edge_vertex_distance(e, 0) = r * sphere::arc_length(mid, a);
    g.edge_vertex_distance(e, 1) = r * sphere::arc_length(mid, b);

    // Side of the great circle v0-v1 (positive: the side v0 x v1 points to) of each cell's far
    // vertex. The normal points from e2c[0] to e2c[1]; with one cell it is along v0 x v1.
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    if (c0 == missing_index)
      throw GridError(fmt::format(
          "compute_grid_geometry: edge {} has no cell in e2c slot 0; expected the edge's (only) "
          "cell there",
          e));
    double side[2] = {sphere::triple_product(a, b, vertex[far_vertex(g, c0, ei)]), 0.0};
    double orientation = 1.0;
    if (c1 != missing_index) {
      side[1] = sphere::triple_product(a, b, vertex[far_vertex(g, c1, ei)]);
      const double across = side[1] - side[0];
      if (!(std::fabs(across) > 0.0))
        throw GridError(fmt::format(
            "compute_grid_geometry: edge {} has its two cells {} and {} on the same side or "
            "degenerate; expected them on opposite sides of the edge",
            e, c0, c1));
      orientation = sign_of(across);
    }
    g.tangent_orientation[e] = orientation;

    // n = orientation * unit(mid x (v1 - v0)); t = n x mid, so t . (v1 - v0) has the sign of
    // `orientation` (the file's edge_system_orientation).
    const Vec3 normal = orientation * sphere::normalize(sphere::cross(mid, b - a));
    double east = 0, north = 0;
    sphere::cartesian_to_local(normal, mid_lon, mid_lat, east, north);
    const double length = std::hypot(east, north);
    g.primal_normal_east[e] = east / length;
    g.primal_normal_north[e] = north / length;
    g.dual_normal_east[e] = g.primal_normal_north[e];
    g.dual_normal_north[e] = -g.primal_normal_east[e];

    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k);
      if (c == missing_index) continue;
      g.edge_cell_distance(e, k) = r * sphere::arc_length(mid, centre[c]);
      // Half kites (v, mid, centre): counted negatively when the circumcentre lies beyond the
      // edge (obtuse triangle), so that their sum is the polygon of circumcentres.
      const double kite_sign =
          sign_of(sphere::triple_product(a, b, centre[c])) == sign_of(side[k]) ? 1.0 : -1.0;
      g.dual_area[v0] += kite_sign * r2 * sphere::triangle_area(a, mid, centre[c]);
      g.dual_area[v1] += kite_sign * r2 * sphere::triangle_area(b, mid, centre[c]);
    }
    g.dual_edge_length[e] = c1 == missing_index ? g.edge_cell_distance(e, 0)
                                                : r * sphere::arc_length(centre[c0], centre[c1]);
  }

  // ---- Orientations seen from cells and vertices. ----
  g.cell_edge_orientation = HostTable<double>(nc_s, 3, 0.0);
  for (std::size_t c = 0; c < nc_s; ++c)
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      const Vec3 w = vertex[far_vertex(g, static_cast<index_t>(c), e)];
      const double cell_side = sphere::triple_product(vertex[g.e2v(e, 0)], vertex[g.e2v(e, 1)], w);
      // The normal is orientation * (v0 x v1) in direction: outwards iff it points away from
      // the cell's far vertex.
      g.cell_edge_orientation(c, j) = g.tangent_orientation[e] * cell_side < 0.0 ? 1.0 : -1.0;
    }
  // At v0 the direction v0 x v1 is counter-clockwise around v0, at v1 clockwise around v1.
  g.vertex_edge_orientation = HostTable<double>(nv_s, 6, 0.0);
  for (std::size_t v = 0; v < nv_s; ++v)
    for (int s = 0; s < 6; ++s) {
      const index_t e = g.v2e(v, s);
      if (e == missing_index) continue;
      const double end_sign = g.e2v(e, 0) == static_cast<index_t>(v) ? 1.0 : -1.0;
      g.vertex_edge_orientation(v, s) = end_sign * g.tangent_orientation[e];
    }
}

}  // namespace icondiff
