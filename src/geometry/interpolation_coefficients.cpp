// The interpolation coefficients of the diffusion granule, field by field as ICON4Py's
// interpolation factory defines them (interpolation_factory.InterpolationFieldsFactory
// ._register_computed_fields gives each field's function, inputs and horizontal start). The
// vertex RBF coefficients are in rbf_vertex_coefficients.cpp.
//
// ICON4Py evaluates these with whole-array NumPy expressions; the loops below evaluate the same
// expressions per point, in the same order of operations where that is cheap, so the results
// agree to round-off. Differences on purpose: a missing neighbour (-1) never matches anything
// (ICON4Py replaces -1 in LAM tables by a valid index and may then read a neighbour's value), so
// its coefficient is 0; the vertex RBF stencil is compressed instead of assuming that missing
// slots come last.
#include <icondiff/core/error.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace icondiff {

namespace {

constexpr double pi = 3.14159265358979323846;

// ICON mo_impl_constants_grf: first refin_ctrl row of the nudging zone (cells, edges).
constexpr int grf_nudge_start_c = 5;
constexpr int grf_nudge_start_e = 10;

[[noreturn]] void reject(const char* field, const char* namelist, const std::string& value,
                         const std::string& why) {
  throw ConfigError(
      fmt::format("interpolation config: {} (ICON {}) = {}: {}", field, namelist, value, why));
}

// ---- Grid requirements --------------------------------------------------------------------------

template <class T>
void require_table(const Grid& g, const HostTable<T>& t, const char* name, index_t rows,
                   std::size_t cols) {
  if (t.rows() != static_cast<std::size_t>(rows) || t.cols() != cols)
    throw GridError(fmt::format(
        "grid '{}': {} has shape ({}, {}), expected ({}, {}) for the interpolation coefficients",
        g.name, name, t.rows(), t.cols(), rows, cols));
}

template <class T>
void require_vector(const Grid& g, const std::vector<T>& v, const char* name, index_t size) {
  if (v.size() != static_cast<std::size_t>(size))
    throw GridError(
        fmt::format("grid '{}': {} has {} entries, expected {} for the interpolation coefficients",
                    g.name, name, v.size(), size));
}

void require_inputs(const Grid& g) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  require_table(g, g.c2e, "c2e", nc, 3);
  require_table(g, g.c2e2c, "c2e2c", nc, 3);
  require_table(g, g.c2e2co, "c2e2co", nc, 4);
  require_table(g, g.e2c, "e2c", ne, 2);
  require_table(g, g.e2v, "e2v", ne, 2);
  require_table(g, g.v2e, "v2e", nv, 6);
  require_table(g, g.e2c2v, "e2c2v", ne, 4);
  require_table(g, g.edge_cell_distance, "edge_cell_distance", ne, 2);
  require_table(g, g.cell_edge_orientation, "cell_edge_orientation", nc, 3);
  require_table(g, g.vertex_edge_orientation, "vertex_edge_orientation", nv, 6);
  require_vector(g, g.cell_lon, "cell_lon", nc);
  require_vector(g, g.cell_lat, "cell_lat", nc);
  require_vector(g, g.edge_lon, "edge_lon", ne);
  require_vector(g, g.edge_lat, "edge_lat", ne);
  require_vector(g, g.vertex_lon, "vertex_lon", nv);
  require_vector(g, g.vertex_lat, "vertex_lat", nv);
  require_vector(g, g.cell_area, "cell_area", nc);
  require_vector(g, g.dual_area, "dual_area", nv);
  require_vector(g, g.edge_length, "edge_length", ne);
  require_vector(g, g.dual_edge_length, "dual_edge_length", ne);
  require_vector(g, g.tangent_orientation, "tangent_orientation", ne);
  require_vector(g, g.refin_ctrl[static_cast<int>(Location::Cell)], "refin_ctrl[cell]", nc);
  require_vector(g, g.refin_ctrl[static_cast<int>(Location::Edge)], "refin_ctrl[edge]", ne);
}

