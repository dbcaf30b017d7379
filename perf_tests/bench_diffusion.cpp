// The diffusion granule, both strategies, in one run: time per call (unfenced kernels, one fence
// per call), effective bandwidth by the byte model (performance_model.md §3: the 276 B per
// cell-level minimum, and the bytes of the kernels actually launched), ratio to the STREAM triad
// of this run; then a per-kernel table from the granule's own timers.
//
// Environment: ICONDIFF_BENCH_GRID (a grid source, default generate:R2B5), ICONDIFF_BENCH_NLEV
// (default 65). Configuration and vertical grid as ICON4Py's diffusion benchmark
// (diffusion_spec §5.3), Jablonowski-Williamson initial state.
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

/// ICON4Py's test_diffusion_benchmark configuration.
icondiff::DiffusionConfig benchmark_config() {
  icondiff::DiffusionConfig c;
  c.hdiff_efdt_ratio = 24.0;
  c.hdiff_w_efdt_ratio = 15.0;
  c.smagorinski_scaling_factor = 0.025;
  c.apply_zdiffusion_t = false;
  c.velocity_boundary_diffusion_denominator = 150.0;
  c.max_nudging_coefficient = 0.375;
  c.ndyn_substeps = 5;
  c.shear_type = icondiff::TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  return c;
}

struct Setup {
  icondiff::DiffusionConfig config = benchmark_config();
  icondiff::HostDiffusionInputs host;
  icondiff::DiffusionInputs<M> inputs;
  icondiff::DiffusionPrognosticState<M> prognostic;
  icondiff::DiffusionDiagnosticState<M> diagnostic;
  double dtime = 10.0;
  int nlev = 0;
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
  s->nlev = nlev_env ? std::atoi(nlev_env) : 65;
  icondiff::DiffusionSetupConfig sc;
  sc.vertical = icondiff::icon4py_benchmark_vertical_config(s->nlev);
  sc.metrics = icondiff::icon4py_benchmark_metrics_config();
  s->host = icondiff::compute_diffusion_inputs(icondiff::load_grid_source(source), s->config, sc);
  s->inputs = icondiff::make_diffusion_inputs<M>(s->host);
  const auto state = icondiff::jablonowski_williamson_state(
      s->host.grid, s->host.metrics.z_ifc, s->host.metrics.z_mc,
      icondiff::JablonowskiWilliamsonConfig{});
  s->prognostic = icondiff::to_prognostic_state<M>(state);
  s->diagnostic = icondiff::allocate_state<icondiff::DiffusionDiagnosticState, M>(
      s->inputs.sizes(), "icondiff::bench::");
  std::printf("grid %s: %d cells, %d edges, %d vertices, %d levels\n", source.c_str(),
              s->host.grid.num_cells, s->host.grid.num_edges, s->host.grid.num_vertices, s->nlev);
  // Views must go before Kokkos::finalize.
  Kokkos::push_finalize_hook([] { setup_storage().reset(); });
  return *s;
}

icondiff::Diffusion<Space> make_diffusion(Setup& s, icondiff::DiffusionStrategy strategy) {
  icondiff::DiffusionOptions<Space> options;
  options.strategy = strategy;
  return icondiff::Diffusion<Space>(s.config, s.inputs, options);
}

void bench_granule(benchmark::State& state, icondiff::DiffusionStrategy strategy,
                   icondiff::LoopSchedule schedule) {
  Setup& s = setup();
  auto diffusion = make_diffusion(s, strategy);
  diffusion.set_loop_schedule(schedule);
  diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);  // warm-up
  Space().fence();
  for (auto _ : state) {
    diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);
    Space().fence();
  }
  const auto& g = s.host.grid;
  const double minimum =
      icondiff::diffusion_minimum_bytes(g.num_cells, g.num_edges, g.num_vertices, s.nlev);
  const double launched =
      icondiff::diffusion_kernel_bytes(diffusion.ranges(), g.num_cells, g.num_edges, g.num_vertices,
                                       s.nlev, s.config, strategy)
          .at("icondiff::diffusion::run");
  state.counters["min_model_GBs"] =
      benchmark::Counter(minimum * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["kernel_model_GBs"] =
      benchmark::Counter(launched * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["stream_GBs"] = icondiff::reference_bandwidth_gbs();
  state.counters["bytes_per_cell_level"] = launched / (static_cast<double>(g.num_cells) * s.nlev);
}

using icondiff::DiffusionStrategy;
using icondiff::LoopSchedule;
// Every strategy with every loop schedule, in one run (same grid, same STREAM reference).
BENCHMARK_CAPTURE(bench_granule, unfused_level_chunks, DiffusionStrategy::Unfused,
                  LoopSchedule::LevelChunks)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, fused_level_chunks, DiffusionStrategy::Fused,
                  LoopSchedule::LevelChunks)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, unfused_points_outer, DiffusionStrategy::Unfused,
                  LoopSchedule::PointsOuter)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, fused_points_outer, DiffusionStrategy::Fused,
                  LoopSchedule::PointsOuter)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, unfused_mdrange, DiffusionStrategy::Unfused, LoopSchedule::MDRange)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, fused_mdrange, DiffusionStrategy::Fused, LoopSchedule::MDRange)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, unfused_flat, DiffusionStrategy::Unfused, LoopSchedule::Flat)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_granule, fused_flat, DiffusionStrategy::Fused, LoopSchedule::Flat)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

/// Per-kernel medians from the granule's own (fenced) timers, both strategies.
void bench_kernels(benchmark::State& state) {
  Setup& s = setup();
  const auto& g = s.host.grid;
  for (auto _ : state) {
    for (const auto strategy :
         {icondiff::DiffusionStrategy::Unfused, icondiff::DiffusionStrategy::Fused}) {
      auto diffusion = make_diffusion(s, strategy);
      icondiff::KernelTimers timers;
      diffusion.set_timers(&timers);
      for (int i = 0; i < 10; ++i) diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);
      const auto bytes = icondiff::diffusion_kernel_bytes(
          diffusion.ranges(), g.num_cells, g.num_edges, g.num_vertices, s.nlev, s.config, strategy);
      const double stream = icondiff::reference_bandwidth_gbs();
      std::printf("\n%s strategy, %d calls (fenced after every kernel):\n",
                  icondiff::to_string(strategy), 10);
      std::printf("  %-86s %10s %9s %7s\n", "kernel", "median ms", "GB/s", "STREAM");
      for (const auto& [label, st] : timers.statistics()) {
        const double gbs = bytes.count(label) ? bytes.at(label) / st.median * 1e-9 : -1;
        std::printf("  %-86s %10.3f %9.2f %6.0f%%\n", label.c_str(), st.median * 1e3, gbs,
                    100 * gbs / stream);
      }
    }
  }
}
BENCHMARK(bench_kernels)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
