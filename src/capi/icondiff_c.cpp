// The C API: every entry point catches every exception and turns it into a status code plus a
// message, so a Fortran host model never sees a C++ exception or an abort.
#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/io/grid_file.hpp>

#include <icondiff_c.h>

#include <exception>
#include <new>
#include <string>

struct icondiff_grid {
  icondiff::Grid grid;
};

namespace {

thread_local std::string last_error;

icondiff_status fail(icondiff_status status, const std::string& message) {
  last_error = message;
  return status;
}

/// Runs `body`, mapping icondiff's exception types to status codes.
template <class Body>
icondiff_status guarded(Body&& body) {
  try {
    last_error.clear();
    body();
    return ICONDIFF_OK;
  } catch (const icondiff::InvalidArgument& e) {
    return fail(ICONDIFF_INVALID_ARGUMENT, e.what());
  } catch (const icondiff::GridError& e) {
    return fail(ICONDIFF_GRID_ERROR, e.what());
  } catch (const icondiff::ConfigError& e) {
    return fail(ICONDIFF_CONFIG_ERROR, e.what());
  } catch (const std::bad_alloc&) {
    return fail(ICONDIFF_INTERNAL_ERROR, "out of memory");
  } catch (const std::exception& e) {
    return fail(ICONDIFF_INTERNAL_ERROR, e.what());
  } catch (...) {
    return fail(ICONDIFF_INTERNAL_ERROR, "unknown error");
  }
}

void require(const void* pointer, const char* name) {
  if (pointer == nullptr) throw icondiff::InvalidArgument(std::string(name) + " is a null pointer");
}

}  // namespace

extern "C" {

const char* icondiff_last_error(void) {
  return last_error.c_str();
}

void icondiff_version(int* major, int* minor, int* patch) {
  if (major) *major = ICONDIFF_VERSION_MAJOR;
  if (minor) *minor = ICONDIFF_VERSION_MINOR;
  if (patch) *patch = ICONDIFF_VERSION_PATCH;
}

icondiff_status icondiff_grid_read(const char* path, icondiff_grid** grid) {
  return guarded([&] {
    require(path, "path");
    require(grid, "grid");
    *grid = nullptr;
    auto handle = new icondiff_grid{icondiff::read_icon_grid(path)};
    *grid = handle;
  });
}

void icondiff_grid_free(icondiff_grid* grid) {
  delete grid;
}

icondiff_status icondiff_grid_sizes(const icondiff_grid* grid, int* num_cells, int* num_edges,
                                    int* num_vertices, int* limited_area) {
  return guarded([&] {
    require(grid, "grid");
    if (num_cells) *num_cells = grid->grid.num_cells;
    if (num_edges) *num_edges = grid->grid.num_edges;
    if (num_vertices) *num_vertices = grid->grid.num_vertices;
    if (limited_area) *limited_area = grid->grid.limited_area ? 1 : 0;
  });
}

icondiff_status icondiff_grid_zone(const icondiff_grid* grid, int location, int zone, int* start,
                                   int* end) {
  return guarded([&] {
    require(grid, "grid");
    require(start, "start");
    require(end, "end");
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
