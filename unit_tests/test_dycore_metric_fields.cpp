// The dycore's metric field factories (geometry/dycore_metric_fields.hpp) checked by properties
// that follow from the fields' definitions in ICON (mo_vertical_grid.f90) and ICON4Py's metrics
// factory, never by re-running the factories' code: on the global and limited-area grids (real
// files when present, else generated), flat and with a Gaussian hill steep enough that the
// pressure-gradient level search, the hydrostatic extrapolation and the off-centring all act.
//  * vertical metrics: layer thicknesses, ddqz_z_half between the full levels, the dw/dz
//    coefficients exact for quadratic w, wgtfacq_c/e exact for quadratic profiles at the surface;
//  * reference atmosphere: hydrostatic balance (dp/dz = -ρ g), the ideal gas law, Exner and θ
//    consistent at half and full levels, the d2dexdz2 factors from their closed forms;
//  * edges: c_lin_e averages (ddqz_z_full_e, wgtfac_e, the edge reference atmosphere at z_me);
//  * the pressure-gradient search: the flat level brackets z_me in both cells and no lower level
//    does; every level below it brackets z_me (or the extrapolation base) in the chosen
//    neighbour level, zdiff_gradp is the height difference to it; pg_exdist only below the
//    higher neighbour's surface; nflat_gradp the minimum flat level;
//  * masks and profiles: hmask_dd3d ramps over the nudging zone, rayleigh_w is Klemp's, scalfac
//    ICON's two divdamp types, exner_exfac and vwind_impl_wgt inside their ranges;
//  * configuration errors.
// Agreement with ICON4Py's factories field by field: perf_tests/peers/icon4py/compare_factories.py.
#include "support/test_grids.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/geometry/metric_fields.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff {
namespace {

/// Cell-to-vertex weights that sum to one over each vertex's cells (the checks below hold for any
/// such weights; ICON's area weights are compared with ICON4Py's in compare_factories.py).
HostTable<double> equal_vertex_weights(const Grid& g) {
  HostTable<double> w(g.num_vertices, 6, 0.0);
  for (index_t v = 0; v < g.num_vertices; ++v) {
    int n = 0;
    for (int j = 0; j < 6; ++j) n += g.v2c(v, j) != missing_index;
    for (int j = 0; j < 6; ++j)
      if (g.v2c(v, j) != missing_index) w(v, j) = 1.0 / n;
  }
  return w;
}

struct Case {
  std::string name;
  Grid grid;
  VerticalGridConfig vertical;
  MetricsConfig config;
  HostTable<double> c_lin_e;
  HostMetricFields base;
  HostDycoreMetricFields dycore;
};

/// [global, limited area] × [flat, hill], 30 levels up to 23.5 km, built once per program.
const std::vector<std::unique_ptr<Case>>& cases() {
  static const std::vector<std::unique_ptr<Case>> all = [] {
    std::vector<std::unique_ptr<Case>> out;
    for (auto& gc : test::granule_test_grids())
      for (const bool hill : {false, true}) {
        auto k = std::make_unique<Case>();
        k->name = gc.name + (hill ? ", hill" : ", flat");
        k->grid = gc.grid;
        k->vertical.num_levels = 30;
        k->vertical.rayleigh_damping_height = 15000.0;
        if (hill) {
          double lon = 0, lat = 0;
          test::centre_of(k->grid, lon, lat);
          // 3 km high, at least three edge lengths wide: a height step of hundreds of metres
          // between neighbours on every grid, slopes above thslp_zdiffu over rows of cells.
          double mean_edge = 0.0;
          for (index_t e = 0; e < k->grid.num_edges; ++e) mean_edge += k->grid.dual_edge_length[e];
          mean_edge /= k->grid.num_edges;
          k->config.topography =
              TopographyConfig::gaussian_hill(3000.0, std::max(150e3, 3.0 * mean_edge), lon, lat);
        }
        k->c_lin_e = compute_c_lin_e(k->grid);
        k->base = compute_metric_fields(k->grid, k->vertical, k->config);
        k->dycore = compute_dycore_metric_fields(k->grid, k->vertical, k->config, k->base,
                                                 k->c_lin_e, equal_vertex_weights(k->grid));
        out.push_back(std::move(k));
      }
    return out;
  }();
  return all;
}

double edge_average(const Case& k, const HostTable<double>& cell_field, index_t e,
                    std::size_t col) {
  double s = 0.0;
  for (int j = 0; j < 2; ++j)
    if (k.grid.e2c(e, j) != missing_index) s += k.c_lin_e(e, j) * cell_field(k.grid.e2c(e, j), col);
  return s;
}

index_t lb2_edge(const Grid& g) {
  return g.start(Location::Edge, Zone::LateralBoundary2);
}

// ---- Vertical metrics ---------------------------------------------------------------------------

TEST(DycoreMetricFields, LayerThicknessesAndHalfLevelDistances) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const auto& z_ifc = k.base.z_ifc;
    const auto& z_mc = k.base.z_mc;
    const std::size_t nlev = z_mc.cols();
    for (index_t c = 0; c < k.grid.num_cells; ++c) {
      for (std::size_t kk = 0; kk < nlev; ++kk) {
        const double dz = z_ifc(c, kk) - z_ifc(c, kk + 1);
        ASSERT_GT(k.dycore.ddqz_z_full(c, kk), 0.0);
        EXPECT_DOUBLE_EQ(k.dycore.ddqz_z_full(c, kk), dz);
        EXPECT_DOUBLE_EQ(k.dycore.inv_ddqz_z_full(c, kk) * dz, 1.0);
      }
      // Between the full levels around each half level; the outer two are twice the distance to
      // the full level next to them (ICON: ddqz_z_half(1) = 2 (z_ifc(1) - z_mc(1))).
      EXPECT_DOUBLE_EQ(k.dycore.ddqz_z_half(c, 0), 2.0 * (z_ifc(c, 0) - z_mc(c, 0)));
      for (std::size_t kh = 1; kh < nlev; ++kh)
        EXPECT_DOUBLE_EQ(k.dycore.ddqz_z_half(c, kh), z_mc(c, kh - 1) - z_mc(c, kh));
      EXPECT_DOUBLE_EQ(k.dycore.ddqz_z_half(c, nlev), 2.0 * (z_mc(c, nlev - 1) - z_ifc(c, nlev)));
    }
  }
}

