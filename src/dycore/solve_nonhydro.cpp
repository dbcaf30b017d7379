// SolveNonhydro<ExecSpace>: one dynamics substep as ICON4Py 0.2.0's SolveNonhydro.time_step runs
// it (solve_nonhydro.py: time_step, run_predictor_step, run_corrector_step; velocity_advection.py:
// run_predictor_step, run_corrector_step), program by program on the Dycore, with the same fields
// in the same slots, the same switches and the same four halo exchanges.
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/fill_by_name.hpp>
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
  // Literals, not scope + ...: a substep's checks build no strings unless one fails.
  check_state_extents(current, sizes, "solve_nh: current prognostic state");
  check_state_extents(next, sizes, "solve_nh: next prognostic state");
  check_state_extents(diagnostic, sizes, "solve_nh: diagnostic state");
  check_state_extents(prep_adv, sizes, "solve_nh: prep_adv");
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

// ---- One call's sources, filled into each program's arguments by name --------------------------
// Most arguments of the programs carry the names of the states' fields; the rest are named here
// once: the two time levels as current_<field> / next_<field>, what velocity advection calls vn,
// w and the advective tendencies (the time level and the predictor or corrector slot of its
// step), and the substep's scalars. Each program's argument list (dycore_states.hpp) is filled
// from these by name (core/fill_by_name.hpp): a name held by no source or by two does not compile.

