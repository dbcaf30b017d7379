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

/// How the generator moves the vertices after each bisection.
enum class GridOptimizationMethod {
  None,            ///< plain great-circle bisection, no optimisation
  SpringDynamics,  ///< ICON's spring dynamics (Tomita et al. 2001, 2002) after every bisection
};

/// Vertex optimisation of the generated grid. The default is what ICON's grid generator does by
/// default (src/grid_generator/mo_geometry.f90 and mo_spring_dynamics.f90, namelist
/// grid_options: itype_optimize = 4, beta_spring = 0.9, maxlev_optim = 100): after every
/// bisection, all vertices of that level move as damped masses connected by springs of natural
/// length d0 = beta · 2π/√(number of cells) (unit sphere) along the grid's edges,
///     dx/dt = v,   dv/dt = Σ_j (arc_ij − d0) e_ij − friction · v,
/// e_ij the unit chord vector towards neighbour j, x kept on the sphere and v tangent to it,
/// integrated with time step `time_step` from v = 0 until the kinetic energy has fallen below
/// `stop_ratio` times its maximum. With these defaults the generated R2B3 grid reproduces the
/// vertices of ICON's icon_grid_0009_R02B03_R.nc to 1e-8 m (docs/dev/grid.md).
struct GridOptimization {
  GridOptimizationMethod method = GridOptimizationMethod::SpringDynamics;
  double beta = 0.9;          ///< natural spring length / (2π/√cells); ICON allows 0.9 … 1.11
  double time_step = 1.6e-2;  ///< pseudo time step (ICON: 1.6e-2)
  double friction = 1.0;      ///< damping coefficient (ICON: 1)
  double stop_ratio = 1e-3;   ///< stop once kinetic energy < stop_ratio · its maximum (ICON: 1e-3)
  int max_iterations = 100000;  ///< GridError when a level needs more steps than this

  /// No optimisation: the plain bisection grid.
  static GridOptimization none() {
    GridOptimization o;
    o.method = GridOptimizationMethod::None;
    return o;
  }
  /// ICON's spring dynamics with natural-length factor `beta` and the other defaults.
  static GridOptimization spring_dynamics(double beta = 0.9) {
    GridOptimization o;
    o.beta = beta;
    return o;
  }
};

/// Generates the global grid RnBk on a sphere of `radius` metres.
///
/// Vertices: the icosahedron with vertices at the poles and the northern ring at longitudes
/// 0°, 72°, … (the orientation of ICON's grid files); each icosahedron edge divided into n equal
/// great-circle arcs, each face's interior root points the normalised mean of the three
/// great-circle constructions through them (the root level is not optimised, as in ICON); then
/// k bisections, each new vertex the normalised sum of the two end points of the edge it halves
/// (great-circle midpoint), each bisection followed by `optimization` (by default ICON's spring
/// dynamics, see GridOptimization) over all vertices of the new level.
///
/// Tables (ICON conventions, icon_grid_format.md §5.2): cells counter-clockwise seen from
/// outside, c2e[j] joining c2v[j] and c2v[(j+1)%3], c2e2c[j] across c2e[j]; e2v = (lower, higher
/// vertex index) and e2c = (lower, higher cell index) as in ICON's global files, so the normal
/// points from the lower to the higher cell index and tangent_orientation is mixed; V2E clockwise
/// with V2C[j] between V2E[j−1] and V2E[j]; pentagons (the 12 icosahedron vertices) have slot 5
/// missing. Cells are numbered face by face (20 faces, row by row inside a face), vertices and
/// edges in the order the cells first reach them. Geometry from compute_grid_geometry
/// (circumcentres of the optimised vertices); refin_ctrl all 0; zones and derived connectivity
/// filled.
///
/// Throws InvalidArgument for root < 1, bisections < 0, radius not positive and finite, sizes
/// that do not fit index_t, or optimisation parameters out of range (beta, time_step not
/// positive and finite, friction negative, stop_ratio outside (0, 1), max_iterations < 6);
/// GridError when the spring dynamics is unstable (the force grows again, as ICON's generator
/// reports for beta above about 1.11) or does not stop within max_iterations.
Grid generate_icosahedral_grid(int root, int bisections, double radius = earth_radius,
                               const GridOptimization& optimization = {});

inline Grid generate_icosahedral_grid(GridResolution resolution, double radius = earth_radius,
                                      const GridOptimization& optimization = {}) {
  return generate_icosahedral_grid(resolution.root, resolution.bisections, radius, optimization);
}

}  // namespace icondiff
