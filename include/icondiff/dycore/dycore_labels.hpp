// The labels of the dycore's kernels: icondiff::dycore::<ICON4Py program>, made from the stencil
// bodies' names, so a label cannot drift from the program it times. Persistent strings, so
// launching a kernel allocates nothing; public, so timer reports, the byte model, benchmarks and
// tests name kernels the same way.
#pragma once

#include <icondiff/stencils/compute_advection_in_horizontal_momentum.hpp>
#include <icondiff/stencils/compute_advection_in_vertical_momentum.hpp>
#include <icondiff/stencils/compute_diagnostics_from_normal_wind.hpp>
#include <icondiff/stencils/compute_edge_diagnostics_for_dycore_and_update_vn.hpp>
#include <icondiff/stencils/compute_horizontal_velocity_quantities.hpp>
#include <icondiff/stencils/compute_perturbed_quantities_and_interpolation.hpp>
#include <icondiff/stencils/horizontal_advection_of_w.hpp>
#include <icondiff/stencils/solve_nonhydro_point_programs.hpp>
#include <icondiff/stencils/vertically_implicit_dycore_solver.hpp>

#include <string>

namespace icondiff::dycore_labels {

/// The prefix every label starts with.
inline const std::string prefix = "icondiff::dycore::";

inline const std::string rho_theta_pgrad =
    prefix + stencils::ComputeRhoThetaPgradAndUpdateVn<Kokkos::HostSpace>::name;
/// Its kernel before the edge body: the gradients at the cells.
inline const std::string rho_theta_pgrad_gradients_at_cells =
    rho_theta_pgrad + "::" + stencils::RhoThetaGradientsAtCells<Kokkos::HostSpace>::name;
inline const std::string divergence_damping =
    prefix + stencils::ApplyDivergenceDampingAndUpdateVn<Kokkos::HostSpace>::name;
/// The predictor's first kernel (ICON4Py's program has it inline).
inline const std::string contravariant_correction =
    prefix + stencils::InterpolateContravariantCorrectionToHalfLevels<Kokkos::HostSpace>::name;
inline const std::string solver_predictor =
    prefix + stencils::VerticallyImplicitSolver<Kokkos::HostSpace>::predictor_name;
inline const std::string solver_corrector =
    prefix + stencils::VerticallyImplicitSolver<Kokkos::HostSpace>::corrector_name;
inline const std::string horizontal_velocity_quantities =
    prefix + stencils::ComputeHorizontalVelocityQuantitiesAndFluxes<Kokkos::HostSpace>::name;
inline const std::string averaged_vn_and_fluxes =
    prefix + stencils::ComputeAveragedVnAndFluxes<Kokkos::HostSpace>::name;
inline const std::string perturbed_quantities =
    prefix + stencils::ComputePerturbedQuantitiesAndInterpolation<Kokkos::HostSpace>::name;
/// The small point programs of solve_nonhydro.
inline const std::string stencils_61_62 = prefix + stencils::Stencils6162<Kokkos::HostSpace>::name;
inline const std::string rayleigh_damping_factor =
    prefix + stencils::ComputeRayleighDampingFactor<Kokkos::HostSpace>::name;
inline const std::string interpolation_and_nonhydro_buoy =
    prefix + stencils::ComputeInterpolationAndNonhydroBuoy<Kokkos::HostSpace>::name;
inline const std::string exner_from_rhotheta =
    prefix + stencils::ComputeExnerFromRhotheta<Kokkos::HostSpace>::name;
inline const std::string theta_and_exner_in_halo =
    prefix + stencils::UpdateThetaAndExnerInHalo<Kokkos::HostSpace>::name;
inline const std::string init_cell_kdim_field_with_zero =
    prefix + stencils::InitCellKdimFieldWithZeroWp<Kokkos::HostSpace>::name;
inline const std::string mass_flux_weighted =
    prefix + stencils::UpdateMassFluxWeighted<Kokkos::HostSpace>::name;
inline const std::string dwdz_for_divergence_damping =
    prefix + stencils::ComputeDwdzForDivergenceDamping<Kokkos::HostSpace>::name;
inline const std::string hydrostatic_correction =
    prefix + stencils::ComputeHydrostaticCorrectionTerm<Kokkos::HostSpace>::name;
/// Velocity advection.
inline const std::string diagnostics_from_normal_wind =
    prefix + stencils::ComputeDiagnosticsFromNormalWind<Kokkos::HostSpace>::name;
inline const std::string advection_in_predictor_vertical_momentum =
    prefix + stencils::ComputeAdvectionInVerticalMomentum<Kokkos::HostSpace>::predictor_name;
inline const std::string advection_in_corrector_vertical_momentum =
    prefix + stencils::ComputeAdvectionInVerticalMomentum<Kokkos::HostSpace>::corrector_name;
/// VelocityAdvection's reduction of the vertical CFL number (not a stencil of its own).
inline const std::string max_vertical_cfl = prefix + "max_vertical_cfl";
inline const std::string advection_in_horizontal_momentum =
    prefix + stencils::ComputeAdvectionInHorizontalMomentum<Kokkos::HostSpace>::name;
/// The kernels of velocity advection's programs before their main body (a program's label, "::",
/// the kernel's body name).
inline const std::string diagnostics_from_normal_wind_w_at_vertices =
    diagnostics_from_normal_wind + "::" + stencils::WAtVertices<Kokkos::HostSpace>::name;
inline const std::string advection_in_corrector_vertical_momentum_w_at_vertices =
    advection_in_corrector_vertical_momentum +
    "::" + stencils::WAtVertices<Kokkos::HostSpace>::name;
inline const std::string advection_in_corrector_vertical_momentum_horizontal_advection_of_w =
    advection_in_corrector_vertical_momentum +
    "::" + stencils::HorizontalAdvectionOfWAtEdges<Kokkos::HostSpace>::name;
inline const std::string advection_in_horizontal_momentum_vorticity_at_vertices =
    advection_in_horizontal_momentum +
    "::" + stencils::VorticityAtVertices<Kokkos::HostSpace>::name;
inline const std::string advection_in_horizontal_momentum_kinetic_energy_at_cells =
    advection_in_horizontal_momentum +
    "::" + stencils::KineticEnergyAtCells<Kokkos::HostSpace>::name;

}  // namespace icondiff::dycore_labels
