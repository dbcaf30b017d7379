// Random fields for any state struct described by a field list (core/field_spec.hpp): allocate
// every field on the device, fill it with seeded random values, and keep a host copy of what the
// device holds (after rounding to the field's element type, so vp fields in a mixed build give
// the reference exactly the kernel's inputs). Used by the dycore tests and benchmarks, whose
// programs take dozens of fields that are written once here instead of once per test.
#pragma once

#include "host_field.hpp"

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/state_ops.hpp>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace icondiff::test {

/// A host copy of one field: its extents and values in FieldLayout order (point index fastest).
struct HostArray {
  std::vector<std::size_t> extents;
  std::vector<double> values;

  HostField<double> field() const {
    require(2);
    HostField<double> f(static_cast<index_t>(extents[0]), static_cast<int>(extents[1]));
    f.values = values;
    return f;
  }
  HostField3<double> field3() const {
    require(3);
    HostField3<double> f(static_cast<index_t>(extents[0]), static_cast<int>(extents[1]),
                         static_cast<int>(extents[2]));
    f.values = values;
    return f;
  }
  HostField3<int> int_field3() const {
    require(3);
    HostField3<int> f(static_cast<index_t>(extents[0]), static_cast<int>(extents[1]),
                      static_cast<int>(extents[2]));
    for (std::size_t n = 0; n < values.size(); ++n) f.values[n] = static_cast<int>(values[n]);
    return f;
  }
  /// A (points, slots) field as a row-major HostTable.
  HostTable<double> table() const {
    require(2);
    HostTable<double> t(extents[0], extents[1]);
    for (std::size_t j = 0; j < extents[1]; ++j)
      for (std::size_t i = 0; i < extents[0]; ++i) t(i, j) = values[j * extents[0] + i];
    return t;
  }
  std::vector<double> vector() const {
    require(1);
    return values;
  }

 private:
  void require(std::size_t rank) const {
    if (extents.size() != rank)
      throw std::logic_error("HostArray of rank " + std::to_string(extents.size()) +
                             " used as rank " + std::to_string(rank));
  }
};

using HostArrays = std::map<std::string, HostArray>;

/// How to fill one field: value(spec, point, slot, level) (slot and level 0 where absent).
using FieldFiller = std::function<double(const FieldSpec&, index_t, int, int)>;

/// Fills every field of `state` (already allocated) with `fill`, copies it to the device and
/// records the stored values under the field's name in `host` (replacing an earlier entry).
template <class State>
void fill_state(State& state, const FieldFiller& fill, HostArrays& host) {
  State::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        auto mirror = Kokkos::create_mirror_view(view);
        using V = std::decay_t<decltype(view)>;
        HostArray& out = host[spec.name];
        out.extents = view_extents(view);
        out.values.clear();
        out.values.reserve(view.size());
        if constexpr (V::rank == 1) {
          for (std::size_t i = 0; i < view.extent(0); ++i) {
            mirror(i) = static_cast<typename V::value_type>(fill(spec, index_t(i), 0, 0));
            out.values.push_back(static_cast<double>(mirror(i)));
          }
        } else if constexpr (V::rank == 2) {
          const bool slots = spec.neighbours != Neighbours::None;
          for (std::size_t j = 0; j < view.extent(1); ++j)
            for (std::size_t i = 0; i < view.extent(0); ++i) {
              mirror(i, j) = static_cast<typename V::value_type>(
                  fill(spec, index_t(i), slots ? int(j) : 0, slots ? 0 : int(j)));
              out.values.push_back(static_cast<double>(mirror(i, j)));
            }
        } else {
          for (std::size_t k = 0; k < view.extent(2); ++k)
            for (std::size_t j = 0; j < view.extent(1); ++j)
              for (std::size_t i = 0; i < view.extent(0); ++i) {
                mirror(i, j, k) =
                    static_cast<typename V::value_type>(fill(spec, index_t(i), int(j), int(k)));
                out.values.push_back(static_cast<double>(mirror(i, j, k)));
              }
        }
        Kokkos::deep_copy(view, mirror);
      },
      state);
}

/// A new state of `sizes` in `MemorySpace`, filled by `fill_state`.
template <template <class> class State, class MemorySpace>
State<MemorySpace> random_state(const FieldSizes& sizes, const FieldFiller& fill, HostArrays& host,
                                const std::string& scope) {
  State<MemorySpace> state = allocate_state<State, MemorySpace>(sizes, scope);
  fill_state(state, fill, host);
  return state;
}

/// A (n) profile as a device View plus its host copy under `name`.
template <class MemorySpace>
Kokkos::View<wp*, FieldLayout, MemorySpace> random_profile(const std::string& name, std::size_t n,
                                                           const std::function<double(int)>& fill,
                                                           HostArrays& host) {
  Kokkos::View<wp*, FieldLayout, MemorySpace> view("icondiff::test::" + name, n);
  auto mirror = Kokkos::create_mirror_view(view);
  HostArray& out = host[name];
  out.extents = {n};
  out.values.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    mirror(k) = static_cast<wp>(fill(static_cast<int>(k)));
    out.values[k] = static_cast<double>(mirror(k));
  }
  Kokkos::deep_copy(view, mirror);
  return view;
}

/// The device View's current values as a HostArray (to compare outputs).
template <class View>
HostArray to_host_array(const View& view) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  HostArray out;
  out.extents = view_extents(view);
  out.values.reserve(view.size());
  // HostArray order (first index fastest) whatever the FieldLayout.
  using V = decltype(mirror);
  if constexpr (V::rank == 1) {
    for (std::size_t i = 0; i < mirror.extent(0); ++i)
      out.values.push_back(static_cast<double>(mirror(i)));
  } else if constexpr (V::rank == 2) {
    for (std::size_t k = 0; k < mirror.extent(1); ++k)
      for (std::size_t i = 0; i < mirror.extent(0); ++i)
        out.values.push_back(static_cast<double>(mirror(i, k)));
  } else {
    static_assert(V::rank == 3, "fields have rank 1, 2 or 3");
    for (std::size_t k = 0; k < mirror.extent(2); ++k)
      for (std::size_t j = 0; j < mirror.extent(1); ++j)
        for (std::size_t i = 0; i < mirror.extent(0); ++i)
          out.values.push_back(static_cast<double>(mirror(i, j, k)));
  }
  return out;
}

}  // namespace icondiff::test
