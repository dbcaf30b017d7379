// The solve_nh granule on ICON's arrays on this rank (icon_granule.hpp): solve_nh_init checks the
// static fields in ICON's shapes, converts the few ICON holds differently (wgtfacq_c/e,
// vertidx_gradp, the pg_* point list, rbf_vec_coeff_e) exactly as ICON4Py 0.2.0's
// dycore_wrapper does, copies them (sharing those the diffusion granule holds already) and builds
// a SolveNonhydro granule; solve_nh_run wraps the caller's prognostic, diagnostic and
// prep_adv arrays as unmanaged Views in place (no allocation, no copy) and fences once at the end.

#include "icon_granule.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <icondiff_c.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff::capi {
namespace {

constexpr const char* location_points(Location l) {
  return l == Location::Cell ? "num_cells" : l == Location::Edge ? "num_edges" : "num_vertices";
}

/// SIZE(x, 1) >= the location's points, then exactly the slots and levels of the field `spec`
/// ("nlev" or "nlev + 1"). No allocation unless it throws (solve_nh_run checks every call).
void check_field_array(const icondiff_array& a, const char* f, const char* name,
                       const FieldSpec& spec, const FieldSizes& sizes) {
  const auto extent = [&](unsigned r) { return static_cast<long>(field_extent(spec, sizes, r)); };
  const int rank = spec.rank();
  const Extent points = at_least(extent(0), location_points(spec.location));
  const char* level_meaning = spec.levels == Levels::Half ? "nlev + 1" : "nlev";
  if (rank == 1) return check_array(a, f, name, {points});
  const bool slots = spec.neighbours != Neighbours::None;
  const Extent second = exactly(extent(1), slots ? "neighbours" : level_meaning);
  if (rank == 2) return check_array(a, f, name, {points, second});
  check_array(a, f, name, {points, second, exactly(extent(2), level_meaning)});
}

/// Every value of the copied field on its points is finite, else InvalidArgument naming the
/// argument and the first bad (1-based) element.
template <class View>
void check_finite(const View& field, const char* f, const char* name) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  const auto fail = [&](std::size_t i, const std::string& rest, double value) {
    throw InvalidArgument(
        fmt::format("{}: {}({}{}) = {} is not finite", f, name, i + 1, rest, value));
  };
  if constexpr (View::rank == 1) {
    for (std::size_t i = 0; i < host.extent(0); ++i)
      if (!std::isfinite(static_cast<double>(host(i)))) fail(i, "", host(i));
  } else if constexpr (View::rank == 2) {
    for (std::size_t j = 0; j < host.extent(1); ++j)
      for (std::size_t i = 0; i < host.extent(0); ++i)
        if (!std::isfinite(static_cast<double>(host(i, j))))
          fail(i, fmt::format(", {}", j + 1), host(i, j));
  } else {
    for (std::size_t k = 0; k < host.extent(2); ++k)
      for (std::size_t j = 0; j < host.extent(1); ++j)
        for (std::size_t i = 0; i < host.extent(0); ++i)
          if (!std::isfinite(static_cast<double>(host(i, j, k))))
            fail(i, fmt::format(", {}, {}", j + 1, k + 1), host(i, j, k));
  }
}

/// An owned field in M from values built on the host.
template <class HostView>
auto to_memory_space(const HostView& host, const std::string& name) {
  using T = typename HostView::non_const_value_type;
  FieldView<T, HostView::rank, M> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::capi::" + name), host.layout());
  Kokkos::deep_copy(out, host);
  return out;
}

/// solve_nh_init's options as a validated DycoreConfig (ICON4Py's NonHydrostaticConfig).
DycoreConfig config_from(const icondiff_solve_nh_args& a) {
  const char* f = solve_nh_init_name;
  const auto require = [&](bool ok, const char* name, int value, const char* allowed) {
    if (!ok)
      throw ConfigError(fmt::format("{}: {} = {} is not one of {}", f, name, value, allowed));
  };
  require(a.rayleigh_type == 1 || a.rayleigh_type == 2, "rayleigh_type", a.rayleigh_type,
          "1 (classic), 2 (Klemp)");
  require(a.divdamp_order == 2 || a.divdamp_order == 4 || a.divdamp_order == 24, "divdamp_order",
          a.divdamp_order, "2, 4, 24");
  require(a.divdamp_type == 2 || a.divdamp_type == 3 || a.divdamp_type == 32, "divdamp_type",
          a.divdamp_type, "2, 3, 32");
  DycoreConfig c;
  c.itime_scheme = a.itime_scheme;
  c.iadv_rhotheta = a.iadv_rhotheta;
  c.igradp_method = a.igradp_method;
  c.rayleigh_type = static_cast<RayleighType>(a.rayleigh_type);
  c.divdamp_order = static_cast<DivergenceDampingOrder>(a.divdamp_order);
  c.divdamp_type = static_cast<DivergenceDampingType>(a.divdamp_type);
  c.l_vert_nested = a.l_vert_nested != 0;
  c.ldeepatmo = a.ldeepatmo != 0;
  c.iau_init = a.iau_init != 0;
  c.extra_diffu = a.extra_diffu != 0;
  c.rhotheta_offctr = a.rhotheta_offctr;
  c.veladv_offctr = a.veladv_offctr;
  c.max_nudging_coefficient = a.nudge_max_coeff;  // ICON passes the scaled value, as ICON4Py
  c.fourth_order_divdamp_factor = a.divdamp_fac;
  c.fourth_order_divdamp_factor2 = a.divdamp_fac2;
  c.fourth_order_divdamp_factor3 = a.divdamp_fac3;
  c.fourth_order_divdamp_factor4 = a.divdamp_fac4;
  c.fourth_order_divdamp_z = a.divdamp_z;
  c.fourth_order_divdamp_z2 = a.divdamp_z2;
  c.fourth_order_divdamp_z3 = a.divdamp_z3;
  c.fourth_order_divdamp_z4 = a.divdamp_z4;
  try {
    c.validate_for_solve_nh();
  } catch (const Error& e) {
    throw ConfigError(fmt::format("{}: {}", f, e.what()));
  }
  return c;
}

