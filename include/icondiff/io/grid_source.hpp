// Grids named by one line of text, as the command line and savepoints name them, so a run or a
// captured call can be reproduced from its record alone.
//
//   PATH, file:PATH                       an ICON grid netCDF file
//   generate:RnBk                         icondiff's global icosahedral grid (e.g. generate:R2B4)
//   generate:RnBk/cap:LON,LAT,RADIUS      a limited-area cut-out: spherical cap (degrees)
//   generate:RnBk/box:LON0,LON1,LAT0,LAT1 a limited-area cut-out: lon/lat box (degrees)
#pragma once

#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/grid_block.hpp>
#include <icondiff/grid/limited_area.hpp>

#include <optional>
#include <string>

namespace icondiff {

/// Reads or generates the grid `source` names; its `source` member is set to `source`.
/// Throws InvalidArgument for text that names no grid, GridFileError for a bad file.
Grid load_grid_source(const std::string& source);

/// Block `block` of `num_blocks` of the grid `source` names (grid/grid_block.hpp): a file's
/// rows read by read_icon_grid_block (nothing of the whole grid's size); a generated grid is
/// generated whole and cut (grid_block_of). Its `source` member is set to `source`.
GridBlock load_grid_source_block(const std::string& source, int block, int num_blocks);

/// The source text of a generated grid, e.g. "generate:R2B4/cap:8,46.5,20".
std::string generated_grid_source(int root, int bisections,
                                  const std::optional<LimitedAreaRegion>& region = std::nullopt);

}  // namespace icondiff
