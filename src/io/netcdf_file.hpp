// Thin RAII reader and writer over netCDF-C that turn every failure into an exception naming the
// file, the variable and what was expected. By default that exception is a GridFileError; other
// file kinds (savepoints) pass their own factory so their users catch one type. Private to src/.
#pragma once

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>

#include <netcdf.h>
#if ICONDIFF_HAVE_MPI
#include <mpi.h>
#endif

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace icondiff::io {

/// Throws the exception of the kind of file at hand. `index` < 0 means "not about one element".
/// Must not return (the callers below treat it as [[noreturn]]).
using FileErrorFactory = void (*)(const std::string& file, const std::string& variable,
                                  long long index, const std::string& problem);

/// The default factory: throws GridFileError.
[[noreturn]] void throw_grid_file_error(const std::string& file, const std::string& variable,
                                        long long index, const std::string& problem);

/// Points [begin, begin + count) of a variable's last (point) dimension: a block of rows.
struct PointRange {
  std::size_t begin = 0;
  std::size_t count = 0;
};

/// What a global attribute or a variable holds.
enum class NetcdfKind { Missing, Text, Integer, Real, Other };

class NetcdfReader {
 public:
  /// Opens `path` read-only. Raises (through `raise`) if the file is missing, not netCDF, or
  /// (classic and 64-bit-offset formats) shorter than its own header says.
  explicit NetcdfReader(std::string path, FileErrorFactory raise = throw_grid_file_error);
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
  /// The same for the points `rows` of the last dimension only (every index of the others): one
  /// hyperslab, (outer dims..., rows.count) with the points fastest. Fails when `rows` reaches
  /// beyond the dimension.
  std::vector<int> read_int(const std::string& variable, const std::vector<std::string>& dims,
                            PointRange rows) const;
  std::vector<double> read_double(const std::string& variable, const std::vector<std::string>& dims,
                                  PointRange rows) const;

  /// The value that marks "never written" in a numeric variable: its _FillValue attribute, else
  /// netCDF's default fill value of its type (NC_FILL_DOUBLE, NC_FILL_INT, ...). Fails if the
  /// variable is missing or its _FillValue is not one number.
  double fill_value(const std::string& variable) const;
  /// Whether the variable has a _FillValue attribute of its own.
  bool has_fill_attribute(const std::string& variable) const;

  std::optional<std::string> text_attribute(const std::string& name) const;
  std::optional<double> number_attribute(const std::string& name) const;

  /// Names of every global attribute, in file order.
  std::vector<std::string> attribute_names() const;
  /// The kind of a global attribute (Missing if absent).
  NetcdfKind attribute_kind(const std::string& name) const;
  /// Every value of a global attribute of an integer type (fails for other kinds).
  std::vector<long long> integer_attribute(const std::string& name) const;
  /// The element type of a variable (fails if it is missing).
  NetcdfKind variable_kind(const std::string& name) const;

  [[noreturn]] void fail(const std::string& variable, long long index,
                         const std::string& problem) const;

 private:
  int variable_id(const std::string& name) const;
  std::size_t check_shape(int varid, const std::string& variable,
                          const std::vector<std::string>& dims) const;
  /// read_int / read_double of `rows`: the type checked, one nc_get_vara.
  template <class T>
  std::vector<T> read_rows(const std::string& variable, const std::vector<std::string>& dims,
                           PointRange rows) const;
  /// start/count of the hyperslab of `rows` in a variable of `dims` (checked against the file).
  void hyperslab(const std::string& variable, const std::vector<std::string>& dims, PointRange rows,
                 std::vector<std::size_t>& start, std::vector<std::size_t>& count) const;

  std::string path_;
  FileErrorFactory raise_;
  int ncid_ = -1;
};

/// For a classic, 64-bit-offset or CDF-5 file: the number of bytes its header says the data
/// occupies (the minimal size of an intact file). std::nullopt for other formats (HDF5 detects
/// truncation itself). Raises (through `raise`) if the header itself is cut short.
std::optional<std::uint64_t> classic_format_extent(const std::string& path,
                                                   FileErrorFactory raise = throw_grid_file_error);

/// On-disk flavours the writer can create.
enum class NetcdfFormat {
  Offset64,  ///< classic 64-bit offset (CDF-2): read everywhere; each variable < 4 GiB
  Cdf5,      ///< classic CDF-5: no per-variable size limit, 64-bit integers
  Netcdf4,   ///< HDF5-based netCDF-4 (classic data model)
};

/// Creates (clobbers) a netCDF file; define dimensions, variables and attributes, then
/// end_definitions() and put() every variable, then close(). Every failure raises naming the file.
class NetcdfWriter {
 public:
  explicit NetcdfWriter(std::string path, NetcdfFormat format = NetcdfFormat::Offset64,
                        FileErrorFactory raise = throw_grid_file_error);
#if ICONDIFF_HAVE_MPI
  /// Collective over `comm`: one file written by every rank (nc_create_par; PnetCDF for the
  /// classic formats, HDF5 MPI-IO for netCDF-4). Every call below is then collective: each rank
  /// makes the same calls in the same order, writing its own hyperslab with put_block (possibly
  /// an empty one). Needs a netCDF-C built with parallel I/O (the MPI build requires one).
  NetcdfWriter(MPI_Comm comm, std::string path, NetcdfFormat format = NetcdfFormat::Offset64,
               FileErrorFactory raise = throw_grid_file_error);
#endif
  ~NetcdfWriter();
  NetcdfWriter(const NetcdfWriter&) = delete;
  NetcdfWriter& operator=(const NetcdfWriter&) = delete;

  const std::string& path() const {
    return path_;
  }

  /// Skips netCDF's pre-fill of every variable: halves the I/O of a writer that writes every
  /// variable completely anyway.
  void no_fill();
  int dimension(const std::string& name, std::size_t size);
  int variable(const std::string& name, nc_type type, const std::vector<std::string>& dims);
  /// Attributes of variable `var`, or global ones when `var` is empty.
  void text(const std::string& var, const std::string& name, const std::string& value);
  void number(const std::string& var, const std::string& name, double value);
  void integer(const std::string& var, const std::string& name, int value);
  void integers(const std::string& var, const std::string& name, const std::vector<int>& values);
  void end_definitions();
  /// Writes a whole variable; `values` must hold as many elements as the variable has.
  void put(const std::string& var, const std::vector<double>& values);
  void put(const std::string& var, const std::vector<int>& values);
  void put(const std::string& var, const double* values);
  void put(const std::string& var, const float* values);
  void put(const std::string& var, const int* values);
  /// Writes record `record` of a variable whose first dimension is the unlimited one: all values
  /// of the other dimensions (as many as one record holds), extending the file as needed.
  void put_record(const std::string& var, std::size_t record, const double* values);
  void put_record(const std::string& var, std::size_t record, const float* values);
  /// Writes the hyperslab start/count (one entry per dimension, outermost first) of `var` from
  /// `values` (count's product of them, last dimension fastest); extends the unlimited dimension
  /// as needed. A count of zero writes nothing (and still takes part in a collective write).
  void put_block(const std::string& var, const std::vector<std::size_t>& start,
                 const std::vector<std::size_t>& count, const double* values);
  void put_block(const std::string& var, const std::vector<std::size_t>& start,
                 const std::vector<std::size_t>& count, const float* values);
  void put_block(const std::string& var, const std::vector<std::size_t>& start,
                 const std::vector<std::size_t>& count, const int* values);
  /// _FillValue of `var` in the variable's own type (define mode only).
  void fill_value(const std::string& var, double value);
  /// Flushes what was written to disk, so a reader sees every complete record so far.
  void sync();
  void close();

 private:
  int id_of(const std::string& var) const;
  std::size_t length_of(const std::string& var) const;
  template <class T>
  void put_block_impl(const std::string& var, const std::vector<std::size_t>& start,
                      const std::vector<std::size_t>& count, const T* values);
  template <class T>
  void put_record_impl(const std::string& var, std::size_t record, const T* values);
  void check(int status, const std::string& variable, const std::string& what) const;

  std::string path_;
  FileErrorFactory raise_;
  int ncid_ = -1;
  bool parallel_ = false;  ///< created with nc_create_par: data writes are collective
  std::map<std::string, int> dims_, vars_;
};

}  // namespace icondiff::io