/// ICON init_nudgecoeffs: a limited-area grid must mark at least nudge_zone_width + 4 cell rows.
/// Only grids with positive (lateral boundary) rows in the file count, as in ICON4Py's
/// is_limited_area_grid; a parent grid's negative nest-overlap rows get no nudging.
void check_nudging_rows(const Grid& g, const InterpolationConfig& config) {
  // A rank's part shows only some rows: the whole grid's are checked where it is put together
  // (check_lateral_boundary_rows with the largest row of all ranks).
  if (g.num_ranks > 1) return;
  const auto& refin = g.refin_ctrl[static_cast<int>(Location::Cell)];
  check_lateral_boundary_rows(refin.empty() ? 0 : *std::max_element(refin.begin(), refin.end()),
                              g.name, config);
}

// ---- Bilinear weights (interpolation_fields._weighting_factors) --------------------------------

/// ICON4Py _rotate_latlon: (lat, lon) in a frame whose pole is (pollat, pollon).
void rotate_latlon(double lat, double lon, double pollat, double pollon, double& rotlat,
                   double& rotlon) {
  rotlat = std::asin(std::sin(lat) * std::sin(pollat) +
                     std::cos(lat) * std::cos(pollat) * std::cos(lon - pollon));
  rotlon = std::atan2(
      std::cos(lat) * std::sin(lon - pollon),
      std::cos(lat) * std::sin(pollat) * std::cos(lon - pollon) - std::sin(lat) * std::cos(pollat));
}

/// Weights w_0..w_2 of three points around (lat, lon) such that, in a rotated lat-lon frame that
/// puts (lat, lon) on the equator, sum w_i x_i = 0, sum w_i y_i = 0 and sum w_i = 1 - wgt_loc
/// (the point itself carries wgt_loc): linear fields are interpolated exactly to the centre,
/// so linear gradients do not alias into a checkerboard (ICON mo_intp_coeffs / _lsq_bln).
/// The elimination is ICON4Py's, including its switch for nearly aligned points.
std::array<double, 3> bilinear_weights(double lat, double lon, const std::array<double, 3>& plat,
                                       const std::array<double, 3>& plon, double wgt_loc) {
  const double pollat = lat >= 0.0 ? lat - pi * 0.5 : lat + pi * 0.5;
  const double pollon = lon;
  double yloc = 0, xloc = 0;
  rotate_latlon(lat, lon, pollat, pollon, yloc, xloc);
  std::array<double, 3> x{}, y{};
  for (int i = 0; i < 3; ++i) {
    double yt = 0, xt = 0;
    rotate_latlon(plat[i], plon[i], pollat, pollon, yt, xt);
    y[i] = yt - yloc;
    x[i] = xt - xloc;
    // The rotated centre sits at longitude pi (northern) or 0: unwrap across the date line.
    if (x[i] > 3.5) x[i] -= 2.0 * pi;
    if (x[i] < -3.5) x[i] += 2.0 * pi;
  }
  const double rest = 1.0 - wgt_loc;
  std::array<double, 3> w{};
  if (std::fabs(x[1] - x[0]) > 1.0e-11 && std::fabs(y[2] - y[0]) > 1.0e-11) {
    w[2] = 1.0 / ((y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]) / (x[1] - x[0])) * rest *
           (-y[0] + x[0] * (y[1] - y[0]) / (x[1] - x[0]));
    w[1] = (-rest * x[0] - w[2] * (x[2] - x[0])) / (x[1] - x[0]);
  } else {
    w[1] = 1.0 / ((y[1] - y[0]) - (x[1] - x[0]) * (y[2] - y[0]) / (x[2] - x[0])) * rest *
           (-y[0] + x[0] * (y[2] - y[0]) / (x[2] - x[0]));
    w[2] = (-rest * x[0] - w[1] * (x[1] - x[0])) / (x[2] - x[0]);
  }
  w[0] = wgt_loc == 0.0 ? 1.0 - w[1] - w[2] : 1.0 - wgt_loc - w[1] - w[2];
  return w;
}

}  // namespace

