// Comparing the outputs of a solve_nh granule call with a savepoint: every field of the output
// structs' field lists (names as in the file) and max_vertical_cfl, each with compare_field
// (savepoint_internal.hpp); exact by default.
#include "savepoint_internal.hpp"

#include <icondiff/io/solve_nh_savepoint_comparison.hpp>

#include <fmt/format.h>

#include <functional>
#include <map>

namespace icondiff {

namespace {

using H = Kokkos::HostSpace;
using Compare = std::function<FieldComparison(const FieldTolerance&)>;

/// The comparison of every output by name, in output order (`names`).
struct Outputs {
  std::vector<std::string> names;
  std::map<std::string, Compare> compare;

  template <class E, class A>
  void add(const std::string& name, const E& expected, const A& actual) {
    names.push_back(name);
    compare[name] = [name, expected, actual](const FieldTolerance& tol) {
      if (expected.size() == 0) {
        // A limited-area tendency or IAU increment the call did not have.
        FieldComparison r;
        r.tolerance = tol;
        r.note = "skipped: the expected savepoint does not hold it";
        return r;
      }
      return io::savepoint::compare_or_skip(tol, expected, actual);
    };
  }
};

/// One value as a (1, 1) View, so that compare_field treats it as a field.
Kokkos::View<double**, FieldLayout, H> as_field(const char* name, double value) {
  Kokkos::View<double**, FieldLayout, H> v(std::string(name), 1, 1);
  v(0, 0) = value;
  return v;
}

/// Every output of the granule: the structs' fields (the new time level as <field>_new), then
/// max_vertical_cfl.
Outputs outputs(const SolveNhSavepoint& expected, const SolveNhDiagnosticState<H>& diagnostic,
                const SolveNhPrognosticState<H>& next, const SolveNhPrepAdvection<H>& prep_adv) {
  Outputs o;
  const auto add = [&o](const char* suffix) {
    return [&o, suffix](const FieldSpec& spec, const auto& e, const auto& a) {
      o.add(spec.name + std::string(suffix), e, a);
    };
  };
  SolveNhPrognosticState<H>::for_each_field(add("_new"), expected.next, next);
  SolveNhDiagnosticState<H>::for_each_field(add(""), expected.diagnostic, diagnostic);
  SolveNhPrepAdvection<H>::for_each_field(add(""), expected.prep_adv, prep_adv);
  o.add("max_vertical_cfl", as_field("expected", expected.diagnostic.max_vertical_cfl),
        as_field("actual", diagnostic.max_vertical_cfl));
  return o;
}

}  // namespace

std::vector<FieldTolerance> solve_nh_exact_tolerances() {
  SolveNhSavepoint none;
  std::vector<FieldTolerance> table;
  for (const std::string& name : outputs(none, none.diagnostic, none.next, none.prep_adv).names)
    table.push_back({name, 0.0, 0.0, false});
  return table;
}

SavepointComparison compare_solve_nh_outputs(const SolveNhSavepoint& expected,
                                             const SolveNhDiagnosticState<H>& diagnostic,
                                             const SolveNhPrognosticState<H>& next,
                                             const SolveNhPrepAdvection<H>& prep_adv,
                                             const std::vector<FieldTolerance>& tolerances) {
  const Outputs o = outputs(expected, diagnostic, next, prep_adv);
  SavepointComparison result;
  for (const FieldTolerance& tol : tolerances) {
    const auto it = o.compare.find(tol.field);
    if (it == o.compare.end())
      throw InvalidArgument(fmt::format(
          "tolerance table: '{}' is not an output of the solve_nh granule (expected one of "
          "solve_nh_exact_tolerances()'s names: w_new, vn_new, ..., max_vertical_cfl)",
          tol.field));
    result.fields.push_back(it->second(tol));
  }
  return result;
}

SavepointComparison compare_solve_nh_outputs(const SolveNhSavepoint& expected,
                                             const SolveNhSavepoint& actual,
                                             const std::vector<FieldTolerance>& tolerances) {
  return compare_solve_nh_outputs(expected, actual.diagnostic, actual.next, actual.prep_adv,
                                  tolerances);
}

}  // namespace icondiff
