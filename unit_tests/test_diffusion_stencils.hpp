// Every diffusion stencil (the ICON4Py programs and their elementary stencils, diffusion_spec.md
// §3 and §5.1) against the independent plain-loop reference (unit_tests/reference), on random
// inputs in [-1, 1), with the constants of ICON4Py's stencil tests, on the torus and the real
// grids. Outputs start poisoned (NaN) or random, and whole arrays are compared, so a point written
// outside its range or left unwritten inside it fails. Compiled once per backend.
//
// The program-level stencils are built as the granule and the ICON4Py stencil runner build them:
// by their factory (diffusion/diffusion_stencils.hpp) from an input bundle and temporaries that
// hold the test's random inputs under the members' names, so a factory that wires a member to
// the wrong field fails here too.
#include "reference/diffusion_reference.hpp"
#include "support/field_compare.hpp"
#include "support/stencil_grids.hpp"

#include <icondiff/core/launch.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_params.hpp>
#include <icondiff/diffusion/diffusion_stencils.hpp>
#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_vn.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>
#include <icondiff/stencils/diagnostic_quantities_for_turbulence.hpp>
#include <icondiff/stencils/fused_diffusion.hpp>
#include <icondiff/stencils/nabla2_and_smag_coefficients_for_vn.hpp>
#include <icondiff/stencils/rbf_vec_interpol_vertex.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>

