// What every Dycore program's launch shares (private to src/dycore): the argument and domain
// checks and the one launch of a (point, level) body, and the check of the programs whose last
// level is extrapolated from the three above it.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_labels.hpp>

#include <string>
#include <string_view>

namespace icondiff {

/// The surface extrapolation (ICON4Py's _extrapolate_at_top on a domain's last level) reads the
/// three levels above it: a non-empty domain must end at level 4 or below.
inline void check_surface_extrapolation(const ProgramDomain& domain, std::string_view program) {
  if (domain.vertical_end > domain.vertical_start && domain.vertical_end < 4)
    throw InvalidArgument("dycore: " + std::string(program) +
                          " vertical_end = " + std::to_string(domain.vertical_end) +
                          ": its last level extrapolates from the three levels above it, so "
                          "vertical_end must be at least 4");
}

template <class ExecSpace>
template <class Arguments, class Body, class Before>
void Dycore<ExecSpace>::run_point_program(const ExecSpace& space, const Arguments& args,
                                          const ProgramDomain* domain_override,
                                          const ProgramDomain& default_domain,
                                          const Location location, const int levels,
                                          const std::string& label, const Body& body,
                                          const Before& before) {
  const std::string_view program = std::string_view(label).substr(dycore_labels::prefix.size());
  check_state_extents(args, inputs_.sizes(), [&] { return "dycore: " + std::string(program); });
  const ProgramDomain domain = domain_override ? *domain_override : default_domain;
  const index_t points =
      location == Location::Cell ? inputs_.grid.num_cells : inputs_.grid.num_edges;
  check_domain(domain, points, levels, program);
  before(domain);
  runner_.on(space).points_levels(label, domain.horizontal, domain.vertical_start,
                                  domain.vertical_end, body);
}

}  // namespace icondiff
