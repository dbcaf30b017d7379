// The grids the granule-level tests run on: the real global and limited-area ICON grids when
// ../shared/data/grids has them, else generated grids of both kinds, so a bare checkout still
// tests everything end to end.
#pragma once

#include "grid_files.hpp"

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

/// True when ICONDIFF_TEST_GRIDS=generated: the sanitizer gate (scripts/ci_sanitizers.sh) runs
/// the granule-level test bodies on the generated grids of a bare checkout (R2B2: 1,280 cells
/// instead of R02B03's 5,120), which take the same branches; the real files are still read and
/// checked there by the grid-reader tests, and run through every granule test in the other builds.
inline bool generated_grids_only() {
  const char* choice = std::getenv("ICONDIFF_TEST_GRIDS");
  return choice != nullptr && std::string(choice) == "generated";
}

/// [global, limited area]: the real R02B03 / R19B04 files, else generated R2B2 / an R2B4 cut-out.
inline std::vector<GridCase> global_and_lam_grids() {
  std::vector<GridCase> grids;
  const bool real = !generated_grids_only();
  if (const auto p = real ? real_grid(global_r02b03) : std::nullopt)
    grids.push_back({"R02B03 global (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B2 global (generated)", load_grid_source("generate:R2B2")});
  if (const auto p = real ? real_grid(lam_r19b04) : std::nullopt)
    grids.push_back({"R19B04 limited area (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B4 limited area (generated)", load_grid_source(generated_lam)});
  return grids;
}

}  // namespace icondiff::test
