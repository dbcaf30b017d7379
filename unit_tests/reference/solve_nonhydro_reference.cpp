// Plain-loop host reference of twelve ICON4Py 0.2.0 solve_nonhydro programs; see the header for
// the conventions. Each helper below transcribes one ICON4Py field operator and is named after
// it. Written for obviousness: one (point, level) at a time, the steps of a multi-step program in
// the program's order (each step reads the fields the previous steps wrote), temporaries that are
// not program outputs evaluated on the fly.
#include "reference/solve_nonhydro_reference.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::reference {

namespace {

/// PhysicsConstants.cvd_o_rd = CVD / RD with CVD = CPD - RD (update_theta_and_exner_in_halo).
constexpr double physics_cvd_o_rd = (cpd - gas_constant_dry_air) / gas_constant_dry_air;

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

bool nonempty(int start, int end) {
  return start < end;
}

void check_horizontal(const char* fn, const char* what, int start, int end, index_t points) {
  if (nonempty(start, end) && (start < 0 || end > points))
    bad_argument(fn, cat(what, " [", start, ", ", end, ") does not lie in [0, ", points, ")"));
}

void check_vertical_start(const char* fn, const char* what, int start, int end) {
  if (nonempty(start, end) && start < 0)
    bad_argument(fn, cat(what, " [", start, ", ", end, ") starts below level 0"));
}

template <class T>
void check_field(const char* fn, const char* name, const test::HostField<T>& f, index_t points,
                 int min_levels) {
  min_levels = std::max(min_levels, 0);
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
void check_field3(const char* fn, const char* name, const test::HostField3<T>& f, index_t points,
                  int slots, int min_levels) {
  min_levels = std::max(min_levels, 0);
  if (f.points != points || f.slots != slots || f.levels < min_levels ||
      f.values.size() != static_cast<std::size_t>(f.points) * f.slots * f.levels)
    bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.slots, ", ", f.levels,
                         "), expected (", points, ", ", slots, ", >= ", min_levels, ")"));
}

void check_table(const char* fn, const char* name, const Table& t, index_t rows, std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    bad_argument(fn, cat(name, " has shape (", t.rows(), ", ", t.cols(), "), expected (", rows,
                         ", ", cols, ")"));
}

template <class V>
void check_vector(const char* fn, const char* name, const V& v, index_t size) {
  if (v.size() != static_cast<std::size_t>(size))
    bad_argument(fn, cat(name, " has ", v.size(), " values, expected ", size));
}

/// The level count a field must at least have for levels [start, end).
int needed(int start, int end) {
  return nonempty(start, end) ? end : 0;
}

/// A read at a shifted level (Koff, ikoffset): an error naming the field when it leaves it.
double read(const char* fn, const char* name, const Field& f, index_t i, int k) {
  if (k < 0 || k >= f.levels)
    bad_argument(fn, cat(name, " is read at level ", k, " (point ", i, "), outside its ", f.levels,
                         " levels"));
  return f(i, k);
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

void check_connectivity(const char* fn, const char* name, const HostTable<index_t>& t, index_t rows,
                        std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    bad_argument(fn, cat("grid table ", name, " has shape (", t.rows(), ", ", t.cols(),
                         "), expected (", rows, ", ", cols, ")"));
}

// ---- Field operators ---------------------------------------------------------------------------

/// neighbor_sum(coeff * f(E2C2EO), axis=E2C2EODim): _spatially_average_flux_or_velocity and the
/// divergence gradient of compute_horizontal_velocity_quantities_and_fluxes.
double sum_over_e2c2eo(const char* fn, const Grid& grid, const Table& coeff, const Field& f,
                       index_t e, int k) {
  double sum = 0.0;
  for (int j = 0; j < 5; ++j) {
    const index_t n = neighbor(fn, "E2C2EO", grid.e2c2eo, e, j, grid.num_edges);
    sum += coeff(e, j) * f(n, k);
  }
  return sum;
}

/// _compute_tangential_wind: neighbor_sum(rbf_vec_coeff_e * vn(E2C2E), axis=E2C2EDim).
double compute_tangential_wind(const char* fn, const Grid& grid, const Field& vn,
                               const Table& rbf_vec_coeff_e, index_t e, int k) {
  double sum = 0.0;
  for (int j = 0; j < 4; ++j) {
    const index_t n = neighbor(fn, "E2C2E", grid.e2c2e, e, j, grid.num_edges);
    sum += rbf_vec_coeff_e(e, j) * vn(n, k);
  }
  return sum;
}

/// _interpolate_cell_field_to_half_levels_vp / _wp at k (k >= 1):
/// wgtfac_c·x[k] + (1 - wgtfac_c)·x[k-1].
double interpolate_cell_field_to_half_levels(double wgtfac_c, double x, double x_above) {
  return wgtfac_c * x + (1.0 - wgtfac_c) * x_above;
}

/// _interpolate_to_surface at level `surface` (also _extrapolate_at_top):
/// wgtfacq(Koff[-1])·x(Koff[-1]) + wgtfacq(Koff[-2])·x(Koff[-2]) + wgtfacq(Koff[-3])·x(Koff[-3]).
double interpolate_to_surface(const char* fn, const char* wgtfacq_name, const Field& wgtfacq,
                              const char* x_name, const Field& x, index_t i, int surface) {
  return read(fn, wgtfacq_name, wgtfacq, i, surface - 1) * read(fn, x_name, x, i, surface - 1) +
         read(fn, wgtfacq_name, wgtfacq, i, surface - 2) * read(fn, x_name, x, i, surface - 2) +
         read(fn, wgtfacq_name, wgtfacq, i, surface - 3) * read(fn, x_name, x, i, surface - 3);
}

/// _compute_mass_and_temperature_flux.
void compute_mass_and_temperature_flux(double z_rho_e, double z_vn_avg, double ddqz_z_full_e,
                                       double z_theta_v_e, double& mass_fl_e,
                                       double& z_theta_v_fl_e) {
  mass_fl_e = z_rho_e * z_vn_avg * ddqz_z_full_e;
  z_theta_v_fl_e = mass_fl_e * z_theta_v_e;
}

/// _interpolate_to_half_levels (compute_diagnostics_from_normal_wind): for k > 0
/// wgtfac_e·x[k] + (1 - wgtfac_e)·x[k-1], x[k] at k = 0.
double interpolate_to_half_levels(int k, double wgtfac_e, double x, double x_above) {
  return k > 0 ? wgtfac_e * x + (1.0 - wgtfac_e) * x_above : x;
}

/// _compute_horizontal_kinetic_energy.
double compute_horizontal_kinetic_energy(double vn, double vt) {
  return 0.5 * (vn * vn + vt * vt);
}

/// _compute_contravariant_correction.
double compute_contravariant_correction(double vn, double ddxn_z_full, double ddxt_z_full,
                                        double vt) {
  return vn * ddxn_z_full + vt * ddxt_z_full;
}

}  // namespace

