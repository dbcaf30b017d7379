// MpiHaloExchange on 1..N ranks (ctest runs it with mpirun -np 1, 2, 3, 4 --oversubscribe):
//  * halo test with global ids: owned points of cell, edge and vertex fields (double and float,
//    full and half levels, padded external memory) hold a function of (field, global id, level),
//    halo points are poisoned with NaN; after the exchange every halo point of every rank holds
//    its owner's value and nothing else changed (padding rows included). Generated R2B2/R2B3
//    global grids and the global / limited-area grids of test_grids.hpp, both transports;
//  * several exchanges in flight (start A, start B, wait B, wait A; the same location twice)
//    give the same result;
//  * bad input never hangs: a local grid whose halo global id is not owned by the claimed owner,
//    a grid that is not decomposed, a field of the wrong size: every rank throws
//    InvalidArgument (ctest's TIMEOUT catches a hang);
//  * one pack and one unpack kernel per exchange, labelled; regions; no allocation in a steady
//    state; fences only before the messages and in wait;
//  * timings: 4 fields x 65 levels, point-to-point vs neighbourhood collective (printed).
// Its own main: MPI_Init, Kokkos; failures are printed on every rank (prefixed with the rank) and
// the exit code is non-zero when any rank failed.
#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <support/test_grids.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace icondiff {
namespace mpi_halo_test {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// Calls f(Space()) for every enabled execution space.
template <class F>
void for_each_space(F&& f) {
#define ICONDIFF_TEST_CALL(SPACE) f(SPACE());
  ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_TEST_CALL)
#undef ICONDIFF_TEST_CALL
}

/// True on every rank when `ok` is true on every rank.
bool all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// ---- Grids ---------------------------------------------------------------------------------

struct GlobalGrid {
  std::string name;
  std::shared_ptr<const Grid> grid;
};

/// Generated R2B2 and R2B3 global grids, and test_grids.hpp's global and limited-area grids
/// (the real R02B03 / R19B04 files when present). Built once per process.
const std::vector<GlobalGrid>& global_grids() {
  static const std::vector<GlobalGrid> grids = [] {
    std::vector<GlobalGrid> g;
    for (const char* source : {"generate:R2B2", "generate:R2B3"})
      g.push_back({source, std::make_shared<Grid>(load_grid_source(source))});
    for (auto& c : test::global_and_lam_grids())
      g.push_back({c.name, std::make_shared<Grid>(std::move(c.grid))});
    return g;
  }();
  return grids;
}

/// This rank's local grid of `global` on MPI_COMM_WORLD (the same METIS partition everywhere).
Grid local_grid(const Grid& global) {
  const int n = world_size();
  return make_local_grid(global, partition_cells(global, n), world_rank(), n);
}

index_t global_id(const Grid& g, Location l, index_t i) {
  const auto& ids = g.global_index(l);
  return ids.empty() ? i : ids[i];
}
bool owned(const Grid& g, Location l, index_t i) {
  const auto& o = g.owner_rank(l);
  return o.empty() || o[i] == g.rank;
}

// ---- Fields ----------------------------------------------------------------------------------

/// The value of field `id` at (global id, level): an integer below 2^24, exact in float.
double expected_value(int id, index_t gid, int k) {
  return static_cast<double>((static_cast<std::int64_t>(gid) * 16 + k) * 8 + id);
}
constexpr double padding_value = -7.0;

/// One field of an exchange in raw memory of `leading_dimension * levels` elements, so padded
/// (external, nproma > points) memory is covered, or level-fastest (each point's levels
/// contiguous, icondiff's other field layout); data lives in `MemorySpace`.
template <class MemorySpace>
struct TestField {
  int id = 0;
  Location location = Location::Cell;
  bool single = false;  ///< float instead of double
  index_t points = 0;
  int levels = 0;
  std::size_t leading_dimension = 0;
  bool level_fastest = false;  ///< (i, k) at i * levels + k instead of k * leading_dimension + i
  Kokkos::View<double*, MemorySpace> d;
  Kokkos::View<float*, MemorySpace> f;

