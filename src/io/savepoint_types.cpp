// The in-memory savepoint: its kind's and granule's names and the reference to the grid it was
// captured on.
#include "savepoint_internal.hpp"

#include <icondiff/io/savepoint_types.hpp>

#include <fmt/format.h>

namespace icondiff {

namespace io::savepoint {

const char* location_name(int l) {
  return to_string(all_locations[static_cast<std::size_t>(l)]);
}

std::array<IndexRange, num_zones> ranges_of(const Zones& zones, Location location) {
  std::array<IndexRange, num_zones> r{};
  for (int z = 0; z < num_zones; ++z) {
    const Zone zone = static_cast<Zone>(z);
    if (zone_exists(location, zone) && zone_exists(zones.location(), zone))
      r[static_cast<std::size_t>(z)] = zones.range(zone);
  }
  return r;
}

index_t size_of(const SavepointGridReference& g, int l) {
  return l == 0 ? g.num_cells : l == 1 ? g.num_edges : g.num_vertices;
}

}  // namespace io::savepoint

using io::savepoint::location_name;
using io::savepoint::ranges_of;
using io::savepoint::size_of;

const char* to_string(SavepointKind kind) {
  return kind == SavepointKind::Init ? "diffusion-init" : "diffusion-exit";
}

SavepointKind parse_savepoint_kind(const std::string& name) {
  if (name == "diffusion-init") return SavepointKind::Init;
  if (name == "diffusion-exit") return SavepointKind::Exit;
  throw InvalidArgument(fmt::format(
      "savepoint kind '{}' is unknown: expected 'diffusion-init' or 'diffusion-exit'", name));
}

const char* to_string(SavepointGranule granule) {
  return granule == SavepointGranule::Diffusion ? "diffusion" : "solve_nh";
}

std::string SavepointIdentity::name() const {
  return std::string(to_string(granule)) + (kind == SavepointKind::Init ? "-init" : "-exit");
}

SavepointGridReference make_grid_reference(const Grid& grid, const std::string& grid_source) {
  SavepointGridReference r;
  r.source = grid_source.empty() ? grid.source : grid_source;
  r.uuid = grid.uuid;
  r.num_cells = grid.num_cells;
  r.num_edges = grid.num_edges;
  r.num_vertices = grid.num_vertices;
  r.limited_area = grid.limited_area;
  for (int l = 0; l < 3; ++l)
    r.zones[static_cast<std::size_t>(l)] = Zones(
        all_locations[l], ranges_of(grid.zones[static_cast<std::size_t>(l)], all_locations[l]));
  return r;
}

void check_same_grid(const SavepointGridReference& reference, const Grid& grid) {
  detail::check_same_grid(reference, &grid.uuid, grid.num_cells, grid.num_edges, grid.num_vertices,
                          grid.limited_area, grid.zones);
}

void detail::check_same_grid(const SavepointGridReference& reference, const std::string* uuid,
                             index_t num_cells, index_t num_edges, index_t num_vertices,
                             bool limited_area, const std::array<Zones, 3>& zones) {
  const auto mismatch = [&reference](const std::string& what) {
    throw GridError(fmt::format("the savepoint was captured on another grid (source '{}'{}): {}",
                                reference.source,
                                reference.uuid.empty() ? "" : ", uuid " + reference.uuid, what));
  };
  if (uuid && !uuid->empty() && !reference.uuid.empty() && *uuid != reference.uuid)
    mismatch(fmt::format("this grid has uuid {}", *uuid));
  const index_t mine[3] = {num_cells, num_edges, num_vertices};
  for (int l = 0; l < 3; ++l)
    if (mine[l] != size_of(reference, l))
      mismatch(fmt::format("it has {} {}s, this grid has {}", size_of(reference, l),
                           location_name(l), mine[l]));
  if (limited_area != reference.limited_area)
    mismatch(fmt::format("it is {}, this grid is {}",
                         reference.limited_area ? "limited-area" : "global",
                         limited_area ? "limited-area" : "global"));
  for (int l = 0; l < 3; ++l) {
    const auto a = ranges_of(reference.zones[static_cast<std::size_t>(l)], all_locations[l]);
    const auto b = ranges_of(zones[static_cast<std::size_t>(l)], all_locations[l]);
    for (int z = 0; z < num_zones; ++z) {
      const auto i = static_cast<std::size_t>(z);
      if (!(a[i] == b[i]))
        mismatch(fmt::format("its {} zone {} is [{}, {}), on this grid [{}, {})", location_name(l),
                             to_string(static_cast<Zone>(z)), a[i].start, a[i].end, b[i].start,
                             b[i].end));
    }
  }
}

}  // namespace icondiff