// ================================================================================================
// 1. compute_perturbed_quantities_and_interpolation
// ================================================================================================

void compute_perturbed_quantities_and_interpolation(
    const Grid& grid, ComputePerturbedQuantitiesAndInterpolationArgs& a) {
  const char* fn = "compute_perturbed_quantities_and_interpolation";
  const index_t nc = grid.num_cells;
  const int h_start = a.start_cell_lateral_boundary_level_3, h_end = a.end_cell_halo;
  const int h2_start = a.start_cell_halo_level_2, h2_end = a.end_cell_halo_level_2;
  const int top = a.model_top;
  const int nlev = a.surface_level - 1;
  check_horizontal(fn, "cell domain [start_cell_lateral_boundary_level_3, end_cell_halo)", h_start,
                   h_end, nc);
  check_horizontal(fn, "cell domain [start_cell_halo_level_2, end_cell_halo_level_2)", h2_start,
                   h2_end, nc);
  check_vertical_start(fn, "vertical domain [model_top, surface_level - 1)", top, nlev);
  const bool main = nonempty(h_start, h_end);
  const bool halo2 = nonempty(h2_start, h2_end);
  if (main && nlev < 3)
    bad_argument(fn, cat("surface_level = ", a.surface_level,
                         ": the surface interpolation reads wgtfacq_c at levels surface_level - 4"
                         " .. surface_level - 2, so surface_level >= 4 is required"));
  // Levels: full-level fields up to nlev-1 (also read by the surface interpolation), the
  // half-level fields written or read at level nlev need nlev+1.
  const int full = (main || halo2) ? nlev : 0;
  const int half = main ? nlev + 1 : 0;
  check_fields(
      fn,
      {{"temporal_extrapolation_of_perturbed_exner", &a.temporal_extrapolation_of_perturbed_exner},
       {"ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
        &a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels},
       {"d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
        &a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels},
       {"perturbed_exner_at_cells_on_model_levels", &a.perturbed_exner_at_cells_on_model_levels},
       {"perturbed_rho_at_cells_on_model_levels", &a.perturbed_rho_at_cells_on_model_levels},
       {"perturbed_theta_v_at_cells_on_model_levels",
        &a.perturbed_theta_v_at_cells_on_model_levels},
       {"rho_at_cells_on_half_levels", &a.rho_at_cells_on_half_levels},
       {"current_rho", &a.current_rho},
       {"reference_rho_at_cells_on_model_levels", &a.reference_rho_at_cells_on_model_levels},
       {"current_theta_v", &a.current_theta_v},
       {"reference_theta_at_cells_on_model_levels", &a.reference_theta_at_cells_on_model_levels},
       {"wgtfacq_c", &a.wgtfacq_c},
       {"wgtfac_c", &a.wgtfac_c},
       {"ddz_of_reference_exner_at_cells_on_half_levels",
        &a.ddz_of_reference_exner_at_cells_on_half_levels},
       {"ddqz_z_half", &a.ddqz_z_half},
       {"nonhydro_buoy_at_cells_on_half_levels", &a.nonhydro_buoy_at_cells_on_half_levels},
       {"time_extrapolation_parameter_for_exner", &a.time_extrapolation_parameter_for_exner},
       {"current_exner", &a.current_exner},
       {"reference_exner_at_cells_on_model_levels", &a.reference_exner_at_cells_on_model_levels},
       {"inv_ddqz_z_full", &a.inv_ddqz_z_full},
       {"d2dexdz2_fac1_mc", &a.d2dexdz2_fac1_mc},
       {"d2dexdz2_fac2_mc", &a.d2dexdz2_fac2_mc}},
      nc, full);
  check_fields(
      fn,
      {{"exner_at_cells_on_half_levels", &a.exner_at_cells_on_half_levels},
       {"perturbed_theta_v_at_cells_on_half_levels", &a.perturbed_theta_v_at_cells_on_half_levels},
       {"theta_v_at_cells_on_half_levels", &a.theta_v_at_cells_on_half_levels},
       {"reference_theta_at_cells_on_half_levels", &a.reference_theta_at_cells_on_half_levels}},
      nc, half);
  check_vector(fn, "exner_w_explicit_weight_parameter", a.exner_w_explicit_weight_parameter, nc);

  const bool taylor = a.igradp_method == igradp_method_taylor_hydro;
  Field& z_ex = a.temporal_extrapolation_of_perturbed_exner;
  Field& exner_pr = a.perturbed_exner_at_cells_on_model_levels;
  Field& exner_ic = a.exner_at_cells_on_half_levels;
  Field& theta_v_pr_mc = a.perturbed_theta_v_at_cells_on_model_levels;
  Field& theta_v_pr_ic = a.perturbed_theta_v_at_cells_on_half_levels;
  Field& theta_v_ic = a.theta_v_at_cells_on_half_levels;

  // 1. _extrapolate_temporally_exner_pressure, H × [model_top, nlev).
  for (index_t c = h_start; c < h_end; ++c)
    for (int k = top; k < nlev; ++k) {
      const double exner_exfac = a.time_extrapolation_parameter_for_exner(c, k);
      const double exner = a.current_exner(c, k);
      const double exner_ref_mc = a.reference_exner_at_cells_on_model_levels(c, k);
      z_ex(c, k) = (1.0 + exner_exfac) * (exner - exner_ref_mc) - exner_exfac * exner_pr(c, k);
      exner_pr(c, k) = exner - exner_ref_mc;
    }

  // 2. _surface_computations, H × {nlev}: only with TAYLOR_HYDRO (else the field itself).
  if (taylor)
    for (index_t c = h_start; c < h_end; ++c)
      exner_ic(c, nlev) = interpolate_to_surface(
          fn, "wgtfacq_c", a.wgtfacq_c, "temporal_extrapolation_of_perturbed_exner", z_ex, c, nlev);

  // 3. _compute_perturbed_quantities_and_interpolation, H × [model_top, nlev).
  for (index_t c = h_start; c < h_end; ++c)
    for (int k = top; k < nlev; ++k) {
      const double wgtfac_c = a.wgtfac_c(c, k);
      // _compute_perturbation_of_rho_and_theta (the local values the interpolations use).
      const double theta_v_pr =
          a.current_theta_v(c, k) - a.reference_theta_at_cells_on_model_levels(c, k);
      a.perturbed_rho_at_cells_on_model_levels(c, k) =
          a.current_rho(c, k) - a.reference_rho_at_cells_on_model_levels(c, k);
      theta_v_pr_mc(c, k) = theta_v_pr;

      if (taylor && k >= std::max(1, a.nflatlev))
        exner_ic(c, k) =
            interpolate_cell_field_to_half_levels(wgtfac_c, z_ex(c, k), z_ex(c, k - 1));

      if (k >= 1) {
        a.rho_at_cells_on_half_levels(c, k) = interpolate_cell_field_to_half_levels(
            wgtfac_c, a.current_rho(c, k), a.current_rho(c, k - 1));
        const double theta_v_pr_above =
            a.current_theta_v(c, k - 1) - a.reference_theta_at_cells_on_model_levels(c, k - 1);
        const double pr_ic =
            interpolate_cell_field_to_half_levels(wgtfac_c, theta_v_pr, theta_v_pr_above);
        const double th_ic = interpolate_cell_field_to_half_levels(
            wgtfac_c, a.current_theta_v(c, k), a.current_theta_v(c, k - 1));
        theta_v_pr_ic(c, k) = pr_ic;
        theta_v_ic(c, k) = th_ic;
        // _calculate_nonhydro_buoy_at_cells_on_half_levels
        a.nonhydro_buoy_at_cells_on_half_levels(c, k) =
            a.exner_w_explicit_weight_parameter[c] * th_ic * (exner_pr(c, k - 1) - exner_pr(c, k)) /
                a.ddqz_z_half(c, k) +
            pr_ic * a.ddz_of_reference_exner_at_cells_on_half_levels(c, k);
      } else {
        theta_v_pr_ic(c, k) = 0.0;  // broadcast(0.0) at k = 0
      }
    }

  // 4. _set_theta_v_and_exner_on_surface_level, H × {nlev} (whatever igradp_method is).
  for (index_t c = h_start; c < h_end; ++c) {
    const double pr_ic = interpolate_to_surface(fn, "wgtfacq_c", a.wgtfacq_c,
                                                "perturbed_theta_v_at_cells_on_model_levels",
                                                theta_v_pr_mc, c, nlev);
    theta_v_pr_ic(c, nlev) = pr_ic;
    theta_v_ic(c, nlev) = a.reference_theta_at_cells_on_half_levels(c, nlev) + pr_ic;
    exner_ic(c, nlev) = interpolate_to_surface(
        fn, "wgtfacq_c", a.wgtfacq_c, "temporal_extrapolation_of_perturbed_exner", z_ex, c, nlev);
  }

  // 5. _compute_first_and_second_vertical_derivative_of_exner, H × [model_top, nlev).
  if (taylor)
    for (index_t c = h_start; c < h_end; ++c)
      for (int k = top; k < nlev; ++k) {
        if (k >= a.nflatlev)  // _compute_first_vertical_derivative_at_cells
          a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, k) =
              (exner_ic(c, k) - exner_ic(c, k + 1)) * a.inv_ddqz_z_full(c, k);
        if (k >= a.nflat_gradp)
          a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, k) =
              -0.5 * ((theta_v_pr_ic(c, k) - theta_v_pr_ic(c, k + 1)) * a.d2dexdz2_fac1_mc(c, k) +
                      theta_v_pr_mc(c, k) * a.d2dexdz2_fac2_mc(c, k));
      }

  // 6. _compute_perturbation_of_rho_and_theta, second halo line × [model_top, nlev).
  for (index_t c = h2_start; c < h2_end; ++c)
    for (int k = top; k < nlev; ++k) {
      a.perturbed_rho_at_cells_on_model_levels(c, k) =
          a.current_rho(c, k) - a.reference_rho_at_cells_on_model_levels(c, k);
      theta_v_pr_mc(c, k) =
          a.current_theta_v(c, k) - a.reference_theta_at_cells_on_model_levels(c, k);
    }
}

