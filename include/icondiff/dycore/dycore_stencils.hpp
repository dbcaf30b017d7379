// One factory per kernel of the dycore programs: each builds the stencil's body from the Dycore's
// static bundle, its neighbour tables and the call's arguments. Fields and scalar arguments are
// filled BY NAME from the field lists (core/fill_by_name.hpp: the body's members carry the names
// of statics/static_fields.hpp and of the call's argument lists, dycore_states.hpp), so a missing,
// renamed or swapped field does not compile; only what the Dycore derives (neighbour tables with
// skip values replaced, zone boundaries, values from the configuration) is set by hand. The
// granule, its tests and the ICON4Py stencil runner build the same bodies.
#pragma once

#include <icondiff/core/fill_by_name.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/dycore/dycore_states.hpp>
#include <icondiff/stencils/compute_advection_in_horizontal_momentum.hpp>
#include <icondiff/stencils/compute_advection_in_vertical_momentum.hpp>
#include <icondiff/stencils/compute_diagnostics_from_normal_wind.hpp>
#include <icondiff/stencils/compute_edge_diagnostics_for_dycore_and_update_vn.hpp>
#include <icondiff/stencils/compute_horizontal_velocity_quantities.hpp>
#include <icondiff/stencils/compute_perturbed_quantities_and_interpolation.hpp>
#include <icondiff/stencils/solve_nonhydro_point_programs.hpp>
#include <icondiff/stencils/vertically_implicit_dycore_solver.hpp>

#include <array>

