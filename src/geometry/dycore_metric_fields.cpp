// The dycore's metric fields on the host, each a port of the ICON4Py 0.2.0 function of the same
// name with its operation order (so that the values can equal ICON4Py's bit for bit); where
// ICON4Py's numpy code and ICON's Fortran differ, the comment says which one is followed.
// docs/dev/metrics.md, "Dycore metric fields", has the formulas and domains.
#include <icondiff/core/error.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>

#include "factory_checks.hpp"
#include "reference_atmosphere.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace icondiff {

namespace {

using detail::require_table;

// ICON's mo_impl_constants_grf: the first edge row of the nudging zone (grf_nudge_start_e =
// grf_bdywidth_e + 1) and the zone's width in cell rows (ICON4Py grid_refinement:
// get_nudging_refinement_value(EdgeDim), DEFAULT_GRF_NUDGEZONE_WIDTH).
constexpr int grf_nudge_start_e = 10;
constexpr int grf_nudgezone_width = 8;
// Height (m) below the higher of an edge's two surface heights from which the pressure gradient is
// extrapolated hydrostatically (mo_vertical_grid: extrapol_dist).
constexpr double extrapol_dist = 5.0;

std::size_t levels_of_half(const HostTable<double>& z_ifc, const char* who) {
  if (z_ifc.cols() < 4)
    throw InvalidArgument(
        fmt::format("{}: z_ifc has {} half levels, expected >= 4 (nlev >= 3)", who, z_ifc.cols()));
  return z_ifc.cols() - 1;
}

bool owned(const Grid& grid, Location location, index_t point) {
  const auto& owners = grid.owner_rank(location);
  return owners.empty() || owners[point] == grid.rank;
}

// The two cells of an edge from lateral boundary row 2 on, which every such edge has; none for an
// outer halo edge of a rank's part whose outer cell the part does not hold (skipped).
std::optional<std::array<index_t, 2>> both_cells(const Grid& grid, index_t e, const char* who) {
  const index_t c0 = grid.e2c(e, 0), c1 = grid.e2c(e, 1);
  if ((c0 == missing_index || c1 == missing_index) &&
      detail::is_halo_point(grid, Location::Edge, e))
    return std::nullopt;
  if (c0 == missing_index || c1 == missing_index)
    throw GridError(
        fmt::format("{}: edge {} (from lateral boundary row 2 on) lacks a cell (e2c "
                    "= {}, {})",
                    who, e, c0, c1));
  return std::array<index_t, 2>{c0, c1};
}

// z_me = Σ over E2C of z_mc · c_lin_e as ICON4Py's numpy factories sum it (z_mc[e2c] * c_lin_e,
// summed over the slot axis: slot 0 + slot 1); a missing cell has weight 0 and is skipped.
double edge_height(const Grid& grid, const HostTable<double>& z_mc,
                   const HostTable<double>& c_lin_e, index_t e, std::size_t k) {
  double sum = 0.0;
  bool first = true;
  for (int j = 0; j < 2; ++j) {
    const index_t c = grid.e2c(e, j);
    if (c == missing_index) continue;
    const double term = z_mc(c, k) * c_lin_e(e, j);
    sum = first ? term : sum + term;
    first = false;
  }
  return sum;
}

}  // namespace

HostTable<double> compute_ddqz_z_half(const HostTable<double>& z_ifc,
                                      const HostTable<double>& z_mc) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_ddqz_z_half");
  require_table("z_mc", z_mc, z_ifc.rows(), nlev);
  HostTable<double> out(z_ifc.rows(), nlev + 1);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c) {
    out(c, 0) = 2.0 * (z_ifc(c, 0) - z_mc(c, 0));
    for (std::size_t k = 1; k < nlev; ++k) out(c, k) = z_mc(c, k - 1) - z_mc(c, k);
    out(c, nlev) = 2.0 * (z_mc(c, nlev - 1) - z_ifc(c, nlev));
  }
  return out;
}

void compute_ddqz_z_full_and_inverse(const HostTable<double>& z_ifc, HostTable<double>& ddqz_z_full,
                                     HostTable<double>& inv_ddqz_z_full) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_ddqz_z_full_and_inverse");
  ddqz_z_full = HostTable<double>(z_ifc.rows(), nlev);
  inv_ddqz_z_full = HostTable<double>(z_ifc.rows(), nlev);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c)
    for (std::size_t k = 0; k < nlev; ++k) {
      ddqz_z_full(c, k) = z_ifc(c, k) - z_ifc(c, k + 1);
      inv_ddqz_z_full(c, k) = 1.0 / ddqz_z_full(c, k);
    }
}

