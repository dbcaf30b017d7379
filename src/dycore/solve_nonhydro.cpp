// SolveNonhydro<ExecSpace>: one dynamics substep as ICON4Py 0.2.0's SolveNonhydro.time_step runs
// it (solve_nonhydro.py: time_step, run_predictor_step, run_corrector_step; velocity_advection.py:
// run_predictor_step, run_corrector_step), program by program on the Dycore, with the same fields
// in the same slots, the same switches and the same four halo exchanges.
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <string>
#include <type_traits>

namespace icondiff {

namespace {

const std::string scope = "solve_nh: ";

/// ICON4Py hands the pressure gradient a one-dimensional view of the hydrostatic correction's
/// lowest level; icondiff's program writes a (E, nlev) field, so the level is copied out.
template <class MemorySpace>
struct CopyLowestLevel {
  Kokkos::View<const vp**, FieldLayout, MemorySpace> from;
  Kokkos::View<wp*, FieldLayout, MemorySpace> to;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    to(e) = static_cast<wp>(from(e, k));
  }
};

const std::string copy_lowest_level_label =
    "icondiff::dycore::solve_nh::hydrostatic_correction_on_lowest_level";

}  // namespace

template <class ExecSpace>
SolveNonhydro<ExecSpace>::SolveNonhydro(const DycoreConfig& config,
                                        const DycoreInputs<memory_space>& inputs,
                                        const std::vector<double>& vct_a,
                                        const SolveNonhydroOptions<ExecSpace>& options)
    : dycore_((config.validate_for_solve_nh(), config), inputs,
              [&] {
                DycoreOptions<ExecSpace> o;
                o.schedule = options.schedule;
                o.space = options.space;
                return o;
              }()),
      exchange_(options.exchange ? options.exchange
                                 : std::make_shared<SingleNodeExchange<ExecSpace>>()),
      default_space_(options.space) {
  const int nlev = inputs.nlev;
  if (vct_a.size() != static_cast<std::size_t>(nlev + 1))
    throw InvalidArgument(scope + "vct_a has " + std::to_string(vct_a.size()) +
                          " interface heights, expected nlev + 1 = " + std::to_string(nlev + 1));
  for (std::size_t k = 0; k < vct_a.size(); ++k)
    if (!std::isfinite(vct_a[k]) || (k > 0 && !(vct_a[k] < vct_a[k - 1])))
      throw InvalidArgument(scope + "vct_a[" + std::to_string(k) +
                            "] = " + std::to_string(vct_a[k]) +
                            ": expected finite heights decreasing from the model top");
  locals_ =
      allocate_state<SolveNhLocalFields, memory_space>(inputs.sizes(), "icondiff::solve_nh::");
  interpolated_fourth_order_divdamp_factor_ = copy_to_view<wp, memory_space>(
      "icondiff::solve_nh::interpolated_fourth_order_divdamp_factor",
      en_smag_fac_for_zero_nshift(
          vct_a,
          {config.fourth_order_divdamp_factor, config.fourth_order_divdamp_factor2,
           config.fourth_order_divdamp_factor3, config.fourth_order_divdamp_factor4},
          {config.fourth_order_divdamp_z, config.fourth_order_divdamp_z2,
           config.fourth_order_divdamp_z3, config.fourth_order_divdamp_z4}));
  rayleigh_damping_factor_ =
      LevelProfile<memory_space>("icondiff::solve_nh::rayleigh_damping_factor", nlev);
  compat::fence(default_space_, "icondiff::solve_nh::init");
}

