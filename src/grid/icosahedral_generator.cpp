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
//
// Optimisation: ICON's grid generator (src/grid_generator/mo_geometry.f90, generate_geometry,
// itype_optimize = 4, the namelist default) builds the levels one after the other: bisect every
// triangle of the previous level into great-circle midpoints, then run spring dynamics
// (mo_spring_dynamics.f90, "adapted from NICAM": Tomita et al. 2001, J. Comput. Phys. 174,
// 579-613; Tomita et al. 2002, J. Comput. Phys. 183, 307-331) over all vertices of the new
// level; the root level is not optimised. We do the same on global vertex arrays, level by
// level, with ICON's integration scheme, natural length, time step, friction and stopping rule,
// which reproduces ICON's R02B03 file to rounding (docs/dev/grid.md, "Generated grids").
#include "vertex_tables.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid_geometry.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
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

/// Positions of one face's root lattice (i, j), i + j <= root: the icosahedron divided into
/// `root` arcs per edge.
void root_face_positions(const Icosahedron& ico, int face, int root, std::vector<Vec3>& pos) {
  const Lattice lat{root};
  pos.assign(static_cast<std::size_t>(lat.size()), Vec3{});
  const auto& f = ico.face[face];
  const Vec3 corner[3] = {ico.vertex[f[0]], ico.vertex[f[1]], ico.vertex[f[2]]};
  // Equal arcs along an icosahedron edge, always from its lower to its higher vertex.
  const auto edge_point = [&](int from, int to, int t) {
    return from < to
               ? slerp(ico.vertex[from], ico.vertex[to], static_cast<double>(t) / root)
               : slerp(ico.vertex[to], ico.vertex[from], static_cast<double>(root - t) / root);
  };
  // Barycentric (a, b, c) = (root − i − j, i, j).
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
      pos[static_cast<std::size_t>(lat.index(ir, jr))] = p;
    }
}

/// The root level's vertex positions, by provisional id of the lattice n = root.
std::vector<Vec3> root_positions(const Icosahedron& ico, int root) {
  const ProvisionalVertexIds ids(ico, root);
  std::vector<Vec3> pos(static_cast<std::size_t>(ids.count()));
  std::vector<Vec3> face_pos;
  const Lattice lat{root};
  for (int face = 0; face < 20; ++face) {
    root_face_positions(ico, face, root, face_pos);
    for (std::int64_t j = 0; j <= root; ++j)
      for (std::int64_t i = 0; i + j <= root; ++i)
        pos[static_cast<std::size_t>(ids(face, i, j))] =
            face_pos[static_cast<std::size_t>(lat.index(i, j))];
  }
  return pos;
}

/// One bisection: positions on the lattice 2n from those on the lattice n (both by provisional
/// id). Old points keep their place; each new point halves the great-circle arc between two old
/// ones (ICON's build_vertices). Points on face sides are computed once per face, identically.
std::vector<Vec3> bisect(const Icosahedron& ico, std::int64_t coarse_n,
                         const std::vector<Vec3>& coarse) {
  const ProvisionalVertexIds old_id(ico, coarse_n), new_id(ico, 2 * coarse_n);
  const std::int64_t n = 2 * coarse_n;
  std::vector<Vec3> pos(static_cast<std::size_t>(new_id.count()));
  const auto old_at = [&](int face, std::int64_t i, std::int64_t j) {
    return coarse[static_cast<std::size_t>(old_id(face, i / 2, j / 2))];
  };
  for (int face = 0; face < 20; ++face)
    for (std::int64_t j = 0; j <= n; ++j)
      for (std::int64_t i = 0; i + j <= n; ++i) {
        const bool i_odd = i % 2 == 1, j_odd = j % 2 == 1;
        Vec3 p;
        if (!i_odd && !j_odd)
          p = old_at(face, i, j);
        else if (i_odd && !j_odd)
          p = sphere::normalize(old_at(face, i - 1, j) + old_at(face, i + 1, j));
        else if (!i_odd && j_odd)
          p = sphere::normalize(old_at(face, i, j - 1) + old_at(face, i, j + 1));
        else
          p = sphere::normalize(old_at(face, i - 1, j + 1) + old_at(face, i + 1, j - 1));
        pos[static_cast<std::size_t>(new_id(face, i, j))] = p;
      }
  return pos;
}

