// Standalone decomposition: METIS partition of the cells and each rank's local grid with the halo
// of ICON4Py 0.2.0's IconLikeHaloConstructor (decomposition/halo.py). See comm/decomposition.hpp.
#include <icondiff/comm/decomposition.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/grid/zones.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#if ICONDIFF_HAVE_MPI
#include <metis.h>
#endif

namespace icondiff {

namespace {

constexpr int loc_index(Location location) {
  return static_cast<int>(location);
}

void check_rows(const HostTable<index_t>& table, const char* name, index_t rows, std::size_t cols) {
  if (table.rows() != static_cast<std::size_t>(rows) || table.cols() != cols)
    throw GridError(
        fmt::format("decomposition: the global grid's {} is ({}, {}), expected ({}, {})", name,
                    table.rows(), table.cols(), rows, cols));
}

#if ICONDIFF_HAVE_MPI
const char* metis_status_name(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT (erroneous inputs or options)";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY (out of memory)";
    case METIS_ERROR: return "METIS_ERROR (some other error)";
    default: return "an unknown status";
  }
}
#endif

}  // namespace

std::vector<int> partition_cells(const Grid& global, int num_ranks) {
  const index_t n = global.num_cells;
  if (num_ranks < 1)
    throw InvalidArgument(
        fmt::format("partition_cells: num_ranks = {}, expected at least 1", num_ranks));
  if (num_ranks > n)
    throw InvalidArgument(fmt::format(
        "partition_cells: num_ranks = {} is more than the {} cells of grid '{}' (every rank must "
        "own at least one cell)",
        num_ranks, n, global.name));
  if (global.num_ranks != 1)
    throw InvalidArgument(fmt::format(
        "partition_cells: grid '{}' is already rank {}'s part of a decomposition over {} ranks; "
        "partition the global grid",
        global.name, global.rank, global.num_ranks));
  if (num_ranks == 1) return std::vector<int>(static_cast<std::size_t>(n), 0);
  check_rows(global.c2e2c, "c2e2c", n, 3);

#if ICONDIFF_HAVE_MPI
  // The cell graph in CSR form: an edge per C2E2C entry, missing neighbours skipped. METIS needs
  // a symmetric graph without self loops; a grid that passed check_connectivity has one, but a
  // broken table must not crash METIS, so check.
  std::vector<idx_t> xadj(static_cast<std::size_t>(n) + 1, 0);
  std::vector<idx_t> adjncy;
  adjncy.reserve(static_cast<std::size_t>(n) * 3);
  for (index_t c = 0; c < n; ++c) {
    for (int j = 0; j < 3; ++j) {
      const index_t d = global.c2e2c(c, j);
      if (d == missing_index) continue;
      if (d < 0 || d >= n || d == c)
        throw GridError(fmt::format(
            "partition_cells: c2e2c({}, {}) = {} is not another cell of the {} cells", c, j, d, n));
      bool back = false;
      for (int k = 0; k < 3; ++k) back = back || global.c2e2c(d, k) == c;
      if (!back)
        throw GridError(fmt::format(
            "partition_cells: c2e2c({}, {}) = {} but cell {} does not list cell {} as its "
            "neighbour (the cell graph must be symmetric)",
            c, j, d, d, c));
      adjncy.push_back(static_cast<idx_t>(d));
    }
    xadj[static_cast<std::size_t>(c) + 1] = static_cast<idx_t>(adjncy.size());
  }

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 4711;   // fixed: every rank computes the same partition
  options[METIS_OPTION_UFACTOR] = 30;  // k-way default, made explicit: parts <= 1.03 * n / k
  options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;  // minimise the cut edges (= halo size)
  idx_t nvtxs = static_cast<idx_t>(n);
  idx_t ncon = 1;
  idx_t nparts = static_cast<idx_t>(num_ranks);
  idx_t objval = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  const int status =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr,
                          &nparts, nullptr, nullptr, options, &objval, part.data());
  if (status != METIS_OK)
    throw Error(fmt::format(
        "partition_cells: METIS_PartGraphKway failed to split the {} cells of grid '{}' into {} "
        "parts: it returned {}",
        n, global.name, num_ranks, metis_status_name(status)));

  std::vector<int> owner(part.begin(), part.end());
  std::vector<index_t> count(static_cast<std::size_t>(num_ranks), 0);
  for (const int r : owner) {
    if (r < 0 || r >= num_ranks)
      throw Error(
          fmt::format("partition_cells: METIS returned part {} outside [0, {})", r, num_ranks));
    ++count[static_cast<std::size_t>(r)];
  }
  for (int r = 0; r < num_ranks; ++r)
    if (count[static_cast<std::size_t>(r)] == 0)
      throw Error(fmt::format(
          "partition_cells: METIS left part {} of {} empty on grid '{}' ({} cells); use fewer "
          "ranks",
          r, num_ranks, global.name, n));
  return owner;
