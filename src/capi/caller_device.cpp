#include "caller_device.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <cstdlib>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda.h>  // the driver API: Kokkos' CUDA backend links libcuda already
#endif

namespace icondiff::capi {

std::optional<int> device_of_calling_thread() {
#if defined(KOKKOS_ENABLE_CUDA)
  // Without cuInit (nobody used the GPU yet) both calls fail: no context, no choice to follow.
  CUcontext context = nullptr;
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr) return std::nullopt;
  CUdevice device = 0;
  if (cuCtxGetDevice(&device) != CUDA_SUCCESS) return std::nullopt;
  return static_cast<int>(device);
#else
  return std::nullopt;
#endif
}

bool environment_chooses_device() {
  for (const char* name : {"KOKKOS_DEVICE_ID", "KOKKOS_NUM_DEVICES", "KOKKOS_RAND_DEVICES",
                           "KOKKOS_MAP_DEVICE_ID_BY", "KOKKOS_VISIBLE_DEVICES"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace icondiff::capi
