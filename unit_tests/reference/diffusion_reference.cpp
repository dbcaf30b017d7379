// Plain-loop host reference of the diffusion stencils and granule; see the header for the
// conventions. Every formula cites its section of diffusion_spec.md. Written for obviousness:
// one (point, level) at a time, temporaries of fused programs evaluated on the fly.
#include "reference/diffusion_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace icondiff::reference {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

template <class... Args>
std::string cat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

[[noreturn]] void bad_argument(const char* fn, const std::string& what) {
  throw std::invalid_argument(cat("icondiff::reference::", fn, ": ", what));
}

// ---- Argument checks ---------------------------------------------------------------------------

/// The level count a field must at least have for [vertical_start, vertical_end).
int levels_needed(int vertical_start, int vertical_end) {
  return vertical_start < vertical_end ? vertical_end : 0;
}

void check_ranges(const char* fn, index_t horizontal_start, index_t horizontal_end, index_t size,
                  int vertical_start, int vertical_end) {
  if (horizontal_start < horizontal_end && (horizontal_start < 0 || horizontal_end > size))
    bad_argument(fn, cat("horizontal range [", horizontal_start, ", ", horizontal_end,
                         ") does not lie in [0, ", size, ")"));
  if (vertical_start < vertical_end && vertical_start < 0)
    bad_argument(
        fn, cat("vertical range [", vertical_start, ", ", vertical_end, ") starts below level 0"));
}

template <class T>
void check_field(const char* fn, const char* name, const test::HostField<T>& f, index_t points,
                 int min_levels) {
  if (f.points != points || f.levels < min_levels ||
      f.values.size() != static_cast<std::size_t>(f.points) * static_cast<std::size_t>(f.levels))
    bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.levels, "), expected (", points,
                         ", >= ", min_levels, ")"));
}

template <class T>
void check_field3(const char* fn, const char* name, const test::HostField3<T>& f, index_t points,
                  int slots, int min_levels) {
  if (f.points != points || f.slots != slots || f.levels < min_levels ||
      f.values.size() != static_cast<std::size_t>(f.points) * f.slots * f.levels)
    bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.slots, ", ", f.levels,
                         "), expected (", points, ", ", slots, ", >= ", min_levels, ")"));
}

template <class T>
void check_table(const char* fn, const char* name, const HostTable<T>& t, index_t rows,
                 std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    bad_argument(fn, cat(name, " has shape (", t.rows(), ", ", t.cols(), "), expected (", rows,
                         ", ", cols, ")"));
}

void check_vector(const char* fn, const char* name, const Vector& v, std::size_t size) {
  if (v.size() != size) bad_argument(fn, cat(name, " has ", v.size(), " values, expected ", size));
}

/// K-profiles need at least the levels of the range.
void check_profile(const char* fn, const char* name, const Vector& v, int min_size) {
  if (v.size() < static_cast<std::size_t>(min_size))
    bad_argument(fn, cat(name, " has ", v.size(), " levels, expected >= ", min_size));
}

/// Neighbour `slot` of `row` where the spec needs one (Addendum 8: only V2E may have -1).
index_t neighbor(const char* fn, const char* table_name, const HostTable<index_t>& table,
                 index_t row, int slot, index_t target_size) {
  const index_t n = table(static_cast<std::size_t>(row), static_cast<std::size_t>(slot));
  if (n == missing_index)
    throw std::logic_error(cat("icondiff::reference::", fn, ": ", table_name, "[", row, "][", slot,
                               "] = -1 (missing neighbour) where the computation needs it; "
                               "only V2E may have missing slots (spec Addendum 8)"));
  if (n < 0 || n >= target_size)
    bad_argument(
        fn, cat(table_name, "[", row, "][", slot, "] = ", n, " is not in [0, ", target_size, ")"));
  return n;
}

// ---- Pointwise pieces shared by elementary and fused programs (each is one spec formula) -------

/// §3.4: normal (x,y = primal) or tangential (x,y = dual) velocity at diamond vertex i of edge e.
double vertex_component(const Field& u_vert, const Field& v_vert, index_t vertex, const Table& x,
                        const Table& y, index_t e, int i, int k) {
  return u_vert(vertex, k) * x(e, i) + v_vert(vertex, k) * y(e, i);
}

/// §3.6: z_nabla4_e2 at (e,k) given the four E2C2V vertices.
double nabla4_at(const Field& u_vert, const Field& v_vert, const Table& pn_x, const Table& pn_y,
                 const index_t vert[4], const Field& z_nabla2_e, const Vector& inv_vert_vert_length,
                 const Vector& inv_primal_edge_length, index_t e, int k) {
  // nt (tangential direction: the edge's own vertices 0,1), nn (the far vertices 2,3); the sums
  // run left to right as in ICON4Py; ICON4Py rounds both to vp.
  const double nabv_tang = u_vert(vert[0], k) * pn_x(e, 0) + v_vert(vert[0], k) * pn_y(e, 0) +
                           u_vert(vert[1], k) * pn_x(e, 1) + v_vert(vert[1], k) * pn_y(e, 1);
  const double nabv_norm = u_vert(vert[2], k) * pn_x(e, 2) + v_vert(vert[2], k) * pn_y(e, 2) +
                           u_vert(vert[3], k) * pn_x(e, 3) + v_vert(vert[3], k) * pn_y(e, 3);
  const double lvv = inv_vert_vert_length[e];
  const double ip = inv_primal_edge_length[e];
  const double z2 = z_nabla2_e(e, k);
  // z_nabla4_e2 = 4·[(nn - 2·z2)·Lvv² + (nt - 2·z2)·ip²]; vp in ICON4Py.
  return 4.0 * ((nabv_norm - 2.0 * z2) * (lvv * lvv) + (nabv_tang - 2.0 * z2) * (ip * ip));
}

/// §3.6 limited-area interior update.
double vn_nabla2_and_nabla4(double vn, double area_edge, double kh_smag_e, double z_nabla2_e,
                            double z_nabla4_e2, double diff_multfac_vn, double nudgecoeff_e,
                            double nudgezone_diff) {
  return vn + area_edge * (std::max(nudgezone_diff * nudgecoeff_e, kh_smag_e) * z_nabla2_e -
                           area_edge * diff_multfac_vn * z_nabla4_e2);
}

/// §3.6 global update.
double vn_nabla2_and_nabla4_global(double vn, double area_edge, double kh_smag_e, double z_nabla2_e,
                                   double z_nabla4_e2, double diff_multfac_vn) {
  return vn + area_edge * (kh_smag_e * z_nabla2_e - diff_multfac_vn * z_nabla4_e2 * area_edge);
}

/// §3.6 limited-area boundary rows.
double vn_lateral_boundary(double vn, double area_edge, double fac_bdydiff_v, double z_nabla2_e) {
  return vn + area_edge * fac_bdydiff_v * z_nabla2_e;
}

/// §3.7: Σ_{i<4} coeff[c,i]·f[C2E2CO[c,i],k].
double c2e2co_sum(const char* fn, const Grid& grid, const Table& coeff, const Field& f, index_t c,
                  int k) {
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    const index_t n = neighbor(fn, "C2E2CO", grid.c2e2co, c, i, grid.num_cells);
    sum += f(n, k) * coeff(c, i);
  }
  return sum;
}

/// §3.7: z_nabla2_c[c,k] = Σ_i geofac_n2s[c,i]·w[C2E2CO[c,i],k].
double nabla2_c_at(const char* fn, const Grid& grid, const Table& geofac_n2s, const Field& w,
                   index_t c, int k) {
  return c2e2co_sum(fn, grid, geofac_n2s, w, c, k);
}

/// §3.7: nabla4 damping of w at (c,k), given a way to get z_nabla2_c at any cell.
template <class Nabla2>
double w_nabla4_damped(const char* fn, const Grid& grid, const Vector& area,
                       const Table& geofac_n2s, double w, double diff_multfac_w, index_t c, int k,
                       const Nabla2& z_nabla2_c) {
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    const index_t n = neighbor(fn, "C2E2CO", grid.c2e2co, c, i, grid.num_cells);
    sum += z_nabla2_c(n, k) * geofac_n2s(c, i);
  }
  return w - diff_multfac_w * (area[c] * area[c]) * sum;
}

