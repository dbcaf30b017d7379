// The diffusion and solve_nh granules on ICON's own arrays, behind handles: ICON4Py 0.2.0's
// grid_init, diffusion_init, diffusion_run, solve_nh_init and solve_nh_run with the same
// arguments and meanings (icon4py.bindings.grid_wrapper / diffusion_wrapper / dycore_wrapper),
// on icondiff's granules.
//
// Set-up copies (grid tables to the host Grid, geometry, coefficients and metrics to Views the
// handle owns): ICON often passes temporaries there (array sections of derived types), and the
// cost is paid once. A run wraps the caller's prognostic and diagnostic arrays as unmanaged
// Views in place: no allocation, no copy, one fence at the end (the results must be in the
// caller's arrays when the call returns).
//
// This private header is what the files of the implementation share, one job per file:
//   icon_grid.cpp           grid_init on one rank: the Grid from ICON's arrays, vertical grid,
//                           geometry
//   icon_ranks.cpp          ICON's communicator: owners of halo points, the collective variants
//                           of grid_init, diffusion_init and the run's argument checks
//   icon_static_fields.cpp  value checks of the static inputs, the diffusion configuration, and
//                           the conversion of ICON's layouts (rbf_vec_coeff_v, zd_* lists)
//   icon_diffusion.cpp      diffusion_init on one rank, diffusion_run, exchange_halos
//   icon_solve_nh.cpp       solve_nh_init on one rank (ICON's shapes of the dycore's static
//                           fields converted), solve_nh_run
//   icon_handles.cpp        the handles' C functions, memory and lifetime checks, savepoint
//                           capture
#pragma once

#include "fortran_arrays.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/external_state.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/statics/static_fields.hpp>
#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_halo_exchange.hpp>

#include <mpi.h>
#endif

#include <icondiff_c.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff::capi {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, M>::accessible;

constexpr const char* grid_init_name = "grid_init";
constexpr const char* diffusion_init_name = "diffusion_init";
constexpr const char* diffusion_run_name = "diffusion_run";
constexpr const char* solve_nh_init_name = "solve_nh_init";
constexpr const char* solve_nh_run_name = "solve_nh_run";

}  // namespace icondiff::capi

// ---- The handles ------------------------------------------------------------------------------

struct icondiff_icon_grid {
  icondiff::Grid grid;  ///< topology, zones (host)
  icondiff::DeviceGrid<icondiff::capi::M> device;
  icondiff::VerticalGrid vertical;
  icondiff::DiffusionEdgeParams<icondiff::capi::M> edges;
  icondiff::DiffusionCellParams<icondiff::capi::M> cells;
  /// The dycore's edge geometry: the four fields `edges` holds too (shared Views), f_e and the
  /// normals at the edge's cells.
  icondiff::DycoreEdgeParams<icondiff::capi::M> dycore_edges;
  double mean_cell_area = 0;  ///< grid_init's mean_cell_area (the whole grid's)
  int nflatlev = 0;           ///< from vct_a and flat_height (0-based, as VerticalGrid)
  double flat_height = 0;     ///< grid_init's flat_height (for solve_nh_init's messages)
  int kstart_moist = 0;       ///< from vct_a and ICON's default htop_moist_proc (0-based)
  /// The static fields the granules of this grid were given, by name: a field that
  /// diffusion_init and solve_nh_init both take (theta_ref_mc, wgtfac_c, geofac_div, ...) is held
  /// once when the caller passes the same values to both (share_static_fields). Mutable: the
  /// granules' creation fills it on a grid handle the C API passes as const.
  mutable icondiff::StaticFields<icondiff::capi::M> shared_statics;
  bool on_gpu = false;
  bool released = false;  ///< icondiff_finalize took its Views
  /// The whole grid's sizes (= the local ones on one rank), for savepoints of a rank's part.
  icondiff::FieldSizes whole_sizes;
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;  ///< ICON's communicator when decomposed (more than one rank)
#endif
};

