// A STREAM-like bandwidth reference measured in the same run as a benchmark or a driver run, so
// every reported effective bandwidth comes with its ratio to what this machine delivers now.
#pragma once

#include <icondiff/kokkos_compat.hpp>

#include <cstddef>

namespace icondiff {

struct StreamResult {
  double copy_gbs = 0;   ///< a(i) = b(i): 16 bytes per element
  double triad_gbs = 0;  ///< a(i) = b(i) + s*c(i): 24 bytes per element
  /// Where it was measured: the execution space's name (OpenMP, Cuda, HIP, Serial).
  const char* space = "";
};

/// Best-of-`repetitions` STREAM copy and triad on the default execution space — where the
/// granules run by default: the host's cores in an OpenMP build, the GPU's memory in a CUDA or HIP
/// build, so a GPU kernel's bandwidth is never divided by the host's — with arrays of `elements`
/// doubles (default: 3 x 64 MiB, beyond the caches of CPUs and of current GPUs' L2).
StreamResult measure_stream_bandwidth(std::size_t elements = std::size_t{8} << 20,
                                      int repetitions = 10);

/// This run's STREAM reference, measured once (at the first call) and cached: every ratio of a
/// run divides by the same measurement.
const StreamResult& reference_stream();

/// reference_stream().triad_gbs.
double reference_bandwidth_gbs();

}  // namespace icondiff