namespace icondiff {

/// The neighbour tables the dycore's bodies read as ICON4Py reads them, made once by the Dycore:
/// -1 skip values replaced by the largest valid index of the row (grid/skip_values.hpp), except
/// v2c and v2e on a global grid of one rank, where ICON4Py keeps the pentagons' -1 (its neighbour
/// sums leave them out) and replaces them only on limited-area and decomposed grids
/// (icon4py.model.common.grid.icon._should_replace_skip_values). e2v has no missing entries.
template <class MemorySpace>
struct DycoreTables {
  Kokkos::View<const index_t**, TableLayout, MemorySpace> e2c, c2e2co, e2c2eo, c2e, e2c2e, e2v, v2c,
      v2e;
};

// clang-format off
/// The predictor's arguments split by the body that reads them: the interpolation of the
/// contravariant correction takes the edge values and writes the cell values the column body then
/// reads (test_dycore_tools checks that the two lists cover ICONDIFF_SOLVER_PREDICTOR_FIELDS).
#define ICONDIFF_CONTRAVARIANT_CORRECTION_ARGUMENTS(X)                                             \
  X(contravariant_correction_at_edges_on_model_levels, "read")                                     \
  X(contravariant_correction_at_cells_on_half_levels, "written")
#define ICONDIFF_SOLVER_PREDICTOR_COLUMN_ARGUMENTS(X)                                              \
  X(contravariant_correction_at_cells_on_half_levels, "read")                                      \
  X(dwdz_at_cells_on_model_levels, "written")                                                      \
  X(exner_dynamical_increment, "written")                                                          \
  ICONDIFF_SOLVER_NEW_STATE_FIELDS(X)                                                              \
  ICONDIFF_SOLVER_INPUT_FIELDS(X)                                                                  \
  ICONDIFF_SOLVER_SCALARS(X)
/// The corrector's vertical-momentum call split the same way: the horizontal advection of w
/// takes vn_ie and vt_ie (and w, which the cell body reads too), the cell body the rest.
#define ICONDIFF_CORRECTOR_HORIZONTAL_ADVECTION_OF_W_ARGUMENTS(X)                                  \
  X(vn_on_half_levels, "read")                                                                     \
  X(tangential_wind_on_half_levels, "read")
#define ICONDIFF_CORRECTOR_VERTICAL_MOMENTUM_CELL_ARGUMENTS(X)                                     \
  ICONDIFF_VERTICAL_MOMENTUM_OUTPUT_FIELDS(X)                                                      \
  X(w, "read")                                                                                     \
  X(contravariant_correction_at_cells_on_half_levels, "read")                                      \
  ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_SCALARS(X)
// clang-format on

namespace dycore_stencils {

namespace fill {
ICONDIFF_DEFINE_FILL_BY_NAME(rho_theta_gradients_at_cells_statics,
                             ICONDIFF_RHO_THETA_GRADIENTS_AT_CELLS_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(rho_theta_pgrad_statics, ICONDIFF_RHO_THETA_PGRAD_EDGE_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(rho_theta_pgrad_arguments, ICONDIFF_RHO_THETA_PGRAD_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(divdamp_update_vn_statics, ICONDIFF_DIVDAMP_UPDATE_VN_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(divdamp_update_vn_arguments, ICONDIFF_DIVDAMP_UPDATE_VN_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(contravariant_correction_statics,
                             ICONDIFF_CONTRAVARIANT_CORRECTION_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(contravariant_correction_arguments,
                             ICONDIFF_CONTRAVARIANT_CORRECTION_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(solver_statics, ICONDIFF_SOLVER_CORRECTOR_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(solver_predictor_arguments, ICONDIFF_SOLVER_PREDICTOR_COLUMN_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(solver_corrector_arguments, ICONDIFF_SOLVER_CORRECTOR_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(w_at_vertices_statics, ICONDIFF_W_AT_VERTICES_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(horizontal_advection_of_w_statics,
                             ICONDIFF_HORIZONTAL_ADVECTION_OF_W_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(diagnostics_from_normal_wind_statics,
                             ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_EDGE_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(diagnostics_from_normal_wind_arguments,
                             ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(vorticity_at_vertices_statics, ICONDIFF_VORTICITY_AT_VERTICES_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(kinetic_energy_at_cells_statics,
                             ICONDIFF_KINETIC_ENERGY_AT_CELLS_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_horizontal_momentum_statics,
                             ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_EDGE_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_horizontal_momentum_arguments,
                             ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_predictor_vertical_momentum_statics,
                             ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_predictor_vertical_momentum_arguments,
                             ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(advection_in_vertical_momentum_common_statics,
                             ICONDIFF_ADVECTION_IN_VERTICAL_MOMENTUM_COMMON_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(corrector_vertical_momentum_cell_arguments,
                             ICONDIFF_CORRECTOR_VERTICAL_MOMENTUM_CELL_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(corrector_horizontal_advection_of_w_arguments,
                             ICONDIFF_CORRECTOR_HORIZONTAL_ADVECTION_OF_W_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(exner_from_rhotheta_arguments, ICONDIFF_EXNER_FROM_RHOTHETA_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(perturbed_quantities_statics, ICONDIFF_PERTURBED_QUANTITIES_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(perturbed_quantities_arguments, ICONDIFF_PERTURBED_QUANTITIES_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(stencils_61_62_arguments, ICONDIFF_STENCILS_61_62_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(interpolation_and_nonhydro_buoy_statics,
                             ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(interpolation_and_nonhydro_buoy_arguments,
                             ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(horizontal_velocity_quantities_statics,
                             ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(horizontal_velocity_quantities_arguments,
                             ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(averaged_vn_and_fluxes_statics,
                             ICONDIFF_AVERAGED_VN_AND_FLUXES_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(averaged_vn_and_fluxes_arguments,
                             ICONDIFF_AVERAGED_VN_AND_FLUXES_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(theta_and_exner_in_halo_statics,
                             ICONDIFF_THETA_AND_EXNER_IN_HALO_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(theta_and_exner_in_halo_arguments,
                             ICONDIFF_THETA_AND_EXNER_IN_HALO_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(init_cell_kdim_field_arguments, ICONDIFF_INIT_CELL_KDIM_FIELD_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(mass_flux_weighted_statics, ICONDIFF_MASS_FLUX_WEIGHTED_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(mass_flux_weighted_arguments, ICONDIFF_MASS_FLUX_WEIGHTED_ARGUMENTS)
ICONDIFF_DEFINE_FILL_BY_NAME(dwdz_for_divergence_damping_statics,
                             ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(dwdz_for_divergence_damping_arguments,
                             ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(hydrostatic_correction_statics,
                             ICONDIFF_HYDROSTATIC_CORRECTION_STATICS)
ICONDIFF_DEFINE_FILL_BY_NAME(hydrostatic_correction_arguments,
                             ICONDIFF_HYDROSTATIC_CORRECTION_FIELDS)
}  // namespace fill

/// compute_rho_theta_pgrad_and_update_vn's cell kernel: the gradients of rho and theta_v into
/// `gradients` (rho x, rho y, theta_v x, theta_v y).
template <class M>
stencils::RhoThetaGradientsAtCells<M> rho_theta_gradients_at_cells(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables, const RhoThetaPgradArguments<M>& args,
    const std::array<View2D<vp, M>, 4>& gradients) {
  stencils::RhoThetaGradientsAtCells<M> body;
  fill::rho_theta_gradients_at_cells_statics(body, in.metric, in.interpolation, in.edges);
  body.perturbed_rho_at_cells_on_model_levels = args.perturbed_rho_at_cells_on_model_levels;
  body.perturbed_theta_v_at_cells_on_model_levels = args.perturbed_theta_v_at_cells_on_model_levels;
  body.c2e2co = tables.c2e2co;
  body.rho_gradient_x = gradients[0];
  body.rho_gradient_y = gradients[1];
  body.theta_v_gradient_x = gradients[2];
  body.theta_v_gradient_y = gradients[3];
  return body;
}

/// compute_rho_theta_pgrad_and_update_vn's edge body, reading what the kernel above stored.
template <class M>
stencils::ComputeRhoThetaPgradAndUpdateVn<M> compute_rho_theta_pgrad_and_update_vn(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables, const RhoThetaPgradArguments<M>& args,
    const std::array<View2D<vp, M>, 4>& gradients) {
  stencils::ComputeRhoThetaPgradAndUpdateVn<M> body;
  fill::rho_theta_pgrad_statics(body, in.metric, in.interpolation, in.edges);
  fill::rho_theta_pgrad_arguments(body, args);
  body.e2c = tables.e2c;
  body.rho_gradient_x = gradients[0];
  body.rho_gradient_y = gradients[1];
  body.theta_v_gradient_x = gradients[2];
  body.theta_v_gradient_y = gradients[3];
  const auto& g = in.grid;
  body.limited_area = g.limited_area;
  body.nflatlev = in.nflatlev;
  body.nflat_gradp = in.nflat_gradp;
  body.start_edge_lateral_boundary = g.range(Location::Edge, Zone::LateralBoundary1).start;
  body.start_edge_lateral_boundary_level_7 = g.range(Location::Edge, Zone::LateralBoundary7).start;
  body.start_edge_nudging_level_2 = g.range(Location::Edge, Zone::Nudging2).start;
  body.end_edge_nudging = g.range(Location::Edge, Zone::Nudging).end;
  body.end_edge_halo = g.range(Location::Edge, Zone::Halo).end;
  return body;
}

/// apply_divergence_damping_and_update_vn.
template <class M>
stencils::ApplyDivergenceDampingAndUpdateVn<M> apply_divergence_damping_and_update_vn(
    const DycoreConfig& config, const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const DivergenceDampingArguments<M>& args) {
  stencils::ApplyDivergenceDampingAndUpdateVn<M> body;
  fill::divdamp_update_vn_statics(body, in.metric, in.interpolation, in.edges);
  fill::divdamp_update_vn_arguments(body, args);
  body.scaling_factor_for_3d_divdamp = in.metric.scaling_factor_for_3d_divdamp;
  body.e2c = tables.e2c;
  body.e2c2eo = tables.e2c2eo;
  body.advection_explicit_weight_parameter = config.advection_explicit_weight_parameter();
  body.advection_implicit_weight_parameter = config.advection_implicit_weight_parameter();
  body.limited_area = in.grid.limited_area;
  body.divdamp_order = static_cast<int>(config.divdamp_order);
  body.mean_cell_area = in.mean_cell_area;
  body.max_nudging_coefficient = config.max_nudging_coefficient;
  body.dbl_eps = physics::dbl_eps;
  return body;
}

/// The predictor's interpolation of the contravariant correction from edges to cells.
template <class M>
stencils::InterpolateContravariantCorrectionToHalfLevels<M> contravariant_correction(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const SolverPredictorArguments<M>& args) {
  stencils::InterpolateContravariantCorrectionToHalfLevels<M> body;
  fill::contravariant_correction_statics(body, in.metric, in.interpolation, in.edges);
  fill::contravariant_correction_arguments(body, args);
  body.c2e = tables.c2e;
  body.nlev = in.nlev;
  return body;
}

/// The solver's column body with what both steps share.
template <class M>
stencils::VerticallyImplicitSolver<M> vertically_implicit_solver(const DycoreConfig& config,
                                                                 const DycoreInputs<M>& in,
                                                                 const DycoreTables<M>& tables,
                                                                 const View2D<vp, M>& z_q) {
  stencils::VerticallyImplicitSolver<M> body;
  fill::solver_statics(body, in.metric, in.interpolation, in.edges);
  body.z_q = z_q;
  body.c2e = tables.c2e;
  body.klemp_rayleigh_damping = config.rayleigh_type == RayleighType::Klemp;
  body.end_index_of_damping_layer = in.end_index_of_damping_layer;
  body.kstart_moist = in.kstart_moist;
  body.nlev = in.nlev;
  return body;
}

/// vertically_implicit_solver_at_predictor_step's column body (z_q: the solver's scratch).
template <class M>
stencils::VerticallyImplicitSolver<M> vertically_implicit_solver_at_predictor_step(
    const DycoreConfig& config, const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const View2D<vp, M>& z_q, const SolverPredictorArguments<M>& args) {
  auto body = vertically_implicit_solver(config, in, tables, z_q);
  fill::solver_predictor_arguments(body, args);
  body.corrector = false;
  body.compute_dwdz = static_cast<int>(config.divdamp_type) >= 3;
  return body;
}

/// vertically_implicit_solver_at_corrector_step's column body.
template <class M>
stencils::VerticallyImplicitSolver<M> vertically_implicit_solver_at_corrector_step(
    const DycoreConfig& config, const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const View2D<vp, M>& z_q, const SolverCorrectorArguments<M>& args) {
  auto body = vertically_implicit_solver(config, in, tables, z_q);
  fill::solver_corrector_arguments(body, args);
  body.corrector = true;
  body.advection_explicit_weight_parameter = config.advection_explicit_weight_parameter();
  body.advection_implicit_weight_parameter = config.advection_implicit_weight_parameter();
  return body;
}

/// w at the vertices into `w_at_vertices` (the Dycore's vertex scratch), for the horizontal
/// advection of w.
template <class M>
stencils::WAtVertices<M> w_at_vertices(const DycoreInputs<M>& in, const DycoreTables<M>& tables,
                                       const View2D<vp, M>& w_at_vertices, const View2D<wp, M>& w) {
  stencils::WAtVertices<M> body;
  fill::w_at_vertices_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  body.w_at_vertices = w_at_vertices;
  body.w = w;
  body.v2c = tables.v2c;
  return body;
}
/// The horizontal advection of w from w and w at the vertices.
template <class M>
stencils::HorizontalAdvectionOfW<M> horizontal_advection_of_w(const DycoreInputs<M>& in,
                                                              const DycoreTables<M>& tables,
                                                              const View2D<vp, M>& w_at_vertices,
                                                              const View2D<wp, M>& w) {
  stencils::HorizontalAdvectionOfW<M> advection;
  fill::horizontal_advection_of_w_statics(advection, in.metric, in.interpolation, in.edges,
                                          in.cells);
  advection.w = w;
  advection.w_at_vertices = w_at_vertices;
  advection.e2c = tables.e2c;
  advection.e2v = tables.e2v;
  return advection;
}

/// compute_diagnostics_from_normal_wind over levels [0, vertical_end) (vertical_end - 1: the
/// extrapolated lowest half level), reading w at the vertices from `w_at_vertices`.
template <class M>
stencils::ComputeDiagnosticsFromNormalWind<M> compute_diagnostics_from_normal_wind(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const DiagnosticsFromNormalWindArguments<M>& args, const View2D<vp, M>& w_at_vertices,
    const index_t vertical_end) {
  stencils::ComputeDiagnosticsFromNormalWind<M> body;
  fill::diagnostics_from_normal_wind_statics(body, in.metric, in.interpolation, in.edges);
  fill::diagnostics_from_normal_wind_arguments(body, args);
  body.e2c2e = tables.e2c2e;
  body.advection_of_w = horizontal_advection_of_w(in, tables, w_at_vertices, args.w);
  body.nflatlev = in.nflatlev;
  body.vertical_end = vertical_end;
  return body;
}

/// compute_advection_in_horizontal_momentum's first kernels: the vorticity at the vertices into
/// `vorticity` (the Dycore's vertex scratch), the kinetic energy at the cells into `ekin` (its
/// cell scratch).
template <class M>
stencils::VorticityAtVertices<M> vorticity_at_vertices(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInHorizontalMomentumArguments<M>& args, const View2D<vp, M>& vorticity) {
  stencils::VorticityAtVertices<M> body;
  fill::vorticity_at_vertices_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  body.vorticity_at_vertices = vorticity;
  body.vn = args.vn;
  body.v2e = tables.v2e;
  return body;
}
template <class M>
stencils::KineticEnergyAtCells<M> kinetic_energy_at_cells(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInHorizontalMomentumArguments<M>& args, const View2D<vp, M>& ekin) {
  stencils::KineticEnergyAtCells<M> body;
  fill::kinetic_energy_at_cells_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  body.kinetic_energy_at_cells = ekin;
  body.horizontal_kinetic_energy_at_edges_on_model_levels =
      args.horizontal_kinetic_energy_at_edges_on_model_levels;
  body.c2e = tables.c2e;
  return body;
}
/// compute_advection_in_horizontal_momentum's edge body over levels [.., vertical_end) (the extra
/// diffusion's band ends at vertical_end - 4), reading what the two kernels above stored.
template <class M>
stencils::ComputeAdvectionInHorizontalMomentum<M> compute_advection_in_horizontal_momentum(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInHorizontalMomentumArguments<M>& args, const View2D<vp, M>& vorticity,
    const View2D<vp, M>& ekin, const index_t vertical_end) {
  stencils::ComputeAdvectionInHorizontalMomentum<M> body;
  fill::advection_in_horizontal_momentum_statics(body, in.metric, in.interpolation, in.edges);
  fill::advection_in_horizontal_momentum_arguments(body, args);
  body.vorticity_at_vertices = vorticity;
  body.kinetic_energy_at_cells = ekin;
  body.e2c = tables.e2c;
  body.e2v = tables.e2v;
  body.e2c2eo = tables.e2c2eo;
  const index_t damping = in.end_index_of_damping_layer;
  body.extra_diffusion_start = damping - 2 > 2 ? damping - 2 : 2;  // maximum(2, damping - 2)
  body.extra_diffusion_end = vertical_end - 4;
  return body;
}

/// The vertical-momentum body with what both steps share (vertical_end: ICON4Py's nlev).
template <class M>
stencils::ComputeAdvectionInVerticalMomentum<M> advection_in_vertical_momentum(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables, const index_t vertical_end) {
  stencils::ComputeAdvectionInVerticalMomentum<M> body;
  body.c2e = tables.c2e;
  body.c2e2co = tables.c2e2co;
  body.nflatlev = in.nflatlev;
  body.nlev = vertical_end;
  const index_t damping = in.end_index_of_damping_layer;
  body.cfl_band_start = damping - 2 > 2 ? damping - 2 : 2;  // maximum(2, damping - 2)
  body.cfl_band_end = vertical_end - 3;
  return body;
}

/// compute_advection_in_predictor_vertical_momentum.
template <class M>
stencils::ComputeAdvectionInVerticalMomentum<M> compute_advection_in_predictor_vertical_momentum(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInPredictorVerticalMomentumArguments<M>& args, const index_t vertical_end) {
  auto body = advection_in_vertical_momentum(in, tables, vertical_end);
  fill::advection_in_predictor_vertical_momentum_statics(body, in.metric, in.interpolation,
                                                         in.edges, in.cells);
  fill::advection_in_predictor_vertical_momentum_arguments(body, args);
  body.corrector = false;
  return body;
}

/// compute_advection_in_corrector_vertical_momentum's edge kernel (after w_at_vertices): the
/// horizontal advection of w from the call's vn_ie and vt_ie into `advection_of_w` (the Dycore's
/// edge scratch).
template <class M>
stencils::HorizontalAdvectionOfWAtEdges<M> corrector_horizontal_advection_of_w(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInCorrectorVerticalMomentumArguments<M>& args,
    const View2D<vp, M>& w_at_vertices, const View2D<vp, M>& advection_of_w) {
  stencils::HorizontalAdvectionOfWAtEdges<M> body;
  fill::corrector_horizontal_advection_of_w_arguments(body, args);
  body.horizontal_advection_of_w_at_edges_on_half_levels = advection_of_w;
  body.advection = horizontal_advection_of_w(in, tables, w_at_vertices, args.w);
  return body;
}
/// compute_advection_in_corrector_vertical_momentum's cell body, reading the horizontal advection
/// of w the kernel above stored in `advection_of_w`.
template <class M>
stencils::ComputeAdvectionInVerticalMomentum<M> compute_advection_in_corrector_vertical_momentum(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AdvectionInCorrectorVerticalMomentumArguments<M>& args,
    const View2D<vp, M>& advection_of_w, const index_t vertical_end) {
  auto body = advection_in_vertical_momentum(in, tables, vertical_end);
  fill::advection_in_vertical_momentum_common_statics(body, in.metric, in.interpolation, in.edges,
                                                      in.cells);
  fill::corrector_vertical_momentum_cell_arguments(body, args);
  body.horizontal_advection_of_w_at_edges_on_half_levels = advection_of_w;
  body.corrector = true;
  return body;
}

// ---- solve_nonhydro's horizontal velocity programs ---------------------------------------------
template <class M>
stencils::ComputeHorizontalVelocityQuantitiesAndFluxes<M>
compute_horizontal_velocity_quantities_and_fluxes(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const HorizontalVelocityQuantitiesArguments<M>& args, const index_t vertical_end) {
  stencils::ComputeHorizontalVelocityQuantitiesAndFluxes<M> body;
  fill::horizontal_velocity_quantities_statics(body, in.metric, in.interpolation, in.edges,
                                               in.cells);
  fill::horizontal_velocity_quantities_arguments(body, args);
  body.e2c2e = tables.e2c2e;
  body.e2c2eo = tables.e2c2eo;
  body.nflatlev = in.nflatlev;
  body.vertical_end = vertical_end;
  return body;
}
template <class M>
stencils::ComputeAveragedVnAndFluxes<M> compute_averaged_vn_and_fluxes(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const AveragedVnAndFluxesArguments<M>& args) {
  stencils::ComputeAveragedVnAndFluxes<M> body;
  fill::averaged_vn_and_fluxes_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::averaged_vn_and_fluxes_arguments(body, args);
  body.e2c2eo = tables.e2c2eo;
  return body;
}

/// compute_perturbed_quantities_and_interpolation's body (its `step` set per launch).
template <class M>
stencils::ComputePerturbedQuantitiesAndInterpolation<M>
compute_perturbed_quantities_and_interpolation(const DycoreConfig& config,
                                               const DycoreInputs<M>& in,
                                               const PerturbedQuantitiesArguments<M>& args) {
  stencils::ComputePerturbedQuantitiesAndInterpolation<M> body;
  fill::perturbed_quantities_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::perturbed_quantities_arguments(body, args);
  body.taylor_hydro = config.igradp_method == 3;
  body.nflatlev = in.nflatlev;
  body.nflat_gradp = in.nflat_gradp;
  return body;
}

// ---- The small point programs of solve_nonhydro ------------------------------------------------
template <class M>
stencils::Stencils6162<M> stencils_61_62(const Stencils6162Arguments<M>& args,
                                         const index_t vertical_end) {
  stencils::Stencils6162<M> body;
  fill::stencils_61_62_arguments(body, args);
  body.vertical_end = vertical_end;
  return body;
}
template <class M>
stencils::ComputeInterpolationAndNonhydroBuoy<M> compute_interpolation_and_nonhydro_buoy(
    const DycoreConfig& config, const DycoreInputs<M>& in,
    const InterpolationAndNonhydroBuoyArguments<M>& args) {
  stencils::ComputeInterpolationAndNonhydroBuoy<M> body;
  fill::interpolation_and_nonhydro_buoy_statics(body, in.metric, in.interpolation, in.edges,
                                                in.cells);
  fill::interpolation_and_nonhydro_buoy_arguments(body, args);
  body.rhotheta_explicit_weight_parameter = config.rhotheta_explicit_weight_parameter();
  body.rhotheta_implicit_weight_parameter = config.rhotheta_implicit_weight_parameter();
  return body;
}
template <class M>
stencils::ComputeExnerFromRhotheta<M> compute_exner_from_rhotheta(
    const ExnerFromRhothetaArguments<M>& args) {
  stencils::ComputeExnerFromRhotheta<M> body;
  fill::exner_from_rhotheta_arguments(body, args);
  return body;
}
template <class M>
stencils::UpdateThetaAndExnerInHalo<M> update_theta_and_exner_in_halo(
    const DycoreInputs<M>& in, const ThetaAndExnerInHaloArguments<M>& args) {
  stencils::UpdateThetaAndExnerInHalo<M> body;
  fill::theta_and_exner_in_halo_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::theta_and_exner_in_halo_arguments(body, args);
  return body;
}
template <class M>
stencils::InitCellKdimFieldWithZeroWp<M> init_cell_kdim_field_with_zero_wp(
    const InitCellKdimFieldArguments<M>& args) {
  stencils::InitCellKdimFieldWithZeroWp<M> body;
  fill::init_cell_kdim_field_arguments(body, args);
  return body;
}
template <class M>
stencils::UpdateMassFluxWeighted<M> update_mass_flux_weighted(
    const DycoreInputs<M>& in, const MassFluxWeightedArguments<M>& args) {
  stencils::UpdateMassFluxWeighted<M> body;
  fill::mass_flux_weighted_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::mass_flux_weighted_arguments(body, args);
  return body;
}
template <class M>
stencils::ComputeDwdzForDivergenceDamping<M> compute_dwdz_for_divergence_damping(
    const DycoreInputs<M>& in, const DwdzForDivergenceDampingArguments<M>& args) {
  stencils::ComputeDwdzForDivergenceDamping<M> body;
  fill::dwdz_for_divergence_damping_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::dwdz_for_divergence_damping_arguments(body, args);
  return body;
}
template <class M>
stencils::ComputeHydrostaticCorrectionTerm<M> compute_hydrostatic_correction_term(
    const DycoreInputs<M>& in, const DycoreTables<M>& tables,
    const HydrostaticCorrectionArguments<M>& args) {
  stencils::ComputeHydrostaticCorrectionTerm<M> body;
  fill::hydrostatic_correction_statics(body, in.metric, in.interpolation, in.edges, in.cells);
  fill::hydrostatic_correction_arguments(body, args);
  body.e2c = tables.e2c;
  return body;
}

}  // namespace dycore_stencils
}  // namespace icondiff
