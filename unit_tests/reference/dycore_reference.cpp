// Plain-loop host reference of four ICON4Py dycore programs; see the header for the conventions.
// Each formula names the ICON4Py field operator it transcribes. Written for obviousness: one
// (point, level) at a time (the solver one column at a time), temporaries evaluated on the fly.
#include "reference/dycore_reference.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
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

void check_domain(const char* fn, int horizontal_start, int horizontal_end, index_t points,
                  int vertical_start, int vertical_end, int levels) {
  if (horizontal_start < horizontal_end && (horizontal_start < 0 || horizontal_end > points))
    bad_argument(fn, cat("horizontal domain [", horizontal_start, ", ", horizontal_end,
                         ") does not lie in [0, ", points, ")"));
  if (vertical_start < vertical_end && (vertical_start < 0 || vertical_end > levels))
    bad_argument(fn, cat("vertical domain [", vertical_start, ", ", vertical_end,
                         ") does not lie in [0, ", levels, ")"));
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

/// K profiles need at least the levels that are read.
void check_profile(const char* fn, const char* name, const Vector& v, int min_size) {
  if (v.size() < static_cast<std::size_t>(std::max(min_size, 0)))
    bad_argument(fn, cat(name, " has ", v.size(), " levels, expected >= ", min_size));
}

/// The level count a field must at least have for [vertical_start, vertical_end).
int levels_needed(int vertical_start, int vertical_end) {
  return vertical_start < vertical_end ? vertical_end : 0;
}

/// Neighbour `slot` of `row` as ICON4Py sees it: its grids replace a -1 by the largest valid
/// index of the same row, or by 0 when the row has none (grid/base.py, _replace_skip_values).
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

// ---- compute_rho_theta_pgrad_and_update_vn pieces ----------------------------------------------

/// cell_horizontal_gradients_by_green_gauss_method: Σ_i geofac[c,i]·f[C2E2CO[c,i],k].
double green_gauss_gradient(const char* fn, const Grid& grid, const Table& geofac, const Field& f,
                            index_t c, int k) {
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    const index_t n = neighbor(fn, "C2E2CO", grid.c2e2co, c, i, grid.num_cells);
    sum += geofac(c, i) * f(n, k);
  }
  return sum;
}

/// _compute_horizontal_advection_of_rho_and_theta at (e,k): the back-trajectory from the edge
/// centre (_compute_backward_trajectory_from_edge_center) and the upwind values
/// (_compute_upwind_values_of_rho_and_theta_v_at_edges).
void upwind_rho_and_theta_at(const char* fn, const Grid& grid,
                             const ComputeRhoThetaPgradAndUpdateVnArgs& a, index_t e, int k,
                             double& rho_e, double& theta_e) {
  const double vn = a.current_vn(e, k);
  // where(p_vn >= 0, E2C[0], E2C[1]) everywhere below (NaN picks E2C[1], as numpy does).
  const int upwind = vn >= 0.0 ? 0 : 1;
  const double p_dthalf = 0.5 * a.dtime;
  const double z_ntdistv_bary_1 = -(vn * p_dthalf + a.pos_on_tplane_e_x(e, upwind));
  const double z_ntdistv_bary_2 =
      -(a.tangential_wind(e, k) * p_dthalf + a.pos_on_tplane_e_y(e, upwind));
  const double p_distv_bary_1 = z_ntdistv_bary_1 * a.primal_normal_cell_x(e, upwind) +
                                z_ntdistv_bary_2 * a.dual_normal_cell_x(e, upwind);
  const double p_distv_bary_2 = z_ntdistv_bary_1 * a.primal_normal_cell_y(e, upwind) +
                                z_ntdistv_bary_2 * a.dual_normal_cell_y(e, upwind);

  const index_t c = neighbor(fn, "E2C", grid.e2c, e, upwind, grid.num_cells);
  const Field& rho_pr = a.perturbed_rho_at_cells_on_model_levels;
  const Field& theta_pr = a.perturbed_theta_v_at_cells_on_model_levels;
  const double ddx_rho = green_gauss_gradient(fn, grid, a.geofac_grg_x, rho_pr, c, k);
  const double ddy_rho = green_gauss_gradient(fn, grid, a.geofac_grg_y, rho_pr, c, k);
  const double ddx_theta = green_gauss_gradient(fn, grid, a.geofac_grg_x, theta_pr, c, k);
  const double ddy_theta = green_gauss_gradient(fn, grid, a.geofac_grg_y, theta_pr, c, k);

  rho_e = a.reference_rho_at_edges_on_model_levels(e, k) + rho_pr(c, k) + p_distv_bary_1 * ddx_rho +
          p_distv_bary_2 * ddy_rho;
  theta_e = a.reference_theta_at_edges_on_model_levels(e, k) + theta_pr(c, k) +
            p_distv_bary_1 * ddx_theta + p_distv_bary_2 * ddy_theta;
}

