// Kokkos for callers that are not C++ programs: started on the first call that needs it (or by
// icondiff_initialize), finalized by icondiff_finalize or at exit, and only if icondiff started
// it. Handles register themselves so that finalizing first releases every View they hold: no
// View may outlive Kokkos.
#pragma once

#include <atomic>
#include <functional>

namespace icondiff::capi {

/// Starts Kokkos unless it runs already. Throws if it cannot start.
void ensure_kokkos();

/// Whether Kokkos runs.
bool kokkos_running();

/// Releases everything a handle holds in Kokkos memory; registered while the handle lives.
/// `busy` (may be null) is the handle's flag of BusyGuard: finalize refuses (Busy) while another
/// thread is inside a call on the handle, and holds every flag while it releases.
using ReleaseViews = std::function<void()>;
void register_handle(const void* handle, ReleaseViews release, std::atomic<bool>* busy = nullptr);
void unregister_handle(const void* handle);

/// Releases every registered handle's Views (the handles stay valid and report that they were
/// released), then finalizes Kokkos if icondiff started it. Throws Busy, releasing nothing, when
/// a handle is busy in another thread.
void finalize_kokkos();

}  // namespace icondiff::capi
