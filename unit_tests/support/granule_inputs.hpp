// Inputs for whole-granule tests: random fields in the reference's containers, and their copies
// as the library's device states.
#pragma once

#include "field_compare.hpp"
#include "host_field.hpp"
#include "reference/diffusion_reference.hpp"

#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/vertical_grid.hpp>

namespace icondiff::test {

/// Nominal interface heights from `top` down to 0 m, slightly stretched like ICON's.
inline VerticalGrid make_test_vertical_grid(int nlev, double top, double damping_height) {
  VerticalGrid v;
  for (int k = 0; k <= nlev; ++k) {
    const double x = 1.0 - static_cast<double>(k) / nlev;
    v.vct_a.push_back(top * x * (0.5 + 0.5 * x));
  }
  v.end_index_of_damping_layer = end_index_of_damping_layer(v.vct_a, damping_height);
  return v;
}

/// Random granule inputs and state on `grid`: coefficients in [-1, 1), theta_v and exner
/// positive (the exner update divides by theta), valid zd offsets (0 <= k+o <= nlev-2) with some
/// zero zd_diffcoef (the mask), vp fields already rounded to vp. theta_v and theta_ref_mc spread
/// over 200-400 K so that the cold-pool enhancement (5e-4 K^-1 times a temperature excess) reaches
/// the size of the Smagorinsky coefficient and actually changes the result.
inline void make_random_granule(const Grid& g, int nlev, RandomSource& rng,
                                reference::GranuleInputs& in, reference::GranuleState& state) {
  const index_t nc = g.num_cells, ne = g.num_edges, nv = g.num_vertices;
  const auto table = [&](index_t rows, int cols) {
    HostTable<double> t(rows, cols);
    for (index_t r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) t(r, c) = rng.uniform();
    return t;
  };
  const auto vp_field = [&](index_t n, int levels, double lo, double hi) {
    HostField<double> f = rng.field(n, levels, lo, hi);
    for (auto& v : f.values) v = static_cast<double>(static_cast<vp>(v));
    return f;
  };
  in.theta_ref_mc = vp_field(nc, nlev, 200.0, 400.0);
  in.wgtfac_c = vp_field(nc, nlev + 1, 0.0, 1.0);
  in.zd_vertoffset = HostField3<int>(nc, 3, nlev);
  in.zd_intcoef = HostField3<double>(nc, 3, nlev);
  for (int k = 0; k < nlev; ++k)
    for (int j = 0; j < 3; ++j)
      for (index_t c = 0; c < nc; ++c) {
        in.zd_vertoffset(c, j, k) = rng.integer(-k, nlev - k - 2);
        in.zd_intcoef(c, j, k) = rng.uniform(0.0, 1.0);
      }
  in.zd_diffcoef = rng.field(nc, nlev, 0.0, 0.002);
  for (index_t c = 0; c < nc; ++c)
    if (c % 3 != 0)
      for (int k = 0; k < nlev; ++k) in.zd_diffcoef(c, k) = 0.0;  // most cells are not steep
  in.e_bln_c_s = table(nc, 3);
  in.rbf_coeff_1 = table(nv, 6);
  in.rbf_coeff_2 = table(nv, 6);
  in.geofac_div = table(nc, 3);
  in.geofac_n2s = table(nc, 4);
  in.geofac_grg_x = table(nc, 4);
  in.geofac_grg_y = table(nc, 4);
  in.nudgecoeff_e = rng.vector(ne, 0.0, 1.0);
  in.tangent_orientation.resize(ne);
  for (auto& t : in.tangent_orientation) t = rng.uniform() < 0 ? -1.0 : 1.0;
  in.inverse_primal_edge_lengths = rng.vector(ne, 0.5, 1.0);
  in.inverse_vertex_vertex_lengths = rng.vector(ne, 0.5, 1.0);
  in.inverse_dual_edge_lengths = rng.vector(ne, 0.5, 1.0);
  in.edge_areas = rng.vector(ne, 0.5, 1.0);
  in.primal_normal_vert_x = table(ne, 4);
  in.primal_normal_vert_y = table(ne, 4);
  in.dual_normal_vert_x = table(ne, 4);
  in.dual_normal_vert_y = table(ne, 4);
  in.cell_area = rng.vector(nc, 0.5, 1.0);

  state.vn = rng.field(ne, nlev);
  state.w = rng.field(nc, nlev + 1);
  state.theta_v = rng.field(nc, nlev, 200.0, 400.0);
  state.exner = rng.field(nc, nlev, 0.5, 1.0);
  state.div_ic = vp_field(nc, nlev + 1, -1.0, 1.0);
  state.hdef_ic = vp_field(nc, nlev + 1, -1.0, 1.0);
  state.dwdx = vp_field(nc, nlev + 1, -1.0, 1.0);
  state.dwdy = vp_field(nc, nlev + 1, -1.0, 1.0);
}

/// The reference's configuration struct for a library configuration.
inline reference::GranuleConfig reference_config(const DiffusionConfig& c, const VerticalGrid& v,
                                                 bool limited_area) {
  reference::GranuleConfig r;
  r.hdiff_efdt_ratio = c.hdiff_efdt_ratio;
  r.hdiff_w_efdt_ratio = c.hdiff_w_efdt_ratio;
  r.smagorinski_scaling_factor = c.smagorinski_scaling_factor;
  r.smagorinski_scaling_factor2 = c.smagorinski_scaling_factor2;
  r.smagorinski_scaling_factor3 = c.smagorinski_scaling_factor3;
  r.smagorinski_scaling_factor4 = c.smagorinski_scaling_factor4;
  r.smagorinski_scaling_height = c.smagorinski_scaling_height;
  r.smagorinski_scaling_height2 = c.smagorinski_scaling_height2;
  r.smagorinski_scaling_height3 = c.smagorinski_scaling_height3;
  r.smagorinski_scaling_height4 = c.smagorinski_scaling_height4;
  r.ndyn_substeps = c.ndyn_substeps;
  r.max_nudging_coefficient = c.max_nudging_coefficient;
  r.velocity_boundary_diffusion_denominator = c.velocity_boundary_diffusion_denominator;
  r.shear_type = static_cast<int>(c.shear_type);
  r.apply_to_temperature = c.apply_to_temperature;
  r.apply_zdiffusion_t = c.apply_zdiffusion_t;
  r.a_hshr = c.a_hshr;
  r.loutshs = c.loutshs;
  r.limited_area = limited_area;
  r.nrd = v.end_index_of_damping_layer;
  r.vct_a = v.vct_a;
  return r;
}

/// The library's input bundle holding copies of the reference's inputs, on `grid`.
template <class M>
DiffusionInputs<M> to_device(const reference::GranuleInputs& in, const DeviceGrid<M>& grid,
                             const VerticalGrid& vertical) {
  DiffusionInputs<M> d;
  d.grid = grid;
  d.vertical = vertical;
  d.metric.theta_ref_mc = to_device<vp, M>(in.theta_ref_mc, "theta_ref_mc");
  d.metric.wgtfac_c = to_device<vp, M>(in.wgtfac_c, "wgtfac_c");
  d.metric.zd_vertoffset = to_device<int, M>(in.zd_vertoffset, "zd_vertoffset");
  d.metric.zd_diffcoef = to_device<wp, M>(in.zd_diffcoef, "zd_diffcoef");
  d.metric.zd_intcoef = to_device<wp, M>(in.zd_intcoef, "zd_intcoef");
  d.interpolation.e_bln_c_s = table_to_device<wp, M>(in.e_bln_c_s, "e_bln_c_s");
  d.interpolation.rbf_coeff_1 = table_to_device<wp, M>(in.rbf_coeff_1, "rbf_coeff_1");
  d.interpolation.rbf_coeff_2 = table_to_device<wp, M>(in.rbf_coeff_2, "rbf_coeff_2");
  d.interpolation.geofac_div = table_to_device<wp, M>(in.geofac_div, "geofac_div");
  d.interpolation.geofac_n2s = table_to_device<wp, M>(in.geofac_n2s, "geofac_n2s");
  d.interpolation.geofac_grg_x = table_to_device<wp, M>(in.geofac_grg_x, "geofac_grg_x");
  d.interpolation.geofac_grg_y = table_to_device<wp, M>(in.geofac_grg_y, "geofac_grg_y");
  d.interpolation.nudgecoeff_e = vector_to_device<wp, M>(in.nudgecoeff_e, "nudgecoeff_e");
  d.edges.tangent_orientation =
      vector_to_device<wp, M>(in.tangent_orientation, "tangent_orientation");
  d.edges.inverse_primal_edge_lengths =
      vector_to_device<wp, M>(in.inverse_primal_edge_lengths, "inverse_primal");
  d.edges.inverse_vertex_vertex_lengths =
      vector_to_device<wp, M>(in.inverse_vertex_vertex_lengths, "inverse_vv");
  d.edges.inverse_dual_edge_lengths =
      vector_to_device<wp, M>(in.inverse_dual_edge_lengths, "inverse_dual");
  d.edges.edge_areas = vector_to_device<wp, M>(in.edge_areas, "edge_areas");
  d.edges.primal_normal_vert_x =
      table_to_device<wp, M>(in.primal_normal_vert_x, "primal_normal_vert_x");
  d.edges.primal_normal_vert_y =
      table_to_device<wp, M>(in.primal_normal_vert_y, "primal_normal_vert_y");
  d.edges.dual_normal_vert_x = table_to_device<wp, M>(in.dual_normal_vert_x, "dual_normal_vert_x");
  d.edges.dual_normal_vert_y = table_to_device<wp, M>(in.dual_normal_vert_y, "dual_normal_vert_y");
  d.cells.cell_area = vector_to_device<wp, M>(in.cell_area, "cell_area");
  return d;
}

template <class M>
struct DeviceGranuleState {
  DiffusionPrognosticState<M> prognostic;
  DiffusionDiagnosticState<M> diagnostic;
};

template <class M>
DeviceGranuleState<M> to_device(const reference::GranuleState& s) {
  DeviceGranuleState<M> d;
  d.prognostic.vn = to_device<wp, M>(s.vn, "vn");
  d.prognostic.w = to_device<wp, M>(s.w, "w");
  d.prognostic.theta_v = to_device<wp, M>(s.theta_v, "theta_v");
  d.prognostic.exner = to_device<wp, M>(s.exner, "exner");
  d.diagnostic.div_ic = to_device<vp, M>(s.div_ic, "div_ic");
  d.diagnostic.hdef_ic = to_device<vp, M>(s.hdef_ic, "hdef_ic");
  d.diagnostic.dwdx = to_device<vp, M>(s.dwdx, "dwdx");
  d.diagnostic.dwdy = to_device<vp, M>(s.dwdy, "dwdy");
  return d;
}

template <class M>
reference::GranuleState to_host(const DeviceGranuleState<M>& d) {
  reference::GranuleState s;
  s.vn = to_host(d.prognostic.vn);
  s.w = to_host(d.prognostic.w);
  s.theta_v = to_host(d.prognostic.theta_v);
  s.exner = to_host(d.prognostic.exner);
  s.div_ic = to_host(d.diagnostic.div_ic);
  s.hdef_ic = to_host(d.diagnostic.hdef_ic);
  s.dwdx = to_host(d.diagnostic.dwdx);
  s.dwdy = to_host(d.diagnostic.dwdy);
  return s;
}

}  // namespace icondiff::test