/// One neighbour's term of _compute_horizontal_gradient_of_exner_pressure_for_multiple_levels:
/// the Taylor expansion of exner at level k + ikoffset[e,slot,k] of cell E2C[e,slot].
double exner_at_offset_level(const char* fn, const ComputeRhoThetaPgradAndUpdateVnArgs& a,
                             index_t e, int slot, int k, index_t c) {
  const int offset = a.ikoffset(e, slot, k);
  const int level = k + offset;
  const Field& exner = a.temporal_extrapolation_of_perturbed_exner;
  const Field& ddz = a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  const Field& d2dz2 = a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  const int levels = std::min({exner.levels, ddz.levels, d2dz2.levels});
  if (level < 0 || level >= levels)
    bad_argument(fn, cat("ikoffset[", e, "][", slot, "][", k, "] = ", offset, " reads level ",
                         level, " of the cell fields at edge ", e, ", slot ", slot, ", level ", k,
                         ", outside [0, ", levels, ")"));
  const double dz = a.zdiff_gradp(e, slot, k);
  return exner(c, level) + dz * (ddz(c, level) + dz * d2dz2(c, level));
}

/// _compute_horizontal_pressure_gradient at (e,k): apply_on_vertical_level over the three
/// regimes, then apply_hydrostatic_correction_to_horizontal_gradient_of_exner_pressure.
double horizontal_pressure_gradient_at(const char* fn, const Grid& grid,
                                       const ComputeRhoThetaPgradAndUpdateVnArgs& a, index_t e,
                                       int k) {
  const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
  const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
  const Field& exner = a.temporal_extrapolation_of_perturbed_exner;
  const Field& ddz = a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  const double inv_dual = a.inv_dual_edge_length[e];
  double gradient;
  if (k < a.nflatlev) {
    // _compute_horizontal_gradient_of_exner_pressure_for_flat_coordinates
    gradient = inv_dual * (exner(c1, k) - exner(c0, k));
  } else if (a.nflat_gradp + 1 <= k) {
    // _compute_horizontal_gradient_of_exner_pressure_for_multiple_levels
    gradient = inv_dual * (exner_at_offset_level(fn, a, e, 1, k, c1) -
                           exner_at_offset_level(fn, a, e, 0, k, c0));
  } else {
    // _compute_horizontal_gradient_of_exner_pressure_for_nonflat_coordinates
    double interpolated_ddz = 0.0;  // neighbor_sum(ddz(E2C) * c_lin_e)
    interpolated_ddz += ddz(c0, k) * a.c_lin_e(e, 0);
    interpolated_ddz += ddz(c1, k) * a.c_lin_e(e, 1);
    gradient = inv_dual * (exner(c1, k) - exner(c0, k)) - a.ddxn_z_full(e, k) * interpolated_ddz;
  }
  const double pg_exdist = a.pg_exdist(e, k);
  if (pg_exdist != 0.0)
    gradient = gradient + a.hydrostatic_correction_on_lowest_level[e] * pg_exdist;
  return gradient;
}

// ---- apply_divergence_damping_and_update_vn pieces ---------------------------------------------

/// _add_vertical_wind_derivative_to_divergence_damping at (e,k).
double total_divergence_gradient_at(const char* fn, const Grid& grid,
                                    const ApplyDivergenceDampingAndUpdateVnArgs& a, index_t e,
                                    int k) {
  const index_t c0 = neighbor(fn, "E2C", grid.e2c, e, 0, grid.num_cells);
  const index_t c1 = neighbor(fn, "E2C", grid.e2c, e, 1, grid.num_cells);
  const Field& dwdz = a.dwdz_at_cells_on_model_levels;
  return a.horizontal_gradient_of_normal_wind_divergence(e, k) +
         a.horizontal_mask_for_3d_divdamp[e] * a.scaling_factor_for_3d_divdamp[k] *
             a.inv_dual_edge_length[e] * (dwdz(c1, k) - dwdz(c0, k));
}

/// dycore_utils._calculate_fourth_order_divdamp_scaling_coeff at level k.
double fourth_order_divdamp_scaling_coeff(const ApplyDivergenceDampingAndUpdateVnArgs& a, int k) {
  double factor = a.interpolated_fourth_order_divdamp_factor[k];
  if (a.divdamp_order == 24) factor = std::max(0.0, factor - 0.25 * a.second_order_divdamp_factor);
  return -factor * (a.mean_cell_area * a.mean_cell_area);
}

// ---- Solver pieces -----------------------------------------------------------------------------

/// One column of the solver (step 3 of the header): the quantities the outputs are made of.
/// Vectors are indexed by level; half-level vectors have nlev+1 entries.
struct SolverColumn {
  std::vector<double> vertical_mass_flux;   ///< half levels: z_contr_w_fl_l
  std::vector<double> w;                    ///< half levels: next_w after Rayleigh damping
  std::vector<double> rho, exner, theta_v;  ///< full levels: the new thermodynamic state
};

