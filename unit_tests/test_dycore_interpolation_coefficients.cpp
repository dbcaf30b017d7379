// The dycore's interpolation coefficients (ICON4Py 0.2.0 solve_nh_init): c_intp, e_flx_avg,
// geofac_grdiv, pos_on_tplane_e_1/2, rbf_vec_coeff_e and coeff_gradekin, checked against their
// definitions and the properties they exist for, never against values the factories produce:
// partition of unity and area weights (c_intp), the divergence consistency and normalisation
// that define e_flx_avg, the gradient-of-divergence identity (geofac_grdiv), the gnomonic
// projection (pos_on_tplane_e), the normalisation and solid-body reconstruction (RBF), the closed
// form (coeff_gradekin). Geometry in the tests (normals, tangents, projections) is computed here
// from the grid's coordinates. On the real R02B03 / R19B04 files when present and on the
// generated global and limited-area grids always.
#include "support/expect_error.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using sphere::Vec3;

struct Case {
  std::string name;
  Grid grid;
  InterpolationCoefficients coeff;
};

/// The real files (when present) and the generated grids, each with its coefficients, built
/// once per test program.
const std::vector<std::unique_ptr<Case>>& cases() {
  static const auto all = [] {
    std::vector<std::unique_ptr<Case>> out;
    auto add = [&](std::vector<test::GridCase> grids) {
      for (auto& gc : grids) {
        for (const auto& existing : out)
          if (existing->name == gc.name) return;
        auto c = std::make_unique<Case>();
        c->name = gc.name;
        c->grid = std::move(gc.grid);
        // A generated cut-out marks fewer boundary rows than ICON's nudging zone needs (nudging
        // does not enter these coefficients): narrow the zone to what the grid has.
        InterpolationConfig config;
        const auto& refin = c->grid.refin_ctrl[static_cast<int>(Location::Cell)];
        const int rows = refin.empty() ? 0 : *std::max_element(refin.begin(), refin.end());
        if (rows > 0 && rows < config.nudge_zone_width + 4)
          config.nudge_zone_width = std::max(0, rows - 4);
        c->coeff = compute_interpolation_coefficients(c->grid, config);
        compute_dycore_interpolation_coefficients(c->grid, compute_edge_geometry(c->grid), config,
                                                  c->coeff);
        out.push_back(std::move(c));
      }
    };
    add(test::global_and_lam_grids(true));
    add(test::global_and_lam_grids(false));
    return out;
  }();
  return all;
}

Vec3 cell_point(const Grid& g, index_t c) {
  return sphere::to_cartesian(g.cell_lon[c], g.cell_lat[c]);
}
Vec3 edge_point(const Grid& g, index_t e) {
  return sphere::to_cartesian(g.edge_lon[e], g.edge_lat[e]);
}
Vec3 vertex_point(const Grid& g, index_t v) {
  return sphere::to_cartesian(g.vertex_lon[v], g.vertex_lat[v]);
}

/// Unit tangent of edge e (ICON's dual normal): the vertex chord oriented by
/// tangent_orientation, made tangent to the sphere at the midpoint.
Vec3 test_tangent(const Grid& g, index_t e) {
  const Vec3 x = edge_point(g, e);
  const Vec3 chord =
      g.tangent_orientation[e] * (vertex_point(g, g.e2v(e, 1)) - vertex_point(g, g.e2v(e, 0)));
  return sphere::normalize(chord - sphere::dot(chord, x) * x);
}

/// Unit primal normal of edge e as ICON defines it, midpoint x tangent (right-handed with the
/// tangent and the outward radius). Where the edge has two cells it points from E2C[e,0] to
/// E2C[e,1] (checked in ShapesFiniteValuesAndZerosOutsideTheirDomain); at the outer boundary
/// of a limited-area grid the file's tangent orientation alone fixes it.
Vec3 test_normal(const Grid& g, index_t e) {
  return sphere::normalize(sphere::cross(edge_point(g, e), test_tangent(g, e)));
}

int slot_in(const HostTable<index_t>& t, index_t row, index_t value) {
  for (std::size_t j = 0; j < t.cols(); ++j)
    if (t(static_cast<std::size_t>(row), j) == value) return static_cast<int>(j);
  return -1;
}

