// ICON4Py's datatest tolerances of the diffusion outputs.
#include <icondiff/io/savepoint_comparison.hpp>

namespace icondiff {

std::vector<FieldTolerance> icon4py_diffusion_tolerances() {
  // tests/diffusion/utils.py::verify_diffusion_fields (diffusion_spec.md §5.2); rtol 1e-12 is
  // dallclose's default where the test gives none.
  return {
      {"vn", 1e-8, 1e-9, false},    {"w", 1e-14, 1e-12, false},     {"theta_v", 0.0, 1e-12, false},
      {"exner", 0.0, 1e-12, false}, {"div_ic", 1e-16, 1e-12, true}, {"hdef_ic", 1e-13, 1e-12, true},
      {"dwdx", 1e-18, 1e-12, true}, {"dwdy", 1e-18, 1e-12, true},
  };
}

}  // namespace icondiff
