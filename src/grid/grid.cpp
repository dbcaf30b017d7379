#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid.hpp>

namespace icondiff {

index_t Grid::size(Location location) const {
  switch (location) {
    case Location::Cell: return num_cells;
    case Location::Edge: return num_edges;
    case Location::Vertex: return num_vertices;
  }
  return 0;
}

void compute_grid_zones(Grid& grid) {
  grid.limited_area = false;
  for (Location location : all_locations) {
    const auto& refin = grid.refin_ctrl[static_cast<int>(location)];
    if (refin.size() != static_cast<std::size_t>(grid.size(location)))
      throw GridError(std::string("refin_ctrl of the ") + to_string(location) + "s has " +
                      std::to_string(refin.size()) + " values for " +
                      std::to_string(grid.size(location)) + " points");
    grid.zones[static_cast<int>(location)] =
        compute_zones(location, refin, grid.halo_level[static_cast<int>(location)]);
  }
  grid.limited_area = has_lateral_boundary(Location::Cell, grid.refin_ctrl[0]);
}

}  // namespace icondiff