HostTable<double> interpolate_cells_to_edges(const Grid& grid, const HostTable<double>& cell_field,
                                             const HostTable<double>& c_lin_e) {
  require_table("cell field", cell_field, grid.num_cells, cell_field.cols());
  require_table("c_lin_e", c_lin_e, grid.num_edges, 2);
  HostTable<double> out(grid.num_edges, cell_field.cols(), 0.0);
  for (index_t e = 0; e < grid.num_edges; ++e)
    for (int j = 0; j < 2; ++j) {
      // gt4py's neighbor_sum: ((0 + slot 0) + slot 1), missing slots skipped; cell value first.
      const index_t c = grid.e2c(e, j);
      if (c == missing_index) continue;
      for (std::size_t k = 0; k < cell_field.cols(); ++k)
        out(e, k) += cell_field(c, k) * c_lin_e(e, j);
    }
  return out;
}

void compute_coeff_dwdz(const HostTable<double>& ddqz_z_full, const HostTable<double>& z_ifc,
                        HostTable<double>& coeff1_dwdz, HostTable<double>& coeff2_dwdz) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_coeff_dwdz");
  require_table("ddqz_z_full", ddqz_z_full, z_ifc.rows(), nlev);
  coeff1_dwdz = HostTable<double>(z_ifc.rows(), nlev, 0.0);
  coeff2_dwdz = HostTable<double>(z_ifc.rows(), nlev, 0.0);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c)
    for (std::size_t k = 1; k < nlev; ++k) {
      const double dz = z_ifc(c, k - 1) - z_ifc(c, k + 1);
      coeff1_dwdz(c, k) = ddqz_z_full(c, k) / ddqz_z_full(c, k - 1) / dz;
      coeff2_dwdz(c, k) = ddqz_z_full(c, k - 1) / ddqz_z_full(c, k) / dz;
    }
}

void compute_reference_atmosphere_cells(const HostTable<double>& z_mc,
                                        HostTable<double>& exner_ref_mc,
                                        HostTable<double>& rho_ref_mc) {
  exner_ref_mc = HostTable<double>(z_mc.rows(), z_mc.cols());
  rho_ref_mc = HostTable<double>(z_mc.rows(), z_mc.cols());
  for (std::size_t c = 0; c < z_mc.rows(); ++c)
    for (std::size_t k = 0; k < z_mc.cols(); ++k) {
      const auto a = detail::reference_atmosphere_at(z_mc(c, k));
      exner_ref_mc(c, k) = a.exner;
      rho_ref_mc(c, k) = a.rho;
    }
}

void compute_theta_d_exner_dz_ref_ic(const HostTable<double>& z_ifc,
                                     HostTable<double>& theta_ref_ic,
                                     HostTable<double>& d_exner_dz_ref_ic) {
  using namespace physics;
  theta_ref_ic = HostTable<double>(z_ifc.rows(), z_ifc.cols());
  d_exner_dz_ref_ic = HostTable<double>(z_ifc.rows(), z_ifc.cols());
  for (std::size_t c = 0; c < z_ifc.rows(); ++c)
    for (std::size_t k = 0; k < z_ifc.cols(); ++k) {
      const double theta = detail::reference_atmosphere_at(z_ifc(c, k)).theta;
      theta_ref_ic(c, k) = theta;
      d_exner_dz_ref_ic(c, k) = -grav / cpd / theta;
    }
}

void compute_d2dexdz2_fac_mc(const HostTable<double>& theta_ref_mc,
                             const HostTable<double>& inv_ddqz_z_full,
                             const HostTable<double>& exner_ref_mc, const HostTable<double>& z_mc,
                             HostTable<double>& fac1, HostTable<double>& fac2) {
  using namespace physics;
  const std::size_t rows = z_mc.rows(), nlev = z_mc.cols();
  require_table("theta_ref_mc", theta_ref_mc, rows, nlev);
  require_table("inv_ddqz_z_full", inv_ddqz_z_full, rows, nlev);
  require_table("exner_ref_mc", exner_ref_mc, rows, nlev);
  fac1 = HostTable<double>(rows, nlev);
  fac2 = HostTable<double>(rows, nlev);
  for (std::size_t c = 0; c < rows; ++c)
    for (std::size_t k = 0; k < nlev; ++k) {
      // gt4py's `**` is std::pow, correctly rounded; theta**3 != theta*theta*theta in general.
      const double theta = theta_ref_mc(c, k);
      fac1(c, k) = -grav / (cpd * std::pow(theta, 2.0)) * inv_ddqz_z_full(c, k);
      fac2(c, k) = 2.0 * grav / (cpd * std::pow(theta, 3.0)) *
                   (grav / cpd - del_t_bg / h_scal_bg * std::exp(-z_mc(c, k) / h_scal_bg)) /
                   exner_ref_mc(c, k);
    }
}

