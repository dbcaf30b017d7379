// Dycore<ExecSpace>: validation at construction, then each program as the launches of its
// bodies, built by dycore/dycore_stencils.hpp from the static bundle and the call's arguments.
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_labels.hpp>
#include <icondiff/dycore/dycore_stencils.hpp>
#include <icondiff/grid/skip_values.hpp>

#include <string>
#include <string_view>

namespace icondiff {

template <class MemorySpace>
void check_dycore_inputs(const DycoreInputs<MemorySpace>& in) {
  if (in.nlev < 1)
    throw InvalidArgument("dycore: nlev = " + std::to_string(in.nlev) + ", expected >= 1");
  if (in.nflatlev < 0 || in.nflatlev >= in.nlev)
    throw InvalidArgument("dycore: nflatlev = " + std::to_string(in.nflatlev) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.nflat_gradp < 0 || in.nflat_gradp >= in.nlev)
    throw InvalidArgument("dycore: nflat_gradp = " + std::to_string(in.nflat_gradp) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.end_index_of_damping_layer < 0 || in.end_index_of_damping_layer >= in.nlev)
    throw InvalidArgument(
        "dycore: end_index_of_damping_layer = " + std::to_string(in.end_index_of_damping_layer) +
        ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.kstart_moist < 0 || in.kstart_moist >= in.nlev)
    throw InvalidArgument("dycore: kstart_moist = " + std::to_string(in.kstart_moist) +
                          ", expected a level in [0, nlev = " + std::to_string(in.nlev) + ")");
  if (in.nlev < 3)
    throw InvalidArgument("dycore: nlev = " + std::to_string(in.nlev) +
                          ", expected >= 3 (the surface extrapolation reads three levels)");
  if (!(in.mean_cell_area > 0) || !std::isfinite(in.mean_cell_area))
    throw InvalidArgument("dycore: mean_cell_area = " + std::to_string(in.mean_cell_area) +
                          ", expected a positive area");
  const FieldSizes sizes = in.sizes();
  check_state_extents(in.metric, sizes, "dycore: metric");
  check_state_extents(in.interpolation, sizes, "dycore: interpolation");
  check_state_extents(in.edges, sizes, "dycore: edge");
  check_state_extents(in.cells, sizes, "dycore: cell");
  if (in.metric.scaling_factor_for_3d_divdamp.extent(0) != static_cast<std::size_t>(in.nlev))
    throw InvalidArgument("dycore: metric scaling_factor_for_3d_divdamp has extents (" +
                          std::to_string(in.metric.scaling_factor_for_3d_divdamp.extent(0)) +
                          "), expected (" + std::to_string(in.nlev) + ")");
  if (in.metric.rayleigh_w.extent(0) != static_cast<std::size_t>(in.nlev + 1))
    throw InvalidArgument("dycore: metric rayleigh_w has extents (" +
                          std::to_string(in.metric.rayleigh_w.extent(0)) + "), expected (" +
                          std::to_string(in.nlev + 1) + ")");
  // The pressure gradient reads level k + vertoffset_gradp(e, i, k) of the neighbour cells on
  // every level below nflat_gradp; ICON's metrics keep it inside the column by construction.
  auto offsets =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in.metric.vertoffset_gradp);
  for (int k = in.nflat_gradp + 1; k < in.nlev; ++k)
    for (std::size_t i = 0; i < offsets.extent(1); ++i)
      for (std::size_t e = 0; e < offsets.extent(0); ++e) {
        const int level = k + offsets(e, i, k);
        if (level < 0 || level >= in.nlev)
          throw InvalidArgument("dycore: metric vertoffset_gradp(" + std::to_string(e) + ", " +
                                std::to_string(i) + ", " + std::to_string(k) +
                                ") = " + std::to_string(offsets(e, i, k)) + " points to level " +
                                std::to_string(level) +
                                ", outside [0, nlev = " + std::to_string(in.nlev) + ")");
      }
}

