#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/grid/device_grid.hpp>

#include <string>

namespace icondiff {

namespace {

template <class MemorySpace, class T>
Kokkos::View<const T**, TableLayout, MemorySpace> to_device(const std::string& name,
                                                            const HostTable<T>& host) {
  Kokkos::View<T**, TableLayout, MemorySpace> device("icondiff::grid::" + name, host.rows(),
                                                     host.cols());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t r = 0; r < host.rows(); ++r)
    for (std::size_t c = 0; c < host.cols(); ++c) mirror(r, c) = host(r, c);
  Kokkos::deep_copy(device, mirror);
  return device;
}

template <class MemorySpace>
Kokkos::View<const double*, MemorySpace> to_device(const std::string& name,
                                                   const std::vector<double>& host) {
  Kokkos::View<double*, MemorySpace> device("icondiff::grid::" + name, host.size());
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> wrapped(
      host.data(), host.size());
  Kokkos::deep_copy(device, wrapped);
  return device;
}

}  // namespace

template <class MemorySpace>
DeviceGrid<MemorySpace>::DeviceGrid(const Grid& g)
    : num_cells(g.num_cells),
      num_edges(g.num_edges),
      num_vertices(g.num_vertices),
      limited_area(g.limited_area),
      zones(g.zones) {
  using M = MemorySpace;
  c2e = to_device<M>("c2e", g.c2e);
  c2v = to_device<M>("c2v", g.c2v);
  c2e2c = to_device<M>("c2e2c", g.c2e2c);
  c2e2co = to_device<M>("c2e2co", g.c2e2co);
  e2c = to_device<M>("e2c", g.e2c);
  e2v = to_device<M>("e2v", g.e2v);
  e2c2v = to_device<M>("e2c2v", g.e2c2v);
  e2c2e = to_device<M>("e2c2e", g.e2c2e);
  e2c2eo = to_device<M>("e2c2eo", g.e2c2eo);
  v2e = to_device<M>("v2e", g.v2e);
  v2c = to_device<M>("v2c", g.v2c);
  cell_lon = to_device<M>("cell_lon", g.cell_lon);
  cell_lat = to_device<M>("cell_lat", g.cell_lat);
  edge_lon = to_device<M>("edge_lon", g.edge_lon);
  edge_lat = to_device<M>("edge_lat", g.edge_lat);
  vertex_lon = to_device<M>("vertex_lon", g.vertex_lon);
  vertex_lat = to_device<M>("vertex_lat", g.vertex_lat);
  cell_area = to_device<M>("cell_area", g.cell_area);
  dual_area = to_device<M>("dual_area", g.dual_area);
  edge_length = to_device<M>("edge_length", g.edge_length);
  dual_edge_length = to_device<M>("dual_edge_length", g.dual_edge_length);
  primal_normal_east = to_device<M>("primal_normal_east", g.primal_normal_east);
  primal_normal_north = to_device<M>("primal_normal_north", g.primal_normal_north);
  dual_normal_east = to_device<M>("dual_normal_east", g.dual_normal_east);
  dual_normal_north = to_device<M>("dual_normal_north", g.dual_normal_north);
  tangent_orientation = to_device<M>("tangent_orientation", g.tangent_orientation);
  edge_cell_distance = to_device<M>("edge_cell_distance", g.edge_cell_distance);
  edge_vertex_distance = to_device<M>("edge_vertex_distance", g.edge_vertex_distance);
  cell_edge_orientation = to_device<M>("cell_edge_orientation", g.cell_edge_orientation);
  vertex_edge_orientation = to_device<M>("vertex_edge_orientation", g.vertex_edge_orientation);
}

#define ICONDIFF_INSTANTIATE_DEVICE_GRID(SPACE) template struct DeviceGrid<SPACE>;
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_DEVICE_GRID)

}  // namespace icondiff
