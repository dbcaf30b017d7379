// grid_from_icon_arrays: a grid written out the way ICON holds it in memory (Fortran column-major
// (nproma, slots) tables, 1-based, 0 for a missing neighbour, nproma > points with garbage in the
// padding rows, refin_ctrl, halo levels, global indices, owners) comes back as the same Grid:
// every table, the derived tables and the zones; decomposition data arrives 0-based; every bad
// input is refused with a message naming it.
#include "support/expect_error.hpp"
#include "support/grid_files.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/icon_grid_arrays.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace icondiff {
namespace icon_grid_arrays_test {

/// Rows of padding beyond the points (ICON's nproma > number of points) and their garbage value,
/// far beyond every location's size: read as an index, it would be refused.
constexpr index_t padding_rows = 5;
constexpr int garbage = 999999;

/// One table as ICON holds it: (nproma, slots) column-major, 1-based, missing = 0.
struct FortranTable {
  std::vector<int> data;
  index_t nproma = 0;
  IconIndexTable view() const { return {data.data(), nproma}; }
};

FortranTable to_fortran(const HostTable<index_t>& t) {
  FortranTable f;
  const auto rows = static_cast<index_t>(t.rows());
  f.nproma = rows + padding_rows;
  f.data.assign(static_cast<std::size_t>(f.nproma) * t.cols(), garbage);
  for (std::size_t j = 0; j < t.cols(); ++j)
    for (index_t r = 0; r < rows; ++r) {
      const index_t v = t(r, j);
      f.data[j * f.nproma + r] = v == missing_index ? 0 : v + 1;
    }
  return f;
}

/// Everything ICON would pass, owned here; arrays() points into it.
struct IconMemory {
  index_t nc = 0, ne = 0, nv = 0;
  FortranTable c2e, c2v, c2e2c, e2c, e2v, v2e, v2c;
  std::array<std::vector<int>, 3> refin_ctrl, halo_level, global_index, owner_rank;
  int rank = 0, num_ranks = 1;

  explicit IconMemory(const Grid& g)
      : nc(g.num_cells),
        ne(g.num_edges),
        nv(g.num_vertices),
        c2e(to_fortran(g.c2e)),
        c2v(to_fortran(g.c2v)),
        c2e2c(to_fortran(g.c2e2c)),
        e2c(to_fortran(g.e2c)),
        e2v(to_fortran(g.e2v)),
        v2e(to_fortran(g.v2e)),
        v2c(to_fortran(g.v2c)),
        refin_ctrl(g.refin_ctrl) {}

