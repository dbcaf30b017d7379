// The checks the factories (metric_fields.cpp, dycore_metric_fields.cpp) make of
// their table arguments: a mismatch is the caller's bug, reported with the table's name.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/grid/grid.hpp>

#include <fmt/format.h>

#include <cstddef>

namespace icondiff::detail {

inline void require_table(const char* name, const HostTable<double>& t, std::size_t rows,
                          std::size_t cols) {
  if (t.rows() != rows || t.cols() != cols)
    throw InvalidArgument(fmt::format("metrics: {} is ({}, {}), expected ({}, {})", name, t.rows(),
                                      t.cols(), rows, cols));
}

/// A halo point of a rank's part (halo_level > 0). The outer halo points of a part can lack
/// neighbours the part does not hold, where the whole grid has them: the factories then leave
/// such a point alone (no value) instead of refusing the grid; its value is the owning rank's.
inline bool is_halo_point(const Grid& grid, Location location, index_t point) {
  const auto& halo = grid.halo_level[static_cast<int>(location)];
  return !halo.empty() && halo[static_cast<std::size_t>(point)] > 0;
}

}  // namespace icondiff::detail
