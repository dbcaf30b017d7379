// A field's values in ICON's memory order (the point index fastest, then slots, then levels),
// the order of every netCDF variable icondiff reads and writes ((level, point) dimensions),
// whatever the build's FieldLayout: files stay the same in every layout.
#pragma once

#include <cstddef>
#include <vector>

namespace icondiff::io {

/// The values of a host View (rank 1-3) in ICON's order.
template <class View>
std::vector<typename View::non_const_value_type> values_in_icon_order(const View& v) {
  std::vector<typename View::non_const_value_type> out;
  out.reserve(v.size());
  if constexpr (View::rank == 1) {
    for (std::size_t i = 0; i < v.extent(0); ++i) out.push_back(v(i));
  } else if constexpr (View::rank == 2) {
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t i = 0; i < v.extent(0); ++i) out.push_back(v(i, j));
  } else {
    for (std::size_t k = 0; k < v.extent(2); ++k)
      for (std::size_t j = 0; j < v.extent(1); ++j)
        for (std::size_t i = 0; i < v.extent(0); ++i) out.push_back(v(i, j, k));
  }
  return out;
}

/// Sets a host View (rank 1-3) from v.size() values in ICON's order, converted to its type.
template <class View, class Source>
void assign_from_icon_order(const View& v, const Source* values) {
  using T = typename View::non_const_value_type;
  std::size_t n = 0;
  if constexpr (View::rank == 1) {
    for (std::size_t i = 0; i < v.extent(0); ++i) v(i) = static_cast<T>(values[n++]);
  } else if constexpr (View::rank == 2) {
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t i = 0; i < v.extent(0); ++i) v(i, j) = static_cast<T>(values[n++]);
  } else {
    for (std::size_t k = 0; k < v.extent(2); ++k)
      for (std::size_t j = 0; j < v.extent(1); ++j)
        for (std::size_t i = 0; i < v.extent(0); ++i) v(i, j, k) = static_cast<T>(values[n++]);
  }
}

}  // namespace icondiff::io