// ================================================================================================
// 2. compute_hydrostatic_correction_term
// ================================================================================================

void compute_hydrostatic_correction_term(const Grid& grid,
                                         ComputeHydrostaticCorrectionTermArgs& a) {
  const char* fn = "compute_hydrostatic_correction_term";
  const index_t ne = grid.num_edges, nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, ne);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_connectivity(fn, "e2c", grid.e2c, ne, 2);
  check_field3(fn, "ikoffset", a.ikoffset, ne, 2, levels);
  check_field3(fn, "zdiff_gradp", a.zdiff_gradp, ne, 2, levels);
  check_field(fn, "z_hydro_corr", a.z_hydro_corr, ne, levels);
  check_field(fn, "theta_v", a.theta_v, nc, 0);
  check_field(fn, "theta_v_ic", a.theta_v_ic, nc, 0);
  check_field(fn, "inv_ddqz_z_full", a.inv_ddqz_z_full, nc, 0);
  check_vector(fn, "inv_dual_edge_length", a.inv_dual_edge_length, ne);

  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      double z_theta[2];
      for (int i = 0; i < 2; ++i) {
        const index_t c = neighbor(fn, "E2C", grid.e2c, e, i, nc);
        const int kk = k + a.ikoffset(e, i, k);
        const double theta_v = read(fn, "theta_v", a.theta_v, c, kk);
        const double theta_v_ic = read(fn, "theta_v_ic", a.theta_v_ic, c, kk);
        const double theta_v_ic_p1 = read(fn, "theta_v_ic", a.theta_v_ic, c, kk + 1);
        const double inv_ddqz = read(fn, "inv_ddqz_z_full", a.inv_ddqz_z_full, c, kk);
        z_theta[i] = theta_v + a.zdiff_gradp(e, i, k) * (theta_v_ic - theta_v_ic_p1) * inv_ddqz;
      }
      a.z_hydro_corr(e, k) = a.grav_o_cpd * a.inv_dual_edge_length[e] * (z_theta[1] - z_theta[0]) *
                             4.0 / ((z_theta[0] + z_theta[1]) * (z_theta[0] + z_theta[1]));
    }
}

