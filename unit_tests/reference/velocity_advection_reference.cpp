// Plain-loop host reference of ICON4Py 0.2.0's velocity-advection programs; see the header for the
// conventions. Each helper below transcribes one ICON4Py field operator and is named after it.
// Written for obviousness: one (point, level) at a time, temporaries evaluated on the fly (the
// vertical programs keep one column of the clipped contravariant w, which the full-level
// interpolation reads at k+1).
#include "reference/velocity_advection_reference.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::reference {

namespace {

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

void check_horizontal_domain(const char* fn, int horizontal_start, int horizontal_end,
                             index_t points) {
  if (horizontal_start < horizontal_end && (horizontal_start < 0 || horizontal_end > points))
    bad_argument(fn, cat("horizontal domain [", horizontal_start, ", ", horizontal_end,
                         ") does not lie in [0, ", points, ")"));
}

void check_vertical_domain(const char* fn, int vertical_start, int vertical_end, int levels,
                           const char* field) {
  if (vertical_start < vertical_end && (vertical_start < 0 || vertical_end > levels))
    bad_argument(fn, cat("vertical domain [", vertical_start, ", ", vertical_end,
                         ") does not lie in the levels [0, ", levels, ") of ", field));
}

void check_field(const char* fn, const char* name, const Field& f, index_t points, int min_levels) {
  if (f.points != points || f.levels < min_levels ||
      f.values.size() != static_cast<std::size_t>(f.points) * static_cast<std::size_t>(f.levels))
    bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.levels, "), expected (", points,
                         ", >= ", min_levels, ")"));
}

void check_fields(const char* fn, std::initializer_list<std::pair<const char*, const Field*>> list,
                  index_t points, int min_levels) {
  for (const auto& [name, f] : list) check_field(fn, name, *f, points, min_levels);
}

template <class T>
void check_table(const char* fn, const char* name, const HostTable<T>& t, index_t rows,
                 std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    bad_argument(fn, cat(name, " has shape (", t.rows(), ", ", t.cols(), "), expected (", rows,
                         ", ", cols, ")"));
}

template <class V>
void check_vector(const char* fn, const char* name, const V& v, index_t size) {
  if (v.size() != static_cast<std::size_t>(size))
    bad_argument(fn, cat(name, " has ", v.size(), " values, expected ", size));
}

// ---- Neighbours --------------------------------------------------------------------------------

/// Neighbour `slot` of `row` as ICON4Py reads it from a table whose skip values were replaced:
/// a -1 becomes the largest valid index of the row, or 0 when the row has none
/// (grid/base.py, _replace_skip_values).
index_t neighbor(const char* fn, const char* table_name, const HostTable<index_t>& table,
                 index_t row, int slot, index_t target_size) {
  index_t n = table(static_cast<std::size_t>(row), static_cast<std::size_t>(slot));
  if (n == missing_index) {
    const index_t* entries = table.row(static_cast<std::size_t>(row));
    n = std::max<index_t>(0, *std::max_element(entries, entries + table.cols()));
  }
  if (n < 0 || n >= target_size)
    bad_argument(
        fn, cat(table_name, "[", row, "][", slot, "] = ", n, " is not in [0, ", target_size, ")"));
  return n;
}

/// V2C and V2E (ICON4Py's CONNECTIVITIES_ON_PENTAGONS) keep -1 as a gt4py skip value on a global
/// grid that is not decomposed (grid/icon.py, _should_replace_skip_values with
/// keep_skip_values=False); elsewhere they are replaced like every other table.
bool pentagon_skip_values_kept(const Grid& grid) {
  return !grid.limited_area && grid.num_ranks <= 1;
}

/// Neighbour `slot` of `row` of V2C / V2E, or missing_index when neighbor_sum skips the slot.
index_t pentagon_neighbor(const char* fn, const char* table_name, const Grid& grid,
                          const HostTable<index_t>& table, index_t row, int slot,
                          index_t target_size) {
  if (table(static_cast<std::size_t>(row), static_cast<std::size_t>(slot)) == missing_index &&
      pentagon_skip_values_kept(grid))
    return missing_index;
  return neighbor(fn, table_name, table, row, slot, target_size);
}

// ---- Field operators ----------------------------------------------------------------------------

/// _compute_tangential_wind: neighbor_sum(rbf_vec_coeff_e * vn(E2C2E)).
double compute_tangential_wind(const char* fn, const Grid& grid, const Field& vn,
                               const Table& rbf_vec_coeff_e, index_t e, int k) {
  double sum = 0.0;
  for (int j = 0; j < 4; ++j) {
    const index_t n = neighbor(fn, "E2C2E", grid.e2c2e, e, j, grid.num_edges);
    sum += rbf_vec_coeff_e(e, j) * vn(n, k);
  }
  return sum;
}

