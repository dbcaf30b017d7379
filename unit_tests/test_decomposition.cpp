// The standalone decomposition (comm/decomposition.hpp): partition_cells (METIS, only in an
// ICONDIFF_ENABLE_MPI build; elsewhere it must refuse with a message naming the option) and
// make_local_grid, run on every rank of 1..4 ranks of the real global and limited-area grids (or
// their generated stand-ins) and a generated R2B4, under METIS's partition and a hand-made one
// (longitude sectors; every build). On each local grid:
//  * which points are owned / halo line 1 / halo line 2 follows ICON4Py 0.2.0's
//    IconLikeHaloConstructor, written here independently as per-point predicates from its
//    docstring (halo.py);
//  * global indices unique, owners right (owned: this rank; halo: the owner by ICON's max-rank
//    rule), every global point owned exactly once over all ranks;
//  * every per-point table equals the global one at the local point; every connectivity entry
//    maps back to the global entry, or is missing only where that neighbour is not local;
//  * the order gives valid zones: owned points (with the LAM halo points ICON keeps in the
//    outermost boundary rows) first in global order, HALO / HALO_LEVEL_2 exactly the remaining
//    halo points of line 1 / 2;
//  * the neighbours the granule gathers over are present for owned points and line-1 cells;
//  * the granule (Diffusion on the host) accepts the local grid;
// and with one rank the local grid equals the global grid table for table.
#include "support/expect_error.hpp"
#include "support/granule_inputs.hpp"
#include "support/test_grids.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff {
namespace decomposition_test {

using test::GridCase;

const std::vector<GridCase>& grids() {
  static const std::vector<GridCase> cases = [] {
    std::vector<GridCase> g = test::global_and_lam_grids();
    g.push_back({"R2B4 global (generated)", load_grid_source("generate:R2B4")});
    return g;
  }();
  return cases;
}

constexpr int loc_index(Location l) {
  return static_cast<int>(l);
}

/// A hand-made partition for every build: cells sorted by longitude (then index) and cut into
/// num_ranks equal blocks, so every rank owns a sector.
std::vector<int> sector_partition(const Grid& g, int num_ranks) {
  std::vector<index_t> order(static_cast<std::size_t>(g.num_cells));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](index_t a, index_t b) { return g.cell_lon[a] < g.cell_lon[b]; });
  std::vector<int> owner(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    owner[static_cast<std::size_t>(order[i])] =
        static_cast<int>(i * static_cast<std::size_t>(num_ranks) / order.size());
  return owner;
}

/// Every cell on a random rank: a cut everywhere, with many corners.
std::vector<int> random_partition(const Grid& g, int num_ranks, std::uint64_t seed) {
  test::RandomSource rng(seed);
  std::vector<int> owner(static_cast<std::size_t>(g.num_cells));
  for (std::size_t c = 0; c < owner.size(); ++c)
    owner[c] = c < static_cast<std::size_t>(num_ranks) ? static_cast<int>(c)
                                                       : rng.integer(0, num_ranks - 1);
  return owner;
}

/// The owner of an edge or vertex by ICON's rule: the highest rank among its cells.
int max_rank(const HostTable<index_t>& to_cells, index_t point, const std::vector<int>& owner) {
  int r = -1;
  for (std::size_t j = 0; j < to_cells.cols(); ++j) {
    const index_t c = to_cells(point, j);
    if (c != missing_index) r = std::max(r, owner[c]);
  }
  return r;
}

bool any_of_row(const HostTable<index_t>& t, index_t row, const std::vector<char>& set) {
  for (std::size_t j = 0; j < t.cols(); ++j)
    if (t(row, j) != missing_index && set[t(row, j)]) return true;
  return false;
}

