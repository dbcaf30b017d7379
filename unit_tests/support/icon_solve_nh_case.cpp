// The solve_nh granule's part of the ICON-shaped case (icon_arrays_case.hpp): its static fields,
// configuration and state handed out as ICON4Py 0.2.0's solve_nh_init / solve_nh_run take them,
// and the C++ granule run on the whole grid as the reference. The conversions into ICON's shapes
// are written from ICON4Py's dycore_wrapper (the inverse of what it does to ICON's arrays), not
// from icondiff's C API.
#include "support/icon_arrays_case.hpp"
#include "support/icon_case_state.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>

namespace icondiff::test::icon_case {
namespace {

/// solve_nh_init's arguments whose icondiff field has another name; the others are the same.
const std::map<std::string, std::string>& renamed_statics() {
  static const std::map<std::string, std::string> names = {
      {"rho_ref_me", "reference_rho_at_edges_on_model_levels"},
      {"theta_ref_me", "reference_theta_at_edges_on_model_levels"},
      {"hmask_dd3d", "horizontal_mask_for_3d_divdamp"},
      {"vwind_expl_wgt", "exner_w_explicit_weight_parameter"},
      {"vwind_impl_wgt", "exner_w_implicit_weight_parameter"},
      {"exner_ref_mc", "reference_exner_at_cells_on_model_levels"},
      {"d_exner_dz_ref_ic", "ddz_of_reference_exner_at_cells_on_half_levels"},
      {"rho_ref_mc", "reference_rho_at_cells_on_model_levels"},
      {"theta_ref_ic", "reference_theta_at_cells_on_half_levels"},
      {"exner_exfac", "time_extrapolation_parameter_for_exner"},
      // grid_init's geometry the dycore reads
      {"f_e", "coriolis_frequency"}};
  return names;
}

/// Calls f(view) with the host field of the solve_nh inputs named `field` (any struct).
template <class F>
bool with_static(const DycoreInputs<H>& in, const std::string& field, F&& f) {
  bool found = false;
  auto visit = [&](const FieldSpec& spec, const auto& view) {
    if (!found && field == spec.name) {
      found = true;
      f(view);
    }
  };
  DycoreMetricState<H>::for_each_field(visit, in.metric);
  DycoreInterpolationState<H>::for_each_field(visit, in.interpolation);
  DycoreEdgeParams<H>::for_each_field(visit, in.edges);
  DycoreCellParams<H>::for_each_field(visit, in.cells);
  return found;
}

/// The (points[, slots or levels]) field as the caller's (ld, cols) array, padding rows the
/// sentinel.
template <class View>
void write_field(const View& view, const std::string& name, double* data, int ld, int cols) {
  if constexpr (View::rank > 2) {
    throw InvalidArgument(name + " has three dimensions");
  } else {
    const int view_cols = View::rank == 1 ? 1 : static_cast<int>(view.extent(1));
    if (cols != view_cols)
      throw InvalidArgument(fmt::format("{} has {} columns, asked for {}", name, view_cols, cols));
    write_rows(data, ld, cols, view.extent(0), [&](std::size_t i, int j) {
      if constexpr (View::rank == 1)
        return static_cast<double>(view(i));
      else
        return static_cast<double>(view(i, static_cast<std::size_t>(j)));
    });
  }
}

/// The argument `name` of a run state field: its spec's binding column "x_now/x_new" or "x".
bool argument_of(const FieldSpec& spec, const std::string& name, int* slot) {
  const std::string names = spec.icon4py_name;
  const auto slash = names.find('/');
  if (slash == std::string::npos) {
    *slot = 0;
    return names == name;
  }
  if (names.substr(0, slash) == name)
    *slot = 0;
  else if (names.substr(slash + 1) == name)
    *slot = 1;
  else
    return false;
  return true;
}

/// Calls f(view) with the field of `states` that the solve_nh_run argument `name` is.
template <class F>
bool with_state_field(const SolveNhStates<H>& s, const std::string& name, F&& f) {
  bool found = false;
  int slot = 0;
  auto prognostic = [&](const FieldSpec& spec, const auto& now, const auto& next) {
    if (!found && argument_of(spec, name, &slot)) {
      found = true;
      f(slot == 0 ? now : next);
    }
  };
  SolveNhPrognosticState<H>::for_each_field(prognostic, s.current, s.next);
  auto other = [&](const FieldSpec& spec, const auto& view) {
    if (!found && argument_of(spec, name, &slot)) {
      found = true;
      f(view);
    }
  };
  SolveNhDiagnosticState<H>::for_each_field(other, s.diagnostic);
  SolveNhPrepAdvection<H>::for_each_field(other, s.prep_adv);
  return found;
}

/// The IAU increments ICON passes when it has them: a small pattern (IAU stays off in the runs,
/// so the granule must not read them).
bool is_increment(const std::string& name) {
  return name == "vn_incr" || name == "rho_incr" || name == "exner_incr";
}

/// The hydrostatic correction's list: every (edge, level) with a non-zero pg_exdist.
struct PgEntry {
  int edge, level;
  double distance;
};
std::vector<PgEntry> pg_list(const DycoreInputs<H>& in) {
  std::vector<PgEntry> out;
  const auto& d = in.metric.pg_exdist;
  for (std::size_t k = 0; k < d.extent(1); ++k)
    for (std::size_t e = 0; e < d.extent(0); ++e)
      if (d(e, k) != 0) out.push_back({static_cast<int>(e), static_cast<int>(k), d(e, k)});
  return out;
}

}  // namespace

bool fill_solve_nh_double(const Case& k, const std::string& name, double* data, int ld, int cols) {
  if (!k.solve_nh) return false;
  const Case::SolveNh& s = *k.solve_nh;
  const DycoreInputs<H>& in = s.inputs;
  const auto nlev = static_cast<std::size_t>(in.nlev);
  const auto edges = static_cast<std::size_t>(k.grid.num_edges);
  if (name == "wgtfacq_c" || name == "wgtfacq_e") {
    const auto& field = name == "wgtfacq_c" ? in.metric.wgtfacq_c : in.metric.wgtfacq_e;
    if (cols != 3) throw InvalidArgument(name + " has 3 columns");
    // ICON4Py: shift by nlev - 3 and flip; column j (0-based) holds level nlev - 1 - j.
    write_rows(data, ld, 3, field.extent(0),
               [&](std::size_t i, int j) { return static_cast<double>(field(i, nlev - 1 - j)); });
    return true;
  }
  if (name == "rbf_vec_coeff_e") {  // (4, ld): ICON4Py transposes it to (edges, 4)
    const auto& c = in.interpolation.rbf_vec_coeff_e;
    for (int i = 0; i < ld; ++i)
      for (int j = 0; j < 4; ++j)
        data[j + 4 * static_cast<std::size_t>(i)] =
            static_cast<std::size_t>(i) < edges ? c(i, j) : sentinel;
    return true;
  }
  if (name == "zdiff_gradp") {  // (ld, 2, nlev)
    if (cols != static_cast<int>(2 * nlev)) throw InvalidArgument("zdiff_gradp is (ld, 2, nlev)");
    const auto& z = in.metric.zdiff_gradp;
    write_rows(data, ld, cols, edges, [&](std::size_t e, int jk) {
      return static_cast<double>(
          z(e, static_cast<std::size_t>(jk % 2), static_cast<std::size_t>(jk / 2)));
    });
    return true;
  }
  if (name == "pg_exdist") {
    const auto list = pg_list(in);
    if (ld != static_cast<int>(list.size())) throw InvalidArgument("pg_exdist has pg_count values");
    for (std::size_t i = 0; i < list.size(); ++i) data[i] = list[i].distance;
    return true;
  }
  if (name == "rayleigh_w" || name == "scalfac_dd3d") {
    const auto& p =
        name == "rayleigh_w" ? in.metric.rayleigh_w : in.metric.scaling_factor_for_3d_divdamp;
    if (ld != static_cast<int>(p.extent(0))) throw InvalidArgument(name + ": wrong length");
    for (std::size_t kk = 0; kk < p.extent(0); ++kk) data[kk] = p(kk);
    return true;
  }
  if (is_increment(name)) {
    const bool edge = name == "vn_incr";
    write_rows(data, ld, cols, edge ? edges : static_cast<std::size_t>(k.grid.num_cells),
               [](std::size_t i, int j) { return 1e-7 * static_cast<double>((i + 3 * j) % 11); });
    return true;
  }
  const auto renamed = renamed_statics().find(name);
  const std::string field = renamed == renamed_statics().end() ? name : renamed->second;
  if (with_static(in, field, [&](const auto& view) {
        if constexpr (std::is_floating_point_v<typename std::decay_t<decltype(view)>::value_type>)
          write_field(view, name, data, ld, cols);
        else
          throw InvalidArgument(name + " is not a double array");
      }))
    return true;
  return with_state_field(s.initial, name, [&](const auto& view) {
    if (view.data() == nullptr) {  // a limited-area tendency on a global grid: ICON holds zeros
      const bool edge = name == "grf_tend_vn";
      write_rows(data, ld, cols, edge ? edges : static_cast<std::size_t>(k.grid.num_cells),
                 [](std::size_t, int) { return 0.0; });
      return;
    }
    write_field(view, name, data, ld, cols);
  });
}

bool fill_solve_nh_int(const Case& k, const std::string& name, int* data, int ld, int cols) {
  if (!k.solve_nh) return false;
  const DycoreInputs<H>& in = k.solve_nh->inputs;
  const auto nlev = static_cast<std::size_t>(in.nlev);
  if (name == "vertidx_gradp") {  // (ld, 2, nlev), 1-based absolute levels
    if (cols != static_cast<int>(2 * nlev)) throw InvalidArgument("vertidx_gradp is (ld, 2, nlev)");
    const auto& offset = in.metric.vertoffset_gradp;
    for (int jk = 0; jk < cols; ++jk)
      for (int e = 0; e < ld; ++e) {
        const auto j = static_cast<std::size_t>(jk % 2), level = static_cast<std::size_t>(jk / 2);
        data[static_cast<std::size_t>(jk) * ld + e] =
            e < k.grid.num_edges ? static_cast<int>(level) + offset(e, j, level) + 1 : 0x7fffffff;
      }
    return true;
  }
  if (name == "pg_edgeidx" || name == "pg_vertidx") {
    const auto list = pg_list(in);
    if (ld != static_cast<int>(list.size())) throw InvalidArgument(name + " has pg_count values");
    for (std::size_t i = 0; i < list.size(); ++i)
      data[i] = (name == "pg_edgeidx" ? list[i].edge : list[i].level) + 1;
    return true;
  }
  return false;
}

bool fill_solve_nh_bool(const Case& k, const std::string& name, unsigned char* data, int ld) {
  if (!k.solve_nh || name != "mask_prog_halo_c") return false;
  const auto& mask = k.solve_nh->inputs.cells.mask_prog_halo_c;
  for (int i = 0; i < ld; ++i) data[i] = i < k.grid.num_cells && mask(i) != 0 ? 1 : 0;
  return true;
}

std::optional<double> solve_nh_real(const Case& k, const std::string& name) {
  if (!k.solve_nh) return std::nullopt;
  const DycoreConfig& c = k.solve_nh->config;
  const std::map<std::string, double> values = {
      {"mean_cell_area", k.solve_nh->whole_inputs.mean_cell_area},
      {"rhotheta_offctr", c.rhotheta_offctr},
      {"veladv_offctr", c.veladv_offctr},
      {"solve_nh_nudge_max_coeff", c.max_nudging_coefficient},
      {"divdamp_fac", c.fourth_order_divdamp_factor},
      {"divdamp_fac2", c.fourth_order_divdamp_factor2},
      {"divdamp_fac3", c.fourth_order_divdamp_factor3},
      {"divdamp_fac4", c.fourth_order_divdamp_factor4},
      {"divdamp_z", c.fourth_order_divdamp_z},
      {"divdamp_z2", c.fourth_order_divdamp_z2},
      {"divdamp_z3", c.fourth_order_divdamp_z3},
      {"divdamp_z4", c.fourth_order_divdamp_z4},
      {"max_vcfl", k.solve_nh->result ? k.solve_nh->result->diagnostic.max_vertical_cfl : 0.0}};
  const auto it = values.find(name);
  return it == values.end() ? std::nullopt : std::optional<double>(it->second);
}

std::optional<int> solve_nh_int(const Case& k, const std::string& name) {
  if (!k.solve_nh) return std::nullopt;
  const DycoreConfig& c = k.solve_nh->config;
  const std::map<std::string, int> values = {
      {"itime_scheme", c.itime_scheme},
      {"iadv_rhotheta", c.iadv_rhotheta},
      {"igradp_method", c.igradp_method},
      {"rayleigh_type", static_cast<int>(c.rayleigh_type)},
      {"divdamp_order", static_cast<int>(c.divdamp_order)},
      {"divdamp_type", static_cast<int>(c.divdamp_type)},
      {"l_vert_nested", c.l_vert_nested},
      {"ldeepatmo", c.ldeepatmo},
      {"iau_init", c.iau_init},
      {"extra_diffu", c.extra_diffu},
      {"nflat_gradp", k.solve_nh->inputs.nflat_gradp + 1},  // ICON's 1-based level
      {"pg_count", static_cast<int>(pg_list(k.solve_nh->inputs).size())}};
  const auto it = values.find(name);
  return it == values.end() ? std::nullopt : std::optional<int>(it->second);
}

std::optional<int> compare_solve_nh(const Case& k, const std::string& name, const double* data,
                                    int ld, int cols) {
  if (!k.solve_nh || !k.solve_nh->result) return std::nullopt;
  int mismatches = 0;
  const bool found = with_state_field(*k.solve_nh->result, name, [&](const auto& view) {
    // The location from the extent (cells and edges differ on every grid used here).
    const bool on_edges = view.extent(0) == static_cast<std::size_t>(k.host.grid.num_edges);
    mismatches = count_differences(k, name, on_edges ? Location::Edge : Location::Cell, view, data,
                                   ld, cols, "the C++ granule");
  });
  if (!found) return std::nullopt;
  return mismatches;
}

std::optional<double> max_difference_solve_nh(const Case& k, const std::string& name,
                                              const double* data, int ld, int cols) {
  if (!k.solve_nh || !k.solve_nh->result) return std::nullopt;
  double difference = 0.0;
  const bool found = with_state_field(*k.solve_nh->result, name, [&](const auto& view) {
    const bool on_edges = view.extent(0) == static_cast<std::size_t>(k.host.grid.num_edges);
    difference = max_relative_difference(k, name, on_edges ? Location::Edge : Location::Cell, view,
                                         data, ld, cols);
  });
  if (!found) return std::nullopt;
  return difference;
}

}  // namespace icondiff::test::icon_case

