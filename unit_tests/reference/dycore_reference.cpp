// Plain-loop host reference of four ICON4Py dycore programs; see the header for the conventions.
// Each formula names the ICON4Py field operator it transcribes. Written for obviousness: one
// (point, level) at a time (the solver one column at a time), temporaries evaluated on the fly.
#include "reference/dycore_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

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
  for (const auto& [name, f] :
       {std::pair<const char*, const Field*>{"rho_at_edges_on_model_levels",
                                             &a.rho_at_edges_on_model_levels},
        {"theta_v_at_edges_on_model_levels", &a.theta_v_at_edges_on_model_levels},
        {"horizontal_pressure_gradient", &a.horizontal_pressure_gradient},
        {"next_vn", &a.next_vn},
        {"current_vn", &a.current_vn},
        {"tangential_wind", &a.tangential_wind},
        {"reference_rho_at_edges_on_model_levels", &a.reference_rho_at_edges_on_model_levels},
        {"reference_theta_at_edges_on_model_levels", &a.reference_theta_at_edges_on_model_levels},
        {"predictor_normal_wind_advective_tendency", &a.predictor_normal_wind_advective_tendency},
        {"normal_wind_tendency_due_to_slow_physics_process",
         &a.normal_wind_tendency_due_to_slow_physics_process},
        {"normal_wind_iau_increment", &a.normal_wind_iau_increment},
        {"grf_tend_vn", &a.grf_tend_vn},
        {"ddxn_z_full", &a.ddxn_z_full},
        {"pg_exdist", &a.pg_exdist}})
    check_field(fn, name, *f, ne, nk);
  for (const auto& [name, f] :
       {std::pair<const char*, const Field*>{"perturbed_rho_at_cells_on_model_levels",
                                             &a.perturbed_rho_at_cells_on_model_levels},
        {"perturbed_theta_v_at_cells_on_model_levels",
         &a.perturbed_theta_v_at_cells_on_model_levels},
        {"temporal_extrapolation_of_perturbed_exner", &a.temporal_extrapolation_of_perturbed_exner},
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
  for (const auto& [name, t] :
       {std::pair<const char*, const Table*>{"pos_on_tplane_e_x", &a.pos_on_tplane_e_x},
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
  for (const auto& [name, f] :
       {std::pair<const char*, const Field*>{"horizontal_gradient_of_normal_wind_divergence",
                                             &a.horizontal_gradient_of_normal_wind_divergence},
        {"next_vn", &a.next_vn},
        {"current_vn", &a.current_vn},
        {"predictor_normal_wind_advective_tendency", &a.predictor_normal_wind_advective_tendency},
        {"corrector_normal_wind_advective_tendency", &a.corrector_normal_wind_advective_tendency},
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

}  // namespace icondiff::reference
