// The GPU the calling thread is bound to, so that Kokkos started by icondiff for ICON runs on the
// GPU that OpenACC gave the rank (acc_set_device_num makes that device's context current on the
// thread) instead of device 0 or Kokkos' own rank-to-device mapping.
#pragma once

#include <optional>

namespace icondiff::capi {

/// The device of the context current on the calling thread, if a GPU backend is built and a
/// context is current (CUDA: cuCtxGetCurrent/cuCtxGetDevice). nullopt on host builds, when no
/// context is current (a C++ driver that never touched the GPU), and on HIP builds (HIP keeps a
/// current device even when nobody chose one, so it cannot tell OpenACC's choice from the default;
/// set KOKKOS_DEVICE_ID there, docs/user/gpu.md).
std::optional<int> device_of_calling_thread();

/// Whether the environment chooses Kokkos' device already (KOKKOS_DEVICE_ID, KOKKOS_NUM_DEVICES,
/// KOKKOS_RAND_DEVICES, KOKKOS_MAP_DEVICE_ID_BY, KOKKOS_VISIBLE_DEVICES): then icondiff passes
/// none, since Kokkos refuses a command-line device that disagrees with its environment.
bool environment_chooses_device();

}  // namespace icondiff::capi
