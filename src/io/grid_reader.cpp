// ICON grid file reader. Variable names, layouts and sentinels: ../shared/docs/icon_grid_format.md
// and docs/dev/grid.md.
#include "netcdf_file.hpp"

#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/grid_file.hpp>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

namespace icondiff {

namespace {

using io::NetcdfReader;

/// The file variable behind each Grid member, for error messages.
const std::map<std::string, std::string>& file_variable_of() {
  static const std::map<std::string, std::string> names = {
      {"c2e", "edge_of_cell"},
      {"c2v", "vertex_of_cell"},
      {"c2e2c", "neighbor_cell_index"},
      {"e2c", "adjacent_cell_of_edge"},
      {"e2v", "edge_vertices"},
      {"v2e", "edges_of_vertex"},
      {"v2c", "cells_of_vertex"},
      {"cell_lon", "clon"},
      {"cell_lat", "clat"},
      {"edge_lon", "elon"},
      {"edge_lat", "elat"},
      {"vertex_lon", "vlon"},
      {"vertex_lat", "vlat"},
      {"cell_area", "cell_area"},
      {"dual_area", "dual_area"},
      {"edge_length", "edge_length"},
      {"dual_edge_length", "dual_edge_length"},
      {"edge_cell_distance", "edge_cell_distance"},
      {"edge_vertex_distance", "edge_vert_distance"},
      {"primal_normal_east", "zonal_normal_primal_edge"},
      {"primal_normal_north", "meridional_normal_primal_edge"},
      {"primal_normal", "zonal_normal_primal_edge/meridional_normal_primal_edge"},
      {"dual_normal_east", "zonal_normal_dual_edge"},
      {"dual_normal_north", "meridional_normal_dual_edge"},
      {"dual_normal", "zonal_normal_dual_edge/meridional_normal_dual_edge"},
      {"tangent_orientation", "edge_system_orientation"},
      {"cell_edge_orientation", "orientation_of_normal"},
      {"vertex_edge_orientation", "edge_orientation"},
  };
  return names;
}

/// Reads an (slots, points) integer variable of 1-based indices into a (points, slots) table of
/// 0-based indices. 0 and -1 both mean "missing" (generators differ, icon_grid_format.md §4).
HostTable<index_t> read_indices(const NetcdfReader& file, const std::string& variable,
                                const std::string& slot_dim, const std::string& point_dim,
                                index_t target_size, const char* target) {
  const auto raw = file.read_int(variable, {slot_dim, point_dim});
  const std::size_t slots = file.required_dimension(slot_dim);
  const std::size_t points = file.required_dimension(point_dim);
  HostTable<index_t> table(points, slots);
  for (std::size_t s = 0; s < slots; ++s)
    for (std::size_t p = 0; p < points; ++p) {
      const int v = raw[s * points + p];
      if (v == 0 || v == -1) {
        table(p, s) = missing_index;
      } else if (v >= 1 && v <= target_size) {
        table(p, s) = v - 1;
      } else {
        file.fail(
            variable, static_cast<long long>(p),
            fmt::format("slot {} holds {}, expected a 1-based {} index in [1, {}], or 0 or -1 "
                        "for a missing neighbour",
                        s, v, target, target_size));
      }
    }
  return table;
}

/// Reads an (slots, points) real variable into a (points, slots) table.
HostTable<double> read_table(const NetcdfReader& file, const std::string& variable,
                             const std::string& slot_dim, const std::string& point_dim) {
  const auto raw = file.read_double(variable, {slot_dim, point_dim});
  const std::size_t slots = file.required_dimension(slot_dim);
  const std::size_t points = file.required_dimension(point_dim);
  HostTable<double> table(points, slots);
  for (std::size_t s = 0; s < slots; ++s)
    for (std::size_t p = 0; p < points; ++p) table(p, s) = raw[s * points + p];
  return table;
}

/// `preferred` if present, else `fallback` (ICON reads cell_area_p, ICON4Py cell_area; files
/// hold both with equal values).
std::string either(const NetcdfReader& file, const std::string& preferred,
                   const std::string& fallback) {
  return file.has_variable(preferred) || !file.has_variable(fallback) ? preferred : fallback;
}

void check_dimension(const NetcdfReader& file, const std::string& name, std::size_t expected) {
  const std::size_t actual = file.required_dimension(name);
  if (actual != expected)
    file.fail("", -1,
              fmt::format("the dimension '{}' has size {}, expected {}", name, actual, expected));
}

index_t point_count(const NetcdfReader& file, const std::string& name) {
  const std::size_t n = file.required_dimension(name);
  if (n == 0 || n > static_cast<std::size_t>(std::numeric_limits<index_t>::max() / 8))
    file.fail("", -1,
              fmt::format("the dimension '{}' has size {}, expected a positive count below "
                          "2^28",
                          name, n));
  return static_cast<index_t>(n);
}

/// An integer global attribute such as grid_root (0 when absent). A value that is not an
/// integer of int's range is refused: converting it to int would be undefined.
int integer_attribute(const NetcdfReader& file, const std::string& name) {
  const double v = file.number_attribute(name).value_or(0);
  if (!(v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()) ||
      v != std::floor(v))
    file.fail("", -1, fmt::format("the global attribute {} is {}, expected an integer", name, v));
  return static_cast<int>(v);
}

/// ICON's refinement control values lie within a few dozen of 0 (boundary and nudging rows,
/// nest overlap): anything far beyond is a corrupt file (and -2^31 has no absolute value).
constexpr int max_refin_ctrl = 1000;

}  // namespace

Grid read_icon_grid(const std::string& path) {
  NetcdfReader file(path);
  Grid g;
  g.source = path;
  g.name = std::filesystem::path(path).stem().string();
  g.uuid = file.text_attribute("uuidOfHGrid").value_or("");
  g.grid_root = integer_attribute(file, "grid_root");
  g.grid_level = integer_attribute(file, "grid_level");
  g.sphere_radius = file.number_attribute("semi_major_axis")
                        .value_or(file.number_attribute("sphere_radius").value_or(earth_radius));
  if (!std::isfinite(g.sphere_radius) || g.sphere_radius <= 0)
    file.fail("", -1,
              fmt::format("the global attribute semi_major_axis is {}, expected a positive "
                          "radius in metres",
                          g.sphere_radius));

  g.num_cells = point_count(file, "cell");
  g.num_edges = point_count(file, "edge");
  g.num_vertices = point_count(file, "vertex");
  check_dimension(file, "nv", 3);
  check_dimension(file, "nc", 2);
  check_dimension(file, "ne", 6);

  // ---- Connectivity
  // ------------------------------------------------------------------------------
  g.c2e = read_indices(file, "edge_of_cell", "nv", "cell", g.num_edges, "edge");
  g.c2v = read_indices(file, "vertex_of_cell", "nv", "cell", g.num_vertices, "vertex");
  g.c2e2c = read_indices(file, "neighbor_cell_index", "nv", "cell", g.num_cells, "cell");
  g.e2c = read_indices(file, "adjacent_cell_of_edge", "nc", "edge", g.num_cells, "cell");
  g.e2v = read_indices(file, "edge_vertices", "nc", "edge", g.num_vertices, "vertex");
  g.v2e = read_indices(file, "edges_of_vertex", "ne", "vertex", g.num_edges, "edge");
  g.v2c = read_indices(file, "cells_of_vertex", "ne", "vertex", g.num_cells, "cell");

  // ---- Geometry
  // ----------------------------------------------------------------------------------
  g.cell_lon = file.read_double("clon", {"cell"});
  g.cell_lat = file.read_double("clat", {"cell"});
  g.edge_lon = file.read_double("elon", {"edge"});
  g.edge_lat = file.read_double("elat", {"edge"});
  g.vertex_lon = file.read_double("vlon", {"vertex"});
  g.vertex_lat = file.read_double("vlat", {"vertex"});
  g.cell_area = file.read_double(either(file, "cell_area", "cell_area_p"), {"cell"});
  g.dual_area = file.read_double(either(file, "dual_area", "dual_area_p"), {"vertex"});
  g.edge_length = file.read_double("edge_length", {"edge"});
  g.dual_edge_length = file.read_double("dual_edge_length", {"edge"});
  g.edge_cell_distance = read_table(file, "edge_cell_distance", "nc", "edge");
  g.edge_vertex_distance = read_table(file, "edge_vert_distance", "nc", "edge");
  g.primal_normal_east = file.read_double("zonal_normal_primal_edge", {"edge"});
  g.primal_normal_north = file.read_double("meridional_normal_primal_edge", {"edge"});
  g.dual_normal_east = file.read_double("zonal_normal_dual_edge", {"edge"});
  g.dual_normal_north = file.read_double("meridional_normal_dual_edge", {"edge"});
  {
    const auto raw = file.read_int("edge_system_orientation", {"edge"});
    g.tangent_orientation.assign(raw.begin(), raw.end());
  }
  {
    const auto raw = file.read_int("orientation_of_normal", {"nv", "cell"});
    g.cell_edge_orientation = HostTable<double>(g.num_cells, 3);
    for (index_t c = 0; c < g.num_cells; ++c)
      for (int j = 0; j < 3; ++j) g.cell_edge_orientation(c, j) = raw[j * g.num_cells + c];
  }
  {
    const auto raw = file.read_int("edge_orientation", {"ne", "vertex"});
    g.vertex_edge_orientation = HostTable<double>(g.num_vertices, 6);
    for (index_t v = 0; v < g.num_vertices; ++v)
      for (int s = 0; s < 6; ++s)  // missing slots hold 0 or -1 in files: store 0
        g.vertex_edge_orientation(v, s) =
            g.v2e(v, s) == missing_index ? 0.0 : raw[s * g.num_vertices + v];
  }
  // Slot 1 of edge_cell_distance holds junk (0, ~0.1 m or NaN) at LAM boundary edges: store 0.
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < 2; ++k)
      if (g.e2c(e, k) == missing_index) g.edge_cell_distance(e, k) = 0.0;

