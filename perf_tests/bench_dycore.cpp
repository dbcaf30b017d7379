// The dycore programs, each on its own, in one run: time per call (one fence per call),
// effective bandwidth by the byte model (dycore/dycore_traffic.hpp, docs/performance.md
// "Dycore programs") and its ratio to the STREAM triad of this run.
//
// Environment: ICONDIFF_BENCH_GRID (a grid source, default generate:R2B5), ICONDIFF_BENCH_NLEV
// (default 65). Inputs are seeded random fields with atmospheric signs and scales
// (unit_tests/support/random_dycore.hpp): the programs' cost does not depend on the values, only
// on the grid, the levels and the regimes (nflatlev = nlev/4, nflat_gradp = nlev/2, damping layer
// nlev/3, kstart_moist nlev/2). Flags: ICON's operational corrector (2nd and 4th order divergence
// damping, tracer fluxes, no IAU), predictor on a first substep; velocity advection with the
// predictor's vertical advection; solve_nonhydro's averaged vn on a later substep with tracer
// fluxes.
#include "support/random_dycore.hpp"

#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_traffic.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using icondiff::test::HostArrays;

struct Setup {
  icondiff::Grid grid;
  icondiff::DycoreInputs<M> inputs;
  std::unique_ptr<icondiff::Dycore<Space>> dycore;
  icondiff::RhoThetaPgradArguments<M> rho_theta;
  icondiff::DivergenceDampingArguments<M> divdamp;
  icondiff::SolverPredictorArguments<M> predictor;
  icondiff::SolverCorrectorArguments<M> corrector;
  icondiff::DiagnosticsFromNormalWindArguments<M> diagnostics_from_vn;
  icondiff::AdvectionInHorizontalMomentumArguments<M> horizontal_momentum;
  icondiff::AdvectionInPredictorVerticalMomentumArguments<M> vertical_momentum_predictor;
  icondiff::AdvectionInCorrectorVerticalMomentumArguments<M> vertical_momentum_corrector;
  icondiff::PerturbedQuantitiesArguments<M> perturbed_quantities;
  icondiff::HorizontalVelocityQuantitiesArguments<M> horizontal_velocity_quantities;
  icondiff::AveragedVnAndFluxesArguments<M> averaged_vn;
  icondiff::InterpolationAndNonhydroBuoyArguments<M> interpolation_and_buoy;
  icondiff::DycoreCallFlags flags;
};

std::unique_ptr<Setup>& setup_storage() {
  static std::unique_ptr<Setup> setup;
  return setup;
}

