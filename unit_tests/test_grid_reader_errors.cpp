// Bad grid files get a GridFileError naming the file, the variable, the index and what was
// expected. Each test damages a good file on purpose (netCDF copy with edits, or truncation).
#include "support/grid_files.hpp"
#include "support/netcdf_edit.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace icondiff {
namespace {

/// A good ICON grid file written from the octahedron (always available).
const std::string& good_file() {
  static const std::string path = [] {
    const std::string p = test::scratch_file("good_octahedron.nc");
    write_icon_grid(test::make_octahedron_grid(), p);
    return p;
  }();
  return path;
}

std::string damaged(const std::string& name, const test::NetcdfEdits& edits,
                    const std::string& source = good_file()) {
  const std::string path = test::scratch_file(name + ".nc");
  test::copy_netcdf(source, path, edits);
  return path;
}

/// Reads `path` expecting a GridFileError about `variable` (and `index` if >= 0) whose message
/// contains `fragment`.
void expect_error(const std::string& path, const std::string& variable, long long index,
                  const std::string& fragment) {
  try {
    read_icon_grid(path);
    FAIL() << "reading " << path << " should have failed";
  } catch (const GridFileError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.file(), path) << message;
    EXPECT_EQ(e.variable(), variable) << message;
    if (index >= 0) {
      EXPECT_EQ(e.index(), index) << message;
    }
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
  }
}

TEST(GridReaderErrors, TheGoodFileReads) {
  EXPECT_NO_THROW(read_icon_grid(good_file()));
}

TEST(GridReaderErrors, MissingFile) {
  expect_error("/nonexistent/folder/grid.nc", "", -1, "does not exist");
}

TEST(GridReaderErrors, NotNetcdf) {
  const std::string path = test::scratch_file("not_netcdf.nc");
  std::ofstream(path) << "this is not a netCDF file\n";
  expect_error(path, "", -1, "cannot be opened as netCDF");
}

TEST(GridReaderErrors, TruncatedFile) {
  for (std::uintmax_t cut : {std::uintmax_t{1}, std::uintmax_t{1000}}) {
    const std::string path = test::scratch_file("truncated_" + std::to_string(cut) + ".nc");
    std::filesystem::copy_file(good_file(), path,
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - cut);
    expect_error(path, "", -1, "truncated");
  }
}

