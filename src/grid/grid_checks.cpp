#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid_checks.hpp>

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace icondiff {

GridConsistencyError::GridConsistencyError(std::string table, long long row,
                                           const std::string& problem)
    : GridError(fmt::format("grid table '{}', row {}: {}", table, row, problem)),
      table_(std::move(table)),
      row_(row),
      problem_(problem) {}

namespace {

[[noreturn]] void fail(const std::string& table, long long row, const std::string& problem) {
  throw GridConsistencyError(table, row, problem);
}

void check_shape(const std::string& name, const HostTable<index_t>& t, index_t rows, int cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != static_cast<std::size_t>(cols))
    fail(name, -1,
         fmt::format("has shape ({}, {}), expected ({}, {})", t.rows(), t.cols(), rows, cols));
}

/// Every entry is a valid index below `target_size`, or missing where `may_miss(slot)` allows.
template <class MayMiss>
void check_indices(const std::string& name, const HostTable<index_t>& t, index_t target_size,
                   const char* target, MayMiss may_miss) {
  for (std::size_t r = 0; r < t.rows(); ++r)
    for (std::size_t s = 0; s < t.cols(); ++s) {
      const index_t v = t(r, s);
      if (v == missing_index) {
        if (!may_miss(s))
          fail(name, static_cast<long long>(r),
               fmt::format("slot {} is missing, but every {} must have one here", s, target));
      } else if (v < 0 || v >= target_size) {
        fail(name, static_cast<long long>(r),
             fmt::format("slot {} holds {} index {}, outside [0, {})", s, target, v, target_size));
      }
    }
}

bool row_contains(const HostTable<index_t>& t, index_t row, index_t value) {
  for (std::size_t s = 0; s < t.cols(); ++s)
    if (t(row, s) == value) return true;
  return false;
}

void check_distinct(const std::string& name, const HostTable<index_t>& t) {
  for (std::size_t r = 0; r < t.rows(); ++r)
    for (std::size_t a = 0; a < t.cols(); ++a)
      for (std::size_t b = a + 1; b < t.cols(); ++b)
        if (t(r, a) != missing_index && t(r, a) == t(r, b))
          fail(name, static_cast<long long>(r),
               fmt::format("slots {} and {} both hold {}", a, b, t(r, a)));
}

void check_size(const std::string& name, std::size_t size, index_t expected) {
  if (size != static_cast<std::size_t>(expected))
    fail(name, -1, fmt::format("has {} values, expected {}", size, expected));
}

void check_positive(const std::string& name, const std::vector<double>& v, index_t expected,
                    const char* what) {
  if (v.empty()) return;
  check_size(name, v.size(), expected);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]) || !(v[i] > 0.0))
      fail(name, static_cast<long long>(i),
           fmt::format("value {} is not a positive finite {}", v[i], what));
}

void check_finite(const std::string& name, const std::vector<double>& v, index_t expected) {
  if (v.empty()) return;
  check_size(name, v.size(), expected);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) fail(name, static_cast<long long>(i), "value is not finite");
}

void check_sign(const std::string& name, const std::vector<double>& v, index_t expected) {
  if (v.empty()) return;
  check_size(name, v.size(), expected);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != 1.0 && v[i] != -1.0)
      fail(name, static_cast<long long>(i), fmt::format("value {} is not +1 or -1", v[i]));
}

}  // namespace