void compute_reference_atmosphere_edges(const Grid& grid, const HostTable<double>& z_mc,
                                        const HostTable<double>& c_lin_e,
                                        HostTable<double>& rho_ref_me,
                                        HostTable<double>& theta_ref_me) {
  require_table("z_mc", z_mc, grid.num_cells, z_mc.cols());
  require_table("c_lin_e", c_lin_e, grid.num_edges, 2);
  const std::size_t nlev = z_mc.cols();
  rho_ref_me = HostTable<double>(grid.num_edges, nlev, 0.0);
  theta_ref_me = HostTable<double>(grid.num_edges, nlev, 0.0);
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary2); e < grid.num_edges; ++e) {
    if (!both_cells(grid, e, "compute_reference_atmosphere_edges")) continue;
    for (std::size_t k = 0; k < nlev; ++k) {
      const auto a = detail::reference_atmosphere_at(edge_height(grid, z_mc, c_lin_e, e, k));
      rho_ref_me(e, k) = a.rho;
      theta_ref_me(e, k) = a.theta;
    }
  }
}

HostTable<double> compute_ddxn_z_half_e(const Grid& grid, const HostTable<double>& z_ifc) {
  require_table("z_ifc", z_ifc, grid.num_cells, z_ifc.cols());
  const std::size_t nhalf = z_ifc.cols();
  HostTable<double> half(grid.num_edges, nhalf, 0.0);
  const index_t end = grid.end(Location::Edge, Zone::Interior);
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary2); e < end; ++e) {
    const auto cells = both_cells(grid, e, "compute_ddxn_z_half_e");
    if (!cells) continue;
    const auto [c0, c1] = *cells;
    const double inv_dual = 1.0 / grid.dual_edge_length[e];
    for (std::size_t k = 0; k < nhalf; ++k) half(e, k) = (z_ifc(c1, k) - z_ifc(c0, k)) * inv_dual;
  }
  return half;
}

HostTable<double> compute_ddxt_z_half_e(const Grid& grid, const HostTable<double>& z_ifc,
                                        const HostTable<double>& c_intp) {
  require_table("z_ifc", z_ifc, grid.num_cells, z_ifc.cols());
  require_table("c_intp", c_intp, grid.num_vertices, 6);
  const std::size_t nhalf = z_ifc.cols();
  // z_ifv = Σ over V2C of c_intp · z_ifc (compute_cell_2_vertex_interpolation: weight first).
  HostTable<double> z_ifv(grid.num_vertices, nhalf, 0.0);
  for (index_t v = 0; v < grid.num_vertices; ++v)
    for (int j = 0; j < 6; ++j) {
      const index_t c = grid.v2c(v, j);
      if (c == missing_index) continue;
      for (std::size_t k = 0; k < nhalf; ++k) z_ifv(v, k) += c_intp(v, j) * z_ifc(c, k);
    }
  HostTable<double> half(grid.num_edges, nhalf, 0.0);
  const index_t end = grid.end(Location::Edge, Zone::Interior);
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary3); e < end; ++e) {
    const index_t v0 = grid.e2v(e, 0), v1 = grid.e2v(e, 1);
    const double inv_primal = 1.0 / grid.edge_length[e];
    for (std::size_t k = 0; k < nhalf; ++k)
      half(e, k) = grid.tangent_orientation[e] * (z_ifv(v1, k) - z_ifv(v0, k)) * inv_primal;
  }
  return half;
}

HostTable<double> average_half_levels_on_edges(const HostTable<double>& half, index_t start) {
  const std::size_t nlev = half.cols() - 1;
  HostTable<double> full(half.rows(), nlev, 0.0);
  for (std::size_t e = static_cast<std::size_t>(start); e < half.rows(); ++e)
    for (std::size_t k = 0; k < nlev; ++k) full(e, k) = 0.5 * (half(e, k) + half(e, k + 1));
  return full;
}

