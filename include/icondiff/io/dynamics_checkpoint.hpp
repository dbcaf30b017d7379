// Checkpoints of a dynamics run (icondiff run --checkpoint): every field that carries over from
// one advective time step of DynamicsTimeLoop to the next — both prognostic time levels, the
// solve_nh diagnostic state (the advective tendencies of both slots included), the tracer mass
// fluxes and the diffusion's diagnostics — of one rank, with the step count and what a restart
// must match. A run restarted from one continues bit for bit as the uninterrupted run
// (test_cli_dynamics). The granules keep nothing else between steps: their temporaries are
// recomputed at every first substep.
//
// The file is netCDF (64-bit offset; CDF-5 beyond 4 GiB a variable): one 1-D double variable per
// field named "<state>.<field>" ("current.vn", "solve_nh.exner_pr"; vp fields widened exactly),
// in the Views' memory order, and global attributes "icondiff_checkpoint" (format version),
// "steps_done", "time_seconds", "rank", "ranks", "max_vertical_cfl" and "identity:<key>" for
// each identity entry. It is written to a temporary beside the path and renamed over it at the
// end, so a run killed while writing leaves the previous checkpoint whole.
#pragma once

#include <icondiff/timeloop/dynamics_time_loop.hpp>

#include <map>
#include <string>

namespace icondiff {

/// What a checkpoint says besides the fields.
struct DynamicsCheckpointInfo {
  long steps_done = 0;        ///< advective time steps completed
  double time_seconds = 0.0;  ///< simulated time at the checkpoint
  int rank = 0, ranks = 1;    ///< the rank that wrote it, of how many
  /// What a restart must match (grid, levels, time step, configuration, ...), as text.
  std::map<std::string, std::string> identity;
};

/// Writes `states` (host copies) and `info` to `path` atomically. Throws OutputFileError naming
/// the path if it cannot be written.
void write_dynamics_checkpoint(const std::string& path, const DynamicsCheckpointInfo& info,
                               const DynamicsStates<Kokkos::HostSpace>& states);

/// Reads the checkpoint at `path` into `states`, which must be allocated as the run allocates
/// them (every field present in the file exactly when present in `states`, with its size).
/// Returns the file's info. Throws InvalidArgument naming the file and what is wrong: not a
/// checkpoint, another format version, a field missing, extra or of another size, a value that
/// is not finite.
DynamicsCheckpointInfo read_dynamics_checkpoint(const std::string& path,
                                                DynamicsStates<Kokkos::HostSpace>& states);

}  // namespace icondiff
