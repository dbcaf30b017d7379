// Clocks for the call-overhead benchmarks: wall time, and the time spent inside kernels measured
// with Kokkos Tools callbacks (begin/end of every parallel_for and parallel_reduce), so that a
// call's host overhead is its wall time minus its kernel time. C functions (Fortran uses them).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on a steady clock. */
double bench_wall_seconds(void);

/* Starts / stops summing the time inside kernels (kernels run one after the other). */
void bench_kernel_clock_attach(void);
void bench_kernel_clock_detach(void);

/* The kernel seconds summed since the last attach. */
double bench_kernel_seconds(void);

#ifdef __cplusplus
}
#endif
