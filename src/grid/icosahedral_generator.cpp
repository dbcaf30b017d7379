// The global icosahedral grid generator (see icosahedral_generator.hpp).
//
// Sources: the RnBk construction (root division of the icosahedron's edges into n arcs, then k
// bisections into great-circle midpoints) is ICON's, as described in Wan et al. 2013 (GMD 6,
// 735–763) and in icon_grid_format.md §1; the icosahedron's orientation and the table
// conventions (e2v and e2c sorted by index, clockwise V2E) were read off ICON's global grid
// icon_grid_0009_R02B03_R.nc (icon_grid_format.md §5.2).
//
// Structure: every face of the icosahedron carries a triangular lattice (i, j), i + j <= N with
// N = n·2^k, point A + i/N·(B − A) + j/N·(C − A) in the face's corners (A, B, C). Lattice points
// on a face's sides belong to an icosahedron edge and are numbered once per edge, so the faces
// share them without any search. Their positions agree bit for bit between the two faces of an
// edge: root points are computed once per edge in a fixed direction, and a bisection point is
// normalize(p + q), which does not depend on the order of p and q.
#include "vertex_tables.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/geometry/grid_geometry.hpp>
#include <icondiff/geometry/sphere.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace icondiff {

namespace {

using sphere::Vec3;
constexpr double pi = 3.14159265358979323846;

struct Icosahedron {
  std::array<Vec3, 12> vertex;
  std::array<std::array<int, 3>, 20> face;  ///< counter-clockwise seen from outside
  std::array<std::array<int, 2>, 30> edge;  ///< (lower, higher) vertex
};

/// Vertex 0 at the north pole, 1..5 the northern ring at longitudes 0°, 72°, …, 6..10 the southern
/// ring at 36°, 108°, …, 11 the south pole; rings at latitude ±atan(1/2). Faces column by column
/// (north cap, upper band, lower band, south cap of each 72° sector), so consecutive faces share
/// an edge.
Icosahedron make_icosahedron() {
  Icosahedron ico;
  const double ring_lat = std::atan(0.5);
  ico.vertex[0] = {0.0, 0.0, 1.0};
  ico.vertex[11] = {0.0, 0.0, -1.0};
  for (int k = 0; k < 5; ++k) {
    ico.vertex[1 + k] = sphere::to_cartesian(2.0 * pi * k / 5.0, ring_lat);
    ico.vertex[6 + k] = sphere::to_cartesian(2.0 * pi * (k + 0.5) / 5.0, -ring_lat);
  }
  for (int k = 0; k < 5; ++k) {
    const int n0 = 1 + k, n1 = 1 + (k + 1) % 5, s0 = 6 + k, s1 = 6 + (k + 1) % 5;
    ico.face[4 * k + 0] = {0, n0, n1};
    ico.face[4 * k + 1] = {n0, s0, n1};
    ico.face[4 * k + 2] = {s0, s1, n1};
    ico.face[4 * k + 3] = {11, s1, s0};
  }
  int ne = 0;
  for (const auto& f : ico.face)
    for (int j = 0; j < 3; ++j) {
      const int a = std::min(f[j], f[(j + 1) % 3]), b = std::max(f[j], f[(j + 1) % 3]);
      bool known = false;
      for (int e = 0; e < ne; ++e) known = known || (ico.edge[e][0] == a && ico.edge[e][1] == b);
      if (!known) ico.edge[ne++] = {a, b};
    }
  return ico;
}

int icosahedron_edge(const Icosahedron& ico, int a, int b) {
  const int lo = std::min(a, b), hi = std::max(a, b);
  for (int e = 0; e < 30; ++e)
    if (ico.edge[e][0] == lo && ico.edge[e][1] == hi) return e;
  throw GridError(fmt::format("icosahedron: no edge between vertices {} and {}", a, b));
}

/// Point at fraction t of the great-circle arc from a to b (equal-angle division).
Vec3 slerp(Vec3 a, Vec3 b, double t) {
  const double angle = sphere::arc_length(a, b);
  const double s = std::sin(angle);
  return (std::sin((1.0 - t) * angle) / s) * a + (std::sin(t * angle) / s) * b;
}

/// One face's lattice: index of (i, j), rows j of N + 1 − j points.
struct Lattice {
  std::int64_t n;
  std::int64_t index(std::int64_t i, std::int64_t j) const {
    return j * (n + 1) - j * (j - 1) / 2 + i;
  }
  std::int64_t size() const { return (n + 1) * (n + 2) / 2; }
};

/// Global vertex numbers before renumbering: 12 icosahedron vertices, then N − 1 points per
/// icosahedron edge (from its lower to its higher vertex), then (N − 1)(N − 2)/2 per face.
class ProvisionalVertexIds {
 public:
  ProvisionalVertexIds(const Icosahedron& ico, std::int64_t n) : ico_(ico), n_(n) {}