/// The solve of _vertically_implicit_solver_at_predictor_step / _at_corrector_step for column c,
/// given w_explicit on half levels 1..nlev-1 (index 0 unused: ICON4Py sets it to 0 and never
/// reads it). `Args` is either solver struct; both carry these members under the same names.
template <class Args>
SolverColumn solve_column(const char* fn, const Grid& grid, const Args& a, index_t c, int nlev,
                          const std::vector<double>& w_explicit) {
  const int top = a.vertical_start_index_model_top;
  const double dtime = a.dtime;
  const double implicit_weight = a.exner_w_implicit_weight_parameter[c];
  const Field& rho_ic = a.rho_at_cells_on_half_levels;
  const Field& theta_v_ic = a.theta_v_at_cells_on_half_levels;
  const Field& inv_ddqz_z_full = a.inv_ddqz_z_full;

  SolverColumn col;
  // _compute_divergence_of_fluxes_of_rho_and_theta
  std::vector<double> divergence_of_mass(nlev), divergence_of_theta_v(nlev);
  for (int k = 0; k < nlev; ++k) {
    double mass = 0.0, theta = 0.0;
    for (int j = 0; j < 3; ++j) {
      const index_t e = neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges);
      mass += a.geofac_div(c, j) * a.mass_flux_at_edges_on_model_levels(e, k);
      theta += a.geofac_div(c, j) * a.theta_v_flux_at_edges_on_model_levels(e, k);
    }
    divergence_of_mass[k] = mass;
    divergence_of_theta_v[k] = theta;
  }
  // The contravariant vertical mass flux: concat_where(1 <= k < nlev, ..., 0).
  col.vertical_mass_flux.assign(nlev + 1, 0.0);
  for (int k = 1; k < nlev; ++k)
    col.vertical_mass_flux[k] =
        rho_ic(c, k) * (-a.contravariant_correction_at_cells_on_half_levels(c, k) +
                        a.exner_w_explicit_weight_parameter[c] * a.current_w(c, k));
  const std::vector<double>& flux = col.vertical_mass_flux;
  // _compute_solver_coefficients_matrix; alpha is concat_where(k < nlev, ..., 0).
  std::vector<double> beta(nlev), alpha(nlev + 1, 0.0);
  for (int k = 0; k < nlev; ++k) {
    beta[k] = dtime * rd * a.current_exner(c, k) /
              (cvd * a.current_rho(c, k) * a.current_theta_v(c, k)) * inv_ddqz_z_full(c, k);
    alpha[k] = implicit_weight * theta_v_ic(c, k) * rho_ic(c, k);
  }
  // _compute_explicit_part_for_rho_and_exner, then _add_analysis_increments_from_data_assimilation
  std::vector<double> rho_explicit(nlev), exner_explicit(nlev);
  for (int k = 0; k < nlev; ++k) {
    rho_explicit[k] = a.current_rho(c, k) - dtime * inv_ddqz_z_full(c, k) *
                                                (divergence_of_mass[k] + flux[k] - flux[k + 1]);
    exner_explicit[k] = a.perturbed_exner_at_cells_on_model_levels(c, k) -
                        beta[k] * (divergence_of_theta_v[k] + theta_v_ic(c, k) * flux[k] -
                                   theta_v_ic(c, k + 1) * flux[k + 1]) +
                        dtime * a.exner_tendency_due_to_slow_physics(c, k);
    if (a.is_iau_active) {
      rho_explicit[k] = rho_explicit[k] + a.iau_wgt_dyn * a.rho_iau_increment(c, k);
      exner_explicit[k] = exner_explicit[k] + a.iau_wgt_dyn * a.exner_iau_increment(c, k);
    }
  }
  // solve_w: _solve_tridiagonal_matrix_for_w_forward_sweep under concat_where(k > 0, ...,
  // (0, 0)). The scan runs over the levels where its result is used, [max(1, top), nlev), and
  // starts there from its init state (0, 0).
  std::vector<double> z_q(nlev, 0.0), w_intermediate(nlev, 0.0);
  double c_above = 0.0, d_above = 0.0;
  for (int k = std::max(1, top); k < nlev; ++k) {
    const double gamma = dtime * cpd * implicit_weight * theta_v_ic(c, k) / a.ddqz_z_half(c, k);
    const double z_a = (0.0 - gamma) * beta[k - 1] * alpha[k - 1];
    const double z_c = (0.0 - gamma) * beta[k] * alpha[k + 1];
    const double z_b = 1.0 + gamma * alpha[k] * (beta[k - 1] + beta[k]);
    const double w_prep = w_explicit[k] - gamma * (exner_explicit[k - 1] - exner_explicit[k]);
    const double normalization = 1.0 / (z_b + z_a * c_above);
    c_above = (0.0 - z_c) * normalization;
    d_above = (w_prep - z_a * d_above) * normalization;
    z_q[k] = c_above;
    w_intermediate[k] = d_above;
  }
  // _solve_tridiagonal_matrix_for_w_back_substitution_scan under concat_where(k < nlev, ...,
  // next_w): downwards from nlev-1 with state 0; next_w[nlev] (the boundary condition) stays.
  col.w.assign(nlev + 1, 0.0);
  col.w[nlev] = a.next_w(c, nlev);
  double w_below = 0.0;
  for (int k = nlev - 1; k >= top; --k) {
    col.w[k] = w_intermediate[k] + w_below * z_q[k];
    w_below = col.w[k];
  }
  // _apply_rayleigh_damping_mechanism under concat_where(0 < k < end_index_of_damping_layer + 1)
  if (a.rayleigh_type == rayleigh_type_klemp)
    for (int k = std::max(1, top); k < std::min(a.end_index_of_damping_layer + 1, nlev + 1); ++k)
      col.w[k] = a.rayleigh_damping_factor[k] * col.w[k];
  // _compute_results_for_thermodynamic_variables
  const std::vector<double>& w = col.w;
  col.rho.assign(nlev, 0.0);
  col.exner.assign(nlev, 0.0);
  col.theta_v.assign(nlev, 0.0);
  for (int k = top; k < nlev; ++k) {
    col.rho[k] = rho_explicit[k] - implicit_weight * dtime * inv_ddqz_z_full(c, k) *
                                       (rho_ic(c, k) * w[k] - rho_ic(c, k + 1) * w[k + 1]);
    col.exner[k] = exner_explicit[k] + a.reference_exner_at_cells_on_model_levels(c, k) -
                   beta[k] * (alpha[k] * w[k] - alpha[k + 1] * w[k + 1]);
    col.theta_v[k] = a.current_rho(c, k) * a.current_theta_v(c, k) *
                     ((col.exner[k] / a.current_exner(c, k) - 1.0) * cvd_o_rd + 1.0) / col.rho[k];
  }
  return col;
}