TEST(DycoreMetricFields, DwdzCoefficientsAreExactForQuadraticW) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const auto& z = k.base.z_ifc;
    const std::size_t nlev = k.base.z_mc.cols();
    for (index_t c = 0; c < k.grid.num_cells; c += 7) {
      EXPECT_EQ(k.dycore.coeff1_dwdz(c, 0), 0.0);
      EXPECT_EQ(k.dycore.coeff2_dwdz(c, 0), 0.0);
      for (std::size_t kk = 1; kk < nlev; ++kk) {
        // ICON's dw/dz at half level kk from w on half levels kk-1, kk, kk+1 (solve_nh:
        // z_dwdz_dd = c1 w(kk-1) + (c2 - c1) w(kk) - c2 w(kk+1)) is the derivative of the
        // parabola through the three points: exact for w = a + b z + q z².
        const double a = 2.0, b = 0.37, q = 1e-6;
        const auto w = [&](std::size_t kh) { return a + b * z(c, kh) + q * z(c, kh) * z(c, kh); };
        const double c1 = k.dycore.coeff1_dwdz(c, kk), c2 = k.dycore.coeff2_dwdz(c, kk);
        const double dwdz = c1 * w(kk - 1) + (c2 - c1) * w(kk) - c2 * w(kk + 1);
        EXPECT_NEAR(dwdz, b + 2.0 * q * z(c, kk), 1e-8) << "cell " << c << " level " << kk;
        // And the two weights are the inverse-distance weights of the one-sided differences.
        const double up = z(c, kk - 1) - z(c, kk), down = z(c, kk) - z(c, kk + 1);
        EXPECT_NEAR(c1 * up + c2 * down, 1.0, 1e-12);
      }
    }
  }
}

