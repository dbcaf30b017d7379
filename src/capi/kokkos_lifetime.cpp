#include "kokkos_lifetime.hpp"

#include "caller_device.hpp"
#include "capi_errors.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace icondiff::capi {
namespace {

std::mutex mutex;
bool started_by_us = false;
bool exit_hook_installed = false;

struct Registered {
  ReleaseViews release;
  std::atomic<bool>* busy = nullptr;
};

std::map<const void*, Registered>& handles() {
  static auto* registry = new std::map<const void*, Registered>();  // never destroyed: used
  return *registry;                                                 // by the exit hook
}

void release_all_locked() {
  // Every busy flag first: a handle another thread is inside is not released under it.
  std::vector<std::atomic<bool>*> taken;
  for (auto& [handle, r] : handles()) {
    if (r.busy == nullptr) continue;
    bool expected = false;
    if (!r.busy->compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      for (std::atomic<bool>* flag : taken) flag->store(false, std::memory_order_release);
      throw Busy(
          "icondiff_finalize: a granule is busy: another thread is inside a call on it; "
          "nothing was released (finalize after every call has returned)");
    }
    taken.push_back(r.busy);
  }
  for (auto& [handle, r] : handles()) r.release();
  handles().clear();
  for (std::atomic<bool>* flag : taken) flag->store(false, std::memory_order_release);
}

void finalize_at_exit() {
  try {
    finalize_kokkos();
  } catch (...) {  // a granule busy at exit: leave Kokkos to the process' end
  }
}

}  // namespace

bool kokkos_running() {
  return compat::is_initialized();
}

void ensure_kokkos() {
  std::lock_guard<std::mutex> lock(mutex);
  if (compat::is_initialized()) return;
  // Unset OMP_PROC_BIND means "false" to libgomp anyway; saying so keeps Kokkos 3.4 from
  // printing a warning into the host model's output. A value the caller set is kept.
  setenv("OMP_PROC_BIND", "false", 0);
  // On the GPU the caller's thread is bound to (OpenACC's choice), unless the environment
  // chooses Kokkos' device itself.
  std::vector<std::string> arguments = {"icondiff"};
  if (!environment_chooses_device())
    if (const std::optional<int> device = device_of_calling_thread())
      arguments.push_back("--kokkos-device-id=" + std::to_string(*device));
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(arguments.size());
  compat::initialize(argc, argv.data());
  started_by_us = true;
  if (!exit_hook_installed) {
    std::atexit(finalize_at_exit);
    exit_hook_installed = true;
  }
}

void register_handle(const void* handle, ReleaseViews release, std::atomic<bool>* busy) {
  std::lock_guard<std::mutex> lock(mutex);
  handles()[handle] = Registered{std::move(release), busy};
}

void unregister_handle(const void* handle) {
  std::lock_guard<std::mutex> lock(mutex);
  handles().erase(handle);
}

void finalize_kokkos() {
  std::lock_guard<std::mutex> lock(mutex);
  release_all_locked();
  if (started_by_us && compat::is_initialized()) Kokkos::finalize();
  started_by_us = false;
}

}  // namespace icondiff::capi