/// The halo line (-1 not local) of every global point of every location for `rank`, from
/// halo.py's docstring, written as per-point predicates:
///  cells: owned; line 1 = neighbours (C2E2C) of owned cells; line 2 = the other cells around a
///    cutting-line vertex (a vertex of an owned cell with a cell of another rank);
///  vertices: those of owned cells are owned if ICON's max-rank rule gives this rank, else
///    line 1; line 2 = the other vertices of the cells within two C2E2C steps of the owned ones;
///  edges: those of owned cells are owned by the max-rank rule, else line 1; line 2 = the other
///    edges at cutting-line vertices; level 3 = the other edges of halo cells (ICON4Py's third
///    level).
std::array<std::vector<int>, 3> expected_halo_lines(const Grid& g, const std::vector<int>& owner,
                                                    int rank) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  std::vector<char> owned(nc), line1(nc), line2(nc), within2(nc);
  for (index_t c = 0; c < nc; ++c) owned[c] = owner[c] == rank;
  for (index_t c = 0; c < nc; ++c) line1[c] = !owned[c] && any_of_row(g.c2e2c, c, owned);
  for (index_t c = 0; c < nc; ++c)
    within2[c] = !owned[c] && (line1[c] || any_of_row(g.c2e2c, c, line1));
  std::vector<char> vertex_of_owned(nv), cutting(nv), vertex_of_within2(nv);
  for (index_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) {
      if (owned[c]) vertex_of_owned[g.c2v(c, j)] = 1;
      if (within2[c]) vertex_of_within2[g.c2v(c, j)] = 1;
    }
  for (index_t v = 0; v < nv; ++v) {
    bool other = false;
    for (int j = 0; j < 6; ++j)
      other = other || (g.v2c(v, j) != missing_index && !owned[g.v2c(v, j)]);
    cutting[v] = vertex_of_owned[v] && other;
  }
  for (index_t c = 0; c < nc; ++c)
    line2[c] = !owned[c] && !line1[c] && any_of_row(g.c2v, c, cutting);

  std::array<std::vector<int>, 3> h;
  auto& hc = h[loc_index(Location::Cell)];
  hc.assign(nc, -1);
  for (index_t c = 0; c < nc; ++c) hc[c] = owned[c] ? 0 : line1[c] ? 1 : line2[c] ? 2 : -1;

  auto& hv = h[loc_index(Location::Vertex)];
  hv.assign(nv, -1);
  for (index_t v = 0; v < nv; ++v) {
    if (vertex_of_owned[v])
      hv[v] = max_rank(g.v2c, v, owner) == rank ? 0 : 1;
    else if (vertex_of_within2[v])
      hv[v] = 2;
  }

  auto& he = h[loc_index(Location::Edge)];
  he.assign(ne, -1);
  std::vector<char> edge_of_owned(ne), edge_at_cutting(ne), edge_of_halo(ne);
  for (index_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) {
      if (owned[c]) edge_of_owned[g.c2e(c, j)] = 1;
      if (line1[c] || line2[c]) edge_of_halo[g.c2e(c, j)] = 1;
    }
  for (index_t v = 0; v < nv; ++v)
    if (cutting[v])
      for (int j = 0; j < 6; ++j)
        if (g.v2e(v, j) != missing_index) edge_at_cutting[g.v2e(v, j)] = 1;
  for (index_t e = 0; e < ne; ++e) {
    if (edge_of_owned[e])
      he[e] = max_rank(g.e2c, e, owner) == rank ? 0 : 1;
    else if (edge_at_cutting[e])
      he[e] = 2;
    else if (edge_of_halo[e])
      he[e] = 3;  // closes a halo cell: ICON4Py's third level, stored after HALO_LEVEL_2
  }
  return h;
}

/// compute_zones' rule: LAM halo points of line h in rows 1..this stay with the boundary rows.
int last_row_stored_with_boundary(Location l, int h) {
  if (l == Location::Edge) return h == 1 ? 6 : 4;
  return h == 1 ? 2 : 1;
}
bool stored_with_boundary(Location l, int refin, int h) {
  const int r = to_non_nested_refinement(l, refin);
  return h > 0 && r >= 1 && r <= last_row_stored_with_boundary(l, h);
}

/// Local index of every global point (missing_index where not local).
std::array<std::vector<index_t>, 3> global_to_local(const Grid& global, const Grid& local) {
  std::array<std::vector<index_t>, 3> g2l;
  for (Location l : all_locations) {
    g2l[loc_index(l)].assign(global.size(l), missing_index);
    const auto& gi = local.global_index(l);
    for (std::size_t i = 0; i < gi.size(); ++i) g2l[loc_index(l)][gi[i]] = static_cast<index_t>(i);
  }
  return g2l;
}

