// The horizontal diffusion granule: ICON's mo_nh_diffusion / ICON4Py's Diffusion.run, on any
// Kokkos execution space (diffusion_spec.md §3).
#pragma once

#include <icondiff/comm/halo_exchange.hpp>
#include <icondiff/core/kernel_runner.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/core/written_region.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_params.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/diffusion/diffusion_stencils.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>
#include <icondiff/profiling/kernel_timers.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace icondiff {

/// How the steps are mapped to kernels. Both give the same results (to round-off; see
/// docs/dev/diffusion.md for where and why they are not bit-identical).
enum class DiffusionStrategy {
  /// One kernel per ICON4Py program, including ICON4Py's copies of w and theta_v: the structure
  /// of ICON's OpenACC code.
  Unfused,
  /// As few passes over memory as the data dependencies allow: no copy of w, whose Laplacian is
  /// stored once instead of recomputed at every neighbour (docs/dev/diffusion.md gives the
  /// dependency analysis, and why theta keeps its copy and the cold pools their kernel).
  Fused,
};

const char* to_string(DiffusionStrategy strategy);
/// "fused" or "unfused"; throws ConfigError otherwise.
DiffusionStrategy parse_strategy(const std::string& name);

/// The horizontal ranges of every step (diffusion_spec §3.0), fixed by the grid's zones.
struct DiffusionRanges {
  IndexRange rbf_vertices;           ///< S2, S5: [S(V,LB2), E(V,LOCAL))
  IndexRange nabla2_edges;           ///< S3: [S(E,LB5), E(E,HALO_LEVEL_2))
  IndexRange turbulence_cells;       ///< S4, S11: [S(C,NUDGING), E(C,LOCAL))
  IndexRange vn_edges;               ///< S6: [S(E,LB5), E(E,LOCAL))
  index_t start_2nd_nudge_line = 0;  ///< S6 split: S(E,NUDGING_LEVEL_2)
  IndexRange w_cells;                ///< S8 output: [w_start, E(C,HALO))
  IndexRange w_updated_cells;        ///< S8 update: [S(C,INTERIOR), E(C,LOCAL))
  IndexRange cold_pool_edges;        ///< S9: [S(E,NUDGING), E(E,HALO))
  IndexRange all_cells;              ///< S7, S10 copies
};

/// The ranges for `grid`; w_start is S(C,NUDGING) on limited-area grids, S(C,LB4) otherwise.
template <class MemorySpace>
DiffusionRanges diffusion_ranges(const DeviceGrid<MemorySpace>& grid);

/// How a granule is run; everything but the configuration and the inputs.
template <class ExecSpace>
struct DiffusionOptions {
  DiffusionStrategy strategy = DiffusionStrategy::Fused;
  /// How kernels map (point, level) to threads (default: the fastest measured for the backend).
  LoopSchedule schedule = default_loop_schedule<ExecSpace>();
  /// Levels per work item of the level-chunks and mdrange schedules (all_levels: every level).
  index_t level_block = 1;
  /// The halo exchange of a decomposed grid; nullptr: one rank (SingleNodeExchange).
  std::shared_ptr<HaloExchange<ExecSpace>> exchange = nullptr;
  /// The instance run() enqueues on unless run() is given one.
  ExecSpace space = ExecSpace();
};

template <class ExecSpace>
class Diffusion {
 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;

  /// ICON4Py's Diffusion.__init__: validates everything (configuration, vertical grid, extents of
  /// every input against the grid and nlev, missing neighbours inside the ranges the kernels
  /// use), derives the parameters and profiles, and allocates every temporary once. The inputs'
  /// Views are shared, not copied (they may wrap the caller's memory).
  /// Throws ConfigError, InvalidArgument or GridError naming what is wrong.
  Diffusion(const DiffusionConfig& config, const DiffusionInputs<memory_space>& inputs,
            const DiffusionOptions<ExecSpace>& options = {});

  /// One diffusion step: updates vn, w, theta_v and exner in place and writes the turbulence
  /// diagnostics (ICON4Py Diffusion.run; diffusion_spec §3). `dtime` must be > 0. Kernels are
  /// enqueued on `space` (or the options' instance) and not fenced (unless timers are attached).
  /// The call runs inside the Kokkos profiling region `nh_hdiff`, each step (kernel or exchange)
  /// inside its own region (diffusion_labels.hpp; docs/user/profiling.md).
  void run(const ExecSpace& space, const DiffusionDiagnosticState<memory_space>& diagnostic,
           const DiffusionPrognosticState<memory_space>& prognostic, double dtime,
           bool initial_run = false);
  void run(const DiffusionDiagnosticState<memory_space>& diagnostic,
           const DiffusionPrognosticState<memory_space>& prognostic, double dtime,
           bool initial_run = false) {
    run(default_space_, diagnostic, prognostic, dtime, initial_run);
  }

