// Limited-area cut-outs: regions, refin_ctrl rows as ICON numbers them, the storage order that
// makes the zones contiguous, boundary conventions, geometry against the global grid, the round
// trip through a file, and the row rules against DWD's R19B04 LAM file.
#include "support/grid_conventions.hpp"
#include "support/grid_files.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double deg = pi / 180.0;

const Grid& global_r2b4() {
  static const Grid g = generate_icosahedral_grid(2, 4);
  return g;
}

int refin(const Grid& g, Location l, index_t i) {
  return g.refin_ctrl[static_cast<int>(l)][static_cast<std::size_t>(i)];
}
int count_row(const Grid& g, Location l, int row) {
  const auto& r = g.refin_ctrl[static_cast<int>(l)];
  return static_cast<int>(std::count(r.begin(), r.end(), row));
}

/// Everything a cut-out must satisfy, whatever the region.
void expect_valid_limited_area(const Grid& lam) {
  ASSERT_NO_THROW(check_grid(lam));
  EXPECT_TRUE(lam.limited_area);
  test::expect_cell_conventions(lam);
  test::expect_orientation_conventions(lam);
  test::expect_vertex_conventions(lam);

  // Zones: ordered rows contiguous, in order, from 0; the interior right after them.
  for (Location l : all_locations) {
    const int ordered = l == Location::Edge ? lam_ordered_edge_rows : lam_ordered_cell_rows;
    const auto& r = lam.refin_ctrl[static_cast<int>(l)];
    index_t expected_start = 0;
    for (int row = 1; row <= ordered; ++row) {
      const Zone z = row <= (l == Location::Edge ? 8 : 4)
                         ? lateral_boundary_zone(row)
                         : (row == ordered && l == Location::Edge ? Zone::Nudging2 : Zone::Nudging);
      const IndexRange range = lam.range(l, z);
      if (count_row(lam, l, row) == 0) {  // a small domain: ICON4Py's empty zone is [0, 0)
        EXPECT_TRUE(range.empty()) << to_string(l) << " row " << row;
        continue;
      }
      EXPECT_EQ(range.start, expected_start) << to_string(l) << " row " << row;
      EXPECT_EQ(range.size(), count_row(lam, l, row)) << to_string(l) << " row " << row;
      for (index_t i = range.start; i < range.end; ++i) ASSERT_EQ(r[i], row);
      expected_start = range.end;
    }
    EXPECT_EQ(lam.range(l, Zone::Interior), (IndexRange{expected_start, lam.size(l)}));
    for (index_t i = expected_start; i < lam.size(l); ++i)
      ASSERT_TRUE(r[i] == 0 || r[i] > ordered) << to_string(l) << " " << i;
  }

  // Boundary: exactly the edges with one cell are row 1; their cell sits in slot 0.
  for (index_t e = 0; e < lam.num_edges; ++e) {
    const bool boundary = lam.e2c(e, 1) == missing_index;
    ASSERT_EQ(refin(lam, Location::Edge, e) == 1, boundary) << "edge " << e;
    ASSERT_NE(lam.e2c(e, 0), missing_index);
    if (boundary) {
      EXPECT_EQ(lam.edge_cell_distance(e, 1), 0.0);
      EXPECT_EQ(lam.dual_edge_length[e], lam.edge_cell_distance(e, 0));
    } else {
      EXPECT_NEAR(lam.edge_cell_distance(e, 0) + lam.edge_cell_distance(e, 1),
                  lam.dual_edge_length[e], 1e-12 * lam.dual_edge_length[e]);
    }
  }

  // Rows as ICON defines them (grid_refinement.py): vertex row 1 = on the boundary; a cell's row
  // is the lowest row of its vertices; a vertex's row is one more than the lowest row of its
  // cells; an edge's row is the sum of its cells' rows. Checked where no row is capped.
  std::vector<int> boundary_edges_at(static_cast<std::size_t>(lam.num_vertices), 0);
  for (index_t e = 0; e < lam.num_edges; ++e)
    if (lam.e2c(e, 1) == missing_index)
      for (int k = 0; k < 2; ++k) ++boundary_edges_at[lam.e2v(e, k)];
  for (index_t v = 0; v < lam.num_vertices; ++v) {
    const bool on_boundary = boundary_edges_at[v] > 0;
    EXPECT_TRUE(boundary_edges_at[v] == 0 || boundary_edges_at[v] == 2) << "vertex " << v;
    EXPECT_EQ(refin(lam, Location::Vertex, v) == 1, on_boundary) << "vertex " << v;
    if (on_boundary) continue;
    int lowest = 1000;
    for (int s = 0; s < 6; ++s)
      if (lam.v2c(v, s) != missing_index)
        lowest = std::min(lowest, refin(lam, Location::Cell, lam.v2c(v, s)) == 0
                                      ? 1000
                                      : refin(lam, Location::Cell, lam.v2c(v, s)));
    if (lowest < lam_max_vertex_row) {
      EXPECT_EQ(refin(lam, Location::Vertex, v), lowest + 1);
    }
  }
  for (index_t c = 0; c < lam.num_cells; ++c) {
    int lowest = 1000, missing = 0;
    for (int j = 0; j < 3; ++j) {
      const int r = refin(lam, Location::Vertex, lam.c2v(c, j));
      lowest = std::min(lowest, r == 0 ? 1000 : r);
      missing += lam.c2e2c(c, j) == missing_index;
    }
    EXPECT_LE(missing, 1) << "cell " << c << " sticks out of the domain";
    if (lowest < lam_max_cell_row) {
      EXPECT_EQ(refin(lam, Location::Cell, c), lowest);
    }
  }
  for (index_t e = 0; e < lam.num_edges; ++e) {
    if (lam.e2c(e, 1) == missing_index) continue;
    const int r0 = refin(lam, Location::Cell, lam.e2c(e, 0));
    const int r1 = refin(lam, Location::Cell, lam.e2c(e, 1));
    if (r0 > 0 && r1 > 0 && r0 + r1 <= lam_max_edge_row) {
      EXPECT_EQ(refin(lam, Location::Edge, e), r0 + r1) << "edge " << e;
    }
  }
  // As in ICON's LAM files: the boundary is one closed line, so it has as many edges as vertices.
  EXPECT_EQ(count_row(lam, Location::Edge, 1), count_row(lam, Location::Vertex, 1));
  EXPECT_EQ(lateral_boundary_rows(lam), lam.refin_ctrl);
}

