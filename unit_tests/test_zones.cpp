// Zones from refin_ctrl: ICON4Py's compute_domain_bounds rules (diffusion_spec.md §1.4), on
// hand-made refinement arrays.
#include <icondiff/core/error.hpp>
#include <icondiff/grid/zones.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace icondiff {
namespace {

IndexRange R(index_t s, index_t e) {
  return {s, e};
}

TEST(Zones, GlobalGridHasEmptyOrderedZonesAndFullInterior) {
  for (Location l : all_locations) {
    const int unordered_parent = l == Location::Edge ? -8 : -4;
    for (int fill : {0, unordered_parent}) {
      const Zones z = compute_zones(l, std::vector<int>(10, fill));
      for (int k = 0; k < num_zones; ++k) {
        const auto zone = static_cast<Zone>(k);
        if (!zone_exists(l, zone)) continue;
        if (k <= static_cast<int>(Zone::Nudging2)) {
          EXPECT_EQ(z.range(zone), R(0, 0)) << to_string(zone);
        }
      }
      EXPECT_EQ(z.range(Zone::Interior), R(0, 10));
      EXPECT_EQ(z.range(Zone::Local), R(0, 10));
      EXPECT_EQ(z.range(Zone::Halo), R(10, 10));
      EXPECT_EQ(z.range(Zone::Halo2), R(10, 10));
      EXPECT_EQ(z.range(Zone::End), R(10, 10));
    }
  }
}

TEST(Zones, LimitedAreaCellsAreOrderedRows) {
  // rows 1..5 ordered, then the interior mixes 0 with rows > 5
  const std::vector<int> refin = {1, 1, 2, 2, 3, 4, 5, 5, 0, 7, 0, 6};
  const Zones z = compute_zones(Location::Cell, refin);
  EXPECT_EQ(z.range(Zone::LateralBoundary1), R(0, 2));
  EXPECT_EQ(z.range(Zone::LateralBoundary2), R(2, 4));
  EXPECT_EQ(z.range(Zone::LateralBoundary3), R(4, 5));
  EXPECT_EQ(z.range(Zone::LateralBoundary4), R(5, 6));
  EXPECT_EQ(z.range(Zone::Nudging), R(6, 8));
  EXPECT_EQ(z.range(Zone::Interior), R(8, 12));
  EXPECT_EQ(z.range(Zone::Local), R(0, 12));
  EXPECT_THROW(z.range(Zone::LateralBoundary5), InvalidArgument);
  EXPECT_THROW(z.range(Zone::Nudging2), InvalidArgument);
  EXPECT_TRUE(has_lateral_boundary(Location::Cell, refin));
}

TEST(Zones, LimitedAreaEdgesHaveEightBoundaryRowsAndTwoNudgingRows) {
  std::vector<int> refin;
  for (int row = 1; row <= 10; ++row) refin.insert(refin.end(), static_cast<std::size_t>(row), row);
  refin.insert(refin.end(), {0, 12, 0, 11, 0});
  const Zones z = compute_zones(Location::Edge, refin);
  index_t start = 0;
  for (int row = 1; row <= 8; ++row) {
    EXPECT_EQ(z.range(lateral_boundary_zone(row)), R(start, start + row)) << row;
    start += row;
  }
  EXPECT_EQ(z.range(Zone::Nudging), R(start, start + 9));
  EXPECT_EQ(z.range(Zone::Nudging2), R(start + 9, start + 19));
  EXPECT_EQ(z.range(Zone::Interior), R(start + 19, start + 24));
}

TEST(Zones, NestOverlapValuesOfAParentGridBecomeTheirAbsoluteValue) {
  EXPECT_EQ(to_non_nested_refinement(Location::Cell, -4), 0);
  EXPECT_EQ(to_non_nested_refinement(Location::Vertex, -4), 0);
  EXPECT_EQ(to_non_nested_refinement(Location::Edge, -8), 0);
  EXPECT_EQ(to_non_nested_refinement(Location::Cell, -3), 3);
  EXPECT_EQ(to_non_nested_refinement(Location::Edge, -4), 4);
  EXPECT_EQ(to_non_nested_refinement(Location::Edge, 7), 7);
  // -1 -1 -2 -4(=unordered) -5: row 4 is empty, the interior starts after the nudging row
  const Zones z = compute_zones(Location::Cell, {-1, -1, -2, -4, -5, 0});
  EXPECT_EQ(z.range(Zone::LateralBoundary1), R(0, 2));
  EXPECT_EQ(z.range(Zone::LateralBoundary2), R(2, 3));
  EXPECT_EQ(z.range(Zone::LateralBoundary4), R(3, 3));  // empty, after the rows before it
  EXPECT_EQ(z.range(Zone::Nudging), R(4, 5));
  EXPECT_EQ(z.range(Zone::Interior), R(5, 6));
}

TEST(Zones, AnEmptyRowSitsAfterTheRowsBeforeIt) {
  // A rank of a decomposed limited-area grid whose owned cells reach from the boundary to row 4
  // but hold no nudging cell: NUDGING is empty at the end of row 4, not at 0, so that a program
  // on [NUDGING, LOCAL) does not run over the boundary rows (it did: the decomposed solve_nh
  // granule on a small generated cut-out went NaN on 3 and 4 ranks).
  const Zones z = compute_zones(Location::Cell, {1, 1, 2, 3, 4, 0, 0, 4}, {0, 0, 0, 0, 0, 0, 0, 1});
  EXPECT_EQ(z.range(Zone::LateralBoundary4), R(4, 5));
  EXPECT_EQ(z.range(Zone::Nudging), R(5, 5));
  EXPECT_EQ(z.range(Zone::Interior), R(5, 7));
  EXPECT_EQ(z.range(Zone::Halo), R(7, 8));
  // A rank (or grid) without boundary rows keeps them all empty at 0.
  const Zones inner = compute_zones(Location::Cell, {0, 0, 0}, {0, 0, 1});
  for (const Zone zone : {Zone::LateralBoundary1, Zone::LateralBoundary4, Zone::Nudging})
    EXPECT_EQ(inner.range(zone), R(0, 0)) << to_string(zone);
}

TEST(Zones, ExtremeRefinementValuesAreBeyondEveryRow) {
  // -2^31 has no int negation (undefined behaviour before; the sanitizer gate runs this test).
  constexpr int lowest = std::numeric_limits<int>::min(), highest = std::numeric_limits<int>::max();
  EXPECT_EQ(to_non_nested_refinement(Location::Cell, lowest), highest);
  EXPECT_EQ(to_non_nested_refinement(Location::Cell, highest), highest);
  const Zones zones = compute_zones(Location::Cell, {lowest, 0, highest}, {});
  EXPECT_EQ(zones.range(Zone::Interior).size(), 3);
}

TEST(Zones, RowsThatAreNotContiguousAreRejected) {
  try {
    compute_zones(Location::Cell, {1, 2, 1, 0});
    FAIL() << "expected GridError";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1 is not stored contiguously"), std::string::npos)
        << e.what();
  }
}

TEST(Zones, RowsOutOfOrderAreRejected) {
  EXPECT_THROW(compute_zones(Location::Cell, {2, 2, 1, 0}), GridError);
  EXPECT_THROW(compute_zones(Location::Vertex, {5, 1, 0, 0}), GridError);
}

TEST(Zones, HaloLinesFollowTheOwnedPoints) {
  // 6 owned (interior), 2 first-line and 2 second-line halo points at the end
  const std::vector<int> refin(10, 0);
  const std::vector<int> halo = {0, 0, 0, 0, 0, 0, 1, 1, 2, 2};
  const Zones z = compute_zones(Location::Cell, refin, halo);
  EXPECT_EQ(z.range(Zone::Local), R(0, 6));
  EXPECT_EQ(z.range(Zone::Interior), R(0, 6));
  EXPECT_EQ(z.range(Zone::Halo), R(6, 8));
  EXPECT_EQ(z.range(Zone::Halo2), R(8, 10));
  EXPECT_EQ(z.range(Zone::End), R(10, 10));
  EXPECT_THROW(compute_zones(Location::Cell, refin, {0, 1}), InvalidArgument);
}

TEST(Zones, LimitedAreaHaloPointsInTheOuterRowsStayWithTheBoundary) {
  // A LAM boundary-row-1 halo cell is stored with row 1 (ICON4Py
  // _refinement_level_placed_with_halo)
  const std::vector<int> refin = {1, 1, 2, 3, 4, 5, 0, 0, 0, 0};
  const std::vector<int> halo = {0, 1, 0, 0, 0, 0, 0, 0, 1, 2};
  const Zones z = compute_zones(Location::Cell, refin, halo);
  EXPECT_EQ(z.range(Zone::LateralBoundary1), R(0, 1));
  EXPECT_EQ(z.range(Zone::Halo), R(8, 9));
  EXPECT_EQ(z.range(Zone::Halo2), R(9, 10));
  EXPECT_EQ(z.range(Zone::Interior), R(6, 8));
}

TEST(Zones, ARankOwningOnlyTheOutermostRowsKeepsItsBoundaryHaloOutOfTheInterior) {
  // Edges of a rank owning only boundary row 1 of a LAM (issue 29, item 4), in
  // make_local_grid's order: owned rows 1 and 2; line-1 halo edges of row 3 and line-2 halo edges
  // of row 4, both stored with the boundary rows; ICON4Py's third edge level (row 5) last.
  const std::vector<int> refin = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  const std::vector<int> halo = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3};
  const Zones z = compute_zones(Location::Edge, refin, halo);
  EXPECT_EQ(z.range(Zone::LateralBoundary1), R(0, 2));
  EXPECT_EQ(z.range(Zone::LateralBoundary2), R(2, 4));
  // The rows this rank lacks sit after the halo points stored with the rows before them...
  EXPECT_EQ(z.range(Zone::LateralBoundary3), R(4, 4));
  EXPECT_EQ(z.range(Zone::LateralBoundary4), R(6, 6));
  EXPECT_EQ(z.range(Zone::LateralBoundary5), R(8, 8));
  EXPECT_EQ(z.range(Zone::Nudging2), R(8, 8));
  // ...and neither those halo points nor the third level are interior or local.
  EXPECT_EQ(z.range(Zone::Interior), R(8, 8));
  EXPECT_EQ(z.range(Zone::Local), R(0, 8));
  EXPECT_EQ(z.range(Zone::Halo), R(8, 8));
  EXPECT_EQ(z.range(Zone::Halo2), R(8, 8));
}

