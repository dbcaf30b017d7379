// The UGRID output file read back with netCDF-C (and summarised with ncdump -h): UGRID mesh
// topology against the grid, CF coordinates and bounds, the time axis, field metadata and values
// round-tripping, the caller's global attributes, and every rejected input. The Python checker
// (check_ugrid_output.py, CTest test_ugrid_output_netcdf4) reads the same kind of file with
// netCDF4-python.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"
#include "support/ugrid_pattern.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <gtest/gtest.h>

#include <netcdf.h>
#include <filesystem>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff {
namespace {

constexpr double deg = 3.14159265358979323846 / 180.0;
using test::PatternField;
using test::ugrid_pattern;

/// Just enough of netCDF-C to read a file back; every failure fails the test loudly.
class NcFile {
 public:
  explicit NcFile(const std::string& path) {
    const int status = nc_open(path.c_str(), NC_NOWRITE, &id_);
    if (status != NC_NOERR) throw std::runtime_error(path + ": " + nc_strerror(status));
  }
  ~NcFile() { nc_close(id_); }
  NcFile(const NcFile&) = delete;
  NcFile& operator=(const NcFile&) = delete;

  std::size_t dim(const std::string& name) const {
    int d = 0;
    if (nc_inq_dimid(id_, name.c_str(), &d) != NC_NOERR)
      throw std::runtime_error("no dimension " + name);
    std::size_t n = 0;
    nc_inq_dimlen(id_, d, &n);
    return n;
  }
  std::string unlimited_dim() const {
    int d = -1;
    nc_inq_unlimdim(id_, &d);
    if (d < 0) return "";
    char name[NC_MAX_NAME + 1] = {0};
    nc_inq_dimname(id_, d, name);
    return name;
  }
  bool has_var(const std::string& name) const {
    int v = 0;
    return nc_inq_varid(id_, name.c_str(), &v) == NC_NOERR;
  }
  int var(const std::string& name) const {
    int v = 0;
    if (nc_inq_varid(id_, name.c_str(), &v) != NC_NOERR)
      throw std::runtime_error("no variable " + name);
    return v;
  }
  std::vector<std::string> dims_of(const std::string& name) const {
    const int v = var(name);
    int n = 0;
    nc_inq_varndims(id_, v, &n);
    std::vector<int> ids(static_cast<std::size_t>(n));
    nc_inq_vardimid(id_, v, ids.data());
    std::vector<std::string> out;
    for (int d : ids) {
      char dname[NC_MAX_NAME + 1] = {0};
      nc_inq_dimname(id_, d, dname);
      out.emplace_back(dname);
    }
    return out;
  }
  nc_type type_of(const std::string& name) const {
    nc_type t = NC_NAT;
    nc_inq_vartype(id_, var(name), &t);
    return t;
  }
  std::size_t size_of(const std::string& name) const {
    std::size_t n = 1;
    for (const auto& d : dims_of(name)) n *= dim(d);
    return n;
  }
  std::vector<double> doubles(const std::string& name) const {
    std::vector<double> v(size_of(name));
    nc_get_var_double(id_, var(name), v.data());
    return v;
  }
  std::vector<int> ints(const std::string& name) const {
    std::vector<int> v(size_of(name));
    nc_get_var_int(id_, var(name), v.data());
    return v;
  }
  /// Text attribute of a variable ("" = global); "<missing>" if absent.
  std::string text(const std::string& variable, const std::string& name) const {
    const int v = variable.empty() ? NC_GLOBAL : var(variable);
    std::size_t len = 0;
    nc_type t = NC_NAT;
    if (nc_inq_att(id_, v, name.c_str(), &t, &len) != NC_NOERR || t != NC_CHAR) return "<missing>";
    std::string s(len, '\0');
    nc_get_att_text(id_, v, name.c_str(), s.data());
    return s;
  }
  double number(const std::string& variable, const std::string& name) const {
    const int v = variable.empty() ? NC_GLOBAL : var(variable);
    double x = std::nan("");
    if (nc_get_att_double(id_, v, name.c_str(), &x) != NC_NOERR)
      throw std::runtime_error("no attribute " + variable + ":" + name);
    return x;
  }
  int format() const {
    int f = 0;
    nc_inq_format(id_, &f);
    return f;
  }

