// ICON4Py 0.2.0's binding functions on icondiff (icon4py_bindings_impl.hpp): each takes its
// arguments as the C API's argument struct (unpacked by the generated C functions
// <name>_wrapper) and calls the handle-based function on the one global grid, diffusion granule
// and solve_nh granule ICON4Py's bindings also keep. Return codes as ICON4Py's: 1 success, 2
// failure (message on stderr, as ICON4Py logs its exceptions, and in icondiff_last_error()).
#include "capi_errors.hpp"
#include "icon4py_bindings_impl.hpp"

#include <icondiff/core/error.hpp>

#include <icon4py_bindings.h>
#include <icondiff_c.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

constexpr int success = 1;
constexpr int failure = 2;

icondiff_icon_grid* global_grid = nullptr;
icondiff_diffusion* global_granule = nullptr;
icondiff_solve_nh* global_solve_nh = nullptr;

int report(const char* function, icondiff_status status) {
  if (status == ICONDIFF_OK) return success;
  std::fprintf(stderr, "icondiff: %s failed: %s\n", function, icondiff_last_error());
  std::fflush(stderr);
  return failure;
}

/// Set while a thread is inside any of the functions: the drop-in's one grid and two granules
/// are global, and a second thread's call is refused (return code 2, "busy")
/// instead of racing with the first (two overlapping runs each returned success with a mixed
/// result before).
std::atomic<bool> busy{false};

/// Holds the drop-in's busy flag for the rest of a wrapper, or says why not (`refused` != 0).
struct Exclusive {
  std::optional<icondiff::capi::BusyGuard> guard;
  int refused = 0;
  explicit Exclusive(const char* function) {
    try {
      guard.emplace(busy, function, "the drop-in's granule");
    } catch (const icondiff::capi::Busy& e) {
      icondiff::capi::set_last_error(e.what());
      refused = report(function, ICONDIFF_BUSY);
    }
  }
};

int refuse(const char* function, const std::string& message) {
  icondiff::capi::set_last_error(std::string(function) + ": " + message);
  return report(function, ICONDIFF_INVALID_ARGUMENT);
}

/// ICONDIFF_SAVEPOINT_DIR / _CALL / ICONDIFF_GRID_SOURCE: savepoints of one run of the global
/// granule without changing the host model's code.
int capture_from_environment() {
  const char* directory = std::getenv("ICONDIFF_SAVEPOINT_DIR");
  if (directory == nullptr || *directory == '\0') return success;
  const char* call_text = std::getenv("ICONDIFF_SAVEPOINT_CALL");
  const std::string call_string = call_text ? call_text : "1";
  char* end = nullptr;
  const long call = std::strtol(call_string.c_str(), &end, 10);
  if (end == call_string.c_str() || *end != '\0' || call < 1 || call > 1000000000)
    return refuse("diffusion_init",
                  "ICONDIFF_SAVEPOINT_CALL = '" + call_string + "' is not a call number >= 1");
  return report("diffusion_init", icondiff_diffusion_capture_savepoints(
                                      global_granule, directory, static_cast<int>(call),
                                      std::getenv("ICONDIFF_GRID_SOURCE")));
}

}  // namespace

namespace icondiff::capi::icon4py {

int grid_init(const icondiff_icon_grid_args& a) {
  const Exclusive exclusive("grid_init");
  if (exclusive.refused) return exclusive.refused;
  if (global_grid != nullptr)
    return refuse("grid_init",
                  "called a second time; icondiff's drop-in bindings hold one grid and one "
                  "granule (the icondiff module's handles allow several)");
  return report("grid_init", icondiff_icon_grid_create(&a, &global_grid));
}

int diffusion_init(const icondiff_diffusion_args& a) {
  const Exclusive exclusive("diffusion_init");
  if (exclusive.refused) return exclusive.refused;
  if (global_grid == nullptr)
    return refuse("diffusion_init",
                  "the grid is not initialised: call grid_init successfully first");
  if (global_granule != nullptr)
    return refuse("diffusion_init",
                  "called a second time; icondiff's drop-in bindings hold one granule (the "
                  "icondiff module's handles allow several)");
  const int rc =
      report("diffusion_init", icondiff_diffusion_create(global_grid, &a, &global_granule));
  if (rc != success) return rc;
  return capture_from_environment();
}

int diffusion_run(const icondiff_run_args& a) {
  const Exclusive exclusive("diffusion_run");
  if (exclusive.refused) return exclusive.refused;
  if (global_granule == nullptr)
    return refuse("diffusion_run",
                  "the granule is not initialised: call grid_init and diffusion_init "
                  "successfully first");
  return report("diffusion_run", icondiff_diffusion_run(global_granule, &a));
}

int solve_nh_init(const icondiff_solve_nh_args& a) {
  const Exclusive exclusive("solve_nh_init");
  if (exclusive.refused) return exclusive.refused;
  if (global_grid == nullptr)
    return refuse("solve_nh_init",
                  "the grid is not initialised: call grid_init successfully first");
  if (global_solve_nh != nullptr)
    return refuse("solve_nh_init",
                  "called a second time; icondiff's drop-in bindings hold one solve_nh granule "
                  "(the icondiff module's handles allow several)");
  return report("solve_nh_init", icondiff_solve_nh_create(global_grid, &a, &global_solve_nh));
}

int solve_nh_run(const icondiff_solve_nh_run_args& a) {
  const Exclusive exclusive("solve_nh_run");
  if (exclusive.refused) return exclusive.refused;
  if (global_solve_nh == nullptr)
    return refuse("solve_nh_run",
                  "the granule is not initialised: call grid_init and solve_nh_init "
                  "successfully first");
  return report("solve_nh_run", icondiff_solve_nh_run(global_solve_nh, &a));
}

}  // namespace icondiff::capi::icon4py

extern "C" {

/// The drop-in's global granule (for savepoints and tests; not part of ICON4Py's bindings).
icondiff_diffusion* icondiff_icon4py_bindings_granule(void) {
  return global_granule;
}

/// The drop-in's global solve_nh granule.
icondiff_solve_nh* icondiff_icon4py_bindings_solve_nh(void) {
  return global_solve_nh;
}

}  // extern "C"
