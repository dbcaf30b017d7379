// The interpolation coefficients (diffusion_spec §2.6, §4.4): exact definitions and discrete
// identities on the octahedron and the real ICON grids, the RBF solve against an independent
// dense solver, configuration errors, and (on generated R2B3..R2B6 grids) the convergence of the
// divergence, gradient, Laplacian and vertex RBF reconstruction for smooth analytic fields.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/kokkos_compat.hpp>

#if __has_include(<icondiff/grid/icosahedral_generator.hpp>)
#include <icondiff/grid/icosahedral_generator.hpp>
#define ICONDIFF_TEST_HAVE_GENERATOR 1
#else
#define ICONDIFF_TEST_HAVE_GENERATOR 0
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using sphere::Vec3;

constexpr double pi = 3.14159265358979323846;

struct Case {
  Grid grid;
  InterpolationCoefficients coeff;
};

/// Grids and their coefficients are built once per test program (the c_bln_avg sweeps and the
/// RBF solves are the expensive part).
const Case& cached_case(const std::string& key, const std::function<Grid()>& make) {
  static std::map<std::string, std::unique_ptr<Case>> cache;
  auto& slot = cache[key];
  if (!slot) {
    slot = std::make_unique<Case>();
    slot->grid = make();
    slot->coeff = compute_interpolation_coefficients(slot->grid, InterpolationConfig{});
  }
  return *slot;
}

const Case& octahedron_case() {
  return cached_case("octahedron", [] { return test::make_octahedron_grid(); });
}
const Case& file_case(const std::string& path) {
  return cached_case(path, [&] { return read_icon_grid(path); });
}

double max_abs(const HostTable<double>& t, std::size_t row) {
  double m = 0;
  for (std::size_t j = 0; j < t.cols(); ++j) m = std::max(m, std::fabs(t(row, j)));
  return m;
}

bool all_finite(const HostTable<double>& t) {
  for (std::size_t i = 0; i < t.rows() * t.cols(); ++i)
    if (!std::isfinite(t.data()[i])) return false;
  return true;
}

// ---- Identities every grid must satisfy --------------------------------------------------------

void expect_finite_and_shaped(const Case& k) {
  const Grid& g = k.grid;
  const auto& c = k.coeff;
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  const std::array<std::pair<const HostTable<double>*, std::array<std::size_t, 2>>, 10> shapes{{
      {&c.geofac_div, {nc, 3}},
      {&c.geofac_rot, {nv, 6}},
      {&c.geofac_n2s, {nc, 4}},
      {&c.geofac_grg_x, {nc, 4}},
      {&c.geofac_grg_y, {nc, 4}},
      {&c.e_bln_c_s, {nc, 3}},
      {&c.c_bln_avg, {nc, 4}},
      {&c.c_lin_e, {ne, 2}},
      {&c.rbf_vec_coeff_v1, {nv, 6}},
      {&c.rbf_vec_coeff_v2, {nv, 6}},
  }};
  for (const auto& [table, shape] : shapes) {
    EXPECT_EQ(table->rows(), shape[0]);
    EXPECT_EQ(table->cols(), shape[1]);
    EXPECT_TRUE(all_finite(*table));
  }
  ASSERT_EQ(c.nudgecoeff_e.size(), ne);
  for (double x : c.nudgecoeff_e) EXPECT_TRUE(std::isfinite(x));
  // Missing neighbours have coefficient 0.
  for (index_t v = 0; v < g.num_vertices; ++v)
    for (int j = 0; j < 6; ++j)
      if (g.v2e(v, j) == missing_index) {
        EXPECT_EQ(c.geofac_rot(v, j), 0.0);
        EXPECT_EQ(c.rbf_vec_coeff_v1(v, j), 0.0);
        EXPECT_EQ(c.rbf_vec_coeff_v2(v, j), 0.0);
      }
  for (index_t cell = 0; cell < g.num_cells; ++cell)
    for (int j = 0; j < 3; ++j)
      if (g.c2e2c(cell, j) == missing_index) {
        EXPECT_EQ(c.geofac_n2s(cell, 1 + j), 0.0);
        EXPECT_EQ(c.geofac_grg_x(cell, 1 + j), 0.0);
        EXPECT_EQ(c.geofac_grg_y(cell, 1 + j), 0.0);
        EXPECT_EQ(c.c_bln_avg(cell, 1 + j), 0.0);
      }
}

void expect_definitions(const Case& k) {
  const Grid& g = k.grid;
  const auto& c = k.coeff;
  // geofac_div = l_e o_ce / A_c, bit for bit (interpolation_fields.compute_geofac_div).
  for (index_t cell = 0; cell < g.num_cells; ++cell)
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(c.geofac_div(cell, j), g.edge_length[g.c2e(cell, j)] *
                                           g.cell_edge_orientation(cell, j) / g.cell_area[cell])
          << "cell " << cell << " slot " << j;
  for (index_t v = 0; v < g.num_vertices; ++v)
    for (int j = 0; j < 6; ++j)
      if (g.v2e(v, j) != missing_index) {
        ASSERT_EQ(c.geofac_rot(v, j), g.dual_edge_length[g.v2e(v, j)] *
                                          g.vertex_edge_orientation(v, j) / g.dual_area[v]);
      }
  // c_lin_e: the two weights sum to one from boundary row 2 on, 0 before.
  const index_t e2 = g.start(Location::Edge, Zone::LateralBoundary2);
  for (index_t e = 0; e < g.num_edges; ++e) {
    if (e < e2) {
      EXPECT_EQ(c.c_lin_e(e, 0), 0.0);
      EXPECT_EQ(c.c_lin_e(e, 1), 0.0);
      continue;
    }
    EXPECT_NEAR(c.c_lin_e(e, 0) + c.c_lin_e(e, 1), 1.0, 1e-15);
    EXPECT_GT(c.c_lin_e(e, 0), 0.0);
    EXPECT_LT(c.c_lin_e(e, 0), 1.0);
  }
}