double row_max(const HostTable<double>& t, index_t row) {
  double m = 0;
  for (std::size_t j = 0; j < t.cols(); ++j)
    m = std::max(m, std::fabs(t(static_cast<std::size_t>(row), j)));
  return m;
}

/// geofac_div from its definition, l_e o_ce / A_c.
double divergence_weight(const Grid& g, index_t c, int j) {
  return g.edge_length[g.c2e(c, j)] * g.cell_edge_orientation(c, j) / g.cell_area[c];
}

// ---- Shapes, zeros, completeness ---------------------------------------------------------------

TEST(DycoreInterpolationCoefficients, ShapesFiniteValuesAndZerosOutsideTheirDomain) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& c = k.coeff;
    const auto ne = static_cast<std::size_t>(g.num_edges);
    const auto nv = static_cast<std::size_t>(g.num_vertices);
    const std::array<std::pair<const HostTable<double>*, std::array<std::size_t, 2>>, 7> shapes{{
        {&c.c_intp, {nv, 6}},
        {&c.e_flx_avg, {ne, 5}},
        {&c.geofac_grdiv, {ne, 5}},
        {&c.pos_on_tplane_e_1, {ne, 2}},
        {&c.pos_on_tplane_e_2, {ne, 2}},
        {&c.rbf_vec_coeff_e, {ne, 4}},
        {&c.coeff_gradekin, {ne, 2}},
    }};
    for (const auto& [t, shape] : shapes) {
      ASSERT_EQ(t->rows(), shape[0]);
      ASSERT_EQ(t->cols(), shape[1]);
      for (std::size_t i = 0; i < t->rows() * t->cols(); ++i)
        ASSERT_TRUE(std::isfinite(t->data()[i])) << "entry " << i;
    }

    // The stencils are complete from each field's start (what ICON4Py's factories rely on).
    const index_t e2 = g.start(Location::Edge, Zone::LateralBoundary2);
    const index_t e4 = g.start(Location::Edge, Zone::LateralBoundary4);
    const index_t e5 = g.start(Location::Edge, Zone::LateralBoundary5);
    const index_t v2 = g.start(Location::Vertex, Zone::LateralBoundary2);
    for (index_t e = e2; e < g.num_edges; ++e)
      for (int k4 = 0; k4 < 4; ++k4) ASSERT_NE(g.e2c2e(e, k4), missing_index) << "edge " << e;
    // The normal points from E2C[e,0] to E2C[e,1] (what e_flx_avg and pos_on_tplane_e assume).
    for (index_t e = 0; e < g.num_edges; ++e)
      if (g.e2c(e, 0) != missing_index && g.e2c(e, 1) != missing_index) {
        ASSERT_GT(
            sphere::dot(test_normal(g, e), cell_point(g, g.e2c(e, 1)) - cell_point(g, g.e2c(e, 0))),
            0.0)
            << "edge " << e;
      }
    if (g.limited_area) {
      EXPECT_GT(e2, 0);
      EXPECT_GT(e5, e4);
      EXPECT_GT(v2, 0);
    }

    // Zero before the horizontal start; e_flx_avg: zero before row 4, no centre in row 4.
    for (index_t e = 0; e < g.num_edges; ++e) {
      if (e < e2) {
        EXPECT_EQ(row_max(c.geofac_grdiv, e), 0.0) << "edge " << e;
        EXPECT_EQ(row_max(c.pos_on_tplane_e_1, e), 0.0) << "edge " << e;
        EXPECT_EQ(row_max(c.pos_on_tplane_e_2, e), 0.0) << "edge " << e;
        EXPECT_EQ(row_max(c.rbf_vec_coeff_e, e), 0.0) << "edge " << e;
        EXPECT_EQ(row_max(c.coeff_gradekin, e), 0.0) << "edge " << e;
      } else {
        EXPECT_GT(row_max(c.geofac_grdiv, e), 0.0) << "edge " << e;
        EXPECT_GT(row_max(c.rbf_vec_coeff_e, e), 0.0) << "edge " << e;
      }
      if (e < e4) {
        EXPECT_EQ(row_max(c.e_flx_avg, e), 0.0) << "edge " << e;
      }
      if (e >= e4 && e < e5) {
        EXPECT_EQ(c.e_flx_avg(e, 0), 0.0) << "edge " << e;
        EXPECT_GT(row_max(c.e_flx_avg, e), 0.0) << "edge " << e;
      }
      if (e >= e5) {
        EXPECT_GT(c.e_flx_avg(e, 0), 0.0) << "edge " << e;
      }
    }
    for (index_t v = 0; v < g.num_vertices; ++v)
      for (int j = 0; j < 6; ++j) {
        const bool missing =
            g.v2c(v, j) == missing_index || (j > 0 && g.v2c(v, j) == g.v2c(v, j - 1));
        if (v < v2 || missing)
          EXPECT_EQ(c.c_intp(v, j), 0.0) << "vertex " << v << " slot " << j;
        else
          EXPECT_GT(c.c_intp(v, j), 0.0) << "vertex " << v << " slot " << j;
      }
  }
}

