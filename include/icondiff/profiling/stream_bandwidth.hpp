// A STREAM-like bandwidth reference measured in the same run as a benchmark or a driver run, so
// every reported effective bandwidth comes with its ratio to what this machine delivers now.
#pragma once

#include <icondiff/kokkos_compat.hpp>

#include <cstddef>

namespace icondiff {

struct StreamResult {
  double copy_gbs = 0;   ///< a(i) = b(i): 16 bytes per element
  double triad_gbs = 0;  ///< a(i) = b(i) + s*c(i): 24 bytes per element
};

/// Best-of-`repetitions` STREAM copy and triad on the default host execution space (OpenMP when
/// enabled), with arrays of `elements` doubles (default: 3 x 64 MiB, far beyond the caches).
StreamResult measure_stream_bandwidth(std::size_t elements = std::size_t{8} << 20,
                                      int repetitions = 10);

/// This run's STREAM reference, measured once (at the first call) and cached: every ratio of a
/// run divides by the same measurement.
const StreamResult& reference_stream();

/// reference_stream().triad_gbs.
double reference_bandwidth_gbs();

}  // namespace icondiff
