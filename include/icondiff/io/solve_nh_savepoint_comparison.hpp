// Comparing the outputs of a solve_nh granule call with a savepoint, field by field over whole
// arrays (FieldTolerance, SavepointComparison and format_comparison are the diffusion's:
// savepoint_comparison.hpp). By default every value must be bit-identical: the granule is
// deterministic, so a replay in the same build reproduces its call exactly.
#pragma once

#include <icondiff/io/savepoint_comparison.hpp>
#include <icondiff/io/solve_nh_savepoint_types.hpp>

#include <vector>

namespace icondiff {

/// Every output of the granule with atol = rtol = 0, in output order: the new time level
/// (w_new, vn_new, theta_v_new, rho_new, exner_new: the file's variable names), every
/// diagnostic field, the prep_adv fields, max_vertical_cfl (one value). Edit the table to
/// loosen or drop fields.
std::vector<FieldTolerance> solve_nh_exact_tolerances();

/// Compares the outputs of a call with those of `expected` (normally an exit savepoint), every
/// field over its whole array (all points, halo included, all levels). A field the expected
/// savepoint does not hold (a limited-area tendency or IAU increment of a call without them) is
/// skipped. Throws InvalidArgument for a name in `tolerances` that is not an output, or a field
/// whose extents differ between `expected` and the actual state.
SavepointComparison compare_solve_nh_outputs(
    const SolveNhSavepoint& expected, const SolveNhDiagnosticState<Kokkos::HostSpace>& diagnostic,
    const SolveNhPrognosticState<Kokkos::HostSpace>& next,
    const SolveNhPrepAdvection<Kokkos::HostSpace>& prep_adv,
    const std::vector<FieldTolerance>& tolerances = solve_nh_exact_tolerances());

/// Outputs in another memory space are copied to the host first.
template <class MemorySpace>
SavepointComparison compare_solve_nh_outputs(
    const SolveNhSavepoint& expected, const SolveNhDiagnosticState<MemorySpace>& diagnostic,
    const SolveNhPrognosticState<MemorySpace>& next,
    const SolveNhPrepAdvection<MemorySpace>& prep_adv,
    const std::vector<FieldTolerance>& tolerances = solve_nh_exact_tolerances()) {
  using H = Kokkos::HostSpace;
  return compare_solve_nh_outputs(expected, mirror_copy<H>(diagnostic), mirror_copy<H>(next),
                                  mirror_copy<H>(prep_adv), tolerances);
}

/// Two savepoints (e.g. an exit savepoint and the exit savepoint of a replay).
SavepointComparison compare_solve_nh_outputs(
    const SolveNhSavepoint& expected, const SolveNhSavepoint& actual,
    const std::vector<FieldTolerance>& tolerances = solve_nh_exact_tolerances());

}  // namespace icondiff
