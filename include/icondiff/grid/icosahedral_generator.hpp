// ICON's global icosahedral grids RnBk, generated in memory with every table and geometry field a
// grid file holds, following the conventions of ICON's grid files (icon_grid_format.md §5).
// Limited-area grids are cut out of these by cut_limited_area (limited_area.hpp).
#pragma once

#include <icondiff/grid/grid.hpp>

#include <string>

namespace icondiff {

/// An ICON resolution RnBk: root division n of each icosahedron edge, then k bisections.
struct GridResolution {
  int root = 0;        ///< n >= 1
  int bisections = 0;  ///< k >= 0
};

/// Parses "R2B4", "R02B04", "r2b4" (case-insensitive, leading zeros allowed). Throws
/// InvalidArgument naming the text when it is not of that form, or when n < 1 or k < 0.
GridResolution parse_resolution(const std::string& text);

/// The canonical short name, e.g. "R2B4" for (2, 4).
std::string resolution_name(GridResolution resolution);

/// Numbers of cells, edges and vertices of a grid.
struct GridSizes {
  index_t cells = 0, edges = 0, vertices = 0;
};

/// The sizes of the global grid RnBk: 20·n²·4^k cells, 30·n²·4^k edges, 10·n²·4^k + 2 vertices.
/// Throws InvalidArgument for n < 1, k < 0 or a grid whose edge count does not fit index_t.
GridSizes icosahedral_grid_sizes(GridResolution resolution);

/// Generates the global grid RnBk on a sphere of `radius` metres.
///
/// Vertices: the icosahedron with vertices at the poles and the northern ring at longitudes
/// 0°, 72°, … (the orientation of ICON's grid files); each icosahedron edge divided into n equal
/// great-circle arcs, each face's interior root points the normalised mean of the three
/// great-circle constructions through them; then k bisections, each new vertex the normalised
/// sum of the two end points of the edge it halves (great-circle midpoint). No optimisation
/// (spring dynamics) is applied.
///
/// Tables (ICON conventions, icon_grid_format.md §5.2): cells counter-clockwise seen from
/// outside, c2e[j] joining c2v[j] and c2v[(j+1)%3], c2e2c[j] across c2e[j]; e2v = (lower, higher
/// vertex index) and e2c = (lower, higher cell index) as in ICON's global files, so the normal
/// points from the lower to the higher cell index and tangent_orientation is mixed; V2E clockwise
/// with V2C[j] between V2E[j−1] and V2E[j]; pentagons (the 12 icosahedron vertices) have slot 5
/// missing. Cells are numbered face by face (20 faces, row by row inside a face), vertices and
/// edges in the order the cells first reach them. Geometry from compute_grid_geometry; refin_ctrl
/// all 0; zones and derived connectivity filled.
///
/// Throws InvalidArgument for root < 1, bisections < 0, radius not positive and finite, or sizes
/// that do not fit index_t.
Grid generate_icosahedral_grid(int root, int bisections, double radius = earth_radius);

inline Grid generate_icosahedral_grid(GridResolution resolution, double radius = earth_radius) {
  return generate_icosahedral_grid(resolution.root, resolution.bisections, radius);
}

}  // namespace icondiff