/// _compute_horizontal_kinetic_energy.
double compute_horizontal_kinetic_energy(double vn, double vt) {
  return 0.5 * (vn * vn + vt * vt);
}

/// _interpolate_to_half_levels at k > 0 (at k = 0 it returns x itself).
double interpolate_to_half_levels(double wgtfac_e, double x, double x_above) {
  return wgtfac_e * x + (1.0 - wgtfac_e) * x_above;
}

/// _compute_contravariant_correction.
double compute_contravariant_correction(double vn, double ddxn_z_full, double ddxt_z_full,
                                        double vt) {
  return vn * ddxn_z_full + vt * ddxt_z_full;
}

/// _mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl: neighbor_sum(p_cell_in(V2C) * c_intp)
/// at vertex v, level k.
double mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl(const char* fn, const Grid& grid,
                                                              const Field& p_cell_in,
                                                              const Table& c_intp, index_t v,
                                                              int k) {
  double sum = 0.0;
  for (int j = 0; j < static_cast<int>(grid.v2c.cols()); ++j) {
    const index_t n = pentagon_neighbor(fn, "V2C", grid, grid.v2c, v, j, grid.num_cells);
    if (n == missing_index) continue;
    sum += p_cell_in(n, k) * c_intp(v, j);
  }
  return sum;
}

/// _compute_horizontal_advection_term_for_vertical_velocity, given the neighbour values
/// w(E2C[0]), w(E2C[1]), z_w_v(E2V[0]), z_w_v(E2V[1]).
double compute_horizontal_advection_term_for_vertical_velocity(
    double vn_ie, double inv_dual_edge_length, double w_c0, double w_c1, double z_vt_ie,
    double inv_primal_edge_length, double tangent_orientation, double z_w_v0, double z_w_v1) {
  return vn_ie * inv_dual_edge_length * (w_c0 - w_c1) +
         z_vt_ie * inv_primal_edge_length * tangent_orientation * (z_w_v0 - z_w_v1);
}

/// The horizontal advection of w at edge e, level k, with w interpolated to the two E2V vertices
/// (compute_diagnostics_from_normal_wind and _compute_horizontal_advection_of_w of the corrector).
double horizontal_advection_of_w_at(const char* fn, const Grid& grid, double vn_ie, double vt_ie,
                                    const Field& w, const Table& c_intp,
                                    const Vector& inv_dual_edge_length,
                                    const Vector& inv_primal_edge_length,
                                    const Vector& tangent_orientation, index_t e, int k) {
  const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
  const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
  const index_t v0 = neighbor(fn, "E2V", grid.e2v, e, 0, grid.num_vertices);
  const index_t v1 = neighbor(fn, "E2V", grid.e2v, e, 1, grid.num_vertices);
  const double w_v0 =
      mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl(fn, grid, w, c_intp, v0, k);
  const double w_v1 =
      mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl(fn, grid, w, c_intp, v1, k);
  return compute_horizontal_advection_term_for_vertical_velocity(
      vn_ie, inv_dual_edge_length[e], w(c0, k), w(c1, k), vt_ie, inv_primal_edge_length[e],
      tangent_orientation[e], w_v0, w_v1);
}

/// _extrapolate_at_top at (e,k): quadratic extrapolation from the three levels above k.
double extrapolate_at_top(const Field& wgtfacq_e, const Field& vn, index_t e, int k) {
  return wgtfacq_e(e, k - 1) * vn(e, k - 1) + wgtfacq_e(e, k - 2) * vn(e, k - 2) +
         wgtfacq_e(e, k - 3) * vn(e, k - 3);
}

/// _interpolate_to_cell_center: neighbor_sum(e_bln_c_s * interpolant(C2E)).
double interpolate_to_cell_center(const char* fn, const Grid& grid, const Field& interpolant,
                                  const Table& e_bln_c_s, index_t c, int k) {
  double sum = 0.0;
  for (int j = 0; j < 3; ++j) {
    const index_t n = neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges);
    sum += e_bln_c_s(c, j) * interpolant(n, k);
  }
  return sum;
}

/// _interpolate_cell_field_to_half_levels_vp at k (interpolant_above: level k-1).
double interpolate_cell_field_to_half_levels_vp(double wgtfac_c, double interpolant,
                                                double interpolant_above) {
  return wgtfac_c * interpolant + (1.0 - wgtfac_c) * interpolant_above;
}

/// The three results of _compute_contravariant_corrected_w_and_cfl at one (c,k).
struct ContravariantW {
  double w_con = 0.0;         ///< contravariant_corrected_w_at_cells_on_half_levels (clipped)
  bool cfl_clipping = false;  ///< internal, not a program output
  double vertical_cfl = 0.0;
};

