// One rank's block of a grid file, for a set-up in which no rank holds the whole grid: the rows
// [begin, begin + count) of every per-point table, for each location, as read from the file
// (rank r of P reads the points [N·r/P, N·(r+1)/P) of every location, one hyperslab per
// variable). comm/local_grid_from_blocks.hpp turns the ranks' blocks into their local grids.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>

#include <array>
#include <cstddef>

namespace icondiff {

/// The first global index of block `block` of `num_blocks` over `total` points: total·block /
/// num_blocks (so blocks differ by at most one point, and block num_blocks ends at total).
inline std::size_t block_start(std::size_t total, int block, int num_blocks) {
  return static_cast<std::size_t>(
      (static_cast<unsigned long long>(total) * static_cast<unsigned long long>(block)) /
      static_cast<unsigned long long>(num_blocks));
}

struct GridBlock {
  /// The block's rows of the global grid: num_cells/num_edges/num_vertices are the block's row
  /// counts, every per-point table of the file holds its rows (geometry as is, refin_ctrl),
  /// connectivity holds GLOBAL 0-based indices (missing_index for missing neighbours). No zones,
  /// no derived tables, no decomposition fields: those belong to a local grid. name, source,
  /// uuid, grid_root, grid_level and sphere_radius are the whole grid's.
  Grid rows;
  /// Per location: the global index of the block's first row, and the global number of points.
  std::array<index_t, 3> begin{};
  std::array<index_t, 3> total{};
  /// This block's number and how many blocks the grid was cut into.
  int block = 0;
  int num_blocks = 1;
};

/// Block `block` of `num_blocks` of a whole grid held in memory (a generated one, or in tests):
/// the same rows read_icon_grid_block reads from the grid's file. Throws InvalidArgument for a
/// block outside [0, num_blocks) or a grid that is already a rank's part.
GridBlock grid_block_of(const Grid& whole, int block, int num_blocks);

}  // namespace icondiff
