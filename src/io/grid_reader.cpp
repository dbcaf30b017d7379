// ICON grid file reader. Variable names, layouts and sentinels: ../shared/docs/icon_grid_format.md
// and docs/dev/grid.md.
#include "netcdf_file.hpp"

#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/grid_file.hpp>

#include <fmt/format.h>

#include <array>
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
      {"cell_lon/cell_lat", "clon/clat"},
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
      {"e2v/tangent_orientation", "edge_vertices/edge_system_orientation"},
      {"cell_edge_orientation", "orientation_of_normal"},
      {"vertex_edge_orientation", "edge_orientation"},
  };
  return names;
}

/// Refuses the first value of `values` (a variable of (slots, points) or (points)) that equals
/// the variable's fill value: a netCDF-4 variable defined but never written reads as its fill
/// value everywhere (9.97e36 for doubles, -2147483647 for ints), which no other check catches
/// in lengths and areas. `skip(slot, point)` exempts slots that hold no data (missing
/// neighbours).
template <class T, class Skip>
void refuse_fill_values(const NetcdfReader& file, const std::string& variable,
                        const std::vector<T>& values, std::size_t points, Skip skip,
                        std::size_t first_row = 0) {
  const double fill = file.fill_value(variable);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (static_cast<double>(values[i]) != fill) continue;
    const std::size_t slot = i / points, point = i % points;
    if (skip(slot, point)) continue;
    file.fail(variable, static_cast<long long>(first_row + point),
              fmt::format(
                  "{}holds {}, the variable's {}: it was never written there (a netCDF-4 "
                  "variable defined but not written reads as its fill value)",
                  values.size() > points ? fmt::format("slot {} ", slot) : "", fill,
                  file.has_fill_attribute(variable) ? "_FillValue" : "netCDF default fill value"));
  }
}

const auto no_skip = [](std::size_t, std::size_t) { return false; };

using io::PointRange;

/// Rows `rows` of a (points) real variable, refusing fill values.
std::vector<double> read_reals(const NetcdfReader& file, const std::string& variable,
                               const std::string& point_dim, PointRange rows) {
  auto values = file.read_double(variable, {point_dim}, rows);
  refuse_fill_values(file, variable, values, values.size(), no_skip, rows.begin);
  return values;
}

/// Rows `rows` of a (points) or (slots, points) integer variable, refusing fill values.
std::vector<int> read_ints(const NetcdfReader& file, const std::string& variable,
                           const std::vector<std::string>& dims, PointRange rows) {
  auto values = file.read_int(variable, dims, rows);
  refuse_fill_values(file, variable, values, rows.count, no_skip, rows.begin);
  return values;
}

/// Reads rows `rows` of an (slots, points) integer variable of 1-based indices into a (rows,
/// slots) table of 0-based (global) indices. 0 and -1 both mean "missing" (generators differ,
/// icon_grid_format.md §4).
HostTable<index_t> read_indices(const NetcdfReader& file, const std::string& variable,
                                const std::string& slot_dim, const std::string& point_dim,
                                index_t target_size, const char* target, PointRange rows) {
  const auto raw = file.read_int(variable, {slot_dim, point_dim}, rows);
  const std::size_t slots = file.required_dimension(slot_dim);
  const std::size_t points = rows.count;
  // A fill value of 0 or -1 (some writers mark missing neighbours so) means "missing" here.
  refuse_fill_values(
      file, variable, raw, points,
      [&](std::size_t s, std::size_t p) {
        const int v = raw[s * points + p];
        return v == 0 || v == -1;
      },
      rows.begin);
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
            variable, static_cast<long long>(rows.begin + p),
            fmt::format("slot {} holds {}, expected a 1-based {} index in [1, {}], or 0 or -1 "
                        "for a missing neighbour",
                        s, v, target, target_size));
      }
    }
  return table;
}