TEST(GridReaderErrors, TruncatedRealFile) {
  ICONDIFF_REAL_GRID_OR_SKIP(source, test::lam_r19b04);
  const std::string path = test::scratch_file("truncated_real.nc");
  std::filesystem::copy_file(source, path, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  expect_error(path, "", -1, "truncated");
}

TEST(GridReaderErrors, HeaderCutShort) {
  const std::string path = test::scratch_file("header_cut.nc");
  std::filesystem::copy_file(good_file(), path, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(path, 200);
  try {
    read_icon_grid(path);
    FAIL() << "expected an error";
  } catch (const GridFileError& e) {
    EXPECT_EQ(e.file(), path);
  }
}

// Found by fuzz/fuzz_savepoint_file: a 64-byte CDF-5 file whose first dimension name claims
// 2^64 - 1 characters. libnetcdf 4.9.0's nc_open copies a name of that length (a memcpy of size
// -1) and crashes; the reader's own check of the header against the file refuses it first.
TEST(GridReaderErrors, HeaderLengthBeyondTheFile) {
  const std::string path = test::scratch_file("name_beyond_the_file.nc");
  {
    std::ofstream out(path, std::ios::binary);
    const auto put = [&out](std::uint64_t v, int bytes) {
      for (int i = bytes - 1; i >= 0; --i) out.put(static_cast<char>((v >> (8 * i)) & 0xff));
    };
    out.write("CDF\x05", 4);
    put(0, 8);                  // no records
    put(10, 4);                 // NC_DIMENSION: the dimension list,
    put(1, 8);                  // of one dimension,
    put(~std::uint64_t{0}, 8);  // whose name is 2^64 - 1 characters long
    for (int i = 0; i < 8; ++i) out.write("abcd", 4);
  }
  expect_error(path, "", -1, "header is cut short");
}

// Found by fuzz/fuzz_grid_file: a CDF-1 variable of type code 12 (NC_STRING, a netCDF-4 type).
// libnetcdf 4.9.0's nc_open accepts the code, sizes the type as 0 bytes and divides by it
// (SIGFPE in NC_check_vlen; `ncdump -h` crashes the same way); the reader's own check of the
// header refuses it first, and the same for a dimension id past the list and an unlimited
// dimension that is not a variable's first.
std::string classic_file_with_one_variable(const std::string& name, std::uint32_t type,
                                           const std::vector<std::uint32_t>& dim_lengths,
                                           const std::vector<std::uint32_t>& var_dims) {
  const std::string path = test::scratch_file(name);
  std::ofstream out(path, std::ios::binary);
  const auto put = [&out](std::uint32_t v) {
    for (int i = 3; i >= 0; --i) out.put(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  const auto put_name = [&](const char* text) {  // one to four characters, padded to four
    put(static_cast<std::uint32_t>(std::strlen(text)));
    char padded[4] = {0, 0, 0, 0};
    std::memcpy(padded, text, std::strlen(text));
    out.write(padded, 4);
  };
  out.write("CDF\x01", 4);
  put(0);   // no records
  put(10);  // NC_DIMENSION
  put(static_cast<std::uint32_t>(dim_lengths.size()));
  const char* dim_names[] = {"a", "b", "c", "d"};
  for (std::size_t d = 0; d < dim_lengths.size(); ++d) {
    put_name(dim_names[d]);
    put(dim_lengths[d]);
  }
  put(0);  // no global attributes
  put(0);
  put(11);  // NC_VARIABLE: one variable
  put(1);
  put_name("v");
  put(static_cast<std::uint32_t>(var_dims.size()));
  for (const std::uint32_t id : var_dims) put(id);
  put(0);  // no attributes
  put(0);
  put(type);
  put(32);  // vsize
  const auto begin = static_cast<std::uint32_t>(out.tellp()) + 4;
  put(begin);
  for (int i = 0; i < 8; ++i) put(0);
  return path;
}

TEST(GridReaderErrors, HeaderTypeNotOfTheClassicFormat) {
  expect_error(classic_file_with_one_variable("string_variable.nc", 12, {4}, {0}), "", -1,
               "variable #0 has type code 12, which is not a type of the CDF-1 format");
  expect_error(classic_file_with_one_variable("int64_in_cdf1.nc", NC_INT64, {4}, {0}), "", -1,
               "which is not a type of the CDF-1 format");
}

TEST(GridReaderErrors, HeaderDimensionIdsInvalid) {
  expect_error(classic_file_with_one_variable("dimid_past_list.nc", NC_DOUBLE, {4}, {1}), "", -1,
               "variable #0 uses dimension id 1, but the file defines 1");
  expect_error(
      classic_file_with_one_variable("unlimited_second.nc", NC_DOUBLE, {3, 0, 4}, {0, 1, 2}), "",
      -1, "variable #0 has the unlimited dimension at position 2");
}

// Found by fuzz/fuzz_grid_file: refin_ctrl = -2^31 made compute_zones negate INT_MIN (undefined).
TEST(GridReaderErrors, RefinementControlOutOfRange) {
  test::NetcdfEdits edits;
  edits.edit_values["refin_c_ctrl"] = [](std::vector<double>& v) { v[3] = -2147483648.0; };
  expect_error(damaged("refin_int_min", edits), "refin_c_ctrl", 3,
               "holds -2147483648, expected a refinement control value in [-1000, 1000]");
  edits.edit_values["refin_c_ctrl"] = [](std::vector<double>& v) { v[5] = 1001; };
  expect_error(damaged("refin_1001", edits), "refin_c_ctrl", 5, "holds 1001");
}

// grid_root and grid_level were converted to int whatever they held (NaN, 1e300: undefined).
TEST(GridReaderErrors, GridRootNotAnInteger) {
  int n = 0;
  for (const double value : {std::numeric_limits<double>::quiet_NaN(), 1e300, 2.5, -3e9}) {
    const std::string path = damaged("grid_root_" + std::to_string(n++), {});
    int ncid = 0;
    ASSERT_EQ(nc_open(path.c_str(), NC_WRITE, &ncid), NC_NOERR);
    ASSERT_EQ(nc_redef(ncid), NC_NOERR);
    ASSERT_EQ(nc_put_att_double(ncid, NC_GLOBAL, "grid_root", NC_DOUBLE, 1, &value), NC_NOERR);
    ASSERT_EQ(nc_close(ncid), NC_NOERR);
    expect_error(path, "", -1, "the global attribute grid_root is");
  }
}

TEST(GridReaderErrors, MissingVariable) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"edge_of_cell"};
  expect_error(damaged("no_edge_of_cell", edits), "edge_of_cell", -1, "missing");
  edits.drop_variables = {"cell_area", "cell_area_p"};
  expect_error(damaged("no_cell_area", edits), "cell_area", -1, "missing");
  edits.drop_variables = {"refin_e_ctrl"};
  expect_error(damaged("no_refin", edits), "refin_e_ctrl", -1, "missing");
}

TEST(GridReaderErrors, FallsBackToTheIconAreaNames) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"cell_area", "dual_area"};  // ICON's own cell_area_p, dual_area_p remain
  EXPECT_NO_THROW(read_icon_grid(damaged("p_areas_only", edits)));
}