/// Every table of the field list at the local points equals the global one; connectivity
/// entries map back to the global entry or are missing only where that neighbour is not local.
void expect_tables_match(const Grid& global, const Grid& local) {
  const auto g2l = global_to_local(global, local);
  Grid::for_each_field(
      [&](const FieldSpec& spec, const auto& lt, const auto& gt) {
        using T = std::decay_t<decltype(lt)>;
        const auto& l2g = local.global_index(spec.location);
        if (std::string(spec.name).find("global_index") != std::string::npos ||
            std::string(spec.name).find("owner_rank") != std::string::npos)
          return;  // checked separately
        if (gt.empty()) {
          EXPECT_TRUE(lt.empty()) << spec.name;
          return;
        }
        std::size_t bad = 0;
        std::string first;
        if constexpr (std::is_same_v<T, HostTable<index_t>>) {
          ASSERT_EQ(lt.rows(), l2g.size()) << spec.name;
          ASSERT_EQ(lt.cols(), gt.cols()) << spec.name;
          const Location target = target_location(spec.neighbours);
          const auto& target_l2g = local.global_index(target);
          for (std::size_t i = 0; i < lt.rows(); ++i)
            for (std::size_t j = 0; j < lt.cols(); ++j) {
              const index_t want = gt(l2g[i], j);
              const index_t got = lt(i, j);
              const bool ok =
                  got == missing_index
                      ? (want == missing_index || g2l[loc_index(target)][want] == missing_index)
                      : (got >= 0 && static_cast<std::size_t>(got) < target_l2g.size() &&
                         target_l2g[got] == want);
              if (!ok && bad++ == 0)
                first = "(" + std::to_string(i) + ", " + std::to_string(j) +
                        ") = " + std::to_string(got) + ", global " + std::to_string(want);
            }
        } else if constexpr (std::is_same_v<T, HostTable<double>>) {
          ASSERT_EQ(lt.rows(), l2g.size()) << spec.name;
          for (std::size_t i = 0; i < lt.rows(); ++i)
            for (std::size_t j = 0; j < lt.cols(); ++j)
              if (!(lt(i, j) == gt(l2g[i], j)) && bad++ == 0) first = std::to_string(i);
        } else {
          ASSERT_EQ(lt.size(), l2g.size()) << spec.name;
          for (std::size_t i = 0; i < lt.size(); ++i)
            if (!(lt[i] == gt[l2g[i]]) && bad++ == 0) first = std::to_string(i);
        }
        EXPECT_EQ(bad, 0u) << spec.name << ": " << bad << " entries wrong, first " << first;
      },
      local, global);
  for (Location l : all_locations) {
    const auto& gi = local.global_index(l);
    const auto& lr = local.refin_ctrl[loc_index(l)];
    ASSERT_EQ(lr.size(), gi.size());
    for (std::size_t i = 0; i < gi.size(); ++i)
      ASSERT_EQ(lr[i], global.refin_ctrl[loc_index(l)][gi[i]]) << to_string(l) << " " << i;
  }
}

/// The neighbours in `slots` of the local points selected by `select` are present wherever the
/// global grid has them.
template <class Select>
void expect_present(const Grid& global, const Grid& local, const HostTable<index_t>& lt,
                    const HostTable<index_t>& gt, Location l, const char* name, Select select) {
  const auto& l2g = local.global_index(l);
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < lt.rows(); ++i) {
    if (!select(i)) continue;
    for (std::size_t j = 0; j < lt.cols(); ++j)
      if (lt(i, j) == missing_index && gt(l2g[i], j) != missing_index && bad++ == 0)
        first = std::to_string(i) + " (global " + std::to_string(l2g[i]) + ") slot " +
                std::to_string(j);
  }
  (void)global;
  EXPECT_EQ(bad, 0u) << name << ": " << bad << " neighbours missing, first at local " << first;
}