/// The 30·n² edges of the lattice n as pairs of provisional ids. Every edge of a face's lattice
/// is a side of exactly one upward triangle (i, j), (i+1, j), (i, j+1) of that face; edges on an
/// icosahedron edge are shared by two faces and listed by the first of them only.
std::vector<std::array<index_t, 2>> lattice_edges(const Icosahedron& ico, std::int64_t n) {
  const ProvisionalVertexIds id(ico, n);
  std::array<int, 30> owner;
  owner.fill(-1);
  for (int face = 19; face >= 0; --face)
    for (int k = 0; k < 3; ++k)
      owner[static_cast<std::size_t>(
          icosahedron_edge(ico, ico.face[face][k], ico.face[face][(k + 1) % 3]))] = face;
  std::vector<std::array<index_t, 2>> edges;
  edges.reserve(static_cast<std::size_t>(30 * n * n));
  for (int face = 0; face < 20; ++face) {
    const auto& f = ico.face[face];
    const bool own_01 = owner[static_cast<std::size_t>(icosahedron_edge(ico, f[0], f[1]))] == face;
    const bool own_02 = owner[static_cast<std::size_t>(icosahedron_edge(ico, f[0], f[2]))] == face;
    const bool own_12 = owner[static_cast<std::size_t>(icosahedron_edge(ico, f[1], f[2]))] == face;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i + j < n; ++i) {
        const auto a = static_cast<index_t>(id(face, i, j));
        const auto b = static_cast<index_t>(id(face, i + 1, j));
        const auto c = static_cast<index_t>(id(face, i, j + 1));
        if (j > 0 || own_01) edges.push_back({a, b});
        if (i > 0 || own_02) edges.push_back({a, c});
        if (i + j + 1 < n || own_12) edges.push_back({b, c});
      }
  }
  if (edges.size() != static_cast<std::size_t>(30 * n * n))
    throw GridError(fmt::format("icosahedral lattice {}: listed {} edges, expected {}", n,
                                edges.size(), 30 * n * n));
  return edges;
}

/// The spring force per unit chord vector, (arc − d0)/c, for a chord d of squared length c2 on
/// the unit sphere, whose arc is 2·asin(c/2) = c·S(c²/4) with S(y) = asin(√y)/√y. This runs for
/// every edge in every step and dominates the generator's run time, so below c = 0.1 (arcs under
/// 640 km on the Earth: every level from R2B3 on) S is its Taylor series to y⁶, whose first
/// omitted term is below 1e-18 relative there, evaluated in Estrin form, and d0/c = d0·c/c² lets
/// the square root and the division run side by side instead of one after the other.
inline double spring_coefficient(double c2, double d0) {
  const double c = std::sqrt(c2);
  if (c2 >= 0.01) return (2.0 * std::asin(0.5 * c) - d0) / c;
  const double inv_c2 = 1.0 / c2;
  // asin x / x = Σ (2k)! / (4^k (k!)² (2k + 1)) x^(2k), here with y = x².
  const double y = 0.25 * c2, y2 = y * y, y4 = y2 * y2;
  const double s = (1.0 + (1.0 / 6.0) * y) + y2 * ((3.0 / 40.0) + (5.0 / 112.0) * y) +
                   y4 * (((35.0 / 1152.0) + (63.0 / 2816.0) * y) + y2 * (231.0 / 13312.0));
  return s - d0 * c * inv_c2;
}

/// 1/√n2 for n2 = |x + dt·v|², which differs from 1 only by dt²|v|² and rounding (v is tangent
/// at the unit vector x): there the series 1 − δ/2 + 3δ²/8 − 5δ³/16 (δ = n2 − 1, error < δ⁴)
/// is exact to rounding and saves a square root and a division per vertex and step.
inline double inverse_norm_near_one(double n2) {
  const double delta = n2 - 1.0;
  if (std::fabs(delta) > 1e-5) return 1.0 / std::sqrt(n2);
  return 1.0 + delta * (-0.5 + delta * (0.375 - 0.3125 * delta));
}

