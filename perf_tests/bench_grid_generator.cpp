// Generating global icosahedral grids R2B4..R2B7 with every table and the full geometry, with
// ICON's spring-dynamics optimisation (the default, most of the time) and without it, and
// cutting a limited-area grid out of R2B6. Host code, single-threaded. R2B7 (1.3 M cells, about
// 0.6 GB, 16 s) runs only when ICONDIFF_BENCH_R2B7=1, so the ctest smoke run stays short.
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

namespace {

void generate_r2bk(benchmark::State& state, const icondiff::GridOptimization& optimization) {
  const int bisections = static_cast<int>(state.range(0));
  icondiff::index_t cells = 0;
  for (auto _ : state) {
    const icondiff::Grid g =
        icondiff::generate_icosahedral_grid(2, bisections, icondiff::earth_radius, optimization);
    cells = g.num_cells;
    benchmark::DoNotOptimize(g.cell_area.data());
  }
  state.counters["cells"] = static_cast<double>(cells);
  state.counters["cells_per_s"] =
      benchmark::Counter(static_cast<double>(cells), benchmark::Counter::kIsIterationInvariantRate);
}

void bench_generate_r2bk(benchmark::State& state) {
  generate_r2bk(state, icondiff::GridOptimization{});
}
BENCHMARK(bench_generate_r2bk)->DenseRange(4, 6)->Unit(benchmark::kMillisecond)->UseRealTime();

void bench_generate_r2bk_unoptimised(benchmark::State& state) {
  generate_r2bk(state, icondiff::GridOptimization::none());
}
BENCHMARK(bench_generate_r2bk_unoptimised)
    ->DenseRange(4, 6)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

[[maybe_unused]] const bool r2b7_registered = [] {
  const char* on = std::getenv("ICONDIFF_BENCH_R2B7");
  if (on != nullptr && std::string(on) == "1") {
    benchmark::RegisterBenchmark("bench_generate_r2bk", bench_generate_r2bk)
        ->Arg(7)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("bench_generate_r2bk_unoptimised", bench_generate_r2bk_unoptimised)
        ->Arg(7)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();

void bench_cut_limited_area_r2b6(benchmark::State& state) {
  const icondiff::Grid global = icondiff::generate_icosahedral_grid(2, 6);
  constexpr double deg = 3.14159265358979323846 / 180.0;
  const auto region = icondiff::LimitedAreaRegion::cap(8 * deg, 46.8 * deg, 20 * deg);
  icondiff::index_t cells = 0;
  for (auto _ : state) {
    const icondiff::Grid lam = icondiff::cut_limited_area(global, region);
    cells = lam.num_cells;
    benchmark::DoNotOptimize(lam.cell_area.data());
  }
  state.counters["lam_cells"] = static_cast<double>(cells);
}
BENCHMARK(bench_cut_limited_area_r2b6)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
