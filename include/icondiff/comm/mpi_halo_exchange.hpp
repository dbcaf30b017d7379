// The halo exchange over MPI (issue 12, item 2): HaloExchange<ExecSpace> for a decomposed local
// grid (comm/decomposition.hpp's make_local_grid, or ICON's own arrays through
// grid_from_icon_arrays).
//
// Pattern. Built once in the constructor from the grid's global indices and owner ranks: a point
// is a halo point when its owner is another rank: ICON's HALO / HALO_LEVEL_2 zones, but also the
// halo points of a limited-area grid that ICON stores with the lateral boundary rows and halo
// edges placed after HALO_LEVEL_2, which a zone range would miss. Every
// rank groups its halo points by owner, tells each owner which global ids it needs
// (MPI_Alltoall of the counts, MPI_Alltoallv of the ids) and the owner maps them to its local
// points. Errors (a grid without global ids, an id its claimed owner does not own, ...) are agreed
// on collectively before any further collective step: every rank throws InvalidArgument with the
// same message, naming the rank, the location and the global id; none waits forever.
//
// One exchange. start(space, location, fields, count): 1..8 fields of one location, float or
// double, any number of levels, any leading dimension (padded external memory). It posts the
// receives, packs every field into one buffer with ONE kernel ("icondiff::halo::pack_<location>")
// on `space`, fences `space` (the only fence before the messages), copies the buffer to the host
// (host-staged, the default, on device backends only) and sends. wait(handle) waits for the
// messages, copies the received buffer to the device and unpacks with ONE kernel
// ("icondiff::halo::unpack_<location>"), then fences `space`. Both calls run inside a profiling
// region ("icondiff::halo::start_<location>", "icondiff::halo::wait_<location>").
//
// Several exchanges can be in flight: each occupies one slot of a small pool (its own buffers,
// requests and MPI tag); buffers grow on first use and are reused afterwards, so a steady state
// allocates nothing. All ranks must start and wait for the exchanges in the same order (SPMD),
// as MPI requires of every collective-like pattern.
//
// Transports (MpiHaloTransport): plain MPI_Irecv / MPI_Isend per neighbour (the default), or the
// MPI-3 neighbourhood collective MPI_Ineighbor_alltoallv on a distributed graph communicator per
// location (MPI_Dist_graph_create_adjacent); with the latter the receives are posted together
// with the sends, after packing.
//
// GPU-aware MPI: with `gpu_aware` the device buffers go to MPI directly (no host staging). Its
// default is the CMake option ICONDIFF_GPU_AWARE_MPI (OFF). With host backends (Serial, OpenMP)
// the buffers already live on the host and the option changes nothing.
//
// Compiled only with ICONDIFF_ENABLE_MPI (config.hpp: ICONDIFF_HAVE_MPI); the header is empty
// otherwise.
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/comm/halo_exchange.hpp>
#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icondiff {

/// How the messages of an exchange travel.
enum class MpiHaloTransport {
  PointToPoint,            ///< MPI_Irecv (posted before packing) + MPI_Isend per neighbour
  NeighbourhoodCollective  ///< MPI_Ineighbor_alltoallv on a distributed graph communicator
};

const char* to_string(MpiHaloTransport transport);

/// The build's default of MpiHaloExchangeOptions::gpu_aware (CMake ICONDIFF_GPU_AWARE_MPI).
bool gpu_aware_mpi_default();

struct MpiHaloExchangeOptions {
  MpiHaloTransport transport = MpiHaloTransport::PointToPoint;
  /// Pass device buffers to MPI directly instead of staging them through host buffers.
  /// No effect when the execution space's memory is host memory.
  bool gpu_aware = gpu_aware_mpi_default();
  /// How many exchanges may be in flight at once (each has its own buffers and tag).
  int max_in_flight = 8;
  /// When true, start() agrees on argument errors with every rank (one MPI_Allreduce per
  /// exchange) so that a bad field on one rank makes every rank throw; when false (the default,
  /// no extra synchronisation) each rank checks its own arguments only.
  bool collective_checks = false;
};

/// Number of messages and bytes of one location's pattern on this rank (for reports and tests).
struct MpiHaloPatternInfo {
  int send_neighbours = 0;
  int recv_neighbours = 0;
  index_t send_points = 0;  ///< owned points sent (a point sent to two ranks counts twice)
  index_t recv_points = 0;  ///< halo points received
};