 private:
  int id_ = -1;
};

std::vector<double> midpoints(const std::vector<double>& half) {
  std::vector<double> full(half.size() - 1);
  for (std::size_t k = 0; k < full.size(); ++k) full[k] = 0.5 * (half[k] + half[k + 1]);
  return full;
}

const std::vector<double> half_heights = {30000.0, 20000.0, 12000.0, 5000.0, 0.0};

/// Pattern fields of one step; `with_diagnostics` false leaves the diagnostics out.
struct PatternStep {
  std::vector<double> vn, w, theta_v, exner, div_ic, hdef_ic, dwdx, dwdy;
  PatternStep(const Grid& g, std::size_t nlev, std::size_t step, bool with_diagnostics) {
    const auto nc = static_cast<std::size_t>(g.num_cells);
    const auto ne = static_cast<std::size_t>(g.num_edges);
    vn = ugrid_pattern(PatternField::vn, ne, nlev, step);
    w = ugrid_pattern(PatternField::w, nc, nlev + 1, step);
    theta_v = ugrid_pattern(PatternField::theta_v, nc, nlev, step);
    exner = ugrid_pattern(PatternField::exner, nc, nlev, step);
    if (with_diagnostics) {
      div_ic = ugrid_pattern(PatternField::div_ic, nc, nlev + 1, step);
      hdef_ic = ugrid_pattern(PatternField::hdef_ic, nc, nlev + 1, step);
      dwdx = ugrid_pattern(PatternField::dwdx, nc, nlev + 1, step);
      dwdy = ugrid_pattern(PatternField::dwdy, nc, nlev + 1, step);
    }
  }
  UgridOutputFields fields() const {
    UgridOutputFields f;
    f.vn = vn;
    f.w = w;
    f.theta_v = theta_v;
    f.exner = exner;
    f.div_ic = div_ic;
    f.hdef_ic = hdef_ic;
    f.dwdx = dwdx;
    f.dwdy = dwdy;
    return f;
  }
};

/// Writes two steps (diagnostics only in the second) of pattern fields.
void write_pattern_file(const std::string& path, const Grid& g,
                        const std::map<std::string, std::string>& attributes,
                        const UgridWriterOptions& options = {}) {
  UgridWriter writer(path, g, midpoints(half_heights), half_heights, attributes, options);
  const std::size_t nlev = half_heights.size() - 1;
  writer.write_step(0.0, PatternStep(g, nlev, 0, false).fields());
  writer.write_step(60.0, PatternStep(g, nlev, 1, true).fields());
  EXPECT_EQ(writer.steps_written(), 2u);
  writer.close();
}

/// Whether the four corners (degrees) run counter-clockwise seen from outside the sphere.
bool counter_clockwise(const double* lon, const double* lat, int n) {
  sphere::Vec3 centre;
  for (int j = 0; j < n; ++j) centre = centre + sphere::to_cartesian(lon[j] * deg, lat[j] * deg);
  double orientation = 0;
  for (int j = 0; j < n; ++j)
    orientation += sphere::triple_product(
        centre, sphere::to_cartesian(lon[j] * deg, lat[j] * deg),
        sphere::to_cartesian(lon[(j + 1) % n] * deg, lat[(j + 1) % n] * deg));
  return orientation > 0;
}

TEST(UgridOutput, MeshTopologyMatchesTheGrid) {
  const Grid g = generate_icosahedral_grid(2, 1);
  const std::string path = test::scratch_file("ugrid_mesh.nc");
  write_pattern_file(path, g, {});
  const NcFile f(path);
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  EXPECT_EQ(f.dim("ncells"), nc);
  EXPECT_EQ(f.dim("nedges"), ne);
  EXPECT_EQ(f.dim("nvertices"), nv);
  EXPECT_EQ(f.dim("nv"), 3u);

  EXPECT_EQ(f.text("mesh", "cf_role"), "mesh_topology");
  EXPECT_EQ(f.number("mesh", "topology_dimension"), 2.0);
  EXPECT_EQ(f.text("mesh", "node_coordinates"), "vlon vlat");
  EXPECT_EQ(f.text("mesh", "face_coordinates"), "clon clat");
  EXPECT_EQ(f.text("mesh", "edge_coordinates"), "elon elat");
  const std::pair<const char*, const char*> roles[] = {
      {"face_node_connectivity", "mesh_face_nodes"},
      {"edge_node_connectivity", "mesh_edge_nodes"},
      {"face_edge_connectivity", "mesh_face_edges"},
      {"edge_face_connectivity", "mesh_edge_faces"},
      {"face_face_connectivity", "mesh_face_links"}};
  for (const auto& [role, variable] : roles) {
    EXPECT_EQ(f.text("mesh", role), variable);
    EXPECT_EQ(f.text(variable, "cf_role"), role);
    EXPECT_EQ(f.number(variable, "start_index"), 0.0);
  }
  EXPECT_EQ(f.dims_of("mesh_face_nodes"), (std::vector<std::string>{"ncells", "nv"}));
  EXPECT_EQ(f.dims_of("mesh_edge_nodes"), (std::vector<std::string>{"nedges", "two"}));

  const auto face_nodes = f.ints("mesh_face_nodes");
  const auto edge_nodes = f.ints("mesh_edge_nodes");
  const auto face_edges = f.ints("mesh_face_edges");
  const auto edge_faces = f.ints("mesh_edge_faces");
  const auto face_links = f.ints("mesh_face_links");
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t j = 0; j < 3; ++j) {
      ASSERT_EQ(face_nodes[3 * c + j], g.c2v(c, j));
      ASSERT_EQ(face_edges[3 * c + j], g.c2e(c, j));
      ASSERT_EQ(face_links[3 * c + j], g.c2e2c(c, j));
    }
  for (std::size_t e = 0; e < ne; ++e)
    for (std::size_t j = 0; j < 2; ++j) {
      ASSERT_EQ(edge_nodes[2 * e + j], g.e2v(e, j));
      ASSERT_EQ(edge_faces[2 * e + j], g.e2c(e, j));
    }