HostTable<double> compute_exner_exfac(const Grid& grid, const HostTable<double>& maxslp,
                                      const HostTable<double>& maxhgtd, double exner_expol) {
  require_table("maxslp", maxslp, grid.num_cells, maxslp.cols());
  require_table("maxhgtd", maxhgtd, grid.num_cells, maxslp.cols());
  const index_t start = grid.start(Location::Cell, Zone::LateralBoundary2);
  HostTable<double> exfac(grid.num_cells, maxslp.cols());
  for (index_t c = 0; c < grid.num_cells; ++c)
    for (std::size_t k = 0; k < maxslp.cols(); ++k) {
      const double slope = maxslp(c, k), step = maxhgtd(c, k);
      // Zero for a slope of 1/4 or a height step of 500 m between neighbours (empirical).
      double f = c >= start ? exner_expol * std::min(1.0 - std::pow(4.0 * slope, 2.0),
                                                     1.0 - std::pow(0.002 * step, 2.0))
                            : exner_expol;
      f = std::max(0.0, f);
      if (slope > 1.5) f = std::max(-1.0 / 6.0, 1.0 / 9.0 * (1.5 - slope));
      exfac(c, k) = f;
    }
  return exfac;
}

std::vector<double> compute_vwind_impl_wgt(const Grid& grid, const std::vector<double>& vct_a,
                                           const HostTable<double>& z_ifc,
                                           const HostTable<double>& ddxn_z_half_e,
                                           const HostTable<double>& ddxt_z_half_e,
                                           double vwind_offctr) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_vwind_impl_wgt");
  require_table("z_ifc", z_ifc, grid.num_cells, nlev + 1);
  require_table("ddxn_z_half_e", ddxn_z_half_e, grid.num_edges, nlev + 1);
  require_table("ddxt_z_half_e", ddxt_z_half_e, grid.num_edges, nlev + 1);
  if (vct_a.size() != nlev + 1)
    throw InvalidArgument(fmt::format("compute_vwind_impl_wgt: vct_a has {} values, expected {}",
                                      vct_a.size(), nlev + 1));
  const double factor = std::max(vwind_offctr, 0.75);
  std::vector<double> impl(grid.num_cells);
  for (index_t c = 0; c < grid.num_cells; ++c) {
    // Off-centring grows with the steepest surface slope among the cell's edges.
    double max_slope = 0.0, max_step = 0.0;
    for (int j = 0; j < 3; ++j) {
      const index_t e = grid.c2e(c, j);
      const double zn = std::fabs(ddxn_z_half_e(e, nlev));
      const double zt = std::fabs(ddxt_z_half_e(e, nlev));
      const double step = std::fabs(zn * grid.dual_edge_length[e]);
      max_slope = j == 0 ? std::max(zn, zt) : std::max({max_slope, zn, zt});
      max_step = j == 0 ? step : std::max(max_step, step);
    }
    const double maxslope = 0.425 * std::pow(max_slope, 0.75);
    const double diff = std::min(0.25, 0.00025 * (max_step - 250.0));
    const double offctr = std::min(factor, std::max(vwind_offctr, std::max(maxslope, diff)));
    impl[c] = 0.5 + offctr;
  }
  // More off-centring where the lowest nine layers are squeezed below 60 % of their nominal
  // thickness (over steep mountains).
  const index_t start = grid.start(Location::Cell, Zone::LateralBoundary2);
  for (std::size_t k = nlev > 9 ? nlev - 9 : 0; k < nlev; ++k)
    for (index_t c = start; c < grid.num_cells; ++c) {
      const double zdiff2 = (z_ifc(c, k) - z_ifc(c, k + 1)) / (vct_a[k] - vct_a[k + 1]);
      if (zdiff2 < 0.6) impl[c] = std::max(1.2 - zdiff2, impl[c]);
    }
  return impl;
}

namespace {
// z1, z2, z3 of compute_weight_factors._compute_z1_z2_z3: the heights of the three full levels
// above half level i1, relative to it.
struct ThreeHeights {
  double z1, z2, z3;
};
ThreeHeights three_heights(const HostTable<double>& z_ifc, std::size_t c, std::size_t i1,
                           std::size_t i2, std::size_t i3, std::size_t i4) {
  return {0.5 * (z_ifc(c, i2) - z_ifc(c, i1)), 0.5 * (z_ifc(c, i2) + z_ifc(c, i3)) - z_ifc(c, i1),
          0.5 * (z_ifc(c, i3) + z_ifc(c, i4)) - z_ifc(c, i1)};
}
}  // namespace

