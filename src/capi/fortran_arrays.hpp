// Arrays from Fortran (icondiff_array: first element + extents) checked and turned into what the
// library takes: extent checks with messages that name the argument and both sizes, host copies
// of index arrays that may live on the device. (The fields a run updates are bound with
// ExternalState, static fields copied with copy_external_state: core/external_state.hpp.)
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/core/view_copy.hpp>

#include <icondiff_c.h>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::capi {

/// What one dimension of an argument must be: exactly `value`, or at least `value` (ICON's
/// nproma >= the number of points); `meaning` names the value in messages ("num_edges", "nlev").
struct Extent {
  long value = 0;
  bool at_least = false;
  const char* meaning = "";
};
inline Extent at_least(long value, const char* meaning) {
  return {value, true, meaning};
}
inline Extent exactly(long value, const char* meaning) {
  return {value, false, meaning};
}

namespace detail {
/// A null pointer: a missing required array, or (size[0] == -1, set by the Fortran module's
/// icondiff_array) an array that is not contiguous.
[[noreturn]] void throw_null_array(const char* function, const char* name, int size_0);
[[noreturn]] void throw_bad_extent(const char* function, const char* name, int dimension, int size,
                                   const Extent& expected);
}  // namespace detail

/// Checks a required array: not null, and SIZE(name, d + 1) as `extents[d]` says. O(1), no
/// allocation unless it throws InvalidArgument ("diffusion_run: vn has SIZE(vn, 1) = 100,
/// expected at least 120 (num_edges)").
template <std::size_t Rank>
inline void check_array(const icondiff_array& a, const char* function, const char* name,
                        const Extent (&extents)[Rank]) {
  if (a.data == nullptr) detail::throw_null_array(function, name, a.size[0]);
  for (std::size_t d = 0; d < Rank; ++d) {
    const Extent& e = extents[d];
    const long size = a.size[d];
    if (e.at_least ? size < e.value : size != e.value)
      detail::throw_bad_extent(function, name, static_cast<int>(d), a.size[d], e);
  }
}

/// Whether an optional array is present (data not null); its sizes are checked when it is.
template <std::size_t Rank>
inline bool check_optional_array(const icondiff_array& a, const char* function, const char* name,
                                 const Extent (&extents)[Rank]) {
  if (a.data == nullptr && a.size[0] != -1) return false;
  check_array(a, function, name, extents);
  return true;
}

/// `count` values of type T starting at a.data, copied to the host (from device memory of
/// `MemorySpace` when `on_device`).
template <class T, class MemorySpace>
std::vector<T> host_values(const icondiff_array& a, std::size_t count, bool on_device) {
  const T* data = static_cast<const T*>(a.data);
  if (!on_device || count == 0) return std::vector<T>(data, data + count);
  const Kokkos::View<const T*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> device(data,
                                                                                            count);
  Kokkos::View<T*, Kokkos::HostSpace> host("icondiff::capi::host_copy", count);
  Kokkos::deep_copy(host, device);
  return std::vector<T>(host.data(), host.data() + count);
}

/// The Fortran elements of `a` (column-major, all extents) copied to the host.
template <class T, class MemorySpace>
std::vector<T> host_values(const icondiff_array& a, int rank, bool on_device) {
  std::size_t count = 1;
  for (int d = 0; d < rank; ++d) count *= static_cast<std::size_t>(a.size[d]);
  return host_values<T, MemorySpace>(a, count, on_device);
}

}  // namespace icondiff::capi