/// _compute_maximum_cfl_and_clip_contravariant_vertical_velocity.
ContravariantW compute_maximum_cfl_and_clip_contravariant_vertical_velocity(double ddqz_z_half,
                                                                            double w_con,
                                                                            double cfl_w_limit,
                                                                            double dtime) {
  ContravariantW r;
  r.cfl_clipping = std::fabs(w_con) > cfl_w_limit * ddqz_z_half;
  r.vertical_cfl = r.cfl_clipping ? w_con * dtime / ddqz_z_half : 0.0;
  r.w_con = w_con;
  // Both conditions test the vertical_cfl computed before any clipping.
  if (r.cfl_clipping && r.vertical_cfl < -0.85) r.w_con = -0.85 * ddqz_z_half / dtime;
  if (r.cfl_clipping && r.vertical_cfl > 0.85) r.w_con = 0.85 * ddqz_z_half / dtime;
  return r;
}

/// The CFL band of _compute_contravariant_corrected_w_and_cfl.
bool in_vertical_cfl_band(int k, int end_index_of_damping_layer, int nlev) {
  return k >= std::max(2, end_index_of_damping_layer - 2) && k < nlev - 3;
}

/// _compute_contravariant_corrected_w (w - correction) and, inside the band, the clipping.
ContravariantW compute_contravariant_corrected_w_and_cfl(double w, double correction,
                                                         double ddqz_z_half, double cfl_w_limit,
                                                         double dtime, int nlev,
                                                         int end_index_of_damping_layer, int k) {
  const double w_con = w - correction;
  if (in_vertical_cfl_band(k, end_index_of_damping_layer, nlev))
    return compute_maximum_cfl_and_clip_contravariant_vertical_velocity(ddqz_z_half, w_con,
                                                                        cfl_w_limit, dtime);
  ContravariantW r;
  r.w_con = w_con;
  return r;
}

/// _add_vertical_advection_of_w_to_advective_vertical_wind_tendency (despite its name it returns
/// the vertical advection alone; nothing is added).
double add_vertical_advection_of_w_to_advective_vertical_wind_tendency(double w_con, double w_above,
                                                                       double w, double w_below,
                                                                       double coeff1_dwdz,
                                                                       double coeff2_dwdz) {
  return -w_con * (w_above * coeff1_dwdz - w_below * coeff2_dwdz + w * (coeff2_dwdz - coeff1_dwdz));
}

/// _add_extra_diffusion_for_w_con_approaching_cfl at (c,k).
double add_extra_diffusion_for_w_con_approaching_cfl(
    const char* fn, const Grid& grid, bool cfl_clipping, bool owner_mask, double z_w_con_c,
    double ddqz_z_half, double area, const Table& geofac_n2s, const Field& w, double ddt_w_adv,
    double scalfac_exdiff, double cfl_w_limit, double dtime, index_t c, int k) {
  if (!(cfl_clipping && owner_mask)) return ddt_w_adv;
  const double difcoef =
      scalfac_exdiff * std::min(0.85 - cfl_w_limit * dtime,
                                std::fabs(z_w_con_c) * dtime / ddqz_z_half - cfl_w_limit * dtime);
  double laplacian = 0.0;  // neighbor_sum(w(C2E2CO) * geofac_n2s)
  for (int j = 0; j < 4; ++j) {
    const index_t n = neighbor(fn, "C2E2CO", grid.c2e2co, c, j, grid.num_cells);
    laplacian += w(n, k) * geofac_n2s(c, j);
  }
  return ddt_w_adv + difcoef * area * laplacian;
}

/// Inputs of _compute_advective_vertical_wind_tendency shared by the predictor and corrector.
struct VerticalTendencyInputs {
  const Field* w;
  const Field* coeff1_dwdz;
  const Field* coeff2_dwdz;
  const Table* e_bln_c_s;
  const Field* ddqz_z_half;
  const Vector* area;
  const Table* geofac_n2s;
  const BoolVector* owner_mask;
  double scalfac_exdiff;
  double cfl_w_limit;
  double dtime;
};

/// _compute_advective_vertical_wind_tendency at (c,k); `horizontal_advection(e)` gives
/// horizontal_advection_of_w_at_edges_on_half_levels at edge e, level k.
template <class HorizontalAdvection>
double compute_advective_vertical_wind_tendency(const char* fn, const Grid& grid,
                                                const VerticalTendencyInputs& in,
                                                double vertical_wind_advective_tendency,
                                                const ContravariantW& z,
                                                HorizontalAdvection&& horizontal_advection,
                                                index_t c, int k) {
  const Field& w = *in.w;
  double tendency = vertical_wind_advective_tendency;
  if (1 <= k) {
    tendency = add_vertical_advection_of_w_to_advective_vertical_wind_tendency(
        z.w_con, w(c, k - 1), w(c, k), w(c, k + 1), (*in.coeff1_dwdz)(c, k),
        (*in.coeff2_dwdz)(c, k));
    // _add_interpolated_horizontal_advection_of_w
    double interpolated = 0.0;  // neighbor_sum(z_v_grad_w(C2E) * e_bln_c_s)
    for (int j = 0; j < 3; ++j) {
      const index_t n = neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges);
      interpolated += horizontal_advection(n) * (*in.e_bln_c_s)(c, j);
    }
    tendency = tendency + interpolated;
  }
  return add_extra_diffusion_for_w_con_approaching_cfl(
      fn, grid, z.cfl_clipping, (*in.owner_mask)[static_cast<std::size_t>(c)], z.w_con,
      (*in.ddqz_z_half)(c, k), (*in.area)[static_cast<std::size_t>(c)], *in.geofac_n2s, w, tendency,
      in.scalfac_exdiff, in.cfl_w_limit, in.dtime, c, k);
}