HostTable<double> compute_wgtfacq_c(const HostTable<double>& z_ifc) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_wgtfacq_c");
  HostTable<double> w(z_ifc.rows(), nlev, 0.0);
  for (std::size_t c = 0; c < z_ifc.rows(); ++c) {
    const auto [z1, z2, z3] = three_heights(z_ifc, c, nlev, nlev - 1, nlev - 2, nlev - 3);
    const double w2 = z1 * z2 / (z2 - z3) / (z1 - z3);
    const double w1 = (z1 - w2 * (z1 - z3)) / (z1 - z2);
    const double w0 = 1.0 - (w1 + w2);
    w(c, nlev - 1) = w0;
    w(c, nlev - 2) = w1;
    w(c, nlev - 3) = w2;
  }
  return w;
}

HostTable<double> compute_wgtfacq_e(const Grid& grid, const HostTable<double>& z_ifc,
                                    const HostTable<double>& wgtfacq_c,
                                    const HostTable<double>& c_lin_e) {
  const std::size_t nlev = levels_of_half(z_ifc, "compute_wgtfacq_e");
  require_table("z_ifc", z_ifc, grid.num_cells, nlev + 1);
  require_table("wgtfacq_c", wgtfacq_c, grid.num_cells, nlev);
  require_table("c_lin_e", c_lin_e, grid.num_edges, 2);
  // The cells' three weights as ICON recomputes them for the edges (mo_vertical_grid: z_aux_c),
  // slot i = the weight of level nlev-1-i.
  HostTable<double> aux(grid.num_cells, 3);
  for (index_t c = 0; c < grid.num_cells; ++c) {
    const auto [z1, z2, z3] = three_heights(z_ifc, c, nlev, nlev - 1, nlev - 2, nlev - 3);
    aux(c, 2) = z1 * z2 / (z2 - z3) / (z1 - z3);
    aux(c, 1) = (z1 - wgtfacq_c(c, nlev - 3) * (z1 - z3)) / (z1 - z2);
    aux(c, 0) = 1.0 - (wgtfacq_c(c, nlev - 2) + wgtfacq_c(c, nlev - 3));
  }
  HostTable<double> w(grid.num_edges, nlev, 0.0);
  for (index_t e = 0; e < grid.num_edges; ++e)
    for (int i = 0; i < 3; ++i) {
      // numpy: sum over the slot axis of c_lin_e * z_aux_c[e2c] (slot 0 + slot 1).
      double sum = 0.0;
      bool first = true;
      for (int j = 0; j < 2; ++j) {
        const index_t c = grid.e2c(e, j);
        if (c == missing_index) continue;
        const double term = c_lin_e(e, j) * aux(c, i);
        sum = first ? term : sum + term;
        first = false;
      }
      w(e, nlev - 1 - i) = sum;
    }
  return w;
}

std::vector<int> compute_flat_idx_max(const Grid& grid, const HostTable<double>& z_mc,
                                      const HostTable<double>& z_ifc,
                                      const HostTable<double>& c_lin_e) {
  const std::size_t nlev = z_mc.cols();
  require_table("z_mc", z_mc, grid.num_cells, nlev);
  require_table("z_ifc", z_ifc, grid.num_cells, nlev + 1);
  require_table("c_lin_e", c_lin_e, grid.num_edges, 2);
  std::vector<int> flat(grid.num_edges, 0);
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary2); e < grid.num_edges; ++e) {
    const auto cells = both_cells(grid, e, "compute_flat_idx_max");
    if (!cells) continue;
    const auto [c0, c1] = *cells;
    for (std::size_t k = 0; k < nlev; ++k) {
      // Level k is flat at this edge when the edge height lies inside layer k of both cells.
      const double z_me = edge_height(grid, z_mc, c_lin_e, e, k);
      if (z_me <= z_ifc(c0, k) && z_me >= z_ifc(c0, k + 1) && z_me <= z_ifc(c1, k) &&
          z_me >= z_ifc(c1, k + 1))
        flat[e] = std::max(flat[e], static_cast<int>(k));
    }
  }
  return flat;
}

int compute_nflat_gradp(const Grid& grid, const std::vector<int>& flat_idx_max, int nlev) {
  int n = nlev;
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary2); e < grid.num_edges; ++e)
    if (owned(grid, Location::Edge, e)) n = std::min(n, flat_idx_max.at(e));
  return n;
}

