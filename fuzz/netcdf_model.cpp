#include "netcdf_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace icondiff::fuzz {

namespace {

void check(int status, const std::string& what) {
  if (status != NC_NOERR) throw std::runtime_error(what + ": " + nc_strerror(status));
}

std::string name_of(int ncid, int varid, int index) {
  char name[NC_MAX_NAME + 1] = {0};
  check(nc_inq_attname(ncid, varid, index, name), "attribute name");
  return name;
}

NcAttribute read_attribute(int ncid, int varid, const std::string& name) {
  NcAttribute a;
  a.name = name;
  std::size_t len = 0;
  check(nc_inq_att(ncid, varid, name.c_str(), &a.type, &len), "attribute " + name);
  if (a.type == NC_CHAR) {
    a.text.resize(len);
    check(nc_get_att_text(ncid, varid, name.c_str(), a.text.data()), "attribute " + name);
  } else {
    a.values.resize(len);
    check(nc_get_att_double(ncid, varid, name.c_str(), a.values.data()), "attribute " + name);
  }
  return a;
}

bool extended_type(nc_type t) {
  return t == NC_UBYTE || t == NC_USHORT || t == NC_UINT || t == NC_INT64 || t == NC_UINT64;
}

/// `v` in the value range of T: integers clamped (NaN -> 0), float overflow -> +-inf.
template <class T>
T convert(double v) {
  if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v)) return 0;
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, float>) {
    if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
      return v > 0 ? std::numeric_limits<float>::infinity()
                   : -std::numeric_limits<float>::infinity();
    return static_cast<float>(v);
  } else {
    return v;
  }
}

/// The values as raw bytes of netCDF type `type` (what nc_put_att / nc_put_vara take).
template <class T>
std::vector<unsigned char> bytes_as(const std::vector<double>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(T));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const T x = convert<T>(values[i]);
    std::memcpy(out.data() + i * sizeof(T), &x, sizeof(T));
  }
  return out;
}

std::vector<unsigned char> raw_values(nc_type type, const std::vector<double>& values) {
  switch (type) {
    case NC_BYTE: return bytes_as<signed char>(values);
    case NC_CHAR: return bytes_as<char>(values);
    case NC_SHORT: return bytes_as<short>(values);
    case NC_INT: return bytes_as<int>(values);
    case NC_FLOAT: return bytes_as<float>(values);
    case NC_DOUBLE: return bytes_as<double>(values);
    case NC_UBYTE: return bytes_as<unsigned char>(values);
    case NC_USHORT: return bytes_as<unsigned short>(values);
    case NC_UINT: return bytes_as<unsigned int>(values);
    case NC_INT64: return bytes_as<long long>(values);
    case NC_UINT64: return bytes_as<unsigned long long>(values);
    default: return {};
  }
}

bool put_attribute(int ncid, int varid, const NcAttribute& a) {
  if (a.type == NC_CHAR)
    return nc_put_att_text(ncid, varid, a.name.c_str(), a.text.size(), a.text.data()) == NC_NOERR;
  const auto raw = raw_values(a.type, a.values);
  return nc_put_att(ncid, varid, a.name.c_str(), a.type, a.values.size(), raw.data()) == NC_NOERR;
}

}  // namespace