/// One argument of solve_nh_init: its name (for messages) and its array.
struct NamedArgument {
  const char* name;
  const icondiff_array* array;
};

/// The static arrays solve_nh_init copies as they are, by the field's name in icondiff
/// (statics/static_fields.hpp).
std::map<std::string, NamedArgument> plain_metric_arrays(const icondiff_solve_nh_args& a) {
  return {{"reference_rho_at_edges_on_model_levels", {"rho_ref_me", &a.rho_ref_me}},
          {"reference_theta_at_edges_on_model_levels", {"theta_ref_me", &a.theta_ref_me}},
          {"ddxn_z_full", {"ddxn_z_full", &a.ddxn_z_full}},
          {"horizontal_mask_for_3d_divdamp", {"hmask_dd3d", &a.hmask_dd3d}},
          {"exner_w_explicit_weight_parameter", {"vwind_expl_wgt", &a.vwind_expl_wgt}},
          {"exner_w_implicit_weight_parameter", {"vwind_impl_wgt", &a.vwind_impl_wgt}},
          {"inv_ddqz_z_full", {"inv_ddqz_z_full", &a.inv_ddqz_z_full}},
          {"ddqz_z_half", {"ddqz_z_half", &a.ddqz_z_half}},
          {"reference_exner_at_cells_on_model_levels", {"exner_ref_mc", &a.exner_ref_mc}},
          {"wgtfac_c", {"wgtfac_c", &a.wgtfac_c}},
          {"wgtfac_e", {"wgtfac_e", &a.wgtfac_e}},
          {"ddxt_z_full", {"ddxt_z_full", &a.ddxt_z_full}},
          {"coeff_gradekin", {"coeff_gradekin", &a.coeff_gradekin}},
          {"ddqz_z_full_e", {"ddqz_z_full_e", &a.ddqz_z_full_e}},
          {"coeff1_dwdz", {"coeff1_dwdz", &a.coeff1_dwdz}},
          {"coeff2_dwdz", {"coeff2_dwdz", &a.coeff2_dwdz}},
          {"theta_ref_mc", {"theta_ref_mc", &a.theta_ref_mc}},
          {"ddz_of_reference_exner_at_cells_on_half_levels",
           {"d_exner_dz_ref_ic", &a.d_exner_dz_ref_ic}},
          {"reference_rho_at_cells_on_model_levels", {"rho_ref_mc", &a.rho_ref_mc}},
          {"reference_theta_at_cells_on_half_levels", {"theta_ref_ic", &a.theta_ref_ic}},
          {"time_extrapolation_parameter_for_exner", {"exner_exfac", &a.exner_exfac}},
          {"d2dexdz2_fac1_mc", {"d2dexdz2_fac1_mc", &a.d2dexdz2_fac1_mc}},
          {"d2dexdz2_fac2_mc", {"d2dexdz2_fac2_mc", &a.d2dexdz2_fac2_mc}}};
}

std::map<std::string, NamedArgument> plain_interpolation_arrays(const icondiff_solve_nh_args& a) {
  return {{"geofac_grg_x", {"geofac_grg_x", &a.geofac_grg_x}},
          {"geofac_grg_y", {"geofac_grg_y", &a.geofac_grg_y}},
          {"pos_on_tplane_e_1", {"pos_on_tplane_e_1", &a.pos_on_tplane_e_1}},
          {"pos_on_tplane_e_2", {"pos_on_tplane_e_2", &a.pos_on_tplane_e_2}},
          {"c_lin_e", {"c_lin_e", &a.c_lin_e}},
          {"nudgecoeff_e", {"nudgecoeff_e", &a.nudgecoeff_e}},
          {"geofac_grdiv", {"geofac_grdiv", &a.geofac_grdiv}},
          {"geofac_div", {"geofac_div", &a.geofac_div}},
          {"e_bln_c_s", {"e_bln_c_s", &a.e_bln_c_s}},
          {"c_intp", {"c_intp", &a.c_intp}},
          {"geofac_rot", {"geofac_rot", &a.geofac_rot}},
          {"geofac_n2s", {"geofac_n2s", &a.geofac_n2s}},
          {"e_flx_avg", {"e_flx_avg", &a.e_flx_avg}}};
}

