// Plain-loop host reference of one substep of ICON4Py 0.2.0's SolveNonhydro.time_step; see the
// header for the conventions. Each function below transcribes one method of solve_nonhydro.py or
// velocity_advection.py, program call by program call: each call fills the program reference's
// argument struct with the field ICON4Py passes in that slot (its constant_args and domain sizes
// from SolveNonhydro.__init__ / VelocityAdvection.__init__), runs it, and hands the fields back.
#include "reference/solve_nh_reference.hpp"

#include "reference/dycore_reference.hpp"
#include "reference/solve_nonhydro_reference.hpp"
#include "reference/velocity_advection_reference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
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

void check_shape(const char* fn, const char* name, const Field& f, index_t points, int levels) {
  if (f.points != points || f.levels != levels ||
      f.values.size() != static_cast<std::size_t>(points) * static_cast<std::size_t>(levels))
    bad_argument(fn, cat(name, " has shape (", f.points, ", ", f.levels, "), expected (", points,
                         ", ", levels, ")"));
}

void check_size(const char* fn, const char* name, std::size_t size, std::size_t expected) {
  if (size != expected) bad_argument(fn, cat(name, " has ", size, " values, expected ", expected));
}

/// The fields of one program call, lent to the program's argument struct for the call and given
/// back afterwards (moved, not copied: the reference runs whole grids many times). Every slot
/// gets the field ICON4Py passes there; a field lent twice in one call is a bug of this
/// reference (ICON4Py never passes one field in two slots of these programs) and throws.
class Loans {
 public:
  Loans() = default;
  Loans(const Loans&) = delete;
  Loans& operator=(const Loans&) = delete;
  ~Loans() {
    for (auto it = give_back_.rbegin(); it != give_back_.rend(); ++it) (*it)();
  }
  template <class T>
  void operator()(T& slot, T& owner) {
    if (!lent_.insert(static_cast<const void*>(&owner)).second)
      throw std::logic_error("icondiff::reference::solve_nh_time_step: a field lent twice");
    slot = std::move(owner);
    give_back_.push_back([&slot, &owner] { owner = std::move(slot); });
  }
  template <class T>
  void operator()(T& slot, const T& owner) = delete;  // inputs are lent too: no const copies

 private:
  std::set<const void*> lent_;
  std::vector<std::function<void()>> give_back_;
};

// _determine_local_domains (SolveNonhydro and VelocityAdvection): ICON4Py's zones by their
// icondiff names (LATERAL_BOUNDARY = LateralBoundary1, LATERAL_BOUNDARY_LEVEL_n =
// LateralBoundary<n>, NUDGING_LEVEL_2 = Nudging2, HALO_LEVEL_2 = Halo2).
struct Domains {
  int start_cell_lateral_boundary, start_cell_lateral_boundary_level_3,
      start_cell_lateral_boundary_level_4, start_cell_nudging, start_cell_halo,
      start_cell_halo_level_2;
  int end_cell_lateral_boundary_level_4, end_cell_local, end_cell_halo, end_cell_halo_level_2,
      end_cell_end;
  int start_edge_lateral_boundary, start_edge_lateral_boundary_level_5,
      start_edge_lateral_boundary_level_7, start_edge_nudging_level_2;
  int end_edge_nudging, end_edge_local, end_edge_halo, end_edge_halo_level_2;
};

Domains determine_local_domains(const Grid& g) {
  const auto cs = [&](Zone z) { return static_cast<int>(g.start(Location::Cell, z)); };
  const auto ce = [&](Zone z) { return static_cast<int>(g.end(Location::Cell, z)); };
  const auto es = [&](Zone z) { return static_cast<int>(g.start(Location::Edge, z)); };
  const auto ee = [&](Zone z) { return static_cast<int>(g.end(Location::Edge, z)); };
  Domains d{};
  d.start_cell_lateral_boundary = cs(Zone::LateralBoundary1);
  d.start_cell_lateral_boundary_level_3 = cs(Zone::LateralBoundary3);
  d.start_cell_lateral_boundary_level_4 = cs(Zone::LateralBoundary4);
  d.start_cell_nudging = cs(Zone::Nudging);
  d.start_cell_halo = cs(Zone::Halo);
  d.start_cell_halo_level_2 = cs(Zone::Halo2);
  d.end_cell_lateral_boundary_level_4 = ce(Zone::LateralBoundary4);
  d.end_cell_local = ce(Zone::Local);
  d.end_cell_halo = ce(Zone::Halo);
  d.end_cell_halo_level_2 = ce(Zone::Halo2);
  d.end_cell_end = ce(Zone::End);
  d.start_edge_lateral_boundary = es(Zone::LateralBoundary1);
  d.start_edge_lateral_boundary_level_5 = es(Zone::LateralBoundary5);
  d.start_edge_lateral_boundary_level_7 = es(Zone::LateralBoundary7);
  d.start_edge_nudging_level_2 = es(Zone::Nudging2);
  d.end_edge_nudging = ee(Zone::Nudging);
  d.end_edge_local = ee(Zone::Local);
  d.end_edge_halo = ee(Zone::Halo);
  d.end_edge_halo_level_2 = ee(Zone::Halo2);
  return d;
}

/// numpy.maximum of two scalars: NaN if either is NaN.
double numpy_maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return std::max(a, b);
}

/// VelocityAdvection's reduction after its vertical-momentum program: numpy max of vertical_cfl
/// over cells [start_cell_lateral_boundary_level_4, end_cell_halo) and every level, then
/// maximum with the previous diagnostic_state.max_vertical_cfl.
void reduce_max_vertical_cfl(SolveNhReference& self, SolveNhDiagnosticState& diagnostic) {
  const Domains d = determine_local_domains(*self.grid);
  const double max_vertical_cfl = reference::max_vertical_cfl(
      self.locals.vertical_cfl, d.start_cell_lateral_boundary_level_4, d.end_cell_halo);
  diagnostic.max_vertical_cfl = numpy_maximum(max_vertical_cfl, diagnostic.max_vertical_cfl);
}

/// SolveNonhydro._get_rayleigh_damping_factor.
const Vector& get_rayleigh_damping_factor(SolveNhReference& self, double dtime) {
  if (dtime != self.dtime_previous_substep) {
    // Precompute Rayleigh damping factor if substep magnitude changes
    ComputeRayleighDampingFactorArgs a;
    a.rayleigh_w = self.statics.rayleigh_w;
    a.dtime = dtime;
    a.rayleigh_damping_factor = std::move(self.locals.rayleigh_damping_factor);
    compute_rayleigh_damping_factor(a);
    self.locals.rayleigh_damping_factor = std::move(a.rayleigh_damping_factor);
    self.dtime_previous_substep = dtime;
  }
  return self.locals.rayleigh_damping_factor;
}

// ================================================================================================
// VelocityAdvection (velocity_advection.py)
// ================================================================================================