NetcdfModel read_netcdf_model(const std::string& path) {
  int ncid = 0;
  check(nc_open(path.c_str(), NC_NOWRITE, &ncid), "open " + path);
  NetcdfModel m;
  try {
    check(nc_inq_format(ncid, &m.format), "format");
    int ndims = 0, nvars = 0, natts = 0, unlimited = -1;
    check(nc_inq(ncid, &ndims, &nvars, &natts, &unlimited), "inquire");
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {0};
      NcDimension dim;
      check(nc_inq_dim(ncid, d, name, &dim.size), "dimension");
      dim.name = name;
      dim.unlimited = d == unlimited;
      m.dimensions.push_back(dim);
    }
    for (int a = 0; a < natts; ++a)
      m.attributes.push_back(read_attribute(ncid, NC_GLOBAL, name_of(ncid, NC_GLOBAL, a)));
    for (int v = 0; v < nvars; ++v) {
      char name[NC_MAX_NAME + 1] = {0};
      NcVariable var;
      int vdims = 0, dimids[NC_MAX_VAR_DIMS], vatts = 0;
      check(nc_inq_var(ncid, v, name, &var.type, &vdims, dimids, &vatts), "variable");
      var.name = name;
      std::size_t n = 1;
      for (int i = 0; i < vdims; ++i) {
        var.dims.push_back(dimids[i]);
        n *= m.dimensions[static_cast<std::size_t>(dimids[i])].size;
      }
      for (int a = 0; a < vatts; ++a)
        var.attributes.push_back(read_attribute(ncid, v, name_of(ncid, v, a)));
      var.values.resize(n);
      if (var.type == NC_CHAR) {
        std::string text(n, '\0');
        if (n > 0) check(nc_get_var_text(ncid, v, text.data()), "variable " + var.name);
        for (std::size_t i = 0; i < n; ++i) var.values[i] = text[i];
      } else if (n > 0) {
        check(nc_get_var_double(ncid, v, var.values.data()), "variable " + var.name);
      }
      m.variables.push_back(std::move(var));
    }
  } catch (...) {
    nc_close(ncid);
    throw;
  }
  nc_close(ncid);
  return m;
}

bool write_netcdf_model(const NetcdfModel& m, const std::string& path, std::size_t max_values) {
  std::size_t total = 0;
  for (const NcVariable& v : m.variables) {
    std::size_t n = 1;
    for (int d : v.dims) {
      const std::size_t len = m.dimensions[static_cast<std::size_t>(d)].size;
      if (len != 0 && n > max_values / len) return false;
      n *= len;
    }
    total += n;
    if (total > max_values) return false;
  }
  bool extended = false;
  for (const NcVariable& v : m.variables) extended = extended || extended_type(v.type);
  for (const NcAttribute& a : m.attributes) extended = extended || extended_type(a.type);
  if (extended && m.format != NC_FORMAT_CDF5) return false;

  int mode = NC_CLOBBER;
  if (m.format == NC_FORMAT_64BIT_OFFSET) mode |= NC_64BIT_OFFSET;
  if (m.format == NC_FORMAT_CDF5) mode |= NC_64BIT_DATA;
  int ncid = 0;
  if (nc_create(path.c_str(), mode, &ncid) != NC_NOERR) return false;
  const auto fail = [&] {
    nc_close(ncid);
    return false;
  };
  int old_fill = 0;
  nc_set_fill(ncid, NC_NOFILL, &old_fill);
  std::vector<int> dimids;
  for (const NcDimension& d : m.dimensions) {
    int id = 0;
    if (nc_def_dim(ncid, d.name.c_str(), d.unlimited ? NC_UNLIMITED : d.size, &id) != NC_NOERR)
      return fail();
    dimids.push_back(id);
  }
  for (const NcAttribute& a : m.attributes)
    if (!put_attribute(ncid, NC_GLOBAL, a)) return fail();
  std::vector<int> varids;
  for (const NcVariable& v : m.variables) {
    std::vector<int> ids;
    for (int d : v.dims) ids.push_back(dimids[static_cast<std::size_t>(d)]);
    int id = 0;
    if (nc_def_var(ncid, v.name.c_str(), v.type, static_cast<int>(ids.size()), ids.data(), &id) !=
        NC_NOERR)
      return fail();
    for (const NcAttribute& a : v.attributes)
      if (!put_attribute(ncid, id, a)) return fail();
    varids.push_back(id);
  }
  if (nc_enddef(ncid) != NC_NOERR) return fail();
  for (std::size_t i = 0; i < m.variables.size(); ++i) {
    const NcVariable& v = m.variables[i];
    std::vector<std::size_t> start(v.dims.size(), 0), count;
    std::size_t n = 1;
    for (int d : v.dims) {
      count.push_back(m.dimensions[static_cast<std::size_t>(d)].size);
      n *= count.back();
    }
    if (n == 0) continue;
    std::vector<double> values = v.values;
    values.resize(n, 0.0);
    const auto raw = raw_values(v.type, values);
    if (nc_put_vara(ncid, varids[i], start.data(), count.data(), raw.data()) != NC_NOERR)
      return fail();
  }
  if (nc_close(ncid) != NC_NOERR) return false;
  if (m.cut_bytes > 0) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return false;
    std::filesystem::resize_file(path, size - std::min<std::uintmax_t>(size, m.cut_bytes), ec);
  }
  return true;
}