// ---- Fields ------------------------------------------------------------------------------------

/// interpolation_fields.compute_geofac_div: primal_edge_length(C2E) * edge_orientation / area,
/// on every cell.
HostTable<double> compute_geofac_div(const Grid& g) {
  require_inputs(g);
  HostTable<double> out(static_cast<std::size_t>(g.num_cells), 3, 0.0);
  for (index_t c = 0; c < g.num_cells; ++c)
    for (int j = 0; j < 3; ++j)
      out(c, j) = g.edge_length[g.c2e(c, j)] * g.cell_edge_orientation(c, j) / g.cell_area[c];
  return out;
}

/// interpolation_fields.compute_geofac_rot: dual_edge_length(V2E) * edge_orientation /
/// dual_area on every (owned) vertex; 0 in missing V2E slots.
HostTable<double> compute_geofac_rot(const Grid& g) {
  require_inputs(g);
  HostTable<double> out(static_cast<std::size_t>(g.num_vertices), 6, 0.0);
  for (index_t v = 0; v < g.num_vertices; ++v)
    for (int j = 0; j < 6; ++j) {
      const index_t e = g.v2e(v, j);
      if (e == missing_index) continue;
      out(v, j) = g.dual_edge_length[e] * g.vertex_edge_orientation(v, j) / g.dual_area[v];
    }
  return out;
}

/// interpolation_fields.compute_geofac_n2s from start(C, LATERAL_BOUNDARY_LEVEL_2):
/// with f_j = geofac_div[c,j] / dual_edge_length[e_j], e_j = C2E[c,j], each edge contributes
/// +f_j to the cell in E2C[e_j,1] and -f_j to the one in E2C[e_j,0], i.e. div of the normal
/// gradient (psi[E2C[e,1]] - psi[E2C[e,0]]) / dual_edge_length (diffusion_spec §2.6).
HostTable<double> compute_geofac_n2s(const Grid& g, const HostTable<double>& div) {
  require_inputs(g);
  require_table(g, div, "geofac_div", g.num_cells, 3);
  const index_t start = g.start(Location::Cell, Zone::LateralBoundary2);
  HostTable<double> out(static_cast<std::size_t>(g.num_cells), 4, 0.0);
  for (index_t c = start; c < g.num_cells; ++c) {
    double f[3], self_0 = 0.0, self_1 = 0.0;
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j);
      f[j] = div(c, j) / g.dual_edge_length[e];
      self_0 += (g.e2c(e, 0) == c ? f[j] : 0.0);
      self_1 += (g.e2c(e, 1) == c ? f[j] : 0.0);
    }
    out(c, 0) = 0.0 - self_0 + self_1;
    for (int j = 0; j < 3; ++j) {
      const index_t e = g.c2e(c, j), n = g.c2e2c(c, j);
      if (n == missing_index) continue;
      out(c, 1 + j) = 0.0 - (g.e2c(e, 0) == n ? f[j] : 0.0) + (g.e2c(e, 1) == n ? f[j] : 0.0);
    }
  }
  return out;
}

/// interpolation_fields.compute_c_lin_e from start(E, LATERAL_BOUNDARY_LEVEL_2):
/// [edge_cell_distance[e,1] / dual_edge_length[e], 1 - that] (the weight of each cell is the
/// other cell's share of the dual edge).
HostTable<double> compute_c_lin_e(const Grid& g) {
  require_inputs(g);
  const index_t start = g.start(Location::Edge, Zone::LateralBoundary2);
  HostTable<double> out(static_cast<std::size_t>(g.num_edges), 2, 0.0);
  for (index_t e = start; e < g.num_edges; ++e) {
    const double w = g.edge_cell_distance(e, 1) * (1.0 / g.dual_edge_length[e]);
    out(e, 0) = w;
    out(e, 1) = 1.0 - w;
  }
  return out;
}

