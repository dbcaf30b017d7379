// Who owns each point, when every rank knows only which of its points it owns (ICON's
// decomp_info%owner_mask, what ICON4Py's grid_init receives) and their global indices: a
// distributed directory over MPI. The owner of global index g registers at rank g % size; every
// rank then asks there for its halo points' owners. Two all-to-all rounds, memory proportional to
// the local points. Compiled only with ICONDIFF_ENABLE_MPI.
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/core/types.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace icondiff {

/// Collective over `comm`: the owning rank of each of this rank's points, given their 0-based
/// global indices and whether this rank owns them (non-zero). `what` names the points in
/// messages ("cells"). Throws CollectiveError on every rank when a global index is negative, is
/// owned by two ranks, or is owned by none.
std::vector<int> owners_from_masks(MPI_Comm comm, const std::vector<index_t>& global_index,
                                   const std::vector<unsigned char>& owned,
                                   const std::string& what);

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