HostTable<double> compute_pg_exdist(const Grid& grid, const HostTable<double>& z_mc,
                                    const HostTable<double>& c_lin_e,
                                    const std::vector<double>& topography,
                                    const std::vector<int>& flat_idx_max) {
  const std::size_t nlev = z_mc.cols();
  HostTable<double> dist(grid.num_edges, nlev, 0.0);
  // The extrapolation distance is taken on edges from the end of the nudging zone to the last
  // owned edge; outside it the distance is 0, so that z_me < 0 is needed (never, above sea level).
  const index_t near = grid.end(Location::Edge, Zone::Nudging);
  const index_t far = grid.end(Location::Edge, Zone::Local);
  for (index_t e = grid.start(Location::Edge, Zone::Nudging2); e < grid.num_edges; ++e) {
    if (!owned(grid, Location::Edge, e)) continue;
    const auto cells = both_cells(grid, e, "compute_pg_exdist");
    if (!cells) continue;
    const auto [c0, c1] = *cells;
    const double limit =
        e >= near && e < far ? std::max(topography[c0], topography[c1]) - extrapol_dist : 0.0;
    for (std::size_t k = static_cast<std::size_t>(flat_idx_max[e]) + 1; k < nlev; ++k) {
      const double z_me = edge_height(grid, z_mc, c_lin_e, e, k);
      if (z_me < limit) dist(e, k) = z_me - limit;
    }
  }
  return dist;
}

void compute_zdiff_gradp(const Grid& grid, const HostTable<double>& z_mc,
                         const HostTable<double>& z_ifc, const HostTable<double>& c_lin_e,
                         const std::vector<double>& topography,
                         const std::vector<int>& flat_idx_max,
                         std::array<HostTable<double>, 2>& zdiff_gradp,
                         std::array<HostTable<int>, 2>& vertoffset_gradp) {
  const int nlev = static_cast<int>(z_mc.cols());
  require_table("z_ifc", z_ifc, grid.num_cells, z_mc.cols() + 1);
  const index_t ne = grid.num_edges;
  std::array<HostTable<int>, 2> vertidx;
  for (int s = 0; s < 2; ++s) {
    zdiff_gradp[s] = HostTable<double>(ne, nlev, 0.0);
    vertidx[s] = HostTable<int>(ne, nlev);
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < nlev; ++k) vertidx[s](e, k) = k;
  }
  const index_t start = grid.start(Location::Edge, Zone::LateralBoundary2);
  const index_t start_nudging = grid.start(Location::Edge, Zone::Nudging2);
  // Layer jk1 of cell c brackets height z (the lowest layer takes everything below it).
  const auto brackets = [&](index_t c, int jk1, double z) {
    return jk1 == nlev - 1 || (z <= z_ifc(c, jk1) && z >= z_ifc(c, jk1 + 1));
  };
  HostTable<double> z_me(ne, nlev, 0.0);
  for (index_t e = start; e < ne; ++e) {
    const auto both = both_cells(grid, e, "compute_zdiff_gradp");
    if (!both) continue;
    const auto cells = *both;
    for (int k = 0; k < nlev; ++k) z_me(e, k) = edge_height(grid, z_mc, c_lin_e, e, k);
    for (int s = 0; s < 2; ++s)
      for (int k = 0; k < nlev; ++k) zdiff_gradp[s](e, k) = z_me(e, k) - z_mc(cells[s], k);
    const int flat = flat_idx_max[e];
    // Below the flat levels each cell's level is the one whose layer holds the edge height.
    // Slot 0 searches from the flat level for each k (ICON4Py's first loop); slot 1 from the
    // level found for k - 1 (its second loop): the same level, since z_me falls with k.
    for (int k = flat + 1; k < nlev; ++k)
      for (int jk1 = flat; jk1 < nlev; ++jk1)
        if (brackets(cells[0], jk1, z_me(e, k))) {
          vertidx[0](e, k) = jk1;
          zdiff_gradp[0](e, k) = z_me(e, k) - z_mc(cells[0], jk1);
          break;
        }
    int jk_start = flat;
    for (int k = flat + 1; k < nlev; ++k)
      for (int jk1 = jk_start; jk1 < nlev; ++jk1)
        if (brackets(cells[1], jk1, z_me(e, k))) {
          vertidx[1](e, k) = jk1;
          zdiff_gradp[1](e, k) = z_me(e, k) - z_mc(cells[1], jk1);
          jk_start = jk1;
          break;
        }
  }
  // From the second nudging row on: edge levels below the surface of the higher neighbour (minus
  // extrapol_dist) use the level of that height instead (the hydrostatic correction's base).
  for (index_t e = start_nudging; e < ne; ++e) {
    const auto both = both_cells(grid, e, "compute_zdiff_gradp");
    if (!both) continue;
    const auto cells = *both;
    const double z_aux2 = std::max(topography[cells[0]], topography[cells[1]]) - extrapol_dist;
    const int flat = flat_idx_max[e];
    for (int s = 0; s < 2; ++s) {
      int jk_start = flat;
      for (int k = flat + 1; k < nlev; ++k) {
        if (!(z_me(e, k) < z_aux2)) continue;
        for (int jk1 = jk_start; jk1 < nlev; ++jk1)
          if (brackets(cells[s], jk1, z_aux2)) {
            vertidx[s](e, k) = jk1;
            zdiff_gradp[s](e, k) = z_aux2 - z_mc(cells[s], jk1);
            jk_start = jk1;
            break;
          }
      }
    }
  }
  for (int s = 0; s < 2; ++s) {
    vertoffset_gradp[s] = HostTable<int>(ne, nlev);
    for (index_t e = 0; e < ne; ++e)
      for (int k = 0; k < nlev; ++k) vertoffset_gradp[s](e, k) = vertidx[s](e, k) - k;
  }
}

