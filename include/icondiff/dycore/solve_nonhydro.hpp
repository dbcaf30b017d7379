// The solve_nh granule: one dynamics substep of ICON's non-hydrostatic dynamical core
// (mo_solve_nonhydro's solve_nh with velocity_tendencies) as ICON4Py 0.2.0's
// SolveNonhydro.time_step runs it: the predictor and the corrector, each a sequence of Dycore
// programs (dycore.hpp) and halo exchanges in ICON4Py's order (docs/dev/solve_nonhydro.md lists
// them). Built like Diffusion: a configuration, the static bundle, options; the per-call states
// are the caller's (solve_nonhydro_states.hpp), the granule's temporaries its own.
#pragma once

#include <icondiff/comm/halo_exchange.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/solve_nonhydro_states.hpp>
#include <icondiff/profiling/kernel_timers.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff {

template <class ExecSpace>
struct SolveNonhydroOptions {
  /// How kernels map (point, level) to threads.
  LoopSchedule schedule = default_loop_schedule<ExecSpace>();
  /// The halo exchange of a decomposed grid; nullptr: one rank (SingleNodeExchange).
  std::shared_ptr<HaloExchange<ExecSpace>> exchange = nullptr;
  /// The instance time_step() enqueues on unless it is given one.
  ExecSpace space = ExecSpace();
};

/// The Kokkos Tools regions of a substep, named as ICON's timers (mo_timer.f90) so that a
/// profile of icondiff reads like ICON's timer report.
namespace solve_nh_regions {
inline const std::string solve_nh = "nh_solve";
/// velocity_tendencies (VelocityAdvection's predictor and corrector steps).
inline const std::string veltend = "nh_solve.veltend";
/// The cell computations before the edge work (perturbations, half-level interpolation).
inline const std::string cellcomp = "nh_solve.cellcomp";
/// The edge computations (upwind rho/theta, pressure gradient, fluxes).
inline const std::string edgecomp = "nh_solve.edgecomp";
/// The corrector's vn update with divergence damping.
inline const std::string vnupd = "nh_solve.vnupd";
/// The vertically implicit solver and the boundary programs after it.
inline const std::string vimpl = "nh_solve.vimpl";
/// The halo exchanges.
inline const std::string exch = "nh_solve.exch";
}  // namespace solve_nh_regions

template <class ExecSpace>
class SolveNonhydro {
 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;

  /// ICON4Py's SolveNonhydro.__init__: validates the configuration as ICON4Py's
  /// NonHydrostaticConfig does (DycoreConfig::validate_for_solve_nh) and the static inputs (the
  /// Dycore's checks), computes the fourth-order divergence damping factor of each level from
  /// `vct_a` (the nlev + 1 nominal interface heights, ICON's vct_a; en_smag_fac_for_zero_nshift)
  /// and allocates every temporary once (zeroed). The inputs' Views are shared.
  /// Throws ConfigError or InvalidArgument naming what is wrong.
  SolveNonhydro(const DycoreConfig& config, const DycoreInputs<memory_space>& inputs,
                const std::vector<double>& vct_a,
                const SolveNonhydroOptions<ExecSpace>& options = {});

  /// One dynamics substep (ICON4Py's SolveNonhydro.time_step): reads `current` and the
  /// diagnostic state, writes `next`, the diagnostic fields solve_nh writes and, with
  /// step.lprep_adv, `prep_adv`; raises diagnostic.max_vertical_cfl to this substep's largest
  /// vertical CFL number. Kernels and exchanges are enqueued on `space`; the call returns after
  /// the last exchange (max_vertical_cfl comes back to the host, which fences `space`).
  /// Inside the Kokkos Tools region `nh_solve`, its parts in ICON's timer regions
  /// (solve_nh_regions). Throws InvalidArgument naming a field with wrong extents, a missing
  /// limited-area tendency or IAU increment that the call needs, or a scalar out of range.
  void time_step(const ExecSpace& space, SolveNhDiagnosticState<memory_space>& diagnostic,
                 const SolveNhPrognosticState<memory_space>& current,
                 const SolveNhPrognosticState<memory_space>& next,
                 const SolveNhPrepAdvection<memory_space>& prep_adv, const SolveNhStep& step);
  void time_step(SolveNhDiagnosticState<memory_space>& diagnostic,
                 const SolveNhPrognosticState<memory_space>& current,
                 const SolveNhPrognosticState<memory_space>& next,
                 const SolveNhPrepAdvection<memory_space>& prep_adv, const SolveNhStep& step) {
    time_step(default_space_, diagnostic, current, next, prep_adv, step);
  }

  /// Attaches timers (every kernel fenced and timed under its label) or detaches them.
  void set_timers(KernelTimers* timers) { dycore_.runner().set_timers(timers); }

  const DycoreConfig& config() const { return dycore_.config(); }
  const DycoreInputs<memory_space>& inputs() const { return dycore_.inputs(); }
  /// The granule's temporaries (read them to inspect a substep; tests and savepoints).
  const SolveNhLocalFields<memory_space>& local_fields() const { return locals_; }
  /// enh_divdamp_fac: the fourth-order divergence damping factor of each level.
  const LevelProfile<memory_space>& interpolated_fourth_order_divdamp_factor() const {
    return interpolated_fourth_order_divdamp_factor_;
  }
  /// The programs, for a caller that runs parts of a substep itself.
  Dycore<ExecSpace>& dycore() { return dycore_; }

 private:
  void check_call(const SolveNhDiagnosticState<memory_space>& diagnostic,
                  const SolveNhPrognosticState<memory_space>& current,
                  const SolveNhPrognosticState<memory_space>& next,
                  const SolveNhPrepAdvection<memory_space>& prep_adv,
                  const SolveNhStep& step) const;
  /// The caller's field, or (when it is empty) a zero field of the same shape allocated once:
  /// what ICON4Py's binding passes for absent IAU increments.
  template <class View>
  View or_zeros(const View& field, const char* name);
  /// One blocking exchange inside nh_solve.exch, fencing `space` first when it moves data.
  void exchange(const ExecSpace& space, Location location, std::initializer_list<HaloField> fields);
  /// z_raylfac for `dtime`, recomputed when dtime changes (ICON4Py's _get_rayleigh_damping_factor).
  const LevelProfile<memory_space>& rayleigh_damping_factor(const ExecSpace& space, double dtime);

  /// One call's fields and scalars under the names the programs give them (the sources their
  /// arguments are filled from by name; src/dycore/solve_nonhydro.cpp).
  struct Call;
  void run_predictor_step(const ExecSpace& space, Call& call);
  void run_corrector_step(const ExecSpace& space, Call& call);

  Dycore<ExecSpace> dycore_;
  std::shared_ptr<HaloExchange<ExecSpace>> exchange_;
  ExecSpace default_space_;
  SolveNhLocalFields<memory_space> locals_;
  LevelProfile<memory_space> interpolated_fourth_order_divdamp_factor_;
  LevelProfile<memory_space> rayleigh_damping_factor_;
  double dtime_previous_substep_ = 0;
  /// Zero fields standing in for absent optional inputs, by field name (allocated on first need).
  std::map<std::string, Kokkos::View<wp**, FieldLayout, memory_space>> zeros_wp_;
  std::map<std::string, Kokkos::View<vp**, FieldLayout, memory_space>> zeros_vp_;
};

}  // namespace icondiff
