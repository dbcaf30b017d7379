// Internal: V2E and V2C in rotational order, built from the cell tables. Shared by the icosahedral
// generator and the limited-area cut-out.
#pragma once

#include <icondiff/grid/grid.hpp>

namespace icondiff::detail {

/// Fills v2e and v2c (V,6) from c2v, c2e and c2e2c of a grid whose cells are counter-clockwise
/// seen from outside with c2e[j] joining c2v[j] and c2v[(j+1)%3] and c2e2c[j] across c2e[j].
///
/// Order as in ICON's global grid files (icon_grid_0009_R02B03_R.nc, icon_grid_format.md §5.2):
/// the edges run clockwise around the vertex seen from outside and cell j lies between edge j−1
/// and edge j, cyclically. Around a closed fan the walk starts at the vertex's lowest-numbered
/// cell; at a pentagon slot 5 is missing. At a lateral-boundary vertex (an open fan) the walk
/// starts at the cell whose counter-clockwise neighbour is missing: slots 0..m−1 hold the m cells
/// and the edge clockwise after each, slot m the remaining boundary edge with no cell (the cell
/// "between" the two boundary edges lies outside), and later slots are missing.
///
/// Throws GridError when a vertex has more than six edges or its cells do not form one fan (a
/// vertex where the domain touches itself).
void build_vertex_tables(Grid& grid);

}  // namespace icondiff::detail