  // Coordinates in degrees, bounds from the vertices, counter-clockwise (CF §7.1).
  EXPECT_EQ(f.text("clon", "units"), "degrees_east");
  EXPECT_EQ(f.text("clat", "standard_name"), "latitude");
  EXPECT_EQ(f.text("clon", "bounds"), "clon_bnds");
  const auto clon = f.doubles("clon"), clat = f.doubles("clat");
  const auto vlon = f.doubles("vlon"), vlat = f.doubles("vlat");
  const auto clon_b = f.doubles("clon_bnds"), clat_b = f.doubles("clat_bnds");
  for (std::size_t c = 0; c < nc; ++c) {
    EXPECT_NEAR(clon[c], g.cell_lon[c] / deg, 1e-12);
    EXPECT_NEAR(clat[c], g.cell_lat[c] / deg, 1e-12);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(clon_b[3 * c + j], vlon[static_cast<std::size_t>(g.c2v(c, j))]);
      EXPECT_EQ(clat_b[3 * c + j], vlat[static_cast<std::size_t>(g.c2v(c, j))]);
    }
    EXPECT_TRUE(counter_clockwise(&clon_b[3 * c], &clat_b[3 * c], 3)) << "cell " << c;
  }
  const auto elon_b = f.doubles("elon_bnds"), elat_b = f.doubles("elat_bnds");
  for (std::size_t e = 0; e < ne; ++e)
    EXPECT_TRUE(counter_clockwise(&elon_b[4 * e], &elat_b[4 * e], 4)) << "edge " << e;
  const auto area = f.doubles("cell_area");
  EXPECT_EQ(area, g.cell_area);
}