struct icondiff_diffusion {
  icondiff::DiffusionConfig config;
  icondiff::DiffusionInputs<icondiff::capi::M> inputs;
  std::unique_ptr<icondiff::Diffusion<icondiff::capi::Space>> granule;
  icondiff::SavepointGridReference grid_reference;
  bool on_gpu = false;
  int calls = 0;
  /// Diagnostics icondiff keeps when the caller passes none (ICON4Py's dummy fields), made on
  /// the first call that needs them.
  icondiff::DiffusionDiagnosticState<icondiff::capi::M> own_diagnostics;
  /// The caller's arrays of a run, bound to icondiff's layout (external_state.hpp: the arrays
  /// themselves in ICON's layout, converted copies kept across calls otherwise).
  icondiff::ExternalState<icondiff::DiffusionPrognosticState, icondiff::capi::Space>
      caller_prognostic;
  icondiff::ExternalState<icondiff::DiffusionDiagnosticState, icondiff::capi::Space>
      caller_diagnostic;
  /// Savepoint capture: the call to capture (0: none), where, and the grid's source.
  int capture_call = 0;
  std::string capture_directory;
  std::string grid_source;
  bool released = false;
  /// Set while a thread is inside a call on this granule (capi::BusyGuard): a second thread's
  /// call is refused with ICONDIFF_BUSY instead of racing on the granule and its arrays.
  mutable std::atomic<bool> busy{false};
  icondiff::Grid local_grid;  ///< for savepoints of a rank's part (decomposed grids only)
  icondiff::FieldSizes whole_sizes;
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
  std::shared_ptr<icondiff::MpiHaloExchange<icondiff::capi::Space>> exchange;
#endif
};

struct icondiff_solve_nh {
  icondiff::DycoreConfig config;
  icondiff::DycoreInputs<icondiff::capi::M> inputs;
  std::unique_ptr<icondiff::SolveNonhydro<icondiff::capi::Space>> granule;
  /// The caller's arrays of a run, bound to icondiff's layout (as icondiff_diffusion's).
  icondiff::ExternalState<icondiff::SolveNhPrognosticState, icondiff::capi::Space> caller_now,
      caller_next;
  icondiff::ExternalState<icondiff::SolveNhDiagnosticState, icondiff::capi::Space>
      caller_diagnostic;
  icondiff::ExternalState<icondiff::SolveNhPrepAdvection, icondiff::capi::Space> caller_prep_adv;
  bool on_gpu = false;
  int calls = 0;
  bool released = false;
  /// As icondiff_diffusion::busy: a second thread's call is refused instead of racing.
  mutable std::atomic<bool> busy{false};
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
#endif
};

