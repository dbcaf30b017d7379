// Limited-area cut-out of a global grid (see limited_area.hpp).
//
// Sources: the row definitions are those of ICON4Py's
// model/common/src/icon4py/model/common/grid/grid_refinement.py (docstring) and
// icon_grid_format.md §6; the exact rules used here (breadth-first from the boundary vertices,
// edge row = sum of its cells' rows) reproduce refin_c_ctrl, refin_e_ctrl and refin_v_ctrl of
// DWD's mch_ch_coarsegrid_wind_R19B04.nc for every point (checked with the file's own
// connectivity). The storage order (ordered rows first, by row, then the rest) is ICON's
// (icon_grid_format.md §6, "Storage order").
#include "vertex_tables.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid_geometry.hpp>
#include <icondiff/grid/limited_area.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace icondiff {

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double degrees = 180.0 / pi;

void require(bool ok, const std::string& what) {
  if (!ok)
    throw InvalidArgument("cut_limited_area: the global grid " + what +
                          "; expected a global grid with connectivity (c2v, c2e, c2e2c, e2c, "
                          "e2v, v2c) and cell and vertex coordinates");
}

void require_table(const HostTable<index_t>& t, const char* name, index_t rows, std::size_t cols) {
  require(t.rows() == static_cast<std::size_t>(rows) && t.cols() == cols,
          fmt::format("has table {} of shape ({}, {}) instead of ({}, {})", name, t.rows(),
                      t.cols(), rows, cols));
}

int count_inside_neighbours(const Grid& g, const std::vector<char>& inside, std::size_t c) {
  int n = 0;
  for (int j = 0; j < 3; ++j) {
    const index_t d = g.c2e2c(c, j);
    n += d != missing_index && inside[static_cast<std::size_t>(d)];
  }
  return n;
}

/// Makes the selection regular as in ICON's LAM grids: no notches (outside cells with two
/// neighbours inside), no spikes (inside cells with at most one neighbour inside), no vertex
/// where the domain touches itself (more than two boundary edges). Returns the rounds needed.
int regularise(const Grid& g, std::vector<char>& inside) {
  const auto nc = inside.size();
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  constexpr int max_rounds = 200;
  std::vector<std::size_t> change;
  std::vector<int> boundary_edges(nv);
  for (int round = 0; round < max_rounds; ++round) {
    bool changed = false;
    // Each rule is applied to all cells at once (collect, then apply), so the result does not
    // depend on the cell order.
    change.clear();
    for (std::size_t c = 0; c < nc; ++c)
      if (!inside[c] && count_inside_neighbours(g, inside, c) >= 2) change.push_back(c);
    for (std::size_t c : change) inside[c] = 1;
    changed = changed || !change.empty();

    change.clear();
    for (std::size_t c = 0; c < nc; ++c)
      if (inside[c] && count_inside_neighbours(g, inside, c) <= 1) change.push_back(c);
    for (std::size_t c : change) inside[c] = 0;
    changed = changed || !change.empty();

    std::fill(boundary_edges.begin(), boundary_edges.end(), 0);
    for (std::size_t e = 0; e < ne; ++e)
      if (inside[static_cast<std::size_t>(g.e2c(e, 0))] !=
          inside[static_cast<std::size_t>(g.e2c(e, 1))])
        for (int k = 0; k < 2; ++k) ++boundary_edges[static_cast<std::size_t>(g.e2v(e, k))];
    for (std::size_t v = 0; v < nv; ++v)
      if (boundary_edges[v] > 2)
        for (int s = 0; s < 6; ++s) {
          const index_t c = g.v2c(v, s);
          if (c != missing_index && !inside[static_cast<std::size_t>(c)]) {
            inside[static_cast<std::size_t>(c)] = 1;
            changed = true;
          }
        }
    if (!changed) return round;
  }
  throw GridError(fmt::format(
      "cut_limited_area: the selected cells did not settle into a regular domain after {} rounds "
      "of filling notches and removing spikes; choose a larger or simpler region",
      max_rounds));
}