/// Reads rows `rows` of an (slots, points) real variable into a (rows, slots) table, refusing
/// fill values outside the slots `skip(slot, row)` exempts.
template <class Skip>
HostTable<double> read_table(const NetcdfReader& file, const std::string& variable,
                             const std::string& slot_dim, const std::string& point_dim, Skip skip,
                             PointRange rows) {
  const auto raw = file.read_double(variable, {slot_dim, point_dim}, rows);
  const std::size_t slots = file.required_dimension(slot_dim);
  const std::size_t points = rows.count;
  refuse_fill_values(file, variable, raw, points, skip, rows.begin);
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

/// A global attribute that must be a number when present: text such as grid_root = "abc" was
/// read as absent (0, or the default radius) before.
void require_number(const NetcdfReader& file, const std::string& name) {
  const auto kind = file.attribute_kind(name);
  if (kind != io::NetcdfKind::Missing && kind != io::NetcdfKind::Integer &&
      kind != io::NetcdfKind::Real)
    file.fail("", -1,
              fmt::format("the global attribute {} is {}, expected a number", name,
                          kind == io::NetcdfKind::Text
                              ? "text ('" + file.text_attribute(name).value_or("") + "')"
                              : std::string("not numeric")));
}

/// An integer global attribute such as grid_root (0 when absent). A value that is not an
/// integer of int's range is refused: converting it to int would be undefined.
int integer_attribute(const NetcdfReader& file, const std::string& name) {
  require_number(file, name);
  const double v = file.number_attribute(name).value_or(0);
  if (!(v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()) ||
      v != std::floor(v))
    file.fail("", -1, fmt::format("the global attribute {} is {}, expected an integer", name, v));
  return static_cast<int>(v);
}

/// ICON's refinement control values lie within a few dozen of 0 (boundary and nudging rows,
/// nest overlap): anything far beyond is a corrupt file (and -2^31 has no absolute value).
constexpr int max_refin_ctrl = 1000;

/// The whole grid's attributes and point counts (no per-point data).
void read_header(const NetcdfReader& file, const std::string& path, Grid& g) {
  g.source = path;
  g.name = std::filesystem::path(path).stem().string();
  g.uuid = file.text_attribute("uuidOfHGrid").value_or("");
  g.grid_root = integer_attribute(file, "grid_root");
  g.grid_level = integer_attribute(file, "grid_level");
  require_number(file, "semi_major_axis");
  require_number(file, "sphere_radius");
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
}

const char* const refin_names[3] = {"refin_c_ctrl", "refin_e_ctrl", "refin_v_ctrl"};

/// The rows `rows[location]` of every per-point variable into `g` (whose point counts become the
/// row counts): connectivity as 0-based indices of the whole grid (`total` points per location),
/// geometry, refinement control. Checks what one row shows alone: index ranges, fill values,
/// refinement control values.
void read_rows(const NetcdfReader& file, Grid& g, const std::array<PointRange, 3>& rows,
               const std::array<index_t, 3>& total) {
  const PointRange cells = rows[0], edges = rows[1], vertices = rows[2];
  const index_t nc = total[0], ne = total[1], nv = total[2];
  g.num_cells = static_cast<index_t>(cells.count);
  g.num_edges = static_cast<index_t>(edges.count);
  g.num_vertices = static_cast<index_t>(vertices.count);

  // ---- Connectivity
  // ------------------------------------------------------------------------------
  g.c2e = read_indices(file, "edge_of_cell", "nv", "cell", ne, "edge", cells);
  g.c2v = read_indices(file, "vertex_of_cell", "nv", "cell", nv, "vertex", cells);
  g.c2e2c = read_indices(file, "neighbor_cell_index", "nv", "cell", nc, "cell", cells);
  g.e2c = read_indices(file, "adjacent_cell_of_edge", "nc", "edge", nc, "cell", edges);
  g.e2v = read_indices(file, "edge_vertices", "nc", "edge", nv, "vertex", edges);
  g.v2e = read_indices(file, "edges_of_vertex", "ne", "vertex", ne, "edge", vertices);
  g.v2c = read_indices(file, "cells_of_vertex", "ne", "vertex", nc, "cell", vertices);

  // ---- Geometry
  // ----------------------------------------------------------------------------------
  g.cell_lon = read_reals(file, "clon", "cell", cells);
  g.cell_lat = read_reals(file, "clat", "cell", cells);
  g.edge_lon = read_reals(file, "elon", "edge", edges);
  g.edge_lat = read_reals(file, "elat", "edge", edges);
  g.vertex_lon = read_reals(file, "vlon", "vertex", vertices);
  g.vertex_lat = read_reals(file, "vlat", "vertex", vertices);
  g.cell_area = read_reals(file, either(file, "cell_area", "cell_area_p"), "cell", cells);
  g.dual_area = read_reals(file, either(file, "dual_area", "dual_area_p"), "vertex", vertices);
  g.edge_length = read_reals(file, "edge_length", "edge", edges);
  g.dual_edge_length = read_reals(file, "dual_edge_length", "edge", edges);
  // Slot 1 of edge_cell_distance holds junk at LAM boundary edges (see below): not checked.
  g.edge_cell_distance = read_table(
      file, "edge_cell_distance", "nc", "edge",
      [&](std::size_t slot, std::size_t e) { return g.e2c(e, slot) == missing_index; }, edges);
  g.edge_vertex_distance = read_table(file, "edge_vert_distance", "nc", "edge", no_skip, edges);
  g.primal_normal_east = read_reals(file, "zonal_normal_primal_edge", "edge", edges);
  g.primal_normal_north = read_reals(file, "meridional_normal_primal_edge", "edge", edges);
  g.dual_normal_east = read_reals(file, "zonal_normal_dual_edge", "edge", edges);
  g.dual_normal_north = read_reals(file, "meridional_normal_dual_edge", "edge", edges);
  {
    const auto raw = read_ints(file, "edge_system_orientation", {"edge"}, edges);
    g.tangent_orientation.assign(raw.begin(), raw.end());
  }
  {
    const auto raw = read_ints(file, "orientation_of_normal", {"nv", "cell"}, cells);
    g.cell_edge_orientation = HostTable<double>(g.num_cells, 3);
    for (index_t c = 0; c < g.num_cells; ++c)
      for (int j = 0; j < 3; ++j) g.cell_edge_orientation(c, j) = raw[j * g.num_cells + c];
  }
  {
    const auto raw = file.read_int("edge_orientation", {"ne", "vertex"}, vertices);
    refuse_fill_values(
        file, "edge_orientation", raw, static_cast<std::size_t>(g.num_vertices),
        [&](std::size_t s, std::size_t v) { return g.v2e(v, s) == missing_index; }, vertices.begin);
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

  // ---- Refinement control
  // ------------------------------------------------------------------------
  const char* point_dims[3] = {"cell", "edge", "vertex"};
  for (int l = 0; l < 3; ++l) {
    g.refin_ctrl[l] = read_ints(file, refin_names[l], {point_dims[l]}, rows[l]);
    for (std::size_t i = 0; i < g.refin_ctrl[l].size(); ++i)
      if (g.refin_ctrl[l][i] < -max_refin_ctrl || g.refin_ctrl[l][i] > max_refin_ctrl)
        file.fail(refin_names[l], static_cast<long long>(rows[l].begin + i),
                  fmt::format("holds {}, expected a refinement control value in [-{}, {}]",
                              g.refin_ctrl[l][i], max_refin_ctrl, max_refin_ctrl));
  }
}

/// Files hold both ICON's cell_area_p/dual_area_p and ICON4Py's cell_area/dual_area with equal
/// values (to ~1e-15 on the real grids); only one is used, so the other must agree with it
/// (0.1 %: far above rounding, far below any scaling that changes a result). Checks the rows
/// `rows` (cells, edges, vertices) of `g`.
void check_alternative_areas(const NetcdfReader& file, const Grid& g,
                             const std::array<PointRange, 3>& rows) {
  const auto same_areas = [&](const char* used, const char* other, const std::string& dim,
                              const std::vector<double>& values, PointRange range) {
    if (!file.has_variable(used) || !file.has_variable(other)) return;
    const auto alternative = read_reals(file, other, dim, range);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (!(std::fabs(alternative[i] - values[i]) <= 1e-3 * std::fabs(values[i])))
        file.fail(other, static_cast<long long>(range.begin + i),
                  fmt::format("is {:.6e} m2, but {} holds {:.6e} m2 (more than 0.1 % apart); "
                              "a grid file holds both with equal values",
                              alternative[i], used, values[i]));
  };
  same_areas(either(file, "cell_area", "cell_area_p").c_str(), "cell_area_p", "cell", g.cell_area,
             rows[0]);
  same_areas(either(file, "dual_area", "dual_area_p").c_str(), "dual_area_p", "vertex", g.dual_area,
             rows[2]);
}

}  // namespace

Grid read_icon_grid(const std::string& path) {
  NetcdfReader file(path);
  Grid g;
  read_header(file, path, g);
  const std::array<index_t, 3> total{g.num_cells, g.num_edges, g.num_vertices};
  std::array<PointRange, 3> rows;
  for (int l = 0; l < 3; ++l) rows[l] = PointRange{0, static_cast<std::size_t>(total[l])};
  read_rows(file, g, rows, total);

  // ---- Zones (the whole grid's rows in order) -----------------------------------------------
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
  // After the checks of the geometry: damage to the variable used is named there.
  check_alternative_areas(file, g, rows);
  return g;
}

GridBlock read_icon_grid_block(const std::string& path, int block, int num_blocks) {
  if (num_blocks < 1 || block < 0 || block >= num_blocks)
    throw InvalidArgument(
        fmt::format("read_icon_grid_block: block {} of {}, expected 0 <= block < num_blocks", block,
                    num_blocks));
  NetcdfReader file(path);
  GridBlock b;
  b.block = block;
  b.num_blocks = num_blocks;
  read_header(file, path, b.rows);
  b.total = {b.rows.num_cells, b.rows.num_edges, b.rows.num_vertices};
  std::array<PointRange, 3> rows;
  for (int l = 0; l < 3; ++l) {
    const auto n = static_cast<std::size_t>(b.total[l]);
    const std::size_t first = block_start(n, block, num_blocks);
    rows[l] = PointRange{first, block_start(n, block + 1, num_blocks) - first};
    b.begin[l] = static_cast<index_t>(first);
  }
  read_rows(file, b.rows, rows, b.total);
  check_alternative_areas(file, b.rows, rows);
  return b;
}

}  // namespace icondiff
