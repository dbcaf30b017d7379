// The static fields of a grid written to one netCDF file, so a user can look at zdiff_gradp or
// rbf_vec_coeff_e on their own grid (`icondiff grid-info --statics FILE`) and ICON4Py's factories
// can be compared field by field (perf_tests/peers/icon4py/compare_factories.py --statics).
//
// One variable per field the bundle holds, under the field list's name (statics/static_fields.hpp)
// with its units, long_name, icon_name, icon4py_name and used_by (static_field_users) attributes.
// Dimensions as in the savepoints and ICON's own arrays: (level, slot, point) in netCDF's order,
// so the point index is fastest; dimension names cell, edge, vertex, nlev, nlev_half and the
// connectivity in lower case (e2c, c2e2co, ...). Beside the fields: vct_a, topography_c, z_ifc,
// rayleigh_w, scaling_factor_for_3d_divdamp, and the vertical indices as global attributes.
// Layout-agnostic: fields are read element by element, whatever FieldLayout is.
#pragma once

#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/statics/static_fields.hpp>

#include <string>
#include <vector>

namespace icondiff {

/// Writes `statics` (made from `inputs` by make_static_fields) to `path` (CDF-5, replaced if it
/// exists: the caller checks the path first). Throws OutputFileError naming the path.
void write_static_fields_file(const std::string& path, const HostStaticInputs& inputs,
                              const StaticFields<Kokkos::HostSpace>& statics);

/// What a statics file holds, read back for a grid.
struct StaticFieldsFile {
  StaticFields<Kokkos::HostSpace> fields;  ///< the variables the file has; the others empty
  DycoreVerticalIndices indices;           ///< from the global attributes (0 where absent)
  std::vector<double> vct_a;
};

/// Reads a file write_static_fields_file wrote, for `grid` (the grid it was written for: the
/// point dimensions must equal its sizes). Every variable present must have the dimensions and
/// type of its field-list entry; fields the file lacks stay empty (a granule's own checks then
/// name what is missing). Layout-agnostic, like the writer. Throws GridFileError naming the file,
/// the variable and what is wrong. So the dycore's (or the diffusion's) static inputs can come
/// from a file: `make_dycore_inputs(file.indices, copy_state<M>(file.fields), grid, area)`.
StaticFieldsFile read_static_fields_file(const std::string& path, const Grid& grid);

}  // namespace icondiff