// ---- c_intp ------------------------------------------------------------------------------------

/// c_intp: the share of the dual cell (the kite between the vertex, the midpoints of its two
/// edges on the cell and the cell centre) in the dual area; a partition of unity; the transpose
/// gives every cell its area back (the dual cells tile the primal ones); constants interpolate
/// to the row sum and linear fields on the vertex's tangent plane to O(h).
TEST(DycoreInterpolationCoefficients, CIntpIsTheAreaShareOfEachCell) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& w = k.coeff.c_intp;
    const double r2 = g.sphere_radius * g.sphere_radius;
    const index_t v2 = g.start(Location::Vertex, Zone::LateralBoundary2);
    double worst_sum = 0, worst_kite = 0, worst_linear = 0;
    std::vector<double> returned(static_cast<std::size_t>(g.num_cells), 0.0);
    std::vector<int> vertices_seen(static_cast<std::size_t>(g.num_cells), 0);
    for (index_t v = v2; v < g.num_vertices; ++v) {
      const Vec3 xv = vertex_point(g, v);
      double sum = 0;
      Vec3 moment{0, 0, 0};
      double h = 0;
      for (int j = 0; j < 6; ++j) {
        const index_t c = g.v2c(v, j);
        if (c == missing_index || (j > 0 && c == g.v2c(v, j - 1))) continue;
        sum += w(v, j);
        // The kite: spherical triangles (vertex, edge midpoint, cell centre) of the vertex's
        // two edges on cell c.
        double kite = 0;
        for (int i = 0; i < 6; ++i) {
          const index_t e = g.v2e(v, i);
          if (e == missing_index || (g.e2c(e, 0) != c && g.e2c(e, 1) != c)) continue;
          kite += r2 * sphere::triangle_area(xv, edge_point(g, e), cell_point(g, c));
        }
        worst_kite = std::max(worst_kite, std::fabs(w(v, j) - kite / g.dual_area[v]));
        // Position of the cell centre on the tangent plane of the vertex (gnomonic).
        const Vec3 xc = cell_point(g, c);
        const Vec3 p = g.sphere_radius * ((1.0 / sphere::dot(xc, xv)) * xc - xv);
        moment = moment + w(v, j) * p;
        h = std::max(h, sphere::norm(p));
        returned[c] += g.dual_area[v] * w(v, j);
        ++vertices_seen[c];
      }
      worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
      // A linear field a + b . p (|b| = 1) interpolates to a + b . sum_j w_j p_j.
      worst_linear = std::max(worst_linear, sphere::norm(moment) / h);
    }
    double worst_returned = 0;
    for (index_t c = 0; c < g.num_cells; ++c)
      if (vertices_seen[c] == 3)
        worst_returned = std::max(worst_returned, std::fabs(returned[c] / g.cell_area[c] - 1.0));
    std::printf(
        "[    c_intp] %s: |sum - 1| <= %.1e, |w - kite/A'| <= %.1e, |sum_v A'_v w - A_c| / "
        "A_c <= %.1e, linear: |sum w p| / h <= %.1e\n",
        k.name.c_str(), worst_sum, worst_kite, worst_returned, worst_linear);
    // The weights are ICON's planar right-triangle areas 0.5 d_ve d_ec from the grid's arc
    // lengths, against a spherical dual area: they differ from the spherical kites by
    // O((h/R)^2). Measured: the real files' dual areas agree with the planar sum (|sum - 1| 3e-13
    // on R02B03, 3e-10 on R19B04), the generated grids' spherical ones do not (6.5e-4 on R2B2);
    // kites 1.1e-4 (R2B2), area returned to the cells 6.7e-4 (R2B2), 1.1e-7 (R19B04).
    EXPECT_LT(worst_sum, 2e-3);
    EXPECT_LT(worst_kite, 5e-4);
    EXPECT_LT(worst_returned, 2e-3);
    // Not exact for linear fields (the kites' weighted centre is not the vertex): 2.0e-2 h on
    // R2B2, 1.3e-2 h on R02B03, 3.6e-4 h on R19B04.
    EXPECT_LT(worst_linear, 0.05);
  }
}