TEST(GridReaderErrors, MissingDimension) {
  test::NetcdfEdits edits;
  edits.rename_dimensions = {{"nv", "corners"}};
  expect_error(damaged("no_nv", edits), "", -1, "dimension 'nv' is missing");
}

TEST(GridReaderErrors, WrongShape) {
  test::NetcdfEdits edits;
  edits.redimension = {{"edge_of_cell", {"nc", "cell"}}};
  expect_error(damaged("shape", edits), "edge_of_cell", -1,
               "has dimensions (nc, cell), expected (nv, cell)");
  edits.redimension = {{"cell_area", {"edge"}}};
  expect_error(damaged("shape_area", edits), "cell_area", -1, "expected (cell)");
}

TEST(GridReaderErrors, WrongType) {
  test::NetcdfEdits edits;
  edits.make_double = {"adjacent_cell_of_edge"};
  expect_error(damaged("type", edits), "adjacent_cell_of_edge", -1, "expected an integer type");
}

TEST(GridReaderErrors, IndexOutOfRange) {
  test::NetcdfEdits edits;
  // edge_of_cell is (nv, cell): entry [slot 1, cell 3] sits at 1 * 8 + 3
  edits.edit_values["edge_of_cell"] = [](std::vector<double>& v) { v[1 * 8 + 3] = 9999; };
  expect_error(damaged("range_high", edits), "edge_of_cell", 3, "holds 9999");
  edits.edit_values["edge_of_cell"] = [](std::vector<double>& v) { v[2 * 8 + 5] = -7; };
  expect_error(damaged("range_negative", edits), "edge_of_cell", 5, "holds -7");
}

TEST(GridReaderErrors, RequiredNeighbourMissing) {
  test::NetcdfEdits edits;
  edits.edit_values["vertex_of_cell"] = [](std::vector<double>& v) { v[0 * 8 + 2] = 0; };
  expect_error(damaged("missing_vertex", edits), "vertex_of_cell", 2, "missing");
}