/// §3.8: the cold-pool enhancement at cell c, level k.
double cold_pool_enhancement_at(const char* fn, const Grid& grid, const Field& theta_v,
                                const Field& theta_ref_mc, double thresh_tdiff,
                                double smallest_vpfloat, index_t c, int k) {
  double sum_theta = 0.0, sum_ref = 0.0;
  for (int j = 0; j < 3; ++j) {
    const index_t n = neighbor(fn, "C2E2C", grid.c2e2c, c, j, grid.num_cells);
    sum_theta += theta_v(n, k);
    sum_ref += theta_ref_mc(n, k);
  }
  const double tdiff = theta_v(c, k) - sum_theta / 3.0;
  const double trefdiff = theta_ref_mc(c, k) - sum_ref / 3.0;
  const bool active = ((tdiff - trefdiff) < thresh_tdiff && trefdiff < 0.0) ||
                      (tdiff - trefdiff) < 1.5 * thresh_tdiff;
  // vp in ICON4Py
  return active ? (thresh_tdiff - tdiff + trefdiff) * 5.0e-4 : smallest_vpfloat;
}

/// §3.9: the θ flux F[e,k] = kh_smag_e·inv_dual_edge_length·(θ[E2C[e,1]] - θ[E2C[e,0]]).
double theta_flux_at(const char* fn, const Grid& grid, const Field& kh_smag_e,
                     const Vector& inv_dual_edge_length, const Field& theta_v, index_t e, int k) {
  const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
  const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
  return kh_smag_e(e, k) * inv_dual_edge_length[e] * (theta_v(c1, k) - theta_v(c0, k));
}

/// §3.9: z_temp[c,k] = Σ_j geofac_div[c,j]·F[C2E[c,j],k], F from `flux(e,k)`.
template <class Flux>
double divergence_at(const char* fn, const Grid& grid, const Table& geofac_div, index_t c, int k,
                     const Flux& flux) {
  double sum = 0.0;
  for (int j = 0; j < 3; ++j) {
    const index_t e = neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges);
    sum += flux(e, k) * geofac_div(c, j);
  }
  return sum;
}

/// §3.9: the truly horizontal term S (without zd_diffcoef) at (c,k).
double truly_horizontal_sum_at(const char* fn, const Grid& grid, const IntField3& zd_vertoffset,
                               const Vector& geofac_n2s_c, const Table& geofac_n2s_nbh,
                               const Field3& vcoef, const Field& theta_v, index_t c, int k) {
  double sum = theta_v(c, k) * geofac_n2s_c[c];
  for (int j = 0; j < 3; ++j) {
    const index_t n = neighbor(fn, "C2E2C", grid.c2e2c, c, j, grid.num_cells);
    const int level = k + zd_vertoffset(c, j, k);
    // Addendum 7 / §3.9: 0 <= k+o and k+o+1 <= nlev-1.
    if (level < 0 || level + 1 > theta_v.levels - 1)
      bad_argument(
          fn, cat("zd_vertoffset[", c, "][", j, "][", k, "] = ", zd_vertoffset(c, j, k),
                  " reaches levels ", level, " and ", level + 1,
                  " of the neighbour; expected 0 <= k+offset <= nlev-2 = ", theta_v.levels - 2));
    const double a = vcoef(c, j, k);
    sum += geofac_n2s_nbh(c, j) * (a * theta_v(n, level) + (1.0 - a) * theta_v(n, level + 1));
  }
  return sum;
}

/// §3.9: (theta_new, exner_new) from θ*, z_temp.
void theta_exner_update(double theta_star, double z_temp, double area, double rd_o_cvd,
                        double& theta_out, double& exner_inout) {
  const double theta_new = theta_star + area * z_temp;
  exner_inout = exner_inout * (1.0 + rd_o_cvd * (theta_new / theta_star - 1.0));
  theta_out = theta_new;
}

}  // namespace

// ================================================================================================
// S2/S5 (§3.3)
// ================================================================================================

void mo_intp_rbf_rbf_vec_interpol_vertex(const Grid& grid, const Field& p_e_in,
                                         const Table& ptr_coeff_1, const Table& ptr_coeff_2,
                                         Field& p_u_out, Field& p_v_out, index_t horizontal_start,
                                         index_t horizontal_end, int vertical_start,
                                         int vertical_end) {
  const char* fn = "mo_intp_rbf_rbf_vec_interpol_vertex";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_vertices, vertical_start,
               vertical_end);
  check_table(fn, "V2E", grid.v2e, grid.num_vertices, 6);
  check_field(fn, "p_e_in", p_e_in, grid.num_edges, nk);
  check_table(fn, "ptr_coeff_1", ptr_coeff_1, grid.num_vertices, 6);
  check_table(fn, "ptr_coeff_2", ptr_coeff_2, grid.num_vertices, 6);
  check_field(fn, "p_u_out", p_u_out, grid.num_vertices, nk);
  check_field(fn, "p_v_out", p_v_out, grid.num_vertices, nk);

  for (index_t v = horizontal_start; v < horizontal_end; ++v)
    for (int k = vertical_start; k < vertical_end; ++k) {
      double u = 0.0, w = 0.0;
      for (int j = 0; j < 6; ++j) {
        const index_t e = grid.v2e(v, j);
        if (e == missing_index) continue;  // pentagon: the 6th slot contributes nothing
        if (e < 0 || e >= grid.num_edges)
          bad_argument(fn, cat("V2E[", v, "][", j, "] = ", e, " is not an edge"));
        u += ptr_coeff_1(v, j) * p_e_in(e, k);
        w += ptr_coeff_2(v, j) * p_e_in(e, k);
      }
      p_u_out(v, k) = u;
      p_v_out(v, k) = w;
    }
}

// ================================================================================================
// S3 (§3.4)
// ================================================================================================

void calculate_nabla2_and_smag_coefficients_for_vn(
    const Grid& grid, const Vector& diff_multfac_smag, const Vector& tangent_orientation,
    const Vector& inv_primal_edge_length, const Vector& inv_vert_vert_length, const Field& u_vert,
    const Field& v_vert, const Table& primal_normal_vert_x, const Table& primal_normal_vert_y,
    const Table& dual_normal_vert_x, const Table& dual_normal_vert_y, const Field& vn,
    const Vector& smag_limit, Field& kh_smag_e, Field& kh_smag_ec, Field& z_nabla2_e,
    double smag_offset, index_t horizontal_start, index_t horizontal_end, int vertical_start,
    int vertical_end) {
  const char* fn = "calculate_nabla2_and_smag_coefficients_for_vn";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t ne = grid.num_edges;
  check_ranges(fn, horizontal_start, horizontal_end, ne, vertical_start, vertical_end);
  check_table(fn, "E2C2V", grid.e2c2v, ne, 4);
  check_profile(fn, "diff_multfac_smag", diff_multfac_smag, nk);
  check_vector(fn, "tangent_orientation", tangent_orientation, ne);
  check_vector(fn, "inv_primal_edge_length", inv_primal_edge_length, ne);
  check_vector(fn, "inv_vert_vert_length", inv_vert_vert_length, ne);
  check_field(fn, "u_vert", u_vert, grid.num_vertices, nk);
  check_field(fn, "v_vert", v_vert, grid.num_vertices, nk);
  check_table(fn, "primal_normal_vert_x", primal_normal_vert_x, ne, 4);
  check_table(fn, "primal_normal_vert_y", primal_normal_vert_y, ne, 4);
  check_table(fn, "dual_normal_vert_x", dual_normal_vert_x, ne, 4);
  check_table(fn, "dual_normal_vert_y", dual_normal_vert_y, ne, 4);
  check_field(fn, "vn", vn, ne, nk);
  check_profile(fn, "smag_limit", smag_limit, nk);
  check_field(fn, "kh_smag_e", kh_smag_e, ne, nk);
  check_field(fn, "kh_smag_ec", kh_smag_ec, ne, nk);
  check_field(fn, "z_nabla2_e", z_nabla2_e, ne, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e) {
    index_t vert[4];
    for (int i = 0; i < 4; ++i)
      vert[i] = neighbor(fn, "E2C2V", grid.e2c2v, e, i, grid.num_vertices);
    const double ip = inv_primal_edge_length[e];
    const double lvv = inv_vert_vert_length[e];
    const double lp = tangent_orientation[e] * ip;
    for (int k = vertical_start; k < vertical_end; ++k) {
      double vn_v[4], vt_v[4];  // normal and tangential velocity at the diamond vertices
      for (int i = 0; i < 4; ++i) {
        vn_v[i] = vertex_component(u_vert, v_vert, vert[i], primal_normal_vert_x,
                                   primal_normal_vert_y, e, i, k);
        vt_v[i] = vertex_component(u_vert, v_vert, vert[i], dual_normal_vert_x, dual_normal_vert_y,
                                   e, i, k);
      }
      // z_nabla2_e = 4·[(vn_0 + vn_1 - 2·vn)·ip² + (vn_2 + vn_3 - 2·vn)·Lvv²]
      const double nabla2 = (vn_v[0] + vn_v[1] - 2.0 * vn(e, k)) * (ip * ip) +
                            (vn_v[2] + vn_v[3] - 2.0 * vn(e, k)) * (lvv * lvv);
      // D1 = (vn_3 - vn_2)·Lvv - (vt_1 - vt_0)·Lp;  D2 = (vn_1 - vn_0)·Lp + (vt_3 - vt_2)·Lvv
      const double d1 = (vn_v[3] - vn_v[2]) * lvv - (vt_v[1] - vt_v[0]) * lp;
      const double d2 = (vn_v[1] - vn_v[0]) * lp + (vt_v[3] - vt_v[2]) * lvv;
      const double kh = diff_multfac_smag[k] * std::sqrt(d1 * d1 + d2 * d2);
      // kh_smag_e = min(max(0, kh_smag_ec - smag_offset), smag_limit) (vp in ICON4Py)
      kh_smag_e(e, k) = std::min(std::max(0.0, kh - smag_offset), smag_limit[k]);
      kh_smag_ec(e, k) = kh;
      z_nabla2_e(e, k) = 4.0 * nabla2;
    }
  }
}