// ---- e_flx_avg ---------------------------------------------------------------------------------

/// e_flx_avg is defined by (ICON mo_intp_coeffs, ICON4Py compute_e_flx_avg): the divergence of
/// averaged fluxes, sum_j geofac_div[c,j] vn_avg(e_j), reproduces the mass-conserving averaged
/// divergence sum_i c_bln_avg[c,i] div(vn)(C2E2CO[c,i]),
///  (1) exactly for the flux through a diamond edge (each weight is fixed by one cell), up to
///      the row's normalisation factor s_e (the same for the four diamond weights of e);
///  (2) for the flux through the edge itself, as the mean of the values that c0 and c1 need;
///  (3) and every row is normalised so that sum_k e_flx_avg[e,k] n_e . n_k = 1 (a field equal to
///      the edge's own normal is reproduced).
/// Row 4 of a limited-area grid keeps the (1) weights unnormalised (s_e = 1) and no centre.
TEST(DycoreInterpolationCoefficients,
     EFlxAvgMakesTheDivergenceOfAveragedFluxesTheAveragedDivergence) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& w = k.coeff.e_flx_avg;
    const auto& avg = k.coeff.c_bln_avg;
    const index_t e4 = g.start(Location::Edge, Zone::LateralBoundary4);
    const index_t e5 = g.start(Location::Edge, Zone::LateralBoundary5);
    const index_t ne = g.num_edges;

    // (3)
    double worst_checksum = 0;
    for (index_t e = e5; e < ne; ++e) {
      const Vec3 n = test_normal(g, e);
      double s = 0;
      for (int k5 = 0; k5 < 5; ++k5)
        s += w(e, k5) * sphere::dot(n, test_normal(g, g.e2c2eo(e, k5)));
      worst_checksum = std::max(worst_checksum, std::fabs(s - 1.0));
    }

    // (1): for diamond edge a of cell `own` (one cell of e), its weight times div[other, e]
    // equals c_bln_avg[other, slot of own] * div[own, a] / s_e.
    std::vector<double> scale(static_cast<std::size_t>(ne), 0.0);
    double worst_spread = 0, worst_row4 = 0, worst_scale = 0;
    for (index_t e = e4; e < ne; ++e) {
      double lo = 1e300, hi = -1e300;
      for (int k5 = 1; k5 < 5; ++k5) {
        const index_t a = g.e2c2eo(e, k5);
        const int side = g.e2c(a, 0) == g.e2c(e, 0) || g.e2c(a, 1) == g.e2c(e, 0) ? 0 : 1;
        const index_t own = g.e2c(e, side), other = g.e2c(e, 1 - side);
        ASSERT_GE(slot_in(g.c2e, own, a), 0) << "edge " << e;
        const double needed = avg(other, slot_in(g.c2e2co, other, own)) *
                              divergence_weight(g, own, slot_in(g.c2e, own, a));
        const double given = divergence_weight(g, other, slot_in(g.c2e, other, e)) * w(e, k5);
        lo = std::min(lo, needed / given);
        hi = std::max(hi, needed / given);
      }
      worst_spread = std::max(worst_spread, (hi - lo) / hi);
      scale[e] = 0.5 * (lo + hi);
      if (e < e5)
        worst_row4 = std::max(worst_row4, std::fabs(scale[e] - 1.0));
      else
        worst_scale = std::max(worst_scale, std::fabs(scale[e] - 1.0));
    }

    // (2): the coefficient of vn_e in the averaged divergence of c, minus what the neighbouring
    // edges' (unnormalised) diamond weights already carry into c, over geofac_div[c, e].
    double worst_centre = 0;
    for (index_t e = e5; e < ne; ++e) {
      double mean = 0;
      for (int side = 0; side < 2; ++side) {
        const index_t c = g.e2c(e, side);
        double needed = 0;
        for (int i = 0; i < 4; ++i) {
          const index_t n = g.c2e2co(c, i);
          const int j = slot_in(g.c2e, n, e);
          if (j >= 0) needed += avg(c, i) * divergence_weight(g, n, j);
        }
        double carried = 0;
        for (int j = 0; j < 3; ++j) {
          const index_t b = g.c2e(c, j);
          if (b == e) continue;
          carried += divergence_weight(g, c, j) * w(b, slot_in(g.e2c2eo, b, e)) * scale[b];
        }
        mean += 0.5 * (needed - carried) / divergence_weight(g, c, slot_in(g.c2e, c, e));
      }
      worst_centre = std::max(worst_centre, std::fabs(w(e, 0) * scale[e] - mean) / std::fabs(mean));
    }
    std::printf(
        "[ e_flx_avg] %s: |sum w n.n - 1| <= %.1e, diamond weights: spread of s_e <= "
        "%.1e, |s_e - 1| <= %.1e (row 4: %.1e), centre: rel. error <= %.1e\n",
        k.name.c_str(), worst_checksum, worst_spread, worst_scale, worst_row4, worst_centre);
    EXPECT_LT(worst_checksum, 1e-13);
    EXPECT_LT(worst_spread, 1e-13);
    EXPECT_LT(worst_row4, 1e-13);
    EXPECT_LT(worst_scale, 0.01);  // a small correction: 2.1e-3 at most (generated grids)
    EXPECT_LT(worst_centre, 1e-12);
  }
}

