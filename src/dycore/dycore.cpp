// Dycore<ExecSpace>: validation at construction, then each program as one kernel launch of its
// point body (stencils/compute_edge_diagnostics_for_dycore_and_update_vn.hpp), filled by name
// from the static bundle and the call's arguments.
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/grid/skip_values.hpp>
#include <icondiff/stencils/compute_edge_diagnostics_for_dycore_and_update_vn.hpp>
#include <icondiff/stencils/vertically_implicit_dycore_solver.hpp>

#include <string>

namespace icondiff {

template <class MemorySpace>
void check_dycore_inputs(const DycoreInputs<MemorySpace>& in) {
  if (in.nlev < 1)
    throw InvalidArgument("dycore: nlev = " + std::to_string(in.nlev) + ", expected >= 1");
  if (in.nflatlev < 0 || in.nflatlev >= in.nlev)
    throw InvalidArgument("dycore: nflatlev = " + std::to_string(in.nflatlev) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.nflat_gradp < 0 || in.nflat_gradp >= in.nlev)
    throw InvalidArgument("dycore: nflat_gradp = " + std::to_string(in.nflat_gradp) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.end_index_of_damping_layer < 0 || in.end_index_of_damping_layer >= in.nlev)
    throw InvalidArgument(
        "dycore: end_index_of_damping_layer = " + std::to_string(in.end_index_of_damping_layer) +
        ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.kstart_moist < 0 || in.kstart_moist >= in.nlev)
    throw InvalidArgument("dycore: kstart_moist = " + std::to_string(in.kstart_moist) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.nlev < 3)
    throw InvalidArgument("dycore: nlev = " + std::to_string(in.nlev) +
                          ", expected >= 3 (the surface extrapolation reads three levels)");
  if (!(in.mean_cell_area > 0) || !std::isfinite(in.mean_cell_area))
    throw InvalidArgument("dycore: mean_cell_area = " + std::to_string(in.mean_cell_area) +
                          ", expected a positive area");
  const FieldSizes sizes = in.sizes();
  check_state_extents(in.metric, sizes, "dycore: metric");
  check_state_extents(in.interpolation, sizes, "dycore: interpolation");
  check_state_extents(in.edges, sizes, "dycore: edge");
  if (in.metric.scaling_factor_for_3d_divdamp.extent(0) != static_cast<std::size_t>(in.nlev))
    throw InvalidArgument("dycore: metric scaling_factor_for_3d_divdamp has extents (" +
                          std::to_string(in.metric.scaling_factor_for_3d_divdamp.extent(0)) +
                          "), expected (" + std::to_string(in.nlev) + ")");
  // The pressure gradient reads level k + vertoffset_gradp(e, i, k) of the neighbour cells on
  // every level below nflat_gradp; ICON's metrics keep it inside the column by construction.
  auto offsets =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in.metric.vertoffset_gradp);
  for (int k = in.nflat_gradp + 1; k < in.nlev; ++k)
    for (std::size_t i = 0; i < offsets.extent(1); ++i)
      for (std::size_t e = 0; e < offsets.extent(0); ++e) {
        const int level = k + offsets(e, i, k);
        if (level < 0 || level >= in.nlev)
          throw InvalidArgument("dycore: metric vertoffset_gradp(" + std::to_string(e) + ", " +
                                std::to_string(i) + ", " + std::to_string(k) +
                                ") = " + std::to_string(offsets(e, i, k)) + " points to level " +
                                std::to_string(level) +
                                ", outside [0, nlev = " + std::to_string(in.nlev) + ")");
      }
}

template <class ExecSpace>
Dycore<ExecSpace>::Dycore(const DycoreConfig& config, const DycoreInputs<memory_space>& inputs,
                          const DycoreOptions<ExecSpace>& options)
    : config_(config),
      inputs_(inputs),
      options_(options),
      runner_(options.space, options.schedule) {
  config_.validate();
  check_dycore_inputs(inputs_);
  e2c_ = with_skip_values_replaced(inputs_.grid.e2c, "icondiff::dycore::e2c");
  c2e2co_ = with_skip_values_replaced(inputs_.grid.c2e2co, "icondiff::dycore::c2e2co");
  e2c2eo_ = with_skip_values_replaced(inputs_.grid.e2c2eo, "icondiff::dycore::e2c2eo");
  c2e_ = with_skip_values_replaced(inputs_.grid.c2e, "icondiff::dycore::c2e");
  z_q_ = Kokkos::View<vp**, FieldLayout, memory_space>("icondiff::dycore::z_q",
                                                       inputs_.grid.num_cells, inputs_.nlev);
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::rho_theta_pgrad_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{0, g.range(Location::Edge, Zone::Halo2).end}, 0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::divergence_damping_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::Nudging2).start,
                     g.range(Location::Edge, Zone::Local).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::solver_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::Nudging).start,
                     g.range(Location::Cell, Zone::Local).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::contravariant_correction_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary3).start,
                     g.range(Location::Cell, Zone::Halo).end},
          inputs_.nflatlev + 1, inputs_.nlev + 1};
}

