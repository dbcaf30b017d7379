#include "netcdf_file.hpp"

#include <fmt/format.h>
#include <netcdf.h>
#if ICONDIFF_HAVE_MPI
#include <netcdf_par.h>
#endif

#include <filesystem>
#include <fstream>
#include <limits>
#include <type_traits>

namespace icondiff::io {

namespace {

bool is_integer_type(nc_type t) {
  return t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_INT64 || t == NC_UBYTE ||
         t == NC_USHORT || t == NC_UINT || t == NC_UINT64;
}
bool is_numeric_type(nc_type t) {
  return is_integer_type(t) || t == NC_FLOAT || t == NC_DOUBLE;
}

// Guards against a factory that returns: the callers rely on never getting past a failure.
[[noreturn]] void raise_with(FileErrorFactory raise, const std::string& file,
                             const std::string& variable, long long index,
                             const std::string& problem) {
  raise(file, variable, index, problem);
  throw Error(fmt::format("file '{}', variable '{}': {}", file, variable, problem));
}

// ---- Minimal reader of the classic (CDF-1/2/5) header, only to learn where the data ends.
// -------- netCDF-C zero-fills reads past the end of a truncated classic file without any error,
// which would turn a cut-off grid file into silently wrong connectivity. See the netCDF classic
// format specification (NetCDF Users Guide, "File Format Specification").
class ClassicHeader {
 public:
  ClassicHeader(const std::string& path, std::vector<unsigned char> bytes, FileErrorFactory raise)
      : path_(path), bytes_(std::move(bytes)), raise_(raise) {}

  std::uint64_t data_extent() {
    const int version = bytes_.at(3);
    wide_ = version == 5;
    offset64_ = version != 1;
    const std::uint64_t numrecs = wide_ ? u64() : u32();
    skip_dimensions();
    skip_attributes();
    return variables_extent(numrecs);
  }