// ---- Edits ------------------------------------------------------------------------------------

namespace {

/// A value worth trying in place of `current` (`others`: the values of the same variable).
double interesting_value(FuzzedDataProvider& in, double current,
                         const std::vector<double>& others) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  switch (in.ConsumeIntegralInRange<int>(0, 21)) {
    case 0: return std::numeric_limits<double>::quiet_NaN();
    case 1: return inf;
    case 2: return -inf;
    case 3: return 0.0;
    case 4: return -1.0;
    case 5: return 1.0;
    case 6: return 1e300;
    case 7: return -1e300;
    case 8: return 2147483647.0;
    case 9: return -2147483648.0;
    case 10: return 2147483648.0;
    case 11: return 4e-320;  // subnormal
    case 12: return -0.0;
    case 13: return current + 1;
    case 14: return current - 1;
    case 15:
      return others.empty() ? current
                            : others[in.ConsumeIntegralInRange<std::size_t>(0, others.size() - 1)];
    case 16: return in.ConsumeFloatingPoint<double>();
    case 17: return -current;
    case 18: return 0.5;
    case 19: return current * 1e6;
    case 20: return 9.3e18;                                   // beyond long long
    default: return in.ConsumeIntegralInRange<int>(-3, 300);  // small counts and indices
  }
}

template <class T>
T& pick(FuzzedDataProvider& in, std::vector<T>& items) {
  return items[in.ConsumeIntegralInRange<std::size_t>(0, items.size() - 1)];
}

std::string pick_name(FuzzedDataProvider& in, const std::vector<std::string>& vocabulary,
                      const std::vector<std::string>& existing) {
  const std::size_t n = vocabulary.size() + existing.size();
  if (n == 0 || in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.ConsumeRandomLengthString(24);
  const std::size_t i = in.ConsumeIntegralInRange<std::size_t>(0, n - 1);
  return i < vocabulary.size() ? vocabulary[i] : existing[i - vocabulary.size()];
}

nc_type pick_type(FuzzedDataProvider& in) {
  static const nc_type types[] = {NC_BYTE,   NC_CHAR,  NC_SHORT,  NC_INT,   NC_FLOAT,
                                  NC_DOUBLE, NC_INT,   NC_DOUBLE, NC_UBYTE, NC_USHORT,
                                  NC_UINT,   NC_INT64, NC_UINT64};
  return types[in.ConsumeIntegralInRange<std::size_t>(0, std::size(types) - 1)];
}

std::size_t element_count(const NetcdfModel& m, const NcVariable& v) {
  std::size_t n = 1;
  for (int d : v.dims) n *= m.dimensions[static_cast<std::size_t>(d)].size;
  return n;
}

NcAttribute* find_attribute(NetcdfModel& m, const std::string& name) {
  for (NcAttribute& a : m.attributes)
    if (a.name == name) return &a;
  return nullptr;
}

void set_attribute(NetcdfModel& m, FuzzedDataProvider& in, const EditVocabulary& vocabulary) {
  std::vector<std::string> existing;
  for (const NcAttribute& a : m.attributes) existing.push_back(a.name);
  const std::string name = pick_name(in, vocabulary.attributes, existing);
  NcAttribute* a = find_attribute(m, name);
  if (a == nullptr) {
    m.attributes.push_back({name, NC_INT, "", {0.0}});
    a = &m.attributes.back();
  }
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:  // another type, same values
      a->type = pick_type(in);
      if (a->type == NC_CHAR && a->text.empty()) a->text = std::to_string(a->values.size());
      if (a->type != NC_CHAR && a->values.empty()) a->values.push_back(1.0);
      break;
    case 1:  // text
      a->type = NC_CHAR;
      a->text =
          vocabulary.texts.empty() || in.ConsumeBool()
              ? in.ConsumeRandomLengthString(64)
              : vocabulary
                    .texts[in.ConsumeIntegralInRange<std::size_t>(0, vocabulary.texts.size() - 1)];
      break;
    case 2: {  // one value
      if (a->type == NC_CHAR) a->type = in.ConsumeBool() ? NC_INT : NC_DOUBLE;
      const double current = a->values.empty() ? 0.0 : a->values[0];
      a->values = {interesting_value(in, current, a->values)};
      break;
    }
    default: {  // several values
      if (a->type == NC_CHAR) a->type = NC_INT;
      a->values.resize(in.ConsumeIntegralInRange<std::size_t>(0, 4), 0.0);
      for (double& v : a->values) v = interesting_value(in, v, a->values);
    }
  }
}