/// Averaging the fluxes of a smooth field changes them by O((h/L)^2) only.
TEST(DycoreInterpolationCoefficients, EFlxAvgKeepsASmoothFlux) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const Vec3 axis = sphere::normalize(Vec3{0.3, -0.5, 0.8});
    std::vector<double> vn(static_cast<std::size_t>(g.num_edges));
    for (index_t e = 0; e < g.num_edges; ++e)
      vn[e] = sphere::dot(sphere::cross(axis, edge_point(g, e)), test_normal(g, e));
    double worst = 0;
    for (index_t e = g.start(Location::Edge, Zone::LateralBoundary5); e < g.num_edges; ++e) {
      double s = 0;
      for (int k5 = 0; k5 < 5; ++k5) s += k.coeff.e_flx_avg(e, k5) * vn[g.e2c2eo(e, k5)];
      worst = std::max(worst, std::fabs(s - vn[e]));
    }
    std::printf("[ e_flx_avg] %s: solid-body rotation |avg(vn) - vn| <= %.1e (|V| <= 1)\n",
                k.name.c_str(), worst);
    EXPECT_LT(worst, 0.01);  // 2.0e-3 on R2B2, 5.0e-4 on R02B03, 2.4e-7 on R19B04
  }
}

// ---- geofac_grdiv ------------------------------------------------------------------------------

