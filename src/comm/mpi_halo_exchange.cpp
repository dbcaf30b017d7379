// MpiHaloExchange: pattern construction from global ids and owners, one pack and one unpack
// kernel per exchange, point-to-point or neighbourhood-collective transport. See
// comm/mpi_halo_exchange.hpp.
#include <icondiff/comm/mpi_halo_exchange.hpp>

#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <unordered_map>

namespace icondiff {

static_assert(std::is_same_v<index_t, std::int32_t>, "global ids travel as MPI_INT32_T");

const char* to_string(MpiHaloTransport transport) {
  switch (transport) {
    case MpiHaloTransport::PointToPoint: return "point-to-point";
    case MpiHaloTransport::NeighbourhoodCollective: return "neighbourhood-collective";
  }
  return "?";
}

bool gpu_aware_mpi_default() {
#if defined(ICONDIFF_GPU_AWARE_MPI_DEFAULT) && ICONDIFF_GPU_AWARE_MPI_DEFAULT
  return true;
#else
  return false;
#endif
}

namespace {

constexpr int loc_index(Location location) {
  return static_cast<int>(location);
}
/// Tags of the point-to-point transport: one per in-flight slot (on a duplicated communicator).
constexpr int tag_base = 4200;
constexpr int max_halo_fields = 8;

const char* plural(Location location) {
  return location == Location::Cell ? "cells" : location == Location::Edge ? "edges" : "vertices";
}

/// Checks one rank's local grid; returns the first problem or "".
std::string check_local_grid(const Grid& local, int rank, int size) {
  if (size > 1 && (local.rank != rank || local.num_ranks != size))
    return fmt::format("rank {}: the local grid is rank {} of {} ranks, the communicator has {}",
                       rank, local.rank, local.num_ranks, size);
  for (Location location : all_locations) {
    const auto n = static_cast<std::size_t>(local.size(location));
    const auto& global = local.global_index(location);
    const auto& owner = local.owner_rank(location);
    const char* name = to_string(location);
    if (global.empty() && owner.empty()) {
      if (size > 1)
        return fmt::format(
            "rank {}: the local grid has no {} global indices and owner ranks (a grid that is "
            "not decomposed cannot be exchanged on {} ranks)",
            rank, name, size);
      continue;
    }
    if (global.size() != n || owner.size() != n)
      return fmt::format(
          "rank {}: the local grid has {} {} but {} {} global indices and {} owner ranks", rank, n,
          plural(location), global.size(), name, owner.size());
    std::unordered_map<index_t, index_t> seen;
    seen.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (owner[i] < 0 || owner[i] >= size)
        return fmt::format("rank {}: {} {} (global id {}) has owner rank {}, outside [0, {})", rank,
                           name, i, global[i], owner[i], size);
      if (global[i] < 0)
        return fmt::format("rank {}: {} {} has the negative global id {}", rank, name, i,
                           global[i]);
      const auto [it, inserted] = seen.emplace(global[i], static_cast<index_t>(i));
      if (!inserted)
        return fmt::format("rank {}: {} global id {} appears twice in the local grid ({} and {})",
                           rank, name, global[i], it->second, i);
    }
  }
  return {};
}

/// Sorts the points (local index, key rank) by rank, keeping the local order within a rank, and
/// fills a pattern side's host part; returns the local indices in that order.
template <class Side>
std::vector<index_t> group_by_rank(Side& side, std::vector<std::pair<int, index_t>> points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<index_t> order(points.size());
  side.ranks.clear();
  side.first.clear();
  side.count.clear();
  for (std::size_t e = 0; e < points.size(); ++e) {
    order[e] = points[e].second;
    if (side.ranks.empty() || side.ranks.back() != points[e].first) {
      side.ranks.push_back(points[e].first);
      side.first.push_back(static_cast<index_t>(e));
      side.count.push_back(0);
    }
    ++side.count.back();
  }
  side.total = static_cast<index_t>(points.size());
  return order;
}

/// Entries per work item of the pack/unpack kernels: a CPU thread copies a run of one
/// neighbour's entries at one level of one field (contiguous in the buffer); a GPU thread one
/// entry, consecutive threads consecutive entries.
template <class MemorySpace>
constexpr index_t entries_per_chunk() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible ? 128 : 1;
}

