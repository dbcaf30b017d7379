// Partitions of a limited-area grid that METIS would not choose but a user may (a partition file)
// and that larger runs meet by themselves: a rank owning only lateral-boundary rows, only the
// outermost row, or nothing of the boundary (issue 29, item 4). Ranks whose owned cells start
// past row 1 or lack the nudging rows have empty zones; the granules must place those where the
// rows would be (grid/zones.cpp) and equal one rank bit for bit.
#pragma once

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/zones.hpp>

#include <string>
#include <vector>

namespace icondiff::test {

struct NamedPartition {
  std::string name;
  std::vector<int> owner;  ///< per global cell
};

/// Rank 0 owns the cells `to_rank0` picks; the others are cut into num_ranks - 1 runs of
/// consecutive cell indices (ICON's cell order is spatially coherent) for ranks 1.. (one rank:
/// everything on rank 0).
template <class Pick>
std::vector<int> rank0_takes(const Grid& grid, int num_ranks, Pick&& to_rank0) {
  std::vector<int> owner(static_cast<std::size_t>(grid.num_cells), 0);
  if (num_ranks == 1) return owner;
  std::vector<index_t> rest;
  for (index_t c = 0; c < grid.num_cells; ++c)
    if (!to_rank0(c)) rest.push_back(c);
  for (std::size_t i = 0; i < rest.size(); ++i)
    owner[static_cast<std::size_t>(rest[i])] =
        1 + static_cast<int>(i * static_cast<std::size_t>(num_ranks - 1) / rest.size());
  return owner;
}

/// The boundary-row partitions of a limited-area grid for `num_ranks` ranks. The rank owning only
/// the outermost row keeps every line-1 and line-2 halo edge with the boundary rows (rows 3-6)
/// and ICON4Py's third edge level after them: compute_zones must keep both out of INTERIOR and
/// LOCAL, where the diffusion would gather over their missing far vertices.
inline std::vector<NamedPartition> boundary_partitions(const Grid& grid, int num_ranks) {
  const auto& refin = grid.refin_ctrl[static_cast<int>(Location::Cell)];
  auto row = [&](index_t c) {
    return to_non_nested_refinement(Location::Cell, refin[static_cast<std::size_t>(c)]);
  };
  // The interior cells' median index: rank 0 takes the interior cells from there on.
  std::vector<index_t> interior;
  for (index_t c = 0; c < grid.num_cells; ++c)
    if (row(c) == 0) interior.push_back(c);
  const index_t middle = interior.empty() ? grid.num_cells : interior[interior.size() / 2];
  return {
      {"rank 0 owns the lateral-boundary rows 1-4 only",
       rank0_takes(grid, num_ranks, [&](index_t c) { return row(c) >= 1 && row(c) <= 4; })},
      {"rank 0 owns the outermost boundary row only",
       rank0_takes(grid, num_ranks, [&](index_t c) { return row(c) == 1; })},
      {"rank 0 owns nothing of the boundary (half of the interior)",
       rank0_takes(grid, num_ranks, [&](index_t c) { return row(c) == 0 && c >= middle; })},
  };
}

}  // namespace icondiff::test