TEST(GridReaderErrors, EdgeToCellContradictsCellToEdge) {
  const Grid g = test::make_octahedron_grid();
  // Put into slot 0 of edge 0 a cell that does not have edge 0.
  index_t wrong = 0;
  while (g.c2e(wrong, 0) == 0 || g.c2e(wrong, 1) == 0 || g.c2e(wrong, 2) == 0) ++wrong;
  test::NetcdfEdits edits;
  edits.edit_values["adjacent_cell_of_edge"] = [wrong](std::vector<double>& v) {
    v[0] = wrong + 1;
  };
  expect_error(damaged("e2c_vs_c2e", edits), "adjacent_cell_of_edge", 0, "lists cell");
}

TEST(GridReaderErrors, NeighbourNotAcrossItsEdge) {
  test::NetcdfEdits edits;
  // swap slots 0 and 1 of cell 4's neighbours
  edits.edit_values["neighbor_cell_index"] = [](std::vector<double>& v) {
    std::swap(v[0 * 8 + 4], v[1 * 8 + 4]);
  };
  expect_error(damaged("c2e2c", edits), "neighbor_cell_index", 4, "the cell across edge");
}

TEST(GridReaderErrors, VertexEdgesContradictEdgeVertices) {
  test::NetcdfEdits edits;
  edits.edit_values["edges_of_vertex"] = [](std::vector<double>& v) { v[5 * 6 + 1] = 3; };
  expect_error(damaged("v2e", edits), "edges_of_vertex", 1, "");
}

TEST(GridReaderErrors, BadGeometry) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  test::NetcdfEdits edits;
  edits.edit_values["cell_area"] = [nan](std::vector<double>& v) { v[6] = nan; };
  expect_error(damaged("nan_area", edits), "cell_area", 6, "not a positive finite area");
  edits.edit_values.clear();
  edits.edit_values["dual_edge_length"] = [](std::vector<double>& v) { v[2] = -5.0; };
  expect_error(damaged("negative_length", edits), "dual_edge_length", 2,
               "not a positive finite length");
  edits.edit_values.clear();
  edits.edit_values["edge_length"] = [](std::vector<double>& v) { v[11] = 0.0; };
  expect_error(damaged("zero_length", edits), "edge_length", 11, "not a positive finite length");
  edits.edit_values.clear();
  edits.edit_values["edge_vert_distance"] = [nan](std::vector<double>& v) { v[12 + 7] = nan; };
  expect_error(damaged("nan_distance", edits), "edge_vert_distance", 7, "slot 1");
  edits.edit_values.clear();
  edits.edit_values["clat"] = [nan](std::vector<double>& v) { v[1] = nan; };
  expect_error(damaged("nan_lat", edits), "clat", 1, "not finite");
  edits.edit_values.clear();
  edits.edit_values["zonal_normal_primal_edge"] = [](std::vector<double>& v) { v[4] *= 3; };
  expect_error(damaged("normal", edits), "zonal_normal_primal_edge/meridional_normal_primal_edge",
               4, "not a unit vector");
  edits.edit_values.clear();
  edits.edit_values["orientation_of_normal"] = [](std::vector<double>& v) { v[3] = 2; };
  expect_error(damaged("orientation", edits), "orientation_of_normal", 3, "expected +1 or -1");
}

TEST(GridReaderErrors, GeometryThatContradictsItself) {
  // Wrong but finite, of the right sign: caught by comparing the geometry with itself.
  test::NetcdfEdits edits;
  edits.edit_values["orientation_of_normal"] = [](std::vector<double>& v) { v[1 * 8 + 5] *= -1; };
  expect_error(damaged("flipped_orientation", edits), "orientation_of_normal", 5,
               "primal normal points");
  edits.edit_values.clear();
  edits.edit_values["clat"] = [](std::vector<double>& v) { v[2] += 0.2 * (v[2] > 0 ? -1 : 1); };
  edits.edit_values["clon"] = [](std::vector<double>& v) { v[2] += 1.2; };
  expect_error(damaged("moved_centre", edits), "clon/clat", 2, "outside the triangle");
  edits.edit_values.clear();
  edits.edit_values["cell_area"] = [](std::vector<double>& v) { v[7] *= 1.05; };
  expect_error(damaged("area", edits), "cell_area", 7, "more than 1 % apart");
}