template <class ExecSpace>
void Dycore<ExecSpace>::check_profile(const Kokkos::View<wp*, FieldLayout, memory_space>& profile,
                                      const char* name, const std::string& program) const {
  if (profile.extent(0) != static_cast<std::size_t>(inputs_.nlev))
    throw InvalidArgument(program + " " + name + " has extents (" +
                          std::to_string(profile.extent(0)) + "), expected (" +
                          std::to_string(inputs_.nlev) + ")");
}

template <class ExecSpace>
void Dycore<ExecSpace>::check_domain(const ProgramDomain& domain, const index_t points,
                                     const int levels, const std::string& program) const {
  if (domain.horizontal.start < 0 || domain.horizontal.end > points || domain.vertical_start < 0 ||
      domain.vertical_end > levels)
    throw InvalidArgument(
        "dycore: " + program + " domain [" + std::to_string(domain.horizontal.start) + ", " +
        std::to_string(domain.horizontal.end) + ") x [" + std::to_string(domain.vertical_start) +
        ", " + std::to_string(domain.vertical_end) + ") lies outside the grid (" +
        std::to_string(points) + " points, " + std::to_string(levels) + " levels)");
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_rho_theta_pgrad_and_update_vn(
    const ExecSpace& space, const RhoThetaPgradArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: compute_rho_theta_pgrad_and_update_vn";
  check_state_extents(args, inputs_.sizes(), scope);
  const ProgramDomain domain = domain_override ? *domain_override : rho_theta_pgrad_domain();
  check_domain(domain, inputs_.grid.num_edges, inputs_.nlev,
               "compute_rho_theta_pgrad_and_update_vn");

  const auto& g = inputs_.grid;
  const auto& m = inputs_.metric;
  const auto& i = inputs_.interpolation;
  const auto& e = inputs_.edges;
  stencils::ComputeRhoThetaPgradAndUpdateVn<memory_space> body;
  body.rho_at_edges_on_model_levels = args.rho_at_edges_on_model_levels;
  body.theta_v_at_edges_on_model_levels = args.theta_v_at_edges_on_model_levels;
  body.horizontal_pressure_gradient = args.horizontal_pressure_gradient;
  body.next_vn = args.next_vn;
  body.current_vn = args.current_vn;
  body.tangential_wind = args.tangential_wind;
  body.perturbed_rho_at_cells_on_model_levels = args.perturbed_rho_at_cells_on_model_levels;
  body.perturbed_theta_v_at_cells_on_model_levels = args.perturbed_theta_v_at_cells_on_model_levels;
  body.temporal_extrapolation_of_perturbed_exner = args.temporal_extrapolation_of_perturbed_exner;
  body.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
      args.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  body.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
      args.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  body.hydrostatic_correction_on_lowest_level = args.hydrostatic_correction_on_lowest_level;
  body.predictor_normal_wind_advective_tendency = args.predictor_normal_wind_advective_tendency;
  body.normal_wind_tendency_due_to_slow_physics_process =
      args.normal_wind_tendency_due_to_slow_physics_process;
  body.normal_wind_iau_increment = args.normal_wind_iau_increment;
  body.grf_tend_vn = args.grf_tend_vn;

  body.reference_rho_at_edges_on_model_levels = m.reference_rho_at_edges_on_model_levels;
  body.reference_theta_at_edges_on_model_levels = m.reference_theta_at_edges_on_model_levels;
  body.geofac_grg_x = i.geofac_grg_x;
  body.geofac_grg_y = i.geofac_grg_y;
  body.pos_on_tplane_e_x = i.pos_on_tplane_e_1;
  body.pos_on_tplane_e_y = i.pos_on_tplane_e_2;
  body.primal_normal_cell_x = e.primal_normal_cell_x;
  body.dual_normal_cell_x = e.dual_normal_cell_x;
  body.primal_normal_cell_y = e.primal_normal_cell_y;
  body.dual_normal_cell_y = e.dual_normal_cell_y;
  body.ddxn_z_full = m.ddxn_z_full;
  body.c_lin_e = i.c_lin_e;
  body.ikoffset = m.vertoffset_gradp;
  body.zdiff_gradp = m.zdiff_gradp;
  body.pg_exdist = m.pg_exdist;
  body.inv_dual_edge_length = e.inverse_dual_edge_lengths;
  body.e2c = e2c_;
  body.c2e2co = c2e2co_;

  body.dtime = args.dtime;
  body.is_iau_active = args.is_iau_active;
  body.iau_wgt_dyn = args.iau_wgt_dyn;
  body.limited_area = g.limited_area;
  body.nflatlev = inputs_.nflatlev;
  body.nflat_gradp = inputs_.nflat_gradp;
  body.start_edge_lateral_boundary = g.range(Location::Edge, Zone::LateralBoundary1).start;
  body.start_edge_lateral_boundary_level_7 = g.range(Location::Edge, Zone::LateralBoundary7).start;
  body.start_edge_nudging_level_2 = g.range(Location::Edge, Zone::Nudging2).start;
  body.end_edge_nudging = g.range(Location::Edge, Zone::Nudging).end;
  body.end_edge_halo = g.range(Location::Edge, Zone::Halo).end;

  runner_.on(space).points_levels(dycore_labels::rho_theta_pgrad, domain.horizontal,
                                  domain.vertical_start, domain.vertical_end, body);
}

template <class ExecSpace>
void Dycore<ExecSpace>::apply_divergence_damping_and_update_vn(
    const ExecSpace& space, const DivergenceDampingArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: apply_divergence_damping_and_update_vn";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.interpolated_fourth_order_divdamp_factor,
                "interpolated_fourth_order_divdamp_factor", scope);
  const ProgramDomain domain = domain_override ? *domain_override : divergence_damping_domain();
  check_domain(domain, inputs_.grid.num_edges, inputs_.nlev,
               "apply_divergence_damping_and_update_vn");

  const auto& m = inputs_.metric;
  const auto& i = inputs_.interpolation;
  stencils::ApplyDivergenceDampingAndUpdateVn<memory_space> body;
  body.horizontal_gradient_of_normal_wind_divergence =
      args.horizontal_gradient_of_normal_wind_divergence;
  body.next_vn = args.next_vn;
  body.current_vn = args.current_vn;
  body.dwdz_at_cells_on_model_levels = args.dwdz_at_cells_on_model_levels;
  body.predictor_normal_wind_advective_tendency = args.predictor_normal_wind_advective_tendency;
  body.corrector_normal_wind_advective_tendency = args.corrector_normal_wind_advective_tendency;
  body.normal_wind_tendency_due_to_slow_physics_process =
      args.normal_wind_tendency_due_to_slow_physics_process;
  body.normal_wind_iau_increment = args.normal_wind_iau_increment;
  body.theta_v_at_edges_on_model_levels = args.theta_v_at_edges_on_model_levels;
  body.horizontal_pressure_gradient = args.horizontal_pressure_gradient;
  body.interpolated_fourth_order_divdamp_factor = args.interpolated_fourth_order_divdamp_factor;

  body.horizontal_mask_for_3d_divdamp = m.horizontal_mask_for_3d_divdamp;
  body.scaling_factor_for_3d_divdamp = m.scaling_factor_for_3d_divdamp;
  body.inv_dual_edge_length = inputs_.edges.inverse_dual_edge_lengths;
  body.nudgecoeff_e = i.nudgecoeff_e;
  body.geofac_grdiv = i.geofac_grdiv;
  body.e2c = e2c_;
  body.e2c2eo = e2c2eo_;

  body.second_order_divdamp_scaling_coeff = args.second_order_divdamp_scaling_coeff;
  body.advection_explicit_weight_parameter = config_.advection_explicit_weight_parameter();
  body.advection_implicit_weight_parameter = config_.advection_implicit_weight_parameter();
  body.dtime = args.dtime;
  body.is_iau_active = args.is_iau_active;
  body.iau_wgt_dyn = args.iau_wgt_dyn;
  body.limited_area = inputs_.grid.limited_area;
  body.apply_2nd_order_divergence_damping = args.apply_2nd_order_divergence_damping;
  body.apply_4th_order_divergence_damping = args.apply_4th_order_divergence_damping;
  body.divdamp_order = static_cast<int>(config_.divdamp_order);
  body.mean_cell_area = inputs_.mean_cell_area;
  body.second_order_divdamp_factor = args.second_order_divdamp_factor;
  body.max_nudging_coefficient = config_.max_nudging_coefficient;
  body.dbl_eps = physics::dbl_eps;

  runner_.on(space).points_levels(dycore_labels::divergence_damping, domain.horizontal,
                                  domain.vertical_start, domain.vertical_end, body);
}

