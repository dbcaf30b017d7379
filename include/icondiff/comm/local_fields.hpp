// A rank's part of fields known on the whole grid: every field of a state struct (any struct
// declared with ICONDIFF_STATE_FIELDS) restricted to the points of a local grid, by the local
// grid's global indices. This is how a standalone decomposition gives each rank the values of the
// global factories (geometry, interpolation coefficients, metrics) and of an initial state, so a
// decomposed run starts from exactly the single-rank numbers; and, the other way, how a rank's
// owned values are compared with or written into a global field (assemble_global: the owned
// points of every rank's part put back together, as for one output file or a replay of per-rank
// savepoints on one rank).
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/grid/grid.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {

/// The global index of every local point of `location` (identity when the grid is not
/// decomposed).
inline std::vector<index_t> local_to_global(const Grid& local, Location location) {
  const std::vector<index_t>& g = local.global_index(location);
  if (!g.empty()) return g;
  std::vector<index_t> identity(static_cast<std::size_t>(local.size(location)));
  for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<index_t>(i);
  return identity;
}

/// Every field of `global` (host Views over the whole grid) restricted to the points of `local`:
/// new host Views (labels "<scope><field>") whose point i holds the global point
/// local_to_global(i). Empty fields stay empty. Throws InvalidArgument naming the field when a
/// field's point extent is not the global size of its location or a global index is out of it.
template <template <class> class State>
State<Kokkos::HostSpace> restrict_to_local(const State<Kokkos::HostSpace>& global,
                                           const Grid& local, const FieldSizes& global_sizes,
                                           const std::string& scope) {
  using H = Kokkos::HostSpace;
  State<H> out;
  const std::vector<index_t> maps[3] = {local_to_global(local, Location::Cell),
                                        local_to_global(local, Location::Edge),
                                        local_to_global(local, Location::Vertex)};
  State<H>::for_each_field(
      [&](const FieldSpec& spec, auto& to, const auto& from) {
        using V = std::decay_t<decltype(to)>;
        if (from.size() == 0) return;
        const std::vector<index_t>& map = maps[static_cast<int>(spec.location)];
        const std::size_t n_global = global_sizes.points(spec.location);
        if (from.extent(0) != n_global)
          throw InvalidArgument(std::string("restrict_to_local: ") + spec.name + " has " +
                                std::to_string(from.extent(0)) + " points, the global grid " +
                                std::to_string(n_global));
        const std::string label = scope + spec.name;
        const std::size_t n = map.size();
        if constexpr (V::rank == 1) {
          to = V(label, n);
        } else if constexpr (V::rank == 2) {
          to = V(label, n, from.extent(1));
        } else {
          to = V(label, n, from.extent(1), from.extent(2));
        }
        for (std::size_t i = 0; i < n; ++i) {
          const auto g = static_cast<std::size_t>(map[i]);
          if (g >= n_global)
            throw InvalidArgument(std::string("restrict_to_local: ") + spec.name +
                                  ": global index " + std::to_string(g) + " of local point " +
                                  std::to_string(i) + " is outside the global grid");
          if constexpr (V::rank == 1) {
            to(i) = from(g);
          } else if constexpr (V::rank == 2) {
            for (std::size_t a = 0; a < from.extent(1); ++a) to(i, a) = from(g, a);
          } else {
            for (std::size_t a = 0; a < from.extent(1); ++a)
              for (std::size_t b = 0; b < from.extent(2); ++b) to(i, a, b) = from(g, a, b);
          }
        }
      },
      out, global);
  return out;
}

/// Where one rank's local points sit in the whole grid: what its part of a field needs to be put
/// back together with the other ranks' parts.
struct RankPoints {
  int rank = 0;
  int num_ranks = 1;
  std::array<index_t, 3> global_size{};              ///< whole-grid cells, edges, vertices
  std::array<std::vector<index_t>, 3> global_index;  ///< per location and local point
  std::array<std::vector<int>, 3> owner_rank;        ///< per location and local point

  std::size_t size(Location location) const {
    return global_index[static_cast<int>(location)].size();
  }
  bool owns(Location location, std::size_t point) const {
    return owner_rank[static_cast<int>(location)][point] == rank;
  }
};

/// The RankPoints of `local` in a whole grid of `global_sizes` (a grid that is not decomposed: the
/// identity, every point owned by rank 0).
inline RankPoints rank_points(const Grid& local, const FieldSizes& global_sizes) {
  RankPoints p;
  p.rank = local.rank;
  p.num_ranks = local.num_ranks;
  for (Location location : all_locations) {
    const int l = static_cast<int>(location);
    p.global_size[l] = static_cast<index_t>(global_sizes.points(location));
    p.global_index[l] = local_to_global(local, location);
    p.owner_rank[l] = local.owner_rank(location);
    if (p.owner_rank[l].empty()) p.owner_rank[l].assign(p.global_index[l].size(), local.rank);
  }
  return p;
}

/// Throws InvalidArgument unless `parts` describe one decomposition of one grid: the same number of
/// ranks and global sizes, each rank once, every global point of every location owned by exactly
/// one part, owners in range and global indices inside the grid. The message names the location,
/// the global point and the ranks involved.
void check_rank_points(const std::vector<const RankPoints*>& parts);

/// The owned points of every rank's part put back together: new host Views over the whole grid
/// (labels "<scope><field>") where global point g holds the value of the part that owns g.
/// `parts[r]` is a state struct on `points[r]`'s local points. Fields that are empty in every part
/// stay empty. Throws InvalidArgument (check_rank_points, or a field whose extents differ between
/// parts or do not match its part's points).
template <template <class> class State>
State<Kokkos::HostSpace> assemble_global(const std::vector<const State<Kokkos::HostSpace>*>& parts,
                                         const std::vector<const RankPoints*>& points,
                                         const std::string& scope) {
  using H = Kokkos::HostSpace;
  if (parts.empty() || parts.size() != points.size())
    throw InvalidArgument("assemble_global: " + std::to_string(parts.size()) + " parts for " +
                          std::to_string(points.size()) + " ranks' points");
  check_rank_points(points);
  State<H> out;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    State<H> part = *parts[r];  // shallow: Views share the part's memory
    State<H>::for_each_field(
        [&](const FieldSpec& spec, auto& to, const auto& from) {
          using V = std::decay_t<decltype(to)>;
          const auto fail = [&](const std::string& problem) {
            throw InvalidArgument("assemble_global: " + std::string(spec.name) + " of rank " +
                                  std::to_string(points[r]->rank) + ": " + problem);
          };
          const RankPoints& p = *points[r];
          const int l = static_cast<int>(spec.location);
          if (r == 0 && from.size() != 0) {
            const auto n = static_cast<std::size_t>(p.global_size[l]);
            if constexpr (V::rank == 1) {
              to = V(scope + spec.name, n);
            } else if constexpr (V::rank == 2) {
              to = V(scope + spec.name, n, from.extent(1));
            } else {
              to = V(scope + spec.name, n, from.extent(1), from.extent(2));
            }
          }
          if ((from.size() == 0) != (to.size() == 0))
            fail(from.size() == 0 ? "empty, but not in rank 0's part" : "not empty as in rank 0's");
          if (from.size() == 0) return;
          if (from.extent(0) != p.size(spec.location))
            fail(std::to_string(from.extent(0)) + " points, the rank has " +
                 std::to_string(p.size(spec.location)));
          for (unsigned d = 1; d < V::rank; ++d)
            if (from.extent(d) != to.extent(d))
              fail("extent " + std::to_string(from.extent(d)) + " in dimension " +
                   std::to_string(d) + ", rank 0's part has " + std::to_string(to.extent(d)));
          const std::vector<index_t>& map = p.global_index[l];
          for (std::size_t i = 0; i < map.size(); ++i) {
            if (!p.owns(spec.location, i)) continue;
            const auto g = static_cast<std::size_t>(map[i]);
            if constexpr (V::rank == 1) {
              to(g) = from(i);
            } else if constexpr (V::rank == 2) {
              for (std::size_t a = 0; a < from.extent(1); ++a) to(g, a) = from(i, a);
            } else {
              for (std::size_t a = 0; a < from.extent(1); ++a)
                for (std::size_t b = 0; b < from.extent(2); ++b) to(g, a, b) = from(i, a, b);
            }
          }
        },
        out, part);
  }
  return out;
}

}  // namespace icondiff