/// _interpolate_contravariant_vertical_velocity_to_full_levels at k, from the column of clipped
/// half-level values (indexed by level).
double interpolate_contravariant_vertical_velocity_to_full_levels(
    const std::vector<double>& w_con_half, int nlev, int k) {
  if (k < nlev - 1) return 0.5 * (w_con_half[k] + w_con_half[k + 1]);
  return 0.5 * w_con_half[k];
}

/// _mo_math_divrot_rot_vertex_ri_dsl: neighbor_sum(vec_e(V2E) * geofac_rot) at vertex v.
double mo_math_divrot_rot_vertex_ri_dsl(const char* fn, const Grid& grid, const Field& vec_e,
                                        const Table& geofac_rot, index_t v, int k) {
  double sum = 0.0;
  for (int j = 0; j < static_cast<int>(grid.v2e.cols()); ++j) {
    const index_t n = pentagon_neighbor(fn, "V2E", grid, grid.v2e, v, j, grid.num_edges);
    if (n == missing_index) continue;
    sum += vec_e(n, k) * geofac_rot(v, j);
  }
  return sum;
}

}  // namespace

// ================================================================================================
// Scale factors and the CFL reduction
// ================================================================================================

VelocityAdvectionScaleFactors scale_factors_by_dtime(double dtime) {
  VelocityAdvectionScaleFactors s;
  s.cfl_w_limit = velocity_advection_cfl_w_limit / dtime;
  s.scalfac_exdiff = velocity_advection_scalfac_exdiff / (dtime * (0.85 - s.cfl_w_limit * dtime));
  return s;
}

double max_vertical_cfl(const Field& vertical_cfl, index_t start_cell, index_t end_cell) {
  const char* fn = "max_vertical_cfl";
  check_field(fn, "vertical_cfl", vertical_cfl, vertical_cfl.points, 0);
  if (start_cell < 0 || end_cell > vertical_cfl.points || start_cell >= end_cell ||
      vertical_cfl.levels <= 0)
    bad_argument(fn, cat("the cells [", start_cell, ", ", end_cell, ") × ", vertical_cfl.levels,
                         " levels of vertical_cfl (", vertical_cfl.points,
                         " cells) are empty or outside the field"));
  double result = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < vertical_cfl.levels; ++k)
    for (index_t c = start_cell; c < end_cell; ++c) {
      const double v = vertical_cfl(c, k);
      if (std::isnan(v)) return v;
      result = std::max(result, v);
    }
  return result;
}

// ================================================================================================
// compute_diagnostics_from_normal_wind
// ================================================================================================

