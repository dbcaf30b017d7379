// icondiff run --model dynamics (the default): ICON's dynamics on a generated or real grid from
// the Jablonowski-Williamson (2006) baroclinic-wave state — per advective time step
// ndyn_substeps solve_nh substeps, then the horizontal diffusion, with ICON's time-level handling
// (DynamicsTimeLoop, ICON4Py 0.2.0's TimeLoop) — on one rank or decomposed under mpirun. A
// progress line per step (wall time, max |vn|, max |w|, the minimum surface pressure, the step's
// largest vertical CFL), optional UGRID output every N steps, then the per-program timer table
// with the STREAM ratio of both granules.
#include "memory_estimate.hpp"
#include "output_paths.hpp"
#include "run_options.hpp"
#include "timer_report.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/diffusion/state_checks.hpp>
#include <icondiff/dycore/dycore_traffic.hpp>
#include <icondiff/dycore/surface_pressure.hpp>
#include <icondiff/io/dynamics_checkpoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>
#include <icondiff/timeloop/dynamics_time_loop.hpp>

#if ICONDIFF_HAVE_MPI
#endif

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace icondiff::cli {

namespace {

using Space = RunSpace;
using M = RunMemory;
using H = Kokkos::HostSpace;

/// `whole` (C, nlev) of the whole grid at the cells of `local` (global_index; the whole grid's
/// own cells when it is not decomposed), in `MemorySpace`.
template <class MemorySpace>
View2D<wp, MemorySpace> local_cell_field(const std::string& label, const HostTable<double>& whole,
                                         const Grid& local) {
  const std::vector<index_t>& global = local.global_index(Location::Cell);
  HostTable<double> mine(static_cast<std::size_t>(local.num_cells), whole.cols());
  for (std::size_t c = 0; c < mine.rows(); ++c)
    for (std::size_t k = 0; k < mine.cols(); ++k)
      mine(c, k) = whole(global.empty() ? c : static_cast<std::size_t>(global[c]), k);
  return copy_to_view<wp, MemorySpace>(label, mine);
}

/// Host copies of every state (for a checkpoint).
DynamicsStates<H> host_copy(const DynamicsStates<M>& s) {
  const std::string scope = "icondiff::driver::checkpoint::";
  DynamicsStates<H> h;
  h.current = copy_state<H>(s.current, scope);
  h.next = copy_state<H>(s.next, scope);
  h.solve_nh = copy_state<H>(s.solve_nh, scope);
  h.solve_nh.max_vertical_cfl = s.solve_nh.max_vertical_cfl;
  h.prep_adv = copy_state<H>(s.prep_adv, scope);
  h.diffusion = copy_state<H>(s.diffusion, scope);
  return h;
}

/// Copies every field of `from` (host) into `to`, field by field.
void copy_into(DynamicsStates<M>& to, const DynamicsStates<H>& from) {
  const auto into = [](auto& dst, const auto& src) {
    using State = std::remove_reference_t<decltype(dst)>;
    State::for_each_field(
        [](const FieldSpec&, auto& d, const auto& s) {
          if (d.size() != 0) Kokkos::deep_copy(d, s);
        },
        dst, src);
  };
  into(to.current, from.current);
  into(to.next, from.next);
  into(to.solve_nh, from.solve_nh);
  into(to.prep_adv, from.prep_adv);
  into(to.diffusion, from.diffusion);
  to.solve_nh.max_vertical_cfl = from.solve_nh.max_vertical_cfl;
  Kokkos::fence();
}

/// What a restart must match, as text: the grid and this rank's part of it, the vertical grid and
/// surface, the time stepping and both granules' configurations.
std::map<std::string, std::string> checkpoint_identity(
    const RunOptions& o, const std::string& source, const std::array<index_t, 3>& whole,
    const Grid& local, const std::vector<double>& vct_a, const std::vector<double>& z_surface,
    const DiffusionConfig& diffusion_config, const DycoreConfig& dycore_config) {
  std::map<std::string, std::string> id;
  id["grid_source"] = source;
  id["grid_points"] = fmt::format("{} cells, {} edges, {} vertices", whole[0], whole[1], whole[2]);
  // This rank's points by their global indices (a checksum: the same partition and halo).
  for (const Location l : all_locations) {
    const std::vector<index_t>& global = local.global_index(l);
    unsigned long long sum = 0, weighted = 0;
    for (std::size_t i = 0; i < global.size(); ++i) {
      sum += static_cast<unsigned long long>(global[i]);
      weighted += static_cast<unsigned long long>(global[i]) * (i + 1);
    }
    id[std::string("rank_") + to_string(l)] =
        fmt::format("{} points, index sums {} {}", global.size(), sum, weighted);
  }
  std::string heights;
  for (double h : vct_a) heights += fmt::format("{:.17g} ", h);
  id["vct_a"] = heights;
  double surface_sum = 0;
  for (double z : z_surface) surface_sum += z;
  id["surface_height_sum"] = fmt::format("{:.17g}", surface_sum);
  // The options the static fields come from (the metric ones change no field above).
  const StaticsOptions& st = o.statics;
  const MetricsConfig& m = st.dycore_metrics;
  id["statics"] = fmt::format(
      "topography {} {:.17g} {:.17g} {:.17g} {:.17g}; zdiffu {:.17g} {:.17g}; exner_expol {:.17g}; "
      "vwind_offctr {:.17g}; rayleigh {} {:.17g}; divdamp_type {} {:.17g} {:.17g}; "
      "htop_moist_proc {:.17g}",
      st.topography, st.mount_height, st.mount_half_width, st.mount_lon, st.mount_lat,
      st.thslp_zdiffu, st.thhgtd_zdiffu, m.exner_expol, m.vwind_offctr, m.rayleigh_type,
      m.rayleigh_coeff, m.divdamp_type, m.divdamp_trans_start, m.divdamp_trans_end,
      st.htop_moist_proc);
  // The fields' precision. Not the field layout: a checkpoint holds ICON's order in every
  // layout, so it restarts in a build with either.
  id["build"] = fmt::format("vp {} bytes", sizeof(vp));
  id["dtime"] = fmt::format("{:.17g}", o.dtime);
  id["divdamp_fac_o2"] = fmt::format("{:.17g}", o.divdamp_fac_o2);
  for (const auto& [name, value] : icon_namelist_values(diffusion_config)) id[name] = value;
  for (const auto& [name, value] : icon_namelist_values(dycore_config)) id[name] = value;
  return id;
}

}  // namespace

int run_dynamics(const RunOptions& o) {
  const Ranks ranks = Ranks::world();
  DiffusionConfig diffusion_config;
  DycoreConfig dycore_config;
  DiffusionStrategy strategy{};
  ranks.collectively([&] {
    diffusion_config = resolved_diffusion_config(o, jablonowski_williamson_config());
    dycore_config = resolved_dycore_config(o, DycoreConfig{});
    dycore_config.validate_for_solve_nh();
    strategy = parse_strategy(o.strategy);
    if (!(o.jw_up >= 0 && o.jw_up <= 50))
      throw InvalidArgument(fmt::format(
          "--jw_up {}: expected 0..50 m/s (JW06's perturbation: 1; 0: the steady state)", o.jw_up));
  });
  const RunChecks checks = check_run_options(ranks, o);
  if (o.checks_only) return 0;
  const std::string& source = checks.source;
  const auto say = [&](const std::string& text) {
    if (!o.quiet && ranks.root()) fmt::print("{}", text);
  };
  const bool terminal = !o.quiet && ranks.root() && ::isatty(STDOUT_FILENO);

  // ---- Grid, this rank's part and the static fields (on the whole grid or the rank's extended
  // grid: --setup) ----
  const auto t0 = std::chrono::steady_clock::now();
  RunSetUp setup = set_up_rank(ranks, o, checks, MemoryModel::dynamics);
  if (terminal) fmt::print("setup       geometry, interpolation, metrics of both granules ...\n");
  HostStaticInputs host;
  DycoreInputs<H> dycore_computed;
  DiffusionInputs<H> diffusion_computed;
  SolveNhHostStates initial;
  JablonowskiWilliamsonConfig jw;
  jw.perturbation_amplitude = o.jw_up;
  jw.vn_noise_amplitude = o.vn_noise;
  jw.w_noise_amplitude = o.w_noise;
  jw.noise_seed = 1;
  jw.whole_grid_cells = static_cast<std::uint64_t>(setup.whole_points[0]);
  jw.whole_grid_edges = static_cast<std::uint64_t>(setup.whole_points[1]);
  ranks.collectively([&] {
    host = compute_static_inputs(std::move(setup.grids.computed), setup.statics,
                                 StaticFieldSelection::all(), setup.factory_exchange);
  });
  finish_statics(ranks, setup, host);
  ranks.collectively([&] {
    const StaticFields<H> statics = make_static_fields<H>(host);
    const DeviceGrid<H> computed_grid(host.grid);
    dycore_computed = make_dycore_inputs<H>(host, statics, computed_grid);
    diffusion_computed = make_diffusion_inputs<H>(host, statics, computed_grid);
    // ICON4Py's JW initialisation: the analytic state in the model's discrete hydrostatic
    // balance.
    initial =
        jablonowski_williamson_solve_nh_states(host.grid, host.metrics.z_ifc, host.metrics.z_mc,
                                               dycore_computed, jw, HydrostaticAdjustment::icon4py);
  });
  const int nlev = host.metrics.vertical.num_levels();
  const std::vector<double> vct_a = host.metrics.vertical.vct_a;
  say(fmt::format("grid        {} ({}; {} cells, {} edges, {} vertices)\n", source,
                  setup.limited_area ? "limited area" : "global", setup.whole_points[0],
                  setup.whole_points[1], setup.whole_points[2]));
  say(fmt::format("vertical    {} levels, top {} m, damping layer down to half level {}\n", nlev,
                  vct_a.front(), host.metrics.vertical.end_index_of_damping_layer));

  // ---- This rank's part ----
  const LocalPart& part = setup.part;
  const Grid& local = setup.grids.local;
  const Grid& rows = setup.grids.rows();
  const FieldSizes computed_sizes = dycore_computed.sizes();
  const FieldSizes whole_sizes{static_cast<std::size_t>(setup.whole_points[0]),
                               static_cast<std::size_t>(setup.whole_points[1]),
                               static_cast<std::size_t>(setup.whole_points[2]),
                               static_cast<std::size_t>(nlev)};
  const RankPoints my_points = rank_points(local, whole_sizes);
  describe_ranks(ranks, setup, my_points, say);
  say(fmt::format("setup on    {}\n", setup.where));
  const std::string scope = "icondiff::driver::";
  DycoreInputs<M> dycore_inputs;
  DiffusionInputs<M> diffusion_inputs;
  DynamicsStates<M> states;
  ranks.collectively([&] {
    dycore_inputs = restrict_dycore_inputs<M>(dycore_computed, setup.grids, scope);
    diffusion_inputs = restrict_diffusion_inputs<M>(diffusion_computed, setup.grids, scope);
    states.current = copy_state<M>(restrict_to_local(initial.current, rows, computed_sizes, scope),
                                   scope + "current::");
    states.next = copy_state<M>(restrict_to_local(initial.next, rows, computed_sizes, scope),
                                scope + "next::");
    states.solve_nh = copy_state<M>(
        restrict_to_local(initial.diagnostic, rows, computed_sizes, scope), scope + "solve_nh::");
    states.prep_adv = copy_state<M>(
        restrict_to_local(initial.prep_adv, rows, computed_sizes, scope), scope + "prep_adv::");
    states.diffusion = allocate_state<DiffusionDiagnosticState, M>(diffusion_inputs.sizes(),
                                                                   scope + "diffusion::");
  });
  initial = SolveNhHostStates{};  // the computed grid's states are not needed any more
  dycore_computed = DycoreInputs<H>{};
  diffusion_computed = DiffusionInputs<H>{};
  const View2D<wp, M> ddqz_z_full =
      local_cell_field<M>(scope + "ddqz_z_full", host.dycore_metrics.ddqz_z_full, rows);
  const View1D<wp, M> pres_sfc(scope + "pres_sfc", local.num_cells);

  SolveNonhydroOptions<Space> solve_nh_options;
  solve_nh_options.exchange = part.exchange;
  DiffusionOptions<Space> diffusion_options;
  diffusion_options.strategy = strategy;
  diffusion_options.schedule = parse_loop_schedule(o.schedule);
  diffusion_options.level_block = o.level_block;
  diffusion_options.exchange = part.exchange;
  std::unique_ptr<SolveNonhydro<Space>> solve_nh;
  std::unique_ptr<Diffusion<Space>> diffusion;
  std::unique_ptr<DynamicsTimeLoop<Space>> loop;
  DynamicsTimeLoopConfig loop_config;
  loop_config.dtime = o.dtime;
  loop_config.ndyn_substeps = diffusion_config.ndyn_substeps;
  loop_config.second_order_divdamp_factor = o.divdamp_fac_o2;
  loop_config.lprep_adv = false;
  // ICON4Py's JW experiment starts without the initial diffusion call.
  loop_config.apply_initial_stabilization = false;
  ranks.collectively([&] {
    solve_nh = std::make_unique<SolveNonhydro<Space>>(dycore_config, dycore_inputs, vct_a,
                                                      solve_nh_options);
    diffusion =
        std::make_unique<Diffusion<Space>>(diffusion_config, diffusion_inputs, diffusion_options);
    loop = std::make_unique<DynamicsTimeLoop<Space>>(*solve_nh, diffusion.get(), loop_config);
  });
  // ---- Checkpoints: what they must match; the states of one to continue from ----
  // The surface heights of this rank's points (owned and halo).
  std::vector<double> z_surface(static_cast<std::size_t>(local.num_cells));
  const std::vector<index_t>& cell_rows = rows.global_index(Location::Cell);
  for (std::size_t c = 0; c < z_surface.size(); ++c)
    z_surface[c] =
        host.metrics.z_ifc(cell_rows.empty() ? c : static_cast<std::size_t>(cell_rows[c]),
                           static_cast<std::size_t>(nlev));
  const std::map<std::string, std::string> identity = checkpoint_identity(
      o, source, setup.whole_points, local, vct_a, z_surface, diffusion_config, dycore_config);
  host = HostStaticInputs{};  // the factories' host fields: every granule has its copy now
  const long first_step = checks.restart_step + 1;
  if (!o.restart_dir.empty()) {
    const std::string file = (std::filesystem::path(o.restart_dir) /
                              checkpoint_file_name(checks.restart_step, ranks.rank(), ranks.size()))
                                 .string();
    ranks.collectively([&] {
      DynamicsStates<H> restored = host_copy(states);
      const DynamicsCheckpointInfo info = read_dynamics_checkpoint(file, restored);
      if (info.steps_done != checks.restart_step || info.rank != ranks.rank() ||
          info.ranks != ranks.size())
        throw InvalidArgument(fmt::format(
            "--restart {}: {} says it is rank {} of {} after step {}; expected rank {} of {} "
            "after step {}",
            o.restart_dir, file, info.rank, info.ranks, info.steps_done, ranks.rank(), ranks.size(),
            checks.restart_step));
      for (const auto& [key, value] : identity) {
        const auto it = info.identity.find(key);
        if (it == info.identity.end() || it->second != value)
          throw InvalidArgument(fmt::format(
              "--restart {}: the checkpoint was written by a run with {} = '{}', this run has "
              "'{}' (a restart needs the same grid, decomposition, vertical grid, time step "
              "and configuration)",
              file, key, it == info.identity.end() ? std::string("(none)") : it->second, value));
      }
      copy_into(states, restored);
    });
    loop->resume(checks.restart_step);
  }
  const auto write_checkpoint = [&](long step) {
    const std::string file = (std::filesystem::path(o.checkpoint_dir) /
                              checkpoint_file_name(step, ranks.rank(), ranks.size()))
                                 .string();
    DynamicsCheckpointInfo info;
    info.steps_done = step;
    info.time_seconds = step * o.dtime;
    info.rank = ranks.rank();
    info.ranks = ranks.size();
    info.identity = identity;
    const DynamicsStates<H> copy = host_copy(states);
    ranks.collectively([&] {
      std::filesystem::create_directories(o.checkpoint_dir);
      remove_temporaries_on_signal(file);
      write_dynamics_checkpoint(file, info, copy);
    });
  };

  const TimerScope timer_scope = o.timing == "calls" ? TimerScope::calls : TimerScope::kernels;
  KernelTimers timers(timer_scope);
  solve_nh->set_timers(&timers);
  diffusion->set_timers(&timers);
  const View1D<int, M> owned_edges = owned_mask(local, Location::Edge);
  const View1D<int, M> owned_cells = owned_mask(local, Location::Cell);
  const double setup_seconds =
      ranks.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  say(fmt::format(
      "setup       {:.2f} s (grid, geometry, interpolation, metrics, hydrostatically balanced JW "
      "state)\n",
      setup_seconds));
  const MachineFacts machine = measure_machine(ranks);
  say(fmt::format(
      "machine     {} with {} threads{} on {} allowed CPUs, STREAM triad {:.1f} GB/s{}\n",
      Space::name(), machine.threads,
      ranks.decomposed() ? fmt::format(" per rank × {} ranks", ranks.size()) : "", machine.cpus,
      machine.stream_gbs, ranks.decomposed() ? " (all ranks at once)" : ""));
  if (ranks.root() && std::is_same_v<M, H> && machine.threads > machine.cpus)
    fmt::print(stderr,
               "icondiff: warning: {} threads but only {} CPUs allowed to this process (see "
               "taskset -p {}): timings will be slow\n",
               machine.threads, machine.cpus, static_cast<long>(::getpid()));
  say(fmt::format(
      "dynamics    dtime {} s, {} substeps of solve_nh + diffusion ({} strategy) per step, {} "
      "steps = {:.2f} h; JW perturbation {} m/s\n\n",
      o.dtime, loop_config.ndyn_substeps, to_string(strategy), o.steps, o.steps * o.dtime / 3600.0,
      o.jw_up));

  // ---- Output (one file of the whole grid, written by every rank) ----
  std::map<std::string, std::string> attributes;
  for (const auto& [name, value] : icon_namelist_values(diffusion_config)) attributes[name] = value;
  for (const auto& [name, value] : icon_namelist_values(dycore_config)) attributes[name] = value;
  attributes["icondiff:model"] = "dynamics";
  attributes["icondiff:grid_source"] = source;
  attributes["icondiff:dtime"] = fmt::format("{}", o.dtime);
  attributes["icondiff:initial_state"] =
      fmt::format("Jablonowski-Williamson 2006, jw_up = {} m/s, hydrostatically adjusted", o.jw_up);
  attributes["icondiff:version"] = ICONDIFF_VERSION_STRING;
  std::unique_ptr<UgridWriter> writer;
  const std::string writer_path =
      o.output.empty() || temporary_fits_beside(o.output) ? o.output : temporary_beside(o.output);
  const auto write_output = [&](double time) {
    // Each rank its own points, from its states as they are (device states copied to the host).
    diagnose_surface_pressure(Space(), states.current.exner, states.current.theta_v, ddqz_z_full,
                              pres_sfc);
    const auto prognostic = state_on_host(states.current);
    const auto diffusion_diagnostics = state_on_host(states.diffusion);
    const auto pres_sfc_host = Kokkos::create_mirror_view_and_copy(H(), pres_sfc);
    UgridOutputFields f;
    // Double fields in the point-fastest layout are referred to in place; vp fields of a
    // mixed-precision build (the diffusion's diagnostics) and the fields of a level-fastest
    // build are copied into the file's order, kept until the write.
    std::deque<std::vector<double>> widened;
    const auto ref = [&widened](const auto& view) {
      using V = std::decay_t<decltype(view)>;
      using T = typename V::non_const_value_type;
      if constexpr (std::is_same_v<T, double> &&
                    (V::rank == 1 ||
                     std::is_same_v<typename V::array_layout, Kokkos::LayoutLeft>)) {
        return HostFieldRef(view.data(), view.size());
      } else {
        widened.push_back(host_field_copy(view));
        return HostFieldRef(widened.back());
      }
    };
    f.vn = ref(prognostic.vn);
    f.w = ref(prognostic.w);
    f.theta_v = ref(prognostic.theta_v);
    f.exner = ref(prognostic.exner);
    f.rho = ref(prognostic.rho);
    f.pres_sfc = ref(pres_sfc_host);
    // The diffusion's diagnostics exist after its first call.
    if (loop->steps_done() > 0) {
      f.hdef_ic = ref(diffusion_diagnostics.hdef_ic);
      f.div_ic = ref(diffusion_diagnostics.div_ic);
      f.dwdx = ref(diffusion_diagnostics.dwdx);
      f.dwdy = ref(diffusion_diagnostics.dwdy);
    }
    writer->write_step(time, f);
  };
  if (!o.output.empty()) {
    ranks.collectively([&] {
      if (writer_path != o.output && ranks.root()) remove_on_signal(writer_path);
      UgridWriterOptions options;
      options.write_dynamics = true;
      options.title = "icondiff dynamics output (solve_nh + diffusion)";
      writer = make_output_writer(ranks, writer_path, local, vct_a, attributes, options);
    });
    write_output((first_step - 1) * o.dtime);
  }
  if (!o.restart_dir.empty())
    say(fmt::format("restart     from {} after step {} (t = {:.2f} h)\n\n", o.restart_dir,
                    checks.restart_step, checks.restart_step * o.dtime / 3600.0));

  // ---- Steps ----
  const Space space;
  for (long step = first_step; step <= o.steps; ++step) {
    const auto start = std::chrono::steady_clock::now();
    loop->step(space, states);
    space.fence();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timers.record(time_step_label, seconds);
    if (o.finite_check)
      stop_if_not_finite(ranks, local, step,
                         find_non_finite(space, diffusion_state_of(states.current)));
    diagnose_surface_pressure(space, states.current.exner, states.current.theta_v, ddqz_z_full,
                              pres_sfc);
    const double ms = ranks.max(seconds) * 1e3;
    const double vn_max = ranks.max(max_abs(states.current.vn, owned_edges));
    const double w_max = ranks.max(max_abs(states.current.w, owned_cells));
    const double ps_min = -ranks.max(-min_value(pres_sfc, owned_cells));
    const double cfl = ranks.max(states.solve_nh.max_vertical_cfl);
    say(fmt::format(
        "step {:>5}/{:<5} t = {:>7.2f} h  {:>9.2f} ms   max|vn| = {:6.2f} m/s   max|w| = {:.3e} "
        "m/s   min p_sfc = {:8.2f} hPa   max vcfl = {:.3f}\n",
        step, o.steps, step * o.dtime / 3600.0, ms, vn_max, w_max, ps_min / 100.0, cfl));
    // A batch job killed at its wall time must still have the lines of the steps it finished.
    if (ranks.root()) std::fflush(stdout);
    if (!o.output.empty() &&
        ((o.output_every > 0 && step % o.output_every == 0) || step == o.steps))
      write_output(step * o.dtime);
    if (!o.checkpoint_dir.empty() &&
        ((o.checkpoint_every > 0 && step % o.checkpoint_every == 0) || step == o.steps))
      write_checkpoint(step);
  }
  if (!o.output.empty()) {
    close_output(ranks, writer.get(), writer_path, o.output);
    say(fmt::format("\noutput      {} ({} times)\n", o.output,
                    writer ? writer->steps_written() : 0));
  }

  // ---- Timer report (rank 0) ----
  DycoreCallFlags flags;  // a later substep's programs: the run's most frequent calls
  flags.apply_2nd_order_divergence_damping = o.divdamp_fac_o2 > 0;
  std::map<std::string, double> bytes = dycore_program_bytes(solve_nh->dycore(), flags);
  for (const auto& [label, b] :
       diffusion_kernel_bytes(diffusion->ranges(), local.num_cells, local.num_edges,
                              local.num_vertices, nlev, diffusion_config, strategy))
    bytes[label] = b;
  SolveNhStep substep;
  substep.dtime = o.dtime / loop_config.ndyn_substeps;
  substep.ndyn_substeps_var = loop_config.ndyn_substeps;
  substep.second_order_divdamp_factor = o.divdamp_fac_o2;
  double step_bytes = 0;
  for (int s = 0; s < loop_config.ndyn_substeps; ++s) {
    substep.at_first_substep = s == 0;
    substep.at_last_substep = s == loop_config.ndyn_substeps - 1;
    step_bytes += solve_nh_substep_bytes(solve_nh->dycore(), substep);
  }
  step_bytes += bytes.count(diffusion_labels::run) ? bytes.at(diffusion_labels::run) : 0.0;
  bytes[time_step_label] = step_bytes;
  // A label that more kernels than one carry in a substep (one program's pieces under its name)
  // gets the whole program's bytes per kernel call: no bandwidth for it rather than a wrong one.
  const double substeps_run =
      static_cast<double>(o.steps - first_step + 1) * loop_config.ndyn_substeps;
  for (const auto& [label, samples] : timers.samples())
    if (static_cast<double>(samples.size()) > substeps_run) bytes.erase(label);
  const GatheredTimers gathered = gather_timers(ranks, timers, bytes);
  const HaloReport halo =
      report_halo_traffic(ranks, part, static_cast<int>(o.steps - first_step + 1),
                          "time step (solve_nh substeps and diffusion)");
  if (!ranks.root()) return 0;
  const auto entries = timer_entries(gathered.slowest, gathered.bytes);
  fmt::print(
      "\n{} ({} steps; GB/s by the byte model of performance_model.md{}):\n{}",
      timer_scope == TimerScope::kernels ? "per-program timers" : "whole-call timers",
      o.steps - first_step + 1,
      ranks.decomposed()
          ? fmt::format("; per call the slowest of {} ranks, bytes of all ranks", ranks.size())
          : "",
      format_timer_table(entries, machine.stream_gbs));
  const TimerEntry& step_entry = entries.at("time_step");
  fmt::print(
      "time step: {:.2f} ms median ({:.2f} ms per substep with its share of the diffusion), "
      "{:.1f} simulated days per wall-clock day\n",
      step_entry.median_ms, step_entry.median_ms / loop_config.ndyn_substeps,
      o.dtime / (step_entry.median_ms * 1e-3));
  if (ranks.decomposed()) {
    const auto& spread = gathered.rank_medians_ms.at(time_step_label);
    fmt::print(
        "load balance: time-step median per rank {:.3f} / {:.3f} / {:.3f} ms (min / median / max "
        "over {} ranks)\n",
        spread[0], spread[1], spread[2], ranks.size());
    fmt::print("{}", halo.table);
  }
  if (!o.timers.empty()) {
    nlohmann::json metadata = run_metadata(ranks, o, machine, source, setup.whole_points, nlev);
    metadata["strategy"] = to_string(strategy);
    metadata["ndyn_substeps"] = loop_config.ndyn_substeps;
    for (const auto& [name, value] : attributes) metadata["config"][name] = value;
    if (ranks.decomposed()) {
      metadata["timers_over_ranks"] = "per call, the slowest rank; bandwidth: bytes of all ranks";
      metadata["partition"] = part.partition;
      metadata["halo_per_step"] = halo.json;
      for (const auto& [label, spread] : gathered.rank_medians_ms)
        metadata["rank_median_ms"][timer_name(label)] = {
            {"min", spread[0]}, {"median", spread[1]}, {"max", spread[2]}};
    }
    write_text_file(o.timers, timer_report_json(entries, metadata).dump(2) + "\n");
    say(fmt::format("timers      {}\n", o.timers));
  }
  return 0;
}

}  // namespace icondiff::cli
