// Local grids from the ranks' blocks of a grid file, and the bisection partition of the blocks'
// cells (comm/local_grid_from_blocks.hpp).
#include <icondiff/comm/local_grid_from_blocks.hpp>

#if ICONDIFF_HAVE_MPI

#include "all_to_all_routes.hpp"

#include <icondiff/comm/block_rows.hpp>
#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/grid/zones.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

namespace icondiff {

namespace {

/// How far the patch reaches from the owned cells, in rings of cells sharing a vertex.
/// make_local_grid looks at most three rings out: the owners of the cells around the vertices
/// of the cells two C2E2C steps away (the second halo line's vertices), and the far vertices and
/// edges (e2c2v, e2c2e) of the cells of the halo edges.
constexpr int patch_rings = 3;

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

using Ids = std::vector<index_t>;  ///< sorted global indices without repeats

Ids valid_entries(const HostTable<index_t>& rows) {
  Ids ids;
  ids.reserve(rows.rows() * rows.cols());
  for (std::size_t i = 0; i < rows.rows(); ++i)
    for (std::size_t j = 0; j < rows.cols(); ++j)
      if (rows(i, j) != missing_index) ids.push_back(rows(i, j));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Ids minus(const Ids& a, const Ids& b) {
  Ids r;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}

Ids merged(const Ids& a, const Ids& b) {
  Ids r;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}

/// The global indices of the cells this rank owns: each block cell goes to its owner.
Ids owned_cells(MPI_Comm comm, const GridBlock& block, const std::vector<int>& block_owner) {
  const int size = mpi_size(comm);
  std::vector<int> counts(static_cast<std::size_t>(size), 0);
  for (const int r : block_owner) ++counts[static_cast<std::size_t>(r)];
  std::vector<long long> packed(block_owner.size());
  std::vector<int> next(static_cast<std::size_t>(size), 0);
  for (int r = 1; r < size; ++r) next[r] = next[r - 1] + counts[r - 1];
  const index_t first = block.begin[static_cast<int>(Location::Cell)];
  for (std::size_t i = 0; i < block_owner.size(); ++i)
    packed[static_cast<std::size_t>(next[block_owner[i]]++)] =
        static_cast<long long>(first) + static_cast<long long>(i);
  const detail::AllToAllRoutes routes(comm, counts);
  const std::vector<char> bytes = routes.forward(packed.data(), sizeof(long long));
  Ids owned(routes.received());
  for (std::size_t i = 0; i < owned.size(); ++i) {
    long long g = 0;
    std::memcpy(&g, bytes.data() + i * sizeof g, sizeof g);
    owned[i] = static_cast<index_t>(g);
  }
  std::sort(owned.begin(), owned.end());
  return owned;
}

enum class Ring { edge, vertex };

/// `cells` and `rings` rings around them: each ring the cells across an edge of the last one's
/// (C2E2C) or sharing a vertex with them (C2V, then V2C). Collective.
Ids grow(MPI_Comm comm, const GridBlock& block, Ids cells, int rings, Ring kind) {
  Ids frontier = cells, vertices;
  for (int ring = 0; ring < rings; ++ring) {
    const BlockRowRequest at_cells(comm, static_cast<std::size_t>(block.total[0]), frontier);
    Ids reached;
    if (kind == Ring::edge) {
      reached = valid_entries(at_cells.fetch(block.rows.c2e2c));
    } else {
      const Ids new_vertices = minus(valid_entries(at_cells.fetch(block.rows.c2v)), vertices);
      vertices = merged(vertices, new_vertices);
      const BlockRowRequest at_vertices(comm, static_cast<std::size_t>(block.total[2]),
                                        new_vertices);
      reached = valid_entries(at_vertices.fetch(block.rows.v2c));
    }
    frontier = minus(reached, cells);
    cells = merged(cells, frontier);
  }
  return cells;
}

/// The patch: the whole grid's rows of `ids` (per location, sorted), connectivity renumbered to
/// patch indices (missing_index where the neighbour lies outside the patch), derived tables built.
/// Patch indices grow with global indices, so make_local_grid orders the patch's points as it
/// would order the whole grid's.
Grid make_patch(MPI_Comm comm, const GridBlock& block, const std::array<Ids, 3>& ids,
                bool limited_area) {
  const Grid& rows = block.rows;
  Grid patch;
  patch.name = rows.name;
  patch.source = rows.source;
  patch.uuid = rows.uuid;
  patch.grid_root = rows.grid_root;
  patch.grid_level = rows.grid_level;
  patch.sphere_radius = rows.sphere_radius;
  patch.num_cells = static_cast<index_t>(ids[0].size());
  patch.num_edges = static_cast<index_t>(ids[1].size());
  patch.num_vertices = static_cast<index_t>(ids[2].size());
  std::array<BlockRowRequest, 3> requests = {
      BlockRowRequest(comm, static_cast<std::size_t>(block.total[0]), ids[0]),
      BlockRowRequest(comm, static_cast<std::size_t>(block.total[1]), ids[1]),
      BlockRowRequest(comm, static_cast<std::size_t>(block.total[2]), ids[2])};
  Grid::for_each_field(
      [&](const FieldSpec& spec, auto& dst, const auto& src) {
        // Every rank has the same tables (all from the file's variables), so every rank makes
        // the same collective calls.
        if (src.empty()) return;
        const auto& request = requests[static_cast<int>(spec.location)];
        using Container = std::decay_t<decltype(dst)>;
        if constexpr (std::is_same_v<Container, HostTable<index_t>>) {
          dst = request.fetch(src);
          const Ids& target = ids[static_cast<int>(target_location(spec.neighbours))];
          for (std::size_t i = 0; i < dst.rows(); ++i)
            for (std::size_t j = 0; j < dst.cols(); ++j) {
              index_t& v = dst(i, j);
              if (v == missing_index) continue;
              const auto it = std::lower_bound(target.begin(), target.end(), v);
              v = it != target.end() && *it == v ? static_cast<index_t>(it - target.begin())
                                                 : missing_index;
            }
        } else if constexpr (is_vector<Container>::value) {
          dst = request.fetch(src, 1);
        } else {
          dst = request.fetch(src);
        }
      },
      patch, rows);
  for (int l = 0; l < 3; ++l) patch.refin_ctrl[l] = requests[l].fetch(rows.refin_ctrl[l], 1);
  build_derived_connectivity(patch);
  patch.limited_area = limited_area;
  return patch;
}

}  // namespace

LocalGrids local_grids_from_blocks(MPI_Comm comm, const GridBlock& block,
                                   const std::vector<int>& block_owner, int margin) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  const Location cell = Location::Cell;
  collectively(comm, [&] {
    if (block.block != rank || block.num_blocks != size)
      throw InvalidArgument(fmt::format(
          "local_grid_from_blocks: this rank ({} of {}) holds block {} of {} of grid '{}'; each "
          "rank needs its own block of a cut into as many blocks as ranks",
          rank, size, block.block, block.num_blocks, block.rows.name));
    if (block_owner.size() != static_cast<std::size_t>(block.rows.num_cells))
      throw InvalidArgument(
          fmt::format("local_grid_from_blocks: {} owners for the {} cells of the block",
                      block_owner.size(), block.rows.num_cells));
    if (margin < 0)
      throw InvalidArgument(
          fmt::format("local_grids_from_blocks: margin = {}, expected >= 0 (C2E2C steps)", margin));
    for (std::size_t i = 0; i < block_owner.size(); ++i)
      if (block_owner[i] < 0 || block_owner[i] >= size)
        throw InvalidArgument(fmt::format(
            "local_grid_from_blocks: cell {} has owner {}, outside [0, {}) (the ranks)",
            block.begin[static_cast<int>(cell)] + static_cast<index_t>(i), block_owner[i], size));
  });

