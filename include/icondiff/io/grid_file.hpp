// Reading ICON grid netCDF files (global and limited-area; classic, 64-bit-offset or netCDF-4).
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/grid_block.hpp>

#include <string>

namespace icondiff {

/// Reads an ICON grid file into a host Grid: connectivity (0-based, missing_index for missing
/// neighbours, whether the file marks them with 0 or -1), the geometry stored in the file, the
/// zones computed from refin_*_ctrl, and the derived connectivities.
///
/// Throws GridFileError naming the file, the variable, the index and what was expected when the
/// file is missing, unreadable or truncated, lacks a variable or dimension, has a variable of the
/// wrong shape or type, holds an index out of range, connectivity that contradicts itself, or
/// NaN/non-positive areas and lengths. See docs/dev/grid.md for every variable read.
Grid read_icon_grid(const std::string& path);

/// Reads block `block` of `num_blocks` of an ICON grid file: for each location the rows
/// [N·block/num_blocks, N·(block+1)/num_blocks) of every per-point variable, one hyperslab each
/// (grid/grid_block.hpp), as read_icon_grid reads them (the same values in the same places, with
/// connectivity as global 0-based indices). What a row shows alone is checked here (index
/// ranges, fill values, refinement control values, cell_area_p against cell_area); what needs
/// neighbours is checked on the local grid built from the blocks. Every rank of a decomposed
/// set-up reads its own block; nothing of the whole grid's size is allocated.
/// Throws InvalidArgument for a block outside [0, num_blocks), GridFileError as read_icon_grid.
GridBlock read_icon_grid_block(const std::string& path, int block, int num_blocks);

/// Writes `grid` as an ICON grid file (netCDF 64-bit offset, 1-based indices, -1 for missing
/// neighbours as DWD's icontools do) that read_icon_grid, ICON4Py's grid manager, xarray and CDO
/// read: the variables read_icon_grid needs, plus cell corner coordinates (clon_vertices,
/// clat_vertices) and CF attributes. Throws GridError if the grid lacks geometry.
void write_icon_grid(const Grid& grid, const std::string& path);

}  // namespace icondiff
