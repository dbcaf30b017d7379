#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/mpi_owner_directory.hpp>

#include <fmt/format.h>

#include <numeric>
#include <unordered_map>

namespace icondiff {
namespace {

/// MPI_Alltoallv of index_t values: `send[r]` to rank r; returns what each rank sent here, and
/// in `from` the rank each received value came from.
std::vector<index_t> all_to_all(MPI_Comm comm, const std::vector<std::vector<index_t>>& send,
                                std::vector<int>* from = nullptr) {
  const int size = mpi_size(comm);
  std::vector<int> send_counts(size), recv_counts(size), send_offsets(size), recv_offsets(size);
  for (int r = 0; r < size; ++r) send_counts[r] = static_cast<int>(send[r].size());
  check_mpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm),
            "MPI_Alltoall");
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_offsets.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_offsets.begin(), 0);
  std::vector<index_t> flat;
  for (const auto& values : send) flat.insert(flat.end(), values.begin(), values.end());
  std::vector<index_t> received(static_cast<std::size_t>(recv_offsets.back() + recv_counts.back()));
  static_assert(sizeof(index_t) == sizeof(std::int32_t), "index_t is sent as MPI_INT32_T");
  check_mpi(
      MPI_Alltoallv(flat.data(), send_counts.data(), send_offsets.data(), MPI_INT32_T,
                    received.data(), recv_counts.data(), recv_offsets.data(), MPI_INT32_T, comm),
      "MPI_Alltoallv");
  if (from) {
    from->clear();
    for (int r = 0; r < size; ++r) from->insert(from->end(), recv_counts[r], r);
  }
  return received;
}

}  // namespace

std::vector<int> owners_from_masks(MPI_Comm comm, const std::vector<index_t>& global_index,
                                   const std::vector<unsigned char>& owned,
                                   const std::string& what) {
  const int size = mpi_size(comm), rank = mpi_rank(comm);
  collectively(comm, [&] {
    if (owned.size() != global_index.size())
      throw InvalidArgument(fmt::format("{}: {} owner flags for {} global indices", what,
                                        owned.size(), global_index.size()));
    for (std::size_t i = 0; i < global_index.size(); ++i)
      if (global_index[i] < 0)
        throw InvalidArgument(
            fmt::format("{} {}: global index {} is negative", what, i + 1, global_index[i]));
  });
  const auto home = [&](index_t g) { return static_cast<int>(g % size); };

  // Round 1: owners register their points at the points' home ranks.
  std::vector<std::vector<index_t>> registrations(size);
  for (std::size_t i = 0; i < global_index.size(); ++i)
    if (owned[i]) registrations[home(global_index[i])].push_back(global_index[i]);
  std::vector<int> registered_by;
  const std::vector<index_t> registered = all_to_all(comm, registrations, &registered_by);
  std::unordered_map<index_t, int> directory;
  directory.reserve(registered.size());
  collectively(comm, [&] {
    for (std::size_t i = 0; i < registered.size(); ++i) {
      const auto [it, inserted] = directory.emplace(registered[i], registered_by[i]);
      if (!inserted)
        throw InvalidArgument(
            fmt::format("{} with global index {} (1-based) is owned by ranks {} "
                        "and {}: every point must have exactly one owner",
                        what, registered[i] + 1, it->second, registered_by[i]));
    }
  });

  // Round 2: every rank asks the home ranks for the owners of the points it does not own.
  std::vector<std::vector<index_t>> questions(size);
  for (std::size_t i = 0; i < global_index.size(); ++i)
    if (!owned[i]) questions[home(global_index[i])].push_back(global_index[i]);
  std::vector<int> asked_by;
  const std::vector<index_t> asked = all_to_all(comm, questions, &asked_by);
  std::vector<std::vector<index_t>> answers(size);
  for (std::size_t i = 0; i < asked.size(); ++i) {
    const auto it = directory.find(asked[i]);
    answers[asked_by[i]].push_back(it == directory.end() ? -1 : it->second);
  }
  // Answers come back in the order of the questions, grouped by home rank.
  const std::vector<index_t> answered = all_to_all(comm, answers);
  std::vector<int> owner(global_index.size(), rank);
  std::vector<std::size_t> next(size, 0);
  std::vector<std::size_t> offset(size, 0);
  for (int r = 1; r < size; ++r) offset[r] = offset[r - 1] + questions[r - 1].size();
  collectively(comm, [&] {
    for (std::size_t i = 0; i < global_index.size(); ++i) {
      if (owned[i]) continue;
      const int h = home(global_index[i]);
      const index_t o = answered[offset[h] + next[h]++];
      if (o < 0)
        throw InvalidArgument(fmt::format(
            "{} {} (global index {}, 1-based) is a halo point of rank {} but no rank owns it", what,
            i + 1, global_index[i] + 1, rank));
      owner[i] = static_cast<int>(o);
    }
  });
  return owner;
}

}  // namespace icondiff
