// A decomposed state gathered on one rank (comm/mpi_gather.hpp) and errors agreed over MPI
// (comm/mpi_collectives.hpp), on 1..4 ranks (mpirun): the whole-grid prognostic and diagnostic
// states of random values, restricted to each rank's local grid (METIS partition) with its halo
// poisoned, come back on the root equal to the originals bit for bit; gather_rank_points brings
// every rank's points; a rank with a field of the wrong size, or a rank that alone throws inside
// collectively(), makes every rank throw the same CollectiveError.
#include "support/expect_error.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/mpi_gather.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using H = Kokkos::HostSpace;

template <template <class> class State>
State<H> random_state(const FieldSizes& sizes, std::uint64_t seed) {
  auto s = allocate_state<State, H>(sizes, "test::");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-100.0, 100.0);
  State<H>::for_each_field(
      [&](const FieldSpec&, auto& v) {
        for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = u(rng);
      },
      s);
  return s;
}

template <template <class> class State>
void poison_halo(State<H>& s, const RankPoints& points) {
  State<H>::for_each_field(
      [&](const FieldSpec& spec, auto& v) {
        for (std::size_t i = 0; i < v.extent(0); ++i)
          if (!points.owns(spec.location, i))
            for (std::size_t k = 0; k < v.extent(1); ++k) v(i, k) = -9e99;
      },
      s);
}

template <template <class> class State>
void expect_identical(const State<H>& a, const State<H>& b) {
  State<H> x = a, y = b;
  State<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& u, const auto& v) {
        ASSERT_EQ(u.extent(0), v.extent(0)) << spec.name;
        ASSERT_EQ(u.size(), v.size()) << spec.name;
        using T = typename std::decay_t<decltype(u)>::non_const_value_type;
        EXPECT_EQ(std::memcmp(u.data(), v.data(), u.size() * sizeof(T)), 0) << spec.name;
      },
      x, y);
}

struct Decomposed {
  int rank = mpi_rank(MPI_COMM_WORLD), size = mpi_size(MPI_COMM_WORLD);
  Grid whole;
  Grid local;
  FieldSizes sizes;
  explicit Decomposed(const std::string& source) : whole(load_grid_source(source)) {
    local = make_local_grid(whole, partition_cells(whole, size), rank, size);
    sizes = {static_cast<std::size_t>(whole.num_cells), static_cast<std::size_t>(whole.num_edges),
             static_cast<std::size_t>(whole.num_vertices), 7};
  }
};

TEST(MpiGather, TheRootGetsTheWholeStateBitForBit) {
  for (const char* source : {"generate:R2B3", "generate:R2B4/cap:8,46.5,10"}) {
    SCOPED_TRACE(source);
    Decomposed s(source);
    const auto prognostic = random_state<DiffusionPrognosticState>(s.sizes, 5);
    const auto diagnostic = random_state<DiffusionDiagnosticState>(s.sizes, 6);
    const RankPoints mine = rank_points(s.local, s.sizes);
    auto local_prognostic = restrict_to_local(prognostic, s.local, s.sizes, "test::");
    auto local_diagnostic = restrict_to_local(diagnostic, s.local, s.sizes, "test::");
    poison_halo(local_prognostic, mine);
    poison_halo(local_diagnostic, mine);
    const std::vector<RankPoints> all = gather_rank_points(MPI_COMM_WORLD, mine, 0);
    const auto p = gather_to_root(MPI_COMM_WORLD, local_prognostic, all, 0, "test::gathered::");
    const auto d = gather_to_root(MPI_COMM_WORLD, local_diagnostic, all, 0, "test::gathered::");
    ASSERT_EQ(p.has_value(), s.rank == 0);
    ASSERT_EQ(d.has_value(), s.rank == 0);
    if (s.rank != 0) continue;
    ASSERT_EQ(all.size(), static_cast<std::size_t>(s.size));
    for (int r = 0; r < s.size; ++r) {
      const Grid other = make_local_grid(s.whole, partition_cells(s.whole, s.size), r, s.size);
      const RankPoints expected = rank_points(other, s.sizes);
      EXPECT_EQ(all[static_cast<std::size_t>(r)].rank, r);
      EXPECT_EQ(all[static_cast<std::size_t>(r)].global_index, expected.global_index);
      EXPECT_EQ(all[static_cast<std::size_t>(r)].owner_rank, expected.owner_rank);
      EXPECT_EQ(all[static_cast<std::size_t>(r)].global_size, expected.global_size);
    }
    expect_identical(*p, prognostic);
    expect_identical(*d, diagnostic);
  }
}

TEST(MpiGather, AFieldOfTheWrongSizeOnOneRankFailsOnEveryRank) {
  Decomposed s("generate:R2B3");
  const RankPoints mine = rank_points(s.local, s.sizes);
  auto local = restrict_to_local(random_state<DiffusionPrognosticState>(s.sizes, 1), s.local,
                                 s.sizes, "test::");
  const int culprit = s.size - 1;
  if (s.rank == culprit) local.vn = View2D<wp, H>("vn", 5, 7);
  const std::vector<RankPoints> all = gather_rank_points(MPI_COMM_WORLD, mine, 0);
  test::expect_throw_naming<CollectiveError>(
      [&] { gather_to_root(MPI_COMM_WORLD, local, all, 0, "test::"); },
      {"vn of rank " + std::to_string(culprit), "5 points"}, "wrong size on the last rank");
}

TEST(MpiCollectives, OneRankThrowingMakesEveryRankThrowTheSameMessage) {
  const int rank = mpi_rank(MPI_COMM_WORLD), size = mpi_size(MPI_COMM_WORLD);
  const int culprit = size / 2;
  test::expect_throw_naming<CollectiveError>(
      [&] {
        collectively(MPI_COMM_WORLD, [&] {
          if (rank == culprit) throw GridError("the grid file is unreadable");
        });
      },
      {"the grid file is unreadable"}, "one rank fails");
  // Nobody fails: nobody throws, and the communicator is still in step.
  EXPECT_NO_THROW(collectively(MPI_COMM_WORLD, [] {}));
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, size);
}

}  // namespace
}  // namespace icondiff