// ================================================================================================
// S4 (§3.5)
// ================================================================================================

namespace {

/// §3.5: kh_c and div at (c,k).
void turbulence_temporaries_at(const char* fn, const Grid& grid, const Field& kh_smag_ec,
                               const Field& vn, const Table& e_bln_c_s, const Table& geofac_div,
                               const Vector& diff_multfac_smag, index_t c, int k, double& kh_c,
                               double& div) {
  double sum_kh = 0.0, sum_div = 0.0;
  for (int j = 0; j < 3; ++j) {
    const index_t e = neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges);
    sum_kh += kh_smag_ec(e, k) * e_bln_c_s(c, j);
    sum_div += vn(e, k) * geofac_div(c, j);
  }
  kh_c = sum_kh / diff_multfac_smag[k];  // vp in ICON4Py
  div = sum_div;                         // vp in ICON4Py
}

/// §3.5: the half-level interpolation (div_ic, hdef_ic) at level k from levels k and k-1.
void turbulence_diagnostics_at(double wgtfac, double div_k, double div_km1, double kh_c_k,
                               double kh_c_km1, double& div_ic, double& hdef_ic) {
  div_ic = wgtfac * div_k + (1.0 - wgtfac) * div_km1;
  const double hdef = wgtfac * kh_c_k + (1.0 - wgtfac) * kh_c_km1;
  hdef_ic = hdef * hdef;
}

void check_turbulence_inputs(const char* fn, const Grid& grid, const Field& kh_smag_ec,
                             const Field& vn, const Table& e_bln_c_s, const Table& geofac_div,
                             const Vector& diff_multfac_smag, int nk) {
  check_table(fn, "C2E", grid.c2e, grid.num_cells, 3);
  check_field(fn, "kh_smag_ec", kh_smag_ec, grid.num_edges, nk);
  check_field(fn, "vn", vn, grid.num_edges, nk);
  check_table(fn, "e_bln_c_s", e_bln_c_s, grid.num_cells, 3);
  check_table(fn, "geofac_div", geofac_div, grid.num_cells, 3);
  check_profile(fn, "diff_multfac_smag", diff_multfac_smag, nk);
}

}  // namespace

void temporary_fields_for_turbulence_diagnostics(
    const Grid& grid, const Field& kh_smag_ec, const Field& vn, const Table& e_bln_c_s,
    const Table& geofac_div, const Vector& diff_multfac_smag, Field& kh_c, Field& div,
    index_t horizontal_start, index_t horizontal_end, int vertical_start, int vertical_end) {
  const char* fn = "temporary_fields_for_turbulence_diagnostics";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_turbulence_inputs(fn, grid, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag, nk);
  check_field(fn, "kh_c", kh_c, grid.num_cells, nk);
  check_field(fn, "div", div, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      turbulence_temporaries_at(fn, grid, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag,
                                c, k, kh_c(c, k), div(c, k));
}

void calculate_diagnostics_for_turbulence(const Field& div, const Field& kh_c,
                                          const Field& wgtfac_c, Field& div_ic, Field& hdef_ic) {
  const char* fn = "calculate_diagnostics_for_turbulence";
  const index_t nc = div.points;
  const int nlev = div.levels;
  check_field(fn, "div", div, nc, nlev);
  check_field(fn, "kh_c", kh_c, nc, nlev);
  check_field(fn, "wgtfac_c", wgtfac_c, nc, nlev);
  check_field(fn, "div_ic", div_ic, nc, nlev);
  check_field(fn, "hdef_ic", hdef_ic, nc, nlev);

  // ICON4Py writes div_ic[:, 1:] (levels 1 .. nlev-1 of an nlev-level domain).
  for (index_t c = 0; c < nc; ++c)
    for (int k = 1; k < nlev; ++k)
      turbulence_diagnostics_at(wgtfac_c(c, k), div(c, k), div(c, k - 1), kh_c(c, k),
                                kh_c(c, k - 1), div_ic(c, k), hdef_ic(c, k));
}

void calculate_diagnostic_quantities_for_turbulence(
    const Grid& grid, const Field& kh_smag_ec, const Field& vn, const Table& e_bln_c_s,
    const Table& geofac_div, const Vector& diff_multfac_smag, const Field& wgtfac_c, Field& div_ic,
    Field& hdef_ic, index_t horizontal_start, index_t horizontal_end, int vertical_start,
    int vertical_end) {
  const char* fn = "calculate_diagnostic_quantities_for_turbulence";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  if (vertical_start < vertical_end && vertical_start < 1)
    bad_argument(fn, cat("vertical_start = ", vertical_start,
                         ": half level k needs full level k-1, so vertical_start >= 1"));
  check_turbulence_inputs(fn, grid, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag, nk);
  check_field(fn, "wgtfac_c", wgtfac_c, grid.num_cells, nk);
  check_field(fn, "div_ic", div_ic, grid.num_cells, nk);
  check_field(fn, "hdef_ic", hdef_ic, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k) {
      double kh_c_k, div_k, kh_c_km1, div_km1;
      turbulence_temporaries_at(fn, grid, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag,
                                c, k, kh_c_k, div_k);
      turbulence_temporaries_at(fn, grid, kh_smag_ec, vn, e_bln_c_s, geofac_div, diff_multfac_smag,
                                c, k - 1, kh_c_km1, div_km1);
      turbulence_diagnostics_at(wgtfac_c(c, k), div_k, div_km1, kh_c_k, kh_c_km1, div_ic(c, k),
                                hdef_ic(c, k));
    }
}

// ================================================================================================
// S6 (§3.6)
// ================================================================================================

namespace {

void check_nabla4_inputs(const char* fn, const Grid& grid, const Field& u_vert, const Field& v_vert,
                         const Table& pn_x, const Table& pn_y, const Field& z_nabla2_e,
                         const Vector& inv_vert_vert_length, const Vector& inv_primal_edge_length,
                         int nk) {
  const index_t ne = grid.num_edges;
  check_table(fn, "E2C2V", grid.e2c2v, ne, 4);
  check_field(fn, "u_vert", u_vert, grid.num_vertices, nk);
  check_field(fn, "v_vert", v_vert, grid.num_vertices, nk);
  check_table(fn, "primal_normal_vert_v1", pn_x, ne, 4);
  check_table(fn, "primal_normal_vert_v2", pn_y, ne, 4);
  check_field(fn, "z_nabla2_e", z_nabla2_e, ne, nk);
  check_vector(fn, "inv_vert_vert_length", inv_vert_vert_length, ne);
  check_vector(fn, "inv_primal_edge_length", inv_primal_edge_length, ne);
}

}  // namespace

void calculate_nabla4(const Grid& grid, const Field& u_vert, const Field& v_vert,
                      const Table& primal_normal_vert_v1, const Table& primal_normal_vert_v2,
                      const Field& z_nabla2_e, const Vector& inv_vert_vert_length,
                      const Vector& inv_primal_edge_length, Field& z_nabla4_e2,
                      index_t horizontal_start, index_t horizontal_end, int vertical_start,
                      int vertical_end) {
  const char* fn = "calculate_nabla4";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_edges, vertical_start, vertical_end);
  check_nabla4_inputs(fn, grid, u_vert, v_vert, primal_normal_vert_v1, primal_normal_vert_v2,
                      z_nabla2_e, inv_vert_vert_length, inv_primal_edge_length, nk);
  check_field(fn, "z_nabla4_e2", z_nabla4_e2, grid.num_edges, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e) {
    index_t vert[4];
    for (int i = 0; i < 4; ++i)
      vert[i] = neighbor(fn, "E2C2V", grid.e2c2v, e, i, grid.num_vertices);
    for (int k = vertical_start; k < vertical_end; ++k)
      z_nabla4_e2(e, k) =
          nabla4_at(u_vert, v_vert, primal_normal_vert_v1, primal_normal_vert_v2, vert, z_nabla2_e,
                    inv_vert_vert_length, inv_primal_edge_length, e, k);
  }
}