/// e_bln_c_s: a partition of unity that interpolates linear functions, i.e. (up to the map from
/// the rotated lat-lon frame ICON uses to the tangent plane) the barycentric coordinates of the
/// cell centre with respect to the three edge midpoints, projected onto the centre's tangent
/// plane. `tolerance` bounds the difference to those (O(h^2): the map distortion).
void expect_e_bln_c_s_interpolates_linearly(const Case& k, double tolerance) {
  const Grid& g = k.grid;
  double worst_sum = 0, worst_linear = 0;
  for (index_t cell = 0; cell < g.num_cells; ++cell) {
    double sum = 0;
    for (int j = 0; j < 3; ++j) sum += k.coeff.e_bln_c_s(cell, j);
    worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
    const Vec3 pc = sphere::to_cartesian(g.cell_lon[cell], g.cell_lat[cell]);
    std::array<Vec3, 3> q;
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(cell, j);
      const Vec3 p = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
      q[j] = (1.0 / sphere::dot(p, pc)) * p;  // gnomonic projection onto the tangent plane
    }
    const double det = sphere::dot(q[0], sphere::cross(q[1], q[2]));
    const std::array<double, 3> bary = {sphere::dot(pc, sphere::cross(q[1], q[2])) / det,
                                        sphere::dot(q[0], sphere::cross(pc, q[2])) / det,
                                        sphere::dot(q[0], sphere::cross(q[1], pc)) / det};
    for (int j = 0; j < 3; ++j)
      worst_linear = std::max(worst_linear, std::fabs(k.coeff.e_bln_c_s(cell, j) - bary[j]));
  }
  EXPECT_LT(worst_sum, 1e-14);
  EXPECT_LT(worst_linear, tolerance);
  std::printf("[ e_bln_c_s] %s: |sum - 1| <= %.1e, |w - tangent-plane barycentric| <= %.1e\n",
              g.name.c_str(), worst_sum, worst_linear);
}

/// geofac_n2s annihilates constants and equals div(normal gradient) for any psi (spec §2.6).
void expect_n2s_identities(const Case& k, std::uint64_t seed) {
  const Grid& g = k.grid;
  const auto& c = k.coeff;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> psi(static_cast<std::size_t>(g.num_cells));
  for (auto& x : psi) x = u(rng);
  double worst_constant = 0, worst_identity = 0;
  for (index_t cell = g.start(Location::Cell, Zone::LateralBoundary2); cell < g.num_cells; ++cell) {
    double sum = 0, lhs = 0, rhs = 0, scale = 0;
    for (int i = 0; i < 4; ++i) {
      sum += c.geofac_n2s(cell, i);
      lhs += c.geofac_n2s(cell, i) * psi[g.c2e2co(cell, i)];
    }
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(cell, j);
      const double term =
          c.geofac_div(cell, j) * (psi[g.e2c(e, 1)] - psi[g.e2c(e, 0)]) / g.dual_edge_length[e];
      rhs += term;
      scale += std::fabs(term);
    }
    worst_constant = std::max(worst_constant, std::fabs(sum) / max_abs(c.geofac_n2s, cell));
    worst_identity = std::max(worst_identity, std::fabs(lhs - rhs) / scale);
  }
  EXPECT_LT(worst_constant, 1e-14);
  EXPECT_LT(worst_identity, 1e-14) << "seed " << seed;
}

/// Green-Gauss of a constant: sum_i geofac_grg[c,i] vanishes up to the sphere's curvature (the
/// three edge normals, moved to the cell centre's tangent plane, do not close exactly). Returns
/// the worst |sum| relative to the size of one coefficient (~1/h).
double gradient_of_constant(const Case& k) {
  const Grid& g = k.grid;
  double worst = 0;
  for (index_t cell = g.start(Location::Cell, Zone::LateralBoundary2); cell < g.num_cells; ++cell) {
    double sx = 0, sy = 0;
    for (int i = 0; i < 4; ++i) {
      sx += k.coeff.geofac_grg_x(cell, i);
      sy += k.coeff.geofac_grg_y(cell, i);
    }
    const double scale =
        std::max(max_abs(k.coeff.geofac_grg_x, cell), max_abs(k.coeff.geofac_grg_y, cell));
    worst = std::max(worst, std::hypot(sx, sy) / scale);
  }
  return worst;
}

/// Discrete Gauss on a closed surface: sum_c A_c div(v)_c = sum_e v_e l_e (o_e,c0 + o_e,c1) = 0.
void expect_discrete_gauss(const Case& k, std::uint64_t seed) {
  const Grid& g = k.grid;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(g.num_edges));
  for (auto& x : v) x = u(rng);
  double total = 0, scale = 0;
  for (index_t cell = 0; cell < g.num_cells; ++cell)
    for (int j = 0; j < 3; ++j) {
      const double term = g.cell_area[cell] * k.coeff.geofac_div(cell, j) * v[g.c2e(cell, j)];
      total += term;
      scale += std::fabs(term);
    }
  EXPECT_LT(std::fabs(total) / scale, 1e-14) << "seed " << seed;
}

/// c_bln_avg: weights close to a partition of unity (exact before the last, residual-absorbing
/// sweep), and mass conservation: every cell's value enters the area-weighted sum of averages
/// with total weight one, sum_i c_bln_avg[n_i, slot of c in n_i] A[n_i] = A[c] (ICON4Py
/// _force_mass_conservation_to_c_bln_avg), from boundary row 3 on.
void expect_c_bln_avg_conserves_mass(const Case& k, double sum_tolerance) {
  const Grid& g = k.grid;
  const auto& w = k.coeff.c_bln_avg;
  const index_t start_2 = g.start(Location::Cell, Zone::LateralBoundary2);
  const index_t start_3 = g.start(Location::Cell, Zone::LateralBoundary3);
  double worst_sum = 0, worst_mass = 0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    if (c < start_2) {
      EXPECT_EQ(max_abs(w, c), 0.0);
      continue;
    }
    double sum = 0;
    for (int i = 0; i < 4; ++i) sum += w(c, i);
    worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
    EXPECT_NEAR(w(c, 0), 0.5, 0.0031);  // divavg_cntrwgt +- ICON's runaway clamp
    if (c < start_3) continue;
    double weight = 0;
    for (int i = 0; i < 4; ++i) {
      const index_t n = g.c2e2co(c, i);
      for (int s = 0; s < 4; ++s)
        if (g.c2e2co(n, s) == c) weight += w(n, s) * g.cell_area[n];
    }
    worst_mass = std::max(worst_mass, std::fabs(weight / g.cell_area[c] - 1.0));
  }
  EXPECT_LT(worst_sum, sum_tolerance);
  EXPECT_LT(worst_mass, 1e-14);
  std::printf("[ c_bln_avg] %s: |sum - 1| <= %.1e, mass conservation |weight - 1| <= %.1e\n",
              g.name.c_str(), worst_sum, worst_mass);
}

