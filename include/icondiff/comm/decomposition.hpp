// A standalone decomposition of a grid over MPI ranks, the way ICON lays out a rank's part:
// the cells are partitioned (METIS on the C2E2C graph, the same partition on every rank), and
// each rank's local grid holds its owned points first, in zone order, then halo line 1, then
// halo line 2, for cells, edges and vertices, with the global index and owner of every point and
// ICON's HALO / HALO_LEVEL_2 zones. The same local-grid format comes from ICON itself through
// grid_from_icon_arrays (grid/icon_grid_arrays.hpp).
#pragma once

#include <icondiff/grid/grid.hpp>

#include <vector>

namespace icondiff {

/// The owner rank of every cell of `global`: METIS k-way on the C2E2C graph (missing neighbours
/// skipped) with fixed options and seed (minimum edge cut, ufactor 30: no part above 1.03 times
/// the average), so every rank computes the same partition. num_ranks == 1 gives all zeros, in
/// every build.
/// Throws InvalidArgument for num_ranks < 1 or > the number of cells, or a grid that is already
/// a rank's part; GridError for a C2E2C table that is not a symmetric graph; Error when METIS
/// fails or leaves a part empty, and, for num_ranks > 1, when the build has no METIS
/// (ICONDIFF_ENABLE_MPI=OFF).
std::vector<int> partition_cells(const Grid& global, int num_ranks);

/// Rank `rank`'s local grid of `global` under the cell ownership `cell_owner` (one entry per
/// global cell, values in [0, num_ranks)), with the halo of ICON4Py 0.2.0's
/// IconLikeHaloConstructor (decomposition/halo.py), which follows Fortran ICON:
///  * cells: owned, then halo line 1 (C2E2C neighbours of owned cells), then halo line 2 (the
///    other cells of the dual hexagons of the vertices on the cutting line);
///  * vertices and edges on the cutting line belong to the highest rank among their cells
///    (ICON's convention); owned points first, then halo line 1 (cutting-line points owned by
///    another rank), then halo line 2 (vertices of the cells within two C2E2C steps of the owned
///    ones; edges sharing one vertex with an owned cell), and for edges the edges that close the
///    halo cells (ICON4Py's THIRD_HALO_LEVEL, not in ICON: halo level 3, stored last);
///  * order, so that compute_zones accepts it: first the owned points and, on a LAM, the halo
///    points ICON keeps in the outermost boundary rows (compute_zones' rule), by row (boundary
///    rows, nudging rows, then the rest) and within a row the owned points before those halo
///    points, each by global index (for the owned points alone this is the global order);
///    then the other halo points of line 1, then those of line 2, then (edges) level 3, each by
///    global index. Owned
///    and halo points of one row cannot be merged in global order: compute_zones requires a
///    row's owned points to be one block;
///  * every per-point table of ICONDIFF_GRID_FIELDS gathered at the local points (geometry as
///    is); connectivity values renumbered to local indices, missing_index where the neighbour is
///    not local. The derived tables (c2e2co, e2c2v, e2c2e, e2c2eo) are gathered and renumbered
///    too, not rebuilt: rebuilding from the local tables loses the far vertex of an edge whose
///    cell is not local even when that vertex is, while the gather keeps every entry whose
///    neighbour is local, so each entry is the global one or missing;
///  * refin_ctrl copied; halo_level, global indices and owner ranks set; zones from
///    compute_grid_zones; limited_area is the global grid's (a LAM rank away from the boundary
///    has no boundary row but must still use the limited-area formulas); name
///    "<global name> rank r/n", source the global grid's (what to load).
/// With num_ranks == 1 the result equals the global grid (same tables, same order, name and
/// zones; halo levels, global indices and owners empty as on any single-rank grid).
///
/// The edges closing the halo cells have a cell outside the local grid (their e2c2v far vertex is
/// missing), so, as in ICON4Py, they get halo level 3 and lie after HALO_LEVEL_2, outside every
/// zone but END: no granule range reaches them (ICON has no such edges; they complete C2E of the
/// halo cells).
/// Throws InvalidArgument naming the problem for a cell_owner of the wrong size or with a value
/// outside [0, num_ranks), a rank outside [0, num_ranks) or that owns no cell, or a grid that is
/// already a rank's part; GridError when the global grid's tables are inconsistent.
Grid make_local_grid(const Grid& global, const std::vector<int>& cell_owner, int rank,
                     int num_ranks);

}  // namespace icondiff
