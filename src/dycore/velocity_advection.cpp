// Dycore<ExecSpace>'s velocity-advection programs (ICON4Py 0.2.0's VelocityAdvection,
// velocity_advection.py): each as the launches of its bodies, built by dycore/dycore_stencils.hpp.
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_labels.hpp>
#include <icondiff/dycore/dycore_stencils.hpp>

#include "dycore_launch.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>

namespace icondiff {

namespace {

/// The velocity-advection scalars: a positive finite dtime and finite scale factors
/// (velocity_advection_scale_factors gives them).
void check_scale_factors(const double dtime, const double cfl_w_limit, const double scalfac_exdiff,
                         const std::string_view program) {
  if (!(dtime > 0) || !std::isfinite(dtime) || !std::isfinite(cfl_w_limit) ||
      !std::isfinite(scalfac_exdiff))
    throw InvalidArgument("dycore: " + std::string(program) + ": dtime = " + std::to_string(dtime) +
                          ", cfl_w_limit = " + std::to_string(cfl_w_limit) +
                          ", scalfac_exdiff = " + std::to_string(scalfac_exdiff) +
                          ": expected a positive dtime and finite scale factors "
                          "(velocity_advection_scale_factors(dtime))");
}

}  // namespace

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::diagnostics_from_normal_wind_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::LateralBoundary5).start,
                     g.range(Location::Edge, Zone::Halo2).end},
          0, inputs_.nlev + 1};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_diagnostics_from_normal_wind(
    const ExecSpace& space, const DiagnosticsFromNormalWindArguments<memory_space>& args,
    const ProgramDomain* domain) {
  const ProgramDomain d = domain ? *domain : diagnostics_from_normal_wind_domain();
  check_surface_extrapolation(d, "compute_diagnostics_from_normal_wind");
  run_point_program(
      space, args, &d, d, Location::Edge, inputs_.nlev + 1,
      dycore_labels::diagnostics_from_normal_wind,
      dycore_stencils::compute_diagnostics_from_normal_wind(inputs_, tables_, args, vertex_scratch_,
                                                            d.vertical_end),
      [&](const ProgramDomain& checked) {
        if (args.skip_compute_predictor_vertical_advection || checked.horizontal.empty() ||
            checked.vertical_end - 1 <= checked.vertical_start)
          return;
        // w at every vertex on the levels whose advection of w the edges compute.
        runner_.on(space).points_levels(
            dycore_labels::diagnostics_from_normal_wind_w_at_vertices,
            IndexRange{0, inputs_.grid.num_vertices}, checked.vertical_start,
            checked.vertical_end - 1,
            dycore_stencils::w_at_vertices(inputs_, tables_, vertex_scratch_, args.w));
      });
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::advection_in_horizontal_momentum_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::Nudging2).start,
                     g.range(Location::Edge, Zone::Local).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_advection_in_horizontal_momentum(
    const ExecSpace& space, const AdvectionInHorizontalMomentumArguments<memory_space>& args,
    const ProgramDomain* domain) {
  check_scale_factors(args.dtime, args.cfl_w_limit, args.scalfac_exdiff,
                      "compute_advection_in_horizontal_momentum");
  const ProgramDomain d = domain ? *domain : advection_in_horizontal_momentum_domain();
  run_point_program(
      space, args, &d, d, Location::Edge, inputs_.nlev,
      dycore_labels::advection_in_horizontal_momentum,
      dycore_stencils::compute_advection_in_horizontal_momentum(
          inputs_, tables_, args, vertex_scratch_, cell_scratch_, d.vertical_end),
      [&](const ProgramDomain& checked) {
        if (checked.horizontal.empty()) return;
        // Every vertex and cell on the domain's levels: the edges' neighbours, wherever they are.
        auto runner = runner_.on(space);
        runner.points_levels(
            dycore_labels::advection_in_horizontal_momentum_vorticity_at_vertices,
            IndexRange{0, inputs_.grid.num_vertices}, checked.vertical_start, checked.vertical_end,
            dycore_stencils::vorticity_at_vertices(inputs_, tables_, args, vertex_scratch_));
        runner.points_levels(
            dycore_labels::advection_in_horizontal_momentum_kinetic_energy_at_cells,
            IndexRange{0, inputs_.grid.num_cells}, checked.vertical_start, checked.vertical_end,
            dycore_stencils::kinetic_energy_at_cells(inputs_, tables_, args, cell_scratch_));
      });
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::advection_in_vertical_momentum_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary4).start,
                     g.range(Location::Cell, Zone::Halo).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_advection_in_predictor_vertical_momentum(
    const ExecSpace& space, const AdvectionInPredictorVerticalMomentumArguments<memory_space>& args,
    const ProgramDomain* domain) {
  check_scale_factors(args.dtime, args.cfl_w_limit, args.scalfac_exdiff,
                      "compute_advection_in_predictor_vertical_momentum");
  const ProgramDomain d = domain ? *domain : advection_in_vertical_momentum_domain();
  run_point_program(space, args, &d, d, Location::Cell, inputs_.nlev,
                    dycore_labels::advection_in_predictor_vertical_momentum,
                    dycore_stencils::compute_advection_in_predictor_vertical_momentum(
                        inputs_, tables_, args, d.vertical_end));
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_advection_in_corrector_vertical_momentum(
    const ExecSpace& space, const AdvectionInCorrectorVerticalMomentumArguments<memory_space>& args,
    const ProgramDomain* domain) {
  check_scale_factors(args.dtime, args.cfl_w_limit, args.scalfac_exdiff,
                      "compute_advection_in_corrector_vertical_momentum");
  const ProgramDomain d = domain ? *domain : advection_in_vertical_momentum_domain();
  run_point_program(
      space, args, &d, d, Location::Cell, inputs_.nlev,
      dycore_labels::advection_in_corrector_vertical_momentum,
      dycore_stencils::compute_advection_in_corrector_vertical_momentum(
          inputs_, tables_, args, edge_scratch_, d.vertical_end),
      [&](const ProgramDomain& checked) {
        if (checked.horizontal.empty()) return;
        // w at every vertex, then the advection of w at every edge, on the domain's levels.
        auto runner = runner_.on(space);
        runner.points_levels(
            dycore_labels::advection_in_corrector_vertical_momentum_w_at_vertices,
            IndexRange{0, inputs_.grid.num_vertices}, checked.vertical_start, checked.vertical_end,
            dycore_stencils::w_at_vertices(inputs_, tables_, vertex_scratch_, args.w));
        runner.points_levels(
            dycore_labels::advection_in_corrector_vertical_momentum_horizontal_advection_of_w,
            IndexRange{0, inputs_.grid.num_edges}, checked.vertical_start, checked.vertical_end,
            dycore_stencils::corrector_horizontal_advection_of_w(inputs_, tables_, args,
                                                                 vertex_scratch_, edge_scratch_));
      });
}

template <class ExecSpace>
double Dycore<ExecSpace>::max_vertical_cfl(
    const ExecSpace& space, const Kokkos::View<vp**, FieldLayout, memory_space>& vertical_cfl,
    const double previous) {
  const IndexRange cells = advection_in_vertical_momentum_domain().horizontal;
  if (vertical_cfl.extent(0) != static_cast<std::size_t>(inputs_.grid.num_cells) ||
      vertical_cfl.extent(1) != static_cast<std::size_t>(inputs_.nlev))
    throw InvalidArgument("dycore: max_vertical_cfl: vertical_cfl has extents (" +
                          std::to_string(vertical_cfl.extent(0)) + ", " +
                          std::to_string(vertical_cfl.extent(1)) + "), expected (" +
                          std::to_string(inputs_.grid.num_cells) + ", " +
                          std::to_string(inputs_.nlev) + ")");
  if (cells.empty()) return previous;
  const index_t n = cells.size(), start = cells.start;
  const auto cfl = vertical_cfl;
  double largest = 0;
  int nans = 0;
  // The maximum and the NaN count in one pass: Kokkos' Max reducer does not propagate NaN.
  Kokkos::parallel_reduce(
      dycore_labels::max_vertical_cfl,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space, 0, n * inputs_.nlev),
      KOKKOS_LAMBDA(const index_t i, double& m, int& nan) {
        const double v = static_cast<double>(cfl(start + i % n, i / n));
        if (v != v)
          ++nan;
        else if (v > m)
          m = v;
      },
      Kokkos::Max<double>(largest), Kokkos::Sum<int>(nans));
  if (nans > 0 || previous != previous) return std::numeric_limits<double>::quiet_NaN();
  return largest > previous ? largest : previous;
}