Setup& setup() {
  auto& s = setup_storage();
  if (s) return *s;
  s = std::make_unique<Setup>();
  const char* grid_env = std::getenv("ICONDIFF_BENCH_GRID");
  const char* nlev_env = std::getenv("ICONDIFF_BENCH_NLEV");
  const std::string source = grid_env ? grid_env : "generate:R2B5";
  const int nlev = nlev_env ? std::atoi(nlev_env) : 65;
  s->grid = icondiff::load_grid_source(source);
  icondiff::test::RandomSource rng(2026);
  HostArrays host;  // the benchmark keeps no host copies
  s->inputs =
      icondiff::test::random_dycore_inputs(icondiff::DeviceGrid<M>(s->grid), nlev, rng, host);
  host.clear();
  s->dycore = std::make_unique<icondiff::Dycore<Space>>(icondiff::DycoreConfig{}, s->inputs);
  const auto sizes = s->inputs.sizes();
  const auto fill = icondiff::test::dycore_call_filler(rng, {});
  using icondiff::test::random_profile;
  const auto profile = [&](const char* name) {
    auto p = random_profile<M>(
        name, nlev, [&](int) { return icondiff::test::dycore_value(name, rng); }, host);
    host.clear();
    return p;
  };
  s->rho_theta = icondiff::test::random_state<icondiff::RhoThetaPgradArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->rho_theta.dtime = 10.0;
  s->divdamp = icondiff::test::random_state<icondiff::DivergenceDampingArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->divdamp.interpolated_fourth_order_divdamp_factor = profile("fourth_order_divdamp_factor");
  s->divdamp.dtime = 10.0;
  s->divdamp.second_order_divdamp_factor = 0.004;
  s->divdamp.second_order_divdamp_scaling_coeff = 0.5;
  s->divdamp.apply_2nd_order_divergence_damping = true;
  s->divdamp.apply_4th_order_divergence_damping = true;
  s->predictor = icondiff::test::random_state<icondiff::SolverPredictorArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->predictor.rayleigh_damping_factor = profile("rayleigh_damping_factor");
  s->predictor.dtime = 10.0;
  s->predictor.at_first_substep = true;
  s->corrector = icondiff::test::random_state<icondiff::SolverCorrectorArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->corrector.rayleigh_damping_factor = profile("rayleigh_damping_factor");
  s->corrector.dtime = 10.0;
  s->corrector.lprep_adv = true;
  s->corrector.r_nsubsteps = 0.2;
  s->corrector.ndyn_substeps_var = 5;
  s->diagnostics_from_vn =
      icondiff::test::random_state<icondiff::DiagnosticsFromNormalWindArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->horizontal_momentum =
      icondiff::test::random_state<icondiff::AdvectionInHorizontalMomentumArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->horizontal_momentum.dtime = 10.0;
  const auto factors = icondiff::velocity_advection_scale_factors(10.0);
  s->horizontal_momentum.cfl_w_limit = factors.cfl_w_limit;
  s->horizontal_momentum.scalfac_exdiff = factors.scalfac_exdiff;
  s->vertical_momentum_predictor =
      icondiff::test::random_state<icondiff::AdvectionInPredictorVerticalMomentumArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->vertical_momentum_corrector =
      icondiff::test::random_state<icondiff::AdvectionInCorrectorVerticalMomentumArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  for (auto* call : {&s->vertical_momentum_predictor.dtime, &s->vertical_momentum_corrector.dtime})
    *call = 10.0;
  s->vertical_momentum_predictor.cfl_w_limit = factors.cfl_w_limit;
  s->vertical_momentum_predictor.scalfac_exdiff = factors.scalfac_exdiff;
  s->vertical_momentum_corrector.cfl_w_limit = factors.cfl_w_limit;
  s->vertical_momentum_corrector.scalfac_exdiff = factors.scalfac_exdiff;
  // solve_nonhydro's cell and edge programs as ICON calls them most often: the averaged vn on a
  // later substep with the tracer-advection averages accumulated.
  s->perturbed_quantities = icondiff::test::random_state<icondiff::PerturbedQuantitiesArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->horizontal_velocity_quantities =
      icondiff::test::random_state<icondiff::HorizontalVelocityQuantitiesArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->averaged_vn = icondiff::test::random_state<icondiff::AveragedVnAndFluxesArguments, M>(
      sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->averaged_vn.prepare_advection = true;
  s->averaged_vn.at_first_substep = false;
  s->averaged_vn.r_nsubsteps = 0.2;
  s->interpolation_and_buoy =
      icondiff::test::random_state<icondiff::InterpolationAndNonhydroBuoyArguments, M>(
          sizes, fill, host, "icondiff::bench::");
  host.clear();
  s->interpolation_and_buoy.dtime = 10.0;
  s->flags.at_first_substep = true;  // the predictor's exner increment
  s->flags.lprep_adv = true;
  std::printf("grid %s: %d cells, %d edges, %d levels\n", source.c_str(), s->grid.num_cells,
              s->grid.num_edges, nlev);
  // Views must go before Kokkos::finalize.
  Kokkos::push_finalize_hook([] { setup_storage().reset(); });
  return *s;
}

/// `points` x levels of the program's domain: bytes_per_point_level is the byte model per
/// (edge or cell, level) the program computes.
template <class Call>
void bench_program(benchmark::State& state, const std::string& label, const Call& call,
                   double bytes, double point_levels) {
  call();  // warm-up
  Space().fence();
  for (auto _ : state) {
    call();
    Space().fence();
  }
  state.counters["model_GBs"] =
      benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["stream_GBs"] = icondiff::reference_bandwidth_gbs();
  state.counters["bytes_per_point_level"] = bytes / point_levels;
  state.SetLabel(label);
}

double point_levels(const icondiff::ProgramDomain& d) {
  return static_cast<double>(d.horizontal.size()) * (d.vertical_end - d.vertical_start);
}

/// A Dycore on the same inputs with other launch options (the setup's own for the defaults):
/// the variants side by side in one run.
icondiff::Dycore<Space>& variant_dycore(Setup& s, const icondiff::LoopSchedule schedule,
                                        const bool column_blocks) {
  static std::map<std::pair<icondiff::LoopSchedule, bool>, std::unique_ptr<icondiff::Dycore<Space>>>
      variants;
  icondiff::DycoreOptions<Space> options;
  if (schedule == options.schedule && column_blocks == options.column_blocks) return *s.dycore;
  if (variants.empty()) Kokkos::push_finalize_hook([] { variants.clear(); });
  auto& variant = variants[{schedule, column_blocks}];
  if (!variant) {
    options.schedule = schedule;
    options.column_blocks = column_blocks;
    variant =
        std::make_unique<icondiff::Dycore<Space>>(icondiff::DycoreConfig{}, s.inputs, options);
  }
  return *variant;
}

/// The edge programs with `schedule`, the solver with its columns in blocks (the CPU default in
/// ICON's layout) or one thread per column.
icondiff::Dycore<Space>& scheduled_dycore(Setup& s, const icondiff::LoopSchedule schedule) {
  return variant_dycore(s, schedule, icondiff::DycoreOptions<Space>{}.column_blocks);
}
icondiff::Dycore<Space>& solver_dycore(Setup& s, const bool blocked) {
  return variant_dycore(s, icondiff::DycoreOptions<Space>{}.schedule, blocked);
}

void bench_rho_theta_pgrad(benchmark::State& state) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state, std::string("compute_rho_theta_pgrad_and_update_vn ") + icondiff::to_string(schedule),
      [&] { dycore.compute_rho_theta_pgrad_and_update_vn(s.rho_theta); },
      bytes.at(icondiff::dycore_labels::rho_theta_pgrad),
      point_levels(s.dycore->rho_theta_pgrad_domain()));
}
void bench_divergence_damping(benchmark::State& state) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state, std::string("apply_divergence_damping_and_update_vn ") + icondiff::to_string(schedule),
      [&] { dycore.apply_divergence_damping_and_update_vn(s.divdamp); },
      bytes.at(icondiff::dycore_labels::divergence_damping),
      point_levels(s.dycore->divergence_damping_domain()));
}
void bench_solver_predictor(benchmark::State& state, bool blocked) {
  Setup& s = setup();
  auto& dycore = solver_dycore(s, blocked);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state, "vertically_implicit_solver_at_predictor_step",
      [&] { dycore.vertically_implicit_solver_at_predictor_step(s.predictor); },
      bytes.at(icondiff::dycore_labels::solver_predictor) +
          bytes.at(icondiff::dycore_labels::contravariant_correction),
      point_levels(s.dycore->solver_domain()));
}
void bench_solver_corrector(benchmark::State& state, bool blocked) {
  Setup& s = setup();
  auto& dycore = solver_dycore(s, blocked);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state, "vertically_implicit_solver_at_corrector_step",
      [&] { dycore.vertically_implicit_solver_at_corrector_step(s.corrector); },
      bytes.at(icondiff::dycore_labels::solver_corrector), point_levels(s.dycore->solver_domain()));
}

