#include <icondiff/core/error.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/geometry/edge_geometry.hpp>

#include <fmt/format.h>

#include <cmath>

namespace icondiff {

using sphere::Vec3;

namespace {

/// (east, north) components of `v` at (lon, lat), normalized (ICON4Py
/// zonal_and_meridional_components_*: the projection of a unit vector at a nearby point is
/// rescaled to unit length).
void local_unit_components(Vec3 v, double lon, double lat, double& x, double& y) {
  sphere::cartesian_to_local(v, lon, lat, x, y);
  const double n = std::sqrt(x * x + y * y);
  x /= n;
  y /= n;
}

}  // namespace

EdgeGeometry compute_edge_geometry(const Grid& g) {
  const auto ne = static_cast<std::size_t>(g.num_edges);
  if (g.vertex_lon.empty() || g.edge_lon.empty() || g.cell_lon.empty() || g.edge_length.empty() ||
      g.dual_edge_length.empty() || g.tangent_orientation.empty() || g.e2c2v.empty())
    throw GridError(fmt::format(
        "grid '{}' lacks the coordinates, lengths, tangent orientations or derived connectivity "
        "needed for the edge geometry",
        g.name));

  EdgeGeometry eg;
  eg.tangent_cartesian.resize(ne);
  eg.normal_cartesian.resize(ne);
  eg.primal_normal_x.resize(ne);
  eg.primal_normal_y.resize(ne);
  eg.dual_normal_x.resize(ne);
  eg.dual_normal_y.resize(ne);
  eg.primal_normal_vert_x = eg.primal_normal_vert_y = HostTable<double>(ne, 4, 0.0);
  eg.dual_normal_vert_x = eg.dual_normal_vert_y = HostTable<double>(ne, 4, 0.0);
  eg.primal_normal_cell_x = eg.primal_normal_cell_y = HostTable<double>(ne, 2, 0.0);
  eg.dual_normal_cell_x = eg.dual_normal_cell_y = HostTable<double>(ne, 2, 0.0);
  eg.inverse_primal_edge_length.resize(ne);
  eg.inverse_dual_edge_length.resize(ne);
  eg.vertex_vertex_length.assign(ne, 0.0);
  if (!g.edge_lat.empty()) {
    eg.coriolis_frequency.resize(ne);
    for (std::size_t e = 0; e < ne; ++e)
      eg.coriolis_frequency[e] = 2.0 * physics::earth_angular_velocity * std::sin(g.edge_lat[e]);
  }
  eg.inverse_vertex_vertex_length.assign(ne, 0.0);
  eg.edge_area.resize(ne);

  const auto vertex = [&](index_t v) {
    return sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
  };
  for (std::size_t e = 0; e < ne; ++e) {
    const Vec3 v0 = vertex(g.e2v(e, 0)), v1 = vertex(g.e2v(e, 1));
    const Vec3 t = g.tangent_orientation[e] * sphere::normalize(v1 - v0);
    const Vec3 mid = sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
    const Vec3 n = sphere::normalize(sphere::cross(mid, t));
    eg.tangent_cartesian[e] = t;
    eg.normal_cartesian[e] = n;
    local_unit_components(n, g.edge_lon[e], g.edge_lat[e], eg.primal_normal_x[e],
                          eg.primal_normal_y[e]);
    local_unit_components(t, g.edge_lon[e], g.edge_lat[e], eg.dual_normal_x[e],
                          eg.dual_normal_y[e]);
    for (int i = 0; i < 4; ++i) {
      const index_t v = g.e2c2v(e, i);
      if (v == missing_index) continue;
      local_unit_components(n, g.vertex_lon[v], g.vertex_lat[v], eg.primal_normal_vert_x(e, i),
                            eg.primal_normal_vert_y(e, i));
      local_unit_components(t, g.vertex_lon[v], g.vertex_lat[v], eg.dual_normal_vert_x(e, i),
                            eg.dual_normal_vert_y(e, i));
    }
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k);
      if (c == missing_index) continue;
      local_unit_components(n, g.cell_lon[c], g.cell_lat[c], eg.primal_normal_cell_x(e, k),
                            eg.primal_normal_cell_y(e, k));
      local_unit_components(t, g.cell_lon[c], g.cell_lat[c], eg.dual_normal_cell_x(e, k),
                            eg.dual_normal_cell_y(e, k));
    }
    eg.inverse_primal_edge_length[e] = 1.0 / g.edge_length[e];
    eg.inverse_dual_edge_length[e] = 1.0 / g.dual_edge_length[e];
    if (g.e2c2v(e, 2) != missing_index && g.e2c2v(e, 3) != missing_index) {
      eg.vertex_vertex_length[e] =
          g.sphere_radius * sphere::arc_length(vertex(g.e2c2v(e, 2)), vertex(g.e2c2v(e, 3)));
      eg.inverse_vertex_vertex_length[e] = 1.0 / eg.vertex_vertex_length[e];
    }
    eg.edge_area[e] = g.edge_length[e] * g.dual_edge_length[e];
  }
  return eg;
}

}  // namespace icondiff
