// solve_nh savepoints: every input of one call of the solve_nh granule (one dynamics substep,
// "solve_nh-init") or every output ("solve_nh-exit") in one self-describing netCDF file of the
// diffusion savepoints' format, so that a substep captured anywhere (a C++ driver, one MPI rank of
// many) can be replayed standalone (`icondiff verify`) and its outputs compared field by field.
// docs/dev/savepoints.md, "solve_nh savepoints".
//
// This header gathers the three parts (include any one alone if that is all you need):
//   solve_nh_savepoint_types.hpp       SolveNhSavepoint, capture and replay
//   solve_nh_savepoint_file.hpp        write_solve_nh_savepoint, read_solve_nh_savepoint
//   solve_nh_savepoint_comparison.hpp  compare_solve_nh_outputs (exact by default)
#pragma once

#include <icondiff/io/solve_nh_savepoint_comparison.hpp>
#include <icondiff/io/solve_nh_savepoint_file.hpp>
#include <icondiff/io/solve_nh_savepoint_types.hpp>
