// The execution and memory spaces icondiff is instantiated for: every backend the Kokkos build
// enables. src/ uses these lists for explicit instantiation; tests use them to run each test body
// once per backend.
#pragma once

#include <icondiff/kokkos_compat.hpp>

// ICONDIFF_FOR_EACH_EXECUTION_SPACE(M) expands M(space) for every enabled execution space.
#if defined(KOKKOS_ENABLE_SERIAL)
#define ICONDIFF_IF_SERIAL(M) M(Kokkos::Serial)
#else
#define ICONDIFF_IF_SERIAL(M)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define ICONDIFF_IF_OPENMP(M) M(Kokkos::OpenMP)
#else
#define ICONDIFF_IF_OPENMP(M)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define ICONDIFF_IF_CUDA(M) M(Kokkos::Cuda)
#define ICONDIFF_IF_CUDA_SPACE(M) M(Kokkos::CudaSpace)
#else
#define ICONDIFF_IF_CUDA(M)
#define ICONDIFF_IF_CUDA_SPACE(M)
#endif
#if defined(KOKKOS_ENABLE_HIP)
#define ICONDIFF_IF_HIP(M) M(icondiff::compat::HIP)
#define ICONDIFF_IF_HIP_SPACE(M) M(icondiff::compat::HIPSpace)
#else
#define ICONDIFF_IF_HIP(M)
#define ICONDIFF_IF_HIP_SPACE(M)
#endif

#define ICONDIFF_FOR_EACH_EXECUTION_SPACE(M) \
  ICONDIFF_IF_SERIAL(M) ICONDIFF_IF_OPENMP(M) ICONDIFF_IF_CUDA(M) ICONDIFF_IF_HIP(M)

// ICONDIFF_FOR_EACH_MEMORY_SPACE(M): the distinct memory spaces of those execution spaces.
#define ICONDIFF_FOR_EACH_MEMORY_SPACE(M) \
  M(Kokkos::HostSpace) ICONDIFF_IF_CUDA_SPACE(M) ICONDIFF_IF_HIP_SPACE(M)