#else
  throw Error(fmt::format(
      "partition_cells: this icondiff was built without METIS, so it cannot partition grid '{}' "
      "over {} ranks; configure with -DICONDIFF_ENABLE_MPI=ON (needs MPI and METIS, Debian "
      "libmetis-dev), or pass a cell ownership of your own to make_local_grid",
      global.name, num_ranks));
#endif
}

namespace {

/// compute_zones' rule (zones.cpp, ICON4Py's _refinement_level_placed_with_halo): on a LAM, halo
/// points of line `halo_line` whose refin_ctrl is 1..this are stored with the boundary rows.
int last_row_stored_with_boundary(Location location, int halo_line) {
  if (location == Location::Edge) return halo_line == 1 ? 6 : 4;
  return halo_line == 1 ? 2 : 1;
}

/// refin_ctrl value of the last ordered row (5 for cells and vertices, 10 for edges).
int last_ordered_row(Location location) {
  return location == Location::Edge ? 10 : 5;
}

/// Marks over the points of one location of the global grid.
using Marks = std::vector<char>;

/// The valid entries of `table` in the rows marked in `rows`, as marks over the target location.
Marks neighbours_of(const HostTable<index_t>& table, const Marks& rows, index_t target_size) {
  Marks out(static_cast<std::size_t>(target_size), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i]) continue;
    for (std::size_t j = 0; j < table.cols(); ++j) {
      const index_t v = table(i, j);
      if (v >= 0) out[static_cast<std::size_t>(v)] = 1;
    }
  }
  return out;
}

Marks set_and(const Marks& a, const Marks& b) {
  Marks r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] && b[i];
  return r;
}
Marks set_or(const Marks& a, const Marks& b) {
  Marks r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] || b[i];
  return r;
}
Marks set_minus(const Marks& a, const Marks& b) {
  Marks r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] && !b[i];
  return r;
}

/// ICON's convention for points on the cutting line (ICON4Py
/// _update_owner_mask_by_max_rank_convention): the highest rank among the point's cells.
int max_rank_owner(const HostTable<index_t>& to_cells, index_t point,
                   const std::vector<int>& cell_owner) {
  int owner = -1;
  for (std::size_t j = 0; j < to_cells.cols(); ++j) {
    const index_t c = to_cells(static_cast<std::size_t>(point), j);
    if (c >= 0) owner = std::max(owner, cell_owner[static_cast<std::size_t>(c)]);
  }
  return owner;
}

/// The points of one location on this rank, in local order.
struct LocalPoints {
  std::vector<index_t> global;  ///< local -> global index
  std::vector<int> halo;        ///< halo line per local point (0 owned)
  std::vector<int> owner;       ///< owner rank per local point
};

/// Orders the points with halo line `halo[g]` (-1: not local) as compute_zones needs them:
///  1. owned points and the halo points that ICON stores with the outermost boundary rows,
///     by ordered row (1..last, then the rest), within a row owned before halo, each by global
///     index. For owned points alone this is the global order (the global grid stores its rows
///     in order); owned and halo points of one row cannot be interleaved because compute_zones
///     requires the owned points of a row to be one block;
///  2. halo line 1, then 3. halo line 2, each by global index.
LocalPoints order_points(Location location, const std::vector<int>& refin_ctrl,
                         const std::vector<int>& halo, const std::vector<int>& owner) {
  const int last = last_ordered_row(location);
  struct Key {
    int group;  // 0 front, 1 line 1, 2 line 2, 3 ICON4Py's third edge level
    int row;
    int is_halo;
    index_t global;
  };
  std::vector<Key> keys;
  for (std::size_t g = 0; g < halo.size(); ++g) {
    const int h = halo[g];
    if (h < 0) continue;
    const int r = to_non_nested_refinement(location, refin_ctrl[g]);
    const int row = r >= 1 && r <= last ? r : last + 1;
    const bool front = h == 0 || (r >= 1 && r <= last_row_stored_with_boundary(location, h));
    keys.push_back({front ? 0 : h, front ? row : 0, h == 0 ? 0 : 1, static_cast<index_t>(g)});
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.group, a.row, a.is_halo, a.global) <
           std::tie(b.group, b.row, b.is_halo, b.global);
  });
  LocalPoints p;
  for (const Key& k : keys) {
    p.global.push_back(k.global);
    p.halo.push_back(halo[static_cast<std::size_t>(k.global)]);
    p.owner.push_back(owner[static_cast<std::size_t>(k.global)]);
  }
  return p;
}

