// ICON's dynamics time loop over the two granules: per advective time step, ndyn_substeps
// solve_nh substeps, then the horizontal diffusion on the new state, with ICON's time-level
// handling. It is ICON4Py 0.2.0's TimeLoop (model/driver/icon4py_driver.py: time_integration,
// _integrate_one_time_step, _do_dyn_substepping, _update_time_levels_for_velocity_tendencies),
// which stands for ICON's integrate_nh / perform_dyn_substepping without physics and tracers.
// The loop owns no field: the granules and the states are the caller's.
#pragma once

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>

namespace icondiff {

/// Every state the loop hands to the granules, in one memory space. `current` holds the newest
/// prognostic state between steps (ICON's nnow after the step's last swap).
template <class MemorySpace>
struct DynamicsStates {
  SolveNhPrognosticState<MemorySpace> current, next;
  SolveNhDiagnosticState<MemorySpace> solve_nh;
  SolveNhPrepAdvection<MemorySpace> prep_adv;
  DiffusionDiagnosticState<MemorySpace> diffusion;
};

/// The diffusion's view of a solve_nh prognostic state: the same vn, w, theta_v and exner Views
/// (the diffusion works on the new time level in place).
template <class MemorySpace>
DiffusionPrognosticState<MemorySpace> diffusion_state_of(
    const SolveNhPrognosticState<MemorySpace>& s) {
  DiffusionPrognosticState<MemorySpace> d;
  d.vn = s.vn;
  d.w = s.w;
  d.theta_v = s.theta_v;
  d.exner = s.exner;
  return d;
}

/// The run's time stepping (ICON4Py's Icon4pyRunConfig and TimeLoop arguments).
struct DynamicsTimeLoopConfig {
  double dtime = 0;       ///< the advective time step (s); each substep is dtime / ndyn_substeps
  int ndyn_substeps = 5;  ///< n_substeps
  /// Second-order divergence damping factor of every substep (ICON's divdamp_fac_o2; ICON4Py's
  /// driver passes one constant).
  double second_order_divdamp_factor = 0;
  bool lprep_adv = false;  ///< do_prep_adv: accumulate the tracer mass fluxes
  /// apply_initial_stabilization: one diffusion call (initial_run) on the initial state before
  /// the first step, when the diffusion applies to the horizontal wind.
  bool apply_initial_stabilization = true;

  /// Throws ConfigError naming a value out of range.
  void validate() const;
};

template <class ExecSpace>
class DynamicsTimeLoop {
 public:
  using memory_space = typename ExecSpace::memory_space;

  /// The granules are the caller's and must outlive the loop; `diffusion` may be nullptr (no
  /// diffusion: dynamics only). Throws ConfigError for an invalid configuration, or one that
  /// disagrees with the diffusion's (its ndyn_substeps).
  DynamicsTimeLoop(SolveNonhydro<ExecSpace>& solve_nh, Diffusion<ExecSpace>* diffusion,
                   const DynamicsTimeLoopConfig& config);

  /// One advective time step (ICON4Py's _integrate_one_time_step), the initial stabilisation
  /// first on the run's first step: ndyn_substeps solve_nh substeps (current -> next, the time
  /// levels swapped between substeps, the advective-tendency slots swapped as ICON4Py's
  /// _update_time_levels_for_velocity_tendencies does), the diffusion on next with dtime, and the
  /// final swap: on return `states.current` is the new state. max_vertical_cfl is reset to 0
  /// before the first substep (ICON's max_vcfl_dyn per step) and holds the step's maximum after.
  void step(const ExecSpace& space, DynamicsStates<memory_space>& states);

  /// Advective time steps done so far (the first step is the model's initial one).
  long steps_done() const { return steps_done_; }
  /// Continues a run whose states come from a checkpoint taken after `steps_done` steps: the
  /// next step is not the initial one (no initial stabilisation, no at_initial_timestep, the
  /// tendency slots swapped as after any step). Throws InvalidArgument for a negative count.
  void resume(long steps_done);
  const DynamicsTimeLoopConfig& config() const { return config_; }

 private:
  SolveNonhydro<ExecSpace>& solve_nh_;
  Diffusion<ExecSpace>* diffusion_;
  DynamicsTimeLoopConfig config_;
  long steps_done_ = 0;
};

}  // namespace icondiff
