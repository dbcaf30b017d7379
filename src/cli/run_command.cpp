// icondiff run: the command's options, and its diffusion model (--model diffusion): the
// diffusion granule on a generated or real ICON grid with a Jablonowski-Williamson state, for a
// number of steps; progress per step, then a per-kernel timer table (calls, median, min, max,
// effective GB/s by the byte model, share of a STREAM triad measured in the same run). Optional
// UGRID output, JSON timer report and savepoints of one call. The dynamics model (the default)
// is dynamics_run.cpp.
#include "commands.hpp"
#include "config_errors.hpp"
#include "memory_estimate.hpp"
#include "output_paths.hpp"
#include "run_options.hpp"
#include "timer_report.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/diffusion/state_checks.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#if ICONDIFF_HAVE_MPI
#endif

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

namespace icondiff::cli {

namespace {

using Space = RunSpace;
using M = RunMemory;

}  // namespace

int run_diffusion(const RunOptions& o) {
  const Ranks ranks = Ranks::world();
  DiffusionConfig config;
  DiffusionStrategy strategy{};
  ranks.collectively([&] {
    config = resolved_diffusion_config(o, mch_ch_r04b09_config());
    strategy = parse_strategy(o.strategy);
  });
  const RunChecks checks = check_run_options(ranks, o);
  const std::string& source = checks.source;
  if (o.checks_only) return 0;
  const auto say = [&](const std::string& text) {
    if (!o.quiet && ranks.root()) fmt::print("{}", text);
  };

  // ---- Grid, this rank's part and the inputs (on the whole grid or the rank's extended grid:
  // --setup) ----
  const auto t0 = std::chrono::steady_clock::now();
  RunSetUp setup = set_up_rank(ranks, o, checks, MemoryModel::diffusion);
  HostDiffusionInputs host;
  if (!o.quiet && ranks.root() && ::isatty(STDOUT_FILENO))
    fmt::print("setup       geometry, coefficients, metrics ...\n");
  ranks.collectively([&] {
    host = compute_diffusion_inputs(std::move(setup.grids.computed), config, setup.statics,
                                    setup.factory_exchange);
  });
  finish_statics(ranks, setup, host);
  const Grid& local = setup.grids.local;
  const Grid& rows = setup.grids.rows();
  const int nlev = host.metrics.vertical.num_levels();
  say(fmt::format("grid        {} ({}; {} cells, {} edges, {} vertices)\n", source,
                  setup.limited_area ? "limited area" : "global", setup.whole_points[0],
                  setup.whole_points[1], setup.whole_points[2]));
  say(fmt::format("vertical    {} levels, top {} m, damping layer down to half level {}\n", nlev,
                  host.metrics.vertical.vct_a.front(),
                  host.metrics.vertical.end_index_of_damping_layer));
  // Over the owned cells of every rank.
  long long steep = 0;
  {
    const std::vector<index_t>& cell_rows = rows.global_index(Location::Cell);
    const std::vector<int>& owner = local.owner_rank(Location::Cell);
    for (std::size_t c = 0; c < static_cast<std::size_t>(local.num_cells); ++c) {
      if (!owner.empty() && owner[c] != local.rank) continue;
      const std::size_t row = cell_rows.empty() ? c : static_cast<std::size_t>(cell_rows[c]);
      for (std::size_t k = 0; k < host.metrics.zd_diffcoef.cols(); ++k)
        steep += host.metrics.zd_diffcoef(row, k) != 0.0;
    }
    steep = ranks.sum(steep);
  }
  say(fmt::format("metrics     {} cell-levels get truly horizontal temperature diffusion\n",
                  steep));
  const LocalPart& part = setup.part;
  // The granule's inputs on the rank's grid: the computed grid's on one rank, restricted on
  // several.
  DiffusionInputs<M> rank_inputs;
  ranks.collectively([&] {
    rank_inputs = ranks.decomposed()
                      ? restrict_diffusion_inputs<M>(make_diffusion_inputs<Kokkos::HostSpace>(host),
                                                     setup.grids, "icondiff::driver::")
                      : make_diffusion_inputs<M>(host);
  });
  const FieldSizes whole_sizes{static_cast<std::size_t>(setup.whole_points[0]),
                               static_cast<std::size_t>(setup.whole_points[1]),
                               static_cast<std::size_t>(setup.whole_points[2]),
                               static_cast<std::size_t>(nlev)};
  const FieldSizes computed_sizes{
      static_cast<std::size_t>(host.grid.num_cells), static_cast<std::size_t>(host.grid.num_edges),
      static_cast<std::size_t>(host.grid.num_vertices), static_cast<std::size_t>(nlev)};
  const RankPoints my_points = rank_points(local, whole_sizes);
  describe_ranks(ranks, setup, my_points, say);
  if (ranks.decomposed()) say(fmt::format("setup on    {}\n", setup.where));
  const DiffusionInputs<M>& inputs = rank_inputs;

  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = o.vn_noise;
  jw.w_noise_amplitude = o.w_noise;
  jw.noise_seed = 1;
  jw.whole_grid_cells = static_cast<std::uint64_t>(setup.whole_points[0]);
  jw.whole_grid_edges = static_cast<std::uint64_t>(setup.whole_points[1]);
  const InitialState initial =
      jablonowski_williamson_state(host.grid, host.metrics.z_ifc, host.metrics.z_mc, jw);
  DiffusionPrognosticState<M> prognostic =
      ranks.decomposed()
          ? copy_state<M>(restrict_to_local(to_prognostic_state<Kokkos::HostSpace>(initial), rows,
                                            computed_sizes, "icondiff::driver::"),
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
  const MachineFacts machine = measure_machine(ranks);
  const double stream = machine.stream_gbs;
  const int threads = machine.threads, cpus = machine.cpus;
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

  // ---- Output (one file of the whole grid, written by every rank) ----
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
    // Each rank its own points, from its states as they are (device states copied to the host).
    const auto p = state_on_host(prognostic);
    const auto d = state_on_host(diagnostic);
    writer->write_step(time, p, &d);
  };
  if (!o.output.empty()) {
    ranks.collectively([&] {
      if (writer_path != o.output && ranks.root()) remove_on_signal(writer_path);
      writer =
          make_output_writer(ranks, writer_path, local, host.metrics.vertical.vct_a, attributes);
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
    if (o.finite_check)
      stop_if_not_finite(ranks, local, step, find_non_finite(Space(), prognostic));
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
    close_output(ranks, writer.get(), writer_path, o.output);
    say(fmt::format("\noutput      {} ({} times)\n", o.output,
                    writer ? writer->steps_written() : 0));
  }

  // ---- Timer report (rank 0) ----
  const auto bytes = diffusion_kernel_bytes(diffusion.ranges(), local.num_cells, local.num_edges,
                                            local.num_vertices, nlev, config, strategy);
  const GatheredTimers gathered = gather_timers(ranks, timers, bytes);
  const HaloReport halo = report_halo_traffic(
      ranks, part, o.steps, "call (the driver's θ_v/exner/w exchange between calls included)");
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
  const double minimum = diffusion_minimum_bytes(setup.whole_points[0], setup.whole_points[1],
                                                 setup.whole_points[2], nlev);
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
    nlohmann::json metadata = run_metadata(ranks, o, machine, source, setup.whole_points, nlev);
    metadata["strategy"] = to_string(strategy);
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

namespace {

/// A path option given as "": refused (an empty --grid would run the default grid, an empty
/// --output write nothing) instead of read as "not given".
CLI::Validator non_empty(const char* expected) {
  return CLI::Validator(
      [expected](std::string& value) {
        return value.empty() ? fmt::format("empty value, expected {}", expected) : std::string();
      },
      "");
}

/// The defaults that differ between the models, for every option not given: the dynamics runs
/// ICON4Py's Jablonowski-Williamson experiment (icon4py_configuration: 35 levels, its vertical
/// grid defaults, JW06's surface, no noise), the diffusion the MCH_CH_R04B09 set-up the options
/// show.
void apply_model_defaults(const CLI::App& app, RunOptions& o) {
  const auto unset = [&](const char* name) { return app.get_option(name)->count() == 0; };
  if (o.model == RunModel::dynamics) {
    if (unset("--steps")) o.steps = 96;
    if (unset("--vn-noise")) o.vn_noise = 0.0;
    if (unset("--w-noise")) o.w_noise = 0.0;
    // ICON4Py's VerticalGridConfig defaults with _jabw_vertical_config's num_levels and damping
    // height (above the model top: no Rayleigh damping).
    if (unset("--nlev")) o.statics.nlev = 35;
    if (unset("--top_height")) o.statics.top_height = 23500.0;
    if (unset("--min_lay_thckn")) o.statics.min_lay_thckn = 50.0;
    if (unset("--stretch_fac")) o.statics.stretch_fac = 1.0;
    if (unset("--damp_height")) o.statics.damp_height = 45000.0;
    if (unset("--topography") && unset("--mount_height")) o.statics.topography = "jabw";
  }
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
  app.add_option("--model", o->model,
                 "dynamics: ICON's dynamics (ndyn_substeps solve_nh substeps, then the diffusion, "
                 "per time step) on the baroclinic-wave state; diffusion: the diffusion granule "
                 "alone")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, RunModel>{{"dynamics", RunModel::dynamics},
                                          {"diffusion", RunModel::diffusion}},
          CLI::ignore_case))
      ->default_str("dynamics");
  app.add_option("--steps", o->steps,
                 "time steps (dynamics: default 96, each of ndyn_substeps substeps; diffusion: "
                 "calls, default 10)");
  app.add_option("--dtime", o->dtime, "the advective time step (s)")->capture_default_str();
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
  app.add_option("--vn-noise", o->vn_noise,
                 "amplitude of random noise added to vn (m/s; default: dynamics 0, diffusion 1)");
  app.add_option("--w-noise", o->w_noise,
                 "amplitude of random noise added to w inside the column (m/s; default: dynamics "
                 "0, diffusion 0.05)");
  app.add_option("--jw_up", o->jw_up,
                 "nh_testcase_nml: amplitude of the Jablonowski-Williamson zonal-wind perturbation "
                 "(m/s; 0: the steady state)")
      ->capture_default_str();
  app.add_option("--divdamp_fac_o2", o->divdamp_fac_o2,
                 "dynamics: second-order divergence damping factor of every substep (ICON's "
                 "divdamp_fac_o2; 0 outside its spin-up)")
      ->capture_default_str();
  app.add_option("--checkpoint-dir", o->checkpoint_dir,
                 "dynamics: write every rank's checkpoint (stepNNNNNN[.rankR].nc) into this folder "
                 "every --checkpoint-every steps and at the end")
      ->check(non_empty("a folder"));
  app.add_option("--checkpoint-every", o->checkpoint_every,
                 "steps between checkpoints (0: at the end only)")
      ->capture_default_str();
  app.add_option("--restart", o->restart_dir,
                 "dynamics: continue from the latest checkpoint in this folder (same grid, "
                 "configuration and ranks; --steps still counts from the start)")
      ->check(non_empty("a folder"));
  app.add_option("--partition", o->partition,
                 "under mpirun: the owner rank of every cell, one per line (gpmetis format); "
                 "default: recursive coordinate bisection (--setup local) or METIS k-way "
                 "(--setup whole)")
      ->check(non_empty("a partition file"));
  app.add_option("--setup", o->setup,
                 "under mpirun: 'local' (each rank reads its block of the grid file and runs the "
                 "factories on its part and the cells around it: no rank holds the whole grid) or "
                 "'whole' (every rank reads the whole grid and runs the factories on it)")
      ->check(CLI::IsMember({"local", "whole"}))
      ->capture_default_str();
  app.add_flag("--quiet", o->quiet, "print only the timer table");
  app.add_option("--max-memory", o->max_memory,
                 "refuse a run estimated to need more (e.g. 8G); default: the available memory");
  app.add_flag("--overwrite", o->overwrite,
               "replace existing output files (--output, --timers, savepoints); never an input");
  app.add_flag("!--no-finite-check", o->finite_check,
               "do not stop at the first non-finite vn, w, theta_v or exner after a step");
  add_namelist_options(app, diffusion_config_fields(), mch_ch_r04b09_config(),
                       "Diffusion settings (ICON namelist names; defaults shown: --model "
                       "diffusion's, ICON4Py's MCH_CH_R04B09; --model dynamics starts from "
                       "ICON4Py's Jablonowski-Williamson experiment)",
                       o->diffusion_namelist);
  add_vertical_options(app, o->statics);
  add_dycore_metric_options(app, o->statics);
  add_namelist_options(app, dycore_config_fields(), DycoreConfig{},
                       "Dynamics settings (ICON namelist names; ICON4Py's defaults, as its "
                       "Jablonowski-Williamson experiment)",
                       o->dycore_namelist);
  return [o, &app] {
    o->config_file = config_file_of(app);
    apply_model_defaults(app, *o);
    return o->model == RunModel::dynamics ? run_dynamics(*o) : run_diffusion(*o);
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