  std::int64_t operator()(int face, std::int64_t i, std::int64_t j) const {
    const auto& f = ico_.face[face];
    if (i == 0 && j == 0) return f[0];
    if (i == n_ && j == 0) return f[1];
    if (i == 0 && j == n_) return f[2];
    if (j == 0) return on_edge(f[0], f[1], i);
    if (i == 0) return on_edge(f[0], f[2], j);
    if (i + j == n_) return on_edge(f[1], f[2], j);
    // Interior: rows j = 1..N−2 with i = 1..N−1−j.
    const std::int64_t before_row = (j - 1) * (n_ - 2) - (j - 1) * (j - 2) / 2;
    return 12 + 30 * (n_ - 1) + face * ((n_ - 1) * (n_ - 2) / 2) + before_row + (i - 1);
  }
  std::int64_t count() const { return 10 * n_ * n_ + 2; }

 private:
  /// The point at `t` steps from corner `from` towards corner `to`.
  std::int64_t on_edge(int from, int to, std::int64_t t) const {
    const int e = icosahedron_edge(ico_, from, to);
    const std::int64_t steps_from_lower = from < to ? t : n_ - t;
    return 12 + e * (n_ - 1) + (steps_from_lower - 1);
  }
  const Icosahedron& ico_;
  std::int64_t n_;
};

/// Positions of one face's lattice points: root division, then bisections.
void face_positions(const Icosahedron& ico, int face, int root, int bisections,
                    std::vector<Vec3>& pos) {
  const std::int64_t step = std::int64_t{1} << bisections;
  const Lattice lat{root * step};
  pos.assign(static_cast<std::size_t>(lat.size()), Vec3{});
  const auto& f = ico.face[face];
  const Vec3 corner[3] = {ico.vertex[f[0]], ico.vertex[f[1]], ico.vertex[f[2]]};
  const auto at = [&](std::int64_t i, std::int64_t j) -> Vec3& {
    return pos[static_cast<std::size_t>(lat.index(i, j))];
  };
  // Equal arcs along an icosahedron edge, always from its lower to its higher vertex.
  const auto edge_point = [&](int from, int to, int t) {
    return from < to
               ? slerp(ico.vertex[from], ico.vertex[to], static_cast<double>(t) / root)
               : slerp(ico.vertex[to], ico.vertex[from], static_cast<double>(root - t) / root);
  };

  // ---- Root division (lattice spacing `step`). Barycentric (a, b, c) = (root − I − J, I, J). ----
  for (int jr = 0; jr <= root; ++jr)
    for (int ir = 0; ir + jr <= root; ++ir) {
      const int a = root - ir - jr, b = ir, c = jr;
      Vec3 p;
      if (b == 0 && c == 0) {
        p = corner[0];
      } else if (a == 0 && c == 0) {
        p = corner[1];
      } else if (a == 0 && b == 0) {
        p = corner[2];
      } else if (c == 0) {
        p = edge_point(f[0], f[1], b);
      } else if (b == 0) {
        p = edge_point(f[0], f[2], c);
      } else if (a == 0) {
        p = edge_point(f[1], f[2], c);
      } else {
        // Interior: on the arc parallel to each side through the matching side points; the
        // three constructions differ slightly on the sphere, so take their normalised mean.
        const double n = root;
        const Vec3 p1 = slerp(slerp(corner[0], corner[1], (b + c) / n),
                              slerp(corner[0], corner[2], (b + c) / n), double(c) / (b + c));
        const Vec3 p2 = slerp(slerp(corner[1], corner[0], (a + c) / n),
                              slerp(corner[1], corner[2], (a + c) / n), double(c) / (a + c));
        const Vec3 p3 = slerp(slerp(corner[2], corner[0], (a + b) / n),
                              slerp(corner[2], corner[1], (a + b) / n), double(b) / (a + b));
        p = sphere::normalize(p1 + p2 + p3);
      }
      at(ir * step, jr * step) = p;
    }

  // ---- Bisections: each new point halves the great-circle arc between two coarser points. ----
  for (std::int64_t s = step / 2; s >= 1; s /= 2) {
    for (std::int64_t j = 0; j <= lat.n; j += s)
      for (std::int64_t i = 0; i + j <= lat.n; i += s) {
        const bool i_odd = (i / s) % 2 == 1, j_odd = (j / s) % 2 == 1;
        if (!i_odd && !j_odd) continue;  // already a point of the coarser lattice
        Vec3 p, q;
        if (i_odd && !j_odd) {
          p = at(i - s, j);
          q = at(i + s, j);
        } else if (!i_odd && j_odd) {
          p = at(i, j - s);
          q = at(i, j + s);
        } else {
          p = at(i - s, j + s);
          q = at(i + s, j - s);
        }
        at(i, j) = sphere::normalize(p + q);
      }
  }
}

}  // namespace

