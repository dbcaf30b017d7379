// The handles of the diffusion granule on ICON's arrays (icon_granule.hpp): the C functions that
// create, run and free them, the checks every entry point makes (memory space, a handle released
// by icondiff_finalize), and the capture of a run's savepoints.

#include "capi_errors.hpp"
#include "icon_granule.hpp"
#include "kokkos_lifetime.hpp"

#include <fmt/format.h>

#include <icondiff_c.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <type_traits>

namespace icondiff::capi {

/// Refuses pointers the granule's memory space cannot read: device pointers into a host build,
/// host pointers into a device build (no unified memory is assumed).
void check_memory(const char* function, bool on_gpu) {
  if (on_gpu && host_memory)
    throw InvalidArgument(fmt::format(
        "{}: on_gpu is set (device pointers from OpenACC host_data) but this icondiff runs on "
        "the host ({}); build icondiff with a GPU backend",
        function, Space::name()));
  if (!on_gpu && !host_memory)
    throw InvalidArgument(fmt::format(
        "{}: on_gpu is not set (host arrays) but this icondiff runs on {}: pass device pointers "
        "(OpenACC host_data use_device) with on_gpu",
        function, Space::name()));
}

void check_granule_set_up(const icondiff_icon_grid& grid, const char* function, bool on_gpu,
                          int backend) {
  check_alive(&grid, function);
  check_memory(function, on_gpu);
  if (!std::is_same_v<vp, double>)
    throw ConfigError(fmt::format(
        "{}: this icondiff is built with ICONDIFF_MIXED_PRECISION (vp = float), but ICON4Py's "
        "bindings pass every field as double; use a double-precision build",
        function));
  if (backend < 0 || backend > 2)
    throw InvalidArgument(fmt::format(
        "{}: backend = {} is not one of ICON4Py's selectors 0 (default), 1 (dace), 2 (gtfn)",
        function, backend));
}

void check_alive(const icondiff_icon_grid* grid, const char* function) {
  if (grid->released)
    throw InvalidArgument(fmt::format("{}: the grid was released by icondiff_finalize", function));
}
void check_alive(const icondiff_solve_nh* s, const char* function) {
  if (s->released)
    throw InvalidArgument(
        fmt::format("{}: the granule was released by icondiff_finalize", function));
}

void check_alive(const icondiff_diffusion* d, const char* function) {
  if (d->released)
    throw InvalidArgument(
        fmt::format("{}: the granule was released by icondiff_finalize", function));
}

/// The folder a capture will write to: an existing, writable directory now, not a failure (status
/// 99) at the captured call.
void check_capture_directory(const char* directory, int call) {
  const char* f = "capture_savepoints";
  std::error_code ec;
  const std::filesystem::path path(directory);
  if (*directory == '\0') throw InvalidArgument(fmt::format("{}: directory is empty", f));
  if (!std::filesystem::exists(path, ec))
    throw InvalidArgument(fmt::format(
        "{}: directory '{}' does not exist (create it first: call {} writes its savepoints there)",
        f, directory, call));
  if (!std::filesystem::is_directory(path, ec))
    throw InvalidArgument(fmt::format("{}: directory '{}' is not a directory", f, directory));
  if (access(directory, W_OK | X_OK) != 0)
    throw InvalidArgument(fmt::format(
        "{}: directory '{}' is not writable by this process (call {} writes its savepoints there)",
        f, directory, call));
}

void capture(const icondiff_diffusion& d, SavepointKind kind, const DiffusionSavepoint* init,
             const DiffusionDiagnosticState<M>& diagnostic,
             const DiffusionPrognosticState<M>& prognostic, double dtime, bool linit,
             DiffusionSavepoint* out) {
  if (kind == SavepointKind::Init) {
    SavepointGridReference reference = d.grid_reference;
    reference.source = d.grid_source;
    *out = capture_diffusion_init(
        d.config, reference, d.inputs, diagnostic, prognostic, dtime, linit,
        {{"captured_by", "icondiff C API (diffusion_run)"}, {"call", std::to_string(d.calls + 1)}});
  } else {
    *out = capture_diffusion_exit(*init, diagnostic, prognostic);
  }
  // A rank's part of a decomposed grid: DIR/diffusion-{init,exit}.rank<r>.nc, with where each
  // local point sits in the whole grid (icondiff verify merges the set).
  std::string suffix = ".nc";
  if (d.local_grid.num_ranks > 1) {
    if (kind == SavepointKind::Init) out->decomposition = rank_points(d.local_grid, d.whole_sizes);
    suffix = ".rank" + std::to_string(d.local_grid.rank) + ".nc";
  }
  write_diffusion_savepoint(
      d.capture_directory + (kind == SavepointKind::Init ? "/diffusion-init" : "/diffusion-exit") +
          suffix,
      *out);
}

}  // namespace icondiff::capi