  IconGridArrays arrays() const {
    IconGridArrays a;
    a.num_cells = nc;
    a.num_edges = ne;
    a.num_vertices = nv;
    a.c2e = c2e.view();
    a.c2v = c2v.view();
    a.c2e2c = c2e2c.view();
    a.e2c = e2c.view();
    a.e2v = e2v.view();
    a.v2e = v2e.view();
    a.v2c = v2c.view();
    for (int i = 0; i < 3; ++i) {
      a.refin_ctrl[i] = refin_ctrl[i].empty() ? nullptr : refin_ctrl[i].data();
      a.halo_level[i] = halo_level[i].empty() ? nullptr : halo_level[i].data();
      a.global_index[i] = global_index[i].empty() ? nullptr : global_index[i].data();
      a.owner_rank[i] = owner_rank[i].empty() ? nullptr : owner_rank[i].data();
    }
    a.rank = rank;
    a.num_ranks = num_ranks;
    return a;
  }
};

using test::GridCase;

std::vector<GridCase> test_grids() {
  return test::global_and_lam_grids();
}

void expect_topology_equal(const Grid& got, const Grid& expected) {
  EXPECT_EQ(got.num_cells, expected.num_cells);
  EXPECT_EQ(got.num_edges, expected.num_edges);
  EXPECT_EQ(got.num_vertices, expected.num_vertices);
  EXPECT_TRUE(got.c2e == expected.c2e) << "c2e";
  EXPECT_TRUE(got.c2v == expected.c2v) << "c2v";
  EXPECT_TRUE(got.c2e2c == expected.c2e2c) << "c2e2c";
  EXPECT_TRUE(got.e2c == expected.e2c) << "e2c";
  EXPECT_TRUE(got.e2v == expected.e2v) << "e2v";
  EXPECT_TRUE(got.v2e == expected.v2e) << "v2e";
  EXPECT_TRUE(got.v2c == expected.v2c) << "v2c";
  EXPECT_TRUE(got.c2e2co == expected.c2e2co) << "c2e2co";
  EXPECT_TRUE(got.e2c2v == expected.e2c2v) << "e2c2v";
  EXPECT_TRUE(got.e2c2e == expected.e2c2e) << "e2c2e";
  EXPECT_TRUE(got.e2c2eo == expected.e2c2eo) << "e2c2eo";
  EXPECT_EQ(got.refin_ctrl, expected.refin_ctrl);
  EXPECT_EQ(got.limited_area, expected.limited_area);
}

/// The zone ranges of `zones` as text, for readable failures.
std::string describe(const Zones& z) {
  std::string s;
  for (int i = 0; i < num_zones; ++i) {
    const auto zone = static_cast<Zone>(i);
    if (!zone_exists(z.location(), zone)) continue;
    const auto r = z.range(zone);
    s += std::string(to_string(zone)) + "=[" + std::to_string(r.start) + "," +
         std::to_string(r.end) + ") ";
  }
  return s;
}

TEST(icon_grid_arrays, round_trip_equals_the_grid) {
  for (const auto& gc : test_grids()) {
    SCOPED_TRACE(gc.name);
    const Grid& g = gc.grid;
    const IconMemory memory(g);
    const Grid back = grid_from_icon_arrays(memory.arrays());
    expect_topology_equal(back, g);
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(back.zones[i] == g.zones[i])
          << to_string(all_locations[i]) << ": got " << describe(back.zones[i]) << "\nexpected "
          << describe(g.zones[i]);
    // Not decomposed: no halo levels, global indices or owners; one rank.
    EXPECT_EQ(back.rank, 0);
    EXPECT_EQ(back.num_ranks, 1);
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(back.halo_level[i].empty());
    EXPECT_TRUE(back.cell_global_index.empty());
    EXPECT_TRUE(back.edge_owner_rank.empty());
    // Topology only.
    EXPECT_TRUE(back.cell_area.empty());
  }
}

TEST(icon_grid_arrays, negative_indices_and_dense_tables) {
  // ICON marks missing neighbours with indices <= 0; a leading dimension of 0 means "= points".
  const Grid g = test_grids().back().grid;  // limited area: has missing neighbours
  IconMemory memory(g);
  int negatives = 0;
  for (auto* t : {&memory.e2c, &memory.c2e2c, &memory.v2e, &memory.v2c})
    for (auto& v : t->data)
      if (v == 0) v = -(++negatives % 3) - 1;  // -1, -2, -3
  ASSERT_GT(negatives, 0) << "the limited-area grid should have missing neighbours";
  // A dense c2v (nproma = points).
  std::vector<int> dense(static_cast<std::size_t>(g.num_cells) * 3);
  for (int j = 0; j < 3; ++j)
    for (index_t c = 0; c < g.num_cells; ++c) dense[j * g.num_cells + c] = g.c2v(c, j) + 1;
  IconGridArrays a = memory.arrays();
  a.c2v = {dense.data(), 0};
  expect_topology_equal(grid_from_icon_arrays(a), g);
  a.c2v = {dense.data(), g.num_cells};
  expect_topology_equal(grid_from_icon_arrays(a), g);
}

TEST(icon_grid_arrays, global_indices_and_owners_arrive_zero_based) {
  const Grid g = test_grids().front().grid;
  IconMemory memory(g);
  memory.rank = 1;
  memory.num_ranks = 3;
  for (int i = 0; i < 3; ++i) {
    const index_t n = g.size(all_locations[i]);
    memory.global_index[i].resize(n);
    memory.owner_rank[i].resize(n);
    for (index_t p = 0; p < n; ++p) {
      memory.global_index[i][p] = 1000 * (i + 1) + (n - p);  // 1-based, reversed, offset
      memory.owner_rank[i][p] = (p + i) % 3;
    }
  }
  const Grid back = grid_from_icon_arrays(memory.arrays());
  EXPECT_EQ(back.rank, 1);
  EXPECT_EQ(back.num_ranks, 3);
  const std::vector<index_t>* globals[3] = {&back.cell_global_index, &back.edge_global_index,
                                            &back.vertex_global_index};
  const std::vector<int>* owners[3] = {&back.cell_owner_rank, &back.edge_owner_rank,
                                       &back.vertex_owner_rank};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(to_string(all_locations[i]));
    const index_t n = g.size(all_locations[i]);
    ASSERT_EQ(globals[i]->size(), static_cast<std::size_t>(n));
    ASSERT_EQ(owners[i]->size(), static_cast<std::size_t>(n));
    for (index_t p = 0; p < n; ++p) {
      ASSERT_EQ((*globals[i])[p], 1000 * (i + 1) + (n - p) - 1) << "point " << p;
      ASSERT_EQ((*owners[i])[p], (p + i) % 3) << "point " << p;
    }
  }
  // ... and reach the device grid unchanged.
  const DeviceGrid<Kokkos::HostSpace> device(back);
  EXPECT_EQ(device.rank, 1);
  EXPECT_EQ(device.num_ranks, 3);
  ASSERT_EQ(device.edge_global_index.extent(0), static_cast<std::size_t>(g.num_edges));
  EXPECT_EQ(device.edge_global_index(0), 2000 + g.num_edges - 1);
  EXPECT_EQ(device.vertex_owner_rank(4), (4 + 2) % 3);
}