TEST(UgridOutput, FieldsTimeAndVerticalAxes) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("ugrid_fields.nc");
  write_pattern_file(path, g,
                     {{"diffusion_nml:hdiff_order", "5"},
                      {"diffusion_nml:hdiff_smag_fac", "0.025"},
                      {"title", "my run"}});
  const NcFile f(path);
  const std::size_t nlev = half_heights.size() - 1;
  EXPECT_EQ(f.unlimited_dim(), "time");
  EXPECT_EQ(f.dim("time"), 2u);
  EXPECT_EQ(f.doubles("time"), (std::vector<double>{0.0, 60.0}));
  EXPECT_EQ(f.text("time", "units"), "seconds since 2000-01-01 00:00:00");
  EXPECT_EQ(f.text("time", "calendar"), "proleptic_gregorian");
  EXPECT_EQ(f.doubles("height"), midpoints(half_heights));
  EXPECT_EQ(f.doubles("height_2"), half_heights);
  EXPECT_EQ(f.text("height", "axis"), "Z");
  EXPECT_EQ(f.text("height_2", "positive"), "up");
  const auto bnds = f.doubles("height_bnds");
  for (std::size_t k = 0; k < nlev; ++k) {
    EXPECT_EQ(bnds[2 * k], half_heights[k]);
    EXPECT_EQ(bnds[2 * k + 1], half_heights[k + 1]);
  }

  EXPECT_EQ(f.text("", "Conventions"), "CF-1.8 UGRID-1.0");
  EXPECT_EQ(f.text("", "diffusion_nml:hdiff_order"), "5");
  EXPECT_EQ(f.text("", "diffusion_nml:hdiff_smag_fac"), "0.025");
  EXPECT_EQ(f.text("", "title"), "my run");
  EXPECT_EQ(f.text("", "grid_name"), g.name);

  struct Expected {
    const char* name;
    PatternField id;
    const char* location;
    const char* vertical;
    const char* standard_name;
    const char* units;
  };
  const Expected fields[] = {
      {"vn", PatternField::vn, "edge", "height", "<missing>", "m s-1"},
      {"w", PatternField::w, "face", "height_2", "upward_air_velocity", "m s-1"},
      {"theta_v", PatternField::theta_v, "face", "height", "<missing>", "K"},
      {"exner", PatternField::exner, "face", "height", "dimensionless_exner_function", "1"},
      {"div_ic", PatternField::div_ic, "face", "height_2", "divergence_of_wind", "s-1"},
      {"hdef_ic", PatternField::hdef_ic, "face", "height_2", "<missing>", "s-2"},
      {"dwdx", PatternField::dwdx, "face", "height_2", "<missing>", "s-1"},
      {"dwdy", PatternField::dwdy, "face", "height_2", "<missing>", "s-1"}};
  for (const Expected& x : fields) {
    SCOPED_TRACE(x.name);
    const bool edge = std::string(x.location) == "edge";
    EXPECT_EQ(f.dims_of(x.name),
              (std::vector<std::string>{"time", x.vertical, edge ? "nedges" : "ncells"}));
    EXPECT_EQ(f.type_of(x.name), NC_DOUBLE);
    EXPECT_EQ(f.text(x.name, "mesh"), "mesh");
    EXPECT_EQ(f.text(x.name, "location"), x.location);
    EXPECT_EQ(f.text(x.name, "coordinates"), edge ? "elon elat" : "clon clat");
    EXPECT_EQ(f.text(x.name, "standard_name"), x.standard_name);
    EXPECT_EQ(f.text(x.name, "units"), x.units);
    EXPECT_NE(f.text(x.name, "long_name"), "<missing>");
    const std::size_t points = static_cast<std::size_t>(edge ? g.num_edges : g.num_cells);
    const std::size_t levels = nlev + (std::string(x.vertical) == "height_2" ? 1 : 0);
    const auto values = f.doubles(x.name);
    ASSERT_EQ(values.size(), 2 * points * levels);
    const bool diagnostic = static_cast<int>(x.id) >= static_cast<int>(PatternField::div_ic);
    for (std::size_t step = 0; step < 2; ++step) {
      const auto expected = ugrid_pattern(x.id, points, levels, step);
      for (std::size_t i = 0; i < points * levels; ++i) {
        const double got = values[step * points * levels + i];
        if (diagnostic && step == 0)
          ASSERT_EQ(got, NC_FILL_DOUBLE);  // not given at step 0
        else
          ASSERT_EQ(got, expected[i]);
      }
    }
  }
}

TEST(UgridOutput, NcdumpReadsTheHeader) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("ugrid_ncdump.nc");
  write_pattern_file(path, g, {{"diffusion_nml:hdiff_order", "5"}});
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(("ncdump -h " + path + " 2>&1").c_str(), "r"),
                                             pclose);
  ASSERT_TRUE(pipe);
  std::string header;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe.get())) header += buffer;
  const int status = pclose(pipe.release());
  if (status != 0 && header.find("not found") != std::string::npos)
    GTEST_SKIP() << "ncdump is not installed (Debian package netcdf-bin)";
  ASSERT_EQ(status, 0) << header;
  for (const char* expected :
       {"time = UNLIMITED ; // (2 currently)", "ncells = 8 ;", "nedges = 12 ;",
        "double vn(time, height, nedges) ;", "double w(time, height_2, ncells) ;",
        "mesh:cf_role = \"mesh_topology\" ;", "mesh:face_node_connectivity = \"mesh_face_nodes\" ;",
        "mesh_face_nodes:start_index = 0 ;", "theta_v:mesh = \"mesh\" ;",
        "theta_v:location = \"face\" ;", "vn:location = \"edge\" ;",
        ":Conventions = \"CF-1.8 UGRID-1.0\" ;", "diffusion_nml\\:hdiff_order = \"5\" ;"})
    EXPECT_NE(header.find(expected), std::string::npos) << "missing: " << expected << "\n"
                                                        << header;
}

