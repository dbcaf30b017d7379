// STREAM copy/triad as Google Benchmarks: the reference every other benchmark's bandwidth is
// compared with, at several array sizes (cache-resident to DRAM).
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <benchmark/benchmark.h>

namespace {

void bench_triad(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  double gbs = 0;
  for (auto _ : state) gbs = icondiff::measure_stream_bandwidth(n, 1).triad_gbs;
  state.counters["GB/s"] = gbs;
  state.counters["ratio_to_stream"] = gbs / icondiff::reference_bandwidth_gbs();
}
BENCHMARK(bench_triad)->RangeMultiplier(8)->Range(1 << 15, 1 << 24)->UseRealTime();

}  // namespace
