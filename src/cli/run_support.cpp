// The helpers both models of `icondiff run` use (run_options.hpp).
#include "run_options.hpp"

#include "cpu_affinity.hpp"
#include "memory_estimate.hpp"
#include "output_paths.hpp"

#if ICONDIFF_HAVE_MPI
#endif

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_grid_from_blocks.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/grid/zones.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/partition_file.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>

namespace icondiff::cli {

template <class Config>
void add_namelist_options(CLI::App& app, const std::vector<ConfigFieldOf<Config>>& table,
                          const Config& defaults, const std::string& group,
                          std::deque<NamelistOptionOf<Config>>& slots) {
  for (const ConfigFieldOf<Config>& field : table) {
    if (field.namelist == nullptr) continue;  // ICON-internal
    const std::string name = "--" + field.namelist_variable();
    if (app.get_option_no_throw(name) != nullptr) continue;  // shared with another granule
    NamelistOptionOf<Config>& slot = slots.emplace_back();
    slot.field = &field;
    const double value = field.namelist_value(defaults);
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
    slot.option = option;
  }
}

template void add_namelist_options(CLI::App&, const std::vector<ConfigFieldOf<DiffusionConfig>>&,
                                   const DiffusionConfig&, const std::string&,
                                   std::deque<NamelistOptionOf<DiffusionConfig>>&);
template void add_namelist_options(CLI::App&, const std::vector<ConfigFieldOf<DycoreConfig>>&,
                                   const DycoreConfig&, const std::string&,
                                   std::deque<NamelistOptionOf<DycoreConfig>>&);

namespace {

/// Applies the given options of `slots` onto `c`; `rule(name, slot)` adds the command line's
/// range rules.
template <class Config, class Rule>
void apply_namelist_options(const std::deque<NamelistOptionOf<Config>>& slots, Config& c,
                            Rule&& rule) {
  for (const NamelistOptionOf<Config>& slot : slots) {
    if (slot.option == nullptr || slot.option->count() == 0) continue;
    const ConfigFieldOf<Config>& field = *slot.field;
    const std::string name = field.namelist_variable();
    if (field.kind == ConfigKind::Real && !std::isfinite(slot.real))
      throw InvalidArgument(fmt::format("--{} {}: expected a finite number", name, slot.real));
    rule(name, slot);
    switch (field.kind) {
      case ConfigKind::Bool: field.set_namelist_value(c, slot.logical ? 1.0 : 0.0); break;
      case ConfigKind::Enum:
      case ConfigKind::Int: field.set_namelist_value(c, slot.integer); break;
      case ConfigKind::Real: field.set_namelist_value(c, slot.real); break;
    }
  }
}

}  // namespace

DiffusionConfig resolved_diffusion_config(const RunOptions& o, const DiffusionConfig& base) {
  DiffusionConfig c = base;
  apply_namelist_options(
      o.diffusion_namelist, c,
      [](const std::string& name, const NamelistOptionOf<DiffusionConfig>& slot) {
        // Ranges beyond the granule's own rules: a negative or zero w e-folding ratio makes a
        // negative (anti-)diffusion coefficient; ICON runs use ndyn_substeps = 5 (rarely above
        // 10).
        if (name == "hdiff_w_efdt_ratio" && !(slot.real > 0 && slot.real <= 1e6))
          throw InvalidArgument(fmt::format(
              "--hdiff_w_efdt_ratio {}: expected 0 < ratio <= 1e6 (w diffusion e-folding time / "
              "time step; <= 0 would be anti-diffusion)",
              slot.real));
        if (name == "ndyn_substeps" && (slot.integer < 1 || slot.integer > 100))
          throw InvalidArgument(fmt::format(
              "--ndyn_substeps {}: expected 1 .. 100 dynamics substeps per time step (ICON: 5)",
              slot.integer));
      });
  c.validate();
  return c;
}

DycoreConfig resolved_dycore_config(const RunOptions& o, const DycoreConfig& base) {
  DycoreConfig c = base;
  apply_namelist_options(o.dycore_namelist, c,
                         [](const std::string&, const NamelistOptionOf<DycoreConfig>&) {});
  // Options one namelist variable sets for both granules, bound to the diffusion's (or the
  // metric factory's) option: the dycore reads the same value, as in ICON.
  for (const auto& slot : o.diffusion_namelist)
    if (slot.option != nullptr && slot.option->count() > 0 &&
        std::string(slot.field->namelist) == "interpol_nml:nudge_max_coeff")
      for (const auto& field : dycore_config_fields())
        if (field.namelist != nullptr && std::string(field.namelist) == slot.field->namelist)
          field.set_namelist_value(c, slot.real);
  c.divdamp_type = static_cast<DivergenceDampingType>(o.statics.dycore_metrics.divdamp_type);
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

RunChecks check_run_options(const Ranks& ranks, const RunOptions& o) {
  RunChecks checks;
  // Options are the same on every rank, but a rank started with other arguments (MPMD) must not
  // leave the others waiting: every check is agreed on.
  ranks.collectively([&] {
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
    if (o.model == RunModel::dynamics && !o.savepoints.empty())
      throw InvalidArgument(
          "--savepoints: the dynamics run writes no savepoints yet; --model diffusion writes the "
          "diffusion's");
    if (o.model == RunModel::diffusion && (!o.checkpoint_dir.empty() || !o.restart_dir.empty()))
      throw InvalidArgument(
          "--checkpoint-dir/--restart: the diffusion-only run has no checkpoints (the dynamics "
          "run, --model dynamics, has)");
    if (o.checkpoint_every < 0)
      throw InvalidArgument(fmt::format(
          "--checkpoint-every {}: expected 0 (at the end only) or a positive step count",
          o.checkpoint_every));
    if (o.checkpoint_every > 0 && o.checkpoint_dir.empty())
      throw InvalidArgument("--checkpoint-every needs --checkpoint-dir (where to write them)");
    if (o.model == RunModel::dynamics && o.statics.nlev < 3)
      throw InvalidArgument(fmt::format(
          "--nlev {}: the dynamics needs at least 3 levels (the surface pressure reads the "
          "lowest three)",
          o.statics.nlev));
    if (!std::isfinite(o.divdamp_fac_o2) || o.divdamp_fac_o2 < 0 || o.divdamp_fac_o2 > 0.5)
      throw InvalidArgument(
          fmt::format("--divdamp_fac_o2 {}: expected 0 .. 0.5 (ICON: 0 outside its spin-up)",
                      o.divdamp_fac_o2));
    if (!o.savepoints.empty() && (o.savepoint_step < 1 || o.savepoint_step > o.steps))
      throw InvalidArgument(fmt::format("--savepoint-step {}: expected a call in 1..{} (--steps)",
                                        o.savepoint_step, o.steps));
    // Noise on the initial state: a perturbation, not a different atmosphere (|vn| of the JW
    // jet is 35 m/s, |w| of the resting state 0).
    if (!(o.vn_noise >= 0 && o.vn_noise <= 50))
      throw InvalidArgument(fmt::format("--vn-noise {}: expected 0..50 m/s", o.vn_noise));
    if (!(o.w_noise >= 0 && o.w_noise <= 10))
      throw InvalidArgument(fmt::format("--w-noise {}: expected 0..10 m/s", o.w_noise));
    checks.source = grid_source(o);
    // A generated grid that cannot fit is refused before it is generated.
    checks.memory_limit =
        o.max_memory.empty() ? available_memory_bytes() : parse_bytes("--max-memory", o.max_memory);
    checks.memory_limit_source =
        o.max_memory.empty() ? std::string("available (MemAvailable)") : "of --max-memory";
    if (const double cells = generated_cells(checks.source); cells > 0)
      check_memory(o.grid_file.empty() ? "--generate " + o.generate : "--grid " + o.grid_file,
                   cells, o.statics.nlev, checks.memory_limit, checks.memory_limit_source,
                   o.model == RunModel::dynamics ? MemoryModel::dynamics : MemoryModel::diffusion);
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
    if (!o.restart_dir.empty()) {
      const long step = latest_checkpoint_step(o.restart_dir, ranks.size());
      if (step < 0)
        throw InvalidArgument(fmt::format(
            "--restart {}: no checkpoint of {} rank{} there (expected {})", o.restart_dir,
            ranks.size(), ranks.size() > 1 ? "s" : "",
            ranks.size() > 1 ? "stepNNNNNN.rank0.nc .. rank" + std::to_string(ranks.size() - 1) +
                                   ".nc, one per rank of this run"
                             : std::string("stepNNNNNN.nc of a one-rank run")));
      if (step >= o.steps)
        throw InvalidArgument(fmt::format(
            "--restart {}: its latest checkpoint is after step {}, --steps {} leaves nothing to "
            "run (--steps counts from the start of the simulation)",
            o.restart_dir, step, o.steps));
      checks.restart_step = step;
      for (int r = 0; r < ranks.size(); ++r) {
        const std::string file =
            (std::filesystem::path(o.restart_dir) / checkpoint_file_name(step, r, ranks.size()))
                .string();
        check_input_file("--restart", file, std::numeric_limits<std::uintmax_t>::max());
        inputs.push_back({"--restart", file});
      }
    }
    if (!o.checkpoint_dir.empty()) {
      // The steps that write one: every multiple of --checkpoint-every after the start, and the
      // last. Bounded, so that a long run with a short interval is refused, not listed for ever.
      std::vector<long> steps;
      constexpr long max_files = 1000000;
      const long first = checks.restart_step + 1;
      if (o.checkpoint_every > 0) {
        const long count = o.steps / o.checkpoint_every - (first - 1) / o.checkpoint_every;
        if (count * ranks.size() > max_files)
          throw InvalidArgument(fmt::format(
              "--checkpoint-every {} with --steps {}: {} checkpoints of {} rank(s); at most {} "
              "files (each holds the whole state)",
              o.checkpoint_every, o.steps, count, ranks.size(), max_files));
        for (long step = (first + o.checkpoint_every - 1) / o.checkpoint_every * o.checkpoint_every;
             step <= o.steps; step += o.checkpoint_every)
          steps.push_back(step);
      }
      if (steps.empty() || steps.back() != o.steps) steps.push_back(o.steps);
      std::vector<std::string> files;
      for (const long step : steps)
        for (int r = 0; r < ranks.size(); ++r) {
          files.push_back(checkpoint_file_name(step, r, ranks.size()));
          outputs.push_back({"--checkpoint-dir",
                             (std::filesystem::path(o.checkpoint_dir) / files.back()).string()});
        }
      check_output_directory("--checkpoint-dir", o.checkpoint_dir, files, o.overwrite);
    }
    check_outputs_distinct(outputs, inputs);
  });
  return checks;
}

std::string checkpoint_file_name(long step, int rank, int ranks) {
  return ranks > 1 ? fmt::format("step{:06d}.rank{}.nc", step, rank)
                   : fmt::format("step{:06d}.nc", step);
}

long latest_checkpoint_step(const std::string& directory, int ranks) {
  long latest = -1;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = entry.path().filename().string();
    long step = -1;
    if (name.size() > 4 && name.rfind("step", 0) == 0 &&
        std::sscanf(name.c_str() + 4, "%ld", &step) == 1 && step > latest &&
        name == checkpoint_file_name(step, 0, ranks)) {
      bool complete = true;
      for (int r = 1; r < ranks && complete; ++r)
        complete = std::filesystem::is_regular_file(
            std::filesystem::path(directory) / checkpoint_file_name(step, r, ranks), ec);
      if (complete) latest = step;
    }
  }
  return latest;
}

double max_abs(const View2D<wp, RunMemory>& field, const View1D<int, RunMemory>& owned) {
  double m = 0;
  const auto f = field;
  const auto mask = owned;
  const bool masked = owned.size() != 0;
  const std::size_t n = f.extent(0), nk = f.extent(1);
  Kokkos::parallel_reduce(
      "icondiff::driver::max_abs", Kokkos::RangePolicy<RunSpace>(0, n * nk),
      KOKKOS_LAMBDA(const std::size_t i, double& acc) {
        if (masked && mask(i % n) == 0) return;
        const double v = compat::fabs(f(i % n, i / n));
        if (v > acc) acc = v;
      },
      Kokkos::Max<double>(m));
  return m;
}

double min_value(const View1D<wp, RunMemory>& field, const View1D<int, RunMemory>& owned) {
  double m = std::numeric_limits<double>::infinity();
  const auto f = field;
  const auto mask = owned;
  const bool masked = owned.size() != 0;
  Kokkos::parallel_reduce(
      "icondiff::driver::min_value", Kokkos::RangePolicy<RunSpace>(0, f.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, double& acc) {
        if (masked && mask(i) == 0) return;
        if (f(i) < acc) acc = f(i);
      },
      Kokkos::Min<double>(m));
  return m;
}

View1D<int, RunMemory> owned_mask(const Grid& grid, Location location) {
  const std::vector<int>& owner = grid.owner_rank(location);
  if (owner.empty()) return {};
  std::vector<int> mask(owner.size());
  for (std::size_t i = 0; i < owner.size(); ++i) mask[i] = owner[i] == grid.rank ? 1 : 0;
  return copy_to_view<int, RunMemory>("icondiff::driver::owned", mask);
}

double allowed_cpus() {
  const int cpus = allowed_cpu_count();
  return cpus > 0 ? cpus : compat::concurrency(RunSpace());
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

namespace {

/// The whole grid on this rank: read or generated (said on a terminal), a file's size checked
/// against the memory limit once known.
Grid load_whole_grid(const Ranks& ranks, const RunOptions& o, const RunChecks& checks,
                     MemoryModel model) {
  const std::string& source = checks.source;
  if (!o.quiet && ranks.root() && ::isatty(STDOUT_FILENO))
    fmt::print("grid        {} {} ...\n", generated_cells(source) > 0 ? "generating" : "reading",
               source);
  Grid grid;
  ranks.collectively([&] {
    grid = load_grid_source(source);
    // A grid file's size is known once it is read; its fields are not allocated yet.
    if (generated_cells(source) < 0)
      check_memory("--grid " + source, grid.num_cells, o.statics.nlev, checks.memory_limit,
                   checks.memory_limit_source, model);
  });
  return grid;
}

/// Every rank must read the same grid (MPMD launches could give them different ones). Both
/// reductions run on every rank.
void agree_on_the_grid(const Ranks& ranks, index_t cells, const std::string& source) {
  const double most_cells = ranks.max(cells), fewest_cells = -ranks.max(-cells);
  ranks.agree(most_cells != fewest_cells
                  ? fmt::format("the ranks read grids of {:.0f} to {:.0f} cells (this rank: {} "
                                "from {}): every rank must read the same grid",
                                fewest_cells, most_cells, cells, source)
                  : "");
}

void check_partition_file(const RunOptions& o, index_t cells) {
  // One line per cell ("17\n"; comments allowed): 64 bytes a cell and 1 MiB are far more than a
  // partition file holds, and a bound on what is read.
  check_input_file("--partition", o.partition,
                   (std::uintmax_t(cells) + 1) * 64 + (std::uintmax_t(1) << 20));
}

}  // namespace

RunSetUp set_up_rank(const Ranks& ranks, const RunOptions& o, const RunChecks& checks,
                     MemoryModel model) {
  RunSetUp setup;
  setup.statics = statics_setup_config(o.statics);
  const auto whole_facts = [&](const Grid& whole) {
    setup.whole_points = {whole.num_cells, whole.num_edges, whole.num_vertices};
    setup.limited_area = whole.limited_area;
  };
  if (!ranks.decomposed()) {
    if (!o.partition.empty())
      throw InvalidArgument(fmt::format(
          "--partition {}: a partition needs a run on several MPI ranks (mpirun -np N icondiff "
          "run ...)",
          o.partition));
    Grid whole = load_whole_grid(ranks, o, checks, model);
    whole_facts(whole);
    Grid local = whole;
    setup.grids = whole_grid_rank_grids(std::move(whole), std::move(local));
    setup.where = "the whole grid";
    return setup;
  }
#if ICONDIFF_HAVE_MPI
  if (o.setup == "whole") {
    Grid whole = load_whole_grid(ranks, o, checks, model);
    agree_on_the_grid(ranks, whole.num_cells, checks.source);
    whole_facts(whole);
    Grid local;
    ranks.collectively([&] {
      std::vector<int> owner;
      if (!o.partition.empty()) {
        check_partition_file(o, whole.num_cells);
        owner = read_partition_file(o.partition, whole.num_cells, ranks.size());
        setup.part.partition = "file " + o.partition;
      } else {
        if (ranks.size() > whole.num_cells)
          throw InvalidArgument(
              fmt::format("{} ranks for a grid of {} cells: every rank needs at least one cell",
                          ranks.size(), whole.num_cells));
        owner = partition_cells(whole, ranks.size());
        setup.part.partition = "METIS k-way";
      }
      local = make_local_grid(whole, owner, ranks.rank(), ranks.size());
    });
    setup.grids = whole_grid_rank_grids(std::move(whole), std::move(local));
    setup.where = "the whole grid on every rank (--setup whole)";
  } else {
    // No rank holds the whole grid: each reads its block of the file (a generated grid is
    // generated whole, once per rank, and cut: the generator is not distributed).
    const std::string& source = checks.source;
    if (!o.quiet && ranks.root() && ::isatty(STDOUT_FILENO))
      fmt::print("grid        {} {} in {} blocks ...\n",
                 generated_cells(source) > 0 ? "generating" : "reading", source, ranks.size());
    GridBlock block;
    ranks.collectively([&] { block = load_grid_source_block(source, ranks.rank(), ranks.size()); });
    agree_on_the_grid(ranks, block.total[0], source);
    ranks.collectively([&] {
      // What this rank holds: its extended grid, about (sqrt(part) + 45)^2 cells for the 32
      // steps around a compact part (fitted to R2B5 on 2, 4 and 8 ranks), at most the grid.
      const double part = static_cast<double>(block.total[0]) / ranks.size();
      const double extended =
          std::min<double>(block.total[0], std::pow(std::sqrt(part) + 45.0, 2.0));
      check_memory(fmt::format("--grid {} on {} ranks (an extended part of about {:.0f} cells "
                               "each)",
                               source, ranks.size(), extended),
                   extended, o.statics.nlev, checks.memory_limit, checks.memory_limit_source,
                   model);
    });
    std::vector<int> owner;
    if (!o.partition.empty()) {
      ranks.collectively([&] {
        check_partition_file(o, block.total[0]);
        owner = read_partition_file_rows(o.partition, block.total[0], ranks.size(), block.begin[0],
                                         block.rows.num_cells);
      });
      setup.part.partition = "file " + o.partition;
    } else {
      owner = bisection_partition(ranks.comm(), block);
      setup.part.partition = "recursive coordinate bisection";
    }
    int lam = block.rows.num_cells > 0 &&
                      has_lateral_boundary(Location::Cell,
                                           block.rows.refin_ctrl[static_cast<int>(Location::Cell)])
                  ? 1
                  : 0;
    lam = ranks.max(lam) > 0 ? 1 : 0;
    setup.whole_points = block.total;
    setup.limited_area = lam != 0;
    LocalGrids made = local_grids_from_blocks(ranks.comm(), block, owner, factory_dependency_steps);
    block = GridBlock{};  // the blocks are not needed any more
    setup.grids = extended_rank_grids(std::move(made.local), std::move(made.extended),
                                      std::move(made.extended_owner));
    setup.whole_mean_cell_area = whole_grid_mean_cell_area(ranks.comm(), setup.grids.local);
    setup.statics = whole_grid_statics_config(ranks.comm(), setup.statics, setup.grids,
                                              setup.whole_mean_cell_area);
    setup.factory_exchange = computed_grid_cell_exchange(ranks.comm(), setup.grids);
    const double extended = setup.grids.computed.num_cells;
    setup.where = fmt::format(
        "each rank's extended grid ({} C2E2C steps around its part): {:.0f}..{:.0f} cells",
        factory_dependency_steps, -ranks.max(-extended), ranks.max(extended));
  }
  setup.part.mpi_exchange =
      std::make_shared<MpiHaloExchange<RunSpace>>(ranks.comm(), setup.grids.local);
  setup.part.exchange = setup.part.mpi_exchange;
#endif
  return setup;
}

void finish_statics(const Ranks& ranks, const RunSetUp& setup, HostStaticInputs& host) {
#if ICONDIFF_HAVE_MPI
  if (setup.whole_mean_cell_area > 0)
    set_whole_grid_quantities(ranks.comm(), host, setup.grids, setup.whole_mean_cell_area);
#else
  (void)ranks, (void)setup, (void)host;
#endif
}

void describe_ranks(const Ranks& ranks, const RunSetUp& setup, const RankPoints& mine,
                    const std::function<void(const std::string&)>& say) {
  if (!ranks.decomposed()) return;
  const auto owned = [&](Location l) {
    long long n = 0;
    for (std::size_t i = 0; i < mine.size(l); ++i) n += mine.owns(l, i);
    return static_cast<double>(n);
  };
  const std::vector<double> owned_cells = ranks.gather(owned(Location::Cell));
  const std::vector<double> local_cells =
      ranks.gather(static_cast<double>(setup.grids.local.num_cells));
  if (ranks.root())
    say(
        fmt::format("ranks       {} MPI ranks ({}): owned cells per rank {:.0f}..{:.0f}, with "
                    "halo {:.0f}..{:.0f}\n",
                    ranks.size(), setup.part.partition,
                    *std::min_element(owned_cells.begin(), owned_cells.end()),
                    *std::max_element(owned_cells.begin(), owned_cells.end()),
                    *std::min_element(local_cells.begin(), local_cells.end()),
                    *std::max_element(local_cells.begin(), local_cells.end())));
}

void stop_if_not_finite(const Ranks& ranks, const Grid& local, long step,
                        const std::optional<NonFiniteValue>& bad) {
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

std::unique_ptr<UgridWriter> make_output_writer(
    const Ranks& ranks, const std::string& writer_path, const Grid& local,
    const std::vector<double>& vct_a, const std::map<std::string, std::string>& attributes,
    const UgridWriterOptions& options) {
  // Full levels at the middle of their half levels (ICON's nominal heights).
  std::vector<double> full(vct_a.size() - 1);
  for (std::size_t k = 0; k < full.size(); ++k) full[k] = 0.5 * (vct_a[k] + vct_a[k + 1]);
  remove_temporaries_on_signal(writer_path);
#if ICONDIFF_HAVE_MPI
  if (ranks.decomposed())
    return std::make_unique<UgridWriter>(ranks.comm(), writer_path, local, full, vct_a, attributes,
                                         options);
#endif
  return std::make_unique<UgridWriter>(writer_path, local, full, vct_a, attributes, options);
}

void close_output(const Ranks& ranks, UgridWriter* writer, const std::string& writer_path,
                  const std::string& output) {
  if (writer) writer->close();  // collective when decomposed; its errors agreed
  ranks.collectively([&] {
    if (!writer || !ranks.root() || writer_path == output) return;
    std::error_code ec;
    std::filesystem::rename(writer_path, output, ec);
    if (ec) {
      std::filesystem::remove(writer_path, ec);
      throw OutputFileError(output, "cannot move the written file into place");
    }
  });
}

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

HaloReport report_halo_traffic(const Ranks& ranks, const LocalPart& part, int calls,
                               const std::string& per) {
  HaloReport report;
#if ICONDIFF_HAVE_MPI
  if (!part.mpi_exchange) return report;
  std::string& table = report.table;
  table = fmt::format(
      "\nhalo exchanges per {} (all ranks; time: slowest rank inside start() + wait()):\n{:<10} "
      "{:>10} {:>10} {:>12} {:>10}\n",
      per, "location", "exchanges", "messages", "MB sent", "ms");
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
  (void)per;
#endif
  return report;
}

MachineFacts measure_machine(const Ranks& ranks) {
  MachineFacts m;
  // Every rank measures at once: the sum is what the ranks together get from memory.
  m.stream_gbs = ranks.sum(measure_stream_bandwidth().triad_gbs);
  m.threads = compat::concurrency(RunSpace());
  // A parent process may have narrowed this process's CPU set (an OpenMP runtime that bound the
  // parent's main thread passes that binding on): threads beyond it share CPUs.
  m.cpus = static_cast<int>(-ranks.max(-allowed_cpus()));
  return m;
}

nlohmann::json run_metadata(const Ranks& ranks, const RunOptions& o, const MachineFacts& machine,
                            const std::string& source, const std::array<index_t, 3>& whole_points,
                            int nlev) {
  return {{"icondiff_version", ICONDIFF_VERSION_STRING},
          {"kokkos_version", compat::kokkos_version_string()},
          {"execution_space", RunSpace::name()},
          {"model", o.model == RunModel::dynamics ? "dynamics" : "diffusion"},
          {"concurrency", machine.threads},
          {"cpus_allowed", machine.cpus},
          {"ranks", ranks.size()},
          {"grid", source},
          {"cells", whole_points[0]},
          {"edges", whole_points[1]},
          {"vertices", whole_points[2]},
          {"nlev", nlev},
          {"steps", o.steps},
          {"dtime", o.dtime},
          {"timing", o.timing},
          {"stream_triad_gbs", machine.stream_gbs},
          {"date", utc_now()},
          {"latency_unit", "ms"},
          {"bandwidth_unit", "GB/s"}};
}

}  // namespace icondiff::cli
