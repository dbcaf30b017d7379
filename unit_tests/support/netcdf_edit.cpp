#include "netcdf_edit.hpp"

#include <netcdf.h>

#include <stdexcept>

namespace icondiff::test {

namespace {
void check(int status, const std::string& what) {
  if (status != NC_NOERR) throw std::runtime_error(what + ": " + nc_strerror(status));
}
}  // namespace

void copy_netcdf(const std::string& source, const std::string& destination,
                 const NetcdfEdits& edits) {
  int in = 0, out = 0;
  check(nc_open(source.c_str(), NC_NOWRITE, &in), "open " + source);
  check(nc_create(destination.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, &out),
        "create " + destination);

  int ndims = 0, nvars = 0, ngatts = 0, unlimited = 0;
  check(nc_inq(in, &ndims, &nvars, &ngatts, &unlimited), "inquire");
  std::map<std::string, int> out_dim_of_name;  // by *original* name
  std::map<int, int> out_dim_of_in_dim;
  for (int d = 0; d < ndims; ++d) {
    char name[NC_MAX_NAME + 1] = {0};
    std::size_t len = 0;
    check(nc_inq_dim(in, d, name, &len), "inquire dimension");
    auto it = edits.rename_dimensions.find(name);
    const std::string new_name = it == edits.rename_dimensions.end() ? name : it->second;
    int id = 0;
    check(nc_def_dim(out, new_name.c_str(), len, &id), "define dimension " + new_name);
    out_dim_of_name[name] = id;
    out_dim_of_in_dim[d] = id;
  }
  for (int a = 0; a < ngatts; ++a) {
    char name[NC_MAX_NAME + 1] = {0};
    check(nc_inq_attname(in, NC_GLOBAL, a, name), "attribute name");
    check(nc_copy_att(in, NC_GLOBAL, name, out, NC_GLOBAL), "copy attribute");
  }
  struct Copy {
    int in_id, out_id;
    std::size_t in_size, out_size;
  };
  std::vector<Copy> copies;
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {0};
    nc_type type = 0;
    int vdims = 0, dimids[NC_MAX_VAR_DIMS], natts = 0;
    check(nc_inq_var(in, v, name, &type, &vdims, dimids, &natts), "inquire variable");
    if (edits.drop_variables.count(name) || type == NC_CHAR) continue;
    std::size_t in_size = 1;
    std::vector<int> out_dims;
    for (int i = 0; i < vdims; ++i) {
      std::size_t len = 0;
      nc_inq_dimlen(in, dimids[i], &len);
      in_size *= len;
      out_dims.push_back(out_dim_of_in_dim.at(dimids[i]));
    }
    if (auto it = edits.redimension.find(name); it != edits.redimension.end()) {
      out_dims.clear();
      for (const auto& d : it->second) out_dims.push_back(out_dim_of_name.at(d));
    }
    std::size_t out_size = 1;
    for (int id : out_dims) {
      std::size_t len = 0;
      nc_inq_dimlen(out, id, &len);
      out_size *= len;
    }
    const nc_type out_type = edits.make_double.count(name) ? NC_DOUBLE : type;
    int out_id = 0;
    check(nc_def_var(out, name, out_type, static_cast<int>(out_dims.size()), out_dims.data(),
                     &out_id),
          std::string("define ") + name);
    for (int a = 0; a < natts; ++a) {
      char att[NC_MAX_NAME + 1] = {0};
      nc_inq_attname(in, v, a, att);
      check(nc_copy_att(in, v, att, out, out_id), "copy attribute");
    }
    copies.push_back({v, out_id, in_size, out_size});
  }
  check(nc_enddef(out), "enddef");
  for (const auto& c : copies) {
    char name[NC_MAX_NAME + 1] = {0};
    nc_inq_varname(in, c.in_id, name);
    std::vector<double> data(c.in_size);
    check(nc_get_var_double(in, c.in_id, data.data()), std::string("read ") + name);
    if (auto it = edits.edit_values.find(name); it != edits.edit_values.end()) it->second(data);
    data.resize(c.out_size, 0.0);
    check(nc_put_var_double(out, c.out_id, data.data()), std::string("write ") + name);
  }
  nc_close(in);
  check(nc_close(out), "close " + destination);
}

}  // namespace icondiff::test
