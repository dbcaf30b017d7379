// The C API's general part: errors, version, Kokkos lifetime and grid files. The granule on
// ICON's arrays is in icon_*.cpp (icon_granule.hpp), ICON4Py's drop-in functions in
// icon4py_bindings.cpp.
#include "capi_errors.hpp"
#include "kokkos_lifetime.hpp"

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/io/grid_file.hpp>

#include <icondiff_c.h>

#include <string>

struct icondiff_grid {
  icondiff::Grid grid;
};

using icondiff::capi::guarded;
using icondiff::capi::require_pointer;

extern "C" {

const char* icondiff_last_error(void) {
  return icondiff::capi::last_error().c_str();
}

void icondiff_version(int* major, int* minor, int* patch) {
  if (major) *major = ICONDIFF_VERSION_MAJOR;
  if (minor) *minor = ICONDIFF_VERSION_MINOR;
  if (patch) *patch = ICONDIFF_VERSION_PATCH;
}

icondiff_status icondiff_initialize(void) {
  return guarded([] { icondiff::capi::ensure_kokkos(); });
}

icondiff_status icondiff_finalize(void) {
  return guarded([] { icondiff::capi::finalize_kokkos(); });
}

int icondiff_is_initialized(void) {
  return icondiff::capi::kokkos_running() ? 1 : 0;
}

icondiff_status icondiff_grid_read(const char* path, icondiff_grid** grid) {
  return guarded([&] {
    require_pointer(path, "path");
    require_pointer(grid, "grid");
    *grid = nullptr;
    *grid = new icondiff_grid{icondiff::read_icon_grid(path)};
  });
}

void icondiff_grid_free(icondiff_grid* grid) {
  delete grid;
}

icondiff_status icondiff_grid_sizes(const icondiff_grid* grid, int* num_cells, int* num_edges,
                                    int* num_vertices, int* limited_area) {
  return guarded([&] {
    require_pointer(grid, "grid");
    if (num_cells) *num_cells = grid->grid.num_cells;
    if (num_edges) *num_edges = grid->grid.num_edges;
    if (num_vertices) *num_vertices = grid->grid.num_vertices;
    if (limited_area) *limited_area = grid->grid.limited_area ? 1 : 0;
  });
}

icondiff_status icondiff_grid_zone(const icondiff_grid* grid, int location, int zone, int* start,
                                   int* end) {
  return guarded([&] {
    require_pointer(grid, "grid");
    require_pointer(start, "start");
    require_pointer(end, "end");
    if (location < 0 || location > 2)
      throw icondiff::InvalidArgument("location " + std::to_string(location) +
                                      " is not 0 (cell), 1 (edge) or 2 (vertex)");
    if (zone < 0 || zone >= icondiff::num_zones)
      throw icondiff::InvalidArgument("zone " + std::to_string(zone) + " is not in [0, " +
                                      std::to_string(icondiff::num_zones) + ")");
    const auto range = grid->grid.range(static_cast<icondiff::Location>(location),
                                        static_cast<icondiff::Zone>(zone));
    *start = range.start;
    *end = range.end;
  });
}

}  // extern "C"