 private:
  [[noreturn]] void cut_short() const {
    raise_with(raise_, path_, "", -1,
               "the netCDF header is cut short: the file is truncated or corrupt");
  }
  [[noreturn]] void corrupt(const std::string& what) const {
    raise_with(raise_, path_, "", -1, "the netCDF header is corrupt: " + what);
  }
  // The external types of the classic formats (CDF-5 adds the unsigned and 64-bit ones). Any
  // other code must be refused here: libnetcdf 4.9.0 accepts NC_STRING (12) in a classic header,
  // sizes it as 0 bytes and divides by that size in NC_check_vlen (SIGFPE inside nc_open, found
  // by fuzz/fuzz_grid_file).
  void check_type(std::uint64_t type, const char* owner, std::uint64_t index) const {
    const std::uint64_t last = wide_ ? NC_UINT64 : NC_DOUBLE;
    if (type < NC_BYTE || type > last)
      corrupt(fmt::format("{} #{} has type code {}, which is not a type of the CDF-{} format",
                          owner, index, type, bytes_.at(3)));
  }
  void need(std::uint64_t n) const {
    // pos_ <= size always: no sum that could wrap around (a count near 2^64 in a CDF-5 header).
    if (n > bytes_.size() - pos_) cut_short();
  }
  std::uint64_t u32() {
    need(4);
    std::uint64_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | bytes_[pos_++];
    return v;
  }
  std::uint64_t u64() {
    need(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | bytes_[pos_++];
    return v;
  }
  std::uint64_t count() { return wide_ ? u64() : u32(); }
  void skip_padded(std::uint64_t n) {
    need(n);  // first, so that the padding cannot wrap around
    const std::uint64_t padded = (n + 3) / 4 * 4;
    need(padded);
    pos_ += padded;
  }
  void skip_name() { skip_padded(count()); }
  static std::uint64_t type_size(std::uint64_t type) {
    switch (type) {
      case NC_BYTE:
      case NC_CHAR:
      case NC_UBYTE: return 1;
      case NC_SHORT:
      case NC_USHORT: return 2;
      case NC_INT:
      case NC_FLOAT:
      case NC_UINT: return 4;
      case NC_DOUBLE:
      case NC_INT64:
      case NC_UINT64: return 8;
      default: return 0;
    }
  }
  void skip_dimensions() {
    const std::uint64_t tag = u32();
    const std::uint64_t n = count();
    if (tag == 0) return;
    for (std::uint64_t i = 0; i < n; ++i) {
      skip_name();
      dim_lengths_.push_back(count());
    }
  }
  void skip_attributes() {
    const std::uint64_t tag = u32();
    const std::uint64_t n = count();
    if (tag == 0) return;
    for (std::uint64_t i = 0; i < n; ++i) {
      skip_name();
      const std::uint64_t type = u32();
      check_type(type, "attribute", i);
      const std::uint64_t nvalues = count();
      const std::uint64_t size = type_size(type);
      if (size != 0 && nvalues > (bytes_.size() - pos_) / size) cut_short();
      skip_padded(nvalues * size);  // no wrap-around: nvalues * size fits in the file
    }
  }
  std::uint64_t variables_extent(std::uint64_t numrecs) {
    const std::uint64_t tag = u32();
    const std::uint64_t n = count();
    if (tag == 0) return pos_;
    struct Var {
      std::uint64_t begin, bytes;
      bool record;
    };
    std::vector<Var> vars;
    for (std::uint64_t i = 0; i < n; ++i) {
      skip_name();
      const std::uint64_t ndims = count();
      std::uint64_t elements = 1;
      bool record = false;
      for (std::uint64_t d = 0; d < ndims; ++d) {
        const std::uint64_t dimid = count();
        if (dimid >= dim_lengths_.size())
          corrupt(fmt::format("variable #{} uses dimension id {}, but the file defines {}", i,
                              dimid, dim_lengths_.size()));
        const std::uint64_t len = dim_lengths_[dimid];
        if (d == 0 && len == 0)
          record = true;  // the unlimited dimension
        else if (len == 0)
          corrupt(
              fmt::format("variable #{} has the unlimited dimension at position {}, where "
                          "only the first may be unlimited",
                          i, d + 1));
        else if (elements > (std::numeric_limits<std::uint64_t>::max() / 8) / len)
          corrupt(fmt::format("variable #{} has more elements than any file can hold", i));
        else
          elements *= len;
      }
      skip_attributes();
      const std::uint64_t type = u32();
      check_type(type, "variable", i);
      wide_ ? u64() : u32();  // vsize (padded; recomputed below unpadded)
      const std::uint64_t begin = offset64_ ? u64() : u32();
      vars.push_back({begin, elements * type_size(type), record});
    }
    std::uint64_t extent = pos_, record_size = 0, record_begin = 0;
    bool any_record = false;
    for (const Var& v : vars) {
      if (v.record) {
        record_size += (v.bytes + 3) / 4 * 4;
        record_begin = any_record ? std::min(record_begin, v.begin) : v.begin;
        any_record = true;
      } else {
        extent = std::max(extent, v.begin + v.bytes);
      }
    }
    if (any_record && numrecs > 0) {
      std::uint64_t last_end = 0;
      for (const Var& v : vars)
        if (v.record)
          last_end = std::max(last_end, v.begin + (numrecs - 1) * record_size + v.bytes);
      extent = std::max(extent, last_end);
    }
    return extent;
  }

  std::string path_;
  std::vector<unsigned char> bytes_;
  FileErrorFactory raise_;
  std::size_t pos_ = 4;
  bool wide_ = false;
  bool offset64_ = false;
  std::vector<std::uint64_t> dim_lengths_;
};

NetcdfKind kind_of(nc_type t) {
  if (is_integer_type(t)) return NetcdfKind::Integer;
  if (t == NC_FLOAT || t == NC_DOUBLE) return NetcdfKind::Real;
  if (t == NC_CHAR) return NetcdfKind::Text;
  return NetcdfKind::Other;
}

}  // namespace

void throw_grid_file_error(const std::string& file, const std::string& variable, long long index,
                           const std::string& problem) {
  throw GridFileError(file, variable, index, problem);
}

std::optional<std::uint64_t> classic_format_extent(const std::string& path,
                                                   FileErrorFactory raise) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(magic), 4);
  if (!in || magic[0] != 'C' || magic[1] != 'D' || magic[2] != 'F' ||
      (magic[3] != 1 && magic[3] != 2 && magic[3] != 5))
    return std::nullopt;
  in.seekg(0);
  // The header is at the start; a few MiB covers any ICON grid file's header many times over.
  const std::uint64_t size = std::filesystem::file_size(path);
  std::vector<unsigned char> bytes(
      static_cast<std::size_t>(std::min<std::uint64_t>(size, 16u << 20)));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return ClassicHeader(path, std::move(bytes), raise).data_extent();
}

