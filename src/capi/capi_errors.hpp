// How the C API reports errors: every entry point runs its body through guarded(), which turns
// icondiff's exception types into status codes and keeps the message for icondiff_last_error()
// (one per thread). Nothing thrown inside crosses the C boundary.
#pragma once

#include <icondiff_c.h>

#include <string>

namespace icondiff::capi {

/// The message of the last failure on this thread.
const std::string& last_error();
void set_last_error(const std::string& message);

/// Runs `body()`; ICONDIFF_OK, or the status of the exception it threw with its message kept.
template <class Body>
icondiff_status guarded(Body&& body) noexcept;

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