namespace {
/// The solver's column body with what both steps share, filled from the bundle.
template <class MemorySpace>
stencils::VerticallyImplicitSolver<MemorySpace> solver_body(
    const DycoreConfig& config, const DycoreInputs<MemorySpace>& in,
    const Kokkos::View<const index_t**, TableLayout, MemorySpace>& c2e,
    const Kokkos::View<vp**, FieldLayout, MemorySpace>& z_q) {
  stencils::VerticallyImplicitSolver<MemorySpace> body;
  body.z_q = z_q;
  body.geofac_div = in.interpolation.geofac_div;
  body.exner_w_explicit_weight_parameter = in.metric.exner_w_explicit_weight_parameter;
  body.exner_w_implicit_weight_parameter = in.metric.exner_w_implicit_weight_parameter;
  body.inv_ddqz_z_full = in.metric.inv_ddqz_z_full;
  body.ddqz_z_half = in.metric.ddqz_z_half;
  body.reference_exner_at_cells_on_model_levels =
      in.metric.reference_exner_at_cells_on_model_levels;
  body.c2e = c2e;
  body.klemp_rayleigh_damping = config.rayleigh_type == RayleighType::Klemp;
  body.end_index_of_damping_layer = in.end_index_of_damping_layer;
  body.kstart_moist = in.kstart_moist;
  body.nlev = in.nlev;
  return body;
}

/// The per-call fields both steps read, under the same names.
template <class Body, class Arguments>
void fill_common_solver_arguments(Body& body, const Arguments& args) {
  body.next_w = args.next_w;
  body.next_rho = args.next_rho;
  body.next_exner = args.next_exner;
  body.next_theta_v = args.next_theta_v;
  body.exner_dynamical_increment = args.exner_dynamical_increment;
  body.mass_flux_at_edges_on_model_levels = args.mass_flux_at_edges_on_model_levels;
  body.theta_v_flux_at_edges_on_model_levels = args.theta_v_flux_at_edges_on_model_levels;
  body.predictor_vertical_wind_advective_tendency = args.predictor_vertical_wind_advective_tendency;
  body.nonhydro_buoy_at_cells_on_half_levels = args.nonhydro_buoy_at_cells_on_half_levels;
  body.rho_at_cells_on_half_levels = args.rho_at_cells_on_half_levels;
  body.contravariant_correction_at_cells_on_half_levels =
      args.contravariant_correction_at_cells_on_half_levels;
  body.current_exner = args.current_exner;
  body.current_rho = args.current_rho;
  body.current_theta_v = args.current_theta_v;
  body.current_w = args.current_w;
  body.theta_v_at_cells_on_half_levels = args.theta_v_at_cells_on_half_levels;
  body.perturbed_exner_at_cells_on_model_levels = args.perturbed_exner_at_cells_on_model_levels;
  body.exner_tendency_due_to_slow_physics = args.exner_tendency_due_to_slow_physics;
  body.rho_iau_increment = args.rho_iau_increment;
  body.exner_iau_increment = args.exner_iau_increment;
  body.rayleigh_damping_factor = args.rayleigh_damping_factor;
  body.dtime = args.dtime;
  body.is_iau_active = args.is_iau_active;
  body.iau_wgt_dyn = args.iau_wgt_dyn;
  body.at_first_substep = args.at_first_substep;
}
}  // namespace