void compute_diagnostics_from_normal_wind(const Grid& grid,
                                          ComputeDiagnosticsFromNormalWindArgs& args) {
  const char* fn = "compute_diagnostics_from_normal_wind";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells, nv = grid.num_vertices;
  const int top = a.vertical_end - 1;  // the extrapolation level L
  const bool any_edge = a.horizontal_start < a.horizontal_end;
  check_horizontal_domain(fn, a.horizontal_start, a.horizontal_end, ne);
  if (any_edge) {
    check_vertical_domain(fn, std::min(a.vertical_start, top), a.vertical_end,
                          a.vn_on_half_levels.levels, "vn_on_half_levels");
    if (top < 3)
      bad_argument(fn, cat("vertical_end = ", a.vertical_end, ": extrapolate_at_top at level ", top,
                           " reads vn and wgtfacq_e at levels ", top - 3, "..", top - 1));
  }
  const int n_main = a.vertical_start < top ? top : 0;  // levels of the main domain's fields
  const int n_top = any_edge ? top : 0;                 // levels the extrapolation reads
  check_table(fn, "E2C", grid.e2c, ne, 2);
  check_table(fn, "E2V", grid.e2v, ne, 2);
  check_table(fn, "E2C2E", grid.e2c2e, ne, 4);
  check_table(fn, "V2C", grid.v2c, nv, 6);
  check_fields(fn,
               {{"tangential_wind", &a.tangential_wind},
                {"tangential_wind_on_half_levels", &a.tangential_wind_on_half_levels},
                {"horizontal_kinetic_energy_at_edges_on_model_levels",
                 &a.horizontal_kinetic_energy_at_edges_on_model_levels},
                {"contravariant_correction_at_edges_on_model_levels",
                 &a.contravariant_correction_at_edges_on_model_levels},
                {"horizontal_advection_of_w_at_edges_on_half_levels",
                 &a.horizontal_advection_of_w_at_edges_on_half_levels},
                {"wgtfac_e", &a.wgtfac_e},
                {"ddxn_z_full", &a.ddxn_z_full},
                {"ddxt_z_full", &a.ddxt_z_full}},
               ne, n_main);
  check_field(fn, "vn_on_half_levels", a.vn_on_half_levels, ne, any_edge ? a.vertical_end : 0);
  check_field(fn, "vn", a.vn, ne, std::max(n_main, n_top));
  check_field(fn, "wgtfacq_e", a.wgtfacq_e, ne, n_top);
  check_field(fn, "w", a.w, nc, n_main);
  check_table(fn, "rbf_vec_coeff_e", a.rbf_vec_coeff_e, ne, 4);
  check_table(fn, "c_intp", a.c_intp, nv, 6);
  check_vector(fn, "inv_dual_edge_length", a.inv_dual_edge_length, ne);
  check_vector(fn, "inv_primal_edge_length", a.inv_primal_edge_length, ne);
  check_vector(fn, "tangent_orientation", a.tangent_orientation, ne);

  const bool compute_w_advection = !a.skip_compute_predictor_vertical_advection;
  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e) {
    // _compute_diagnostics_from_normal_wind on [vertical_start, vertical_end - 1)
    for (int k = a.vertical_start; k < top; ++k) {
      const double vt = compute_tangential_wind(fn, grid, a.vn, a.rbf_vec_coeff_e, e, k);
      double vn_ie = a.vn(e, k), vt_ie = vt;  // _interpolate_to_half_levels: x itself at k = 0
      if (k > 0) {
        const double vt_above =
            compute_tangential_wind(fn, grid, a.vn, a.rbf_vec_coeff_e, e, k - 1);
        vn_ie = interpolate_to_half_levels(a.wgtfac_e(e, k), a.vn(e, k), a.vn(e, k - 1));
        vt_ie = interpolate_to_half_levels(a.wgtfac_e(e, k), vt, vt_above);
      }
      a.tangential_wind(e, k) = vt;
      a.horizontal_kinetic_energy_at_edges_on_model_levels(e, k) =
          compute_horizontal_kinetic_energy(a.vn(e, k), vt);
      a.vn_on_half_levels(e, k) = vn_ie;
      if (a.nflatlev <= k)
        a.contravariant_correction_at_edges_on_model_levels(e, k) =
            compute_contravariant_correction(a.vn(e, k), a.ddxn_z_full(e, k), a.ddxt_z_full(e, k),
                                             vt);
      if (compute_w_advection) {
        a.tangential_wind_on_half_levels(e, k) = vt_ie;
        a.horizontal_advection_of_w_at_edges_on_half_levels(e, k) = horizontal_advection_of_w_at(
            fn, grid, vn_ie, vt_ie, a.w, a.c_intp, a.inv_dual_edge_length, a.inv_primal_edge_length,
            a.tangent_orientation, e, k);
      }
    }
    // _extrapolate_at_top on [vertical_end - 1, vertical_end)
    a.vn_on_half_levels(e, top) = extrapolate_at_top(a.wgtfacq_e, a.vn, e, top);
  }
}

// ================================================================================================
// compute_advection_in_predictor_vertical_momentum
// ================================================================================================

