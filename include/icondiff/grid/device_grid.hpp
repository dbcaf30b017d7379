// The grid as kernels see it: the grid's tables (grid/grid_fields.hpp) as read-only Kokkos Views
// in one memory space, with the sizes and zones. Built from a host Grid (read from a file,
// generated, or converted once from ICON's own arrays: grid/icon_grid_arrays.hpp).
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/grid_fields.hpp>

#include <array>

namespace icondiff {

template <class MemorySpace>
struct DeviceGrid {
  using memory_space = MemorySpace;
  /// (points, neighbours) tables: TableLayout (point fastest), read-only in kernels.
  using IndexTable = Kokkos::View<const index_t**, TableLayout, MemorySpace>;

  DeviceGrid() = default;
  /// Copies every table of `grid` (labelled "icondiff::grid::<name>"). Tables that are empty
  /// on the host (geometry of a topology-only grid, decomposition of a single-rank grid) stay
  /// empty.
  explicit DeviceGrid(const Grid& grid);

  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  bool limited_area = false;
  /// The rank this grid belongs to and the number of ranks (1: not decomposed).
  int rank = 0;
  int num_ranks = 1;
  std::array<Zones, 3> zones;

  IndexRange range(Location location, Zone zone) const {
    return zones[static_cast<int>(location)].range(zone);
  }
  FieldSizes sizes(std::size_t nlev = 0) const {
    return {static_cast<std::size_t>(num_cells), static_cast<std::size_t>(num_edges),
            static_cast<std::size_t>(num_vertices), nlev};
  }

  ICONDIFF_FIELDS_WITH_MEMBERS(ICONDIFF_GRID_FIELDS, ICONDIFF_FIELD_CONST_MEMBER)
};

}  // namespace icondiff