/// ICON's (nproma, 3) wgtfacq_c/e (column j: level nlev - j, 1-based) as the (points, nlev) field
/// whose levels nlev-3..nlev-1 (0-based) the programs read; ICON4Py's shift-and-flip.
FieldView<vp, 2, M> surface_weights(const icondiff_array& a, const char* name, std::size_t points,
                                    int nlev, bool dev) {
  const std::vector<double> values = host_values<double, M>(a, 2, dev);
  const auto ld = static_cast<std::size_t>(a.size[0]);
  Kokkos::View<vp**, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_weights", points,
                                                          static_cast<std::size_t>(nlev));
  for (int j = 0; j < 3; ++j)
    for (std::size_t i = 0; i < points; ++i)
      host(i, static_cast<std::size_t>(nlev - 1 - j)) = static_cast<vp>(values[j * ld + i]);
  return to_memory_space(host, name);
}

/// ICON's (nproma, 2, nlev) zdiff_gradp / vertidx_gradp (levels 1-based) as the dense (edges, 2,
/// nlev) field, vertidx_gradp as the offset k' - k (ICON4Py's index2offset; ICON's zeros where
/// the list is unused become offsets nobody reads). The pressure gradient reads vertidx_gradp on
/// the levels below nflat_gradp (1-based, as ICON's): there each value must be a level 1..nlev
/// (InvalidArgument naming the first that is not); elsewhere a value whose offset would not fit
/// an int becomes offset 0 (never read).
template <class T>
FieldView<T, 3, M> gradient_field(const icondiff_array& a, const char* name, std::size_t edges,
                                  int nlev, bool dev, bool to_offset, int nflat_gradp = 0) {
  using Source = std::conditional_t<std::is_same_v<T, int>, int, double>;
  const std::vector<Source> values = host_values<Source, M>(a, 3, dev);
  const auto ld = static_cast<std::size_t>(a.size[0]);
  Kokkos::View<T***, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_gradient", edges, 2,
                                                          static_cast<std::size_t>(nlev));
  for (std::size_t k = 0; k < static_cast<std::size_t>(nlev); ++k)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t e = 0; e < edges; ++e) {
        const Source v = values[(k * 2 + j) * ld + e];
        if constexpr (std::is_same_v<T, int>) {
          if (!to_offset) {
            host(e, j, k) = v;
            continue;
          }
          const bool read = static_cast<long>(k) >= nflat_gradp;  // 0-based k > nflat_gradp - 1
          if (read && (v < 1 || v > nlev))
            throw InvalidArgument(fmt::format(
                "{}: {}({}, {}, {}) = {} is not a level 1..{} (nlev): the pressure gradient reads "
                "it on every level below nflat_gradp = {}",
                solve_nh_init_name, name, e + 1, j + 1, k + 1, v, nlev, nflat_gradp));
          const long offset = static_cast<long>(v) - 1 - static_cast<long>(k);
          host(e, j, k) = offset >= std::numeric_limits<int>::min() ? static_cast<int>(offset) : 0;
        } else {
          host(e, j, k) = static_cast<T>(v);
        }
      }
  return to_memory_space(host, name);
}

/// ICON's point list of the hydrostatic correction as the dense (edges, nlev) pg_exdist (zero
/// where not listed; ICON4Py's list2field).
FieldView<vp, 2, M> pg_exdist_field(const icondiff_solve_nh_args& a, std::size_t edges, int nlev,
                                    bool dev) {
  const char* f = solve_nh_init_name;
  // Present: data, or the Fortran module's mark of a non-contiguous array (refused below).
  const auto present = [](const icondiff_array& x) { return x.data != nullptr || x.size[0] == -1; };
  const bool e = present(a.pg_edgeidx), v = present(a.pg_vertidx), x = present(a.pg_exdist);
  Kokkos::View<vp**, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_pg_exdist", edges,
                                                          static_cast<std::size_t>(nlev));
  if (e || v || x) {
    if (!(e && v && x))
      throw InvalidArgument(fmt::format(
          "{}: pg_edgeidx, pg_vertidx and pg_exdist must be passed together (present: {}{}{})", f,
          e ? "pg_edgeidx " : "", v ? "pg_vertidx " : "", x ? "pg_exdist" : ""));
    check_array(a.pg_edgeidx, f, "pg_edgeidx", {at_least(0, "0, the list's length")});
    const long n = a.pg_edgeidx.size[0];
    check_array(a.pg_vertidx, f, "pg_vertidx", {exactly(n, "SIZE(pg_edgeidx)")});
    check_array(a.pg_exdist, f, "pg_exdist", {exactly(n, "SIZE(pg_edgeidx)")});
    const auto count = static_cast<std::size_t>(n);
    const auto edge_index = host_values<int, M>(a.pg_edgeidx, count, dev);
    const auto level_index = host_values<int, M>(a.pg_vertidx, count, dev);
    const auto distance = host_values<double, M>(a.pg_exdist, count, dev);
    for (std::size_t i = 0; i < count; ++i) {
      const long edge = edge_index[i], level = level_index[i];
      if (edge < 1 || edge > static_cast<long>(edges))
        throw InvalidArgument(
            fmt::format("{}: pg_edgeidx({}) = {} is not an edge 1..{}", f, i + 1, edge, edges));
      if (level < 1 || level > nlev)
        throw InvalidArgument(
            fmt::format("{}: pg_vertidx({}) = {} is not a level 1..{}", f, i + 1, level, nlev));
      if (!std::isfinite(distance[i]))
        throw InvalidArgument(
            fmt::format("{}: pg_exdist({}) = {} is not finite", f, i + 1, distance[i]));
      host(static_cast<std::size_t>(edge - 1), static_cast<std::size_t>(level - 1)) =
          static_cast<vp>(distance[i]);
    }
  }
  return to_memory_space(host, "pg_exdist");
}

