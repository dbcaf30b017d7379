// icondiff run: the diffusion granule on a generated or real ICON grid with a Jablonowski-
// Williamson state, for a number of steps; progress per step, then a per-kernel timer table
// (calls, median, min, max, effective GB/s by the byte model, share of a STREAM triad measured in
// the same run). Optional UGRID output, JSON timer report and savepoints of one call.
#include "commands.hpp"
#include "timer_report.hpp"

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>

namespace icondiff::cli {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

struct RunOptions {
  std::string grid_file;
  std::string generate = "R2B4";
  bool lam = false;
  std::string lam_region = "cap:8,46.5,30";
  int nlev = 65;
  int steps = 10;
  double dtime = 300.0;
  std::string strategy = "fused";
  std::string schedule = to_string(default_loop_schedule<Space>());
  std::string output;
  int output_every = 0;  ///< 0: only the first and last state
  std::string timers;
  std::string savepoints;
  int savepoint_step = 1;
  bool quiet = false;
  // Vertical grid and topography (sleve_nml / nonhydrostatic_nml / nh_testcase_nml names).
  double top_height = 23000.0;
  double min_lay_thckn = 20.0;
  double stretch_fac = 0.65;
  double damp_height = 12500.0;
  double thslp_zdiffu = 0.02;
  double thhgtd_zdiffu = 125.0;
  double mount_height = 4000.0;
  double mount_half_width = 200000.0;
  double mount_lon = 8.0;
  double mount_lat = 46.5;
  double vn_noise = 1.0;
  double w_noise = 0.05;
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
        option = app.add_option(name, slot.logical, help);
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
  const std::string vertical = "Vertical grid and topography";
  app.add_option("--top_height", o.top_height, "sleve_nml: model top (m)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--min_lay_thckn", o.min_lay_thckn, "sleve_nml: lowest layer thickness (m)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--stretch_fac", o.stretch_fac, "sleve_nml")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--damp_height", o.damp_height, "nonhydrostatic_nml: Rayleigh damping height (m)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--thslp_zdiffu", o.thslp_zdiffu, "nonhydrostatic_nml")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--thhgtd_zdiffu", o.thhgtd_zdiffu, "nonhydrostatic_nml (m)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--mount_height", o.mount_height, "Gaussian hill height (m); 0 = flat")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--mount_half_width", o.mount_half_width, "Gaussian hill e-folding width (m)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--mount_lon", o.mount_lon, "hill centre longitude (degrees)")
      ->group(vertical)
      ->capture_default_str();
  app.add_option("--mount_lat", o.mount_lat, "hill centre latitude (degrees)")
      ->group(vertical)
      ->capture_default_str();
}