TEST(Zones, IconRefinementLevelsMatchMoImplConstants) {
  EXPECT_EQ(icon_refinement_level(Location::Cell, Zone::End), -8);    // min_rlcell
  EXPECT_EQ(icon_refinement_level(Location::Cell, Zone::Local), -4);  // min_rlcell_int
  EXPECT_EQ(icon_refinement_level(Location::Cell, Zone::Halo2), -6);
  EXPECT_EQ(icon_refinement_level(Location::Cell, Zone::Nudging), 5);    // grf_bdywidth_c + 1
  EXPECT_EQ(icon_refinement_level(Location::Edge, Zone::End), -13);      // min_rledge
  EXPECT_EQ(icon_refinement_level(Location::Edge, Zone::Local), -8);     // min_rledge_int
  EXPECT_EQ(icon_refinement_level(Location::Edge, Zone::Nudging), 9);    // grf_bdywidth_e
  EXPECT_EQ(icon_refinement_level(Location::Edge, Zone::Nudging2), 10);  // grf_bdywidth_e + 1
  EXPECT_EQ(icon_refinement_level(Location::Vertex, Zone::End), -7);     // min_rlvert
  EXPECT_EQ(icon_refinement_level(Location::Edge, Zone::LateralBoundary5), 5);
  EXPECT_EQ(icon_refinement_level(Location::Cell, Zone::Interior), 0);
  EXPECT_THROW(icon_refinement_level(Location::Cell, Zone::LateralBoundary5), InvalidArgument);
  EXPECT_STREQ(to_string(Zone::LateralBoundary2), "LATERAL_BOUNDARY_LEVEL_2");
  EXPECT_STREQ(to_string(Zone::Nudging2), "NUDGING_LEVEL_2");
}

}  // namespace
}  // namespace icondiff
