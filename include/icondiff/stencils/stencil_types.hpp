// View types the stencil point bodies hold. Inputs are const Views; every body is a small struct
// with a KOKKOS_INLINE_FUNCTION operator()(point, level) (or a compute() that returns the value
// for composition), launched alone or inside a fused kernel (DESIGN.md "Stencils are written
// once"). Precision follows ICON4Py: vp fields are read, promoted to wp for the arithmetic and
// rounded back to vp on output (diffusion_spec.md §1.1).
#pragma once

#include <icondiff/core/types.hpp>

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

/// Two values computed together by one point body.
template <class T>
struct Pair {
  T first;
  T second;
};

}  // namespace icondiff::stencils