/// Everything about rank `rank`'s local grid.
void check_local_grid(const Grid& global, const std::vector<int>& owner, const Grid& local,
                      int rank, int num_ranks) {
  SCOPED_TRACE("rank " + std::to_string(rank) + " of " + std::to_string(num_ranks));
  EXPECT_EQ(local.rank, rank);
  EXPECT_EQ(local.num_ranks, num_ranks);
  EXPECT_EQ(local.limited_area, global.limited_area);
  EXPECT_EQ(local.sphere_radius, global.sphere_radius);
  const auto expected = expected_halo_lines(global, owner, rank);
  for (Location l : all_locations) {
    SCOPED_TRACE(to_string(l));
    const int li = loc_index(l);
    const index_t n = local.size(l);
    const auto& gi = local.global_index(l);
    const auto& own = local.owner_rank(l);
    const auto& halo = local.halo_level[li];
    const auto& refin = local.refin_ctrl[li];
    ASSERT_EQ(gi.size(), static_cast<std::size_t>(n));
    ASSERT_EQ(own.size(), static_cast<std::size_t>(n));
    ASSERT_EQ(halo.size(), static_cast<std::size_t>(n));
    // global indices unique and in range; exactly the expected points with the expected lines
    std::vector<int> seen(global.size(l), -1);
    for (index_t i = 0; i < n; ++i) {
      ASSERT_GE(gi[i], 0);
      ASSERT_LT(gi[i], global.size(l));
      ASSERT_EQ(seen[gi[i]], -1) << "global index " << gi[i] << " appears twice";
      seen[gi[i]] = halo[i];
    }
    std::size_t wrong = 0;
    std::string first;
    for (index_t g = 0; g < global.size(l); ++g)
      if (seen[g] != expected[li][g] && wrong++ == 0)
        first = "global " + std::to_string(g) + ": halo line " + std::to_string(seen[g]) +
                ", expected " + std::to_string(expected[li][g]) + " (-1: not local)";
    EXPECT_EQ(wrong, 0u) << wrong << " points in the wrong halo line, first " << first;
    // owners
    for (index_t i = 0; i < n; ++i) {
      const int rule = l == Location::Cell   ? owner[gi[i]]
                       : l == Location::Edge ? max_rank(global.e2c, gi[i], owner)
                                             : max_rank(global.v2c, gi[i], owner);
      ASSERT_EQ(own[i], rule) << "point " << i;
      if (halo[i] == 0)
        ASSERT_EQ(own[i], rank) << "owned point " << i;
      else
        ASSERT_NE(own[i], rank) << "halo point " << i;
    }
    // order: front part (owned, plus boundary-row halo points), then line 1, then line 2
    const Zones& z = local.zones_of(l);
    const IndexRange halo1 = z.range(Zone::Halo), halo2 = z.range(Zone::Halo2);
    EXPECT_EQ(halo1.end, halo2.start);
    // after HALO_LEVEL_2 only ICON4Py's third-level edges
    for (index_t i = halo2.end; i < n; ++i) ASSERT_EQ(halo[i], 3) << "point " << i;
    EXPECT_EQ(z.range(Zone::Local), (IndexRange{0, halo1.start}));
    for (index_t i = 0; i < n; ++i) {
      const bool front = halo[i] == 0 || stored_with_boundary(l, refin[i], halo[i]);
      const int zone_line = i >= halo2.end ? 3 : i >= halo2.start ? 2 : i >= halo1.start ? 1 : 0;
      ASSERT_EQ(zone_line, front ? 0 : halo[i])
          << "point " << i << " halo line " << halo[i] << " refin " << refin[i];
    }
    // owned points in global order; each halo line in global order
    index_t last_owned = -1, last_line[4] = {-1, -1, -1, -1};
    for (index_t i = 0; i < n; ++i) {
      if (halo[i] == 0) {
        EXPECT_GT(gi[i], last_owned) << "owned point " << i << " out of global order";
        last_owned = gi[i];
      } else if (i >= halo1.start) {
        EXPECT_GT(gi[i], last_line[halo[i]]) << "halo point " << i << " out of global order";
        last_line[halo[i]] = gi[i];
      }
    }
    // every owned point of an ordered row lies in that row's zone
    for (index_t i = 0; i < halo1.start; ++i) {
      if (halo[i] != 0) continue;
      const int r = to_non_nested_refinement(l, refin[i]);
      const int last = l == Location::Edge ? 10 : 5;
      if (r >= 1 && r <= last) {
        const Zone zone = r <= (l == Location::Edge ? 8 : 4)          ? lateral_boundary_zone(r)
                          : r == last - (l == Location::Edge ? 1 : 0) ? Zone::Nudging
                                                                      : Zone::Nudging2;
        ASSERT_TRUE(z.range(zone).contains(i)) << "owned point " << i << " of row " << r;
      } else {
        ASSERT_TRUE(z.range(Zone::Interior).contains(i)) << "owned interior point " << i;
      }
    }
  }
  expect_tables_match(global, local);

  // The neighbours the granule and an exchange rely on.
  const auto& hc = local.halo_level[loc_index(Location::Cell)];
  const auto& he = local.halo_level[loc_index(Location::Edge)];
  const auto& hv = local.halo_level[loc_index(Location::Vertex)];
  const auto owned_cell = [&](std::size_t i) { return hc[i] == 0; };
  const auto line1_cell = [&](std::size_t i) { return hc[i] == 1; };
  const auto owned_edge = [&](std::size_t i) { return he[i] == 0; };
  const auto owned_vertex = [&](std::size_t i) { return hv[i] == 0; };
  expect_present(global, local, local.c2e, global.c2e, Location::Cell, "owned c2e", owned_cell);
  expect_present(global, local, local.c2e2c, global.c2e2c, Location::Cell, "owned c2e2c",
                 owned_cell);
  expect_present(global, local, local.c2v, global.c2v, Location::Cell, "owned c2v", owned_cell);
  expect_present(global, local, local.c2e2co, global.c2e2co, Location::Cell, "owned c2e2co",
                 owned_cell);
  expect_present(global, local, local.e2c, global.e2c, Location::Edge, "owned e2c", owned_edge);
  expect_present(global, local, local.e2v, global.e2v, Location::Edge, "owned e2v", owned_edge);
  expect_present(global, local, local.e2c2v, global.e2c2v, Location::Edge, "owned e2c2v",
                 owned_edge);
  expect_present(global, local, local.e2c2e, global.e2c2e, Location::Edge, "owned e2c2e",
                 owned_edge);
  expect_present(global, local, local.v2e, global.v2e, Location::Vertex, "owned v2e", owned_vertex);
  expect_present(global, local, local.v2c, global.v2c, Location::Vertex, "owned v2c", owned_vertex);
  expect_present(global, local, local.c2e, global.c2e, Location::Cell, "line-1 c2e", line1_cell);
  expect_present(global, local, local.c2v, global.c2v, Location::Cell, "line-1 c2v", line1_cell);
}

