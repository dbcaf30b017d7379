// Comparing the outputs of a diffusion call with a savepoint, field by field over whole arrays,
// with ICON4Py's datatest tolerances (diffusion_spec.md §5.2) or the caller's.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/io/savepoint_types.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace icondiff {

/// Tolerance of one output field: it passes where |actual - expected| <= atol + rtol |expected|
/// at every point (numpy.allclose with `expected` as the reference; NaN never passes).
struct FieldTolerance {
  std::string field;  ///< vn, w, theta_v, exner, div_ic, hdef_ic, dwdx or dwdy
  double atol = 0.0;
  double rtol = 1e-12;
  /// Compared only when config.shear_type >= 1 (ICON4Py compares the turbulence diagnostics
  /// only then).
  bool only_with_shear = false;
};

/// ICON4Py's datatest tolerances (tests/diffusion/utils.py::verify_diffusion_fields,
/// diffusion_spec.md §5.2), in output order. Edit the returned table to override.
std::vector<FieldTolerance> icon4py_diffusion_tolerances();

/// The result for one field.
struct FieldComparison {
  FieldTolerance tolerance;
  bool compared = false;  ///< false: skipped, `note` says why
  std::string note;
  std::size_t num_values = 0;
  std::size_t num_failing = 0;  ///< values beyond tolerance, NaN included
  std::size_t num_nan = 0;      ///< values where actual or expected is NaN
  /// Largest |actual - expected| over values where neither is NaN, and where (the first point
  /// with that error; -1 when every value agrees exactly).
  double max_abs_error = 0.0;
  index_t max_abs_point = -1;
  int max_abs_level = -1;
  /// Largest |actual - expected| / |expected| (infinite where expected is 0 and actual is not).
  double max_rel_error = 0.0;
  index_t max_rel_point = -1;
  int max_rel_level = -1;
  /// The value furthest beyond its tolerance (NaN first), -1 when every value passes.
  index_t worst_point = -1;
  int worst_level = -1;
  double worst_actual = 0.0;
  double worst_expected = 0.0;

  const std::string& field() const { return tolerance.field; }
  bool passed() const { return !compared || num_failing == 0; }
};

struct SavepointComparison {
  std::vector<FieldComparison> fields;  ///< in the order of the tolerance table

  bool passed() const;
  /// Names of the fields that were compared and failed.
  std::vector<std::string> failing_fields() const;
  /// The entry of `field`; throws InvalidArgument if it is not in the table.
  const FieldComparison& operator[](const std::string& field) const;
};

/// Compares the outputs of a run with the fields of `expected` (normally an exit savepoint),
/// field by field over whole arrays. Throws InvalidArgument for an unknown field name in
/// `tolerances`, or a field whose extents differ between `expected` and the actual state.
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected,
    const DiffusionPrognosticState<Kokkos::HostSpace>& prognostic,
    const DiffusionDiagnosticState<Kokkos::HostSpace>& diagnostic,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances());

/// Outputs in another memory space are copied to the host first.
template <class MemorySpace>
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected, const DiffusionPrognosticState<MemorySpace>& prognostic,
    const DiffusionDiagnosticState<MemorySpace>& diagnostic,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances()) {
  return compare_diffusion_outputs(expected, mirror_copy<Kokkos::HostSpace>(prognostic),
                                   mirror_copy<Kokkos::HostSpace>(diagnostic), tolerances);
}

/// Two savepoints (e.g. an exit savepoint from ICON and one from a replay).
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected, const DiffusionSavepoint& actual,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances());

/// A table, one line per field (what `icondiff verify` prints), ending with PASSED or FAILED.
std::string format_comparison(const SavepointComparison& comparison);

}  // namespace icondiff
