// The one set of helpers that moves data into Kokkos Views: host containers to any memory space,
// Views to fresh copies in another space, and foreign memory wrapped without a copy. Every
// state, grid and factory conversion goes through these (labels "icondiff::<scope>::<name>").
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {

/// A new (n) View in `MemorySpace` holding `host` converted to T.
template <class T, class MemorySpace, class Source>
Kokkos::View<T*, FieldLayout, MemorySpace> copy_to_view(const std::string& label,
                                                        const std::vector<Source>& host) {
  Kokkos::View<T*, FieldLayout, MemorySpace> view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host.size());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = static_cast<T>(host[i]);
  Kokkos::deep_copy(view, mirror);
  return view;
}

/// A new (rows, cols) View (point index fastest) holding the row-major `host` converted to T.
template <class T, class MemorySpace, class Source>
Kokkos::View<T**, FieldLayout, MemorySpace> copy_to_view(const std::string& label,
                                                         const HostTable<Source>& host) {
  Kokkos::View<T**, FieldLayout, MemorySpace> view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host.rows(), host.cols());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t r = 0; r < host.rows(); ++r)
    for (std::size_t c = 0; c < host.cols(); ++c) mirror(r, c) = static_cast<T>(host(r, c));
  Kokkos::deep_copy(view, mirror);
  return view;
}

/// A new (points, N, levels) View from N row-major (points, levels) tables, one per slot.
template <class T, class MemorySpace, class Source, std::size_t N>
Kokkos::View<T***, FieldLayout, MemorySpace> copy_to_view(
    const std::string& label, const std::array<HostTable<Source>, N>& per_slot) {
  Kokkos::View<T***, FieldLayout, MemorySpace> view(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), per_slot[0].rows(), N,
      per_slot[0].cols());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t j = 0; j < N; ++j) {
    if (per_slot[j].rows() != per_slot[0].rows() || per_slot[j].cols() != per_slot[0].cols())
      throw InvalidArgument(label + ": the per-slot tables differ in shape");
    for (std::size_t r = 0; r < per_slot[j].rows(); ++r)
      for (std::size_t k = 0; k < per_slot[j].cols(); ++k)
        mirror(r, j, k) = static_cast<T>(per_slot[j](r, k));
  }
  Kokkos::deep_copy(view, mirror);
  return view;
}

namespace detail {
/// A new uninitialised View of type Out with the extents of `from`.
template <class Out, class View>
Out allocate_like(const std::string& label, const View& from) {
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
  if constexpr (View::rank == 1) {
    return Out(alloc, from.extent(0));
  } else if constexpr (View::rank == 2) {
    return Out(alloc, from.extent(0), from.extent(1));
  } else {
    static_assert(View::rank == 3, "fields have rank 1, 2 or 3");
    return Out(alloc, from.extent(0), from.extent(1), from.extent(2));
  }
}
}  // namespace detail

/// A fresh View in `To` with the extents and contents of `from` (never an alias, even when `To`
/// is `from`'s space: a capture must not see later in-place updates). Empty stays empty.
template <class To, class View>
Kokkos::View<typename View::non_const_data_type, typename View::array_layout, To> copy_view(
    const std::string& label, const View& from) {
  using Out = Kokkos::View<typename View::non_const_data_type, typename View::array_layout, To>;
  if (from.data() == nullptr && from.size() == 0) return Out();
  Out out = detail::allocate_like<Out>(label, from);
  if (from.span_is_contiguous() || std::is_same_v<To, typename View::memory_space>) {
    Kokkos::deep_copy(out, from);  // within one space deep_copy takes any strides
  } else {
    // A padded View (external memory with a leading dimension > points) cannot be deep-copied
    // across spaces directly: copy it into a contiguous View of its own space first (within one
    // space deep_copy takes any strides).
    using Contiguous = Kokkos::View<typename View::non_const_data_type, typename View::array_layout,
                                    typename View::memory_space>;
    const Contiguous contiguous = detail::allocate_like<Contiguous>(label + "_contiguous", from);
    Kokkos::deep_copy(contiguous, from);
    Kokkos::deep_copy(out, contiguous);
  }
  return out;
}

/// ICON's memory order of a (points[, slots][, levels]) field someone else owns: the point index
/// fastest, consecutive slots/levels `leading_dimension` (nproma) elements apart.
template <class T, int Rank, class MemorySpace>
using IconLayoutView =
    Kokkos::View<typename FieldView<T, Rank, MemorySpace>::data_type, Kokkos::LayoutLeft,
                 MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