/// All ranks' local grids of one partition: each checked, every global point owned once.
std::vector<Grid> check_decomposition(const Grid& global, const std::vector<int>& owner,
                                      int num_ranks) {
  std::vector<Grid> locals;
  std::array<std::vector<int>, 3> owned_count;
  for (Location l : all_locations) owned_count[loc_index(l)].assign(global.size(l), 0);
  for (int rank = 0; rank < num_ranks; ++rank) {
    locals.push_back(make_local_grid(global, owner, rank, num_ranks));
    const Grid& local = locals.back();
    if (num_ranks == 1) continue;
    check_local_grid(global, owner, local, rank, num_ranks);
    for (Location l : all_locations) {
      const auto& gi = local.global_index(l);
      for (std::size_t i = 0; i < gi.size(); ++i)
        if (local.halo_level[loc_index(l)][i] == 0) ++owned_count[loc_index(l)][gi[i]];
    }
  }
  if (num_ranks > 1)
    for (Location l : all_locations) {
      const auto& count = owned_count[loc_index(l)];
      const auto bad = std::find_if(count.begin(), count.end(), [](int c) { return c != 1; });
      EXPECT_TRUE(bad == count.end())
          << to_string(l) << " " << (bad - count.begin()) << " is owned " << *bad << " times";
    }
  return locals;
}

/// The single-rank local grid is the global grid.
void expect_equal_grids(const Grid& a, const Grid& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.num_cells, b.num_cells);
  EXPECT_EQ(a.num_edges, b.num_edges);
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.num_ranks, b.num_ranks);
  EXPECT_EQ(a.limited_area, b.limited_area);
  EXPECT_EQ(a.sphere_radius, b.sphere_radius);
  EXPECT_EQ(a.grid_root, b.grid_root);
  EXPECT_EQ(a.grid_level, b.grid_level);
  EXPECT_EQ(a.uuid, b.uuid);
  EXPECT_EQ(a.refin_ctrl, b.refin_ctrl);
  EXPECT_EQ(a.halo_level, b.halo_level);
  EXPECT_EQ(a.zones, b.zones);
  int compared = 0;
  Grid::for_each_field(
      [&](const FieldSpec& spec, const auto& x, const auto& y) {
        EXPECT_TRUE(x == y) << spec.name << " differs";
        ++compared;
      },
      a, b);
  EXPECT_EQ(compared, Grid::num_fields);
}

/// The granule's constructor accepts the local grid (its extent and neighbour checks).
void expect_granule_accepts(const Grid& local) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  using M = Space::memory_space;
  const int nlev = 4;
  const VerticalGrid vertical = test::make_test_vertical_grid(nlev, 30000.0, 12500.0);
  test::RandomSource rng(42);
  reference::GranuleInputs in;
  reference::GranuleState state;
  test::make_random_granule(local, nlev, rng, in, state);
  const DeviceGrid<M> device(local);
  const DiffusionInputs<M> inputs = test::to_device<M>(in, device, vertical);
  try {
    Diffusion<Space> granule(mch_ch_r04b09_config(), inputs, DiffusionOptions<Space>{});
  } catch (const Error& e) {
    ADD_FAILURE() << local.name << ": the granule rejects the local grid: " << e.what();
  }
}

// ---- partition_cells ---------------------------------------------------------------------------