/// Copies a pattern side's tables to `MemorySpace`.
template <class MemorySpace>
void upload(detail::HaloPatternSide<MemorySpace>& side, const std::vector<index_t>& order,
            const std::string& label) {
  side.index = Kokkos::View<index_t*, MemorySpace>(label + "_index", order.size());
  auto index = Kokkos::create_mirror_view(side.index);
  for (std::size_t e = 0; e < order.size(); ++e) index(e) = order[e];
  Kokkos::deep_copy(side.index, index);
  constexpr index_t chunk = entries_per_chunk<MemorySpace>();
  std::vector<std::array<index_t, 4>> chunks;
  for (std::size_t j = 0; j < side.ranks.size(); ++j)
    for (index_t e = side.first[j]; e < side.first[j] + side.count[j]; e += chunk)
      chunks.push_back(
          {e, std::min(e + chunk, side.first[j] + side.count[j]), side.first[j], side.count[j]});
  side.chunks = Kokkos::View<index_t* [4], MemorySpace>(label + "_chunks", chunks.size());
  auto c = Kokkos::create_mirror_view(side.chunks);
  for (std::size_t q = 0; q < chunks.size(); ++q)
    for (int a = 0; a < 4; ++a) c(q, a) = chunks[q][a];
  Kokkos::deep_copy(side.chunks, c);
}

/// Packs (Unpack = false) the fields' values at the side's entries into a byte buffer or unpacks
/// them (Unpack = true). Buffer layout: one message per neighbour at byte first * stride; within
/// it, field after field (doubles first, so every double stays 8-byte aligned), level after
/// level, the neighbour's entries in order. One work item per (row, chunk), a row being one
/// level of one field: the field, level and message position are computed once per item.
template <class MemorySpace, bool Unpack>
struct PackHalo {
  using Buffer = std::conditional_t<Unpack, const char*, char*>;
  Buffer buffer;
  Kokkos::View<const index_t*, MemorySpace> index;
  Kokkos::View<const index_t* [4], MemorySpace> chunks;
  index_t num_chunks = 1;
  std::int64_t stride = 0;  ///< bytes of one point in the buffer (all fields, 8-aligned)
  void* data[max_halo_fields] = {};
  std::int64_t point_stride[max_halo_fields] = {};  ///< elements between points of field f
  std::int64_t level_stride[max_halo_fields] = {};  ///< elements between levels of field f
  std::int64_t element_size[max_halo_fields] = {};
  index_t level_end[max_halo_fields] = {};          ///< cumulative levels up to field f
  std::int64_t bytes_before[max_halo_fields] = {};  ///< bytes of one point in fields before f

