// Scalar types, index types and View aliases shared by every layer.
#pragma once

#include <icondiff/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

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

/// Layout of every field, a compile-time choice (CMake option ICONDIFF_FIELD_LAYOUT):
/// - LayoutLeft (default): (horizontal point, level) with the horizontal index fastest, ICON's own
///   (nproma, nlev) order with one block, so Fortran arrays wrap zero-copy;
/// - LayoutRight: each point's column contiguous (level fastest), so a point's neighbour indices
///   are loaded once for all its levels and the level loop is unit-stride. ICON's arrays are then
///   converted at the C API's boundary (core/external_state.hpp); files hold ICON's order in
///   both (io/icon_order.hpp); the MPI exchange takes either (HaloField's strides).
#if ICONDIFF_FIELD_LAYOUT_RIGHT
using FieldLayout = Kokkos::LayoutRight;
#else
using FieldLayout = Kokkos::LayoutLeft;
#endif

/// Whether fields are in ICON's memory order, so that ICON's arrays are the fields themselves.
inline constexpr bool field_layout_is_icons = std::is_same_v<FieldLayout, Kokkos::LayoutLeft>;

/// Layout of connectivity and other (point, neighbour) tables: the fields' layout. Point fastest
/// with LayoutLeft, as ICON's (nproma, nblks, n) index arrays, which coalesces on GPUs; with
/// LayoutRight a point's neighbours are adjacent, read with its column.
using TableLayout = FieldLayout;

template <class T, class MemorySpace>
using View1D = Kokkos::View<T*, FieldLayout, MemorySpace>;

/// A 2-D field (points, levels) or a (points, neighbours) coefficient table.
template <class T, class MemorySpace>
using View2D = Kokkos::View<T**, FieldLayout, MemorySpace>;

/// A 3-D field (points, neighbours, levels), e.g. zd_intcoef.
template <class T, class MemorySpace>
using View3D = Kokkos::View<T***, FieldLayout, MemorySpace>;

}  // namespace icondiff
