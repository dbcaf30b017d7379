// The options of `icondiff run`, shared by its two models (the dynamics: ICON's time loop over
// solve_nh and the diffusion, dynamics_run.cpp; the diffusion alone, run_command.cpp), and the
// helpers both drivers use: the checks made before any work, the namelist options bound to a
// granule's configuration table, the decomposition of the grid, per-rank reductions and the
// gathered timers.
#pragma once

#include "memory_estimate.hpp"
#include "ranks.hpp"
#include "statics_options.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/config_table.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/state_checks.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/profiling/kernel_timers.hpp>
#include <icondiff/setup/rank_setup.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_halo_exchange.hpp>
#endif

namespace icondiff::cli {

using RunSpace = Kokkos::DefaultExecutionSpace;
using RunMemory = RunSpace::memory_space;

/// One command-line option per field of a granule's configuration table with a namelist variable
/// ("--hdiff_order"), typed by its kind, holding the ICON namelist value; only the options given
/// (on the command line or in --config) are applied, onto the model's own defaults.
template <class Config>
struct NamelistOptionOf {
  const ConfigFieldOf<Config>* field = nullptr;
  CLI::Option* option = nullptr;
  bool logical = false;
  int integer = 0;
  double real = 0.0;
};

/// What `icondiff run` runs.
enum class RunModel {
  dynamics,   ///< ICON's dynamics: ndyn_substeps x solve_nh, then the diffusion, per step
  diffusion,  ///< the diffusion granule alone on a fixed state
};

struct RunOptions {
  RunModel model = RunModel::dynamics;
  std::string grid_file;
  std::string generate = "R2B4";
  bool lam = false;
  std::string lam_region = "cap:8,46.5,30";
  int steps = 10;
  double dtime = 300.0;
  std::string strategy = "fused";
  std::string schedule = to_string(default_loop_schedule<RunSpace>());
  /// kernels: every kernel fenced and timed; calls: one fence per call (the default on devices,
  /// where a fence per kernel exposes every launch's latency).
  std::string timing =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, RunMemory>::accessible ? "kernels" : "calls";
  int level_block = 1;  ///< levels per work item of the tiled schedules; 0: all
  std::string output;
  int output_every = 0;  ///< 0: only the first and last state
  std::string timers;
  std::string savepoints;
  int savepoint_step = 1;
  std::string partition;        ///< cell owners (one rank per line); empty: METIS or bisection
  std::string setup = "local";  ///< under mpirun: "local" (extended grids) or "whole"
  bool quiet = false;
  bool overwrite = false;    ///< replace existing output files
  std::string max_memory;    ///< the memory a run may use ("8G"); empty: MemAvailable
  bool finite_check = true;  ///< stop at the first non-finite prognostic value after a step
  bool checks_only = false;  ///< stop after checking the options (add_run_checks_command)
  StaticsOptions statics;    ///< --nlev, the vertical grid and the topography
  double vn_noise = 1.0;
  double w_noise = 0.05;
  /// nh_testcase_nml:jw_up: amplitude of JW06's zonal-wind perturbation that starts the wave
  /// (m/s; 0: the steady state).
  double jw_up = 1.0;
  /// dynamics: ICON's divdamp_fac_o2, the second-order divergence damping factor of every
  /// substep (0 outside ICON's spin-up; ICON4Py's JW run passes 0).
  double divdamp_fac_o2 = 0.0;
  /// dynamics: write a checkpoint of every rank into this folder every checkpoint_every steps
  /// (0: at the end of the run only); continue from the latest complete one in restart_dir.
  std::string checkpoint_dir;
  int checkpoint_every = 0;
  std::string restart_dir;
  std::string config_file;  ///< the --config file read (an input no output may replace)
  /// The diffusion's and the dycore's namelist options (a deque: options bind to its elements,
  /// which must not move).
  std::deque<NamelistOptionOf<DiffusionConfig>> diffusion_namelist;
  std::deque<NamelistOptionOf<DycoreConfig>> dycore_namelist;
};

/// Registers one option per namelist field of `table` not registered yet (a variable two
/// granules share, interpol_nml:nudge_max_coeff, is one option, bound to the first), in `group`,
/// with `defaults`' values as the shown defaults.
template <class Config>
void add_namelist_options(CLI::App& app, const std::vector<ConfigFieldOf<Config>>& table,
                          const Config& defaults, const std::string& group,
                          std::deque<NamelistOptionOf<Config>>& slots);

/// `base` with every namelist option that was given applied (the ones with count() > 0), then the
/// command line's range rules beyond the granule's and validate(). Throws InvalidArgument or
/// ConfigError naming the option.
DiffusionConfig resolved_diffusion_config(const RunOptions& o, const DiffusionConfig& base);
DycoreConfig resolved_dycore_config(const RunOptions& o, const DycoreConfig& base);

/// The grid source of --grid / --generate / --lam.
std::string grid_source(const RunOptions& o);

/// What check_run_options found: the grid source and the memory limit.
struct RunChecks {
  std::string source;
  double memory_limit = 0;
  std::string memory_limit_source;
  long restart_step = 0;  ///< --restart: the checkpoint's step count (0: the run starts afresh)
};

/// Every check made before any work, agreed on by every rank: the options' ranges, the memory
/// estimate of a generated grid (memory_estimate.hpp, per model), inputs that
/// are regular files, outputs that are new (or --overwrite), distinct and never an input.
RunChecks check_run_options(const Ranks& ranks, const RunOptions& o);

/// The file name of the checkpoint after `step` steps of `rank` of `ranks` ("step000144.nc",
/// "step000144.rank1.nc").
std::string checkpoint_file_name(long step, int rank, int ranks);

/// The latest step of `directory` with a checkpoint of every one of `ranks` ranks; -1 if none.
long latest_checkpoint_step(const std::string& directory, int ranks);

/// The largest |value| over the points with `owned(i) != 0` (every point when `owned` is empty).
double max_abs(const View2D<wp, RunMemory>& field, const View1D<int, RunMemory>& owned);
/// The smallest value over the points with `owned(i) != 0` (every point when `owned` is empty).
double min_value(const View1D<wp, RunMemory>& field, const View1D<int, RunMemory>& owned);

/// 1 for the points of `location` this rank owns (empty View on a grid that is not decomposed).
View1D<int, RunMemory> owned_mask(const Grid& grid, Location location);

/// The number of CPUs this process may run on (see allowed_cpu_count; Linux).
double allowed_cpus();

/// "2026-11-28T05:40:00Z".
std::string utc_now();

/// The exchange between the ranks' local grids and how the cells were partitioned.
struct LocalPart {
  std::shared_ptr<HaloExchange<RunSpace>> exchange;  ///< nullptr on one rank
#if ICONDIFF_HAVE_MPI
  std::shared_ptr<MpiHaloExchange<RunSpace>> mpi_exchange;  ///< the same object, for its traffic
#endif
  std::string partition;  ///< how the cells were partitioned (for the report)
};

/// What the run's set-up gives this rank (--setup): its local grid and where the factories run
/// (the whole grid, or its extended grid when no rank holds the whole grid), the exchange, the
/// factories' configuration and the whole grid's facts.
struct RunSetUp {
  RankGrids grids;
  LocalPart part;
  std::array<index_t, 3> whole_points{};  ///< the whole grid's cells, edges, vertices
  bool limited_area = false;
  StaticsSetupConfig statics;  ///< with the whole grid's RBF scales on extended grids
  /// The factories' cell exchange on an extended grid; empty otherwise.
  CellHaloExchange factory_exchange;
  /// The whole grid's mean cell area on an extended grid (agreed over MPI); 0 otherwise.
  double whole_mean_cell_area = 0;
  std::string where;  ///< where the factories run (for the report)
};

/// Collective: the grid is read or generated and this rank's part set up. One rank: the whole
/// grid. Several ranks with --setup whole: every rank reads the whole grid and runs the factories
/// on it; the cells are partitioned by --partition or METIS k-way. With --setup local (the
/// default): every rank reads only its block of a grid file (a generated grid is generated whole
/// and cut), the cells are partitioned by --partition (each rank keeps its block's lines) or by
/// recursive coordinate bisection, and the factories run on each rank's extended grid.
RunSetUp set_up_rank(const Ranks& ranks, const RunOptions& o, const RunChecks& checks,
                     MemoryModel model);

/// Collective: the whole grid's quantities of statics computed on an extended grid
/// (set_whole_grid_quantities); nothing otherwise.
void finish_statics(const Ranks& ranks, const RunSetUp& setup, HostStaticInputs& host);

/// The timers of every rank as one table: per call, the slowest rank's time (what the decomposed
/// call costs); bytes summed over ranks; plus each label's per-rank medians (min, median, max over
/// ranks) for the load balance. On one rank: the rank's own timers.
struct GatheredTimers {
  KernelTimers slowest;
  std::map<std::string, double> bytes;
  std::map<std::string, std::array<double, 3>> rank_medians_ms;  ///< min, median, max
};
GatheredTimers gather_timers(const Ranks& ranks, const KernelTimers& timers,
                             const std::map<std::string, double>& bytes);

/// Per granule call and location: exchanges, messages and bytes sent by all ranks, and the
/// slowest rank's time inside start() + wait(). Collective; a table and the same as JSON (both
/// empty on one rank).
struct HaloReport {
  std::string table;
  nlohmann::json json;
};
HaloReport report_halo_traffic(const Ranks& ranks, const LocalPart& part, int calls,
                               const std::string& per);

/// "machine ..." line facts: the execution space's threads, the CPUs allowed (the fewest over
/// ranks), and a STREAM triad measured by every rank at once (summed).
struct MachineFacts {
  int threads = 0;
  int cpus = 0;
  double stream_gbs = 0;
};
MachineFacts measure_machine(const Ranks& ranks);

/// The run's JSON metadata common to both models.
nlohmann::json run_metadata(const Ranks& ranks, const RunOptions& o, const MachineFacts& machine,
                            const std::string& source, const std::array<index_t, 3>& whole_points,
                            int nlev);

/// Says how the cells are spread over the ranks (decomposed runs) and returns every rank's
/// points on the root (this rank's alone elsewhere and on one rank): what the output gathers by.
void describe_ranks(const Ranks& ranks, const RunSetUp& setup, const RankPoints& mine,
                    const std::function<void(const std::string&)>& say);

/// Collective: ends the run with the first non-finite prognostic value after `step`, if any,
/// naming the field, the point (its global index when decomposed) and the level.
void stop_if_not_finite(const Ranks& ranks, const Grid& local, long step,
                        const std::optional<NonFiniteValue>& bad);

/// Collective: the run's UGRID file of the whole grid at `writer_path`: written by every rank
/// from its `local` grid and fields when decomposed (netCDF's parallel I/O, no gather), by the
/// one process otherwise.
std::unique_ptr<UgridWriter> make_output_writer(
    const Ranks& ranks, const std::string& writer_path, const Grid& local,
    const std::vector<double>& vct_a, const std::map<std::string, std::string>& attributes,
    const UgridWriterOptions& options = {});

/// Collective: closes the output written through `writer_path` and moves it to `output` when the
/// two differ (a name too long for the temporary suffix).
void close_output(const Ranks& ranks, UgridWriter* writer, const std::string& writer_path,
                  const std::string& output);

/// This rank's `state` as host Views (for the output): the state itself in host memory, a copy of
/// a device state.
template <template <class> class State>
State<Kokkos::HostSpace> state_on_host(const State<RunMemory>& state) {
  using H = Kokkos::HostSpace;
  if constexpr (std::is_same_v<RunMemory, H>)
    return state;
  else
    return copy_state<H>(state, "icondiff::driver::output::");
}

int run_diffusion(const RunOptions& o);
int run_dynamics(const RunOptions& o);

}  // namespace icondiff::cli