namespace icondiff::capi {

// ---- icon_handles.cpp: checks every entry point makes, savepoint capture -----------------------

/// Refuses pointers the granule's memory space cannot read: device pointers into a host build,
/// host pointers into a device build (no unified memory is assumed).
void check_memory(const char* function, bool on_gpu);

/// What every granule's set-up (diffusion_init, solve_nh_init) checks first: a live grid, the
/// memory space of the pointers, a double-precision build (ICON4Py's ABI passes doubles) and one
/// of ICON4Py's backend selectors.
void check_granule_set_up(const icondiff_icon_grid& grid, const char* function, bool on_gpu,
                          int backend);

/// On a GPU the caller's arrays may still be written by its own queues (ICON's OpenACC `async`
/// queues are streams icondiff does not know, and Kokkos' instance is not ordered with them): a
/// device-wide fence waits for every stream of the device before a run's kernels read them. The
/// run's closing fence makes the results complete for any queue afterwards. Host builds have no
/// such queues.
inline void wait_for_caller_queues(const std::string& label) {
  if constexpr (!host_memory) compat::fence(label);
}

/// Refuses a handle whose Views icondiff_finalize released.
void check_alive(const icondiff_icon_grid* grid, const char* function);
void check_alive(const icondiff_diffusion* d, const char* function);
void check_alive(const icondiff_solve_nh* s, const char* function);

/// The folder a capture will write to: an existing, writable directory now, not a failure (status
/// 99) at the captured call.
void check_capture_directory(const char* directory, int call);

/// Writes the savepoint of a captured call: kind Init before the run (init is null), Exit after
/// it (init is the Init savepoint of the same call); *out receives what was written.
void capture(const icondiff_diffusion& d, SavepointKind kind, const DiffusionSavepoint* init,
             const DiffusionDiagnosticState<M>& diagnostic,
             const DiffusionPrognosticState<M>& prognostic, double dtime, bool linit,
             DiffusionSavepoint* out);

// ---- icon_grid.cpp: grid_init on this rank ----------------------------------------------------

/// The owner rank of every point per location on a decomposed grid (empty vectors on one rank).
using Owners = std::array<std::vector<int>, 3>;

/// grid_init on this rank: `owners` empty on one rank, else every point's owner (from the
/// directory of owners_from_masks).
icondiff_icon_grid* create_grid(const icondiff_icon_grid_args& a, int rank, int ranks,
                                const Owners& owners);

// ---- icon_ranks.cpp: ICON's communicator --------------------------------------------------------

/// The number of ranks of ICON's communicator (1 without MPI or before MPI_Init).
int communicator_size(int comm_id, int* rank);

/// grid_init on one rank, or collectively on every rank of ICON's communicator.
icondiff_icon_grid* create_grid_on_ranks(const icondiff_icon_grid_args& a);

/// diffusion_init on one rank, or collectively with the MPI halo exchange of the grid's ranks.
icondiff_diffusion* create_diffusion_on_ranks(const icondiff_icon_grid& grid,
                                              const icondiff_diffusion_args& a);

/// The run arguments' checks (check_run_arguments), agreed over the ranks of a decomposed grid.
void check_run_arguments_on_every_rank(const icondiff_diffusion& d, const icondiff_run_args& a);

/// solve_nh_init on one rank, or collectively with the MPI halo exchange of the grid's ranks.
icondiff_solve_nh* create_solve_nh_on_ranks(const icondiff_icon_grid& grid,
                                            const icondiff_solve_nh_args& a);

/// check_solve_nh_run_arguments, agreed over the ranks of a decomposed grid.
void check_solve_nh_run_on_every_rank(const icondiff_solve_nh& s,
                                      const icondiff_solve_nh_run_args& a);

// ---- icon_static_fields.cpp: value checks and conversions of the static inputs -----------------

/// A Fortran array as ExternalArray for wrap_external_state (leading dimension = SIZE(x, 1)).
template <class T>
ExternalArray external(const icondiff_array& a) {
  return {a.data, static_cast<std::size_t>(a.size[0]), sizeof(T)};
}

/// Owned copies in M of the fields of State from the caller's arrays (host or device memory);
/// with MissingArrays::Empty the fields not in `arrays` stay empty for the caller to set.
template <template <class> class State>
State<M> copy_from_caller(const std::map<std::string, ExternalArray>& arrays,
                          const FieldSizes& sizes, const std::string& what, bool on_gpu,
                          bool zdiffusion = false, MissingArrays missing = MissingArrays::Refused) {
  if (on_gpu)
    return copy_external_state<State, M, M>(arrays, sizes, what, "icondiff::capi::", zdiffusion,
                                            missing);
  return copy_external_state<State, M, Kokkos::HostSpace>(arrays, sizes, what,
                                                          "icondiff::capi::", zdiffusion, missing);
}

/// An owned copy in M of the caller's (points[, slots]) array with leading dimension SIZE(x, 1).
template <class T, int Rank>
FieldView<T, Rank, M> copy_field(const icondiff_array& a, const char* name,
                                 const std::vector<std::size_t>& extents, bool on_gpu) {
  const std::string label = std::string("icondiff::capi::") + name;
  const auto ld = static_cast<std::size_t>(a.size[0]);
  auto* data = static_cast<T*>(a.data);
  if (on_gpu)
    return copy_to_field_layout<M>(label, view_of_external<T, Rank, M>(name, data, extents, ld));
  return copy_to_field_layout<M>(
      label, view_of_external<T, Rank, Kokkos::HostSpace>(name, data, extents, ld));
}

/// The static geometry grid_init copies: finite, lengths and areas > 0, orientations +-1.
/// `tables` holds grid_init's connectivity tables as passed (host copies, by name).
void check_grid_values(const icondiff_icon_grid_args& a,
                       const std::map<std::string, std::vector<int>>& tables, long nc, long ne,
                       bool dev);

/// A connectivity problem of grid_from_icon_arrays in ICON's 1-based numbering.
std::string icon_numbering(const GridConsistencyError& e);

/// Global indices: >= 1 and each point's own (a duplicate names both 1-based positions).
void check_global_indices(const icondiff_array& glb, const char* name, long n);

/// Shares the static fields of `state` with the grid's other granules: a field the grid holds
/// already with the same values replaces the granule's copy (which is freed), a field it does
/// not hold yet is registered for the next granule (icondiff_icon_grid::shared_statics).
template <class State>
void share_static_fields(const icondiff_icon_grid& grid, State& state);

/// Whether two fields of one shape hold the same values (both contiguous, as owned copies are).
template <class View>
bool same_values(const View& a, const View& b) {
  if (a.span() != b.span() || !a.span_is_contiguous() || !b.span_is_contiguous()) return false;
  for (int d = 0; d < static_cast<int>(View::rank); ++d)
    if (a.extent(d) != b.extent(d)) return false;
  using T = typename View::non_const_value_type;
  const T* x = a.data();
  const T* y = b.data();
  long differences = 0;
  Kokkos::parallel_reduce(
      "icondiff::capi::same_values", Kokkos::RangePolicy<Space>(0, a.span()),
      KOKKOS_LAMBDA(const std::size_t i, long& n) { n += x[i] != y[i] ? 1 : 0; }, differences);
  return differences == 0;
}

template <class State>
void share_static_fields(const icondiff_icon_grid& grid, State& state) {
  State::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        if (view.data() == nullptr) return;
        StaticFields<M>::for_each_field(
            [&](const FieldSpec& shared_spec, auto& shared) {
              using V = std::decay_t<decltype(view)>;
              if constexpr (std::is_same_v<V, std::decay_t<decltype(shared)>>) {
                if (std::string(shared_spec.name) != spec.name) return;
                if (shared.data() == nullptr)
                  shared = view;
                else if (shared.data() != view.data() && same_values(shared, view))
                  view = shared;
              }
            },
            grid.shared_statics);
      },
      state);
}