void check_connectivity(const Grid& g) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  if (nc <= 0 || ne <= 0 || nv <= 0)
    fail("sizes", -1,
         fmt::format("cells/edges/vertices = {}/{}/{}, expected all positive", nc, ne, nv));
  check_shape("c2e", g.c2e, nc, 3);
  check_shape("c2v", g.c2v, nc, 3);
  check_shape("c2e2c", g.c2e2c, nc, 3);
  check_shape("e2c", g.e2c, ne, 2);
  check_shape("e2v", g.e2v, ne, 2);
  check_shape("v2e", g.v2e, nv, 6);
  check_shape("v2c", g.v2c, nv, 6);

  const auto never = [](std::size_t) { return false; };
  const auto always = [](std::size_t) { return true; };
  check_indices("c2e", g.c2e, ne, "edge", never);
  check_indices("c2v", g.c2v, nv, "vertex", never);
  check_indices("c2e2c", g.c2e2c, nc, "cell", always);
  // A rank's outermost halo edges lack the cell beyond the halo, in either slot (make_local_grid
  // and ICON renumber it as missing); on one rank only the boundary cell of slot 1 may be.
  const bool decomposed = g.num_ranks > 1;
  check_indices("e2c", g.e2c, nc, "cell",
                [decomposed](std::size_t slot) { return slot == 1 || decomposed; });
  for (index_t e = 0; e < ne && decomposed; ++e)
    if (g.e2c(e, 0) == missing_index && g.e2c(e, 1) == missing_index)
      fail("e2c", e, "both cells are missing: every edge has at least one");
  check_indices("e2v", g.e2v, nv, "vertex", never);
  check_indices("v2e", g.v2e, ne, "edge", always);
  check_indices("v2c", g.v2c, nc, "cell", always);
  check_distinct("c2e", g.c2e);
  check_distinct("c2v", g.c2v);
  check_distinct("e2v", g.e2v);
  check_distinct("v2e", g.v2e);
  check_distinct("v2c", g.v2c);

  // E2C against C2E, in both directions; E2V against C2V.
  for (index_t e = 0; e < ne; ++e)
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k);
      if (c == missing_index) continue;
      if (!row_contains(g.c2e, c, e))
        fail("e2c", e,
             fmt::format("lists cell {} in slot {}, but that cell's edges (c2e) are {}, {}, {}", c,
                         k, g.c2e(c, 0), g.c2e(c, 1), g.c2e(c, 2)));
      for (int m = 0; m < 2; ++m)
        if (!row_contains(g.c2v, c, g.e2v(e, m)))
          fail("e2v", e,
               fmt::format("vertex {} of the edge is not a vertex of its adjacent cell {}",
                           g.e2v(e, m), c));
    }
  for (index_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      if (!row_contains(g.e2c, e, c))
        fail("c2e", c,
             fmt::format("lists edge {} in slot {}, but that edge's cells (e2c) are {}, {}", e, j,
                         g.e2c(e, 0), g.e2c(e, 1)));
      // C2E2C[c, j] is the cell across C2E[c, j].
      const index_t across = g.e2c(e, 0) == c ? g.e2c(e, 1) : g.e2c(e, 0);
      if (g.c2e2c(c, j) != across)
        fail("c2e2c", c,
             fmt::format("slot {} holds cell {}, but the cell across edge {} (c2e slot {}) is {}",
                         j, g.c2e2c(c, j), e, j, across));
    }

  // V2E and V2C against E2V and C2V, entries and counts (so no edge or cell is left out).
  std::vector<int> edges_at(static_cast<std::size_t>(nv), 0),
      cells_at(static_cast<std::size_t>(nv), 0);
  for (index_t e = 0; e < ne; ++e)
    for (int m = 0; m < 2; ++m) ++edges_at[g.e2v(e, m)];
  for (index_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) ++cells_at[g.c2v(c, j)];
  for (index_t v = 0; v < nv; ++v) {
    int n_edges = 0, n_cells = 0;
    for (int s = 0; s < 6; ++s) {
      const index_t e = g.v2e(v, s);
      if (e != missing_index) {
        ++n_edges;
        if (g.e2v(e, 0) != v && g.e2v(e, 1) != v)
          fail("v2e", v,
               fmt::format("slot {} holds edge {}, whose vertices (e2v) are {}, {}", s, e,
                           g.e2v(e, 0), g.e2v(e, 1)));
      }
      const index_t c = g.v2c(v, s);
      if (c != missing_index) {
        ++n_cells;
        if (!row_contains(g.c2v, c, v))
          fail("v2c", v,
               fmt::format("slot {} holds cell {}, whose vertices (c2v) do not include it", s, c));
      }
    }
    if (n_edges != edges_at[v])
      fail("v2e", v,
           fmt::format("lists {} edges, but {} edges (e2v) end at this vertex", n_edges,
                       edges_at[v]));
    if (n_cells != cells_at[v])
      fail(
          "v2c", v,
          fmt::format("lists {} cells, but {} cells (c2v) have this vertex", n_cells, cells_at[v]));
  }
}