TEST(UgridOutput, SinglePrecisionAndNetcdf4) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("ugrid_float.nc");
  UgridWriterOptions options;
  options.single_precision = true;
  options.write_diagnostics = false;
  options.format = UgridFileFormat::Netcdf4;
  options.time_reference = "1970-01-01";
  write_pattern_file(path, g, {}, options);
  const NcFile f(path);
  EXPECT_EQ(f.format(), NC_FORMAT_NETCDF4_CLASSIC);
  EXPECT_EQ(f.type_of("theta_v"), NC_FLOAT);
  EXPECT_EQ(f.type_of("clon"), NC_DOUBLE);
  EXPECT_FALSE(f.has_var("div_ic"));
  EXPECT_EQ(f.text("time", "units"), "seconds since 1970-01-01");
  const auto values = f.doubles("exner");
  const auto expected = ugrid_pattern(PatternField::exner, 8, 4, 1);
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(values[32 + i], static_cast<double>(static_cast<float>(expected[i])));
}

TEST(UgridOutput, ViewsOfTheInitialStateOnALimitedAreaGrid) {
  const Grid global = generate_icosahedral_grid(2, 2);
  const Grid lam = cut_limited_area(global, LimitedAreaRegion::cap(0.0, 50.0 * deg, 25.0 * deg));
  const std::size_t nlev = 4;
  HostTable<double> z_ifc(static_cast<std::size_t>(lam.num_cells), nlev + 1),
      z_mc(static_cast<std::size_t>(lam.num_cells), nlev);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c) {
    for (std::size_t k = 0; k <= nlev; ++k) z_ifc(c, k) = half_heights[k];
    for (std::size_t k = 0; k < nlev; ++k)
      z_mc(c, k) = 0.5 * (half_heights[k] + half_heights[k + 1]);
  }
  const InitialState s = jablonowski_williamson_state(lam, z_ifc, z_mc);
  const auto prognostic = to_prognostic_state<Kokkos::HostSpace>(s);
  DiffusionDiagnosticState<Kokkos::HostSpace> diagnostic;
  diagnostic.div_ic = View2D<vp, Kokkos::HostSpace>("div_ic", lam.num_cells, nlev + 1);
  Kokkos::deep_copy(diagnostic.div_ic, vp(0.5));

  const std::string path = test::scratch_file("ugrid_lam.nc");
  UgridWriter writer(path, lam, midpoints(half_heights), half_heights);
  writer.write_step(0.0, prognostic, &diagnostic);
  writer.close();
  EXPECT_NO_THROW(writer.close());

  const NcFile f(path);
  EXPECT_EQ(f.number("", "limited_area"), 1.0);
  EXPECT_EQ(f.doubles("vn"), s.vn);
  EXPECT_EQ(f.doubles("theta_v"), s.theta_v);
  EXPECT_EQ(f.doubles("w"), s.w);
  for (double x : f.doubles("div_ic")) ASSERT_EQ(x, 0.5);
  for (double x : f.doubles("hdef_ic")) ASSERT_EQ(x, NC_FILL_DOUBLE);  // unallocated View
  // Boundary edges have one cell: the missing one is the fill value -1.
  EXPECT_EQ(f.number("mesh_edge_faces", "_FillValue"), -1.0);
  const auto edge_faces = f.ints("mesh_edge_faces");
  std::size_t missing = 0;
  for (std::size_t e = 0; e < static_cast<std::size_t>(lam.num_edges); ++e)
    if (edge_faces[2 * e + 1] == -1) ++missing;
  EXPECT_GT(missing, 0u);
  const auto elon_b = f.doubles("elon_bnds"), elat_b = f.doubles("elat_bnds");
  for (std::size_t e = 0; e < static_cast<std::size_t>(lam.num_edges); ++e)
    EXPECT_TRUE(counter_clockwise(&elon_b[4 * e], &elat_b[4 * e], 4)) << "edge " << e;
}