TEST(GridReaderErrors, BoundaryRowsOutOfOrder) {
  test::NetcdfEdits edits;
  edits.edit_values["refin_c_ctrl"] = [](std::vector<double>& v) {
    v[0] = 1;
    v[1] = 2;
    v[2] = 1;
  };
  expect_error(damaged("refin", edits), "refin_c_ctrl", -1, "not stored contiguously");
}

TEST(GridReaderErrors, RealLimitedAreaFileWithSwappedEdgeCells) {
  ICONDIFF_REAL_GRID_OR_SKIP(source, test::lam_r19b04);
  test::NetcdfEdits edits;
  constexpr long long edges = 6761;
  // Edge 3000 claims a cell that does not have it.
  edits.edit_values["adjacent_cell_of_edge"] = [](std::vector<double>& v) {
    v[0 * edges + 3000] = v[0 * edges + 3500];
  };
  expect_error(damaged("real_e2c", edits, source), "adjacent_cell_of_edge", 3000, "lists cell");
}

// ---- Issue 30 (hostile probe): files that were accepted and gave absurd results or whose
// damage had no effect; each is refused at read time naming the grid variable and the point.

/// `damaged` with one attribute (global when `variable` is empty) set afterwards.
std::string with_attribute(const std::string& name, const std::string& variable,
                           const std::string& attribute, const double* number, const char* text) {
  const std::string path = damaged(name, {});
  int ncid = 0, varid = NC_GLOBAL;
  EXPECT_EQ(nc_open(path.c_str(), NC_WRITE, &ncid), NC_NOERR);
  if (!variable.empty()) {
    EXPECT_EQ(nc_inq_varid(ncid, variable.c_str(), &varid), NC_NOERR);
  }
  EXPECT_EQ(nc_redef(ncid), NC_NOERR);
  if (number) {
    EXPECT_EQ(nc_put_att_double(ncid, varid, attribute.c_str(), NC_DOUBLE, 1, number), NC_NOERR);
  } else {
    EXPECT_EQ(nc_put_att_text(ncid, varid, attribute.c_str(), std::strlen(text), text), NC_NOERR);
  }
  EXPECT_EQ(nc_close(ncid), NC_NOERR);
  return path;
}