/// VelocityAdvection.run_predictor_step.
void velocity_advection_run_predictor_step(
    SolveNhReference& self, bool skip_compute_predictor_vertical_advection,
    SolveNhDiagnosticState& diagnostic_state, SolveNhPrognosticState& prognostic_state,
    Field& contravariant_correction_at_edges_on_model_levels,
    Field& horizontal_kinetic_energy_at_edges_on_model_levels,
    Field& tangential_wind_on_half_levels, double dtime, Vector& cell_areas) {
  const Grid& grid = *self.grid;
  SolveNhStatics& s = self.statics;
  SolveNhLocals& va = self.locals;  // VelocityAdvection's own locals live here too
  const Domains d = determine_local_domains(grid);
  const VelocityAdvectionScaleFactors factors = scale_factors_by_dtime(dtime);

  {
    ComputeDiagnosticsFromNormalWindArgs a;
    Loans lend;
    lend(a.tangential_wind, diagnostic_state.tangential_wind);
    lend(a.tangential_wind_on_half_levels, tangential_wind_on_half_levels);
    lend(a.vn_on_half_levels, diagnostic_state.vn_on_half_levels);
    lend(a.horizontal_kinetic_energy_at_edges_on_model_levels,
         horizontal_kinetic_energy_at_edges_on_model_levels);
    lend(a.contravariant_correction_at_edges_on_model_levels,
         contravariant_correction_at_edges_on_model_levels);
    lend(a.horizontal_advection_of_w_at_edges_on_half_levels,
         va.horizontal_advection_of_w_at_edges_on_half_levels);
    lend(a.vn, prognostic_state.vn);
    lend(a.w, prognostic_state.w);
    lend(a.rbf_vec_coeff_e, s.rbf_vec_coeff_e);
    lend(a.wgtfac_e, s.wgtfac_e);
    lend(a.ddxn_z_full, s.ddxn_z_full);
    lend(a.ddxt_z_full, s.ddxt_z_full);
    lend(a.wgtfacq_e, s.wgtfacq_e);
    lend(a.c_intp, s.c_intp);
    lend(a.inv_dual_edge_length, s.inverse_dual_edge_lengths);
    lend(a.inv_primal_edge_length, s.inverse_primal_edge_lengths);
    lend(a.tangent_orientation, s.tangent_orientation);
    a.skip_compute_predictor_vertical_advection = skip_compute_predictor_vertical_advection;
    a.nflatlev = s.nflatlev;
    a.horizontal_start = d.start_edge_lateral_boundary_level_5;
    a.horizontal_end = d.end_edge_halo_level_2;
    a.vertical_start = 0;
    a.vertical_end = s.nlev + 1;
    compute_diagnostics_from_normal_wind(grid, a);
  }

  {
    ComputeAdvectionInPredictorVerticalMomentumArgs a;
    Loans lend;
    lend(a.contravariant_correction_at_cells_on_half_levels,
         diagnostic_state.contravariant_correction_at_cells_on_half_levels);
    lend(a.vertical_wind_advective_tendency,
         diagnostic_state.vertical_wind_advective_tendency.predictor);
    lend(a.contravariant_corrected_w_at_cells_on_model_levels,
         va.contravariant_corrected_w_at_cells_on_model_levels);
    lend(a.vertical_cfl, va.vertical_cfl);
    lend(a.w, prognostic_state.w);
    lend(a.horizontal_advection_of_w_at_edges_on_half_levels,
         va.horizontal_advection_of_w_at_edges_on_half_levels);
    lend(a.contravariant_correction_at_edges_on_model_levels,
         contravariant_correction_at_edges_on_model_levels);
    lend(a.coeff1_dwdz, s.coeff1_dwdz);
    lend(a.coeff2_dwdz, s.coeff2_dwdz);
    lend(a.e_bln_c_s, s.e_bln_c_s);
    lend(a.wgtfac_c, s.wgtfac_c);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    lend(a.area, cell_areas);
    lend(a.geofac_n2s, s.geofac_n2s);
    lend(a.owner_mask, s.owner_mask);
    a.scalfac_exdiff = factors.scalfac_exdiff;
    a.cfl_w_limit = factors.cfl_w_limit;
    a.dtime = dtime;
    a.skip_compute_predictor_vertical_advection = skip_compute_predictor_vertical_advection;
    a.nflatlev = s.nflatlev;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.horizontal_start = d.start_cell_lateral_boundary_level_4;
    a.horizontal_end = d.end_cell_halo;
    a.vertical_start = 0;
    a.vertical_end = s.nlev;
    compute_advection_in_predictor_vertical_momentum(grid, a);
  }

  reduce_max_vertical_cfl(self, diagnostic_state);

  {
    // apply_extra_diffusion_on_vn = True (velocity_advection.py: always).
    ComputeAdvectionInHorizontalMomentumArgs a;
    Loans lend;
    lend(a.normal_wind_advective_tendency,
         diagnostic_state.normal_wind_advective_tendency.predictor);
    lend(a.vn, prognostic_state.vn);
    lend(a.horizontal_kinetic_energy_at_edges_on_model_levels,
         horizontal_kinetic_energy_at_edges_on_model_levels);
    lend(a.tangential_wind, diagnostic_state.tangential_wind);
    lend(a.coriolis_frequency, s.coriolis_frequency);
    lend(a.contravariant_corrected_w_at_cells_on_model_levels,
         va.contravariant_corrected_w_at_cells_on_model_levels);
    lend(a.vn_on_half_levels, diagnostic_state.vn_on_half_levels);
    lend(a.e_bln_c_s, s.e_bln_c_s);
    lend(a.geofac_rot, s.geofac_rot);
    lend(a.coeff_gradekin, s.coeff_gradekin);
    lend(a.c_lin_e, s.c_lin_e);
    lend(a.ddqz_z_full_e, s.ddqz_z_full_e);
    lend(a.area_edge, s.edge_areas);
    lend(a.tangent_orientation, s.tangent_orientation);
    lend(a.inv_primal_edge_length, s.inverse_primal_edge_lengths);
    lend(a.geofac_grdiv, s.geofac_grdiv);
    a.cfl_w_limit = factors.cfl_w_limit;
    a.scalfac_exdiff = factors.scalfac_exdiff;
    a.dtime = dtime;
    a.apply_extra_diffusion_on_vn = true;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.horizontal_start = d.start_edge_nudging_level_2;
    a.horizontal_end = d.end_edge_local;
    a.vertical_start = 0;
    a.vertical_end = s.nlev;
    compute_advection_in_horizontal_momentum(grid, a);
  }
}