  // ---- Refinement control and zones
  // --------------------------------------------------------------
  const char* refin_names[3] = {"refin_c_ctrl", "refin_e_ctrl", "refin_v_ctrl"};
  const char* point_dims[3] = {"cell", "edge", "vertex"};
  for (int l = 0; l < 3; ++l) {
    g.refin_ctrl[l] = file.read_int(refin_names[l], {point_dims[l]});
    for (std::size_t i = 0; i < g.refin_ctrl[l].size(); ++i)
      if (g.refin_ctrl[l][i] < -max_refin_ctrl || g.refin_ctrl[l][i] > max_refin_ctrl)
        file.fail(refin_names[l], static_cast<long long>(i),
                  fmt::format("holds {}, expected a refinement control value in [-{}, {}]",
                              g.refin_ctrl[l][i], max_refin_ctrl, max_refin_ctrl));
  }
  for (int l = 0; l < 3; ++l) {
    try {
      g.zones[l] = compute_zones(all_locations[l], g.refin_ctrl[l]);
    } catch (const GridError& e) {
      file.fail(refin_names[l], -1, e.what());
    }
  }
  g.limited_area = has_lateral_boundary(Location::Cell, g.refin_ctrl[0]);

  // ---- Consistency -----------------------------------------------------------------------------
  try {
    check_connectivity(g);
    build_derived_connectivity(g);
    check_geometry(g);
  } catch (const GridConsistencyError& e) {
    const auto& names = file_variable_of();
    const auto it = names.find(e.table());
    file.fail(it == names.end() ? e.table() : it->second, e.row(),
              e.problem() + " (all indices 0-based)");
  } catch (const GridError& e) {
    file.fail("", -1, e.what());
  }
  return g;
}

}  // namespace icondiff
