#include "capi_errors.hpp"

#include <icondiff/core/error.hpp>

#include <exception>
#include <new>

namespace icondiff::capi {
namespace {
thread_local std::string last_error_message;
}

const std::string& last_error() {
  return last_error_message;
}

void set_last_error(const std::string& message) {
  // Assigning may allocate; a failure here must not escape a noexcept entry point.
  try {
    last_error_message = message;
  } catch (...) {
    last_error_message.clear();
  }
}

BusyGuard::BusyGuard(std::atomic<bool>& flag, const char* function, const char* what)
    : flag_(flag) {
  bool expected = false;
  if (!flag.compare_exchange_strong(expected, true, std::memory_order_acquire))
    throw Busy(std::string(function) + ": " + what +
               " is busy: another thread is inside a call on it; calls on one granule must not "
               "overlap (use one granule per thread, or serialize the calls)");
}

void require_pointer(const void* pointer, const char* what) {
  if (pointer == nullptr) throw InvalidArgument(std::string(what) + " is a null pointer");
}

namespace detail {

icondiff_status status_of_current_exception() noexcept {
  try {
    throw;
  } catch (const Busy& e) {
    set_last_error(e.what());
    return ICONDIFF_BUSY;
  } catch (const InvalidArgument& e) {
    set_last_error(e.what());
    return ICONDIFF_INVALID_ARGUMENT;
  } catch (const GridError& e) {
    set_last_error(e.what());
    return ICONDIFF_GRID_ERROR;
  } catch (const ConfigError& e) {
    set_last_error(e.what());
    return ICONDIFF_CONFIG_ERROR;
  } catch (const std::bad_alloc&) {
    set_last_error("out of memory");
    return ICONDIFF_INTERNAL_ERROR;
  } catch (const std::exception& e) {
    set_last_error(e.what());
    return ICONDIFF_INTERNAL_ERROR;
  } catch (...) {
    set_last_error("unknown error");
    return ICONDIFF_INTERNAL_ERROR;
  }
}

}  // namespace detail
}  // namespace icondiff::capi
