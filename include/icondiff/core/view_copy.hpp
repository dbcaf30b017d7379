// The one set of helpers that moves data into Kokkos Views: host containers to any memory space,
// Views to fresh copies in another space, and foreign memory wrapped without a copy. Every
// state, grid and factory conversion goes through these (labels "icondiff::<scope>::<name>").
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>

#include <array>
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

/// Wraps memory someone else owns (e.g. a Fortran array) as an unmanaged field View in
/// `MemorySpace`, without a copy. `extents` are the field's (points[, slots][, levels]);
/// `leading_dimension` >= points is the distance between consecutive slots/levels in elements
/// (ICON's nproma with one block). A leading dimension > points is representable for rank 1 and
/// 2 (LayoutLeft with a padded stride); a padded rank-3 field is refused with InvalidArgument
/// (ICON's 3-D diffusion inputs are dense).
template <class T, int Rank, class MemorySpace>
FieldView<T, Rank, MemorySpace> wrap_external(const std::string& name, T* data,
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
  if constexpr (Rank > 1 && !field_layout_is_icons)
    throw ConfigError(name +
                      ": foreign (points, levels) memory is in ICON's layout, and this icondiff is "
                      "built with level-fastest fields (ICONDIFF_FIELD_LAYOUT=right): it cannot be "
                      "wrapped without a copy; build with ICONDIFF_FIELD_LAYOUT=left");
  using Unmanaged = Kokkos::View<typename FieldView<T, Rank, MemorySpace>::data_type, FieldLayout,
                                 MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  if constexpr (Rank == 1) {
    return FieldView<T, 1, MemorySpace>(Unmanaged(data, extents[0]));
  } else if constexpr (Rank == 2) {
    // A LayoutLeft subview over a range of the first index keeps LayoutLeft with the padded
    // stride, so kernels see the same View type as for owned fields.
    const Unmanaged full(data, leading_dimension, extents[1]);
    return Kokkos::subview(full, std::make_pair(std::size_t(0), extents[0]), Kokkos::ALL());
  } else {
    static_assert(Rank == 3, "fields have rank 1, 2 or 3");
    if (leading_dimension != extents[0])
      throw InvalidArgument(name + ": a 3-D field must be dense (leading dimension " +
                            std::to_string(leading_dimension) + " != points " +
                            std::to_string(extents[0]) + ")");
    return FieldView<T, 3, MemorySpace>(Unmanaged(data, extents[0], extents[1], extents[2]));
  }
}

}  // namespace icondiff