template <class ExecSpace>
void Dycore<ExecSpace>::vertically_implicit_solver_at_predictor_step(
    const ExecSpace& space, const SolverPredictorArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: vertically_implicit_solver_at_predictor_step";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.rayleigh_damping_factor, "rayleigh_damping_factor", scope);
  const ProgramDomain solver = domain_override ? *domain_override : solver_domain();
  ProgramDomain interpolation = contravariant_correction_domain();
  if (domain_override) interpolation.horizontal = domain_override->horizontal;
  check_domain(solver, inputs_.grid.num_cells, inputs_.nlev,
               "vertically_implicit_solver_at_predictor_step");
  check_domain(interpolation, inputs_.grid.num_cells, inputs_.nlev + 1,
               "vertically_implicit_solver_at_predictor_step (contravariant correction)");
  if (solver.vertical_start != 0 || solver.vertical_end != inputs_.nlev)
    throw InvalidArgument(scope + ": the solver runs over whole columns (levels [0, nlev))");

  stencils::InterpolateContravariantCorrectionToHalfLevels<memory_space> interpolate;
  interpolate.contravariant_correction_at_edges_on_model_levels =
      args.contravariant_correction_at_edges_on_model_levels;
  interpolate.e_bln_c_s = inputs_.interpolation.e_bln_c_s;
  interpolate.wgtfac_c = inputs_.metric.wgtfac_c;
  interpolate.wgtfacq_c = inputs_.metric.wgtfacq_c;
  interpolate.c2e = c2e_;
  interpolate.nlev = inputs_.nlev;
  interpolate.contravariant_correction_at_cells_on_half_levels =
      args.contravariant_correction_at_cells_on_half_levels;

  auto body = solver_body(config_, inputs_, c2e_, z_q_);
  fill_common_solver_arguments(body, args);
  body.corrector = false;
  body.dwdz_at_cells_on_model_levels = args.dwdz_at_cells_on_model_levels;
  body.compute_dwdz = static_cast<int>(config_.divdamp_type) >= 3;

  const auto launch = runner_.on(space);
  launch.points_levels(dycore_labels::contravariant_correction, interpolation.horizontal,
                       interpolation.vertical_start, interpolation.vertical_end, interpolate);
  launch.column_blocks(dycore_labels::solver_predictor, solver.horizontal, body,
                       options_.column_blocks);
}

