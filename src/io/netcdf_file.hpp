// A thin RAII reader over netCDF-C that turns every failure into a GridFileError naming the file,
// the variable and what was expected. Private to src/.
#pragma once

#include <icondiff/core/error.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icondiff::io {

class NetcdfReader {
 public:
  /// Opens `path` read-only. Throws GridFileError if the file is missing, not netCDF, or (classic
  /// and 64-bit-offset formats) shorter than its own header says.
  explicit NetcdfReader(std::string path);
  ~NetcdfReader();
  NetcdfReader(const NetcdfReader&) = delete;
  NetcdfReader& operator=(const NetcdfReader&) = delete;

  const std::string& path() const { return path_; }

  bool has_variable(const std::string& name) const;
  std::optional<std::size_t> dimension(const std::string& name) const;
  /// Size of a dimension that must exist.
  std::size_t required_dimension(const std::string& name) const;
  std::vector<std::string> dimensions_of(const std::string& variable) const;

  /// Reads a whole variable whose dimensions must be exactly `dims` (by name, outermost first).
  /// Integer variables are required for `int`, numeric ones for `double`.
  std::vector<int> read_int(const std::string& variable,
                            const std::vector<std::string>& dims) const;
  std::vector<double> read_double(const std::string& variable,
                                  const std::vector<std::string>& dims) const;

  std::optional<std::string> text_attribute(const std::string& name) const;
  std::optional<double> number_attribute(const std::string& name) const;

  [[noreturn]] void fail(const std::string& variable, long long index,
                         const std::string& problem) const;

 private:
  int variable_id(const std::string& name) const;
  std::size_t check_shape(int varid, const std::string& variable,
                          const std::vector<std::string>& dims) const;

  std::string path_;
  int ncid_ = -1;
};

/// For a classic, 64-bit-offset or CDF-5 file: the number of bytes its header says the data
/// occupies (the minimal size of an intact file). std::nullopt for other formats (HDF5 detects
/// truncation itself). Throws GridFileError if the header itself is cut short.
std::optional<std::uint64_t> classic_format_extent(const std::string& path);

}  // namespace icondiff::io
