// solve_nh savepoint files: one SolveNhSavepoint in one self-describing netCDF file of the same
// format as the diffusion's (docs/dev/savepoints.md, "solve_nh savepoints": dimensions,
// variables, attributes). Written by src/io/solve_nh_savepoint_file.cpp on top of what every
// savepoint file holds (src/io/savepoint_file_common.cpp) and the global attributes
// (src/io/savepoint_attributes.cpp). identify_savepoint (savepoint_file.hpp) tells a solve_nh
// savepoint from a diffusion one.
#pragma once

#include <icondiff/io/savepoint_file.hpp>
#include <icondiff/io/solve_nh_savepoint_types.hpp>

#include <string>

namespace icondiff {

/// Writes `savepoint` to `path` (through a temporary file renamed at the end).
/// Throws ConfigError if the configuration is one the granule refuses
/// (DycoreConfig::validate_for_solve_nh) or vct_a does not validate, InvalidArgument if a field
/// has the wrong extents or a required one is missing, nlev disagrees with vct_a, a vertical
/// index, a step scalar or the mean cell area is out of range or a metadata key is not a valid
/// name, and SavepointFileError if the file cannot be written.
void write_solve_nh_savepoint(const std::string& path, const SolveNhSavepoint& savepoint,
                              SavepointFileFormat format = SavepointFileFormat::Auto);

/// Reads a savepoint written by write_solve_nh_savepoint (any netCDF flavour; vp fields are
/// converted to this build's vp). Throws SavepointFileError naming the file, the variable or
/// attribute and the expectation for every problem: not netCDF or truncated, format version, not
/// a solve_nh savepoint (a diffusion savepoint is named as such), missing or malformed
/// attributes, a configuration the granule refuses, scalars out of range, an invalid vertical
/// grid, missing variables, wrong dimensions or sizes, non-integral integer fields.
SolveNhSavepoint read_solve_nh_savepoint(const std::string& path);

}  // namespace icondiff
