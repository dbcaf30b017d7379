// The set-up without the whole grid on any rank (comm/local_grid_from_blocks.hpp,
// io/grid_file.hpp's read_icon_grid_block), on 1..4 ranks (mpirun):
//  * every rank's block of a grid file holds exactly the whole grid's rows (read_icon_grid);
//  * the local grid built from the ranks' blocks equals make_local_grid of the whole grid under
//    the same ownership in every table, value, zone and name: METIS partitions, the bisection
//    partition, and on the limited-area file the partitions that give a rank only boundary rows,
//    only the outermost row or nothing of the boundary; from grid files (the real R02B03 and
//    R19B04 files, a generated grid written to a file) and from blocks of grids in memory;
//  * the bisection partition gives every rank cells, about its share (parts within 1 % +
//    1 cell), and the same owners however the ranks read their blocks;
//  * bad ownership and blocks of another cut are refused on every rank (no hang).
#include "support/boundary_partitions.hpp"
#include "support/expect_error.hpp"
#include "support/grid_files.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_grid_from_blocks.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {
namespace {

int world_rank() {
  return mpi_rank(MPI_COMM_WORLD);
}
int world_size() {
  return mpi_size(MPI_COMM_WORLD);
}

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

/// Every table, zone and name of `actual` equals `expected`'s (values compared bit for bit).
void expect_same_grid(const Grid& expected, const Grid& actual) {
  EXPECT_EQ(actual.name, expected.name);
  EXPECT_EQ(actual.source, expected.source);
  EXPECT_EQ(actual.uuid, expected.uuid);
  EXPECT_EQ(actual.grid_root, expected.grid_root);
  EXPECT_EQ(actual.grid_level, expected.grid_level);
  EXPECT_EQ(actual.sphere_radius, expected.sphere_radius);
  EXPECT_EQ(actual.limited_area, expected.limited_area);
  EXPECT_EQ(actual.rank, expected.rank);
  EXPECT_EQ(actual.num_ranks, expected.num_ranks);
  ASSERT_EQ(actual.num_cells, expected.num_cells);
  ASSERT_EQ(actual.num_edges, expected.num_edges);
  ASSERT_EQ(actual.num_vertices, expected.num_vertices);
  for (const Location l : all_locations) {
    const int li = static_cast<int>(l);
    EXPECT_EQ(actual.refin_ctrl[li], expected.refin_ctrl[li]) << to_string(l);
    EXPECT_EQ(actual.halo_level[li], expected.halo_level[li]) << to_string(l);
    EXPECT_TRUE(actual.zones[li] == expected.zones[li]) << to_string(l) << " zones";
  }
  Grid::for_each_field(
      [&](const FieldSpec& spec, const auto& a, const auto& e) {
        using Container = std::decay_t<decltype(a)>;
        if constexpr (is_vector<Container>::value) {
          ASSERT_EQ(a.size(), e.size()) << spec.name;
          for (std::size_t i = 0; i < a.size(); ++i)
            ASSERT_EQ(a[i], e[i]) << spec.name << " at local point " << i;
        } else {
          ASSERT_EQ(a.rows(), e.rows()) << spec.name;
          ASSERT_EQ(a.cols(), e.cols()) << spec.name;
          for (std::size_t i = 0; i < a.rows(); ++i)
            for (std::size_t j = 0; j < a.cols(); ++j)
              ASSERT_EQ(a(i, j), e(i, j)) << spec.name << "(" << i << ", " << j << ")";
        }
      },
      actual, expected);
}

/// This rank's block of a whole-grid cell ownership.
std::vector<int> block_of(const GridBlock& block, const std::vector<int>& owner) {
  const auto first = static_cast<std::size_t>(block.begin[0]);
  return {owner.begin() + static_cast<std::ptrdiff_t>(first),
          owner.begin() + static_cast<std::ptrdiff_t>(first + block.rows.num_cells)};
}

/// The whole-grid ownership from every rank's block of it (for the comparison only).
std::vector<int> gathered(const std::vector<int>& block_owner, std::size_t cells) {
  const int size = world_size();
  std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    offsets[r] = static_cast<int>(block_start(cells, r, size));
    counts[r] = static_cast<int>(block_start(cells, r + 1, size)) - offsets[r];
  }
  std::vector<int> owner(cells);
  MPI_Allgatherv(block_owner.data(), static_cast<int>(block_owner.size()), MPI_INT, owner.data(),
                 counts.data(), offsets.data(), MPI_INT, MPI_COMM_WORLD);
  return owner;
}

/// The local grid from blocks equals make_local_grid's, for `owner` (whole grid).
void expect_local_grid_from_blocks(const Grid& whole, const GridBlock& block,
                                   const std::vector<int>& owner) {
  const Grid expected = make_local_grid(whole, owner, world_rank(), world_size());
  const Grid actual = local_grid_from_blocks(MPI_COMM_WORLD, block, block_of(block, owner));
  expect_same_grid(expected, actual);
}