TEST(icon_grid_arrays, halo_levels_give_the_halo_zones) {
  // ICON stores halo points at the end: [owned | halo line 1 | halo line 2].
  const index_t h1[3] = {4, 6, 3};  // cells, edges, vertices
  const index_t h2[3] = {2, 3, 5};
  for (const auto& gc : test_grids()) {
    SCOPED_TRACE(gc.name);
    const Grid& g = gc.grid;
    IconMemory memory(g);
    for (int i = 0; i < 3; ++i) {
      const Location l = all_locations[i];
      const index_t n = g.size(l);
      memory.halo_level[i].assign(n, 0);
      for (index_t p = n - h1[i] - h2[i]; p < n - h2[i]; ++p) memory.halo_level[i][p] = 1;
      for (index_t p = n - h2[i]; p < n; ++p) memory.halo_level[i][p] = 2;
      // The marked points must lie outside the boundary and nudging rows for the expectation
      // below (ICON keeps boundary-row halo points with their rows): refin_ctrl 0, or beyond the
      // last ordered row (5 for cells and vertices, 10 for edges).
      const int last_ordered = l == Location::Edge ? 10 : 5;
      for (index_t p = n - h1[i] - h2[i]; p < n; ++p) {
        const int r = to_non_nested_refinement(l, g.refin_ctrl[i][p]);
        ASSERT_TRUE(r == 0 || r > last_ordered)
            << to_string(l) << " " << p << " lies in boundary/nudging row " << r;
      }
    }
    const Grid back = grid_from_icon_arrays(memory.arrays());
    for (int i = 0; i < 3; ++i) {
      const Location l = all_locations[i];
      SCOPED_TRACE(to_string(l));
      const index_t n = g.size(l);
      const index_t first_halo = n - h1[i] - h2[i];
      EXPECT_EQ(back.halo_level[i], memory.halo_level[i]);
      const Zones& z = back.zones[i];
      EXPECT_EQ(z.range(Zone::Local), (IndexRange{0, first_halo})) << describe(z);
      EXPECT_EQ(z.range(Zone::Halo), (IndexRange{first_halo, n - h2[i]})) << describe(z);
      EXPECT_EQ(z.range(Zone::Halo2), (IndexRange{n - h2[i], n})) << describe(z);
      EXPECT_EQ(z.range(Zone::End), (IndexRange{n, n})) << describe(z);
      EXPECT_EQ(z.range(Zone::Interior),
                (IndexRange{g.zones[i].range(Zone::Interior).start, first_halo}))
          << describe(z);
      // The boundary and nudging rows do not move.
      EXPECT_EQ(z.range(Zone::LateralBoundary1), g.zones[i].range(Zone::LateralBoundary1));
      EXPECT_EQ(z.range(Zone::LateralBoundary4), g.zones[i].range(Zone::LateralBoundary4));
      EXPECT_EQ(z.range(Zone::Nudging), g.zones[i].range(Zone::Nudging));
    }
    // The tables are unaffected.
    expect_topology_equal(back, g);
  }
}