template <class ExecSpace>
template <class View>
View SolveNonhydro<ExecSpace>::or_zeros(const View& field, const char* name) {
  if (field.size() != 0) return field;
  const FieldSizes sizes = dycore_.inputs().sizes();
  const auto& specs = SolveNhDiagnosticState<memory_space>::field_specs();
  for (const FieldSpec& spec : specs)
    if (std::string(spec.name) == name) {
      auto& cache = [&]() -> auto& {
        if constexpr (std::is_same_v<typename View::value_type, wp>)
          return zeros_wp_;
        else
          return zeros_vp_;
      }
      ();
      auto it = cache.find(name);
      if (it == cache.end())
        it = cache
                 .emplace(name, View(std::string("icondiff::solve_nh::zero_") + name,
                                     field_extent(spec, sizes, 0), field_extent(spec, sizes, 1)))
                 .first;
      return it->second;
    }
  throw InvalidArgument(scope + "no diagnostic field named " + name);
}

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::check_call(const SolveNhDiagnosticState<memory_space>& diagnostic,
                                          const SolveNhPrognosticState<memory_space>& current,
                                          const SolveNhPrognosticState<memory_space>& next,
                                          const SolveNhPrepAdvection<memory_space>& prep_adv,
                                          const SolveNhStep& step) const {
  const FieldSizes sizes = dycore_.inputs().sizes();
  check_state_extents(current, sizes, scope + "current prognostic state");
  check_state_extents(next, sizes, scope + "next prognostic state");
  check_state_extents(diagnostic, sizes, scope + "diagnostic state");
  check_state_extents(prep_adv, sizes, scope + "prep_adv");
  if (!(step.dtime > 0) || !std::isfinite(step.dtime))
    throw InvalidArgument(scope + "dtime = " + std::to_string(step.dtime) +
                          ", expected a positive time step");
  if (step.ndyn_substeps_var < 1)
    throw InvalidArgument(scope + "ndyn_substeps_var = " + std::to_string(step.ndyn_substeps_var) +
                          ", expected >= 1");
  if (!std::isfinite(step.second_order_divdamp_factor))
    throw InvalidArgument(scope + "second_order_divdamp_factor is not finite");
  if (step.is_iau_active && !dycore_.config().iau_init)
    throw InvalidArgument(scope +
                          "is_iau_active = true, but the configuration's iau_init is false "
                          "(ICON4Py builds the IAU variants only with iau_init)");
  if (step.is_iau_active && (diagnostic.rho_iau_increment.size() == 0 ||
                             diagnostic.normal_wind_iau_increment.size() == 0 ||
                             diagnostic.exner_iau_increment.size() == 0))
    throw InvalidArgument(scope +
                          "is_iau_active = true needs rho_iau_increment, "
                          "normal_wind_iau_increment and exner_iau_increment");
  if (dycore_.inputs().grid.limited_area &&
      (diagnostic.grf_tend_rho.size() == 0 || diagnostic.grf_tend_thv.size() == 0 ||
       diagnostic.grf_tend_w.size() == 0 || diagnostic.grf_tend_vn.size() == 0))
    throw InvalidArgument(scope +
                          "a limited-area grid needs the boundary tendencies grf_tend_rho, "
                          "grf_tend_thv, grf_tend_w and grf_tend_vn");
  // The new state is written while the current one is read: they must not share memory.
  SolveNhPrognosticState<memory_space>::for_each_field(
      [&](const FieldSpec& spec, const auto& a, const auto& b) {
        if (a.data() == b.data())
          throw InvalidArgument(scope + "the current and the next " + spec.name +
                                " are the same array");
      },
      current, next);
}

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::exchange(const ExecSpace& space, const Location location,
                                        std::initializer_list<HaloField> fields) {
  compat::ScopedRegion region(solve_nh_regions::exch);
  if (!exchange_->needs_synchronization()) return;
  compat::fence(space, "icondiff::solve_nh::before_exchange");
  exchange_->exchange(space, location, fields.begin(), static_cast<int>(fields.size()));
}