namespace icondiff {
namespace stencil_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using reference::Field;
using reference::Table;
using reference::Vector;
using test::HostField;
using SGrid = test::StencilGrid<M>;
namespace factory = diffusion_stencils;

std::uint64_t seed_for(const char* test) {
  if (const char* env = std::getenv("ICONDIFF_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the test name: stable, different per test
  for (const char* p = test; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  return h;
}

template <class Body>
void run(const std::string& label, IndexRange points, int k0, int k1, const Body& body) {
  parallel_for_points_levels(label, Space(), points, k0, k1, body);
  compat::fence(Space(), label);
}

/// Values as the kernel sees them in vp (identity in double builds), so the reference gets the
/// same inputs.
Field as_vp(Field f) {
  for (auto& v : f.values) v = static_cast<double>(static_cast<vp>(v));
  return f;
}
Vector as_vp(Vector v) {
  for (auto& x : v) x = static_cast<double>(static_cast<vp>(x));
  return v;
}
Table random_table(test::RandomSource& rng, index_t rows, int cols) {
  Table t(rows, cols);
  for (index_t r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform();
  return t;
}
Vector random_sign(test::RandomSource& rng, index_t n) {
  Vector v(n);
  for (auto& x : v) x = rng.uniform() < 0 ? -1.0 : 1.0;
  return v;
}
Field poisoned(index_t n, int levels) {
  return Field(n, levels, test::poison);
}

template <class T, class U>
auto dev(const HostField<U>& f) {
  return test::to_device<T, M>(f, "field");
}
template <class T>
auto dev(const Table& t) {
  return test::table_to_device<T, M>(t, "table");
}
template <class T>
auto dev(const Vector& v) {
  return test::vector_to_device<T, M>(v, "vector");
}

IndexRange all(index_t n) {
  return {0, n};
}

/// An input bundle on the test grid (its DeviceGrid, shared) with no fields: a test gives data,
/// by name, to the members its stencil reads; the rest stay empty Views.
DiffusionInputs<M> bundle_on(const SGrid& s) {
  DiffusionInputs<M> in;
  in.grid = s.device;
  return in;
}

/// Cells whose C2E2C/C2E2CO neighbours all exist: every cell on the torus and on a global grid,
/// from lateral boundary row 2 on a limited-area grid (row 1 touches the boundary).
IndexRange cells_with_neighbours(const SGrid& s) {
  return {s.grid.range(Location::Cell, Zone::LateralBoundary2).start, s.grid.num_cells};
}

// ---- S2/S5 ------------------------------------------------------------------------------------
void rbf_vec_interpol_vertex(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  const Field p_e = rng.field(g.num_edges, s.nlev);
  const Table c1 = random_table(rng, g.num_vertices, 6), c2 = random_table(rng, g.num_vertices, 6);
  Field u = poisoned(g.num_vertices, s.nlev), v = u;
  const auto du = dev<vp>(u), dv = dev<vp>(v);
  DiffusionInputs<M> in = bundle_on(s);
  in.interpolation.rbf_coeff_1 = dev<wp>(c1);
  in.interpolation.rbf_coeff_2 = dev<wp>(c2);
  const IndexRange r = s.ranges.rbf_vertices;
  run("icondiff::test::rbf", r, 0, s.nlev,
      factory::rbf_vec_interpol_vertex(in, dev<wp>(p_e), du, dv));
  reference::mo_intp_rbf_rbf_vec_interpol_vertex(g, p_e, c1, c2, u, v, r.start, r.end, 0, s.nlev);
  EXPECT_TRUE(test::all_close("p_u_out", test::to_host(du), u, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("p_v_out", test::to_host(dv), v, test::stencil_tolerance()));
}

// ---- S3 ---------------------------------------------------------------------------------------
void nabla2_and_smag_coefficients_for_vn(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  const index_t ne = g.num_edges;
  const Vector dmfs = as_vp(rng.vector(s.nlev)), smag_limit = as_vp(rng.vector(s.nlev));
  const Vector orientation = random_sign(rng, ne), ip = rng.vector(ne), ivv = rng.vector(ne);
  const Field u = as_vp(rng.field(g.num_vertices, s.nlev)),
              v = as_vp(rng.field(g.num_vertices, s.nlev));
  const Table pnx = random_table(rng, ne, 4), pny = random_table(rng, ne, 4);
  const Table dnx = random_table(rng, ne, 4), dny = random_table(rng, ne, 4);
  const Field vn = rng.field(ne, s.nlev);
  const double smag_offset = 9.0;  // ICON4Py's test constant
  Field kh = poisoned(ne, s.nlev), khc = kh, z2 = kh;
  const auto dkh = dev<vp>(kh), dkhc = dev<vp>(khc);
  const auto dz2 = dev<wp>(z2);
  DiffusionInputs<M> in = bundle_on(s);
  in.edges.tangent_orientation = dev<wp>(orientation);
  in.edges.inverse_primal_edge_lengths = dev<wp>(ip);
  in.edges.inverse_vertex_vertex_lengths = dev<wp>(ivv);
  in.edges.primal_normal_vert_x = dev<wp>(pnx);
  in.edges.primal_normal_vert_y = dev<wp>(pny);
  in.edges.dual_normal_vert_x = dev<wp>(dnx);
  in.edges.dual_normal_vert_y = dev<wp>(dny);
  DiffusionTemporaries<M> t;
  t.diff_multfac_smag = dev<vp>(dmfs);
  t.u_vert = dev<vp>(u);
  t.v_vert = dev<vp>(v);
  t.kh_smag_e = dkh;
  t.kh_smag_ec = dkhc;
  t.z_nabla2_e = dz2;
  const IndexRange r = s.ranges.nabla2_edges;
  run("icondiff::test::nabla2_and_smag", r, 0, s.nlev,
      factory::nabla2_and_smag_coefficients_for_vn(in, t, dev<wp>(vn), dev<vp>(smag_limit),
                                                   static_cast<vp>(smag_offset)));
  reference::calculate_nabla2_and_smag_coefficients_for_vn(
      g, dmfs, orientation, ip, ivv, u, v, pnx, pny, dnx, dny, vn, smag_limit, kh, khc, z2,
      smag_offset, r.start, r.end, 0, s.nlev);
  EXPECT_TRUE(test::all_close("kh_smag_e", test::to_host(dkh), kh, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("kh_smag_ec", test::to_host(dkhc), khc, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("z_nabla2_e", test::to_host(dz2), z2, test::stencil_tolerance()));
}

// ---- S4 ---------------------------------------------------------------------------------------
struct TurbulenceInputs {
  Field kh_smag_ec, vn, wgtfac_c;
  Table e_bln_c_s, geofac_div;
  Vector diff_multfac_smag;
};
TurbulenceInputs turbulence_inputs(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  TurbulenceInputs in;
  in.kh_smag_ec = as_vp(rng.field(g.num_edges, s.nlev));
  in.vn = rng.field(g.num_edges, s.nlev);
  in.e_bln_c_s = random_table(rng, g.num_cells, 3);
  in.geofac_div = random_table(rng, g.num_cells, 3);
  in.diff_multfac_smag = as_vp(rng.vector(s.nlev));
  in.wgtfac_c = as_vp(rng.field(g.num_cells, s.nlev + 1));
  return in;
}
stencils::TemporaryFieldsForTurbulenceDiagnostics<M> temporaries(const SGrid& s,
                                                                 const TurbulenceInputs& in) {
  stencils::TemporaryFieldsForTurbulenceDiagnostics<M> b;
  b.kh_smag_ec = dev<vp>(in.kh_smag_ec);
  b.vn = dev<wp>(in.vn);
  b.e_bln_c_s = dev<wp>(in.e_bln_c_s);
  b.geofac_div = dev<wp>(in.geofac_div);
  b.diff_multfac_smag = dev<vp>(in.diff_multfac_smag);
  b.c2e = s.device.c2e;
  return b;
}

void temporary_fields_for_turbulence_diagnostics(const SGrid& s, test::RandomSource& rng) {
  const TurbulenceInputs in = turbulence_inputs(s, rng);
  const index_t nc = s.grid.num_cells;
  Field kh_c = poisoned(nc, s.nlev), div = kh_c;
  const auto dkh = dev<vp>(kh_c), ddiv = dev<vp>(div);
  run("icondiff::test::turbulence_temporaries", all(nc), 0, s.nlev,
      stencils::StoreTemporaryFieldsForTurbulenceDiagnostics<M>{temporaries(s, in), dkh, ddiv});
  reference::temporary_fields_for_turbulence_diagnostics(s.grid, in.kh_smag_ec, in.vn, in.e_bln_c_s,
                                                         in.geofac_div, in.diff_multfac_smag, kh_c,
                                                         div, 0, nc, 0, s.nlev);
  EXPECT_TRUE(test::all_close("kh_c", test::to_host(dkh), kh_c, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("div", test::to_host(ddiv), div, test::stencil_tolerance()));
}

void calculate_diagnostics_for_turbulence(const SGrid& s, test::RandomSource& rng) {
  const index_t nc = s.grid.num_cells;
  const Field div = as_vp(rng.field(nc, s.nlev)), kh_c = as_vp(rng.field(nc, s.nlev));
  const Field wgtfac = as_vp(rng.field(nc, s.nlev + 1));
  Field div_ic(nc, s.nlev + 1, 0.0),
      hdef_ic = div_ic;  // level 0 stays at its initial zero (ICON4Py)
  const auto ddiv_ic = dev<vp>(div_ic), dhdef = dev<vp>(hdef_ic);
  run("icondiff::test::turbulence_diagnostics", all(nc), 1, s.nlev,
      stencils::CalculateDiagnosticsForTurbulence<M>{dev<vp>(div), dev<vp>(kh_c), dev<vp>(wgtfac),
                                                     ddiv_ic, dhdef});
  reference::calculate_diagnostics_for_turbulence(div, kh_c, wgtfac, div_ic, hdef_ic);
  EXPECT_TRUE(test::all_close("div_ic", test::to_host(ddiv_ic), div_ic, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("hdef_ic", test::to_host(dhdef), hdef_ic, test::stencil_tolerance()));
}

void calculate_diagnostic_quantities_for_turbulence(const SGrid& s, test::RandomSource& rng) {
  const TurbulenceInputs in = turbulence_inputs(s, rng);
  const index_t nc = s.grid.num_cells;
  Field div_ic = poisoned(nc, s.nlev + 1), hdef_ic = div_ic;
  const auto ddiv_ic = dev<vp>(div_ic), dhdef = dev<vp>(hdef_ic);
  DiffusionInputs<M> bundle = bundle_on(s);
  bundle.interpolation.e_bln_c_s = dev<wp>(in.e_bln_c_s);
  bundle.interpolation.geofac_div = dev<wp>(in.geofac_div);
  bundle.metric.wgtfac_c = dev<vp>(in.wgtfac_c);
  DiffusionTemporaries<M> t;
  t.kh_smag_ec = dev<vp>(in.kh_smag_ec);
  t.diff_multfac_smag = dev<vp>(in.diff_multfac_smag);
  DiffusionDiagnosticState<M> diagnostic;
  diagnostic.div_ic = ddiv_ic;
  diagnostic.hdef_ic = dhdef;
  const IndexRange r = s.ranges.turbulence_cells;
  run("icondiff::test::turbulence", r, 1, s.nlev,
      factory::diagnostic_quantities_for_turbulence(bundle, t, diagnostic, dev<wp>(in.vn)));
  reference::calculate_diagnostic_quantities_for_turbulence(
      s.grid, in.kh_smag_ec, in.vn, in.e_bln_c_s, in.geofac_div, in.diff_multfac_smag, in.wgtfac_c,
      div_ic, hdef_ic, r.start, r.end, 1, s.nlev);
  EXPECT_TRUE(test::all_close("div_ic", test::to_host(ddiv_ic), div_ic, test::stencil_tolerance()));
  EXPECT_TRUE(test::all_close("hdef_ic", test::to_host(dhdef), hdef_ic, test::stencil_tolerance()));
}

// ---- S6 ---------------------------------------------------------------------------------------
struct VnInputs {
  Field u_vert, v_vert, z_nabla2_e, kh_smag_e, z_nabla4_e2, vn;
  Table pnx, pny;
  Vector ivv, ip, area_edge, diff_multfac_vn, nudgecoeff_e;
};
VnInputs vn_inputs(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  const index_t ne = g.num_edges;
  VnInputs in;
  in.u_vert = as_vp(rng.field(g.num_vertices, s.nlev));
  in.v_vert = as_vp(rng.field(g.num_vertices, s.nlev));
  in.pnx = random_table(rng, ne, 4);
  in.pny = random_table(rng, ne, 4);
  in.z_nabla2_e = rng.field(ne, s.nlev);
  in.ivv = rng.vector(ne);
  in.ip = rng.vector(ne);
  in.area_edge = rng.vector(ne);
  in.kh_smag_e = as_vp(rng.field(ne, s.nlev));
  in.z_nabla4_e2 = as_vp(rng.field(ne, s.nlev));
  in.diff_multfac_vn = rng.vector(s.nlev);
  in.nudgecoeff_e = rng.vector(ne);
  in.vn = rng.field(ne, s.nlev);
  return in;
}
stencils::CalculateNabla4<M> nabla4_body(const SGrid& s, const VnInputs& in) {
  stencils::CalculateNabla4<M> b;
  b.u_vert = dev<vp>(in.u_vert);
  b.v_vert = dev<vp>(in.v_vert);
  b.primal_normal_vert_v1 = dev<wp>(in.pnx);
  b.primal_normal_vert_v2 = dev<wp>(in.pny);
  b.z_nabla2_e = dev<wp>(in.z_nabla2_e);
  b.inv_vert_vert_length = dev<wp>(in.ivv);
  b.inv_primal_edge_length = dev<wp>(in.ip);
  b.e2c2v = s.device.e2c2v;
  return b;
}
constexpr double nudgezone_diff = 9.0, fac_bdydiff_v = 5.0;  // ICON4Py's test constants

void calculate_nabla4(const SGrid& s, test::RandomSource& rng) {
  const VnInputs in = vn_inputs(s, rng);
  const index_t ne = s.grid.num_edges;
  Field z4 = poisoned(ne, s.nlev);
  const auto dz4 = dev<vp>(z4);
  const IndexRange r = s.ranges.vn_edges;
  run("icondiff::test::nabla4", r, 0, s.nlev, stencils::StoreNabla4<M>{nabla4_body(s, in), dz4});
  reference::calculate_nabla4(s.grid, in.u_vert, in.v_vert, in.pnx, in.pny, in.z_nabla2_e, in.ivv,
                              in.ip, z4, r.start, r.end, 0, s.nlev);
  EXPECT_TRUE(test::all_close("z_nabla4_e2", test::to_host(dz4), z4, test::stencil_tolerance()));
}

void elementary_vn_updates(const SGrid& s, test::RandomSource& rng) {
  const VnInputs in = vn_inputs(s, rng);
  const IndexRange r = all(s.grid.num_edges);
  {
    Field vn = in.vn;
    const auto dvn = dev<wp>(vn);
    run("icondiff::test::apply_nabla2_and_nabla4_to_vn", r, 0, s.nlev,
        stencils::ApplyNabla2AndNabla4ToVn<M>{dev<wp>(in.area_edge), dev<vp>(in.kh_smag_e),
                                              dev<wp>(in.z_nabla2_e), dev<vp>(in.z_nabla4_e2),
                                              dev<wp>(in.diff_multfac_vn), dev<wp>(in.nudgecoeff_e),
                                              static_cast<vp>(nudgezone_diff), dvn});
    reference::apply_nabla2_and_nabla4_to_vn(in.area_edge, in.kh_smag_e, in.z_nabla2_e,
                                             in.z_nabla4_e2, in.diff_multfac_vn, in.nudgecoeff_e,
                                             vn, nudgezone_diff, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("vn (apply_nabla2_and_nabla4_to_vn)", test::to_host(dvn), vn,
                                test::stencil_tolerance()));
  }
  {
    Field vn = in.vn;
    const auto dvn = dev<wp>(vn);
    run("icondiff::test::apply_nabla2_and_nabla4_global_to_vn", r, 0, s.nlev,
        stencils::ApplyNabla2AndNabla4GlobalToVn<M>{dev<wp>(in.area_edge), dev<vp>(in.kh_smag_e),
                                                    dev<wp>(in.z_nabla2_e), dev<vp>(in.z_nabla4_e2),
                                                    dev<wp>(in.diff_multfac_vn), dvn});
    reference::apply_nabla2_and_nabla4_global_to_vn(in.area_edge, in.kh_smag_e, in.z_nabla2_e,
                                                    in.z_nabla4_e2, in.diff_multfac_vn, vn, r.start,
                                                    r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("vn (global)", test::to_host(dvn), vn, test::stencil_tolerance()));
  }
  {
    Field vn = in.vn;
    const auto dvn = dev<wp>(vn);
    run("icondiff::test::apply_nabla2_to_vn_in_lateral_boundary", r, 0, s.nlev,
        stencils::ApplyNabla2ToVnInLateralBoundary<M>{dev<wp>(in.z_nabla2_e), dev<wp>(in.area_edge),
                                                      fac_bdydiff_v, dvn});
    reference::apply_nabla2_to_vn_in_lateral_boundary(in.z_nabla2_e, in.area_edge, vn,
                                                      fac_bdydiff_v, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("vn (lateral boundary)", test::to_host(dvn), vn,
                                test::stencil_tolerance()));
  }
}

void apply_diffusion_to_vn(const SGrid& s, test::RandomSource& rng) {
  const VnInputs in = vn_inputs(s, rng);
  DiffusionInputs<M> bundle = bundle_on(s);
  bundle.edges.primal_normal_vert_x = dev<wp>(in.pnx);
  bundle.edges.primal_normal_vert_y = dev<wp>(in.pny);
  bundle.edges.inverse_vertex_vertex_lengths = dev<wp>(in.ivv);
  bundle.edges.inverse_primal_edge_lengths = dev<wp>(in.ip);
  bundle.edges.edge_areas = dev<wp>(in.area_edge);
  bundle.interpolation.nudgecoeff_e = dev<wp>(in.nudgecoeff_e);
  DiffusionTemporaries<M> t;
  t.u_vert = dev<vp>(in.u_vert);
  t.v_vert = dev<vp>(in.v_vert);
  t.z_nabla2_e = dev<wp>(in.z_nabla2_e);
  t.kh_smag_e = dev<vp>(in.kh_smag_e);
  DiffusionParams params;
  params.nudgezone_diff = nudgezone_diff;
  params.fac_bdydiff_v = fac_bdydiff_v;
  // Both branches on every grid: the grid's own flag, then the other one (set on the bundle's
  // copy of the DeviceGrid, whose Views are shared with the test grid's).
  for (const bool limited_area : {s.grid.limited_area, !s.grid.limited_area}) {
    bundle.grid.limited_area = limited_area;
    Field vn = in.vn;
    const auto dvn = dev<wp>(vn);
    const IndexRange r = s.ranges.vn_edges;
    // On the torus every zone starts at 0; split it in the middle to exercise both branches.
    const index_t split = s.torus ? s.grid.num_edges / 2 : s.ranges.start_2nd_nudge_line;
    run("icondiff::test::apply_diffusion_to_vn", r, 0, s.nlev,
        factory::apply_diffusion_to_vn(bundle, t, params, dev<wp>(in.diff_multfac_vn), split, dvn));
    reference::apply_diffusion_to_vn(s.grid, in.u_vert, in.v_vert, in.pnx, in.pny, in.z_nabla2_e,
                                     in.ivv, in.ip, in.area_edge, in.kh_smag_e, in.diff_multfac_vn,
                                     in.nudgecoeff_e, vn, nudgezone_diff, fac_bdydiff_v, split,
                                     limited_area, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close(limited_area ? "vn (limited area)" : "vn (global)",
                                test::to_host(dvn), vn, test::stencil_tolerance()));
  }
}

// ---- S8 ---------------------------------------------------------------------------------------
struct WInputs {
  Field w, z_nabla2_c;
  Table geofac_n2s, geofac_grg_x, geofac_grg_y;
  Vector area, diff_multfac_n2w;
};
WInputs w_inputs(const SGrid& s, test::RandomSource& rng) {
  const index_t nc = s.grid.num_cells;
  WInputs in;
  in.w = rng.field(nc, s.nlev + 1);
  in.z_nabla2_c = as_vp(rng.field(nc, s.nlev));
  in.geofac_n2s = random_table(rng, nc, 4);
  in.geofac_grg_x = random_table(rng, nc, 4);
  in.geofac_grg_y = random_table(rng, nc, 4);
  in.area = rng.vector(nc);
  in.diff_multfac_n2w = rng.vector(s.nlev);
  return in;
}
constexpr double diff_multfac_w = 5.0;  // ICON4Py's test constant

void elementary_w_stencils(const SGrid& s, test::RandomSource& rng) {
  const WInputs in = w_inputs(s, rng);
  const index_t nc = s.grid.num_cells;
  const IndexRange r = cells_with_neighbours(s);
  const auto dw_in = dev<wp>(in.w);
  {
    Field z2 = poisoned(nc, s.nlev);
    const auto dz2 = dev<vp>(z2);
    run("icondiff::test::calculate_nabla2_for_w", r, 0, s.nlev,
        stencils::StoreNabla2ForW<M>{{dw_in, dev<wp>(in.geofac_n2s), s.device.c2e2co}, dz2});
    reference::calculate_nabla2_for_w(s.grid, in.w, in.geofac_n2s, z2, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("z_nabla2_c", test::to_host(dz2), z2, test::stencil_tolerance()));
  }
  {
    Field w = in.w;
    const auto dw = dev<wp>(w);
    run("icondiff::test::apply_nabla2_to_w", r, 0, s.nlev,
        stencils::ApplyNabla2ToW<M>{dev<wp>(in.area), dev<vp>(in.z_nabla2_c),
                                    dev<wp>(in.geofac_n2s), s.device.c2e2co, diff_multfac_w, dw});
    reference::apply_nabla2_to_w(s.grid, in.area, in.z_nabla2_c, in.geofac_n2s, w, diff_multfac_w,
                                 r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(
        test::all_close("w (apply_nabla2_to_w)", test::to_host(dw), w, test::stencil_tolerance()));
  }
  {
    Field w = in.w;
    const auto dw = dev<wp>(w);
    run("icondiff::test::apply_nabla2_to_w_in_upper_damping_layer", r, 0, s.nlev,
        stencils::ApplyNabla2ToWInUpperDampingLayer<M>{
            dev<wp>(in.diff_multfac_n2w), dev<wp>(in.area), dev<vp>(in.z_nabla2_c), dw});
    reference::apply_nabla2_to_w_in_upper_damping_layer(w, in.diff_multfac_n2w, in.area,
                                                        in.z_nabla2_c, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(
        test::all_close("w (damping layer)", test::to_host(dw), w, test::stencil_tolerance()));
  }
  {
    Field dwdx = poisoned(nc, s.nlev + 1), dwdy = dwdx;
    const auto ddx = dev<vp>(dwdx), ddy = dev<vp>(dwdy);
    run("icondiff::test::calculate_horizontal_gradients_for_turbulence", r, 0, s.nlev,
        stencils::StoreHorizontalGradientsForTurbulence<M>{
            {dw_in, dev<wp>(in.geofac_grg_x), dev<wp>(in.geofac_grg_y), s.device.c2e2co},
            ddx,
            ddy});
    reference::calculate_horizontal_gradients_for_turbulence(
        s.grid, in.w, in.geofac_grg_x, in.geofac_grg_y, dwdx, dwdy, r.start, r.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("dwdx", test::to_host(ddx), dwdx, test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("dwdy", test::to_host(ddy), dwdy, test::stencil_tolerance()));
  }
}

void apply_diffusion_to_w(const SGrid& s, test::RandomSource& rng) {
  const WInputs in = w_inputs(s, rng);
  const index_t nc = s.grid.num_cells;
  const IndexRange r = s.ranges.w_cells;
  // On the torus every zone spans the grid; update only a middle part to exercise the copy path.
  const IndexRange updated = s.torus ? IndexRange{nc / 3, 2 * nc / 3} : s.ranges.w_updated_cells;
  const int nrdmax = std::min(13, s.nlev);  // ICON4Py's test constant
  DiffusionInputs<M> bundle = bundle_on(s);
  bundle.interpolation.geofac_n2s = dev<wp>(in.geofac_n2s);
  bundle.interpolation.geofac_grg_x = dev<wp>(in.geofac_grg_x);
  bundle.interpolation.geofac_grg_y = dev<wp>(in.geofac_grg_y);
  bundle.cells.cell_area = dev<wp>(in.area);
  DiffusionTemporaries<M> t;
  t.diff_multfac_n2w = dev<wp>(in.diff_multfac_n2w);
  DiffusionParams params;
  params.diff_multfac_w = diff_multfac_w;
  for (const int type_shear : {2, 0}) {
    Field w = rng.field(nc, s.nlev + 1);  // the output starts different from w_old
    Field dwdx = rng.field(nc, s.nlev + 1), dwdy = rng.field(nc, s.nlev + 1);
    const auto dw = dev<wp>(w);
    const auto ddx = dev<vp>(dwdx), ddy = dev<vp>(dwdy);
    const auto dw_old = dev<wp>(in.w);
    DiffusionDiagnosticState<M> diagnostic;
    diagnostic.dwdx = ddx;
    diagnostic.dwdy = ddy;
    run("icondiff::test::apply_diffusion_to_w", r, 0, s.nlev,
        factory::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
            bundle, t, params, type_shear, nrdmax, updated, diagnostic, dw_old, dw));
    Field dwdx_ref = as_vp(dwdx), dwdy_ref = as_vp(dwdy);
    reference::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
        s.grid, in.area, in.geofac_n2s, in.geofac_grg_x, in.geofac_grg_y, in.w, w, type_shear,
        dwdx_ref, dwdy_ref, diff_multfac_w, in.diff_multfac_n2w, nrdmax, updated.start, updated.end,
        r.start, r.end, 0, s.nlev);
    SCOPED_TRACE("type_shear " + std::to_string(type_shear));
    EXPECT_TRUE(test::all_close("w", test::to_host(dw), w, test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("dwdx", test::to_host(ddx), dwdx_ref, test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("dwdy", test::to_host(ddy), dwdy_ref, test::stencil_tolerance()));

    // icondiff's two-pass variant (DiffusionStrategy::Fused) on the same inputs, in place.
    Field w2 = in.w, dwdx2 = dwdx, dwdy2 = dwdy;
    const auto dw2 = dev<wp>(w2);
    const auto ddx2 = dev<vp>(dwdx2), ddy2 = dev<vp>(dwdy2);
    t.z_nabla2_c = dev<vp>(poisoned(nc, s.nlev));
    DiffusionDiagnosticState<M> diagnostic2;
    diagnostic2.dwdx = ddx2;
    diagnostic2.dwdy = ddy2;
    run("icondiff::test::nabla2_for_w_and_gradients", r, 0, s.nlev,
        factory::nabla2_for_w_and_horizontal_gradients(bundle, t, type_shear == 2, diagnostic2,
                                                       dw2));
    run("icondiff::test::apply_nabla4_and_damping_to_w", updated, 0, s.nlev,
        factory::apply_nabla4_and_damping_to_w(bundle, t, params, nrdmax, dw2));
    // The reference's w holds the new values on [w_start, HALO) and the old ones elsewhere, which
    // is exactly what the in-place variant leaves (w outside the update range keeps w_old).
    Field w_expected = in.w;
    for (int k = 0; k < s.nlev; ++k)
      for (index_t c = r.start; c < r.end; ++c) w_expected(c, k) = w(c, k);
    EXPECT_TRUE(
        test::all_close("w (two-pass)", test::to_host(dw2), w_expected, test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("dwdx (two-pass)", test::to_host(ddx2), dwdx_ref,
                                test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("dwdy (two-pass)", test::to_host(ddy2), dwdy_ref,
                                test::stencil_tolerance()));
  }
}

// ---- S9 ---------------------------------------------------------------------------------------
void cold_pools(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  const index_t nc = g.num_cells, ne = g.num_edges;
  // Scaled so that both branches of the threshold occur (differences of several kelvin).
  const Field theta_v = rng.field(nc, s.nlev, -20.0, 20.0),
              theta_ref = as_vp(rng.field(nc, s.nlev, -20.0, 20.0));
  const Field kh = as_vp(rng.field(ne, s.nlev));
  {
    // ICON4Py's test: thresh_tdiff = +5, smallest_vpfloat = -max(float)
    const double thresh = 5.0, smallest = -static_cast<double>(std::numeric_limits<float>::max());
    Field enh = poisoned(nc, s.nlev);
    const auto denh = dev<vp>(enh);
    const IndexRange cells = cells_with_neighbours(s);
    run("icondiff::test::cold_pools_enhancement", cells, 0, s.nlev,
        stencils::StoreColdPoolsEnhancement<M>{{dev<wp>(theta_v), dev<vp>(theta_ref),
                                                s.device.c2e2c, thresh, static_cast<vp>(smallest)},
                                               denh});
    reference::temporary_field_for_grid_point_cold_pools_enhancement(
        g, theta_v, theta_ref, enh, thresh, smallest, cells.start, cells.end, 0, s.nlev);
    EXPECT_TRUE(
        test::all_close("enh_diffu_3d", test::to_host(denh), enh, test::stencil_tolerance()));
    Field kh_out = kh;
    const auto dkh = dev<vp>(kh_out);
    const IndexRange edges = s.ranges.cold_pool_edges;
    run("icondiff::test::enhance_coefficient", edges, 0, s.nlev,
        stencils::EnhanceDiffusionCoefficientForGridPointColdPools<M>{denh, s.device.e2c, dkh});
    reference::enhance_diffusion_coefficient_for_grid_point_cold_pools(g, kh_out, enh, edges.start,
                                                                       edges.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("kh_smag_e (enhance)", test::to_host(dkh), kh_out,
                                test::stencil_tolerance()));
  }
  {
    const double thresh = -5.0, smallest = 2.220446049250313e-16;  // as the granule uses them
    Field kh_out = kh;
    const auto dkh = dev<vp>(kh_out);
    DiffusionInputs<M> bundle = bundle_on(s);
    bundle.metric.theta_ref_mc = dev<vp>(theta_ref);
    DiffusionTemporaries<M> t;
    t.kh_smag_e = dkh;
    DiffusionParams params;
    params.thresh_tdiff = thresh;
    params.smallest_vpfloat = smallest;
    const IndexRange edges = s.ranges.cold_pool_edges;
    run("icondiff::test::cold_pools", edges, s.nlev - 2, s.nlev,
        factory::enhanced_diffusion_coefficients_for_grid_point_cold_pools(bundle, t, params,
                                                                           dev<wp>(theta_v)));
    reference::calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(
        g, theta_v, theta_ref, thresh, smallest, kh_out, edges.start, edges.end, s.nlev - 2,
        s.nlev);
    EXPECT_TRUE(test::all_close("kh_smag_e (cold pools)", test::to_host(dkh), kh_out,
                                test::stencil_tolerance()));
  }
}

// ---- S11 --------------------------------------------------------------------------------------
struct ThetaInputs {
  Field kh_smag_e, theta_v, exner, zd_diffcoef, z_temp;
  test::HostField3<int> zd_vertoffset;
  test::HostField3<double> vcoef;
  Table geofac_div, geofac_n2s_nbh;
  Vector inv_dual_edge_length, geofac_n2s_c, area;
};
ThetaInputs theta_inputs(const SGrid& s, test::RandomSource& rng) {
  const auto& g = s.grid;
  const index_t nc = g.num_cells;
  ThetaInputs in;
  in.kh_smag_e = as_vp(rng.field(g.num_edges, s.nlev));
  in.inv_dual_edge_length = rng.vector(g.num_edges);
  in.theta_v = rng.field(nc, s.nlev);
  in.exner = rng.field(nc, s.nlev);
  in.geofac_div = random_table(rng, nc, 3);
  in.geofac_n2s_c = rng.vector(nc);
  in.geofac_n2s_nbh = random_table(rng, nc, 3);
  in.area = rng.vector(nc);
  in.zd_diffcoef = rng.field(nc, s.nlev);
  in.z_temp = as_vp(rng.field(nc, s.nlev));
  in.vcoef = test::HostField3<double>(nc, 3, s.nlev);
  in.zd_vertoffset = test::HostField3<int>(nc, 3, s.nlev);
  for (int k = 0; k < s.nlev; ++k)
    for (int j = 0; j < 3; ++j)
      for (index_t c = 0; c < nc; ++c) {
        in.vcoef(c, j, k) = rng.uniform();
        in.zd_vertoffset(c, j, k) =
            rng.integer(-k, s.nlev - k - 2);  // ICON4Py: k + off + 1 <= nlev - 1
      }
  // A few exact zeros, so the zd_diffcoef != 0 mask has something to mask.
  for (index_t c = 0; c < nc; c += 7) in.zd_diffcoef(c, c % s.nlev) = 0.0;
  return in;
}
stencils::TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints<M> zdiffu_body(
    const SGrid& s, const ThetaInputs& in, const Kokkos::View<wp**, FieldLayout, M>& theta) {
  return {test::to_device<int, M>(in.zd_vertoffset, "zd_vertoffset"),
          dev<wp>(in.zd_diffcoef),
          dev<wp>(in.geofac_n2s_c),
          dev<wp>(in.geofac_n2s_nbh),
          test::to_device<wp, M>(in.vcoef, "vcoef"),
          theta,
          s.device.c2e2c};
}
constexpr double rd_o_cvd = 5.0;  // ICON4Py's test constant

void elementary_theta_stencils(const SGrid& s, test::RandomSource& rng) {
  const ThetaInputs in = theta_inputs(s, rng);
  const auto& g = s.grid;
  const index_t nc = g.num_cells, ne = g.num_edges;
  const auto dtheta = dev<wp>(in.theta_v);
  const stencils::CalculateNabla2ForZ<M> flux{
      dev<vp>(in.kh_smag_e), dev<wp>(in.inv_dual_edge_length), dtheta, s.device.e2c};
  const IndexRange cells = s.torus ? all(nc) : s.ranges.turbulence_cells;
  const IndexRange edges = s.torus ? all(ne) : s.ranges.cold_pool_edges;
  Field z2e = poisoned(ne, s.nlev);
  {
    const auto dz2e = dev<wp>(z2e);
    run("icondiff::test::calculate_nabla2_for_z", edges, 0, s.nlev,
        stencils::StoreNabla2ForZ<M>{flux, dz2e});
    reference::calculate_nabla2_for_z(g, in.kh_smag_e, in.inv_dual_edge_length, in.theta_v, z2e,
                                      edges.start, edges.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("z_nabla2_e", test::to_host(dz2e), z2e, test::stencil_tolerance()));
  }
  {
    Field z_temp = poisoned(nc, s.nlev);
    const auto dzt = dev<vp>(z_temp);
    run("icondiff::test::calculate_nabla2_of_theta", cells, 0, s.nlev,
        stencils::CalculateNabla2OfTheta<M>{dev<wp>(z2e), dev<wp>(in.geofac_div), s.device.c2e,
                                            dzt});
    reference::calculate_nabla2_of_theta(g, z2e, in.geofac_div, z_temp, cells.start, cells.end, 0,
                                         s.nlev);
    EXPECT_TRUE(test::all_close("z_temp (nabla2_of_theta)", test::to_host(dzt), z_temp,
                                test::stencil_tolerance()));
  }
  {
    Field z_temp = poisoned(nc, s.nlev);
    const auto dzt = dev<vp>(z_temp);
    run("icondiff::test::calculate_nabla2_for_theta", cells, 0, s.nlev,
        stencils::StoreNabla2ForTheta<M>{{flux, dev<wp>(in.geofac_div), s.device.c2e}, dzt});
    reference::calculate_nabla2_for_theta(g, in.kh_smag_e, in.inv_dual_edge_length, in.theta_v,
                                          in.geofac_div, z_temp, cells.start, cells.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("z_temp (nabla2_for_theta)", test::to_host(dzt), z_temp,
                                test::stencil_tolerance()));
  }
  {
    Field z_temp = in.z_temp;
    const auto dzt = dev<vp>(z_temp);
    const IndexRange steep = cells_with_neighbours(s);
    run("icondiff::test::truly_horizontal_diffusion", steep, 0, s.nlev,
        stencils::StoreTrulyHorizontalDiffusion<M>{zdiffu_body(s, in, dtheta), dzt});
    reference::truly_horizontal_diffusion_nabla_of_theta_over_steep_points(
        g, in.zd_vertoffset, in.zd_diffcoef, in.geofac_n2s_c, in.geofac_n2s_nbh, in.vcoef,
        in.theta_v, z_temp, steep.start, steep.end, 0, s.nlev);
    EXPECT_TRUE(test::all_close("z_temp (truly horizontal)", test::to_host(dzt), z_temp,
                                test::stencil_tolerance()));
  }
  {
    Field theta = in.theta_v, exner = in.exner;
    const auto dth = dev<wp>(theta), dex = dev<wp>(exner);
    run("icondiff::test::update_theta_and_exner", all(nc), 0, s.nlev,
        stencils::UpdateThetaAndExner<M>{dev<vp>(in.z_temp), dev<wp>(in.area),
                                         static_cast<vp>(rd_o_cvd), dth, dex});
    reference::update_theta_and_exner(in.z_temp, in.area, theta, exner, rd_o_cvd, 0, nc, 0, s.nlev);
    EXPECT_TRUE(
        test::all_close("theta_v (update)", test::to_host(dth), theta, test::stencil_tolerance()));
    EXPECT_TRUE(
        test::all_close("exner (update)", test::to_host(dex), exner, test::stencil_tolerance()));
  }
}

void apply_diffusion_to_theta_and_exner(const SGrid& s, test::RandomSource& rng) {
  const ThetaInputs in = theta_inputs(s, rng);
  const auto& g = s.grid;
  const index_t nc = g.num_cells;
  // ICON4Py's test range: [S(C, LB2), n_cells)
  const IndexRange cells{g.range(Location::Cell, Zone::LateralBoundary2).start, nc};
  DiffusionInputs<M> bundle = bundle_on(s);
  bundle.edges.inverse_dual_edge_lengths = dev<wp>(in.inv_dual_edge_length);
  bundle.interpolation.geofac_div = dev<wp>(in.geofac_div);
  bundle.metric.zd_vertoffset = test::to_device<int, M>(in.zd_vertoffset, "zd_vertoffset");
  bundle.metric.zd_diffcoef = dev<wp>(in.zd_diffcoef);
  bundle.metric.zd_intcoef = test::to_device<wp, M>(in.vcoef, "vcoef");
  bundle.cells.cell_area = dev<wp>(in.area);
  DiffusionTemporaries<M> t;
  t.kh_smag_e = dev<vp>(in.kh_smag_e);
  t.theta_v_tmp = dev<wp>(in.theta_v);  // the granule's copy of theta_v (S10)
  t.geofac_n2s_c = dev<wp>(in.geofac_n2s_c);
  t.geofac_n2s_nbh = dev<wp>(in.geofac_n2s_nbh);
  DiffusionParams params;
  params.rd_o_cvd = rd_o_cvd;
  for (const bool zdiffu : {true, false}) {
    Field theta = rng.field(nc, s.nlev), exner = in.exner;
    DiffusionPrognosticState<M> prognostic;
    prognostic.theta_v = dev<wp>(theta);
    prognostic.exner = dev<wp>(exner);
    const auto dth = prognostic.theta_v, dex = prognostic.exner;
    run("icondiff::test::apply_diffusion_to_theta_and_exner", cells, 0, s.nlev,
        factory::apply_diffusion_to_theta_and_exner(bundle, t, params, zdiffu, prognostic));
    reference::apply_diffusion_to_theta_and_exner(
        g, in.kh_smag_e, in.inv_dual_edge_length, in.theta_v, in.geofac_div, in.zd_vertoffset,
        in.zd_diffcoef, in.geofac_n2s_c, in.geofac_n2s_nbh, in.vcoef, in.area, theta, exner,
        rd_o_cvd, zdiffu, cells.start, cells.end, 0, s.nlev);
    SCOPED_TRACE(zdiffu ? "zdiffu on" : "zdiffu off");
    EXPECT_TRUE(test::all_close("theta_v", test::to_host(dth), theta, test::stencil_tolerance()));
    EXPECT_TRUE(test::all_close("exner", test::to_host(dex), exner, test::stencil_tolerance()));
  }
}

using StencilTest = void (*)(const SGrid&, test::RandomSource&);

void run_on_every_grid(const char* name, StencilTest test) {
  const std::uint64_t seed = seed_for(name);
  SCOPED_TRACE(std::string(name) + ", seed " + std::to_string(seed) +
               " (ICONDIFF_TEST_SEED=" + std::to_string(seed) + " reproduces it)");
  test::RandomSource rng(seed);
  for (const auto& s : test::stencil_grids<M>()) {
    SCOPED_TRACE("grid " + s.name + ", nlev " + std::to_string(s.nlev));
    test(s, rng);
  }
}

}  // namespace stencil_test

#define ICONDIFF_STENCIL_TEST(NAME)                             \
  TEST(TEST_CATEGORY, NAME) {                                   \
    stencil_test::run_on_every_grid(#NAME, stencil_test::NAME); \
  }

ICONDIFF_STENCIL_TEST(rbf_vec_interpol_vertex)
ICONDIFF_STENCIL_TEST(nabla2_and_smag_coefficients_for_vn)
ICONDIFF_STENCIL_TEST(temporary_fields_for_turbulence_diagnostics)
ICONDIFF_STENCIL_TEST(calculate_diagnostics_for_turbulence)
ICONDIFF_STENCIL_TEST(calculate_diagnostic_quantities_for_turbulence)
ICONDIFF_STENCIL_TEST(calculate_nabla4)
ICONDIFF_STENCIL_TEST(elementary_vn_updates)
ICONDIFF_STENCIL_TEST(apply_diffusion_to_vn)
ICONDIFF_STENCIL_TEST(elementary_w_stencils)
ICONDIFF_STENCIL_TEST(apply_diffusion_to_w)
ICONDIFF_STENCIL_TEST(cold_pools)
ICONDIFF_STENCIL_TEST(elementary_theta_stencils)
ICONDIFF_STENCIL_TEST(apply_diffusion_to_theta_and_exner)

}  // namespace icondiff
