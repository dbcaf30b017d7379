// The boundary conversion of a level-fastest build (core/external_state.hpp): one (points, levels)
// double field copied from ICON's layout (the point index fastest, levels nproma apart) into
// level-fastest storage ("in", before a call) and back ("out", after it), with
// copy_across_layouts on the default execution space. The byte model is 16 B per point-level
// (one read, one write); the ratio is to the STREAM copy of the same run, the rate a conversion
// could reach at best. Sizes: ICON's R2B4 cells and R2B5 cells and edges (nproma = points, as
// the drop-in passes them: the distance between levels a multiple of 4 KiB), and R2B5 cells with
// an odd nproma for comparison. Levels: ICONDIFF_BENCH_NLEV (default 65).
#include <icondiff/core/view_copy.hpp>
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

/// The baseline: the conversion before 2026-11-29 (one work item per point walking its levels),
/// kept here only to compare in one run.
template <class To, class From>
struct PerPointCopy {
  To to;
  From from;
  int nlev;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    for (int k = 0; k < nlev; ++k) to(i, k) = from(i, k);
  }
};

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using Icon = Kokkos::View<double**, Kokkos::LayoutLeft, M>;
using LevelFastest = Kokkos::View<double**, Kokkos::LayoutRight, M>;

int levels() {
  const char* env = std::getenv("ICONDIFF_BENCH_NLEV");
  const int nlev = env ? std::atoi(env) : 65;
  return nlev >= 1 ? nlev : 65;
}

/// state.range(0): points; state.range(1): extra rows of ICON's array (nproma - points);
/// state.range(2): 1 for "in" (ICON's layout to level-fastest), 0 for "out"; state.range(3): 1
/// for copy_across_layouts, 0 for the per-point baseline.
void bench_boundary_conversion(benchmark::State& state) {
  const auto points = static_cast<std::size_t>(state.range(0));
  const auto nproma = points + static_cast<std::size_t>(state.range(1));
  const bool into_fields = state.range(2) == 1;
  const bool baseline = state.range(3) == 0;
  const int nlev = levels();
  const Icon padded("icondiff::bench::boundary_icon", nproma, nlev);
  const auto icon = Kokkos::subview(padded, std::make_pair(std::size_t(0), points), Kokkos::ALL());
  const LevelFastest fields("icondiff::bench::boundary_fields", points, nlev);
  Kokkos::deep_copy(padded, 1.5);
  Kokkos::deep_copy(fields, 2.5);
  const Space space;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const auto n = static_cast<std::int64_t>(points);
    if (baseline && into_fields)
      Kokkos::parallel_for("icondiff::bench::boundary_in_per_point",
                           Kokkos::RangePolicy<Space>(space, 0, n),
                           PerPointCopy<LevelFastest, decltype(icon)>{fields, icon, nlev});
    else if (baseline)
      Kokkos::parallel_for("icondiff::bench::boundary_out_per_point",
                           Kokkos::RangePolicy<Space>(space, 0, n),
                           PerPointCopy<decltype(icon), LevelFastest>{icon, fields, nlev});
    else if (into_fields)
      icondiff::copy_across_layouts("icondiff::bench::boundary_in", space, fields, icon);
    else
      icondiff::copy_across_layouts("icondiff::bench::boundary_out", space, icon, fields);
    space.fence();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const double bytes = 16.0 * static_cast<double>(points) * nlev;
  const double gbs = bytes * static_cast<double>(state.iterations()) / seconds * 1e-9;
  state.counters["model_GB/s"] = gbs;
  state.counters["ratio_to_stream_copy"] = gbs / icondiff::reference_stream().copy_gbs;
  state.SetLabel(std::string(baseline ? "per-point baseline, " : "") +
                 (into_fields ? "in" : "out") + ", nproma " + std::to_string(nproma) + ", " +
                 std::to_string(nlev) + " levels");
}

void sizes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t direction : {1, 0})
    for (const std::int64_t kernel : {1, 0}) {
      b->Args({20480, 0, direction, kernel});   // R2B4 cells
      b->Args({81920, 0, direction, kernel});   // R2B5 cells
      b->Args({122880, 0, direction, kernel});  // R2B5 edges
      b->Args({81920, 7, direction, kernel});   // R2B5 cells, odd nproma
    }
}
BENCHMARK(bench_boundary_conversion)->Apply(sizes)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