std::vector<double> compute_hmask_dd3d(const Grid& grid) {
  const auto& refin = grid.refin_ctrl[static_cast<int>(Location::Edge)];
  std::vector<double> mask(grid.num_edges, 0.0);
  const double start = grf_nudge_start_e, width = grf_nudgezone_width;
  const index_t end = grid.end(Location::Edge, Zone::Local);
  for (index_t e = grid.start(Location::Edge, Zone::LateralBoundary2); e < end; ++e) {
    const int r = refin.empty() ? 0 : refin[e];
    // 0 in the nudging zone's first half, rising linearly over its second half to 1 inside.
    double m = r > grf_nudge_start_e + grf_nudgezone_width - 1
                   ? 1.0 / (width - 1.0) * (static_cast<double>(r) - (start + width - 1.0))
                   : 0.0;
    if (r <= 0 || static_cast<double>(r) >= start + 2.0 * (width - 1.0)) m = 1.0;
    mask[e] = m;
  }
  return mask;
}

std::vector<double> compute_rayleigh_w(const VerticalGrid& vertical, double damping_height,
                                       double rayleigh_coeff) {
  const std::vector<double>& vct_a = vertical.vct_a;
  std::vector<double> w(vct_a.size(), 0.0);
  const double top = vct_a.at(0);
  // Klemp, Dudhia and Hassiotis (2008): rises from 0 at the damping height to the top.
  for (std::size_t k = 0;
       k <= static_cast<std::size_t>(vertical.end_index_of_damping_layer) && k < vct_a.size(); ++k)
    w[k] = rayleigh_coeff *
           (1.0 - std::tanh(3.8 * (top - vct_a[k]) / std::max(0.000001, top - damping_height)));
  return w;
}

std::vector<double> compute_scalfac_dd3d(const std::vector<double>& vct_a,
                                         const MetricsConfig& config) {
  const std::size_t nlev = vct_a.size() - 1;
  std::vector<double> s(nlev, 1.0);
  if (config.divdamp_type != 32) return s;
  // ICON's mo_vertical_grid: 0 above divdamp_trans_end, linear between start and end. (ICON4Py
  // 0.2.0's where() order gives negative factors above divdamp_trans_end instead.)
  for (std::size_t k = 0; k < nlev; ++k) {
    const double zf = 0.5 * (vct_a[k] + vct_a[k + 1]);
    if (zf >= config.divdamp_trans_end)
      s[k] = 0.0;
    else if (zf >= config.divdamp_trans_start)
      s[k] =
          (config.divdamp_trans_end - zf) / (config.divdamp_trans_end - config.divdamp_trans_start);
  }
  return s;
}

std::vector<std::uint8_t> compute_mask_prog_halo_c(const Grid& grid) {
  const auto& refin = grid.refin_ctrl[static_cast<int>(Location::Cell)];
  std::vector<std::uint8_t> mask(grid.num_cells, 0);
  for (index_t c = grid.start(Location::Cell, Zone::Halo); c < grid.num_cells; ++c) {
    const int r = refin.empty() ? 0 : refin[c];
    mask[c] = (r >= 1 && r <= 4) ? 0 : 1;
  }
  return mask;
}