GridResolution parse_resolution(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return InvalidArgument(fmt::format(
        "grid resolution '{}': {}; expected 'R<n>B<k>' such as R2B4, R02B04 or r2b4 with n >= 1 "
        "and k >= 0",
        text, why));
  };
  std::size_t pos = 0;
  const auto number = [&](const char* what) {
    const std::size_t begin = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == begin) throw bad(fmt::format("no digits for {}", what));
    if (pos - begin > 6) throw bad(fmt::format("{} has too many digits", what));
    return std::stoi(text.substr(begin, pos - begin));
  };
  if (pos >= text.size() || std::toupper(static_cast<unsigned char>(text[pos])) != 'R')
    throw bad("does not start with 'R'");
  ++pos;
  GridResolution r;
  r.root = number("the root division n");
  if (pos >= text.size() || std::toupper(static_cast<unsigned char>(text[pos])) != 'B')
    throw bad("no 'B' after the root division");
  ++pos;
  r.bisections = number("the number of bisections k");
  if (pos != text.size())
    throw bad(fmt::format("unexpected text '{}' at the end", text.substr(pos)));
  if (r.root < 1) throw bad(fmt::format("root division n = {} is less than 1", r.root));
  return r;
}

std::string resolution_name(GridResolution resolution) {
  return fmt::format("R{}B{}", resolution.root, resolution.bisections);
}

GridSizes icosahedral_grid_sizes(GridResolution res) {
  if (res.root < 1 || res.bisections < 0)
    throw InvalidArgument(
        fmt::format("icosahedral grid R{}B{}: expected root division n >= 1 and bisections k >= 0",
                    res.root, res.bisections));
  const double n_side = static_cast<double>(res.root) * std::ldexp(1.0, res.bisections);
  const double edges = 30.0 * n_side * n_side;
  if (edges > static_cast<double>(std::numeric_limits<index_t>::max()))
    throw InvalidArgument(
        fmt::format("icosahedral grid R{}B{} has {:.4g} edges, more than index_t holds ({})",
                    res.root, res.bisections, edges, std::numeric_limits<index_t>::max()));
  const auto n = static_cast<std::int64_t>(n_side);
  return {static_cast<index_t>(20 * n * n), static_cast<index_t>(30 * n * n),
          static_cast<index_t>(10 * n * n + 2)};
}

