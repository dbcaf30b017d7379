#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/timeloop/dynamics_time_loop.hpp>

#include <cmath>
#include <string>
#include <utility>

namespace icondiff {

void DynamicsTimeLoopConfig::validate() const {
  if (!(std::isfinite(dtime) && dtime > 0))
    throw ConfigError("dynamics time loop: dtime must be a finite number of seconds > 0, got " +
                      std::to_string(dtime));
  if (ndyn_substeps < 1)
    throw ConfigError("dynamics time loop: ndyn_substeps must be >= 1, got " +
                      std::to_string(ndyn_substeps));
  if (!(std::isfinite(second_order_divdamp_factor) && second_order_divdamp_factor >= 0))
    throw ConfigError(
        "dynamics time loop: second_order_divdamp_factor must be finite and >= 0, got " +
        std::to_string(second_order_divdamp_factor));
}

template <class ExecSpace>
DynamicsTimeLoop<ExecSpace>::DynamicsTimeLoop(SolveNonhydro<ExecSpace>& solve_nh,
                                              Diffusion<ExecSpace>* diffusion,
                                              const DynamicsTimeLoopConfig& config)
    : solve_nh_(solve_nh), diffusion_(diffusion), config_(config) {
  config_.validate();
  // The diffusion scales its coefficients by the substep count (ICON's ndyn_substeps): a
  // different count here would diffuse with the wrong strength, silently.
  if (diffusion_ && diffusion_->config().ndyn_substeps != config_.ndyn_substeps)
    throw ConfigError("dynamics time loop: ndyn_substeps is " +
                      std::to_string(config_.ndyn_substeps) + " but the diffusion was set up for " +
                      std::to_string(diffusion_->config().ndyn_substeps));
}

template <class ExecSpace>
void DynamicsTimeLoop<ExecSpace>::step(const ExecSpace& space,
                                       DynamicsStates<memory_space>& states) {
  const bool first_step_in_simulation = steps_done_ == 0;
  const bool diffuse = diffusion_ && diffusion_->config().apply_to_horizontal_wind;
  // time_integration: the initial stabilisation before the loop's first step.
  if (diffuse && config_.apply_initial_stabilization && first_step_in_simulation)
    diffusion_->run(space, states.diffusion, diffusion_state_of(states.current), config_.dtime,
                    /*initial_run=*/true);

  auto& diagnostic = states.solve_nh;
  diagnostic.max_vertical_cfl = 0;
  const int n = config_.ndyn_substeps;
  for (int substep = 0; substep < n; ++substep) {
    const bool first = substep == 0, last = substep == n - 1;
    // _update_time_levels_for_velocity_tendencies: the corrector's advective tendencies of the
    // previous substep become this substep's predictor ones (itime_scheme 4).
    if (!(first_step_in_simulation && first))
      std::swap(diagnostic.predictor_vertical_wind_advective_tendency,
                diagnostic.corrector_vertical_wind_advective_tendency);
    if (!first)
      std::swap(diagnostic.predictor_normal_wind_advective_tendency,
                diagnostic.corrector_normal_wind_advective_tendency);
    SolveNhStep s;
    s.second_order_divdamp_factor = config_.second_order_divdamp_factor;
    s.dtime = config_.dtime / n;
    s.ndyn_substeps_var = n;
    s.at_initial_timestep = first_step_in_simulation;
    s.lprep_adv = config_.lprep_adv;
    s.at_first_substep = first;
    s.at_last_substep = last;
    solve_nh_.time_step(space, diagnostic, states.current, states.next, states.prep_adv, s);
    if (!last) std::swap(states.current, states.next);
  }
  // _integrate_one_time_step: the diffusion on the new state, then the final swap.
  if (diffuse)
    diffusion_->run(space, states.diffusion, diffusion_state_of(states.next), config_.dtime);
  std::swap(states.current, states.next);
  ++steps_done_;
}

template <class ExecSpace>
void DynamicsTimeLoop<ExecSpace>::resume(long steps_done) {
  if (steps_done < 0)
    throw InvalidArgument("dynamics time loop: resume after " + std::to_string(steps_done) +
                          " steps: expected a count >= 0");
  steps_done_ = steps_done;
}

#define ICONDIFF_INSTANTIATE_DYNAMICS_TIME_LOOP(SPACE) template class DynamicsTimeLoop<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DYNAMICS_TIME_LOOP)

}  // namespace icondiff
