// icondiff run: the diffusion granule on a generated or real ICON grid with a Jablonowski-
// Williamson state, for a number of steps; progress per step, then a per-kernel timer table
// (calls, median, min, max, effective GB/s by the byte model, share of a STREAM triad measured in
// the same run). Optional UGRID output, JSON timer report and savepoints of one call.
#include "commands.hpp"
#include "config_errors.hpp"
#include "cpu_affinity.hpp"
#include "memory_estimate.hpp"
#include "output_paths.hpp"
#include "ranks.hpp"
#include "statics_options.hpp"
#include "timer_report.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/diffusion/state_checks.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/partition_file.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_gather.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#endif

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>

namespace icondiff::cli {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

struct RunOptions {
  std::string grid_file;
  std::string generate = "R2B4";
  bool lam = false;
  std::string lam_region = "cap:8,46.5,30";
  int steps = 10;
  double dtime = 300.0;
  std::string strategy = "fused";
  std::string schedule = to_string(default_loop_schedule<Space>());
  /// kernels: every kernel fenced and timed; calls: one fence per call (the default on devices,
  /// where a fence per kernel exposes every launch's latency).
  std::string timing =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, M>::accessible ? "kernels" : "calls";
  int level_block = 1;  ///< levels per work item of the tiled schedules; 0: all
  std::string output;
  int output_every = 0;  ///< 0: only the first and last state
  std::string timers;
  std::string savepoints;
  int savepoint_step = 1;
  std::string partition;  ///< cell owners (one rank per line); empty: METIS
  bool quiet = false;
  bool overwrite = false;    ///< replace existing output files
  std::string max_memory;    ///< the memory a run may use ("8G"); empty: MemAvailable
  bool finite_check = true;  ///< stop at the first non-finite prognostic value after a step
  bool checks_only = false;  ///< stop after checking the options (add_run_checks_command)
  StaticsOptions statics;    ///< --nlev, the vertical grid and the topography
  double vn_noise = 1.0;
  double w_noise = 0.05;
  std::string config_file;  ///< the --config file read (an input no output may replace)
  DiffusionConfig config = mch_ch_r04b09_config();
  /// One option per field of diffusion_config_fields() with a namelist variable, holding its ICON
  /// namelist value (the slot of the field's kind); resolved_config() writes them into `config`.
  /// A deque: the options are bound to its elements, which must not move.
  struct NamelistOption {
    const ConfigField* field = nullptr;
    bool logical = false;
    int integer = 0;
    double real = 0.0;
  };
  std::deque<NamelistOption> namelist;
};

/// The namelist options, named as in ICON, bound to the configuration: one per field of
/// diffusion_config_fields() with a namelist variable ("--hdiff_order", ...), typed by its kind,
/// defaulting to `o.config`'s value in namelist units (--nudge_max_coeff is the raw ICON value).
void add_namelist_options(CLI::App& app, RunOptions& o) {
  const std::string group = "Diffusion settings (ICON namelist names)";
  for (const ConfigField& field : diffusion_config_fields()) {
    if (field.namelist == nullptr) continue;  // ICON-internal
    RunOptions::NamelistOption& slot = o.namelist.emplace_back();
    slot.field = &field;
    const double value = field.namelist_value(o.config);
    const std::string name = "--" + field.namelist_variable();
    const std::string help = fmt::format("{}: {}", field.namelist_group(), field.help);
    CLI::Option* option = nullptr;
    switch (field.kind) {
      case ConfigKind::Bool:
        slot.logical = value != 0.0;
        // ICON writes logicals as .TRUE. / .FALSE. (so does icondiff's own output): accepted
        // beside true/false, 1/0, on/off, yes/no.
        option = app.add_option(name, slot.logical, help)->transform([](std::string text) {
          std::string upper = text;
          for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          if (upper == ".TRUE." || upper == ".T.") return std::string("true");
          if (upper == ".FALSE." || upper == ".F.") return std::string("false");
          return text;
        });
        break;
      case ConfigKind::Enum:
      case ConfigKind::Int:
        slot.integer = static_cast<int>(value);
        option = app.add_option(name, slot.integer, help);
        break;
      case ConfigKind::Real:
        slot.real = value;
        option = app.add_option(name, slot.real, help);
        break;
    }
    option->group(group)->capture_default_str();
  }
  add_vertical_options(app, o.statics);
}

DiffusionConfig resolved_config(const RunOptions& o) {
  DiffusionConfig c = o.config;
  for (const RunOptions::NamelistOption& slot : o.namelist) {
    const ConfigField& field = *slot.field;
    const std::string name = field.namelist_variable();
    if (field.kind == ConfigKind::Real && !std::isfinite(slot.real))
      throw InvalidArgument(fmt::format("--{} {}: expected a finite number", name, slot.real));
    // Ranges beyond the granule's own rules: a negative or zero w e-folding ratio makes a
    // negative (anti-)diffusion coefficient; ICON runs use ndyn_substeps = 5 (rarely above 10).
    if (name == "hdiff_w_efdt_ratio" && !(slot.real > 0 && slot.real <= 1e6))
      throw InvalidArgument(fmt::format(
          "--hdiff_w_efdt_ratio {}: expected 0 < ratio <= 1e6 (w diffusion e-folding time / time "
          "step; <= 0 would be anti-diffusion)",
          slot.real));
    if (name == "ndyn_substeps" && (slot.integer < 1 || slot.integer > 100))
      throw InvalidArgument(fmt::format(
          "--ndyn_substeps {}: expected 1 .. 100 dynamics substeps per time step (ICON: 5)",
          slot.integer));
    switch (field.kind) {
      case ConfigKind::Bool: field.set_namelist_value(c, slot.logical ? 1.0 : 0.0); break;
      case ConfigKind::Enum:
      case ConfigKind::Int: field.set_namelist_value(c, slot.integer); break;
      case ConfigKind::Real: field.set_namelist_value(c, slot.real); break;
    }
  }
  c.validate();
  return c;
}

std::string grid_source(const RunOptions& o) {
  if (!o.grid_file.empty()) {
    if (o.lam)
      throw InvalidArgument("--lam cuts a generated grid; it cannot be combined with --grid");
    return o.grid_file;
  }
  return "generate:" + o.generate + (o.lam ? "/" + o.lam_region : "");
}

/// The largest |value| over the points with `owned(i) != 0` (every point when `owned` is empty).
double max_abs(const View2D<wp, M>& field, const View1D<int, M>& owned) {
  double m = 0;
  const auto f = field;
  const auto mask = owned;
  const bool masked = owned.size() != 0;
  const std::size_t n = f.extent(0), nk = f.extent(1);
  Kokkos::parallel_reduce(
      "icondiff::driver::max_abs", Kokkos::RangePolicy<Space>(0, n * nk),
      KOKKOS_LAMBDA(const std::size_t i, double& acc) {
        if (masked && mask(i % n) == 0) return;
        const double v = compat::fabs(f(i % n, i / n));
        if (v > acc) acc = v;
      },
      Kokkos::Max<double>(m));
  return m;
}

/// 1 for the points of `location` this rank owns (empty View on a grid that is not decomposed).
View1D<int, M> owned_mask(const Grid& grid, Location location) {
  const std::vector<int>& owner = grid.owner_rank(location);
  if (owner.empty()) return {};
  std::vector<int> mask(owner.size());
  for (std::size_t i = 0; i < owner.size(); ++i) mask[i] = owner[i] == grid.rank ? 1 : 0;
  return copy_to_view<int, M>("icondiff::driver::owned", mask);
}

/// The number of CPUs this process may run on (see allowed_cpu_count; Linux).
double allowed_cpus() {
  const int cpus = allowed_cpu_count();
  return cpus > 0 ? cpus : compat::concurrency(Space());
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

/// This rank's part of the run: its grid (the whole grid on one rank), the granule's inputs on
/// it, and the exchange (nullptr on one rank).
struct RankPart {
  Grid grid;
  DiffusionInputs<M> inputs;
  std::shared_ptr<HaloExchange<Space>> exchange;
#if ICONDIFF_HAVE_MPI
  std::shared_ptr<MpiHaloExchange<Space>> mpi_exchange;  ///< the same object, for its traffic
#endif
  std::string partition;  ///< how the cells were partitioned (for the report)
};

RankPart decompose(const Ranks& ranks, const HostDiffusionInputs& host, const RunOptions& o) {
  RankPart part;
  if (!ranks.decomposed()) {
    if (!o.partition.empty())
      throw InvalidArgument(fmt::format(
          "--partition {}: a partition needs a run on several MPI ranks (mpirun -np N icondiff "
          "run ...)",
          o.partition));
    part.grid = host.grid;
    part.inputs = make_diffusion_inputs<M>(host);
    return part;
  }
#if ICONDIFF_HAVE_MPI
  const Grid& whole = host.grid;
  std::vector<int> owner;
  ranks.collectively([&] {
    if (!o.partition.empty()) {
      // One line per cell ("17\n"; comments allowed): 64 bytes a cell and 1 MiB are far more
      // than a partition file holds, and a bound on what is read.
      check_input_file("--partition", o.partition,
                       (std::uintmax_t(whole.num_cells) + 1) * 64 + (std::uintmax_t(1) << 20));
      owner = read_partition_file(o.partition, whole.num_cells, ranks.size());
      part.partition = "file " + o.partition;
    } else {
      if (ranks.size() > whole.num_cells)
        throw InvalidArgument(
            fmt::format("{} ranks for a grid of {} cells: every rank needs at "
                        "least one cell",
                        ranks.size(), whole.num_cells));
      owner = partition_cells(whole, ranks.size());
      part.partition = "METIS k-way";
    }
    part.grid = make_local_grid(whole, owner, ranks.rank(), ranks.size());
    part.inputs = restrict_diffusion_inputs<M>(make_diffusion_inputs<Kokkos::HostSpace>(host),
                                               part.grid, "icondiff::driver::");
  });
  part.mpi_exchange = std::make_shared<MpiHaloExchange<Space>>(ranks.comm(), part.grid);
  part.exchange = part.mpi_exchange;
#endif
  return part;
}

/// Collective (several ranks): the whole grid's prognostic and diagnostic state on the root
/// (nullopt elsewhere).
struct WholeState {
  DiffusionPrognosticState<Kokkos::HostSpace> prognostic;
  DiffusionDiagnosticState<Kokkos::HostSpace> diagnostic;
};
std::optional<WholeState> gather_state([[maybe_unused]] const Ranks& ranks,
                                       [[maybe_unused]] const std::vector<RankPoints>& points,
                                       const DiffusionPrognosticState<M>& prognostic,
                                       const DiffusionDiagnosticState<M>& diagnostic) {
#if ICONDIFF_HAVE_MPI
  using H = Kokkos::HostSpace;
  const std::string scope = "icondiff::driver::output::";
  // gather_to_root reads host Views: device states are copied once, host states used as they are.
  const auto on_host = [&](const auto& state) {
    if constexpr (std::is_same_v<M, H>)
      return state;
    else
      return copy_state<H>(state, scope);
  };
  auto p = gather_to_root(ranks.comm(), on_host(prognostic), points, 0, scope);
  auto d = gather_to_root(ranks.comm(), on_host(diagnostic), points, 0, scope);
  if (ranks.root()) return WholeState{std::move(*p), std::move(*d)};
#else
  (void)prognostic;
  (void)diagnostic;
#endif
  return std::nullopt;
}

/// The timers of every rank as one table: per call, the slowest rank's time (what the decomposed
/// call costs); bytes summed over ranks; plus each label's per-rank medians (min, median, max over
/// ranks) for the load balance. On one rank: the rank's own timers.
struct GatheredTimers {
  KernelTimers slowest;
  std::map<std::string, double> bytes;
  std::map<std::string, std::array<double, 3>> rank_medians_ms;  ///< min, median, max
};
GatheredTimers gather_timers(const Ranks& ranks, const KernelTimers& timers,
                             const std::map<std::string, double>& bytes) {
  GatheredTimers g;
  for (const auto& [label, samples] : timers.samples()) {
    // Every rank launched the same kernels in the same order (SPMD), so the labels agree.
    for (double t : ranks.max_each(samples)) g.slowest.record(label, t);
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> medians = ranks.gather(sorted.empty() ? 0.0 : sorted[sorted.size() / 2]);
    std::sort(medians.begin(), medians.end());
    if (!medians.empty())
      g.rank_medians_ms[label] = {medians.front() * 1e3, medians[medians.size() / 2] * 1e3,
                                  medians.back() * 1e3};
  }
  for (const auto& [label, b] : bytes) g.bytes[label] = ranks.sum(b);
  return g;
}

/// Per granule call and location: exchanges, messages and bytes sent by all ranks, and the
/// slowest rank's time inside start() + wait(). Collective; a table and the same as JSON (both
/// empty on one rank).
struct HaloReport {
  std::string table;
  nlohmann::json json;
};
HaloReport report_halo_traffic(const Ranks& ranks, const RankPart& part, int calls) {
  HaloReport report;
#if ICONDIFF_HAVE_MPI
  if (!part.mpi_exchange) return report;
  std::string& table = report.table;
  table = fmt::format(
      "\nhalo exchanges per call (all ranks; the driver's θ_v/exner/w exchange between calls "
      "included; time: slowest rank inside start() + wait()):\n{:<10} {:>10} {:>10} {:>12} "
      "{:>10}\n",
      "location", "exchanges", "messages", "MB sent", "ms");
  for (Location location : all_locations) {
    const MpiHaloTraffic& t = part.mpi_exchange->traffic(location);
    const double exchanges = ranks.max(static_cast<double>(t.exchanges)) / calls;
    const double messages = ranks.sum(static_cast<double>(t.messages_sent)) / calls;
    const double megabytes = ranks.sum(static_cast<double>(t.bytes_sent)) / calls * 1e-6;
    const double ms = ranks.max(t.start_seconds + t.wait_seconds) / calls * 1e3;
    table += fmt::format("{:<10} {:>10.1f} {:>10.1f} {:>12.3f} {:>10.3f}\n", to_string(location),
                         exchanges, messages, megabytes, ms);
    report.json[to_string(location)] = {{"exchanges", exchanges},
                                        {"messages", messages},
                                        {"megabytes_sent", megabytes},
                                        {"ms_slowest_rank", ms}};
  }
#else
  (void)ranks;
  (void)part;
  (void)calls;
#endif
  return report;
}

int run_driver(const RunOptions& o) {
  const Ranks ranks = Ranks::world();
  DiffusionConfig config;
  DiffusionStrategy strategy{};
  std::string source;
  // Options are the same on every rank, but a rank started with other arguments (MPMD) must not
  // leave the others waiting: every check is agreed on.
  double memory_limit = 0;
  std::string memory_limit_source;
  ranks.collectively([&] {
    config = resolved_config(o);
    strategy = parse_strategy(o.strategy);
    if (o.steps < 1) throw InvalidArgument(fmt::format("--steps {}: expected at least 1", o.steps));
    if (!(o.dtime > 0) || !std::isfinite(o.dtime))
      throw InvalidArgument(
          fmt::format("--dtime {}: expected a positive, finite time step (s)", o.dtime));
    // The output's and the savepoints' times go up to steps x dtime: finite, or the run would
    // fail only when it writes them.
    if (!std::isfinite(o.dtime * o.steps))
      throw InvalidArgument(fmt::format(
          "--dtime {}: the run's end time --steps {} x --dtime = {} s is not finite; expected a "
          "time step below {:g} s",
          o.dtime, o.steps, o.dtime * o.steps, std::numeric_limits<double>::max() / o.steps));
    check_vertical_options(o.statics);
    if (o.output_every < 0)
      throw InvalidArgument(fmt::format(
          "--output-every {}: expected 0 (first and last state only) or a positive step count",
          o.output_every));
    if (!o.savepoints.empty() && (o.savepoint_step < 1 || o.savepoint_step > o.steps))
      throw InvalidArgument(fmt::format("--savepoint-step {}: expected a call in 1..{} (--steps)",
                                        o.savepoint_step, o.steps));
    // Noise on the initial state: a perturbation, not a different atmosphere (|vn| of the JW
    // jet is 35 m/s, |w| of the resting state 0).
    if (!(o.vn_noise >= 0 && o.vn_noise <= 50))
      throw InvalidArgument(fmt::format("--vn-noise {}: expected 0..50 m/s", o.vn_noise));
    if (!(o.w_noise >= 0 && o.w_noise <= 10))
      throw InvalidArgument(fmt::format("--w-noise {}: expected 0..10 m/s", o.w_noise));
    source = grid_source(o);
    // A generated grid that cannot fit is refused before it is generated.
    memory_limit =
        o.max_memory.empty() ? available_memory_bytes() : parse_bytes("--max-memory", o.max_memory);
    memory_limit_source =
        o.max_memory.empty() ? std::string("available (MemAvailable)") : "of --max-memory";
    if (const double cells = generated_cells(source); cells > 0)
      check_memory(o.grid_file.empty() ? "--generate " + o.generate : "--grid " + o.grid_file,
                   cells, o.statics.nlev, memory_limit, memory_limit_source);
    // Every input the run reads: a regular file (a device or FIFO is not read without end).
    std::vector<NamedPath> inputs;
    if (!o.grid_file.empty() && generated_cells(o.grid_file) < 0) {
      check_input_file("--grid", o.grid_file, std::numeric_limits<std::uintmax_t>::max());
      inputs.push_back({"--grid", o.grid_file});
    }
    if (!o.config_file.empty()) inputs.push_back({"--config", o.config_file});
    if (!o.partition.empty()) {
      check_input_file("--partition", o.partition, std::numeric_limits<std::uintmax_t>::max());
      inputs.push_back({"--partition", o.partition});
    }
    // Every output before any work: never over an input or another output (each savepoint file
    // of every rank included), never over a device or FIFO, never over an existing file without
    // --overwrite, in a folder that exists and is writable.
    std::vector<std::string> input_paths;
    for (const NamedPath& input : inputs) input_paths.push_back(input.path);
    std::vector<NamedPath> outputs;
    if (!o.output.empty()) {
      check_output_file("--output", o.output, input_paths, o.overwrite);
      outputs.push_back({"--output", o.output});
    }
    if (!o.timers.empty()) {
      check_output_file("--timers", o.timers, input_paths, o.overwrite);
      outputs.push_back({"--timers", o.timers});
    }
    if (!o.savepoints.empty()) {
      std::vector<std::string> files;
      for (int r = 0; r < ranks.size(); ++r)
        for (const char* kind : {"diffusion-init", "diffusion-exit"}) {
          const std::string file =
              kind + (ranks.decomposed() ? fmt::format(".rank{}.nc", r) : std::string(".nc"));
          files.push_back(file);
          outputs.push_back(
              {"--savepoints", (std::filesystem::path(o.savepoints) / file).string()});
        }
      check_output_directory("--savepoints", o.savepoints, files, o.overwrite);
    }
    check_outputs_distinct(outputs, inputs);
  });
  if (o.checks_only) return 0;
  const auto say = [&](const std::string& text) {
    if (!o.quiet && ranks.root()) fmt::print("{}", text);
  };

  // ---- Grid and inputs (the whole grid, on every rank) ----
  const auto t0 = std::chrono::steady_clock::now();
  Grid grid;
  if (!o.quiet && ranks.root() && ::isatty(STDOUT_FILENO))
    fmt::print("grid        {} {} ...\n", generated_cells(source) > 0 ? "generating" : "reading",
               source);
  ranks.collectively([&] {
    grid = load_grid_source(source);
    // A grid file's size is known once it is read; its fields are not allocated yet.
    if (generated_cells(source) < 0)
      check_memory("--grid " + source, grid.num_cells, o.statics.nlev, memory_limit,
                   memory_limit_source);
  });
  // Every rank must read the same grid (MPMD launches could give them different ones). Both
  // reductions run on every rank.
  const double most_cells = ranks.max(grid.num_cells), fewest_cells = -ranks.max(-grid.num_cells);
  ranks.agree(
      most_cells != fewest_cells
          ? fmt::format("the ranks read grids of {:.0f} to {:.0f} cells (this rank: {} from "
                        "{}): every rank must read the same grid",
                        fewest_cells, most_cells, grid.num_cells, source)
          : "");
  const DiffusionSetupConfig setup = statics_setup_config(o.statics);
  HostDiffusionInputs host;
  if (!o.quiet && ranks.root() && ::isatty(STDOUT_FILENO))
    fmt::print("setup       geometry, coefficients, metrics ...\n");
  ranks.collectively([&] { host = compute_diffusion_inputs(std::move(grid), config, setup); });
  const auto& g = host.grid;
  const int nlev = host.metrics.vertical.num_levels();
  say(fmt::format("grid        {} ({}; {} cells, {} edges, {} vertices)\n", source,
                  g.limited_area ? "limited area" : "global", g.num_cells, g.num_edges,
                  g.num_vertices));
  say(fmt::format("vertical    {} levels, top {} m, damping layer down to half level {}\n", nlev,
                  host.metrics.vertical.vct_a.front(),
                  host.metrics.vertical.end_index_of_damping_layer));
  std::size_t steep = 0;
  for (std::size_t i = 0; i < host.metrics.zd_diffcoef.rows() * host.metrics.zd_diffcoef.cols();
       ++i)
    steep += host.metrics.zd_diffcoef.data()[i] != 0.0;
  say(fmt::format("metrics     {} cell-levels get truly horizontal temperature diffusion\n",
                  steep));
  const RankPart part = decompose(ranks, host, o);
  const Grid& local = part.grid;
  const FieldSizes whole_sizes{
      static_cast<std::size_t>(g.num_cells), static_cast<std::size_t>(g.num_edges),
      static_cast<std::size_t>(g.num_vertices), static_cast<std::size_t>(nlev)};
  const RankPoints my_points = rank_points(local, whole_sizes);
  if (ranks.decomposed()) {
    const auto owned = [&](Location l) {
      long long n = 0;
      for (std::size_t i = 0; i < my_points.size(l); ++i) n += my_points.owns(l, i);
      return static_cast<double>(n);
    };
    const std::vector<double> owned_cells = ranks.gather(owned(Location::Cell));
    const std::vector<double> local_cells = ranks.gather(static_cast<double>(local.num_cells));
    if (ranks.root())
      say(fmt::format(
          "ranks       {} MPI ranks ({}): owned cells per rank {:.0f}..{:.0f}, with "
          "halo {:.0f}..{:.0f}\n",
          ranks.size(), part.partition, *std::min_element(owned_cells.begin(), owned_cells.end()),
          *std::max_element(owned_cells.begin(), owned_cells.end()),
          *std::min_element(local_cells.begin(), local_cells.end()),
          *std::max_element(local_cells.begin(), local_cells.end())));
  }
  const std::vector<RankPoints> all_points =
#if ICONDIFF_HAVE_MPI
      ranks.decomposed() ? gather_rank_points(ranks.comm(), my_points, 0) :
#endif
                         std::vector<RankPoints>{my_points};
  const DiffusionInputs<M>& inputs = part.inputs;

  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = o.vn_noise;
  jw.w_noise_amplitude = o.w_noise;
  jw.noise_seed = 1;
  const InitialState initial =
      jablonowski_williamson_state(g, host.metrics.z_ifc, host.metrics.z_mc, jw);
  DiffusionPrognosticState<M> prognostic =
      ranks.decomposed()
          ? copy_state<M>(restrict_to_local(to_prognostic_state<Kokkos::HostSpace>(initial), local,
                                            whole_sizes, "icondiff::driver::"),
                          "icondiff::driver::")
          : to_prognostic_state<M>(initial);
  auto diagnostic =
      allocate_state<DiffusionDiagnosticState, M>(inputs.sizes(), "icondiff::driver::");
  DiffusionOptions<Space> options;
  options.strategy = strategy;
  options.schedule = parse_loop_schedule(o.schedule);
  options.level_block = o.level_block;
  options.exchange = part.exchange;
  std::unique_ptr<Diffusion<Space>> granule;
  ranks.collectively(
      [&] { granule = std::make_unique<Diffusion<Space>>(config, inputs, options); });
  Diffusion<Space>& diffusion = *granule;
  const TimerScope timer_scope = o.timing == "calls" ? TimerScope::calls : TimerScope::kernels;
  KernelTimers timers(timer_scope);
  diffusion.set_timers(&timers);
  const View1D<int, M> owned_edges = owned_mask(local, Location::Edge);
  const View1D<int, M> owned_cells = owned_mask(local, Location::Cell);
  const double setup_seconds =
      ranks.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  say(fmt::format("setup       {:.2f} s (grid, geometry, coefficients, metrics, JW state)\n",
                  setup_seconds));
  // Every rank measures at once: the sum is what the ranks together get from memory.
  const double stream = ranks.sum(measure_stream_bandwidth().triad_gbs);
  const int threads = compat::concurrency(Space());
  // A parent process may have narrowed this process's CPU set (an OpenMP runtime that bound the
  // parent's main thread passes that binding on): threads beyond it share CPUs.
  const int cpus = static_cast<int>(-ranks.max(-allowed_cpus()));
  say(fmt::format(
      "machine     {} with {} threads{} on {} allowed CPUs, STREAM triad {:.1f} GB/s{}\n",
      Space::name(), threads,
      ranks.decomposed() ? fmt::format(" per rank × {} ranks", ranks.size()) : "", cpus, stream,
      ranks.decomposed() ? " (all ranks at once)" : ""));
  if (ranks.root() && std::is_same_v<M, Kokkos::HostSpace> && threads > cpus)
    fmt::print(stderr,
               "icondiff: warning: {} threads but only {} CPUs allowed to this process (see "
               "taskset -p {}): timings will be slow\n",
               threads, cpus, static_cast<long>(::getpid()));
  say(
      fmt::format("diffusion   {} strategy, {} loops, dtime {} s, {} steps (the first is ICON's "
                  "initial call)\n\n",
                  to_string(strategy), o.schedule, o.dtime, o.steps));

  // ---- Output (one file of the whole grid, written by rank 0) ----
  std::map<std::string, std::string> attributes;
  for (const auto& [name, value] : icon_namelist_values(config)) attributes[name] = value;
  attributes["icondiff:grid_source"] = source;
  attributes["icondiff:strategy"] = to_string(strategy);
  attributes["icondiff:dtime"] = fmt::format("{}", o.dtime);
  attributes["icondiff:version"] = ICONDIFF_VERSION_STRING;
  std::unique_ptr<UgridWriter> writer;
  // The writer writes `<name>.tmp.<pid>.<n>` beside its file: for a name too long for that
  // (NAME_MAX), it writes a short hidden name in the same folder, renamed to --output at the end.
  const std::string writer_path =
      o.output.empty() || temporary_fits_beside(o.output) ? o.output : temporary_beside(o.output);
  const auto write_output = [&](double time) {
    // One rank writes its own states as they are (no copy); several gather to rank 0 first.
    if (!ranks.decomposed()) return writer->write_step(time, prognostic, &diagnostic);
    const std::optional<WholeState> whole = gather_state(ranks, all_points, prognostic, diagnostic);
    ranks.collectively([&] {
      if (whole) writer->write_step(time, whole->prognostic, &whole->diagnostic);
    });
  };
  if (!o.output.empty()) {
    ranks.collectively([&] {
      if (!ranks.root()) return;
      const auto& vct_a = host.metrics.vertical.vct_a;
      std::vector<double> full(nlev);
      for (int k = 0; k < nlev; ++k) full[k] = 0.5 * (vct_a[k] + vct_a[k + 1]);
      remove_temporaries_on_signal(writer_path);
      if (writer_path != o.output) remove_on_signal(writer_path);
      writer = std::make_unique<UgridWriter>(writer_path, g, full, vct_a, attributes);
    });
    write_output(0.0);
  }

  // ---- Steps ----
  const SavepointGridReference reference = make_grid_reference(local, source);
  const std::string savepoint_suffix =
      ranks.decomposed() ? fmt::format(".rank{}.nc", ranks.rank()) : std::string(".nc");
  for (int step = 1; step <= o.steps; ++step) {
    const bool initial_run = step == 1;
    std::optional<DiffusionSavepoint> init;
    if (!o.savepoints.empty() && step == o.savepoint_step) {
      init = capture_diffusion_init(config, reference, inputs, diagnostic, prognostic, o.dtime,
                                    initial_run);
      if (ranks.decomposed()) init->decomposition = my_points;
    }
    diffusion.run(diagnostic, prognostic, o.dtime, initial_run);
    // NWP physics: the rest of ICON exchanges θ_v, exner and w before the next call.
    if (!config.exchanges_at_end(initial_run))
      diffusion.exchange_prognostic_halos(Space(), prognostic);
    if (init) {
      const auto dir = std::filesystem::path(o.savepoints);
      const auto in = (dir / ("diffusion-init" + savepoint_suffix)).string();
      const auto out = (dir / ("diffusion-exit" + savepoint_suffix)).string();
      init->metadata["step"] = std::to_string(step);
      if (ranks.decomposed()) init->metadata["rank"] = std::to_string(ranks.rank());
      ranks.collectively([&] {
        std::filesystem::create_directories(o.savepoints);
        remove_temporaries_on_signal(in);
        remove_temporaries_on_signal(out);
        write_diffusion_savepoint(in, *init);
        write_diffusion_savepoint(out, capture_diffusion_exit(*init, diagnostic, prognostic));
      });
      say(ranks.decomposed()
              ? fmt::format("            savepoints of step {} written: {}/diffusion-{{init,exit}}"
                            ".rank{{0..{}}}.nc\n",
                            step, o.savepoints, ranks.size() - 1)
              : fmt::format("            savepoints of step {} written: {}, {}\n", step, in, out));
    }
    if (o.finite_check) {
      const std::optional<NonFiniteValue> bad = find_non_finite(Space(), prognostic);
      ranks.collectively([&] {
        if (!bad) return;
        const std::vector<index_t>& global = local.global_index(bad->location);
        throw Error(fmt::format(
            "step {}: {} is not finite ({}) at {} {}{} (1-based), level {} (1-based); the run "
            "stops here (--no-finite-check runs on)",
            step, bad->field, bad->value, to_string(bad->location), bad->point + 1,
            global.empty() ? std::string() : fmt::format(" (global {})", global[bad->point] + 1),
            bad->level + 1));
      });
    }
    const double ms = ranks.max(timers.samples().at(diffusion_labels::run).back() * 1e3);
    const double vn_max = ranks.max(max_abs(prognostic.vn, owned_edges));
    const double w_max = ranks.max(max_abs(prognostic.w, owned_cells));
    say(fmt::format(
        "step {:>4}/{:<4} t = {:>8.0f} s  {:>8.3f} ms   max|vn| = {:7.3f} m/s   max|w| = {:.3e} "
        "m/s\n",
        step, o.steps, step * o.dtime, ms, vn_max, w_max));
    // A batch job killed at its wall time must still have the lines of the steps it finished.
    if (ranks.root()) std::fflush(stdout);
    if (!o.output.empty() &&
        ((o.output_every > 0 && step % o.output_every == 0) || step == o.steps))
      write_output(step * o.dtime);
  }
  if (!o.output.empty()) {
    ranks.collectively([&] {
      if (!writer) return;
      writer->close();
      if (writer_path == o.output) return;
      std::error_code ec;
      std::filesystem::rename(writer_path, o.output, ec);
      if (ec) {
        std::filesystem::remove(writer_path, ec);
        throw OutputFileError(o.output, "cannot move the written file into place");
      }
    });
    say(fmt::format("\noutput      {} ({} times)\n", o.output,
                    writer ? writer->steps_written() : 0));
  }

  // ---- Timer report (rank 0) ----
  const auto bytes = diffusion_kernel_bytes(diffusion.ranges(), local.num_cells, local.num_edges,
                                            local.num_vertices, nlev, config, strategy);
  const GatheredTimers gathered = gather_timers(ranks, timers, bytes);
  const HaloReport halo = report_halo_traffic(ranks, part, o.steps);
  if (!ranks.root()) return 0;
  const auto entries = timer_entries(gathered.slowest, gathered.bytes);
  fmt::print(
      "\n{} ({} calls, {}; GB/s by the byte model of performance_model.md{}):\n{}",
      timer_scope == TimerScope::kernels ? "per-kernel timers" : "whole-call timer", o.steps,
      timer_scope == TimerScope::kernels
          ? "fenced after every kernel"
          : "one fence per call, kernels unfenced as in production; --timing kernels for each",
      ranks.decomposed()
          ? fmt::format("; per call the slowest of {} ranks, bytes of all ranks", ranks.size())
          : "",
      format_timer_table(entries, stream));
  const double minimum = diffusion_minimum_bytes(g.num_cells, g.num_edges, g.num_vertices, nlev);
  const double median_call = entries.at("nh_hdiff").median_ms * 1e-3;
  fmt::print(
      "whole call: {:.3f} ms median = {:.2f} GB/s against the 276 B/cell-level minimum ({:.0f}% of "
      "STREAM)\n",
      median_call * 1e3, minimum / median_call * 1e-9, 100 * minimum / median_call * 1e-9 / stream);
  if (ranks.decomposed()) {
    const auto& spread = gathered.rank_medians_ms.at(diffusion_labels::run);
    fmt::print(
        "load balance: whole-call median per rank {:.3f} / {:.3f} / {:.3f} ms (min / median "
        "/ max over {} ranks)\n",
        spread[0], spread[1], spread[2], ranks.size());
    fmt::print("{}", halo.table);
  }
  if (!o.timers.empty()) {
    nlohmann::json metadata = {{"icondiff_version", ICONDIFF_VERSION_STRING},
                               {"kokkos_version", compat::kokkos_version_string()},
                               {"execution_space", Space::name()},
                               {"concurrency", threads},
                               {"cpus_allowed", cpus},
                               {"ranks", ranks.size()},
                               {"grid", source},
                               {"cells", g.num_cells},
                               {"edges", g.num_edges},
                               {"vertices", g.num_vertices},
                               {"nlev", nlev},
                               {"steps", o.steps},
                               {"dtime", o.dtime},
                               {"strategy", to_string(strategy)},
                               {"timing", o.timing},
                               {"stream_triad_gbs", stream},
                               {"date", utc_now()},
                               {"latency_unit", "ms"},
                               {"bandwidth_unit", "GB/s"}};
    for (const auto& [name, value] : attributes) metadata["config"][name] = value;
    if (ranks.decomposed()) {
      metadata["timers_over_ranks"] = "per call, the slowest rank; bandwidth: bytes of all ranks";
      metadata["partition"] = part.partition;
      metadata["halo_per_call"] = halo.json;
      for (const auto& [label, spread] : gathered.rank_medians_ms)
        metadata["rank_median_ms"][timer_name(label)] = {
            {"min", spread[0]}, {"median", spread[1]}, {"max", spread[2]}};
    }
    write_text_file(o.timers, timer_report_json(entries, metadata).dump(2) + "\n");
    say(fmt::format("timers      {}\n", o.timers));
  }
  return 0;
}

/// A path option given as "": refused (an empty --grid would run the default grid, an empty
/// --output write nothing) instead of read as "not given".
CLI::Validator non_empty(const char* expected) {
  return CLI::Validator(
      [expected](std::string& value) {
        return value.empty() ? fmt::format("empty value, expected {}", expected) : std::string();
      },
      "");
}

Command add_run_options(CLI::App& app, bool checks_only) {
  auto o = std::make_shared<RunOptions>();
  o->checks_only = checks_only;
  app.add_option("--grid", o->grid_file,
                 "ICON grid netCDF file (global or limited area), or a generated source "
                 "generate:RnBk[/cap:LON,LAT,R | /box:LON0,LON1,LAT0,LAT1]")
      ->check(non_empty("a grid file or generate:RnBk"));
  app.add_option("--generate", o->generate, "generate a global icosahedral grid RnBk")
      ->capture_default_str();
  app.add_flag("--lam", o->lam, "cut a limited-area grid out of the generated one");
  app.add_option("--lam-region", o->lam_region,
                 "cap:LON,LAT,RADIUS or box:LON0,LON1,LAT0,LAT1 (degrees)")
      ->capture_default_str();
  app.add_option("--steps", o->steps, "number of diffusion calls")->capture_default_str();
  app.add_option("--dtime", o->dtime, "time step passed to the granule (s)")->capture_default_str();
  app.add_option("--strategy", o->strategy, "fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}))
      ->capture_default_str();
  app.add_option("--loop-schedule", o->schedule, "how kernels map (point, level) to threads")
      ->check(CLI::IsMember({"points-outer", "mdrange", "flat", "level-chunks"}))
      ->capture_default_str();
  app.add_option("--level-block", o->level_block,
                 "levels per work item of level-chunks and mdrange (0: all levels)")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  app.add_option("--output", o->output, "write a CF/UGRID netCDF file")
      ->check(non_empty("a file name"));
  app.add_option("--output-every", o->output_every,
                 "also write every N steps (0: first and last only)");
  app.add_option("--timers", o->timers, "write the timer report as JSON")
      ->check(non_empty("a file name"));
  app.add_option("--timing", o->timing,
                 "kernels: fence and time every kernel; calls: time whole calls only, one fence "
                 "per call (default on GPUs)")
      ->check(CLI::IsMember({"kernels", "calls"}))
      ->capture_default_str();
  app.add_option("--savepoints", o->savepoints,
                 "write diffusion-init.nc / diffusion-exit.nc of one call here")
      ->check(non_empty("a folder"));
  app.add_option("--savepoint-step", o->savepoint_step, "the call to capture")
      ->capture_default_str();
  app.add_option("--vn-noise", o->vn_noise, "amplitude of random noise added to vn (m/s)")
      ->capture_default_str();
  app.add_option("--w-noise", o->w_noise,
                 "amplitude of random noise added to w inside the column (m/s)")
      ->capture_default_str();
  app.add_option("--partition", o->partition,
                 "under mpirun: the owner rank of every cell, one per line (gpmetis format); "
                 "default: METIS k-way")
      ->check(non_empty("a partition file"));
  app.add_flag("--quiet", o->quiet, "print only the timer table");
  app.add_option("--max-memory", o->max_memory,
                 "refuse a run estimated to need more (e.g. 8G); default: the available memory");
  app.add_flag("--overwrite", o->overwrite,
               "replace existing output files (--output, --timers, savepoints); never an input");
  app.add_flag("!--no-finite-check", o->finite_check,
               "do not stop at the first non-finite vn, w, theta_v or exner after a step");
  add_namelist_options(app, *o);
  return [o, &app] {
    o->config_file = config_file_of(app);
    return run_driver(*o);
  };
}

}  // namespace

Command add_run_command(CLI::App& app) {
  return add_run_options(app, false);
}

Command add_run_checks_command(CLI::App& app) {
  return add_run_options(app, true);
}

}  // namespace icondiff::cli