// ================================================================================================
// 3. compute_dwdz_for_divergence_damping
// ================================================================================================

void compute_dwdz_for_divergence_damping(const Grid& grid, ComputeDwdzForDivergenceDampingArgs& a) {
  const char* fn = "compute_dwdz_for_divergence_damping";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_fields(fn, {{"inv_ddqz_z_full", &a.inv_ddqz_z_full}, {"z_dwdz_dd", &a.z_dwdz_dd}}, nc,
               levels);
  check_fields(fn, {{"w", &a.w}, {"w_concorr_c", &a.w_concorr_c}}, nc, levels > 0 ? levels + 1 : 0);

  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k)
      a.z_dwdz_dd(c, k) =
          a.inv_ddqz_z_full(c, k) *
          ((a.w(c, k) - a.w(c, k + 1)) - (a.w_concorr_c(c, k) - a.w_concorr_c(c, k + 1)));
}

// ================================================================================================
// 4. compute_averaged_vn_and_fluxes
// ================================================================================================

void compute_averaged_vn_and_fluxes(const Grid& grid, ComputeAveragedVnAndFluxesArgs& a) {
  const char* fn = "compute_averaged_vn_and_fluxes";
  const index_t ne = grid.num_edges;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, ne);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_connectivity(fn, "e2c2eo", grid.e2c2eo, ne, 5);
  check_fields(fn,
               {{"spatially_averaged_vn", &a.spatially_averaged_vn},
                {"mass_flux_at_edges_on_model_levels", &a.mass_flux_at_edges_on_model_levels},
                {"theta_v_flux_at_edges_on_model_levels", &a.theta_v_flux_at_edges_on_model_levels},
                {"substep_and_spatially_averaged_vn", &a.substep_and_spatially_averaged_vn},
                {"substep_averaged_mass_flux", &a.substep_averaged_mass_flux},
                {"vn", &a.vn},
                {"rho_at_edges_on_model_levels", &a.rho_at_edges_on_model_levels},
                {"ddqz_z_full_e", &a.ddqz_z_full_e},
                {"theta_v_at_edges_on_model_levels", &a.theta_v_at_edges_on_model_levels}},
               ne, levels);
  check_table(fn, "e_flx_avg", a.e_flx_avg, ne, 5);

  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      // _spatially_average_flux_or_velocity
      const double vn_avg = sum_over_e2c2eo(fn, grid, a.e_flx_avg, a.vn, e, k);
      double mass_fl_e = 0.0, theta_v_fl_e = 0.0;
      compute_mass_and_temperature_flux(
          a.rho_at_edges_on_model_levels(e, k), vn_avg, a.ddqz_z_full_e(e, k),
          a.theta_v_at_edges_on_model_levels(e, k), mass_fl_e, theta_v_fl_e);
      a.spatially_averaged_vn(e, k) = vn_avg;
      a.mass_flux_at_edges_on_model_levels(e, k) = mass_fl_e;
      a.theta_v_flux_at_edges_on_model_levels(e, k) = theta_v_fl_e;
      if (a.prepare_advection) {
        double& vn_traj = a.substep_and_spatially_averaged_vn(e, k);
        double& mass_flx_me = a.substep_averaged_mass_flux(e, k);
        if (a.at_first_substep) {
          vn_traj = a.r_nsubsteps * vn_avg;
          mass_flx_me = a.r_nsubsteps * mass_fl_e;
        } else {  // _accumulate_prep_adv_fields
          vn_traj = vn_traj + a.r_nsubsteps * vn_avg;
          mass_flx_me = mass_flx_me + a.r_nsubsteps * mass_fl_e;
        }
      }
    }
}

