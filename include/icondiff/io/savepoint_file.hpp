// Diffusion savepoint files: one DiffusionSavepoint in one self-describing netCDF file, specified
// in docs/dev/savepoints.md (dimensions, variables, attributes, encodings). Written by
// src/io/savepoint_file.cpp (the diffusion's variables and vertical grid) on top of
// src/io/savepoint_file_common.cpp (what every granule's savepoint file holds: header, grid
// reference, decomposition, field variables) and src/io/savepoint_attributes.cpp (the config.*
// and metadata.* global attributes). The solve_nh granule's files: solve_nh_savepoint_file.hpp.
// identify_savepoint says whose a file is.
#pragma once

#include <icondiff/io/savepoint_types.hpp>

#include <string>

namespace icondiff {

/// Value of the global attribute `icondiff_savepoint_format` this icondiff writes and reads.
inline constexpr int savepoint_format_version = 1;

/// netCDF flavour of a written savepoint. Auto: 64-bit offset (readable by every netCDF tool),
/// or CDF-5 when a variable would exceed the 4 GiB per-variable limit of that format.
enum class SavepointFileFormat { Auto, Offset64, Cdf5, Netcdf4 };

/// Writes `savepoint` to `path` (through a temporary file in the same folder renamed at the end,
/// so an interrupted write never leaves a truncated savepoint under `path`).
/// Throws ConfigError if the config or the vertical grid does not validate, InvalidArgument if a
/// field has the wrong extents or is missing, a metadata key is not a valid name or dtime is not
/// positive, and SavepointFileError if the file cannot be written.
void write_diffusion_savepoint(const std::string& path, const DiffusionSavepoint& savepoint,
                               SavepointFileFormat format = SavepointFileFormat::Auto);

/// Reads a savepoint written by write_diffusion_savepoint (any format; vp fields are converted
/// to this build's vp). Throws SavepointFileError naming the file, the variable or attribute and
/// the expectation for every problem: not netCDF or truncated, format version, unknown kind,
/// missing or malformed attributes, config values that are not a known enum value or that
/// DiffusionConfig::validate() rejects, an invalid vertical grid, missing variables, wrong
/// dimensions or sizes, integer offsets that are NaN, fractional or point outside the column.
DiffusionSavepoint read_diffusion_savepoint(const std::string& path);

/// Which granule's savepoint `path` is, and which side of the call (its format version and
/// `savepoint` attribute only; the rest is read by that granule's reader). Throws
/// SavepointFileError for a file that is not netCDF, not a savepoint of this format version or
/// names an unknown kind.
SavepointIdentity identify_savepoint(const std::string& path);

}  // namespace icondiff
