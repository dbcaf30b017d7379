/* icondiff C API: the entry point for Fortran (see icondiff_mod.f90) and other languages.
 *
 * Every function returns an icondiff_status; on failure icondiff_last_error() holds a message that
 * names what was wrong (file, variable, index, expected value). No function aborts the caller.
 * Indices and ranges are 0-based and half-open [start, end), as in the C++ API; the Fortran module
 * converts them to 1-based inclusive ranges. */
#ifndef ICONDIFF_C_H
#define ICONDIFF_C_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum icondiff_status {
  ICONDIFF_OK = 0,
  ICONDIFF_INVALID_ARGUMENT = 1, /* null pointer, unknown location/zone, bad size */
  ICONDIFF_GRID_ERROR = 2,       /* unreadable, truncated or inconsistent grid */
  ICONDIFF_CONFIG_ERROR = 3,     /* configuration out of range or not implemented */
  ICONDIFF_INTERNAL_ERROR = 99   /* anything else (out of memory, ...) */
} icondiff_status;

/* Locations and zones, numbered as in the C++ enums icondiff::Location and icondiff::Zone. */
enum { ICONDIFF_CELL = 0, ICONDIFF_EDGE = 1, ICONDIFF_VERTEX = 2 };
enum {
  ICONDIFF_ZONE_LATERAL_BOUNDARY_1 = 0, /* ..._8 = 7 (edges), rows 1..4 for cells and vertices */
  ICONDIFF_ZONE_NUDGING = 8,
  ICONDIFF_ZONE_NUDGING_2 = 9,
  ICONDIFF_ZONE_INTERIOR = 10,
  ICONDIFF_ZONE_LOCAL = 11,
  ICONDIFF_ZONE_HALO = 12,
  ICONDIFF_ZONE_HALO_2 = 13,
  ICONDIFF_ZONE_END = 14
};

typedef struct icondiff_grid icondiff_grid; /* opaque */

/* The message of the last failed call on this thread ("" if none). */
const char* icondiff_last_error(void);

void icondiff_version(int* major, int* minor, int* patch);

/* Reads an ICON grid netCDF file. On success *grid must be released with icondiff_grid_free. */
icondiff_status icondiff_grid_read(const char* path, icondiff_grid** grid);
void icondiff_grid_free(icondiff_grid* grid);

icondiff_status icondiff_grid_sizes(const icondiff_grid* grid, int* num_cells, int* num_edges,
                                    int* num_vertices, int* limited_area);

/* The [start, end) range of a zone (0-based). */
icondiff_status icondiff_grid_zone(const icondiff_grid* grid, int location, int zone, int* start,
                                   int* end);

#ifdef __cplusplus
}
#endif

#endif /* ICONDIFF_C_H */
