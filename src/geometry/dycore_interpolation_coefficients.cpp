// The interpolation coefficients of ICON's dynamical core (solve_nh) that the diffusion granule
// does not need: c_intp, e_flx_avg, geofac_grdiv, pos_on_tplane_e_1/2, rbf_vec_coeff_e and
// coeff_gradekin, the fields ICON4Py 0.2.0's solve_nh_init takes besides the diffusion ones.
//
// Each factory is a port of the NumPy function ICON4Py's factories register for the field
// (interpolation_factory.InterpolationFieldsFactory, metrics_factory for coeff_gradekin), with the
// same inputs and horizontal start. The loops below evaluate ICON4Py's whole-array expressions
// point by point in the same order of operations: the same products, quotients and left-to-right
// sums (NumPy's sums of fewer than 8 terms, as here, add sequentially), no fused multiply-adds
// (the build does not contract), so with the same inputs the results are the same bits, except
// where NumPy hands the work to BLAS/LAPACK (the RBF dot products and solve, see
// compute_rbf_vec_coeff_e) or to its own vectorised sin/cos/arccos, which may round differently
// from glibc's in the last bit. docs/dev/interpolation.md has the details per field.
//
// Unlike ICON4Py, a missing neighbour (-1) is never read: every point from the field's horizontal
// start has a complete stencil on ICON grids (tested), and every point before it is 0.
#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>

#include "factory_checks.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace icondiff {

namespace {

template <class T>
void require_table(const Grid& g, const HostTable<T>& t, const char* name, index_t rows,
                   std::size_t cols, const char* field) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    throw GridError(fmt::format("grid '{}': {} has shape ({}, {}), expected ({}, {}) for {}",
                                g.name, name, t.rows(), t.cols(), rows, cols, field));
}

template <class T>
void require_vector(const Grid& g, const std::vector<T>& v, const char* name, index_t size,
                    const char* field) {
  if (v.size() != static_cast<std::size_t>(size))
    throw GridError(fmt::format("grid '{}': {} has {} entries, expected {} for {}", g.name, name,
                                v.size(), size, field));
}

/// ICON4Py's inverse_of_dual_edge_length (math/utils.compute_inverse_on_edges): 1/f, 0 where f is
/// 0.
double inverse(double f) {
  return f != 0.0 ? 1.0 / f : 0.0;
}

[[noreturn]] void inconsistent(const Grid& g, const char* field, index_t e,
                               const std::string& what) {
  throw GridError(fmt::format("grid '{}': {} of edge {}: {}", g.name, field, e, what));
}

/// Position of `value` in row `row` of `table`, or -1.
int slot_of(const HostTable<index_t>& table, index_t row, index_t value) {
  for (std::size_t j = 0; j < table.cols(); ++j)
    if (table(static_cast<std::size_t>(row), j) == value) return static_cast<int>(j);
  return -1;
}

/// ICON4Py projection.gnomonic_proj(lon_c, lat_c, lon, lat): the point (lon, lat) projected onto
/// the plane tangent to the unit sphere at (lon_c, lat_c), in the (east, north) basis there.
void gnomonic_projection(double lon_c, double lat_c, double lon, double lat, double& x, double& y) {
  const double cosc =
      std::sin(lat_c) * std::sin(lat) + std::cos(lat_c) * std::cos(lat) * std::cos(lon - lon_c);
  const double zk = 1.0 / cosc;
  x = zk * std::cos(lat) * std::sin(lon - lon_c);
  y = zk *
      (std::cos(lat_c) * std::sin(lat) - std::sin(lat_c) * std::cos(lat) * std::cos(lon - lon_c));
}

// ---- The RBF system of an edge (rbf_interpolation._compute_rbf_interpolation_coeffs) -----------

constexpr int edge_stencil = 4;  // rbf_vec_dim_e in ICON, RBF_STENCIL_SIZE[EDGE] in ICON4Py

/// ICON4Py _gaussian / _inverse_multiquadratic (ICON intp_functions.inc gaussi, inv_multiq).
double kernel_value(RbfKernel kernel, double distance, double scale) {
  const double val = distance / scale;
  return kernel == RbfKernel::Gaussian ? std::exp(-1.0 * val * val)
                                       : 1.0 / std::sqrt(1.0 + val * val);
}

double dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// arccos of the clipped cosine, as ICON4Py's _compute_distance_* (great-circle angle, rad).
double arc_from_cosine(double cosine) {
  return std::acos(std::min(1.0, std::max(-1.0, cosine)));
}

/// Solves a x = b (n <= 4) in place by LU with partial pivoting, the algorithm of LAPACK's dgesv
/// that ICON4Py's numpy.linalg.solve calls: pivot = first largest |a(i,j)| (idamax), multipliers
/// a(i,j) * (1 / pivot) (dgetf2's dscal), right-looking rank-1 updates, then the row swaps, the
/// unit lower and the upper triangular solves on b (dgetrs). Returns false for a zero pivot.
bool solve_pivoted(int n, double a[edge_stencil][edge_stencil], double b[edge_stencil]) {
  int pivot[edge_stencil];
  for (int j = 0; j < n; ++j) {
    int p = j;
    for (int i = j + 1; i < n; ++i)
      if (std::fabs(a[i][j]) > std::fabs(a[p][j])) p = i;
    pivot[j] = p;
    if (a[p][j] == 0.0) return false;
    if (p != j)
      for (int k = 0; k < n; ++k) std::swap(a[j][k], a[p][k]);
    const double r = 1.0 / a[j][j];
    for (int i = j + 1; i < n; ++i) a[i][j] *= r;
    for (int k = j + 1; k < n; ++k)
      for (int i = j + 1; i < n; ++i) a[i][k] -= a[i][j] * a[j][k];
  }
  for (int j = 0; j < n; ++j)
    if (pivot[j] != j) std::swap(b[j], b[pivot[j]]);
  for (int k = 0; k < n; ++k)
    if (b[k] != 0.0)
      for (int i = k + 1; i < n; ++i) b[i] -= b[k] * a[i][k];
  for (int k = n - 1; k >= 0; --k)
    if (b[k] != 0.0) {
      b[k] /= a[k][k];
      for (int i = 0; i < k; ++i) b[i] -= b[k] * a[i][k];
    }
  return true;
}

}  // namespace

// ---- c_intp ------------------------------------------------------------------------------------

/// interpolation_fields.compute_cells_aw_verts from start(V, LATERAL_BOUNDARY_LEVEL_2): for every
/// edge je of the vertex (skipping -1 and a repeat of the previous slot), the products
/// edge_vert_length[e, idx_ve] * edge_cell_length[e, k] are added to the V2C slot of cell
/// E2C[e,k] (skipping -1 and repeats), in V2E order; then 0.5 * sum / dual_area.
HostTable<double> compute_c_intp(const Grid& g) {
  const char* field = "c_intp";
  const index_t nv = g.num_vertices, ne = g.num_edges;
  require_table(g, g.v2e, "v2e", nv, 6, field);
  require_table(g, g.v2c, "v2c", nv, 6, field);
  require_table(g, g.e2v, "e2v", ne, 2, field);
  require_table(g, g.e2c, "e2c", ne, 2, field);
  require_table(g, g.edge_vertex_distance, "edge_vertex_distance", ne, 2, field);
  require_table(g, g.edge_cell_distance, "edge_cell_distance", ne, 2, field);
  require_vector(g, g.dual_area, "dual_area", nv, field);
  HostTable<double> out(static_cast<std::size_t>(nv), 6, 0.0);
  for (index_t v = g.start(Location::Vertex, Zone::LateralBoundary2); v < nv; ++v) {
    bool valid_cell[6];
    for (int jc = 0; jc < 6; ++jc)
      valid_cell[jc] =
          g.v2c(v, jc) != missing_index && (jc == 0 || g.v2c(v, jc) != g.v2c(v, jc - 1));
    for (int je = 0; je < 6; ++je) {
      const index_t e = g.v2e(v, je);
      if (e == missing_index || (je > 0 && e == g.v2e(v, je - 1))) continue;
      const int idx_ve = g.e2v(e, 0) == v ? 0 : 1;
      const index_t cell_0 = g.e2c(e, 0), cell_1 = g.e2c(e, 1);
      const double at_cell_0 = g.edge_vertex_distance(e, idx_ve) * g.edge_cell_distance(e, 0);
      const double at_cell_1 = g.edge_vertex_distance(e, idx_ve) * g.edge_cell_distance(e, 1);
      for (int jc = 0; jc < 6; ++jc) {
        if (!valid_cell[jc]) continue;
        if (cell_0 == g.v2c(v, jc)) out(v, jc) += at_cell_0;
        if (cell_1 == g.v2c(v, jc)) out(v, jc) += at_cell_1;
      }
    }
    for (int jc = 0; jc < 6; ++jc) out(v, jc) = 0.5 * out(v, jc) / g.dual_area[v];
  }
  return out;
}