void compute_advection_in_predictor_vertical_momentum(
    const Grid& grid, ComputeAdvectionInPredictorVerticalMomentumArgs& args) {
  const char* fn = "compute_advection_in_predictor_vertical_momentum";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells;
  const int nlev = a.vertical_end;
  const bool any = a.horizontal_start < a.horizontal_end && a.vertical_start < a.vertical_end;
  check_horizontal_domain(fn, a.horizontal_start, a.horizontal_end, nc);
  check_vertical_domain(fn, a.vertical_start, a.vertical_end, a.vertical_cfl.levels,
                        "vertical_cfl");
  const int nk = any ? nlev : 0;
  const bool compute_tendency = !a.skip_compute_predictor_vertical_advection;
  if (any && a.vertical_start <= 0 && a.nflatlev + 1 <= 0)
    bad_argument(fn, cat("nflatlev = ", a.nflatlev,
                         ": the half-level interpolation at level 0 reads "
                         "contravariant_correction_at_edges_on_model_levels at level -1"));
  check_table(fn, "C2E", grid.c2e, nc, 3);
  check_table(fn, "C2E2CO", grid.c2e2co, nc, 4);
  check_fields(fn,
               {{"contravariant_correction_at_cells_on_half_levels",
                 &a.contravariant_correction_at_cells_on_half_levels},
                {"vertical_wind_advective_tendency", &a.vertical_wind_advective_tendency},
                {"contravariant_corrected_w_at_cells_on_model_levels",
                 &a.contravariant_corrected_w_at_cells_on_model_levels},
                {"vertical_cfl", &a.vertical_cfl},
                {"coeff1_dwdz", &a.coeff1_dwdz},
                {"coeff2_dwdz", &a.coeff2_dwdz},
                {"wgtfac_c", &a.wgtfac_c},
                {"ddqz_z_half", &a.ddqz_z_half}},
               nc, nk);
  check_field(fn, "w", a.w, nc, any && compute_tendency ? nlev + 1 : nk);
  check_fields(fn,
               {{"horizontal_advection_of_w_at_edges_on_half_levels",
                 &a.horizontal_advection_of_w_at_edges_on_half_levels},
                {"contravariant_correction_at_edges_on_model_levels",
                 &a.contravariant_correction_at_edges_on_model_levels}},
               ne, nk);
  check_table(fn, "e_bln_c_s", a.e_bln_c_s, nc, 3);
  check_vector(fn, "area", a.area, nc);
  check_table(fn, "geofac_n2s", a.geofac_n2s, nc, 4);
  check_vector(fn, "owner_mask", a.owner_mask, nc);
  if (!any) return;

  const VerticalTendencyInputs in{
      &a.w,          &a.coeff1_dwdz, &a.coeff2_dwdz,   &a.e_bln_c_s,  &a.ddqz_z_half, &a.area,
      &a.geofac_n2s, &a.owner_mask,  a.scalfac_exdiff, a.cfl_w_limit, a.dtime};
  const Field& correction_e = a.contravariant_correction_at_edges_on_model_levels;
  std::vector<ContravariantW> z(nlev);
  std::vector<double> w_con_half(nlev, 0.0);
  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c) {
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      // _interpolate_contravariant_correction_to_cells_on_half_levels
      double correction = 0.0;
      if (k >= a.nflatlev + 1)
        correction = interpolate_cell_field_to_half_levels_vp(
            a.wgtfac_c(c, k), interpolate_to_cell_center(fn, grid, correction_e, a.e_bln_c_s, c, k),
            interpolate_to_cell_center(fn, grid, correction_e, a.e_bln_c_s, c, k - 1));
      a.contravariant_correction_at_cells_on_half_levels(c, k) = correction;
      z[k] = compute_contravariant_corrected_w_and_cfl(a.w(c, k), correction, a.ddqz_z_half(c, k),
                                                       a.cfl_w_limit, a.dtime, nlev,
                                                       a.end_index_of_damping_layer, k);
      w_con_half[k] = z[k].w_con;
    }
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      if (compute_tendency) {
        auto horizontal_advection = [&](index_t e) {
          return a.horizontal_advection_of_w_at_edges_on_half_levels(e, k);
        };
        a.vertical_wind_advective_tendency(c, k) = compute_advective_vertical_wind_tendency(
            fn, grid, in, a.vertical_wind_advective_tendency(c, k), z[k], horizontal_advection, c,
            k);
      }
      a.contravariant_corrected_w_at_cells_on_model_levels(c, k) =
          interpolate_contravariant_vertical_velocity_to_full_levels(w_con_half, nlev, k);
      a.vertical_cfl(c, k) = z[k].vertical_cfl;
    }
  }
}

// ================================================================================================
// compute_advection_in_corrector_vertical_momentum
// ================================================================================================

