#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/diffusion/diffusion_setup.hpp>

namespace icondiff {

HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup) {
  diffusion.validate();
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

namespace {

template <class M>
View2D<wp, M> table(const std::string& name, const HostTable<double>& t) {
  View2D<wp, M> v("icondiff::setup::" + name, t.rows(), t.cols());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < t.rows(); ++i)
    for (std::size_t j = 0; j < t.cols(); ++j) h(i, j) = t(i, j);
  Kokkos::deep_copy(v, h);
  return v;
}

template <class M>
View1D<wp, M> vector(const std::string& name, const std::vector<double>& x) {
  View1D<wp, M> v("icondiff::setup::" + name, x.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < x.size(); ++i) h(i) = x[i];
  Kokkos::deep_copy(v, h);
  return v;
}

}  // namespace

template <class M>
DeviceDiffusionInputs<M> to_device(const HostDiffusionInputs& in) {
  DeviceDiffusionInputs<M> d;
  d.grid = DeviceGrid<M>(in.grid);
  d.vertical = in.metrics.vertical;
  d.metric = make_diffusion_metric_state<M>(in.metrics);
  const auto& c = in.interpolation;
  d.interpolation.e_bln_c_s = table<M>("e_bln_c_s", c.e_bln_c_s);
  d.interpolation.rbf_coeff_1 = table<M>("rbf_coeff_1", c.rbf_vec_coeff_v1);
  d.interpolation.rbf_coeff_2 = table<M>("rbf_coeff_2", c.rbf_vec_coeff_v2);
  d.interpolation.geofac_div = table<M>("geofac_div", c.geofac_div);
  d.interpolation.geofac_n2s = table<M>("geofac_n2s", c.geofac_n2s);
  d.interpolation.geofac_grg_x = table<M>("geofac_grg_x", c.geofac_grg_x);
  d.interpolation.geofac_grg_y = table<M>("geofac_grg_y", c.geofac_grg_y);
  d.interpolation.nudgecoeff_e = vector<M>("nudgecoeff_e", c.nudgecoeff_e);
  const auto& e = in.edges;
  d.edges.tangent_orientation = vector<M>("tangent_orientation", in.grid.tangent_orientation);
  d.edges.inverse_primal_edge_lengths =
      vector<M>("inverse_primal_edge_lengths", e.inverse_primal_edge_length);
  d.edges.inverse_vertex_vertex_lengths =
      vector<M>("inverse_vertex_vertex_lengths", e.inverse_vertex_vertex_length);
  d.edges.inverse_dual_edge_lengths =
      vector<M>("inverse_dual_edge_lengths", e.inverse_dual_edge_length);
  d.edges.edge_areas = vector<M>("edge_areas", e.edge_area);
  d.edges.primal_normal_vert_x = table<M>("primal_normal_vert_x", e.primal_normal_vert_x);
  d.edges.primal_normal_vert_y = table<M>("primal_normal_vert_y", e.primal_normal_vert_y);
  d.edges.dual_normal_vert_x = table<M>("dual_normal_vert_x", e.dual_normal_vert_x);
  d.edges.dual_normal_vert_y = table<M>("dual_normal_vert_y", e.dual_normal_vert_y);
  d.cells.area = vector<M>("cell_area", in.grid.cell_area);
  return d;
}

#define ICONDIFF_INSTANTIATE_SETUP(SPACE) \
  template DeviceDiffusionInputs<SPACE> to_device<SPACE>(const HostDiffusionInputs&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_SETUP)

}  // namespace icondiff
