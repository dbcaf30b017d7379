// Putting ranks' parts back together without MPI (issue 12, item 5): assemble_global and
// check_rank_points (comm/local_fields.hpp), per-rank savepoints with their decomposition written
// and read back, merge_rank_savepoints (io/rank_savepoints.hpp) and partition files
// (io/partition_file.hpp). The parts come from make_local_grid under a hand-made partition (cells
// in global order cut into blocks), so every build runs this. The reference is the whole-grid
// savepoint the parts were cut from: merged, every field must equal it bit for bit.
#include "support/expect_error.hpp"
#include "support/grid_files.hpp"
#include "support/test_grids.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/partition_file.hpp>
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using H = Kokkos::HostSpace;

/// Cells in global order cut into `n` blocks of nearly equal size.
std::vector<int> block_partition(const Grid& g, int n) {
  std::vector<int> owner(static_cast<std::size_t>(g.num_cells));
  for (std::size_t c = 0; c < owner.size(); ++c)
    owner[c] = static_cast<int>(c * static_cast<std::size_t>(n) / owner.size());
  return owner;
}

/// Bitwise equality of every field of two state structs (same extents).
template <template <class> class State>
void expect_identical(const State<H>& a, const State<H>& b) {
  State<H> x = a, y = b;
  State<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& u, const auto& v) {
        ASSERT_EQ(u.size(), v.size()) << spec.name;
        for (unsigned d = 0; d < std::decay_t<decltype(u)>::rank; ++d)
          ASSERT_EQ(u.extent(d), v.extent(d)) << spec.name;
        if (u.size() == 0) return;
        using T = typename std::decay_t<decltype(u)>::non_const_value_type;
        EXPECT_EQ(std::memcmp(u.data(), v.data(), u.size() * sizeof(T)), 0) << spec.name;
      },
      x, y);
}

/// The init savepoint of the whole grid: factories plus a JW state with noise.
DiffusionSavepoint whole_init(const Grid& grid, int nlev) {
  DiffusionConfig config = mch_ch_r04b09_config();
  DiffusionSetupConfig setup;
  setup.vertical.num_levels = nlev;
  const HostDiffusionInputs host = compute_diffusion_inputs(grid, config, setup);
  const DiffusionInputs<H> inputs = make_diffusion_inputs<H>(host);
  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 2.0;
  jw.noise_seed = 3;
  const auto prognostic = to_prognostic_state<H>(
      jablonowski_williamson_state(host.grid, host.metrics.z_ifc, host.metrics.z_mc, jw));
  auto diagnostic = allocate_state<DiffusionDiagnosticState, H>(inputs.sizes(), "test::");
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  DiffusionDiagnosticState<H>::for_each_field(
      [&](const FieldSpec&, auto& v) {
        for (std::size_t i = 0; i < v.size(); ++i) v.data()[i] = u(rng);
      },
      diagnostic);
  return capture_diffusion_init(config, make_grid_reference(host.grid, "generate:R2B2"), inputs,
                                diagnostic, prognostic, 30.0, true, {{"origin", "test"}});
}

/// Rank `rank`'s savepoint cut out of `whole` on `local`.
DiffusionSavepoint rank_part(const DiffusionSavepoint& whole, const Grid& local,
                             const FieldSizes& sizes) {
  DiffusionSavepoint s = whole;
  const std::string scope = "test::part::";
  s.grid = make_grid_reference(local, whole.grid.source);
  s.prognostic = restrict_to_local(whole.prognostic, local, sizes, scope);
  s.diagnostic = restrict_to_local(whole.diagnostic, local, sizes, scope);
  s.metric = restrict_to_local(whole.metric, local, sizes, scope);
  s.interpolation = restrict_to_local(whole.interpolation, local, sizes, scope);
  s.edges = restrict_to_local(whole.edges, local, sizes, scope);
  s.cells = restrict_to_local(whole.cells, local, sizes, scope);
  s.decomposition = rank_points(local, sizes);
  return s;
}

