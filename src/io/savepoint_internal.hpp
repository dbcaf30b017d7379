// What the savepoint sources share. Private to src/io.
//   savepoint_types.cpp       the grid reference (zone ranges per location)
//   savepoint_attributes.cpp  global attributes: typed reading, config.* and metadata.*
//   savepoint_file.cpp        the file: variables from the field lists, grid and vertical
//                             attributes, write_diffusion_savepoint / read_diffusion_savepoint
#pragma once

#include "netcdf_file.hpp"

#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/grid/zones.hpp>
#include <icondiff/io/savepoint_types.hpp>

#include <array>
#include <map>
#include <string>

namespace icondiff::io::savepoint {

// ---- Zones of the grid reference (savepoint_types.cpp) ----------------------------------------

/// "cell", "edge" or "vertex" for location 0, 1, 2 (the order of all_locations).
const char* location_name(int l);

/// Every range of `zones` read as zones of `location`; {0, 0} where the zone does not exist for
/// the Zones' own location (a default-constructed Zones claims to be a cell's).
std::array<IndexRange, num_zones> ranges_of(const Zones& zones, Location location);

/// The number of points of location 0, 1, 2 (cells, edges, vertices) of `g`.
index_t size_of(const SavepointGridReference& g, int l);

// ---- Global attributes (savepoint_attributes.cpp) ---------------------------------------------

/// Whether `name` is a global attribute rather than a variable: every global attribute but
/// those of plain_global_attributes has a "." in its name (config.*, grid.*, metadata.* ...).
bool is_global_attribute(const std::string& name);

/// A global attribute that must exist and hold one integer (long long), 0 or 1 (bool), one
/// number (double) or text; fails (SavepointFileError) naming the attribute otherwise.
long long int_attribute(const NetcdfReader& f, const std::string& name);
bool bool_attribute(const NetcdfReader& f, const std::string& name);
double real_attribute(const NetcdfReader& f, const std::string& name);
std::string text_attribute(const NetcdfReader& f, const std::string& name);

/// The "config.<name>" attributes, one per entry of diffusion_config_fields().
void write_config_attributes(NetcdfWriter& nc, const DiffusionConfig& config);
/// Fails for a missing or malformed attribute, an enum value ICON does not define and a
/// configuration DiffusionConfig::validate() rejects (pointing at the field's attribute).
DiffusionConfig read_config_attributes(const NetcdfReader& f);

/// Why `metadata` cannot be written ("" if it can): a key that is not a valid netCDF name part
/// or a value holding a NUL character.
std::string metadata_problem(const std::map<std::string, std::string>& metadata);
/// The "metadata.<key>" attributes.
void write_metadata_attributes(NetcdfWriter& nc,
                               const std::map<std::string, std::string>& metadata);
std::map<std::string, std::string> read_metadata_attributes(const NetcdfReader& f);

}  // namespace icondiff::io::savepoint