/// Checks shared by both solver programs; returns nlev.
template <class Args>
int check_solver_args(const char* fn, const Grid& grid, const Args& a) {
  const index_t ne = grid.num_edges, nc = grid.num_cells;
  const int nlev = a.vertical_end_index_model_surface - 1;
  if (nlev < 1)
    bad_argument(fn, cat("vertical_end_index_model_surface = ", a.vertical_end_index_model_surface,
                         " leaves no full level"));
  if (a.vertical_start_index_model_top < 0)
    bad_argument(fn, cat("vertical_start_index_model_top = ", a.vertical_start_index_model_top,
                         " is below level 0"));
  check_domain(fn, a.start_cell_index_nudging, a.end_cell_index_local, nc, 0, 0, 0);
  check_table(fn, "C2E", grid.c2e, nc, 3);
  check_table(fn, "geofac_div", a.geofac_div, nc, 3);
  check_field(fn, "mass_flux_at_edges_on_model_levels", a.mass_flux_at_edges_on_model_levels, ne,
              nlev);
  check_field(fn, "theta_v_flux_at_edges_on_model_levels", a.theta_v_flux_at_edges_on_model_levels,
              ne, nlev);
  for (const auto& [name, f, levels] :
       std::initializer_list<std::tuple<const char*, const Field*, int>>{
           {"next_w", &a.next_w, nlev + 1},
           {"next_rho", &a.next_rho, nlev},
           {"next_exner", &a.next_exner, nlev},
           {"next_theta_v", &a.next_theta_v, nlev},
           {"exner_dynamical_increment", &a.exner_dynamical_increment, nlev},
           {"predictor_vertical_wind_advective_tendency",
            &a.predictor_vertical_wind_advective_tendency, nlev},
           {"nonhydro_buoy_at_cells_on_half_levels", &a.nonhydro_buoy_at_cells_on_half_levels,
            nlev},
           {"rho_at_cells_on_half_levels", &a.rho_at_cells_on_half_levels, nlev + 1},
           {"contravariant_correction_at_cells_on_half_levels",
            &a.contravariant_correction_at_cells_on_half_levels, nlev + 1},
           {"current_exner", &a.current_exner, nlev},
           {"current_rho", &a.current_rho, nlev},
           {"current_theta_v", &a.current_theta_v, nlev},
           {"current_w", &a.current_w, nlev},
           {"inv_ddqz_z_full", &a.inv_ddqz_z_full, nlev},
           {"theta_v_at_cells_on_half_levels", &a.theta_v_at_cells_on_half_levels, nlev + 1},
           {"perturbed_exner_at_cells_on_model_levels", &a.perturbed_exner_at_cells_on_model_levels,
            nlev},
           {"exner_tendency_due_to_slow_physics", &a.exner_tendency_due_to_slow_physics, nlev},
           {"rho_iau_increment", &a.rho_iau_increment, nlev},
           {"exner_iau_increment", &a.exner_iau_increment, nlev},
           {"ddqz_z_half", &a.ddqz_z_half, nlev},
           {"reference_exner_at_cells_on_model_levels", &a.reference_exner_at_cells_on_model_levels,
            nlev}})
    check_field(fn, name, *f, nc, levels);
  check_vector(fn, "exner_w_explicit_weight_parameter", a.exner_w_explicit_weight_parameter, nc);
  check_vector(fn, "exner_w_implicit_weight_parameter", a.exner_w_implicit_weight_parameter, nc);
  if (a.rayleigh_type == rayleigh_type_klemp)
    check_profile(fn, "rayleigh_damping_factor", a.rayleigh_damping_factor,
                  std::min(a.end_index_of_damping_layer, nlev) + 1);
  return nlev;
}

}  // namespace