template <class ExecSpace>
void Dycore<ExecSpace>::vertically_implicit_solver_at_corrector_step(
    const ExecSpace& space, const SolverCorrectorArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: vertically_implicit_solver_at_corrector_step";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.rayleigh_damping_factor, "rayleigh_damping_factor", scope);
  const ProgramDomain solver = domain_override ? *domain_override : solver_domain();
  check_domain(solver, inputs_.grid.num_cells, inputs_.nlev,
               "vertically_implicit_solver_at_corrector_step");
  if (solver.vertical_start != 0 || solver.vertical_end != inputs_.nlev)
    throw InvalidArgument(scope + ": the solver runs over whole columns (levels [0, nlev))");

  auto body = solver_body(config_, inputs_, c2e_, z_q_);
  fill_common_solver_arguments(body, args);
  body.corrector = true;
  body.corrector_vertical_wind_advective_tendency = args.corrector_vertical_wind_advective_tendency;
  body.dynamical_vertical_mass_flux_at_cells_on_half_levels =
      args.dynamical_vertical_mass_flux_at_cells_on_half_levels;
  body.dynamical_vertical_volumetric_flux_at_cells_on_half_levels =
      args.dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
  body.at_last_substep = args.at_last_substep;
  body.lprep_adv = args.lprep_adv;
  body.r_nsubsteps = args.r_nsubsteps;
  body.ndyn_substeps_var = args.ndyn_substeps_var;
  body.advection_explicit_weight_parameter = config_.advection_explicit_weight_parameter();
  body.advection_implicit_weight_parameter = config_.advection_implicit_weight_parameter();

  runner_.on(space).column_blocks(dycore_labels::solver_corrector, solver.horizontal, body,
                                  options_.column_blocks);
}

#define ICONDIFF_INSTANTIATE_DYCORE(SPACE) template class Dycore<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DYCORE)
#define ICONDIFF_INSTANTIATE_DYCORE_CHECK(SPACE) \
  template void check_dycore_inputs(const DycoreInputs<SPACE>&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_DYCORE_CHECK)

}  // namespace icondiff