/// ICON's (4, nproma) rbf_vec_coeff_e as the (edges, 4) field (ICON4Py transposes it).
FieldView<wp, 2, M> transposed_rbf(const icondiff_array& a, std::size_t edges, bool dev) {
  const std::vector<double> values = host_values<double, M>(a, 2, dev);
  Kokkos::View<wp**, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_rbf_vec_coeff_e",
                                                          edges, 4);
  for (std::size_t e = 0; e < edges; ++e)
    for (std::size_t j = 0; j < 4; ++j) host(e, j) = values[e * 4 + j];
  return to_memory_space(host, "rbf_vec_coeff_e");
}

/// A (cells) logical array as the 0/1 int field.
FieldView<int, 1, M> mask_field(const icondiff_array& a, const char* name, std::size_t cells,
                                bool dev) {
  const auto values = host_values<unsigned char, M>(a, cells, dev);
  Kokkos::View<int*, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_mask", cells);
  for (std::size_t c = 0; c < cells; ++c) host(c) = values[c] != 0 ? 1 : 0;
  return to_memory_space(host, name);
}

/// A vertical profile of exactly `levels` values.
LevelProfile<M> profile(const icondiff_array& a, const char* name, int levels, bool dev) {
  const auto values = host_values<double, M>(a, static_cast<std::size_t>(levels), dev);
  Kokkos::View<wp*, FieldLayout, Kokkos::HostSpace> host("icondiff::capi::host_profile",
                                                         static_cast<std::size_t>(levels));
  for (int k = 0; k < levels; ++k) {
    if (!std::isfinite(values[k]))
      throw InvalidArgument(
          fmt::format("{}: {}({}) = {} is not finite", solve_nh_init_name, name, k + 1, values[k]));
    host(k) = values[k];
  }
  return to_memory_space(host, name);
}

/// An array argument of solve_nh_run (spec.icon4py_name is the binding argument of a run field;
/// the prognostic fields' is "w_now/w_new").
struct RunArray {
  const char* name;
  icondiff_array icondiff_solve_nh_run_args::*member;
  bool output;
  bool one_value = false;  ///< max_vcfl_size1_array: one double, whatever its unused extents
};

/// Every array argument of solve_nh_run. max_vcfl_size1_array is read before the substep and
/// written after it: an output too.
constexpr RunArray run_argument_table[] = {
    {"rho_now", &icondiff_solve_nh_run_args::rho_now, false},
    {"rho_new", &icondiff_solve_nh_run_args::rho_new, true},
    {"exner_now", &icondiff_solve_nh_run_args::exner_now, false},
    {"exner_new", &icondiff_solve_nh_run_args::exner_new, true},
    {"w_now", &icondiff_solve_nh_run_args::w_now, false},
    {"w_new", &icondiff_solve_nh_run_args::w_new, true},
    {"theta_v_now", &icondiff_solve_nh_run_args::theta_v_now, false},
    {"theta_v_new", &icondiff_solve_nh_run_args::theta_v_new, true},
    {"vn_now", &icondiff_solve_nh_run_args::vn_now, false},
    {"vn_new", &icondiff_solve_nh_run_args::vn_new, true},
    {"w_concorr_c", &icondiff_solve_nh_run_args::w_concorr_c, true},
    {"ddt_vn_apc_ntl1", &icondiff_solve_nh_run_args::ddt_vn_apc_ntl1, true},
    {"ddt_vn_apc_ntl2", &icondiff_solve_nh_run_args::ddt_vn_apc_ntl2, true},
    {"ddt_w_adv_ntl1", &icondiff_solve_nh_run_args::ddt_w_adv_ntl1, true},
    {"ddt_w_adv_ntl2", &icondiff_solve_nh_run_args::ddt_w_adv_ntl2, true},
    {"theta_v_ic", &icondiff_solve_nh_run_args::theta_v_ic, true},
    {"rho_ic", &icondiff_solve_nh_run_args::rho_ic, true},
    {"exner_pr", &icondiff_solve_nh_run_args::exner_pr, true},
    {"exner_dyn_incr", &icondiff_solve_nh_run_args::exner_dyn_incr, true},
    {"ddt_exner_phy", &icondiff_solve_nh_run_args::ddt_exner_phy, false},
    {"grf_tend_rho", &icondiff_solve_nh_run_args::grf_tend_rho, false},
    {"grf_tend_thv", &icondiff_solve_nh_run_args::grf_tend_thv, false},
    {"grf_tend_w", &icondiff_solve_nh_run_args::grf_tend_w, false},
    {"mass_fl_e", &icondiff_solve_nh_run_args::mass_fl_e, true},
    {"ddt_vn_phy", &icondiff_solve_nh_run_args::ddt_vn_phy, false},
    {"grf_tend_vn", &icondiff_solve_nh_run_args::grf_tend_vn, false},
    {"vn_ie", &icondiff_solve_nh_run_args::vn_ie, true},
    {"vt", &icondiff_solve_nh_run_args::vt, true},
    {"vn_incr", &icondiff_solve_nh_run_args::vn_incr, false},
    {"rho_incr", &icondiff_solve_nh_run_args::rho_incr, false},
    {"exner_incr", &icondiff_solve_nh_run_args::exner_incr, false},
    {"mass_flx_me", &icondiff_solve_nh_run_args::mass_flx_me, true},
    {"mass_flx_ic", &icondiff_solve_nh_run_args::mass_flx_ic, true},
    {"vol_flx_ic", &icondiff_solve_nh_run_args::vol_flx_ic, true},
    {"vn_traj", &icondiff_solve_nh_run_args::vn_traj, true},
    {"max_vcfl_size1_array", &icondiff_solve_nh_run_args::max_vcfl_size1_array, true, true}};

