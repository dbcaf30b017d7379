#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/grid/icon_grid_arrays.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

namespace icondiff {

namespace {

HostTable<index_t> convert_table(const char* name, const IconIndexTable& t, index_t rows, int cols,
                                 index_t target_size) {
  const index_t ld = t.leading_dimension == 0 ? rows : t.leading_dimension;
  if (rows > 0 && t.data == nullptr)
    throw InvalidArgument(fmt::format("ICON grid arrays: {} is a null pointer", name));
  if (ld < rows)
    throw InvalidArgument(
        fmt::format("ICON grid arrays: {} has leading dimension {} < {} points", name, ld, rows));
  HostTable<index_t> out(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (index_t r = 0; r < rows; ++r) {
      const int value = t.data[static_cast<std::size_t>(j) * ld + r];
      if (value > target_size)
        throw InvalidArgument(fmt::format(
            "ICON grid arrays: {}({}, {}) = {} exceeds the {} points it indexes (1-based)", name,
            r + 1, j + 1, value, target_size));
      out(r, j) = value <= 0 ? missing_index : static_cast<index_t>(value - 1);
    }
  return out;
}

std::vector<int> copy_ints(const int* data, index_t n) {
  return data ? std::vector<int>(data, data + n) : std::vector<int>();
}

}  // namespace

Grid grid_from_icon_arrays(const IconGridArrays& a) {
  if (a.num_cells <= 0 || a.num_edges <= 0 || a.num_vertices <= 0)
    throw InvalidArgument(
        fmt::format("ICON grid arrays: sizes ({} cells, {} edges, {} vertices) "
                    "must be positive",
                    a.num_cells, a.num_edges, a.num_vertices));
  if (a.num_ranks < 1 || a.rank < 0 || a.rank >= a.num_ranks)
    throw InvalidArgument(
        fmt::format("ICON grid arrays: rank {} of {} ranks is not valid", a.rank, a.num_ranks));
  Grid g;
  g.name = "icon";
  g.source = "ICON arrays";
  g.num_cells = a.num_cells;
  g.num_edges = a.num_edges;
  g.num_vertices = a.num_vertices;
  g.rank = a.rank;
  g.num_ranks = a.num_ranks;
  const index_t nc = a.num_cells, ne = a.num_edges, nv = a.num_vertices;
  g.c2e = convert_table("c2e", a.c2e, nc, 3, ne);
  g.c2v = convert_table("c2v", a.c2v, nc, 3, nv);
  g.c2e2c = convert_table("c2e2c", a.c2e2c, nc, 3, nc);
  g.e2c = convert_table("e2c", a.e2c, ne, 2, nc);
  g.e2v = convert_table("e2v", a.e2v, ne, 2, nv);
  g.v2e = convert_table("v2e", a.v2e, nv, 6, ne);
  g.v2c = convert_table("v2c", a.v2c, nv, 6, nc);

  for (Location l : all_locations) {
    const int i = static_cast<int>(l);
    const index_t n = g.size(l);
    if (a.refin_ctrl[i] == nullptr && a.zone_bounds[i].starts == nullptr)
      throw InvalidArgument(fmt::format(
          "ICON grid arrays: neither refin_ctrl nor start/end index arrays of the {}s given",
          to_string(l)));
    g.refin_ctrl[i] = copy_ints(a.refin_ctrl[i], n);
    g.halo_level[i] = copy_ints(a.halo_level[i], n);
    for (const int h : g.halo_level[i])
      if (h < 0 || h > 2)
        throw InvalidArgument(fmt::format(
            "ICON grid arrays: halo level {} of a {} is not 0, 1 or 2", h, to_string(l)));
    std::vector<index_t>& global = g.global_index(l);
    std::vector<int>& owner = g.owner_rank(l);
    if (a.global_index[i]) {
      global.resize(n);
      for (index_t p = 0; p < n; ++p) {
        if (a.global_index[i][p] < 1)
          throw InvalidArgument(
              fmt::format("ICON grid arrays: global index {} of {} {} is not >= 1 (1-based)",
                          a.global_index[i][p], to_string(l), p + 1));
        global[p] = a.global_index[i][p] - 1;
      }
    }
    if (a.owner_rank[i]) {
      owner = copy_ints(a.owner_rank[i], n);
      for (index_t p = 0; p < n; ++p)
        if (owner[p] < 0 || owner[p] >= a.num_ranks)
          throw InvalidArgument(
              fmt::format("ICON grid arrays: owner rank {} of {} {} is not in "
                          "[0, {})",
                          owner[p], to_string(l), p + 1, a.num_ranks));
    }
  }
  check_connectivity(g);
  build_derived_connectivity(g);
  if (a.e2c2v.data != nullptr) {
    // ICON's own e2c2v must be what the grid implies (the diffusion reads it as the edge's two
    // vertices, then the far vertex of each adjacent cell): compared with the derived table.
    const HostTable<index_t> given = convert_table("e2c2v", a.e2c2v, ne, 4, nv);
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < 4; ++k)
        // No far vertex where the cell is missing (a boundary edge, a rank's outermost halo).
        if (g.e2c2v(e, k) != missing_index && given(e, k) != g.e2c2v(e, k))
          throw GridConsistencyError(
              "e2c2v", e,
              k < 2 ? fmt::format("slot {} is {}, but the edge's vertex e2v slot {} is {}", k,
                                  given(e, k), k, g.e2c2v(e, k))
                    : fmt::format("slot {} is {}, but the vertex of adjacent cell {} (e2c slot "
                                  "{}) that is not on the edge is {}",
                                  k, given(e, k), g.e2c(e, k - 2), k - 2, g.e2c2v(e, k)));
    g.e2c2v = given;
  }
  if (a.e2c2e.data != nullptr) {
    g.e2c2e = convert_table("e2c2e", a.e2c2e, ne, 4, ne);
    for (index_t e = 0; e < ne; ++e)
      for (int j = 0; j < 4; ++j) g.e2c2eo(e, j + 1) = g.e2c2e(e, j);
  }
  const bool bounds_given = a.zone_bounds[0].starts != nullptr &&
                            a.zone_bounds[1].starts != nullptr &&
                            a.zone_bounds[2].starts != nullptr;
  if (bounds_given) {
    for (Location l : all_locations) {
      const auto& b = a.zone_bounds[static_cast<int>(l)];
      g.zones[static_cast<int>(l)] =
          zones_from_icon_index_arrays(l, b.starts, b.ends, b.size, g.size(l));
    }
    g.limited_area = !g.range(Location::Cell, Zone::LateralBoundary1).empty();
  } else {
    compute_grid_zones(g);
  }
  return g;
}

}  // namespace icondiff
