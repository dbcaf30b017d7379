// Tiny grids built in the tests, independently of the library's generator: an octahedron with
// its geometry computed from plain vector algebra.
#pragma once

#include <icondiff/grid/grid.hpp>

namespace icondiff::test {

/// The octahedron as an ICON grid: 8 cells, 12 edges, 6 vertices (every vertex has 4 edges, so
/// slots 4 and 5 of V2E/V2C are missing). ICON conventions: counter-clockwise cells, edge j
/// joining vertices j and j+1, neighbour j across edge j, normals from e2c[0] to e2c[1].
/// Full geometry on a sphere of `radius`; zones of a global grid; derived connectivity built.
Grid make_octahedron_grid(double radius = earth_radius);

}  // namespace icondiff::test