/// The cut-out's geometry equals the global grid's at the same points (the same formulas on the
/// same vertices), except dual areas at the boundary and the normals' e2v-relative sign.
void expect_geometry_of_global(const Grid& lam, const Grid& global, const LimitedAreaIndices& map) {
  ASSERT_EQ(map.cell.size(), static_cast<std::size_t>(lam.num_cells));
  ASSERT_EQ(map.edge.size(), static_cast<std::size_t>(lam.num_edges));
  ASSERT_EQ(map.vertex.size(), static_cast<std::size_t>(lam.num_vertices));
  for (index_t c = 0; c < lam.num_cells; ++c) {
    const index_t gc = map.cell[c];
    EXPECT_EQ(lam.cell_area[c], global.cell_area[gc]);
    EXPECT_EQ(lam.cell_lon[c], global.cell_lon[gc]);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(map.vertex[lam.c2v(c, j)], global.c2v(gc, j));
  }
  for (index_t e = 0; e < lam.num_edges; ++e) {
    const index_t ge = map.edge[e];
    EXPECT_EQ(lam.edge_length[e], global.edge_length[ge]);
    EXPECT_NEAR(lam.primal_normal_east[e], global.primal_normal_east[ge], 1e-15) << "edge " << e;
    EXPECT_NEAR(lam.primal_normal_north[e], global.primal_normal_north[ge], 1e-15) << "edge " << e;
    if (lam.e2c(e, 1) != missing_index) {
      EXPECT_EQ(lam.dual_edge_length[e], global.dual_edge_length[ge]);
      EXPECT_EQ(lam.tangent_orientation[e], global.tangent_orientation[ge]);
    }
  }
  for (index_t v = 0; v < lam.num_vertices; ++v) {
    const double global_area = global.dual_area[map.vertex[v]];
    if (refin(lam, Location::Vertex, v) == 1) {
      EXPECT_LT(lam.dual_area[v], global_area);
    } else {
      EXPECT_NEAR(lam.dual_area[v], global_area, 1e-13 * global_area);
    }
  }
}