/// Slot k of cell c in E2C[e] (ICON4Py _create_inverse_neighbor_index(e2c, c2e)); -1 if absent.
static int slot_in_e2c(const Grid& g, index_t e, index_t c) {
  return g.e2c(e, 0) == c ? 0 : (g.e2c(e, 1) == c ? 1 : -1);
}

/// interpolation_fields.compute_geofac_grg from start(C, LATERAL_BOUNDARY_LEVEL_2): the
/// Green-Gauss gradient (1/A) sum_e l_e o_ce n_e psi_e with psi_e = c_lin_e interpolation and
/// the normal n_e expressed in the (east, north) basis of the cell centre.
void compute_geofac_grg(const Grid& g, const EdgeGeometry& eg, const HostTable<double>& div,
                        const HostTable<double>& lin, HostTable<double>& grg_x,
                        HostTable<double>& grg_y) {
  require_inputs(g);
  require_table(g, div, "geofac_div", g.num_cells, 3);
  require_table(g, lin, "c_lin_e", g.num_edges, 2);
  require_table(g, eg.primal_normal_cell_x, "primal_normal_cell_x", g.num_edges, 2);
  require_table(g, eg.primal_normal_cell_y, "primal_normal_cell_y", g.num_edges, 2);
  const index_t start = g.start(Location::Cell, Zone::LateralBoundary2);
  grg_x = grg_y = HostTable<double>(static_cast<std::size_t>(g.num_cells), 4, 0.0);
  for (index_t c = start; c < g.num_cells; ++c) {
    double self_x = 0.0, self_y = 0.0;
    for (int i = 0; i < 3; ++i) {
      const index_t e = g.c2e(c, i);
      const int k_self = slot_in_e2c(g, e, c);
      if (k_self < 0)
        throw GridError(fmt::format("grid '{}': cell {} is not in E2C of its edge {} (C2E slot {})",
                                    g.name, c, e, i));
      const double nx = eg.primal_normal_cell_x(e, k_self);
      const double ny = eg.primal_normal_cell_y(e, k_self);
      const double tmp = div(c, i) * lin(e, k_self);
      self_x += nx * tmp;
      self_y += ny * tmp;
      const index_t n = g.c2e2c(c, i);
      if (n == missing_index) continue;
      for (int k = 0; k < 2; ++k)
        if (g.e2c(e, k) == n) {
          grg_x(c, 1 + i) += nx * div(c, i) * lin(e, k);
          grg_y(c, 1 + i) += ny * div(c, i) * lin(e, k);
        }
    }
    grg_x(c, 0) = self_x;
    grg_y(c, 0) = self_y;
  }
}

/// interpolation_fields.compute_e_bln_c_s: bilinear weights of the three edge midpoints for the
/// cell centre (central weight 0), on every cell.
HostTable<double> compute_e_bln_c_s(const Grid& g) {
  require_inputs(g);
  HostTable<double> out(static_cast<std::size_t>(g.num_cells), 3, 0.0);
  for (index_t c = 0; c < g.num_cells; ++c) {
    std::array<double, 3> plat{}, plon{};
    for (int j = 0; j < 3; ++j) {
      plat[j] = g.edge_lat[g.c2e(c, j)];
      plon[j] = g.edge_lon[g.c2e(c, j)];
    }
    const auto w = bilinear_weights(g.cell_lat[c], g.cell_lon[c], plat, plon, 0.0);
    for (int j = 0; j < 3; ++j) out(c, j) = w[j];
  }
  return out;
}

