// Neighbour tables without -1 entries, for programs that (like ICON4Py's) evaluate a stencil on
// every point of a domain, including the outermost boundary and halo points whose neighbours
// lie outside the grid. ICON4Py replaces each -1 by the largest valid index of the same row (a
// row without any valid entry becomes all 0: icon4py.model.common.grid.base._replace_skip_values);
// ICON does the same for the tables its dycore reads, with zero coefficients in those slots. The
// values computed on such points are never used, but reading them must stay inside the arrays
// and give the same numbers as ICON4Py.
#pragma once

#include <icondiff/core/types.hpp>

#include <string>

namespace icondiff {

/// A copy of `table` (points, slots) in the same memory space with every -1 replaced by the
/// largest valid index of its row, labelled `label`.
template <class MemorySpace>
Kokkos::View<const index_t**, TableLayout, MemorySpace> with_skip_values_replaced(
    const Kokkos::View<const index_t**, TableLayout, MemorySpace>& table,
    const std::string& label) {
  Kokkos::View<index_t**, TableLayout, MemorySpace> patched(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label), table.extent(0), table.extent(1));
  auto host = Kokkos::create_mirror_view(patched);
  Kokkos::deep_copy(host, table);
  for (std::size_t row = 0; row < host.extent(0); ++row) {
    index_t largest = -1;
    for (std::size_t slot = 0; slot < host.extent(1); ++slot)
      if (host(row, slot) > largest) largest = host(row, slot);
    if (largest < 0) largest = 0;
    for (std::size_t slot = 0; slot < host.extent(1); ++slot)
      if (host(row, slot) < 0) host(row, slot) = largest;
  }
  Kokkos::deep_copy(patched, host);
  return patched;
}

}  // namespace icondiff