  std::size_t at(std::size_t i, int k) const {
    return level_fastest ? i * levels + k : k * leading_dimension + i;
  }

  HaloField halo() const {
    return {single ? static_cast<void*>(f.data()) : static_cast<void*>(d.data()),
            static_cast<std::size_t>(points),
            static_cast<std::size_t>(levels),
            single ? sizeof(float) : sizeof(double),
            level_fastest ? static_cast<std::size_t>(levels) : 1,
            level_fastest ? 1 : leading_dimension};
  }

  /// Owned points: their value; halo points: NaN; padding rows: padding_value.
  void fill(const Grid& g) {
    std::vector<double> h(leading_dimension * levels, padding_value);
    for (int k = 0; k < levels; ++k)
      for (index_t i = 0; i < points; ++i)
        h[at(i, k)] =
            owned(g, location, i) ? expected_value(id, global_id(g, location, i), k) : std::nan("");
    if (single) {
      auto m = Kokkos::create_mirror_view(f);
      for (std::size_t j = 0; j < h.size(); ++j) m(j) = static_cast<float>(h[j]);
      Kokkos::deep_copy(f, m);
    } else {
      auto m = Kokkos::create_mirror_view(d);
      for (std::size_t j = 0; j < h.size(); ++j) m(j) = h[j];
      Kokkos::deep_copy(d, m);
    }
  }

  /// Every point (owned and halo) holds its value, padding untouched; the first mismatch.
  ::testing::AssertionResult check(const Grid& g) const {
    std::vector<double> h(leading_dimension * levels);
    if (single) {
      auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
      for (std::size_t j = 0; j < h.size(); ++j) h[j] = m(j);
    } else {
      auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
      for (std::size_t j = 0; j < h.size(); ++j) h[j] = m(j);
    }
    for (int k = 0; k < levels; ++k)
      for (std::size_t i = 0; i < leading_dimension; ++i) {
        const double got = h[at(i, k)];
        const bool point = i < static_cast<std::size_t>(points);
        const index_t li = static_cast<index_t>(i);
        const double want =
            point ? expected_value(id, global_id(g, location, li), k) : padding_value;
        if (!(got == want))
          return ::testing::AssertionFailure()
                 << "rank " << g.rank << ": field " << id << " (" << to_string(location) << ", "
                 << (single ? "float" : "double") << ", " << levels << " levels, ld "
                 << leading_dimension << (level_fastest ? ", level-fastest" : "") << ") "
                 << (point ? (owned(g, location, li) ? "owned" : "halo") : "padding") << " row "
                 << i << " (global id " << (point ? global_id(g, location, li) : -1) << ") level "
                 << k << " = " << got << ", expected " << want;
      }
    return ::testing::AssertionSuccess();
  }
};

template <class MemorySpace>
TestField<MemorySpace> make_field(const Grid& g, int id, Location location, bool single, int levels,
                                  index_t padding = 0, bool level_fastest = false) {
  TestField<MemorySpace> t;
  t.level_fastest = level_fastest;
  t.id = id;
  t.location = location;
  t.single = single;
  t.points = g.size(location);
  t.levels = levels;
  t.leading_dimension = static_cast<std::size_t>(t.points + padding);
  const std::size_t n = t.leading_dimension * levels;
  if (single)
    t.f = Kokkos::View<float*, MemorySpace>("float_field", n);
  else
    t.d = Kokkos::View<double*, MemorySpace>("double_field", n);
  t.fill(g);
  return t;
}

constexpr int nlev = 7;  // full levels; half levels: nlev + 1

/// The fields of one location: double full, float half, double half padded (external memory),
/// float full padded, double half level-fastest.
template <class MemorySpace>
std::vector<TestField<MemorySpace>> location_fields(const Grid& g, Location l, int first_id) {
  return {make_field<MemorySpace>(g, first_id, l, false, nlev),
          make_field<MemorySpace>(g, first_id + 1, l, true, nlev + 1),
          make_field<MemorySpace>(g, first_id + 2, l, false, nlev + 1, 13),
          make_field<MemorySpace>(g, first_id + 3, l, true, nlev, 5),
          make_field<MemorySpace>(g, first_id + 4, l, false, nlev + 1, 0, true)};
}