/// The static fields diffusion_init copies: finite (nudgecoeff_e also >= 0).
void check_diffusion_values(const icondiff_diffusion_args& a, long nc, long ne, long nv, bool dev);

/// The Smagorinsky profile's heights in the order its formula needs (ConfigError otherwise).
void check_smagorinsky_heights(const icondiff_diffusion_args& a);

/// diffusion_init's options as a validated DiffusionConfig.
DiffusionConfig config_from(const icondiff_diffusion_args& a);

/// rbf_vec_coeff_v (6, 2, nproma) as ICON holds it -> rbf_coeff_1/2 (vertices, 6).
void convert_rbf(const icondiff_diffusion_args& a, index_t nv, bool dev,
                 DiffusionInterpolationState<M>& out);

/// ICON's zd_* point lists -> the dense per-(cell, level) fields.
void convert_zd_lists(const icondiff_diffusion_args& a, index_t nc, int nlev, bool dev,
                      DiffusionMetricState<M>& out);

// ---- icon_diffusion.cpp: the diffusion granule on this rank -------------------------------------

/// diffusion_init on this rank; `exchange` is the halo exchange of a decomposed grid (nullptr on
/// one rank).
icondiff_diffusion* create_diffusion(const icondiff_icon_grid& grid,
                                     const icondiff_diffusion_args& a,
                                     std::shared_ptr<HaloExchange<Space>> exchange);

/// The run arguments' checks; the only part of a run that can fail on one rank alone.
void check_run_arguments(const icondiff_diffusion& d, const icondiff_run_args& a);

/// diffusion_run: the caller's arrays updated in place, complete when it returns.
void run(icondiff_diffusion& d, const icondiff_run_args& a);

/// The halo exchange of the caller's prognostic fields (nothing on one rank).
void exchange_halos(icondiff_diffusion& d, const icondiff_run_args& a);

// ---- icon_solve_nh.cpp: the solve_nh granule on this rank
// ----------------------------------------

/// solve_nh_init on this rank; `exchange` as for create_diffusion.
icondiff_solve_nh* create_solve_nh(const icondiff_icon_grid& grid, const icondiff_solve_nh_args& a,
                                   std::shared_ptr<HaloExchange<Space>> exchange);

/// The run arguments' checks; the only part of a run that can fail on one rank alone.
void check_solve_nh_run_arguments(const icondiff_solve_nh& s, const icondiff_solve_nh_run_args& a);

/// solve_nh_run: one substep in place on the caller's arrays, complete when it returns.
void run_solve_nh(icondiff_solve_nh& s, const icondiff_solve_nh_run_args& a);

}  // namespace icondiff::capi