struct Fixture {
  Grid grid = load_grid_source("generate:R2B2");
  int nlev = 4;
  DiffusionSavepoint whole = whole_init(grid, nlev);
  FieldSizes sizes{static_cast<std::size_t>(grid.num_cells),
                   static_cast<std::size_t>(grid.num_edges),
                   static_cast<std::size_t>(grid.num_vertices), static_cast<std::size_t>(nlev)};
  std::vector<Grid> locals;
  std::vector<DiffusionSavepoint> parts;
  explicit Fixture(int num_ranks) {
    const std::vector<int> owner = block_partition(grid, num_ranks);
    for (int r = 0; r < num_ranks; ++r) {
      locals.push_back(make_local_grid(grid, owner, r, num_ranks));
      parts.push_back(rank_part(whole, locals.back(), sizes));
    }
  }
};

TEST(RankSavepoints, MergedPartsEqualTheWholeGridBitForBit) {
  for (int num_ranks : {1, 2, 3, 4}) {
    SCOPED_TRACE(std::to_string(num_ranks) + " ranks");
    Fixture f(num_ranks);
    // Through files: the decomposition is written and read back.
    std::vector<DiffusionSavepoint> read;
    for (int r = 0; r < num_ranks; ++r) {
      const std::string path = test::scratch_file("rank" + std::to_string(r) + ".nc");
      write_diffusion_savepoint(path, f.parts[static_cast<std::size_t>(r)]);
      read.push_back(read_diffusion_savepoint(path));
      const RankPoints& a = *f.parts[static_cast<std::size_t>(r)].decomposition;
      ASSERT_TRUE(read.back().decomposition);
      const RankPoints& b = *read.back().decomposition;
      EXPECT_EQ(a.rank, b.rank);
      EXPECT_EQ(a.num_ranks, b.num_ranks);
      EXPECT_EQ(a.global_size, b.global_size);
      EXPECT_EQ(a.global_index, b.global_index);
      EXPECT_EQ(a.owner_rank, b.owner_rank);
      EXPECT_EQ(read.back().grid.num_cells, f.locals[static_cast<std::size_t>(r)].num_cells);
    }
    // Any order.
    std::reverse(read.begin(), read.end());
    const DiffusionSavepoint merged = merge_rank_savepoints(read, f.grid, "generate:R2B2");
    EXPECT_EQ(merged.grid.num_cells, f.grid.num_cells);
    EXPECT_FALSE(merged.decomposition);
    EXPECT_EQ(merged.metadata.at("origin"), "test");
    check_same_grid(merged.grid, f.grid);
    expect_identical(merged.prognostic, f.whole.prognostic);
    expect_identical(merged.diagnostic, f.whole.diagnostic);
    expect_identical(merged.metric, f.whole.metric);
    expect_identical(merged.interpolation, f.whole.interpolation);
    expect_identical(merged.edges, f.whole.edges);
    expect_identical(merged.cells, f.whole.cells);
  }
}

TEST(RankSavepoints, HaloValuesDoNotReachTheMergedFields) {
  // Poison every halo point of every part: the merge takes owned points only.
  Fixture f(3);
  for (DiffusionSavepoint& p : f.parts) {
    const RankPoints& d = *p.decomposition;
    DiffusionPrognosticState<H>::for_each_field(
        [&](const FieldSpec& spec, auto& v) {
          for (std::size_t i = 0; i < v.extent(0); ++i)
            if (!d.owns(spec.location, i))
              for (std::size_t k = 0; k < v.extent(1); ++k) v(i, k) = 1e300;
        },
        p.prognostic);
  }
  const DiffusionSavepoint merged = merge_rank_savepoints(f.parts, f.grid, "generate:R2B2");
  expect_identical(merged.prognostic, f.whole.prognostic);
}