void compute_advection_in_corrector_vertical_momentum(
    const Grid& grid, ComputeAdvectionInCorrectorVerticalMomentumArgs& args) {
  const char* fn = "compute_advection_in_corrector_vertical_momentum";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells, nv = grid.num_vertices;
  const int nlev = a.vertical_end;
  const bool any = a.horizontal_start < a.horizontal_end && a.vertical_start < a.vertical_end;
  check_horizontal_domain(fn, a.horizontal_start, a.horizontal_end, nc);
  check_vertical_domain(fn, a.vertical_start, a.vertical_end, a.vertical_cfl.levels,
                        "vertical_cfl");
  const int nk = any ? nlev : 0;
  check_table(fn, "C2E", grid.c2e, nc, 3);
  check_table(fn, "C2E2CO", grid.c2e2co, nc, 4);
  check_table(fn, "E2C", grid.e2c, ne, 2);
  check_table(fn, "E2V", grid.e2v, ne, 2);
  check_table(fn, "V2C", grid.v2c, nv, 6);
  check_fields(fn,
               {{"vertical_wind_advective_tendency", &a.vertical_wind_advective_tendency},
                {"contravariant_corrected_w_at_cells_on_model_levels",
                 &a.contravariant_corrected_w_at_cells_on_model_levels},
                {"vertical_cfl", &a.vertical_cfl},
                {"contravariant_correction_at_cells_on_half_levels",
                 &a.contravariant_correction_at_cells_on_half_levels},
                {"coeff1_dwdz", &a.coeff1_dwdz},
                {"coeff2_dwdz", &a.coeff2_dwdz},
                {"ddqz_z_half", &a.ddqz_z_half}},
               nc, nk);
  check_field(fn, "w", a.w, nc, any ? nlev + 1 : 0);
  check_fields(fn,
               {{"tangential_wind_on_half_levels", &a.tangential_wind_on_half_levels},
                {"vn_on_half_levels", &a.vn_on_half_levels}},
               ne, nk);
  check_table(fn, "c_intp", a.c_intp, nv, 6);
  check_vector(fn, "inv_dual_edge_length", a.inv_dual_edge_length, ne);
  check_vector(fn, "inv_primal_edge_length", a.inv_primal_edge_length, ne);
  check_vector(fn, "tangent_orientation", a.tangent_orientation, ne);
  check_table(fn, "e_bln_c_s", a.e_bln_c_s, nc, 3);
  check_vector(fn, "area", a.area, nc);
  check_table(fn, "geofac_n2s", a.geofac_n2s, nc, 4);
  check_vector(fn, "owner_mask", a.owner_mask, nc);
  if (!any) return;

  const VerticalTendencyInputs in{
      &a.w,          &a.coeff1_dwdz, &a.coeff2_dwdz,   &a.e_bln_c_s,  &a.ddqz_z_half, &a.area,
      &a.geofac_n2s, &a.owner_mask,  a.scalfac_exdiff, a.cfl_w_limit, a.dtime};
  std::vector<ContravariantW> z(nlev);
  std::vector<double> w_con_half(nlev, 0.0);
  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c) {
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      z[k] = compute_contravariant_corrected_w_and_cfl(
          a.w(c, k), a.contravariant_correction_at_cells_on_half_levels(c, k), a.ddqz_z_half(c, k),
          a.cfl_w_limit, a.dtime, nlev, a.end_index_of_damping_layer, k);
      w_con_half[k] = z[k].w_con;
    }
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      // _compute_horizontal_advection_of_w, evaluated at the C2E edges of c
      auto horizontal_advection = [&](index_t e) {
        return horizontal_advection_of_w_at(fn, grid, a.vn_on_half_levels(e, k),
                                            a.tangential_wind_on_half_levels(e, k), a.w, a.c_intp,
                                            a.inv_dual_edge_length, a.inv_primal_edge_length,
                                            a.tangent_orientation, e, k);
      };
      a.vertical_wind_advective_tendency(c, k) = compute_advective_vertical_wind_tendency(
          fn, grid, in, a.vertical_wind_advective_tendency(c, k), z[k], horizontal_advection, c, k);
      a.contravariant_corrected_w_at_cells_on_model_levels(c, k) =
          interpolate_contravariant_vertical_velocity_to_full_levels(w_con_half, nlev, k);
      a.vertical_cfl(c, k) = z[k].vertical_cfl;
    }
  }
}

// ================================================================================================
// compute_advection_in_horizontal_momentum
// ================================================================================================

