#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/setup/diffusion_setup.hpp>

#include <fmt/format.h>

namespace icondiff {

HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup) {
  // The diffusion configuration is validated once, by the granule that uses it; only its
  // nudging coefficient is read here, and the interpolation configuration checks that.
  HostDiffusionInputs in;
  InterpolationConfig interpolation = setup.interpolation;
  interpolation.max_nudging_coefficient = diffusion.max_nudging_coefficient;
  in.edges = compute_edge_geometry(grid);
  in.interpolation = compute_interpolation_coefficients(grid, interpolation);
  in.metrics = compute_metric_fields(grid, setup.vertical, setup.metrics,
                                     compute_topography(grid, setup.metrics.topography),
                                     in.interpolation.geofac_n2s, in.interpolation.c_bln_avg);
  in.grid = std::move(grid);
  return in;
}

template <class M>
DiffusionMetricState<M> make_diffusion_metric_state(const HostMetricFields& m) {
  const std::size_t nc = m.z_mc.rows();
  const std::size_t nlev = m.z_mc.cols();
  const auto check_shape = [](const char* name, std::size_t rows, std::size_t cols,
                              std::size_t want_rows, std::size_t want_cols) {
    if (rows != want_rows || cols != want_cols)
      throw InvalidArgument(fmt::format("metric state: {} is ({}, {}), expected ({}, {})", name,
                                        rows, cols, want_rows, want_cols));
  };
  check_shape("theta_ref_mc", m.theta_ref_mc.rows(), m.theta_ref_mc.cols(), nc, nlev);
  check_shape("wgtfac_c", m.wgtfac_c.rows(), m.wgtfac_c.cols(), nc, nlev + 1);
  check_shape("zd_diffcoef", m.zd_diffcoef.rows(), m.zd_diffcoef.cols(), nc, nlev);
  for (int j = 0; j < 3; ++j) {
    check_shape("zd_intcoef", m.zd_intcoef[j].rows(), m.zd_intcoef[j].cols(), nc, nlev);
    check_shape("zd_vertoffset", m.zd_vertoffset[j].rows(), m.zd_vertoffset[j].cols(), nc, nlev);
  }
  const std::string scope = "icondiff::inputs::";
  DiffusionMetricState<M> s;
  s.theta_ref_mc = copy_to_view<vp, M>(scope + "theta_ref_mc", m.theta_ref_mc);
  s.wgtfac_c = copy_to_view<vp, M>(scope + "wgtfac_c", m.wgtfac_c);
  s.zd_vertoffset = copy_to_view<int, M>(scope + "zd_vertoffset", m.zd_vertoffset);
  s.zd_diffcoef = copy_to_view<wp, M>(scope + "zd_diffcoef", m.zd_diffcoef);
  s.zd_intcoef = copy_to_view<wp, M>(scope + "zd_intcoef", m.zd_intcoef);
  return s;
}

template <class M>
DiffusionInputs<M> make_diffusion_inputs(const HostDiffusionInputs& in) {
  const std::string scope = "icondiff::inputs::";
  const auto copy = [&scope](const char* name, const auto& host) {
    return copy_to_view<wp, M>(scope + name, host);
  };
  DiffusionInputs<M> d;
  d.grid = DeviceGrid<M>(in.grid);
  d.vertical = in.metrics.vertical;
  d.metric = make_diffusion_metric_state<M>(in.metrics);
  const InterpolationCoefficients& c = in.interpolation;
  DiffusionInterpolationState<M>& i = d.interpolation;
  i.e_bln_c_s = copy("e_bln_c_s", c.e_bln_c_s);
  i.rbf_coeff_1 = copy("rbf_coeff_1", c.rbf_vec_coeff_v1);
  i.rbf_coeff_2 = copy("rbf_coeff_2", c.rbf_vec_coeff_v2);
  i.geofac_div = copy("geofac_div", c.geofac_div);
  i.geofac_n2s = copy("geofac_n2s", c.geofac_n2s);
  i.geofac_grg_x = copy("geofac_grg_x", c.geofac_grg_x);
  i.geofac_grg_y = copy("geofac_grg_y", c.geofac_grg_y);
  i.nudgecoeff_e = copy("nudgecoeff_e", c.nudgecoeff_e);
  const EdgeGeometry& e = in.edges;
  DiffusionEdgeParams<M>& p = d.edges;
  p.tangent_orientation = copy("tangent_orientation", in.grid.tangent_orientation);
  p.inverse_primal_edge_lengths = copy("inverse_primal_edge_lengths", e.inverse_primal_edge_length);
  p.inverse_vertex_vertex_lengths =
      copy("inverse_vertex_vertex_lengths", e.inverse_vertex_vertex_length);
  p.inverse_dual_edge_lengths = copy("inverse_dual_edge_lengths", e.inverse_dual_edge_length);
  p.edge_areas = copy("edge_areas", e.edge_area);
  p.primal_normal_vert_x = copy("primal_normal_vert_x", e.primal_normal_vert_x);
  p.primal_normal_vert_y = copy("primal_normal_vert_y", e.primal_normal_vert_y);
  p.dual_normal_vert_x = copy("dual_normal_vert_x", e.dual_normal_vert_x);
  p.dual_normal_vert_y = copy("dual_normal_vert_y", e.dual_normal_vert_y);
  d.cells.cell_area = copy("cell_area", in.grid.cell_area);
  return d;
}

#define ICONDIFF_INSTANTIATE_SETUP(SPACE)                                                   \
  template DiffusionInputs<SPACE> make_diffusion_inputs<SPACE>(const HostDiffusionInputs&); \
  template DiffusionMetricState<SPACE> make_diffusion_metric_state<SPACE>(const HostMetricFields&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_SETUP)

}  // namespace icondiff
