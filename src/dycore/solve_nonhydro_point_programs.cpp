// Dycore<ExecSpace>'s small point programs of solve_nonhydro: each checks its arguments and
// domain and launches its one body (dycore/dycore_stencils.hpp).
#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_labels.hpp>
#include <icondiff/dycore/dycore_stencils.hpp>

#include "dycore_launch.hpp"

#include <string>

namespace icondiff {

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::lateral_boundary_cells_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary1).start,
                     g.range(Location::Cell, Zone::LateralBoundary4).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::halo_cells_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::Halo).start, g.num_cells}, 0, inputs_.nlev};
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::hydrostatic_correction_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::Nudging2).start,
                     g.range(Location::Edge, Zone::Local).end},
          inputs_.nlev - 1, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_exner_from_rhotheta(
    const ExecSpace& space, const ExnerFromRhothetaArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, lateral_boundary_cells_domain(), Location::Cell,
                    inputs_.nlev, dycore_labels::exner_from_rhotheta,
                    dycore_stencils::compute_exner_from_rhotheta(args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::update_theta_and_exner_in_halo(
    const ExecSpace& space, const ThetaAndExnerInHaloArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, halo_cells_domain(), Location::Cell, inputs_.nlev,
                    dycore_labels::theta_and_exner_in_halo,
                    dycore_stencils::update_theta_and_exner_in_halo(inputs_, args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::init_cell_kdim_field_with_zero_wp(
    const ExecSpace& space, const InitCellKdimFieldArguments<memory_space>& args,
    const ProgramDomain* domain) {
  ProgramDomain half_levels = lateral_boundary_cells_domain();
  half_levels.vertical_end = inputs_.nlev + 1;
  run_point_program(space, args, domain, half_levels, Location::Cell, inputs_.nlev + 1,
                    dycore_labels::init_cell_kdim_field_with_zero,
                    dycore_stencils::init_cell_kdim_field_with_zero_wp(args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::update_mass_flux_weighted(
    const ExecSpace& space, const MassFluxWeightedArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, lateral_boundary_cells_domain(), Location::Cell,
                    inputs_.nlev + 1, dycore_labels::mass_flux_weighted,
                    dycore_stencils::update_mass_flux_weighted(inputs_, args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_dwdz_for_divergence_damping(
    const ExecSpace& space, const DwdzForDivergenceDampingArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, lateral_boundary_cells_domain(), Location::Cell,
                    inputs_.nlev, dycore_labels::dwdz_for_divergence_damping,
                    dycore_stencils::compute_dwdz_for_divergence_damping(inputs_, args));
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_hydrostatic_correction_term(
    const ExecSpace& space, const HydrostaticCorrectionArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, hydrostatic_correction_domain(), Location::Edge,
                    inputs_.nlev, dycore_labels::hydrostatic_correction,
                    dycore_stencils::compute_hydrostatic_correction_term(inputs_, tables_, args));
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::horizontal_velocity_quantities_domain() const {
  ProgramDomain d = averaged_vn_and_fluxes_domain();
  d.vertical_end = inputs_.nlev + 1;
  return d;
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::averaged_vn_and_fluxes_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Edge, Zone::LateralBoundary5).start,
                     g.range(Location::Edge, Zone::Halo2).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_horizontal_velocity_quantities_and_fluxes(
    const ExecSpace& space, const HorizontalVelocityQuantitiesArguments<memory_space>& args,
    const ProgramDomain* domain) {
  const ProgramDomain d = domain ? *domain : horizontal_velocity_quantities_domain();
  check_surface_extrapolation(d, "compute_horizontal_velocity_quantities_and_fluxes");
  run_point_program(space, args, &d, d, Location::Edge, inputs_.nlev + 1,
                    dycore_labels::horizontal_velocity_quantities,
                    dycore_stencils::compute_horizontal_velocity_quantities_and_fluxes(
                        inputs_, tables_, args, d.vertical_end));
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_averaged_vn_and_fluxes(
    const ExecSpace& space, const AveragedVnAndFluxesArguments<memory_space>& args,
    const ProgramDomain* domain) {
  run_point_program(space, args, domain, averaged_vn_and_fluxes_domain(), Location::Edge,
                    inputs_.nlev, dycore_labels::averaged_vn_and_fluxes,
                    dycore_stencils::compute_averaged_vn_and_fluxes(inputs_, tables_, args));
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::interpolation_and_nonhydro_buoy_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary3).start,
                     g.range(Location::Cell, Zone::Local).end},
          1, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::stencils_61_62(const ExecSpace& space,
                                       const Stencils6162Arguments<memory_space>& args,
                                       const ProgramDomain* domain) {
  ProgramDomain d = lateral_boundary_cells_domain();
  d.vertical_end = inputs_.nlev + 1;
  if (domain) d = *domain;
  run_point_program(space, args, &d, d, Location::Cell, inputs_.nlev + 1,
                    dycore_labels::stencils_61_62,
                    dycore_stencils::stencils_61_62(args, d.vertical_end));
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_rayleigh_damping_factor(
    const ExecSpace& space, const double dtime,
    const Kokkos::View<wp*, FieldLayout, memory_space>& rayleigh_damping_factor) {
  static const std::string program = "compute_rayleigh_damping_factor";
  static const std::string scope = "dycore: " + program;  // built once: no string per call
  check_profile(rayleigh_damping_factor, "rayleigh_damping_factor", scope);
  if (inputs_.metric.rayleigh_w.extent(0) != static_cast<std::size_t>(inputs_.nlev + 1))
    throw InvalidArgument("dycore: " + program + ": the statics' rayleigh_w has " +
                          std::to_string(inputs_.metric.rayleigh_w.extent(0)) +
                          " values, expected nlev + 1 = " + std::to_string(inputs_.nlev + 1));
  stencils::ComputeRayleighDampingFactor<memory_space> body;
  body.rayleigh_w = inputs_.metric.rayleigh_w;
  body.rayleigh_damping_factor = rayleigh_damping_factor;
  body.dtime = dtime;
  runner_.on(space).levels(dycore_labels::rayleigh_damping_factor, 0, inputs_.nlev, body);
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_interpolation_and_nonhydro_buoy(
    const ExecSpace& space, const InterpolationAndNonhydroBuoyArguments<memory_space>& args,
    const ProgramDomain* domain) {
  const ProgramDomain d = domain ? *domain : interpolation_and_nonhydro_buoy_domain();
  if (d.vertical_start < 1)
    throw InvalidArgument("dycore: compute_interpolation_and_nonhydro_buoy vertical_start = " +
                          std::to_string(d.vertical_start) +
                          ": it reads level k - 1, so it starts at level 1");
  run_point_program(
      space, args, &d, d, Location::Cell, inputs_.nlev,
      dycore_labels::interpolation_and_nonhydro_buoy,
      dycore_stencils::compute_interpolation_and_nonhydro_buoy(config_, inputs_, args));
}

template <class ExecSpace>
ProgramDomain Dycore<ExecSpace>::perturbed_quantities_domain() const {
  const auto& g = inputs_.grid;
  return {IndexRange{g.range(Location::Cell, Zone::LateralBoundary3).start,
                     g.range(Location::Cell, Zone::Halo).end},
          0, inputs_.nlev};
}

template <class ExecSpace>
void Dycore<ExecSpace>::compute_perturbed_quantities_and_interpolation(
    const ExecSpace& space, const PerturbedQuantitiesArguments<memory_space>& args,
    const ProgramDomain* domain) {
  static const std::string program = "compute_perturbed_quantities_and_interpolation";
  static const std::string scope = "dycore: " + program;  // built once: no string per call
  check_state_extents(args, inputs_.sizes(), scope);
  ProgramDomain cells = domain ? *domain : perturbed_quantities_domain();
  check_domain(cells, inputs_.grid.num_cells, inputs_.nlev, program);
  if (cells.vertical_start != 0 || cells.vertical_end != inputs_.nlev)
    throw InvalidArgument("dycore: " + program + " runs over whole columns (levels [0, nlev))");
  using Body = stencils::ComputePerturbedQuantitiesAndInterpolation<memory_space>;
  auto body =
      dycore_stencils::compute_perturbed_quantities_and_interpolation(config_, inputs_, args);
  const auto launch = runner_.on(space);
  const index_t nlev = inputs_.nlev;
  const auto& label = dycore_labels::perturbed_quantities;
  const auto run = [&](const int step, const IndexRange points, const index_t k0,
                       const index_t k1) {
    body.step = step;
    launch.points_levels(label, points, k0, k1, body);
  };
  run(Body::extrapolate_exner, cells.horizontal, 0, nlev);
  run(Body::surface_exner, cells.horizontal, nlev, nlev + 1);
  run(Body::perturbations_and_interpolation, cells.horizontal, 0, nlev);
  run(Body::surface_theta_and_exner, cells.horizontal, nlev, nlev + 1);
  run(Body::vertical_derivatives, cells.horizontal, 0, nlev);
  const auto& g = inputs_.grid;
  run(Body::second_halo_perturbations,
      IndexRange{g.range(Location::Cell, Zone::Halo2).start,
                 g.range(Location::Cell, Zone::Halo2).end},
      0, nlev);
}

#define ICONDIFF_INSTANTIATE_POINT_PROGRAMS(SPACE)                                                 \
  template ProgramDomain Dycore<SPACE>::lateral_boundary_cells_domain() const;                     \
  template ProgramDomain Dycore<SPACE>::halo_cells_domain() const;                                 \
  template ProgramDomain Dycore<SPACE>::hydrostatic_correction_domain() const;                     \
  template ProgramDomain Dycore<SPACE>::perturbed_quantities_domain() const;                       \
  template void Dycore<SPACE>::compute_perturbed_quantities_and_interpolation(                     \
      const SPACE&, const PerturbedQuantitiesArguments<SPACE::memory_space>&,                      \
      const ProgramDomain*);                                                                       \
  template ProgramDomain Dycore<SPACE>::interpolation_and_nonhydro_buoy_domain() const;            \
  template void Dycore<SPACE>::stencils_61_62(                                                     \
      const SPACE&, const Stencils6162Arguments<SPACE::memory_space>&, const ProgramDomain*);      \
  template void Dycore<SPACE>::compute_rayleigh_damping_factor(                                    \
      const SPACE&, double, const Kokkos::View<wp*, FieldLayout, SPACE::memory_space>&);           \
  template void Dycore<SPACE>::compute_interpolation_and_nonhydro_buoy(                            \
      const SPACE&, const InterpolationAndNonhydroBuoyArguments<SPACE::memory_space>&,             \
      const ProgramDomain*);                                                                       \
  template ProgramDomain Dycore<SPACE>::horizontal_velocity_quantities_domain() const;             \
  template ProgramDomain Dycore<SPACE>::averaged_vn_and_fluxes_domain() const;                     \
  template void Dycore<SPACE>::compute_horizontal_velocity_quantities_and_fluxes(                  \
      const SPACE&, const HorizontalVelocityQuantitiesArguments<SPACE::memory_space>&,             \
      const ProgramDomain*);                                                                       \
  template void Dycore<SPACE>::compute_averaged_vn_and_fluxes(                                     \
      const SPACE&, const AveragedVnAndFluxesArguments<SPACE::memory_space>&,                      \
      const ProgramDomain*);                                                                       \
  template void Dycore<SPACE>::compute_exner_from_rhotheta(                                        \
      const SPACE&, const ExnerFromRhothetaArguments<SPACE::memory_space>&, const ProgramDomain*); \
  template void Dycore<SPACE>::update_theta_and_exner_in_halo(                                     \
      const SPACE&, const ThetaAndExnerInHaloArguments<SPACE::memory_space>&,                      \
      const ProgramDomain*);                                                                       \
  template void Dycore<SPACE>::init_cell_kdim_field_with_zero_wp(                                  \
      const SPACE&, const InitCellKdimFieldArguments<SPACE::memory_space>&, const ProgramDomain*); \
  template void Dycore<SPACE>::update_mass_flux_weighted(                                          \
      const SPACE&, const MassFluxWeightedArguments<SPACE::memory_space>&, const ProgramDomain*);  \
  template void Dycore<SPACE>::compute_dwdz_for_divergence_damping(                                \
      const SPACE&, const DwdzForDivergenceDampingArguments<SPACE::memory_space>&,                 \
      const ProgramDomain*);                                                                       \
  template void Dycore<SPACE>::compute_hydrostatic_correction_term(                                \
      const SPACE&, const HydrostaticCorrectionArguments<SPACE::memory_space>&,                    \
      const ProgramDomain*);
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_POINT_PROGRAMS)

}  // namespace icondiff