using namespace icondiff;
using namespace icondiff::test;
using namespace icondiff::test::icon_case;

extern "C" {

int icon_case_create_solve_nh(void) {
  return guarded("create_solve_nh", [&] {
    Case& k = current();
    auto s = std::make_unique<Case::SolveNh>();
    StaticsSetupConfig setup = k.setup;  // the same vertical grid and surface
    setup.interpolation = interpolation_config_for(k.host.grid);
    s->host = compute_static_inputs(k.host.grid, setup, StaticFieldSelection::all());
    const auto statics = make_static_fields<H>(s->host);
    s->whole_inputs = make_dycore_inputs<H>(s->host, statics, DeviceGrid<H>(s->host.grid));
    s->vct_a = s->host.metrics.vertical.vct_a;
    JablonowskiWilliamsonConfig jw;
    jw.vn_noise_amplitude = 1.0;
    jw.w_noise_amplitude = 0.02;
    jw.noise_seed = 11;
    const SolveNhHostStates states = jablonowski_williamson_solve_nh_states(
        s->host.grid, s->host.metrics.z_ifc, s->host.metrics.z_mc, s->whole_inputs, jw);
    s->whole_initial = {states.current, states.next, states.diagnostic, states.prep_adv};
    if (k.host.grid.limited_area) {  // the parent's boundary tendencies: small constants
      auto& d = s->whole_initial.diagnostic;
      Kokkos::deep_copy(d.grf_tend_rho, 1e-7);
      Kokkos::deep_copy(d.grf_tend_thv, 1e-5);
      Kokkos::deep_copy(d.grf_tend_w, 1e-6);
      Kokkos::deep_copy(d.grf_tend_vn, 1e-5);
    }
    // Restricted also on one rank, so that the masks are those the reference run gets.
    s->inputs = restrict_dycore_inputs<H>(s->whole_inputs, k.grid);
    const FieldSizes sizes = s->whole_inputs.sizes();
    const std::string scope = "icondiff::test::";
    s->initial = {restrict_to_local(s->whole_initial.current, k.grid, sizes, scope),
                  restrict_to_local(s->whole_initial.next, k.grid, sizes, scope),
                  restrict_to_local(s->whole_initial.diagnostic, k.grid, sizes, scope),
                  restrict_to_local(s->whole_initial.prep_adv, k.grid, sizes, scope)};
    k.solve_nh = std::move(s);
  });
}

int icon_case_run_solve_nh_reference(int steps, int substeps, double dtime) {
  return guarded("run_solve_nh_reference", [&] {
    Case& k = current();
    if (!k.solve_nh) throw InvalidArgument("call icon_case_create_solve_nh first");
    Case::SolveNh& s = *k.solve_nh;
    const DycoreInputs<M> inputs =
        restrict_dycore_inputs<M>(s.whole_inputs, s.host.grid, "icondiff::test::");
    SolveNonhydro<Space> granule(s.config, inputs, s.vct_a);
    auto states = copy_states<M>(s.whole_initial, "icondiff::test::");
    for (int step = 0; step < steps; ++step)
      for (int substep = 0; substep < substeps; ++substep) {
        granule.time_step(states.diagnostic, states.current, states.next, states.prep_adv,
                          solve_nh_substep(step, substep, substeps, dtime));
        swap_time_levels(states);
      }
    Kokkos::fence();
    s.result = copy_states<H>(states, "icondiff::test::");
  });
}

}  // extern "C"
