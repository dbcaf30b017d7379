// Rows of a table that is spread over the ranks in blocks of the global numbering (rank r holds
// the rows [N·r/P, N·(r+1)/P), as grid/grid_block.hpp reads a grid file), fetched by global index:
// the distributed lookup behind a set-up in which no rank holds a whole-grid table. A request is
// planned once for a list of global indices (one MPI_Alltoall and one MPI_Alltoallv); each table
// is then one MPI_Alltoallv of its rows. Compiled only with ICONDIFF_ENABLE_MPI.
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

namespace icondiff {

namespace detail {
class AllToAllRoutes;
}

class BlockRowRequest {
 public:
  /// Collective over `comm`: this rank will want the rows `global` (any order, repeats allowed)
  /// of tables of `total` rows held in blocks. Throws CollectiveError on every rank when an
  /// index lies outside [0, total) on any rank.
  BlockRowRequest(MPI_Comm comm, std::size_t total, const std::vector<index_t>& global);
  ~BlockRowRequest();
  BlockRowRequest(BlockRowRequest&&) noexcept;
  BlockRowRequest& operator=(BlockRowRequest&&) noexcept;

  /// This rank's block of the global numbering: [block_begin, block_begin + block_size).
  std::size_t block_begin() const { return block_begin_; }
  std::size_t block_size() const { return block_size_; }

  /// Collective: the wanted rows of a table of which `block` holds this rank's rows (row-major,
  /// block_size() rows of `width` values), in the order of the requested indices.
  template <class T>
  std::vector<T> fetch(const std::vector<T>& block, std::size_t width) const {
    const std::vector<char> bytes =
        fetch_bytes(block.data(), block.size() * sizeof(T), width * sizeof(T));
    std::vector<T> rows(bytes.size() / sizeof(T));
    if (!rows.empty()) std::memcpy(rows.data(), bytes.data(), bytes.size());
    return rows;
  }
  /// The same for a table (rows of the block, any number of columns).
  template <class T>
  HostTable<T> fetch(const HostTable<T>& block) const {
    const std::size_t cols = block.cols();
    const std::vector<char> bytes =
        fetch_bytes(block.data(), block.rows() * cols * sizeof(T), cols * sizeof(T));
    HostTable<T> rows(requested_, cols);
    if (!bytes.empty()) std::memcpy(rows.data(), bytes.data(), bytes.size());
    return rows;
  }

 private:
  /// Checks (collectively) that the block of `block_bytes` holds block_size() rows of
  /// `row_bytes`, then moves the rows.
  std::vector<char> fetch_bytes(const void* block, std::size_t block_bytes,
                                std::size_t row_bytes) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t block_begin_ = 0, block_size_ = 0, requested_ = 0;
  /// The block rows asked for by the other ranks, in the order their requests arrived.
  std::vector<std::size_t> served_rows_;
  /// For each requested index (in the caller's order), its position among the replies.
  std::vector<std::size_t> reply_of_request_;
  std::unique_ptr<detail::AllToAllRoutes> routes_;
};

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
