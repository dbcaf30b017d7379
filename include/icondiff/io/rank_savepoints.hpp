// The savepoints of one decomposed granule call, one per rank (each holding its rank's local
// points and its `decomposition`; diffusion or solve_nh), put back together into the savepoint of
// the same call on the whole grid, so that one process can replay it (icondiff verify) and
// compare every rank's outputs at once. The decomposed granule equals the single-rank one bit for
// bit, so the replay on the whole grid reproduces every rank's owned outputs exactly.
#pragma once

#include <icondiff/grid/grid.hpp>
#include <icondiff/io/savepoint_types.hpp>
#include <icondiff/io/solve_nh_savepoint_types.hpp>

#include <string>
#include <vector>

namespace icondiff {

/// One savepoint on `whole_grid` from the per-rank savepoints `parts` of one call (any order, all
/// of the same kind): each global point takes the values of the rank that owns it. The grid
/// reference becomes `whole_grid`'s (with `source`); metadata is rank 0's. Throws InvalidArgument
/// naming the first problem: a part without a decomposition, a missing or repeated rank, parts of
/// different calls (kind, dtime, initial_run, configuration, vertical grid), a whole grid of
/// other sizes or another uuid, points owned twice or never.
DiffusionSavepoint merge_rank_savepoints(const std::vector<DiffusionSavepoint>& parts,
                                         const Grid& whole_grid, const std::string& source);

/// The same for the solve_nh granule's savepoints: besides kind, configuration and grid, the
/// parts must agree on the substep's scalars, vct_a and the static inputs' vertical indices, mean
/// cell area and level profiles. c_owner_mask and mask_prog_halo_c, which describe each rank's
/// decomposition, are recomputed for the whole grid (every cell owned; set_decomposition_masks),
/// and max_vertical_cfl is the largest of the ranks'. The decomposed granule equals the
/// single-rank one on the owned points (test_mpi_solve_nh), so replaying the merged init on the
/// whole grid reproduces the merged exit.
SolveNhSavepoint merge_rank_savepoints(const std::vector<SolveNhSavepoint>& parts,
                                       const Grid& whole_grid, const std::string& source);

}  // namespace icondiff
