// The grids the granule-level tests run on: the real global and limited-area ICON grids when
// ../shared/data/grids has them, else generated grids of both kinds, so a bare checkout still
// tests everything end to end.
#pragma once

#include "grid_files.hpp"

#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace icondiff::test {

/// A limited-area cut-out of a generated grid (centre 8E 46.5N, radius 10 degrees), with ICON's
/// boundary and nudging rows.
inline constexpr const char* generated_lam = "generate:R2B4/cap:8,46.5,10";

struct GridCase {
  std::string name;
  Grid grid;
};

/// [global, limited area]: the real R02B03 / R19B04 files (when use_real_files and present), else
/// generated R2B2 / an R2B4 cut-out.
inline std::vector<GridCase> global_and_lam_grids(bool use_real_files = true) {
  std::vector<GridCase> grids;
  if (const auto p = use_real_files ? real_grid(global_r02b03) : std::nullopt)
    grids.push_back({"R02B03 global (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B2 global (generated)", load_grid_source("generate:R2B2")});
  if (const auto p = use_real_files ? real_grid(lam_r19b04) : std::nullopt)
    grids.push_back({"R19B04 limited area (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B4 limited area (generated)", load_grid_source(generated_lam)});
  return grids;
}

/// The grids of the granule and dycore program tests (the heaviest test bodies): those of
/// global_and_lam_grids(), or its generated ones when ICONDIFF_TEST_GRIDS=generated. The sanitizer
/// gate (scripts/ci_sanitizers.sh) sets it: the same test bodies and branches on a quarter of the
/// cells (R2B2: 1,280 against R02B03's 5,120); the real files are still read and checked there by
/// the grid-reader tests, and run through these tests in every other build.
inline bool generated_test_grids_only() {
  const char* choice = std::getenv("ICONDIFF_TEST_GRIDS");
  return choice != nullptr && std::string(choice) == "generated";
}
inline std::vector<GridCase> granule_test_grids() {
  return global_and_lam_grids(!generated_test_grids_only());
}

/// ICON4Py's interpolation configuration, with the nudging zone narrowed to what `g` marks: a
/// generated cut-out has fewer boundary rows than ICON's nudge_zone_width + 4 (the real LAM
/// file has them all), and the interpolation factory refuses a zone the grid cannot hold.
inline InterpolationConfig interpolation_config_for(const Grid& g) {
  InterpolationConfig config;
  const auto& refin = g.refin_ctrl[static_cast<int>(Location::Cell)];
  int rows = 0;
  for (const int r : refin) rows = r > rows ? r : rows;
  if (rows > 0 && rows < config.nudge_zone_width + 4)
    config.nudge_zone_width = rows > 4 ? rows - 4 : 0;
  return config;
}

/// The centre of a grid's cells (degrees), e.g. for a mountain in the middle of a LAM domain.
inline void centre_of(const Grid& g, double& lon_deg, double& lat_deg) {
  constexpr double deg = 3.14159265358979323846 / 180.0;
  sphere::Vec3 sum;
  for (index_t c = 0; c < g.num_cells; ++c)
    sum = sum + sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]);
  const sphere::Vec3 centre = sphere::normalize(sum);
  lon_deg = sphere::longitude(centre) / deg;
  lat_deg = sphere::latitude(centre) / deg;
}

}  // namespace icondiff::test
