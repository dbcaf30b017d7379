// The structure-aware half of the netCDF harnesses: a small netCDF file held as an editable model
// (dimensions, global attributes, variables with their values), edits decoded from the fuzz
// input (which variable, which element, which value: NaN, inf, huge, negative, out-of-range
// indices; resized or renamed dimensions, changed shapes and types, missing variables and
// attributes, another classic format, a cut-off file), and the model written back as netCDF.
// Raw bytes mostly die in libnetcdf's header parser; edits of a valid file reach every check of
// icondiff's readers.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include <netcdf.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace icondiff::fuzz {

struct NcAttribute {
  std::string name;
  nc_type type = NC_CHAR;
  std::string text;            ///< NC_CHAR
  std::vector<double> values;  ///< every other type
};

struct NcDimension {
  std::string name;
  std::size_t size = 0;  ///< the number of records for the unlimited dimension
  bool unlimited = false;
};

struct NcVariable {
  std::string name;
  nc_type type = NC_DOUBLE;
  std::vector<int> dims;  ///< indices into NetcdfModel::dimensions, outermost first
  std::vector<NcAttribute> attributes;
  std::vector<double> values;  ///< row-major; cut or zero-padded to the shape when written
};

struct NetcdfModel {
  int format = NC_FORMAT_64BIT_OFFSET;  ///< NC_FORMAT_CLASSIC, _64BIT_OFFSET or _CDF5
  std::vector<NcDimension> dimensions;
  std::vector<NcAttribute> attributes;  ///< global
  std::vector<NcVariable> variables;
  std::size_t cut_bytes = 0;  ///< bytes cut off the end of the written file
};

/// Reads a classic-format netCDF file (throws std::runtime_error).
NetcdfModel read_netcdf_model(const std::string& path);

/// Writes `model` to `path`; false when netCDF refuses it (an edit may make it invalid, e.g. two
/// unlimited dimensions) or it would be larger than `max_values` values.
bool write_netcdf_model(const NetcdfModel& model, const std::string& path,
                        std::size_t max_values = std::size_t(1) << 20);

/// Names an edit may give to a new or renamed attribute, variable or dimension, and text values,
/// besides those of the model: what the reader looks for.
struct EditVocabulary {
  std::vector<std::string> attributes;
  std::vector<std::string> variables;
  std::vector<std::string> dimensions;
  std::vector<std::string> texts;
};

/// Applies up to `max_edits` edits decoded from `input` to `model`.
void apply_edits(NetcdfModel& model, FuzzedDataProvider& input, const EditVocabulary& vocabulary,
                 int max_edits = 8);

}  // namespace icondiff::fuzz
