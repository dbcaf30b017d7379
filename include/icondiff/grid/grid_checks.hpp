// Consistency checks of a host Grid: index ranges, connectivities that must agree with each other,
// and geometry that must be finite and positive. Used by the file reader, by the generator and by
// anything that accepts a grid from outside (the C API).
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid.hpp>

#include <string>

namespace icondiff {

/// A grid table contradicts itself or another table. Knows which table and which row, so a reader
/// can report the file variable behind it.
class GridConsistencyError : public GridError {
 public:
  GridConsistencyError(std::string table, long long row, const std::string& problem);
  /// The Grid member that holds the bad value, e.g. "c2e" or "cell_area".
  const std::string& table() const noexcept { return table_; }
  long long row() const noexcept { return row_; }
  /// The problem without the table/row prefix.
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string table_;
  long long row_;
  std::string problem_;
};

/// Checks the connectivity tables read from a file (shapes, index ranges, required entries) and
/// their mutual consistency (E2C against C2E, C2E2C across C2E, E2V and V2E against C2V/E2V,
/// V2C against C2V). Throws GridConsistencyError at the first problem.
void check_connectivity(const Grid& grid);

/// Checks the geometry that is present (empty vectors are skipped): finite coordinates, positive
/// finite areas and lengths, unit normals, orientations of ±1; and that it agrees with itself:
/// every cell centre lies inside its triangle (within 10 % of the triangle's size), every
/// cell_area is the spherical triangle of its vertices (within 1 %), and every
/// cell_edge_orientation (orientation_of_normal) is +1 exactly when the edge's primal normal
/// points out of the cell. Also, each within 0.1 %: edge_length against the great-circle
/// distance of the edge's vertices on the sphere of sphere_radius, dual_edge_length against that
/// of its cells' centres (midpoint to centre at a boundary edge), edge_cell_distance and
/// edge_vertex_distance against the midpoint's distances, dual_area against the polygon of the
/// centres around the vertex; the primal normal perpendicular to the edge and pointing from
/// e2c[0] to e2c[1], the dual normal equal to n x r, tangent_orientation = sign(t . (v1 - v0)),
/// vertex_edge_orientation +1 exactly when the normal circulates counter-clockwise around the
/// vertex. On one rank: every edge with one cell lies in lateral boundary row 1; a grid without
/// such edges has Euler characteristic 2 and cell and dual areas adding up to the sphere's
/// (within 0.1 %). Throws GridConsistencyError naming the table, row and both values.
void check_geometry(const Grid& grid);

/// check_connectivity + check_geometry + derived tables present with the right shapes.
void check_grid(const Grid& grid);

}  // namespace icondiff