/// Rows from the lateral boundary, unbounded (0 = not reached or not kept). A cell counts as
/// inside when it exists and `inside` is empty (a limited-area grid) or marks it.
struct BoundaryDistance {
  std::vector<int> cell, edge, vertex;
};

BoundaryDistance boundary_distance(const Grid& g, const std::vector<char>& inside) {
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  const auto is_in = [&](index_t c) {
    return c != missing_index && (inside.empty() || inside[static_cast<std::size_t>(c)]);
  };
  BoundaryDistance d{std::vector<int>(nc, 0), std::vector<int>(ne, 0), std::vector<int>(nv, 0)};
  std::vector<index_t> frontier, next_frontier, new_cells;
  for (std::size_t e = 0; e < ne; ++e) {
    if (is_in(g.e2c(e, 0)) == is_in(g.e2c(e, 1))) continue;
    for (int k = 0; k < 2; ++k) {
      const index_t v = g.e2v(e, k);
      if (d.vertex[v] == 0) {
        d.vertex[v] = 1;
        frontier.push_back(v);
      }
    }
  }
  for (int row = 1; !frontier.empty(); ++row) {
    new_cells.clear();
    for (index_t v : frontier)
      for (int s = 0; s < 6; ++s) {
        const index_t c = g.v2c(v, s);
        if (!is_in(c) || d.cell[c] != 0) continue;
        d.cell[c] = row;
        new_cells.push_back(c);
      }
    next_frontier.clear();
    for (index_t c : new_cells)
      for (int j = 0; j < 3; ++j) {
        const index_t v = g.c2v(c, j);
        if (d.vertex[v] != 0) continue;
        d.vertex[v] = row + 1;
        next_frontier.push_back(v);
      }
    std::swap(frontier, next_frontier);
  }
  for (std::size_t e = 0; e < ne; ++e) {
    const index_t c0 = g.e2c(e, 0), c1 = g.e2c(e, 1);
    const bool in0 = is_in(c0), in1 = is_in(c1);
    if (in0 != in1)
      d.edge[e] = 1;
    else if (in0 && d.cell[c0] > 0 && d.cell[c1] > 0)
      d.edge[e] = d.cell[c0] + d.cell[c1];
  }
  return d;
}

int capped(int distance, int max_row) {
  return distance >= 1 && distance <= max_row ? distance : 0;
}

/// The kept points (global indices, in global order), reordered: rows 1..ordered_rows first,
/// by row, then the others.
std::vector<index_t> storage_order(const std::vector<index_t>& kept, const std::vector<int>& refin,
                                   int ordered_rows) {
  std::vector<index_t> order;
  order.reserve(kept.size());
  std::vector<std::vector<index_t>> rows(static_cast<std::size_t>(ordered_rows) + 1);
  for (index_t p : kept) {
    const int r = refin[static_cast<std::size_t>(p)];
    rows[r >= 1 && r <= ordered_rows ? r - 1 : ordered_rows].push_back(p);
  }
  for (const auto& row : rows) order.insert(order.end(), row.begin(), row.end());
  return order;
}

std::vector<index_t> inverse(const std::vector<index_t>& new_to_old, std::size_t old_size) {
  std::vector<index_t> old_to_new(old_size, missing_index);
  for (std::size_t i = 0; i < new_to_old.size(); ++i)
    old_to_new[static_cast<std::size_t>(new_to_old[i])] = static_cast<index_t>(i);
  return old_to_new;
}

index_t far_vertex(const Grid& g, index_t c, index_t e) {
  for (int j = 0; j < 3; ++j) {
    const index_t v = g.c2v(c, j);
    if (v != g.e2v(e, 0) && v != g.e2v(e, 1)) return v;
  }
  throw GridError(fmt::format("cut_limited_area: cell {} has no vertex off its edge {}", c, e));
}

}  // namespace

// ---- LimitedAreaRegion
// ---------------------------------------------------------------------------