TEST(DycoreMetricFields, SurfaceExtrapolationWeightsAreExactForQuadraticProfiles) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const std::size_t nlev = k.base.z_mc.cols();
    const auto profile = [](double z) { return 3.0 - 0.002 * z + 4e-7 * z * z; };
    for (index_t c = 0; c < k.grid.num_cells; ++c) {
      double f = 0.0, s = 0.0;
      for (std::size_t kk = nlev - 3; kk < nlev; ++kk) {
        f += k.dycore.wgtfacq_c(c, kk) * profile(k.base.z_mc(c, kk));
        s += k.dycore.wgtfacq_c(c, kk);
      }
      EXPECT_NEAR(s, 1.0, 1e-12);
      EXPECT_NEAR(f, profile(k.base.z_ifc(c, nlev)), 1e-10) << "cell " << c;
      for (std::size_t kk = 0; kk + 3 < nlev; ++kk) EXPECT_EQ(k.dycore.wgtfacq_c(c, kk), 0.0);
    }
    // The edge weights are the c_lin_e averages of the cells' weights.
    for (index_t e = lb2_edge(k.grid); e < k.grid.num_edges; ++e)
      for (std::size_t kk = nlev - 3; kk < nlev; ++kk)
        EXPECT_NEAR(k.dycore.wgtfacq_e(e, kk), edge_average(k, k.dycore.wgtfacq_c, e, kk), 1e-12);
  }
}

TEST(DycoreMetricFields, EdgeFieldsAreCellToEdgeAverages) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const std::size_t nlev = k.base.z_mc.cols();
    for (index_t e = 0; e < k.grid.num_edges; ++e) {
      for (std::size_t kk = 0; kk < nlev; ++kk)
        EXPECT_NEAR(k.dycore.ddqz_z_full_e(e, kk), edge_average(k, k.dycore.ddqz_z_full, e, kk),
                    1e-9);
      for (std::size_t kh = 0; kh <= nlev; ++kh)
        EXPECT_NEAR(k.dycore.wgtfac_e(e, kh), edge_average(k, k.base.wgtfac_c, e, kh), 1e-14);
    }
  }
}

// ---- Reference atmosphere -----------------------------------------------------------------------

TEST(DycoreMetricFields, ReferenceAtmosphereIsHydrostaticAndAnIdealGas) {
  using namespace physics;
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const auto& d = k.dycore;
    const std::size_t nlev = k.base.z_mc.cols();
    for (index_t c = 0; c < k.grid.num_cells; c += 5) {
      for (std::size_t kk = 0; kk < nlev; ++kk) {
        const double exner = d.exner_ref_mc(c, kk), theta = k.base.theta_ref_mc(c, kk);
        const double p = p0ref * std::pow(exner, cpd / rd), t = theta * exner;
        EXPECT_NEAR(d.rho_ref_mc(c, kk) * rd * t / p, 1.0, 1e-13);  // p = ρ Rd T
        // T(z) = T0 - ΔT + ΔT exp(-z / H)
        EXPECT_NEAR(t, t0sl_bg - del_t_bg + del_t_bg * std::exp(-k.base.z_mc(c, kk) / h_scal_bg),
                    1e-10);
        EXPECT_NEAR(d.d2dexdz2_fac1_mc(c, kk) * cpd * theta * theta * d.ddqz_z_full(c, kk), -grav,
                    1e-11);
      }
      // d exner / dz = -g / (cpd θ) at the half levels, against the full levels' differences.
      for (std::size_t kh = 1; kh < nlev; ++kh) {
        const double dexner = (d.exner_ref_mc(c, kh - 1) - d.exner_ref_mc(c, kh)) /
                              (k.base.z_mc(c, kh - 1) - k.base.z_mc(c, kh));
        // (a second-order difference over layers of up to 800 m: 1e-3 relative)
        EXPECT_NEAR(dexner / d.d_exner_dz_ref_ic(c, kh), 1.0, 2e-3) << "cell " << c << " kh " << kh;
        EXPECT_DOUBLE_EQ(d.d_exner_dz_ref_ic(c, kh), -grav / cpd / d.theta_ref_ic(c, kh));
      }
      // θ at a half level lies between its full-level neighbours (θ grows with height).
      for (std::size_t kh = 1; kh < nlev; ++kh) {
        EXPECT_LT(d.theta_ref_ic(c, kh), k.base.theta_ref_mc(c, kh - 1));
        EXPECT_GT(d.theta_ref_ic(c, kh), k.base.theta_ref_mc(c, kh));
      }
    }
    // At edges: the same atmosphere at the c_lin_e height, from lateral boundary row 2.
    for (index_t e = 0; e < k.grid.num_edges; e += 3)
      for (std::size_t kk = 0; kk < nlev; kk += 4) {
        if (e < lb2_edge(k.grid)) {
          EXPECT_EQ(d.rho_ref_me(e, kk), 0.0);
          continue;
        }
        const double z = edge_average(k, k.base.z_mc, e, kk);
        const double t = t0sl_bg - del_t_bg + del_t_bg * std::exp(-z / h_scal_bg);
        const double exner = t / d.theta_ref_me(e, kk);
        EXPECT_NEAR(d.rho_ref_me(e, kk) * rd * t / (p0ref * std::pow(exner, cpd / rd)), 1.0, 1e-12);
      }
  }
}