// ---- e_flx_avg ---------------------------------------------------------------------------------

/// interpolation_fields.compute_e_flx_avg. With c0, c1 = E2C[e], j = the C2E slot of e in c0 and
/// inv = the C2E2C slot of c0 in c1 (= the C2E slot of e in c1):
///  1. from start(E, LATERAL_BOUNDARY_LEVEL_4), the diamond weights
///       e_flx_avg[e, 1+i] = c_bln_avg[c1, inv+1] * geofac_div[c0, (i+j+1)%3] / geofac_div[c1, inv]
///       e_flx_avg[e, 3+i] = c_bln_avg[c0, j+1] * geofac_div[c1, (inv+i+1)%3] / geofac_div[c0, j]
///     (the flux through a diamond edge enters the averaged divergence of the cell across e with
///     the weight c_bln_avg gives that cell's neighbour);
///  2. from start(E, LATERAL_BOUNDARY_LEVEL_5), the central weight: the mean of the two values
///     that make the averaged fluxes reproduce c0's and c1's averaged divergence, given the
///     diamond weights of the neighbouring edges (the magic slots iie of ICON);
///  3. from LATERAL_BOUNDARY_LEVEL_5, the row divided by checksum = sum_k e_flx_avg[e,k]
///     n_e . n_k, so a uniform vector field's normal component is reproduced.
HostTable<double> compute_e_flx_avg(const Grid& g, const EdgeGeometry& eg,
                                    const HostTable<double>& c_bln_avg,
                                    const HostTable<double>& div) {
  const char* field = "e_flx_avg";
  const index_t nc = g.num_cells, ne = g.num_edges;
  require_table(g, g.c2e, "c2e", nc, 3, field);
  require_table(g, g.c2e2c, "c2e2c", nc, 3, field);
  require_table(g, g.e2c, "e2c", ne, 2, field);
  require_table(g, g.e2c2e, "e2c2e", ne, 4, field);
  require_table(g, c_bln_avg, "c_bln_avg", nc, 4, field);
  require_table(g, div, "geofac_div", nc, 3, field);
  require_vector(g, eg.normal_cartesian, "the edge geometry's normal_cartesian", ne, field);

  // inv_neighbor_id[c, j]: the C2E2C slot of c in its neighbour C2E2C[c, j] (the last match).
  HostTable<int> inv_neighbor(static_cast<std::size_t>(nc), 3, -1);
  for (index_t c = 0; c < nc; ++c)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const index_t n = g.c2e2c(c, j);
        if (n >= 0 && g.c2e2c(n, i) == c) inv_neighbor(c, j) = i;
      }

  HostTable<double> out(static_cast<std::size_t>(ne), 5, 0.0);
  const index_t start_p3 = g.start(Location::Edge, Zone::LateralBoundary4);
  const index_t start_p4 = g.start(Location::Edge, Zone::LateralBoundary5);

  // The cells of edge e, the C2E slot j of e in c0 and inv = inv_neighbor(c0, j).
  struct Diamond {
    index_t c0, c1;
    int j, inv;
  };
  // An outer halo edge of a rank's part lacks a cell the part does not hold: left alone.
  const auto outer_halo = [&](index_t e) {
    return (g.e2c(e, 0) == missing_index || g.e2c(e, 1) == missing_index) &&
           detail::is_halo_point(g, Location::Edge, e);
  };
  const auto diamond = [&](index_t e) {
    Diamond d{g.e2c(e, 0), g.e2c(e, 1), -1, -1};
    if (d.c0 == missing_index || d.c1 == missing_index)
      inconsistent(g, field, e, "an edge from boundary row 4 on has a missing cell in E2C");
    d.j = slot_of(g.c2e, d.c0, e);
    if (d.j < 0) inconsistent(g, field, e, "it is not in C2E of its cell E2C[e,0]");
    d.inv = inv_neighbor(d.c0, d.j);
    if (d.inv < 0 || g.c2e2c(d.c0, d.j) != d.c1 || g.c2e(d.c1, d.inv) != e)
      inconsistent(g, field, e,
                   "C2E2C of its cell E2C[e,0] does not hold E2C[e,1] in the slot of the edge, or "
                   "the two cells do not see each other across it");
    return d;
  };

  // 1. Diamond weights.
  for (index_t e = start_p3; e < ne; ++e) {
    if (outer_halo(e)) continue;
    const Diamond d = diamond(e);
    for (int i = 0; i < 2; ++i) {
      out(e, i + 1) = c_bln_avg(d.c1, d.inv + 1) * div(d.c0, (i + d.j + 1) % 3) / div(d.c1, d.inv);
      out(e, i + 3) = c_bln_avg(d.c0, 1 + d.j) * div(d.c1, (d.inv + i + 1) % 3) / div(d.c0, d.j);
    }
  }

  // 2. Central weights. iie[k]: the slot of e's diamond edge E2C2E[e,k] whose weight carries the
  // flux of that edge into the cell of e it belongs to: 2 / 4 (k even) or 1 / 3 (k odd) as that
  // cell is E2C[.,0] / E2C[.,1] of the diamond edge.
  std::vector<double> central(static_cast<std::size_t>(ne), 0.0);
  for (index_t e = start_p4; e < ne; ++e) {
    if (outer_halo(e)) continue;
    const Diamond d = diamond(e);
    int iie[4];
    for (int k = 0; k < 4; ++k) {
      const index_t n = g.e2c2e(e, k);
      const index_t cell = k < 2 ? d.c0 : d.c1;
      const int first = k % 2 == 0 ? 2 : 1;
      iie[k] = g.e2c(n, 0) == cell ? first : (g.e2c(n, 1) == cell ? first + 2 : -1);
      if (iie[k] < 0)
        inconsistent(g, field, e,
                     fmt::format("its diamond edge E2C2E[e,{}] = {} does not "
                                 "belong to the cell E2C[e,{}]",
                                 k, n, k / 2));
    }
    const index_t c0 = d.c0, c1 = d.c1;
    const int i = d.j, inv = d.inv;
    central[e] = 0.5 * ((div(c0, i) * c_bln_avg(c0, 0) + div(c1, inv) * c_bln_avg(c0, i + 1) -
                         out(g.e2c2e(e, 0), iie[0]) * div(c0, (i + 1) % 3) -
                         out(g.e2c2e(e, 1), iie[1]) * div(c0, (i + 2) % 3)) /
                            div(c0, i) +
                        (div(c1, inv) * c_bln_avg(c1, 0) + div(c0, i) * c_bln_avg(c1, inv + 1) -
                         out(g.e2c2e(e, 2), iie[2]) * div(c1, (inv + 1) % 3) -
                         out(g.e2c2e(e, 3), iie[3]) * div(c1, (inv + 2) % 3)) /
                            div(c1, inv));
  }
  for (index_t e = start_p4; e < ne; ++e) out(e, 0) = central[e];

  // 3. Normalisation.
  for (index_t e = start_p4; e < ne; ++e) {
    if (outer_halo(e)) continue;
    const sphere::Vec3 n = eg.normal_cartesian[e];
    double sum = 0.0;
    for (int k = 0; k < 4; ++k) {
      const sphere::Vec3 m = eg.normal_cartesian[g.e2c2e(e, k)];
      const double d2 = n.x * m.x + n.y * m.y + n.z * m.z;
      sum += d2 * out(e, 1 + k);
    }
    const double checksum = out(e, 0) + sum;
    for (int k = 0; k < 5; ++k) out(e, k) = out(e, k) / checksum;
  }
  return out;
}