/// On a closed surface mass conservation means: the area-weighted mean of any field is unchanged
/// by the averaging.
void expect_average_preserves_global_mean(const Case& k, std::uint64_t seed) {
  const Grid& g = k.grid;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> psi(static_cast<std::size_t>(g.num_cells));
  for (auto& x : psi) x = u(rng);
  double before = 0, after = 0;
  for (index_t c = 0; c < g.num_cells; ++c) {
    double avg = 0;
    for (int i = 0; i < 4; ++i) avg += k.coeff.c_bln_avg(c, i) * psi[g.c2e2co(c, i)];
    before += g.cell_area[c] * psi[c];
    after += g.cell_area[c] * avg;
  }
  EXPECT_NEAR(after / before, 1.0, 1e-13) << "seed " << seed;
}

/// The RBF normalization (ICON's checksum): a field equal to the target unit vector is
/// reconstructed exactly, sum_j c_j (t . n_j) = 1.
void expect_rbf_normalization(const Case& k) {
  const Grid& g = k.grid;
  const EdgeGeometry eg = compute_edge_geometry(g);
  const index_t v_start = g.start(Location::Vertex, Zone::LateralBoundary2);
  for (index_t v = 0; v < g.num_vertices; ++v) {
    if (v < v_start) {
      EXPECT_EQ(max_abs(k.coeff.rbf_vec_coeff_v1, v), 0.0);
      continue;
    }
    const Vec3 east = sphere::east_at(g.vertex_lon[v], g.vertex_lat[v]);
    const Vec3 north = sphere::north_at(g.vertex_lon[v], g.vertex_lat[v]);
    double s1 = 0, s2 = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t e = g.v2e(v, j);
      if (e == missing_index) continue;
      s1 += k.coeff.rbf_vec_coeff_v1(v, j) * sphere::dot(east, eg.normal_cartesian[e]);
      s2 += k.coeff.rbf_vec_coeff_v2(v, j) * sphere::dot(north, eg.normal_cartesian[e]);
    }
    ASSERT_NEAR(s1, 1.0, 1e-12) << "vertex " << v;
    ASSERT_NEAR(s2, 1.0, 1e-12) << "vertex " << v;
  }
}

/// Dense solve with partial pivoting, independent of Kokkos Kernels.
std::vector<double> reference_solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int p = 0; p < n; ++p) {
    int best = p;
    for (int i = p + 1; i < n; ++i)
      if (std::fabs(a[i][p]) > std::fabs(a[best][p])) best = i;
    std::swap(a[p], a[best]);
    std::swap(b[p], b[best]);
    for (int i = p + 1; i < n; ++i) {
      const double f = a[i][p] / a[p][p];
      for (int j = p; j < n; ++j) a[i][j] -= f * a[p][j];
      b[i] -= f * b[p];
    }
  }
  std::vector<double> x(static_cast<std::size_t>(n));
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

/// Rebuilds the RBF system of some vertices from the formula (ICON rbf_vec_compute_coeff_vertex)
/// and solves it with pivoted Gaussian elimination. The Gaussian RBF matrix with ICON's scale is
/// ill-conditioned (the kernel is nearly flat over a stencil), so two stable solvers agree to
/// about cond * eps; the tolerance reflects that.
void expect_rbf_matches_reference(const Case& k, int stride, double tolerance) {
  const Grid& g = k.grid;
  const EdgeGeometry eg = compute_edge_geometry(g);
  const double scale = k.coeff.rbf_scale_vertex;
  const auto phi = [&](Vec3 a, Vec3 b) {
    const double r = sphere::arc_length(a, b) / scale;
    return std::exp(-r * r);
  };
  double worst = 0;
  for (index_t v = g.start(Location::Vertex, Zone::LateralBoundary2); v < g.num_vertices;
       v += stride) {
    std::vector<int> slots;
    for (int j = 0; j < 6; ++j)
      if (g.v2e(v, j) != missing_index) slots.push_back(j);
    const auto n = slots.size();
    std::vector<std::vector<double>> a(n, std::vector<double>(n));
    std::vector<double> r1(n), r2(n), p1(n), p2(n);
    const Vec3 xv = sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
    const Vec3 east = sphere::east_at(g.vertex_lon[v], g.vertex_lat[v]);
    const Vec3 north = sphere::north_at(g.vertex_lon[v], g.vertex_lat[v]);
    for (std::size_t i = 0; i < n; ++i) {
      const index_t ei = g.v2e(v, slots[i]);
      const Vec3 xi = sphere::to_cartesian(g.edge_lon[ei], g.edge_lat[ei]);
      for (std::size_t j = 0; j < n; ++j) {
        const index_t ej = g.v2e(v, slots[j]);
        a[i][j] = sphere::dot(eg.normal_cartesian[ei], eg.normal_cartesian[ej]) *
                  phi(xi, sphere::to_cartesian(g.edge_lon[ej], g.edge_lat[ej]));
      }
      p1[i] = sphere::dot(east, eg.normal_cartesian[ei]);
      p2[i] = sphere::dot(north, eg.normal_cartesian[ei]);
      r1[i] = phi(xv, xi) * p1[i];
      r2[i] = phi(xv, xi) * p2[i];
    }
    auto c1 = reference_solve(a, r1), c2 = reference_solve(a, r2);
    double s1 = 0, s2 = 0;
    for (std::size_t i = 0; i < n; ++i) s1 += p1[i] * c1[i], s2 += p2[i] * c2[i];
    const double size =
        std::max(max_abs(k.coeff.rbf_vec_coeff_v1, v), max_abs(k.coeff.rbf_vec_coeff_v2, v));
    for (std::size_t i = 0; i < n; ++i) {
      worst = std::max(worst, std::fabs(c1[i] / s1 - k.coeff.rbf_vec_coeff_v1(v, slots[i])) / size);
      worst = std::max(worst, std::fabs(c2[i] / s2 - k.coeff.rbf_vec_coeff_v2(v, slots[i])) / size);
    }
  }
  std::printf("[ rbf      ] %s: largest difference to a pivoted reference solve %.2e (relative)\n",
              g.name.c_str(), worst);
  EXPECT_LT(worst, tolerance);
}