struct LocalMaps {
  std::array<std::vector<index_t>, 3> local_to_global;
  std::array<std::vector<index_t>, 3> global_to_local;  ///< missing_index where not local
};

/// dst = src at the local points; connectivity values renumbered to local indices.
template <class T>
void gather(const FieldSpec& spec, std::vector<T>& dst, const std::vector<T>& src,
            const LocalMaps& maps, index_t global_size) {
  dst.clear();
  if (src.empty()) return;
  if (src.size() != static_cast<std::size_t>(global_size))
    throw GridError(fmt::format("decomposition: the global grid's {} has {} values for {} {}s",
                                spec.name, src.size(), global_size, to_string(spec.location)));
  const auto& l2g = maps.local_to_global[loc_index(spec.location)];
  dst.resize(l2g.size());
  for (std::size_t i = 0; i < l2g.size(); ++i) dst[i] = src[static_cast<std::size_t>(l2g[i])];
}

template <class T>
void gather(const FieldSpec& spec, HostTable<T>& dst, const HostTable<T>& src,
            const LocalMaps& maps, index_t global_size) {
  dst = HostTable<T>();
  if (src.empty()) return;
  if (src.rows() != static_cast<std::size_t>(global_size))
    throw GridError(fmt::format("decomposition: the global grid's {} has {} rows for {} {}s",
                                spec.name, src.rows(), global_size, to_string(spec.location)));
  const auto& l2g = maps.local_to_global[loc_index(spec.location)];
  dst = HostTable<T>(l2g.size(), src.cols());
  for (std::size_t i = 0; i < l2g.size(); ++i)
    for (std::size_t j = 0; j < src.cols(); ++j)
      dst(i, j) = src(static_cast<std::size_t>(l2g[i]), j);
  if constexpr (std::is_same_v<T, index_t>) {
    // A connectivity: renumber its values (global indices of the target location).
    const auto& g2l = maps.global_to_local[loc_index(target_location(spec.neighbours))];
    for (std::size_t i = 0; i < dst.rows(); ++i)
      for (std::size_t j = 0; j < dst.cols(); ++j) {
        const index_t v = dst(i, j);
        if (v == missing_index) continue;
        if (v < 0 || static_cast<std::size_t>(v) >= g2l.size())
          throw GridError(
              fmt::format("decomposition: the global grid's {}({}, {}) = {} is outside [0, {})",
                          spec.name, l2g[i], j, v, g2l.size()));
        dst(i, j) = g2l[static_cast<std::size_t>(v)];
      }
  }
}

}  // namespace

