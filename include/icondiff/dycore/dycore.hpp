// ICON's non-hydrostatic dynamical core (solve_nonhydro) program by program, as ICON4Py 0.2.0
// defines them (docs/dev/dycore.md): one object holds the static fields (DycoreInputs) and the
// configuration, and runs each program on the caller's per-call fields, so ICON's solve_nh can
// call them one by one. Programs so far:
//   compute_rho_theta_pgrad_and_update_vn    (predictor: rho/theta at edges, pressure gradient,
//                                             vn update)
//   apply_divergence_damping_and_update_vn   (corrector: vn update, divergence damping)
//   vertically_implicit_solver_at_predictor_step, vertically_implicit_solver_at_corrector_step
//                                            (w, rho, exner, theta_v by the implicit solve)
// and of velocity advection (ICON4Py's VelocityAdvection, src/dycore/velocity_advection.cpp):
//   compute_diagnostics_from_normal_wind     (vt, kinetic energy, vn/vt at half levels, the
//                                             contravariant correction, horizontal advection of w)
//   compute_advection_in_predictor_vertical_momentum, compute_advection_in_corrector_vertical_
//   momentum                                 (w_con and its CFL clipping, the advective tendency
//                                             of w)
//   compute_advection_in_horizontal_momentum (the advective tendency of vn, extra diffusion near
//                                             the vertical CFL limit)
// Kernels are labelled icondiff::dycore::<ICON4Py program> (dycore_labels.hpp), their bodies built
// by name (dycore_stencils.hpp) and launched through a KernelRunner;
// a program allocates nothing and does not fence (the caller's next program or exchange on the
// same instance is ordered after it).
#pragma once

#include <icondiff/core/index_range.hpp>
#include <icondiff/core/kernel_runner.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/dycore/dycore_labels.hpp>
#include <icondiff/dycore/dycore_stencils.hpp>

#include <array>
#include <string>
#include <string_view>

namespace icondiff {

/// The (points, levels) domain of one program call: horizontal_start/end and
/// vertical_start/end of ICON4Py's program.
struct ProgramDomain {
  IndexRange horizontal;
  int vertical_start = 0;
  int vertical_end = 0;
};

template <class ExecSpace>
struct DycoreOptions {
  /// How kernels map (point, level) to threads.
  LoopSchedule schedule = default_loop_schedule<ExecSpace>();
  /// The instance the programs enqueue on unless a call is given one.
  ExecSpace space = ExecSpace();
  /// The solver's columns in blocks with the points innermost (the CPU default with ICON's
  /// layout) or one thread per column (GPUs; CPUs with level-fastest fields, where a column is
  /// contiguous; KernelRunner::column_blocks).
  bool column_blocks =
      field_layout_is_icons &&
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
};

template <class ExecSpace>
class Dycore {
 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;

  /// Validates the configuration and every static input (check_dycore_inputs) and prepares the
  /// neighbour tables with skip values replaced (grid/skip_values.hpp). The inputs' Views are
  /// shared, not copied. Throws InvalidArgument naming what is wrong.
  Dycore(const DycoreConfig& config, const DycoreInputs<memory_space>& inputs,
         const DycoreOptions<ExecSpace>& options = {});

