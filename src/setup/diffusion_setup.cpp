#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/setup/diffusion_setup.hpp>

#include <fmt/format.h>

namespace icondiff {

HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup,
                                             const CellHaloExchange& exchange) {
  // The diffusion configuration is validated once, by the granule that uses it; only its
  // nudging coefficient is read here (diffusion_spec §6.9: one value for both), and the
  // interpolation configuration checks that.
  StaticsSetupConfig config = setup;
  config.interpolation.max_nudging_coefficient = diffusion.max_nudging_coefficient;
  StaticFieldSelection selection;
  selection.diffusion = true;
  return compute_static_inputs(std::move(grid), config, selection, exchange);
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
DiffusionInputs<M> make_diffusion_inputs(const HostDiffusionInputs& in,
                                         const StaticFields<M>& statics,
                                         const DeviceGrid<M>& grid) {
  DiffusionInputs<M> d;
  d.grid = grid;
  d.vertical = in.metrics.vertical;
  d.metric.share_from(statics);
  d.interpolation.share_from(statics);
  d.edges.share_from(statics);
  d.cells.share_from(statics);
  return d;
}

template <class M>
DiffusionInputs<M> make_diffusion_inputs(const HostDiffusionInputs& in) {
  return make_diffusion_inputs<M>(in, make_static_fields<M>(in), DeviceGrid<M>(in.grid));
}

#define ICONDIFF_INSTANTIATE_SETUP(SPACE)                                                   \
  template DiffusionInputs<SPACE> make_diffusion_inputs<SPACE>(const HostDiffusionInputs&); \
  template DiffusionInputs<SPACE> make_diffusion_inputs<SPACE>(                             \
      const HostDiffusionInputs&, const StaticFields<SPACE>&, const DeviceGrid<SPACE>&);    \
  template DiffusionMetricState<SPACE> make_diffusion_metric_state<SPACE>(const HostMetricFields&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_SETUP)

}  // namespace icondiff