void apply_nabla2_and_nabla4_to_vn(const Vector& area_edge, const Field& kh_smag_e,
                                   const Field& z_nabla2_e, const Field& z_nabla4_e2,
                                   const Vector& diff_multfac_vn, const Vector& nudgecoeff_e,
                                   Field& vn, double nudgezone_diff, index_t horizontal_start,
                                   index_t horizontal_end, int vertical_start, int vertical_end) {
  const char* fn = "apply_nabla2_and_nabla4_to_vn";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t ne = vn.points;
  check_ranges(fn, horizontal_start, horizontal_end, ne, vertical_start, vertical_end);
  check_field(fn, "vn", vn, ne, nk);
  check_vector(fn, "area_edge", area_edge, ne);
  check_field(fn, "kh_smag_e", kh_smag_e, ne, nk);
  check_field(fn, "z_nabla2_e", z_nabla2_e, ne, nk);
  check_field(fn, "z_nabla4_e2", z_nabla4_e2, ne, nk);
  check_profile(fn, "diff_multfac_vn", diff_multfac_vn, nk);
  check_vector(fn, "nudgecoeff_e", nudgecoeff_e, ne);

  for (index_t e = horizontal_start; e < horizontal_end; ++e)
    for (int k = vertical_start; k < vertical_end; ++k)
      vn(e, k) = vn_nabla2_and_nabla4(vn(e, k), area_edge[e], kh_smag_e(e, k), z_nabla2_e(e, k),
                                      z_nabla4_e2(e, k), diff_multfac_vn[k], nudgecoeff_e[e],
                                      nudgezone_diff);
}

void apply_nabla2_and_nabla4_global_to_vn(const Vector& area_edge, const Field& kh_smag_e,
                                          const Field& z_nabla2_e, const Field& z_nabla4_e2,
                                          const Vector& diff_multfac_vn, Field& vn,
                                          index_t horizontal_start, index_t horizontal_end,
                                          int vertical_start, int vertical_end) {
  const char* fn = "apply_nabla2_and_nabla4_global_to_vn";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t ne = vn.points;
  check_ranges(fn, horizontal_start, horizontal_end, ne, vertical_start, vertical_end);
  check_field(fn, "vn", vn, ne, nk);
  check_vector(fn, "area_edge", area_edge, ne);
  check_field(fn, "kh_smag_e", kh_smag_e, ne, nk);
  check_field(fn, "z_nabla2_e", z_nabla2_e, ne, nk);
  check_field(fn, "z_nabla4_e2", z_nabla4_e2, ne, nk);
  check_profile(fn, "diff_multfac_vn", diff_multfac_vn, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e)
    for (int k = vertical_start; k < vertical_end; ++k)
      vn(e, k) =
          vn_nabla2_and_nabla4_global(vn(e, k), area_edge[e], kh_smag_e(e, k), z_nabla2_e(e, k),
                                      z_nabla4_e2(e, k), diff_multfac_vn[k]);
}

void apply_nabla2_to_vn_in_lateral_boundary(const Field& z_nabla2_e, const Vector& area_edge,
                                            Field& vn, double fac_bdydiff_v,
                                            index_t horizontal_start, index_t horizontal_end,
                                            int vertical_start, int vertical_end) {
  const char* fn = "apply_nabla2_to_vn_in_lateral_boundary";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t ne = vn.points;
  check_ranges(fn, horizontal_start, horizontal_end, ne, vertical_start, vertical_end);
  check_field(fn, "vn", vn, ne, nk);
  check_field(fn, "z_nabla2_e", z_nabla2_e, ne, nk);
  check_vector(fn, "area_edge", area_edge, ne);

  for (index_t e = horizontal_start; e < horizontal_end; ++e)
    for (int k = vertical_start; k < vertical_end; ++k)
      vn(e, k) = vn_lateral_boundary(vn(e, k), area_edge[e], fac_bdydiff_v, z_nabla2_e(e, k));
}

void apply_diffusion_to_vn(const Grid& grid, const Field& u_vert, const Field& v_vert,
                           const Table& primal_normal_vert_v1, const Table& primal_normal_vert_v2,
                           const Field& z_nabla2_e, const Vector& inv_vert_vert_length,
                           const Vector& inv_primal_edge_length, const Vector& area_edge,
                           const Field& kh_smag_e, const Vector& diff_multfac_vn,
                           const Vector& nudgecoeff_e, Field& vn, double nudgezone_diff,
                           double fac_bdydiff_v, index_t start_2nd_nudge_line_idx_e,
                           bool limited_area, index_t horizontal_start, index_t horizontal_end,
                           int vertical_start, int vertical_end) {
  const char* fn = "apply_diffusion_to_vn";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t ne = grid.num_edges;
  check_ranges(fn, horizontal_start, horizontal_end, ne, vertical_start, vertical_end);
  check_nabla4_inputs(fn, grid, u_vert, v_vert, primal_normal_vert_v1, primal_normal_vert_v2,
                      z_nabla2_e, inv_vert_vert_length, inv_primal_edge_length, nk);
  check_vector(fn, "area_edge", area_edge, ne);
  check_field(fn, "kh_smag_e", kh_smag_e, ne, nk);
  check_profile(fn, "diff_multfac_vn", diff_multfac_vn, nk);
  check_vector(fn, "nudgecoeff_e", nudgecoeff_e, ne);
  check_field(fn, "vn", vn, ne, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e) {
    const bool interior = e >= start_2nd_nudge_line_idx_e;
    if (!limited_area && !interior) continue;  // global grid, e < s2: vn unchanged
    index_t vert[4] = {0, 0, 0, 0};
    if (interior)  // the boundary branch does not need nabla4, hence no E2C2V
      for (int i = 0; i < 4; ++i)
        vert[i] = neighbor(fn, "E2C2V", grid.e2c2v, e, i, grid.num_vertices);
    for (int k = vertical_start; k < vertical_end; ++k) {
      if (!interior) {  // limited area, boundary rows 5..9
        vn(e, k) = vn_lateral_boundary(vn(e, k), area_edge[e], fac_bdydiff_v, z_nabla2_e(e, k));
        continue;
      }
      const double z4 =
          nabla4_at(u_vert, v_vert, primal_normal_vert_v1, primal_normal_vert_v2, vert, z_nabla2_e,
                    inv_vert_vert_length, inv_primal_edge_length, e, k);
      vn(e, k) =
          limited_area
              ? vn_nabla2_and_nabla4(vn(e, k), area_edge[e], kh_smag_e(e, k), z_nabla2_e(e, k), z4,
                                     diff_multfac_vn[k], nudgecoeff_e[e], nudgezone_diff)
              : vn_nabla2_and_nabla4_global(vn(e, k), area_edge[e], kh_smag_e(e, k),
                                            z_nabla2_e(e, k), z4, diff_multfac_vn[k]);
    }
  }
}

// ================================================================================================
// S8 (§3.7)
// ================================================================================================