  // A property of the whole grid: any block's boundary row makes the grid limited-area.
  int lam = has_lateral_boundary(cell, block.rows.refin_ctrl[0]) ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &lam, 1, MPI_INT, MPI_LOR, comm), "MPI_Allreduce");

  // ---- Which points: the owned cells and the rings of cells around them ---------------------
  // Extended grid: one ring of cells sharing a vertex holds the local grid's cells, `margin`
  // C2E2C steps the extended grid's own cells, and patch_rings more what make_local_grid looks at.
  const Ids owned = owned_cells(comm, block, block_owner);
  Ids cells = margin > 0
                  ? grow(comm, block, grow(comm, block, owned, 1, Ring::vertex), margin, Ring::edge)
                  : owned;
  cells = grow(comm, block, cells, patch_rings, Ring::vertex);
  // Every edge and vertex of the patch's cells.
  std::array<Ids, 3> ids;
  ids[0] = cells;
  {
    const BlockRowRequest at_cells(comm, static_cast<std::size_t>(block.total[0]), cells);
    ids[1] = valid_entries(at_cells.fetch(block.rows.c2e));
    ids[2] = valid_entries(at_cells.fetch(block.rows.c2v));
  }
  const Grid patch = make_patch(comm, block, ids, lam != 0);
  std::vector<int> patch_owner =
      BlockRowRequest(comm, static_cast<std::size_t>(block.total[0]), ids[0]).fetch(block_owner, 1);

  LocalGrids grids;
  collectively(comm, [&] {
    grids.local = make_local_grid(patch, patch_owner, rank, size);
    if (margin > 0) {
      // The extended grid: this rank owns every cell within `margin` C2E2C steps of its local
      // cells (a fiction for the factories; the patch holds them and their halo).
      std::vector<char> mine(patch_owner.size(), 0);
      if (size == 1)
        mine.assign(mine.size(), 1);
      else
        for (const index_t c : grids.local.cell_global_index) mine[static_cast<std::size_t>(c)] = 1;
      for (int step = 0; step < margin; ++step) {
        const std::vector<char> before = mine;
        for (std::size_t c = 0; c < before.size(); ++c) {
          if (!before[c]) continue;
          for (int j = 0; j < 3; ++j) {
            const index_t n = patch.c2e2c(c, j);
            if (n != missing_index) mine[static_cast<std::size_t>(n)] = 1;
          }
        }
      }
      std::vector<int> grown_owner = patch_owner;
      for (std::size_t c = 0; c < mine.size(); ++c)
        if (mine[c]) grown_owner[c] = rank;
      grids.extended = make_local_grid(patch, grown_owner, rank, size);
      // The true owners of the extended grid's points (ICON's convention for edges and vertices:
      // the highest rank among their cells, all of which the patch holds).
      if (size > 1)
        for (const Location l : all_locations) {
          const HostTable<index_t>* cells_of = l == Location::Edge     ? &patch.e2c
                                               : l == Location::Vertex ? &patch.v2c
                                                                       : nullptr;
          auto& owner = grids.extended_owner[static_cast<int>(l)];
          for (const index_t p : grids.extended.global_index(l)) {
            const auto i = static_cast<std::size_t>(p);
            int o = cells_of ? -1 : patch_owner[i];
            if (cells_of)
              for (std::size_t j = 0; j < cells_of->cols(); ++j) {
                const index_t c = (*cells_of)(i, j);
                if (c != missing_index) o = std::max(o, patch_owner[static_cast<std::size_t>(c)]);
              }
            owner.push_back(o);
          }
        }
    }
    if (size > 1)
      for (Grid* g : {&grids.local, &grids.extended})
        for (const Location l : all_locations) {
          const Ids& patch_ids = ids[static_cast<int>(l)];
          for (index_t& i : g->global_index(l)) i = patch_ids[static_cast<std::size_t>(i)];
        }
  });
  return grids;
}

