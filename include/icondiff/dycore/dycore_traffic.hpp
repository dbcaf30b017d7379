// The byte model of the dycore programs (docs/performance.md "Dycore programs"): the bytes each
// program must move between memory and the processor at least — every 3-D field it reads or
// writes counted once over the levels where the program touches it, plus its per-point
// coefficients and connectivity read once per call. Effective bandwidth = bytes / measured time.
#pragma once

#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/solve_nonhydro_states.hpp>

#include <map>
#include <string>

namespace icondiff {

/// The flags of one call that change what a program reads or writes.
struct DycoreCallFlags {
  bool is_iau_active = false;
  bool at_first_substep = false;
  bool at_last_substep = false;
  bool lprep_adv = false;
  bool apply_2nd_order_divergence_damping = true;
  bool apply_4th_order_divergence_damping = true;
  bool skip_compute_predictor_vertical_advection = false;
};

/// Minimum bytes of one call of every program of `dycore`, keyed by its kernel label
/// (dycore_labels; the predictor's interpolation of the contravariant correction separately).
template <class ExecSpace>
std::map<std::string, double> dycore_program_bytes(const Dycore<ExecSpace>& dycore,
                                                   const DycoreCallFlags& flags);

/// Minimum bytes of one solve_nh substep (SolveNonhydro::time_step with `step` on `dycore`'s
/// grid): the sum of the byte models of the programs the substep runs with the flags it runs
/// them with (velocity advection's predictor only on a first substep, the limited-area programs
/// only on a limited-area grid, ...). Each program is counted on its own, so a field that two
/// programs read is counted twice: the substep's traffic through memory when no field stays in
/// cache between programs. Halo exchanges are not counted.
template <class ExecSpace>
double solve_nh_substep_bytes(const Dycore<ExecSpace>& dycore, const SolveNhStep& step);

}  // namespace icondiff