// ================================================================================================
// compute_rho_theta_pgrad_and_update_vn
// ================================================================================================

void compute_rho_theta_pgrad_and_update_vn(const Grid& grid,
                                           ComputeRhoThetaPgradAndUpdateVnArgs& args) {
  const char* fn = "compute_rho_theta_pgrad_and_update_vn";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells;
  check_domain(fn, a.horizontal_start, a.horizontal_end, ne, a.vertical_start, a.vertical_end,
               a.next_vn.levels);
  const int nk = levels_needed(a.vertical_start, a.vertical_end);
  check_table(fn, "E2C", grid.e2c, ne, 2);
  check_table(fn, "C2E2CO", grid.c2e2co, nc, 4);
  for (const auto& [name, f] : std::initializer_list<std::pair<const char*, const Field*>>{
           {"rho_at_edges_on_model_levels", &a.rho_at_edges_on_model_levels},
           {"theta_v_at_edges_on_model_levels", &a.theta_v_at_edges_on_model_levels},
           {"horizontal_pressure_gradient", &a.horizontal_pressure_gradient},
           {"next_vn", &a.next_vn},
           {"current_vn", &a.current_vn},
           {"tangential_wind", &a.tangential_wind},
           {"reference_rho_at_edges_on_model_levels", &a.reference_rho_at_edges_on_model_levels},
           {"reference_theta_at_edges_on_model_levels",
            &a.reference_theta_at_edges_on_model_levels},
           {"predictor_normal_wind_advective_tendency",
            &a.predictor_normal_wind_advective_tendency},
           {"normal_wind_tendency_due_to_slow_physics_process",
            &a.normal_wind_tendency_due_to_slow_physics_process},
           {"normal_wind_iau_increment", &a.normal_wind_iau_increment},
           {"grf_tend_vn", &a.grf_tend_vn},
           {"ddxn_z_full", &a.ddxn_z_full},
           {"pg_exdist", &a.pg_exdist}})
    check_field(fn, name, *f, ne, nk);
  for (const auto& [name, f] : std::initializer_list<std::pair<const char*, const Field*>>{
           {"perturbed_rho_at_cells_on_model_levels", &a.perturbed_rho_at_cells_on_model_levels},
           {"perturbed_theta_v_at_cells_on_model_levels",
            &a.perturbed_theta_v_at_cells_on_model_levels},
           {"temporal_extrapolation_of_perturbed_exner",
            &a.temporal_extrapolation_of_perturbed_exner},
           {"ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
            &a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels},
           {"d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
            &a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels}})
    check_field(fn, name, *f, nc, nk);
  check_vector(fn, "hydrostatic_correction_on_lowest_level",
               a.hydrostatic_correction_on_lowest_level, ne);
  check_vector(fn, "inv_dual_edge_length", a.inv_dual_edge_length, ne);
  check_table(fn, "geofac_grg_x", a.geofac_grg_x, nc, 4);
  check_table(fn, "geofac_grg_y", a.geofac_grg_y, nc, 4);
  for (const auto& [name, t] : std::initializer_list<std::pair<const char*, const Table*>>{
           {"pos_on_tplane_e_x", &a.pos_on_tplane_e_x},
           {"pos_on_tplane_e_y", &a.pos_on_tplane_e_y},
           {"primal_normal_cell_x", &a.primal_normal_cell_x},
           {"dual_normal_cell_x", &a.dual_normal_cell_x},
           {"primal_normal_cell_y", &a.primal_normal_cell_y},
           {"dual_normal_cell_y", &a.dual_normal_cell_y},
           {"c_lin_e", &a.c_lin_e}})
    check_table(fn, name, *t, ne, 2);
  check_field3(fn, "ikoffset", a.ikoffset, ne, 2, nk);
  check_field3(fn, "zdiff_gradp", a.zdiff_gradp, ne, 2, nk);

  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      // rho/theta at edges: the advection inside [level 7 of the lateral boundary, end of the
      // first halo line), 0 elsewhere (ICON initialises the halo edges to zero).
      double rho_e = 0.0, theta_e = 0.0;
      if (a.start_edge_lateral_boundary_level_7 <= e && e < a.end_edge_halo)
        upwind_rho_and_theta_at(fn, grid, a, e, k, rho_e, theta_e);
      // Overcomputed by ICON4Py on the whole domain; needed from the second nudging row only.
      const double gradient = horizontal_pressure_gradient_at(fn, grid, a, e, k);

      double vn = a.next_vn(e, k);
      if (a.start_edge_nudging_level_2 <= e) {
        // _add_temporal_tendencies_to_vn
        vn =
            a.current_vn(e, k) +
            a.dtime * (a.predictor_normal_wind_advective_tendency(e, k) - cpd * theta_e * gradient +
                       a.normal_wind_tendency_due_to_slow_physics_process(e, k));
        // _add_analysis_increments_to_vn
        if (a.is_iau_active) vn = vn + (a.iau_wgt_dyn * a.normal_wind_iau_increment(e, k));
      }
      // _compute_vn_on_lateral_boundary, applied last: it overwrites whatever came before.
      if (a.limited_area && a.start_edge_lateral_boundary <= e && e < a.end_edge_nudging)
        vn = a.current_vn(e, k) + a.dtime * a.grf_tend_vn(e, k);

      a.rho_at_edges_on_model_levels(e, k) = rho_e;
      a.theta_v_at_edges_on_model_levels(e, k) = theta_e;
      a.horizontal_pressure_gradient(e, k) = gradient;
      a.next_vn(e, k) = vn;
    }
}