NetcdfReader::NetcdfReader(std::string path, FileErrorFactory raise)
    : path_(std::move(path)), raise_(raise) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) fail("", -1, "the file does not exist");
  if (std::filesystem::is_directory(path_, ec))
    fail("", -1, "this is a directory, not a netCDF file");
  // The classic header is read by our own code first, every length checked against the file:
  // libnetcdf (4.9.0) trusts the lengths of a header and reads out of bounds (a memcpy of
  // negative size) on some corrupt ones. fuzz/fuzz_savepoint_file found it.
  if (const auto extent = classic_format_extent(path_, raise_)) {
    const auto size = std::filesystem::file_size(path_);
    if (size < *extent)
      fail("", -1,
           fmt::format("the file is truncated: it has {} bytes, but its netCDF "
                       "header describes data up to byte {}",
                       size, *extent));
  }
  const int status = nc_open(path_.c_str(), NC_NOWRITE, &ncid_);
  if (status != NC_NOERR) {
    ncid_ = -1;
    fail("", -1, fmt::format("cannot be opened as netCDF: {}", nc_strerror(status)));
  }
}

NetcdfReader::~NetcdfReader() {
  if (ncid_ >= 0) nc_close(ncid_);
}

void NetcdfReader::fail(const std::string& variable, long long index,
                        const std::string& problem) const {
  raise_with(raise_, path_, variable, index, problem);
}

bool NetcdfReader::has_variable(const std::string& name) const {
  int varid = 0;
  return nc_inq_varid(ncid_, name.c_str(), &varid) == NC_NOERR;
}

int NetcdfReader::variable_id(const std::string& name) const {
  int varid = 0;
  if (nc_inq_varid(ncid_, name.c_str(), &varid) != NC_NOERR)
    fail(name, -1, "the variable is missing");
  return varid;
}

std::optional<std::size_t> NetcdfReader::dimension(const std::string& name) const {
  int dimid = 0;
  if (nc_inq_dimid(ncid_, name.c_str(), &dimid) != NC_NOERR) return std::nullopt;
  std::size_t len = 0;
  nc_inq_dimlen(ncid_, dimid, &len);
  return len;
}

std::size_t NetcdfReader::required_dimension(const std::string& name) const {
  const auto len = dimension(name);
  if (!len) fail("", -1, fmt::format("the dimension '{}' is missing", name));
  return *len;
}

std::vector<std::string> NetcdfReader::dimensions_of(const std::string& variable) const {
  const int varid = variable_id(variable);
  int ndims = 0;
  nc_inq_varndims(ncid_, varid, &ndims);
  std::vector<int> dimids(static_cast<std::size_t>(ndims));
  nc_inq_vardimid(ncid_, varid, dimids.data());
  std::vector<std::string> names;
  for (int id : dimids) {
    char name[NC_MAX_NAME + 1] = {0};
    nc_inq_dimname(ncid_, id, name);
    names.emplace_back(name);
  }
  return names;
}

std::size_t NetcdfReader::check_shape(int varid, const std::string& variable,
                                      const std::vector<std::string>& dims) const {
  const auto actual = dimensions_of(variable);
  if (actual != dims) {
    const auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
      return "(" + s + ")";
    };
    fail(variable, -1, fmt::format("has dimensions {}, expected {}", join(actual), join(dims)));
  }
  std::size_t n = 1;
  for (const auto& d : dims) n *= required_dimension(d);
  (void)varid;
  return n;
}

std::vector<int> NetcdfReader::read_int(const std::string& variable,
                                        const std::vector<std::string>& dims) const {
  check_shape(variable_id(variable), variable, dims);
  return read_int(variable, dims,
                  PointRange{0, dims.empty() ? 0 : required_dimension(dims.back())});
}

