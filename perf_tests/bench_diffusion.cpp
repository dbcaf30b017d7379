// The diffusion granule in one run: both strategies with every loop schedule and the level-block
// sweep of the tiled schedules (whole call, unfenced kernels, one fence per call), then every
// kernel from the granule's own fenced timers. Per case: median/min/max ms per call, effective
// bandwidth by the byte model (performance_model.md §3: the ≈276 B per cell-level minimum, and the
// bytes of the kernels actually launched), the ratio to the STREAM triad of this run. Everything
// is also a Google Benchmark counter, so --benchmark_format=json carries it
// (perf_tests/granule_benchmark.py collects those files into one table).
//
// Environment: ICONDIFF_BENCH_GRID (a grid source, default generate:R2B5), ICONDIFF_BENCH_NLEV
// (default 65), ICONDIFF_BENCH_CALLS (calls per strategy of the per-kernel table, default 10).
// Configuration and vertical grid as ICON4Py's diffusion benchmark (diffusion_spec §5.3),
// Jablonowski-Williamson initial state.
#include <icondiff/profiling/stream_bandwidth.hpp>

#include "support/diffusion_benchmark_setup.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

/// The granule of this run (grid and levels from the environment) plus the per-kernel call count.
struct Setup : icondiff::bench::DiffusionBenchmarkSetup<M> {
  using icondiff::bench::DiffusionBenchmarkSetup<M>::DiffusionBenchmarkSetup;
  int kernel_calls = 10;
};

std::unique_ptr<Setup>& setup_storage() {
  static std::unique_ptr<Setup> setup;
  return setup;
}

Setup& setup() {
  auto& s = setup_storage();
  if (s) return *s;
  const char* grid_env = std::getenv("ICONDIFF_BENCH_GRID");
  const char* nlev_env = std::getenv("ICONDIFF_BENCH_NLEV");
  const char* calls_env = std::getenv("ICONDIFF_BENCH_CALLS");
  const std::string source = grid_env ? grid_env : "generate:R2B5";
  const int nlev = nlev_env ? std::atoi(nlev_env) : 65;
  const int calls = calls_env ? std::atoi(calls_env) : 10;
  if (nlev < 2 || calls < 1) {
    std::fprintf(stderr, "ICONDIFF_BENCH_NLEV must be >= 2 and ICONDIFF_BENCH_CALLS >= 1\n");
    std::exit(2);
  }
  s = std::make_unique<Setup>(source, nlev, "icondiff::bench::");
  s->kernel_calls = calls;
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

/// Median, min and max of `seconds`, in ms.
struct CallTimes {
  double median_ms = 0, min_ms = 0, max_ms = 0;
};
CallTimes call_times(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size(), mid = n / 2;
  const double median = n % 2 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  return {median * 1e3, seconds.front() * 1e3, seconds.back() * 1e3};
}

/// Effective bandwidth in GB/s of `bytes` moved in `median_ms`.
double model_gbs(double bytes, double median_ms) {
  return bytes / (median_ms * 1e-3) * 1e-9;
}

void bench_granule(benchmark::State& state, icondiff::DiffusionStrategy strategy,
                   icondiff::LoopSchedule schedule, icondiff::index_t level_block) {
  Setup& s = setup();
  auto diffusion = make_diffusion(s, strategy);
  diffusion.set_loop_schedule(schedule);
  diffusion.set_level_block(level_block);
  diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);  // warm-up
  Space().fence();
  std::vector<double> seconds;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);
    Space().fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const auto& g = s.host.grid;
  const double minimum =
      icondiff::diffusion_minimum_bytes(g.num_cells, g.num_edges, g.num_vertices, s.nlev);
  const double launched =
      icondiff::diffusion_kernel_bytes(diffusion.ranges(), g.num_cells, g.num_edges, g.num_vertices,
                                       s.nlev, s.config, strategy)
          .at("icondiff::diffusion::run");
  const CallTimes t = call_times(seconds);
  const double stream = icondiff::reference_bandwidth_gbs();
  state.counters["median_ms"] = t.median_ms;
  state.counters["min_ms"] = t.min_ms;
  state.counters["max_ms"] = t.max_ms;
  state.counters["min_model_GBs"] = model_gbs(minimum, t.median_ms);
  state.counters["kernel_model_GBs"] = model_gbs(launched, t.median_ms);
  state.counters["stream_GBs"] = stream;
  state.counters["min_model_of_stream"] = model_gbs(minimum, t.median_ms) / stream;
  state.counters["kernel_model_of_stream"] = model_gbs(launched, t.median_ms) / stream;
  state.counters["min_bytes_per_cell_level"] = minimum / s.cell_levels();
  state.counters["bytes_per_cell_level"] = launched / s.cell_levels();
  state.counters["cell_levels"] = s.cell_levels();
}

