// The C API behind the Fortran module: status codes and messages instead of exceptions.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/io/grid_file.hpp>

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <string>

namespace icondiff {
namespace {

TEST(CApi, ReadsAGridAndReportsSizesAndZones) {
  const std::string path = test::scratch_file("capi_octahedron.nc");
  const Grid g = test::make_octahedron_grid();
  write_icon_grid(g, path);
  icondiff_grid* grid = nullptr;
  ASSERT_EQ(icondiff_grid_read(path.c_str(), &grid), ICONDIFF_OK) << icondiff_last_error();
  int nc = 0, ne = 0, nv = 0, lam = -1;
  ASSERT_EQ(icondiff_grid_sizes(grid, &nc, &ne, &nv, &lam), ICONDIFF_OK);
  EXPECT_EQ(nc, 8);
  EXPECT_EQ(ne, 12);
  EXPECT_EQ(nv, 6);
  EXPECT_EQ(lam, 0);
  int start = -1, end = -1;
  ASSERT_EQ(icondiff_grid_zone(grid, ICONDIFF_EDGE, ICONDIFF_ZONE_INTERIOR, &start, &end),
            ICONDIFF_OK);
  EXPECT_EQ(start, 0);
  EXPECT_EQ(end, 12);
  EXPECT_EQ(icondiff_grid_zone(grid, ICONDIFF_CELL, 4, &start, &end), ICONDIFF_INVALID_ARGUMENT)
      << "cells have no boundary row 5";
  EXPECT_NE(std::string(icondiff_last_error()).find("does not exist for cells"), std::string::npos);
  EXPECT_EQ(icondiff_grid_zone(grid, 7, 0, &start, &end), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_EQ(icondiff_grid_zone(grid, 0, 99, &start, &end), ICONDIFF_INVALID_ARGUMENT);
  icondiff_grid_free(grid);
}

TEST(CApi, ZonesOfTheRealLimitedAreaGrid) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  icondiff_grid* grid = nullptr;
  ASSERT_EQ(icondiff_grid_read(path.c_str(), &grid), ICONDIFF_OK) << icondiff_last_error();
  int start = 0, end = 0;
  ASSERT_EQ(icondiff_grid_zone(grid, ICONDIFF_CELL, ICONDIFF_ZONE_NUDGING, &start, &end),
            ICONDIFF_OK);
  EXPECT_EQ(start, 1404);
  EXPECT_EQ(end, 1710);
  icondiff_grid_free(grid);
}

TEST(CApi, ErrorsBecomeStatusCodesWithMessages) {
  icondiff_grid* grid = reinterpret_cast<icondiff_grid*>(0x1);
  EXPECT_EQ(icondiff_grid_read("/no/such/grid.nc", &grid), ICONDIFF_GRID_ERROR);
  EXPECT_EQ(grid, nullptr);
  const std::string message = icondiff_last_error();
  EXPECT_NE(message.find("/no/such/grid.nc"), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  EXPECT_EQ(icondiff_grid_read(nullptr, &grid), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("path is a null pointer"), std::string::npos);
  EXPECT_EQ(icondiff_grid_sizes(nullptr, nullptr, nullptr, nullptr, nullptr),
            ICONDIFF_INVALID_ARGUMENT);
  int major = -1, minor = -1, patch = -1;
  icondiff_version(&major, &minor, &patch);
  EXPECT_GE(major, 0);
  EXPECT_GE(minor, 0);
}

}  // namespace
}  // namespace icondiff
