// ICON4Py 0.2.0's binding functions behind their C ABI: the C functions <name>_wrapper that ICON
// calls are generated (cmake/generate_icon4py_bindings.cmake, from the argument table
// fortran_bindings/icon4py_bindings.table); each unpacks its arguments into the C API's argument
// struct and returns the function of the same name here (icon4py_bindings.cpp). Return codes as
// ICON4Py's: 1 success, 2 failure.
#pragma once

#include <icondiff_c.h>

namespace icondiff::capi::icon4py {

/// One array argument as the C API takes it: its first element and SIZE(x, 1..3) (unused 0).
inline icondiff_array array(void* data, int size_0, int size_1 = 0, int size_2 = 0) {
  // ICON4Py leaves the sizes of an absent optional array unset: never read them.
  if (data == nullptr) return icondiff_array{nullptr, {0, 0, 0}};
  return icondiff_array{data, {size_0, size_1, size_2}};
}

int grid_init(const icondiff_icon_grid_args& a);
int diffusion_init(const icondiff_diffusion_args& a);
int diffusion_run(const icondiff_run_args& a);
int solve_nh_init(const icondiff_solve_nh_args& a);
int solve_nh_run(const icondiff_solve_nh_run_args& a);

}  // namespace icondiff::capi::icon4py