Grid local_grid_from_blocks(MPI_Comm comm, const GridBlock& block,
                            const std::vector<int>& block_owner) {
  return local_grids_from_blocks(comm, block, block_owner, 0).local;
}

std::vector<int> bisection_partition(MPI_Comm comm, const GridBlock& block) {
  const int size = mpi_size(comm);
  const Grid& rows = block.rows;
  const auto n = static_cast<std::size_t>(rows.num_cells);
  collectively(comm, [&] {
    if (block.total[0] < size)
      throw InvalidArgument(
          fmt::format("{} ranks for grid '{}' of {} cells: every rank needs at least one cell",
                      size, rows.name, block.total[0]));
    if (rows.cell_lon.size() != n || rows.cell_lat.size() != n)
      throw InvalidArgument(fmt::format(
          "bisection_partition: grid '{}' has no cell centres to cut along", rows.name));
  });
  std::vector<std::array<double, 3>> xyz(n);
  for (std::size_t i = 0; i < n; ++i)
    xyz[i] = {std::cos(rows.cell_lat[i]) * std::cos(rows.cell_lon[i]),
              std::cos(rows.cell_lat[i]) * std::sin(rows.cell_lon[i]), std::sin(rows.cell_lat[i])};

  struct Part {
    int first_rank, ranks;
  };
  std::vector<Part> parts = {{0, size}};
  std::vector<int> part_of(n, 0);
  while (std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.ranks > 1; })) {
    const std::size_t np = parts.size();
    // Bounding boxes (minima of x and of -x) and cell counts of every part, over all ranks.
    std::vector<double> bounds(np * 6, std::numeric_limits<double>::infinity());
    std::vector<long long> counts(np, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = static_cast<std::size_t>(part_of[i]);
      ++counts[p];
      for (int k = 0; k < 3; ++k) {
        bounds[p * 6 + k] = std::min(bounds[p * 6 + k], xyz[i][k]);
        bounds[p * 6 + 3 + k] = std::min(bounds[p * 6 + 3 + k], -xyz[i][k]);
      }
    }
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, bounds.data(), static_cast<int>(bounds.size()),
                            MPI_DOUBLE, MPI_MIN, comm),
              "MPI_Allreduce");
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(np), MPI_LONG_LONG,
                            MPI_SUM, comm),
              "MPI_Allreduce");
    std::vector<int> axis(np, 0);
    std::vector<double> lo(np), hi(np);
    std::vector<long long> target(np, 0);
    for (std::size_t p = 0; p < np; ++p) {
      double widest = -1;
      for (int k = 0; k < 3; ++k) {
        const double width = -bounds[p * 6 + 3 + k] - bounds[p * 6 + k];
        if (width > widest) widest = width, axis[p] = k;
      }
      lo[p] = bounds[p * 6 + axis[p]];
      hi[p] = -bounds[p * 6 + 3 + axis[p]];
      // The lower half gets ranks/2 ranks and its share of the cells.
      target[p] = counts[p] * (parts[p].ranks / 2) / std::max(parts[p].ranks, 1);
    }
    // Bisection for the cut: the fewest cells below it that reach the target.
    for (int iteration = 0; iteration < 64; ++iteration) {
      std::vector<double> mid(np);
      for (std::size_t p = 0; p < np; ++p) mid[p] = lo[p] + (hi[p] - lo[p]) / 2;
      std::vector<long long> below(np, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = static_cast<std::size_t>(part_of[i]);
        below[p] += xyz[i][axis[p]] < mid[p];
      }
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, below.data(), static_cast<int>(np), MPI_LONG_LONG,
                              MPI_SUM, comm),
                "MPI_Allreduce");
      for (std::size_t p = 0; p < np; ++p) (below[p] < target[p] ? lo[p] : hi[p]) = mid[p];
    }
    // The lower half keeps number 2p, the upper one 2p+1 (parts of one rank split no further).
    std::vector<Part> next;
    std::vector<int> lower(np), upper(np);
    for (std::size_t p = 0; p < np; ++p) {
      lower[p] = upper[p] = static_cast<int>(next.size());
      if (parts[p].ranks == 1) {
        next.push_back(parts[p]);
        continue;
      }
      const int half = parts[p].ranks / 2;
      next.push_back({parts[p].first_rank, half});
      upper[p] = static_cast<int>(next.size());
      next.push_back({parts[p].first_rank + half, parts[p].ranks - half});
    }
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = static_cast<std::size_t>(part_of[i]);
      part_of[i] = xyz[i][axis[p]] < hi[p] ? lower[p] : upper[p];
    }
    parts = std::move(next);
  }
  std::vector<int> owner(n);
  for (std::size_t i = 0; i < n; ++i)
    owner[i] = parts[static_cast<std::size_t>(part_of[i])].first_rank;

  std::vector<long long> owned(static_cast<std::size_t>(size), 0);
  for (const int r : owner) ++owned[static_cast<std::size_t>(r)];
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, owned.data(), size, MPI_LONG_LONG, MPI_SUM, comm),
            "MPI_Allreduce");
  for (int r = 0; r < size; ++r)
    if (owned[static_cast<std::size_t>(r)] == 0)
      throw CollectiveError(fmt::format(
          "the bisection of grid '{}' ({} cells) left rank {} of {} without cells; use fewer "
          "ranks or a partition file (--partition)",
          rows.name, block.total[0], r, size));
  return owner;
}

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