/// VelocityAdvection.run_corrector_step.
void velocity_advection_run_corrector_step(
    SolveNhReference& self, SolveNhDiagnosticState& diagnostic_state,
    SolveNhPrognosticState& prognostic_state,
    Field& horizontal_kinetic_energy_at_edges_on_model_levels,
    Field& tangential_wind_on_half_levels, double dtime, Vector& cell_areas) {
  const Grid& grid = *self.grid;
  SolveNhStatics& s = self.statics;
  SolveNhLocals& va = self.locals;
  const Domains d = determine_local_domains(grid);
  const VelocityAdvectionScaleFactors factors = scale_factors_by_dtime(dtime);

  {
    ComputeAdvectionInCorrectorVerticalMomentumArgs a;
    Loans lend;
    lend(a.vertical_wind_advective_tendency,
         diagnostic_state.vertical_wind_advective_tendency.corrector);
    lend(a.contravariant_corrected_w_at_cells_on_model_levels,
         va.contravariant_corrected_w_at_cells_on_model_levels);
    lend(a.vertical_cfl, va.vertical_cfl);
    lend(a.w, prognostic_state.w);
    lend(a.tangential_wind_on_half_levels, tangential_wind_on_half_levels);
    lend(a.vn_on_half_levels, diagnostic_state.vn_on_half_levels);
    lend(a.contravariant_correction_at_cells_on_half_levels,
         diagnostic_state.contravariant_correction_at_cells_on_half_levels);
    lend(a.coeff1_dwdz, s.coeff1_dwdz);
    lend(a.coeff2_dwdz, s.coeff2_dwdz);
    lend(a.c_intp, s.c_intp);
    lend(a.inv_dual_edge_length, s.inverse_dual_edge_lengths);
    lend(a.inv_primal_edge_length, s.inverse_primal_edge_lengths);
    lend(a.tangent_orientation, s.tangent_orientation);
    lend(a.e_bln_c_s, s.e_bln_c_s);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    lend(a.area, cell_areas);
    lend(a.geofac_n2s, s.geofac_n2s);
    lend(a.owner_mask, s.owner_mask);
    a.scalfac_exdiff = factors.scalfac_exdiff;
    a.cfl_w_limit = factors.cfl_w_limit;
    a.dtime = dtime;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.horizontal_start = d.start_cell_lateral_boundary_level_4;
    a.horizontal_end = d.end_cell_halo;
    a.vertical_start = 0;
    a.vertical_end = s.nlev;
    compute_advection_in_corrector_vertical_momentum(grid, a);
  }

  reduce_max_vertical_cfl(self, diagnostic_state);

  {
    ComputeAdvectionInHorizontalMomentumArgs a;
    Loans lend;
    lend(a.normal_wind_advective_tendency,
         diagnostic_state.normal_wind_advective_tendency.corrector);
    lend(a.vn, prognostic_state.vn);
    lend(a.horizontal_kinetic_energy_at_edges_on_model_levels,
         horizontal_kinetic_energy_at_edges_on_model_levels);
    lend(a.tangential_wind, diagnostic_state.tangential_wind);
    lend(a.coriolis_frequency, s.coriolis_frequency);
    lend(a.contravariant_corrected_w_at_cells_on_model_levels,
         va.contravariant_corrected_w_at_cells_on_model_levels);
    lend(a.vn_on_half_levels, diagnostic_state.vn_on_half_levels);
    lend(a.e_bln_c_s, s.e_bln_c_s);
    lend(a.geofac_rot, s.geofac_rot);
    lend(a.coeff_gradekin, s.coeff_gradekin);
    lend(a.c_lin_e, s.c_lin_e);
    lend(a.ddqz_z_full_e, s.ddqz_z_full_e);
    lend(a.area_edge, s.edge_areas);
    lend(a.tangent_orientation, s.tangent_orientation);
    lend(a.inv_primal_edge_length, s.inverse_primal_edge_lengths);
    lend(a.geofac_grdiv, s.geofac_grdiv);
    a.cfl_w_limit = factors.cfl_w_limit;
    a.scalfac_exdiff = factors.scalfac_exdiff;
    a.dtime = dtime;
    a.apply_extra_diffusion_on_vn = true;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.horizontal_start = d.start_edge_nudging_level_2;
    a.horizontal_end = d.end_edge_local;
    a.vertical_start = 0;
    a.vertical_end = s.nlev;
    compute_advection_in_horizontal_momentum(grid, a);
  }
}

// ================================================================================================
// SolveNonhydro (solve_nonhydro.py)
// ================================================================================================

