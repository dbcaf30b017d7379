// A Grid from arrays ICON already holds in memory (p_patch%cells%edge_idx, refin_ctrl,
// decomp_info%glb_index, ...), converted once: Fortran's 1-based indices become 0-based, rows
// beyond the number of points (nproma padding) are ignored, ICON's missing neighbours (index
// <= 0) become missing_index, the derived connectivities and the zones are computed and the
// tables are checked like a grid file's. The Fortran interface and the MPI decomposition start
// here; the granule then sees an ordinary DeviceGrid.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>

#include <array>

namespace icondiff {

/// One connectivity table as Fortran stores it: (leading_dimension, slots) column-major, 1-based.
struct IconIndexTable {
  const int* data = nullptr;
  index_t leading_dimension = 0;  ///< nproma (>= points); 0 means "= points"
};

struct IconGridArrays {
  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  IconIndexTable c2e, c2v, c2e2c;  ///< (cells, 3)
  IconIndexTable e2c, e2v;         ///< (edges, 2)
  IconIndexTable v2e, v2c;         ///< (vertices, 6)
  /// ICON's own derived tables (p_patch%edges%vertex_idx(:,:,1:4), %quad_idx); null: built from
  /// the tables above (build_derived_connectivity). Given, they are used as they are: on a rank's
  /// halo edges ICON knows far vertices that the local cell tables cannot name.
  IconIndexTable e2c2v;  ///< (edges, 4)
  IconIndexTable e2c2e;  ///< (edges, 4)
  /// refin_ctrl per location (cell, edge, vertex) as ICON stores it; required unless
  /// `zone_bounds` gives the zones.
  std::array<const int*, 3> refin_ctrl{};
  /// ICON's start_index/end_index arrays per location (zones_from_icon_index_arrays); when
  /// given (all three), the zones come from them, as ICON4Py's grid_init receives them.
  struct ZoneBounds {
    const int* starts = nullptr;
    const int* ends = nullptr;
    index_t size = 0;
  };
  std::array<ZoneBounds, 3> zone_bounds{};
  /// decomp_info%halo_level per location; nullptr: every point owned.
  std::array<const int*, 3> halo_level{};
  /// 1-based global indices per location; nullptr: not decomposed (identity).
  std::array<const int*, 3> global_index{};
  /// Owning rank per location; nullptr: every point owned by `rank`.
  std::array<const int*, 3> owner_rank{};
  int rank = 0;
  int num_ranks = 1;
};

/// The Grid of `arrays` (topology, zones, decomposition; no geometry). With zone_bounds,
/// `limited_area` is true when the cells' first boundary row is not empty. Throws InvalidArgument
/// naming the array for null pointers, a leading dimension < points or indices beyond the
/// location's size, and GridError for tables that contradict each other.
Grid grid_from_icon_arrays(const IconGridArrays& arrays);

}  // namespace icondiff