// ---- The C functions --------------------------------------------------------------------------

using icondiff::capi::BusyGuard;
using icondiff::capi::guarded;
using icondiff::capi::require_pointer;

extern "C" {

icondiff_status icondiff_icon_grid_create(const icondiff_icon_grid_args* args,
                                          icondiff_icon_grid** grid) {
  return guarded([&] {
    require_pointer(args, "grid_init: args");
    require_pointer(grid, "grid_init: grid");
    *grid = nullptr;
    icondiff::capi::ensure_kokkos();
    icondiff_icon_grid* handle = icondiff::capi::create_grid_on_ranks(*args);
    icondiff::capi::register_handle(handle, [handle] {
      handle->device = {};
      handle->edges = {};
      handle->cells = {};
      handle->dycore_edges = {};
      handle->shared_statics = {};
      handle->released = true;
    });
    *grid = handle;
  });
}

void icondiff_icon_grid_free(icondiff_icon_grid* grid) {
  if (grid == nullptr) return;
  icondiff::capi::unregister_handle(grid);
  delete grid;
}

icondiff_status icondiff_diffusion_create(const icondiff_icon_grid* grid,
                                          const icondiff_diffusion_args* args,
                                          icondiff_diffusion** granule) {
  return guarded([&] {
    require_pointer(grid, "diffusion_init: grid (call grid_init first)");
    require_pointer(args, "diffusion_init: args");
    require_pointer(granule, "diffusion_init: granule");
    *granule = nullptr;
    icondiff::capi::ensure_kokkos();
    icondiff_diffusion* handle = icondiff::capi::create_diffusion_on_ranks(*grid, *args);
    icondiff::capi::register_handle(
        handle,
        [handle] {
          handle->granule.reset();
          handle->inputs = {};
          handle->own_diagnostics = {};
          handle->caller_prognostic = {};
          handle->caller_diagnostic = {};
          handle->released = true;
        },
        &handle->busy);
    *granule = handle;
  });
}

void icondiff_diffusion_free(icondiff_diffusion* granule) {
  if (granule == nullptr) return;
  icondiff::capi::unregister_handle(granule);
  delete granule;
}

icondiff_status icondiff_diffusion_run(icondiff_diffusion* granule, const icondiff_run_args* args) {
  return guarded([&] {
    require_pointer(granule, "diffusion_run: granule (call diffusion_init first)");
    const BusyGuard guard(granule->busy, "diffusion_run", "the granule");
    require_pointer(args, "diffusion_run: args");
    icondiff::capi::run(*granule, *args);
  });
}

icondiff_status icondiff_diffusion_exchange_halos(icondiff_diffusion* granule,
                                                  const icondiff_run_args* args) {
  return guarded([&] {
    require_pointer(granule, "exchange_halos: granule");
    const BusyGuard guard(granule->busy, "exchange_halos", "the granule");
    require_pointer(args, "exchange_halos: args");
    icondiff::capi::exchange_halos(*granule, *args);
  });
}

icondiff_status icondiff_diffusion_capture_savepoints(icondiff_diffusion* granule,
                                                      const char* directory, int call,
                                                      const char* grid_source) {
  return guarded([&] {
    require_pointer(granule, "capture_savepoints: granule");
    const BusyGuard guard(granule->busy, "capture_savepoints", "the granule");
    if (call < 0)
      throw icondiff::InvalidArgument(fmt::format(
          "capture_savepoints: call = {} must be 0 (off) or a run's 1-based index", call));
    if (call > 0) {
      require_pointer(directory, "capture_savepoints: directory");
      if (call <= granule->calls)
        throw icondiff::InvalidArgument(fmt::format(
            "capture_savepoints: call {} has run already ({} calls so far)", call, granule->calls));
      icondiff::capi::check_capture_directory(directory, call);
    }
    granule->capture_call = call;
    granule->capture_directory = directory ? directory : "";
    granule->grid_source = grid_source ? grid_source : "";
  });
}

icondiff_status icondiff_diffusion_calls(const icondiff_diffusion* granule, int* calls) {
  return guarded([&] {
    require_pointer(granule, "diffusion_calls: granule");
    require_pointer(calls, "diffusion_calls: calls");
    const BusyGuard guard(granule->busy, "diffusion_calls", "the granule");
    *calls = granule->calls;
  });
}

void icondiff_args_sizes(int* array, int* grid_args, int* diffusion_args, int* run_args) {
  if (array) *array = static_cast<int>(sizeof(icondiff_array));
  if (grid_args) *grid_args = static_cast<int>(sizeof(icondiff_icon_grid_args));
  if (diffusion_args) *diffusion_args = static_cast<int>(sizeof(icondiff_diffusion_args));
  if (run_args) *run_args = static_cast<int>(sizeof(icondiff_run_args));
}

void icondiff_solve_nh_args_sizes(int* init_args, int* run_args) {
  if (init_args) *init_args = static_cast<int>(sizeof(icondiff_solve_nh_args));
  if (run_args) *run_args = static_cast<int>(sizeof(icondiff_solve_nh_run_args));
}

icondiff_status icondiff_solve_nh_create(const icondiff_icon_grid* grid,
                                         const icondiff_solve_nh_args* args,
                                         icondiff_solve_nh** granule) {
  return guarded([&] {
    require_pointer(grid, "solve_nh_init: grid (call grid_init first)");
    require_pointer(args, "solve_nh_init: args");
    require_pointer(granule, "solve_nh_init: granule");
    *granule = nullptr;
    icondiff::capi::ensure_kokkos();
    icondiff_solve_nh* handle = icondiff::capi::create_solve_nh_on_ranks(*grid, *args);
    icondiff::capi::register_handle(
        handle,
        [handle] {
          handle->granule.reset();
          handle->inputs = {};
          handle->caller_now = {};
          handle->caller_next = {};
          handle->caller_diagnostic = {};
          handle->caller_prep_adv = {};
          handle->released = true;
        },
        &handle->busy);
    *granule = handle;
  });
}

void icondiff_solve_nh_free(icondiff_solve_nh* granule) {
  if (granule == nullptr) return;
  icondiff::capi::unregister_handle(granule);
  delete granule;
}

icondiff_status icondiff_solve_nh_run(icondiff_solve_nh* granule,
                                      const icondiff_solve_nh_run_args* args) {
  return guarded([&] {
    require_pointer(granule, "solve_nh_run: granule (call solve_nh_init first)");
    const BusyGuard guard(granule->busy, "solve_nh_run", "the granule");
    require_pointer(args, "solve_nh_run: args");
    icondiff::capi::run_solve_nh(*granule, *args);
  });
}

icondiff_status icondiff_solve_nh_calls(const icondiff_solve_nh* granule, int* calls) {
  return guarded([&] {
    require_pointer(granule, "solve_nh_calls: granule");
    require_pointer(calls, "solve_nh_calls: calls");
    const BusyGuard guard(granule->busy, "solve_nh_calls", "the granule");
    *calls = granule->calls;
  });
}

}  // extern "C"
