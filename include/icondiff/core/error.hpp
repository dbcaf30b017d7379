// Typed exceptions. Every message names what is wrong, where (file, variable, index) and what was
// expected, so a user can fix their input without a debugger. The C API turns them into status
// codes and message strings; nothing here aborts the host model.
#pragma once

#include <stdexcept>
#include <string>

namespace icondiff {

/// Base class of every exception icondiff throws on purpose.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A caller passed something the API cannot accept (sizes, ranges, null pointers, options).
class InvalidArgument : public Error {
 public:
  explicit InvalidArgument(const std::string& message) : Error(message) {}
};

/// An error every rank of an MPI communicator agreed on (comm/mpi_collectives.hpp): all ranks
/// throw it with the same message, so a caller may report it once (rank 0) and exit normally
/// instead of aborting the job.
class CollectiveError : public InvalidArgument {
 public:
  explicit CollectiveError(const std::string& message) : InvalidArgument(message) {}
};

/// A configuration value is out of range or names an option icondiff does not implement.
class ConfigError : public Error {
 public:
  explicit ConfigError(const std::string& message) : Error(message) {}
};

/// A grid (read, generated or passed in) contradicts itself or ICON's conventions.
class GridError : public Error {
 public:
  explicit GridError(const std::string& message) : Error(message) {}
};

/// An output file (UGRID output, timer report, ...) cannot be written. Knows the file.
class OutputFileError : public Error {
 public:
  OutputFileError(std::string file, const std::string& problem);
  const std::string& file() const noexcept { return file_; }

 private:
  std::string file_;
};

/// A grid file cannot be used. Knows the file and, where it applies, the variable and index.
class GridFileError : public GridError {
 public:
  /// `index` < 0 means "not about one element".
  GridFileError(std::string file, std::string variable, long long index,
                const std::string& problem);

  const std::string& file() const noexcept { return file_; }
  const std::string& variable() const noexcept { return variable_; }
  long long index() const noexcept { return index_; }

 private:
  std::string file_;
  std::string variable_;
  long long index_;
};

}  // namespace icondiff
