// Copies a netCDF file while damaging it on purpose, so tests can check that every kind of bad
// grid file gets a clear error.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace icondiff::test {

struct NetcdfEdits {
  std::set<std::string> drop_variables;
  /// old dimension name -> new name (the variables keep using it under the new name)
  std::map<std::string, std::string> rename_dimensions;
  /// variable -> new dimension names (existing ones); data is cut or zero-padded to fit
  std::map<std::string, std::vector<std::string>> redimension;
  /// variable -> write it as double instead of its own type
  std::set<std::string> make_double;
  /// variable -> change its values (read as double, written back in the variable's type)
  std::map<std::string, std::function<void(std::vector<double>&)>> edit_values;
};

/// Copies `source` to `destination` (netCDF 64-bit offset) applying `edits`.
void copy_netcdf(const std::string& source, const std::string& destination,
                 const NetcdfEdits& edits = {});

}  // namespace icondiff::test