// ---- Errors -------------------------------------------------------------------------------------

template <class E>
void expect_refused(const IconGridArrays& a, std::initializer_list<std::string> parts,
                    const char* what) {
  test::expect_throw_naming<E>([&] { (void)grid_from_icon_arrays(a); }, parts, what);
}

TEST(icon_grid_arrays, bad_input_is_refused_with_a_message) {
  const Grid g = load_grid_source("generate:R2B1");
  const IconMemory good(g);
  ASSERT_NO_THROW(grid_from_icon_arrays(good.arrays()));
  {
    IconGridArrays a = good.arrays();
    a.c2v.data = nullptr;
    expect_refused<InvalidArgument>(a, {"c2v", "null pointer"}, "null table");
  }
  {
    IconGridArrays a = good.arrays();
    a.refin_ctrl[1] = nullptr;
    expect_refused<InvalidArgument>(a, {"neither refin_ctrl nor start/end index arrays", "edge"},
                                    "null refin_ctrl");
  }
  {
    IconGridArrays a = good.arrays();
    a.e2v.leading_dimension = g.num_edges - 1;
    expect_refused<InvalidArgument>(
        a, {"e2v", "leading dimension " + std::to_string(g.num_edges - 1)}, "nproma < points");
  }
  {
    IconMemory m(g);
    // c2e2c(row 8, column 2), 1-based: one beyond the cells.
    m.c2e2c.data[1 * m.c2e2c.nproma + 7] = g.num_cells + 1;
    expect_refused<InvalidArgument>(m.arrays(),
                                    {"c2e2c(8, 2) = " + std::to_string(g.num_cells + 1), "exceeds"},
                                    "index out of range");
  }
  {
    IconMemory m(g);
    m.v2e.data[5 * m.v2e.nproma + (g.num_vertices - 1)] = g.num_edges + 3;
    expect_refused<InvalidArgument>(
        m.arrays(),
        {"v2e(" + std::to_string(g.num_vertices) + ", 6) = " + std::to_string(g.num_edges + 3)},
        "index out of range in the last row and column");
  }
  {
    IconMemory m(g);
    m.halo_level[0].assign(g.num_cells, 0);
    m.halo_level[0][3] = 3;
    expect_refused<InvalidArgument>(m.arrays(), {"halo level 3", "cell"}, "halo level 3");
    m.halo_level[0][3] = -1;
    expect_refused<InvalidArgument>(m.arrays(), {"halo level -1", "cell"}, "halo level -1");
  }
  {
    IconMemory m(g);
    m.num_ranks = 2;
    m.owner_rank[2].assign(g.num_vertices, 0);
    m.owner_rank[2][9] = 2;
    expect_refused<InvalidArgument>(m.arrays(), {"owner rank 2", "vertex 10", "[0, 2)"},
                                    "owner rank = num_ranks");
    m.owner_rank[2][9] = -1;
    expect_refused<InvalidArgument>(m.arrays(), {"owner rank -1", "vertex 10"},
                                    "negative owner rank");
  }
  {
    IconMemory m(g);
    m.global_index[1].assign(g.num_edges, 1);
    m.global_index[1][4] = 0;
    expect_refused<InvalidArgument>(m.arrays(), {"global index 0", "edge 5", "1-based"},
                                    "global index 0");
  }
  {
    IconGridArrays a = good.arrays();
    a.rank = 2;
    a.num_ranks = 2;
    expect_refused<InvalidArgument>(a, {"rank 2 of 2"}, "rank >= num_ranks");
    a.rank = -1;
    expect_refused<InvalidArgument>(a, {"rank -1 of 2"}, "negative rank");
    a.rank = 0;
    a.num_ranks = 0;
    expect_refused<InvalidArgument>(a, {"rank 0 of 0"}, "no ranks");
  }
  {
    IconGridArrays a = good.arrays();
    a.num_edges = 0;
    expect_refused<InvalidArgument>(a, {"0 edges", "positive"}, "no edges");
  }
  {
    // Tables that contradict each other: two cells of one edge swapped with another edge's.
    IconMemory m(g);
    std::swap(m.e2c.data[0], m.e2c.data[1]);
    std::swap(m.e2c.data[m.e2c.nproma + 0], m.e2c.data[m.e2c.nproma + 2]);
    try {
      (void)grid_from_icon_arrays(m.arrays());
      ADD_FAILURE() << "inconsistent e2c accepted";
    } catch (const GridError& e) {
      EXPECT_NE(std::string(e.what()).find("e2c"), std::string::npos) << e.what();
    }
  }
}

}  // namespace icon_grid_arrays_test
}  // namespace icondiff

