// Gathering ranks' parts on one rank (comm/mpi_gather.hpp).
#include <icondiff/comm/mpi_gather.hpp>

#include <fmt/format.h>

#include <climits>

namespace icondiff {

namespace detail {

std::vector<char> gather_elements(MPI_Comm comm, const void* data, long long count,
                                  std::size_t element_bytes, int root,
                                  std::vector<long long>& counts) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  counts.assign(rank == root ? static_cast<std::size_t>(size) : 0, 0);
  check_mpi(MPI_Gather(&count, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, root, comm),
            "MPI_Gather");
  // Counts travel in elements of `element_bytes` bytes (a contiguous datatype), so a part may hold
  // up to INT_MAX elements and the whole up to INT_MAX elements per displacement.
  std::string error;
  std::vector<int> recv_counts, displs;
  long long total = 0;
  if (rank == root) {
    for (long long c : counts) {
      if (c > INT_MAX || total > INT_MAX)
        error = fmt::format("gather_elements: {} elements are more than one MPI call can move",
                            total + c);
      recv_counts.push_back(static_cast<int>(c));
      displs.push_back(static_cast<int>(total));
      total += c;
    }
  }
  agree_on_errors(comm, error);
  MPI_Datatype element;
  check_mpi(MPI_Type_contiguous(static_cast<int>(element_bytes), MPI_BYTE, &element),
            "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&element), "MPI_Type_commit");
  std::vector<char> all(static_cast<std::size_t>(total) * element_bytes);
  const int status = MPI_Gatherv(data, static_cast<int>(count), element, all.data(),
                                 recv_counts.data(), displs.data(), element, root, comm);
  MPI_Type_free(&element);
  check_mpi(status, "MPI_Gatherv");
  return all;
}

}  // namespace detail

std::vector<RankPoints> gather_rank_points(MPI_Comm comm, const RankPoints& mine, int root) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  std::vector<RankPoints> all(rank == root ? static_cast<std::size_t>(size) : 0);
  // Header per rank: rank, num_ranks, global sizes.
  const long long header[5] = {mine.rank, mine.num_ranks, mine.global_size[0], mine.global_size[1],
                               mine.global_size[2]};
  std::vector<long long> counts;
  const std::vector<char> headers =
      detail::gather_elements(comm, header, 5, sizeof(long long), root, counts);
  for (std::size_t r = 0; r < all.size(); ++r) {
    long long h[5];
    std::memcpy(h, headers.data() + r * sizeof h, sizeof h);
    all[r].rank = static_cast<int>(h[0]);
    all[r].num_ranks = static_cast<int>(h[1]);
    for (int l = 0; l < 3; ++l) all[r].global_size[l] = static_cast<index_t>(h[2 + l]);
  }
  const auto unpack = [&](const std::vector<char>& data, auto member) {
    std::size_t offset = 0;
    for (std::size_t r = 0; r < all.size(); ++r) {
      auto& to = member(all[r]);
      using T = typename std::decay_t<decltype(to)>::value_type;
      to.resize(static_cast<std::size_t>(counts[r]));
      std::memcpy(to.data(), data.data() + offset, to.size() * sizeof(T));
      offset += to.size() * sizeof(T);
    }
  };
  for (int l = 0; l < 3; ++l) {
    const auto& ids = mine.global_index[l];
    unpack(
        detail::gather_elements(comm, ids.data(), static_cast<long long>(ids.size()),
                                sizeof(index_t), root, counts),
        [l](RankPoints & p) -> auto& { return p.global_index[l]; });
    const auto& owners = mine.owner_rank[l];
    unpack(
        detail::gather_elements(comm, owners.data(), static_cast<long long>(owners.size()),
                                sizeof(int), root, counts),
        [l](RankPoints & p) -> auto& { return p.owner_rank[l]; });
  }
  return all;
}

}  // namespace icondiff
