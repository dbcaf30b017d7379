// A rank's local grid from the ranks' blocks of a grid file (grid/grid_block.hpp), without any
// rank holding the whole grid: the set-up of a decomposed run at operational resolutions. Each
// rank gathers, through distributed lookups (comm/block_rows.hpp), the rows of the cells within
// three vertex-neighbour rings of the cells it owns and of their edges and vertices (everything
// make_local_grid looks at), builds that patch of the grid and cuts its local grid from it with
// make_local_grid. The result equals make_local_grid(the whole grid, the same ownership, rank,
// size) in every table and value, with global indices and owners of the whole grid.
// Compiled only with ICONDIFF_ENABLE_MPI.
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/grid_block.hpp>

#include <mpi.h>

#include <array>
#include <vector>

namespace icondiff {

/// Collective over `comm` (one block per rank: block.block == rank, block.num_blocks == size):
/// this rank's local grid when `block_owner[i]` owns the block's cell block.begin[Cell] + i.
/// Memory and work per rank grow with the block and the local grid, never with the whole grid.
/// Checks (on every rank at once: CollectiveError) owners outside [0, size), a rank that owns no
/// cell, and blocks that are not this communicator's. What a grid file's rows show alone was
/// checked when they were read; the checks across rows that read_icon_grid makes on the whole
/// grid (check_connectivity, check_geometry) are not made here: they assume every neighbour is
/// present, which a local grid's outer halo points are not (`icondiff grid-info FILE` checks a
/// whole file once).
Grid local_grid_from_blocks(MPI_Comm comm, const GridBlock& block,
                            const std::vector<int>& block_owner);

/// A rank's local grid, and where its factories run.
struct LocalGrids {
  Grid local;
  /// The local grid this rank would have if it owned every cell within `margin` C2E2C steps of
  /// `local`'s cells (the cells, edges and vertices it owns then, with their halo, global
  /// indices and that fictitious ownership). A factory whose value at a point depends on the
  /// points within `margin` steps gives the whole grid's values at every point of `local` when
  /// it runs on `extended`; its values there are then restricted to `local` by global index.
  /// Empty when margin is 0.
  Grid extended;
  /// The true owner rank of each of `extended`'s points per location (its owner arrays hold the
  /// fictitious ownership): what an exchange on the extended grid (one that fills every point
  /// this rank does not truly own from its owner) is built from. Empty on one rank.
  std::array<std::vector<int>, 3> extended_owner;
};

/// Collective: local_grid_from_blocks's local grid, and the extended grid of `margin` C2E2C
/// steps (>= 0) around it. Throws as local_grid_from_blocks, and InvalidArgument for margin < 0.
LocalGrids local_grids_from_blocks(MPI_Comm comm, const GridBlock& block,
                                   const std::vector<int>& block_owner, int margin);

/// Collective over `comm`: the owner of each of the block's cells under a recursive coordinate
/// bisection of the cell centres (unit vectors): the cells of a set of ranks are split across the
/// widest coordinate of their bounding box, at the point that gives each half its share of cells
/// (ranks split as evenly as they go), until every set is one rank. A geometric cut computed from
/// the blocks alone: parts are compact, their halos a little larger than METIS'. The same result
/// on every run with the same grid and number of ranks. Throws CollectiveError when the grid has
/// fewer cells than ranks or no cell centres.
std::vector<int> bisection_partition(MPI_Comm comm, const GridBlock& block);

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