HostDycoreMetricFields compute_dycore_metric_fields(const Grid& grid,
                                                    const VerticalGridConfig& vertical,
                                                    const MetricsConfig& config,
                                                    const HostMetricFields& base,
                                                    const HostTable<double>& c_lin_e,
                                                    const HostTable<double>& c_intp) {
  config.validate();
  const int nlev = base.num_levels();
  const std::size_t nc = grid.num_cells, ne = grid.num_edges;
  require_table("z_ifc", base.z_ifc, nc, nlev + 1);
  require_table("z_mc", base.z_mc, nc, nlev);
  require_table("maxslp", base.maxslp, nc, nlev);
  require_table("c_lin_e", c_lin_e, ne, 2);
  if (base.topography.size() != nc)
    throw InvalidArgument(fmt::format("dycore metric fields: topography has {} values, expected {}",
                                      base.topography.size(), nc));
  HostDycoreMetricFields m;
  m.ddqz_z_half = compute_ddqz_z_half(base.z_ifc, base.z_mc);
  compute_ddqz_z_full_and_inverse(base.z_ifc, m.ddqz_z_full, m.inv_ddqz_z_full);
  m.ddqz_z_full_e = interpolate_cells_to_edges(grid, m.ddqz_z_full, c_lin_e);
  compute_coeff_dwdz(m.ddqz_z_full, base.z_ifc, m.coeff1_dwdz, m.coeff2_dwdz);
  compute_reference_atmosphere_cells(base.z_mc, m.exner_ref_mc, m.rho_ref_mc);
  compute_theta_d_exner_dz_ref_ic(base.z_ifc, m.theta_ref_ic, m.d_exner_dz_ref_ic);
  compute_d2dexdz2_fac_mc(base.theta_ref_mc, m.inv_ddqz_z_full, m.exner_ref_mc, base.z_mc,
                          m.d2dexdz2_fac1_mc, m.d2dexdz2_fac2_mc);
  compute_reference_atmosphere_edges(grid, base.z_mc, c_lin_e, m.rho_ref_me, m.theta_ref_me);
  m.ddxn_z_half_e = compute_ddxn_z_half_e(grid, base.z_ifc);
  m.ddxt_z_half_e = compute_ddxt_z_half_e(grid, base.z_ifc, c_intp);
  m.ddxt_z_full = average_half_levels_on_edges(m.ddxt_z_half_e,
                                               grid.start(Location::Edge, Zone::LateralBoundary2));
  m.exner_exfac = compute_exner_exfac(grid, base.maxslp, base.maxhgtd, config.exner_expol);
  m.vwind_impl_wgt = compute_vwind_impl_wgt(grid, base.vertical.vct_a, base.z_ifc, m.ddxn_z_half_e,
                                            m.ddxt_z_half_e, config.vwind_offctr);
  m.vwind_expl_wgt.resize(nc);
  for (std::size_t c = 0; c < nc; ++c) m.vwind_expl_wgt[c] = 1.0 - m.vwind_impl_wgt[c];
  m.wgtfac_e = interpolate_cells_to_edges(grid, base.wgtfac_c, c_lin_e);
  m.wgtfacq_c = compute_wgtfacq_c(base.z_ifc);
  m.wgtfacq_e = compute_wgtfacq_e(grid, base.z_ifc, m.wgtfacq_c, c_lin_e);
  m.flat_idx_max = compute_flat_idx_max(grid, base.z_mc, base.z_ifc, c_lin_e);
  m.nflat_gradp = compute_nflat_gradp(grid, m.flat_idx_max, nlev);
  m.pg_exdist = compute_pg_exdist(grid, base.z_mc, c_lin_e, base.topography, m.flat_idx_max);
  compute_zdiff_gradp(grid, base.z_mc, base.z_ifc, c_lin_e, base.topography, m.flat_idx_max,
                      m.zdiff_gradp, m.vertoffset_gradp);
  m.hmask_dd3d = compute_hmask_dd3d(grid);
  m.rayleigh_w =
      compute_rayleigh_w(base.vertical, vertical.rayleigh_damping_height, config.rayleigh_coeff);
  m.scalfac_dd3d = compute_scalfac_dd3d(base.vertical.vct_a, config);
  m.mask_prog_halo_c = compute_mask_prog_halo_c(grid);
  m.c_owner_mask.resize(nc);
  for (std::size_t c = 0; c < nc; ++c)
    m.c_owner_mask[c] = owned(grid, Location::Cell, static_cast<index_t>(c)) ? 1 : 0;
  return m;
}

}  // namespace icondiff
