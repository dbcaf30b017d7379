// A rank's part of fields known on the whole grid: every field of a state struct (any struct
// declared with ICONDIFF_STATE_FIELDS) restricted to the points of a local grid, by the local
// grid's global indices. This is how a standalone decomposition gives each rank the values of the
// global factories (geometry, interpolation coefficients, metrics) and of an initial state, so a
// decomposed run starts from exactly the single-rank numbers; and, the other way, how a rank's
// owned values are compared with or written into a global field.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/grid/grid.hpp>

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

}  // namespace icondiff