// ---- geofac_grdiv ------------------------------------------------------------------------------

/// interpolation_fields.compute_geofac_grdiv from start(E, LATERAL_BOUNDARY_LEVEL_2):
///   [0]    (geofac_div[c1, slot of e] - geofac_div[c0, slot of e]) / dual_edge_length
///   [1, 2] -geofac_div[c0, slot of E2C2E[e, 0/1]] / dual_edge_length
///   [3, 4] +geofac_div[c1, slot of E2C2E[e, 2/3]] / dual_edge_length
/// (the divisions are products with ICON4Py's inverse_of_dual_edge_length).
HostTable<double> compute_geofac_grdiv(const Grid& g, const HostTable<double>& div) {
  const char* field = "geofac_grdiv";
  const index_t nc = g.num_cells, ne = g.num_edges;
  require_table(g, g.c2e, "c2e", nc, 3, field);
  require_table(g, g.e2c, "e2c", ne, 2, field);
  require_table(g, g.e2c2e, "e2c2e", ne, 4, field);
  require_table(g, div, "geofac_div", nc, 3, field);
  require_vector(g, g.dual_edge_length, "dual_edge_length", ne, field);
  HostTable<double> out(static_cast<std::size_t>(ne), 5, 0.0);
  for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < ne; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    if (c0 == missing_index || c1 == missing_index) {
      if (detail::is_halo_point(g, Location::Edge, e)) continue;
      inconsistent(g, field, e, "an edge from boundary row 2 on has a missing cell in E2C");
    }
    const double inv_dual = inverse(g.dual_edge_length[e]);
    double centre = 0.0;
    for (int j = 0; j < 3; ++j)
      if (g.c2e(c1, j) == e) centre = div(c1, j);
    for (int j = 0; j < 3; ++j)
      if (g.c2e(c0, j) == e) centre = (centre - div(c0, j)) * inv_dual;
    out(e, 0) = centre;
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) {
        if (g.c2e(c0, k) == g.e2c2e(e, j)) out(e, 1 + j) = -div(c0, k) * inv_dual;
        if (g.c2e(c1, k) == g.e2c2e(e, 2 + j)) out(e, 3 + j) = div(c1, k) * inv_dual;
      }
  }
  return out;
}