/// interpolation_fields.compute_mass_conserving_bilinear_cell_average_weight:
///  1. _compute_c_bln_avg from start(C, LATERAL_BOUNDARY_LEVEL_2): central weight
///     divavg_cntrwgt, the three neighbours' bilinear weights (C2E2C order) for the rest;
///  2. _force_mass_conservation_to_c_bln_avg from start(C, LATERAL_BOUNDARY_LEVEL_3):
///     999 relaxation sweeps towards "every cell's value enters the area-weighted sum of the
///     averages with total weight 1", i.e. sum_i c_bln_avg[n_i, slot of c in n_i] * A[n_i] = A[c]
///     over c's C2E2CO neighbours n_i, then one last sweep that puts the remaining residual on the
///     central weight, which makes that condition hold to round-off (ICON4Py runs a fixed
///     niter = 1000 sweeps, as ICON does).
/// Cells with a missing neighbour get zero weights and take no part in the sweeps.
HostTable<double> compute_c_bln_avg(const Grid& g, double wgt_loc,
                                    const CellHaloExchange& exchange) {
  require_inputs(g);
  if (!std::isfinite(wgt_loc) || wgt_loc < 0.0 || wgt_loc > 1.0)
    throw InvalidArgument(fmt::format(
        "compute_c_bln_avg: divergence_averaging_central_cell_weight (ICON divavg_cntrwgt) = {}, "
        "expected a weight in [0, 1]",
        wgt_loc));
  const index_t start_2 = g.start(Location::Cell, Zone::LateralBoundary2);
  const index_t start_3 = g.start(Location::Cell, Zone::LateralBoundary3);
  const index_t nc = g.num_cells;
  HostTable<double> w(static_cast<std::size_t>(nc), 4, 0.0);
  std::vector<char> complete(static_cast<std::size_t>(nc), 0);
  for (index_t c = start_2; c < nc; ++c) {
    std::array<double, 3> plat{}, plon{};
    bool ok = true;
    for (int j = 0; j < 3; ++j) {
      const index_t n = g.c2e2c(c, j);
      if (n == missing_index) {
        ok = false;
        break;
      }
      plat[j] = g.cell_lat[n];
      plon[j] = g.cell_lon[n];
    }
    if (!ok) continue;
    complete[c] = 1;
    const auto b = bilinear_weights(g.cell_lat[c], g.cell_lon[c], plat, plon, wgt_loc);
    w(c, 0) = wgt_loc;
    for (int j = 0; j < 3; ++j) w(c, 1 + j) = b[j];
  }

  // The sweeps run over the cells from LB3 that have all neighbours. For each such cell a and
  // slot i, source = the position of c's weight in the flat (row-major) weights of its neighbour
  // n = C2E2CO[c,i]: n * 4 + (slot of c in C2E2CO[n]) (_create_inverse_neighbor_index), so
  // n = source / 4.
  std::vector<index_t> cells;
  for (index_t c = start_3; c < nc; ++c)
    if (complete[c]) cells.push_back(c);
  const std::size_t m = cells.size();
  std::vector<index_t> source(4 * m);
  for (std::size_t a = 0; a < m; ++a) {
    const index_t c = cells[a];
    for (int i = 0; i < 4; ++i) {
      const index_t n = g.c2e2co(c, i);
      int slot = -1;
      for (int k = 0; k < 4 && slot < 0; ++k)
        if (g.c2e2co(n, k) == c) slot = k;
      if (slot < 0)
        throw GridError(fmt::format(
            "grid '{}': cell {} is not a C2E2CO neighbour of its own neighbour {} (slot {})",
            g.name, c, n, i));
      source[4 * a + i] = 4 * n + slot;
    }
  }

  // Jacobi sweeps, as ICON4Py's whole-array updates: each sweep first computes every residual
  // from the previous weights, then updates the weights. Serial on purpose: 2 x 1000 global
  // synchronisations cost more than they save in a host parallel loop on a shared node, and the
  // result does not depend on the thread count.
  constexpr int niter = 1000;
  constexpr double relax_coeff = 0.46;
  const double max_wgt_loc = wgt_loc + 0.003, min_wgt_loc = wgt_loc - 0.003;
  double* weight = w.data();
  const double* area = g.cell_area.data();
  HostTable<double> residual_table(static_cast<std::size_t>(nc), 1, 0.0);
  double* residual = residual_table.data();
  if (exchange) exchange(w);
  for (int iteration = 0; iteration < niter; ++iteration) {
    for (std::size_t a = 0; a < m; ++a) {
      double local = 0.0;
      for (int i = 0; i < 4; ++i) {
        const index_t k = source[4 * a + i];
        local += weight[k] * area[k / 4];
      }
      residual[cells[a]] = local / area[cells[a]] - 1.0;
    }
    if (exchange) exchange(residual_table);
    if (iteration == niter - 1) {
      for (index_t c : cells) weight[4 * c] -= residual[c];
      if (exchange) exchange(w);
      break;
    }
    for (std::size_t a = 0; a < m; ++a) {
      double* wc = weight + 4 * static_cast<std::size_t>(cells[a]);
      double sum = 0.0;
      for (int i = 0; i < 4; ++i) {
        wc[i] -= relax_coeff * residual[source[4 * a + i] / 4];
        sum += wc[i];
      }
      const double excess = sum - 1.0;
      for (int i = 0; i < 4; ++i) wc[i] -= 0.25 * excess;
      // "avoid runaway condition"
      wc[0] = std::min(std::max(wc[0], min_wgt_loc), max_wgt_loc);
    }
    if (exchange) exchange(w);
  }
  return w;
}

