// An analytic initial state for the diffusion granule: the baroclinic-wave test of Jablonowski and
// Williamson (2006), "A baroclinic instability test case for atmospheric model dynamical cores",
// QJRMS 132, 2943-2975 (JW06 below), evaluated on the model's geometric heights the way ICON
// (mo_nh_jabw_exp.f90) and ICON4Py (initial_condition/analytical/jablonowski_williamson.py) do:
// at every (point, level) the JW vertical coordinate eta = p / p_s is found by Newton's iteration
// from the geometric height, then temperature, pressure and the zonal wind follow analytically.
// Formulas, sources and the differences from ICON4Py: docs/dev/initial_state.md.
// A test case, not part of the granule: testcases/ sits above diffusion/ (it fills the granule's
// states) and below io/ and the drivers (scripts/check_layers.py).
//
// Field layout: every field is a std::vector<double> in FieldLayout order, value (point i, level
// k) at [i + n_points * k], so it deep-copies straight into a View2D (to_prognostic_state). Level
// k = 0 is the model top; w has nlev + 1 half levels (diffusion_spec.md §1.2).
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/grid.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace icondiff {

/// The parameters of the JW06 test, with ICON's namelist names (nh_testcase_nml) where they have
/// one. Defaults are JW06's (Table 1) and ICON's. Angles in radians.
struct JablonowskiWilliamsonConfig {
  double u0 = 35.0;                 ///< jw_u0: maximum zonal wind (m/s)
  double eta0 = 0.252;              ///< η0: level of the jet maximum
  double eta_t = 0.2;               ///< η_t: tropopause level
  double t0 = 288.0;                ///< jw_temp0: mean surface temperature (K)
  double lapse_rate = 0.005;        ///< Γ: tropospheric lapse rate (K/m)
  double delta_t = 4.8e5;           ///< ΔT: stratospheric temperature parameter (K)
  double surface_pressure = 1.0e5;  ///< p_s (Pa); p = η · p_s
  /// jw_up: amplitude of the zonal-wind perturbation u' (m/s); 0 gives the steady state (jabw_s).
  double perturbation_amplitude = 1.0;
  double perturbation_lon = 0.3490658503988659;  ///< λc = π/9 = 20° E
  double perturbation_lat = 0.6981317007977318;  ///< φc = 2π/9 = 40° N
  /// R / a: radius of the perturbation as a fraction of the sphere radius (JW06: R = a/10).
  double perturbation_radius = 0.1;
  /// a in the balance terms of T and Φ (m). <= 0 (default): the grid's sphere_radius.
  double earth_radius = 0.0;
  double angular_velocity = 7.29212e-5;  ///< Ω (rad/s), ICON's value
  /// Amplitude (m/s) of reproducible uniform noise in [-A, A] added to vn (0: none), e.g. to give
  /// the Smagorinsky diffusion small-scale structure to act on. The value at (edge e, level k) is a
  /// pure function of (noise_seed, e + n_edges · k): the same on every backend and thread count.
  double vn_noise_amplitude = 0.0;
  /// Amplitude (m/s) of noise in [-A, A] added to w on the interior half levels 1..nlev-1 (0:
  /// none); w stays 0 at the model top and the ground. JW06 has w = 0, which leaves the w
  /// diffusion nothing to act on; the value at (cell c, half level kh) is a pure function of
  /// (noise_seed + 1, c + n_cells · kh).
  double w_noise_amplitude = 0.0;
  std::uint64_t noise_seed = 0;
  /// The numbering of the noise on a rank's part of the grid (a grid with global indices): e and
  /// c above are then the points' global indices and n_edges / n_cells these, the whole grid's
  /// counts, so each point gets the whole grid's value. 0: the grid's own counts.
  std::uint64_t whole_grid_edges = 0;
  std::uint64_t whole_grid_cells = 0;
  /// Newton's iteration stops when |Δη| <= newton_tolerance · η (|Δ ln η| <= tolerance);
  /// failing that after max_newton_iterations, the state builder throws.
  double newton_tolerance = 1e-14;
  int max_newton_iterations = 100;

  /// Throws ConfigError naming the field and what is allowed.
  void validate() const;
};

/// Physical constants of ICON (mo_physical_constants.f90; ICON4Py constants.py).
namespace jw {
inline constexpr double rd = 287.04;     ///< gas constant of dry air, J/(kg K)
inline constexpr double cpd = 1004.64;   ///< specific heat of dry air at constant p, J/(kg K)
inline constexpr double grav = 9.80665;  ///< gravitational acceleration, m/s²
inline constexpr double p0ref = 1.0e5;   ///< reference pressure of the Exner function, Pa

// ---- The analytic JW06 fields as functions of (η, latitude)
// -------------------------------------- `a` is the sphere radius used in the balance terms
// (config.earth_radius, or the grid's).

/// η_v = (η − η0) π/2 (JW06 eq. 2).
double eta_v(double eta, const JablonowskiWilliamsonConfig& c);
/// The balanced zonal wind u = u0 cos^{3/2}(η_v) sin²(2φ) (JW06 eq. 2), m/s, no perturbation.
double zonal_wind(double eta, double lat, const JablonowskiWilliamsonConfig& c);
/// The perturbation u' = u_p exp(−(r/R)²), r the great-circle distance to (λc, φc) (JW06 eq. 12).
double zonal_wind_perturbation(double lon, double lat, const JablonowskiWilliamsonConfig& c);
/// The horizontal-mean temperature T̄(η) (JW06 eqs. 4, 5), K.
double mean_temperature(double eta, const JablonowskiWilliamsonConfig& c);
/// The horizontal-mean geopotential Φ̄(η) (JW06 eqs. 7, 8), m²/s².
double mean_geopotential(double eta, const JablonowskiWilliamsonConfig& c);
/// The temperature T(η, φ) (JW06 eq. 6), K.
double temperature(double eta, double lat, const JablonowskiWilliamsonConfig& c, double a);
/// The geopotential Φ(η, φ) (JW06 eq. 9), m²/s². dΦ/dη = −R_d T / η holds exactly.
double geopotential(double eta, double lat, const JablonowskiWilliamsonConfig& c, double a);
/// The surface geopotential Φ_s(φ) = Φ(1, φ) (JW06 eq. 7 at η = 1): JW06's topography is
/// Φ_s / g; on it η = 1 and p = p_s. On a flat surface (z = 0), ln η ≈ Φ_s / (R_d T): η is
/// 1.0125 at the equator (Φ_s / g = 113 m) and 0.954 at the poles (Φ_s / g = −316 m).
double surface_geopotential(double lat, const JablonowskiWilliamsonConfig& c, double a);
/// η at geopotential Φ and latitude φ: Newton's iteration on Φ(η, φ) − Φ = 0 as in ICON4Py, in
/// the variable ln η (dΦ/d ln η = −R_d T), from the isothermal guess η = exp(−Φ / (R_d T0)),
/// until |Δ ln η| <= newton_tolerance. Throws Error if it does not converge.
double solve_eta(double geopotential, double lat, const JablonowskiWilliamsonConfig& c, double a);
}  // namespace jw

/// The initial state on one grid: prognostic fields and the diagnostics they come from.
/// All (points, levels) in FieldLayout order: value (i, k) at [i + n_points · k].
struct InitialState {
  index_t num_cells = 0;
  index_t num_edges = 0;
  int num_levels = 0;

  std::vector<double> vn;       ///< (E, nlev) normal wind: u·n_east (+ noise), m/s
  std::vector<double> w;        ///< (C, nlev+1) vertical wind: 0 (+ noise inside), m/s
  std::vector<double> theta_v;  ///< (C, nlev) virtual potential temperature T/π (dry: T_v = T), K
  std::vector<double> exner;    ///< (C, nlev) Exner function π = (p/p0ref)^{R_d/c_pd}
  std::vector<double> rho;      ///< (C, nlev) density p / (R_d T), kg/m³

  std::vector<double> eta_cell;          ///< (C, nlev) η solved at the cell full levels
  std::vector<double> eta_edge;          ///< (E, nlev) η solved at the edge full levels
  std::vector<double> temperature;       ///< (C, nlev) T, K
  std::vector<double> pressure;          ///< (C, nlev) p = η · p_s, Pa
  std::vector<double> z_edge;            ///< (E, nlev) the edge full-level heights used, m
  std::vector<double> surface_pressure;  ///< (C) p at z_ifc(c, nlev), Pa
};

/// (E, nlev) in FieldLayout order: the edge full-level heights interpolated from the adjacent
/// cells' z_mc with ICON's linear cell-to-edge weights (c_lin_e: the weight of a cell is the
/// other cell's distance to the edge over their sum; 1/2 each if edge_cell_distance is absent);
/// the one existing cell's height at a lateral-boundary edge. Throws InvalidArgument for a z_mc
/// of the wrong shape.
std::vector<double> edge_full_level_heights(const Grid& grid, const HostTable<double>& z_mc);

/// The JW06 state on `grid` at the heights z_ifc (C, nlev+1; row c, column kh; kh = 0 the top)
/// and z_mc (C, nlev): η solved (jw::solve_eta) from g·z at every cell full level, edge full level
/// (edge_full_level_heights) and cell surface z_ifc(c, nlev); then T, p = η p_s, π, θ_v = T/π,
/// ρ = p/(R_d T); vn = (u(η_e, φ_e) + u'(λ_e, φ_e)) · primal_normal_east(e) (+ noise; v = 0);
/// w = 0. Limited-area grids are treated like global ones (the formulas are global; ICON4Py sets
/// vn = 0 in the lateral boundary rows, which the boundary nudging overwrites anyway).
///
/// Throws InvalidArgument for heights of the wrong shape, non-finite heights, z_ifc not strictly
/// decreasing with kh or z_mc outside its layer; GridError if the grid lacks coordinates or edge
/// normals; ConfigError for an invalid config; Error if Newton's iteration does not converge.
/// Runs on the host execution space (Kokkos must be initialized).
InitialState jablonowski_williamson_state(const Grid& grid, const HostTable<double>& z_ifc,
                                          const HostTable<double>& z_mc,
                                          const JablonowskiWilliamsonConfig& config = {});

/// A new View2D "icondiff::initial_state::<name>" in `MemorySpace` holding `values` (FieldLayout
/// order, `points` × `levels`). Throws InvalidArgument if the size does not match.
template <class MemorySpace>
View2D<wp, MemorySpace> initial_state_view(const std::string& name,
                                           const std::vector<double>& values, index_t points,
                                           int levels);

/// vn, w, theta_v and exner deep-copied into fresh Views in `MemorySpace`, labelled
/// "icondiff::initial_state::<name>". (ρ is not part of the diffusion state; use
/// initial_state_view("rho", state.rho, ...) where it is needed.)
template <class MemorySpace>
DiffusionPrognosticState<MemorySpace> to_prognostic_state(const InitialState& state);

// ---- Implementation of the templates
// -------------------------------------------------------------

namespace initial_state_detail {
/// Throws InvalidArgument naming the field unless values.size() == points · levels.
void check_size(const std::string& name, std::size_t size, index_t points, int levels);
}  // namespace initial_state_detail

template <class MemorySpace>
View2D<wp, MemorySpace> initial_state_view(const std::string& name,
                                           const std::vector<double>& values, index_t points,
                                           int levels) {
  initial_state_detail::check_size(name, values.size(), points, levels);
  // The vector holds level after level (ICON's order); element-wise into any FieldLayout.
  View2D<wp, MemorySpace> view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::initial_state::" + name), points,
      levels);
  auto mirror = Kokkos::create_mirror_view(view);
  for (int k = 0; k < levels; ++k)
    for (index_t i = 0; i < points; ++i)
      mirror(i, k) = values[static_cast<std::size_t>(k) * points + i];
  Kokkos::deep_copy(view, mirror);
  return view;
}

template <class MemorySpace>
DiffusionPrognosticState<MemorySpace> to_prognostic_state(const InitialState& s) {
  DiffusionPrognosticState<MemorySpace> p;
  p.vn = initial_state_view<MemorySpace>("vn", s.vn, s.num_edges, s.num_levels);
  p.w = initial_state_view<MemorySpace>("w", s.w, s.num_cells, s.num_levels + 1);
  p.theta_v = initial_state_view<MemorySpace>("theta_v", s.theta_v, s.num_cells, s.num_levels);
  p.exner = initial_state_view<MemorySpace>("exner", s.exner, s.num_cells, s.num_levels);
  return p;
}

}  // namespace icondiff