template <class Exception>
void expect_throw_containing(const std::function<void()>& action, const std::string& text) {
  try {
    action();
    FAIL() << "expected an exception mentioning '" << text << "'";
  } catch (const Exception& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(UgridOutput, AnUnfinishedWriteLeavesTheOldFileAndNoTemporary) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("ugrid_unfinished.nc");
  write_pattern_file(path, g, {{"title", "the old file"}});
  const auto old_size = std::filesystem::file_size(path);
  {
    UgridWriter writer(path, g, midpoints(half_heights), half_heights, {{"title", "new"}});
    PatternStep step(g, 4, 0, true);
    writer.write_step(0.0, step.fields());
    // not closed: the run "failed"
  }
  EXPECT_EQ(std::filesystem::file_size(path), old_size);
  EXPECT_EQ(NcFile(path).text("", "title"), "the old file");
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(entry.path().filename().string().find("ugrid_unfinished.nc.tmp"), std::string::npos)
        << entry.path();
  // Closed, the new file replaces the old one.
  {
    UgridWriter writer(path, g, midpoints(half_heights), half_heights, {{"title", "new"}});
    PatternStep step(g, 4, 0, true);
    writer.write_step(0.0, step.fields());
    writer.close();
  }
  EXPECT_EQ(NcFile(path).text("", "title"), "new");
}

TEST(UgridOutput, RejectsBadInput) {
  const Grid g = test::make_octahedron_grid();
  const std::string path = test::scratch_file("ugrid_bad.nc");
  const auto full = midpoints(half_heights);
  expect_throw_containing<InvalidArgument>([&] { UgridWriter(path, g, full, full); },
                                           "half-level heights for 4 full levels");
  expect_throw_containing<InvalidArgument>(
      [&] {
        UgridWriter(path, g, full, {0.0, 5000.0, 12000.0, 20000.0, 30000.0});
      },
      "decrease strictly");
  expect_throw_containing<InvalidArgument>(
      [&] {
        UgridWriter(path, g, full, half_heights, {{"Conventions", "CF-1.6"}});
      },
      "reserved");
  expect_throw_containing<InvalidArgument>(
      [&] {
        UgridWriter(path, g, full, half_heights, {{"a/b", "x"}});
      },
      "'a/b'");
  expect_throw_containing<InvalidArgument>(
      [&] {
        UgridWriter(path, g, full, half_heights, {{"_private", "x"}});
      },
      "'_private'");
  // Named as the caller named it (not the temporary it is written to) and as an output file.
  expect_throw_containing<OutputFileError>(
      [&] { UgridWriter("/nonexistent_dir/out.nc", g, full, half_heights); },
      "output file '/nonexistent_dir/out.nc'");
  Grid bare = g;
  bare.vertex_lon.clear();
  expect_throw_containing<GridError>([&] { UgridWriter(path, bare, full, half_heights); },
                                     "vertex coordinates");

  UgridWriter writer(path, g, full, half_heights);
  PatternStep step(g, 4, 0, true);
  UgridOutputFields missing_vn = step.fields();
  missing_vn.vn = HostFieldRef();
  expect_throw_containing<InvalidArgument>([&] { writer.write_step(0.0, missing_vn); },
                                           "'vn' is missing");
  UgridOutputFields short_w = step.fields();
  short_w.w = HostFieldRef(step.w.data(), step.w.size() - 1);
  expect_throw_containing<InvalidArgument>([&] { writer.write_step(0.0, short_w); },
                                           "field 'w' has 39 values, expected 8 cells x 5");
  EXPECT_EQ(writer.steps_written(), 0u);
  writer.write_step(10.0, step.fields());
  expect_throw_containing<InvalidArgument>([&] { writer.write_step(10.0, step.fields()); },
                                           "not after the previous step");
  expect_throw_containing<InvalidArgument>([&] { writer.write_step(std::nan(""), step.fields()); },
                                           "not finite");
  writer.close();
  expect_throw_containing<Error>([&] { writer.write_step(20.0, step.fields()); }, "after close");
  const NcFile f(path);
  EXPECT_EQ(f.dim("time"), 1u);  // the rejected calls wrote nothing
}

}  // namespace
}  // namespace icondiff