// ---- Slopes, the pressure-gradient search, extrapolation ----------------------------------------

TEST(DycoreMetricFields, FlatTopographyNeedsNoSearchNorExtrapolation) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    if (k.name.find("flat") == std::string::npos) continue;
    SCOPED_TRACE(k.name);
    const auto& d = k.dycore;
    const int nlev = k.base.num_levels();
    EXPECT_EQ(d.nflat_gradp, nlev - 1);
    for (index_t e = 0; e < k.grid.num_edges; ++e)
      for (int kk = 0; kk < nlev; ++kk) {
        EXPECT_NEAR(d.ddxt_z_full(e, kk), 0.0, 1e-15);  // vertex weights sum to 1 ± rounding
        EXPECT_EQ(d.pg_exdist(e, kk), 0.0);
        for (int s = 0; s < 2; ++s) {
          EXPECT_EQ(d.vertoffset_gradp[s](e, kk), 0);
          EXPECT_NEAR(d.zdiff_gradp[s](e, kk), 0.0, 1e-9);
        }
      }
    for (index_t c = 0; c < k.grid.num_cells; ++c) {
      EXPECT_DOUBLE_EQ(d.vwind_impl_wgt[c], 0.5 + k.config.vwind_offctr);
      EXPECT_DOUBLE_EQ(d.vwind_expl_wgt[c], 1.0 - d.vwind_impl_wgt[c]);
      for (int kk = 0; kk < nlev; ++kk) EXPECT_EQ(d.exner_exfac(c, kk), k.config.exner_expol);
    }
  }
}