namespace detail {
/// The unmanaged View in ICON's layout over `data` with `extents` (points first) and
/// `leading_dimension` >= points (dense when Rank is 3), without checks: callers check first
/// (view_of_external, ExternalState::bind). No allocation.
template <class T, std::size_t Rank, class MemorySpace>
IconLayoutView<T, static_cast<int>(Rank), MemorySpace> icon_layout_view_of(
    T* data, const std::array<std::size_t, Rank>& extents, std::size_t leading_dimension) {
  using Out = IconLayoutView<T, static_cast<int>(Rank), MemorySpace>;
  if constexpr (Rank == 1) {
    return Out(data, extents[0]);
  } else if constexpr (Rank == 2) {
    // A LayoutLeft subview over a range of the first index keeps LayoutLeft with the padded
    // stride.
    const Out full(data, leading_dimension, extents[1]);
    return Kokkos::subview(full, std::make_pair(std::size_t(0), extents[0]), Kokkos::ALL());
  } else {
    static_assert(Rank == 3, "fields have rank 1, 2 or 3");
    return Out(data, extents[0], extents[1], extents[2]);
  }
}
}  // namespace detail

/// Memory someone else owns (e.g. a Fortran array) as an unmanaged View in ICON's order, without
/// a copy. `extents` are the field's (points[, slots][, levels]); `leading_dimension` >= points is
/// the distance between consecutive slots/levels in elements (ICON's nproma with one block). A
/// leading dimension > points is representable for rank 1 and 2 (a padded stride); a padded
/// rank-3 field is refused with InvalidArgument (ICON's 3-D inputs are dense).
template <class T, int Rank, class MemorySpace>
IconLayoutView<T, Rank, MemorySpace> view_of_external(const std::string& name, T* data,
                                                      const std::vector<std::size_t>& extents,
                                                      std::size_t leading_dimension) {
  if (extents.size() != static_cast<std::size_t>(Rank))
    throw InvalidArgument(name + ": " + std::to_string(extents.size()) + " extents for a rank-" +
                          std::to_string(Rank) + " field");
  std::size_t size = 1;
  for (const auto e : extents) size *= e;
  if (size > 0 && data == nullptr)
    throw InvalidArgument(name + ": null pointer for a non-empty field");
  if (leading_dimension < extents[0])
    throw InvalidArgument(name + ": leading dimension " + std::to_string(leading_dimension) +
                          " < number of points " + std::to_string(extents[0]));
  if (Rank == 3 && leading_dimension != extents[0])
    throw InvalidArgument(name + ": a 3-D field must be dense (leading dimension " +
                          std::to_string(leading_dimension) + " != points " +
                          std::to_string(extents[0]) + ")");
  std::array<std::size_t, Rank> e{};
  for (int r = 0; r < Rank; ++r) e[r] = extents[r];
  return detail::icon_layout_view_of<T, Rank, MemorySpace>(data, e, leading_dimension);
}

/// Wraps memory someone else owns as a field View without a copy (view_of_external's checks).
/// Only fields in ICON's layout can: with level-fastest fields this throws ConfigError for rank
/// > 1, and callers that must work in every layout bind the memory with ExternalState
/// (external_state.hpp) or copy it with copy_to_field_layout.
template <class T, int Rank, class MemorySpace>
FieldView<T, Rank, MemorySpace> wrap_external(const std::string& name, T* data,
                                              const std::vector<std::size_t>& extents,
                                              std::size_t leading_dimension) {
  const auto view = view_of_external<T, Rank, MemorySpace>(name, data, extents, leading_dimension);
  if constexpr (Rank > 1 && !field_layout_is_icons)
    throw ConfigError(name +
                      ": foreign (points, levels) memory is in ICON's layout, and this icondiff "
                      "has level-fastest fields: it cannot be wrapped without a copy (bind it with "
                      "ExternalState, which converts at the boundary)");
  else
    return view;
}

