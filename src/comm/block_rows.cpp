#include <icondiff/comm/block_rows.hpp>

#if ICONDIFF_HAVE_MPI

#include "all_to_all_routes.hpp"

#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_block.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string>

namespace icondiff {

BlockRowRequest::BlockRowRequest(MPI_Comm comm, std::size_t total,
                                 const std::vector<index_t>& global)
    : comm_(comm), requested_(global.size()) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  block_begin_ = block_start(total, rank, size);
  block_size_ = block_start(total, rank + 1, size) - block_begin_;

  std::string error;
  for (std::size_t i = 0; i < global.size() && error.empty(); ++i)
    if (global[i] < 0 || static_cast<std::size_t>(global[i]) >= total)
      error = fmt::format("rank {}: row {} is requested, outside the {} rows of the table", rank,
                          global[i], total);
  agree_on_errors(comm, error);

  // Requests sorted by global index are sorted by the rank whose block holds them.
  std::vector<std::size_t> order(global.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return global[a] < global[b]; });
  std::vector<int> send_counts(static_cast<std::size_t>(size), 0);
  std::vector<long long> wanted(global.size());
  reply_of_request_.resize(global.size());
  int holder = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto g = static_cast<std::size_t>(global[order[k]]);
    while (g >= block_start(total, holder + 1, size)) ++holder;
    ++send_counts[static_cast<std::size_t>(holder)];
    wanted[k] = static_cast<long long>(g);
    reply_of_request_[order[k]] = k;
  }
  routes_ = std::make_unique<detail::AllToAllRoutes>(comm, std::move(send_counts));
  const std::vector<char> asked = routes_->forward(wanted.data(), sizeof(long long));
  served_rows_.resize(routes_->received());
  for (std::size_t i = 0; i < served_rows_.size(); ++i) {
    long long g = 0;
    std::memcpy(&g, asked.data() + i * sizeof(long long), sizeof g);
    served_rows_[i] = static_cast<std::size_t>(g) - block_begin_;
  }
}

BlockRowRequest::~BlockRowRequest() = default;
BlockRowRequest::BlockRowRequest(BlockRowRequest&&) noexcept = default;
BlockRowRequest& BlockRowRequest::operator=(BlockRowRequest&&) noexcept = default;

std::vector<char> BlockRowRequest::fetch_bytes(const void* block, std::size_t block_bytes,
                                               std::size_t row_bytes) const {
  // Agreed before anything moves, so a wrong block on one rank cannot leave the others waiting.
  agree_on_errors(comm_, block_bytes == block_size_ * row_bytes
                             ? std::string()
                             : fmt::format("rank {}: a block of {} bytes, expected {} rows of {} "
                                           "bytes",
                                           mpi_rank(comm_), block_bytes, block_size_, row_bytes));
  std::vector<char> replies(served_rows_.size() * row_bytes);
  const auto* src = static_cast<const char*>(block);
  for (std::size_t i = 0; i < served_rows_.size(); ++i)
    std::memcpy(replies.data() + i * row_bytes, src + served_rows_[i] * row_bytes, row_bytes);
  const std::vector<char> sorted = routes_->backward(replies.data(), row_bytes);
  std::vector<char> rows(requested_ * row_bytes);
  for (std::size_t k = 0; k < requested_; ++k)
    std::memcpy(rows.data() + k * row_bytes, sorted.data() + reply_of_request_[k] * row_bytes,
                row_bytes);
  return rows;
}

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