#if ICONDIFF_HAVE_MPI
TEST(PartitionCells, DeterministicBalancedAndEveryRankOwnsCells) {
  for (const auto& gc : grids()) {
    for (int num_ranks = 1; num_ranks <= 4; ++num_ranks) {
      SCOPED_TRACE(gc.name + ", " + std::to_string(num_ranks) + " ranks");
      const auto t0 = std::chrono::steady_clock::now();
      const std::vector<int> a = partition_cells(gc.grid, num_ranks);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const std::vector<int> b = partition_cells(gc.grid, num_ranks);
      EXPECT_EQ(a, b) << "two calls gave different partitions";
      ASSERT_EQ(a.size(), static_cast<std::size_t>(gc.grid.num_cells));
      std::vector<index_t> count(num_ranks, 0);
      for (const int r : a) {
        ASSERT_GE(r, 0);
        ASSERT_LT(r, num_ranks);
        ++count[r];
      }
      const index_t largest = *std::max_element(count.begin(), count.end());
      const index_t smallest = *std::min_element(count.begin(), count.end());
      EXPECT_GE(smallest, 1);
      // METIS's k-way tolerance, ufactor 30: no part above 1.03 times the average
      EXPECT_LE(largest, std::ceil(1.03 * gc.grid.num_cells / num_ranks))
          << "parts " << ::testing::PrintToString(count);
      // the cut (halo size): neighbours across parts, counted once per pair
      index_t cut = 0;
      for (index_t c = 0; c < gc.grid.num_cells; ++c)
        for (int j = 0; j < 3; ++j) {
          const index_t d = gc.grid.c2e2c(c, j);
          if (d > c && a[c] != a[d]) ++cut;
        }
      std::printf("  %-28s %d ranks: parts %-24s cut %5d edges, %.1f ms\n", gc.name.c_str(),
                  num_ranks, ::testing::PrintToString(count).c_str(), cut, 1e3 * seconds);
      if (num_ranks == 1) {
        EXPECT_EQ(a, std::vector<int>(gc.grid.num_cells, 0));
      }
    }
  }
}

TEST(PartitionCells, RefusesBadRankCounts) {
  const Grid& g = grids().front().grid;
  test::expect_throw_naming<InvalidArgument>([&] { partition_cells(g, 0); },
                                             {"num_ranks = 0", "at least 1"}, "zero ranks");
  test::expect_throw_naming<InvalidArgument>(
      [&] { partition_cells(g, static_cast<int>(g.num_cells) + 1); },
      {std::to_string(g.num_cells + 1), std::to_string(g.num_cells) + " cells"},
      "more ranks than cells");
  Grid local = make_local_grid(g, partition_cells(g, 2), 0, 2);
  test::expect_throw_naming<InvalidArgument>([&] { partition_cells(local, 2); },
                                             {"already rank 0", "2 ranks"}, "a local grid");
}
#else
TEST(PartitionCells, RefusesWithoutMetisNamingTheOption) {
  const Grid& g = grids().front().grid;
  test::expect_throw_naming<Error>([&] { partition_cells(g, 2); },
                                   {"without METIS", "ICONDIFF_ENABLE_MPI=ON"}, "no METIS");
  EXPECT_EQ(partition_cells(g, 1), std::vector<int>(g.num_cells, 0));
}
#endif

/// METIS's partition where the build has it, else the sectors.
std::vector<int> standard_partition(const Grid& g, int num_ranks) {
#if ICONDIFF_HAVE_MPI
  return partition_cells(g, num_ranks);
#else
  return sector_partition(g, num_ranks);
#endif
}

// ---- make_local_grid ---------------------------------------------------------------------------

TEST(MakeLocalGrid, OneRankIsTheGlobalGrid) {
  for (const auto& gc : grids()) {
    SCOPED_TRACE(gc.name);
    const Grid local = make_local_grid(gc.grid, std::vector<int>(gc.grid.num_cells, 0), 0, 1);
    expect_equal_grids(local, gc.grid);
    expect_equal_grids(make_local_grid(gc.grid, standard_partition(gc.grid, 1), 0, 1), gc.grid);
  }
}

TEST(MakeLocalGrid, StandardPartitionOn2To4Ranks) {
  for (const auto& gc : grids())
    for (int num_ranks = 2; num_ranks <= 4; ++num_ranks) {
      SCOPED_TRACE(gc.name + ", " + std::to_string(num_ranks) + " ranks");
      const auto t0 = std::chrono::steady_clock::now();
      const auto owner = standard_partition(gc.grid, num_ranks);
      const auto locals = check_decomposition(gc.grid, owner, num_ranks);
      (void)t0;
      for (const Grid& l : locals) {
        const index_t halo_cells = l.num_cells - l.start(Location::Cell, Zone::Halo);
        std::printf("  %-28s rank %d/%d: cells %6d (halo %4d), edges %6d, vertices %6d\n",
                    gc.name.c_str(), l.rank, num_ranks, l.num_cells, halo_cells, l.num_edges,
                    l.num_vertices);
      }
    }
}

