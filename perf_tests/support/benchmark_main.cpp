// main() of every benchmark: Kokkos around Google Benchmark; prints the STREAM reference first.
#include <icondiff/profiling/stream_bandwidth.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>

int main(int argc, char* argv[]) {
  icondiff::compat::initialize(argc, argv);
  ::benchmark::Initialize(&argc, argv);
  {
    // The cached reference every benchmark's ratio divides by, so the printed and the stored
    // STREAM are the ratios' own.
    const auto& stream = icondiff::reference_stream();
    std::printf("STREAM reference (%s, %d threads): copy %.2f GB/s, triad %.2f GB/s\n",
                stream.space, icondiff::compat::concurrency(Kokkos::DefaultExecutionSpace()),
                stream.copy_gbs, stream.triad_gbs);
    ::benchmark::AddCustomContext("stream_triad_GBs", std::to_string(stream.triad_gbs));
    ::benchmark::AddCustomContext("stream_copy_GBs", std::to_string(stream.copy_gbs));
    ::benchmark::AddCustomContext("stream_space", stream.space);
    ::benchmark::RunSpecifiedBenchmarks();
  }
  ::benchmark::Shutdown();
  Kokkos::finalize();
  return 0;
}