TEST(LimitedAreaRegion, ContainsAndValidates) {
  const auto cap = LimitedAreaRegion::cap(10 * deg, 45 * deg, 5 * deg);
  EXPECT_TRUE(cap.contains(10 * deg, 45 * deg));
  EXPECT_TRUE(cap.contains(10 * deg, 49.9 * deg));
  EXPECT_FALSE(cap.contains(10 * deg, 50.1 * deg));
  const auto box = LimitedAreaRegion::lon_lat_box(170 * deg, -170 * deg, -10 * deg, 10 * deg);
  EXPECT_TRUE(box.contains(175 * deg, 0));
  EXPECT_TRUE(box.contains(-175 * deg, 0));
  EXPECT_FALSE(box.contains(0, 0));
  EXPECT_FALSE(box.contains(175 * deg, 11 * deg));
  EXPECT_NE(cap.describe().find("cap(lon=10.000°"), std::string::npos);
  EXPECT_THROW(LimitedAreaRegion::cap(0, 0, 0), InvalidArgument);
  EXPECT_THROW(LimitedAreaRegion::cap(0, 2.0, 0.1), InvalidArgument);
  EXPECT_THROW(LimitedAreaRegion::cap(0, 0, 4.0), InvalidArgument);
  EXPECT_THROW(LimitedAreaRegion::lon_lat_box(0, 0, 0, 0.1), InvalidArgument);
  EXPECT_THROW(LimitedAreaRegion::lon_lat_box(0, 0.1, 0.2, 0.1), InvalidArgument);
}

TEST(LimitedArea, CapFollowsIconConventions) {
  const Grid& global = global_r2b4();
  LimitedAreaIndices map;
  const Grid lam =
      cut_limited_area(global, LimitedAreaRegion::cap(10 * deg, 45 * deg, 25 * deg), &map);
  EXPECT_GT(lam.num_cells, 500);
  EXPECT_LT(lam.num_cells, global.num_cells / 8);
  expect_valid_limited_area(lam);
  expect_geometry_of_global(lam, global, map);
  // A convex region: the rows shrink inwards.
  for (int row = 1; row < 5; ++row)
    EXPECT_GE(count_row(lam, Location::Cell, row), count_row(lam, Location::Cell, row + 1));
  // Edge rows 2k lie inside cell row k: as many as cells in that row on a smooth boundary.
  EXPECT_EQ(count_row(lam, Location::Edge, 2), count_row(lam, Location::Cell, 1));
  EXPECT_EQ(lam.name, "R2B4_lam");
}

TEST(LimitedArea, BoxAcrossTheDateLineAndCapAroundAPentagon) {
  const Grid& global = global_r2b4();
  LimitedAreaIndices map;
  const Grid box = cut_limited_area(
      global, LimitedAreaRegion::lon_lat_box(150 * deg, -160 * deg, -20 * deg, 25 * deg), &map);
  expect_valid_limited_area(box);
  expect_geometry_of_global(box, global, map);

  // Around the north pole, where a pentagon (5 cells) lies inside the domain.
  const Grid polar = cut_limited_area(global, LimitedAreaRegion::cap(0, pi / 2, 20 * deg), &map);
  expect_valid_limited_area(polar);
  expect_geometry_of_global(polar, global, map);
  int pentagons = 0;
  for (index_t v = 0; v < polar.num_vertices; ++v)
    pentagons += polar.v2c(v, 4) != missing_index && polar.v2c(v, 5) == missing_index &&
                 polar.v2e(v, 5) == missing_index;
  EXPECT_EQ(pentagons, 1);
}

TEST(LimitedArea, RegularisesRaggedSelections) {
  // A thin cap on a coarse grid selects a ragged set; the cut-out still has one missing
  // neighbour per boundary cell and no vertex where the domain touches itself.
  const Grid coarse = generate_icosahedral_grid(2, 2);
  for (double radius : {12.0, 17.0, 23.0, 31.0}) {
    SCOPED_TRACE(radius);
    const Grid lam =
        cut_limited_area(coarse, LimitedAreaRegion::cap(33 * deg, -12 * deg, radius * deg));
    expect_valid_limited_area(lam);
  }
}

TEST(LimitedArea, RefusesUnusableInput) {
  const Grid coarse = generate_icosahedral_grid(2, 1);
  // Nothing inside (smaller than a cell) and everything inside.
  EXPECT_THROW(cut_limited_area(coarse, LimitedAreaRegion::cap(0.1, 0.1, 1e-4)), InvalidArgument);
  EXPECT_THROW(cut_limited_area(coarse, LimitedAreaRegion::cap(0, 0, 3.14)), InvalidArgument);
  // A limited-area grid is not cut again.
  const Grid lam = cut_limited_area(coarse, LimitedAreaRegion::cap(0, 0, 60 * deg));
  EXPECT_THROW(cut_limited_area(lam, LimitedAreaRegion::cap(0, 0, 30 * deg)), InvalidArgument);
  Grid no_coordinates = coarse;
  no_coordinates.cell_lon.clear();
  EXPECT_THROW(cut_limited_area(no_coordinates, LimitedAreaRegion::cap(0, 0, 30 * deg)),
               InvalidArgument);
}