// ================================================================================================
// 5. compute_horizontal_velocity_quantities_and_fluxes
// ================================================================================================

void compute_horizontal_velocity_quantities_and_fluxes(
    const Grid& grid, ComputeHorizontalVelocityQuantitiesAndFluxesArgs& a) {
  const char* fn = "compute_horizontal_velocity_quantities_and_fluxes";
  const index_t ne = grid.num_edges;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, ne);
  const int last = a.vertical_end - 1;  // L: the extrapolation level
  const bool edges = nonempty(a.horizontal_start, a.horizontal_end);
  check_vertical_start(fn, "vertical domain [vertical_start, vertical_end - 1)", a.vertical_start,
                       last);
  if (edges && last < 3)
    bad_argument(fn, cat("vertical_end = ", a.vertical_end,
                         ": extrapolate_at_top reads vn and wgtfacq_e at levels vertical_end - 4"
                         " .. vertical_end - 2, so vertical_end >= 4 is required"));
  const int levels = edges ? last : 0;
  check_connectivity(fn, "e2c2eo", grid.e2c2eo, ne, 5);
  check_connectivity(fn, "e2c2e", grid.e2c2e, ne, 4);
  check_fields(fn,
               {{"spatially_averaged_vn", &a.spatially_averaged_vn},
                {"horizontal_gradient_of_normal_wind_divergence",
                 &a.horizontal_gradient_of_normal_wind_divergence},
                {"tangential_wind", &a.tangential_wind},
                {"mass_flux_at_edges_on_model_levels", &a.mass_flux_at_edges_on_model_levels},
                {"theta_v_flux_at_edges_on_model_levels", &a.theta_v_flux_at_edges_on_model_levels},
                {"tangential_wind_on_half_levels", &a.tangential_wind_on_half_levels},
                {"horizontal_kinetic_energy_at_edges_on_model_levels",
                 &a.horizontal_kinetic_energy_at_edges_on_model_levels},
                {"contravariant_correction_at_edges_on_model_levels",
                 &a.contravariant_correction_at_edges_on_model_levels},
                {"vn", &a.vn},
                {"rho_at_edges_on_model_levels", &a.rho_at_edges_on_model_levels},
                {"theta_v_at_edges_on_model_levels", &a.theta_v_at_edges_on_model_levels},
                {"ddqz_z_full_e", &a.ddqz_z_full_e},
                {"ddxn_z_full", &a.ddxn_z_full},
                {"ddxt_z_full", &a.ddxt_z_full},
                {"wgtfac_e", &a.wgtfac_e},
                {"wgtfacq_e", &a.wgtfacq_e}},
               ne, levels);
  check_field(fn, "vn_on_half_levels", a.vn_on_half_levels, ne, edges ? a.vertical_end : 0);
  check_table(fn, "e_flx_avg", a.e_flx_avg, ne, 5);
  check_table(fn, "geofac_grdiv", a.geofac_grdiv, ne, 5);
  check_table(fn, "rbf_vec_coeff_e", a.rbf_vec_coeff_e, ne, 4);

  for (index_t e = a.horizontal_start; e < a.horizontal_end; ++e) {
    // _compute_horizontal_velocity_quantities_and_fluxes, levels [vertical_start, L).
    for (int k = a.vertical_start; k < last; ++k) {
      const double vn = a.vn(e, k);
      const double vn_avg = sum_over_e2c2eo(fn, grid, a.e_flx_avg, a.vn, e, k);
      const double graddiv = sum_over_e2c2eo(fn, grid, a.geofac_grdiv, a.vn, e, k);
      const double vt = compute_tangential_wind(fn, grid, a.vn, a.rbf_vec_coeff_e, e, k);
      double mass_fl_e = 0.0, theta_v_fl_e = 0.0;
      compute_mass_and_temperature_flux(
          a.rho_at_edges_on_model_levels(e, k), vn_avg, a.ddqz_z_full_e(e, k),
          a.theta_v_at_edges_on_model_levels(e, k), mass_fl_e, theta_v_fl_e);
      const double wgtfac_e = a.wgtfac_e(e, k);
      double vn_ie = vn, vt_ie = vt;  // k = 0: x itself
      if (k > 0) {
        const double vt_above =
            compute_tangential_wind(fn, grid, a.vn, a.rbf_vec_coeff_e, e, k - 1);
        vn_ie = interpolate_to_half_levels(k, wgtfac_e, vn, a.vn(e, k - 1));
        vt_ie = interpolate_to_half_levels(k, wgtfac_e, vt, vt_above);
      }
      a.spatially_averaged_vn(e, k) = vn_avg;
      a.horizontal_gradient_of_normal_wind_divergence(e, k) = graddiv;
      a.tangential_wind(e, k) = vt;
      a.mass_flux_at_edges_on_model_levels(e, k) = mass_fl_e;
      a.theta_v_flux_at_edges_on_model_levels(e, k) = theta_v_fl_e;
      a.vn_on_half_levels(e, k) = vn_ie;
      a.tangential_wind_on_half_levels(e, k) = vt_ie;
      a.horizontal_kinetic_energy_at_edges_on_model_levels(e, k) =
          compute_horizontal_kinetic_energy(vn, vt);
      if (k >= a.nflatlev)
        a.contravariant_correction_at_edges_on_model_levels(e, k) =
            compute_contravariant_correction(vn, a.ddxn_z_full(e, k), a.ddxt_z_full(e, k), vt);
    }
    // _extrapolate_at_top, level L only.
    a.vn_on_half_levels(e, last) =
        interpolate_to_surface(fn, "wgtfacq_e", a.wgtfacq_e, "vn", a.vn, e, last);
  }
}