const RunArray& run_argument(const std::string& name) {
  for (const RunArray& r : run_argument_table)
    if (name == r.name) return r;
  throw Error("solve_nh_run: no argument " + name);  // a renamed field: a bug, not bad input
}

/// The argument of field `spec` of a run state: `slot` 0 (now) or 1 (new) of "x_now/x_new".
std::string argument_name(const FieldSpec& spec, int slot) {
  const std::string names = spec.icon4py_name;
  const auto slash = names.find('/');
  if (slash == std::string::npos) return names;
  return slot == 0 ? names.substr(0, slash) : names.substr(slash + 1);
}

/// The argument of each field of State (in field_specs() order) for `slot`, looked up by name
/// once, so that a call finds its arrays without building names or touching the heap.
template <template <class> class State>
const std::array<const RunArray*, State<M>::num_fields>& state_arguments(int slot) {
  using Table = std::array<const RunArray*, State<M>::num_fields>;
  static const std::array<Table, 2> by_slot = [] {
    std::array<Table, 2> t{};
    for (int s = 0; s < 2; ++s)
      for (std::size_t f = 0; f < t[s].size(); ++f)
        t[s][f] = &run_argument(argument_name(State<M>::field_specs()[f], s));
    return t;
  }();
  return by_slot.at(static_cast<std::size_t>(slot));
}

/// What a run's binding errors start with.
const char* run_prefix() {
  static const std::string prefix = std::string(solve_nh_run_name) + ":";
  return prefix.c_str();
}

/// Binds the caller's arrays to the fields of State (absent optional ones empty). No heap
/// allocation (unless it throws, or level-fastest fields meet new extents).
template <template <class> class State>
void bind(ExternalState<State, Space>& bound, const icondiff_solve_nh_run_args& a,
          const FieldSizes& sizes, int slot) {
  typename ExternalState<State, Space>::Arrays arrays{};
  const auto& arguments = state_arguments<State>(slot);
  for (std::size_t f = 0; f < arguments.size(); ++f) {
    const icondiff_array& x = a.*(arguments[f]->member);
    if (x.data != nullptr)
      arrays[f] = {x.data, static_cast<std::size_t>(x.size[0]), sizeof(double)};
  }
  bound.bind(arrays, sizes, run_prefix());
}

/// Every output must be an array of its own, apart from every other argument.
void check_no_overlap(const icondiff_solve_nh_run_args& a) {
  // Extents: SIZE(x, 1) * SIZE(x, 2) doubles (checked before), one for max_vcfl_size1_array.
  const auto bounds = [&a](const RunArray& r) {
    const icondiff_array& x = a.*r.member;
    const auto begin = reinterpret_cast<std::uintptr_t>(x.data);
    const auto count = r.one_value ? std::uintptr_t(1)
                                   : static_cast<std::uintptr_t>(x.size[0]) *
                                         static_cast<std::uintptr_t>(x.size[1]);
    return std::make_pair(begin, begin + count * sizeof(double));
  };
  const std::size_t n = std::size(run_argument_table);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const RunArray &x = run_argument_table[i], &y = run_argument_table[j];
      if ((a.*x.member).data == nullptr || (a.*y.member).data == nullptr || !(x.output || y.output))
        continue;
      const auto [xb, xe] = bounds(x);
      const auto [yb, ye] = bounds(y);
      if (xb < ye && yb < xe)
        throw InvalidArgument(fmt::format(
            "{}: {} and {} overlap in memory{}: the granule writes {} in place, so every output "
            "must be an array of its own, apart from every other argument",
            solve_nh_run_name, x.name, y.name, xb == yb ? " (the same array)" : "",
            x.output ? x.name : y.name));
    }
}

}  // namespace