/// Solid-body rotation u = u0 cos(lat), v = 0, i.e. V = u0 (z x r), given as vn = V . n at the
/// edge midpoints and reconstructed at the vertices. Returns the largest error relative to u0.
double solid_body_rotation_error(const Case& k) {
  const Grid& g = k.grid;
  const EdgeGeometry eg = compute_edge_geometry(g);
  const double u0 = 20.0;
  std::vector<double> vn(static_cast<std::size_t>(g.num_edges));
  for (index_t e = 0; e < g.num_edges; ++e) {
    const Vec3 x = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
    vn[e] = sphere::dot(u0 * sphere::cross(Vec3{0, 0, 1}, x), eg.normal_cartesian[e]);
  }
  double worst = 0;
  for (index_t v = g.start(Location::Vertex, Zone::LateralBoundary2); v < g.num_vertices; ++v) {
    double u = 0, w = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t e = g.v2e(v, j);
      if (e == missing_index) continue;
      u += k.coeff.rbf_vec_coeff_v1(v, j) * vn[e];
      w += k.coeff.rbf_vec_coeff_v2(v, j) * vn[e];
    }
    worst = std::max(worst, std::hypot(u - u0 * std::cos(g.vertex_lat[v]), w) / u0);
  }
  return worst;
}

// ---- Smooth analytic fields on the sphere ------------------------------------------------------
//
// Restrictions of harmonic homogeneous polynomials to the unit sphere are spherical harmonics:
// x y z (degree 3), x z, x y (degree 2), y, z (degree 1). With R the sphere radius and p the unit
// position vector, for psi = sum_l Y_l:
//   surface gradient  grad psi = (G - (p . G) p) / R,  G the Cartesian gradient of the polynomial,
//   Laplacian         lap psi  = -sum_l l (l + 1) Y_l / R^2,
// and v = grad psi1 + p x grad psi2 has div v = lap psi1 (the rotational part is divergence free).

/// psi1 = x y z + 0.5 x z + 0.25 y.
double psi1(Vec3 p) {
  return p.x * p.y * p.z + 0.5 * p.x * p.z + 0.25 * p.y;
}
Vec3 psi1_cartesian_gradient(Vec3 p) {
  return {p.y * p.z + 0.5 * p.z, p.x * p.z + 0.25, p.x * p.y + 0.5 * p.x};
}
double psi1_laplacian(Vec3 p, double radius) {
  return -(12.0 * p.x * p.y * p.z + 6.0 * 0.5 * p.x * p.z + 2.0 * 0.25 * p.y) / (radius * radius);
}
/// psi2 = x y + z.
Vec3 psi2_cartesian_gradient(Vec3 p) {
  return {p.y, p.x, 1.0};
}

Vec3 surface_gradient(Vec3 p, Vec3 cartesian_gradient, double radius) {
  return (1.0 / radius) * (cartesian_gradient - sphere::dot(p, cartesian_gradient) * p);
}
/// v = R^2 (grad psi1 + p x grad psi2): O(1) magnitude, div v = R^2 lap psi1.
Vec3 test_wind(Vec3 p, double radius) {
  return (radius * radius) *
         (surface_gradient(p, psi1_cartesian_gradient(p), radius) +
          sphere::cross(p, surface_gradient(p, psi2_cartesian_gradient(p), radius)));
}

/// Relative errors of a discrete field against the exact one: area-weighted L2 and max norm.
struct Errors {
  double l2 = 0, linf = 0;
};

class ErrorAccumulator {
 public:
  void add(double weight, double computed, double exact) {
    err2_ += weight * (computed - exact) * (computed - exact);
    ref2_ += weight * exact * exact;
    err_max_ = std::max(err_max_, std::fabs(computed - exact));
    ref_max_ = std::max(ref_max_, std::fabs(exact));
  }
  Errors errors() const { return {std::sqrt(err2_ / ref2_), err_max_ / ref_max_}; }

 private:
  double err2_ = 0, ref2_ = 0, err_max_ = 0, ref_max_ = 0;
};

struct OperatorErrors {
  Errors divergence, gradient, laplacian, rbf;
  /// The Laplacian on the cells farther than pentagon_exclusion from every pentagon.
  Errors laplacian_far;
};

/// Around the 12 pentagons of a global grid the triangles keep their distorted shape at every
/// resolution, so ICON's two-point Laplacian keeps an O(1) relative error on the cells there
/// (see the convergence test); its convergence elsewhere is measured beyond this distance [m].
constexpr double pentagon_exclusion = 2000e3;

/// Interior vertices with five cells (on a limited-area grid, boundary vertices also miss slots).
std::vector<Vec3> pentagon_positions(const Grid& g) {
  std::vector<Vec3> pentagons;
  for (index_t v = 0; v < g.num_vertices; ++v)
    if (g.v2c(v, 4) != missing_index && g.v2c(v, 5) == missing_index &&
        g.v2e(v, 5) == missing_index)
      pentagons.push_back(sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]));
  return pentagons;
}