namespace icondiff::icon_grid_arrays_test {

/// ICON's start/end index arrays of one location from a grid's zones (1-based first point, last
/// point; 0 in the positions no zone uses, as ICON leaves some).
struct IndexArrays {
  std::vector<int> starts, ends;
  IndexArrays(const Grid& g, Location l)
      : starts(static_cast<std::size_t>(icon_index_array_size(l)), 0), ends(starts) {
    for (int z = 0; z < num_zones; ++z) {
      const auto zone = static_cast<Zone>(z);
      if (!zone_exists(l, zone)) continue;
      const auto p = static_cast<std::size_t>(icon_index_array_position(l, zone));
      starts[p] = g.range(l, zone).start + 1;
      ends[p] = g.range(l, zone).end;
    }
  }
};

TEST(icon_grid_arrays, zones_from_start_and_end_index_arrays_and_icon_derived_tables) {
  for (const auto& gc : test_grids()) {
    SCOPED_TRACE(gc.name);
    const Grid& g = gc.grid;
    IconMemory memory(g);
    memory.refin_ctrl = {};  // ICON4Py's grid_init gets no refin_ctrl: the arrays give the zones
    const IndexArrays bounds[3] = {{g, Location::Cell}, {g, Location::Edge}, {g, Location::Vertex}};
    const FortranTable e2c2v = to_fortran(g.e2c2v), e2c2e = to_fortran(g.e2c2e);
    IconGridArrays a = memory.arrays();
    a.e2c2v = e2c2v.view();
    a.e2c2e = e2c2e.view();
    for (int l = 0; l < 3; ++l)
      a.zone_bounds[l] = {bounds[l].starts.data(), bounds[l].ends.data(),
                          static_cast<index_t>(bounds[l].starts.size())};
    const Grid back = grid_from_icon_arrays(a);
    EXPECT_EQ(back.limited_area, g.limited_area);
    EXPECT_TRUE(back.e2c2v == g.e2c2v);
    EXPECT_TRUE(back.e2c2eo == g.e2c2eo);
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(back.zones[i] == g.zones[i])
          << to_string(all_locations[i]) << ": got " << describe(back.zones[i]) << "\nexpected "
          << describe(g.zones[i]);
  }
}

TEST(icon_grid_arrays, bad_start_and_end_index_arrays_are_refused) {
  const Grid g = test_grids().back().grid;
  IndexArrays cells(g, Location::Cell);
  const int n = g.num_cells;
  const int interior = icon_index_array_position(Location::Cell, Zone::Interior);
  EXPECT_EQ(interior, 8);  // ICON4Py's _ICON_INTERIOR for cells
  auto zones = [&] {
    return zones_from_icon_index_arrays(Location::Cell, cells.starts.data(), cells.ends.data(),
                                        static_cast<index_t>(cells.starts.size()), n);
  };
  EXPECT_NO_THROW(zones());
  cells.ends[interior] = n + 1;
  test::expect_throw_naming<InvalidArgument>(zones, {"cell_ends(0)", "outside the", "INTERIOR"},
                                             "an end beyond the cells");
  cells = IndexArrays(g, Location::Cell);
  cells.ends[interior] = cells.starts[interior] - 3;  // start - 1 > end
  test::expect_throw_naming<InvalidArgument>(zones, {"ends before it starts", "INTERIOR"},
                                             "a start after the end");
  cells = IndexArrays(g, Location::Cell);
  test::expect_throw_naming<InvalidArgument>(
      [&] {
        zones_from_icon_index_arrays(Location::Cell, cells.starts.data(), cells.ends.data(), 13, n);
      },
      {"13 values", "at least 14"}, "an array too short");
}

}  // namespace icondiff::icon_grid_arrays_test
