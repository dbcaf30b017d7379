// Scalar types, index types and View aliases shared by every layer.
#pragma once

#include <icondiff/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace icondiff {

/// Working precision (ICON `wp`): always double.
using wp = double;

/// Variable precision (ICON `vp`): double by default, float in a mixed-precision build
/// (CMake option ICONDIFF_MIXED_PRECISION), as ICON's `__MIXED_PRECISION`.
#if ICONDIFF_MIXED_PRECISION
using vp = float;
#else
using vp = double;
#endif

/// Index type of connectivity tables and horizontal ranges. One alias, so narrower tables can be
/// measured later.
using index_t = std::int32_t;

/// The value of a missing neighbour (pentagon slot, lateral boundary) in every connectivity table.
inline constexpr index_t missing_index = -1;

/// Layout of every field: (horizontal point, level) with the horizontal index fastest, which is
/// ICON's own (nproma, nlev) order with one block, so Fortran arrays wrap zero-copy.
using FieldLayout = Kokkos::LayoutLeft;

/// Layout of connectivity and other (point, neighbour) tables on the device: point fastest, as
/// ICON's (nproma, nblks, n) index arrays, which coalesces on GPUs.
using TableLayout = Kokkos::LayoutLeft;

template <class T, class MemorySpace>
using View1D = Kokkos::View<T*, FieldLayout, MemorySpace>;

/// A 2-D field (points, levels) or a (points, neighbours) coefficient table.
template <class T, class MemorySpace>
using View2D = Kokkos::View<T**, FieldLayout, MemorySpace>;

/// A 3-D field (points, neighbours, levels), e.g. zd_intcoef.
template <class T, class MemorySpace>
using View3D = Kokkos::View<T***, FieldLayout, MemorySpace>;

}  // namespace icondiff