template <class MemorySpace>
std::vector<HaloField> halos(const std::vector<TestField<MemorySpace>>& fields) {
  std::vector<HaloField> h;
  for (const auto& f : fields) h.push_back(f.halo());
  return h;
}

/// Number of halo points (owned by another rank) of a location on this rank.
index_t halo_points(const Grid& g, Location l) {
  index_t n = 0;
  for (index_t i = 0; i < g.size(l); ++i) n += owned(g, l, i) ? 0 : 1;
  return n;
}

// ---- (a) Halo test with global ids ------------------------------------------------------------

TEST(MpiHaloExchange, fills_every_halo_point_with_its_owners_value) {
  for (const GlobalGrid& gg : global_grids()) {
    SCOPED_TRACE(gg.name);
    const Grid local = local_grid(*gg.grid);
    ASSERT_LT(std::max({gg.grid->num_cells, gg.grid->num_edges, gg.grid->num_vertices}), 131072)
        << "expected_value must stay exact in float";
    if (world_size() > 1) {
      EXPECT_GT(halo_points(local, Location::Cell), 0) << "rank " << world_rank();
      EXPECT_GT(halo_points(local, Location::Edge), 0) << "rank " << world_rank();
      EXPECT_GT(halo_points(local, Location::Vertex), 0) << "rank " << world_rank();
    }
    for (const auto transport :
         {MpiHaloTransport::PointToPoint, MpiHaloTransport::NeighbourhoodCollective}) {
      SCOPED_TRACE(to_string(transport));
      for_each_space([&](auto space) {
        using Space = decltype(space);
        using M = typename Space::memory_space;
        SCOPED_TRACE(Space::name());
        MpiHaloExchangeOptions options;
        options.transport = transport;
        MpiHaloExchange<Space> exchange(MPI_COMM_WORLD, local, options);
        EXPECT_EQ(exchange.needs_synchronization(), world_size() > 1);
        for (Location l : all_locations) {
          SCOPED_TRACE(to_string(l));
          const MpiHaloPatternInfo info = exchange.pattern_info(l);
          EXPECT_EQ(info.recv_points, halo_points(local, l));
          auto fields = location_fields<M>(local, l, 0);
          const auto h = halos(fields);
          for (int repeat = 0; repeat < 2; ++repeat) {  // buffers reused the second time
            for (auto& f : fields) f.fill(local);
            exchange.exchange(space, l, h.data(), static_cast<int>(h.size()));
            for (const auto& f : fields) EXPECT_TRUE(f.check(local));
          }
          // One field alone, and a 2-D View through halo_field().
          Kokkos::View<double**, FieldLayout, M> view("view", local.size(l), nlev + 1);
          auto m = Kokkos::create_mirror_view(view);
          for (index_t i = 0; i < local.size(l); ++i)
            for (int k = 0; k < nlev + 1; ++k)
              m(i, k) =
                  owned(local, l, i) ? expected_value(5, global_id(local, l, i), k) : std::nan("");
          Kokkos::deep_copy(view, m);
          const HaloField one = halo_field(view);
          exchange.exchange(space, l, &one, 1);
          Kokkos::deep_copy(m, view);
          int wrong = 0;
          for (index_t i = 0; i < local.size(l); ++i)
            for (int k = 0; k < nlev + 1; ++k)
              wrong += m(i, k) == expected_value(5, global_id(local, l, i), k) ? 0 : 1;
          EXPECT_EQ(wrong, 0) << "rank " << world_rank() << ": a 2-D View";
        }
        EXPECT_EQ(exchange.in_flight(), 0);
      });
    }
  }
}

// ---- (b) Several exchanges in flight ------------------------------------------------------------

