// A decomposed state put back together on one rank over MPI: every rank sends its whole local part
// (owned and halo points) to the root, which keeps each global point's value from its owner
// (assemble_global in comm/local_fields.hpp). For output files and reports, not for the time
// loop: it moves the whole state through one rank.
//
// Compiled only with ICONDIFF_ENABLE_MPI (config.hpp: ICONDIFF_HAVE_MPI).
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/mpi_collectives.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {

/// Collective: every rank's points, in rank order, on `root` (an empty vector on the others).
std::vector<RankPoints> gather_rank_points(MPI_Comm comm, const RankPoints& mine, int root);

namespace detail {
/// Collective: `count` elements of `element_bytes` bytes from every rank; on `root` the
/// concatenation in rank order and each rank's count (empty elsewhere).
std::vector<char> gather_elements(MPI_Comm comm, const void* data, long long count,
                                  std::size_t element_bytes, int root,
                                  std::vector<long long>& counts);
}  // namespace detail

/// Collective: `local` (a host state struct on this rank's points) put together with every other
/// rank's on `root`: the whole-grid state there (nullopt on the other ranks). `points` are
/// gather_rank_points()'s result (used on the root only). Throws CollectiveError on every rank when
/// the parts do not fit together.
template <template <class> class State>
std::optional<State<Kokkos::HostSpace>> gather_to_root(MPI_Comm comm,
                                                       const State<Kokkos::HostSpace>& local,
                                                       const std::vector<RankPoints>& points,
                                                       int root, const std::string& scope) {
  using H = Kokkos::HostSpace;
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  // Phase 1, every rank, field by field: the raw elements of every rank's part to the root.
  struct Gathered {
    std::vector<char> data;
    std::vector<long long> counts;  ///< elements per rank
  };
  std::vector<Gathered> gathered;
  State<H> mine = local;
  State<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& field) {
        using V = std::decay_t<decltype(field)>;
        using T = typename V::non_const_value_type;
        // A dense LayoutLeft View is sent as it is; a padded one is packed into a dense copy first.
        static_assert(std::is_same_v<typename V::array_layout, Kokkos::LayoutLeft>);
        Kokkos::View<typename V::non_const_data_type, Kokkos::LayoutLeft, H> packed;
        const bool dense = field.span_is_contiguous() && field.span() == field.size();
        if (field.size() != 0 && !dense) {
          packed = decltype(packed)(
              Kokkos::view_alloc(Kokkos::WithoutInitializing, scope + "gather_" + spec.name),
              field.layout());
          Kokkos::deep_copy(packed, field);
        }
        const T* data = dense ? field.data() : packed.data();
        Gathered& g = gathered.emplace_back();
        g.data = detail::gather_elements(comm, data, static_cast<long long>(field.size()),
                                         sizeof(T), root, g.counts);
      },
      mine);
  // Phase 2, root: each rank's part as Views (the point extent is elements / the other extents).
  std::vector<State<H>> parts(rank == root ? static_cast<std::size_t>(size) : 0);
  std::vector<std::size_t> offsets(gathered.size(), 0);
  std::string error;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    std::size_t f = 0;
    State<H>::for_each_field(
        [&](const FieldSpec& spec, auto& to, const auto& from) {
          using V = std::decay_t<decltype(to)>;
          using T = typename V::non_const_value_type;
          static_assert(std::is_same_v<typename V::array_layout, Kokkos::LayoutLeft>,
                        "the parts are copied as LayoutLeft blocks");
          Gathered& g = gathered[f];
          const long long n = g.counts[r];
          std::size_t& offset = offsets[f++];
          if (n == 0) return;
          if (from.size() == 0) {
            if (error.empty())
              error = std::string("gather_to_root: ") + spec.name + " is empty on the root rank " +
                      std::to_string(root) + " but not on rank " + std::to_string(r);
            return;
          }
          long long per_point = 1;
          for (unsigned d = 1; d < V::rank; ++d)
            per_point *= static_cast<long long>(from.extent(d));
          const auto points_of_rank = static_cast<std::size_t>(n / per_point);
          const std::string label = scope + spec.name;
          if constexpr (V::rank == 1) {
            to = V(label, points_of_rank);
          } else if constexpr (V::rank == 2) {
            to = V(label, points_of_rank, from.extent(1));
          } else {
            to = V(label, points_of_rank, from.extent(1), from.extent(2));
          }
          std::memcpy(to.data(), g.data.data() + offset, static_cast<std::size_t>(n) * sizeof(T));
          offset += static_cast<std::size_t>(n) * sizeof(T);
        },
        parts[r], mine);
  }
  std::optional<State<H>> out;
  collectively(comm, [&] {
    if (rank != root) return;
    if (!error.empty()) throw InvalidArgument(error);
    std::vector<const State<H>*> part_pointers;
    std::vector<const RankPoints*> point_pointers;
    for (int r = 0; r < size; ++r) {
      part_pointers.push_back(&parts[static_cast<std::size_t>(r)]);
      point_pointers.push_back(&points.at(static_cast<std::size_t>(r)));
    }
    out = assemble_global<State>(part_pointers, point_pointers, scope);
  });
  return out;
}

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
