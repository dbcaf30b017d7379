// Diffusion savepoints: every input of one call of the diffusion granule ("diffusion-init") or
// every output ("diffusion-exit") in one self-describing netCDF file, so that a call captured
// anywhere (a C++ driver, ICON through the C/Fortran API, one MPI rank of many) can be replayed
// standalone and its outputs compared with ICON4Py's datatest tolerances. The savepoint names and
// the init/exit split follow ICON4Py's Serialbox savepoints (diffusion_spec.md §5.2); the file
// format is our own and is specified in docs/dev/savepoints.md.
//
// Everything here works on host copies (Kokkos::HostSpace); mirror_copy moves the state structs
// between memory spaces so capture and replay are one line per struct at the call site.
// Kokkos must be initialised before reading or capturing (the fields are Kokkos Views).
//
// This header gathers the three parts (include any one alone if that is all you need):
//   savepoint_types.hpp       DiffusionSavepoint, its grid reference, capture and replay
//   savepoint_file.hpp        write_diffusion_savepoint, read_diffusion_savepoint
//   savepoint_comparison.hpp  tolerances, compare_diffusion_outputs, format_comparison
#pragma once

#include <icondiff/io/savepoint_comparison.hpp>
#include <icondiff/io/savepoint_file.hpp>
#include <icondiff/io/savepoint_types.hpp>