/// SolveNonhydro.run_predictor_step.
void run_predictor_step(SolveNhReference& self, SolveNhDiagnosticState& diagnostic_state_nh,
                        SolveNhPrognosticState& current, SolveNhPrognosticState& next, double dtime,
                        bool at_initial_timestep, bool at_first_substep, bool is_iau_active,
                        double iau_wgt_dyn) {
  const Grid& grid = *self.grid;
  SolveNhStatics& s = self.statics;
  SolveNhLocals& z = self.locals;  // SolveNonhydro's locals and its z_fields (IntermediateFields)
  const Domains d = determine_local_domains(grid);
  const int nlev = s.nlev;

  if (at_first_substep) {
    // Recompute only vn tendency
    const bool skip_compute_predictor_vertical_advection =
        self.config.itime_scheme == 4 && !(at_initial_timestep && at_first_substep);
    velocity_advection_run_predictor_step(self, skip_compute_predictor_vertical_advection,
                                          diagnostic_state_nh, current,
                                          z.contravariant_correction_at_edges_on_model_levels,
                                          z.horizontal_kinetic_energy_at_edges_on_model_levels,
                                          z.tangential_wind_on_half_levels, dtime, s.area);
  }

  {
    ComputePerturbedQuantitiesAndInterpolationArgs a;
    Loans lend;
    lend(a.temporal_extrapolation_of_perturbed_exner, z.temporal_extrapolation_of_perturbed_exner);
    lend(a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
         z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
    lend(a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
         z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
    lend(a.perturbed_exner_at_cells_on_model_levels,
         diagnostic_state_nh.perturbed_exner_at_cells_on_model_levels);
    lend(a.exner_at_cells_on_half_levels, z.exner_at_cells_on_half_levels);
    lend(a.perturbed_rho_at_cells_on_model_levels, z.perturbed_rho_at_cells_on_model_levels);
    lend(a.perturbed_theta_v_at_cells_on_model_levels,
         z.perturbed_theta_v_at_cells_on_model_levels);
    lend(a.rho_at_cells_on_half_levels, diagnostic_state_nh.rho_at_cells_on_half_levels);
    lend(a.perturbed_theta_v_at_cells_on_half_levels, z.perturbed_theta_v_at_cells_on_half_levels);
    lend(a.theta_v_at_cells_on_half_levels, diagnostic_state_nh.theta_v_at_cells_on_half_levels);
    lend(a.current_rho, current.rho);
    lend(a.reference_rho_at_cells_on_model_levels, s.reference_rho_at_cells_on_model_levels);
    lend(a.current_theta_v, current.theta_v);
    lend(a.reference_theta_at_cells_on_model_levels, s.reference_theta_at_cells_on_model_levels);
    lend(a.reference_theta_at_cells_on_half_levels, s.reference_theta_at_cells_on_half_levels);
    lend(a.wgtfacq_c, s.wgtfacq_c);
    lend(a.wgtfac_c, s.wgtfac_c);
    lend(a.exner_w_explicit_weight_parameter, s.exner_w_explicit_weight_parameter);
    lend(a.ddz_of_reference_exner_at_cells_on_half_levels,
         s.ddz_of_reference_exner_at_cells_on_half_levels);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    lend(a.nonhydro_buoy_at_cells_on_half_levels, z.nonhydro_buoy_at_cells_on_half_levels);
    lend(a.time_extrapolation_parameter_for_exner, s.time_extrapolation_parameter_for_exner);
    lend(a.current_exner, current.exner);
    lend(a.reference_exner_at_cells_on_model_levels, s.reference_exner_at_cells_on_model_levels);
    lend(a.inv_ddqz_z_full, s.inv_ddqz_z_full);
    lend(a.d2dexdz2_fac1_mc, s.d2dexdz2_fac1_mc);
    lend(a.d2dexdz2_fac2_mc, s.d2dexdz2_fac2_mc);
    a.igradp_method = self.config.igradp_method;
    a.nflatlev = s.nflatlev;
    a.nflat_gradp = s.nflat_gradp;
    a.start_cell_lateral_boundary = d.start_cell_lateral_boundary;
    a.start_cell_lateral_boundary_level_3 = d.start_cell_lateral_boundary_level_3;
    a.start_cell_halo_level_2 = d.start_cell_halo_level_2;
    a.end_cell_halo = d.end_cell_halo;
    a.end_cell_halo_level_2 = d.end_cell_halo_level_2;
    a.model_top = 0;
    a.surface_level = nlev + 1;
    compute_perturbed_quantities_and_interpolation(grid, a);
  }

  // predictor: start stencil compute_rho_theta_pgrad_and_update_vn
  {
    ComputeHydrostaticCorrectionTermArgs a;
    Loans lend;
    lend(a.theta_v, current.theta_v);
    lend(a.ikoffset, s.vertoffset_gradp);
    lend(a.zdiff_gradp, s.zdiff_gradp);
    lend(a.theta_v_ic, diagnostic_state_nh.theta_v_at_cells_on_half_levels);
    lend(a.inv_ddqz_z_full, s.inv_ddqz_z_full);
    lend(a.inv_dual_edge_length, s.inverse_dual_edge_lengths);
    a.grav_o_cpd = reference::grav_o_cpd;
    lend(a.z_hydro_corr, z.hydrostatic_correction_on_lowest_level);
    a.horizontal_start = d.start_edge_nudging_level_2;
    a.horizontal_end = d.end_edge_local;
    a.vertical_start = nlev - 1;
    a.vertical_end = nlev;
    compute_hydrostatic_correction_term(grid, a);
  }

  {
    ComputeRhoThetaPgradAndUpdateVnArgs a;
    Loans lend;
    lend(a.rho_at_edges_on_model_levels, z.rho_at_edges_on_model_levels);
    lend(a.theta_v_at_edges_on_model_levels, z.theta_v_at_edges_on_model_levels);
    lend(a.horizontal_pressure_gradient, z.horizontal_pressure_gradient);
    lend(a.next_vn, next.vn);
    lend(a.current_vn, current.vn);
    lend(a.tangential_wind, diagnostic_state_nh.tangential_wind);
    lend(a.reference_rho_at_edges_on_model_levels, s.reference_rho_at_edges_on_model_levels);
    lend(a.reference_theta_at_edges_on_model_levels, s.reference_theta_at_edges_on_model_levels);
    lend(a.perturbed_rho_at_cells_on_model_levels, z.perturbed_rho_at_cells_on_model_levels);
    lend(a.perturbed_theta_v_at_cells_on_model_levels,
         z.perturbed_theta_v_at_cells_on_model_levels);
    lend(a.temporal_extrapolation_of_perturbed_exner, z.temporal_extrapolation_of_perturbed_exner);
    lend(a.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
         z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
    lend(a.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
         z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
    // hydrostatic_correction_on_lowest_level_1d_view: the 1-D view of z_hydro_corr's only level.
    a.hydrostatic_correction_on_lowest_level.resize(static_cast<std::size_t>(grid.num_edges));
    for (index_t e = 0; e < grid.num_edges; ++e)
      a.hydrostatic_correction_on_lowest_level[static_cast<std::size_t>(e)] =
          z.hydrostatic_correction_on_lowest_level(e, nlev - 1);
    lend(a.predictor_normal_wind_advective_tendency,
         diagnostic_state_nh.normal_wind_advective_tendency.predictor);
    lend(a.normal_wind_tendency_due_to_slow_physics_process,
         diagnostic_state_nh.normal_wind_tendency_due_to_slow_physics_process);
    lend(a.normal_wind_iau_increment, diagnostic_state_nh.normal_wind_iau_increment);
    lend(a.grf_tend_vn, diagnostic_state_nh.grf_tend_vn);
    lend(a.geofac_grg_x, s.geofac_grg_x);
    lend(a.geofac_grg_y, s.geofac_grg_y);
    lend(a.pos_on_tplane_e_x, s.pos_on_tplane_e_1);
    lend(a.pos_on_tplane_e_y, s.pos_on_tplane_e_2);
    lend(a.primal_normal_cell_x, s.primal_normal_cell_x);
    lend(a.dual_normal_cell_x, s.dual_normal_cell_x);
    lend(a.primal_normal_cell_y, s.primal_normal_cell_y);
    lend(a.dual_normal_cell_y, s.dual_normal_cell_y);
    lend(a.ddxn_z_full, s.ddxn_z_full);
    lend(a.c_lin_e, s.c_lin_e);
    lend(a.ikoffset, s.vertoffset_gradp);
    lend(a.zdiff_gradp, s.zdiff_gradp);
    lend(a.pg_exdist, s.pg_exdist);
    lend(a.inv_dual_edge_length, s.inverse_dual_edge_lengths);
    a.dtime = dtime;
    a.is_iau_active = is_iau_active;
    a.iau_wgt_dyn = iau_wgt_dyn;
    a.limited_area = grid.limited_area;
    a.nflatlev = s.nflatlev;
    a.nflat_gradp = s.nflat_gradp;
    a.start_edge_lateral_boundary = d.start_edge_lateral_boundary;
    a.start_edge_lateral_boundary_level_7 = d.start_edge_lateral_boundary_level_7;
    a.start_edge_nudging_level_2 = d.start_edge_nudging_level_2;
    a.end_edge_nudging = d.end_edge_nudging;
    a.end_edge_halo = d.end_edge_halo;
    a.horizontal_start = 0;
    a.horizontal_end = d.end_edge_halo_level_2;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    compute_rho_theta_pgrad_and_update_vn(grid, a);
  }

  // exchange(EdgeDim, next.vn, z_fields.rho_at_edges_on_model_levels): a no-op on one rank.

  {
    ComputeHorizontalVelocityQuantitiesAndFluxesArgs a;
    Loans lend;
    lend(a.spatially_averaged_vn, z.z_vn_avg);
    lend(a.horizontal_gradient_of_normal_wind_divergence,
         z.horizontal_gradient_of_normal_wind_divergence);
    lend(a.tangential_wind, diagnostic_state_nh.tangential_wind);
    lend(a.mass_flux_at_edges_on_model_levels,
         diagnostic_state_nh.mass_flux_at_edges_on_model_levels);
    lend(a.theta_v_flux_at_edges_on_model_levels, z.theta_v_flux_at_edges_on_model_levels);
    lend(a.tangential_wind_on_half_levels, z.tangential_wind_on_half_levels);
    lend(a.vn_on_half_levels, diagnostic_state_nh.vn_on_half_levels);
    lend(a.horizontal_kinetic_energy_at_edges_on_model_levels,
         z.horizontal_kinetic_energy_at_edges_on_model_levels);
    lend(a.contravariant_correction_at_edges_on_model_levels,
         z.contravariant_correction_at_edges_on_model_levels);
    lend(a.vn, next.vn);
    lend(a.e_flx_avg, s.e_flx_avg);
    lend(a.geofac_grdiv, s.geofac_grdiv);
    lend(a.rbf_vec_coeff_e, s.rbf_vec_coeff_e);
    lend(a.rho_at_edges_on_model_levels, z.rho_at_edges_on_model_levels);
    lend(a.theta_v_at_edges_on_model_levels, z.theta_v_at_edges_on_model_levels);
    lend(a.ddqz_z_full_e, s.ddqz_z_full_e);
    lend(a.ddxn_z_full, s.ddxn_z_full);
    lend(a.ddxt_z_full, s.ddxt_z_full);
    lend(a.wgtfac_e, s.wgtfac_e);
    lend(a.wgtfacq_e, s.wgtfacq_e);
    a.nflatlev = s.nflatlev;
    a.horizontal_start = d.start_edge_lateral_boundary_level_5;
    a.horizontal_end = d.end_edge_halo_level_2;
    a.vertical_start = 0;
    a.vertical_end = nlev + 1;
    compute_horizontal_velocity_quantities_and_fluxes(grid, a);
  }

  {
    VerticallyImplicitSolverAtPredictorStepArgs a;
    // rayleigh_damping_factor=self._get_rayleigh_damping_factor(dtime), evaluated with the
    // other keyword arguments before the call.
    a.rayleigh_damping_factor = get_rayleigh_damping_factor(self, dtime);
    Loans lend;
    lend(a.contravariant_correction_at_cells_on_half_levels,
         diagnostic_state_nh.contravariant_correction_at_cells_on_half_levels);
    lend(a.next_w, next.w);
    lend(a.next_rho, next.rho);
    lend(a.next_exner, next.exner);
    lend(a.next_theta_v, next.theta_v);
    lend(a.dwdz_at_cells_on_model_levels, z.dwdz_at_cells_on_model_levels);
    lend(a.exner_dynamical_increment, diagnostic_state_nh.exner_dynamical_increment);
    lend(a.geofac_div, s.geofac_div);
    lend(a.mass_flux_at_edges_on_model_levels,
         diagnostic_state_nh.mass_flux_at_edges_on_model_levels);
    lend(a.theta_v_flux_at_edges_on_model_levels, z.theta_v_flux_at_edges_on_model_levels);
    lend(a.predictor_vertical_wind_advective_tendency,
         diagnostic_state_nh.vertical_wind_advective_tendency.predictor);
    lend(a.nonhydro_buoy_at_cells_on_half_levels, z.nonhydro_buoy_at_cells_on_half_levels);
    lend(a.rho_at_cells_on_half_levels, diagnostic_state_nh.rho_at_cells_on_half_levels);
    lend(a.contravariant_correction_at_edges_on_model_levels,
         z.contravariant_correction_at_edges_on_model_levels);
    lend(a.exner_w_explicit_weight_parameter, s.exner_w_explicit_weight_parameter);
    lend(a.current_exner, current.exner);
    lend(a.current_rho, current.rho);
    lend(a.current_theta_v, current.theta_v);
    lend(a.current_w, current.w);
    lend(a.inv_ddqz_z_full, s.inv_ddqz_z_full);
    lend(a.exner_w_implicit_weight_parameter, s.exner_w_implicit_weight_parameter);
    lend(a.theta_v_at_cells_on_half_levels, diagnostic_state_nh.theta_v_at_cells_on_half_levels);
    lend(a.perturbed_exner_at_cells_on_model_levels,
         diagnostic_state_nh.perturbed_exner_at_cells_on_model_levels);
    lend(a.exner_tendency_due_to_slow_physics,
         diagnostic_state_nh.exner_tendency_due_to_slow_physics);
    lend(a.rho_iau_increment, diagnostic_state_nh.rho_iau_increment);
    lend(a.exner_iau_increment, diagnostic_state_nh.exner_iau_increment);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    lend(a.reference_exner_at_cells_on_model_levels, s.reference_exner_at_cells_on_model_levels);
    lend(a.e_bln_c_s, s.e_bln_c_s);
    lend(a.wgtfac_c, s.wgtfac_c);
    lend(a.wgtfacq_c, s.wgtfacq_c);
    a.iau_wgt_dyn = iau_wgt_dyn;
    a.dtime = dtime;
    a.is_iau_active = is_iau_active;
    a.rayleigh_type = self.config.rayleigh_type;
    a.divdamp_type = self.config.divdamp_type;
    a.at_first_substep = at_first_substep;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.kstart_moist = s.kstart_moist;
    a.flat_level_index_plus1 = s.nflatlev + 1;
    a.start_cell_index_nudging = d.start_cell_nudging;
    a.end_cell_index_local = d.end_cell_local;
    a.start_cell_index_lateral_lvl3 = d.start_cell_lateral_boundary_level_3;
    a.end_cell_index_halo_lvl1 = d.end_cell_halo;
    a.vertical_start_index_model_top = 0;
    a.vertical_end_index_model_surface = nlev + 1;
    vertically_implicit_solver_at_predictor_step(grid, a);
  }

  if (grid.limited_area) {
    Stencils6162Args a;
    Loans lend;
    lend(a.rho_now, current.rho);
    lend(a.grf_tend_rho, diagnostic_state_nh.grf_tend_rho);
    lend(a.theta_v_now, current.theta_v);
    lend(a.grf_tend_thv, diagnostic_state_nh.grf_tend_thv);
    lend(a.w_now, current.w);
    lend(a.grf_tend_w, diagnostic_state_nh.grf_tend_w);
    lend(a.rho_new, next.rho);
    lend(a.exner_new, next.exner);
    lend(a.w_new, next.w);
    a.dtime = dtime;
    a.horizontal_start = d.start_cell_lateral_boundary;
    a.horizontal_end = d.end_cell_lateral_boundary_level_4;
    a.vertical_start = 0;
    a.vertical_end = nlev + 1;
    stencils_61_62(grid, a);
  }

  if (grid.limited_area && self.config.divdamp_type >= 3) {
    ComputeDwdzForDivergenceDampingArgs a;
    Loans lend;
    lend(a.inv_ddqz_z_full, s.inv_ddqz_z_full);
    lend(a.w, next.w);
    lend(a.w_concorr_c, diagnostic_state_nh.contravariant_correction_at_cells_on_half_levels);
    lend(a.z_dwdz_dd, z.dwdz_at_cells_on_model_levels);
    a.horizontal_start = d.start_cell_lateral_boundary;
    a.horizontal_end = d.end_cell_lateral_boundary_level_4;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    compute_dwdz_for_divergence_damping(grid, a);
  }

  // divdamp_type >= 3: exchange(CellDim, next.w, z_fields.dwdz_at_cells_on_model_levels), else
  // exchange(CellDim, next.w): a no-op on one rank.
}

/// SolveNonhydro.run_corrector_step.
void run_corrector_step(SolveNhReference& self, SolveNhDiagnosticState& diagnostic_state_nh,
                        SolveNhPrognosticState& current, SolveNhPrognosticState& next,
                        double second_order_divdamp_factor, SolveNhPrepAdvection& prep_adv,
                        double dtime, int ndyn_substeps_var, bool lprep_adv, bool at_first_substep,
                        bool at_last_substep, bool is_iau_active, double iau_wgt_dyn) {
  const Grid& grid = *self.grid;
  SolveNhStatics& s = self.statics;
  SolveNhLocals& z = self.locals;
  const SolveNhConfig& config = self.config;
  const Domains d = determine_local_domains(grid);
  const int nlev = s.nlev;
  // NonHydrostaticParams
  const double advection_explicit_weight_parameter = 0.5 - config.veladv_offctr;
  const double advection_implicit_weight_parameter = 0.5 + config.veladv_offctr;
  const double rhotheta_implicit_weight_parameter = 0.5 + config.rhotheta_offctr;
  const double rhotheta_explicit_weight_parameter = 1.0 - rhotheta_implicit_weight_parameter;

  // Inverse value of ndyn_substeps for tracer advection precomputations
  const double r_nsubsteps = 1.0 / ndyn_substeps_var;

  // scaling factor for second-order divergence damping:
  // second_order_divdamp_factor_from_sfc_to_divdamp_z*delta_x**2, delta_x**2 is approximated by
  // the mean cell area
  const double second_order_divdamp_scaling_coeff = second_order_divdamp_factor * s.mean_cell_area;

  // corrector run velocity advection
  velocity_advection_run_corrector_step(self, diagnostic_state_nh, next,
                                        z.horizontal_kinetic_energy_at_edges_on_model_levels,
                                        z.tangential_wind_on_half_levels, dtime, s.area);

  {
    ComputeInterpolationAndNonhydroBuoyArgs a;
    Loans lend;
    lend(a.rho_at_cells_on_half_levels, diagnostic_state_nh.rho_at_cells_on_half_levels);
    lend(a.perturbed_theta_v_at_cells_on_half_levels, z.perturbed_theta_v_at_cells_on_half_levels);
    lend(a.theta_v_at_cells_on_half_levels, diagnostic_state_nh.theta_v_at_cells_on_half_levels);
    lend(a.nonhydro_buoy_at_cells_on_half_levels, z.nonhydro_buoy_at_cells_on_half_levels);
    lend(a.w, next.w);
    lend(a.contravariant_correction_at_cells_on_half_levels,
         diagnostic_state_nh.contravariant_correction_at_cells_on_half_levels);
    lend(a.current_rho, current.rho);
    lend(a.next_rho, next.rho);
    lend(a.current_theta_v, current.theta_v);
    lend(a.next_theta_v, next.theta_v);
    lend(a.perturbed_exner_at_cells_on_model_levels,
         diagnostic_state_nh.perturbed_exner_at_cells_on_model_levels);
    lend(a.reference_theta_at_cells_on_model_levels, s.reference_theta_at_cells_on_model_levels);
    lend(a.ddz_of_reference_exner_at_cells_on_half_levels,
         s.ddz_of_reference_exner_at_cells_on_half_levels);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    lend(a.wgtfac_c, s.wgtfac_c);
    lend(a.exner_w_explicit_weight_parameter, s.exner_w_explicit_weight_parameter);
    a.dtime = dtime;
    a.rhotheta_explicit_weight_parameter = rhotheta_explicit_weight_parameter;
    a.rhotheta_implicit_weight_parameter = rhotheta_implicit_weight_parameter;
    a.horizontal_start = d.start_cell_lateral_boundary_level_3;
    a.horizontal_end = d.end_cell_local;
    a.vertical_start = 1;
    a.vertical_end = nlev;
    compute_interpolation_and_nonhydro_buoy(grid, a);
  }

  // corrector: start stencil apply_divergence_damping_and_update_vn
  const bool apply_2nd_order_divergence_damping =
      config.divdamp_order == 2 ||
      (config.divdamp_order == 24 && second_order_divdamp_scaling_coeff > 1.0e-6);
  const bool apply_4th_order_divergence_damping =
      config.divdamp_order == 4 ||
      (config.divdamp_order == 24 &&
       second_order_divdamp_factor <= (4.0 * config.fourth_order_divdamp_factor));

  {
    ApplyDivergenceDampingAndUpdateVnArgs a;
    Loans lend;
    lend(a.horizontal_gradient_of_normal_wind_divergence,
         z.horizontal_gradient_of_normal_wind_divergence);
    lend(a.next_vn, next.vn);
    lend(a.current_vn, current.vn);
    lend(a.dwdz_at_cells_on_model_levels, z.dwdz_at_cells_on_model_levels);
    lend(a.predictor_normal_wind_advective_tendency,
         diagnostic_state_nh.normal_wind_advective_tendency.predictor);
    lend(a.corrector_normal_wind_advective_tendency,
         diagnostic_state_nh.normal_wind_advective_tendency.corrector);
    lend(a.normal_wind_tendency_due_to_slow_physics_process,
         diagnostic_state_nh.normal_wind_tendency_due_to_slow_physics_process);
    lend(a.normal_wind_iau_increment, diagnostic_state_nh.normal_wind_iau_increment);
    a.second_order_divdamp_scaling_coeff = second_order_divdamp_scaling_coeff;
    lend(a.theta_v_at_edges_on_model_levels, z.theta_v_at_edges_on_model_levels);
    lend(a.horizontal_pressure_gradient, z.horizontal_pressure_gradient);
    lend(a.horizontal_mask_for_3d_divdamp, s.horizontal_mask_for_3d_divdamp);
    lend(a.scaling_factor_for_3d_divdamp, s.scaling_factor_for_3d_divdamp);
    lend(a.inv_dual_edge_length, s.inverse_dual_edge_lengths);
    lend(a.nudgecoeff_e, s.nudgecoeff_e);
    lend(a.geofac_grdiv, s.geofac_grdiv);
    lend(a.interpolated_fourth_order_divdamp_factor, z.interpolated_fourth_order_divdamp_factor);
    a.advection_explicit_weight_parameter = advection_explicit_weight_parameter;
    a.advection_implicit_weight_parameter = advection_implicit_weight_parameter;
    a.dtime = dtime;
    a.is_iau_active = is_iau_active;
    a.iau_wgt_dyn = iau_wgt_dyn;
    a.limited_area = grid.limited_area;
    a.apply_2nd_order_divergence_damping = apply_2nd_order_divergence_damping;
    a.apply_4th_order_divergence_damping = apply_4th_order_divergence_damping;
    a.divdamp_order = config.divdamp_order;
    a.mean_cell_area = s.mean_cell_area;
    a.second_order_divdamp_factor = second_order_divdamp_factor;
    a.max_nudging_coefficient = config.max_nudging_coefficient;
    a.dbl_eps = reference::dbl_eps;
    a.horizontal_start = d.start_edge_nudging_level_2;
    a.horizontal_end = d.end_edge_local;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    apply_divergence_damping_and_update_vn(grid, a);
  }

  // exchange(EdgeDim, next.vn): a no-op on one rank.

  {
    ComputeAveragedVnAndFluxesArgs a;
    Loans lend;
    lend(a.spatially_averaged_vn, z.z_vn_avg);
    lend(a.mass_flux_at_edges_on_model_levels,
         diagnostic_state_nh.mass_flux_at_edges_on_model_levels);
    lend(a.theta_v_flux_at_edges_on_model_levels, z.theta_v_flux_at_edges_on_model_levels);
    lend(a.substep_and_spatially_averaged_vn, prep_adv.vn_traj);
    lend(a.substep_averaged_mass_flux, prep_adv.mass_flx_me);
    lend(a.e_flx_avg, s.e_flx_avg);
    lend(a.vn, next.vn);
    lend(a.rho_at_edges_on_model_levels, z.rho_at_edges_on_model_levels);
    lend(a.ddqz_z_full_e, s.ddqz_z_full_e);
    lend(a.theta_v_at_edges_on_model_levels, z.theta_v_at_edges_on_model_levels);
    a.prepare_advection = lprep_adv;
    a.at_first_substep = at_first_substep;
    a.r_nsubsteps = r_nsubsteps;
    a.horizontal_start = d.start_edge_lateral_boundary_level_5;
    a.horizontal_end = d.end_edge_halo_level_2;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    compute_averaged_vn_and_fluxes(grid, a);
  }

  {
    VerticallyImplicitSolverAtCorrectorStepArgs a;
    Loans lend;
    lend(a.next_w, next.w);
    lend(a.next_rho, next.rho);
    lend(a.next_exner, next.exner);
    lend(a.next_theta_v, next.theta_v);
    lend(a.dynamical_vertical_mass_flux_at_cells_on_half_levels,
         prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels);
    lend(a.dynamical_vertical_volumetric_flux_at_cells_on_half_levels,
         prep_adv.dynamical_vertical_volumetric_flux_at_cells_on_half_levels);
    lend(a.exner_dynamical_increment, diagnostic_state_nh.exner_dynamical_increment);
    lend(a.geofac_div, s.geofac_div);
    lend(a.mass_flux_at_edges_on_model_levels,
         diagnostic_state_nh.mass_flux_at_edges_on_model_levels);
    lend(a.theta_v_flux_at_edges_on_model_levels, z.theta_v_flux_at_edges_on_model_levels);
    lend(a.predictor_vertical_wind_advective_tendency,
         diagnostic_state_nh.vertical_wind_advective_tendency.predictor);
    lend(a.corrector_vertical_wind_advective_tendency,
         diagnostic_state_nh.vertical_wind_advective_tendency.corrector);
    lend(a.nonhydro_buoy_at_cells_on_half_levels, z.nonhydro_buoy_at_cells_on_half_levels);
    lend(a.rho_at_cells_on_half_levels, diagnostic_state_nh.rho_at_cells_on_half_levels);
    lend(a.contravariant_correction_at_cells_on_half_levels,
         diagnostic_state_nh.contravariant_correction_at_cells_on_half_levels);
    lend(a.exner_w_explicit_weight_parameter, s.exner_w_explicit_weight_parameter);
    lend(a.current_exner, current.exner);
    lend(a.current_rho, current.rho);
    lend(a.current_theta_v, current.theta_v);
    lend(a.current_w, current.w);
    lend(a.inv_ddqz_z_full, s.inv_ddqz_z_full);
    lend(a.exner_w_implicit_weight_parameter, s.exner_w_implicit_weight_parameter);
    lend(a.theta_v_at_cells_on_half_levels, diagnostic_state_nh.theta_v_at_cells_on_half_levels);
    lend(a.perturbed_exner_at_cells_on_model_levels,
         diagnostic_state_nh.perturbed_exner_at_cells_on_model_levels);
    lend(a.exner_tendency_due_to_slow_physics,
         diagnostic_state_nh.exner_tendency_due_to_slow_physics);
    lend(a.rho_iau_increment, diagnostic_state_nh.rho_iau_increment);
    lend(a.exner_iau_increment, diagnostic_state_nh.exner_iau_increment);
    lend(a.ddqz_z_half, s.ddqz_z_half);
    a.rayleigh_damping_factor = get_rayleigh_damping_factor(self, dtime);
    lend(a.reference_exner_at_cells_on_model_levels, s.reference_exner_at_cells_on_model_levels);
    a.advection_explicit_weight_parameter = advection_explicit_weight_parameter;
    a.advection_implicit_weight_parameter = advection_implicit_weight_parameter;
    a.lprep_adv = lprep_adv;
    a.r_nsubsteps = r_nsubsteps;
    a.ndyn_substeps_var = static_cast<double>(ndyn_substeps_var);  // float(ndyn_substeps_var)
    a.iau_wgt_dyn = iau_wgt_dyn;
    a.dtime = dtime;
    a.is_iau_active = is_iau_active;
    a.rayleigh_type = config.rayleigh_type;
    a.at_first_substep = at_first_substep;
    a.at_last_substep = at_last_substep;
    a.end_index_of_damping_layer = s.end_index_of_damping_layer;
    a.kstart_moist = s.kstart_moist;
    a.start_cell_index_nudging = d.start_cell_nudging;
    a.end_cell_index_local = d.end_cell_local;
    a.vertical_start_index_model_top = 0;
    a.vertical_end_index_model_surface = nlev + 1;
    vertically_implicit_solver_at_corrector_step(grid, a);
  }

  // prepare flux field for tracer advection on lateral boundary, if exists
  if (grid.limited_area) {
    if (lprep_adv) {
      if (at_first_substep) {
        InitCellKdimFieldWithZeroWpArgs a;
        Loans lend;
        lend(a.field_with_zero_wp, prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels);
        a.horizontal_start = d.start_cell_lateral_boundary;
        a.horizontal_end = d.end_cell_lateral_boundary_level_4;
        a.vertical_start = 0;
        a.vertical_end = nlev + 1;
        init_cell_kdim_field_with_zero_wp(grid, a);
      }
      UpdateMassFluxWeightedArgs a;
      Loans lend;
      lend(a.rho_ic, diagnostic_state_nh.rho_at_cells_on_half_levels);
      lend(a.vwind_expl_wgt, s.exner_w_explicit_weight_parameter);
      lend(a.vwind_impl_wgt, s.exner_w_implicit_weight_parameter);
      lend(a.w_now, current.w);
      lend(a.w_new, next.w);
      lend(a.w_concorr_c, diagnostic_state_nh.contravariant_correction_at_cells_on_half_levels);
      lend(a.mass_flx_ic, prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels);
      a.r_nsubsteps = r_nsubsteps;
      a.horizontal_start = d.start_cell_lateral_boundary;
      a.horizontal_end = d.end_cell_lateral_boundary_level_4;
      a.vertical_start = 0;
      a.vertical_end = nlev;
      update_mass_flux_weighted(grid, a);
    }
  }

  // exchange(CellDim, next.rho, next.exner, next.w): a no-op on one rank.
}

void check_statics(const Grid& g, const SolveNhStatics& s) {
  const char* fn = "make_solve_nh_reference";
  const int nlev = s.nlev;
  if (nlev < 4) bad_argument(fn, cat("nlev = ", nlev, ": at least 4 levels are needed"));
  const index_t nc = g.num_cells, ne = g.num_edges;
  check_size(fn, "interface_physical_height", s.interface_physical_height.size(),
             static_cast<std::size_t>(nlev) + 1);
  check_size(fn, "rayleigh_w", s.rayleigh_w.size(), static_cast<std::size_t>(nlev) + 1);
  check_size(fn, "scaling_factor_for_3d_divdamp", s.scaling_factor_for_3d_divdamp.size(),
             static_cast<std::size_t>(nlev));
  check_size(fn, "mask_prog_halo_c", s.mask_prog_halo_c.size(), static_cast<std::size_t>(nc));
  check_size(fn, "owner_mask", s.owner_mask.size(), static_cast<std::size_t>(nc));
  check_size(fn, "area", s.area.size(), static_cast<std::size_t>(nc));
  check_shape(fn, "wgtfac_c", s.wgtfac_c, nc, nlev + 1);
  check_shape(fn, "wgtfac_e", s.wgtfac_e, ne, nlev + 1);
  check_shape(fn, "ddqz_z_half", s.ddqz_z_half, nc, nlev + 1);
  check_shape(fn, "inv_ddqz_z_full", s.inv_ddqz_z_full, nc, nlev);
  check_shape(fn, "ddqz_z_full_e", s.ddqz_z_full_e, ne, nlev);
  // The other shapes are checked by the program references where they are read.
}

}  // namespace

void PredictorCorrectorPair::swap() {
  std::swap(predictor, corrector);
}

Vector en_smag_fac_for_zero_nshift(const Vector& vect_a, double hdiff_smag_fac,
                                   double hdiff_smag_fac2, double hdiff_smag_fac3,
                                   double hdiff_smag_fac4, double hdiff_smag_z,
                                   double hdiff_smag_z2, double hdiff_smag_z3,
                                   double hdiff_smag_z4) {
  if (vect_a.size() < 2)
    bad_argument("en_smag_fac_for_zero_nshift", "vect_a needs at least 2 values");
  const double dz21 = hdiff_smag_z2 - hdiff_smag_z;
  const double alin = (hdiff_smag_fac2 - hdiff_smag_fac) / dz21;
  const double df32 = hdiff_smag_fac3 - hdiff_smag_fac2;
  const double df42 = hdiff_smag_fac4 - hdiff_smag_fac2;
  const double dz32 = hdiff_smag_z3 - hdiff_smag_z2;
  const double dz42 = hdiff_smag_z4 - hdiff_smag_z2;

  const double bqdr = (df42 * dz32 - df32 * dz42) / (dz32 * dz42 * (dz42 - dz32));
  const double aqdr = df32 / dz32 - bqdr * dz32;
  // The program's domain is its output's, KDim [0, nlev): vect_a(Koff[1]) reads up to nlev.
  Vector enh_smag_fac(vect_a.size() - 1);
  for (std::size_t k = 0; k + 1 < vect_a.size(); ++k) {
    const double zf = 0.5 * (vect_a[k] + vect_a[k + 1]);
    const double dzlin = std::min(dz21, std::max(0.0, zf - hdiff_smag_z));
    const double dzqdr = std::min(dz42, std::max(0.0, zf - hdiff_smag_z2));
    enh_smag_fac[k] = hdiff_smag_fac + (dzlin * alin) + dzqdr * (aqdr + dzqdr * bqdr);
  }
  return enh_smag_fac;
}

SolveNhReference make_solve_nh_reference(const Grid& grid, const SolveNhConfig& config,
                                         SolveNhStatics statics) {
  const char* fn = "make_solve_nh_reference";
  // NonHydrostaticConfig._validate (the options this reference reads).
  if (config.igradp_method != 3) bad_argument(fn, "igradp_method can only be 3");
  if (config.itime_scheme != 4) bad_argument(fn, "itime_scheme can only be 4");
  if (config.divdamp_type == 2) bad_argument(fn, "divdamp_type 2 is not implemented");
  if (config.rayleigh_type != rayleigh_type_klemp)
    bad_argument(fn, "only the Klemp Rayleigh damping (rayleigh_type 2) is implemented");
  check_statics(grid, statics);

  SolveNhReference self;
  self.grid = &grid;
  self.config = config;
  self.statics = std::move(statics);
  const int nlev = self.statics.nlev;
  const index_t nc = grid.num_cells, ne = grid.num_edges;

  // _allocate_local_fields (zero fields; extend={KDim: 1} gives nlev+1 levels).
  SolveNhLocals& z = self.locals;
  z.temporal_extrapolation_of_perturbed_exner = Field(nc, nlev + 1);
  z.exner_at_cells_on_half_levels = Field(nc, nlev + 1);
  z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = Field(nc, nlev);
  z.perturbed_theta_v_at_cells_on_half_levels = Field(nc, nlev + 1);
  z.nonhydro_buoy_at_cells_on_half_levels = Field(nc, nlev);
  z.perturbed_rho_at_cells_on_model_levels = Field(nc, nlev);
  z.perturbed_theta_v_at_cells_on_model_levels = Field(nc, nlev);
  z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels = Field(nc, nlev);
  z.z_vn_avg = Field(ne, nlev);
  z.theta_v_flux_at_edges_on_model_levels = Field(ne, nlev);
  // z_rho_v, z_theta_v_v (vertices) and k_field are allocated by ICON4Py but never used.
  z.contravariant_correction_at_edges_on_model_levels = Field(ne, nlev);
  z.hydrostatic_correction_on_lowest_level = Field(ne, nlev);
  z.rayleigh_damping_factor.assign(static_cast<std::size_t>(nlev), 0.0);
  z.interpolated_fourth_order_divdamp_factor.assign(static_cast<std::size_t>(nlev), 0.0);
  // IntermediateFields.allocate
  z.horizontal_pressure_gradient = Field(ne, nlev);
  z.rho_at_edges_on_model_levels = Field(ne, nlev);
  z.theta_v_at_edges_on_model_levels = Field(ne, nlev);
  z.horizontal_gradient_of_normal_wind_divergence = Field(ne, nlev);
  z.dwdz_at_cells_on_model_levels = Field(nc, nlev);
  z.horizontal_kinetic_energy_at_edges_on_model_levels = Field(ne, nlev);
  z.tangential_wind_on_half_levels = Field(ne, nlev);
  // VelocityAdvection._allocate_local_fields
  z.horizontal_advection_of_w_at_edges_on_half_levels = Field(ne, nlev);
  z.contravariant_corrected_w_at_cells_on_model_levels = Field(nc, nlev);
  z.vertical_cfl = Field(nc, nlev);

  // self._en_smag_fac_for_zero_nshift(enh_smag_fac=self.interpolated_fourth_order_divdamp_factor)
  z.interpolated_fourth_order_divdamp_factor = en_smag_fac_for_zero_nshift(
      self.statics.interface_physical_height, config.fourth_order_divdamp_factor,
      config.fourth_order_divdamp_factor2, config.fourth_order_divdamp_factor3,
      config.fourth_order_divdamp_factor4, config.fourth_order_divdamp_z,
      config.fourth_order_divdamp_z2, config.fourth_order_divdamp_z3,
      config.fourth_order_divdamp_z4);

  self.dtime_previous_substep = 0.0;
  return self;
}

void solve_nh_time_step(SolveNhReference& self, SolveNhDiagnosticState& diagnostic,
                        SolveNhPrognosticState& current, SolveNhPrognosticState& next,
                        SolveNhPrepAdvection& prep_adv, const SolveNhTimeStepArgs& args) {
  const char* fn = "solve_nh_time_step";
  if (self.grid == nullptr) bad_argument(fn, "the reference has no grid (make_solve_nh_reference)");
  const Grid& grid = *self.grid;
  const int nlev = self.statics.nlev;
  const index_t nc = grid.num_cells, ne = grid.num_edges;
  for (const SolveNhPrognosticState* p : {&current, &next}) {
    check_shape(fn, "w", p->w, nc, nlev + 1);
    check_shape(fn, "vn", p->vn, ne, nlev);
    check_shape(fn, "theta_v", p->theta_v, nc, nlev);
    check_shape(fn, "rho", p->rho, nc, nlev);
    check_shape(fn, "exner", p->exner, nc, nlev);
  }
  if (args.ndyn_substeps_var < 1)
    bad_argument(fn, cat("ndyn_substeps_var = ", args.ndyn_substeps_var));

  // p_test_run is False: _init_test_fields does not run.
  run_predictor_step(self, diagnostic, current, next, args.dtime, args.at_initial_timestep,
                     args.at_first_substep, args.is_iau_active, args.iau_wgt_dyn);

  run_corrector_step(self, diagnostic, current, next, args.second_order_divdamp_factor, prep_adv,
                     args.dtime, args.ndyn_substeps_var, args.lprep_adv, args.at_first_substep,
                     args.at_last_substep, args.is_iau_active, args.iau_wgt_dyn);

  const Domains d = determine_local_domains(grid);
  if (grid.limited_area) {
    ComputeExnerFromRhothetaArgs a;
    Loans lend;
    lend(a.rho, next.rho);
    lend(a.theta_v, next.theta_v);
    lend(a.exner, next.exner);
    a.rd_o_cvd = reference::rd_o_cvd;
    a.rd_o_p0ref = reference::rd_o_p0ref;
    a.horizontal_start = d.start_cell_lateral_boundary;
    a.horizontal_end = d.end_cell_lateral_boundary_level_4;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    compute_exner_from_rhotheta(grid, a);
  }
  {
    UpdateThetaAndExnerInHaloArgs a;
    Loans lend;
    lend(a.mask_prog_halo_c, self.statics.mask_prog_halo_c);
    lend(a.rho_now, current.rho);
    lend(a.rho_new, next.rho);
    lend(a.theta_v_now, current.theta_v);
    lend(a.theta_v_new, next.theta_v);
    lend(a.exner_new, next.exner);
    lend(a.exner_now, current.exner);
    a.horizontal_start = d.start_cell_halo;
    a.horizontal_end = d.end_cell_end;
    a.vertical_start = 0;
    a.vertical_end = nlev;
    update_theta_and_exner_in_halo(grid, a);
  }
}

}  // namespace icondiff::reference