TEST(LimitedArea, WriteThenReadGivesTheSameGrid) {
  const Grid lam =
      cut_limited_area(global_r2b4(), LimitedAreaRegion::cap(-60 * deg, 10 * deg, 20 * deg));
  const std::string path = test::scratch_file("generated_lam.nc");
  write_icon_grid(lam, path);
  const Grid r = read_icon_grid(path);
  EXPECT_TRUE(r.limited_area);
  EXPECT_EQ(r.num_cells, lam.num_cells);
  EXPECT_EQ(r.c2e, lam.c2e);
  EXPECT_EQ(r.c2v, lam.c2v);
  EXPECT_EQ(r.c2e2c, lam.c2e2c);
  EXPECT_EQ(r.e2c, lam.e2c);
  EXPECT_EQ(r.e2v, lam.e2v);
  EXPECT_EQ(r.v2e, lam.v2e);
  EXPECT_EQ(r.v2c, lam.v2c);
  EXPECT_EQ(r.e2c2v, lam.e2c2v);
  EXPECT_EQ(r.e2c2e, lam.e2c2e);
  EXPECT_EQ(r.cell_area, lam.cell_area);
  EXPECT_EQ(r.dual_area, lam.dual_area);
  EXPECT_EQ(r.dual_edge_length, lam.dual_edge_length);
  EXPECT_EQ(r.edge_cell_distance, lam.edge_cell_distance);
  EXPECT_EQ(r.primal_normal_east, lam.primal_normal_east);
  EXPECT_EQ(r.tangent_orientation, lam.tangent_orientation);
  EXPECT_EQ(r.cell_edge_orientation, lam.cell_edge_orientation);
  EXPECT_EQ(r.vertex_edge_orientation, lam.vertex_edge_orientation);
  EXPECT_EQ(r.refin_ctrl, lam.refin_ctrl);
  EXPECT_EQ(r.zones, lam.zones);
}

TEST(LimitedArea, RowRulesReproduceDwdLamFile) {
  // The rules cut_limited_area numbers rows by, applied to the connectivity of DWD's R19B04 LAM
  // grid, give its refin_c_ctrl, refin_e_ctrl and refin_v_ctrl exactly.
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid file = read_icon_grid(path);
  EXPECT_EQ(lateral_boundary_rows(file), file.refin_ctrl);
  // On a global grid there is no boundary.
  const Grid global = generate_icosahedral_grid(2, 0);
  for (Location l : all_locations)
    EXPECT_EQ(lateral_boundary_rows(global)[static_cast<int>(l)],
              std::vector<int>(global.size(l), 0));
}

TEST(LimitedArea, RowSizesBehaveAsInDwdLamFile) {
  // The file's statistics: 190 boundary edges = 190 row-1 vertices; every boundary cell has one
  // missing neighbour; edge row 2 has as many edges as cell row 1; rows shrink inwards.
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const Grid file = read_icon_grid(path);
  const Grid lam = cut_limited_area(generate_icosahedral_grid(2, 5),
                                    LimitedAreaRegion::cap(8 * deg, 46.8 * deg, 12 * deg));
  for (const Grid* g : {&file, &lam}) {
    SCOPED_TRACE(g->name);
    EXPECT_EQ(count_row(*g, Location::Edge, 1), count_row(*g, Location::Vertex, 1));
    EXPECT_EQ(count_row(*g, Location::Edge, 2), count_row(*g, Location::Cell, 1));
    for (index_t c = 0; c < g->num_cells; ++c) {
      int missing = 0;
      for (int j = 0; j < 3; ++j) missing += g->c2e2c(c, j) == missing_index;
      EXPECT_LE(missing, 1);
    }
    for (int row = 1; row < lam_max_cell_row; ++row)
      if (count_row(*g, Location::Cell, row + 1) > 0) {
        EXPECT_GE(count_row(*g, Location::Cell, row), count_row(*g, Location::Cell, row + 1));
      }
    for (int row = 1; row < 5; ++row)
      EXPECT_GE(count_row(*g, Location::Vertex, row), count_row(*g, Location::Vertex, row + 1));
  }
}

}  // namespace
}  // namespace icondiff