/// stencils/compute_nudgecoeffs.py on edges [start(E, NUDGING_LEVEL_2), n):
/// max_nudging_coefficient * exp(-(refin_e - 10) / (2 nudge_efold_width)) where
/// 0 < refin_e <= 2 nudge_zone_width + 7 (raw refin_e_ctrl), else 0.
std::vector<double> compute_nudgecoeff_e(const Grid& g, const InterpolationConfig& config) {
  config.validate();
  require_inputs(g);
  check_nudging_rows(g, config);
  std::vector<double> out(static_cast<std::size_t>(g.num_edges), 0.0);
  const auto& refin = g.refin_ctrl[static_cast<int>(Location::Edge)];
  const int last_row = 2 * config.nudge_zone_width + (grf_nudge_start_e - 3);
  for (index_t e = g.start(Location::Edge, Zone::Nudging2); e < g.num_edges; ++e) {
    const int row = refin[e];
    if (row > 0 && row <= last_row)
      out[e] =
          config.max_nudging_coefficient * std::exp(-static_cast<double>(row - grf_nudge_start_e) /
                                                    (2.0 * config.nudge_efold_width));
  }
  return out;
}

void InterpolationConfig::validate() const {
  const auto text = [](double x) { return fmt::format("{}", x); };
  if (!std::isfinite(divergence_averaging_central_cell_weight) ||
      divergence_averaging_central_cell_weight < 0.0 ||
      divergence_averaging_central_cell_weight > 1.0)
    reject("divergence_averaging_central_cell_weight", "dynamics_nml:divavg_cntrwgt",
           text(divergence_averaging_central_cell_weight),
           "expected a weight in [0, 1] (ICON's default is 0.5)");
  if (!std::isfinite(max_nudging_coefficient) || max_nudging_coefficient < 0.0)
    reject("max_nudging_coefficient", "interpol_nml:nudge_max_coeff (x5)",
           text(max_nudging_coefficient),
           "expected a non-negative number, already multiplied by 5, equal to "
           "DiffusionConfig::max_nudging_coefficient");
  if (!std::isfinite(nudge_efold_width) || !(nudge_efold_width > 0.0))
    reject("nudge_efold_width", "interpol_nml:nudge_efold_width", text(nudge_efold_width),
           "expected a positive number of cell rows (the profile divides by it)");
  if (nudge_zone_width < 0)
    reject("nudge_zone_width", "interpol_nml:nudge_zone_width", std::to_string(nudge_zone_width),
           "expected a number of cell rows >= 0 (ICON's negative value, 'take "
           "boundary_depth_index - 4 from the grid file', is not supported)");
  const int kernel = static_cast<int>(rbf_kernel_vertex);
  if (kernel != 1 && kernel != 3)
    reject("rbf_kernel_vertex", "interpol_nml:rbf_vec_kern_v", std::to_string(kernel),
           "expected 1 (Gaussian) or 3 (inverse multiquadric), as ICON accepts");
  if (!std::isfinite(rbf_scale_vertex))
    reject("rbf_scale_vertex", "interpol_nml:rbf_vec_scale_v", text(rbf_scale_vertex),
           "expected a positive scale in radians, or <= 0 for ICON's resolution-dependent default");
  const int kernel_edge = static_cast<int>(rbf_kernel_edge);
  if (kernel_edge != 1 && kernel_edge != 3)
    reject("rbf_kernel_edge", "interpol_nml:rbf_vec_kern_e", std::to_string(kernel_edge),
           "expected 1 (Gaussian) or 3 (inverse multiquadric), as ICON accepts");
  if (!std::isfinite(rbf_scale_edge))
    reject("rbf_scale_edge", "interpol_nml:rbf_vec_scale_e", text(rbf_scale_edge),
           "expected a positive scale in radians, or <= 0 for ICON's resolution-dependent default");
}