  template <class T>
  KOKKOS_INLINE_FUNCTION void copy(T* field, std::int64_t ps, std::int64_t row_bytes,
                                   index_t q) const {
    const index_t e0 = chunks(q, 0), e1 = chunks(q, 1), f0 = chunks(q, 2), c = chunks(q, 3);
    // This row of the message to the chunk's neighbour: contiguous, entry e at [e - f0].
    const std::int64_t offset = f0 * stride + c * row_bytes;
    if constexpr (Unpack) {
      const T* row = reinterpret_cast<const T*>(buffer + offset) - f0;
      for (index_t e = e0; e < e1; ++e) field[index(e) * ps] = row[e];
    } else {
      T* row = reinterpret_cast<T*>(buffer + offset) - f0;
      for (index_t e = e0; e < e1; ++e) row[e] = field[index(e) * ps];
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t item) const {
    const index_t r = item / num_chunks, q = item - r * num_chunks;
    int f = 0;
    while (r >= level_end[f]) ++f;
    const std::int64_t k = r - (f > 0 ? level_end[f - 1] : 0);
    const std::int64_t row_bytes = bytes_before[f] + k * element_size[f];
    if (element_size[f] == 8)
      copy(static_cast<double*>(data[f]) + k * level_stride[f], point_stride[f], row_bytes, q);
    else
      copy(static_cast<float*>(data[f]) + k * level_stride[f], point_stride[f], row_bytes, q);
  }
};

/// One pack or unpack kernel over all rows of the slot's fields x the side's chunks.
template <class ExecSpace, bool Unpack, class Slot, class Side>
void launch_pack(const std::string& label, const ExecSpace& space, const Slot& slot,
                 const Side& side,
                 typename PackHalo<typename ExecSpace::memory_space, Unpack>::Buffer buffer) {
  PackHalo<typename ExecSpace::memory_space, Unpack> p;
  p.buffer = buffer;
  p.index = side.index;
  p.chunks = side.chunks;
  p.num_chunks = static_cast<index_t>(side.chunks.extent(0));
  p.stride = static_cast<std::int64_t>(slot.point_stride);
  index_t levels = 0;
  std::int64_t bytes = 0;
  for (int f = 0; f < slot.num_fields; ++f) {
    const HaloField& h = slot.fields[f];
    p.data[f] = h.data;
    p.point_stride[f] = static_cast<std::int64_t>(h.point_stride);
    p.level_stride[f] = static_cast<std::int64_t>(h.level_stride);
    p.element_size[f] = static_cast<std::int64_t>(h.element_size);
    p.bytes_before[f] = bytes;
    levels += static_cast<index_t>(h.levels);
    bytes += static_cast<std::int64_t>(h.levels * h.element_size);
    p.level_end[f] = levels;
  }
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space, 0, levels * p.num_chunks),
      p);
}

}  // namespace

// ---- Construction ---------------------------------------------------------------------------

template <class ExecSpace>
MpiHaloExchange<ExecSpace>::MpiHaloExchange(MPI_Comm comm, const Grid& local,
                                            MpiHaloExchangeOptions options)
    : options_(options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw InvalidArgument("MpiHaloExchange: MPI is not initialised");
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  constexpr bool host_memory =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  staged_ = !host_memory && !options_.gpu_aware;
  for (Location location : all_locations) {
    const int l = loc_index(location);
    const std::string name = to_string(location);
    points_[l] = local.size(location);
    pack_label_[l] = "icondiff::halo::pack_" + name;
    unpack_label_[l] = "icondiff::halo::unpack_" + name;
    start_region_[l] = "icondiff::halo::start_" + name;
    wait_region_[l] = "icondiff::halo::wait_" + name;
  }
  try {
    std::string error;
    if (options_.max_in_flight < 1 || options_.max_in_flight > 1000)
      error = fmt::format("rank {}: max_in_flight = {}, expected 1..1000", rank_,
                          options_.max_in_flight);
    if (error.empty()) error = check_local_grid(local, rank_, size_);
    agree_on_errors(comm_, error);
    build_patterns(local);
  } catch (...) {
    for (Pattern& p : patterns_)
      if (p.graph != MPI_COMM_NULL) MPI_Comm_free(&p.graph);
    MPI_Comm_free(&comm_);
    throw;
  }

  std::size_t max_neighbours = 0;
  for (const Pattern& p : patterns_)
    max_neighbours = std::max(max_neighbours, p.send.ranks.size() + p.recv.ranks.size());
  slots_.resize(static_cast<std::size_t>(options_.max_in_flight));
  for (Slot& slot : slots_) {
    slot.requests.assign(max_neighbours + 1, MPI_REQUEST_NULL);
    if (options_.transport == MpiHaloTransport::NeighbourhoodCollective) {
      slot.send_counts.assign(max_neighbours + 1, 0);
      slot.send_displs.assign(max_neighbours + 1, 0);
      slot.recv_counts.assign(max_neighbours + 1, 0);
      slot.recv_displs.assign(max_neighbours + 1, 0);
    }
  }
}

