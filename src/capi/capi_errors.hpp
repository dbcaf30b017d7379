// How the C API reports errors: every entry point runs its body through guarded(), which turns
// icondiff's exception types into status codes and keeps the message for icondiff_last_error()
// (one per thread). Nothing thrown inside crosses the C boundary.
#pragma once

#include <icondiff/core/error.hpp>

#include <icondiff_c.h>

#include <atomic>
#include <string>

namespace icondiff::capi {

/// The message of the last failure on this thread.
const std::string& last_error();
void set_last_error(const std::string& message);

/// Runs `body()`; ICONDIFF_OK, or the status of the exception it threw with its message kept.
template <class Body>
icondiff_status guarded(Body&& body) noexcept;

/// A call on a handle that another thread is inside (ICONDIFF_BUSY).
class Busy : public Error {
 public:
  explicit Busy(const std::string& message) : Error(message) {}
};

/// Marks a handle busy for as long as it lives (RAII: cleared on every return and exception).
/// Taking a flag that is set already throws Busy naming `function` and `what` (the handle): two
/// threads inside one granule at once would race on its fields and on the caller's arrays.
class BusyGuard {
 public:
  BusyGuard(std::atomic<bool>& flag, const char* function, const char* what);
  ~BusyGuard() { flag_.store(false, std::memory_order_release); }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  std::atomic<bool>& flag_;
};

/// Throws InvalidArgument "<what> is a null pointer" when `pointer` is null.
void require_pointer(const void* pointer, const char* what);

namespace detail {
icondiff_status status_of_current_exception() noexcept;
}

template <class Body>
icondiff_status guarded(Body&& body) noexcept {
  try {
    body();
    return ICONDIFF_OK;
  } catch (...) {
    return detail::status_of_current_exception();
  }
}

}  // namespace icondiff::capi