/// Every strategy with every loop schedule, and the level-block sweep (1, 2, 4, 8, 16, all
/// levels) of the two tiled schedules, in one run (same grid, same STREAM reference). Names:
/// bench_granule/<strategy>/<schedule>[/kblock:<n|all>].
const bool registered = [] {
  using icondiff::DiffusionStrategy;
  using icondiff::LoopSchedule;
  for (const auto strategy : {DiffusionStrategy::Unfused, DiffusionStrategy::Fused})
    for (const auto schedule : icondiff::all_loop_schedules) {
      const bool tiled = icondiff::uses_level_block(schedule);
      for (const icondiff::index_t block : {1, 2, 4, 8, 16, 0}) {
        if (!tiled && block != 1) continue;
        std::string name = std::string("bench_granule/") + icondiff::to_string(strategy) + "/" +
                           icondiff::to_string(schedule);
        if (tiled) name += "/kblock:" + (block == 0 ? std::string("all") : std::to_string(block));
        benchmark::RegisterBenchmark(name.c_str(), bench_granule, strategy, schedule, block)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  return true;
}();

/// Every kernel of one strategy from the granule's own timers (fenced after every kernel),
/// ICONDIFF_BENCH_CALLS calls: printed as a table, and as counters "<step>/<quantity>" (step: the
/// label without its namespace) for the JSON output.
void bench_kernels(benchmark::State& state, icondiff::DiffusionStrategy strategy) {
  Setup& s = setup();
  const auto& g = s.host.grid;
  for (auto _ : state) {
    auto diffusion = make_diffusion(s, strategy);
    icondiff::KernelTimers timers;
    diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);  // warm-up, untimed
    diffusion.set_timers(&timers);
    for (int i = 0; i < s.kernel_calls; ++i)
      diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);
    const auto bytes = icondiff::diffusion_kernel_bytes(
        diffusion.ranges(), g.num_cells, g.num_edges, g.num_vertices, s.nlev, s.config, strategy);
    const double stream = icondiff::reference_bandwidth_gbs();
    std::printf("\n%s strategy, %d calls (fenced after every kernel):\n",
                icondiff::to_string(strategy), s.kernel_calls);
    std::printf("  %-86s %10s %8s %8s %9s %7s\n", "kernel", "median ms", "min", "max", "GB/s",
                "STREAM");
    for (const auto& [label, st] : timers.statistics()) {
      const double median_ms = st.median * 1e3;
      const double gbs = bytes.count(label) ? model_gbs(bytes.at(label), median_ms) : 0;
      std::printf("  %-86s %10.3f %8.3f %8.3f %9.2f %6.0f%%\n", label.c_str(), median_ms,
                  st.min * 1e3, st.max * 1e3, gbs, 100 * gbs / stream);
      const std::string step = label.substr(label.rfind("::") + 2);
      state.counters[step + "/median_ms"] = median_ms;
      state.counters[step + "/min_ms"] = st.min * 1e3;
      state.counters[step + "/max_ms"] = st.max * 1e3;
      state.counters[step + "/bytes"] = bytes.count(label) ? bytes.at(label) : 0;
      state.counters[step + "/model_GBs"] = gbs;
      state.counters[step + "/of_stream"] = gbs / stream;
    }
    state.counters["stream_GBs"] = stream;
    state.counters["cell_levels"] = s.cell_levels();
  }
}
BENCHMARK_CAPTURE(bench_kernels, unfused, icondiff::DiffusionStrategy::Unfused)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bench_kernels, fused, icondiff::DiffusionStrategy::Fused)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
