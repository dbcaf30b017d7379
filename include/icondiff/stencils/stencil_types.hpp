// View types the stencil point bodies hold. Inputs are const Views; every body is a small struct
// with a KOKKOS_INLINE_FUNCTION operator()(point, level) (or a compute() that returns the value
// for composition), launched alone or inside a fused kernel (DESIGN.md "Stencils are written
// once"). Precision follows ICON4Py: vp fields are read, promoted to wp for the arithmetic and
// rounded back to vp on output (diffusion_spec.md §1.1).
#pragma once

#include <icondiff/core/types.hpp>

#include <type_traits>

namespace icondiff::stencils {

template <class T, class MemorySpace>
using ConstField = Kokkos::View<const T**, FieldLayout, MemorySpace>;
template <class T, class MemorySpace>
using OutField = Kokkos::View<T**, FieldLayout, MemorySpace>;
template <class T, class MemorySpace>
using ConstField3 = Kokkos::View<const T***, FieldLayout, MemorySpace>;
template <class T, class MemorySpace>
using ConstVector = Kokkos::View<const T*, FieldLayout, MemorySpace>;
template <class MemorySpace>
using ConstIndexTable = Kokkos::View<const index_t**, TableLayout, MemorySpace>;

/// f(0), f(1), ..., f(N - 1) in this order, unrolled at compile time: a neighbour loop inside a
/// vectorised level loop must not stay a loop (compilers do not vectorise an outer loop over an
/// inner one whose loads change with the inner index), and a compile-time slot lets the
/// compiler keep a column's per-slot values in registers.
template <int N, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_each_slot(const F& f) {
  if constexpr (N > 0) {
    for_each_slot<N - 1>(f);
    f(N - 1);
  }
}

/// f(std::bool_constant<flag>...) for the run-time flags: a column body's configuration switches
/// as template arguments, so that its level loop is compiled once per combination without
/// branches (a branch on a flag inside the loop keeps compilers from vectorising it).
template <bool... Fixed, class F>
KOKKOS_FORCEINLINE_FUNCTION void with_flags(const F& f) {
  f(std::bool_constant<Fixed>{}...);
}
template <bool... Fixed, class F, class... Flags>
KOKKOS_FORCEINLINE_FUNCTION void with_flags(const F& f, const bool flag, const Flags... flags) {
  if (flag)
    with_flags<Fixed..., true>(f, flags...);
  else
    with_flags<Fixed..., false>(f, flags...);
}

/// Two values computed together by one point body.
template <class T>
struct Pair {
  T first;
  T second;
};

}  // namespace icondiff::stencils