/// Applies geofac_div, geofac_grg, geofac_n2s and the vertex RBF weights to the analytic fields
/// (on the points ICON4Py computes them on) and compares with the exact values.
OperatorErrors operator_errors(const Case& k) {
  const Grid& g = k.grid;
  const auto& c = k.coeff;
  const double radius = g.sphere_radius;
  const EdgeGeometry eg = compute_edge_geometry(g);
  std::vector<double> psi(static_cast<std::size_t>(g.num_cells));
  std::vector<double> vn(static_cast<std::size_t>(g.num_edges));
  std::vector<double> vn_rotation(static_cast<std::size_t>(g.num_edges));
  std::vector<Vec3> cell(static_cast<std::size_t>(g.num_cells));
  for (index_t i = 0; i < g.num_cells; ++i) {
    cell[i] = sphere::to_cartesian(g.cell_lon[i], g.cell_lat[i]);
    psi[i] = psi1(cell[i]);
  }
  const double u0 = 20.0;
  for (index_t e = 0; e < g.num_edges; ++e) {
    const Vec3 x = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
    vn[e] = sphere::dot(test_wind(x, radius), eg.normal_cartesian[e]);
    // Solid-body rotation u = u0 cos(lat), v = 0: V = u0 (z x p).
    vn_rotation[e] = sphere::dot(u0 * sphere::cross(Vec3{0, 0, 1}, x), eg.normal_cartesian[e]);
  }

  const std::vector<Vec3> pentagons = pentagon_positions(g);
  const auto far_from_pentagons = [&](Vec3 p) {
    for (const Vec3& q : pentagons)
      if (sphere::arc_length(p, q) * radius <= pentagon_exclusion) return false;
    return true;
  };

  ErrorAccumulator div, grad, lap, rbf, lap_far;
  for (index_t i = g.start(Location::Cell, Zone::LateralBoundary2); i < g.num_cells; ++i) {
    const double area = g.cell_area[i];
    double d = 0;
    for (int j = 0; j < 3; ++j) d += c.geofac_div(i, j) * vn[g.c2e(i, j)];
    div.add(area, d, radius * radius * psi1_laplacian(cell[i], radius));

    double gx = 0, gy = 0, l = 0;
    for (int j = 0; j < 4; ++j) {
      const double value = psi[g.c2e2co(i, j)];
      gx += c.geofac_grg_x(i, j) * value;
      gy += c.geofac_grg_y(i, j) * value;
      l += c.geofac_n2s(i, j) * value;
    }
    double ex = 0, ey = 0;
    sphere::cartesian_to_local(surface_gradient(cell[i], psi1_cartesian_gradient(cell[i]), radius),
                               g.cell_lon[i], g.cell_lat[i], ex, ey);
    grad.add(area, gx, ex);
    grad.add(area, gy, ey);
    lap.add(area, l, psi1_laplacian(cell[i], radius));
    if (far_from_pentagons(cell[i])) lap_far.add(area, l, psi1_laplacian(cell[i], radius));
  }
  for (index_t v = g.start(Location::Vertex, Zone::LateralBoundary2); v < g.num_vertices; ++v) {
    double u = 0, w = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t e = g.v2e(v, j);
      if (e == missing_index) continue;
      u += c.rbf_vec_coeff_v1(v, j) * vn_rotation[e];
      w += c.rbf_vec_coeff_v2(v, j) * vn_rotation[e];
    }
    rbf.add(g.dual_area[v], u, u0 * std::cos(g.vertex_lat[v]));
    rbf.add(g.dual_area[v], w, 0.0);
  }
  return {div.errors(), grad.errors(), lap.errors(), rbf.errors(), lap_far.errors()};
}

void print_errors(const char* grid, const OperatorErrors& e) {
  std::printf(
      "[ accuracy ] %s: divergence L2 %.3e Linf %.3e | gradient L2 %.3e Linf %.3e | "
      "laplacian L2 %.3e Linf %.3e | rbf L2 %.3e Linf %.3e\n",
      grid, e.divergence.l2, e.divergence.linf, e.gradient.l2, e.gradient.linf, e.laplacian.l2,
      e.laplacian.linf, e.rbf.l2, e.rbf.linf);
}

// ---- Octahedron (built in the test support, always available) ----------------------------------

TEST(InterpolationCoefficients, OctahedronIdentities) {
  const Case& k = octahedron_case();
  expect_finite_and_shaped(k);
  expect_definitions(k);
  expect_e_bln_c_s_interpolates_linearly(k, 2e-2);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    expect_n2s_identities(k, seed);
    expect_discrete_gauss(k, seed);
    expect_average_preserves_global_mean(k, seed);
  }
  expect_c_bln_avg_conserves_mass(k, 1e-12);
  expect_rbf_normalization(k);
  expect_rbf_matches_reference(k, 1, 1e-12);
  for (double x : k.coeff.nudgecoeff_e) EXPECT_EQ(x, 0.0);
  // By symmetry the gradient of a constant vanishes.
  EXPECT_LT(gradient_of_constant(k), 1e-14);
}

// ---- Real ICON grids ---------------------------------------------------------------------------

TEST(InterpolationCoefficients, GlobalR02B03Identities) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Case& k = file_case(path);
  expect_finite_and_shaped(k);
  expect_definitions(k);
  expect_e_bln_c_s_interpolates_linearly(k, 1e-4);
  for (std::uint64_t seed : {11u, 12u}) {
    expect_n2s_identities(k, seed);
    expect_discrete_gauss(k, seed);
    expect_average_preserves_global_mean(k, seed);
  }
  expect_c_bln_avg_conserves_mass(k, 1e-9);
  const double grad_const = gradient_of_constant(k);
  std::printf("[ grg      ] R02B03: |grad(const)| / |geofac_grg| <= %.2e\n", grad_const);
  EXPECT_LT(grad_const, 1e-3);
  for (double x : k.coeff.nudgecoeff_e) EXPECT_EQ(x, 0.0);
  expect_rbf_normalization(k);
  expect_rbf_matches_reference(k, 7, 1e-7);
  // Pentagons: 5 edges, the 6th slot is missing and has weight 0 (checked above); 12 of them.
  int pentagons = 0;
  for (index_t v = 0; v < k.grid.num_vertices; ++v) pentagons += k.grid.v2e(v, 5) == missing_index;
  EXPECT_EQ(pentagons, 12);
  const double sbr = solid_body_rotation_error(k);
  std::printf("[ rbf      ] R02B03: solid-body rotation, largest vertex error %.2e u0\n", sbr);
  EXPECT_LT(sbr, 1e-2);
  // R2B3: mean characteristic length sqrt(4 pi R^2 / 5120) ~ 315 km >= 2 km, so ICON's scale 0.5.
  EXPECT_DOUBLE_EQ(mean_characteristic_length(k.grid),
                   std::sqrt(4 * pi * k.grid.sphere_radius * k.grid.sphere_radius / 5120.0));
  EXPECT_EQ(k.coeff.rbf_scale_vertex, 0.5);
}