// ================================================================================================
// 6. compute_interpolation_and_nonhydro_buoy
// ================================================================================================

void compute_interpolation_and_nonhydro_buoy(const Grid& grid,
                                             ComputeInterpolationAndNonhydroBuoyArgs& a) {
  const char* fn = "compute_interpolation_and_nonhydro_buoy";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  const bool cells = nonempty(a.horizontal_start, a.horizontal_end);
  if (cells && nonempty(a.vertical_start, a.vertical_end) && a.vertical_start < 1)
    bad_argument(fn, cat("vertical domain [", a.vertical_start, ", ", a.vertical_end,
                         ") reads level vertical_start - 1 (Koff[-1]) of current_rho, next_rho, "
                         "current_theta_v, next_theta_v, reference_theta_at_cells_on_model_levels "
                         "and perturbed_exner_at_cells_on_model_levels: vertical_start >= 1 is "
                         "required"));
  const int levels = cells ? needed(a.vertical_start, a.vertical_end) : 0;
  check_fields(
      fn,
      {{"rho_at_cells_on_half_levels", &a.rho_at_cells_on_half_levels},
       {"perturbed_theta_v_at_cells_on_half_levels", &a.perturbed_theta_v_at_cells_on_half_levels},
       {"theta_v_at_cells_on_half_levels", &a.theta_v_at_cells_on_half_levels},
       {"nonhydro_buoy_at_cells_on_half_levels", &a.nonhydro_buoy_at_cells_on_half_levels},
       {"w", &a.w},
       {"contravariant_correction_at_cells_on_half_levels",
        &a.contravariant_correction_at_cells_on_half_levels},
       {"current_rho", &a.current_rho},
       {"next_rho", &a.next_rho},
       {"current_theta_v", &a.current_theta_v},
       {"next_theta_v", &a.next_theta_v},
       {"perturbed_exner_at_cells_on_model_levels", &a.perturbed_exner_at_cells_on_model_levels},
       {"reference_theta_at_cells_on_model_levels", &a.reference_theta_at_cells_on_model_levels},
       {"ddz_of_reference_exner_at_cells_on_half_levels",
        &a.ddz_of_reference_exner_at_cells_on_half_levels},
       {"ddqz_z_half", &a.ddqz_z_half},
       {"wgtfac_c", &a.wgtfac_c}},
      nc, levels);
  check_vector(fn, "exner_w_explicit_weight_parameter", a.exner_w_explicit_weight_parameter, nc);

  const double wa = a.rhotheta_explicit_weight_parameter;
  const double wb = a.rhotheta_implicit_weight_parameter;
  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      const double wgtfac_c = a.wgtfac_c(c, k);
      const double ddqz_z_half = a.ddqz_z_half(c, k);
      const double back_trajectory_w =
          -(a.w(c, k) - a.contravariant_correction_at_cells_on_half_levels(c, k)) * a.dtime * 0.5 /
          ddqz_z_half;
      const double rho = wa * a.current_rho(c, k) + wb * a.next_rho(c, k);
      const double rho_kup = wa * a.current_rho(c, k - 1) + wb * a.next_rho(c, k - 1);
      const double theta_v = wa * a.current_theta_v(c, k) + wb * a.next_theta_v(c, k);
      const double theta_v_kup = wa * a.current_theta_v(c, k - 1) + wb * a.next_theta_v(c, k - 1);
      const double rho_ic =
          wgtfac_c * rho + (1.0 - wgtfac_c) * rho_kup + back_trajectory_w * (rho_kup - rho);
      const double theta_v_pr_kup =
          theta_v_kup - a.reference_theta_at_cells_on_model_levels(c, k - 1);
      const double theta_v_pr = theta_v - a.reference_theta_at_cells_on_model_levels(c, k);
      const double theta_v_pr_ic = wgtfac_c * theta_v_pr + (1.0 - wgtfac_c) * theta_v_pr_kup;
      const double theta_v_ic = wgtfac_c * theta_v + (1.0 - wgtfac_c) * theta_v_kup +
                                back_trajectory_w * (theta_v_kup - theta_v);
      const double buoy = a.exner_w_explicit_weight_parameter[c] * theta_v_ic *
                              (a.perturbed_exner_at_cells_on_model_levels(c, k - 1) -
                               a.perturbed_exner_at_cells_on_model_levels(c, k)) /
                              ddqz_z_half +
                          theta_v_pr_ic * a.ddz_of_reference_exner_at_cells_on_half_levels(c, k);
      a.rho_at_cells_on_half_levels(c, k) = rho_ic;
      a.perturbed_theta_v_at_cells_on_half_levels(c, k) = theta_v_pr_ic;
      a.theta_v_at_cells_on_half_levels(c, k) = theta_v_ic;
      a.nonhydro_buoy_at_cells_on_half_levels(c, k) = buoy;
    }
}

