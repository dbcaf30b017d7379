// Every difference between Kokkos 3.4 (Debian 12, our bootstrap) and Kokkos 4.x/5.x that icondiff
// meets lives here and nowhere else. Code outside this header spells no `Kokkos::Experimental`
// and no `Kokkos::Impl` name and tests no KOKKOS_VERSION.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace icondiff::compat {

// ---- Math: Kokkos::sqrt etc. arrived in 3.7 (Experimental before, removed from there in 4.3). ---
#if KOKKOS_VERSION >= 30700
#define ICONDIFF_KOKKOS_MATH_NS Kokkos
#else
#define ICONDIFF_KOKKOS_MATH_NS Kokkos::Experimental
#endif

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::sqrt(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T exp(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::exp(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T log(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::log(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sin(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::sin(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T cos(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::cos(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T tanh(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::tanh(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return ICONDIFF_KOKKOS_MATH_NS::isfinite(x);
}
#undef ICONDIFF_KOKKOS_MATH_NS

// ---- min/max: Kokkos::min/max exist only from 3.7 (Experimental from 3.6). Plain ternaries keep
// the NaN behaviour of ICON's Fortran MIN/MAX on the first argument and work on every backend. ----
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T max(T a, T b) {
  return a < b ? b : a;
}

// ---- Fences: labelled fences arrived in 3.5, and with them the tool callbacks on fences.
// Before 3.5 the label goes to the tools by hand (Tools::beginFence/endFence exist in 3.4 but
// no fence calls them), so tests and profilers see icondiff's fences on every version.
inline void fence([[maybe_unused]] const std::string& label) {
#if KOKKOS_VERSION >= 30500
  Kokkos::fence(label);
#else
  if (!Kokkos::Tools::profileLibraryLoaded()) return Kokkos::fence();  // no label copy, no tool
  std::uint64_t handle = 0;
  Kokkos::Tools::beginFence(
      label, Kokkos::Profiling::Experimental::device_id(Kokkos::DefaultExecutionSpace()), &handle);
  Kokkos::fence();
  Kokkos::Tools::endFence(handle);
#endif
}

template <class ExecSpace>
void fence(const ExecSpace& space, [[maybe_unused]] const std::string& label) {
#if KOKKOS_VERSION >= 30500
  space.fence(label);
#else
  if (!Kokkos::Tools::profileLibraryLoaded()) return space.fence();  // no label copy, no tool
  std::uint64_t handle = 0;
  Kokkos::Tools::beginFence(label, Kokkos::Profiling::Experimental::device_id(space), &handle);
  space.fence();
  Kokkos::Tools::endFence(handle);
#endif
}

// ---- Profiling regions: Kokkos::Profiling::ScopedRegion exists only from 4.1 (in its own header),
// push/popRegion exist in every supported version. ----------------------------------------------
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

/// Whether a Kokkos Tools library is loaded or a callback registered (every supported version).
inline bool tools_loaded() {
  return Kokkos::Tools::profileLibraryLoaded();
}

// ---- Tool callbacks (used by tests that check kernel and region labels). They live in
// Kokkos::Tools::Experimental in every supported version.
// ------------------------------------------
using BeginKernelCallback = void (*)(const char* name, std::uint32_t device_id,
                                     std::uint64_t* kernel_id);
using PushRegionCallback = void (*)(const char* name);

inline void set_begin_parallel_for_callback(BeginKernelCallback callback) {
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(callback);
}
inline void set_begin_parallel_reduce_callback(BeginKernelCallback callback) {
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(callback);
}
using EndKernelCallback = void (*)(std::uint64_t kernel_id);
inline void set_end_parallel_for_callback(EndKernelCallback callback) {
  Kokkos::Tools::Experimental::set_end_parallel_for_callback(callback);
}
inline void set_end_parallel_reduce_callback(EndKernelCallback callback) {
  Kokkos::Tools::Experimental::set_end_parallel_reduce_callback(callback);
}
inline void set_begin_parallel_scan_callback(BeginKernelCallback callback) {
  Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(callback);
}
inline void set_push_region_callback(PushRegionCallback callback) {
  Kokkos::Tools::Experimental::set_push_region_callback(callback);
}
using PopRegionCallback = void (*)();
inline void set_pop_region_callback(PopRegionCallback callback) {
  Kokkos::Tools::Experimental::set_pop_region_callback(callback);
}
// The C interface's typedefs have the same names in 3.4 and 4.x.
using AllocateDataCallback = Kokkos_Profiling_allocateDataFunction;
using BeginDeepCopyCallback = Kokkos_Profiling_beginDeepCopyFunction;
using BeginFenceCallback = Kokkos_Profiling_beginFenceFunction;
inline void set_allocate_data_callback(AllocateDataCallback callback) {
  Kokkos::Tools::Experimental::set_allocate_data_callback(callback);
}
inline void set_begin_deep_copy_callback(BeginDeepCopyCallback callback) {
  Kokkos::Tools::Experimental::set_begin_deep_copy_callback(callback);
}
inline void set_begin_fence_callback(BeginFenceCallback callback) {
  Kokkos::Tools::Experimental::set_begin_fence_callback(callback);
}

// ---- Concurrency: a member call in every version (the static form is gone in 5.x). ------------
template <class ExecSpace>
int concurrency(const ExecSpace& space = ExecSpace()) {
  return space.concurrency();
}

// ---- Execution space instances: partition_space makes independent instances of every backend
// from 4.0 on (3.x only for some, none in 3.4, where host backends have one instance anyway).
// Before 4.0 the "instances" are copies of `space`.
template <class ExecSpace>
std::vector<ExecSpace> make_instances(const ExecSpace& space, int n) {
#if KOKKOS_VERSION >= 40000
  std::vector<int> weights(n, 1);  // an lvalue: some 4.x backends take the weights by reference
  return Kokkos::Experimental::partition_space(space, weights);
#else
  return std::vector<ExecSpace>(n, space);
#endif
}

// ---- Launch hints: WorkItemProperty and require() are Kokkos::Experimental in 3.4 and 4.x/5.x. --
/// `policy` with the light-weight hint: CUDA passes the kernel body as a launch argument (up to
/// 4 KiB) instead of copying it to constant memory, which Kokkos does for bodies of 512 B or more
/// and which synchronises the device before every launch; icondiff's bodies are 0.5-1.5 KiB.
/// Host backends ignore the hint.
template <class Policy>
auto light_weight(const Policy& policy) {
  return Kokkos::Experimental::require(policy,
                                       Kokkos::Experimental::WorkItemProperty::HintLightWeight);
}

// ---- Initialization ---------------------------------------------------------------------------
// Kokkos::InitializationSettings replaced InitArguments in 3.7; argc/argv works in all versions.
inline void initialize(int& argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
}

inline bool is_initialized() {
  return Kokkos::is_initialized();
}

/// The Kokkos version as "major.minor.patch".
inline std::string kokkos_version_string() {
  constexpr int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." +
         std::to_string(v % 100);
}

// ---- Execution and memory space names that moved out of Experimental in 4.0 --------------------
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
using HIP = Kokkos::HIP;
using HIPSpace = Kokkos::HIPSpace;
#else
using HIP = Kokkos::Experimental::HIP;
using HIPSpace = Kokkos::Experimental::HIPSpace;
#endif
#endif

// ---- Host memory for staging a device's data (MPI without GPU awareness) ---------------------
/// Page-locked host memory where the backend has it: copies between it and the device run
/// asynchronously at full PCIe/NVLink speed, where pageable memory makes the driver copy through
/// a bounce buffer of its own and ends the asynchrony. Host memory spaces stage in HostSpace.
template <class MemorySpace>
struct host_staging {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct host_staging<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct host_staging<HIPSpace> {
#if KOKKOS_VERSION >= 40000
  using type = Kokkos::HIPHostPinnedSpace;
#else
  using type = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
};
#endif
template <class MemorySpace>
using HostStagingSpace = typename host_staging<MemorySpace>::type;

}  // namespace icondiff::compat