std::vector<double> NetcdfReader::read_double(const std::string& variable,
                                              const std::vector<std::string>& dims) const {
  check_shape(variable_id(variable), variable, dims);
  return read_double(variable, dims,
                     PointRange{0, dims.empty() ? 0 : required_dimension(dims.back())});
}

void NetcdfReader::hyperslab(const std::string& variable, const std::vector<std::string>& dims,
                             PointRange rows, std::vector<std::size_t>& start,
                             std::vector<std::size_t>& count) const {
  check_shape(variable_id(variable), variable, dims);
  if (dims.empty()) fail(variable, -1, "is a scalar, expected a variable over points");
  const std::size_t points = required_dimension(dims.back());
  if (rows.begin > points || rows.count > points - rows.begin)
    fail(variable, -1,
         fmt::format("rows [{}, {}) reach beyond its {} {}s", rows.begin, rows.begin + rows.count,
                     points, dims.back()));
  start.assign(dims.size(), 0);
  count.clear();
  for (const auto& d : dims) count.push_back(required_dimension(d));
  start.back() = rows.begin;
  count.back() = rows.count;
}

namespace {
int get_vara(int ncid, int varid, const std::size_t* start, const std::size_t* count, int* out) {
  return nc_get_vara_int(ncid, varid, start, count, out);
}
int get_vara(int ncid, int varid, const std::size_t* start, const std::size_t* count, double* out) {
  return nc_get_vara_double(ncid, varid, start, count, out);
}
}  // namespace

template <class T>
std::vector<T> NetcdfReader::read_rows(const std::string& variable,
                                       const std::vector<std::string>& dims,
                                       PointRange rows) const {
  const int varid = variable_id(variable);
  nc_type type = 0;
  nc_inq_vartype(ncid_, varid, &type);
  if (std::is_same_v<T, int> && !is_integer_type(type))
    fail(variable, -1, "has a floating-point or text type, expected an integer type");
  if (!is_numeric_type(type)) fail(variable, -1, "has a non-numeric type, expected numbers");
  std::vector<std::size_t> start, count;
  hyperslab(variable, dims, rows, start, count);
  std::size_t n = 1;
  for (const std::size_t c : count) n *= c;
  std::vector<T> values(n);
  if (n == 0) return values;
  const int status = get_vara(ncid_, varid, start.data(), count.data(), values.data());
  if (status != NC_NOERR)
    fail(variable, -1, fmt::format("cannot be read: {}", nc_strerror(status)));
  return values;
}

std::vector<int> NetcdfReader::read_int(const std::string& variable,
                                        const std::vector<std::string>& dims,
                                        PointRange rows) const {
  return read_rows<int>(variable, dims, rows);
}

std::vector<double> NetcdfReader::read_double(const std::string& variable,
                                              const std::vector<std::string>& dims,
                                              PointRange rows) const {
  return read_rows<double>(variable, dims, rows);
}

bool NetcdfReader::has_fill_attribute(const std::string& variable) const {
  nc_type type = 0;
  std::size_t len = 0;
  return nc_inq_att(ncid_, variable_id(variable), "_FillValue", &type, &len) == NC_NOERR;
}

double NetcdfReader::fill_value(const std::string& variable) const {
  const int varid = variable_id(variable);
  nc_type att_type = 0;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, varid, "_FillValue", &att_type, &len) == NC_NOERR) {
    double value = 0;
    if (len != 1 || !is_numeric_type(att_type) ||
        nc_get_att_double(ncid_, varid, "_FillValue", &value) != NC_NOERR)
      fail(variable, -1, "has a _FillValue attribute that is not one number");
    return value;
  }
  nc_type type = 0;
  nc_inq_vartype(ncid_, varid, &type);
  switch (type) {
    case NC_BYTE: return NC_FILL_BYTE;
    case NC_UBYTE: return NC_FILL_UBYTE;
    case NC_SHORT: return NC_FILL_SHORT;
    case NC_USHORT: return NC_FILL_USHORT;
    case NC_INT: return NC_FILL_INT;
    case NC_UINT: return NC_FILL_UINT;
    case NC_INT64: return static_cast<double>(NC_FILL_INT64);
    case NC_UINT64: return static_cast<double>(NC_FILL_UINT64);
    case NC_FLOAT: return NC_FILL_FLOAT;
    default: return NC_FILL_DOUBLE;
  }
}

