// The geometry of a grid computed from its vertex coordinates and its connectivity: what an ICON
// grid file stores in clon/clat, elon/elat, cell_area, dual_area, edge_length, dual_edge_length,
// edge_cell_distance, edge_vert_distance, the primal and dual normals and the three orientation
// fields (icon_grid_format.md §5). Used by the icosahedral generator, by the limited-area cut-out,
// and to check grid files against exact spherical geometry.
//
// Layering: this is in grid/, not geometry/, because these members are part of the Grid itself
// (a grid file carries them, the generator and the cut-out must fill them to return a complete
// Grid). geometry/ holds the factories that derive further fields from a finished Grid (edge
// geometry, interpolation coefficients, metrics) and may depend on grid/, never the reverse.
#pragma once

#include <icondiff/grid/grid.hpp>

namespace icondiff {

/// Fills every geometry member of `grid` (coordinates of cell centres and edge midpoints, metrics,
/// normals, orientations) from `vertex_lon`, `vertex_lat`, `sphere_radius` and the tables c2v,
/// c2e, e2v, e2c and v2e. The definitions (docs/dev/grid.md, "Generated grids"):
///  * cell centre = circumcentre of the spherical triangle, edge midpoint = great-circle midpoint;
///  * cell_area = exact spherical-triangle area, dual_area = sum of the signed half kites
///    (vertex, edge midpoint, cell centre) over the cells present (truncated at LAM boundaries);
///  * lengths and distances are great-circle arcs times the radius; dual_edge_length at a
///    boundary edge (e2c[e][1] missing) is edge_cell_distance[e][0], as in ICON's LAM files;
///    edge_cell_distance is 0 in a missing slot;
///  * the primal normal points from e2c[0] to e2c[1]; at a boundary edge it is the direction of
///    v0 × v1 (tangent_orientation +1, as DWD's icontools write it); the dual normal is
///    t = n × r̂, i.e. (n_north, −n_east);
///  * tangent_orientation = sign(t · (v1 − v0)); cell_edge_orientation = +1 iff the normal
///    points out of the cell; vertex_edge_orientation = +1 iff the normal circulates
///    counter-clockwise around the vertex (0 in missing v2e slots).
/// Throws GridError naming the table when an input is missing, has the wrong shape, or describes
/// a degenerate cell or edge.
void compute_grid_geometry(Grid& grid);

}  // namespace icondiff