TEST(RankSavepoints, SetsThatDoNotFitAreRefusedNamingTheProblem) {
  Fixture f(3);
  using test::expect_throw_naming;
  expect_throw_naming<InvalidArgument>(
      [&] {
        merge_rank_savepoints({f.parts[0], f.parts[2]}, f.grid, "g");
      },
      {"2 savepoints (ranks 0, 2) of a call decomposed into 3 ranks"}, "a missing rank");
  expect_throw_naming<InvalidArgument>(
      [&] {
        merge_rank_savepoints({f.parts[0], f.parts[1], f.parts[1]}, f.grid, "g");
      },
      {"rank 1 twice"}, "a repeated rank");
  auto other_dtime = f.parts;
  other_dtime[2].dtime = 60.0;
  expect_throw_naming<InvalidArgument>([&] { merge_rank_savepoints(other_dtime, f.grid, "g"); },
                                       {"rank 2", "dtime"}, "parts of different calls");
  auto undecomposed = f.parts;
  undecomposed[1].decomposition.reset();
  expect_throw_naming<InvalidArgument>([&] { merge_rank_savepoints(undecomposed, f.grid, "g"); },
                                       {"not captured on a decomposed"},
                                       "a part without decomposition");
  const Grid other = load_grid_source("generate:R2B3");
  expect_throw_naming<InvalidArgument>(
      [&] { merge_rank_savepoints(f.parts, other, "generate:R2B3"); },
      {"generate:R2B3", std::to_string(other.num_cells)}, "another whole grid");
  // A point owned twice, a point owned by nobody.
  auto twice = f.parts;
  twice[1].decomposition->owner_rank[0][twice[1].decomposition->size(Location::Cell) - 1] = 1;
  expect_throw_naming<InvalidArgument>([&] { merge_rank_savepoints(twice, f.grid, "g"); },
                                       {"global cell", "owned by rank"}, "a cell owned twice");
  auto nobody = f.parts;
  nobody[0].decomposition->owner_rank[1][0] = 2;
  expect_throw_naming<InvalidArgument>([&] { merge_rank_savepoints(nobody, f.grid, "g"); },
                                       {"global edge", "owned by no rank"}, "an orphan edge");
  // A field whose point extent is not its rank's.
  auto short_field = f.parts;
  short_field[1].prognostic.vn = View2D<wp, H>("vn", 3, static_cast<std::size_t>(f.nlev));
  expect_throw_naming<InvalidArgument>([&] { merge_rank_savepoints(short_field, f.grid, "g"); },
                                       {"vn of rank 1", "3 points"}, "a field of the wrong size");
}

TEST(RankSavepoints, DecompositionInTheFileIsChecked) {
  Fixture f(2);
  DiffusionSavepoint bad = f.parts[1];
  bad.decomposition->global_index[2].pop_back();
  test::expect_throw_naming<InvalidArgument>(
      [&] { write_diffusion_savepoint(test::scratch_file("bad_decomposition.nc"), bad); },
      {"vertex global indices"}, "writing a decomposition of the wrong size");
}

TEST(PartitionFile, ReadsGpmetisOutputAndRefusesWhatDoesNotFit) {
  const auto write = [](const std::string& name, const std::string& text) {
    const std::string path = test::scratch_file(name);
    std::ofstream(path) << text;
    return path;
  };
  EXPECT_EQ(read_partition_file(write("good.part", "# comment\n0\n1\n\n1\n0\n"), 4, 2),
            (std::vector<int>{0, 1, 1, 0}));
  using test::expect_throw_naming;
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(write("few.part", "0\n1\n"), 4, 2); },
      {"few.part", "2 cells listed, the grid has 4"}, "too few lines");
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(write("many.part", "0\n1\n0\n1\n1\n"), 4, 2); },
      {"line 5", "more lines than the grid's 4 cells"}, "too many lines");
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(write("range.part", "0\n1\n2\n1\n"), 4, 2); },
      {"line 3", "rank 2 is outside [0, 2)"}, "a rank out of range");
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(write("text.part", "0\n1x\n0\n1\n"), 4, 2); },
      {"line 2", "'1x' is not one integer"}, "not an integer");
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(write("empty.part", "0\n0\n0\n0\n"), 4, 2); },
      {"rank 1 owns no cell"}, "an empty rank");
  expect_throw_naming<InvalidArgument>(
      [&] { read_partition_file(test::scratch_file("absent.part"), 4, 2); },
      {"absent.part", "cannot be read"}, "a missing file");
}

}  // namespace
}  // namespace icondiff
