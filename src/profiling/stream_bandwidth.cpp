#include <icondiff/profiling/stream_bandwidth.hpp>

#include <algorithm>
#include <chrono>
#include <limits>

namespace icondiff {

StreamResult measure_stream_bandwidth(std::size_t n, int repetitions) {
  using Space = Kokkos::DefaultExecutionSpace;
  using View = Kokkos::View<double*, Space::memory_space>;
  View a("icondiff::stream::stream_a", n), b("icondiff::stream::stream_b", n),
      c("icondiff::stream::stream_c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const auto policy = Kokkos::RangePolicy<Space>(0, n);
  double best_copy = std::numeric_limits<double>::max(), best_triad = best_copy;
  for (int r = 0; r < repetitions; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "icondiff::stream::stream_copy", policy,
        KOKKOS_LAMBDA(const std::size_t i) { a(i) = b(i); });
    compat::fence("icondiff::stream::stream_copy");
    auto t1 = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "icondiff::stream::stream_triad", policy,
        KOKKOS_LAMBDA(const std::size_t i) { a(i) = b(i) + 3.0 * c(i); });
    compat::fence("icondiff::stream::stream_triad");
    auto t2 = std::chrono::steady_clock::now();
    best_copy = std::min(best_copy, std::chrono::duration<double>(t1 - t0).count());
    best_triad = std::min(best_triad, std::chrono::duration<double>(t2 - t1).count());
  }
  const double bytes = static_cast<double>(n) * sizeof(double);
  return {2 * bytes / best_copy * 1e-9, 3 * bytes / best_triad * 1e-9, Space::name()};
}

const StreamResult& reference_stream() {
  static const StreamResult result = measure_stream_bandwidth();
  return result;
}

double reference_bandwidth_gbs() {
  return reference_stream().triad_gbs;
}

}  // namespace icondiff