namespace {
void check_cell_geometry(const Grid& g);
void check_edge_geometry(const Grid& g);
void check_coverage(const Grid& g);
}  // namespace

void check_geometry(const Grid& g) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  check_finite("cell_lon", g.cell_lon, nc);
  check_finite("cell_lat", g.cell_lat, nc);
  check_finite("edge_lon", g.edge_lon, ne);
  check_finite("edge_lat", g.edge_lat, ne);
  check_finite("vertex_lon", g.vertex_lon, nv);
  check_finite("vertex_lat", g.vertex_lat, nv);
  check_positive("cell_area", g.cell_area, nc, "area");
  check_positive("dual_area", g.dual_area, nv, "area");
  check_positive("edge_length", g.edge_length, ne, "length");
  check_positive("dual_edge_length", g.dual_edge_length, ne, "length");
  check_finite("primal_normal_east", g.primal_normal_east, ne);
  check_finite("primal_normal_north", g.primal_normal_north, ne);
  check_finite("dual_normal_east", g.dual_normal_east, ne);
  check_finite("dual_normal_north", g.dual_normal_north, ne);
  check_sign("tangent_orientation", g.tangent_orientation, ne);

  if (!g.edge_vertex_distance.empty())
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < 2; ++k) {
        const double d = g.edge_vertex_distance(e, k);
        if (!std::isfinite(d) || !(d > 0.0))
          fail("edge_vertex_distance", e,
               fmt::format("slot {} is {}, expected a positive finite length", k, d));
      }
  if (!g.edge_cell_distance.empty())
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < 2; ++k) {
        if (g.e2c(e, k) == missing_index) continue;  // junk in files at boundary edges
        const double d = g.edge_cell_distance(e, k);
        if (!std::isfinite(d) || !(d > 0.0))
          fail("edge_cell_distance", e,
               fmt::format("slot {} (cell {}) is {}, expected a positive finite length", k,
                           g.e2c(e, k), d));
      }
  const auto check_unit = [&](const char* name, const std::vector<double>& x,
                              const std::vector<double>& y) {
    if (x.empty() || y.empty()) return;
    for (index_t e = 0; e < ne; ++e) {
      const double norm2 = x[e] * x[e] + y[e] * y[e];
      if (std::fabs(norm2 - 1.0) > 1e-6)
        fail(name, e, fmt::format("(east, north) = ({}, {}) is not a unit vector", x[e], y[e]));
    }
  };
  check_unit("primal_normal", g.primal_normal_east, g.primal_normal_north);
  check_unit("dual_normal", g.dual_normal_east, g.dual_normal_north);
  if (!g.cell_edge_orientation.empty())
    for (index_t c = 0; c < nc; ++c)
      for (int j = 0; j < 3; ++j) {
        const double o = g.cell_edge_orientation(c, j);
        if (o != 1.0 && o != -1.0)
          fail("cell_edge_orientation", c, fmt::format("slot {} is {}, expected +1 or -1", j, o));
      }
  if (!g.vertex_edge_orientation.empty())
    for (index_t v = 0; v < nv; ++v)
      for (int s = 0; s < 6; ++s) {
        const double o = g.vertex_edge_orientation(v, s);
        const bool present = g.v2e(v, s) != missing_index;
        if (present ? (o != 1.0 && o != -1.0) : o != 0.0)
          fail("vertex_edge_orientation", v,
               fmt::format("slot {} is {}, expected {}", s, o,
                           present ? "+1 or -1" : "0 (no edge)"));
      }
  check_cell_geometry(g);
  check_edge_geometry(g);
  check_coverage(g);
}