TEST(InterpolationCoefficients, LimitedAreaR19B04Identities) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Case& k = file_case(path);
  const Grid& g = k.grid;
  ASSERT_TRUE(g.limited_area);
  expect_finite_and_shaped(k);
  expect_definitions(k);
  expect_e_bln_c_s_interpolates_linearly(k, 1e-5);
  for (std::uint64_t seed : {21u, 22u}) expect_n2s_identities(k, seed);
  expect_c_bln_avg_conserves_mass(k, 1e-7);
  const double grad_const = gradient_of_constant(k);
  std::printf("[ grg      ] R19B04: |grad(const)| / |geofac_grg| <= %.2e\n", grad_const);
  EXPECT_LT(grad_const, 1e-5);
  expect_rbf_normalization(k);
  expect_rbf_matches_reference(k, 5, 1e-5);
  const double sbr = solid_body_rotation_error(k);
  std::printf("[ rbf      ] R19B04: solid-body rotation, largest vertex error %.2e u0\n", sbr);
  EXPECT_LT(sbr, 1e-2);

  // Boundary row 1 is outside every range ICON4Py computes n2s, grg and c_bln_avg on.
  for (index_t c = 0; c < g.start(Location::Cell, Zone::LateralBoundary2); ++c) {
    EXPECT_EQ(max_abs(k.coeff.geofac_n2s, c), 0.0);
    EXPECT_EQ(max_abs(k.coeff.geofac_grg_x, c), 0.0);
  }

  // nudgecoeff_e: 0.375 exp(-(refin_e - 10) / 4) on refin_e 10..27 (from the NUDGING_LEVEL_2 row
  // on), 0 in the boundary rows 1..9 and beyond row 27.
  const auto& refin = g.refin_ctrl[static_cast<int>(Location::Edge)];
  std::map<int, int> edges_per_row;
  for (index_t e = 0; e < g.num_edges; ++e) {
    const int row = refin[e];
    const double expected = row >= 10 && row <= 27 ? 0.375 * std::exp(-(row - 10) / 4.0) : 0.0;
    ASSERT_NEAR(k.coeff.nudgecoeff_e[e], expected, 1e-16) << "edge " << e << " refin " << row;
    ++edges_per_row[row];
  }
  EXPECT_GT(edges_per_row[10], 0);
  EXPECT_GT(edges_per_row[27], 0);
  EXPECT_EQ(*std::max_element(k.coeff.nudgecoeff_e.begin(), k.coeff.nudgecoeff_e.end()), 0.375);
}

/// One resolution of the real grids: catches sign and orientation mistakes that identities miss
/// (the bounds are a few times the errors measured on these grids).
TEST(InterpolationCoefficients, SmoothFieldsOnRealGridsAreAccurate) {
  ICONDIFF_REAL_GRID_OR_SKIP(global, test::global_r02b03);
  ICONDIFF_REAL_GRID_OR_SKIP(lam, test::lam_r19b04);
  // Measured (relative L2): R02B03 div 9.0e-3, grad 3.0e-2, lap 2.2e-2, rbf 7.3e-4;
  //                         R19B04 div 2.4e-5, grad 2.7e-4, lap 6.4e-4, rbf 4.7e-7.
  const std::array<std::pair<std::string, std::array<double, 4>>, 2> cases{{
      {global, {3e-2, 1e-1, 1e-1, 3e-3}},
      {lam, {1e-4, 1e-3, 3e-3, 2e-6}},
  }};
  for (const auto& [path, bound] : cases) {
    const Case& k = file_case(path);
    const OperatorErrors e = operator_errors(k);
    print_errors(k.grid.name.c_str(), e);
    EXPECT_LT(e.divergence.l2, bound[0]);
    EXPECT_LT(e.gradient.l2, bound[1]);
    EXPECT_LT(e.laplacian.l2, bound[2]);
    EXPECT_LT(e.rbf.l2, bound[3]);
    EXPECT_LT(e.rbf.linf, bound[3]);
  }
}

TEST(InterpolationCoefficients, ParentGridIsFinite) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04_parent);
  const Case& k = file_case(path);
  expect_finite_and_shaped(k);
  expect_definitions(k);
}

// ---- Configuration, scale rule, labels ---------------------------------------------------------