  // ---- The domains solve_nonhydro gives each program -------------------------------------------
  /// Edges [0, end of HALO_LEVEL_2) x levels [0, nlev).
  ProgramDomain rho_theta_pgrad_domain() const;
  /// Edges [start of NUDGING_LEVEL_2, end of LOCAL) x levels [0, nlev).
  ProgramDomain divergence_damping_domain() const;
  /// Cells [start of NUDGING, end of LOCAL) x levels [0, nlev) (and the surface value of w on
  /// level nlev), both solver steps.
  ProgramDomain solver_domain() const;
  /// The predictor's interpolation of the contravariant correction to cells: cells [start of
  /// LATERAL_BOUNDARY_LEVEL_3, end of HALO) x half levels [nflatlev + 1, nlev + 1).
  ProgramDomain contravariant_correction_domain() const;
  /// Velocity advection's diagnostics from vn: edges [start of LATERAL_BOUNDARY_LEVEL_5, end of
  /// HALO_LEVEL_2) x half levels [0, nlev + 1) (the last one: the extrapolated vn_ie).
  ProgramDomain diagnostics_from_normal_wind_domain() const;
  /// Velocity advection's tendency of vn: edges [start of NUDGING_LEVEL_2, end of LOCAL) x
  /// [0, nlev).
  ProgramDomain advection_in_horizontal_momentum_domain() const;
  /// Velocity advection's vertical-momentum programs (both steps): cells [start of
  /// LATERAL_BOUNDARY_LEVEL_4, end of HALO) x [0, nlev).
  ProgramDomain advection_in_vertical_momentum_domain() const;
  /// The limited-area boundary's cells: [start of LATERAL_BOUNDARY, end of
  /// LATERAL_BOUNDARY_LEVEL_4) x [0, nlev) (compute_exner_from_rhotheta, update_mass_flux_weighted,
  /// compute_dwdz_for_divergence_damping; init_cell_kdim_field_with_zero_wp: x [0, nlev + 1)).
  ProgramDomain lateral_boundary_cells_domain() const;
  /// The halo's cells: [start of HALO, num_cells) x [0, nlev) (update_theta_and_exner_in_halo).
  ProgramDomain halo_cells_domain() const;
  /// Edges [start of NUDGING_LEVEL_2, end of LOCAL) x [nlev - 1, nlev): the lowest level
  /// (compute_hydrostatic_correction_term).
  ProgramDomain hydrostatic_correction_domain() const;
  /// Edges [start of LATERAL_BOUNDARY_LEVEL_5, end of HALO_LEVEL_2) x [0, nlev + 1)
  /// (compute_horizontal_velocity_quantities_and_fluxes; level nlev: the extrapolated vn_ie) and
  /// x [0, nlev) (compute_averaged_vn_and_fluxes).
  ProgramDomain horizontal_velocity_quantities_domain() const;
  ProgramDomain averaged_vn_and_fluxes_domain() const;
  /// Cells [start of LATERAL_BOUNDARY_LEVEL_3, end of LOCAL) x [1, nlev)
  /// (compute_interpolation_and_nonhydro_buoy).
  ProgramDomain interpolation_and_nonhydro_buoy_domain() const;
  /// Cells [start of LATERAL_BOUNDARY_LEVEL_3, end of HALO) x [0, nlev) and the surface half
  /// level nlev (compute_perturbed_quantities_and_interpolation; the second halo line's cells get
  /// the perturbations too).
  ProgramDomain perturbed_quantities_domain() const;

  // ---- Programs (ICON4Py's names)
  // ----------------------------------------------------------------
  /// Over rho_theta_pgrad_domain() unless `domain` is given. Throws InvalidArgument naming a
  /// field whose extents are wrong, or a domain outside the grid.
  void compute_rho_theta_pgrad_and_update_vn(const ExecSpace& space,
                                             const RhoThetaPgradArguments<memory_space>& args,
                                             const ProgramDomain* domain = nullptr);
  void compute_rho_theta_pgrad_and_update_vn(const RhoThetaPgradArguments<memory_space>& args) {
    compute_rho_theta_pgrad_and_update_vn(options_.space, args);
  }
  /// Over divergence_damping_domain() unless `domain` is given.
  void apply_divergence_damping_and_update_vn(const ExecSpace& space,
                                              const DivergenceDampingArguments<memory_space>& args,
                                              const ProgramDomain* domain = nullptr);
  void apply_divergence_damping_and_update_vn(
      const DivergenceDampingArguments<memory_space>& args) {
    apply_divergence_damping_and_update_vn(options_.space, args);
  }