// A variable defined but never written reads as its fill value (9.97e36 for a double): it
// passed every check and gave max|vn| = 2.6e188.
TEST(GridReaderErrors, FillValuesRefused) {
  test::NetcdfEdits edits;
  edits.edit_values["edge_length"] = [](std::vector<double>& v) {
    for (double& x : v) x = NC_FILL_DOUBLE;
  };
  expect_error(damaged("fill_edge_length", edits), "edge_length", 0,
               "netCDF default fill value: it was never written there");
  {  // the variable really defined and never written (netCDF pre-fills it)
    test::NetcdfEdits drop;
    drop.drop_variables = {"dual_edge_length"};
    const std::string path = damaged("never_written", drop);
    int ncid = 0, edge_dim = 0, varid = 0;
    ASSERT_EQ(nc_open(path.c_str(), NC_WRITE, &ncid), NC_NOERR);
    ASSERT_EQ(nc_redef(ncid), NC_NOERR);
    ASSERT_EQ(nc_inq_dimid(ncid, "edge", &edge_dim), NC_NOERR);
    ASSERT_EQ(nc_def_var(ncid, "dual_edge_length", NC_DOUBLE, 1, &edge_dim, &varid), NC_NOERR);
    ASSERT_EQ(nc_close(ncid), NC_NOERR);
    expect_error(path, "dual_edge_length", 0, "holds 9.969209968386869e+36");
  }
  edits.edit_values.clear();
  edits.edit_values["edge_cell_distance"] = [](std::vector<double>& v) {
    v[12 + 5] = NC_FILL_DOUBLE;
  };
  expect_error(damaged("fill_distance", edits), "edge_cell_distance", 5, "slot 1 holds");
  edits.edit_values.clear();
  edits.edit_values["edge_vertices"] = [](std::vector<double>& v) { v[12 + 4] = NC_FILL_INT; };
  expect_error(damaged("fill_e2v", edits), "edge_vertices", 4, "never written");
  edits.edit_values.clear();
  edits.edit_values["refin_e_ctrl"] = [](std::vector<double>& v) { v[3] = NC_FILL_INT; };
  expect_error(damaged("fill_refin", edits), "refin_e_ctrl", 3, "never written");
  // An explicit _FillValue attribute counts too.
  const double fill = 1.5;
  edits.edit_values.clear();
  const std::string base = with_attribute("fill_attribute", "clat", "_FillValue", &fill, nullptr);
  edits.edit_values["clat"] = [](std::vector<double>& v) { v[6] = 1.5; };
  expect_error(damaged("fill_attribute_used", edits, base), "clat", 6, "the variable's _FillValue");
  EXPECT_NO_THROW(read_icon_grid(base));  // the attribute alone, no value equal to it: fine
}

// One edge length x 1e-9 gave 8.2e48; all x 1000 failed later as a vertical-grid error.
TEST(GridReaderErrors, EdgeLengthAgainstItsVertices) {
  test::NetcdfEdits edits;
  edits.edit_values["edge_length"] = [](std::vector<double>& v) { v[5] *= 1e-9; };
  expect_error(damaged("edge_length_tiny", edits), "edge_length", 5,
               "apart on the sphere of radius");
  edits.edit_values["edge_length"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 1000;
  };
  expect_error(damaged("edge_length_x1000", edits), "edge_length", 0, "more than 0.1 % apart");
}

TEST(GridReaderErrors, DualLengthAndDistancesAgainstThePoints) {
  test::NetcdfEdits edits;
  edits.edit_values["dual_edge_length"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 1e-6;
  };
  expect_error(damaged("dual_length_small", edits), "dual_edge_length", 0,
               "but the centres of its cells");
  edits.edit_values.clear();
  edits.edit_values["edge_cell_distance"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 100;
  };
  expect_error(damaged("cell_distance_x100", edits), "edge_cell_distance", 0,
               "from the centre of cell");
  edits.edit_values.clear();
  edits.edit_values["edge_vert_distance"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 100;
  };
  expect_error(damaged("vert_distance_x100", edits), "edge_vert_distance", 0, "from vertex");
}

TEST(GridReaderErrors, AreasScaled) {
  test::NetcdfEdits edits;
  edits.edit_values["dual_area"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 1000;
  };
  expect_error(damaged("dual_area_x1000", edits), "dual_area", 0,
               "the polygon of the centres of its cells");
  edits.edit_values.clear();
  edits.edit_values["cell_area_p"] = [](std::vector<double>& v) {
    for (double& x : v) x *= 1000;
  };
  expect_error(damaged("cell_area_p_x1000", edits), "cell_area_p", 0, "but cell_area holds");
  // 0.5 % more everywhere passes each cell's 1 % but not the sphere's area.
  edits.edit_values.clear();
  for (const char* name : {"cell_area", "cell_area_p"})
    edits.edit_values[name] = [](std::vector<double>& v) {
      for (double& x : v) x *= 1.005;
    };
  expect_error(damaged("cell_area_sum", edits), "cell_area", -1,
               "but a global grid covers the sphere");
}