LimitedAreaRegion LimitedAreaRegion::cap(double centre_lon, double centre_lat,
                                         double angular_radius) {
  LimitedAreaRegion r;
  r.shape = Shape::SphericalCap;
  r.centre_lon = centre_lon;
  r.centre_lat = centre_lat;
  r.angular_radius = angular_radius;
  r.contains(centre_lon, centre_lat);  // validates
  return r;
}

LimitedAreaRegion LimitedAreaRegion::lon_lat_box(double lon_min, double lon_max, double lat_min,
                                                 double lat_max) {
  LimitedAreaRegion r;
  r.shape = Shape::LonLatBox;
  r.lon_min = lon_min;
  r.lon_max = lon_max;
  r.lat_min = lat_min;
  r.lat_max = lat_max;
  r.contains(lon_min, lat_min);  // validates
  return r;
}

bool LimitedAreaRegion::contains(double lon, double lat) const {
  if (shape == Shape::SphericalCap) {
    if (!std::isfinite(centre_lon) || !(std::fabs(centre_lat) <= pi / 2) ||
        !(angular_radius > 0.0 && angular_radius < pi))
      throw InvalidArgument(fmt::format(
          "limited-area region {}: expected a finite centre longitude, |centre latitude| <= π/2 "
          "and 0 < angular radius < π (radians)",
          describe()));
    return sphere::arc_length(sphere::to_cartesian(centre_lon, centre_lat),
                              sphere::to_cartesian(lon, lat)) <= angular_radius;
  }
  if (!std::isfinite(lon_min) || !std::isfinite(lon_max) || lon_min == lon_max ||
      !(lat_min >= -pi / 2 && lat_min < lat_max && lat_max <= pi / 2))
    throw InvalidArgument(fmt::format(
        "limited-area region {}: expected finite, distinct longitudes and -π/2 <= lat_min < "
        "lat_max <= π/2 (radians)",
        describe()));
  if (lat < lat_min || lat > lat_max) return false;
  // Eastwards from lon_min: both offsets in [0, 2π).
  const auto east_of_min = [&](double x) {
    const double d = std::fmod(x - lon_min, 2 * pi);
    return d < 0 ? d + 2 * pi : d;
  };
  const double width = east_of_min(lon_max);
  return east_of_min(lon) <= (width == 0.0 ? 2 * pi : width);
}

std::string LimitedAreaRegion::describe() const {
  if (shape == Shape::SphericalCap)
    return fmt::format("cap(lon={:.3f}°, lat={:.3f}°, radius={:.3f}°)", centre_lon * degrees,
                       centre_lat * degrees, angular_radius * degrees);
  return fmt::format("box(lon {:.3f}°..{:.3f}°, lat {:.3f}°..{:.3f}°)", lon_min * degrees,
                     lon_max * degrees, lat_min * degrees, lat_max * degrees);
}

// ---- lateral_boundary_rows ---------------------------------------------------------------------

std::array<std::vector<int>, 3> lateral_boundary_rows(const Grid& lam) {
  const index_t nc = lam.num_cells, ne = lam.num_edges, nv = lam.num_vertices;
  const auto check = [](const HostTable<index_t>& t, const char* name, index_t rows,
                        std::size_t cols) {
    if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
      throw InvalidArgument(
          fmt::format("lateral_boundary_rows: table {} has shape ({}, {}), expected ({}, {})", name,
                      t.rows(), t.cols(), rows, cols));
  };
  check(lam.c2v, "c2v", nc, 3);
  check(lam.e2c, "e2c", ne, 2);
  check(lam.e2v, "e2v", ne, 2);
  check(lam.v2c, "v2c", nv, 6);
  const BoundaryDistance d = boundary_distance(lam, {});
  std::array<std::vector<int>, 3> refin;
  const auto cap_all = [](const std::vector<int>& dist, int max_row) {
    std::vector<int> out(dist.size());
    for (std::size_t i = 0; i < dist.size(); ++i) out[i] = capped(dist[i], max_row);
    return out;
  };
  refin[static_cast<int>(Location::Cell)] = cap_all(d.cell, lam_max_cell_row);
  refin[static_cast<int>(Location::Edge)] = cap_all(d.edge, lam_max_edge_row);
  refin[static_cast<int>(Location::Vertex)] = cap_all(d.vertex, lam_max_vertex_row);
  return refin;
}