TEST(DycoreMetricFields, PressureGradientLevelSearchBracketsTheEdgeHeight) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const auto& d = k.dycore;
    const Grid& g = k.grid;
    const int nlev = k.base.num_levels();
    const auto& z_ifc = k.base.z_ifc;
    const auto inside = [&](index_t c, int level, double z) {
      return z <= z_ifc(c, level) && z >= z_ifc(c, level + 1);
    };
    int searched = 0, extrapolated = 0, min_flat = nlev;
    for (index_t e = lb2_edge(g); e < g.num_edges; ++e) {
      const index_t cells[2] = {g.e2c(e, 0), g.e2c(e, 1)};
      const int flat = d.flat_idx_max[e];
      min_flat = std::min(min_flat, flat);
      // The flat level: z_me inside layer `flat` of both cells; no lower level is.
      if (flat > 0) {
        const double z = edge_average(k, k.base.z_mc, e, flat);
        EXPECT_TRUE(inside(cells[0], flat, z) && inside(cells[1], flat, z)) << "edge " << e;
      }
      for (int kk = flat + 1; kk < nlev; ++kk) {
        const double z = edge_average(k, k.base.z_mc, e, kk);
        EXPECT_FALSE(inside(cells[0], kk, z) && inside(cells[1], kk, z)) << "edge " << e;
      }
      const double base_height =
          std::max(k.base.topography[cells[0]], k.base.topography[cells[1]]) -
          5.0;  // the extrapolation base: extrapol_dist below the surface
      const bool nudging_on = e >= g.start(Location::Edge, Zone::Nudging2);
      for (int kk = 0; kk < nlev; ++kk) {
        const double z_me = edge_average(k, k.base.z_mc, e, kk);
        const bool below = nudging_on && kk > flat && z_me < base_height;
        const double target = below ? base_height : z_me;
        for (int s = 0; s < 2; ++s) {
          const int level = kk + d.vertoffset_gradp[s](e, kk);
          ASSERT_GE(level, 0);
          ASSERT_LT(level, nlev);
          if (kk <= flat) {
            EXPECT_EQ(level, kk);
          } else {
            searched += level != kk;
            // The level whose layer holds the target height (the lowest one takes all below).
            EXPECT_TRUE(level == nlev - 1 || inside(cells[s], level, target))
                << "edge " << e << " level " << kk << " slot " << s << " -> " << level;
          }
          EXPECT_NEAR(d.zdiff_gradp[s](e, kk), target - k.base.z_mc(cells[s], level),
                      1e-9 * (1.0 + std::fabs(target)));
        }
        // The hydrostatic correction: only below the higher surface, by the distance below it.
        if (below && e < g.end(Location::Edge, Zone::Local) &&
            e >= g.end(Location::Edge, Zone::Nudging)) {
          ++extrapolated;
          EXPECT_NEAR(d.pg_exdist(e, kk), z_me - base_height, 1e-9);
        } else if (kk > flat && z_me >= 0.0) {
          EXPECT_EQ(d.pg_exdist(e, kk), 0.0);
        }
      }
    }
    EXPECT_EQ(d.nflat_gradp, min_flat);
    if (k.name.find("hill") != std::string::npos) {
      EXPECT_LT(d.nflat_gradp, nlev - 1);
      EXPECT_GT(searched, 0) << "the hill should need neighbour levels";
      EXPECT_GT(extrapolated, 0) << "the hill should need the hydrostatic correction";
    }
  }
}

TEST(DycoreMetricFields, SlopesOffCentringAndExnerFactorStayInTheirRanges) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const auto& d = k.dycore;
    const Grid& g = k.grid;
    const std::size_t nlev = k.base.z_mc.cols();
    // The normal slope is the height difference across the edge over the dual edge length.
    for (index_t e = lb2_edge(g); e < g.num_edges; ++e)
      for (std::size_t kh = 0; kh <= nlev; kh += 5)
        EXPECT_NEAR(d.ddxn_z_half_e(e, kh) * g.dual_edge_length[e],
                    k.base.z_ifc(g.e2c(e, 1), kh) - k.base.z_ifc(g.e2c(e, 0), kh), 1e-8);
    double max_impl = 0.0;
    for (index_t c = 0; c < g.num_cells; ++c) {
      EXPECT_GE(d.vwind_impl_wgt[c], 0.5 + k.config.vwind_offctr);
      EXPECT_LE(d.vwind_impl_wgt[c], 1.2);
      EXPECT_DOUBLE_EQ(d.vwind_expl_wgt[c] + d.vwind_impl_wgt[c], 1.0);
      max_impl = std::max(max_impl, d.vwind_impl_wgt[c]);
      for (std::size_t kk = 0; kk < nlev; ++kk) {
        EXPECT_GE(d.exner_exfac(c, kk), -1.0 / 6.0);
        EXPECT_LE(d.exner_exfac(c, kk), k.config.exner_expol);
      }
      // Above the mountain's influence the levels are flat: the full extrapolation.
      EXPECT_EQ(d.exner_exfac(c, 0), k.config.exner_expol);
    }
    if (k.name.find("hill") != std::string::npos)
      EXPECT_GT(max_impl, 0.5 + k.config.vwind_offctr) << "the hill should raise the off-centring";
  }
}

// ---- Masks and vertical profiles ----------------------------------------------------------------