/// sum_k geofac_grdiv[e,k] vn[E2C2EO[e,k]] = (div vn (E2C[e,1]) - div vn (E2C[e,0])) /
/// dual_edge_length[e] for any vn, with div from l_e o_ce / A_c.
TEST(DycoreInterpolationCoefficients, GeofacGrdivIsTheGradientOfTheDivergence) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> vn(static_cast<std::size_t>(g.num_edges));
    for (auto& x : vn) x = u(rng);
    const auto div = [&](index_t c, double& magnitude) {
      double d = 0;
      for (int j = 0; j < 3; ++j) {
        const double term = divergence_weight(g, c, j) * vn[g.c2e(c, j)];
        d += term;
        magnitude += std::fabs(term);
      }
      return d;
    };
    double worst = 0;
    for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < g.num_edges; ++e) {
      double lhs = 0, magnitude = 0;
      for (int k5 = 0; k5 < 5; ++k5) lhs += k.coeff.geofac_grdiv(e, k5) * vn[g.e2c2eo(e, k5)];
      const double rhs =
          (div(g.e2c(e, 1), magnitude) - div(g.e2c(e, 0), magnitude)) / g.dual_edge_length[e];
      worst = std::max(worst, std::fabs(lhs - rhs) / (magnitude / g.dual_edge_length[e]));
    }
    std::printf("[geofac_grdiv] %s: identity holds to %.1e (relative)\n", k.name.c_str(), worst);
    EXPECT_LT(worst, 1e-14);
  }
}

// ---- pos_on_tplane_e ---------------------------------------------------------------------------

/// The cell centres on the tangent plane of the edge midpoint: p = R (x_c / (x_c . x_e) - x_e)
/// (gnomonic), pos_1 = p . n_e, pos_2 = p . t_e. The centres lie on the edge's perpendicular
/// bisector, so pos_2 ~ 0, pos_1[e,0] < 0 < pos_1[e,1], |pos_1| ~ edge_cell_distance (the
/// gnomonic R tan(d/R) against the arc d) and pos_1[e,1] - pos_1[e,0] ~ dual_edge_length.
TEST(DycoreInterpolationCoefficients, PosOnTplaneIsTheGnomonicProjectionOfTheCellCentres) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& p1 = k.coeff.pos_on_tplane_e_1;
    const auto& p2 = k.coeff.pos_on_tplane_e_2;
    double worst_projection = 0, worst_distance = 0, worst_off_normal = 0, worst_dual = 0;
    for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < g.num_edges; ++e) {
      const Vec3 xe = edge_point(g, e), n = test_normal(g, e), t = test_tangent(g, e);
      for (int s = 0; s < 2; ++s) {
        const Vec3 xc = cell_point(g, g.e2c(e, s));
        const Vec3 p = g.sphere_radius * ((1.0 / sphere::dot(xc, xe)) * xc - xe);
        const double d = g.edge_cell_distance(e, s);
        worst_projection =
            std::max(worst_projection, std::max(std::fabs(p1(e, s) - sphere::dot(p, n)),
                                                std::fabs(p2(e, s) - sphere::dot(p, t))) /
                                           d);
        EXPECT_TRUE(s == 0 ? p1(e, s) < 0 : p1(e, s) > 0) << "edge " << e << " cell " << s;
        worst_distance = std::max(worst_distance, std::fabs(std::fabs(p1(e, s)) / d - 1.0));
        worst_off_normal = std::max(worst_off_normal, std::fabs(p2(e, s)) / d);
      }
      worst_dual =
          std::max(worst_dual, std::fabs((p1(e, 1) - p1(e, 0)) / g.dual_edge_length[e] - 1.0));
    }
    std::printf(
        "[pos_on_tplane] %s: projection <= %.1e, ||pos|/d - 1| <= %.1e, |pos_2|/d <= "
        "%.1e, |(pos_1[1] - pos_1[0]) / dual - 1| <= %.1e\n",
        k.name.c_str(), worst_projection, worst_distance, worst_off_normal, worst_dual);
    EXPECT_LT(worst_projection, 1e-11);  // 4.0e-13 (R19B04)
    // tan(x)/x - 1 ~ x^2/3 for x = d/R: 8.6e-4 on R2B2, 2.2e-4 on R02B03, 1.4e-7 on R19B04.
    EXPECT_LT(worst_distance, 3e-3);
    EXPECT_LT(worst_off_normal, 1e-8);  // 2.0e-10 (R19B04)
    EXPECT_LT(worst_dual, 3e-3);
  }
}

// ---- rbf_vec_coeff_e ---------------------------------------------------------------------------

