// Derived edge geometry that the stencils use (diffusion_spec.md §2.6, §4.5): inverse lengths,
// edge areas, and the edge normal and tangent expressed in the local (east, north) basis of the
// diamond vertices (E2C2V) and of the adjacent cell centres (E2C).
//
// Computed as ICON4Py's grid/geometry.py does: the tangent is the chord between the edge's
// vertices, t = tangent_orientation * normalize(v1 - v0); the normal is n = normalize(r_e x t)
// with r_e the edge midpoint; a vector is expressed at another point by projecting it onto that
// point's (east, north) basis and normalizing (coordinate_transformations.zonal_and_meridional_
// components_*). "x" is the eastward and "y" the northward component.
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid.hpp>

#include <vector>

namespace icondiff {

struct EdgeGeometry {
  std::vector<sphere::Vec3> tangent_cartesian;  ///< (E) unit tangent (the dual normal)
  std::vector<sphere::Vec3> normal_cartesian;   ///< (E) unit primal normal, from e2c[0] to e2c[1]

  std::vector<double> primal_normal_x, primal_normal_y;  ///< (E) at the edge midpoint
  std::vector<double> dual_normal_x, dual_normal_y;      ///< (E) at the edge midpoint

  /// (E,4) normal / tangent at the vertices E2C2V[e, i]; 0 where the vertex is missing.
  HostTable<double> primal_normal_vert_x, primal_normal_vert_y;
  HostTable<double> dual_normal_vert_x, dual_normal_vert_y;
  /// (E,2) normal / tangent at the cell centres E2C[e, k]; 0 where the cell is missing.
  HostTable<double> primal_normal_cell_x, primal_normal_cell_y;
  HostTable<double> dual_normal_cell_x, dual_normal_cell_y;

  std::vector<double> inverse_primal_edge_length;  ///< (E) 1 / edge_length
  std::vector<double> inverse_dual_edge_length;    ///< (E) 1 / dual_edge_length
  /// (E) distance between the far vertices E2C2V[2] and E2C2V[3] (m); 0 at LAM boundary edges
  std::vector<double> vertex_vertex_length;
  std::vector<double> inverse_vertex_vertex_length;  ///< (E) its inverse; 0 where it is 0
  std::vector<double> edge_area;  ///< (E) edge_length * dual_edge_length (ICON area_edge)
  /// (E) the Coriolis parameter 2 Ω sin(edge latitude) [s-1] (ICON f_e, ICON4Py
  /// coriolis_parameter_on_edges: (2.0 * Ω) * sin(lat) in that order); empty without latitudes.
  std::vector<double> coriolis_frequency;
};

/// Computes the derived edge geometry of a grid that has coordinates, lengths and orientations
/// (read from a file or generated). Throws GridError if those are missing.
EdgeGeometry compute_edge_geometry(const Grid& grid);

}  // namespace icondiff