TEST(DycoreMetricFields, DivergenceDampingMaskRampsOverTheNudgingZone) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    const Grid& g = k.grid;
    const auto& refin = g.refin_ctrl[static_cast<int>(Location::Edge)];
    for (index_t e = 0; e < g.num_edges; ++e) {
      const double m = k.dycore.hmask_dd3d[e];
      const int r = refin.empty() ? 0 : refin[e];
      if (e < lb2_edge(g))
        EXPECT_EQ(m, 0.0);
      else if (r <= 0 || r >= 24)
        EXPECT_EQ(m, 1.0);
      else if (r <= 17)
        EXPECT_EQ(m, 0.0);
      else
        EXPECT_NEAR(m, (r - 17) / 7.0, 1e-15);  // linear from row 17 (0) to row 24 (1)
    }
  }
}

TEST(DycoreMetricFields, RayleighDampingAndDivergenceDampingProfiles) {
  const Case& k = *cases().front();
  const auto& vct_a = k.base.vertical.vct_a;
  const int nrd = k.base.vertical.end_index_of_damping_layer;
  ASSERT_GT(nrd, 0);
  const auto& w = k.dycore.rayleigh_w;
  ASSERT_EQ(w.size(), vct_a.size());
  EXPECT_DOUBLE_EQ(w[0], k.config.rayleigh_coeff);  // full strength at the model top
  for (int kh = 1; kh <= nrd; ++kh) {
    EXPECT_LT(w[kh], w[kh - 1]);
    EXPECT_GT(w[kh], 0.0);
    // Klemp et al. (2008): 1 - tanh(3.8 (z_top - z) / (z_top - z_damping)).
    EXPECT_NEAR(w[kh],
                k.config.rayleigh_coeff *
                    (1.0 - std::tanh(3.8 * (vct_a[0] - vct_a[kh]) /
                                     (vct_a[0] - k.vertical.rayleigh_damping_height))),
                1e-15);
  }
  for (std::size_t kh = nrd + 1; kh < w.size(); ++kh) EXPECT_EQ(w[kh], 0.0);

  for (const double s : k.dycore.scalfac_dd3d) EXPECT_EQ(s, 1.0);  // divdamp_type 3
  MetricsConfig transition = k.config;
  transition.divdamp_type = 32;
  const auto s32 = compute_scalfac_dd3d(vct_a, transition);
  for (std::size_t kk = 0; kk < s32.size(); ++kk) {
    const double zf = 0.5 * (vct_a[kk] + vct_a[kk + 1]);
    if (zf >= transition.divdamp_trans_end)
      EXPECT_EQ(s32[kk], 0.0);
    else if (zf < transition.divdamp_trans_start)
      EXPECT_EQ(s32[kk], 1.0);
    else
      EXPECT_GT(s32[kk], 0.0);
  }
}

TEST(DycoreMetricFields, MasksOfOneRank) {
  for (const auto& kp : cases()) {
    const Case& k = *kp;
    SCOPED_TRACE(k.name);
    for (index_t c = 0; c < k.grid.num_cells; ++c) {
      EXPECT_EQ(k.dycore.mask_prog_halo_c[c], 0);  // no halo on one rank
      EXPECT_EQ(k.dycore.c_owner_mask[c], 1);
    }
  }
}

TEST(DycoreMetricFields, ConfigurationErrorsNameTheOption) {
  const auto refused = [](MetricsConfig c, const std::string& fragment) {
    try {
      c.validate();
      ADD_FAILURE() << "expected a ConfigError about " << fragment;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  MetricsConfig c;
  c.rayleigh_type = 1;
  refused(c, "rayleigh_type (ICON nonhydrostatic_nml:rayleigh_type) = 1");
  c = {};
  c.divdamp_type = 2;
  refused(c, "divdamp_type (ICON nonhydrostatic_nml:divdamp_type) = 2");
  c = {};
  c.vwind_offctr = -0.1;
  refused(c, "vwind_offctr");
  c = {};
  c.exner_expol = std::nan("");
  refused(c, "exner_expol");
  c = {};
  c.divdamp_trans_start = 20000.0;
  refused(c, "divdamp_trans_start, divdamp_trans_end");
  c = {};
  c.rayleigh_coeff = -1.0;
  refused(c, "rayleigh_coeff");
}

}  // namespace
}  // namespace icondiff