Grid make_local_grid(const Grid& global, const std::vector<int>& cell_owner, int rank,
                     int num_ranks) {
  const index_t nc = global.num_cells, ne = global.num_edges, nv = global.num_vertices;
  if (num_ranks < 1)
    throw InvalidArgument(
        fmt::format("make_local_grid: num_ranks = {}, expected at least 1", num_ranks));
  if (rank < 0 || rank >= num_ranks)
    throw InvalidArgument(
        fmt::format("make_local_grid: rank {} is outside [0, {})", rank, num_ranks));
  if (global.num_ranks != 1)
    throw InvalidArgument(fmt::format(
        "make_local_grid: grid '{}' is already rank {}'s part of a decomposition over {} ranks; "
        "pass the global grid",
        global.name, global.rank, global.num_ranks));
  if (cell_owner.size() != static_cast<std::size_t>(nc))
    throw InvalidArgument(
        fmt::format("make_local_grid: cell_owner has {} entries, but grid '{}' has {} cells",
                    cell_owner.size(), global.name, nc));
  index_t owned_count = 0;
  for (std::size_t c = 0; c < cell_owner.size(); ++c) {
    if (cell_owner[c] < 0 || cell_owner[c] >= num_ranks)
      throw InvalidArgument(
          fmt::format("make_local_grid: cell_owner[{}] = {} is outside [0, {}) (num_ranks = {})", c,
                      cell_owner[c], num_ranks, num_ranks));
    if (cell_owner[c] == rank) ++owned_count;
  }
  if (owned_count == 0)
    throw InvalidArgument(fmt::format(
        "make_local_grid: rank {} owns no cell of grid '{}' under cell_owner (every rank must "
        "own at least one cell)",
        rank, global.name));
  check_rows(global.c2e2c, "c2e2c", nc, 3);
  check_rows(global.c2e, "c2e", nc, 3);
  check_rows(global.c2v, "c2v", nc, 3);
  check_rows(global.e2c, "e2c", ne, 2);
  check_rows(global.v2e, "v2e", nv, 6);
  check_rows(global.v2c, "v2c", nv, 6);
  for (Location l : all_locations)
    if (global.refin_ctrl[loc_index(l)].size() != static_cast<std::size_t>(global.size(l)))
      throw GridError(
          fmt::format("make_local_grid: the global grid's {} refin_ctrl has {} "
                      "values for {} points",
                      to_string(l), global.refin_ctrl[loc_index(l)].size(), global.size(l)));

  // ---- Which points (ICON4Py IconLikeHaloConstructor.__call__, step by step) ----------------
  Marks owned_cells(static_cast<std::size_t>(nc), 0);
  for (std::size_t c = 0; c < cell_owner.size(); ++c) owned_cells[c] = cell_owner[c] == rank;
  // first halo line: C2E2C neighbours of owned cells
  const Marks first_halo_cells =
      set_minus(neighbours_of(global.c2e2c, owned_cells, nc), owned_cells);
  // the line after it (only used to find the vertices on the cutting line)
  const Marks owned_or_first = set_or(owned_cells, first_halo_cells);
  const Marks next_line =
      set_minus(neighbours_of(global.c2e2c, owned_or_first, nc), owned_or_first);
  const Marks vertex_on_owned_cells = neighbours_of(global.c2v, owned_cells, nv);
  const Marks vertex_on_halo_cells =
      neighbours_of(global.c2v, set_or(first_halo_cells, next_line), nv);
  const Marks vertex_on_cutting_line = set_and(vertex_on_owned_cells, vertex_on_halo_cells);
  // cells of the dual hexagons of the cutting-line vertices
  const Marks dual_cells = neighbours_of(global.v2c, vertex_on_cutting_line, nc);
  const Marks total_halo_cells = set_minus(dual_cells, owned_cells);
  const Marks second_halo_cells = set_minus(total_halo_cells, first_halo_cells);

  std::array<std::vector<int>, 3> halo;   // per global point: -1 not local, else the halo line
  std::array<std::vector<int>, 3> owner;  // per global point: owner rank (valid where local)
  auto& cell_halo = halo[loc_index(Location::Cell)];
  cell_halo.assign(static_cast<std::size_t>(nc), -1);
  for (std::size_t c = 0; c < cell_halo.size(); ++c) {
    if (owned_cells[c])
      cell_halo[c] = 0;
    else if (first_halo_cells[c])
      cell_halo[c] = 1;
    else if (second_halo_cells[c])
      cell_halo[c] = 2;
  }
  owner[loc_index(Location::Cell)] = cell_owner;

  // Vertices: those of owned cells (owned unless on the cutting line and a higher rank has a
  // cell there: then halo line 1), and those of halo cells off the cutting line (line 2).
  const Marks vertex_second_halo = set_minus(vertex_on_halo_cells, vertex_on_cutting_line);
  auto& vertex_halo = halo[loc_index(Location::Vertex)];
  auto& vertex_owner = owner[loc_index(Location::Vertex)];
  vertex_halo.assign(static_cast<std::size_t>(nv), -1);
  vertex_owner.assign(static_cast<std::size_t>(nv), -1);
  for (index_t v = 0; v < nv; ++v) {
    const auto i = static_cast<std::size_t>(v);
    if (!vertex_on_owned_cells[i] && !vertex_second_halo[i]) continue;
    vertex_owner[i] = max_rank_owner(global.v2c, v, cell_owner);
    if (vertex_on_owned_cells[i]) {
      const bool owned = !vertex_on_cutting_line[i] || vertex_owner[i] <= rank;
      vertex_halo[i] = owned ? 0 : 1;
    } else {
      vertex_halo[i] = 2;
    }
  }

  // Edges: those of owned cells (owned unless on the cutting line and owned by a higher rank:
  // line 1); those at a cutting-line vertex (line 2); those closing the halo cells (ICON4Py's
  // third level, not in ICON: level 3 here, stored after line 2).
  const Marks edge_on_owned_cells = neighbours_of(global.c2e, owned_cells, ne);
  const Marks edge_on_any_halo_line = neighbours_of(global.c2e, total_halo_cells, ne);
  const Marks edge_on_cutting_line = set_and(edge_on_owned_cells, edge_on_any_halo_line);
  const Marks edge_second_level =
      set_minus(neighbours_of(global.v2e, vertex_on_cutting_line, ne), edge_on_owned_cells);
  const Marks edge_third_level =
      set_minus(set_minus(edge_on_any_halo_line, edge_second_level), edge_on_cutting_line);
  auto& edge_halo = halo[loc_index(Location::Edge)];
  auto& edge_owner = owner[loc_index(Location::Edge)];
  edge_halo.assign(static_cast<std::size_t>(ne), -1);
  edge_owner.assign(static_cast<std::size_t>(ne), -1);
  for (index_t e = 0; e < ne; ++e) {
    const auto i = static_cast<std::size_t>(e);
    if (!edge_on_owned_cells[i] && !edge_second_level[i] && !edge_third_level[i]) continue;
    edge_owner[i] = max_rank_owner(global.e2c, e, cell_owner);
    if (edge_on_owned_cells[i]) {
      const bool owned = !edge_on_cutting_line[i] || edge_owner[i] <= rank;
      edge_halo[i] = owned ? 0 : 1;
    } else {
      // ICON4Py's third level is stored last, after HALO_LEVEL_2, so no granule range reaches
      // it: its outer cells are not local (e2c2v would be incomplete), and ICON has no such
      // edges at all. It completes C2E of the halo cells.
      edge_halo[i] = edge_second_level[i] ? 2 : 3;
    }
  }

  // ---- Local order and the maps -------------------------------------------------------------
  std::array<LocalPoints, 3> points;
  LocalMaps maps;
  for (Location l : all_locations) {
    const int li = loc_index(l);
    points[li] = order_points(l, global.refin_ctrl[li], halo[li], owner[li]);
    maps.local_to_global[li] = points[li].global;
    maps.global_to_local[li].assign(static_cast<std::size_t>(global.size(l)), missing_index);
    for (std::size_t i = 0; i < points[li].global.size(); ++i)
      maps.global_to_local[li][static_cast<std::size_t>(points[li].global[i])] =
          static_cast<index_t>(i);
  }

  // ---- The local grid -----------------------------------------------------------------------
  Grid local;
  local.name =
      num_ranks == 1 ? global.name : fmt::format("{} rank {}/{}", global.name, rank, num_ranks);
  local.source = global.source;  // what to load; rank/num_ranks say which part
  local.uuid = global.uuid;
  local.grid_root = global.grid_root;
  local.grid_level = global.grid_level;
  local.sphere_radius = global.sphere_radius;
  local.num_cells = static_cast<index_t>(points[loc_index(Location::Cell)].global.size());
  local.num_edges = static_cast<index_t>(points[loc_index(Location::Edge)].global.size());
  local.num_vertices = static_cast<index_t>(points[loc_index(Location::Vertex)].global.size());
  local.rank = rank;
  local.num_ranks = num_ranks;

  // Every per-point table of the field list: gathered at the local points; connectivity values
  // (including the derived tables, which need no rebuilding: see the header) renumbered.
  Grid::for_each_field(
      [&](const FieldSpec& spec, auto& dst, const auto& src) {
        gather(spec, dst, src, maps, global.size(spec.location));
      },
      local, global);

  for (Location l : all_locations) {
    const int li = loc_index(l);
    const auto& g = global.refin_ctrl[li];
    auto& r = local.refin_ctrl[li];
    r.resize(points[li].global.size());
    for (std::size_t i = 0; i < r.size(); ++i)
      r[i] = g[static_cast<std::size_t>(points[li].global[i])];
  }

  if (num_ranks > 1) {
    for (Location l : all_locations) local.halo_level[loc_index(l)] = points[loc_index(l)].halo;
    local.cell_global_index = points[loc_index(Location::Cell)].global;
    local.edge_global_index = points[loc_index(Location::Edge)].global;
    local.vertex_global_index = points[loc_index(Location::Vertex)].global;
    local.cell_owner_rank = points[loc_index(Location::Cell)].owner;
    local.edge_owner_rank = points[loc_index(Location::Edge)].owner;
    local.vertex_owner_rank = points[loc_index(Location::Vertex)].owner;
  }

  try {
    compute_grid_zones(local);
  } catch (const Error& e) {
    throw GridError(fmt::format("make_local_grid: rank {} of {} of grid '{}': {}", rank, num_ranks,
                                global.name, e.what()));
  }
  // A property of the whole grid: a LAM rank far from the boundary has no boundary row, but its
  // kernels must still use the limited-area formulas.
  local.limited_area = global.limited_area;
  return local;
}

}  // namespace icondiff
