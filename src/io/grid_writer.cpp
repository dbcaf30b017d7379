// Writes a Grid in the layout of an ICON grid file (icon_grid_format.md): small dimension first,
// 1-based indices, -1 for missing neighbours.
#include "netcdf_file.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/io/grid_file.hpp>

#include <fmt/format.h>
#include <netcdf.h>

#include <vector>

namespace icondiff {

namespace {

using io::NetcdfWriter;

/// (points, slots) table -> (slots, points) netCDF order, 1-based, -1 for missing.
std::vector<int> transpose_indices(const HostTable<index_t>& t) {
  std::vector<int> out(t.rows() * t.cols());
  for (std::size_t s = 0; s < t.cols(); ++s)
    for (std::size_t p = 0; p < t.rows(); ++p)
      out[s * t.rows() + p] = t(p, s) == missing_index ? -1 : t(p, s) + 1;
  return out;
}

template <class T>
std::vector<T> transpose(const HostTable<double>& t) {
  std::vector<T> out(t.rows() * t.cols());
  for (std::size_t s = 0; s < t.cols(); ++s)
    for (std::size_t p = 0; p < t.rows(); ++p) out[s * t.rows() + p] = static_cast<T>(t(p, s));
  return out;
}

void require_geometry(const Grid& g, const std::string& path) {
  const bool complete = !g.cell_lon.empty() && !g.vertex_lon.empty() && !g.edge_lon.empty() &&
                        !g.cell_area.empty() && !g.dual_area.empty() && !g.edge_length.empty() &&
                        !g.dual_edge_length.empty() && !g.edge_cell_distance.empty() &&
                        !g.edge_vertex_distance.empty() && !g.primal_normal_east.empty() &&
                        !g.dual_normal_east.empty() && !g.tangent_orientation.empty() &&
                        !g.cell_edge_orientation.empty() && !g.vertex_edge_orientation.empty();
  if (!complete)
    throw GridError(
        fmt::format("cannot write '{}': grid '{}' has no complete geometry "
                    "(coordinates, areas, lengths, normals, orientations)",
                    path, g.name));
}

}  // namespace

void write_icon_grid(const Grid& g, const std::string& path) {
  require_geometry(g, path);
  NetcdfWriter nc(path);
  nc.dimension("cell", static_cast<std::size_t>(g.num_cells));
  nc.dimension("vertex", static_cast<std::size_t>(g.num_vertices));
  nc.dimension("edge", static_cast<std::size_t>(g.num_edges));
  nc.dimension("nc", 2);
  nc.dimension("nv", 3);
  nc.dimension("ne", 6);

  nc.text("", "title", "ICON grid written by icondiff");
  nc.text("", "institution", "icondiff");
  nc.text("", "source", g.source.empty() ? std::string("icondiff") : g.source);
  nc.text("", "uuidOfHGrid", g.uuid);
  nc.text("", "grid_mapping_name", "lat_long_on_sphere");
  nc.text("", "ellipsoid_name", "Sphere");
  nc.number("", "semi_major_axis", g.sphere_radius);
  nc.number("", "inverse_flattening", 0.0);
  nc.integer("", "grid_root", g.grid_root);
  nc.integer("", "grid_level", g.grid_level);
  nc.integer("", "number_of_grid_used", 0);
  nc.integer("", "global_grid", g.limited_area ? 0 : 1);

  const auto coordinate = [&](const std::string& name, const char* dim, const char* standard,
                              const char* bounds) {
    nc.variable(name, NC_DOUBLE, {dim});
    nc.text(name, "units", "radian");
    nc.text(name, "standard_name", standard);
    if (bounds) nc.text(name, "bounds", bounds);
  };
  coordinate("clon", "cell", "longitude", "clon_vertices");
  coordinate("clat", "cell", "latitude", "clat_vertices");
  nc.variable("clon_vertices", NC_DOUBLE, {"cell", "nv"});
  nc.text("clon_vertices", "units", "radian");
  nc.variable("clat_vertices", NC_DOUBLE, {"cell", "nv"});
  nc.text("clat_vertices", "units", "radian");
  coordinate("vlon", "vertex", "longitude", nullptr);
  coordinate("vlat", "vertex", "latitude", nullptr);
  coordinate("elon", "edge", "longitude", nullptr);
  coordinate("elat", "edge", "latitude", nullptr);

  const auto real = [&](const std::string& name, std::vector<std::string> dims, const char* units,
                        const char* long_name) {
    nc.variable(name, NC_DOUBLE, dims);
    if (units) nc.text(name, "units", units);
    nc.text(name, "long_name", long_name);
  };
  real("cell_area", {"cell"}, "m2", "area of grid cell");
  real("cell_area_p", {"cell"}, "m2", "area of grid cell");
  real("dual_area", {"vertex"}, "m2", "area of the dual cell around a vertex");
  real("dual_area_p", {"vertex"}, "m2", "area of the dual cell around a vertex");
  real("edge_length", {"edge"}, "m", "length of the primal edge");
  real("dual_edge_length", {"edge"}, "m", "distance between the adjacent cell centres");
  real("edge_cell_distance", {"nc", "edge"}, "m", "distance from edge midpoint to cell centre");
  real("edge_vert_distance", {"nc", "edge"}, "m", "distance from edge midpoint to vertex");
  real("zonal_normal_primal_edge", {"edge"}, nullptr, "primal normal, eastward component");
  real("meridional_normal_primal_edge", {"edge"}, nullptr, "primal normal, northward component");
  real("zonal_normal_dual_edge", {"edge"}, nullptr, "dual normal, eastward component");
  real("meridional_normal_dual_edge", {"edge"}, nullptr, "dual normal, northward component");

  const auto integer = [&](const std::string& name, std::vector<std::string> dims,
                           const char* long_name) {
    nc.variable(name, NC_INT, dims);
    nc.text(name, "long_name", long_name);
  };
  integer("edge_of_cell", {"nv", "cell"}, "edges of each cell (1-based)");
  integer("vertex_of_cell", {"nv", "cell"}, "vertices of each cell, counter-clockwise (1-based)");
  integer("neighbor_cell_index", {"nv", "cell"}, "cell across each edge of each cell (1-based)");
  integer("adjacent_cell_of_edge", {"nc", "edge"}, "cells of each edge (1-based)");
  integer("edge_vertices", {"nc", "edge"}, "end vertices of each edge (1-based)");
  integer("cells_of_vertex", {"ne", "vertex"}, "cells around each vertex (1-based)");
  integer("edges_of_vertex", {"ne", "vertex"}, "edges around each vertex (1-based)");
  integer("vertices_of_vertex", {"ne", "vertex"},
          "vertex at the other end of each edges_of_vertex (1-based)");
  integer("edge_system_orientation", {"edge"}, "edge tangent orientation");
  integer("orientation_of_normal", {"nv", "cell"}, "+1 if the edge normal points out of the cell");
  integer("edge_orientation", {"ne", "vertex"}, "+1 if the normal circulates counter-clockwise");
  integer("refin_c_ctrl", {"cell"}, "refinement control (cells)");
  integer("refin_e_ctrl", {"edge"}, "refinement control (edges)");
  integer("refin_v_ctrl", {"vertex"}, "refinement control (vertices)");
  nc.end_definitions();

  std::vector<double> clon_vertices(static_cast<std::size_t>(g.num_cells) * 3);
  std::vector<double> clat_vertices(clon_vertices.size());
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int j = 0; j < 3; ++j) {
      clon_vertices[3 * c + j] = g.vertex_lon[g.c2v(c, j)];
      clat_vertices[3 * c + j] = g.vertex_lat[g.c2v(c, j)];
    }
  nc.put("clon", g.cell_lon);
  nc.put("clat", g.cell_lat);
  nc.put("clon_vertices", clon_vertices);
  nc.put("clat_vertices", clat_vertices);
  nc.put("vlon", g.vertex_lon);
  nc.put("vlat", g.vertex_lat);
  nc.put("elon", g.edge_lon);
  nc.put("elat", g.edge_lat);
  nc.put("cell_area", g.cell_area);
  nc.put("cell_area_p", g.cell_area);
  nc.put("dual_area", g.dual_area);
  nc.put("dual_area_p", g.dual_area);
  nc.put("edge_length", g.edge_length);
  nc.put("dual_edge_length", g.dual_edge_length);
  nc.put("edge_cell_distance", transpose<double>(g.edge_cell_distance));
  nc.put("edge_vert_distance", transpose<double>(g.edge_vertex_distance));
  nc.put("zonal_normal_primal_edge", g.primal_normal_east);
  nc.put("meridional_normal_primal_edge", g.primal_normal_north);
  nc.put("zonal_normal_dual_edge", g.dual_normal_east);
  nc.put("meridional_normal_dual_edge", g.dual_normal_north);
  nc.put("edge_of_cell", transpose_indices(g.c2e));
  nc.put("vertex_of_cell", transpose_indices(g.c2v));
  nc.put("neighbor_cell_index", transpose_indices(g.c2e2c));
  nc.put("adjacent_cell_of_edge", transpose_indices(g.e2c));
  nc.put("edge_vertices", transpose_indices(g.e2v));
  nc.put("cells_of_vertex", transpose_indices(g.v2c));
  nc.put("edges_of_vertex", transpose_indices(g.v2e));
  // V2E2V, as in ICON grid files: slot j is the other end of edges_of_vertex[j] (-1 where that
  // slot is missing). ICON4Py's GridManager reads it unconditionally.
  HostTable<index_t> v2e2v(static_cast<std::size_t>(g.num_vertices), g.v2e.cols(), missing_index);
  for (index_t v = 0; v < g.num_vertices; ++v)
    for (std::size_t j = 0; j < g.v2e.cols(); ++j) {
      const index_t e = g.v2e(v, j);
      if (e != missing_index) v2e2v(v, j) = g.e2v(e, 0) == v ? g.e2v(e, 1) : g.e2v(e, 0);
    }
  nc.put("vertices_of_vertex", transpose_indices(v2e2v));
  nc.put("edge_system_orientation",
         std::vector<int>(g.tangent_orientation.begin(), g.tangent_orientation.end()));
  nc.put("orientation_of_normal", transpose<int>(g.cell_edge_orientation));
  nc.put("edge_orientation", transpose<int>(g.vertex_edge_orientation));
  for (int l = 0; l < 3; ++l) {
    std::vector<int> refin = g.refin_ctrl[l];
    if (refin.empty()) refin.assign(static_cast<std::size_t>(g.size(all_locations[l])), 0);
    nc.put(l == 0 ? "refin_c_ctrl" : l == 1 ? "refin_e_ctrl" : "refin_v_ctrl", refin);
  }
  nc.close();
}

}  // namespace icondiff