template <class ExecSpace>
void MpiHaloExchange<ExecSpace>::build_patterns(const Grid& local) {
  std::string error;
  for (Location location : all_locations) {
    const int l = loc_index(location);
    Pattern& pattern = patterns_[l];
    const char* name = to_string(location);
    const auto& global = local.global_index(location);
    const auto& owner = local.owner_rank(location);
    const index_t n = local.size(location);

    // Receive side: every point owned by another rank, grouped by owner.
    std::vector<std::pair<int, index_t>> halo;
    if (!owner.empty())
      for (index_t i = 0; i < n; ++i)
        if (owner[i] != rank_) halo.emplace_back(owner[i], i);
    const std::vector<index_t> recv_order = group_by_rank(pattern.recv, std::move(halo));

    // Tell every owner which global ids it must send.
    std::vector<int> want(size_, 0), asked(size_, 0);
    for (std::size_t j = 0; j < pattern.recv.ranks.size(); ++j)
      want[pattern.recv.ranks[j]] = pattern.recv.count[j];
    check_mpi(MPI_Alltoall(want.data(), 1, MPI_INT, asked.data(), 1, MPI_INT, comm_),
              "MPI_Alltoall");
    std::vector<int> want_displs(size_, 0), asked_displs(size_, 0);
    for (int r = 1; r < size_; ++r) {
      want_displs[r] = want_displs[r - 1] + want[r - 1];
      asked_displs[r] = asked_displs[r - 1] + asked[r - 1];
    }
    std::vector<index_t> want_ids(recv_order.size());
    for (std::size_t e = 0; e < recv_order.size(); ++e) want_ids[e] = global[recv_order[e]];
    const std::size_t num_asked =
        size_ > 0 ? static_cast<std::size_t>(asked_displs[size_ - 1] + asked[size_ - 1]) : 0;
    std::vector<index_t> asked_ids(num_asked);
    check_mpi(
        MPI_Alltoallv(want_ids.data(), want.data(), want_displs.data(), MPI_INT32_T,
                      asked_ids.data(), asked.data(), asked_displs.data(), MPI_INT32_T, comm_),
        "MPI_Alltoallv");

    // Send side: the owner maps the ids to its local points.
    std::unordered_map<index_t, index_t> local_of;
    local_of.reserve(global.size());
    for (std::size_t i = 0; i < global.size(); ++i)
      local_of.emplace(global[i], static_cast<index_t>(i));
    std::vector<std::pair<int, index_t>> sends;
    sends.reserve(num_asked);
    for (int r = 0; r < size_ && error.empty(); ++r)
      for (int e = asked_displs[r]; e < asked_displs[r] + asked[r]; ++e) {
        const index_t id = asked_ids[e];
        const auto it = local_of.find(id);
        if (it == local_of.end()) {
          error = fmt::format(
              "rank {} needs {} global id {} from rank {}, but rank {}'s local grid does not "
              "have that {}",
              r, name, id, rank_, rank_, name);
          break;
        }
        if (owner[it->second] != rank_) {
          error = fmt::format(
              "rank {} needs {} global id {} from rank {}, but rank {} does not own it (its "
              "local {} {} is owned by rank {})",
              r, name, id, rank_, rank_, name, it->second, owner[it->second]);
          break;
        }
        sends.emplace_back(r, it->second);
      }
    const std::vector<index_t> send_order = group_by_rank(pattern.send, std::move(sends));
    if (error.empty()) {
      const std::string label = std::string("icondiff::halo::") + name;
      upload(pattern.recv, recv_order, label + "_recv");
      upload(pattern.send, send_order, label + "_send");
    }
  }
  agree_on_errors(comm_, error);

  if (options_.transport == MpiHaloTransport::NeighbourhoodCollective) {
    for (Pattern& pattern : patterns_) {
      const auto sources = static_cast<int>(pattern.recv.ranks.size());
      const auto destinations = static_cast<int>(pattern.send.ranks.size());
      check_mpi(MPI_Dist_graph_create_adjacent(
                    comm_, sources, pattern.recv.ranks.data(), MPI_UNWEIGHTED, destinations,
                    pattern.send.ranks.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &pattern.graph),
                "MPI_Dist_graph_create_adjacent");
    }
  }
}