  /// Over solver_domain() (the interpolation over contravariant_correction_domain()) unless
  /// `domain` is given (then for both).
  void vertically_implicit_solver_at_predictor_step(
      const ExecSpace& space, const SolverPredictorArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void vertically_implicit_solver_at_predictor_step(
      const SolverPredictorArguments<memory_space>& args) {
    vertically_implicit_solver_at_predictor_step(options_.space, args);
  }
  /// Over solver_domain() unless `domain` is given.
  void vertically_implicit_solver_at_corrector_step(
      const ExecSpace& space, const SolverCorrectorArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void vertically_implicit_solver_at_corrector_step(
      const SolverCorrectorArguments<memory_space>& args) {
    vertically_implicit_solver_at_corrector_step(options_.space, args);
  }

  // ---- Velocity advection's programs (src/dycore/velocity_advection.cpp)
  // -------------------------
  /// Over diagnostics_from_normal_wind_domain() unless `domain` is given (vertical_end - 1 gets
  /// only the extrapolated vn_on_half_levels).
  void compute_diagnostics_from_normal_wind(
      const ExecSpace& space, const DiagnosticsFromNormalWindArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void compute_diagnostics_from_normal_wind(
      const DiagnosticsFromNormalWindArguments<memory_space>& args) {
    compute_diagnostics_from_normal_wind(options_.space, args);
  }

  /// Over advection_in_vertical_momentum_domain() unless `domain` is given (its vertical_end is
  /// ICON4Py's nlev: the CFL band ends 3 levels above it).
  void compute_advection_in_predictor_vertical_momentum(
      const ExecSpace& space,
      const AdvectionInPredictorVerticalMomentumArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void compute_advection_in_corrector_vertical_momentum(
      const ExecSpace& space,
      const AdvectionInCorrectorVerticalMomentumArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  /// VelocityAdvection's reduction after either vertical-momentum step: the largest value of
  /// `vertical_cfl` over advection_in_vertical_momentum_domain()'s cells and every level (the
  /// signed maximum, as ICON4Py's; ICON takes |CFL|), then numpy's maximum with `previous` (the
  /// running max_vertical_cfl of the step, 0 at its start): a NaN anywhere gives NaN. Fences
  /// `space` (the value comes back to the host, as in ICON4Py).
  double max_vertical_cfl(const ExecSpace& space,
                          const Kokkos::View<vp**, FieldLayout, memory_space>& vertical_cfl,
                          double previous);
  /// Over advection_in_horizontal_momentum_domain() unless `domain` is given (its vertical_end is
  /// ICON4Py's nlev: the extra diffusion stops 4 levels above it).
  void compute_advection_in_horizontal_momentum(
      const ExecSpace& space, const AdvectionInHorizontalMomentumArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void compute_advection_in_horizontal_momentum(
      const AdvectionInHorizontalMomentumArguments<memory_space>& args) {
    compute_advection_in_horizontal_momentum(options_.space, args);
  }

  // ---- The small point programs of solve_nonhydro (src/dycore/solve_nonhydro_point_programs.cpp),
  // each over its domain above unless `domain` is given.
  void compute_exner_from_rhotheta(const ExecSpace& space,
                                   const ExnerFromRhothetaArguments<memory_space>& args,
                                   const ProgramDomain* domain = nullptr);
  void update_theta_and_exner_in_halo(const ExecSpace& space,
                                      const ThetaAndExnerInHaloArguments<memory_space>& args,
                                      const ProgramDomain* domain = nullptr);
  void init_cell_kdim_field_with_zero_wp(const ExecSpace& space,
                                         const InitCellKdimFieldArguments<memory_space>& args,
                                         const ProgramDomain* domain = nullptr);
  void update_mass_flux_weighted(const ExecSpace& space,
                                 const MassFluxWeightedArguments<memory_space>& args,
                                 const ProgramDomain* domain = nullptr);
  void compute_dwdz_for_divergence_damping(
      const ExecSpace& space, const DwdzForDivergenceDampingArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void compute_hydrostatic_correction_term(const ExecSpace& space,
                                           const HydrostaticCorrectionArguments<memory_space>& args,
                                           const ProgramDomain* domain = nullptr);

  /// Over perturbed_quantities_domain() unless `domain` is given (its cells; the levels are
  /// always the whole column and the surface half level), as six launches in ICON4Py's order.
  void compute_perturbed_quantities_and_interpolation(
      const ExecSpace& space, const PerturbedQuantitiesArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  /// Over lateral_boundary_cells_domain() x [0, nlev + 1) unless `domain` is given.
  void stencils_61_62(const ExecSpace& space, const Stencils6162Arguments<memory_space>& args,
                      const ProgramDomain* domain = nullptr);
  /// rayleigh_damping_factor(k) = 1 / (1 + dtime rayleigh_w(k)), k < nlev.
  void compute_rayleigh_damping_factor(
      const ExecSpace& space, double dtime,
      const Kokkos::View<wp*, FieldLayout, memory_space>& rayleigh_damping_factor);
  /// Over interpolation_and_nonhydro_buoy_domain() unless `domain` is given (from level 1 on).
  void compute_interpolation_and_nonhydro_buoy(
      const ExecSpace& space, const InterpolationAndNonhydroBuoyArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  // ---- solve_nonhydro's horizontal velocity programs
  void compute_horizontal_velocity_quantities_and_fluxes(
      const ExecSpace& space, const HorizontalVelocityQuantitiesArguments<memory_space>& args,
      const ProgramDomain* domain = nullptr);
  void compute_averaged_vn_and_fluxes(const ExecSpace& space,
                                      const AveragedVnAndFluxesArguments<memory_space>& args,
                                      const ProgramDomain* domain = nullptr);

  const DycoreConfig& config() const { return config_; }
  const DycoreInputs<memory_space>& inputs() const { return inputs_; }
  /// The runner (attach timers, change the schedule).
  KernelRunner<ExecSpace>& runner() { return runner_; }

 private:
  /// The checks and the launch of one (point, level) body over `levels` levels of `location`
  /// (src/dycore/dycore_launch.hpp).
  /// `before(domain)` runs after the checks and before the body (the kernels that fill the
  /// temporaries the body reads).
  template <class Arguments, class Body, class Before = void (*)(const ProgramDomain&)>
  void run_point_program(
      const ExecSpace& space, const Arguments& args, const ProgramDomain* domain,
      const ProgramDomain& default_domain, Location location, int levels, const std::string& label,
      const Body& body, const Before& before = [](const ProgramDomain&) {});
  // `program` names the program in messages (a view: no allocation unless a check fails).
  void check_domain(const ProgramDomain& domain, index_t points, int levels,
                    std::string_view program) const;
  void check_profile(const Kokkos::View<wp*, FieldLayout, memory_space>& profile, const char* name,
                     std::string_view program) const;

  DycoreConfig config_;
  DycoreInputs<memory_space> inputs_;
  DycoreOptions<ExecSpace> options_;
  KernelRunner<ExecSpace> runner_;
  /// e2c, c2e2co, e2c2eo, c2e with -1 replaced by the largest valid index of the row.
  DycoreTables<memory_space> tables_;
  /// (C, nlev) scratch of the tridiagonal solve (its upper-diagonal coefficients), allocated once.
  Kokkos::View<vp**, FieldLayout, memory_space> z_q_;
  /// Velocity advection's temporaries, allocated once: what several points of a program read is
  /// computed once per vertex, edge or cell by a kernel of its own, as ICON does (w and the
  /// vorticity at the vertices, the corrector's horizontal advection of w at the edges, the
  /// kinetic energy at the cells), (points, nlev + 1). Programs of one Dycore therefore must not
  /// run concurrently on different execution space instances.
  Kokkos::View<vp**, FieldLayout, memory_space> vertex_scratch_, edge_scratch_, cell_scratch_;
  /// compute_rho_theta_pgrad_and_update_vn's Green-Gauss gradients of rho and theta_v at the
  /// cells (x and y of each; ICON's z_grad_rth), (C, nlev), allocated once.
  std::array<Kokkos::View<vp**, FieldLayout, memory_space>, 4> rho_theta_gradients_;
};

}  // namespace icondiff
