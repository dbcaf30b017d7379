// Comparing the outputs of a diffusion call with a savepoint (numpy.allclose per field, with the
// largest errors and the worst point: compare_field, savepoint_internal.hpp) and the table
// `icondiff verify` prints (for every granule's comparison).
#include "savepoint_internal.hpp"

#include <icondiff/io/savepoint_comparison.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace icondiff {

using io::savepoint::compare_or_skip;

bool SavepointComparison::passed() const {
  return std::all_of(fields.begin(), fields.end(),
                     [](const FieldComparison& f) { return f.passed(); });
}

std::vector<std::string> SavepointComparison::failing_fields() const {
  std::vector<std::string> names;
  for (const auto& f : fields)
    if (!f.passed()) names.push_back(f.field());
  return names;
}

const FieldComparison& SavepointComparison::operator[](const std::string& field) const {
  for (const auto& f : fields)
    if (f.field() == field) return f;
  throw InvalidArgument(fmt::format("the comparison has no field '{}'", field));
}

SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected,
    const DiffusionPrognosticState<Kokkos::HostSpace>& prognostic,
    const DiffusionDiagnosticState<Kokkos::HostSpace>& diagnostic,
    const std::vector<FieldTolerance>& tolerances) {
  SavepointComparison result;
  for (const FieldTolerance& tol : tolerances) {
    const auto compare = [&](const auto& e, const auto& a) {
      if (tol.only_with_shear && static_cast<int>(expected.config.shear_type) < 1) {
        FieldComparison r;
        r.tolerance = tol;
        r.note = fmt::format(
            "skipped: shear_type = {} (ICON4Py compares the turbulence diagnostics only when "
            "shear_type >= 1)",
            static_cast<int>(expected.config.shear_type));
        return r;
      }
      return compare_or_skip(tol, e, a);
    };
    const auto& ep = expected.prognostic;
    const auto& ed = expected.diagnostic;
    if (tol.field == "vn")
      result.fields.push_back(compare(ep.vn, prognostic.vn));
    else if (tol.field == "w")
      result.fields.push_back(compare(ep.w, prognostic.w));
    else if (tol.field == "theta_v")
      result.fields.push_back(compare(ep.theta_v, prognostic.theta_v));
    else if (tol.field == "exner")
      result.fields.push_back(compare(ep.exner, prognostic.exner));
    else if (tol.field == "div_ic")
      result.fields.push_back(compare(ed.div_ic, diagnostic.div_ic));
    else if (tol.field == "hdef_ic")
      result.fields.push_back(compare(ed.hdef_ic, diagnostic.hdef_ic));
    else if (tol.field == "dwdx")
      result.fields.push_back(compare(ed.dwdx, diagnostic.dwdx));
    else if (tol.field == "dwdy")
      result.fields.push_back(compare(ed.dwdy, diagnostic.dwdy));
    else
      throw InvalidArgument(fmt::format(
          "tolerance table: '{}' is not an output of the diffusion granule (expected vn, w, "
          "theta_v, exner, div_ic, hdef_ic, dwdx or dwdy)",
          tol.field));
  }
  return result;
}

SavepointComparison compare_diffusion_outputs(const DiffusionSavepoint& expected,
                                              const DiffusionSavepoint& actual,
                                              const std::vector<FieldTolerance>& tolerances) {
  return compare_diffusion_outputs(expected, actual.prognostic, actual.diagnostic, tolerances);
}

std::string format_comparison(const SavepointComparison& comparison) {
  const auto where = [](index_t point, int level) {
    return point < 0 ? std::string("-") : fmt::format("({}, {})", point, level);
  };
  // The field column fits the longest name (8 for the diffusion's short ones).
  std::size_t width = 8;
  for (const FieldComparison& f : comparison.fields) width = std::max(width, f.field().size());
  std::string out = fmt::format("{:<{}} {:>8} {:>8} {:>12} {:>14} {:>12} {:>14} {:>16}  {}\n",
                                "field", width, "atol", "rtol", "max abs err", "at (pt, lev)",
                                "max rel err", "at (pt, lev)", "failing/values", "result");
  for (const FieldComparison& f : comparison.fields) {
    if (!f.compared) {
      out += fmt::format("{:<{}} {:>8.0e} {:>8.0e}  {}\n", f.field(), width, f.tolerance.atol,
                         f.tolerance.rtol, f.note);
      continue;
    }
    out += fmt::format("{:<{}} {:>8.0e} {:>8.0e} {:>12.3e} {:>14} {:>12.3e} {:>14} {:>16}  {}\n",
                       f.field(), width, f.tolerance.atol, f.tolerance.rtol, f.max_abs_error,
                       where(f.max_abs_point, f.max_abs_level), f.max_rel_error,
                       where(f.max_rel_point, f.max_rel_level),
                       fmt::format("{}/{}", f.num_failing, f.num_values),
                       f.passed() ? "pass" : "FAIL");
    if (!f.passed())
      out +=
          fmt::format("{:<{}} worst at (point {}, level {}): actual {:.17g}, expected {:.17g}{}\n",
                      "", width, f.worst_point, f.worst_level, f.worst_actual, f.worst_expected,
                      f.num_nan ? fmt::format(" ({} NaN)", f.num_nan) : "");
  }
  const auto failing = comparison.failing_fields();
  out += failing.empty() ? std::string("PASSED\n")
                         : fmt::format("FAILED: {}\n", fmt::join(failing, ", "));
  return out;
}

}  // namespace icondiff