void compute_advection_in_horizontal_momentum(const Grid& grid,
                                              ComputeAdvectionInHorizontalMomentumArgs& args) {
  const char* fn = "compute_advection_in_horizontal_momentum";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells, nv = grid.num_vertices;
  const int nlev = a.vertical_end;
  const bool any = a.horizontal_start < a.horizontal_end && a.vertical_start < a.vertical_end;
  check_horizontal_domain(fn, a.horizontal_start, a.horizontal_end, ne);
  check_vertical_domain(fn, a.vertical_start, a.vertical_end,
                        a.normal_wind_advective_tendency.levels, "normal_wind_advective_tendency");
  const int nk = any ? nlev : 0;
  check_table(fn, "E2C", grid.e2c, ne, 2);
  check_table(fn, "E2V", grid.e2v, ne, 2);
  check_table(fn, "E2C2EO", grid.e2c2eo, ne, 5);
  check_table(fn, "C2E", grid.c2e, nc, 3);
  check_table(fn, "V2E", grid.v2e, nv, 6);
  check_fields(fn,
               {{"normal_wind_advective_tendency", &a.normal_wind_advective_tendency},
                {"vn", &a.vn},
                {"horizontal_kinetic_energy_at_edges_on_model_levels",
                 &a.horizontal_kinetic_energy_at_edges_on_model_levels},
                {"tangential_wind", &a.tangential_wind},
                {"ddqz_z_full_e", &a.ddqz_z_full_e}},
               ne, nk);
  check_field(fn, "vn_on_half_levels", a.vn_on_half_levels, ne, any ? nlev + 1 : 0);
  check_field(fn, "contravariant_corrected_w_at_cells_on_model_levels",
              a.contravariant_corrected_w_at_cells_on_model_levels, nc, nk);
  check_vector(fn, "coriolis_frequency", a.coriolis_frequency, ne);
  check_table(fn, "e_bln_c_s", a.e_bln_c_s, nc, 3);
  check_table(fn, "geofac_rot", a.geofac_rot, nv, 6);
  check_table(fn, "coeff_gradekin", a.coeff_gradekin, ne, 2);
  check_table(fn, "c_lin_e", a.c_lin_e, ne, 2);
  check_vector(fn, "area_edge", a.area_edge, ne);
  check_vector(fn, "tangent_orientation", a.tangent_orientation, ne);
  check_vector(fn, "inv_primal_edge_length", a.inv_primal_edge_length, ne);
  check_table(fn, "geofac_grdiv", a.geofac_grdiv, ne, 5);
  if (!any) return;

  const Field& ekin_e = a.horizontal_kinetic_energy_at_edges_on_model_levels;
  const Field& w_con_c = a.contravariant_corrected_w_at_cells_on_model_levels;
  const Field& vn_ie = a.vn_on_half_levels;
  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e) {
    const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, nc);
    const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, nc);
    const index_t v0 = neighbor(fn, "E2V", grid.e2v, e, 0, nv);
    const index_t v1 = neighbor(fn, "E2V", grid.e2v, e, 1, nv);
    const double cg0 = a.coeff_gradekin(e, 0), cg1 = a.coeff_gradekin(e, 1);
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      const double zeta0 = mo_math_divrot_rot_vertex_ri_dsl(fn, grid, a.vn, a.geofac_rot, v0, k);
      const double zeta1 = mo_math_divrot_rot_vertex_ri_dsl(fn, grid, a.vn, a.geofac_rot, v1, k);

      // _compute_advective_normal_wind_tendency
      const double ekin_c0 = interpolate_to_cell_center(fn, grid, ekin_e, a.e_bln_c_s, c0, k);
      const double ekin_c1 = interpolate_to_cell_center(fn, grid, ekin_e, a.e_bln_c_s, c1, k);
      const double horizontal_advection =
          ekin_e(e, k) * (cg0 - cg1) + cg1 * ekin_c1 - cg0 * ekin_c0;
      double w_con_e = 0.0;  // neighbor_sum(c_lin_e * w_con(E2C))
      w_con_e += a.c_lin_e(e, 0) * w_con_c(c0, k);
      w_con_e += a.c_lin_e(e, 1) * w_con_c(c1, k);
      const double vertical_advection =
          w_con_e * (vn_ie(e, k) - vn_ie(e, k + 1)) / a.ddqz_z_full_e(e, k);
      double zeta_sum = 0.0;  // neighbor_sum(zeta(E2V))
      zeta_sum += zeta0;
      zeta_sum += zeta1;
      const double coriolis_term =
          a.tangential_wind(e, k) * (a.coriolis_frequency[e] + 0.5 * zeta_sum);
      double tendency = -(horizontal_advection + vertical_advection + coriolis_term);

      // _add_extra_diffusion_for_normal_wind_tendency_approaching_cfl_without_levelmask
      if (a.apply_extra_diffusion_on_vn && std::max(2, a.end_index_of_damping_layer - 2) <= k &&
          k < nlev - 4) {
        const double ddqz = a.ddqz_z_full_e(e, k);
        if (std::fabs(w_con_e) > a.cfl_w_limit * ddqz) {
          const double difcoef = a.scalfac_exdiff * std::min(0.85 - a.cfl_w_limit * a.dtime,
                                                             std::fabs(w_con_e) * a.dtime / ddqz -
                                                                 a.cfl_w_limit * a.dtime);
          // _compute_extra_diffusion
          double gradient_of_divergence_of_vn = 0.0;  // neighbor_sum(geofac_grdiv * vn(E2C2EO))
          for (int j = 0; j < 5; ++j) {
            const index_t n = neighbor(fn, "E2C2EO", grid.e2c2eo, e, j, ne);
            gradient_of_divergence_of_vn += a.geofac_grdiv(e, j) * a.vn(n, k);
          }
          const double gradient_of_vorticity =
              a.tangent_orientation[e] * a.inv_primal_edge_length[e] * (zeta1 - zeta0);
          tendency = tendency + difcoef * a.area_edge[e] *
                                    (gradient_of_divergence_of_vn + gradient_of_vorticity);
        }
      }
      a.normal_wind_advective_tendency(e, k) = tendency;
    }
  }
}

}  // namespace icondiff::reference