template <class ExecSpace>
MpiHaloExchange<ExecSpace>::~MpiHaloExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // Exchanges still in flight (an exception between start and wait) are abandoned.
  for (Slot& slot : slots_)
    if (slot.in_use)
      for (int q = 0; q < slot.num_requests; ++q)
        if (slot.requests[q] != MPI_REQUEST_NULL) {
          MPI_Cancel(&slot.requests[q]);
          MPI_Request_free(&slot.requests[q]);
        }
  for (Pattern& p : patterns_)
    if (p.graph != MPI_COMM_NULL) MPI_Comm_free(&p.graph);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

template <class ExecSpace>
MpiHaloPatternInfo MpiHaloExchange<ExecSpace>::pattern_info(Location location) const {
  const Pattern& p = patterns_[loc_index(location)];
  return {static_cast<int>(p.send.ranks.size()), static_cast<int>(p.recv.ranks.size()),
          p.send.total, p.recv.total};
}

template <class ExecSpace>
int MpiHaloExchange<ExecSpace>::in_flight() const {
  return static_cast<int>(
      std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.in_use; }));
}

// ---- One exchange -----------------------------------------------------------------------------

template <class ExecSpace>
void MpiHaloExchange<ExecSpace>::check_fields(Location location, const HaloField* fields, int count,
                                              std::string& error) const {
  const int l = loc_index(location);
  if (l < 0 || l > 2) {
    error = fmt::format("rank {}: MpiHaloExchange::start: unknown location {}", rank_, l);
    return;
  }
  const char* name = to_string(location);
  if (count < 1 || count > max_fields) {
    error = fmt::format("rank {}: MpiHaloExchange::start({}): {} fields, expected 1..{}", rank_,
                        name, count, max_fields);
    return;
  }
  if (fields == nullptr) {
    error = fmt::format("rank {}: MpiHaloExchange::start({}): null field list", rank_, name);
    return;
  }
  for (int f = 0; f < count; ++f) {
    const HaloField& h = fields[f];
    const auto problem = [&](const std::string& what) {
      error = fmt::format("rank {}: MpiHaloExchange::start({}): field {} {}", rank_, name, f, what);
    };
    if (h.points != static_cast<std::size_t>(points_[l]))
      problem(fmt::format("has {} points, the local grid has {} {}", h.points, points_[l],
                          plural(location)));
    else if (h.element_size != sizeof(float) && h.element_size != sizeof(double))
      problem(fmt::format("has element size {}, expected 4 (float) or 8 (double)", h.element_size));
    else if (h.levels < 1)
      problem("has no levels");
    else if (!(h.levels == 1 || h.points <= 1 ||
               (h.point_stride == 1 && h.level_stride >= h.points) ||
               (h.level_stride == 1 && h.point_stride >= h.levels)))
      problem(
          fmt::format("has point stride {} and level stride {}, which overlap for {} points "
                      "and {} levels",
                      h.point_stride, h.level_stride, h.points, h.levels));
    else if (h.data == nullptr && h.points > 0)
      problem("has no data");
    if (!error.empty()) return;
  }
}