template <class ExecSpace>
Dycore<ExecSpace>::Dycore(const DycoreConfig& config, const DycoreInputs<memory_space>& inputs,
                          const DycoreOptions<ExecSpace>& options)
    : config_(config),
      inputs_(inputs),
      options_(options),
      runner_(options.space, options.schedule) {
  config_.validate();
  check_dycore_inputs(inputs_);
  tables_.e2c = with_skip_values_replaced(inputs_.grid.e2c, "icondiff::dycore::e2c");
  tables_.c2e2co = with_skip_values_replaced(inputs_.grid.c2e2co, "icondiff::dycore::c2e2co");
  tables_.e2c2eo = with_skip_values_replaced(inputs_.grid.e2c2eo, "icondiff::dycore::e2c2eo");
  tables_.c2e = with_skip_values_replaced(inputs_.grid.c2e, "icondiff::dycore::c2e");
  tables_.e2c2e = with_skip_values_replaced(inputs_.grid.e2c2e, "icondiff::dycore::e2c2e");
  tables_.e2v = inputs_.grid.e2v;
  const bool replace_vertex_skips = inputs_.grid.limited_area || inputs_.grid.num_ranks > 1;
  tables_.v2c = replace_vertex_skips
                    ? with_skip_values_replaced(inputs_.grid.v2c, "icondiff::dycore::v2c")
                    : inputs_.grid.v2c;
  tables_.v2e = replace_vertex_skips
                    ? with_skip_values_replaced(inputs_.grid.v2e, "icondiff::dycore::v2e")
                    : inputs_.grid.v2e;
  z_q_ = Kokkos::View<vp**, FieldLayout, memory_space>("icondiff::dycore::z_q",
                                                       inputs_.grid.num_cells, inputs_.nlev);
  const auto scratch = [&](const std::string& label, const index_t points) {
    return Kokkos::View<vp**, FieldLayout, memory_space>(label, points, inputs_.nlev + 1);
  };
  vertex_scratch_ = scratch("icondiff::dycore::vertex_scratch", inputs_.grid.num_vertices);
  edge_scratch_ = scratch("icondiff::dycore::edge_scratch", inputs_.grid.num_edges);
  cell_scratch_ = scratch("icondiff::dycore::cell_scratch", inputs_.grid.num_cells);
  const char* const gradient_names[] = {"rho_gradient_x", "rho_gradient_y", "theta_v_gradient_x",
                                        "theta_v_gradient_y"};
  for (std::size_t i = 0; i < rho_theta_gradients_.size(); ++i)
    rho_theta_gradients_[i] = Kokkos::View<vp**, FieldLayout, memory_space>(
        std::string("icondiff::dycore::") + gradient_names[i], inputs_.grid.num_cells,
        inputs_.nlev);
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::rho_theta_pgrad_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{0, g.range(Location::Edge, Zone::Halo2).end}, 0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::divergence_damping_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::Nudging2).start,
                     g.range(Location::Edge, Zone::Local).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::solver_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::Nudging).start,
                     g.range(Location::Cell, Zone::Local).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::contravariant_correction_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary3).start,
                     g.range(Location::Cell, Zone::Halo).end},
          inputs_.nflatlev + 1, inputs_.nlev + 1};
}

template <class ExecSpace>
void Dycore<ExecSpace>::check_profile(const Kokkos::View<wp*, FieldLayout, memory_space>& profile,
                                      const char* name, const std::string_view program) const {
  if (profile.extent(0) != static_cast<std::size_t>(inputs_.nlev))
    throw InvalidArgument(std::string(program) + " " + name + " has extents (" +
                          std::to_string(profile.extent(0)) + "), expected (" +
                          std::to_string(inputs_.nlev) + ")");
}