// ================================================================================================
// apply_divergence_damping_and_update_vn
// ================================================================================================

void apply_divergence_damping_and_update_vn(const Grid& grid,
                                            ApplyDivergenceDampingAndUpdateVnArgs& args) {
  const char* fn = "apply_divergence_damping_and_update_vn";
  auto& a = args;
  const index_t ne = grid.num_edges, nc = grid.num_cells;
  check_domain(fn, a.horizontal_start, a.horizontal_end, ne, a.vertical_start, a.vertical_end,
               a.next_vn.levels);
  const int nk = levels_needed(a.vertical_start, a.vertical_end);
  check_table(fn, "E2C", grid.e2c, ne, 2);
  check_table(fn, "E2C2EO", grid.e2c2eo, ne, 5);
  for (const auto& [name, f] : std::initializer_list<std::pair<const char*, const Field*>>{
           {"horizontal_gradient_of_normal_wind_divergence",
            &a.horizontal_gradient_of_normal_wind_divergence},
           {"next_vn", &a.next_vn},
           {"current_vn", &a.current_vn},
           {"predictor_normal_wind_advective_tendency",
            &a.predictor_normal_wind_advective_tendency},
           {"corrector_normal_wind_advective_tendency",
            &a.corrector_normal_wind_advective_tendency},
           {"normal_wind_tendency_due_to_slow_physics_process",
            &a.normal_wind_tendency_due_to_slow_physics_process},
           {"normal_wind_iau_increment", &a.normal_wind_iau_increment},
           {"theta_v_at_edges_on_model_levels", &a.theta_v_at_edges_on_model_levels},
           {"horizontal_pressure_gradient", &a.horizontal_pressure_gradient}})
    check_field(fn, name, *f, ne, nk);
  check_field(fn, "dwdz_at_cells_on_model_levels", a.dwdz_at_cells_on_model_levels, nc, nk);
  check_vector(fn, "horizontal_mask_for_3d_divdamp", a.horizontal_mask_for_3d_divdamp, ne);
  check_profile(fn, "scaling_factor_for_3d_divdamp", a.scaling_factor_for_3d_divdamp, nk);
  check_vector(fn, "inv_dual_edge_length", a.inv_dual_edge_length, ne);
  check_vector(fn, "nudgecoeff_e", a.nudgecoeff_e, ne);
  check_table(fn, "geofac_grdiv", a.geofac_grdiv, ne, 5);
  check_profile(fn, "interpolated_fourth_order_divdamp_factor",
                a.interpolated_fourth_order_divdamp_factor, nk);

  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      // _add_temporal_tendencies_to_vn_by_interpolating_between_time_levels
      double vn =
          a.current_vn(e, k) + a.dtime * (a.advection_explicit_weight_parameter *
                                              a.predictor_normal_wind_advective_tendency(e, k) +
                                          a.advection_implicit_weight_parameter *
                                              a.corrector_normal_wind_advective_tendency(e, k) +
                                          a.normal_wind_tendency_due_to_slow_physics_process(e, k) -
                                          cpd * a.theta_v_at_edges_on_model_levels(e, k) *
                                              a.horizontal_pressure_gradient(e, k));
      if (a.apply_2nd_order_divergence_damping) {
        // _apply_2nd_order_divergence_damping
        vn = vn + (a.second_order_divdamp_scaling_coeff *
                   total_divergence_gradient_at(fn, grid, a, e, k));
      }
      if (a.apply_4th_order_divergence_damping) {
        // _compute_graddiv2_of_vn: the total divergence gradient at the E2C2EO neighbours.
        double graddiv2 = 0.0;
        for (int i = 0; i < 5; ++i) {
          const index_t n = neighbor(fn, "E2C2EO", grid.e2c2eo, e, i, ne);
          graddiv2 += total_divergence_gradient_at(fn, grid, a, n, k) * a.geofac_grdiv(e, i);
        }
        const double scal_divdamp = fourth_order_divdamp_scaling_coeff(a, k);
        if (a.limited_area) {
          // _apply_weighted_2nd_and_4th_order_divergence_damping with
          // _calculate_reduced_fourth_order_divdamp_coeff_at_nest_boundary
          const double bdy_divdamp =
              0.75 / (a.max_nudging_coefficient + a.dbl_eps) * std::fabs(scal_divdamp);
          vn = vn + (scal_divdamp + bdy_divdamp * a.nudgecoeff_e[e]) * graddiv2;
        } else {
          // _apply_4th_order_divergence_damping
          vn = vn + (scal_divdamp * graddiv2);
        }
      }
      // _add_analysis_increments_to_vn
      if (a.is_iau_active) vn = vn + (a.iau_wgt_dyn * a.normal_wind_iau_increment(e, k));
      a.next_vn(e, k) = vn;
    }
}