void add_variable(NetcdfModel& m, FuzzedDataProvider& in, const EditVocabulary& vocabulary) {
  std::vector<std::string> existing;
  for (const NcVariable& v : m.variables) existing.push_back(v.name);
  NcVariable v;
  if (!m.variables.empty() && in.ConsumeBool()) v = pick(in, m.variables);  // a renamed copy
  v.name = pick_name(in, vocabulary.variables, existing);
  if (v.dims.empty() && !m.dimensions.empty())
    v.dims = {static_cast<int>(in.ConsumeIntegralInRange<std::size_t>(0, m.dimensions.size() - 1))};
  if (in.ConsumeBool()) v.type = pick_type(in);
  v.values.assign(element_count(m, v), 0.0);
  const double value = interesting_value(in, 0.0, {});
  for (std::size_t i = 0; i < v.values.size(); ++i)
    v.values[i] = in.ConsumeBool() ? value : static_cast<double>(i);
  m.variables.push_back(std::move(v));
}

}  // namespace

void apply_edits(NetcdfModel& m, FuzzedDataProvider& in, const EditVocabulary& vocabulary,
                 int max_edits) {
  for (int edit = 0; edit < max_edits && in.remaining_bytes() > 0; ++edit) {
    const int op = in.ConsumeIntegralInRange<int>(0, 15);
    if (m.variables.empty() && op <= 9) continue;
    switch (op) {
      case 0:
      case 1: {  // one element
        NcVariable& v = pick(in, m.variables);
        if (v.values.empty()) break;
        double& x = v.values[in.ConsumeIntegralInRange<std::size_t>(0, v.values.size() - 1)];
        x = interesting_value(in, x, v.values);
        break;
      }
      case 2: {  // a run of elements
        NcVariable& v = pick(in, m.variables);
        if (v.values.empty()) break;
        const std::size_t a = in.ConsumeIntegralInRange<std::size_t>(0, v.values.size() - 1);
        const std::size_t b = in.ConsumeIntegralInRange<std::size_t>(a, v.values.size() - 1);
        const double value = interesting_value(in, v.values[a], v.values);
        std::fill(v.values.begin() + static_cast<std::ptrdiff_t>(a),
                  v.values.begin() + static_cast<std::ptrdiff_t>(b) + 1, value);
        break;
      }
      case 3: {  // swap two elements (permuted connectivity)
        NcVariable& v = pick(in, m.variables);
        if (v.values.empty()) break;
        std::swap(v.values[in.ConsumeIntegralInRange<std::size_t>(0, v.values.size() - 1)],
                  v.values[in.ConsumeIntegralInRange<std::size_t>(0, v.values.size() - 1)]);
        break;
      }
      case 4:  // drop a variable
        m.variables.erase(m.variables.begin() +
                          static_cast<std::ptrdiff_t>(
                              in.ConsumeIntegralInRange<std::size_t>(0, m.variables.size() - 1)));
        break;
      case 5: {  // another type
        NcVariable& v = pick(in, m.variables);
        v.type = pick_type(in);
        break;
      }
      case 6: {  // other dimensions
        NcVariable& v = pick(in, m.variables);
        if (m.dimensions.empty()) break;
        const int other =
            static_cast<int>(in.ConsumeIntegralInRange<std::size_t>(0, m.dimensions.size() - 1));
        switch (in.ConsumeIntegralInRange<int>(0, 3)) {
          case 0:
            if (!v.dims.empty())
              v.dims[in.ConsumeIntegralInRange<std::size_t>(0, v.dims.size() - 1)] = other;
            break;
          case 1:
            if (!v.dims.empty()) v.dims.erase(v.dims.begin());
            break;
          case 2: v.dims.insert(v.dims.begin(), other); break;
          default: std::reverse(v.dims.begin(), v.dims.end());
        }
        break;
      }
      case 7: {  // copy one variable's values into another
        const NcVariable& from = pick(in, m.variables);
        const std::vector<double> values = from.values;
        NcVariable& to = pick(in, m.variables);
        to.values = values;
        break;
      }
      case 8: {  // rename a variable
        std::vector<std::string> existing;
        for (const NcVariable& v : m.variables) existing.push_back(v.name);
        pick(in, m.variables).name = pick_name(in, vocabulary.variables, existing);
        break;
      }
      case 9: {  // drop or rename a variable attribute
        NcVariable& v = pick(in, m.variables);
        if (v.attributes.empty()) break;
        v.attributes.erase(v.attributes.begin() +
                           static_cast<std::ptrdiff_t>(
                               in.ConsumeIntegralInRange<std::size_t>(0, v.attributes.size() - 1)));
        break;
      }
      case 10:
        if (!m.attributes.empty())  // drop a global attribute
          m.attributes.erase(m.attributes.begin() +
                             static_cast<std::ptrdiff_t>(in.ConsumeIntegralInRange<std::size_t>(
                                 0, m.attributes.size() - 1)));
        break;
      case 11: set_attribute(m, in, vocabulary); break;
      case 12: {  // resize, rename or make unlimited a dimension
        if (m.dimensions.empty()) break;
        NcDimension& d = pick(in, m.dimensions);
        switch (in.ConsumeIntegralInRange<int>(0, 7)) {
          case 0: d.size = 0; break;
          case 1: d.size = 1; break;
          case 2: d.size = d.size > 0 ? d.size - 1 : 0; break;
          case 3: d.size += 1; break;
          case 4: d.size *= 2; break;
          case 5: d.size = in.ConsumeIntegralInRange<std::size_t>(0, 4096); break;
          case 6: {
            std::vector<std::string> existing;
            for (const NcDimension& e : m.dimensions) existing.push_back(e.name);
            d.name = pick_name(in, vocabulary.dimensions, existing);
            break;
          }
          default: {
            const bool unlimited = !d.unlimited;
            for (NcDimension& e : m.dimensions) e.unlimited = false;
            d.unlimited = unlimited;
          }
        }
        break;
      }
      case 13: add_variable(m, in, vocabulary); break;
      case 14: {  // another classic format
        const int formats[] = {NC_FORMAT_CLASSIC, NC_FORMAT_64BIT_OFFSET, NC_FORMAT_CDF5};
        m.format = formats[in.ConsumeIntegralInRange<int>(0, 2)];
        break;
      }
      default:  // cut the end off the file
        m.cut_bytes = in.ConsumeIntegralInRange<std::size_t>(1, in.ConsumeBool() ? 16 : 100000);
    }
  }
}

}  // namespace icondiff::fuzz