std::optional<std::string> NetcdfReader::text_attribute(const std::string& name) const {
  nc_type type = 0;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, NC_GLOBAL, name.c_str(), &type, &len) != NC_NOERR || type != NC_CHAR)
    return std::nullopt;
  std::string value(len, '\0');
  nc_get_att_text(ncid_, NC_GLOBAL, name.c_str(), value.data());
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::optional<double> NetcdfReader::number_attribute(const std::string& name) const {
  nc_type type = 0;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, NC_GLOBAL, name.c_str(), &type, &len) != NC_NOERR || len < 1 ||
      !is_numeric_type(type))
    return std::nullopt;
  std::vector<double> value(len);
  nc_get_att_double(ncid_, NC_GLOBAL, name.c_str(), value.data());
  return value[0];
}

std::vector<std::string> NetcdfReader::attribute_names() const {
  int count = 0;
  nc_inq_natts(ncid_, &count);
  std::vector<std::string> names;
  for (int a = 0; a < count; ++a) {
    char name[NC_MAX_NAME + 1] = {0};
    if (nc_inq_attname(ncid_, NC_GLOBAL, a, name) == NC_NOERR) names.emplace_back(name);
  }
  return names;
}

NetcdfKind NetcdfReader::attribute_kind(const std::string& name) const {
  nc_type type = 0;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, NC_GLOBAL, name.c_str(), &type, &len) != NC_NOERR)
    return NetcdfKind::Missing;
  return kind_of(type);
}

std::vector<long long> NetcdfReader::integer_attribute(const std::string& name) const {
  nc_type type = 0;
  std::size_t len = 0;
  if (nc_inq_att(ncid_, NC_GLOBAL, name.c_str(), &type, &len) != NC_NOERR)
    fail(name, -1, "the global attribute is missing");
  if (!is_integer_type(type)) fail(name, -1, "the global attribute is not of an integer type");
  std::vector<long long> values(len);
  const int status = nc_get_att_longlong(ncid_, NC_GLOBAL, name.c_str(), values.data());
  if (status != NC_NOERR) fail(name, -1, fmt::format("cannot be read: {}", nc_strerror(status)));
  return values;
}

NetcdfKind NetcdfReader::variable_kind(const std::string& name) const {
  nc_type type = 0;
  nc_inq_vartype(ncid_, variable_id(name), &type);
  return kind_of(type);
}

// ---- NetcdfWriter ------------------------------------------------------------------------------

namespace {
int create_mode(NetcdfFormat format) {
  switch (format) {
    case NetcdfFormat::Offset64: return NC_CLOBBER | NC_64BIT_OFFSET;
    case NetcdfFormat::Cdf5: return NC_CLOBBER | NC_64BIT_DATA;
    case NetcdfFormat::Netcdf4: return NC_CLOBBER | NC_NETCDF4 | NC_CLASSIC_MODEL;
  }
  return NC_CLOBBER;
}
}  // namespace

NetcdfWriter::NetcdfWriter(std::string path, NetcdfFormat format, FileErrorFactory raise)
    : path_(std::move(path)), raise_(raise) {
  const int status = nc_create(path_.c_str(), create_mode(format), &ncid_);
  if (status != NC_NOERR) {
    ncid_ = -1;
    check(status, "", "create the file");
  }
}

#if ICONDIFF_HAVE_MPI
NetcdfWriter::NetcdfWriter(MPI_Comm comm, std::string path, NetcdfFormat format,
                           FileErrorFactory raise)
    : path_(std::move(path)), raise_(raise), parallel_(true) {
  const int status = nc_create_par(path_.c_str(), create_mode(format), comm, MPI_INFO_NULL, &ncid_);
  if (status != NC_NOERR) {
    ncid_ = -1;
    check(status, "", "create the file (in parallel)");
  }
}
#endif

NetcdfWriter::~NetcdfWriter() {
  if (ncid_ >= 0) nc_close(ncid_);
}