namespace {

/// The geometric consistency of cells: centre inside the triangle of its vertices, area of that
/// spherical triangle, and the orientation of each edge's normal relative to the cell. These are
/// what a wrong but finite grid gets wrong (a flipped orientation_of_normal in one cell, a centre
/// moved away from its vertices) while every value stays finite and of the right sign.
void check_cell_geometry(const Grid& g) {
  const index_t nc = g.num_cells;
  const bool have_vertices = !g.vertex_lon.empty() && !g.vertex_lat.empty();
  const bool have_centres = !g.cell_lon.empty() && !g.cell_lat.empty();
  if (!have_vertices || !have_centres) return;
  const auto vertex = [&](index_t v) {
    return sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
  };
  const double radius2 = g.sphere_radius * g.sphere_radius;
  for (index_t c = 0; c < nc; ++c) {
    const sphere::Vec3 a = vertex(g.c2v(c, 0)), b = vertex(g.c2v(c, 1)), d = vertex(g.c2v(c, 2));
    const sphere::Vec3 centre = sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]);
    // Inside: the centre is on the triangle's side of each of its three great circles.
    const double whole = sphere::triple_product(a, b, d);
    const double sides[3] = {sphere::triple_product(a, b, centre),
                             sphere::triple_product(b, d, centre),
                             sphere::triple_product(d, a, centre)};
    for (int j = 0; j < 3; ++j)
      if (sides[j] * (whole > 0 ? 1.0 : -1.0) < -0.1 * std::fabs(whole))
        fail("cell_lon/cell_lat", c,
             fmt::format("the cell centre ({:.6f}, {:.6f}) rad lies outside the triangle of its "
                         "vertices {}, {}, {}",
                         g.cell_lon[c], g.cell_lat[c], g.c2v(c, 0), g.c2v(c, 1), g.c2v(c, 2)));
    if (!g.cell_area.empty()) {
      const double expected = sphere::triangle_area(a, b, d) * radius2;
      if (std::fabs(g.cell_area[c] - expected) > 0.01 * expected)
        fail("cell_area", c,
             fmt::format("is {:.6e} m2, but the spherical triangle of its vertices has {:.6e} m2 "
                         "(more than 1 % apart)",
                         g.cell_area[c], expected));
    }
    const bool have_normals = !g.cell_edge_orientation.empty() && !g.edge_lon.empty() &&
                              !g.primal_normal_east.empty() && !g.primal_normal_north.empty();
    if (!have_normals) continue;
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      const sphere::Vec3 midpoint = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
      const sphere::Vec3 normal = sphere::local_to_cartesian(
          g.primal_normal_east[e], g.primal_normal_north[e], g.edge_lon[e], g.edge_lat[e]);
      const double outward = sphere::dot(normal, midpoint - centre) > 0 ? 1.0 : -1.0;
      if (g.cell_edge_orientation(c, j) != outward)
        fail("cell_edge_orientation", c,
             fmt::format("slot {} (edge {}) is {:+.0f}, but that edge's primal normal points {} "
                         "the cell: expected {:+.0f}",
                         j, e, g.cell_edge_orientation(c, j), outward > 0 ? "out of" : "into",
                         outward));
    }
  }
}