/// Velocity advection's first program, vertical advection of the predictor not skipped.
void bench_diagnostics_from_normal_wind(benchmark::State& state) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state, std::string("compute_diagnostics_from_normal_wind ") + icondiff::to_string(schedule),
      [&] { dycore.compute_diagnostics_from_normal_wind(s.diagnostics_from_vn); },
      bytes.at(icondiff::dycore_labels::diagnostics_from_normal_wind),
      point_levels(s.dycore->diagnostics_from_normal_wind_domain()));
}

/// Velocity advection's tendency of vn, with the extra diffusion (as VelocityAdvection calls it).
void bench_horizontal_momentum(benchmark::State& state) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  bench_program(
      state,
      std::string("compute_advection_in_horizontal_momentum ") + icondiff::to_string(schedule),
      [&] { dycore.compute_advection_in_horizontal_momentum(s.horizontal_momentum); },
      bytes.at(icondiff::dycore_labels::advection_in_horizontal_momentum),
      point_levels(s.dycore->advection_in_horizontal_momentum_domain()));
}

/// Velocity advection's vertical-momentum steps (the predictor not skipped).
void bench_vertical_momentum(benchmark::State& state, const bool corrector) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, s.flags);
  const std::string& label =
      corrector ? icondiff::dycore_labels::advection_in_corrector_vertical_momentum
                : icondiff::dycore_labels::advection_in_predictor_vertical_momentum;
  bench_program(
      state,
      label.substr(icondiff::dycore_labels::prefix.size()) + " " + icondiff::to_string(schedule),
      [&] {
        if (corrector)
          dycore.compute_advection_in_corrector_vertical_momentum(Space(),
                                                                  s.vertical_momentum_corrector);
        else
          dycore.compute_advection_in_predictor_vertical_momentum(Space(),
                                                                  s.vertical_momentum_predictor);
      },
      bytes.at(label), point_levels(s.dycore->advection_in_vertical_momentum_domain()));
}