void calculate_nabla2_for_w(const Grid& grid, const Field& w, const Table& geofac_n2s,
                            Field& z_nabla2_c, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end) {
  const char* fn = "calculate_nabla2_for_w";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E2CO", grid.c2e2co, grid.num_cells, 4);
  check_field(fn, "w", w, grid.num_cells, nk);
  check_table(fn, "geofac_n2s", geofac_n2s, grid.num_cells, 4);
  check_field(fn, "z_nabla2_c", z_nabla2_c, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      z_nabla2_c(c, k) = nabla2_c_at(fn, grid, geofac_n2s, w, c, k);
}

void apply_nabla2_to_w(const Grid& grid, const Vector& area, const Field& z_nabla2_c,
                       const Table& geofac_n2s, Field& w, double diff_multfac_w,
                       index_t horizontal_start, index_t horizontal_end, int vertical_start,
                       int vertical_end) {
  const char* fn = "apply_nabla2_to_w";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E2CO", grid.c2e2co, grid.num_cells, 4);
  check_vector(fn, "area", area, grid.num_cells);
  check_field(fn, "z_nabla2_c", z_nabla2_c, grid.num_cells, nk);
  check_table(fn, "geofac_n2s", geofac_n2s, grid.num_cells, 4);
  check_field(fn, "w", w, grid.num_cells, nk);

  const auto z_at = [&](index_t n, int k) { return z_nabla2_c(n, k); };
  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      w(c, k) = w_nabla4_damped(fn, grid, area, geofac_n2s, w(c, k), diff_multfac_w, c, k, z_at);
}

void apply_nabla2_to_w_in_upper_damping_layer(Field& w, const Vector& diff_multfac_n2w,
                                              const Vector& cell_area, const Field& z_nabla2_c,
                                              index_t horizontal_start, index_t horizontal_end,
                                              int vertical_start, int vertical_end) {
  const char* fn = "apply_nabla2_to_w_in_upper_damping_layer";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t nc = w.points;
  check_ranges(fn, horizontal_start, horizontal_end, nc, vertical_start, vertical_end);
  check_field(fn, "w", w, nc, nk);
  check_profile(fn, "diff_multfac_n2w", diff_multfac_n2w, nk);
  check_vector(fn, "cell_area", cell_area, nc);
  check_field(fn, "z_nabla2_c", z_nabla2_c, nc, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      w(c, k) = w(c, k) + diff_multfac_n2w[k] * cell_area[c] * z_nabla2_c(c, k);
}

void calculate_horizontal_gradients_for_turbulence(const Grid& grid, const Field& w,
                                                   const Table& geofac_grg_x,
                                                   const Table& geofac_grg_y, Field& dwdx,
                                                   Field& dwdy, index_t horizontal_start,
                                                   index_t horizontal_end, int vertical_start,
                                                   int vertical_end) {
  const char* fn = "calculate_horizontal_gradients_for_turbulence";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E2CO", grid.c2e2co, grid.num_cells, 4);
  check_field(fn, "w", w, grid.num_cells, nk);
  check_table(fn, "geofac_grg_x", geofac_grg_x, grid.num_cells, 4);
  check_table(fn, "geofac_grg_y", geofac_grg_y, grid.num_cells, 4);
  check_field(fn, "dwdx", dwdx, grid.num_cells, nk);
  check_field(fn, "dwdy", dwdy, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k) {
      dwdx(c, k) = c2e2co_sum(fn, grid, geofac_grg_x, w, c, k);
      dwdy(c, k) = c2e2co_sum(fn, grid, geofac_grg_y, w, c, k);
    }
}

void apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
    const Grid& grid, const Vector& area, const Table& geofac_n2s, const Table& geofac_grg_x,
    const Table& geofac_grg_y, const Field& w_old, Field& w, int type_shear, Field& dwdx,
    Field& dwdy, double diff_multfac_w, const Vector& diff_multfac_n2w, int nrdmax,
    index_t interior_idx, index_t halo_idx, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end) {
  const char* fn = "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t nc = grid.num_cells;
  check_ranges(fn, horizontal_start, horizontal_end, nc, vertical_start, vertical_end);
  check_table(fn, "C2E2CO", grid.c2e2co, nc, 4);
  check_vector(fn, "area", area, nc);
  check_table(fn, "geofac_n2s", geofac_n2s, nc, 4);
  check_table(fn, "geofac_grg_x", geofac_grg_x, nc, 4);
  check_table(fn, "geofac_grg_y", geofac_grg_y, nc, 4);
  check_field(fn, "w_old", w_old, nc, nk);
  check_field(fn, "w", w, nc, nk);
  check_field(fn, "dwdx", dwdx, nc, nk);
  check_field(fn, "dwdy", dwdy, nc, nk);
  check_profile(fn, "diff_multfac_n2w", diff_multfac_n2w, std::min(nk, std::max(nrdmax, 0)));
  if (&w_old == &w) bad_argument(fn, "w_old must be a copy of w, not w itself (S7)");

  // z_nabla2_c of w_old, evaluated wherever the update needs it (Addendum 2).
  const auto z_nabla2_c = [&](index_t n, int k) {
    return nabla2_c_at(fn, grid, geofac_n2s, w_old, n, k);
  };
  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k) {
      // dwdx, dwdy (shear_type 2 only, k > 0; otherwise the input values stay)
      if (type_shear == 2 && k > 0) {
        dwdx(c, k) = c2e2co_sum(fn, grid, geofac_grg_x, w_old, c, k);
        dwdy(c, k) = c2e2co_sum(fn, grid, geofac_grg_y, w_old, c, k);
      }
      if (interior_idx <= c && c < halo_idx) {
        double w_new = w_nabla4_damped(fn, grid, area, geofac_n2s, w_old(c, k), diff_multfac_w, c,
                                       k, z_nabla2_c);
        if (0 < k && k < nrdmax)  // upper damping layer, half levels 1..nrd
          w_new = w_new + diff_multfac_n2w[k] * area[c] * z_nabla2_c(c, k);
        w(c, k) = w_new;
      } else {
        w(c, k) = w_old(c, k);
      }
    }
}

// ================================================================================================
// S9 (§3.8)
// ================================================================================================

void temporary_field_for_grid_point_cold_pools_enhancement(
    const Grid& grid, const Field& theta_v, const Field& theta_ref_mc, Field& enh_diffu_3d,
    double thresh_tdiff, double smallest_vpfloat, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end) {
  const char* fn = "temporary_field_for_grid_point_cold_pools_enhancement";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E2C", grid.c2e2c, grid.num_cells, 3);
  check_field(fn, "theta_v", theta_v, grid.num_cells, nk);
  check_field(fn, "theta_ref_mc", theta_ref_mc, grid.num_cells, nk);
  check_field(fn, "enh_diffu_3d", enh_diffu_3d, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      enh_diffu_3d(c, k) = cold_pool_enhancement_at(fn, grid, theta_v, theta_ref_mc, thresh_tdiff,
                                                    smallest_vpfloat, c, k);
}

void enhance_diffusion_coefficient_for_grid_point_cold_pools(const Grid& grid, Field& kh_smag_e,
                                                             const Field& enh_diffu_3d,
                                                             index_t horizontal_start,
                                                             index_t horizontal_end,
                                                             int vertical_start, int vertical_end) {
  const char* fn = "enhance_diffusion_coefficient_for_grid_point_cold_pools";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_edges, vertical_start, vertical_end);
  check_table(fn, "E2C", grid.e2c, grid.num_edges, 2);
  check_field(fn, "kh_smag_e", kh_smag_e, grid.num_edges, nk);
  check_field(fn, "enh_diffu_3d", enh_diffu_3d, grid.num_cells, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e) {
    const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
    const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
    for (int k = vertical_start; k < vertical_end; ++k)
      kh_smag_e(e, k) =
          std::max(kh_smag_e(e, k), std::max(enh_diffu_3d(c0, k), enh_diffu_3d(c1, k)));
  }
}

void calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
    const Grid& grid, const Field& theta_v, const Field& theta_ref_mc, double thresh_tdiff,
    double smallest_vpfloat, Field& kh_smag_e, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end) {
  const char* fn = "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_edges, vertical_start, vertical_end);
  check_table(fn, "E2C", grid.e2c, grid.num_edges, 2);
  check_table(fn, "C2E2C", grid.c2e2c, grid.num_cells, 3);
  check_field(fn, "theta_v", theta_v, grid.num_cells, nk);
  check_field(fn, "theta_ref_mc", theta_ref_mc, grid.num_cells, nk);
  check_field(fn, "kh_smag_e", kh_smag_e, grid.num_edges, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e) {
    const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
    const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
    for (int k = vertical_start; k < vertical_end; ++k) {
      const double enh0 = cold_pool_enhancement_at(fn, grid, theta_v, theta_ref_mc, thresh_tdiff,
                                                   smallest_vpfloat, c0, k);
      const double enh1 = cold_pool_enhancement_at(fn, grid, theta_v, theta_ref_mc, thresh_tdiff,
                                                   smallest_vpfloat, c1, k);
      kh_smag_e(e, k) = std::max(kh_smag_e(e, k), std::max(enh0, enh1));
    }
  }
}

// ================================================================================================
// S11 (§3.9)
// ================================================================================================

void calculate_nabla2_for_z(const Grid& grid, const Field& kh_smag_e,
                            const Vector& inv_dual_edge_length, const Field& theta_v,
                            Field& z_nabla2_e, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end) {
  const char* fn = "calculate_nabla2_for_z";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_edges, vertical_start, vertical_end);
  check_table(fn, "E2C", grid.e2c, grid.num_edges, 2);
  check_field(fn, "kh_smag_e", kh_smag_e, grid.num_edges, nk);
  check_vector(fn, "inv_dual_edge_length", inv_dual_edge_length, grid.num_edges);
  check_field(fn, "theta_v", theta_v, grid.num_cells, nk);
  check_field(fn, "z_nabla2_e", z_nabla2_e, grid.num_edges, nk);

  for (index_t e = horizontal_start; e < horizontal_end; ++e)
    for (int k = vertical_start; k < vertical_end; ++k)
      z_nabla2_e(e, k) = theta_flux_at(fn, grid, kh_smag_e, inv_dual_edge_length, theta_v, e, k);
}

void calculate_nabla2_of_theta(const Grid& grid, const Field& z_nabla2_e, const Table& geofac_div,
                               Field& z_temp, index_t horizontal_start, index_t horizontal_end,
                               int vertical_start, int vertical_end) {
  const char* fn = "calculate_nabla2_of_theta";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E", grid.c2e, grid.num_cells, 3);
  check_field(fn, "z_nabla2_e", z_nabla2_e, grid.num_edges, nk);
  check_table(fn, "geofac_div", geofac_div, grid.num_cells, 3);
  check_field(fn, "z_temp", z_temp, grid.num_cells, nk);

  const auto flux = [&](index_t e, int k) { return z_nabla2_e(e, k); };
  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      z_temp(c, k) = divergence_at(fn, grid, geofac_div, c, k, flux);
}

void calculate_nabla2_for_theta(const Grid& grid, const Field& kh_smag_e,
                                const Vector& inv_dual_edge_length, const Field& theta_v,
                                const Table& geofac_div, Field& z_temp, index_t horizontal_start,
                                index_t horizontal_end, int vertical_start, int vertical_end) {
  const char* fn = "calculate_nabla2_for_theta";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_table(fn, "C2E", grid.c2e, grid.num_cells, 3);
  check_table(fn, "E2C", grid.e2c, grid.num_edges, 2);
  check_field(fn, "kh_smag_e", kh_smag_e, grid.num_edges, nk);
  check_vector(fn, "inv_dual_edge_length", inv_dual_edge_length, grid.num_edges);
  check_field(fn, "theta_v", theta_v, grid.num_cells, nk);
  check_table(fn, "geofac_div", geofac_div, grid.num_cells, 3);
  check_field(fn, "z_temp", z_temp, grid.num_cells, nk);

  const auto flux = [&](index_t e, int k) {
    return theta_flux_at(fn, grid, kh_smag_e, inv_dual_edge_length, theta_v, e, k);
  };
  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      z_temp(c, k) = divergence_at(fn, grid, geofac_div, c, k, flux);
}

namespace {

void check_zdiffusion_inputs(const char* fn, const Grid& grid, const IntField3& zd_vertoffset,
                             const Field& zd_diffcoef, const Vector& geofac_n2s_c,
                             const Table& geofac_n2s_nbh, const Field3& vcoef, int nk) {
  const index_t nc = grid.num_cells;
  check_table(fn, "C2E2C", grid.c2e2c, nc, 3);
  check_field3(fn, "zd_vertoffset", zd_vertoffset, nc, 3, nk);
  check_field(fn, "zd_diffcoef", zd_diffcoef, nc, nk);
  check_vector(fn, "geofac_n2s_c", geofac_n2s_c, nc);
  check_table(fn, "geofac_n2s_nbh", geofac_n2s_nbh, nc, 3);
  check_field3(fn, "vcoef", vcoef, nc, 3, nk);
}

}  // namespace

void truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
    const Grid& grid, const IntField3& zd_vertoffset, const Field& zd_diffcoef,
    const Vector& geofac_n2s_c, const Table& geofac_n2s_nbh, const Field3& vcoef,
    const Field& theta_v, Field& z_temp, index_t horizontal_start, index_t horizontal_end,
    int vertical_start, int vertical_end) {
  const char* fn = "truly_horizontal_diffusion_nabla_of_theta_over_steep_points";
  const int nk = levels_needed(vertical_start, vertical_end);
  check_ranges(fn, horizontal_start, horizontal_end, grid.num_cells, vertical_start, vertical_end);
  check_zdiffusion_inputs(fn, grid, zd_vertoffset, zd_diffcoef, geofac_n2s_c, geofac_n2s_nbh, vcoef,
                          nk);
  check_field(fn, "theta_v", theta_v, grid.num_cells, nk);
  check_field(fn, "z_temp", z_temp, grid.num_cells, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k)
      z_temp(c, k) = z_temp(c, k) + zd_diffcoef(c, k) * truly_horizontal_sum_at(
                                                            fn, grid, zd_vertoffset, geofac_n2s_c,
                                                            geofac_n2s_nbh, vcoef, theta_v, c, k);
}

void update_theta_and_exner(const Field& z_temp, const Vector& area, Field& theta_v, Field& exner,
                            double rd_o_cvd, index_t horizontal_start, index_t horizontal_end,
                            int vertical_start, int vertical_end) {
  const char* fn = "update_theta_and_exner";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t nc = theta_v.points;
  check_ranges(fn, horizontal_start, horizontal_end, nc, vertical_start, vertical_end);
  check_field(fn, "z_temp", z_temp, nc, nk);
  check_vector(fn, "area", area, nc);
  check_field(fn, "theta_v", theta_v, nc, nk);
  check_field(fn, "exner", exner, nc, nk);

  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k) {
      const double theta_star = theta_v(c, k);
      theta_exner_update(theta_star, z_temp(c, k), area[c], rd_o_cvd, theta_v(c, k), exner(c, k));
    }
}

void apply_diffusion_to_theta_and_exner(const Grid& grid, const Field& kh_smag_e,
                                        const Vector& inv_dual_edge_length, const Field& theta_v_in,
                                        const Table& geofac_div, const IntField3& zd_vertoffset,
                                        const Field& zd_diffcoef, const Vector& geofac_n2s_c,
                                        const Table& geofac_n2s_nbh, const Field3& vcoef,
                                        const Vector& area, Field& theta_v, Field& exner,
                                        double rd_o_cvd, bool apply_zdiffusion_t,
                                        index_t horizontal_start, index_t horizontal_end,
                                        int vertical_start, int vertical_end) {
  const char* fn = "apply_diffusion_to_theta_and_exner";
  const int nk = levels_needed(vertical_start, vertical_end);
  const index_t nc = grid.num_cells;
  check_ranges(fn, horizontal_start, horizontal_end, nc, vertical_start, vertical_end);
  check_table(fn, "C2E", grid.c2e, nc, 3);
  check_table(fn, "E2C", grid.e2c, grid.num_edges, 2);
  check_field(fn, "kh_smag_e", kh_smag_e, grid.num_edges, nk);
  check_vector(fn, "inv_dual_edge_length", inv_dual_edge_length, grid.num_edges);
  check_field(fn, "theta_v_in", theta_v_in, nc, nk);
  check_table(fn, "geofac_div", geofac_div, nc, 3);
  check_zdiffusion_inputs(fn, grid, zd_vertoffset, zd_diffcoef, geofac_n2s_c, geofac_n2s_nbh, vcoef,
                          nk);
  check_vector(fn, "area", area, nc);
  check_field(fn, "theta_v", theta_v, nc, nk);
  check_field(fn, "exner", exner, nc, nk);
  if (&theta_v_in == &theta_v)
    bad_argument(fn, "theta_v_in must be a copy of theta_v, not theta_v itself (S10)");

  const auto flux = [&](index_t e, int k) {
    return theta_flux_at(fn, grid, kh_smag_e, inv_dual_edge_length, theta_v_in, e, k);
  };
  for (index_t c = horizontal_start; c < horizontal_end; ++c)
    for (int k = vertical_start; k < vertical_end; ++k) {
      double z_temp = divergence_at(fn, grid, geofac_div, c, k, flux);  // vp in ICON4Py
      if (apply_zdiffusion_t && zd_diffcoef(c, k) != 0.0)               // the mask is exactly != 0
        z_temp = z_temp + zd_diffcoef(c, k) * truly_horizontal_sum_at(fn, grid, zd_vertoffset,
                                                                      geofac_n2s_c, geofac_n2s_nbh,
                                                                      vcoef, theta_v_in, c, k);
      theta_exner_update(theta_v_in(c, k), z_temp, area[c], rd_o_cvd, theta_v(c, k), exner(c, k));
    }
}