// ================================================================================================
// vertically_implicit_solver_at_predictor_step
// ================================================================================================

void vertically_implicit_solver_at_predictor_step(
    const Grid& grid, VerticallyImplicitSolverAtPredictorStepArgs& args) {
  const char* fn = "vertically_implicit_solver_at_predictor_step";
  auto& a = args;
  const int nlev = check_solver_args(fn, grid, a);
  const index_t nc = grid.num_cells;
  check_field(fn, "dwdz_at_cells_on_model_levels", a.dwdz_at_cells_on_model_levels, nc, nlev);
  check_field(fn, "contravariant_correction_at_edges_on_model_levels",
              a.contravariant_correction_at_edges_on_model_levels, grid.num_edges, nlev);
  check_table(fn, "e_bln_c_s", a.e_bln_c_s, nc, 3);
  check_field(fn, "wgtfac_c", a.wgtfac_c, nc, nlev);
  check_field(fn, "wgtfacq_c", a.wgtfacq_c, nc, nlev);
  check_domain(fn, a.start_cell_index_lateral_lvl3, a.end_cell_index_halo_lvl1, nc, 0, 0, 0);
  const bool interpolates = a.start_cell_index_lateral_lvl3 < a.end_cell_index_halo_lvl1 &&
                            a.flat_level_index_plus1 <= nlev;
  if (interpolates && a.flat_level_index_plus1 < 1)
    bad_argument(fn, cat("flat_level_index_plus1 = ", a.flat_level_index_plus1,
                         ": the interpolation to half level k reads full level k-1"));
  if (interpolates && nlev < 3)
    bad_argument(fn, cat("nlev = ", nlev, ": the surface extrapolation reads 3 full levels"));

  // 1. _interpolate_contravariant_correction_from_edges_on_model_levels_to_cells_on_half_levels
  Field& w_concorr = a.contravariant_correction_at_cells_on_half_levels;
  const Field& w_concorr_me = a.contravariant_correction_at_edges_on_model_levels;
  auto cell_average = [&](index_t c, int k) {  // neighbor_sum(e_bln_c_s * z_w_concorr_me(C2E))
    double sum = 0.0;
    for (int j = 0; j < 3; ++j)
      sum +=
          a.e_bln_c_s(c, j) * w_concorr_me(neighbor(fn, "C2E", grid.c2e, c, j, grid.num_edges), k);
    return sum;
  };
  for (index_t c = a.start_cell_index_lateral_lvl3; c < a.end_cell_index_halo_lvl1; ++c)
    for (int k = a.flat_level_index_plus1; k <= nlev; ++k) {
      if (k < nlev) {
        // _compute_contravariant_correction_of_w
        w_concorr(c, k) = a.wgtfac_c(c, k) * cell_average(c, k) +
                          (1.0 - a.wgtfac_c(c, k)) * cell_average(c, k - 1);
      } else {
        // _compute_contravariant_correction_of_w_for_lower_boundary
        w_concorr(c, k) = a.wgtfacq_c(c, k - 1) * cell_average(c, k - 1) +
                          a.wgtfacq_c(c, k - 2) * cell_average(c, k - 2) +
                          a.wgtfacq_c(c, k - 3) * cell_average(c, k - 3);
      }
    }

  // 2. _set_surface_boundary_condition_for_computation_of_w
  for (index_t c = a.start_cell_index_nudging; c < a.end_cell_index_local; ++c)
    a.next_w(c, nlev) = w_concorr(c, nlev);

  // 3. _vertically_implicit_solver_at_predictor_step
  const int top = a.vertical_start_index_model_top;
  std::vector<double> w_explicit(nlev, 0.0);
  for (index_t c = a.start_cell_index_nudging; c < a.end_cell_index_local; ++c) {
    // _compute_w_explicit_term_with_predictor_advective_tendency
    for (int k = 1; k < nlev; ++k)
      w_explicit[k] =
          a.current_w(c, k) + a.dtime * (a.predictor_vertical_wind_advective_tendency(c, k) -
                                         cpd * a.nonhydro_buoy_at_cells_on_half_levels(c, k));
    const SolverColumn col = solve_column(fn, grid, a, c, nlev, w_explicit);
    for (int k = top; k < nlev; ++k) {
      a.next_w(c, k) = col.w[k];
      a.next_rho(c, k) = col.rho[k];
      a.next_exner(c, k) = col.exner[k];
      a.next_theta_v(c, k) = col.theta_v[k];
      // _compute_dwdz_for_divergence_damping
      if (a.divdamp_type >= 3)
        a.dwdz_at_cells_on_model_levels(c, k) =
            a.inv_ddqz_z_full(c, k) *
            ((col.w[k] - col.w[k + 1]) - (w_concorr(c, k) - w_concorr(c, k + 1)));
      if (a.at_first_substep && a.kstart_moist <= k)
        a.exner_dynamical_increment(c, k) = a.current_exner(c, k);
    }
  }
}

