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
  /// refin_ctrl per location (cell, edge, vertex) as ICON stores it; required.
  std::array<const int*, 3> refin_ctrl{};
  /// decomp_info%halo_level per location; nullptr: every point owned.
  std::array<const int*, 3> halo_level{};
  /// 1-based global indices per location; nullptr: not decomposed (identity).
  std::array<const int*, 3> global_index{};
  /// Owning rank per location; nullptr: every point owned by `rank`.
  std::array<const int*, 3> owner_rank{};
  int rank = 0;
  int num_ranks = 1;
};

/// The Grid of `arrays` (topology, zones, decomposition; no geometry). Throws InvalidArgument
/// naming the array for null pointers, a leading dimension < points or indices beyond the
/// location's size, and GridError for tables that contradict each other.
Grid grid_from_icon_arrays(const IconGridArrays& arrays);

}  // namespace icondiff
