// The grids the granule-level tests run on: the real global and limited-area ICON grids when
// ../shared/data/grids has them, else generated grids of both kinds, so a bare checkout still
// tests everything end to end.
#pragma once

#include "grid_files.hpp"

#include <icondiff/grid/grid.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

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

/// [global, limited area]: the real R02B03 / R19B04 files, else generated R2B2 / an R2B4 cut-out.
inline std::vector<GridCase> global_and_lam_grids() {
  std::vector<GridCase> grids;
  if (const auto p = real_grid(global_r02b03))
    grids.push_back({"R02B03 global (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B2 global (generated)", load_grid_source("generate:R2B2")});
  if (const auto p = real_grid(lam_r19b04))
    grids.push_back({"R19B04 limited area (file)", read_icon_grid(*p)});
  else
    grids.push_back({"R2B4 limited area (generated)", load_grid_source(generated_lam)});
  return grids;
}

}  // namespace icondiff::test