  /// The halo exchange of θ_v, exner and w (the fields of X5/X6) that ICON's dycore does after a
  /// call that left X5/X6 out (NWP/AES physics, not the initial call): a driver that stands in
  /// for the rest of the model calls it between granule calls on a decomposed grid. Fences `space`
  /// before exchanging; does nothing on one rank.
  void exchange_prognostic_halos(const ExecSpace& space,
                                 const DiffusionPrognosticState<memory_space>& prognostic);

  /// Attaches timers (kernel_timers.hpp: every kernel fenced and timed, or the whole call only) or
  /// detaches them (nullptr).
  void set_timers(KernelTimers* timers) { runner_.set_timers(timers); }
  void set_strategy(DiffusionStrategy strategy) { strategy_ = strategy; }
  void set_loop_schedule(LoopSchedule schedule) { runner_.set_schedule(schedule); }
  LoopSchedule loop_schedule() const { return runner_.schedule(); }
  /// Levels per work item of the level-chunks and mdrange schedules (all_levels: every level).
  void set_level_block(index_t level_block) { runner_.set_level_block(level_block); }
  index_t level_block() const { return runner_.level_block(); }
  DiffusionStrategy strategy() const { return strategy_; }

  const DiffusionConfig& config() const { return config_; }
  const DiffusionParams& params() const { return params_; }
  const DiffusionProfiles& profiles() const { return profiles_; }
  const DiffusionInputs<memory_space>& inputs() const { return inputs_; }
  int num_levels() const { return nlev_; }
  const DiffusionRanges& ranges() const { return ranges_; }
  /// Where run() writes the diagnostic-state field `field` (hdef_ic, div_ic, dwdx, dwdy: the
  /// turbulence diagnostics, which run() writes and never reads) with this configuration and
  /// grid; empty where it writes none of it. InvalidArgument for a name that is not one of them.
  WrittenRegion diagnostic_written_region(std::string_view field) const;

 private:
  /// The launches of one call on the call's instance (KernelRunner::on): every step below takes
  /// it, so the instance travels with the call and is never stored in the granule.
  using Launch = typename KernelRunner<ExecSpace>::Launch;

  void check_neighbours_in_ranges() const;
  /// One exchange step (X1-X3, X5, X6) inside its profiling region `label`.
  void exchange(const Launch& launch, const std::string& label, Location location, HaloField a,
                HaloField b = {});
  void fence_for_exchange(const Launch& launch);
  /// S4's cells and half levels: where div_ic and hdef_ic are written.
  WrittenRegion turbulence_region() const;

  /// S1-S6 and the start of the vn exchange (X4a): the same kernels in both strategies.
  HaloExchangeHandle run_steps_up_to_vn(const Launch& launch,
                                        const DiffusionDiagnosticState<memory_space>& diagnostic,
                                        const DiffusionPrognosticState<memory_space>& prognostic,
                                        bool initial_run, double dtime);
  /// S9, S10, S11 (temperature): the same kernels in both strategies.
  void run_theta_steps(const Launch& launch,
                       const DiffusionPrognosticState<memory_space>& prognostic);
  /// X5 and X6.
  void run_final_exchanges(const Launch& launch,
                           const DiffusionPrognosticState<memory_space>& prognostic,
                           bool initial_run);
  /// S7, S8 as ICON4Py (copy of w, one program).
  void run_w_unfused(const Launch& launch, const DiffusionDiagnosticState<memory_space>& diagnostic,
                     const DiffusionPrognosticState<memory_space>& prognostic);
  /// S7, S8 without the copy: Laplacian once, then the in-place update.
  void run_w_fused(const Launch& launch, const DiffusionDiagnosticState<memory_space>& diagnostic,
                   const DiffusionPrognosticState<memory_space>& prognostic);

  DiffusionConfig config_;
  DiffusionParams params_;
  DiffusionProfiles profiles_;
  int nlev_ = 0;
  int nrd_ = 0;
  DiffusionInputs<memory_space> inputs_;
  DiffusionRanges ranges_;
  DiffusionStrategy strategy_;
  std::shared_ptr<HaloExchange<ExecSpace>> exchange_;
  ExecSpace default_space_;
  KernelRunner<ExecSpace> runner_;
  DiffusionTemporaries<memory_space> tmp_;
};

}  // namespace icondiff