Grid generate_icosahedral_grid(int root, int bisections, double radius) {
  const GridResolution res{root, bisections};
  const GridSizes sizes = icosahedral_grid_sizes(res);
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InvalidArgument(
        fmt::format("icosahedral grid {}: sphere radius {} m, expected a positive finite radius",
                    resolution_name(res), radius));

  const Icosahedron ico = make_icosahedron();
  const std::int64_t n = static_cast<std::int64_t>(root) << bisections;
  const ProvisionalVertexIds provisional(ico, n);
  const auto nc = static_cast<std::size_t>(sizes.cells);
  const auto ne = static_cast<std::size_t>(sizes.edges);
  const auto nv = static_cast<std::size_t>(sizes.vertices);

  Grid g;
  g.name = resolution_name(res);
  g.source = fmt::format(
      "icondiff generate_icosahedral_grid(root={}, bisections={}, radius={} m): great-circle "
      "root division and bisection, no optimisation",
      root, bisections, radius);
  g.grid_root = root;
  g.grid_level = bisections;
  g.sphere_radius = radius;
  g.num_cells = sizes.cells;
  g.num_edges = sizes.edges;
  g.num_vertices = sizes.vertices;

  // ---- Positions (by provisional id) and cells, face by face. ----
  std::vector<Vec3> provisional_pos(nv);
  g.c2v = HostTable<index_t>(nc, 3);
  std::size_t c = 0;
  std::vector<Vec3> face_pos;
  const Lattice lat{n};
  for (int face = 0; face < 20; ++face) {
    face_positions(ico, face, root, bisections, face_pos);
    for (std::int64_t j = 0; j <= n; ++j)
      for (std::int64_t i = 0; i + j <= n; ++i)
        provisional_pos[static_cast<std::size_t>(provisional(face, i, j))] =
            face_pos[static_cast<std::size_t>(lat.index(i, j))];
    // Row by row, alternating the upward triangle (i, j) and the downward one right of it; both
    // counter-clockwise because (A, B, C) is.
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i + j < n; ++i) {
        g.c2v(c, 0) = static_cast<index_t>(provisional(face, i, j));
        g.c2v(c, 1) = static_cast<index_t>(provisional(face, i + 1, j));
        g.c2v(c, 2) = static_cast<index_t>(provisional(face, i, j + 1));
        ++c;
        if (i + j + 2 <= n) {
          g.c2v(c, 0) = static_cast<index_t>(provisional(face, i + 1, j));
          g.c2v(c, 1) = static_cast<index_t>(provisional(face, i + 1, j + 1));
          g.c2v(c, 2) = static_cast<index_t>(provisional(face, i, j + 1));
          ++c;
        }
      }
  }
  if (c != nc)
    throw GridError(fmt::format("icosahedral grid {}: built {} cells, expected {}",
                                resolution_name(res), c, nc));

  // ---- Vertices renumbered in the order the cells first reach them. ----
  {
    std::vector<index_t> renumber(nv, missing_index);
    index_t next = 0;
    for (std::size_t cell = 0; cell < nc; ++cell)
      for (int k = 0; k < 3; ++k) {
        index_t& id = renumber[static_cast<std::size_t>(g.c2v(cell, k))];
        if (id == missing_index) id = next++;
        g.c2v(cell, k) = id;
      }
    if (static_cast<std::size_t>(next) != nv)
      throw GridError(fmt::format("icosahedral grid {}: cells reach {} vertices, expected {}",
                                  resolution_name(res), next, nv));
    g.vertex_lon.resize(nv);
    g.vertex_lat.resize(nv);
    for (std::size_t p = 0; p < nv; ++p) {
      const Vec3 x = provisional_pos[p];
      g.vertex_lon[static_cast<std::size_t>(renumber[p])] = sphere::longitude(x);
      g.vertex_lat[static_cast<std::size_t>(renumber[p])] = sphere::latitude(x);
    }
  }

  // ---- Edges in the order the cells first reach them: e2v = (lower, higher vertex), e2c =
  // (lower, higher cell), as in ICON's global grid files. A vertex has at most six edges, so
  // the edges are found through a six-slot list at their lower vertex. ----
  g.c2e = HostTable<index_t>(nc, 3);
  g.e2v = HostTable<index_t>(ne, 2);
  g.e2c = HostTable<index_t>(ne, 2, missing_index);
  {
    std::vector<index_t> upper(nv * 6), edge_of(nv * 6);
    std::vector<unsigned char> count(nv, 0);
    index_t next = 0;
    for (std::size_t cell = 0; cell < nc; ++cell)
      for (int j = 0; j < 3; ++j) {
        const index_t a = g.c2v(cell, j), b = g.c2v(cell, (j + 1) % 3);
        const auto lo = static_cast<std::size_t>(std::min(a, b));
        const index_t hi = std::max(a, b);
        index_t e = missing_index;
        for (unsigned k = 0; k < count[lo]; ++k)
          if (upper[lo * 6 + k] == hi) e = edge_of[lo * 6 + k];
        if (e == missing_index) {
          if (count[lo] == 6 || static_cast<std::size_t>(next) == ne)
            throw GridError(fmt::format("icosahedral grid {}: vertex {} gets a seventh edge",
                                        resolution_name(res), lo));
          e = next++;
          upper[lo * 6 + count[lo]] = hi;
          edge_of[lo * 6 + count[lo]] = e;
          ++count[lo];
          g.e2v(e, 0) = static_cast<index_t>(lo);
          g.e2v(e, 1) = hi;
          g.e2c(e, 0) = static_cast<index_t>(cell);
        } else {
          g.e2c(e, 1) = static_cast<index_t>(cell);
        }
        g.c2e(cell, j) = e;
      }
    if (static_cast<std::size_t>(next) != ne)
      throw GridError(fmt::format("icosahedral grid {}: found {} edges, expected {}",
                                  resolution_name(res), next, ne));
  }
  g.c2e2c = HostTable<index_t>(nc, 3);
  for (std::size_t cell = 0; cell < nc; ++cell)
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(cell, j);
      g.c2e2c(cell, j) = g.e2c(e, 0) == static_cast<index_t>(cell) ? g.e2c(e, 1) : g.e2c(e, 0);
    }
  detail::build_vertex_tables(g);

  compute_grid_geometry(g);
  for (Location location : all_locations)
    g.refin_ctrl[static_cast<int>(location)].assign(static_cast<std::size_t>(g.size(location)), 0);
  compute_grid_zones(g);
  build_derived_connectivity(g);
  return g;
}

}  // namespace icondiff