/// The RBF weights: ICON's normalisation sum_k c_k (t_e . n_k) = 1 (a field equal to the edge's
/// tangent is reproduced exactly), and the tangential component of solid-body rotations (about
/// three axes) reconstructed from the normal components on the diamond edges.
TEST(DycoreInterpolationCoefficients, RbfVecCoeffEReconstructsTheTangentialWind) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& c = k.coeff.rbf_vec_coeff_e;
    EXPECT_EQ(k.coeff.rbf_scale_edge, 0.5);  // every grid here is coarser than 2 km
    const index_t start = g.start(Location::Edge, Zone::LateralBoundary2);
    const index_t end = g.end(Location::Edge, Zone::Local);
    double worst_normalisation = 0, worst_rotation = 0;
    const std::array<Vec3, 3> axes = {Vec3{0, 0, 1}, sphere::normalize(Vec3{1, 1, 0}),
                                      sphere::normalize(Vec3{-0.2, 0.7, 0.4})};
    for (index_t e = start; e < end; ++e) {
      const Vec3 t = test_tangent(g, e);
      double s = 0;
      for (int k4 = 0; k4 < 4; ++k4) s += c(e, k4) * sphere::dot(t, test_normal(g, g.e2c2e(e, k4)));
      worst_normalisation = std::max(worst_normalisation, std::fabs(s - 1.0));
      for (const Vec3& axis : axes) {
        double vt = 0;
        for (int k4 = 0; k4 < 4; ++k4) {
          const index_t a = g.e2c2e(e, k4);
          vt += c(e, k4) * sphere::dot(sphere::cross(axis, edge_point(g, a)), test_normal(g, a));
        }
        const double exact = sphere::dot(sphere::cross(axis, edge_point(g, e)), t);
        worst_rotation = std::max(worst_rotation, std::fabs(vt - exact));
      }
    }
    std::printf(
        "[rbf_vec_coeff_e] %s: |sum c t.n - 1| <= %.1e, solid-body |vt - exact| <= %.1e "
        "(|V| <= 1)\n",
        k.name.c_str(), worst_normalisation, worst_rotation);
    EXPECT_LT(worst_normalisation, 1e-12);
    // 4.5e-3 on R2B2, 2.1e-3 on R02B03, 1.2e-4 on the generated cut-out, 5.6e-7 on R19B04.
    EXPECT_LT(worst_rotation, 1.5e-2);
  }
}

// ---- coeff_gradekin ----------------------------------------------------------------------------

/// coeff_gradekin = [d1 / (d0 dual), d0 / (d1 dual)], d_k = edge_cell_distance[e,k] (to a few ulp:
/// ICON4Py's d1 / d0 * (1 / dual) rounds three times), so coeff[0] coeff[1] = 1 / dual^2.
TEST(DycoreInterpolationCoefficients, CoeffGradekinIsItsClosedForm) {
  for (const auto& case_ptr : cases()) {
    const Case& k = *case_ptr;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& c = k.coeff.coeff_gradekin;
    for (index_t e = g.start(Location::Edge, Zone::LateralBoundary2); e < g.num_edges; ++e) {
      const double d0 = g.edge_cell_distance(e, 0), d1 = g.edge_cell_distance(e, 1);
      const double dual = g.dual_edge_length[e];
      ASSERT_NEAR(c(e, 0), d1 / (d0 * dual), 6e-16 * c(e, 0)) << "edge " << e;
      ASSERT_NEAR(c(e, 1), d0 / (d1 * dual), 6e-16 * c(e, 1)) << "edge " << e;
      ASSERT_NEAR(c(e, 0) * c(e, 1) * dual * dual, 1.0, 1e-15) << "edge " << e;
    }
  }
}

// ---- The bundle, the configuration, the scale rule ---------------------------------------------