void expect_config_error(const InterpolationConfig& config, const std::string& field) {
  try {
    config.validate();
    ADD_FAILURE() << "no ConfigError for " << field;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

/// The one-shot function stores exactly what the factories compute one by one.
TEST(InterpolationCoefficients, OneShotEqualsTheFactories) {
  const Case& k = octahedron_case();
  const Grid& g = k.grid;
  const EdgeGeometry eg = compute_edge_geometry(g);
  EXPECT_EQ(k.coeff.geofac_div, compute_geofac_div(g));
  EXPECT_EQ(k.coeff.geofac_rot, compute_geofac_rot(g));
  EXPECT_EQ(k.coeff.geofac_n2s, compute_geofac_n2s(g, k.coeff.geofac_div));
  EXPECT_EQ(k.coeff.c_lin_e, compute_c_lin_e(g));
  HostTable<double> x, y;
  compute_geofac_grg(g, eg, k.coeff.geofac_div, k.coeff.c_lin_e, x, y);
  EXPECT_EQ(k.coeff.geofac_grg_x, x);
  EXPECT_EQ(k.coeff.geofac_grg_y, y);
  EXPECT_EQ(k.coeff.e_bln_c_s, compute_e_bln_c_s(g));
  EXPECT_EQ(k.coeff.c_bln_avg, compute_c_bln_avg(g, 0.5));
  EXPECT_EQ(k.coeff.nudgecoeff_e, compute_nudgecoeff_e(g, {}));
  compute_rbf_vec_coeff_v(g, eg, RbfKernel::Gaussian, k.coeff.rbf_scale_vertex, x, y);
  EXPECT_EQ(k.coeff.rbf_vec_coeff_v1, x);
  EXPECT_EQ(k.coeff.rbf_vec_coeff_v2, y);
  // Bad arguments of the factories.
  EXPECT_THROW(compute_c_bln_avg(g, 1.5), InvalidArgument);
  EXPECT_THROW(compute_rbf_vec_coeff_v(g, eg, RbfKernel::Gaussian, 0.0, x, y), InvalidArgument);
  EXPECT_THROW(compute_rbf_vec_coeff_v(g, EdgeGeometry{}, RbfKernel::Gaussian, 0.5, x, y),
               InvalidArgument);
  Grid broken = g;
  broken.dual_edge_length.clear();
  EXPECT_THROW(compute_geofac_n2s(broken, k.coeff.geofac_div), GridError);
}

TEST(InterpolationConfig, RejectsBadValuesNamingTheField) {
  EXPECT_NO_THROW(InterpolationConfig{}.validate());
  InterpolationConfig c;
  c.divergence_averaging_central_cell_weight = 1.5;
  expect_config_error(c, "divergence_averaging_central_cell_weight");
  c = {};
  c.max_nudging_coefficient = -0.1;
  expect_config_error(c, "max_nudging_coefficient");
  c = {};
  c.nudge_efold_width = 0.0;
  expect_config_error(c, "nudge_efold_width");
  c = {};
  c.nudge_zone_width = -1;
  expect_config_error(c, "boundary_depth_index");
  c = {};
  c.rbf_kernel_vertex = static_cast<RbfKernel>(2);
  expect_config_error(c, "rbf_vec_kern_v");
  c = {};
  c.rbf_scale_vertex = std::nan("");
  expect_config_error(c, "rbf_scale_vertex");
  // compute_interpolation_coefficients validates too.
  c = {};
  c.nudge_efold_width = -2.0;
  EXPECT_THROW(compute_interpolation_coefficients(test::make_octahedron_grid(), c), ConfigError);
}

TEST(InterpolationConfig, NudgingZoneMustFitTheLimitedAreaGrid) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid g = read_icon_grid(path);  // refin_c_ctrl <= 14: nudge_zone_width + 4 <= 14
  InterpolationConfig c;
  c.nudge_zone_width = 11;
  try {
    compute_interpolation_coefficients(g, c);
    ADD_FAILURE() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("nudge_zone_width"), std::string::npos) << e.what();
  }
}

TEST(InterpolationConfig, DefaultRbfScaleFollowsIconsResolutionRule) {
  // mo_interpol_config.configure_interpolation (rbf_vec_scale_v).
  EXPECT_EQ(default_rbf_scale_vertex(2000.0), 0.5);
  EXPECT_EQ(default_rbf_scale_vertex(160e3), 0.5);
  EXPECT_DOUBLE_EQ(default_rbf_scale_vertex(1000.0),
                   0.5 / (1.0 + 1.8 * std::pow(std::log(2.0), 3.0)));
  EXPECT_DOUBLE_EQ(default_rbf_scale_vertex(500.0),
                   0.5 / (1.0 + 1.8 * std::pow(std::log(4.0), 3.0)));
  EXPECT_DOUBLE_EQ(default_rbf_scale_vertex(100.0),
                   0.5 / (1.0 + 1.8 * std::pow(std::log(20.0), 3.0)) * std::pow(0.8, 0.96));
  EXPECT_THROW(default_rbf_scale_vertex(0.0), InvalidArgument);
  // A grid without root/level: from its mean cell area.
  const Grid g = test::make_octahedron_grid(1.0);
  EXPECT_DOUBLE_EQ(mean_characteristic_length(g), std::sqrt(4 * pi / 8));
  // An explicit scale wins (ICON: namelist value > 0).
  InterpolationConfig c;
  c.rbf_scale_vertex = 0.3;
  EXPECT_EQ(compute_interpolation_coefficients(g, c).rbf_scale_vertex, 0.3);
  c.rbf_kernel_vertex = RbfKernel::InverseMultiquadric;
  const auto imq = compute_interpolation_coefficients(g, c);
  EXPECT_TRUE(all_finite(imq.rbf_vec_coeff_v1));
}

std::vector<std::string>& launched_kernels() {
  static std::vector<std::string> kernels;
  return kernels;
}
void record_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  launched_kernels().emplace_back(name);
}

TEST(InterpolationCoefficients, RbfSolveIsALabelledKokkosKernel) {
  compat::set_begin_parallel_for_callback(record_kernel);
  compute_interpolation_coefficients(test::make_octahedron_grid(), {});
  compat::set_begin_parallel_for_callback(nullptr);
  EXPECT_NE(std::find(launched_kernels().begin(), launched_kernels().end(),
                      "icondiff::interpolation::rbf_vec_coeff_v"),
            launched_kernels().end());
}

// ---- Convergence on generated icosahedral grids ------------------------------------------------

struct ConvergenceRow {
  int bisections = 0;
  index_t cells = 0;
  double mean_edge_km = 0;
  OperatorErrors errors;
};

[[maybe_unused]] double observed_order(double coarse, double fine) {
  return std::log2(coarse / fine);  // each bisection halves h
}

[[maybe_unused]] void print_convergence_table(const std::vector<ConvergenceRow>& rows) {
  const auto print_operator = [&](const char* name, Errors OperatorErrors::*member) {
    std::printf(
        "[ converge ] %-10s | grid   | cells  | h [km] | L2 error  | order | Linf error | order\n",
        name);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Errors e = rows[i].errors.*member;
      std::printf("[ converge ] %-10s | R2B%-3d | %6d | %6.1f | %9.3e |", "", rows[i].bisections,
                  rows[i].cells, rows[i].mean_edge_km, e.l2);
      if (i == 0)
        std::printf("       |");
      else
        std::printf(" %5.2f |", observed_order((rows[i - 1].errors.*member).l2, e.l2));
      std::printf(" %10.3e |", e.linf);
      if (i == 0)
        std::printf("\n");
      else
        std::printf(" %5.2f\n", observed_order((rows[i - 1].errors.*member).linf, e.linf));
    }
  };
  print_operator("divergence", &OperatorErrors::divergence);
  print_operator("gradient", &OperatorErrors::gradient);
  print_operator("laplacian", &OperatorErrors::laplacian);
  std::printf(
      "[ converge ] lap far = laplacian on the cells more than %.0f km from every pentagon\n",
      pentagon_exclusion / 1000);
  print_operator("lap far", &OperatorErrors::laplacian_far);
  print_operator("rbf vertex", &OperatorErrors::rbf);
}

