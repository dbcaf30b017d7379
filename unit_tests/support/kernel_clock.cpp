#include "support/kernel_clock.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <chrono>
#include <cstdint>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double kernel_seconds = 0.0;
double kernel_start = 0.0;

void on_begin(const char*, std::uint32_t, std::uint64_t*) {
  kernel_start = now();
}
void on_end(std::uint64_t) {
  kernel_seconds += now() - kernel_start;
}

}  // namespace

extern "C" {

double bench_wall_seconds(void) {
  return now();
}

/// Starts summing kernel time (kernels run one after the other: no overlap to account for).
void bench_kernel_clock_attach(void) {
  kernel_seconds = 0.0;
  icondiff::compat::set_begin_parallel_for_callback(on_begin);
  icondiff::compat::set_end_parallel_for_callback(on_end);
  icondiff::compat::set_begin_parallel_reduce_callback(on_begin);
  icondiff::compat::set_end_parallel_reduce_callback(on_end);
}

void bench_kernel_clock_detach(void) {
  icondiff::compat::set_begin_parallel_for_callback(nullptr);
  icondiff::compat::set_end_parallel_for_callback(nullptr);
  icondiff::compat::set_begin_parallel_reduce_callback(nullptr);
  icondiff::compat::set_end_parallel_reduce_callback(nullptr);
}

double bench_kernel_seconds(void) {
  return kernel_seconds;
}

}  // extern "C"