template <class ExecSpace>
const LevelProfile<typename ExecSpace::memory_space>&
SolveNonhydro<ExecSpace>::rayleigh_damping_factor(const ExecSpace& space, const double dtime) {
  if (dtime != dtime_previous_substep_) {
    dycore_.compute_rayleigh_damping_factor(space, dtime, rayleigh_damping_factor_);
    dtime_previous_substep_ = dtime;
  }
  return rayleigh_damping_factor_;
}

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::time_step(const ExecSpace& space,
                                         SolveNhDiagnosticState<memory_space>& diagnostic,
                                         const SolveNhPrognosticState<memory_space>& current,
                                         const SolveNhPrognosticState<memory_space>& next,
                                         const SolveNhPrepAdvection<memory_space>& prep_adv,
                                         const SolveNhStep& step) {
  compat::ScopedRegion region(solve_nh_regions::solve_nh);
  check_call(diagnostic, current, next, prep_adv, step);
  run_predictor_step(space, diagnostic, current, next, step);
  run_corrector_step(space, diagnostic, current, next, prep_adv, step);

  compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
  if (dycore_.inputs().grid.limited_area) {
    ExnerFromRhothetaArguments<memory_space> a;
    a.rho = next.rho;
    a.theta_v = next.theta_v;
    a.exner = next.exner;
    dycore_.compute_exner_from_rhotheta(space, a);
  }
  ThetaAndExnerInHaloArguments<memory_space> halo;
  halo.rho_now = current.rho;
  halo.rho_new = next.rho;
  halo.theta_v_now = current.theta_v;
  halo.theta_v_new = next.theta_v;
  halo.exner_now = current.exner;
  halo.exner_new = next.exner;
  dycore_.update_theta_and_exner_in_halo(space, halo);
}

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::run_predictor_step(
    const ExecSpace& space, SolveNhDiagnosticState<memory_space>& diagnostic,
    const SolveNhPrognosticState<memory_space>& current,
    const SolveNhPrognosticState<memory_space>& next, const SolveNhStep& step) {
  using M = memory_space;
  const auto& z = locals_;
  const bool limited_area = dycore_.inputs().grid.limited_area;

  if (step.at_first_substep) {
    // ICON's lvn_only: with itime_scheme 4 the corrector of the previous step computed the
    // vertical advection; only the model's very first substep recomputes it.
    compat::ScopedRegion veltend(solve_nh_regions::veltend);
    const bool skip =
        dycore_.config().itime_scheme == 4 && !(step.at_initial_timestep && step.at_first_substep);
    const VelocityAdvectionScaleFactors scale = velocity_advection_scale_factors(step.dtime);

    DiagnosticsFromNormalWindArguments<M> d;
    d.tangential_wind = diagnostic.tangential_wind;
    d.tangential_wind_on_half_levels = z.tangential_wind_on_half_levels;
    d.vn_on_half_levels = diagnostic.vn_on_half_levels;
    d.horizontal_kinetic_energy_at_edges_on_model_levels =
        z.horizontal_kinetic_energy_at_edges_on_model_levels;
    d.contravariant_correction_at_edges_on_model_levels =
        z.contravariant_correction_at_edges_on_model_levels;
    d.horizontal_advection_of_w_at_edges_on_half_levels =
        z.horizontal_advection_of_w_at_edges_on_half_levels;
    d.vn = current.vn;
    d.w = current.w;
    d.skip_compute_predictor_vertical_advection = skip;
    dycore_.compute_diagnostics_from_normal_wind(space, d);

    AdvectionInPredictorVerticalMomentumArguments<M> v;
    v.contravariant_correction_at_cells_on_half_levels =
        diagnostic.contravariant_correction_at_cells_on_half_levels;
    v.vertical_wind_advective_tendency = diagnostic.predictor_vertical_wind_advective_tendency;
    v.contravariant_corrected_w_at_cells_on_model_levels =
        z.contravariant_corrected_w_at_cells_on_model_levels;
    v.vertical_cfl = z.vertical_cfl;
    v.w = current.w;
    v.horizontal_advection_of_w_at_edges_on_half_levels =
        z.horizontal_advection_of_w_at_edges_on_half_levels;
    v.contravariant_correction_at_edges_on_model_levels =
        z.contravariant_correction_at_edges_on_model_levels;
    v.cfl_w_limit = scale.cfl_w_limit;
    v.scalfac_exdiff = scale.scalfac_exdiff;
    v.dtime = step.dtime;
    v.skip_compute_predictor_vertical_advection = skip;
    dycore_.compute_advection_in_predictor_vertical_momentum(space, v);
    diagnostic.max_vertical_cfl =
        dycore_.max_vertical_cfl(space, z.vertical_cfl, diagnostic.max_vertical_cfl);

    AdvectionInHorizontalMomentumArguments<M> h;
    h.normal_wind_advective_tendency = diagnostic.predictor_normal_wind_advective_tendency;
    h.vn = current.vn;
    h.horizontal_kinetic_energy_at_edges_on_model_levels =
        z.horizontal_kinetic_energy_at_edges_on_model_levels;
    h.tangential_wind = diagnostic.tangential_wind;
    h.contravariant_corrected_w_at_cells_on_model_levels =
        z.contravariant_corrected_w_at_cells_on_model_levels;
    h.vn_on_half_levels = diagnostic.vn_on_half_levels;
    h.cfl_w_limit = scale.cfl_w_limit;
    h.scalfac_exdiff = scale.scalfac_exdiff;
    h.dtime = step.dtime;
    h.apply_extra_diffusion_on_vn = true;  // VelocityAdvection: always
    dycore_.compute_advection_in_horizontal_momentum(space, h);
  }

  {
    compat::ScopedRegion cellcomp(solve_nh_regions::cellcomp);
    PerturbedQuantitiesArguments<M> p;
    p.temporal_extrapolation_of_perturbed_exner = z.temporal_extrapolation_of_perturbed_exner;
    p.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
        z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    p.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
        z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    p.perturbed_exner_at_cells_on_model_levels =
        diagnostic.perturbed_exner_at_cells_on_model_levels;
    p.exner_at_cells_on_half_levels = z.exner_at_cells_on_half_levels;
    p.perturbed_rho_at_cells_on_model_levels = z.perturbed_rho_at_cells_on_model_levels;
    p.perturbed_theta_v_at_cells_on_model_levels = z.perturbed_theta_v_at_cells_on_model_levels;
    p.rho_at_cells_on_half_levels = diagnostic.rho_at_cells_on_half_levels;
    p.perturbed_theta_v_at_cells_on_half_levels = z.perturbed_theta_v_at_cells_on_half_levels;
    p.theta_v_at_cells_on_half_levels = diagnostic.theta_v_at_cells_on_half_levels;
    p.current_rho = current.rho;
    p.current_theta_v = current.theta_v;
    p.nonhydro_buoy_at_cells_on_half_levels = z.nonhydro_buoy_at_cells_on_half_levels;
    p.current_exner = current.exner;
    dycore_.compute_perturbed_quantities_and_interpolation(space, p);
  }

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    HydrostaticCorrectionArguments<M> hc;
    hc.theta_v = current.theta_v;
    hc.theta_v_ic = diagnostic.theta_v_at_cells_on_half_levels;
    hc.z_hydro_corr = z.hydrostatic_correction;
    dycore_.compute_hydrostatic_correction_term(space, hc);
    const int nlev = dycore_.inputs().nlev;
    dycore_.runner().on(space).points_levels(
        copy_lowest_level_label, IndexRange{0, dycore_.inputs().grid.num_edges}, nlev - 1, nlev,
        CopyLowestLevel<M>{z.hydrostatic_correction, z.hydrostatic_correction_on_lowest_level});

    RhoThetaPgradArguments<M> r;
    r.rho_at_edges_on_model_levels = z.rho_at_edges_on_model_levels;
    r.theta_v_at_edges_on_model_levels = z.theta_v_at_edges_on_model_levels;
    r.horizontal_pressure_gradient = z.horizontal_pressure_gradient;
    r.next_vn = next.vn;
    r.current_vn = current.vn;
    r.tangential_wind = diagnostic.tangential_wind;
    r.perturbed_rho_at_cells_on_model_levels = z.perturbed_rho_at_cells_on_model_levels;
    r.perturbed_theta_v_at_cells_on_model_levels = z.perturbed_theta_v_at_cells_on_model_levels;
    r.temporal_extrapolation_of_perturbed_exner = z.temporal_extrapolation_of_perturbed_exner;
    r.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
        z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    r.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
        z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    r.hydrostatic_correction_on_lowest_level = z.hydrostatic_correction_on_lowest_level;
    r.predictor_normal_wind_advective_tendency =
        diagnostic.predictor_normal_wind_advective_tendency;
    r.normal_wind_tendency_due_to_slow_physics_process =
        diagnostic.normal_wind_tendency_due_to_slow_physics_process;
    r.normal_wind_iau_increment =
        or_zeros(diagnostic.normal_wind_iau_increment, "normal_wind_iau_increment");
    r.grf_tend_vn = or_zeros(diagnostic.grf_tend_vn, "grf_tend_vn");
    r.is_iau_active = step.is_iau_active;
    r.iau_wgt_dyn = step.iau_wgt_dyn;
    r.dtime = step.dtime;
    dycore_.compute_rho_theta_pgrad_and_update_vn(space, r);
  }

  exchange(space, Location::Edge,
           {halo_field(next.vn), halo_field(z.rho_at_edges_on_model_levels)});

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    HorizontalVelocityQuantitiesArguments<M> q;
    q.spatially_averaged_vn = z.spatially_averaged_vn;
    q.horizontal_gradient_of_normal_wind_divergence =
        z.horizontal_gradient_of_normal_wind_divergence;
    q.tangential_wind = diagnostic.tangential_wind;
    q.mass_flux_at_edges_on_model_levels = diagnostic.mass_flux_at_edges_on_model_levels;
    q.theta_v_flux_at_edges_on_model_levels = z.theta_v_flux_at_edges_on_model_levels;
    q.tangential_wind_on_half_levels = z.tangential_wind_on_half_levels;
    q.vn_on_half_levels = diagnostic.vn_on_half_levels;
    q.horizontal_kinetic_energy_at_edges_on_model_levels =
        z.horizontal_kinetic_energy_at_edges_on_model_levels;
    q.contravariant_correction_at_edges_on_model_levels =
        z.contravariant_correction_at_edges_on_model_levels;
    q.vn = next.vn;
    q.rho_at_edges_on_model_levels = z.rho_at_edges_on_model_levels;
    q.theta_v_at_edges_on_model_levels = z.theta_v_at_edges_on_model_levels;
    dycore_.compute_horizontal_velocity_quantities_and_fluxes(space, q);
  }

  {
    compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
    SolverPredictorArguments<M> s;
    s.contravariant_correction_at_cells_on_half_levels =
        diagnostic.contravariant_correction_at_cells_on_half_levels;
    s.next_w = next.w;
    s.next_rho = next.rho;
    s.next_exner = next.exner;
    s.next_theta_v = next.theta_v;
    s.dwdz_at_cells_on_model_levels = z.dwdz_at_cells_on_model_levels;
    s.exner_dynamical_increment = diagnostic.exner_dynamical_increment;
    s.contravariant_correction_at_edges_on_model_levels =
        z.contravariant_correction_at_edges_on_model_levels;
    s.mass_flux_at_edges_on_model_levels = diagnostic.mass_flux_at_edges_on_model_levels;
    s.theta_v_flux_at_edges_on_model_levels = z.theta_v_flux_at_edges_on_model_levels;
    s.predictor_vertical_wind_advective_tendency =
        diagnostic.predictor_vertical_wind_advective_tendency;
    s.nonhydro_buoy_at_cells_on_half_levels = z.nonhydro_buoy_at_cells_on_half_levels;
    s.rho_at_cells_on_half_levels = diagnostic.rho_at_cells_on_half_levels;
    s.current_exner = current.exner;
    s.current_rho = current.rho;
    s.current_theta_v = current.theta_v;
    s.current_w = current.w;
    s.theta_v_at_cells_on_half_levels = diagnostic.theta_v_at_cells_on_half_levels;
    s.perturbed_exner_at_cells_on_model_levels =
        diagnostic.perturbed_exner_at_cells_on_model_levels;
    s.exner_tendency_due_to_slow_physics = diagnostic.exner_tendency_due_to_slow_physics;
    s.rho_iau_increment = or_zeros(diagnostic.rho_iau_increment, "rho_iau_increment");
    s.exner_iau_increment = or_zeros(diagnostic.exner_iau_increment, "exner_iau_increment");
    s.rayleigh_damping_factor = rayleigh_damping_factor(space, step.dtime);
    s.at_first_substep = step.at_first_substep;
    s.dtime = step.dtime;
    s.is_iau_active = step.is_iau_active;
    s.iau_wgt_dyn = step.iau_wgt_dyn;
    dycore_.vertically_implicit_solver_at_predictor_step(space, s);

    if (limited_area) {
      Stencils6162Arguments<M> b;
      b.rho_now = current.rho;
      b.grf_tend_rho = diagnostic.grf_tend_rho;
      b.theta_v_now = current.theta_v;
      b.grf_tend_thv = diagnostic.grf_tend_thv;
      b.w_now = current.w;
      b.grf_tend_w = diagnostic.grf_tend_w;
      b.rho_new = next.rho;
      b.exner_new = next.exner;
      b.w_new = next.w;
      b.dtime = step.dtime;
      dycore_.stencils_61_62(space, b);
    }
    if (limited_area && dycore_.config().divdamp_type != DivergenceDampingType::TwoDimensional) {
      DwdzForDivergenceDampingArguments<M> w;
      w.w = next.w;
      w.w_concorr_c = diagnostic.contravariant_correction_at_cells_on_half_levels;
      w.z_dwdz_dd = z.dwdz_at_cells_on_model_levels;
      dycore_.compute_dwdz_for_divergence_damping(space, w);
    }
  }

  // divdamp_type >= 3 (3 and 32): dw/dz enters the corrector's divergence damping.
  if (dycore_.config().divdamp_type != DivergenceDampingType::TwoDimensional)
    exchange(space, Location::Cell,
             {halo_field(next.w), halo_field(z.dwdz_at_cells_on_model_levels)});
  else
    exchange(space, Location::Cell, {halo_field(next.w)});
}

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::run_corrector_step(
    const ExecSpace& space, SolveNhDiagnosticState<memory_space>& diagnostic,
    const SolveNhPrognosticState<memory_space>& current,
    const SolveNhPrognosticState<memory_space>& next,
    const SolveNhPrepAdvection<memory_space>& prep_adv, const SolveNhStep& step) {
  using M = memory_space;
  const auto& z = locals_;
  const double r_nsubsteps = 1.0 / step.ndyn_substeps_var;
  // delta_x**2 approximated by the mean cell area.
  const double second_order_divdamp_scaling_coeff =
      step.second_order_divdamp_factor * dycore_.inputs().mean_cell_area;

  {
    compat::ScopedRegion veltend(solve_nh_regions::veltend);
    const VelocityAdvectionScaleFactors scale = velocity_advection_scale_factors(step.dtime);
    AdvectionInCorrectorVerticalMomentumArguments<M> v;
    v.vertical_wind_advective_tendency = diagnostic.corrector_vertical_wind_advective_tendency;
    v.contravariant_corrected_w_at_cells_on_model_levels =
        z.contravariant_corrected_w_at_cells_on_model_levels;
    v.vertical_cfl = z.vertical_cfl;
    v.w = next.w;
    v.tangential_wind_on_half_levels = z.tangential_wind_on_half_levels;
    v.vn_on_half_levels = diagnostic.vn_on_half_levels;
    v.contravariant_correction_at_cells_on_half_levels =
        diagnostic.contravariant_correction_at_cells_on_half_levels;
    v.cfl_w_limit = scale.cfl_w_limit;
    v.scalfac_exdiff = scale.scalfac_exdiff;
    v.dtime = step.dtime;
    dycore_.compute_advection_in_corrector_vertical_momentum(space, v);
    diagnostic.max_vertical_cfl =
        dycore_.max_vertical_cfl(space, z.vertical_cfl, diagnostic.max_vertical_cfl);

    AdvectionInHorizontalMomentumArguments<M> h;
    h.normal_wind_advective_tendency = diagnostic.corrector_normal_wind_advective_tendency;
    h.vn = next.vn;
    h.horizontal_kinetic_energy_at_edges_on_model_levels =
        z.horizontal_kinetic_energy_at_edges_on_model_levels;
    h.tangential_wind = diagnostic.tangential_wind;
    h.contravariant_corrected_w_at_cells_on_model_levels =
        z.contravariant_corrected_w_at_cells_on_model_levels;
    h.vn_on_half_levels = diagnostic.vn_on_half_levels;
    h.cfl_w_limit = scale.cfl_w_limit;
    h.scalfac_exdiff = scale.scalfac_exdiff;
    h.dtime = step.dtime;
    h.apply_extra_diffusion_on_vn = true;
    dycore_.compute_advection_in_horizontal_momentum(space, h);
  }

  {
    compat::ScopedRegion cellcomp(solve_nh_regions::cellcomp);
    InterpolationAndNonhydroBuoyArguments<M> b;
    b.rho_at_cells_on_half_levels = diagnostic.rho_at_cells_on_half_levels;
    b.perturbed_theta_v_at_cells_on_half_levels = z.perturbed_theta_v_at_cells_on_half_levels;
    b.theta_v_at_cells_on_half_levels = diagnostic.theta_v_at_cells_on_half_levels;
    b.nonhydro_buoy_at_cells_on_half_levels = z.nonhydro_buoy_at_cells_on_half_levels;
    b.w = next.w;
    b.contravariant_correction_at_cells_on_half_levels =
        diagnostic.contravariant_correction_at_cells_on_half_levels;
    b.current_rho = current.rho;
    b.next_rho = next.rho;
    b.current_theta_v = current.theta_v;
    b.next_theta_v = next.theta_v;
    b.perturbed_exner_at_cells_on_model_levels =
        diagnostic.perturbed_exner_at_cells_on_model_levels;
    b.dtime = step.dtime;
    dycore_.compute_interpolation_and_nonhydro_buoy(space, b);
  }

  {
    compat::ScopedRegion vnupd(solve_nh_regions::vnupd);
    const DivergenceDampingSwitches switches = divergence_damping_switches(
        dycore_.config(), step.second_order_divdamp_factor, second_order_divdamp_scaling_coeff);
    DivergenceDampingArguments<M> d;
    d.horizontal_gradient_of_normal_wind_divergence =
        z.horizontal_gradient_of_normal_wind_divergence;
    d.next_vn = next.vn;
    d.current_vn = current.vn;
    d.dwdz_at_cells_on_model_levels = z.dwdz_at_cells_on_model_levels;
    d.predictor_normal_wind_advective_tendency =
        diagnostic.predictor_normal_wind_advective_tendency;
    d.corrector_normal_wind_advective_tendency =
        diagnostic.corrector_normal_wind_advective_tendency;
    d.normal_wind_tendency_due_to_slow_physics_process =
        diagnostic.normal_wind_tendency_due_to_slow_physics_process;
    d.normal_wind_iau_increment =
        or_zeros(diagnostic.normal_wind_iau_increment, "normal_wind_iau_increment");
    d.theta_v_at_edges_on_model_levels = z.theta_v_at_edges_on_model_levels;
    d.horizontal_pressure_gradient = z.horizontal_pressure_gradient;
    d.interpolated_fourth_order_divdamp_factor = interpolated_fourth_order_divdamp_factor_;
    d.second_order_divdamp_factor = step.second_order_divdamp_factor;
    d.second_order_divdamp_scaling_coeff = second_order_divdamp_scaling_coeff;
    d.apply_2nd_order_divergence_damping = switches.second_order;
    d.apply_4th_order_divergence_damping = switches.fourth_order;
    d.dtime = step.dtime;
    d.is_iau_active = step.is_iau_active;
    d.iau_wgt_dyn = step.iau_wgt_dyn;
    dycore_.apply_divergence_damping_and_update_vn(space, d);
  }

  exchange(space, Location::Edge, {halo_field(next.vn)});

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    AveragedVnAndFluxesArguments<M> a;
    a.spatially_averaged_vn = z.spatially_averaged_vn;
    a.mass_flux_at_edges_on_model_levels = diagnostic.mass_flux_at_edges_on_model_levels;
    a.theta_v_flux_at_edges_on_model_levels = z.theta_v_flux_at_edges_on_model_levels;
    a.substep_and_spatially_averaged_vn = prep_adv.vn_traj;
    a.substep_averaged_mass_flux = prep_adv.mass_flx_me;
    a.vn = next.vn;
    a.rho_at_edges_on_model_levels = z.rho_at_edges_on_model_levels;
    a.theta_v_at_edges_on_model_levels = z.theta_v_at_edges_on_model_levels;
    a.prepare_advection = step.lprep_adv;
    a.at_first_substep = step.at_first_substep;
    a.r_nsubsteps = r_nsubsteps;
    dycore_.compute_averaged_vn_and_fluxes(space, a);
  }

  {
    compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
    SolverCorrectorArguments<M> s;
    s.next_w = next.w;
    s.next_rho = next.rho;
    s.next_exner = next.exner;
    s.next_theta_v = next.theta_v;
    s.dynamical_vertical_mass_flux_at_cells_on_half_levels =
        prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels;
    s.dynamical_vertical_volumetric_flux_at_cells_on_half_levels =
        prep_adv.dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
    s.exner_dynamical_increment = diagnostic.exner_dynamical_increment;
    s.mass_flux_at_edges_on_model_levels = diagnostic.mass_flux_at_edges_on_model_levels;
    s.theta_v_flux_at_edges_on_model_levels = z.theta_v_flux_at_edges_on_model_levels;
    s.predictor_vertical_wind_advective_tendency =
        diagnostic.predictor_vertical_wind_advective_tendency;
    s.corrector_vertical_wind_advective_tendency =
        diagnostic.corrector_vertical_wind_advective_tendency;
    s.nonhydro_buoy_at_cells_on_half_levels = z.nonhydro_buoy_at_cells_on_half_levels;
    s.rho_at_cells_on_half_levels = diagnostic.rho_at_cells_on_half_levels;
    s.contravariant_correction_at_cells_on_half_levels =
        diagnostic.contravariant_correction_at_cells_on_half_levels;
    s.current_exner = current.exner;
    s.current_rho = current.rho;
    s.current_theta_v = current.theta_v;
    s.current_w = current.w;
    s.theta_v_at_cells_on_half_levels = diagnostic.theta_v_at_cells_on_half_levels;
    s.perturbed_exner_at_cells_on_model_levels =
        diagnostic.perturbed_exner_at_cells_on_model_levels;
    s.exner_tendency_due_to_slow_physics = diagnostic.exner_tendency_due_to_slow_physics;
    s.rho_iau_increment = or_zeros(diagnostic.rho_iau_increment, "rho_iau_increment");
    s.exner_iau_increment = or_zeros(diagnostic.exner_iau_increment, "exner_iau_increment");
    s.is_iau_active = step.is_iau_active;
    s.iau_wgt_dyn = step.iau_wgt_dyn;
    s.rayleigh_damping_factor = rayleigh_damping_factor(space, step.dtime);
    s.lprep_adv = step.lprep_adv;
    s.r_nsubsteps = r_nsubsteps;
    s.ndyn_substeps_var = static_cast<double>(step.ndyn_substeps_var);
    s.dtime = step.dtime;
    s.at_first_substep = step.at_first_substep;
    s.at_last_substep = step.at_last_substep;
    dycore_.vertically_implicit_solver_at_corrector_step(space, s);

    // The tracer fluxes on the lateral boundary (limited area).
    if (dycore_.inputs().grid.limited_area && step.lprep_adv) {
      if (step.at_first_substep) {
        InitCellKdimFieldArguments<M> zero;
        zero.field_with_zero_wp = prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels;
        dycore_.init_cell_kdim_field_with_zero_wp(space, zero);
      }
      MassFluxWeightedArguments<M> m;
      m.rho_ic = diagnostic.rho_at_cells_on_half_levels;
      m.w_now = current.w;
      m.w_new = next.w;
      m.w_concorr_c = diagnostic.contravariant_correction_at_cells_on_half_levels;
      m.mass_flx_ic = prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels;
      m.r_nsubsteps = r_nsubsteps;
      dycore_.update_mass_flux_weighted(space, m);
    }
  }

  exchange(space, Location::Cell,
           {halo_field(next.rho), halo_field(next.exner), halo_field(next.w)});
}

#define ICONDIFF_INSTANTIATE_SOLVE_NONHYDRO(SPACE) template class SolveNonhydro<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_SOLVE_NONHYDRO)

}  // namespace icondiff
