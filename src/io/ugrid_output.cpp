// CF-1.8 / UGRID-1.0 output. Conventions followed (and why each variable exists):
//  * UGRID 1.0 (ugrid-conventions.github.io): a dummy "mesh" variable (cf_role mesh_topology)
//    names the node/edge/face coordinates and the connectivity tables; every field names its mesh
//    and location, so uxarray, xugrid and ParaView's UGRID reader rebuild the triangles.
//  * CF 1.8: coordinates in degrees with standard names; cell and edge bounds (counter-clockwise,
//    CF §7.1) so that CDO treats the fields as an unstructured grid and can remap them
//    conservatively; a CF time coordinate; "height" / "height_2" coordinate variables as in ICON's
//    own output. standard_name only where the CF table has one (a made-up one breaks
//    conformance); long_name and units always.
#include <icondiff/comm/point_blocks.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/io/ugrid_output.hpp>

#include "netcdf_file.hpp"

#include <fmt/format.h>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>
#endif

#include <unistd.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <regex>
#include <type_traits>
#include <utility>

namespace icondiff {

namespace {

constexpr double rad_to_deg = 180.0 / 3.14159265358979323846;
const char* const mesh_name = "mesh";

// The output fields are those of the prognostic and the diagnostic state's field lists
// (diffusion/diffusion_states.hpp): name, location, levels, units and long_name come from there.

/// Which of the writer's options a field depends on.
enum class FieldGroup {
  prognostic,  ///< always written, required at every step
  diagnostic,  ///< with write_diagnostics; optional at a step (_FillValue when absent)
  dynamics,    ///< with write_dynamics; required at every step then
};

/// The dynamics' fields, which no state's field list holds as the output needs them: rho as in
/// the solve_nh prognostic list, pres_sfc (ICON's diagnostic of the same name) without levels.
const FieldSpec rho_spec{"rho",        Location::Cell,     Neighbours::None,
                         Levels::Full, Presence::Required, "kg m-3",
                         "density",    "p_nh%prog(n)%rho", "rho"};
const FieldSpec pres_sfc_spec{"pres_sfc",         Location::Cell,       Neighbours::None,
                              Levels::None,       Presence::Required,   "Pa",
                              "surface pressure", "p_nh%diag%pres_sfc", "surface_pressure"};

/// Calls f(spec, group, fields.<name>) for every output field in list order: the prognostic
/// state's fields, the diagnostic state's, then the dynamics' rho and pres_sfc.
template <class F>
void for_each_output_field(const UgridOutputFields& fields, F&& f) {
  using H = Kokkos::HostSpace;
  DiffusionPrognosticState<H>::for_each_field(
      [&f](const FieldSpec& spec, const HostFieldRef& ref) {
        f(spec, FieldGroup::prognostic, ref);
      },
      fields);
  DiffusionDiagnosticState<H>::for_each_field(
      [&f](const FieldSpec& spec, const HostFieldRef& ref) {
        f(spec, FieldGroup::diagnostic, ref);
      },
      fields);
  f(rho_spec, FieldGroup::dynamics, fields.rho);
  f(pres_sfc_spec, FieldGroup::dynamics, fields.pres_sfc);
}

/// Whether `options` writes a field of `group`.
bool written(FieldGroup group, const UgridWriterOptions& options) {
  return group == FieldGroup::prognostic ||
         (group == FieldGroup::diagnostic && options.write_diagnostics) ||
         (group == FieldGroup::dynamics && options.write_dynamics);
}

/// The CF standard_name of an output field, nullptr where the CF standard-name table has none
/// (a made-up one breaks conformance). All the writer adds to the field lists.
const char* standard_name_of(const char* field) {
  static const struct {
    const char* field;
    const char* standard_name;
  } names[] = {
      {"w", "upward_air_velocity"},         {"rho", "air_density"},
      {"pres_sfc", "surface_air_pressure"}, {"exner", "dimensionless_exner_function"},
      {"div_ic", "divergence_of_wind"},
  };
  for (const auto& n : names)
    if (std::strcmp(n.field, field) == 0) return n.standard_name;
  return nullptr;
}

void check_heights(const std::string& path, const std::vector<double>& full,
                   const std::vector<double>& half) {
  const auto where = [&](const std::string& what) {
    return InvalidArgument(fmt::format("UGRID output '{}': {}", path, what));
  };
  if (full.empty()) throw where("no full-level heights given, expected nlev >= 1 values");
  if (half.size() != full.size() + 1)
    throw where(fmt::format("{} half-level heights for {} full levels, expected nlev + 1 = {}",
                            half.size(), full.size(), full.size() + 1));
  for (std::size_t k = 0; k < half.size(); ++k) {
    if (!std::isfinite(half[k])) throw where(fmt::format("half-level height {} is not finite", k));
    if (k > 0 && !(half[k] < half[k - 1]))
      throw where(fmt::format(
          "half-level heights must decrease strictly from the top (index 0): [{}] = {} m, "
          "[{}] = {} m",
          k - 1, half[k - 1], k, half[k]));
  }
  for (std::size_t k = 0; k < full.size(); ++k)
    if (!std::isfinite(full[k]) || full[k] > half[k] || full[k] < half[k + 1])
      throw where(fmt::format(
          "full-level height [{}] = {} m lies outside its layer [{}, {}] m of the half levels", k,
          full[k], half[k + 1], half[k]));
}

/// netCDF-C's rules for names (NC_check_name), plus: no leading underscore (reserved for the
/// library's own attributes such as _FillValue).
bool valid_attribute_name(const std::string& name) {
  if (name.empty()) return false;
  const auto first = static_cast<unsigned char>(name[0]);
  if (!(std::isalnum(first) || first >= 0x80)) return false;
  for (const char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (u == '/' || u < 0x20 || u == 0x7f) return false;
  }
  return name.back() != ' ';
}

void check_grid(const std::string& path, const Grid& g) {
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  const auto need = [&](bool ok, const char* what) {
    if (!ok)
      throw GridError(fmt::format("UGRID output '{}': grid '{}' lacks {}", path, g.name, what));
  };
  need(nc > 0 && ne > 0 && nv > 0, "cells, edges or vertices");
  need(g.cell_lon.size() == nc && g.cell_lat.size() == nc, "cell coordinates");
  need(g.edge_lon.size() == ne && g.edge_lat.size() == ne, "edge coordinates");
  need(g.vertex_lon.size() == nv && g.vertex_lat.size() == nv, "vertex coordinates");
  need(g.c2v.rows() == nc && g.c2v.cols() == 3, "the C2V table (vertex_of_cell)");
  need(g.c2e.rows() == nc && g.c2e.cols() == 3, "the C2E table (edge_of_cell)");
  need(g.e2v.rows() == ne && g.e2v.cols() == 2, "the E2V table (edge_vertices)");
  need(g.e2c.rows() == ne && g.e2c.cols() == 2, "the E2C table (adjacent_cell_of_edge)");
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

namespace {

/// The name of the temporary file an output is written to before it is renamed into place.
std::string temporary_name(const std::string& path) {
  static std::atomic<int> counter{0};
  return fmt::format("{}.tmp.{}.{}", path, static_cast<long>(::getpid()), counter++);
}

/// NetcdfWriter's errors for an output file: "output file '<the name the caller gave>'", not the
/// temporary's name and not "grid file".
[[noreturn]] void throw_output_file_error(const std::string& file, const std::string& variable,
                                          long long index, const std::string& problem) {
  static const std::regex temporary_suffix(R"(\.tmp\.[0-9]+\.[0-9]+$)");
  std::string where =
      variable.empty() ? problem : fmt::format("variable '{}': {}", variable, problem);
  if (index >= 0) where = fmt::format("index {}: {}", index, where);
  throw OutputFileError(std::regex_replace(file, temporary_suffix, ""), where);
}

/// The name of the whole grid: a rank's part is called "<name> rank r/n" (make_local_grid).
std::string whole_grid_name(const Grid& g) {
  static const std::regex rank_suffix(R"( rank [0-9]+/[0-9]+$)");
  return std::regex_replace(g.name, rank_suffix, "");
}

/// The global index of local point `i` at `location` (missing stays missing).
index_t global_of(const Grid& g, Location location, index_t i) {
  if (i == missing_index) return missing_index;
  const auto& global = g.global_index(location);
  return global.empty() ? i : global[static_cast<std::size_t>(i)];
}

}  // namespace

struct UgridWriter::Impl {
  std::string path;       ///< where the file ends up (close() renames the temporary to it)
  std::string temporary;  ///< where it is written until then
  UgridWriterOptions options;
  std::unique_ptr<io::NetcdfWriter> nc;
  /// Cells, edges and vertices: which points this rank writes (its block of the global numbering).
  std::array<std::unique_ptr<PointBlocks>, 3> blocks;
  index_t local_cells = 0, local_edges = 0;  ///< the sizes write_step's fields have
  int nlev = 0;
  std::size_t steps = 0, field_bytes = 0;
  double last_time = 0;
  bool closed = false;
  bool root = true;  ///< writes what is not per point (time, heights)
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
#endif

  const PointBlocks& at(Location location) const {
    return *blocks[static_cast<int>(location)];
  }

  /// Runs `step`; with several ranks every rank then learns whether any failed (and throws the
  /// same CollectiveError), so no rank goes on into a collective write the others left.
  template <class Step>
  void agreed(Step&& step) {
#if ICONDIFF_HAVE_MPI
    if (comm != MPI_COMM_NULL) return collectively(comm, step);
#endif
    step();
  }

  /// Writes a per-point quantity of `location` (`width` values per point from value(local, j))
  /// as this rank's block of `var`: a (points) variable for width 1, else (points, width).
  template <class T, class Value>
  void put_points(const char* var, Location location, std::size_t width, Value&& value) {
    const PointBlocks& b = at(location);
    const std::vector<T> block = b.template to_block<T>(width, value, BlockOrder::point_major);
    if (width == 1)
      nc->put_block(var, {b.begin()}, {b.size()}, block.data());
    else
      nc->put_block(var, {b.begin(), 0}, {b.size(), width}, block.data());
  }

  /// Writes a small variable that is not per point (heights) from the root alone.
  void put_whole(const char* var, const std::vector<double>& values, std::size_t width = 1) {
    const std::size_t rows = root ? values.size() / width : 0;
    if (width == 1)
      nc->put_block(var, {0}, {rows}, values.data());
    else
      nc->put_block(var, {0, 0}, {rows, width}, values.data());
  }

  void define_and_write_grid(const Grid& g, const std::vector<double>& full,
                             const std::vector<double>& half,
                             const std::map<std::string, std::string>& attributes);
  template <class T>
  void write_record(const FieldSpec& f, const HostFieldRef& ref);
};

void UgridWriter::Impl::define_and_write_grid(
    const Grid& g, const std::vector<double>& full, const std::vector<double>& half,
    const std::map<std::string, std::string>& attributes) {
  const std::size_t n_cells = at(Location::Cell).total();
  const std::size_t ne = at(Location::Edge).total();
  const std::size_t nv = at(Location::Vertex).total();
  const auto local_cells_size = static_cast<std::size_t>(g.num_cells);
  const bool have_c2e2c = g.c2e2c.rows() == local_cells_size && g.c2e2c.cols() == 3;
  const bool have_area = g.cell_area.size() == local_cells_size;

  // ---- Dimensions ----
  nc->dimension("time", NC_UNLIMITED);
  nc->dimension("ncells", n_cells);
  nc->dimension("nedges", ne);
  nc->dimension("nvertices", nv);
  nc->dimension("nv", 3);       // vertices (and edges) per cell
  nc->dimension("nv_edge", 4);  // corners of an edge's bounds: the two vertices and two centres
  nc->dimension("two", 2);
  nc->dimension("height", full.size());
  nc->dimension("height_2", half.size());
  nc->dimension("bnds", 2);

  // ---- Mesh topology (UGRID 1.0 §2) ----
  nc->variable(mesh_name, NC_INT, {});
  nc->text(mesh_name, "cf_role", "mesh_topology");
  nc->text(mesh_name, "long_name", "topology of the 2D unstructured ICON triangular mesh");
  nc->integer(mesh_name, "topology_dimension", 2);
  nc->text(mesh_name, "node_coordinates", "vlon vlat");
  nc->text(mesh_name, "face_coordinates", "clon clat");
  nc->text(mesh_name, "edge_coordinates", "elon elat");
  nc->text(mesh_name, "face_node_connectivity", "mesh_face_nodes");
  nc->text(mesh_name, "edge_node_connectivity", "mesh_edge_nodes");
  nc->text(mesh_name, "face_edge_connectivity", "mesh_face_edges");
  nc->text(mesh_name, "edge_face_connectivity", "mesh_edge_faces");
  if (have_c2e2c) nc->text(mesh_name, "face_face_connectivity", "mesh_face_links");
  nc->text(mesh_name, "node_dimension", "nvertices");
  nc->text(mesh_name, "edge_dimension", "nedges");
  nc->text(mesh_name, "face_dimension", "ncells");

  const auto connectivity = [&](const char* name, const char* dim, const char* slots,
                                const char* role, const char* long_name, bool may_miss) {
    nc->variable(name, NC_INT, {dim, slots});
    nc->text(name, "cf_role", role);
    nc->text(name, "long_name", long_name);
    nc->integer(name, "start_index", 0);
    if (may_miss) nc->integer(name, "_FillValue", missing_index);
  };
  connectivity("mesh_face_nodes", "ncells", "nv", "face_node_connectivity",
               "vertices of each cell, counter-clockwise (ICON vertex_of_cell)", false);
  connectivity("mesh_edge_nodes", "nedges", "two", "edge_node_connectivity",
               "vertices of each edge (ICON edge_vertices)", false);
  connectivity("mesh_face_edges", "ncells", "nv", "face_edge_connectivity",
               "edges of each cell; edge j joins vertices j and j+1 (ICON edge_of_cell)", false);
  connectivity("mesh_edge_faces", "nedges", "two", "edge_face_connectivity",
               "cells of each edge; the normal points from the first to the second "
               "(ICON adjacent_cell_of_edge)",
               true);
  if (have_c2e2c)
    connectivity("mesh_face_links", "ncells", "nv", "face_face_connectivity",
                 "neighbour cell across edge j (ICON neighbor_cell_index)", true);

  // ---- Horizontal coordinates ----
  const auto coordinate = [&](const char* name, const char* dim, bool lon, const char* long_name,
                              const char* bounds) {
    nc->variable(name, NC_DOUBLE, {dim});
    nc->text(name, "standard_name", lon ? "longitude" : "latitude");
    nc->text(name, "long_name", long_name);
    nc->text(name, "units", lon ? "degrees_east" : "degrees_north");
    if (bounds) nc->text(name, "bounds", bounds);
  };
  coordinate("clon", "ncells", true, "longitude of the cell circumcentre", "clon_bnds");
  coordinate("clat", "ncells", false, "latitude of the cell circumcentre", "clat_bnds");
  coordinate("elon", "nedges", true, "longitude of the edge midpoint", "elon_bnds");
  coordinate("elat", "nedges", false, "latitude of the edge midpoint", "elat_bnds");
  coordinate("vlon", "nvertices", true, "longitude of the vertex", nullptr);
  coordinate("vlat", "nvertices", false, "latitude of the vertex", nullptr);
  nc->variable("clon_bnds", NC_DOUBLE, {"ncells", "nv"});
  nc->variable("clat_bnds", NC_DOUBLE, {"ncells", "nv"});
  nc->variable("elon_bnds", NC_DOUBLE, {"nedges", "nv_edge"});
  nc->variable("elat_bnds", NC_DOUBLE, {"nedges", "nv_edge"});
  if (have_area) {
    nc->variable("cell_area", NC_DOUBLE, {"ncells"});
    nc->text("cell_area", "standard_name", "cell_area");
    nc->text("cell_area", "long_name", "area of the grid cell");
    nc->text("cell_area", "units", "m2");
    nc->text("cell_area", "mesh", mesh_name);
    nc->text("cell_area", "location", "face");
    nc->text("cell_area", "coordinates", "clon clat");
  }

  // ---- Vertical and time coordinates ----
  nc->variable("height", NC_DOUBLE, {"height"});
  nc->text("height", "standard_name", "height");
  nc->text("height", "long_name", "nominal height of the full levels (level 0 is the model top)");
  nc->text("height", "units", "m");
  nc->text("height", "positive", "up");
  nc->text("height", "axis", "Z");
  nc->text("height", "bounds", "height_bnds");
  nc->variable("height_bnds", NC_DOUBLE, {"height", "bnds"});
  nc->variable("height_2", NC_DOUBLE, {"height_2"});
  nc->text("height_2", "standard_name", "height");
  nc->text("height_2", "long_name",
           "nominal height of the half levels (interfaces; half level 0 is the model top)");
  nc->text("height_2", "units", "m");
  nc->text("height_2", "positive", "up");
  nc->text("height_2", "axis", "Z");
  nc->variable("time", NC_DOUBLE, {"time"});
  nc->text("time", "standard_name", "time");
  nc->text("time", "long_name", "time");
  nc->text("time", "units", "seconds since " + options.time_reference);
  nc->text("time", "calendar", "proleptic_gregorian");
  nc->text("time", "axis", "T");

  // ---- Fields (from the field lists) ----
  for_each_output_field({}, [&](const FieldSpec& f, FieldGroup group, const HostFieldRef&) {
    if (!written(group, options)) return;
    const bool on_edges = f.location == Location::Edge;  // else cells
    const char* points = on_edges ? "nedges" : "ncells";
    if (f.levels == Levels::None)
      nc->variable(f.name, options.single_precision ? NC_FLOAT : NC_DOUBLE, {"time", points});
    else
      nc->variable(f.name, options.single_precision ? NC_FLOAT : NC_DOUBLE,
                   {"time", f.levels == Levels::Half ? "height_2" : "height", points});
    if (const char* standard_name = standard_name_of(f.name))
      nc->text(f.name, "standard_name", standard_name);
    nc->text(f.name, "long_name", f.long_name);
    nc->text(f.name, "units", f.units);
    nc->text(f.name, "mesh", mesh_name);
    nc->text(f.name, "location", on_edges ? "edge" : "face");
    nc->text(f.name, "coordinates", on_edges ? "elon elat" : "clon clat");
    if (!on_edges && have_area) nc->text(f.name, "cell_measures", "area: cell_area");
    nc->fill_value(f.name, options.single_precision ? NC_FILL_FLOAT : NC_FILL_DOUBLE);
  });

  // ---- Global attributes: ours first, then the caller's (which may replace the descriptive
  // ones) ----
  nc->text("", "Conventions", "CF-1.8 UGRID-1.0");
  nc->text("", "title", options.title);
  nc->text("", "institution", "icondiff");
  nc->text("", "source", std::string("icondiff ") + ICONDIFF_VERSION_STRING);
  nc->text("", "history", utc_now() + ": created by icondiff's UgridWriter");
  nc->text("", "grid_name", whole_grid_name(g));
  if (!g.source.empty()) nc->text("", "grid_source", g.source);
  if (!g.uuid.empty()) nc->text("", "uuidOfHGrid", g.uuid);
  nc->integer("", "grid_root", g.grid_root);
  nc->integer("", "grid_level", g.grid_level);
  nc->number("", "sphere_radius", g.sphere_radius);
  nc->integer("", "limited_area", g.limited_area ? 1 : 0);
  for (const auto& [name, value] : attributes) nc->text("", name, value);

  nc->end_definitions();

  // ---- Static data: each rank its block of the points (global numbering) ----
  const int zero = 0;
  nc->put_block(mesh_name, {}, {}, &zero);
  const auto put_table = [&](const char* var, Location rows, Location values,
                             const HostTable<index_t>& table) {
    put_points<int>(var, rows, table.cols(), [&](index_t i, std::size_t j) {
      return global_of(g, values, table(static_cast<std::size_t>(i), j));
    });
  };
  put_table("mesh_face_nodes", Location::Cell, Location::Vertex, g.c2v);
  put_table("mesh_edge_nodes", Location::Edge, Location::Vertex, g.e2v);
  put_table("mesh_face_edges", Location::Cell, Location::Edge, g.c2e);
  put_table("mesh_edge_faces", Location::Edge, Location::Cell, g.e2c);
  if (have_c2e2c) put_table("mesh_face_links", Location::Cell, Location::Cell, g.c2e2c);

  const auto put_degrees = [&](const char* var, Location location,
                               const std::vector<double>& radians) {
    put_points<double>(var, location, 1, [&](index_t i, std::size_t) {
      return radians[static_cast<std::size_t>(i)] * rad_to_deg;
    });
  };
  put_degrees("clon", Location::Cell, g.cell_lon);
  put_degrees("clat", Location::Cell, g.cell_lat);
  put_degrees("elon", Location::Edge, g.edge_lon);
  put_degrees("elat", Location::Edge, g.edge_lat);
  put_degrees("vlon", Location::Vertex, g.vertex_lon);
  put_degrees("vlat", Location::Vertex, g.vertex_lat);
  if (have_area)
    put_points<double>("cell_area", Location::Cell, 1, [&](index_t i, std::size_t) {
      return g.cell_area[static_cast<std::size_t>(i)];
    });

  // Cell bounds: the cell's vertices, counter-clockwise as ICON stores them.
  const auto cell_corner = [&](const std::vector<double>& vertex_coordinate) {
    return [&g, &vertex_coordinate](index_t c, std::size_t j) {
      const auto v = static_cast<std::size_t>(g.c2v(static_cast<std::size_t>(c), j));
      return vertex_coordinate[v] * rad_to_deg;
    };
  };
  put_points<double>("clon_bnds", Location::Cell, 3, cell_corner(g.vertex_lon));
  put_points<double>("clat_bnds", Location::Cell, 3, cell_corner(g.vertex_lat));

  // Edge bounds: the quadrilateral (vertex 0, a centre, vertex 1, the other centre) whose area is
  // ICON's edge area; the edge midpoint stands in for a missing cell (lateral boundary). Ordered
  // counter-clockwise seen from outside the sphere, as CF §7.1 requires.
  const auto edge_corners = [&g](index_t edge) {
    const auto e = static_cast<std::size_t>(edge);
    const auto vertex = [&](int j) {
      const auto v = static_cast<std::size_t>(g.e2v(e, j));
      return std::pair<double, double>(g.vertex_lon[v], g.vertex_lat[v]);
    };
    const auto centre = [&](int j) {
      const index_t c = g.e2c(e, j);
      if (c == missing_index) return std::pair<double, double>(g.edge_lon[e], g.edge_lat[e]);
      return std::pair<double, double>(g.cell_lon[c], g.cell_lat[c]);
    };
    std::array<std::pair<double, double>, 4> corners = {vertex(0), centre(0), vertex(1), centre(1)};
    const sphere::Vec3 mid = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
    double orientation = 0;
    for (int j = 0; j < 4; ++j) {
      const auto& a = corners[j];
      const auto& b = corners[(j + 1) % 4];
      orientation += sphere::triple_product(mid, sphere::to_cartesian(a.first, a.second),
                                            sphere::to_cartesian(b.first, b.second));
    }
    if (orientation < 0) std::swap(corners[1], corners[3]);
    return corners;
  };
  put_points<double>("elon_bnds", Location::Edge, 4, [&](index_t e, std::size_t j) {
    return edge_corners(e)[j].first * rad_to_deg;
  });
  put_points<double>("elat_bnds", Location::Edge, 4, [&](index_t e, std::size_t j) {
    return edge_corners(e)[j].second * rad_to_deg;
  });

  put_whole("height", full);
  std::vector<double> height_bnds(2 * full.size());
  for (std::size_t k = 0; k < full.size(); ++k) {
    height_bnds[2 * k] = half[k];
    height_bnds[2 * k + 1] = half[k + 1];
  }
  put_whole("height_bnds", height_bnds, 2);
  put_whole("height_2", half);
  nc->sync();
}

namespace {

/// The checks of the constructors' arguments that do not depend on the grid.
void check_writer_arguments(const std::string& path, const std::vector<double>& full,
                            const std::vector<double>& half,
                            const std::map<std::string, std::string>& global_attributes,
                            const UgridWriterOptions& options) {
  check_heights(path, full, half);
  if (options.time_reference.empty())
    throw InvalidArgument(fmt::format(
        "UGRID output '{}': empty time reference, expected e.g. \"2000-01-01 00:00:00\"", path));
  for (const auto& [name, value] : global_attributes) {
    if (name == "Conventions")
      throw InvalidArgument(fmt::format(
          "UGRID output '{}': the global attribute 'Conventions' is reserved (the file follows "
          "CF-1.8 UGRID-1.0)",
          path));
    if (!valid_attribute_name(name))
      throw InvalidArgument(fmt::format(
          "UGRID output '{}': '{}' cannot be a netCDF attribute name (it must start with a "
          "letter or digit and hold no '/' or control characters)",
          path, name));
  }
}

io::NetcdfFormat netcdf_format(UgridFileFormat format) {
  return format == UgridFileFormat::Netcdf4 ? io::NetcdfFormat::Netcdf4
                                            : io::NetcdfFormat::Offset64;
}

}  // namespace

UgridWriter::UgridWriter(const std::string& path, const Grid& grid,
                         std::vector<double> full_level_heights,
                         std::vector<double> half_level_heights,
                         const std::map<std::string, std::string>& global_attributes,
                         const UgridWriterOptions& options) {
  check_writer_arguments(path, full_level_heights, half_level_heights, global_attributes, options);
  check_grid(path, grid);
  auto impl = std::make_unique<Impl>();
  for (const Location location : all_locations)
    impl->blocks[static_cast<int>(location)] = std::make_unique<PointBlocks>(grid, location);
  impl->path = path;
  impl->temporary = temporary_name(path);
  impl->options = options;
  impl->local_cells = grid.num_cells;
  impl->local_edges = grid.num_edges;
  impl->nlev = static_cast<int>(full_level_heights.size());
  impl->nc = std::make_unique<io::NetcdfWriter>(impl->temporary, netcdf_format(options.format),
                                                throw_output_file_error);
  impl_ = std::move(impl);
  impl_->define_and_write_grid(grid, full_level_heights, half_level_heights, global_attributes);
}

#if ICONDIFF_HAVE_MPI
UgridWriter::UgridWriter(MPI_Comm comm, const std::string& path, const Grid& local_grid,
                         std::vector<double> full_level_heights,
                         std::vector<double> half_level_heights,
                         const std::map<std::string, std::string>& global_attributes,
                         const UgridWriterOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->comm = comm;
  impl->root = mpi_rank(comm) == 0;
  impl->agreed([&] {
    check_writer_arguments(path, full_level_heights, half_level_heights, global_attributes,
                           options);
    check_grid(path, local_grid);
  });
  for (const Location location : all_locations)
    impl->blocks[static_cast<int>(location)] =
        std::make_unique<PointBlocks>(comm, local_grid, location);
  impl->path = path;
  // One temporary name for all ranks: the root's.
  std::string temporary = impl->root ? temporary_name(path) : std::string();
  unsigned long long length = temporary.size();
  check_mpi(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm), "MPI_Bcast");
  temporary.resize(length);
  check_mpi(MPI_Bcast(temporary.data(), static_cast<int>(length), MPI_CHAR, 0, comm), "MPI_Bcast");
  impl->temporary = temporary;
  impl->options = options;
  impl->local_cells = local_grid.num_cells;
  impl->local_edges = local_grid.num_edges;
  impl->nlev = static_cast<int>(full_level_heights.size());
  impl->agreed([&] {
    impl->nc = std::make_unique<io::NetcdfWriter>(
        comm, impl->temporary, netcdf_format(options.format), throw_output_file_error);
  });
  impl_ = std::move(impl);
  impl_->agreed([&] {
    impl_->define_and_write_grid(local_grid, full_level_heights, half_level_heights,
                                 global_attributes);
  });
}
#endif

UgridWriter::~UgridWriter() {
  if (impl_ && !impl_->closed) {
    // Not closed: the run failed. The temporary goes; a file of the same name from before stays.
    try {
      impl_->closed = true;
      if (impl_->nc) impl_->nc->close();
    } catch (...) {  // a destructor must not throw; close() reports errors
    }
    std::error_code ignored;
    if (impl_->root) std::filesystem::remove(impl_->temporary, ignored);
  }
}

template <class T>
void UgridWriter::Impl::write_record(const FieldSpec& f, const HostFieldRef& ref) {
  const Location location = f.location == Location::Edge ? Location::Edge : Location::Cell;
  const PointBlocks& b = at(location);
  const std::size_t levels =
      f.levels == Levels::None ? 1 : static_cast<std::size_t>(nlev + (f.levels == Levels::Half));
  const auto n = static_cast<std::size_t>(location == Location::Edge ? local_edges : local_cells);
  // A diagnostic not given is stored as _FillValue.
  const T fill = std::is_same_v<T, float> ? static_cast<T>(NC_FILL_FLOAT) : T(NC_FILL_DOUBLE);
  const std::vector<T> block =
      ref.empty() ? std::vector<T>(b.size() * levels, fill)
                  : b.template to_block<T>(
                        levels,
                        [&](index_t i, std::size_t k) {
                          return static_cast<T>(ref.data[static_cast<std::size_t>(i) + n * k]);
                        },
                        BlockOrder::value_major);
  if (f.levels == Levels::None)
    nc->put_block(f.name, {steps, b.begin()}, {1, b.size()}, block.data());
  else
    nc->put_block(f.name, {steps, 0, b.begin()}, {1, levels, b.size()}, block.data());
  field_bytes += b.total() * levels * sizeof(T);
}

void UgridWriter::write_step(double time_seconds, const UgridOutputFields& fields) {
  Impl& m = *impl_;
  // Check everything before writing anything, so a bad call leaves no partial record (and, when
  // decomposed, no rank goes on to write while another has failed).
  m.agreed([&] {
    if (m.closed) throw Error(fmt::format("UGRID output '{}': write_step after close()", m.path));
    if (!std::isfinite(time_seconds))
      throw InvalidArgument(
          fmt::format("UGRID output '{}': time {} is not finite", m.path, time_seconds));
    if (m.steps > 0 && !(time_seconds > m.last_time))
      throw InvalidArgument(fmt::format(
          "UGRID output '{}': time {} s is not after the previous step's {} s (a CF time "
          "coordinate must increase strictly)",
          m.path, time_seconds, m.last_time));
    for_each_output_field(fields, [&](const FieldSpec& f, FieldGroup group,
                                      const HostFieldRef& ref) {
      if (!written(group, m.options)) return;
      const bool on_edges = f.location == Location::Edge;
      const bool half_levels = f.levels == Levels::Half;
      const std::size_t points = static_cast<std::size_t>(on_edges ? m.local_edges : m.local_cells);
      const std::size_t levels =
          f.levels == Levels::None ? 1 : static_cast<std::size_t>(m.nlev + (half_levels ? 1 : 0));
      if (ref.empty()) {
        if (group != FieldGroup::diagnostic)
          throw InvalidArgument(
              fmt::format("UGRID output '{}': step {}: the required field '{}' is missing", m.path,
                          m.steps, f.name));
        return;
      }
      if (ref.data == nullptr || ref.size != points * levels)
        throw InvalidArgument(fmt::format(
            "UGRID output '{}': step {}: field '{}' has {} values, expected {} {} x {} {} levels",
            m.path, m.steps, f.name, ref.size, points, on_edges ? "edges" : "cells", levels,
            half_levels ? "half" : "full"));
    });
  });

  m.agreed([&] {
    m.nc->put_block("time", {m.steps}, {m.root ? std::size_t{1} : std::size_t{0}}, &time_seconds);
    for_each_output_field(fields,
                          [&](const FieldSpec& f, FieldGroup group, const HostFieldRef& ref) {
                            if (!written(group, m.options)) return;
                            if (m.options.single_precision)
                              m.write_record<float>(f, ref);
                            else
                              m.write_record<double>(f, ref);
                          });
    m.nc->sync();
  });
  m.last_time = time_seconds;
  ++m.steps;
}

void UgridWriter::close() {
  Impl& m = *impl_;
  if (m.closed) return;
  m.closed = true;
  std::error_code ignored;
  try {
    m.agreed([&] { m.nc->close(); });
    m.agreed([&] {
      if (!m.root) return;
      std::error_code ec;
      std::filesystem::rename(m.temporary, m.path, ec);
      if (ec)
        throw OutputFileError(m.path, "cannot move the written file into place: " + ec.message());
    });
  } catch (...) {
    if (m.root) std::filesystem::remove(m.temporary, ignored);
    throw;
  }
}

const std::string& UgridWriter::path() const {
  return impl_->path;
}
std::size_t UgridWriter::steps_written() const {
  return impl_->steps;
}
std::size_t UgridWriter::field_bytes_written() const {
  return impl_->field_bytes;
}
int UgridWriter::num_levels() const {
  return impl_->nlev;
}

}  // namespace icondiff