template <class ExecSpace>
void* MpiHaloExchange<ExecSpace>::send_pointer(Slot& slot, std::size_t bytes) {
  const std::size_t words = (bytes + 7) / 8;
  if (slot.send_d.extent(0) < words)
    slot.send_d = DeviceBuffer(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::halo::send_buffer"), words);
  if (staged_ && slot.send_h.extent(0) < words)
    slot.send_h = HostBuffer(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::halo::send_host_buffer"), words);
  return slot.send_d.data();
}

template <class ExecSpace>
void* MpiHaloExchange<ExecSpace>::recv_pointer(Slot& slot, std::size_t bytes) {
  const std::size_t words = (bytes + 7) / 8;
  if (slot.recv_d.extent(0) < words)
    slot.recv_d = DeviceBuffer(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::halo::recv_buffer"), words);
  if (staged_ && slot.recv_h.extent(0) < words)
    slot.recv_h = HostBuffer(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::halo::recv_host_buffer"), words);
  return slot.recv_d.data();
}

template <class ExecSpace>
HaloExchangeHandle MpiHaloExchange<ExecSpace>::start(const ExecSpace& space, Location location,
                                                     const HaloField* fields, int count) {
  std::string error;
  check_fields(location, fields, count, error);
  int free_slot = -1;
  if (error.empty()) {
    for (std::size_t s = 0; s < slots_.size() && free_slot < 0; ++s)
      if (!slots_[s].in_use) free_slot = static_cast<int>(s);
    if (free_slot < 0)
      error = fmt::format(
          "rank {}: MpiHaloExchange::start({}): {} exchanges are in flight already "
          "(MpiHaloExchangeOptions::max_in_flight)",
          rank_, to_string(location), slots_.size());
  }
  if (options_.collective_checks)
    agree_on_errors(comm_, error);
  else if (!error.empty())
    throw InvalidArgument(error);

  const int l = loc_index(location);
  compat::ScopedRegion region(start_region_[l]);
  const auto started = std::chrono::steady_clock::now();
  Pattern& pattern = patterns_[l];
  Slot& slot = slots_[static_cast<std::size_t>(free_slot)];

  // Message order: doubles first (8-byte alignment of every double in the buffer).
  slot.num_fields = 0;
  slot.point_bytes = 0;
  for (const std::size_t size : {sizeof(double), sizeof(float)})
    for (int f = 0; f < count; ++f)
      if (fields[f].element_size == size) {
        slot.fields[slot.num_fields++] = fields[f];
        slot.point_bytes += fields[f].levels * fields[f].element_size;
      }
  slot.point_stride = (slot.point_bytes + 7) / 8 * 8;
  const std::size_t send_bytes = static_cast<std::size_t>(pattern.send.total) * slot.point_stride;
  const std::size_t recv_bytes = static_cast<std::size_t>(pattern.recv.total) * slot.point_stride;
  if (std::max(send_bytes, recv_bytes) > static_cast<std::size_t>(INT_MAX))
    throw InvalidArgument(fmt::format(
        "rank {}: MpiHaloExchange::start({}): {} bytes to send or receive exceed MPI's int counts",
        rank_, to_string(location), std::max(send_bytes, recv_bytes)));

  static_assert(max_halo_fields == max_fields);
  slot.in_use = true;
  slot.generation = (slot.generation + 1) % (INT_MAX / static_cast<int>(slots_.size()));
  slot.location = location;
  slot.space = space;
  slot.num_requests = 0;
  char* send_d = static_cast<char*>(send_pointer(slot, send_bytes));
  char* recv_d = static_cast<char*>(recv_pointer(slot, recv_bytes));
  char* send_mpi = staged_ ? reinterpret_cast<char*>(slot.send_h.data()) : send_d;
  char* recv_mpi = staged_ ? reinterpret_cast<char*>(slot.recv_h.data()) : recv_d;
  const int tag = tag_base + free_slot;
  const bool p2p = options_.transport == MpiHaloTransport::PointToPoint;

  // 1. Receives first.
  if (p2p)
    for (std::size_t j = 0; j < pattern.recv.ranks.size(); ++j)
      check_mpi(MPI_Irecv(recv_mpi + pattern.recv.first[j] * slot.point_stride,
                          static_cast<int>(pattern.recv.count[j] * slot.point_bytes), MPI_BYTE,
                          pattern.recv.ranks[j], tag, comm_, &slot.requests[slot.num_requests++]),
                "MPI_Irecv");

  // 2. One pack kernel, 3. the fence before the messages (after the host copy when staged).
  if (pattern.send.total > 0) {
    launch_pack<ExecSpace, false>(pack_label_[l], space, slot, pattern.send, send_d);
    if (staged_) {
      const std::pair<std::size_t, std::size_t> words{0, (send_bytes + 7) / 8};
      Kokkos::deep_copy(space, Kokkos::subview(slot.send_h, words),
                        Kokkos::subview(slot.send_d, words));
    }
    compat::fence(space, start_region_[l]);
  }

  // 4. The messages.
  if (p2p) {
    for (std::size_t j = 0; j < pattern.send.ranks.size(); ++j)
      check_mpi(MPI_Isend(send_mpi + pattern.send.first[j] * slot.point_stride,
                          static_cast<int>(pattern.send.count[j] * slot.point_bytes), MPI_BYTE,
                          pattern.send.ranks[j], tag, comm_, &slot.requests[slot.num_requests++]),
                "MPI_Isend");
  } else {
    for (std::size_t j = 0; j < pattern.send.ranks.size(); ++j) {
      slot.send_counts[j] = static_cast<int>(pattern.send.count[j] * slot.point_bytes);
      slot.send_displs[j] = static_cast<int>(pattern.send.first[j] * slot.point_stride);
    }
    for (std::size_t j = 0; j < pattern.recv.ranks.size(); ++j) {
      slot.recv_counts[j] = static_cast<int>(pattern.recv.count[j] * slot.point_bytes);
      slot.recv_displs[j] = static_cast<int>(pattern.recv.first[j] * slot.point_stride);
    }
    check_mpi(MPI_Ineighbor_alltoallv(send_mpi, slot.send_counts.data(), slot.send_displs.data(),
                                      MPI_BYTE, recv_mpi, slot.recv_counts.data(),
                                      slot.recv_displs.data(), MPI_BYTE, pattern.graph,
                                      &slot.requests[slot.num_requests++]),
              "MPI_Ineighbor_alltoallv");
  }
  MpiHaloTraffic& traffic = traffic_[l];
  ++traffic.exchanges;
  traffic.messages_sent += static_cast<long long>(pattern.send.ranks.size());
  traffic.bytes_sent +=
      static_cast<long long>(pattern.send.total) * static_cast<long long>(slot.point_bytes);
  traffic.start_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return {slot.generation * static_cast<int>(slots_.size()) + free_slot};
}

template <class ExecSpace>
void MpiHaloExchange<ExecSpace>::wait(HaloExchangeHandle handle) {
  const int num_slots = static_cast<int>(slots_.size());
  const int s = handle.id >= 0 ? handle.id % num_slots : -1;
  if (s < 0 || !slots_[s].in_use || slots_[s].generation != handle.id / num_slots)
    throw InvalidArgument(fmt::format(
        "rank {}: MpiHaloExchange::wait: handle {} names no exchange in flight (waited for "
        "twice, or not from this exchange)",
        rank_, handle.id));
  Slot& slot = slots_[s];
  const int l = loc_index(slot.location);
  compat::ScopedRegion region(wait_region_[l]);
  const auto started = std::chrono::steady_clock::now();
  const Pattern& pattern = patterns_[l];
  const ExecSpace& space = *slot.space;

  check_mpi(MPI_Waitall(slot.num_requests, slot.requests.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
  slot.num_requests = 0;
  if (pattern.recv.total > 0) {
    const std::size_t recv_bytes = static_cast<std::size_t>(pattern.recv.total) * slot.point_stride;
    if (staged_) {
      const std::pair<std::size_t, std::size_t> words{0, (recv_bytes + 7) / 8};
      Kokkos::deep_copy(space, Kokkos::subview(slot.recv_d, words),
                        Kokkos::subview(slot.recv_h, words));
    }
    launch_pack<ExecSpace, true>(unpack_label_[l], space, slot, pattern.recv,
                                 reinterpret_cast<const char*>(slot.recv_d.data()));
    compat::fence(space, wait_region_[l]);
  }
  slot.in_use = false;
  slot.space.reset();
  traffic_[l].wait_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

#define ICONDIFF_INSTANTIATE_MPI_HALO_EXCHANGE(SPACE) template class MpiHaloExchange<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_MPI_HALO_EXCHANGE)
#undef ICONDIFF_INSTANTIATE_MPI_HALO_EXCHANGE

}  // namespace icondiff