TEST(GridReaderErrors, SwappedOrNegatedOrientation) {
  test::NetcdfEdits edits;
  edits.edit_values["edge_vertices"] = [](std::vector<double>& v) { std::swap(v[4], v[12 + 4]); };
  expect_error(damaged("e2v_swapped", edits), "edge_vertices/edge_system_orientation", 4,
               "vertices are swapped or its edge_system_orientation is negated");
  edits.edit_values.clear();
  edits.edit_values["edge_system_orientation"] = [](std::vector<double>& v) { v[7] *= -1; };
  expect_error(damaged("orientation_negated", edits), "edge_vertices/edge_system_orientation", 7,
               "edge_system_orientation is");
  edits.edit_values.clear();
  edits.edit_values["adjacent_cell_of_edge"] = [](std::vector<double>& v) {
    std::swap(v[2], v[12 + 2]);
  };
  expect_error(damaged("e2c_swapped", edits), "adjacent_cell_of_edge", 2, "cells swapped?");
  edits.edit_values.clear();
  edits.edit_values["edge_orientation"] = [](std::vector<double>& v) { v[0 * 6 + 1] *= -1; };
  expect_error(damaged("edge_orientation_flipped", edits), "edge_orientation", 1, "circulates");
}

TEST(GridReaderErrors, AttributesThatAreNotNumbers) {
  expect_error(with_attribute("radius_text", "", "semi_major_axis", nullptr, "6371229"), "", -1,
               "the global attribute semi_major_axis is text ('6371229'), expected a number");
  expect_error(with_attribute("root_text", "", "grid_root", nullptr, "abc"), "", -1,
               "the global attribute grid_root is text ('abc'), expected a number");
}

// The centre check named clon also when clat alone was wrong.
TEST(GridReaderErrors, CentreOutsideItsTriangleNamesBothCoordinates) {
  test::NetcdfEdits edits;
  edits.edit_values["clat"] = [](std::vector<double>& v) { v[3] = -v[3]; };
  expect_error(damaged("clat_only", edits), "clon/clat", 3, "outside the triangle");
}

/// Two copies of the octahedron in one grid: every edge has two cells, yet vertices - edges +
/// cells = 4, not the sphere's 2.
Grid two_octahedra() {
  const Grid one = test::make_octahedron_grid();
  Grid g = one;
  g.num_cells *= 2;
  g.num_edges *= 2;
  g.num_vertices *= 2;
  const auto twice_table = [](const HostTable<index_t>& t, index_t offset) {
    HostTable<index_t> out(2 * t.rows(), t.cols());
    for (std::size_t r = 0; r < t.rows(); ++r)
      for (std::size_t c = 0; c < t.cols(); ++c) {
        out(r, c) = t(r, c);
        out(r + t.rows(), c) = t(r, c) == missing_index ? missing_index : t(r, c) + offset;
      }
    return out;
  };
  const auto twice_reals = [](const HostTable<double>& t) {
    HostTable<double> out(2 * t.rows(), t.cols());
    for (std::size_t r = 0; r < t.rows(); ++r)
      for (std::size_t c = 0; c < t.cols(); ++c) out(r, c) = out(r + t.rows(), c) = t(r, c);
    return out;
  };
  const auto twice = [](std::vector<double> v) {
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) v.push_back(v[i]);
    return v;
  };
  g.c2e = twice_table(one.c2e, one.num_edges);
  g.c2v = twice_table(one.c2v, one.num_vertices);
  g.c2e2c = twice_table(one.c2e2c, one.num_cells);
  g.e2c = twice_table(one.e2c, one.num_cells);
  g.e2v = twice_table(one.e2v, one.num_vertices);
  g.v2e = twice_table(one.v2e, one.num_edges);
  g.v2c = twice_table(one.v2c, one.num_cells);
  for (auto* v :
       {&g.cell_lon, &g.cell_lat, &g.edge_lon, &g.edge_lat, &g.vertex_lon, &g.vertex_lat,
        &g.cell_area, &g.dual_area, &g.edge_length, &g.dual_edge_length, &g.primal_normal_east,
        &g.primal_normal_north, &g.dual_normal_east, &g.dual_normal_north, &g.tangent_orientation})
    *v = twice(*v);
  g.edge_cell_distance = twice_reals(one.edge_cell_distance);
  g.edge_vertex_distance = twice_reals(one.edge_vertex_distance);
  g.cell_edge_orientation = twice_reals(one.cell_edge_orientation);
  g.vertex_edge_orientation = twice_reals(one.vertex_edge_orientation);
  for (Location l : all_locations) g.refin_ctrl[static_cast<int>(l)].assign(g.size(l), 0);
  return g;
}