/// What this rank's exchanges of one location cost since construction (or reset_traffic()):
/// for reports and benchmarks. Times are host wall-clock seconds spent inside start() (receives
/// posted, pack kernel, fence, sends) and wait() (completion, unpack kernel, fence).
struct MpiHaloTraffic {
  long long exchanges = 0;
  long long messages_sent = 0;
  long long bytes_sent = 0;
  double start_seconds = 0.0;
  double wait_seconds = 0.0;
};

namespace detail {

/// One side (send or receive) of one location's pattern; per neighbour, a contiguous run of
/// entries in `index`.
template <class MemorySpace>
struct HaloPatternSide {
  std::vector<int> ranks;                     ///< neighbour ranks, ascending
  std::vector<index_t> first;                 ///< first entry of each neighbour
  std::vector<index_t> count;                 ///< entries of each neighbour
  index_t total = 0;                          ///< number of entries
  Kokkos::View<index_t*, MemorySpace> index;  ///< local point of each entry
  /// The pack/unpack kernels' work split: chunks of at most `chunk` consecutive entries of one
  /// neighbour, (first entry, end entry, neighbour's first entry, neighbour's count) each.
  Kokkos::View<index_t* [4], MemorySpace> chunks;
};

}  // namespace detail

template <class ExecSpace>
class MpiHaloExchange final : public HaloExchange<ExecSpace> {
 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int max_fields = 8;

  /// Builds the exchange pattern of `local` on `comm` (collective over `comm`; the communicator
  /// is duplicated). Throws InvalidArgument on every rank when any rank's grid is inconsistent.
  MpiHaloExchange(MPI_Comm comm, const Grid& local, MpiHaloExchangeOptions options = {});
  ~MpiHaloExchange() override;
  MpiHaloExchange(const MpiHaloExchange&) = delete;
  MpiHaloExchange& operator=(const MpiHaloExchange&) = delete;

  HaloExchangeHandle start(const ExecSpace& space, Location location, const HaloField* fields,
                           int count) override;
  void wait(HaloExchangeHandle handle) override;
  bool needs_synchronization() const override { return size_ > 1; }

  int rank() const { return rank_; }
  int size() const { return size_; }
  const MpiHaloExchangeOptions& options() const { return options_; }
  /// True when messages go through host buffers (device memory and not gpu_aware).
  bool host_staged() const { return staged_; }
  MpiHaloPatternInfo pattern_info(Location location) const;
  /// Exchanges in flight now.
  int in_flight() const;
  const MpiHaloTraffic& traffic(Location location) const {
    return traffic_[static_cast<int>(location)];
  }
  void reset_traffic() { traffic_ = {}; }

 private:
  struct Pattern {
    detail::HaloPatternSide<memory_space> send, recv;
    MPI_Comm graph = MPI_COMM_NULL;  ///< neighbourhood transport only
  };
  using DeviceBuffer = Kokkos::View<double*, memory_space>;
  using HostBuffer = Kokkos::View<double*, compat::HostStagingSpace<memory_space>>;  ///< pinned
  struct Slot {
    bool in_use = false;
    int generation = 0;
    Location location = Location::Cell;
    std::optional<ExecSpace> space;
    int num_fields = 0;
    std::array<HaloField, max_fields> fields{};  ///< in message order (doubles first)
    std::size_t point_bytes = 0;                 ///< bytes of one point, all fields and levels
    std::size_t point_stride = 0;                ///< point_bytes rounded up to 8
    DeviceBuffer send_d, recv_d;
    HostBuffer send_h, recv_h;
    std::vector<MPI_Request> requests;
    int num_requests = 0;
    std::vector<int> send_counts, send_displs, recv_counts, recv_displs;  ///< neighbourhood
  };

  void build_patterns(const Grid& local);
  void check_fields(Location location, const HaloField* fields, int count,
                    std::string& error) const;
  void* send_pointer(Slot& slot, std::size_t bytes);
  void* recv_pointer(Slot& slot, std::size_t bytes);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  MpiHaloExchangeOptions options_;
  bool staged_ = false;
  std::array<index_t, 3> points_{};  ///< local grid size per location
  std::array<Pattern, 3> patterns_;
  std::array<MpiHaloTraffic, 3> traffic_{};
  std::vector<Slot> slots_;
  std::array<std::string, 3> pack_label_, unpack_label_, start_region_, wait_region_;
};

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