/// One of solve_nonhydro's cell or edge programs over its own domain under `schedule`; `flags`
/// as the call passes them (the byte model depends on them).
template <class Run>
void bench_solve_nonhydro_program(benchmark::State& state, const std::string& label,
                                  const icondiff::DycoreCallFlags& flags, const Run& run,
                                  const icondiff::ProgramDomain& domain) {
  const auto schedule = icondiff::all_loop_schedules[state.range(0)];
  Setup& s = setup();
  auto& dycore = scheduled_dycore(s, schedule);
  const auto bytes = icondiff::dycore_program_bytes(*s.dycore, flags);
  bench_program(
      state,
      label.substr(icondiff::dycore_labels::prefix.size()) + " " + icondiff::to_string(schedule),
      [&] { run(dycore, s); }, bytes.at(label), point_levels(domain));
}
void bench_perturbed_quantities(benchmark::State& state) {
  Setup& s = setup();
  bench_solve_nonhydro_program(
      state, icondiff::dycore_labels::perturbed_quantities, s.flags,
      [](auto& dycore, Setup& s) {
        dycore.compute_perturbed_quantities_and_interpolation(Space(), s.perturbed_quantities);
      },
      s.dycore->perturbed_quantities_domain());
}
void bench_horizontal_velocity_quantities(benchmark::State& state) {
  Setup& s = setup();
  bench_solve_nonhydro_program(
      state, icondiff::dycore_labels::horizontal_velocity_quantities, s.flags,
      [](auto& dycore, Setup& s) {
        dycore.compute_horizontal_velocity_quantities_and_fluxes(Space(),
                                                                 s.horizontal_velocity_quantities);
      },
      s.dycore->horizontal_velocity_quantities_domain());
}
void bench_averaged_vn(benchmark::State& state) {
  Setup& s = setup();
  auto flags = s.flags;
  flags.lprep_adv = s.averaged_vn.prepare_advection;
  flags.at_first_substep = s.averaged_vn.at_first_substep;
  bench_solve_nonhydro_program(
      state, icondiff::dycore_labels::averaged_vn_and_fluxes, flags,
      [](auto& dycore, Setup& s) { dycore.compute_averaged_vn_and_fluxes(Space(), s.averaged_vn); },
      s.dycore->averaged_vn_and_fluxes_domain());
}
void bench_interpolation_and_buoy(benchmark::State& state) {
  Setup& s = setup();
  bench_solve_nonhydro_program(
      state, icondiff::dycore_labels::interpolation_and_nonhydro_buoy, s.flags,
      [](auto& dycore, Setup& s) {
        dycore.compute_interpolation_and_nonhydro_buoy(Space(), s.interpolation_and_buoy);
      },
      s.dycore->interpolation_and_nonhydro_buoy_domain());
}

/// A program under every loop schedule (argument: the index in all_loop_schedules; the label
/// names it), in wall-clock milliseconds.
void every_schedule(benchmark::internal::Benchmark* b) {
  b->DenseRange(0, int(std::size(icondiff::all_loop_schedules)) - 1)
      ->ArgName("schedule")
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// The edge programs under every loop schedule (argument: the index in all_loop_schedules; the
// label names it).
BENCHMARK(bench_rho_theta_pgrad)->Apply(every_schedule);
BENCHMARK(bench_divergence_damping)->Apply(every_schedule);
BENCHMARK(bench_diagnostics_from_normal_wind)->Apply(every_schedule);
BENCHMARK(bench_horizontal_momentum)->Apply(every_schedule);
BENCHMARK_CAPTURE(bench_vertical_momentum, predictor, false)->Apply(every_schedule);
BENCHMARK_CAPTURE(bench_vertical_momentum, corrector, true)->Apply(every_schedule);
// solve_nonhydro's other programs whose domain is not empty on a global grid on one rank (the
// hydrostatic correction, one level of edges, is too small to time; the limited-area and halo
// programs have no points here).
BENCHMARK(bench_perturbed_quantities)->Apply(every_schedule);
BENCHMARK(bench_horizontal_velocity_quantities)->Apply(every_schedule);
BENCHMARK(bench_averaged_vn)->Apply(every_schedule);
BENCHMARK(bench_interpolation_and_buoy)->Apply(every_schedule);
BENCHMARK_CAPTURE(bench_solver_predictor, column_blocks, true)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_solver_predictor, one_column_per_thread, false)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_solver_corrector, column_blocks, true)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_solver_corrector, one_column_per_thread, false)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