// ---- cut_limited_area
// -----------------------------------------------------------------------------

Grid cut_limited_area(const Grid& global, const LimitedAreaRegion& region,
                      LimitedAreaIndices* indices) {
  const Grid& g = global;
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  require(nc > 0 && ne > 0 && nv > 0, "is empty");
  require_table(g.c2v, "c2v", nc, 3);
  require_table(g.c2e, "c2e", nc, 3);
  require_table(g.c2e2c, "c2e2c", nc, 3);
  require_table(g.e2c, "e2c", ne, 2);
  require_table(g.e2v, "e2v", ne, 2);
  require_table(g.v2c, "v2c", nv, 6);
  require(g.cell_lon.size() == static_cast<std::size_t>(nc) &&
              g.cell_lat.size() == static_cast<std::size_t>(nc),
          "has no cell coordinates (cell_lon, cell_lat)");
  require(g.vertex_lon.size() == static_cast<std::size_t>(nv) &&
              g.vertex_lat.size() == static_cast<std::size_t>(nv),
          "has no vertex coordinates (vertex_lon, vertex_lat)");
  require(!has_lateral_boundary(Location::Cell, g.refin_ctrl[0]),
          "is itself limited-area (refin_ctrl has boundary rows)");
  for (index_t e = 0; e < ne; ++e)
    require(
        g.e2c(e, 0) != missing_index && g.e2c(e, 1) != missing_index,
        fmt::format("has edge {} with a missing cell (a global grid has two cells per edge)", e));

  // ---- Select the cells. ----
  std::vector<char> inside(static_cast<std::size_t>(nc));
  for (index_t c = 0; c < nc; ++c) inside[c] = region.contains(g.cell_lon[c], g.cell_lat[c]);
  regularise(g, inside);
  const auto kept_cells = static_cast<index_t>(std::count(inside.begin(), inside.end(), 1));
  if (kept_cells == 0 || kept_cells == nc)
    throw InvalidArgument(fmt::format(
        "cut_limited_area: region {} keeps {} of the {} cells of {}; expected some but not all",
        region.describe(), kept_cells, nc, g.name));

  // ---- Rows and storage order (in global numbering). ----
  const BoundaryDistance dist = boundary_distance(g, inside);
  std::vector<int> refin_c(static_cast<std::size_t>(nc)), refin_e(static_cast<std::size_t>(ne)),
      refin_v(static_cast<std::size_t>(nv));
  std::vector<index_t> cells, edges, vertices;
  std::vector<char> vertex_kept(static_cast<std::size_t>(nv), 0);
  for (index_t c = 0; c < nc; ++c) {
    if (!inside[c]) continue;
    cells.push_back(c);
    refin_c[c] = capped(dist.cell[c], lam_max_cell_row);
    for (int j = 0; j < 3; ++j) vertex_kept[g.c2v(c, j)] = 1;
  }
  for (index_t e = 0; e < ne; ++e) {
    if (!inside[g.e2c(e, 0)] && !inside[g.e2c(e, 1)]) continue;
    edges.push_back(e);
    refin_e[e] = capped(dist.edge[e], lam_max_edge_row);
  }
  for (index_t v = 0; v < nv; ++v) {
    if (!vertex_kept[v]) continue;
    vertices.push_back(v);
    refin_v[v] = capped(dist.vertex[v], lam_max_vertex_row);
  }
  cells = storage_order(cells, refin_c, lam_ordered_cell_rows);
  edges = storage_order(edges, refin_e, lam_ordered_edge_rows);
  vertices = storage_order(vertices, refin_v, lam_ordered_vertex_rows);
  const std::vector<index_t> cell_of = inverse(cells, static_cast<std::size_t>(nc));
  const std::vector<index_t> edge_of = inverse(edges, static_cast<std::size_t>(ne));
  const std::vector<index_t> vertex_of = inverse(vertices, static_cast<std::size_t>(nv));
  const auto map_cell = [&](index_t c) { return c == missing_index ? missing_index : cell_of[c]; };

  // ---- The limited-area grid. ----
  Grid lam;
  lam.name = g.name + "_lam";
  lam.source = fmt::format("cut_limited_area({}) of {} [{}]", region.describe(), g.name, g.source);
  lam.grid_root = g.grid_root;
  lam.grid_level = g.grid_level;
  lam.sphere_radius = g.sphere_radius;
  lam.num_cells = static_cast<index_t>(cells.size());
  lam.num_edges = static_cast<index_t>(edges.size());
  lam.num_vertices = static_cast<index_t>(vertices.size());
  const auto lc = cells.size(), le = edges.size(), lv = vertices.size();

  lam.c2v = HostTable<index_t>(lc, 3);
  lam.c2e = HostTable<index_t>(lc, 3);
  lam.c2e2c = HostTable<index_t>(lc, 3);
  for (std::size_t c = 0; c < lc; ++c)
    for (int j = 0; j < 3; ++j) {
      lam.c2v(c, j) = vertex_of[g.c2v(cells[c], j)];
      lam.c2e(c, j) = edge_of[g.c2e(cells[c], j)];
      lam.c2e2c(c, j) = map_cell(g.c2e2c(cells[c], j));
    }

  std::vector<sphere::Vec3> position(static_cast<std::size_t>(nv));
  for (index_t v = 0; v < nv; ++v)
    position[v] = sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
  lam.e2v = HostTable<index_t>(le, 2);
  lam.e2c = HostTable<index_t>(le, 2, missing_index);
  for (std::size_t e = 0; e < le; ++e) {
    const index_t ge = edges[e];
    const index_t c0 = map_cell(g.e2c(ge, 0)), c1 = map_cell(g.e2c(ge, 1));
    lam.e2v(e, 0) = vertex_of[g.e2v(ge, 0)];
    lam.e2v(e, 1) = vertex_of[g.e2v(ge, 1)];
    if (c0 != missing_index && c1 != missing_index) {
      lam.e2c(e, 0) = c0;
      lam.e2c(e, 1) = c1;
      continue;
    }
    // Boundary edge: the one cell goes to slot 0. Keep the global normal, which points from
    // global e2c[0] to e2c[1]: compute_grid_geometry orients a boundary edge's normal along
    // v0 x v1, so swap e2v where the global normal points the other way.
    lam.e2c(e, 0) = c0 != missing_index ? c0 : c1;
    const sphere::Vec3 a = position[g.e2v(ge, 0)], b = position[g.e2v(ge, 1)];
    const double across = sphere::triple_product(a, b, position[far_vertex(g, g.e2c(ge, 1), ge)]) -
                          sphere::triple_product(a, b, position[far_vertex(g, g.e2c(ge, 0), ge)]);
    if (across < 0.0) std::swap(lam.e2v(e, 0), lam.e2v(e, 1));
  }
  detail::build_vertex_tables(lam);

  lam.vertex_lon.resize(lv);
  lam.vertex_lat.resize(lv);
  for (std::size_t v = 0; v < lv; ++v) {
    lam.vertex_lon[v] = g.vertex_lon[vertices[v]];
    lam.vertex_lat[v] = g.vertex_lat[vertices[v]];
  }
  compute_grid_geometry(lam);

  const auto gather = [](const std::vector<index_t>& order, const std::vector<int>& refin) {
    std::vector<int> out(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = refin[order[i]];
    return out;
  };
  lam.refin_ctrl[static_cast<int>(Location::Cell)] = gather(cells, refin_c);
  lam.refin_ctrl[static_cast<int>(Location::Edge)] = gather(edges, refin_e);
  lam.refin_ctrl[static_cast<int>(Location::Vertex)] = gather(vertices, refin_v);
  compute_grid_zones(lam);
  build_derived_connectivity(lam);

  if (indices != nullptr) {
    indices->cell = std::move(cells);
    indices->edge = std::move(edges);
    indices->vertex = std::move(vertices);
  }
  return lam;
}

}  // namespace icondiff