template <class ExecSpace>
void Dycore<ExecSpace>::check_domain(const ProgramDomain& domain, const index_t points,
                                     const int levels, const std::string_view program) const {
  if (domain.horizontal.start < 0 || domain.horizontal.end > points || domain.vertical_start < 0 ||
      domain.vertical_end > levels)
    throw InvalidArgument(
        "dycore: " + std::string(program) + " domain [" + std::to_string(domain.horizontal.start) +
        ", " + std::to_string(domain.horizontal.end) + ") x [" +
        std::to_string(domain.vertical_start) + ", " + std::to_string(domain.vertical_end) +
        ") lies outside the grid (" + std::to_string(points) + " points, " +
        std::to_string(levels) + " levels)");
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_rho_theta_pgrad_and_update_vn(
    const ExecSpace& space, const RhoThetaPgradArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: compute_rho_theta_pgrad_and_update_vn";
  check_state_extents(args, inputs_.sizes(), scope);
  const ProgramDomain domain = domain_override ? *domain_override : rho_theta_pgrad_domain();
  check_domain(domain, inputs_.grid.num_edges, inputs_.nlev,
               "compute_rho_theta_pgrad_and_update_vn");
  if (domain.horizontal.empty()) return;
  auto runner = runner_.on(space);
  // The gradients at every cell on the domain's levels (the edges' upwind cells, wherever they
  // are; C2E2CO has its skip values replaced, so every cell has four valid neighbours).
  runner.points_levels(
      dycore_labels::rho_theta_pgrad_gradients_at_cells, IndexRange{0, inputs_.grid.num_cells},
      domain.vertical_start, domain.vertical_end,
      dycore_stencils::rho_theta_gradients_at_cells(inputs_, tables_, args, rho_theta_gradients_));
  runner.points_levels(dycore_labels::rho_theta_pgrad, domain.horizontal, domain.vertical_start,
                       domain.vertical_end,
                       dycore_stencils::compute_rho_theta_pgrad_and_update_vn(
                           inputs_, tables_, args, rho_theta_gradients_));
}

template <class ExecSpace>
void Dycore<ExecSpace>::apply_divergence_damping_and_update_vn(
    const ExecSpace& space, const DivergenceDampingArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: apply_divergence_damping_and_update_vn";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.interpolated_fourth_order_divdamp_factor,
                "interpolated_fourth_order_divdamp_factor", scope);
  const ProgramDomain domain = domain_override ? *domain_override : divergence_damping_domain();
  check_domain(domain, inputs_.grid.num_edges, inputs_.nlev,
               "apply_divergence_damping_and_update_vn");
  runner_.on(space).points_levels(
      dycore_labels::divergence_damping, domain.horizontal, domain.vertical_start,
      domain.vertical_end,
      dycore_stencils::apply_divergence_damping_and_update_vn(config_, inputs_, tables_, args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::vertically_implicit_solver_at_predictor_step(
    const ExecSpace& space, const SolverPredictorArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: vertically_implicit_solver_at_predictor_step";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.rayleigh_damping_factor, "rayleigh_damping_factor", scope);
  const ProgramDomain solver = domain_override ? *domain_override : solver_domain();
  ProgramDomain interpolation = contravariant_correction_domain();
  if (domain_override) interpolation.horizontal = domain_override->horizontal;
  check_domain(solver, inputs_.grid.num_cells, inputs_.nlev,
               "vertically_implicit_solver_at_predictor_step");
  check_domain(interpolation, inputs_.grid.num_cells, inputs_.nlev + 1,
               "vertically_implicit_solver_at_predictor_step (contravariant correction)");
  if (solver.vertical_start != 0 || solver.vertical_end != inputs_.nlev)
    throw InvalidArgument(scope + ": the solver runs over whole columns (levels [0, nlev))");

  const auto launch = runner_.on(space);
  launch.points_levels(dycore_labels::contravariant_correction, interpolation.horizontal,
                       interpolation.vertical_start, interpolation.vertical_end,
                       dycore_stencils::contravariant_correction(inputs_, tables_, args));
  launch.column_blocks(dycore_labels::solver_predictor, solver.horizontal,
                       dycore_stencils::vertically_implicit_solver_at_predictor_step(
                           config_, inputs_, tables_, z_q_, args),
                       options_.column_blocks);
}

template <class ExecSpace>
void Dycore<ExecSpace>::vertically_implicit_solver_at_corrector_step(
    const ExecSpace& space, const SolverCorrectorArguments<memory_space>& args,
    const ProgramDomain* domain_override) {
  static const std::string scope = "dycore: vertically_implicit_solver_at_corrector_step";
  check_state_extents(args, inputs_.sizes(), scope);
  check_profile(args.rayleigh_damping_factor, "rayleigh_damping_factor", scope);
  const ProgramDomain solver = domain_override ? *domain_override : solver_domain();
  check_domain(solver, inputs_.grid.num_cells, inputs_.nlev,
               "vertically_implicit_solver_at_corrector_step");
  if (solver.vertical_start != 0 || solver.vertical_end != inputs_.nlev)
    throw InvalidArgument(scope + ": the solver runs over whole columns (levels [0, nlev))");
  runner_.on(space).column_blocks(dycore_labels::solver_corrector, solver.horizontal,
                                  dycore_stencils::vertically_implicit_solver_at_corrector_step(
                                      config_, inputs_, tables_, z_q_, args),
                                  options_.column_blocks);
}

#define ICONDIFF_INSTANTIATE_DYCORE(SPACE) template class Dycore<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DYCORE)
#define ICONDIFF_INSTANTIATE_DYCORE_CHECK(SPACE) \
  template void check_dycore_inputs(const DycoreInputs<SPACE>&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_DYCORE_CHECK)

}  // namespace icondiff
