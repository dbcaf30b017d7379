// Vector RBF reconstruction at vertices: for each vertex v with edges e_1..e_n (V2E, n = 6, or 5
// at pentagons), find weights c such that u(v) ~ sum_a c_a vn(e_a) for the eastward (and,
// separately, the northward) wind component.
//
// The construction is ICON's rbf_vec_compute_coeff_vertex (mo_intp_rbf_coeffs.f90) as ported by
// ICON4Py (rbf_interpolation._compute_rbf_interpolation_coeffs):
//   A_ab = (n_a . n_b) phi(|x_a - x_b|)            n: Cartesian primal normal, x: edge midpoint
//   r_a  = (t . n_a)   phi(|x_v - x_a|)            t: unit east (north) vector at the vertex
//   A c = r, then c /= sum_a (t . n_a) c_a          (a uniform field along t is reproduced exactly)
// with |.| the great-circle distance on the unit sphere (radians) and phi the Gaussian or inverse
// multiquadric kernel. A is symmetric positive definite (a vector RBF Gram matrix); ICON solves it
// by Cholesky, ICON4Py by LU with pivoting. Here: Kokkos Kernels' batched serial LU without
// pivoting (stable for SPD matrices: its pivots are those of LDL^T, all positive) followed by the
// two triangular solves, one vertex per iteration of a host parallel_for. KokkosBatched 3.4 has
// no batched Cholesky (Potrf), while SerialLU + SerialTrsv are spelled the same in 3.4 and 4.x.
//
// Missing V2E slots are compressed away before the solve, so the system of a pentagon is 5x5 and
// a missing slot anywhere in the row (LAM files do not keep them at the end) gets weight 0.
#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>
#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_Trsv_Decl.hpp>
#include <KokkosBatched_Trsv_Serial_Impl.hpp>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <utility>