// ================================================================================================
// 7. stencils_61_62
// ================================================================================================

void stencils_61_62(const Grid& grid, Stencils6162Args& a) {
  const char* fn = "stencils_61_62";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  const bool cells = nonempty(a.horizontal_start, a.horizontal_end);
  const int last = a.vertical_end - 1;
  check_vertical_start(fn, "vertical domain [vertical_start, vertical_end - 1)", a.vertical_start,
                       last);
  if (cells && last < 0)
    bad_argument(fn, cat("vertical_end = ", a.vertical_end,
                         ": _update_wind writes w_new at level vertical_end - 1 < 0"));
  check_fields(fn,
               {{"rho_now", &a.rho_now},
                {"grf_tend_rho", &a.grf_tend_rho},
                {"theta_v_now", &a.theta_v_now},
                {"grf_tend_thv", &a.grf_tend_thv},
                {"rho_new", &a.rho_new},
                {"exner_new", &a.exner_new}},
               nc, cells ? needed(a.vertical_start, last) : 0);
  check_fields(fn, {{"w_now", &a.w_now}, {"grf_tend_w", &a.grf_tend_w}, {"w_new", &a.w_new}}, nc,
               cells ? a.vertical_end : 0);

  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c) {
    // _update_density_exner_wind, levels [vertical_start, L).
    for (int k = a.vertical_start; k < last; ++k) {
      a.rho_new(c, k) = a.rho_now(c, k) + a.dtime * a.grf_tend_rho(c, k);
      a.exner_new(c, k) = a.theta_v_now(c, k) + a.dtime * a.grf_tend_thv(c, k);
      a.w_new(c, k) = a.w_now(c, k) + a.dtime * a.grf_tend_w(c, k);
    }
    // _update_wind, level L only.
    a.w_new(c, last) = a.w_now(c, last) + a.dtime * a.grf_tend_w(c, last);
  }
}