/// ICON's spring dynamics (mo_spring_dynamics.f90, spring_dynamics) on one level: unit masses
/// at the vertices, a spring along every edge with natural length d0 = beta · 2π/√cells (ICON
/// scales by the number of triangles where NICAM uses the level), pulling with (arc − d0) along
/// the unit chord vector, and friction. One step, all forces from the old positions (Jacobi, as
/// ICON's vectorised branch and, since a fix of November 2013, its scalar one; ICON's R02B03
/// file, made on an SX-9, matches this and not the older in-place update, see grid.md):
///     F = Σ springs,  x ← normalize(x + dt·v),  v ← v + dt·(F − friction·v),
///     v ← v − (v·x) x  (tangent at the new x),
/// from v = 0, stopping after step i > 5 once the kinetic energy Σ|v|²/2 has dropped below
/// stop_ratio times its maximum. ICON aborts when Σ|F|² reaches a new maximum after step 5
/// (an unstable beta); so do we. Forces are summed per edge (each spring computed once); ICON
/// sums them per vertex and evaluates arcs with acos, which changes only the rounding.
/// Returns the number of steps (0 when the level is already balanced).
int spring_dynamics(std::vector<Vec3>& pos, const std::vector<std::array<index_t, 2>>& edges,
                    std::int64_t cells, const GridOptimization& opt, const std::string& level) {
  const double d0 = opt.beta * 2.0 * pi / std::sqrt(static_cast<double>(cells));
  const double dt = opt.time_step, friction = opt.friction;
  const std::size_t nv = pos.size();
  // Position, velocity and force of a vertex side by side: the edge loop reads x and updates f
  // of the same vertex, and the vertex loop streams through all three once.
  struct Mass {
    Vec3 x, v, f;
  };
  std::vector<Mass> m(nv);
  for (std::size_t i = 0; i < nv; ++i) m[i] = {pos[i], Vec3{0.0, 0.0, 0.0}, Vec3{0.0, 0.0, 0.0}};
  double max_ekin = 0.0, max_test = 0.0;
  for (int step = 1; step <= opt.max_iterations; ++step) {
    for (const auto& e : edges) {
      Mass& a = m[static_cast<std::size_t>(e[0])];
      Mass& b = m[static_cast<std::size_t>(e[1])];
      const Vec3 d = b.x - a.x;
      const Vec3 f = spring_coefficient(sphere::dot(d, d), d0) * d;
      a.f = a.f + f;
      b.f = b.f - f;
    }
    if (step == 1) {
      // A level whose springs already balance along the sphere (R1B1: every vertex is a centre
      // of icosahedral symmetry) has tangential forces at rounding level, and ICON's tests below
      // would then read noise (the radial parts, which never move anything, stay), so stop.
      double tangential = 0.0;
      for (const Mass& p : m) {
        const Vec3 t = p.f - sphere::dot(p.f, p.x) * p.x;
        tangential += sphere::dot(t, t);
      }
      if (tangential <= static_cast<double>(nv) * (1e-10 * d0) * (1e-10 * d0)) return 0;
    }
    double ekin = 0.0, test = 0.0;
    for (Mass& p : m) {
      const Vec3 f = p.f;
      p.f = Vec3{0.0, 0.0, 0.0};  // ready for the next step
      const Vec3 x = p.x + dt * p.v;
      const Vec3 y = inverse_norm_near_one(sphere::dot(x, x)) * x;
      Vec3 w = p.v + dt * (f - friction * p.v);
      w = w - sphere::dot(w, y) * y;
      p.x = y;
      p.v = w;
      ekin += 0.5 * sphere::dot(w, w);
      test += sphere::dot(f, f);
    }
    max_ekin = std::max(max_ekin, ekin);
    max_test = std::max(max_test, test);
    if (step > 5 && test == max_test)
      throw GridError(fmt::format(
          "{}: spring dynamics unstable, the spring forces grow again at step {} (beta = {}; "
          "ICON's generator asks for beta in 0.9 .. 1.11)",
          level, step, opt.beta));
    if (step > 5 && ekin < opt.stop_ratio * max_ekin) {
      for (std::size_t i = 0; i < nv; ++i) pos[i] = m[i].x;
      return step;
    }
  }
  throw GridError(fmt::format("{}: spring dynamics did not settle within {} steps (beta = {})",
                              level, opt.max_iterations, opt.beta));
}

