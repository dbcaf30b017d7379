// Limited-area (LAM) grids cut out of a global grid, with ICON's lateral-boundary rows
// (refin_ctrl) and storage order, so that the zones of a cut-out behave as those of a LAM grid
// file from DWD's icontools (icon_grid_format.md §6).
#pragma once

#include <icondiff/grid/grid.hpp>

#include <array>
#include <string>
#include <vector>

namespace icondiff {

/// The area to keep, in radians: a spherical cap or a longitude-latitude box.
struct LimitedAreaRegion {
  enum class Shape { SphericalCap, LonLatBox };
  Shape shape = Shape::SphericalCap;
  // Spherical cap: every point within `angular_radius` (great-circle angle) of the centre.
  double centre_lon = 0.0, centre_lat = 0.0, angular_radius = 0.0;
  // Box: lon_min <= lon <= lon_max (going eastwards from lon_min, so lon_max < lon_min crosses
  // the date line) and lat_min <= lat <= lat_max.
  double lon_min = 0.0, lon_max = 0.0, lat_min = 0.0, lat_max = 0.0;

  /// A cap; throws InvalidArgument unless |centre_lat| <= π/2 and 0 < angular_radius < π.
  static LimitedAreaRegion cap(double centre_lon, double centre_lat, double angular_radius);
  /// A box; throws InvalidArgument unless −π/2 <= lat_min < lat_max <= π/2 and the longitudes
  /// are finite and distinct.
  static LimitedAreaRegion lon_lat_box(double lon_min, double lon_max, double lat_min,
                                       double lat_max);

  /// Whether the point (lon, lat) lies inside (boundary included). Throws InvalidArgument for a
  /// region that the factories above would refuse.
  bool contains(double lon, double lat) const;
  /// E.g. "cap(lon=8.000°, lat=46.500°, radius=5.000°)".
  std::string describe() const;
};

/// Rows counted from the lateral boundary (ICON4Py grid_refinement.py: 14 for cells and
/// vertices, 28 for edges; farther points get refin_ctrl 0) and rows stored first, in order (cells
/// and vertices 1..5, edges 1..10: the boundary and nudging zones).
inline constexpr int lam_max_cell_row = 14;
inline constexpr int lam_max_edge_row = 28;
inline constexpr int lam_max_vertex_row = 14;
inline constexpr int lam_ordered_cell_rows = 5;
inline constexpr int lam_ordered_edge_rows = 10;
inline constexpr int lam_ordered_vertex_rows = 5;

/// refin_ctrl (cells, edges, vertices; index with Location) of a limited-area grid computed from
/// its connectivity alone, by the rules cut_limited_area uses: boundary edges are those with
/// e2c[e][1] missing, and rows are counted from their vertices. Reproduces refin_*_ctrl of DWD's
/// R19B04 LAM file exactly. All zeros on a global grid. Needs c2v, e2c, e2v and v2c; throws
/// InvalidArgument when one has the wrong shape.
std::array<std::vector<int>, 3> lateral_boundary_rows(const Grid& lam);

/// For each point of a cut-out, its index in the global grid.
struct LimitedAreaIndices {
  std::vector<index_t> cell, edge, vertex;
};

/// Cuts the cells of `global` whose centres lie in `region` out as a limited-area grid.
///
///  * The selection is made regular as ICON's LAM grids are (on DWD's R19B04 grid every boundary
///    cell has exactly one missing neighbour and every boundary vertex two boundary edges):
///    outside cells with two or more neighbours inside are added, inside cells with at most one
///    neighbour inside are dropped, and all cells around a vertex where the domain would touch
///    itself are added, until nothing changes.
///  * Kept: those cells, every edge of them, every vertex of them. At a boundary edge the one cell
///    is in e2c slot 0 and slot 1 is missing; the edge keeps the global normal (e2v is swapped
///    where needed so that the normal is along v0 × v1, as compute_grid_geometry orients boundary
///    edges); c2e2c is missing across boundary edges; V2E/V2C rebuilt (missing slots at the end).
///  * refin_ctrl (ICON4Py grid_refinement.py docstring, verified on the R19B04 LAM file): vertex
///    row 1 = ends of boundary edges; cell row k = cells, not yet in a row, with a vertex of row k;
///    vertex row k + 1 = vertices of row-k cells not yet in a row; edge row = 1 at boundary
///    edges, else the sum of its two cells' rows (2 = inside row 1, 3 = between rows 1 and 2, …).
///    Counted up to 14 / 28 / 14, 0 beyond.
///  * Storage order: cells and vertices of rows 1..5 and edges of rows 1..10 first, by row, then
///    every other point; each group keeps the global relative order.
///  * Geometry from compute_grid_geometry (identical to the global values away from the boundary);
///    zones from compute_grid_zones; derived connectivity built.
///
/// `indices`, if given, receives the global index of every kept point. Throws InvalidArgument when
/// `global` is not a global grid with coordinates and v2c, when the region keeps no cell or every
/// cell, and GridError when the selection does not settle.
Grid cut_limited_area(const Grid& global, const LimitedAreaRegion& region,
                      LimitedAreaIndices* indices = nullptr);

}  // namespace icondiff