namespace detail {
/// A work item of copy_across_layouts on a host execution space: this many consecutive points ×
/// this many consecutive levels (slots: all of them).
inline constexpr std::int64_t copy_tile_points = 256;
inline constexpr int copy_tile_levels = 8;

/// copy_across_layouts' kernel body. A functor, not a lambda: nvcc refuses extended lambdas
/// whose captures are first used in `if constexpr`.
///
/// On a host space a work item is a tile of 256 points × 8 levels, walked points outer, levels
/// inner. ICON's side is then 8 rows read or written front to back (8 streams the prefetcher
/// follows), the level-fastest side one 64-byte run per point. Measured against one point and
/// all its levels per work item (65 rows of ICON's array at once, nproma × 8 B apart, which with
/// ICON's grid sizes is a multiple of 4 KiB, so the rows share cache sets and no prefetcher
/// follows them all): 1.4-1.9× faster in, 1.2× out (perf_tests/bench_boundary.cpp,
/// docs/performance.md); slower (0.78×) only out with an odd nproma, which ICON's global grids do
/// not give. Levels outer within a chunk of points was slower than either.
/// On a device a work item is one point and its levels (adjacent threads, adjacent points:
/// coalesced on ICON's side).
template <class To, class From, bool Tiled>
struct CopyAcrossLayouts {
  To to;
  From from;
  std::int64_t points;
  int n1, n2;
  std::int64_t level_blocks;  ///< tiles per point range (Tiled)

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    std::int64_t i0 = item, i1 = item + 1;
    int k0 = 0, k1 = To::rank == 3 ? n2 : n1;
    if constexpr (Tiled) {
      i0 = item / level_blocks * copy_tile_points;
      i1 = i0 + copy_tile_points < points ? i0 + copy_tile_points : points;
      if constexpr (To::rank > 1) {
        k0 = static_cast<int>(item % level_blocks) * copy_tile_levels;
        k1 = k0 + copy_tile_levels < k1 ? k0 + copy_tile_levels : k1;
      }
    }
    for (std::int64_t i = i0; i < i1; ++i) {
      if constexpr (To::rank == 1) {
        to(i) = from(i);
      } else if constexpr (To::rank == 2) {
        for (int k = k0; k < k1; ++k) to(i, k) = from(i, k);
      } else {
        for (int j = 0; j < n1; ++j)
          for (int k = k0; k < k1; ++k) to(i, j, k) = from(i, j, k);
      }
    }
  }
};
}  // namespace detail

/// Copies `from` into `to` (same extents, same memory space, any two layouts) with one kernel
/// `label` on `space` (tiles of points × levels on a host space, one point per work item on a
/// device: CopyAcrossLayouts says why).
template <class ExecSpace, class To, class From>
void copy_across_layouts(const std::string& label, const ExecSpace& space, const To& to,
                         const From& from) {
  static_assert(static_cast<int>(To::rank) == static_cast<int>(From::rank),
                "copy_across_layouts: the Views differ in rank");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename To::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename From::memory_space>::accessible,
                "copy_across_layouts: both Views must be accessible from the execution space");
  for (unsigned r = 0; r < To::rank; ++r)
    if (to.extent(r) != from.extent(r))
      throw InvalidArgument(label + ": extents differ in dimension " + std::to_string(r) + " (" +
                            std::to_string(to.extent(r)) + " != " + std::to_string(from.extent(r)) +
                            ")");
  const auto points = static_cast<std::int64_t>(to.extent(0));
  const int n1 = To::rank > 1 ? static_cast<int>(to.extent(1)) : 1;
  const int n2 = To::rank > 2 ? static_cast<int>(to.extent(2)) : 1;
  constexpr bool tiled = std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
  const int levels = To::rank == 3 ? n2 : n1;
  const std::int64_t level_blocks =
      To::rank == 1 ? 1 : (levels + detail::copy_tile_levels - 1) / detail::copy_tile_levels;
  const std::int64_t items =
      tiled ? (points + detail::copy_tile_points - 1) / detail::copy_tile_points * level_blocks
            : points;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace>(space, 0, items),
      detail::CopyAcrossLayouts<To, From, tiled>{to, from, points, n1, n2, level_blocks});
}

/// A fresh field View (FieldLayout, contiguous) in `To` with the extents and contents of `from`,
/// which may be in any layout (ICON's padded arrays too) and any memory space. Empty stays empty.
template <class To, class View>
FieldView<typename View::non_const_value_type, View::rank, To> copy_to_field_layout(
    const std::string& label, const View& from) {
  using T = typename View::non_const_value_type;
  using Out = FieldView<T, View::rank, To>;
  if (from.data() == nullptr && from.size() == 0) return Out();
  using FromSpace = typename View::memory_space;
  using Near = FieldView<T, View::rank, FromSpace>;  // FieldLayout beside the source
  Near near = detail::allocate_like<Near>(label + "_converted", from);
  copy_across_layouts("icondiff::copy_to_field_layout", typename FromSpace::execution_space(), near,
                      from);
  typename FromSpace::execution_space().fence();
  if constexpr (std::is_same_v<To, FromSpace>) {
    return near;
  } else {
    Out out = detail::allocate_like<Out>(label, from);
    Kokkos::deep_copy(out, near);  // same layout, both contiguous
    return out;
  }
}

}  // namespace icondiff