void NetcdfWriter::check(int status, const std::string& variable, const std::string& what) const {
  if (status != NC_NOERR)
    raise_with(raise_, path_, variable, -1,
               fmt::format("cannot {}: {}", what, nc_strerror(status)));
}

int NetcdfWriter::id_of(const std::string& var) const {
  if (var.empty()) return NC_GLOBAL;
  const auto it = vars_.find(var);
  if (it == vars_.end()) raise_with(raise_, path_, var, -1, "the variable was never defined");
  return it->second;
}

void NetcdfWriter::no_fill() {
  int old_mode = 0;
  check(nc_set_fill(ncid_, NC_NOFILL, &old_mode), "", "switch pre-filling off");
}

int NetcdfWriter::dimension(const std::string& name, std::size_t size) {
  int id = 0;
  check(nc_def_dim(ncid_, name.c_str(), size, &id), "", "define dimension " + name);
  dims_[name] = id;
  return id;
}

int NetcdfWriter::variable(const std::string& name, nc_type type,
                           const std::vector<std::string>& dims) {
  std::vector<int> ids;
  for (const auto& d : dims) {
    const auto it = dims_.find(d);
    if (it == dims_.end())
      raise_with(raise_, path_, name, -1, fmt::format("the dimension '{}' was never defined", d));
    ids.push_back(it->second);
  }
  int id = 0;
  check(nc_def_var(ncid_, name.c_str(), type, static_cast<int>(ids.size()), ids.data(), &id), name,
        "define the variable");
  vars_[name] = id;
  return id;
}

void NetcdfWriter::text(const std::string& var, const std::string& name, const std::string& value) {
  check(nc_put_att_text(ncid_, id_of(var), name.c_str(), value.size(), value.c_str()), var,
        "write attribute " + name);
}

void NetcdfWriter::number(const std::string& var, const std::string& name, double value) {
  check(nc_put_att_double(ncid_, id_of(var), name.c_str(), NC_DOUBLE, 1, &value), var,
        "write attribute " + name);
}

void NetcdfWriter::integer(const std::string& var, const std::string& name, int value) {
  check(nc_put_att_int(ncid_, id_of(var), name.c_str(), NC_INT, 1, &value), var,
        "write attribute " + name);
}

void NetcdfWriter::integers(const std::string& var, const std::string& name,
                            const std::vector<int>& values) {
  check(nc_put_att_int(ncid_, id_of(var), name.c_str(), NC_INT, values.size(), values.data()), var,
        "write attribute " + name);
}

void NetcdfWriter::end_definitions() {
  check(nc_enddef(ncid_), "", "finish the header");
#if ICONDIFF_HAVE_MPI
  // Collective data access: every rank writes its block in one MPI-IO call (independent access
  // would serialise them, and a netCDF-4 record variable can grow only collectively).
  if (parallel_)
    for (const auto& [name, id] : vars_)
      check(nc_var_par_access(ncid_, id, NC_COLLECTIVE), name, "switch to collective writes");
#endif
}

std::size_t NetcdfWriter::length_of(const std::string& var) const {
  const int id = id_of(var);
  int ndims = 0;
  nc_inq_varndims(ncid_, id, &ndims);
  std::vector<int> dimids(static_cast<std::size_t>(ndims));
  nc_inq_vardimid(ncid_, id, dimids.data());
  std::size_t n = 1;
  for (int d : dimids) {
    std::size_t len = 0;
    nc_inq_dimlen(ncid_, d, &len);
    n *= len;
  }
  return n;
}

// netCDF reads as many values as the variable holds, so a short vector would be overread.
void NetcdfWriter::put(const std::string& var, const std::vector<double>& values) {
  if (values.size() != length_of(var))
    raise_with(
        raise_, path_, var, -1,
        fmt::format("cannot write {} values into a variable of {}", values.size(), length_of(var)));
  put(var, values.data());
}
void NetcdfWriter::put(const std::string& var, const std::vector<int>& values) {
  if (values.size() != length_of(var))
    raise_with(
        raise_, path_, var, -1,
        fmt::format("cannot write {} values into a variable of {}", values.size(), length_of(var)));
  put(var, values.data());
}
void NetcdfWriter::put(const std::string& var, const double* values) {
  check(nc_put_var_double(ncid_, id_of(var), values), var, "write the variable");
}
void NetcdfWriter::put(const std::string& var, const float* values) {
  check(nc_put_var_float(ncid_, id_of(var), values), var, "write the variable");
}
void NetcdfWriter::put(const std::string& var, const int* values) {
  check(nc_put_var_int(ncid_, id_of(var), values), var, "write the variable");
}