// Why the derived tables are gathered rather than rebuilt: rebuilding them from the local tables
// (build_derived_connectivity) gives the same entries for owned points and wherever the cells
// are present, and otherwise only loses entries: the e2c2v far vertex and e2c2e/e2c2eo edges of
// a halo edge's cell that is not local, even where that vertex or those edges are.
TEST(MakeLocalGrid, GatheredDerivedTablesKeepMoreThanRebuiltOnes) {
  for (const auto& gc : grids())
    for (int num_ranks = 2; num_ranks <= 4; ++num_ranks) {
      const auto owner = standard_partition(gc.grid, num_ranks);
      for (int rank = 0; rank < num_ranks; ++rank) {
        SCOPED_TRACE(gc.name + ", rank " + std::to_string(rank) + " of " +
                     std::to_string(num_ranks));
        const Grid l = make_local_grid(gc.grid, owner, rank, num_ranks);
        Grid rebuilt = l;
        try {
          build_derived_connectivity(rebuilt);
        } catch (const GridError& e) {
          std::printf("  %s rank %d/%d: rebuilding fails: %s\n", gc.name.c_str(), rank, num_ranks,
                      e.what());
          continue;
        }
        std::size_t lost = 0;
        const auto compare = [&](const HostTable<index_t>& gathered, const HostTable<index_t>& r,
                                 const std::vector<int>& halo, const char* name) {
          ASSERT_EQ(gathered.rows(), r.rows());
          for (std::size_t i = 0; i < r.rows(); ++i)
            for (std::size_t j = 0; j < r.cols(); ++j) {
              if (r(i, j) == gathered(i, j)) continue;
              ASSERT_NE(halo[i], 0) << name << " of owned point " << i << " differs";
              ASSERT_EQ(r(i, j), missing_index) << name << "(" << i << ", " << j << ")";
              ++lost;
            }
        };
        compare(l.c2e2co, rebuilt.c2e2co, l.halo_level[0], "c2e2co");
        compare(l.e2c2v, rebuilt.e2c2v, l.halo_level[1], "e2c2v");
        compare(l.e2c2e, rebuilt.e2c2e, l.halo_level[1], "e2c2e");
        compare(l.e2c2eo, rebuilt.e2c2eo, l.halo_level[1], "e2c2eo");
        if (rank == 0)
          std::printf("  %-28s %d ranks, rank 0: rebuilding would lose %zu halo entries\n",
                      gc.name.c_str(), num_ranks, lost);
      }
    }
}

TEST(MakeLocalGrid, SectorPartitionOn2To4Ranks) {
  for (const auto& gc : grids())
    for (int num_ranks = 2; num_ranks <= 4; ++num_ranks) {
      SCOPED_TRACE(gc.name + ", sectors, " + std::to_string(num_ranks) + " ranks");
      check_decomposition(gc.grid, sector_partition(gc.grid, num_ranks), num_ranks);
    }
}

TEST(MakeLocalGrid, RandomPartitionWithCornersEverywhere) {
  for (const auto& gc : grids()) {
    SCOPED_TRACE(gc.name + ", random, 3 ranks");
    check_decomposition(gc.grid, random_partition(gc.grid, 3, 17), 3);
  }
}

TEST(MakeLocalGrid, LimitedAreaHaloPointsInTheOuterRowsStayWithTheBoundary) {
  // On the LAM, some rank has halo points in the outermost rows; they are stored with the rows
  // (after the row's owned points), not in HALO.
  const GridCase& lam = grids()[1];
  ASSERT_TRUE(lam.grid.limited_area);
  int found = 0;
  for (int num_ranks = 2; num_ranks <= 4; ++num_ranks) {
    const auto owner = standard_partition(lam.grid, num_ranks);
    for (int rank = 0; rank < num_ranks; ++rank) {
      const Grid l = make_local_grid(lam.grid, owner, rank, num_ranks);
      for (Location loc : all_locations) {
        const auto& halo = l.halo_level[loc_index(loc)];
        for (index_t i = 0; i < l.start(loc, Zone::Halo); ++i)
          if (halo[i] != 0) {
            ++found;
            EXPECT_TRUE(stored_with_boundary(loc, l.refin_ctrl[loc_index(loc)][i], halo[i]));
          }
      }
    }
  }
  EXPECT_GT(found, 0) << "no partition of the LAM put halo points into the boundary rows";
}

// The granule's constructor accepts every local grid: S3 gathers e2c2v over
// [S(E,LB5), E(E,HALO_LEVEL_2)); the edges that close the halo cells (ICON4Py's THIRD_HALO_LEVEL)
// have a cell outside the local grid, so they are stored after HALO_LEVEL_2 with level 3.
TEST(MakeLocalGrid, TheGranuleAcceptsEveryLocalGrid) {
  for (const auto& gc : grids())
    for (int num_ranks = 1; num_ranks <= 4; ++num_ranks) {
      SCOPED_TRACE(gc.name + ", " + std::to_string(num_ranks) + " ranks");
      const auto owner = standard_partition(gc.grid, num_ranks);
      for (int rank = 0; rank < num_ranks; ++rank)
        expect_granule_accepts(make_local_grid(gc.grid, owner, rank, num_ranks));
    }
}