icondiff_solve_nh* create_solve_nh(const icondiff_icon_grid& grid, const icondiff_solve_nh_args& a,
                                   std::shared_ptr<HaloExchange<Space>> exchange) {
  const char* f = solve_nh_init_name;
  const bool dev = a.on_gpu != 0;
  check_granule_set_up(grid, f, dev, a.backend);
  const DycoreConfig config = config_from(a);
  const int nlev = grid.vertical.num_levels();
  // Before any conversion: wgtfacq_c/e hold levels nlev, nlev - 1 and nlev - 2 (grid_init itself
  // takes 2 levels, enough for the diffusion).
  if (nlev < 3)
    throw InvalidArgument(fmt::format(
        "{}: grid_init's vertical_size = {} (nlev): solve_nh needs at least 3 levels (wgtfacq_c "
        "and wgtfacq_e extrapolate to the surface from the lowest three)",
        f, nlev));
  if (a.nflat_gradp < 1 || a.nflat_gradp > nlev)
    throw InvalidArgument(
        fmt::format("{}: nflat_gradp = {} is not a level 1..{} (nlev)", f, a.nflat_gradp, nlev));
  // The levels grid_init derived from its vct_a, flat_height and ICON's default
  // htop_moist_proc, named by grid_init's arguments (the dycore needs both inside the column).
  const std::vector<double>& vct_a = grid.vertical.vct_a;
  if (grid.nflatlev >= nlev)
    throw InvalidArgument(fmt::format(
        "{}: grid_init's flat_height = {} is not above the lowest model level: every level would "
        "be flat (nflatlev = {} = nlev; vct_a({}) = {}, vct_a({}) = {}); ICON's flat_height "
        "(sleve_nml, default 16000 m) lies inside the column",
        f, grid.flat_height, grid.nflatlev, nlev, vct_a[nlev - 1], nlev + 1, vct_a[nlev]));
  if (grid.kstart_moist >= nlev)
    throw InvalidArgument(
        fmt::format("{}: grid_init's vct_a puts every level above ICON's htop_moist_proc = {} m "
                    "(vct_a({}) = {}): no level is left for moist physics (kstart_moist = nlev)",
                    f, VerticalGridConfig{}.htop_moist_proc, nlev + 1, vct_a[nlev]));
  if (!(grid.mean_cell_area > 0) || !std::isfinite(grid.mean_cell_area))
    throw InvalidArgument(fmt::format(
        "{}: grid_init's mean_cell_area = {} must be a positive area (the divergence damping "
        "scales with it)",
        f, grid.mean_cell_area));

  DycoreInputs<M> in;
  in.grid = grid.device;
  in.nlev = nlev;
  in.nflatlev = grid.nflatlev;
  in.nflat_gradp = a.nflat_gradp - 1;  // ICON's 1-based level, as ICON4Py converts it
  in.end_index_of_damping_layer = grid.vertical.end_index_of_damping_layer;
  in.kstart_moist = grid.kstart_moist;
  in.mean_cell_area = grid.mean_cell_area;
  const FieldSizes sizes = in.sizes();
  const index_t nc = grid.grid.num_cells, ne = grid.grid.num_edges, nv = grid.grid.num_vertices;

  // Extents of every array, by the field it becomes.
  const auto metric_arrays = plain_metric_arrays(a);
  for (const FieldSpec& spec : DycoreMetricState<M>::field_specs())
    if (const auto it = metric_arrays.find(spec.name); it != metric_arrays.end())
      check_field_array(*it->second.array, f, it->second.name, spec, sizes);
  const auto interpolation_arrays = plain_interpolation_arrays(a);
  for (const FieldSpec& spec : DycoreInterpolationState<M>::field_specs()) {
    const auto it = interpolation_arrays.find(spec.name);
    if (it == interpolation_arrays.end()) continue;
    if (std::string(spec.name).rfind("pos_on_tplane_e_", 0) == 0)  // ICON4Py reads [:, 0:2]
      check_array(*it->second.array, f, it->second.name,
                  {at_least(ne, "num_edges"), at_least(2, "E2C")});
    else
      check_field_array(*it->second.array, f, it->second.name, spec, sizes);
  }
  check_array(a.wgtfacq_c, f, "wgtfacq_c", {at_least(nc, "num_cells"), exactly(3, "3 levels")});
  check_array(a.wgtfacq_e, f, "wgtfacq_e", {at_least(ne, "num_edges"), exactly(3, "3 levels")});
  const Extent gradient[] = {at_least(ne, "num_edges"), exactly(2, "E2C"), exactly(nlev, "nlev")};
  check_array(a.zdiff_gradp, f, "zdiff_gradp", gradient);
  check_array(a.vertidx_gradp, f, "vertidx_gradp", gradient);
  check_array(a.rbf_vec_coeff_e, f, "rbf_vec_coeff_e",
              {exactly(4, "rbf_vec_dim_e"), at_least(ne, "num_edges")});
  check_array(
      a.rbf_vec_coeff_v, f, "rbf_vec_coeff_v",
      {exactly(6, "rbf_vec_dim_v"), exactly(2, "vector components"), at_least(nv, "num_vertices")});
  check_array(a.rayleigh_w, f, "rayleigh_w", {exactly(nlev + 1, "nlev + 1")});
  check_array(a.scalfac_dd3d, f, "scalfac_dd3d", {exactly(nlev, "nlev")});
  check_array(a.mask_prog_halo_c, f, "mask_prog_halo_c", {at_least(nc, "num_cells")});
  check_array(a.c_owner_mask, f, "c_owner_mask", {at_least(nc, "num_cells")});

  auto handle = std::make_unique<icondiff_solve_nh>();
  handle->on_gpu = dev;
  handle->config = config;
  const std::string what = std::string(f) + ":";

  // The fields ICON holds in another shape, converted into owned fields first.
  const auto cells = static_cast<std::size_t>(nc), edges = static_cast<std::size_t>(ne);
  const auto wgtfacq_c = surface_weights(a.wgtfacq_c, "wgtfacq_c", cells, nlev, dev);
  const auto wgtfacq_e = surface_weights(a.wgtfacq_e, "wgtfacq_e", edges, nlev, dev);
  const auto zdiff_gradp =
      gradient_field<vp>(a.zdiff_gradp, "zdiff_gradp", edges, nlev, dev, false);
  const auto vertoffset_gradp =
      gradient_field<int>(a.vertidx_gradp, "vertidx_gradp", edges, nlev, dev, true, a.nflat_gradp);
  const auto pg_exdist = pg_exdist_field(a, edges, nlev, dev);
  const auto rbf_vec_coeff_e = transposed_rbf(a.rbf_vec_coeff_e, edges, dev);

  std::map<std::string, ExternalArray> metric;
  for (const auto& [name, argument] : metric_arrays)
    metric[name] = external<double>(*argument.array);
  // The converted fields join the copies (the granule's input checks see every field).
  in.metric =
      copy_from_caller<DycoreMetricState>(metric, sizes, what, dev, false, MissingArrays::Empty);
  in.metric.wgtfacq_c = wgtfacq_c;
  in.metric.wgtfacq_e = wgtfacq_e;
  in.metric.zdiff_gradp = zdiff_gradp;
  in.metric.vertoffset_gradp = vertoffset_gradp;
  in.metric.pg_exdist = pg_exdist;
  in.metric.rayleigh_w = profile(a.rayleigh_w, "rayleigh_w", nlev + 1, dev);
  in.metric.scaling_factor_for_3d_divdamp = profile(a.scalfac_dd3d, "scalfac_dd3d", nlev, dev);

  std::map<std::string, ExternalArray> interpolation;
  for (const auto& [name, argument] : interpolation_arrays)
    interpolation[name] = external<double>(*argument.array);
  in.interpolation = copy_from_caller<DycoreInterpolationState>(interpolation, sizes, what, dev,
                                                                false, MissingArrays::Empty);
  in.interpolation.rbf_vec_coeff_e = rbf_vec_coeff_e;
  // rbf_vec_coeff_v: checked; the programs of solve_nh do not read it (the diffusion does).

  in.edges = grid.dycore_edges;
  in.cells.cell_area = grid.cells.cell_area;
  in.cells.c_owner_mask = mask_field(a.c_owner_mask, "c_owner_mask", cells, dev);
  in.cells.mask_prog_halo_c = mask_field(a.mask_prog_halo_c, "mask_prog_halo_c", cells, dev);

  // Values: finite on the points (ICON's padding rows are never read).
  DycoreMetricState<M>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if constexpr (std::is_floating_point_v<typename std::decay_t<decltype(view)>::value_type>)
          check_finite(
              view, f,
              metric_arrays.count(spec.name) ? metric_arrays.at(spec.name).name : spec.name);
      },
      in.metric);
  DycoreInterpolationState<M>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) { check_finite(view, f, spec.name); },
      in.interpolation);

  share_static_fields(grid, in.metric);
  share_static_fields(grid, in.interpolation);
  share_static_fields(grid, in.cells);

  SolveNonhydroOptions<Space> options;
  options.exchange = std::move(exchange);
  try {
    handle->granule =
        std::make_unique<SolveNonhydro<Space>>(config, in, grid.vertical.vct_a, options);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", f, e.what()));
  } catch (const Error& e) {
    throw InvalidArgument(fmt::format("{}: {}", f, e.what()));
  }
  handle->inputs = in;
  return handle.release();
}