// ================================================================================================
// The granule (§2.2–2.4, §3.0)
// ================================================================================================

DerivedParameters derive_parameters(const GranuleConfig& config, double dtime, bool initial_run) {
  const char* fn = "derive_parameters";
  if (config.vct_a.size() < 2)
    bad_argument(fn, cat("vct_a has ", config.vct_a.size(),
                         " values; it needs nlev+1 >= 2 interface heights"));
  DerivedParameters p;
  p.nlev = static_cast<int>(config.vct_a.size()) - 1;
  const int nlev = p.nlev;
  if (!(dtime > 0.0))  // also rejects NaN
    bad_argument(fn, cat("dtime = ", dtime,
                         " must be > 0 (S4 divides by diff_multfac_smag = enh_smag_fac·dtime)"));
  if (config.nrd < 0 || config.nrd > nlev - 1)
    bad_argument(fn, cat("nrd = ", config.nrd, " must lie in [0, nlev-1] = [0, ", nlev - 1,
                         "] (diff_multfac_n2w reads vct_a[nrd+1])"));
  if (config.shear_type < 0 || config.shear_type > 2)
    bad_argument(fn, cat("shear_type = ", config.shear_type, " is not implemented (0, 1, 2)"));

  // §2.2
  const double n = static_cast<double>(config.ndyn_substeps);
  p.K2 = config.hdiff_efdt_ratio > 0.0 ? 1.0 / (config.hdiff_efdt_ratio * 8.0) : 0.0;
  p.K4 = p.K2 / 8.0;
  p.K6 = p.K2 / 64.0;
  p.K4W = config.hdiff_w_efdt_ratio > 0.0 ? 1.0 / (config.hdiff_w_efdt_ratio * 36.0) : 0.0;
  p.smag_offset = initial_run ? 0.0 : 0.25 * p.K4 * n;  // §2.4: 0 in the initial run
  p.diff_multfac_w = std::min(1.0 / 48.0, p.K4W * n);
  p.nudgezone_diff = 0.04 / (config.max_nudging_coefficient + dbl_eps);
  p.bdy_diff = 0.015 / (config.max_nudging_coefficient + dbl_eps);
  p.fac_bdydiff_v = std::sqrt(n) / config.velocity_boundary_diffusion_denominator;
  p.rd_o_cvd = gas_constant_dry_air / (cpd - gas_constant_dry_air);
  p.thresh_tdiff = default_thresh_tdiff;
  p.smallest_vpfloat = dbl_eps;

  // §2.3 / §2.4 K-profiles
  p.diff_multfac_vn.assign(nlev, 0.0);
  p.smag_limit.assign(nlev, 0.0);
  for (int k = 0; k < nlev; ++k) {
    p.diff_multfac_vn[k] =
        initial_run ? p.K4 / 3.0 * config.hdiff_efdt_ratio : std::min(1.0 / 128.0, p.K4 * n / 3.0);
    p.smag_limit[k] = 0.125 - 4.0 * p.diff_multfac_vn[k];
  }

  // enh_smag_fac (§2.3, Addendum 4: zf = (vct_a[k] + vct_a[k+1])/2, no nesting floors)
  const double f1 = config.smagorinski_scaling_factor, f2 = config.smagorinski_scaling_factor2,
               f3 = config.smagorinski_scaling_factor3, f4 = config.smagorinski_scaling_factor4;
  const double z1 = config.smagorinski_scaling_height, z2 = config.smagorinski_scaling_height2,
               z3 = config.smagorinski_scaling_height3, z4 = config.smagorinski_scaling_height4;
  const double alin = (f2 - f1) / (z2 - z1);
  const double df32 = f3 - f2, df42 = f4 - f2, dz32 = z3 - z2, dz42 = z4 - z2;
  const double bqdr = (df42 * dz32 - df32 * dz42) / (dz32 * dz42 * (dz42 - dz32));
  const double aqdr = df32 / dz32 - bqdr * dz32;
  p.enh_smag_fac.assign(nlev, 0.0);
  for (int k = 0; k < nlev; ++k) {
    const double zf = 0.5 * (config.vct_a[k] + config.vct_a[k + 1]);
    const double dzlin = std::min(z2 - z1, std::max(0.0, zf - z1));
    const double dzqdr = std::min(z4 - z2, std::max(0.0, zf - z2));
    p.enh_smag_fac[k] = f1 + dzlin * alin + dzqdr * (aqdr + dzqdr * bqdr);
  }

  // diff_multfac_n2w (§2.3, Addendum 3): nonzero only for k = 1..nrd
  p.diff_multfac_n2w.assign(nlev, 0.0);
  const int nrd = config.nrd;
  for (int k = 1; k <= nrd; ++k) {
    const double ratio =
        (config.vct_a[k] - config.vct_a[nrd + 1]) / (config.vct_a[1] - config.vct_a[nrd + 1]);
    p.diff_multfac_n2w[k] = 1.0 / 12.0 * std::pow(ratio, 4);
  }

  // S1 (§3.2): scale_k
  p.diff_multfac_smag.assign(nlev, 0.0);
  for (int k = 0; k < nlev; ++k) p.diff_multfac_smag[k] = p.enh_smag_fac[k] * dtime;
  return p;
}

bool turbulence_diagnostics_active(const GranuleConfig& config) {
  return config.shear_type >= 1 || config.loutshs || config.a_hshr > 0.0;
}

void split_geofac_n2s(const Grid& grid, const Table& geofac_n2s, index_t horizontal_start,
                      index_t horizontal_end, Vector& geofac_n2s_c, Table& geofac_n2s_nbh) {
  const char* fn = "split_geofac_n2s";
  const index_t nc = grid.num_cells;
  check_ranges(fn, horizontal_start, horizontal_end, nc, 0, 0);
  check_table(fn, "C2E2CO", grid.c2e2co, nc, 4);
  check_table(fn, "C2E2C", grid.c2e2c, nc, 3);
  check_table(fn, "geofac_n2s", geofac_n2s, nc, 4);
  geofac_n2s_c.assign(nc, nan);
  geofac_n2s_nbh = Table(nc, 3, nan);
  for (index_t c = horizontal_start; c < horizontal_end; ++c) {
    int self = -1;
    for (int i = 0; i < 4; ++i)
      if (neighbor(fn, "C2E2CO", grid.c2e2co, c, i, nc) == c) {
        if (self >= 0)
          throw std::logic_error(cat("icondiff::reference::", fn, ": cell ", c,
                                     " appears twice in its own C2E2CO row"));
        self = i;
      }
    if (self < 0)
      throw std::logic_error(
          cat("icondiff::reference::", fn, ": cell ", c, " is not in its own C2E2CO row"));
    geofac_n2s_c[c] = geofac_n2s(c, self);
    int j = 0;
    for (int i = 0; i < 4; ++i) {
      if (i == self) continue;
      if (grid.c2e2co(c, i) != neighbor(fn, "C2E2C", grid.c2e2c, c, j, nc))
        throw std::logic_error(cat("icondiff::reference::", fn, ": C2E2CO[", c,
                                   "] without self"
                                   " does not list C2E2C[",
                                   c, "] in order (slot ", i, " holds ", grid.c2e2co(c, i),
                                   ", C2E2C[", c, "][", j, "] = ", grid.c2e2c(c, j), ")"));
      geofac_n2s_nbh(c, j) = geofac_n2s(c, i);
      ++j;
    }
  }
}

