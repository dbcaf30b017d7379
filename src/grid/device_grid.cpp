#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/grid/device_grid.hpp>

#include <string>
#include <type_traits>

namespace icondiff {

template <class MemorySpace>
DeviceGrid<MemorySpace>::DeviceGrid(const Grid& g)
    : num_cells(g.num_cells),
      num_edges(g.num_edges),
      num_vertices(g.num_vertices),
      limited_area(g.limited_area),
      rank(g.rank),
      num_ranks(g.num_ranks),
      zones(g.zones) {
  for_each_field(
      [](const FieldSpec& spec, auto& device, const auto& host) {
        using T = std::remove_const_t<typename std::decay_t<decltype(device)>::value_type>;
        device = copy_to_view<T, MemorySpace>(std::string("icondiff::grid::") + spec.name, host);
      },
      *this, g);
}

#define ICONDIFF_INSTANTIATE_DEVICE_GRID(SPACE) template struct DeviceGrid<SPACE>;
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_DEVICE_GRID)

}  // namespace icondiff