// ================================================================================================
// 8. update_mass_flux_weighted
// ================================================================================================

void update_mass_flux_weighted(const Grid& grid, UpdateMassFluxWeightedArgs& a) {
  const char* fn = "update_mass_flux_weighted";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_fields(fn,
               {{"rho_ic", &a.rho_ic},
                {"w_now", &a.w_now},
                {"w_new", &a.w_new},
                {"w_concorr_c", &a.w_concorr_c},
                {"mass_flx_ic", &a.mass_flx_ic}},
               nc, levels);
  check_vector(fn, "vwind_expl_wgt", a.vwind_expl_wgt, nc);
  check_vector(fn, "vwind_impl_wgt", a.vwind_impl_wgt, nc);

  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k)
      a.mass_flx_ic(c, k) =
          a.mass_flx_ic(c, k) + a.r_nsubsteps * a.rho_ic(c, k) *
                                    (a.vwind_expl_wgt[c] * a.w_now(c, k) +
                                     a.vwind_impl_wgt[c] * a.w_new(c, k) - a.w_concorr_c(c, k));
}

// ================================================================================================
// 9. compute_exner_from_rhotheta
// ================================================================================================

void compute_exner_from_rhotheta(const Grid& grid, ComputeExnerFromRhothetaArgs& a) {
  const char* fn = "compute_exner_from_rhotheta";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_fields(fn, {{"rho", &a.rho}, {"theta_v", &a.theta_v}, {"exner", &a.exner}}, nc, levels);

  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      const double theta_v = a.exner(c, k);  // the exner field holds theta_v here
      a.theta_v(c, k) = theta_v;
      a.exner(c, k) = std::exp(a.rd_o_cvd * std::log(a.rd_o_p0ref * a.rho(c, k) * theta_v));
    }
}

// ================================================================================================
// 10. update_theta_and_exner_in_halo
// ================================================================================================

void update_theta_and_exner_in_halo(const Grid& grid, UpdateThetaAndExnerInHaloArgs& a) {
  const char* fn = "update_theta_and_exner_in_halo";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  const int levels =
      nonempty(a.horizontal_start, a.horizontal_end) ? needed(a.vertical_start, a.vertical_end) : 0;
  check_vector(fn, "mask_prog_halo_c", a.mask_prog_halo_c, nc);
  check_fields(fn,
               {{"rho_now", &a.rho_now},
                {"rho_new", &a.rho_new},
                {"theta_v_now", &a.theta_v_now},
                {"theta_v_new", &a.theta_v_new},
                {"exner_new", &a.exner_new},
                {"exner_now", &a.exner_now}},
               nc, levels);

  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) {
      const double exner_new = a.exner_new(c, k);
      if (a.mask_prog_halo_c[static_cast<std::size_t>(c)]) {
        a.theta_v_new(c, k) = a.rho_now(c, k) * a.theta_v_now(c, k) *
                              ((exner_new / a.exner_now(c, k) - 1.0) * physics_cvd_o_rd + 1.0) /
                              a.rho_new(c, k);
      } else {
        a.theta_v_new(c, k) = exner_new;
        a.exner_new(c, k) = std::exp(rd_o_cvd * std::log(rd_o_p0ref * a.rho_new(c, k) * exner_new));
      }
    }
}

// ================================================================================================
// 11. init_cell_kdim_field_with_zero_wp
// ================================================================================================

void init_cell_kdim_field_with_zero_wp(const Grid& grid, InitCellKdimFieldWithZeroWpArgs& a) {
  const char* fn = "init_cell_kdim_field_with_zero_wp";
  const index_t nc = grid.num_cells;
  check_horizontal(fn, "horizontal domain", a.horizontal_start, a.horizontal_end, nc);
  check_vertical_start(fn, "vertical domain", a.vertical_start, a.vertical_end);
  check_field(fn, "field_with_zero_wp", a.field_with_zero_wp, nc,
              nonempty(a.horizontal_start, a.horizontal_end)
                  ? needed(a.vertical_start, a.vertical_end)
                  : 0);
  for (index_t c = a.horizontal_start; c < a.horizontal_end; ++c)
    for (int k = a.vertical_start; k < a.vertical_end; ++k) a.field_with_zero_wp(c, k) = 0.0;
}

// ================================================================================================
// 12. compute_rayleigh_damping_factor
// ================================================================================================

void compute_rayleigh_damping_factor(ComputeRayleighDampingFactorArgs& a) {
  const char* fn = "compute_rayleigh_damping_factor";
  if (a.rayleigh_w.size() < a.rayleigh_damping_factor.size())
    bad_argument(fn, cat("rayleigh_w has ", a.rayleigh_w.size(), " values, fewer than the ",
                         a.rayleigh_damping_factor.size(),
                         " of rayleigh_damping_factor (the output's domain)"));
  for (std::size_t k = 0; k < a.rayleigh_damping_factor.size(); ++k)
    a.rayleigh_damping_factor[k] = 1.0 / (1.0 + a.dtime * a.rayleigh_w[k]);
}

}  // namespace icondiff::reference
