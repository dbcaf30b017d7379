// The solve_nh granule: time per dynamics substep (one fence per substep), effective bandwidth by
// the substep's byte model (solve_nh_substep_bytes: the sum of its programs' models,
// docs/performance.md) and its ratio to the STREAM triad of this run.
//
// Environment: ICONDIFF_BENCH_GRID (a grid source, default generate:R2B5), ICONDIFF_BENCH_NLEV
// (default 65). Realistic inputs: icondiff's factories on the grid with a Gaussian hill (3 km)
// and ICON's default vertical grid, a Jablonowski-Williamson state with noise; the substeps
// integrate it (current and next swap, as do the predictor/corrector tendency slots), dtime 10 s,
// ICON's operational flags: itime_scheme 4, divdamp_order 24 with the second-order damping off
// (divdamp_fac_o2 = 0, as after the first steps), tracer fluxes prepared (lprep_adv), no IAU.
// Two substeps are timed: the first of a physics step (velocity advection's predictor runs,
// without the vertical advection: ICON's lvn_only) and a later one (it does not run); with
// ndyn_substeps = 5 a physics step is one first and four later substeps.
#include <icondiff/dycore/dycore_traffic.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using H = Kokkos::HostSpace;

constexpr double dtime = 10.0;

struct Setup {
  icondiff::HostStaticInputs host;
  icondiff::StaticFields<M> statics;
  icondiff::DycoreInputs<M> inputs;
  std::unique_ptr<icondiff::SolveNonhydro<Space>> granule;
  icondiff::SolveNhPrognosticState<M> current, next;
  icondiff::SolveNhDiagnosticState<M> diagnostic;
  icondiff::SolveNhPrepAdvection<M> prep_adv;
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
  icondiff::StaticsSetupConfig config;
  config.vertical.num_levels = nlev;
  config.metrics.topography = icondiff::TopographyConfig::gaussian_hill(3000.0, 300e3, 8.0, 46.5);
  s->host = icondiff::compute_static_inputs(icondiff::load_grid_source(source), config,
                                            icondiff::StaticFieldSelection::all());
  s->statics = icondiff::make_static_fields<M>(s->host);
  s->inputs =
      icondiff::make_dycore_inputs<M>(s->host, s->statics, icondiff::DeviceGrid<M>(s->host.grid));
  s->granule = std::make_unique<icondiff::SolveNonhydro<Space>>(icondiff::DycoreConfig{}, s->inputs,
                                                                s->host.metrics.vertical.vct_a);

  // The JW state (testcases/solve_nh_initial_state.hpp).
  icondiff::JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 1.0;
  jw.w_noise_amplitude = 0.02;
  const auto host_inputs = icondiff::make_dycore_inputs<H>(
      s->host, icondiff::make_static_fields<H>(s->host), icondiff::DeviceGrid<H>(s->host.grid));
  const icondiff::SolveNhHostStates states = icondiff::jablonowski_williamson_solve_nh_states(
      s->host.grid, s->host.metrics.z_ifc, s->host.metrics.z_mc, host_inputs, jw);
  s->current = icondiff::copy_state<M>(states.current, "icondiff::bench::current::");
  s->next = icondiff::copy_state<M>(states.next, "icondiff::bench::next::");
  s->diagnostic = icondiff::copy_state<M>(states.diagnostic, "icondiff::bench::");
  s->prep_adv = icondiff::copy_state<M>(states.prep_adv, "icondiff::bench::");
  // The model's initial substep once (it computes the vertical advection the later ones reuse).
  icondiff::SolveNhStep initial;
  initial.dtime = dtime;
  initial.ndyn_substeps_var = 5;
  initial.at_initial_timestep = true;
  initial.at_first_substep = true;
  initial.lprep_adv = true;
  s->granule->time_step(s->diagnostic, s->current, s->next, s->prep_adv, initial);
  Space().fence();
  std::printf("grid %s: %d cells, %d edges, %d levels\n", source.c_str(), s->host.grid.num_cells,
              s->host.grid.num_edges, nlev);
  // Views must go before Kokkos::finalize.
  Kokkos::push_finalize_hook([] { setup_storage().reset(); });
  return *s;
}

void bench_substep(benchmark::State& state, const bool first) {
  Setup& s = setup();
  icondiff::SolveNhStep step;
  step.dtime = dtime;
  step.ndyn_substeps_var = 5;
  step.at_first_substep = first;
  step.lprep_adv = true;
  const auto one_substep = [&] {
    s.granule->time_step(s.diagnostic, s.current, s.next, s.prep_adv, step);
    std::swap(s.current, s.next);
    std::swap(s.diagnostic.predictor_normal_wind_advective_tendency,
              s.diagnostic.corrector_normal_wind_advective_tendency);
    std::swap(s.diagnostic.predictor_vertical_wind_advective_tendency,
              s.diagnostic.corrector_vertical_wind_advective_tendency);
  };
  one_substep();  // warm-up
  Space().fence();
  for (auto _ : state) {
    one_substep();
    Space().fence();
  }
  const double bytes = icondiff::solve_nh_substep_bytes(s.granule->dycore(), step);
  state.counters["model_GBs"] =
      benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["model_MB"] = bytes * 1e-6;
  state.counters["stream_GBs"] = icondiff::reference_bandwidth_gbs();
  state.SetLabel(first ? "solve_nh substep, first of the physics step"
                       : "solve_nh substep, a later one");
}

BENCHMARK_CAPTURE(bench_substep, first, true)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_substep, later, false)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