/// The L2 error must fall from each grid to the next, and the observed order between the two
/// finest grids must exceed `min_order_l2` / `min_order_linf` (expected order minus a margin).
[[maybe_unused]] void expect_order(const std::vector<ConvergenceRow>& rows,
                                   Errors OperatorErrors::*member, const char* name,
                                   double min_order_l2, double min_order_linf) {
  for (std::size_t i = 1; i < rows.size(); ++i)
    EXPECT_LT((rows[i].errors.*member).l2, (rows[i - 1].errors.*member).l2)
        << name << ": L2 error grows from R2B" << rows[i - 1].bisections << " to R2B"
        << rows[i].bisections;
  const auto& coarse = rows[rows.size() - 2].errors.*member;
  const auto& fine = rows.back().errors.*member;
  EXPECT_GT(observed_order(coarse.l2, fine.l2), min_order_l2) << name << " (L2)";
  EXPECT_GT(observed_order(coarse.linf, fine.linf), min_order_linf) << name << " (Linf)";
}

#if ICONDIFF_TEST_HAVE_GENERATOR
Grid generated_r2(int bisections) {
  return generate_icosahedral_grid(2, bisections, earth_radius);
}
#endif

/// The identities also hold on a generated grid (the generator's own geometry, not a file's).
TEST(InterpolationCoefficients, GeneratedR2B4Identities) {
#if !ICONDIFF_TEST_HAVE_GENERATOR
  GTEST_SKIP() << "include/icondiff/grid/icosahedral_generator.hpp is not in this build yet";
#else
  const Case& k = cached_case("generated R2B4", [] { return generated_r2(4); });
  expect_finite_and_shaped(k);
  expect_definitions(k);
  expect_e_bln_c_s_interpolates_linearly(k, 1e-4);
  expect_n2s_identities(k, 31);
  expect_discrete_gauss(k, 32);
  expect_average_preserves_global_mean(k, 33);
  expect_c_bln_avg_conserves_mass(k, 1e-7);
  EXPECT_LT(gradient_of_constant(k), 1e-3);
  expect_rbf_normalization(k);
  expect_rbf_matches_reference(k, 11, 1e-7);
  int pentagons = 0;
  for (index_t v = 0; v < k.grid.num_vertices; ++v) pentagons += k.grid.v2e(v, 5) == missing_index;
  EXPECT_EQ(pentagons, 12);
  for (double x : k.coeff.nudgecoeff_e) EXPECT_EQ(x, 0.0);
#endif
}

TEST(InterpolationConvergence, GeneratedIcosahedralGridsR2B3ToR2B6) {
#if !ICONDIFF_TEST_HAVE_GENERATOR
  GTEST_SKIP() << "include/icondiff/grid/icosahedral_generator.hpp (generate_icosahedral_grid) is "
                  "not in this build yet: the convergence study on generated R2B3..R2B6 grids "
                  "runs once it is";
#else
  std::vector<ConvergenceRow> rows;
  for (int bisections = 3; bisections <= 6; ++bisections) {
    // Only the coefficients the study uses: c_bln_avg's 1000 sweeps would dominate the run time.
    Case k;
    k.grid = generated_r2(bisections);
    const EdgeGeometry eg = compute_edge_geometry(k.grid);
    k.coeff.geofac_div = compute_geofac_div(k.grid);
    k.coeff.geofac_n2s = compute_geofac_n2s(k.grid, k.coeff.geofac_div);
    k.coeff.c_lin_e = compute_c_lin_e(k.grid);
    compute_geofac_grg(k.grid, eg, k.coeff.geofac_div, k.coeff.c_lin_e, k.coeff.geofac_grg_x,
                       k.coeff.geofac_grg_y);
    k.coeff.rbf_scale_vertex = default_rbf_scale_vertex(mean_characteristic_length(k.grid));
    compute_rbf_vec_coeff_v(k.grid, eg, RbfKernel::Gaussian, k.coeff.rbf_scale_vertex,
                            k.coeff.rbf_vec_coeff_v1, k.coeff.rbf_vec_coeff_v2);
    ConvergenceRow row;
    row.bisections = bisections;
    row.cells = k.grid.num_cells;
    double length = 0;
    for (double l : k.grid.edge_length) length += l;
    row.mean_edge_km = length / static_cast<double>(k.grid.num_edges) / 1000.0;
    row.errors = operator_errors(k);
    rows.push_back(row);
  }
  print_convergence_table(rows);
  // Expected orders on these grids (ICON's spring-dynamics optimisation after every bisection,
  // as in ICON's own files; see docs/dev/interpolation.md): divergence and gradient 1 at the
  // circumcentres; the vector RBF 2; the scalar Laplacian 1, except on the few cells around the
  // 12 pentagons, whose distorted shape does not change with resolution: there its relative error
  // stays about 0.04 (so the max norm only falls slowly, order about 0.1), on an area that
  // shrinks like h^2 (so the L2 order is still about 1). Away from the pentagons the max norm
  // converges at first order too.
  // Measured from R2B5 to R2B6: divergence 1.00 (L2) / 1.01 (Linf), gradient 1.00 / 1.00,
  // RBF 2.00 / 2.00, Laplacian 0.94 / 0.09 (Linf 4.36e-2 at R2B6), Laplacian beyond 2000 km of
  // the pentagons 1.00 / 1.01. Without the optimisation the Laplacian's max error stayed at 0.10
  // on the seams of the bisection hierarchy everywhere, with an L2 order of 0.53.
  expect_order(rows, &OperatorErrors::divergence, "divergence", 0.8, 0.8);
  expect_order(rows, &OperatorErrors::gradient, "gradient", 0.8, 0.8);
  expect_order(rows, &OperatorErrors::rbf, "rbf vertex", 1.8, 1.8);
  expect_order(rows, &OperatorErrors::laplacian, "laplacian", 0.8, -0.05);
  expect_order(rows, &OperatorErrors::laplacian_far, "laplacian away from pentagons", 0.8, 0.8);
  EXPECT_LT(rows.back().errors.laplacian.linf, 0.05) << "laplacian (Linf, at the pentagons)";
#endif
}

}  // namespace
}  // namespace icondiff