// ---- pos_on_tplane_e ---------------------------------------------------------------------------

/// interpolation_fields.compute_pos_on_tplane_e_x_y from start(E, LATERAL_BOUNDARY_LEVEL_2):
/// (x, y) = gnomonic_proj(edge midpoint -> cell centre E2C[e,k]), then
///   pos_on_tplane_e_1[e,k] = R (x primal_normal_u + y primal_normal_v)
///   pos_on_tplane_e_2[e,k] = R (x dual_normal_u + y dual_normal_v)
/// with the normals at the edge midpoint (EdgeGeometry primal_normal_x/y, dual_normal_x/y) and R
/// the grid's sphere radius (ICON4Py passes constants.EARTH_RADIUS, which is the radius of every
/// ICON grid file).
void compute_pos_on_tplane_e(const Grid& g, const EdgeGeometry& eg, HostTable<double>& pos_1,
                             HostTable<double>& pos_2) {
  const char* field = "pos_on_tplane_e";
  const index_t nc = g.num_cells, ne = g.num_edges;
  require_table(g, g.e2c, "e2c", ne, 2, field);
  require_vector(g, g.cell_lon, "cell_lon", nc, field);
  require_vector(g, g.cell_lat, "cell_lat", nc, field);
  require_vector(g, g.edge_lon, "edge_lon", ne, field);
  require_vector(g, g.edge_lat, "edge_lat", ne, field);
  require_vector(g, eg.primal_normal_x, "the edge geometry's primal_normal_x", ne, field);
  require_vector(g, eg.primal_normal_y, "the edge geometry's primal_normal_y", ne, field);
  require_vector(g, eg.dual_normal_x, "the edge geometry's dual_normal_x", ne, field);
  require_vector(g, eg.dual_normal_y, "the edge geometry's dual_normal_y", ne, field);
  pos_1 = pos_2 = HostTable<double>(static_cast<std::size_t>(ne), 2, 0.0);
  const double radius = g.sphere_radius;
  for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < ne; ++e)
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k);
      if (c == missing_index && detail::is_halo_point(g, Location::Edge, e)) continue;
      if (c == missing_index)
        inconsistent(g, field, e, "an edge from boundary row 2 on has a missing cell in E2C");
      double x = 0, y = 0;
      gnomonic_projection(g.edge_lon[e], g.edge_lat[e], g.cell_lon[c], g.cell_lat[c], x, y);
      pos_1(e, k) = radius * (x * eg.primal_normal_x[e] + y * eg.primal_normal_y[e]);
      pos_2(e, k) = radius * (x * eg.dual_normal_x[e] + y * eg.dual_normal_y[e]);
    }
}