/// A file path every rank agrees on (rank 0's scratch name).
std::string shared_scratch_file(const std::string& name) {
  std::string path = world_rank() == 0 ? test::scratch_file(name) : std::string();
  int length = static_cast<int>(path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  path.resize(static_cast<std::size_t>(length));
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}

TEST(GridBlock, EveryBlockOfAFileHoldsTheWholeGridsRows) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Grid whole = read_icon_grid(path);
  const GridBlock read = read_icon_grid_block(path, world_rank(), world_size());
  const GridBlock cut = grid_block_of(whole, world_rank(), world_size());
  EXPECT_EQ(read.begin, cut.begin);
  EXPECT_EQ(read.total, cut.total);
  expect_same_grid(cut.rows, read.rows);
}

TEST(LocalGridFromBlocks, EqualsTheWholeGridsLocalGridUnderMetis) {
  for (const std::string source : {"generate:R2B3", "generate:R2B3/cap:20,30,35"}) {
    SCOPED_TRACE(source);
    const Grid whole = load_grid_source(source);
    const GridBlock block = grid_block_of(whole, world_rank(), world_size());
    expect_local_grid_from_blocks(whole, block, partition_cells(whole, world_size()));
  }
}

TEST(LocalGridFromBlocks, FromAGridFileEqualsTheWholeGridsLocalGrid) {
  // A generated grid written to a file (always there), then the real files (when present).
  std::vector<std::string> paths = {shared_scratch_file("local_grid_R2B3.nc")};
  if (world_rank() == 0) write_icon_grid(load_grid_source("generate:R2B3"), paths[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  for (const char* name : {test::global_r02b03, test::lam_r19b04})
    if (const auto p = test::real_grid(name)) paths.push_back(*p);
  for (const auto& path : paths) {
    SCOPED_TRACE(path);
    const Grid whole = read_icon_grid(path);
    const GridBlock block = read_icon_grid_block(path, world_rank(), world_size());
    expect_local_grid_from_blocks(whole, block, partition_cells(whole, world_size()));
    const std::vector<int> bisection = bisection_partition(MPI_COMM_WORLD, block);
    expect_local_grid_from_blocks(whole, block,
                                  gathered(bisection, static_cast<std::size_t>(whole.num_cells)));
  }
}

TEST(LocalGridFromBlocks, BoundaryRowPartitionsOfALimitedAreaFile) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid whole = read_icon_grid(path);
  const GridBlock block = read_icon_grid_block(path, world_rank(), world_size());
  for (const auto& partition : test::boundary_partitions(whole, world_size())) {
    SCOPED_TRACE(partition.name);
    expect_local_grid_from_blocks(whole, block, partition.owner);
  }
}

TEST(BisectionPartition, GivesEveryRankItsShareOfCells) {
  for (const std::string source : {"generate:R2B4", "generate:R2B3/cap:20,30,35"}) {
    SCOPED_TRACE(source);
    const Grid whole = load_grid_source(source);
    const GridBlock block = grid_block_of(whole, world_rank(), world_size());
    const std::vector<int> owner = gathered(bisection_partition(MPI_COMM_WORLD, block),
                                            static_cast<std::size_t>(whole.num_cells));
    std::vector<long long> cells(static_cast<std::size_t>(world_size()), 0);
    for (const int r : owner) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, world_size());
      ++cells[static_cast<std::size_t>(r)];
    }
    const double share = static_cast<double>(whole.num_cells) / world_size();
    for (int r = 0; r < world_size(); ++r)
      EXPECT_NEAR(static_cast<double>(cells[r]), share, 0.01 * share + 1) << "rank " << r;
  }
}

TEST(LocalGridFromBlocks, RefusesBadOwnersOnEveryRank) {
  const Grid whole = load_grid_source("generate:R2B3");
  const GridBlock block = grid_block_of(whole, world_rank(), world_size());
  std::vector<int> owner(static_cast<std::size_t>(block.rows.num_cells), 0);
  // Rank 0's first cell gets an owner outside the ranks: every rank throws the same error.
  if (world_rank() == 0) owner[0] = world_size();
  test::expect_throw_naming<CollectiveError>(
      [&] { local_grid_from_blocks(MPI_COMM_WORLD, block, owner); }, {"outside [0,"}, "bad owner");
  // Everything owned by rank 0: with more ranks, the others own no cell.
  if (world_size() > 1) {
    owner.assign(owner.size(), 0);
    test::expect_throw_naming<CollectiveError>(
        [&] { local_grid_from_blocks(MPI_COMM_WORLD, block, owner); }, {"owns no cell"},
        "ranks without cells");
  }
  // A block of a cut into another number of blocks.
  const GridBlock other = grid_block_of(whole, 0, world_size() + 1);
  owner.assign(static_cast<std::size_t>(other.rows.num_cells), 0);
  test::expect_throw_naming<CollectiveError>(
      [&] { local_grid_from_blocks(MPI_COMM_WORLD, other, owner); }, {"its own block"},
      "a block of another cut");
}

}  // namespace
}  // namespace icondiff
