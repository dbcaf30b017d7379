// Bad grid files get a GridFileError naming the file, the variable, the index and what was
// expected. Each test damages a good file on purpose (netCDF copy with edits, or truncation).
#include "support/grid_files.hpp"
#include "support/netcdf_edit.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/io/grid_file.hpp>

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
  expect_error(damaged("moved_centre", edits), "clon", 2, "outside the triangle");
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

}  // namespace
}  // namespace icondiff