void check_solve_nh_run_arguments(const icondiff_solve_nh& s, const icondiff_solve_nh_run_args& a) {
  const char* f = solve_nh_run_name;
  check_alive(&s, f);
  if ((a.on_gpu != 0) != s.on_gpu) check_memory(f, a.on_gpu != 0);
  const FieldSizes sizes = s.inputs.sizes();
  const auto check_state = [&](const auto& specs, const auto& arguments) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const FieldSpec& spec = specs[i];
      const icondiff_array& x = a.*(arguments[i]->member);
      if (spec.presence == Presence::IfAvailable && std::strstr(spec.name, "iau") != nullptr &&
          x.data == nullptr && x.size[0] != -1)
        continue;  // an absent IAU increment: ICON4Py's zeros
      check_field_array(x, f, arguments[i]->name, spec, sizes);
    }
  };
  check_state(SolveNhPrognosticState<M>::field_specs(), state_arguments<SolveNhPrognosticState>(0));
  check_state(SolveNhPrognosticState<M>::field_specs(), state_arguments<SolveNhPrognosticState>(1));
  check_state(SolveNhDiagnosticState<M>::field_specs(), state_arguments<SolveNhDiagnosticState>(0));
  check_state(SolveNhPrepAdvection<M>::field_specs(), state_arguments<SolveNhPrepAdvection>(0));
  check_array(a.max_vcfl_size1_array, f, "max_vcfl_size1_array", {exactly(1, "1")});
  if (!(a.dtime > 0.0) || !std::isfinite(a.dtime))
    throw InvalidArgument(
        fmt::format("{}: dtime = {} must be a positive finite number", f, a.dtime));
  if (a.ndyn_substeps_var < 1)
    throw InvalidArgument(
        fmt::format("{}: ndyn_substeps_var = {} must be at least 1", f, a.ndyn_substeps_var));
  if (a.idyn_timestep < 1 || a.idyn_timestep > a.ndyn_substeps_var)
    throw InvalidArgument(
        fmt::format("{}: idyn_timestep = {} is not a substep 1..{} "
                    "(ndyn_substeps_var)",
                    f, a.idyn_timestep, a.ndyn_substeps_var));
  // A named array, not a braced list: nvcc 11.8 cannot deduce the range of the latter.
  const std::pair<const char*, double> finite_scalars[] = {{"divdamp_fac_o2", a.divdamp_fac_o2},
                                                           {"iau_wgt_dyn", a.iau_wgt_dyn}};
  for (const auto& [name, value] : finite_scalars)
    if (!std::isfinite(value))
      throw InvalidArgument(fmt::format("{}: {} = {} is not finite", f, name, value));
  if (a.is_iau_active && !s.config.iau_init)
    throw ConfigError(
        fmt::format("{}: is_iau_active is set, but solve_nh_init was given iau_init = false", f));
  if (a.is_iau_active &&
      (a.vn_incr.data == nullptr || a.rho_incr.data == nullptr || a.exner_incr.data == nullptr))
    throw InvalidArgument(
        fmt::format("{}: is_iau_active is set, but vn_incr, rho_incr or exner_incr is absent", f));
  check_no_overlap(a);
}

