#include "netcdf_file.hpp"

#include <fmt/format.h>
#include <netcdf.h>

#include <filesystem>
#include <fstream>

namespace icondiff::io {

namespace {

bool is_integer_type(nc_type t) {
  return t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_INT64 || t == NC_UBYTE ||
         t == NC_USHORT || t == NC_UINT || t == NC_UINT64;
}
bool is_numeric_type(nc_type t) {
  return is_integer_type(t) || t == NC_FLOAT || t == NC_DOUBLE;
}

// ---- Minimal reader of the classic (CDF-1/2/5) header, only to learn where the data ends.
// -------- netCDF-C zero-fills reads past the end of a truncated classic file without any error,
// which would turn a cut-off grid file into silently wrong connectivity. See the netCDF classic
// format specification (NetCDF Users Guide, "File Format Specification").
class ClassicHeader {
 public:
  ClassicHeader(const std::string& path, std::vector<unsigned char> bytes)
      : path_(path), bytes_(std::move(bytes)) {}

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
  void need(std::size_t n) {
    if (pos_ + n > bytes_.size())
      throw GridFileError(path_, "", -1,
                          "the netCDF header is cut short: the file is truncated or corrupt");
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
      const std::uint64_t nvalues = count();
      skip_padded(nvalues * type_size(type));
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
        const std::uint64_t len = dimid < dim_lengths_.size() ? dim_lengths_[dimid] : 0;
        if (d == 0 && len == 0)
          record = true;  // the unlimited dimension
        else
          elements *= len;
      }
      skip_attributes();
      const std::uint64_t type = u32();
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
  std::size_t pos_ = 4;
  bool wide_ = false;
  bool offset64_ = false;
  std::vector<std::uint64_t> dim_lengths_;
};

}  // namespace

std::optional<std::uint64_t> classic_format_extent(const std::string& path) {
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
  return ClassicHeader(path, std::move(bytes)).data_extent();
}

NetcdfReader::NetcdfReader(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec))
    throw GridFileError(path_, "", -1, "the file does not exist");
  if (std::filesystem::is_directory(path_, ec))
    throw GridFileError(path_, "", -1, "this is a directory, not a netCDF file");
  const int status = nc_open(path_.c_str(), NC_NOWRITE, &ncid_);
  if (status != NC_NOERR)
    throw GridFileError(path_, "", -1,
                        fmt::format("cannot be opened as netCDF: {}", nc_strerror(status)));
  try {
    if (const auto extent = classic_format_extent(path_)) {
      const auto size = std::filesystem::file_size(path_);
      if (size < *extent)
        throw GridFileError(path_, "", -1,
                            fmt::format("the file is truncated: it has {} bytes, but its netCDF "
                                        "header describes data up to byte {}",
                                        size, *extent));
    }
  } catch (...) {
    nc_close(ncid_);
    throw;
  }
}

NetcdfReader::~NetcdfReader() {
  if (ncid_ >= 0) nc_close(ncid_);
}

void NetcdfReader::fail(const std::string& variable, long long index,
                        const std::string& problem) const {
  throw GridFileError(path_, variable, index, problem);
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
  if (!len) throw GridFileError(path_, "", -1, fmt::format("the dimension '{}' is missing", name));
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
  const int varid = variable_id(variable);
  nc_type type = 0;
  nc_inq_vartype(ncid_, varid, &type);
  if (!is_integer_type(type))
    fail(variable, -1, "has a floating-point or text type, expected an integer type");
  std::vector<int> values(check_shape(varid, variable, dims));
  const int status = nc_get_var_int(ncid_, varid, values.data());
  if (status != NC_NOERR)
    fail(variable, -1, fmt::format("cannot be read: {}", nc_strerror(status)));
  return values;
}

std::vector<double> NetcdfReader::read_double(const std::string& variable,
                                              const std::vector<std::string>& dims) const {
  const int varid = variable_id(variable);
  nc_type type = 0;
  nc_inq_vartype(ncid_, varid, &type);
  if (!is_numeric_type(type)) fail(variable, -1, "has a non-numeric type, expected numbers");
  std::vector<double> values(check_shape(varid, variable, dims));
  const int status = nc_get_var_double(ncid_, varid, values.data());
  if (status != NC_NOERR)
    fail(variable, -1, fmt::format("cannot be read: {}", nc_strerror(status)));
  return values;
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

}  // namespace icondiff::io