/// The metric of the edges against the positions of their vertices, cell centres and midpoints,
/// and the directions of normals and tangents against the connectivity.
/// Tolerance 0.1 % for lengths and distances: the real grids agree to 2e-9 (edge_cell_distance
/// of R19B04; edge_length 8e-11, dual_edge_length 1e-9), so 0.1 % leaves room for files written
/// in single precision or by other generators, and refuses any scaling that matters (a length
/// × 1e-9 or × 1000 once made the vertical grid or vn fail far from the cause).
void check_edge_geometry(const Grid& g) {
  const index_t ne = g.num_edges, nv = g.num_vertices;
  const bool have_points = !g.vertex_lon.empty() && !g.vertex_lat.empty() && !g.cell_lon.empty() &&
                           !g.cell_lat.empty() && !g.edge_lon.empty() && !g.edge_lat.empty();
  if (!have_points) return;
  const double r = g.sphere_radius;
  const auto vertex = [&](index_t v) {
    return sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
  };
  const auto centre = [&](index_t c) { return sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]); };
  const auto midpoint = [&](index_t e) {
    return sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
  };
  const auto rel = [](double value, double expected) {
    return std::fabs(value - expected) / expected;
  };
  const bool have_normals = !g.primal_normal_east.empty() && !g.primal_normal_north.empty();
  // Directions first: a swapped pair of cells or vertices also moves the distances of its slots,
  // and is better named as what it is.
  if (have_normals)
    for (index_t e = 0; e < ne; ++e) {
      const index_t v0 = g.e2v(e, 0), v1 = g.e2v(e, 1);
      const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
      const sphere::Vec3 a = vertex(v0), b = vertex(v1), mid = midpoint(e);
      const sphere::Vec3 normal = sphere::local_to_cartesian(
          g.primal_normal_east[e], g.primal_normal_north[e], g.edge_lon[e], g.edge_lat[e]);
      const sphere::Vec3 chord = b - a;
      // Direction cosines below are exact to ~1e-14 on real grids; 1e-3 (0.06 degrees) only
      // refuses a normal that is not the edge's.
      const double along = sphere::dot(normal, chord) / sphere::norm(chord);
      if (std::fabs(along) > 1e-3)
        fail("primal_normal", e,
             fmt::format("is not perpendicular to the edge from vertex {} to vertex {} (direction "
                         "cosine {:.3e} with it)",
                         v0, v1, along));
      if (c0 != missing_index && c1 != missing_index) {
        // ICON's primal normal points from the cell in slot 0 to the cell in slot 1. The normal
        // itself agrees with orientation_of_normal (checked above), so a contradiction here is
        // the order of adjacent_cell_of_edge.
        const double across = sphere::dot(normal, centre(c1) - centre(c0));
        if (!(across > 0.0))
          fail("e2c", e,
               fmt::format("holds cell {} in slot 0 and cell {} in slot 1, but the edge's primal "
                           "normal points from cell {} to cell {}: ICON's normal points from "
                           "slot 0's cell to slot 1's (cells swapped?)",
                           c0, c1, c1, c0));
      }
      const sphere::Vec3 tangent = sphere::cross(normal, mid);
      if (!g.dual_normal_east.empty() && !g.dual_normal_north.empty()) {
        const sphere::Vec3 dual = sphere::local_to_cartesian(
            g.dual_normal_east[e], g.dual_normal_north[e], g.edge_lon[e], g.edge_lat[e]);
        if (sphere::dot(dual, tangent) < 1.0 - 1e-3)
          fail("dual_normal", e,
               fmt::format("(east, north) = ({}, {}) is not the tangent n x r of the primal "
                           "normal, ({:.6f}, {:.6f})",
                           g.dual_normal_east[e], g.dual_normal_north[e], g.primal_normal_north[e],
                           -g.primal_normal_east[e]));
      }
      if (!g.tangent_orientation.empty()) {
        // edge_system_orientation = sign(t . (v1 - v0)), t = n x r: one equation in the order of
        // edge_vertices and the sign of edge_system_orientation, so a contradiction names both.
        const double t = sphere::dot(tangent, chord) / sphere::norm(chord);
        if (!(t * g.tangent_orientation[e] > 0.0))
          fail("e2v/tangent_orientation", e,
               fmt::format("edge_system_orientation is {:+.0f}, but the edge's tangent (n x r of "
                           "its primal normal) points from vertex {} (edge_vertices slot 1) to "
                           "vertex {} (slot 0), which needs {:+.0f}: the edge's vertices are "
                           "swapped or its edge_system_orientation is negated",
                           g.tangent_orientation[e], v1, v0, -g.tangent_orientation[e]));
      }
    }

  for (index_t e = 0; e < ne; ++e) {
    const index_t v0 = g.e2v(e, 0), v1 = g.e2v(e, 1);
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    const sphere::Vec3 a = vertex(v0), b = vertex(v1), mid = midpoint(e);
    const double arc = r * sphere::arc_length(a, b);
    if (!g.edge_length.empty()) {
      if (rel(g.edge_length[e], arc) > 1e-3)
        fail("edge_length", e,
             fmt::format("is {:.6e} m, but its vertices {} and {} are {:.6e} m apart on the "
                         "sphere of radius {} m (more than 0.1 % apart)",
                         g.edge_length[e], v0, v1, arc, r));
    }
    if (!g.edge_vertex_distance.empty())
      for (int k = 0; k < 2; ++k) {
        const double expected = r * sphere::arc_length(mid, k == 0 ? a : b);
        if (rel(g.edge_vertex_distance(e, k), expected) > 1e-3)
          fail("edge_vertex_distance", e,
               fmt::format("slot {} is {:.6e} m, but the edge midpoint is {:.6e} m from vertex {} "
                           "(more than 0.1 % apart)",
                           k, g.edge_vertex_distance(e, k), expected, k == 0 ? v0 : v1));
      }
    if (!g.edge_cell_distance.empty())
      for (int k = 0; k < 2; ++k) {
        const index_t c = g.e2c(e, k);
        if (c == missing_index) continue;
        const double expected = r * sphere::arc_length(mid, centre(c));
        if (rel(g.edge_cell_distance(e, k), expected) > 1e-3)
          fail("edge_cell_distance", e,
               fmt::format("slot {} is {:.6e} m, but the edge midpoint is {:.6e} m from the "
                           "centre of cell {} (more than 0.1 % apart)",
                           k, g.edge_cell_distance(e, k), expected, c));
      }
    if (!g.dual_edge_length.empty()) {
      if (c0 != missing_index && c1 != missing_index) {
        const double expected = r * sphere::arc_length(centre(c0), centre(c1));
        if (rel(g.dual_edge_length[e], expected) > 1e-3)
          fail("dual_edge_length", e,
               fmt::format("is {:.6e} m, but the centres of its cells {} and {} are {:.6e} m "
                           "apart (more than 0.1 % apart)",
                           g.dual_edge_length[e], c0, c1, expected));
      } else if (c0 != missing_index) {  // a boundary edge's dual edge ends at its midpoint
        const double expected = r * sphere::arc_length(mid, centre(c0));
        if (rel(g.dual_edge_length[e], expected) > 1e-3)
          fail("dual_edge_length", e,
               fmt::format("is {:.6e} m, but the edge's only cell {} has its centre {:.6e} m from "
                           "the edge midpoint (more than 0.1 % apart)",
                           g.dual_edge_length[e], c0, expected));
      }
    }
  }

  if (!have_normals) return;
  // edge_orientation: +1 exactly when the edge's normal circulates counter-clockwise around the
  // vertex (v x m is that direction at the midpoint m).
  if (!g.vertex_edge_orientation.empty())
    for (index_t v = 0; v < nv; ++v)
      for (int s = 0; s < 6; ++s) {
        const index_t e = g.v2e(v, s);
        if (e == missing_index) continue;
        const sphere::Vec3 normal = sphere::local_to_cartesian(
            g.primal_normal_east[e], g.primal_normal_north[e], g.edge_lon[e], g.edge_lat[e]);
        const sphere::Vec3 around = sphere::cross(vertex(v), midpoint(e));
        const double ccw = sphere::dot(normal, around) / sphere::norm(around);
        if (!(ccw * g.vertex_edge_orientation(v, s) > 0.0))
          fail("vertex_edge_orientation", v,
               fmt::format("slot {} (edge {}) is {:+.0f}, but that edge's primal normal "
                           "circulates {} around the vertex: expected {:+.0f}",
                           s, e, g.vertex_edge_orientation(v, s),
                           ccw > 0 ? "counter-clockwise" : "clockwise", ccw > 0 ? 1.0 : -1.0));
      }
  // dual_area: the polygon of the centres of the vertex's cells, summed as the half kites
  // (vertex, edge midpoint, cell centre), each counted negatively when the centre lies beyond the
  // edge (as compute_grid_geometry does); truncated at a lateral boundary as ICON's LAM files
  // truncate it. Real grids: within 1.6e-4 (R02B03), 4e-7 (R19B04 and its parent).
  if (!g.dual_area.empty()) {
    std::vector<double> kites(static_cast<std::size_t>(nv), 0.0);
    for (index_t e = 0; e < ne; ++e) {
      const index_t v0 = g.e2v(e, 0), v1 = g.e2v(e, 1);
      const sphere::Vec3 a = vertex(v0), b = vertex(v1), mid = midpoint(e);
      for (int k = 0; k < 2; ++k) {
        const index_t c = g.e2c(e, k);
        if (c == missing_index) continue;
        index_t far = missing_index;
        for (int j = 0; j < 3; ++j)
          if (g.c2v(c, j) != v0 && g.c2v(c, j) != v1) far = g.c2v(c, j);
        if (far == missing_index) continue;  // refused by check_connectivity
        const sphere::Vec3 cc = centre(c);
        const double side = sphere::triple_product(a, b, vertex(far));
        const double kite_sign = (sphere::triple_product(a, b, cc) > 0) == (side > 0) ? 1.0 : -1.0;
        kites[v0] += kite_sign * r * r * sphere::triangle_area(a, mid, cc);
        kites[v1] += kite_sign * r * r * sphere::triangle_area(b, mid, cc);
      }
    }
    for (index_t v = 0; v < nv; ++v) {
      const double d = rel(g.dual_area[v], kites[v]);
      if (d > 1e-3)
        fail("dual_area", v,
             fmt::format("is {:.6e} m2, but the polygon of the centres of its cells has {:.6e} "
                         "m2 (more than 0.1 % apart)",
                         g.dual_area[v], kites[v]));
    }
  }
}