double mean_characteristic_length(const Grid& g) {
  if (g.grid_root > 0 && g.grid_level >= 0)
    return mean_characteristic_length(g.grid_root, g.grid_level, g.sphere_radius, 0.0);
  if (g.cell_area.empty())
    throw GridError(fmt::format(
        "grid '{}' has neither a root/level (RnBk) nor cell areas to derive its resolution from",
        g.name));
  double mean_area = 0.0;
  for (double a : g.cell_area) mean_area += a;
  mean_area /= static_cast<double>(g.cell_area.size());
  return mean_characteristic_length(g.grid_root, g.grid_level, g.sphere_radius, mean_area);
}

double mean_characteristic_length(int grid_root, int grid_level, double sphere_radius,
                                  double mean_cell_area) {
  if (grid_root > 0 && grid_level >= 0) {
    const double n = grid_root;
    return std::sqrt(4.0 * pi * sphere_radius * sphere_radius /
                     (20.0 * n * n * std::pow(4.0, grid_level)));
  }
  return std::sqrt(mean_cell_area);
}

void check_lateral_boundary_rows(int max_row, const std::string& grid_name,
                                 const InterpolationConfig& config) {
  if (max_row > 0 && max_row < config.nudge_zone_width + grf_nudge_start_c - 1)
    throw ConfigError(fmt::format(
        "interpolation config: nudge_zone_width (ICON interpol_nml:nudge_zone_width) = {} needs "
        "a limited-area grid whose refin_c_ctrl marks at least {} cell rows, but grid '{}' marks "
        "{} (ICON init_nudgecoeffs: 'bdy_indexing_depth must be at least nudge_zone_width+4')",
        config.nudge_zone_width, config.nudge_zone_width + grf_nudge_start_c - 1, grid_name,
        max_row));
}

double default_rbf_scale_vertex(double mean_characteristic_length_m) {
  if (!(mean_characteristic_length_m > 0.0) || !std::isfinite(mean_characteristic_length_m))
    throw InvalidArgument(fmt::format(
        "default_rbf_scale_vertex: mean characteristic length = {} m, expected a positive length",
        mean_characteristic_length_m));
  const double resol = mean_characteristic_length_m / 1000.0;  // km
  constexpr double threshold = 2.0, c1 = 1.8, c2 = 3.0, c3 = 0.96;
  double scale =
      resol < threshold ? 0.5 / (1.0 + c1 * std::pow(std::log(threshold / resol), c2)) : 0.5;
  if (resol <= 0.125) scale *= std::pow(resol / 0.125, c3);
  return scale;
}