/// Missing entries of `table` in the rows `range` of slots `slots`, as (row, slot).
std::vector<std::pair<index_t, int>> missing_in(const HostTable<index_t>& table, IndexRange range) {
  std::vector<std::pair<index_t, int>> out;
  for (index_t i = range.start; i < range.end; ++i)
    for (std::size_t j = 0; j < table.cols(); ++j)
      if (table(i, j) == missing_index) out.emplace_back(i, static_cast<int>(j));
  return out;
}

// The edges that close the halo cells (a cell outside the local grid, so a missing e2c2v far
// vertex) get level 3 and lie after HALO_LEVEL_2 (on a LAM, unless kept in the outermost
// boundary rows), outside every granule range: every gather of the granule finds its neighbours.
TEST(MakeLocalGrid, ClosingEdgesLieAfterHaloLevel2) {
  using M = Kokkos::HostSpace;
  for (const auto& gc : grids()) {
    for (int num_ranks = 2; num_ranks <= 4; ++num_ranks) {
      const auto owner = standard_partition(gc.grid, num_ranks);
      for (int rank = 0; rank < num_ranks; ++rank) {
        SCOPED_TRACE(gc.name + ", rank " + std::to_string(rank) + " of " +
                     std::to_string(num_ranks));
        const Grid l = make_local_grid(gc.grid, owner, rank, num_ranks);
        const DiffusionRanges r = diffusion_ranges(DeviceGrid<M>(l));
        EXPECT_TRUE(missing_in(l.c2e, r.turbulence_cells).empty());
        EXPECT_TRUE(missing_in(l.c2e2co, r.w_cells).empty());
        EXPECT_TRUE(missing_in(l.e2c, r.cold_pool_edges).empty());
        EXPECT_TRUE(missing_in(l.c2e2c, {r.turbulence_cells.start, r.w_cells.end}).empty());
        EXPECT_TRUE(missing_in(l.e2c2v, r.nabla2_edges).empty());
        const auto& level = l.halo_level[loc_index(Location::Edge)];
        const index_t halo2_end = l.end(Location::Edge, Zone::Halo2);
        index_t level3 = 0;
        const auto& refin = l.refin_ctrl[loc_index(Location::Edge)];
        for (index_t e = 0; e < l.num_edges; ++e)
          if (level[e] == 3) {
            ++level3;
            // (on a LAM, those in the outermost boundary rows stay with their rows)
            if (!stored_with_boundary(Location::Edge, refin[e], 3)) {
              EXPECT_GE(e, halo2_end) << "level-3 edge " << e << " inside HALO_LEVEL_2";
            }
          }
        EXPECT_GT(level3, 0) << "no closing edges: the test would prove nothing";
      }
    }
  }
}

TEST(MakeLocalGrid, RefusesBadOwnership) {
  const Grid& g = grids().front().grid;
  const index_t n = g.num_cells;
  std::vector<int> owner(n, 0);
  owner[1] = 1;
  test::expect_throw_naming<InvalidArgument>(
      [&] { make_local_grid(g, std::vector<int>(n - 1, 0), 0, 1); },
      {"cell_owner has " + std::to_string(n - 1), std::to_string(n) + " cells"}, "wrong size");
  std::vector<int> bad = owner;
  bad[7] = 2;
  test::expect_throw_naming<InvalidArgument>([&] { make_local_grid(g, bad, 0, 2); },
                                             {"cell_owner[7] = 2", "[0, 2)"}, "value too big");
  bad[7] = -1;
  test::expect_throw_naming<InvalidArgument>([&] { make_local_grid(g, bad, 0, 2); },
                                             {"cell_owner[7] = -1"}, "negative value");
  test::expect_throw_naming<InvalidArgument>([&] { make_local_grid(g, owner, 2, 3); },
                                             {"rank 2 owns no cell"}, "a rank without cells");
  test::expect_throw_naming<InvalidArgument>([&] { make_local_grid(g, owner, 3, 3); },
                                             {"rank 3", "[0, 3)"}, "rank out of range");
  test::expect_throw_naming<InvalidArgument>([&] { make_local_grid(g, owner, 0, 0); },
                                             {"num_ranks = 0"}, "zero ranks");
  const Grid local = make_local_grid(g, owner, 0, 2);
  test::expect_throw_naming<InvalidArgument>(
      [&] { make_local_grid(local, std::vector<int>(local.num_cells, 0), 0, 1); },
      {"already rank 0", "global grid"}, "a local grid");
}

}  // namespace decomposition_test
}  // namespace icondiff