/// Whether the cells cover the sphere (global) or leave a lateral boundary that the refinement
/// control marks.
void check_coverage(const Grid& g) {
  if (g.num_ranks > 1) return;  // a rank's part has halo edges with one cell
  const index_t ne = g.num_edges;
  index_t boundary_edges = 0;
  const IndexRange row1 = g.zones[static_cast<int>(Location::Edge)].range(Zone::LateralBoundary1);
  for (index_t e = 0; e < ne; ++e) {
    if (g.e2c(e, 1) != missing_index) continue;
    ++boundary_edges;
    // Kernels read both cells of every edge outside boundary row 1 (e.g. compute_ddxn_z_full).
    if (e < row1.start || e >= row1.end) {
      const int refin = g.refin_ctrl[1].empty() ? 0 : g.refin_ctrl[1][e];
      fail("refin_e_ctrl", e,
           fmt::format("edge {} has one cell (adjacent_cell_of_edge slot 1 is missing), so it "
                       "lies on the lateral boundary, but its refin_e_ctrl is {}, not 1 (lateral "
                       "boundary row 1){}",
                       e, refin,
                       g.limited_area ? ""
                                      : ": no cell is marked as a lateral boundary row, so the "
                                        "grid would be taken for a global one although its "
                                        "cells do not cover the sphere"));
    }
  }
  if (boundary_edges > 0) return;
  // Every edge has two cells: a closed surface, which must be the sphere.
  const long long euler = static_cast<long long>(g.num_vertices) - g.num_edges + g.num_cells;
  if (euler != 2)
    fail("", -1,
         fmt::format("every edge has two cells, but vertices - edges + cells = {} - {} + {} = {}, "
                     "expected 2 for cells that cover the sphere",
                     g.num_vertices, g.num_edges, g.num_cells, euler));
  constexpr double pi = 3.14159265358979323846;
  const double sphere_area = 4.0 * pi * g.sphere_radius * g.sphere_radius;
  // R02B03's cell_area and dual_area add up to 4 pi R^2 within 1.6e-4 (its areas are not exact
  // spherical triangles); 0.1 % refuses a grid that leaves part of the sphere uncovered.
  const auto check_sum = [&](const char* name, const std::vector<double>& areas) {
    if (areas.empty()) return;
    double sum = 0.0;
    for (const double a : areas) sum += a;
    const double d = std::fabs(sum - sphere_area) / sphere_area;
    if (d > 1e-3)
      fail(name, -1,
           fmt::format("the areas add up to {:.6e} m2, but a global grid covers the sphere of "
                       "radius {} m, {:.6e} m2 (more than 0.1 % apart)",
                       sum, g.sphere_radius, sphere_area));
  };
  check_sum("cell_area", g.cell_area);
  check_sum("dual_area", g.dual_area);
}

}  // namespace

void check_grid(const Grid& g) {
  check_connectivity(g);
  check_shape("c2e2co", g.c2e2co, g.num_cells, 4);
  check_shape("e2c2v", g.e2c2v, g.num_edges, 4);
  check_shape("e2c2e", g.e2c2e, g.num_edges, 4);
  check_shape("e2c2eo", g.e2c2eo, g.num_edges, 5);
  check_geometry(g);
}

}  // namespace icondiff