// ---- rbf_vec_coeff_e ---------------------------------------------------------------------------

/// rbf_interpolation.compute_rbf_interpolation_coeffs_edge on edges [start(E,
/// LATERAL_BOUNDARY_LEVEL_2), end(E, LOCAL)): for edge e with diamond edges a = E2C2E[e, 0..3]
/// (midpoints x_a, Cartesian normals n_a) and t = its dual normal (u, v) turned Cartesian,
///   A_ab = (n_a . n_b) phi(d(x_a, x_b)),  r_a = (t . n_a) phi(d(x_e, x_a)),  A c = r,
///   c <- c / sum_a (t . n_a) c_a
/// with d = arccos(clip(x . y / |x| / |y|)) and phi the configured kernel. Missing E2C2E slots
/// (none from boundary row 2 on) are compressed away (ICON4Py assumes them at the end).
HostTable<double> compute_rbf_vec_coeff_e(const Grid& g, const EdgeGeometry& eg, RbfKernel kernel,
                                          double scale) {
  const char* field = "rbf_vec_coeff_e";
  const int kernel_id = static_cast<int>(kernel);
  if (kernel_id != 1 && kernel_id != 3)
    throw InvalidArgument(fmt::format(
        "compute_rbf_vec_coeff_e: kernel {} (ICON rbf_vec_kern_e), expected 1 (Gaussian) or 3 "
        "(inverse multiquadric)",
        kernel_id));
  if (!(scale > 0.0) || !std::isfinite(scale))
    throw InvalidArgument(fmt::format(
        "compute_rbf_vec_coeff_e: scale = {}, expected a positive kernel scale in radians "
        "(default_rbf_scale_edge gives ICON's)",
        scale));
  const index_t ne = g.num_edges;
  require_table(g, g.e2c2e, "e2c2e", ne, edge_stencil, field);
  require_vector(g, g.edge_lon, "edge_lon", ne, field);
  require_vector(g, g.edge_lat, "edge_lat", ne, field);
  require_vector(g, eg.normal_cartesian, "the edge geometry's normal_cartesian", ne, field);
  require_vector(g, eg.dual_normal_x, "the edge geometry's dual_normal_x", ne, field);
  require_vector(g, eg.dual_normal_y, "the edge geometry's dual_normal_y", ne, field);

  HostTable<double> out(static_cast<std::size_t>(ne), edge_stencil, 0.0);
  const index_t start = g.start(Location::Edge, Zone::LateralBoundary2);
  const index_t end = g.end(Location::Edge, Zone::Local);
  if (end <= start) return out;

  // ICON4Py's EDGE_CENTER_X/Y/Z (coordinate_transformations.geographical_to_cartesian_on_edges).
  std::vector<std::array<double, 3>> centre(static_cast<std::size_t>(ne));
  for (index_t e = 0; e < ne; ++e) {
    const double lat = g.edge_lat[e], lon = g.edge_lon[e];
    centre[e] = {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
  }
  const auto normal = [&](index_t e) {
    const sphere::Vec3 n = eg.normal_cartesian[e];
    return std::array<double, 3>{n.x, n.y, n.z};
  };

  for (index_t e = start; e < end; ++e) {
    int slot[edge_stencil];
    std::array<double, 3> x[edge_stencil], n[edge_stencil];
    int count = 0;
    for (int k = 0; k < edge_stencil; ++k) {
      const index_t a = g.e2c2e(e, k);
      if (a == missing_index) continue;
      slot[count] = k;
      x[count] = centre[a];
      n[count] = normal(a);
      ++count;
    }
    if (count == 0) continue;

    // Right-hand side: kernel of the distance from the edge's own midpoint (v1 = x_e, v2 = x_a:
    // dot / |v1| / |v2|, the norms as numpy.linalg.norm: sqrt of the sequential sum of squares).
    const std::array<double, 3>& xe = centre[e];
    const double norm_e = std::sqrt(dot3(xe, xe));
    // Target: the dual normal (u, v) at the edge midpoint in Cartesian coordinates
    // (_cartesian_coordinates_from_zonal_and_meridional_components).
    const double lat = g.edge_lat[e], lon = g.edge_lon[e];
    const double cos_lat = std::cos(lat), sin_lat = std::sin(lat);
    const double cos_lon = std::cos(lon), sin_lon = std::sin(lon);
    const double u = eg.dual_normal_x[e], v = eg.dual_normal_y[e];
    const std::array<double, 3> t = {-u * sin_lon - v * sin_lat * cos_lon,
                                     u * cos_lon - v * sin_lat * sin_lon, cos_lat * v};
    double nxnx[edge_stencil], rhs[edge_stencil];
    for (int a = 0; a < count; ++a) {
      const double dist = arc_from_cosine(dot3(xe, x[a]) / norm_e / std::sqrt(dot3(x[a], x[a])));
      nxnx[a] = dot3(t, n[a]);
      rhs[a] = kernel_value(kernel, dist, scale) * nxnx[a];
    }

    // Matrix: (n_a . n_b) phi(d(x_a, x_b)), the norms from the diagonal of the Gram matrix of the
    // midpoints (_compute_distance_pairwise).
    double gram[edge_stencil][edge_stencil], norms[edge_stencil],
        matrix[edge_stencil][edge_stencil];
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b) gram[a][b] = dot3(x[a], x[b]);
    for (int a = 0; a < count; ++a) norms[a] = std::sqrt(gram[a][a]);
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b) {
        const double dist = arc_from_cosine(gram[a][b] / norms[a] / norms[b]);
        matrix[a][b] = dot3(n[a], n[b]) * kernel_value(kernel, dist, scale);
      }

    if (!solve_pivoted(count, matrix, rhs))
      throw GridError(fmt::format(
          "grid '{}': the RBF system of edge {} is singular (kernel {}, scale {} rad on the unit "
          "sphere); check the edge's diamond (E2C2E) and coordinates, or set another "
          "rbf_scale_edge",
          g.name, e, kernel_id, scale));

    // Normalise so that sum_a (t . n_a) c_a = 1 (ICON's checksum): over all four slots, the
    // missing ones adding 0 * 0.
    double sum = 0.0;
    for (int a = 0; a < count; ++a) sum += nxnx[a] * rhs[a];
    for (int a = 0; a < count; ++a) {
      const double c = rhs[a] / sum;
      if (!std::isfinite(c))
        throw GridError(fmt::format(
            "grid '{}': the RBF system of edge {} gave non-finite coefficients (kernel {}, scale "
            "{} rad on the unit sphere)",
            g.name, e, kernel_id, scale));
      out(e, slot[a]) = c;
    }
  }
  return out;
}

// ---- coeff_gradekin ----------------------------------------------------------------------------

/// metrics/compute_coeff_gradekin.py from start(E, LATERAL_BOUNDARY_LEVEL_2):
/// [d1 / d0 * inv_dual_edge_length, d0 / d1 * inv_dual_edge_length].
HostTable<double> compute_coeff_gradekin(const Grid& g) {
  const char* field = "coeff_gradekin";
  const index_t ne = g.num_edges;
  require_table(g, g.edge_cell_distance, "edge_cell_distance", ne, 2, field);
  require_vector(g, g.dual_edge_length, "dual_edge_length", ne, field);
  HostTable<double> out(static_cast<std::size_t>(ne), 2, 0.0);
  for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < ne; ++e) {
    const double d0 = g.edge_cell_distance(e, 0), d1 = g.edge_cell_distance(e, 1);
    const double inv_dual = inverse(g.dual_edge_length[e]);
    out(e, 0) = d1 / d0 * inv_dual;
    out(e, 1) = d0 / d1 * inv_dual;
  }
  return out;
}

}  // namespace icondiff