TEST(DycoreInterpolationCoefficients, OneShotEqualsTheFactories) {
  const Case& k = *cases().front();
  const Grid& g = k.grid;
  const EdgeGeometry eg = compute_edge_geometry(g);
  EXPECT_EQ(k.coeff.c_intp, compute_c_intp(g));
  EXPECT_EQ(k.coeff.e_flx_avg, compute_e_flx_avg(g, eg, k.coeff.c_bln_avg, k.coeff.geofac_div));
  EXPECT_EQ(k.coeff.geofac_grdiv, compute_geofac_grdiv(g, k.coeff.geofac_div));
  HostTable<double> p1, p2;
  compute_pos_on_tplane_e(g, eg, p1, p2);
  EXPECT_EQ(k.coeff.pos_on_tplane_e_1, p1);
  EXPECT_EQ(k.coeff.pos_on_tplane_e_2, p2);
  EXPECT_EQ(k.coeff.rbf_vec_coeff_e,
            compute_rbf_vec_coeff_e(g, eg, RbfKernel::InverseMultiquadric, k.coeff.rbf_scale_edge));
  EXPECT_EQ(k.coeff.coeff_gradekin, compute_coeff_gradekin(g));

  // A configured kernel and scale reach the edge RBF.
  InterpolationConfig config;
  config.rbf_kernel_edge = RbfKernel::Gaussian;
  config.rbf_scale_edge = 0.25;
  auto other = compute_interpolation_coefficients(g, config);
  compute_dycore_interpolation_coefficients(g, eg, config, other);
  EXPECT_EQ(other.rbf_scale_edge, 0.25);
  EXPECT_EQ(other.rbf_vec_coeff_e, compute_rbf_vec_coeff_e(g, eg, RbfKernel::Gaussian, 0.25));
  EXPECT_NE(other.rbf_vec_coeff_e, k.coeff.rbf_vec_coeff_e);

  EXPECT_THROW(compute_rbf_vec_coeff_e(g, eg, RbfKernel::Gaussian, 0.0), InvalidArgument);
  EXPECT_THROW(compute_rbf_vec_coeff_e(g, eg, static_cast<RbfKernel>(2), 0.5), InvalidArgument);
  EXPECT_THROW(compute_rbf_vec_coeff_e(g, EdgeGeometry{}, RbfKernel::Gaussian, 0.5), GridError);
  Grid broken = g;
  broken.c2e2c(0, 0) = broken.c2e2c(0, 1);
  EXPECT_THROW(compute_e_flx_avg(broken, eg, k.coeff.c_bln_avg, k.coeff.geofac_div), GridError);
}

TEST(DycoreInterpolationConfig, RejectsBadEdgeRbfSettingsNamingTheField) {
  InterpolationConfig bad_kernel;
  bad_kernel.rbf_kernel_edge = static_cast<RbfKernel>(2);
  test::expect_throw_naming<ConfigError>([&] { bad_kernel.validate(); },
                                         {"rbf_kernel_edge", "rbf_vec_kern_e", "2"},
                                         "rbf_kernel_edge");
  InterpolationConfig bad_scale;
  bad_scale.rbf_scale_edge = std::nan("");
  test::expect_throw_naming<ConfigError>([&] { bad_scale.validate(); },
                                         {"rbf_scale_edge", "rbf_vec_scale_e"}, "rbf_scale_edge");
  InterpolationConfig defaults;
  EXPECT_EQ(defaults.rbf_kernel_edge, RbfKernel::InverseMultiquadric);
  EXPECT_EQ(defaults.rbf_scale_edge, -1.0);
  EXPECT_NO_THROW(defaults.validate());
}

TEST(DycoreInterpolationConfig, DefaultEdgeRbfScaleFollowsIconsResolutionRule) {
  // ICON mo_interpol_config / ICON4Py compute_default_rbf_scale_edge: threshold 2 km, c1 = 0.4,
  // c2 = 2, c3 = 0.325.
  EXPECT_EQ(default_rbf_scale_edge(2000.0), 0.5);
  EXPECT_EQ(default_rbf_scale_edge(160000.0), 0.5);
  const double l1 = std::log(2.0);
  EXPECT_NEAR(default_rbf_scale_edge(1000.0), 0.5 / (1.0 + 0.4 * l1 * l1), 1e-15);
  const double l2 = std::log(2.0 / 0.1);
  EXPECT_NEAR(default_rbf_scale_edge(100.0),
              0.5 / (1.0 + 0.4 * l2 * l2) * std::pow(0.1 / 0.125, 0.325), 1e-15);
  EXPECT_THROW(default_rbf_scale_edge(0.0), InvalidArgument);
  EXPECT_THROW(default_rbf_scale_edge(-5.0), InvalidArgument);
}

}  // namespace
}  // namespace icondiff