TEST(MpiHaloExchange, exchanges_in_flight_complete_by_their_handles) {
  const Grid local = local_grid(*global_grids()[1].grid);  // R2B3
  for_each_space([&](auto space) {
    using Space = decltype(space);
    using M = typename Space::memory_space;
    SCOPED_TRACE(Space::name());
    for (const auto transport :
         {MpiHaloTransport::PointToPoint, MpiHaloTransport::NeighbourhoodCollective}) {
      SCOPED_TRACE(to_string(transport));
      MpiHaloExchangeOptions options;
      options.transport = transport;
      MpiHaloExchange<Space> exchange(MPI_COMM_WORLD, local, options);
      auto a = location_fields<M>(local, Location::Cell, 0);
      auto b = location_fields<M>(local, Location::Edge, 5);
      auto c = location_fields<M>(local, Location::Cell, 10);  // same location as A
      auto v = location_fields<M>(local, Location::Vertex, 15);
      const auto ha = halos(a), hb = halos(b), hc = halos(c), hv = halos(v);
      for (int round = 0; round < 3; ++round) {
        for (auto* set : {&a, &b, &c, &v})
          for (auto& f : *set) f.fill(local);
        const HaloExchangeHandle A = exchange.start(space, Location::Cell, ha.data(), 5);
        const HaloExchangeHandle B = exchange.start(space, Location::Edge, hb.data(), 5);
        const HaloExchangeHandle C = exchange.start(space, Location::Cell, hc.data(), 5);
        EXPECT_NE(A.id, B.id);
        EXPECT_NE(A.id, C.id);
        EXPECT_EQ(exchange.in_flight(), 3);
        exchange.wait(B);
        for (const auto& f : b) EXPECT_TRUE(f.check(local));
        const HaloExchangeHandle V = exchange.start(space, Location::Vertex, hv.data(), 5);
        exchange.wait(A);
        exchange.wait(V);
        exchange.wait(C);
        EXPECT_EQ(exchange.in_flight(), 0);
        for (const auto* set : {&a, &b, &c, &v})
          for (const auto& f : *set) EXPECT_TRUE(f.check(local)) << "round " << round;
      }
      // A handle waited for twice, or made up, is refused (on the calling rank, no MPI).
      const HaloExchangeHandle D = exchange.start(space, Location::Cell, ha.data(), 1);
      exchange.wait(D);
      EXPECT_THROW(exchange.wait(D), InvalidArgument);
      EXPECT_THROW(exchange.wait(HaloExchangeHandle{-1}), InvalidArgument);
      EXPECT_THROW(exchange.wait(HaloExchangeHandle{12345}), InvalidArgument);
    }
  });
}

// ---- (c) Bad input: every rank throws, none hangs ---------------------------------------------

/// Runs `action` on every rank; success when every rank threw InvalidArgument whose message
/// contains every fragment of `parts` (checked on every rank).
template <class F>
void expect_every_rank_throws(F&& action, const std::vector<std::string>& parts,
                              const std::string& what) {
  SCOPED_TRACE(what);
  bool threw = false;
  std::string message;
  try {
    action();
  } catch (const InvalidArgument& e) {
    threw = true;
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("wrong exception type: ") + e.what();
  }
  EXPECT_TRUE(threw) << "rank " << world_rank() << ": "
                     << (message.empty() ? "no exception" : message);
  if (world_rank() == 0) std::cout << "[message] " << what << ": " << message << std::endl;
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos)
        << "rank " << world_rank() << ": the message does not name '" << part << "': " << message;
  EXPECT_TRUE(all_ranks(threw)) << "rank " << world_rank() << ": some rank did not throw";
}