namespace solve_nh_fill {
ICONDIFF_DEFINE_FILL_BY_NAME(diagnostics_from_normal_wind,
                             ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_predictor_vertical_momentum,
                             ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_corrector_vertical_momentum,
                             ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_horizontal_momentum,
                             ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(perturbed_quantities, ICONDIFF_PERTURBED_QUANTITIES_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(rho_theta_pgrad, ICONDIFF_RHO_THETA_PGRAD_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(horizontal_velocity_quantities,
                             ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_FIELDS)
#define ICONDIFF_SOLVE_NH_SOLVER_PREDICTOR_ARGUMENTS(X) \
  ICONDIFF_SOLVER_PREDICTOR_FIELDS(X) ICONDIFF_SOLVER_SCALARS(X)
ICONDIFF_DEFINE_FILL_BY_NAME(solver_predictor, ICONDIFF_SOLVE_NH_SOLVER_PREDICTOR_ARGUMENTS)
#undef ICONDIFF_SOLVE_NH_SOLVER_PREDICTOR_ARGUMENTS
ICONDIFF_DEFINE_FILL_BY_NAME(solver_corrector, ICONDIFF_SOLVER_CORRECTOR_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(interpolation_and_nonhydro_buoy,
                             ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(divergence_damping, ICONDIFF_DIVDAMP_UPDATE_VN_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(averaged_vn_and_fluxes, ICONDIFF_AVERAGED_VN_AND_FLUXES_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(exner_from_rhotheta, ICONDIFF_EXNER_FROM_RHOTHETA_FIELDS)
}  // namespace solve_nh_fill

namespace {

#define ICONDIFF_TIME_LEVEL_MEMBERS(name, type, location, neighbours, levels, ...)                 \
  FieldView<type, field_rank(Neighbours::neighbours, Levels::levels), MemorySpace> current_##name, \
      next_##name;
#define ICONDIFF_TIME_LEVEL_ASSIGN(name, ...) \
  current_##name = now.name;                  \
  next_##name = next.name;

/// The two time levels under the programs' names: current_w, ..., next_exner.
template <class MemorySpace>
struct TimeLevels {
  ICONDIFF_SOLVE_NH_PROGNOSTIC_FIELDS(ICONDIFF_TIME_LEVEL_MEMBERS)
  TimeLevels(const SolveNhPrognosticState<MemorySpace>& now,
             const SolveNhPrognosticState<MemorySpace>& next) {
    ICONDIFF_SOLVE_NH_PROGNOSTIC_FIELDS(ICONDIFF_TIME_LEVEL_ASSIGN)
  }
};
#undef ICONDIFF_TIME_LEVEL_MEMBERS
#undef ICONDIFF_TIME_LEVEL_ASSIGN

/// What one velocity-advection step calls vn, w and its advective tendencies: the time level it
/// advects (now in the predictor, new in the corrector) and the tendency slot it writes.
template <class MemorySpace>
struct VelocityAdvectionFields {
  FieldView<wp, 2, MemorySpace> vn, w;
  FieldView<vp, 2, MemorySpace> normal_wind_advective_tendency, vertical_wind_advective_tendency;
};

/// The substep's scalars and profiles under the programs' names (ICON4Py's run_predictor_step /
/// run_corrector_step derive them), and the tracer fields the averaged vn calls otherwise.
template <class MemorySpace>
struct SubstepScalars {
  double dtime = 0;
  bool is_iau_active = false;
  double iau_wgt_dyn = 0;
  bool at_first_substep = false, at_last_substep = false;
  bool lprep_adv = false, prepare_advection = false;
  double r_nsubsteps = 0, ndyn_substeps_var = 0;
  LevelProfile<MemorySpace> rayleigh_damping_factor, interpolated_fourth_order_divdamp_factor;
  double second_order_divdamp_factor = 0, second_order_divdamp_scaling_coeff = 0;
  bool apply_2nd_order_divergence_damping = false, apply_4th_order_divergence_damping = false;
  vp cfl_w_limit = 0;
  double scalfac_exdiff = 0;
  bool skip_compute_predictor_vertical_advection = false;
  bool apply_extra_diffusion_on_vn = true;  // VelocityAdvection: always
  FieldView<wp, 2, MemorySpace> substep_and_spatially_averaged_vn, substep_averaged_mass_flux;
};

}  // namespace

template <class ExecSpace>
struct SolveNonhydro<ExecSpace>::Call {
  using M = typename ExecSpace::memory_space;
  SolveNhDiagnosticState<M>& diagnostic;  ///< the caller's (max_vertical_cfl is written back)
  SolveNhDiagnosticState<M> fields;       ///< the same, absent optional fields as zeros
  const SolveNhPrognosticState<M>& current;
  const SolveNhPrognosticState<M>& next;
  TimeLevels<M> levels;
  const SolveNhPrepAdvection<M>& prep_adv;
  SubstepScalars<M> scalars;
};

template <class ExecSpace>
void SolveNonhydro<ExecSpace>::time_step(const ExecSpace& space,
                                         SolveNhDiagnosticState<memory_space>& diagnostic,
                                         const SolveNhPrognosticState<memory_space>& current,
                                         const SolveNhPrognosticState<memory_space>& next,
                                         const SolveNhPrepAdvection<memory_space>& prep_adv,
                                         const SolveNhStep& step) {
  compat::ScopedRegion region(solve_nh_regions::solve_nh);
  check_call(diagnostic, current, next, prep_adv, step);
  const DycoreConfig& config = dycore_.config();

  SubstepScalars<memory_space> s;
  s.dtime = step.dtime;
  s.is_iau_active = step.is_iau_active;
  s.iau_wgt_dyn = step.iau_wgt_dyn;
  s.at_first_substep = step.at_first_substep;
  s.at_last_substep = step.at_last_substep;
  s.lprep_adv = s.prepare_advection = step.lprep_adv;
  s.r_nsubsteps = 1.0 / step.ndyn_substeps_var;
  s.ndyn_substeps_var = static_cast<double>(step.ndyn_substeps_var);
  s.rayleigh_damping_factor = rayleigh_damping_factor(space, step.dtime);
  s.interpolated_fourth_order_divdamp_factor = interpolated_fourth_order_divdamp_factor_;
  s.second_order_divdamp_factor = step.second_order_divdamp_factor;
  // delta_x**2 approximated by the mean cell area.
  s.second_order_divdamp_scaling_coeff =
      step.second_order_divdamp_factor * dycore_.inputs().mean_cell_area;
  const DivergenceDampingSwitches switches = divergence_damping_switches(
      config, s.second_order_divdamp_factor, s.second_order_divdamp_scaling_coeff);
  s.apply_2nd_order_divergence_damping = switches.second_order;
  s.apply_4th_order_divergence_damping = switches.fourth_order;
  const VelocityAdvectionScaleFactors scale = velocity_advection_scale_factors(step.dtime);
  s.cfl_w_limit = scale.cfl_w_limit;
  s.scalfac_exdiff = scale.scalfac_exdiff;
  // ICON's lvn_only: with itime_scheme 4 the corrector of the previous step computed the
  // vertical advection; only the model's very first substep recomputes it.
  s.skip_compute_predictor_vertical_advection =
      config.itime_scheme == 4 && !(step.at_initial_timestep && step.at_first_substep);
  s.substep_and_spatially_averaged_vn = prep_adv.vn_traj;
  s.substep_averaged_mass_flux = prep_adv.mass_flx_me;

  SolveNhDiagnosticState<memory_space> fields = diagnostic;
  fields.rho_iau_increment = or_zeros(diagnostic.rho_iau_increment, "rho_iau_increment");
  fields.normal_wind_iau_increment =
      or_zeros(diagnostic.normal_wind_iau_increment, "normal_wind_iau_increment");
  fields.exner_iau_increment = or_zeros(diagnostic.exner_iau_increment, "exner_iau_increment");
  fields.grf_tend_vn = or_zeros(diagnostic.grf_tend_vn, "grf_tend_vn");
  Call call{diagnostic, fields, current, next, TimeLevels<memory_space>(current, next),
            prep_adv,   s};

  run_predictor_step(space, call);
  run_corrector_step(space, call);

  compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
  if (dycore_.inputs().grid.limited_area) {
    ExnerFromRhothetaArguments<memory_space> a;
    solve_nh_fill::exner_from_rhotheta(a, next);
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
void SolveNonhydro<ExecSpace>::run_predictor_step(const ExecSpace& space, Call& call) {
  using M = memory_space;
  const auto& z = locals_;
  const auto& d = call.fields;
  const auto& next = call.next;
  const bool limited_area = dycore_.inputs().grid.limited_area;

  if (call.scalars.at_first_substep) {
    compat::ScopedRegion veltend(solve_nh_regions::veltend);
    const VelocityAdvectionFields<M> now{call.current.vn, call.current.w,
                                         d.predictor_normal_wind_advective_tendency,
                                         d.predictor_vertical_wind_advective_tendency};
    DiagnosticsFromNormalWindArguments<M> diagnostics;
    solve_nh_fill::diagnostics_from_normal_wind(diagnostics, d, z, now, call.scalars);
    dycore_.compute_diagnostics_from_normal_wind(space, diagnostics);
    AdvectionInPredictorVerticalMomentumArguments<M> vertical;
    solve_nh_fill::advection_in_predictor_vertical_momentum(vertical, d, z, now, call.scalars);
    dycore_.compute_advection_in_predictor_vertical_momentum(space, vertical);
    call.diagnostic.max_vertical_cfl =
        dycore_.max_vertical_cfl(space, z.vertical_cfl, call.diagnostic.max_vertical_cfl);
    AdvectionInHorizontalMomentumArguments<M> horizontal;
    solve_nh_fill::advection_in_horizontal_momentum(horizontal, d, z, now, call.scalars);
    dycore_.compute_advection_in_horizontal_momentum(space, horizontal);
  }

  {
    compat::ScopedRegion cellcomp(solve_nh_regions::cellcomp);
    PerturbedQuantitiesArguments<M> perturbed;
    solve_nh_fill::perturbed_quantities(perturbed, d, z, call.levels);
    dycore_.compute_perturbed_quantities_and_interpolation(space, perturbed);
  }

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    HydrostaticCorrectionArguments<M> hydrostatic;
    hydrostatic.theta_v = call.current.theta_v;
    hydrostatic.theta_v_ic = d.theta_v_at_cells_on_half_levels;
    hydrostatic.z_hydro_corr = z.hydrostatic_correction;
    dycore_.compute_hydrostatic_correction_term(space, hydrostatic);
    const int nlev = dycore_.inputs().nlev;
    dycore_.runner().on(space).points_levels(
        copy_lowest_level_label, IndexRange{0, dycore_.inputs().grid.num_edges}, nlev - 1, nlev,
        CopyLowestLevel<M>{z.hydrostatic_correction, z.hydrostatic_correction_on_lowest_level});
    RhoThetaPgradArguments<M> pgrad;
    solve_nh_fill::rho_theta_pgrad(pgrad, d, z, call.levels, call.scalars);
    dycore_.compute_rho_theta_pgrad_and_update_vn(space, pgrad);
  }

  exchange(space, Location::Edge,
           {halo_field(next.vn), halo_field(z.rho_at_edges_on_model_levels)});

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    // Velocity advection's vn here is the new time level's (the predictor's vn).
    const VelocityAdvectionFields<M> predicted{next.vn, next.w, {}, {}};
    HorizontalVelocityQuantitiesArguments<M> quantities;
    solve_nh_fill::horizontal_velocity_quantities(quantities, d, z, predicted);
    dycore_.compute_horizontal_velocity_quantities_and_fluxes(space, quantities);
  }

  {
    compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
    SolverPredictorArguments<M> solver;
    solve_nh_fill::solver_predictor(solver, d, z, call.levels, call.scalars);
    dycore_.vertically_implicit_solver_at_predictor_step(space, solver);

    if (limited_area) {
      Stencils6162Arguments<M> boundary;
      boundary.rho_now = call.current.rho;
      boundary.grf_tend_rho = d.grf_tend_rho;
      boundary.theta_v_now = call.current.theta_v;
      boundary.grf_tend_thv = d.grf_tend_thv;
      boundary.w_now = call.current.w;
      boundary.grf_tend_w = d.grf_tend_w;
      boundary.rho_new = next.rho;
      boundary.exner_new = next.exner;
      boundary.w_new = next.w;
      boundary.dtime = call.scalars.dtime;
      dycore_.stencils_61_62(space, boundary);
    }
    if (limited_area && dycore_.config().divdamp_type != DivergenceDampingType::TwoDimensional) {
      DwdzForDivergenceDampingArguments<M> dwdz;
      dwdz.w = next.w;
      dwdz.w_concorr_c = d.contravariant_correction_at_cells_on_half_levels;
      dwdz.z_dwdz_dd = z.dwdz_at_cells_on_model_levels;
      dycore_.compute_dwdz_for_divergence_damping(space, dwdz);
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
void SolveNonhydro<ExecSpace>::run_corrector_step(const ExecSpace& space, Call& call) {
  using M = memory_space;
  const auto& z = locals_;
  const auto& d = call.fields;
  const auto& next = call.next;
  const auto& prep_adv = call.prep_adv;

  {
    compat::ScopedRegion veltend(solve_nh_regions::veltend);
    const VelocityAdvectionFields<M> advected{next.vn, next.w,
                                              d.corrector_normal_wind_advective_tendency,
                                              d.corrector_vertical_wind_advective_tendency};
    AdvectionInCorrectorVerticalMomentumArguments<M> vertical;
    solve_nh_fill::advection_in_corrector_vertical_momentum(vertical, d, z, advected, call.scalars);
    dycore_.compute_advection_in_corrector_vertical_momentum(space, vertical);
    call.diagnostic.max_vertical_cfl =
        dycore_.max_vertical_cfl(space, z.vertical_cfl, call.diagnostic.max_vertical_cfl);
    AdvectionInHorizontalMomentumArguments<M> horizontal;
    solve_nh_fill::advection_in_horizontal_momentum(horizontal, d, z, advected, call.scalars);
    dycore_.compute_advection_in_horizontal_momentum(space, horizontal);
  }

  {
    compat::ScopedRegion cellcomp(solve_nh_regions::cellcomp);
    const VelocityAdvectionFields<M> advected{{}, next.w, {}, {}};
    InterpolationAndNonhydroBuoyArguments<M> buoy;
    solve_nh_fill::interpolation_and_nonhydro_buoy(buoy, d, z, call.levels, advected, call.scalars);
    dycore_.compute_interpolation_and_nonhydro_buoy(space, buoy);
  }

  {
    compat::ScopedRegion vnupd(solve_nh_regions::vnupd);
    DivergenceDampingArguments<M> divdamp;
    solve_nh_fill::divergence_damping(divdamp, d, z, call.levels, call.scalars);
    dycore_.apply_divergence_damping_and_update_vn(space, divdamp);
  }

  exchange(space, Location::Edge, {halo_field(next.vn)});

  {
    compat::ScopedRegion edgecomp(solve_nh_regions::edgecomp);
    const VelocityAdvectionFields<M> corrected{next.vn, {}, {}, {}};
    AveragedVnAndFluxesArguments<M> averaged;
    solve_nh_fill::averaged_vn_and_fluxes(averaged, d, z, corrected, call.scalars);
    dycore_.compute_averaged_vn_and_fluxes(space, averaged);
  }

  {
    compat::ScopedRegion vimpl(solve_nh_regions::vimpl);
    SolverCorrectorArguments<M> solver;
    solve_nh_fill::solver_corrector(solver, d, z, call.levels, prep_adv, call.scalars);
    dycore_.vertically_implicit_solver_at_corrector_step(space, solver);

    // The tracer fluxes on the lateral boundary (limited area).
    if (dycore_.inputs().grid.limited_area && call.scalars.lprep_adv) {
      if (call.scalars.at_first_substep) {
        InitCellKdimFieldArguments<M> zero;
        zero.field_with_zero_wp = prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels;
        dycore_.init_cell_kdim_field_with_zero_wp(space, zero);
      }
      MassFluxWeightedArguments<M> mass_flux;
      mass_flux.rho_ic = d.rho_at_cells_on_half_levels;
      mass_flux.w_now = call.current.w;
      mass_flux.w_new = next.w;
      mass_flux.w_concorr_c = d.contravariant_correction_at_cells_on_half_levels;
      mass_flux.mass_flx_ic = prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels;
      mass_flux.r_nsubsteps = call.scalars.r_nsubsteps;
      dycore_.update_mass_flux_weighted(space, mass_flux);
    }
  }

  exchange(space, Location::Cell,
           {halo_field(next.rho), halo_field(next.exner), halo_field(next.w)});
}

#define ICONDIFF_INSTANTIATE_SOLVE_NONHYDRO(SPACE) template class SolveNonhydro<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_SOLVE_NONHYDRO)

}  // namespace icondiff