#define ICONDIFF_INSTANTIATE_VELOCITY_ADVECTION(SPACE)                                         \
  template ProgramDomain Dycore<SPACE>::diagnostics_from_normal_wind_domain() const;           \
  template void Dycore<SPACE>::compute_diagnostics_from_normal_wind(                           \
      const SPACE&, const DiagnosticsFromNormalWindArguments<SPACE::memory_space>&,            \
      const ProgramDomain*);                                                                   \
  template ProgramDomain Dycore<SPACE>::advection_in_horizontal_momentum_domain() const;       \
  template void Dycore<SPACE>::compute_advection_in_horizontal_momentum(                       \
      const SPACE&, const AdvectionInHorizontalMomentumArguments<SPACE::memory_space>&,        \
      const ProgramDomain*);                                                                   \
  template ProgramDomain Dycore<SPACE>::advection_in_vertical_momentum_domain() const;         \
  template void Dycore<SPACE>::compute_advection_in_predictor_vertical_momentum(               \
      const SPACE&, const AdvectionInPredictorVerticalMomentumArguments<SPACE::memory_space>&, \
      const ProgramDomain*);                                                                   \
  template void Dycore<SPACE>::compute_advection_in_corrector_vertical_momentum(               \
      const SPACE&, const AdvectionInCorrectorVerticalMomentumArguments<SPACE::memory_space>&, \
      const ProgramDomain*);                                                                   \
  template double Dycore<SPACE>::max_vertical_cfl(                                             \
      const SPACE&, const Kokkos::View<vp**, FieldLayout, SPACE::memory_space>&, double);
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_VELOCITY_ADVECTION)

}  // namespace icondiff