TEST(MpiHaloExchange, a_halo_id_its_owner_does_not_own_throws_on_every_rank) {
  if (world_size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
  const Grid& global = *global_grids()[0].grid;  // R2B2
  Grid local = local_grid(global);
  const int culprit = world_size() - 1;
  // On the last rank, the first halo edge and the first owned edge swap their global ids, so the
  // halo edge's claimed owner is asked for an edge it does not own.
  index_t bad_id = -1;
  if (world_rank() == culprit) {
    auto& ids = local.edge_global_index;
    const auto& own = local.edge_owner_rank;
    index_t halo = -1, mine = -1;
    for (index_t i = 0; i < local.num_edges; ++i) {
      if (own[i] != culprit && halo < 0) halo = i;
      if (own[i] == culprit && mine < 0) mine = i;
    }
    if (halo >= 0 && mine >= 0) {
      bad_id = ids[mine];
      std::swap(ids[halo], ids[mine]);
    }
  }
  MPI_Bcast(&bad_id, 1, MPI_INT32_T, culprit, MPI_COMM_WORLD);
  EXPECT_GE(bad_id, 0) << "rank " << culprit << " has no halo edge or no owned edge";
  for_each_space([&](auto space) {
    using Space = decltype(space);
    SCOPED_TRACE(Space::name());
    expect_every_rank_throws([&] { MpiHaloExchange<Space> exchange(MPI_COMM_WORLD, local); },
                             {"edge global id ", "does not"}, "halo id not owned by its owner");
  });
  // A halo point whose claimed owner is a rank outside the communicator: only one rank knows.
  Grid outside = local_grid(global);
  if (world_rank() == 0)
    for (index_t i = 0; i < outside.num_cells; ++i)
      if (outside.cell_owner_rank[i] != 0) {
        outside.cell_owner_rank[i] = world_size();
        break;
      }
  expect_every_rank_throws(
      [&] { MpiHaloExchange<Kokkos::DefaultHostExecutionSpace> e(MPI_COMM_WORLD, outside); },
      {"rank 0", "owner rank " + std::to_string(world_size())}, "owner outside the communicator");
}

TEST(MpiHaloExchange, a_grid_that_is_not_decomposed_throws_on_every_rank) {
  if (world_size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
  const Grid& global = *global_grids()[0].grid;
  // Rank 0 passes the global grid, the others their local grid.
  const Grid local = world_rank() == 0 ? global : local_grid(global);
  expect_every_rank_throws(
      [&] { MpiHaloExchange<Kokkos::DefaultHostExecutionSpace> e(MPI_COMM_WORLD, local); },
      {"rank 0"}, "global grid on rank 0");
  // Every rank passes a grid without global ids but with the right rank.
  Grid bare = local_grid(global);
  bare.cell_global_index.clear();
  bare.cell_owner_rank.clear();
  expect_every_rank_throws(
      [&] { MpiHaloExchange<Kokkos::DefaultHostExecutionSpace> e(MPI_COMM_WORLD, bare); },
      {"no cell global indices"}, "no global ids");
}

TEST(MpiHaloExchange, a_field_of_the_wrong_size_throws_on_every_rank) {
  const Grid local = local_grid(*global_grids()[0].grid);
  for_each_space([&](auto space) {
    using Space = decltype(space);
    using M = typename Space::memory_space;
    SCOPED_TRACE(Space::name());
    MpiHaloExchange<Space> exchange(MPI_COMM_WORLD, local);
    auto fields = location_fields<M>(local, Location::Vertex, 0);
    auto h = halos(fields);
    h[2].points += 1;  // every rank: one point too many
    expect_every_rank_throws([&] { exchange.start(space, Location::Vertex, h.data(), 4); },
                             {"field 2", std::to_string(local.num_vertices + 1) + " points",
                              std::to_string(local.num_vertices) + " vertices"},
                             "wrong number of points everywhere");
    expect_every_rank_throws([&] { exchange.start(space, Location::Edge, h.data(), 1); },
                             {"field 0", "edge"}, "vertex fields as edge fields");
    auto bad_size = halos(fields);
    bad_size[1].element_size = 2;
    expect_every_rank_throws([&] { exchange.start(space, Location::Vertex, bad_size.data(), 4); },
                             {"element size 2"}, "element size");
    auto overlapping = halos(fields);
    overlapping[3].level_stride = 2;  // levels 2 elements apart: points and levels overlap
    expect_every_rank_throws(
        [&] { exchange.start(space, Location::Vertex, overlapping.data(), 4); },
        {"field 3", "point stride 1 and level stride 2", "overlap"}, "overlapping strides");
    expect_every_rank_throws([&] { exchange.start(space, Location::Vertex, h.data(), 9); },
                             {"9 fields"}, "too many fields");
    EXPECT_EQ(exchange.in_flight(), 0) << "a refused start left a slot in use";

    // With collective checks, a bad field on one rank makes every rank throw.
    MpiHaloExchangeOptions options;
    options.collective_checks = true;
    MpiHaloExchange<Space> checked(MPI_COMM_WORLD, local, options);
    auto one_bad = halos(fields);
    if (world_rank() == 0) one_bad[0].points -= 1;
    expect_every_rank_throws([&] { checked.start(space, Location::Vertex, one_bad.data(), 4); },
                             {"rank 0", "field 0"}, "wrong number of points on rank 0 only");
    // Both exchanges still work afterwards.
    const auto good = halos(fields);
    checked.exchange(space, Location::Vertex, good.data(), 5);
    for (auto& f : fields) EXPECT_TRUE(f.check(local));
    for (auto& f : fields) f.fill(local);
    exchange.exchange(space, Location::Vertex, good.data(), 5);
    for (auto& f : fields) EXPECT_TRUE(f.check(local));
  });
}

// ---- Kernels, regions, allocations, fences -------------------------------------------------

std::vector<std::string> kernels, regions, fences;
int allocations = 0;
void on_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  kernels.emplace_back(name);
}
void on_region(const char* name) {
  regions.emplace_back(name);
}
void on_allocate(Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  ++allocations;
}
void on_fence(const char* name, std::uint32_t, std::uint64_t*) {
  if (std::string(name).rfind("Kokkos::Tools::", 0) == 0) return;
  fences.emplace_back(name);
}

TEST(MpiHaloExchange, one_labelled_pack_and_unpack_no_allocation_in_a_steady_state) {
  const Grid local = local_grid(*global_grids()[1].grid);
  for_each_space([&](auto space) {
    using Space = decltype(space);
    using M = typename Space::memory_space;
    SCOPED_TRACE(Space::name());
    MpiHaloExchange<Space> exchange(MPI_COMM_WORLD, local);
    auto fields = location_fields<M>(local, Location::Edge, 0);
    const auto h = halos(fields);
    exchange.exchange(space, Location::Edge, h.data(), 5);  // warm-up: buffers grow
    kernels.clear();
    regions.clear();
    fences.clear();
    allocations = 0;
    compat::set_begin_parallel_for_callback(on_kernel);
    compat::set_push_region_callback(on_region);
    compat::set_allocate_data_callback(on_allocate);
    compat::set_begin_fence_callback(on_fence);
    const HaloExchangeHandle handle = exchange.start(space, Location::Edge, h.data(), 5);
    exchange.wait(handle);
    compat::set_begin_parallel_for_callback(nullptr);
    compat::set_push_region_callback(nullptr);
    compat::set_allocate_data_callback(nullptr);
    compat::set_begin_fence_callback(nullptr);
    EXPECT_EQ(allocations, 0);
    const std::vector<std::string> expected_regions = {"icondiff::halo::start_edge",
                                                       "icondiff::halo::wait_edge"};
    EXPECT_EQ(regions, expected_regions);
    const MpiHaloPatternInfo info = exchange.pattern_info(Location::Edge);
    std::vector<std::string> expected_kernels;
    if (info.send_points > 0) expected_kernels.push_back("icondiff::halo::pack_edge");
    if (info.recv_points > 0) expected_kernels.push_back("icondiff::halo::unpack_edge");
    EXPECT_EQ(kernels, expected_kernels) << "rank " << world_rank();
    EXPECT_LE(fences.size(), 2u) << "rank " << world_rank() << ": " << fences.size()
                                 << " fences, the first " << fences.front();
    for (const auto& f : fields) EXPECT_TRUE(f.check(local));
  });
}

// ---- Timings --------------------------------------------------------------------------------

/// Time per exchange of 4 double fields x 65 levels (and of 1 x 1 level: latency), max over ranks
/// of the mean of a batch, for both transports, interleaved trial by trial so that both see the
/// same machine load; the best of ICONDIFF_HALO_BENCH_TRIALS (3) batches of
/// ICONDIFF_HALO_BENCH_ITERATIONS (50) exchanges, on ICONDIFF_HALO_BENCH_GRID (generate:R2B4). Also
/// the time spent in start() (pack, fence, sends) and the bytes received per rank.
TEST(MpiHaloExchange, timings_point_to_point_vs_neighbourhood_collective) {
  if (world_size() < 2) GTEST_SKIP() << "nothing to exchange on one rank";
  const auto env_int = [](const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::max(1, std::atoi(v)) : fallback;
  };
  const int iterations = env_int("ICONDIFF_HALO_BENCH_ITERATIONS", 50);
  const int trials = env_int("ICONDIFF_HALO_BENCH_TRIALS", 3);
  const char* grid_env = std::getenv("ICONDIFF_HALO_BENCH_GRID");
  const std::string source = grid_env ? grid_env : "generate:R2B4";
  const Grid global = load_grid_source(source);
  const Grid local = local_grid(global);
  using Space = Kokkos::DefaultHostExecutionSpace;
  using M = Space::memory_space;
  using clock = std::chrono::steady_clock;
  const Space space;
  const MpiHaloTransport transports[2] = {MpiHaloTransport::PointToPoint,
                                          MpiHaloTransport::NeighbourhoodCollective};
  std::ostringstream report;
  struct Case {
    Location location;
    int fields, levels;
  };
  for (const Case c :
       {Case{Location::Cell, 4, 65}, Case{Location::Edge, 4, 65}, Case{Location::Edge, 1, 1}}) {
    const Location l = c.location;
    std::vector<Kokkos::View<double**, FieldLayout, M>> views;
    std::vector<HaloField> h;
    for (int f = 0; f < c.fields; ++f) {
      views.emplace_back("bench", local.size(l), c.levels);
      h.push_back(halo_field(views.back()));
    }
    std::vector<std::unique_ptr<MpiHaloExchange<Space>>> exchanges;
    for (const auto transport : transports) {
      MpiHaloExchangeOptions options;
      options.transport = transport;
      exchanges.push_back(std::make_unique<MpiHaloExchange<Space>>(MPI_COMM_WORLD, local, options));
      for (int i = 0; i < 5; ++i) exchanges.back()->exchange(space, l, h.data(), c.fields);
    }
    double best[2] = {1e30, 1e30}, best_start[2] = {0, 0};
    for (int trial = 0; trial < trials; ++trial)
      for (int t = 0; t < 2; ++t) {
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = clock::now();
        clock::duration in_start{};
        for (int i = 0; i < iterations; ++i) {
          const auto s0 = clock::now();
          const HaloExchangeHandle handle = exchanges[t]->start(space, l, h.data(), c.fields);
          in_start += clock::now() - s0;
          exchanges[t]->wait(handle);
        }
        const double mine[2] = {
            std::chrono::duration<double>(clock::now() - t0).count() / iterations,
            std::chrono::duration<double>(in_start).count() / iterations};
        double slowest[2] = {0, 0};
        MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (slowest[0] < best[t]) {
          best[t] = slowest[0];
          best_start[t] = slowest[1];
        }
      }
    const MpiHaloPatternInfo info = exchanges[0]->pattern_info(l);
    long long mine[2] = {static_cast<long long>(info.recv_points) * c.fields * c.levels * 8,
                         info.recv_neighbours};
    long long total[2] = {0, 0};
    MPI_Allreduce(mine, total, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const std::string name = std::string(to_string(l)) + " " + std::to_string(c.fields) + " x " +
                             std::to_string(c.levels);
    for (int t = 0; t < 2; ++t)
      report << "  " << name << " " << to_string(transports[t]) << ": " << best[t] * 1e6
             << " us per exchange (in start: " << best_start[t] * 1e6 << " us)\n";
    report << "  " << name << ": " << total[0] / world_size() << " bytes and "
           << static_cast<double>(total[1]) / world_size()
           << " messages received per rank (mean)\n";
  }
  if (world_rank() == 0)
    std::cout << "[halo timings] " << world_size() << " ranks, " << source
              << ", double fields x levels, " << Space::name() << ", max over ranks, best of "
              << trials << " x " << iterations << ":\n"
              << report.str() << std::flush;
}

}  // namespace mpi_halo_test
}  // namespace icondiff

// ---- main: MPI + Kokkos around GoogleTest; failures printed on every rank --------------------