namespace icondiff {

namespace {

using ExecSpace = Kokkos::DefaultHostExecutionSpace;
using MemSpace = ExecSpace::memory_space;
constexpr int max_stencil = 6;  // rbf_vec_dim_v in ICON

/// Per-vertex outcome of the solve, reported after the kernel.
enum SolveStatus : int { solved = 0, not_positive_definite = 1, not_finite = 2 };

double kernel_value(RbfKernel kernel, double distance, double scale) {
  const double r = distance / scale;
  // ICON intp_functions.inc: gaussi and inv_multiq.
  return kernel == RbfKernel::Gaussian ? std::exp(-1.0 * r * r) : 1.0 / std::sqrt(1.0 + r * r);
}

}  // namespace

void compute_rbf_vec_coeff_v(const Grid& g, const EdgeGeometry& eg, RbfKernel kernel, double scale,
                             HostTable<double>& coeff_1, HostTable<double>& coeff_2) {
  const int kernel_id = static_cast<int>(kernel);
  if (kernel_id != 1 && kernel_id != 3)
    throw InvalidArgument(fmt::format(
        "compute_rbf_vec_coeff_v: kernel {} (ICON rbf_vec_kern_v), expected 1 (Gaussian) or 3 "
        "(inverse multiquadric)",
        kernel_id));
  if (!(scale > 0.0) || !std::isfinite(scale))
    throw InvalidArgument(fmt::format(
        "compute_rbf_vec_coeff_v: scale = {}, expected a positive kernel scale in radians "
        "(default_rbf_scale_vertex gives ICON's)",
        scale));
  if (!compat::is_initialized())
    throw InvalidArgument(
        "compute_rbf_vec_coeff_v: Kokkos is not initialized (the RBF systems are solved by a "
        "Kokkos kernel on the host execution space); call Kokkos::initialize first");
  if (eg.normal_cartesian.size() != static_cast<std::size_t>(g.num_edges))
    throw InvalidArgument(fmt::format(
        "compute_rbf_vec_coeff_v: the edge geometry has {} normals, grid '{}' has {} edges; pass "
        "compute_edge_geometry(grid)",
        eg.normal_cartesian.size(), g.name, g.num_edges));
  if (g.v2e.rows() != static_cast<std::size_t>(g.num_vertices) ||
      g.vertex_lon.size() != static_cast<std::size_t>(g.num_vertices) ||
      g.vertex_lat.size() != static_cast<std::size_t>(g.num_vertices) ||
      g.edge_lon.size() != static_cast<std::size_t>(g.num_edges) ||
      g.edge_lat.size() != static_cast<std::size_t>(g.num_edges))
    throw GridError(fmt::format(
        "grid '{}' lacks V2E or the vertex/edge coordinates the RBF coefficients need", g.name));
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  coeff_1 = HostTable<double>(nv, max_stencil, 0.0);
  coeff_2 = HostTable<double>(nv, max_stencil, 0.0);
  if (g.v2e.cols() != static_cast<std::size_t>(max_stencil))
    throw GridError(fmt::format("grid '{}': V2E has {} columns, expected {} (ICON rbf_vec_dim_v)",
                                g.name, g.v2e.cols(), max_stencil));

  // ICON4Py: horizontal_start = start(LATERAL_BOUNDARY_LEVEL_2), horizontal_end = end(LOCAL);
  // ICON: i_rcstartlev = 2 (the stencil of a boundary-row-1 vertex is incomplete).
  const index_t v_start = g.start(Location::Vertex, Zone::LateralBoundary2);
  const index_t v_end = g.end(Location::Vertex, Zone::Local);
  if (v_end <= v_start) return;

  // Inputs: edge midpoints and Cartesian primal normals (ICON edges%cartesian_center and
  // edges%primal_cart_normal), vertex positions, V2E.
  Kokkos::View<double* [3], Kokkos::LayoutRight, MemSpace> edge_centre(
      "icondiff::interpolation::rbf_edge_centre", ne);
  Kokkos::View<double* [3], Kokkos::LayoutRight, MemSpace> edge_normal(
      "icondiff::interpolation::rbf_edge_normal", ne);
  Kokkos::View<double* [2], Kokkos::LayoutRight, MemSpace> vertex_lonlat(
      "icondiff::interpolation::rbf_vertex_lonlat", nv);
  Kokkos::View<index_t* [max_stencil], Kokkos::LayoutRight, MemSpace> v2e(
      "icondiff::interpolation::rbf_v2e", nv);
  for (std::size_t e = 0; e < ne; ++e) {
    const sphere::Vec3 x = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
    const sphere::Vec3 n = eg.normal_cartesian[e];
    edge_centre(e, 0) = x.x, edge_centre(e, 1) = x.y, edge_centre(e, 2) = x.z;
    edge_normal(e, 0) = n.x, edge_normal(e, 1) = n.y, edge_normal(e, 2) = n.z;
  }
  for (std::size_t v = 0; v < nv; ++v) {
    vertex_lonlat(v, 0) = g.vertex_lon[v];
    vertex_lonlat(v, 1) = g.vertex_lat[v];
    for (int j = 0; j < max_stencil; ++j) v2e(v, j) = g.v2e(v, j);
  }

  // Workspace: one dense system and two right-hand sides per vertex (the solve overwrites them
  // with the LU factors and the coefficients).
  Kokkos::View<double* [max_stencil][max_stencil], Kokkos::LayoutRight, MemSpace> matrix(
      "icondiff::interpolation::rbf_matrix", nv);
  Kokkos::View<double* [2][max_stencil], Kokkos::LayoutRight, MemSpace> rhs(
      "icondiff::interpolation::rbf_rhs", nv);
  Kokkos::View<double* [max_stencil], Kokkos::LayoutRight, MemSpace> out_1(
      "icondiff::interpolation::rbf_vec_coeff_v1", nv);
  Kokkos::View<double* [max_stencil], Kokkos::LayoutRight, MemSpace> out_2(
      "icondiff::interpolation::rbf_vec_coeff_v2", nv);
  Kokkos::View<int*, MemSpace> status("icondiff::interpolation::rbf_solve_status", nv);

  using KokkosBatched::Algo;
  using KokkosBatched::Diag;
  using KokkosBatched::Trans;
  using KokkosBatched::Uplo;
  using LU = KokkosBatched::SerialLU<Algo::LU::Unblocked>;
  using SolveL =
      KokkosBatched::SerialTrsv<Uplo::Lower, Trans::NoTranspose, Diag::Unit, Algo::Trsv::Unblocked>;
  using SolveU = KokkosBatched::SerialTrsv<Uplo::Upper, Trans::NoTranspose, Diag::NonUnit,
                                           Algo::Trsv::Unblocked>;

  // A host lambda on purpose: the kernel runs on the host execution space only (it calls the host
  // sphere helpers), also in builds where Kokkos has a device backend.
  Kokkos::parallel_for(
      "icondiff::interpolation::rbf_vec_coeff_v",
      Kokkos::RangePolicy<ExecSpace>(ExecSpace(), v_start, v_end), [=](const index_t v) {
        // Compress the valid V2E slots (ICON uses verts%num_edges entries).
        int slot[max_stencil];
        sphere::Vec3 x[max_stencil], n[max_stencil];
        int count = 0;
        for (int j = 0; j < max_stencil; ++j) {
          const index_t e = v2e(v, j);
          if (e == missing_index) continue;
          slot[count] = j;
          x[count] = {edge_centre(e, 0), edge_centre(e, 1), edge_centre(e, 2)};
          n[count] = {edge_normal(e, 0), edge_normal(e, 1), edge_normal(e, 2)};
          ++count;
        }
        status(v) = solved;
        if (count == 0) return;

        const auto rows = std::make_pair(0, count);
        auto a = Kokkos::subview(matrix, v, rows, rows);
        auto r1 = Kokkos::subview(rhs, v, 0, rows);
        auto r2 = Kokkos::subview(rhs, v, 1, rows);

        for (int i = 0; i < count; ++i)
          for (int k = 0; k <= i; ++k) {
            a(i, k) = sphere::dot(n[i], n[k]) *
                      kernel_value(kernel, sphere::arc_length(x[i], x[k]), scale);
            a(k, i) = a(i, k);
          }

        // Target directions: unit east and north at the vertex (ICON gvec2cvec(1,0) / (0,1)).
        const double lon = vertex_lonlat(v, 0), lat = vertex_lonlat(v, 1);
        const sphere::Vec3 xv = sphere::to_cartesian(lon, lat);
        const sphere::Vec3 t1 = sphere::normalize(sphere::east_at(lon, lat));
        const sphere::Vec3 t2 = sphere::normalize(sphere::north_at(lon, lat));
        double proj_1[max_stencil], proj_2[max_stencil];
        for (int i = 0; i < count; ++i) {
          const double phi = kernel_value(kernel, sphere::arc_length(xv, x[i]), scale);
          proj_1[i] = sphere::dot(t1, n[i]);
          proj_2[i] = sphere::dot(t2, n[i]);
          r1(i) = phi * proj_1[i];
          r2(i) = phi * proj_2[i];
        }

        LU::invoke(a);
        for (int i = 0; i < count; ++i)
          if (!(a(i, i) > 0.0) || !std::isfinite(a(i, i))) {
            status(v) = not_positive_definite;
            return;
          }
        SolveL::invoke(1.0, a, r1);
        SolveU::invoke(1.0, a, r1);
        SolveL::invoke(1.0, a, r2);
        SolveU::invoke(1.0, a, r2);

        // Normalize so that sum_a c_a (t . n_a) = 1 (ICON's checksum_u / checksum_v).
        double sum_1 = 0.0, sum_2 = 0.0;
        for (int i = 0; i < count; ++i) {
          sum_1 += proj_1[i] * r1(i);
          sum_2 += proj_2[i] * r2(i);
        }
        for (int j = 0; j < max_stencil; ++j) out_1(v, j) = out_2(v, j) = 0.0;
        for (int i = 0; i < count; ++i) {
          out_1(v, slot[i]) = r1(i) / sum_1;
          out_2(v, slot[i]) = r2(i) / sum_2;
          if (!std::isfinite(out_1(v, slot[i])) || !std::isfinite(out_2(v, slot[i])))
            status(v) = not_finite;
        }
      });
  compat::fence(ExecSpace(), "icondiff::interpolation::rbf_vec_coeff_v");

  for (index_t v = v_start; v < v_end; ++v) {
    if (status(v) == solved) continue;
    throw GridError(fmt::format(
        "grid '{}': the RBF system of vertex {} {} (kernel {}, scale {} rad on the unit sphere); "
        "expected a symmetric positive definite matrix with a finite solution: check the "
        "vertex's edges (V2E) and coordinates, or set a larger rbf_scale_vertex",
        g.name, v,
        status(v) == not_positive_definite ? "is not positive definite"
                                           : "gave non-finite coefficients",
        static_cast<int>(kernel), scale));
  }
  for (index_t v = v_start; v < v_end; ++v)
    for (int j = 0; j < max_stencil; ++j) {
      coeff_1(v, j) = out_1(v, j);
      coeff_2(v, j) = out_2(v, j);
    }
}

}  // namespace icondiff
