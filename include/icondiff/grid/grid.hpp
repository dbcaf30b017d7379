// The host-side horizontal grid: sizes, connectivity, geometry and zones.
//
// Everything that builds a grid (the netCDF reader, the icosahedral generator, the C API) fills
// one of these; DeviceGrid copies what kernels need to an execution space's memory.
// Conventions (all verified on real ICON files; see docs/dev/grid.md):
//  * indices are 0-based, `missing_index` (-1) marks a missing neighbour;
//  * lengths in metres, areas in m², angles in radians, on a sphere of radius `sphere_radius`;
//  * vectors at edges are given in the local (east, north) basis at the edge midpoint.
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid_fields.hpp>
#include <icondiff/grid/zones.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace icondiff {

/// Earth radius used by ICON (grid file attribute `semi_major_axis`), metres.
inline constexpr double earth_radius = 6371229.0;

struct Grid {
  // ---- Identity ---------------------------------------------------------------------------------
  std::string name;    ///< short name, e.g. "icon_grid_0009_R02B03_R"
  std::string source;  ///< where it came from (file path, generator parameters)
  std::string uuid;    ///< uuidOfHGrid, empty if unknown
  int grid_root = 0;   ///< n of RnBk
  int grid_level = 0;  ///< k of RnBk
  double sphere_radius = earth_radius;
  /// True when some point lies in a lateral boundary row (ICON4Py's is_limited_area_grid).
  bool limited_area = false;

  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  index_t size(Location location) const;

  // ---- Per-point tables: connectivity, geometry, decomposition (grid/grid_fields.hpp lists
  // them with their meaning; DeviceGrid holds the same names as Views).
  ICONDIFF_FIELDS_WITH_MEMBERS(ICONDIFF_GRID_FIELDS, ICONDIFF_GRID_HOST_MEMBER)

  /// The rank this grid belongs to and the number of ranks (1: not decomposed).
  int rank = 0;
  int num_ranks = 1;

  // ---- Refinement control and zones
  // --------------------------------------------------------------
  /// refin_ctrl per location as stored in the file (nest-overlap values unconverted).
  std::array<std::vector<int>, 3> refin_ctrl;
  /// Halo line per location and point (0 owned, 1 first halo line, 2 second; ICON's
  /// decomp_info%halo_level; 3: ICON4Py's edges closing the halo cells, stored after
  /// HALO_LEVEL_2 by make_local_grid); empty on a grid that is not decomposed.
  std::array<std::vector<int>, 3> halo_level;
  /// Zone ranges per location, including ICON's HALO and HALO_LEVEL_2 on a decomposed grid.
  std::array<Zones, 3> zones;

  /// The decomposition tables of one location (empty when the grid is not decomposed).
  const std::vector<index_t>& global_index(Location location) const {
    return location == Location::Cell   ? cell_global_index
           : location == Location::Edge ? edge_global_index
                                        : vertex_global_index;
  }
  std::vector<index_t>& global_index(Location location) {
    return const_cast<std::vector<index_t>&>(std::as_const(*this).global_index(location));
  }
  const std::vector<int>& owner_rank(Location location) const {
    return location == Location::Cell   ? cell_owner_rank
           : location == Location::Edge ? edge_owner_rank
                                        : vertex_owner_rank;
  }
  std::vector<int>& owner_rank(Location location) {
    return const_cast<std::vector<int>&>(std::as_const(*this).owner_rank(location));
  }

  const Zones& zones_of(Location location) const { return zones[static_cast<int>(location)]; }
  IndexRange range(Location location, Zone zone) const { return zones_of(location).range(zone); }
  index_t start(Location location, Zone zone) const { return range(location, zone).start; }
  index_t end(Location location, Zone zone) const { return range(location, zone).end; }
};

/// Builds c2e2co, e2c2v, e2c2e and e2c2eo from c2e, c2v, c2e2c and e2c/e2v.
void build_derived_connectivity(Grid& grid);

/// Computes `zones` and `limited_area` from `refin_ctrl` and `halo_level` (empty: every point
/// owned, the single-rank case).
void compute_grid_zones(Grid& grid);

}  // namespace icondiff