// ================================================================================================
// vertically_implicit_solver_at_corrector_step
// ================================================================================================

void vertically_implicit_solver_at_corrector_step(
    const Grid& grid, VerticallyImplicitSolverAtCorrectorStepArgs& args) {
  const char* fn = "vertically_implicit_solver_at_corrector_step";
  auto& a = args;
  const int nlev = check_solver_args(fn, grid, a);
  const index_t nc = grid.num_cells;
  check_field(fn, "dynamical_vertical_mass_flux_at_cells_on_half_levels",
              a.dynamical_vertical_mass_flux_at_cells_on_half_levels, nc, nlev);
  check_field(fn, "dynamical_vertical_volumetric_flux_at_cells_on_half_levels",
              a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels, nc, nlev);
  check_field(fn, "corrector_vertical_wind_advective_tendency",
              a.corrector_vertical_wind_advective_tendency, nc, nlev);

  // 2. _set_surface_boundary_condition_for_computation_of_w
  for (index_t c = a.start_cell_index_nudging; c < a.end_cell_index_local; ++c)
    a.next_w(c, nlev) = a.contravariant_correction_at_cells_on_half_levels(c, nlev);

  // 3. _vertically_implicit_solver_at_corrector_step
  const int top = a.vertical_start_index_model_top;
  Field& mass_flux = a.dynamical_vertical_mass_flux_at_cells_on_half_levels;
  Field& volume_flux = a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
  std::vector<double> w_explicit(nlev, 0.0);
  for (index_t c = a.start_cell_index_nudging; c < a.end_cell_index_local; ++c) {
    // _compute_w_explicit_term_with_interpolated_predictor_corrector_advective_tendency
    for (int k = 1; k < nlev; ++k)
      w_explicit[k] =
          a.current_w(c, k) + a.dtime * (a.advection_explicit_weight_parameter *
                                             a.predictor_vertical_wind_advective_tendency(c, k) +
                                         a.advection_implicit_weight_parameter *
                                             a.corrector_vertical_wind_advective_tendency(c, k) -
                                         cpd * a.nonhydro_buoy_at_cells_on_half_levels(c, k));
    const SolverColumn col = solve_column(fn, grid, a, c, nlev, w_explicit);
    for (int k = top; k < nlev; ++k) {
      a.next_w(c, k) = col.w[k];
      a.next_rho(c, k) = col.rho[k];
      a.next_exner(c, k) = col.exner[k];
      a.next_theta_v(c, k) = col.theta_v[k];
      if (a.lprep_adv) {
        // at_first_substep: the fluxes restart from 0, on every level of the domain.
        const double mass = a.at_first_substep ? 0.0 : mass_flux(c, k);
        const double volume = a.at_first_substep ? 0.0 : volume_flux(c, k);
        if (1 <= k) {
          // _update_mass_volume_flux
          const double rho_ic = a.rho_at_cells_on_half_levels(c, k);
          const double z_a =
              a.r_nsubsteps * (col.vertical_mass_flux[k] +
                               rho_ic * a.exner_w_implicit_weight_parameter[c] * col.w[k]);
          mass_flux(c, k) = mass + z_a;
          volume_flux(c, k) = volume + z_a / rho_ic;
        } else {
          mass_flux(c, k) = mass;
          volume_flux(c, k) = volume;
        }
      }
      // _update_dynamical_exner_time_increment
      if (a.at_last_substep && k >= a.kstart_moist)
        a.exner_dynamical_increment(c, k) =
            col.exner[k] -
            (a.exner_dynamical_increment(c, k) +
             a.ndyn_substeps_var * a.dtime * a.exner_tendency_due_to_slow_physics(c, k));
    }
  }
}

}  // namespace icondiff::reference