template <class T>
void NetcdfWriter::put_record_impl(const std::string& var, std::size_t record, const T* values) {
  const int id = id_of(var);
  int ndims = 0;
  nc_inq_varndims(ncid_, id, &ndims);
  int unlimited = -1;
  nc_inq_unlimdim(ncid_, &unlimited);
  std::vector<int> dimids(static_cast<std::size_t>(ndims));
  nc_inq_vardimid(ncid_, id, dimids.data());
  if (ndims < 1 || dimids[0] != unlimited)
    raise_with(raise_, path_, var, -1, "is not a record variable (no unlimited first dimension)");
  std::vector<std::size_t> start(dimids.size(), 0), count(dimids.size(), 1);
  start[0] = record;
  for (std::size_t d = 1; d < dimids.size(); ++d) nc_inq_dimlen(ncid_, dimids[d], &count[d]);
  int status = NC_NOERR;
  if constexpr (std::is_same_v<T, double>)
    status = nc_put_vara_double(ncid_, id, start.data(), count.data(), values);
  else
    status = nc_put_vara_float(ncid_, id, start.data(), count.data(), values);
  check(status, var, fmt::format("write record {}", record));
}

template <class T>
void NetcdfWriter::put_block_impl(const std::string& var, const std::vector<std::size_t>& start,
                                  const std::vector<std::size_t>& count, const T* values) {
  const int id = id_of(var);
  int ndims = 0;
  nc_inq_varndims(ncid_, id, &ndims);
  if (start.size() != static_cast<std::size_t>(ndims) || count.size() != start.size())
    raise_with(raise_, path_, var, -1,
               fmt::format("a block of {} dimensions for a variable of {}", start.size(), ndims));
  // netCDF refuses a null buffer even for an empty block, which a rank may have in a collective
  // write.
  static const T nothing{};
  const T* data = values ? values : &nothing;
  int status = NC_NOERR;
  if constexpr (std::is_same_v<T, double>)
    status = nc_put_vara_double(ncid_, id, start.data(), count.data(), data);
  else if constexpr (std::is_same_v<T, float>)
    status = nc_put_vara_float(ncid_, id, start.data(), count.data(), data);
  else
    status = nc_put_vara_int(ncid_, id, start.data(), count.data(), data);
  check(status, var, "write a block");
}

void NetcdfWriter::put_block(const std::string& var, const std::vector<std::size_t>& start,
                             const std::vector<std::size_t>& count, const double* values) {
  put_block_impl(var, start, count, values);
}
void NetcdfWriter::put_block(const std::string& var, const std::vector<std::size_t>& start,
                             const std::vector<std::size_t>& count, const float* values) {
  put_block_impl(var, start, count, values);
}
void NetcdfWriter::put_block(const std::string& var, const std::vector<std::size_t>& start,
                             const std::vector<std::size_t>& count, const int* values) {
  put_block_impl(var, start, count, values);
}

void NetcdfWriter::put_record(const std::string& var, std::size_t record, const double* values) {
  put_record_impl(var, record, values);
}
void NetcdfWriter::put_record(const std::string& var, std::size_t record, const float* values) {
  put_record_impl(var, record, values);
}

void NetcdfWriter::fill_value(const std::string& var, double value) {
  const int id = id_of(var);
  nc_type type = NC_NAT;
  nc_inq_vartype(ncid_, id, &type);
  check(nc_put_att_double(ncid_, id, "_FillValue", type, 1, &value), var,
        "write attribute _FillValue");
}

void NetcdfWriter::sync() {
  check(nc_sync(ncid_), "", "flush the file to disk");
}

void NetcdfWriter::close() {
  const int id = ncid_;
  ncid_ = -1;
  check(nc_close(id), "", "close the file");
}

}  // namespace icondiff::io