void run_solve_nh(icondiff_solve_nh& s, const icondiff_solve_nh_run_args& a) {
  check_solve_nh_run_on_every_rank(s, a);
  static const std::string wait_label = "icondiff::capi::solve_nh_run::caller_queues";
  wait_for_caller_queues(wait_label);
  const FieldSizes sizes = s.inputs.sizes();
  bind(s.caller_now, a, sizes, 0);
  bind(s.caller_next, a, sizes, 1);
  bind(s.caller_diagnostic, a, sizes, 0);
  bind(s.caller_prep_adv, a, sizes, 0);
  const auto& now = s.caller_now.fields();
  const auto& next = s.caller_next.fields();
  auto& diagnostic = s.caller_diagnostic.fields();
  const auto& prep_adv = s.caller_prep_adv.fields();
  // A host array in ICON4Py's bindings (never behind host_data).
  auto* max_vcfl = static_cast<double*>(a.max_vcfl_size1_array.data);
  diagnostic.max_vertical_cfl = *max_vcfl;

  SolveNhStep step;
  step.second_order_divdamp_factor = a.divdamp_fac_o2;
  step.dtime = a.dtime;
  step.ndyn_substeps_var = a.ndyn_substeps_var;
  step.at_initial_timestep = a.at_initial_timestep != 0;
  step.lprep_adv = a.lprep_adv != 0;
  step.at_first_substep = a.idyn_timestep == 1;  // ICON's 1-based substep, as ICON4Py reads it
  step.at_last_substep = a.idyn_timestep == a.ndyn_substeps_var;
  step.is_iau_active = a.is_iau_active != 0;
  step.iau_wgt_dyn = a.iau_wgt_dyn;

  static const std::string fence_label = "icondiff::capi::solve_nh_run";
  const Space space;
  // In icondiff's level-fastest layout the arrays are converted in and, for what a substep
  // writes (the new state, the diagnostics, the advection fields), back out; in ICON's layout
  // these do nothing.
  s.caller_now.copy_in(space);
  s.caller_next.copy_in(space);
  s.caller_diagnostic.copy_in(space);
  s.caller_prep_adv.copy_in(space);
  s.granule->time_step(space, diagnostic, now, next, prep_adv, step);
  s.caller_next.copy_out(space);
  s.caller_diagnostic.copy_out(space);
  s.caller_prep_adv.copy_out(space);
  compat::fence(space, fence_label);
  *max_vcfl = diagnostic.max_vertical_cfl;
  ++s.calls;
}

}  // namespace icondiff::capi
