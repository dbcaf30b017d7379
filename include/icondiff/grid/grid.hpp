// The host-side horizontal grid: sizes, connectivity, geometry and zones.
//
// Everything that builds a grid (the netCDF reader, the icosahedral generator, the C API) fills
// one of these; DeviceGrid copies what kernels need to an execution space's memory.
// Conventions (all verified on real ICON files; see docs/dev/grid.md):
//  * indices are 0-based, `missing_index` (-1) marks a missing neighbour;
//  * lengths in metres, areas in m², angles in radians, on a sphere of radius `sphere_radius`;
//  * vectors at edges are given in the local (east, north) basis at the edge midpoint.
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/location.hpp>
#include <icondiff/grid/zones.hpp>

#include <array>
#include <string>
#include <vector>

namespace icondiff {

/// Earth radius used by ICON (grid file attribute `semi_major_axis`), metres.
inline constexpr double earth_radius = 6371229.0;

struct Grid {
  // ---- Identity ---------------------------------------------------------------------------------
  std::string name;    ///< short name, e.g. "icon_grid_0009_R02B03_R"
  std::string source;  ///< where it came from (file path, generator parameters)
  std::string uuid;    ///< uuidOfHGrid, empty if unknown
  int grid_root = 0;   ///< n of RnBk
  int grid_level = 0;  ///< k of RnBk
  double sphere_radius = earth_radius;
  /// True when some point lies in a lateral boundary row (ICON4Py's is_limited_area_grid).
  bool limited_area = false;

  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  index_t size(Location location) const;

  // ---- Connectivity read from an ICON grid file -------------------------------------------------
  HostTable<index_t> c2e;    ///< (C,3) edge_of_cell; edge j joins c2v[j] and c2v[(j+1)%3]
  HostTable<index_t> c2v;    ///< (C,3) vertex_of_cell, counter-clockwise seen from outside
  HostTable<index_t> c2e2c;  ///< (C,3) neighbor_cell_index; slot j lies across c2e[j]
  HostTable<index_t> e2c;    ///< (E,2) adjacent_cell_of_edge; the normal points from [0] to [1]
  HostTable<index_t> e2v;    ///< (E,2) edge_vertices
  HostTable<index_t> v2e;    ///< (V,6) edges_of_vertex; no rotational order; -1 in missing slots
  HostTable<index_t> v2c;    ///< (V,6) cells_of_vertex; v2c[j] is adjacent to v2e[j]

  // ---- Derived connectivity (build_derived_connectivity) ---------------------------------------
  HostTable<index_t> c2e2co;  ///< (C,4) [c, c2e2c...]: self first
  HostTable<index_t> e2c2v;   ///< (E,4) [e2v0, e2v1, far vertex of e2c0, far vertex of e2c1]
  HostTable<index_t> e2c2e;   ///< (E,4) the other two edges of e2c0, then of e2c1 (ICON order)
  HostTable<index_t> e2c2eo;  ///< (E,5) [e, e2c2e...]

  // ---- Coordinates (radians) ------------------------------------------------------------------
  std::vector<double> cell_lon, cell_lat;      ///< circumcentres
  std::vector<double> edge_lon, edge_lat;      ///< edge midpoints
  std::vector<double> vertex_lon, vertex_lat;  ///< vertices

  // ---- Metrics
  // -----------------------------------------------------------------------------------
  std::vector<double> cell_area;            ///< (C) m²
  std::vector<double> dual_area;            ///< (V) m², area of the dual hexagon/pentagon
  std::vector<double> edge_length;          ///< (E) primal edge length, m
  std::vector<double> dual_edge_length;     ///< (E) distance between the circumcentres, m
  HostTable<double> edge_cell_distance;     ///< (E,2) midpoint to e2c[k] centre; 0 if missing
  HostTable<double> edge_vertex_distance;   ///< (E,2) midpoint to e2v[k]
  std::vector<double> primal_normal_east;   ///< (E) primal normal, eastward component
  std::vector<double> primal_normal_north;  ///< (E) primal normal, northward component
  std::vector<double> dual_normal_east;     ///< (E) dual normal (= tangent), eastward component
  std::vector<double> dual_normal_north;    ///< (E) dual normal (= tangent), northward component
  /// (E) ±1: sign(tangent · (v1 − v0)), file edge_system_orientation, ICON tangent_orientation
  std::vector<double> tangent_orientation;
  /// (C,3) ±1: +1 iff the normal of c2e[j] points out of the cell; file orientation_of_normal,
  /// ICON cells%edge_orientation (the sign in the divergence)
  HostTable<double> cell_edge_orientation;
  /// (V,6) ±1: +1 iff the normal of v2e[j] circulates counter-clockwise around the vertex; 0 in
  /// missing slots; file edge_orientation, ICON verts%edge_orientation (the sign in the curl)
  HostTable<double> vertex_edge_orientation;

  // ---- Refinement control and zones
  // --------------------------------------------------------------
  /// refin_ctrl per location as stored in the file (nest-overlap values unconverted).
  std::array<std::vector<int>, 3> refin_ctrl;
  std::array<Zones, 3> zones;

  const Zones& zones_of(Location location) const { return zones[static_cast<int>(location)]; }
  IndexRange range(Location location, Zone zone) const { return zones_of(location).range(zone); }
  index_t start(Location location, Zone zone) const { return range(location, zone).start; }
  index_t end(Location location, Zone zone) const { return range(location, zone).end; }
};

/// Builds c2e2co, e2c2v, e2c2e and e2c2eo from c2e, c2v, c2e2c and e2c/e2v.
void build_derived_connectivity(Grid& grid);

/// Computes `zones` and `limited_area` from `refin_ctrl` (single node: every point owned).
void compute_grid_zones(Grid& grid);

}  // namespace icondiff
