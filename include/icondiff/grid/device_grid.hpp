// The grid as kernels see it: connectivity and geometry as Kokkos Views in one memory space.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>

#include <array>

namespace icondiff {

template <class MemorySpace>
struct DeviceGrid {
  using memory_space = MemorySpace;
  /// (points, neighbours) tables: TableLayout (point fastest), read-only in kernels.
  using IndexTable = Kokkos::View<const index_t**, TableLayout, MemorySpace>;
  using RealTable = Kokkos::View<const double**, TableLayout, MemorySpace>;
  using RealVector = Kokkos::View<const double*, MemorySpace>;

  DeviceGrid() = default;
  /// Copies every table and geometry field of `grid` (labelled "icondiff::grid::<name>").
  /// Geometry vectors that are empty on the host (topology-only grids) stay empty.
  explicit DeviceGrid(const Grid& grid);

  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  bool limited_area = false;
  std::array<Zones, 3> zones;

  IndexRange range(Location location, Zone zone) const {
    return zones[static_cast<int>(location)].range(zone);
  }

  IndexTable c2e, c2v, c2e2c, c2e2co;
  IndexTable e2c, e2v, e2c2v, e2c2e, e2c2eo;
  IndexTable v2e, v2c;

  RealVector cell_lon, cell_lat, edge_lon, edge_lat, vertex_lon, vertex_lat;
  RealVector cell_area, dual_area, edge_length, dual_edge_length;
  RealVector primal_normal_east, primal_normal_north, dual_normal_east, dual_normal_north;
  RealVector tangent_orientation;
  RealTable edge_cell_distance, edge_vertex_distance;
  RealTable cell_edge_orientation, vertex_edge_orientation;
};

}  // namespace icondiff