double default_rbf_scale_edge(double mean_characteristic_length_m) {
  if (!(mean_characteristic_length_m > 0.0) || !std::isfinite(mean_characteristic_length_m))
    throw InvalidArgument(fmt::format(
        "default_rbf_scale_edge: mean characteristic length = {} m, expected a positive length",
        mean_characteristic_length_m));
  const double resol = mean_characteristic_length_m / 1000.0;  // km
  constexpr double threshold = 2.0, c1 = 0.4, c2 = 2.0, c3 = 0.325;
  double scale =
      resol < threshold ? 0.5 / (1.0 + c1 * std::pow(std::log(threshold / resol), c2)) : 0.5;
  if (resol <= 0.125) scale *= std::pow(resol / 0.125, c3);
  return scale;
}

InterpolationCoefficients compute_interpolation_coefficients(const Grid& g,
                                                             const InterpolationConfig& config,
                                                             const CellHaloExchange& exchange) {
  config.validate();
  require_inputs(g);
  check_nudging_rows(g, config);
  if (!compat::is_initialized())
    throw InvalidArgument(
        "compute_interpolation_coefficients: Kokkos is not initialized (the RBF systems are "
        "solved with Kokkos Kernels on the host execution space); call Kokkos::initialize first");
  compat::ScopedRegion region("icondiff::interpolation::compute_interpolation_coefficients");

  const EdgeGeometry eg = compute_edge_geometry(g);
  InterpolationCoefficients out;
  out.geofac_div = compute_geofac_div(g);
  out.geofac_rot = compute_geofac_rot(g);
  out.geofac_n2s = compute_geofac_n2s(g, out.geofac_div);
  out.c_lin_e = compute_c_lin_e(g);
  compute_geofac_grg(g, eg, out.geofac_div, out.c_lin_e, out.geofac_grg_x, out.geofac_grg_y);
  out.e_bln_c_s = compute_e_bln_c_s(g);
  out.c_bln_avg = compute_c_bln_avg(g, config.divergence_averaging_central_cell_weight, exchange);
  out.nudgecoeff_e = compute_nudgecoeff_e(g, config);

  out.rbf_scale_vertex = config.rbf_scale_vertex > 0.0
                             ? config.rbf_scale_vertex
                             : default_rbf_scale_vertex(mean_characteristic_length(g));
  compute_rbf_vec_coeff_v(g, eg, config.rbf_kernel_vertex, out.rbf_scale_vertex,
                          out.rbf_vec_coeff_v1, out.rbf_vec_coeff_v2);

  return out;
}

void compute_dycore_interpolation_coefficients(const Grid& g, const EdgeGeometry& eg,
                                               const InterpolationConfig& config,
                                               InterpolationCoefficients& out) {
  config.validate();
  out.c_intp = compute_c_intp(g);
  out.e_flx_avg = compute_e_flx_avg(g, eg, out.c_bln_avg, out.geofac_div);
  out.geofac_grdiv = compute_geofac_grdiv(g, out.geofac_div);
  compute_pos_on_tplane_e(g, eg, out.pos_on_tplane_e_1, out.pos_on_tplane_e_2);
  out.rbf_scale_edge = config.rbf_scale_edge > 0.0
                           ? config.rbf_scale_edge
                           : default_rbf_scale_edge(mean_characteristic_length(g));
  out.rbf_vec_coeff_e = compute_rbf_vec_coeff_e(g, eg, config.rbf_kernel_edge, out.rbf_scale_edge);
  out.coeff_gradekin = compute_coeff_gradekin(g);
}

}  // namespace icondiff