void run_diffusion_reference(const Grid& grid, const GranuleConfig& config, const GranuleInputs& in,
                             GranuleState& state, double dtime, bool initial_run,
                             GranuleWork* work) {
  const char* fn = "run_diffusion_reference";
  // S0 (§3.1) and S1 (§3.2)
  const DerivedParameters p = derive_parameters(config, dtime, initial_run);
  const int nlev = p.nlev;
  if (config.apply_to_temperature && nlev < 2)
    bad_argument(fn, "the cold-pool step runs on levels [nlev-2, nlev): nlev >= 2 is needed");

  const index_t nc = grid.num_cells, ne = grid.num_edges, nv = grid.num_vertices;
  const auto exact = [&](const char* name, const Field& f, index_t points, int levels) {
    if (f.points != points || f.levels != levels)
      bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.levels, "), expected (", points,
                           ", ", levels, ")"));
  };
  exact("vn", state.vn, ne, nlev);
  exact("w", state.w, nc, nlev + 1);
  exact("theta_v", state.theta_v, nc, nlev);
  exact("exner", state.exner, nc, nlev);
  exact("div_ic", state.div_ic, nc, nlev + 1);
  exact("hdef_ic", state.hdef_ic, nc, nlev + 1);
  exact("dwdx", state.dwdx, nc, nlev + 1);
  exact("dwdy", state.dwdy, nc, nlev + 1);
  exact("theta_ref_mc", in.theta_ref_mc, nc, nlev);
  exact("wgtfac_c", in.wgtfac_c, nc, nlev + 1);
  exact("zd_diffcoef", in.zd_diffcoef, nc, nlev);

  // Zone bounds S(·) / E(·) (§3.0)
  const auto S = [&](Location l, Zone z) { return grid.start(l, z); };
  const auto E = [&](Location l, Zone z) { return grid.end(l, z); };
  constexpr auto C = Location::Cell;
  constexpr auto Ed = Location::Edge;
  constexpr auto V = Location::Vertex;

  // Work arrays, zero-initialised (Addendum 9)
  Field u_vert(nv, nlev, 0.0), v_vert(nv, nlev, 0.0);
  Field kh_smag_e(ne, nlev, 0.0), kh_smag_ec(ne, nlev, 0.0), z_nabla2_e(ne, nlev, 0.0);

  // S2: RBF of vn at vertices [S(V,LB2), E(V,LOCAL)); X1 is a no-op
  mo_intp_rbf_rbf_vec_interpol_vertex(grid, state.vn, in.rbf_coeff_1, in.rbf_coeff_2, u_vert,
                                      v_vert, S(V, Zone::LateralBoundary2), E(V, Zone::Local), 0,
                                      nlev);

  // S3: nabla2 and Smagorinsky coefficients on edges [S(E,LB5), E(E,HALO_LEVEL_2))
  calculate_nabla2_and_smag_coefficients_for_vn(
      grid, p.diff_multfac_smag, in.tangent_orientation, in.inverse_primal_edge_lengths,
      in.inverse_vertex_vertex_lengths, u_vert, v_vert, in.primal_normal_vert_x,
      in.primal_normal_vert_y, in.dual_normal_vert_x, in.dual_normal_vert_y, state.vn, p.smag_limit,
      kh_smag_e, kh_smag_ec, z_nabla2_e, p.smag_offset, S(Ed, Zone::LateralBoundary5),
      E(Ed, Zone::Halo2), 0, nlev);

  // S4: turbulence diagnostics (reads vn before S6) on cells [S(C,NUDGING), E(C,LOCAL)) × [1,nlev)
  if (turbulence_diagnostics_active(config))
    calculate_diagnostic_quantities_for_turbulence(
        grid, kh_smag_ec, state.vn, in.e_bln_c_s, in.geofac_div, p.diff_multfac_smag, in.wgtfac_c,
        state.div_ic, state.hdef_ic, S(C, Zone::Nudging), E(C, Zone::Local), 1, nlev);

  // X2 (no-op); S5: RBF of z_nabla2_e, overwriting u_vert, v_vert; X3 (no-op)
  mo_intp_rbf_rbf_vec_interpol_vertex(grid, z_nabla2_e, in.rbf_coeff_1, in.rbf_coeff_2, u_vert,
                                      v_vert, S(V, Zone::LateralBoundary2), E(V, Zone::Local), 0,
                                      nlev);

  // S6: vn update on edges [S(E,LB5), E(E,LOCAL)), split at S(E,NUDGING_LEVEL_2)
  apply_diffusion_to_vn(grid, u_vert, v_vert, in.primal_normal_vert_x, in.primal_normal_vert_y,
                        z_nabla2_e, in.inverse_vertex_vertex_lengths,
                        in.inverse_primal_edge_lengths, in.edge_areas, kh_smag_e, p.diff_multfac_vn,
                        in.nudgecoeff_e, state.vn, p.nudgezone_diff, p.fac_bdydiff_v,
                        S(Ed, Zone::Nudging2), config.limited_area, S(Ed, Zone::LateralBoundary5),
                        E(Ed, Zone::Local), 0, nlev);

  // X4a (no-op); S7: w_tmp = w (all cells, all nlev+1 levels)
  const Field w_tmp = state.w;

  // S8: w diffusion and dwdx/dwdy on [w_start, E(C,HALO)) × [0,nlev)
  const index_t w_start = config.limited_area ? S(C, Zone::Nudging) : S(C, Zone::LateralBoundary4);
  apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
      grid, in.cell_area, in.geofac_n2s, in.geofac_grg_x, in.geofac_grg_y, w_tmp, state.w,
      config.shear_type, state.dwdx, state.dwdy, p.diff_multfac_w, p.diff_multfac_n2w,
      config.nrd + 1, S(C, Zone::Interior), E(C, Zone::Local), w_start, E(C, Zone::Halo), 0, nlev);

  // X4b (no-op)
  Field theta_v_tmp;
  if (config.apply_to_temperature) {
    // S9: cold pools on edges [S(E,NUDGING), E(E,HALO)) × [nlev-2, nlev), θ before S11
    calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
        grid, state.theta_v, in.theta_ref_mc, p.thresh_tdiff, p.smallest_vpfloat, kh_smag_e,
        S(Ed, Zone::Nudging), E(Ed, Zone::Halo), nlev - 2, nlev);

    // S10: θ* = theta_v
    theta_v_tmp = state.theta_v;

    // S11: θ and exner on cells [S(C,NUDGING), E(C,LOCAL)) × [0,nlev)
    const index_t c_start = S(C, Zone::Nudging), c_end = E(C, Zone::Local);
    Vector geofac_n2s_c(nc, nan);
    Table geofac_n2s_nbh(nc, 3, nan);
    if (config.apply_zdiffusion_t)
      split_geofac_n2s(grid, in.geofac_n2s, c_start, c_end, geofac_n2s_c, geofac_n2s_nbh);
    apply_diffusion_to_theta_and_exner(
        grid, kh_smag_e, in.inverse_dual_edge_lengths, theta_v_tmp, in.geofac_div, in.zd_vertoffset,
        in.zd_diffcoef, geofac_n2s_c, geofac_n2s_nbh, in.zd_intcoef, in.cell_area, state.theta_v,
        state.exner, p.rd_o_cvd, config.apply_zdiffusion_t, c_start, c_end, 0, nlev);
    // X5 (no-op)
  }
  // X6 (no-op)

  if (work) {
    work->parameters = p;
    work->u_vert = std::move(u_vert);
    work->v_vert = std::move(v_vert);
    work->kh_smag_e = std::move(kh_smag_e);
    work->kh_smag_ec = std::move(kh_smag_ec);
    work->z_nabla2_e = std::move(z_nabla2_e);
    work->w_tmp = w_tmp;
    work->theta_v_tmp = std::move(theta_v_tmp);
  }
}

}  // namespace icondiff::reference