void validate(const GridOptimization& o, const std::string& name) {
  const auto bad = [&](const std::string& what) {
    return InvalidArgument(fmt::format("icosahedral grid {}: grid optimisation {}", name, what));
  };
  if (o.method == GridOptimizationMethod::None) return;
  if (o.method != GridOptimizationMethod::SpringDynamics) throw bad("method unknown");
  if (!(o.beta > 0.0) || !std::isfinite(o.beta))
    throw bad(fmt::format("beta = {}, expected a positive finite factor (ICON: 0.9)", o.beta));
  if (!(o.time_step > 0.0) || !std::isfinite(o.time_step))
    throw bad(
        fmt::format("time_step = {}, expected a positive finite step (ICON: 0.016)", o.time_step));
  if (!(o.friction >= 0.0) || !std::isfinite(o.friction))
    throw bad(fmt::format("friction = {}, expected >= 0 (ICON: 1)", o.friction));
  if (!(o.stop_ratio > 0.0 && o.stop_ratio < 1.0))
    throw bad(fmt::format("stop_ratio = {}, expected in (0, 1) (ICON: 1e-3)", o.stop_ratio));
  if (o.max_iterations < 6)
    throw bad(fmt::format("max_iterations = {}, expected at least 6", o.max_iterations));
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

Grid generate_icosahedral_grid(int root, int bisections, double radius,
                               const GridOptimization& optimization) {
  const GridResolution res{root, bisections};
  const GridSizes sizes = icosahedral_grid_sizes(res);
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InvalidArgument(
        fmt::format("icosahedral grid {}: sphere radius {} m, expected a positive finite radius",
                    resolution_name(res), radius));
  validate(optimization, resolution_name(res));
  const bool springs = optimization.method == GridOptimizationMethod::SpringDynamics;

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
      "root division and bisection, {}",
      root, bisections, radius,
      springs ? fmt::format("ICON spring dynamics after each bisection (beta={}, dt={}, "
                            "friction={}, stop_ratio={})",
                            optimization.beta, optimization.time_step, optimization.friction,
                            optimization.stop_ratio)
              : std::string("no optimisation"));
  g.grid_root = root;
  g.grid_level = bisections;
  g.sphere_radius = radius;
  g.num_cells = sizes.cells;
  g.num_edges = sizes.edges;
  g.num_vertices = sizes.vertices;

  // ---- Positions by provisional id, level by level: root division, then each bisection
  // followed by the optimisation of the whole new level (as ICON's generate_geometry). ----
  std::vector<Vec3> provisional_pos = root_positions(ico, root);
  for (int level = 1; level <= bisections; ++level) {
    const std::int64_t coarse_n = static_cast<std::int64_t>(root) << (level - 1);
    provisional_pos = bisect(ico, coarse_n, provisional_pos);
    if (springs)
      spring_dynamics(
          provisional_pos, lattice_edges(ico, 2 * coarse_n), 20 * (2 * coarse_n) * (2 * coarse_n),
          optimization,
          fmt::format("icosahedral grid {}, level R{}B{}", resolution_name(res), root, level));
  }
  if (provisional_pos.size() != nv)
    throw GridError(fmt::format("icosahedral grid {}: built {} vertices, expected {}",
                                resolution_name(res), provisional_pos.size(), nv));

  // ---- Cells, face by face. ----
  g.c2v = HostTable<index_t>(nc, 3);
  std::size_t c = 0;
  for (int face = 0; face < 20; ++face) {
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