DiffusionConfig resolved_config(const RunOptions& o) {
  DiffusionConfig c = o.config;
  for (const RunOptions::NamelistOption& slot : o.namelist) {
    const ConfigField& field = *slot.field;
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

double max_abs(const View2D<wp, M>& field) {
  double m = 0;
  const auto f = field;
  const std::size_t n = f.extent(0), nk = f.extent(1);
  Kokkos::parallel_reduce(
      "icondiff::driver::max_abs", Kokkos::RangePolicy<Space>(0, n * nk),
      KOKKOS_LAMBDA(const std::size_t i, double& acc) {
        const double v = compat::fabs(f(i % n, i / n));
        if (v > acc) acc = v;
      },
      Kokkos::Max<double>(m));
  return m;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

int run_driver(const RunOptions& o) {
  const DiffusionConfig config = resolved_config(o);
  const DiffusionStrategy strategy = parse_strategy(o.strategy);
  if (o.steps < 1) throw InvalidArgument(fmt::format("--steps {}: expected at least 1", o.steps));
  if (!(o.dtime > 0))
    throw InvalidArgument(fmt::format("--dtime {}: expected a positive time step (s)", o.dtime));
  if (o.nlev < 2)
    throw InvalidArgument(fmt::format("--nlev {}: expected at least 2 levels", o.nlev));
  const auto say = [&](const std::string& text) {
    if (!o.quiet) fmt::print("{}", text);
  };

  // ---- Grid and inputs ----
  const std::string source = grid_source(o);
  const auto t0 = std::chrono::steady_clock::now();
  Grid grid = load_grid_source(source);
  DiffusionSetupConfig setup;
  setup.vertical = mch_ch_r04b09_vertical_config();
  setup.vertical.num_levels = o.nlev;
  setup.vertical.model_top_height = o.top_height;
  setup.vertical.lowest_layer_thickness = o.min_lay_thckn;
  setup.vertical.stretch_factor = o.stretch_fac;
  setup.vertical.rayleigh_damping_height = o.damp_height;
  setup.metrics = mch_ch_r04b09_metrics_config();
  setup.metrics.thslp_zdiffu = o.thslp_zdiffu;
  setup.metrics.thhgtd_zdiffu = o.thhgtd_zdiffu;
  setup.metrics.topography = o.mount_height > 0
                                 ? TopographyConfig::gaussian_hill(
                                       o.mount_height, o.mount_half_width, o.mount_lon, o.mount_lat)
                                 : TopographyConfig::flat();
  const HostDiffusionInputs host = compute_diffusion_inputs(std::move(grid), config, setup);
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
  const DiffusionInputs<M> inputs = make_diffusion_inputs<M>(host);

  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = o.vn_noise;
  jw.w_noise_amplitude = o.w_noise;
  jw.noise_seed = 1;
  const InitialState initial =
      jablonowski_williamson_state(g, host.metrics.z_ifc, host.metrics.z_mc, jw);
  DiffusionPrognosticState<M> prognostic = to_prognostic_state<M>(initial);
  auto diagnostic =
      allocate_state<DiffusionDiagnosticState, M>(inputs.sizes(), "icondiff::driver::");
  DiffusionOptions<Space> options;
  options.strategy = strategy;
  options.schedule = parse_loop_schedule(o.schedule);
  Diffusion<Space> diffusion(config, inputs, options);
  KernelTimers timers;
  diffusion.set_timers(&timers);
  const double setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  say(fmt::format("setup       {:.2f} s (grid, geometry, coefficients, metrics, JW state)\n",
                  setup_seconds));
  const double stream = measure_stream_bandwidth().triad_gbs;
  say(fmt::format("machine     {} with {} threads, STREAM triad {:.1f} GB/s\n", Space::name(),
                  compat::concurrency(Space()), stream));
  say(
      fmt::format("diffusion   {} strategy, {} loops, dtime {} s, {} steps (the first is ICON's "
                  "initial call)\n\n",
                  to_string(strategy), o.schedule, o.dtime, o.steps));

  // ---- Output ----
  std::map<std::string, std::string> attributes;
  for (const auto& [name, value] : icon_namelist_values(config)) attributes[name] = value;
  attributes["icondiff:grid_source"] = source;
  attributes["icondiff:strategy"] = to_string(strategy);
  attributes["icondiff:dtime"] = fmt::format("{}", o.dtime);
  attributes["icondiff:version"] = ICONDIFF_VERSION_STRING;
  std::unique_ptr<UgridWriter> writer;
  if (!o.output.empty()) {
    const auto& vct_a = host.metrics.vertical.vct_a;
    std::vector<double> full(nlev);
    for (int k = 0; k < nlev; ++k) full[k] = 0.5 * (vct_a[k] + vct_a[k + 1]);
    writer = std::make_unique<UgridWriter>(o.output, g, full, vct_a, attributes);
    writer->write_step(0.0, prognostic, &diagnostic);
  }

  // ---- Steps ----
  const SavepointGridReference reference = make_grid_reference(g, source);
  for (int step = 1; step <= o.steps; ++step) {
    const bool initial_run = step == 1;
    std::optional<DiffusionSavepoint> init;
    if (!o.savepoints.empty() && step == o.savepoint_step)
      init = capture_diffusion_init(config, reference, inputs, diagnostic, prognostic, o.dtime,
                                    initial_run);
    diffusion.run(diagnostic, prognostic, o.dtime, initial_run);
    if (init) {
      std::filesystem::create_directories(o.savepoints);
      const auto in = (std::filesystem::path(o.savepoints) / "diffusion-init.nc").string();
      const auto out = (std::filesystem::path(o.savepoints) / "diffusion-exit.nc").string();
      init->metadata["step"] = std::to_string(step);
      write_diffusion_savepoint(in, *init);
      write_diffusion_savepoint(out, capture_diffusion_exit(*init, diagnostic, prognostic));
      say(fmt::format("            savepoints of step {} written: {}, {}\n", step, in, out));
    }
    const double ms = timers.samples().at(diffusion_labels::run).back() * 1e3;
    say(fmt::format(
        "step {:>4}/{:<4} t = {:>8.0f} s  {:>8.3f} ms   max|vn| = {:7.3f} m/s   max|w| = {:.3e} "
        "m/s\n",
        step, o.steps, step * o.dtime, ms, max_abs(prognostic.vn), max_abs(prognostic.w)));
    if (writer && ((o.output_every > 0 && step % o.output_every == 0) || step == o.steps))
      writer->write_step(step * o.dtime, prognostic, &diagnostic);
  }
  if (writer) {
    writer->close();
    say(fmt::format("\noutput      {} ({} times)\n", o.output, writer->steps_written()));
  }

  // ---- Timer report ----
  const auto bytes = diffusion_kernel_bytes(diffusion.ranges(), g.num_cells, g.num_edges,
                                            g.num_vertices, nlev, config, strategy);
  const auto entries = timer_entries(timers, bytes);
  fmt::print(
      "\nper-kernel timers ({} calls, fenced after every kernel; GB/s by the byte model of "
      "performance_model.md):\n{}",
      o.steps, format_timer_table(entries, stream));
  const double minimum = diffusion_minimum_bytes(g.num_cells, g.num_edges, g.num_vertices, nlev);
  const double median_call = entries.at("nh_hdiff").median_ms * 1e-3;
  fmt::print(
      "whole call: {:.3f} ms median = {:.2f} GB/s against the 276 B/cell-level minimum ({:.0f}% of "
      "STREAM)\n",
      median_call * 1e3, minimum / median_call * 1e-9, 100 * minimum / median_call * 1e-9 / stream);
  if (!o.timers.empty()) {
    nlohmann::json metadata = {{"icondiff_version", ICONDIFF_VERSION_STRING},
                               {"kokkos_version", compat::kokkos_version_string()},
                               {"execution_space", Space::name()},
                               {"concurrency", compat::concurrency(Space())},
                               {"grid", source},
                               {"cells", g.num_cells},
                               {"edges", g.num_edges},
                               {"vertices", g.num_vertices},
                               {"nlev", nlev},
                               {"steps", o.steps},
                               {"dtime", o.dtime},
                               {"strategy", to_string(strategy)},
                               {"stream_triad_gbs", stream},
                               {"date", utc_now()},
                               {"latency_unit", "ms"},
                               {"bandwidth_unit", "GB/s"}};
    for (const auto& [name, value] : attributes) metadata["config"][name] = value;
    std::ofstream(o.timers) << timer_report_json(entries, metadata).dump(2) << "\n";
    say(fmt::format("timers      {}\n", o.timers));
  }
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  app.add_option("--grid", o->grid_file, "ICON grid netCDF file (global or limited area)");
  app.add_option("--generate", o->generate, "generate a global icosahedral grid RnBk")
      ->capture_default_str();
  app.add_flag("--lam", o->lam, "cut a limited-area grid out of the generated one");
  app.add_option("--lam-region", o->lam_region,
                 "cap:LON,LAT,RADIUS or box:LON0,LON1,LAT0,LAT1 (degrees)")
      ->capture_default_str();
  app.add_option("--nlev", o->nlev, "number of full levels")->capture_default_str();
  app.add_option("--steps", o->steps, "number of diffusion calls")->capture_default_str();
  app.add_option("--dtime", o->dtime, "time step passed to the granule (s)")->capture_default_str();
  app.add_option("--strategy", o->strategy, "fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}))
      ->capture_default_str();
  app.add_option("--loop-schedule", o->schedule, "how kernels map (point, level) to threads")
      ->check(CLI::IsMember({"points-outer", "mdrange", "flat", "level-chunks"}))
      ->capture_default_str();
  app.add_option("--output", o->output, "write a CF/UGRID netCDF file");
  app.add_option("--output-every", o->output_every,
                 "also write every N steps (0: first and last only)");
  app.add_option("--timers", o->timers, "write the timer report as JSON");
  app.add_option("--savepoints", o->savepoints,
                 "write diffusion-init.nc / diffusion-exit.nc of one call here");
  app.add_option("--savepoint-step", o->savepoint_step, "the call to capture")
      ->capture_default_str();
  app.add_option("--vn-noise", o->vn_noise, "amplitude of random noise added to vn (m/s)")
      ->capture_default_str();
  app.add_option("--w-noise", o->w_noise,
                 "amplitude of random noise added to w inside the column (m/s)")
      ->capture_default_str();
  app.add_flag("--quiet", o->quiet, "print only the timer table");
  add_namelist_options(app, *o);
  return [o] { return run_driver(*o); };
}

}  // namespace icondiff::cli