TEST(GridReaderErrors, ClosedGridThatIsNotTheSphere) {
  const std::string path = test::scratch_file("two_octahedra.nc");
  write_icon_grid(two_octahedra(), path);
  expect_error(path, "", -1, "vertices - edges + cells = 12 - 24 + 16 = 4, expected 2");
}

/// A generated limited-area cut-out written as a grid file, and its first boundary edge.
const std::string& lam_file() {
  static const std::string path = [] {
    const std::string p = test::scratch_file("good_lam.nc");
    write_icon_grid(load_grid_source("generate:R2B2/cap:8,46.5,30"), p);
    return p;
  }();
  return path;
}

index_t first_boundary_edge(const Grid& g) {
  for (index_t e = 0; e < g.num_edges; ++e)
    if (g.e2c(e, 1) == missing_index) return e;
  return -1;
}

// All refin_ctrl zero made a LAM "kind global"; a boundary row marked interior failed deep inside
// compute_ddxn_z_full ("edge 0 ... lacks a cell").
TEST(GridReaderErrors, LimitedAreaWithoutBoundaryRows) {
  const Grid good = read_icon_grid(lam_file());
  ASSERT_TRUE(good.limited_area);
  const index_t e = first_boundary_edge(good);
  ASSERT_GE(e, 0);
  test::NetcdfEdits edits;
  const auto zero = [](std::vector<double>& v) {
    for (double& x : v) x = 0;
  };
  edits.edit_values["refin_c_ctrl"] = zero;
  edits.edit_values["refin_e_ctrl"] = zero;
  edits.edit_values["refin_v_ctrl"] = zero;
  expect_error(damaged("lam_all_zero", edits, lam_file()), "refin_e_ctrl", e,
               "would be taken for a global one although its cells do not cover the sphere");
  edits.edit_values.clear();
  edits.edit_values["refin_e_ctrl"] = zero;
  expect_error(damaged("lam_edges_zero", edits, lam_file()), "refin_e_ctrl", e,
               "has one cell (adjacent_cell_of_edge slot 1 is missing), so it lies on the "
               "lateral boundary, but its refin_e_ctrl is 0, not 1");
}

TEST(GridReaderErrors, RealLimitedAreaFileWithoutBoundaryRows) {
  ICONDIFF_REAL_GRID_OR_SKIP(source, test::lam_r19b04);
  test::NetcdfEdits edits;
  const auto zero = [](std::vector<double>& v) {
    for (double& x : v) x = 0;
  };
  edits.edit_values["refin_c_ctrl"] = zero;
  edits.edit_values["refin_e_ctrl"] = zero;
  edits.edit_values["refin_v_ctrl"] = zero;
  expect_error(damaged("real_lam_all_zero", edits, source), "refin_e_ctrl", -1,
               "do not cover the sphere");
}

TEST(GridReaderErrors, RealGridsPassTheGeometryChecks) {
  for (const char* name : {test::global_r02b03, test::lam_r19b04, test::lam_r19b04_parent}) {
    const auto path = test::real_grid(name);
    if (!path) continue;
    EXPECT_NO_THROW(read_icon_grid(*path)) << name;
  }
}

}  // namespace
}  // namespace icondiff
