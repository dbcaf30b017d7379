// The field lists (core/field_spec.hpp) and the operations that loop over them
// (core/state_ops.hpp, core/view_copy.hpp): every state struct declares the members its list
// names, in list order, with the extents the list gives; check_state_extents, allocate_state,
// copy_state and wrap_external_state do what their contracts say. Expectations are written out
// by hand here (member names, member addresses, extents), never taken from the lists themselves.
#include "support/expect_error.hpp"
#include "support/field_layout_skip.hpp"

#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/savepoint_file.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff {
namespace field_lists_test {

using M = Kokkos::HostSpace;

/// Distinct sizes, so a field with the wrong location or level count cannot pass by accident.
const FieldSizes sizes{11, 17, 7, 5};

/// A member's name and address, written out by hand: the independent expectation for the list.
using Members = std::vector<std::pair<std::string, const void*>>;
#define MEMBER(state, name) \
  { #name, static_cast < const void*>(&(state).name) }

Members members(const DiffusionPrognosticState<M>& s) {
  return {MEMBER(s, vn), MEMBER(s, w), MEMBER(s, theta_v), MEMBER(s, exner)};
}
Members members(const DiffusionDiagnosticState<M>& s) {
  return {MEMBER(s, hdef_ic), MEMBER(s, div_ic), MEMBER(s, dwdx), MEMBER(s, dwdy)};
}
Members members(const DiffusionMetricState<M>& s) {
  return {MEMBER(s, theta_ref_mc), MEMBER(s, wgtfac_c), MEMBER(s, zd_vertoffset),
          MEMBER(s, zd_diffcoef), MEMBER(s, zd_intcoef)};
}
Members members(const DiffusionInterpolationState<M>& s) {
  return {MEMBER(s, e_bln_c_s),    MEMBER(s, rbf_coeff_1), MEMBER(s, rbf_coeff_2),
          MEMBER(s, geofac_div),   MEMBER(s, geofac_n2s),  MEMBER(s, geofac_grg_x),
          MEMBER(s, geofac_grg_y), MEMBER(s, nudgecoeff_e)};
}
Members members(const DiffusionEdgeParams<M>& s) {
  return {MEMBER(s, tangent_orientation),
          MEMBER(s, inverse_primal_edge_lengths),
          MEMBER(s, inverse_vertex_vertex_lengths),
          MEMBER(s, inverse_dual_edge_lengths),
          MEMBER(s, edge_areas),
          MEMBER(s, primal_normal_vert_x),
          MEMBER(s, primal_normal_vert_y),
          MEMBER(s, dual_normal_vert_x),
          MEMBER(s, dual_normal_vert_y)};
}
Members members(const DiffusionCellParams<M>& s) {
  return {MEMBER(s, cell_area)};
}
template <class G>
Members grid_members(const G& s) {
  return {MEMBER(s, c2e),
          MEMBER(s, c2v),
          MEMBER(s, c2e2c),
          MEMBER(s, e2c),
          MEMBER(s, e2v),
          MEMBER(s, v2e),
          MEMBER(s, v2c),
          MEMBER(s, c2e2co),
          MEMBER(s, e2c2v),
          MEMBER(s, e2c2e),
          MEMBER(s, e2c2eo),
          MEMBER(s, cell_lon),
          MEMBER(s, cell_lat),
          MEMBER(s, edge_lon),
          MEMBER(s, edge_lat),
          MEMBER(s, vertex_lon),
          MEMBER(s, vertex_lat),
          MEMBER(s, cell_area),
          MEMBER(s, dual_area),
          MEMBER(s, edge_length),
          MEMBER(s, dual_edge_length),
          MEMBER(s, edge_cell_distance),
          MEMBER(s, edge_vertex_distance),
          MEMBER(s, primal_normal_east),
          MEMBER(s, primal_normal_north),
          MEMBER(s, dual_normal_east),
          MEMBER(s, dual_normal_north),
          MEMBER(s, tangent_orientation),
          MEMBER(s, cell_edge_orientation),
          MEMBER(s, vertex_edge_orientation),
          MEMBER(s, cell_global_index),
          MEMBER(s, edge_global_index),
          MEMBER(s, vertex_global_index),
          MEMBER(s, cell_owner_rank),
          MEMBER(s, edge_owner_rank),
          MEMBER(s, vertex_owner_rank)};
}
Members members(const DeviceGrid<M>& s) {
  return grid_members(s);
}
#undef MEMBER

/// The list of State against the hand-written members: count, unique names, visiting order,
/// visited View == member (by address), View rank == spec rank, on one and on two structs.
template <class State>
void expect_list_matches_members(const char* what) {
  SCOPED_TRACE(what);
  State a, b;
  const Members expected_a = members(a);
  const Members expected_b = members(b);
  const auto& specs = State::field_specs();

  EXPECT_EQ(static_cast<std::size_t>(State::num_fields), specs.size());
  EXPECT_EQ(static_cast<std::size_t>(State::num_fields), expected_a.size())
      << "the list and the hand-written member list differ in length";

  std::set<std::string> names;
  for (const auto& spec : specs)
    EXPECT_TRUE(names.insert(spec.name).second) << "field name '" << spec.name << "' repeated";

  // One struct: order, identity, rank.
  std::size_t i = 0;
  State::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        using V = std::decay_t<decltype(view)>;
        ASSERT_LT(i, expected_a.size()) << "for_each_field visits more fields than declared";
        EXPECT_EQ(std::string(spec.name), expected_a[i].first) << "visit " << i;
        EXPECT_EQ(static_cast<const void*>(&view), expected_a[i].second)
            << "for_each_field passed a View that is not the member '" << expected_a[i].first
            << "'";
        EXPECT_EQ(std::string(spec.name), std::string(specs[i].name)) << "visit " << i;
        EXPECT_EQ(static_cast<int>(V::rank), spec.rank()) << spec.name;
        ++i;
      },
      a);
  EXPECT_EQ(i, expected_a.size()) << "for_each_field visited " << i << " fields";

  // Two structs: the same member of each, side by side.
  i = 0;
  State::for_each_field(
      [&](const FieldSpec& spec, auto& va, auto& vb) {
        ASSERT_LT(i, expected_a.size());
        EXPECT_EQ(static_cast<const void*>(&va), expected_a[i].second) << spec.name;
        EXPECT_EQ(static_cast<const void*>(&vb), expected_b[i].second) << spec.name;
        ++i;
      },
      a, b);
  EXPECT_EQ(i, expected_a.size());
}

TEST(field_lists, every_list_names_its_members_in_order) {
  expect_list_matches_members<DiffusionPrognosticState<M>>("DiffusionPrognosticState");
  expect_list_matches_members<DiffusionDiagnosticState<M>>("DiffusionDiagnosticState");
  expect_list_matches_members<DiffusionMetricState<M>>("DiffusionMetricState");
  expect_list_matches_members<DiffusionInterpolationState<M>>("DiffusionInterpolationState");
  expect_list_matches_members<DiffusionEdgeParams<M>>("DiffusionEdgeParams");
  expect_list_matches_members<DiffusionCellParams<M>>("DiffusionCellParams");
  expect_list_matches_members<DeviceGrid<M>>("DeviceGrid");
}

TEST(field_lists, host_grid_and_device_grid_share_one_list) {
  Grid host;
  DeviceGrid<M> device;
  const Members expected_host = grid_members(host);
  const Members expected_device = grid_members(device);
  ASSERT_EQ(static_cast<std::size_t>(Grid::num_fields), expected_host.size());
  ASSERT_EQ(Grid::num_fields, DeviceGrid<M>::num_fields);
  std::size_t i = 0;
  DeviceGrid<M>::for_each_field(
      [&](const FieldSpec& spec, auto& d, auto& h) {
        ASSERT_LT(i, expected_host.size());
        EXPECT_EQ(std::string(spec.name), expected_host[i].first);
        EXPECT_EQ(static_cast<const void*>(&d), expected_device[i].second) << spec.name;
        EXPECT_EQ(static_cast<const void*>(&h), expected_host[i].second) << spec.name;
        ++i;
      },
      device, host);
  EXPECT_EQ(i, expected_host.size());
}

/// The spec of field `name` of State (fails the test if there is none).
template <class State>
FieldSpec spec_of(const std::string& name) {
  for (const auto& spec : State::field_specs())
    if (name == spec.name) return spec;
  ADD_FAILURE() << "no field named " << name;
  return State::field_specs()[0];
}

using Extents = std::vector<std::size_t>;

TEST(field_lists, extents_of_hand_checked_fields) {
  // sizes: 11 cells, 17 edges, 7 vertices, 5 levels.
  EXPECT_EQ(field_extents(spec_of<DiffusionPrognosticState<M>>("vn"), sizes), (Extents{17, 5}));
  EXPECT_EQ(field_extents(spec_of<DiffusionPrognosticState<M>>("w"), sizes), (Extents{11, 6}));
  EXPECT_EQ(field_extents(spec_of<DiffusionPrognosticState<M>>("theta_v"), sizes),
            (Extents{11, 5}));
  EXPECT_EQ(field_extents(spec_of<DiffusionDiagnosticState<M>>("div_ic"), sizes), (Extents{11, 6}));
  EXPECT_EQ(field_extents(spec_of<DiffusionMetricState<M>>("zd_intcoef"), sizes),
            (Extents{11, 3, 5}));
  EXPECT_EQ(field_extents(spec_of<DiffusionMetricState<M>>("zd_vertoffset"), sizes),
            (Extents{11, 3, 5}));
  EXPECT_EQ(field_extents(spec_of<DiffusionMetricState<M>>("wgtfac_c"), sizes), (Extents{11, 6}));
  EXPECT_EQ(field_extents(spec_of<DiffusionInterpolationState<M>>("rbf_coeff_1"), sizes),
            (Extents{7, 6}));
  EXPECT_EQ(field_extents(spec_of<DiffusionInterpolationState<M>>("geofac_n2s"), sizes),
            (Extents{11, 4}));
  EXPECT_EQ(field_extents(spec_of<DiffusionInterpolationState<M>>("e_bln_c_s"), sizes),
            (Extents{11, 3}));
  EXPECT_EQ(field_extents(spec_of<DiffusionInterpolationState<M>>("nudgecoeff_e"), sizes),
            (Extents{17}));
  EXPECT_EQ(field_extents(spec_of<DiffusionEdgeParams<M>>("primal_normal_vert_x"), sizes),
            (Extents{17, 4}));
  EXPECT_EQ(field_extents(spec_of<DiffusionCellParams<M>>("cell_area"), sizes), (Extents{11}));
  EXPECT_EQ(field_extents(spec_of<DeviceGrid<M>>("cell_area"), sizes), (Extents{11}));
  EXPECT_EQ(field_extents(spec_of<DeviceGrid<M>>("e2c2eo"), sizes), (Extents{17, 5}));
  EXPECT_EQ(field_extents(spec_of<DeviceGrid<M>>("v2c"), sizes), (Extents{7, 6}));
  EXPECT_EQ(field_extents(spec_of<DeviceGrid<M>>("c2e2co"), sizes), (Extents{11, 4}));
  EXPECT_EQ(field_extents(spec_of<DeviceGrid<M>>("dual_area"), sizes), (Extents{7}));

  // Presence and levels as the documentation gives them.
  EXPECT_EQ(spec_of<DiffusionMetricState<M>>("zd_intcoef").presence, Presence::ZDiffusion);
  EXPECT_EQ(spec_of<DiffusionMetricState<M>>("theta_ref_mc").presence, Presence::Required);
  EXPECT_EQ(spec_of<DiffusionPrognosticState<M>>("w").levels, Levels::Half);
  EXPECT_EQ(spec_of<DeviceGrid<M>>("cell_lon").presence, Presence::IfAvailable);
  EXPECT_EQ(spec_of<DeviceGrid<M>>("c2e").presence, Presence::Required);
}

// ---- Expect a throw with a message that names the problem -------------------------------------

using test::expect_throw_naming;

// ---- allocate_state / check_state_extents ------------------------------------------------------

/// Every field of `state` is (non-)empty as expected, has the extents hand-derived from `sizes`
/// (via field_extents, checked above), label "<scope><name>" and zero values.
template <class State>
void expect_allocated(const State& state, const std::string& scope, bool zd_present) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        const bool expect_empty = spec.presence == Presence::ZDiffusion && !zd_present;
        if (expect_empty) {
          EXPECT_EQ(view.size(), 0u) << spec.name << " should not be allocated";
          return;
        }
        EXPECT_EQ(view_extents(view), field_extents(spec, sizes)) << spec.name;
        EXPECT_EQ(view.label(), scope + spec.name);
        for (std::size_t i = 0; i < view.span(); ++i)
          if (view.data()[i] != 0) {
            ADD_FAILURE() << spec.name << " not zero-initialised at " << i;
            break;
          }
      },
      state);
}

TEST(state_ops, allocate_state_gives_extents_and_passes_the_check) {
  const auto prognostic = allocate_state<DiffusionPrognosticState, M>(sizes, "t::");
  const auto diagnostic = allocate_state<DiffusionDiagnosticState, M>(sizes, "t::");
  const auto metric = allocate_state<DiffusionMetricState, M>(sizes, "t::");
  const auto metric_no_zd = allocate_state<DiffusionMetricState, M>(sizes, "t::", false);
  const auto interpolation = allocate_state<DiffusionInterpolationState, M>(sizes, "t::");
  const auto edges = allocate_state<DiffusionEdgeParams, M>(sizes, "t::");
  const auto cells = allocate_state<DiffusionCellParams, M>(sizes, "t::");
  expect_allocated(prognostic, "t::", true);
  expect_allocated(diagnostic, "t::", true);
  expect_allocated(metric, "t::", true);
  expect_allocated(metric_no_zd, "t::", false);
  expect_allocated(interpolation, "t::", true);
  expect_allocated(edges, "t::", true);
  expect_allocated(cells, "t::", true);
  // Hand-checked members.
  EXPECT_EQ(prognostic.w.extent(0), 11u);
  EXPECT_EQ(prognostic.w.extent(1), 6u);
  EXPECT_EQ(metric.zd_intcoef.extent(1), 3u);
  EXPECT_EQ(interpolation.rbf_coeff_2.extent(0), 7u);

  EXPECT_NO_THROW(check_state_extents(prognostic, sizes, "prognostic"));
  EXPECT_NO_THROW(check_state_extents(diagnostic, sizes, "diagnostic"));
  EXPECT_NO_THROW(check_state_extents(metric, sizes, "metric"));
  EXPECT_NO_THROW(check_state_extents(metric, sizes, "metric", false));
  EXPECT_NO_THROW(check_state_extents(metric_no_zd, sizes, "metric", false));
  EXPECT_NO_THROW(check_state_extents(interpolation, sizes, "interpolation"));
  EXPECT_NO_THROW(check_state_extents(edges, sizes, "edges"));
  EXPECT_NO_THROW(check_state_extents(cells, sizes, "cells"));
}

TEST(state_ops, check_state_extents_names_struct_field_and_extents) {
  auto prognostic = allocate_state<DiffusionPrognosticState, M>(sizes, "t::");
  // One point too many.
  prognostic.vn = decltype(prognostic.vn)("vn", 18, 5);
  expect_throw_naming<InvalidArgument>(
      [&] { check_state_extents(prognostic, sizes, "my prognostic"); },
      {"my prognostic", "vn", "(18, 5)", "(17, 5)"}, "vn with 18 edges");
  // Full levels where half levels are expected.
  prognostic = allocate_state<DiffusionPrognosticState, M>(sizes, "t::");
  prognostic.w = decltype(prognostic.w)("w", 11, 5);
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(prognostic, sizes, "prog"); },
                                       {"prog", " w ", "(11, 5)", "(11, 6)"}, "w on full levels");
  // A required field left empty.
  prognostic = allocate_state<DiffusionPrognosticState, M>(sizes, "t::");
  prognostic.exner = {};
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(prognostic, sizes, "prog"); },
                                       {"prog", "exner", "no data", "(11, 5)"}, "empty exner");
  // The right extents but no data.
  prognostic = allocate_state<DiffusionPrognosticState, M>(sizes, "t::");
  prognostic.theta_v = decltype(prognostic.theta_v)(
      Kokkos::View<double**, FieldLayout, M, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(nullptr, 11,
                                                                                      5));
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(prognostic, sizes, "prog"); },
                                       {"prog", "theta_v", "no data"}, "theta_v without data");
  // A slot count off in a 3-D field.
  auto metric = allocate_state<DiffusionMetricState, M>(sizes, "t::");
  metric.zd_intcoef = decltype(metric.zd_intcoef)("zd_intcoef", 11, 4, 5);
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(metric, sizes, "metric"); },
                                       {"metric", "zd_intcoef", "(11, 4, 5)", "(11, 3, 5)"},
                                       "zd_intcoef with 4 slots");
  // A wrong-sized 2-D coefficient table.
  auto interpolation = allocate_state<DiffusionInterpolationState, M>(sizes, "t::");
  interpolation.rbf_coeff_1 = decltype(interpolation.rbf_coeff_1)("rbf", 7, 5);
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(interpolation, sizes, "interp"); },
                                       {"interp", "rbf_coeff_1", "(7, 5)", "(7, 6)"},
                                       "rbf_coeff_1 with 5 slots");
}

TEST(state_ops, zdiffusion_fields_may_be_empty_only_without_zdiffusion) {
  auto metric = allocate_state<DiffusionMetricState, M>(sizes, "t::");
  metric.zd_intcoef = {};
  EXPECT_NO_THROW(check_state_extents(metric, sizes, "metric", false));
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(metric, sizes, "metric", true); },
                                       {"metric", "zd_intcoef", "(11, 3, 5)"},
                                       "empty zd_intcoef with zdiffusion");
  // A present ZDiffusion field must still be right.
  metric = allocate_state<DiffusionMetricState, M>(sizes, "t::");
  metric.zd_diffcoef = decltype(metric.zd_diffcoef)("zd_diffcoef", 11, 4);
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(metric, sizes, "metric", false); },
                                       {"zd_diffcoef", "(11, 4)", "(11, 5)"},
                                       "wrong zd_diffcoef without zdiffusion");
  // Required fields stay required without zdiffusion.
  metric = allocate_state<DiffusionMetricState, M>(sizes, "t::", false);
  metric.theta_ref_mc = {};
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(metric, sizes, "metric", false); },
                                       {"theta_ref_mc"}, "empty theta_ref_mc");
}

TEST(state_ops, if_available_fields_may_be_empty) {
  const Grid grid = load_grid_source("generate:R2B0");
  DeviceGrid<M> device(grid);
  const FieldSizes grid_sizes = device.sizes();
  EXPECT_NO_THROW(check_state_extents(device, grid_sizes, "grid"));
  ASSERT_GT(device.cell_lon.size(), 0u) << "the generated grid should have geometry";
  device.cell_lon = {};
  device.vertex_edge_orientation = {};
  device.cell_global_index = {};
  EXPECT_NO_THROW(check_state_extents(device, grid_sizes, "grid"));
  // Present IfAvailable fields must have the right extents.
  device.dual_area = decltype(device.dual_area)(
      Kokkos::View<double*, FieldLayout, M>("dual_area", grid.num_vertices + 1));
  expect_throw_naming<InvalidArgument>(
      [&] { check_state_extents(device, grid_sizes, "grid"); },
      {"grid", "dual_area", "(" + std::to_string(grid.num_vertices + 1) + ")"}, "dual_area");
  // Required tables are never optional.
  device = DeviceGrid<M>(grid);
  device.e2c2v = {};
  expect_throw_naming<InvalidArgument>([&] { check_state_extents(device, grid_sizes, "grid"); },
                                       {"grid", "e2c2v"}, "empty e2c2v");
}

// ---- copy_state
// ----------------------------------------------------------------------------------

template <class View>
void fill_pattern(const View& v, double offset) {
  static_assert(View::rank == 2, "prognostic fields are (points, levels)");
  // offset + the element's position in ICON's order (point fastest), whatever the FieldLayout.
  for (std::size_t k = 0; k < v.extent(1); ++k)
    for (std::size_t i = 0; i < v.extent(0); ++i)
      v(i, k) =
          static_cast<typename View::value_type>(offset + static_cast<double>(k * v.extent(0) + i));
}

TEST(state_ops, copy_state_is_a_deep_copy_with_labels) {
  auto source = allocate_state<DiffusionPrognosticState, M>(sizes, "src::");
  fill_pattern(source.vn, 1000);
  fill_pattern(source.w, 2000);
  fill_pattern(source.theta_v, 3000);
  fill_pattern(source.exner, 4000);
  const auto copy = copy_state<M>(source, "copy::");

  EXPECT_EQ(copy.vn.label(), "copy::vn");
  EXPECT_EQ(copy.w.label(), "copy::w");
  EXPECT_EQ(copy.theta_v.label(), "copy::theta_v");
  EXPECT_EQ(copy.exner.label(), "copy::exner");
  EXPECT_NE(copy.vn.data(), source.vn.data());
  EXPECT_NE(copy.w.data(), source.w.data());
  EXPECT_EQ(view_extents(copy.w), (Extents{11, 6}));
  EXPECT_EQ(view_extents(copy.vn), (Extents{17, 5}));

  // Change the source afterwards: the copy keeps the old values.
  Kokkos::deep_copy(source.vn, -1.0);
  Kokkos::deep_copy(source.w, -1.0);
  Kokkos::deep_copy(source.theta_v, -1.0);
  Kokkos::deep_copy(source.exner, -1.0);
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t e = 0; e < 17; ++e)
      ASSERT_EQ(copy.vn(e, k), 1000.0 + static_cast<double>(k * 17 + e)) << e << "," << k;
  for (std::size_t k = 0; k < 6; ++k)
    for (std::size_t c = 0; c < 11; ++c)
      ASSERT_EQ(copy.w(c, k), 2000.0 + static_cast<double>(k * 11 + c)) << c << "," << k;
  EXPECT_EQ(copy.exner(10, 4), 4000.0 + 4 * 11 + 10);
  EXPECT_EQ(copy.theta_v(0, 0), 3000.0);

  // Empty stays empty (zd fields of a metric without zdiffusion).
  const auto metric = allocate_state<DiffusionMetricState, M>(sizes, "src::", false);
  const auto metric_copy = copy_state<M>(metric, "copy::");
  EXPECT_EQ(metric_copy.zd_intcoef.size(), 0u);
  EXPECT_EQ(metric_copy.zd_intcoef.data(), nullptr);
  EXPECT_EQ(view_extents(metric_copy.theta_ref_mc), (Extents{11, 5}));
  EXPECT_EQ(metric_copy.theta_ref_mc.label(), "copy::theta_ref_mc");
}

// ---- wrap_external_state
// --------------------------------------------------------------------------

/// External host arrays for the prognostic state: vn with leading dimension 17 + 3, w and theta_v
/// with 11 + 4, exner with leading dimension 0 (= points).
struct ExternalPrognostic {
  std::vector<double> vn = std::vector<double>(20 * 5);
  std::vector<double> w = std::vector<double>(15 * 6);
  std::vector<double> theta_v = std::vector<double>(15 * 5);
  std::vector<double> exner = std::vector<double>(11 * 5);
  ExternalPrognostic() {
    for (std::size_t i = 0; i < vn.size(); ++i) vn[i] = 0.5 + i;
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = 100.5 + i;
    for (std::size_t i = 0; i < theta_v.size(); ++i) theta_v[i] = 200.5 + i;
    for (std::size_t i = 0; i < exner.size(); ++i) exner[i] = 300.5 + i;
  }
  std::map<std::string, ExternalArray> arrays() const {
    return {{"vn", {vn.data(), 20, sizeof(double)}},
            {"w", {w.data(), 15, sizeof(double)}},
            {"theta_v", {theta_v.data(), 15, sizeof(double)}},
            {"exner", {exner.data(), 0, sizeof(double)}}};
  }
};

TEST(state_ops, wrap_external_state_does_not_copy) {
  ICONDIFF_SKIP_UNLESS_ICONS_FIELD_LAYOUT();
  ExternalPrognostic ext;
  const auto s = wrap_external_state<DiffusionPrognosticState, M>(ext.arrays(), sizes, "prog");
  EXPECT_EQ(s.vn.data(), ext.vn.data());
  EXPECT_EQ(s.w.data(), ext.w.data());
  EXPECT_EQ(s.theta_v.data(), ext.theta_v.data());
  EXPECT_EQ(s.exner.data(), ext.exner.data());
  EXPECT_EQ(view_extents(s.vn), (Extents{17, 5}));
  EXPECT_EQ(view_extents(s.w), (Extents{11, 6}));
  EXPECT_EQ(view_extents(s.exner), (Extents{11, 5}));
  EXPECT_EQ(s.vn.stride(1), 20u);
  EXPECT_EQ(s.w.stride(1), 15u);
  EXPECT_EQ(s.exner.stride(1), 11u);
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t e = 0; e < 17; ++e) ASSERT_EQ(s.vn(e, k), ext.vn[k * 20 + e]);
  for (std::size_t k = 0; k < 6; ++k)
    for (std::size_t c = 0; c < 11; ++c) ASSERT_EQ(s.w(c, k), ext.w[k * 15 + c]);
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t c = 0; c < 11; ++c) ASSERT_EQ(s.exner(c, k), ext.exner[k * 11 + c]);
  EXPECT_NO_THROW(check_state_extents(s, sizes, "prog"));
  // Writes go to the caller's memory.
  s.w(3, 2) = -7.0;
  EXPECT_EQ(ext.w[2 * 15 + 3], -7.0);

  // 3-D dense fields, an int field and leading dimensions on 2-D metric fields.
  std::vector<double> theta_ref(12 * 5), wgtfac(11 * 6), diffcoef(11 * 5), intcoef(11 * 3 * 5);
  std::vector<int> vertoffset(11 * 3 * 5);
  for (std::size_t i = 0; i < intcoef.size(); ++i) {
    intcoef[i] = 0.25 * i;
    vertoffset[i] = static_cast<int>(i);
  }
  const auto metric = wrap_external_state<DiffusionMetricState, M>(
      {{"theta_ref_mc", {theta_ref.data(), 12, sizeof(vp)}},
       {"wgtfac_c", {wgtfac.data(), 11, sizeof(vp)}},
       {"zd_vertoffset", {vertoffset.data(), 11, sizeof(int)}},
       {"zd_diffcoef", {diffcoef.data(), 11, sizeof(double)}},
       {"zd_intcoef", {intcoef.data(), 11, sizeof(double)}}},
      sizes, "metric");
  EXPECT_EQ(static_cast<const void*>(metric.theta_ref_mc.data()), theta_ref.data());
  EXPECT_EQ(static_cast<const void*>(metric.zd_intcoef.data()), intcoef.data());
  EXPECT_EQ(metric.zd_vertoffset.data(), vertoffset.data());
  EXPECT_EQ(view_extents(metric.zd_intcoef), (Extents{11, 3, 5}));
  // (c, j, k) at (k * 3 + j) * 11 + c: Fortran order.
  EXPECT_EQ(metric.zd_intcoef(4, 2, 3), intcoef[(3 * 3 + 2) * 11 + 4]);
  EXPECT_EQ(metric.zd_vertoffset(10, 1, 4), vertoffset[(4 * 3 + 1) * 11 + 10]);
  EXPECT_NO_THROW(check_state_extents(metric, sizes, "metric"));

  // Without zdiffusion the zd arrays may be left out.
  const auto metric_no_zd = wrap_external_state<DiffusionMetricState, M>(
      {{"theta_ref_mc", {theta_ref.data(), 11, sizeof(vp)}},
       {"wgtfac_c", {wgtfac.data(), 11, sizeof(vp)}}},
      sizes, "metric", false);
  EXPECT_EQ(metric_no_zd.zd_intcoef.size(), 0u);
  EXPECT_NO_THROW(check_state_extents(metric_no_zd, sizes, "metric", false));
}

TEST(state_ops, copy_state_of_padded_external_memory) {
  ICONDIFF_SKIP_UNLESS_ICONS_FIELD_LAYOUT();
  ExternalPrognostic ext;
  const auto s = wrap_external_state<DiffusionPrognosticState, M>(ext.arrays(), sizes, "prog");
  const auto copy = copy_state<M>(s, "copy::");
  EXPECT_NE(copy.vn.data(), ext.vn.data());
  EXPECT_TRUE(copy.vn.span_is_contiguous());
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t e = 0; e < 17; ++e) ASSERT_EQ(copy.vn(e, k), ext.vn[k * 20 + e]);
  for (std::size_t k = 0; k < 6; ++k)
    for (std::size_t c = 0; c < 11; ++c) ASSERT_EQ(copy.w(c, k), ext.w[k * 15 + c]);
}

// ExternalState: the C API's boundary, in this build's layout (zero copy in ICON's, converted
// copies otherwise); every expectation holds in both.
TEST(state_ops, external_state_binds_converts_and_writes_back) {
  ExternalPrognostic ext;
  const std::vector<double> w_before = ext.w;
  ExternalState<DiffusionPrognosticState, Kokkos::DefaultHostExecutionSpace> bound;
  bound.bind(ext.arrays(), sizes, "prog");
  const Kokkos::DefaultHostExecutionSpace space;
  bound.copy_in(space);
  space.fence();
  const auto& s = bound.fields();
  EXPECT_EQ(view_extents(s.vn), (Extents{17, 5}));
  EXPECT_EQ(view_extents(s.w), (Extents{11, 6}));
  EXPECT_EQ(s.vn.data() == ext.vn.data(), field_layout_is_icons) << "zero copy in ICON's layout";
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t e = 0; e < 17; ++e) ASSERT_EQ(s.vn(e, k), ext.vn[k * 20 + e]);
  for (std::size_t k = 0; k < 6; ++k)
    for (std::size_t c = 0; c < 11; ++c) ASSERT_EQ(s.w(c, k), ext.w[k * 15 + c]);
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t c = 0; c < 11; ++c) ASSERT_EQ(s.exner(c, k), ext.exner[k * 11 + c]);
  // A write to a field reaches the caller's array after copy_out, and only its element: the
  // padding rows (points 11..14 of w's leading dimension 15) stay as they were.
  s.w(3, 2) = -7.0;
  bound.copy_out(space);
  space.fence();
  for (std::size_t i = 0; i < ext.w.size(); ++i)
    ASSERT_EQ(ext.w[i], i == 2 * 15 + 3 ? -7.0 : w_before[i]) << "w element " << i;
  // A second bind with the same extents keeps the fields' storage (no allocation per call).
  const double* vn_storage = s.vn.data();
  ExternalPrognostic other;
  bound.bind(other.arrays(), sizes, "prog");
  EXPECT_EQ(bound.fields().vn.data(), field_layout_is_icons ? other.vn.data() : vn_storage);
  bound.copy_in(space);
  space.fence();
  EXPECT_EQ(bound.fields().vn(16, 4), other.vn[4 * 20 + 16]);
}

TEST(state_ops, external_state_rejects_bad_arrays) {
  const auto wrap = [](const std::map<std::string, ExternalArray>& arrays) {
    return [arrays] {
      ExternalState<DiffusionPrognosticState, Kokkos::DefaultHostExecutionSpace> bound;
      bound.bind(arrays, sizes, "prog");
    };
  };
  ExternalPrognostic ext;
  {
    auto a = ext.arrays();
    a.erase("w");
    expect_throw_naming<InvalidArgument>(wrap(a), {"prog", " w ", "missing"}, "missing w");
  }
  {
    auto a = ext.arrays();
    a["vnn"] = a["vn"];
    expect_throw_naming<InvalidArgument>(wrap(a), {"prog", "'vnn'"}, "unknown name");
  }
  {
    auto a = ext.arrays();
    a["theta_v"].element_size = sizeof(float);
    expect_throw_naming<InvalidArgument>(wrap(a), {"prog", "theta_v", "4 bytes", "expected 8"},
                                         "float where double is expected");
  }
  {
    auto a = ext.arrays();
    a["exner"].data = nullptr;
    expect_throw_naming<InvalidArgument>(wrap(a), {"prog", "exner", "null pointer"},
                                         "null pointer");
  }
  {
    auto a = ext.arrays();
    a["vn"].leading_dimension = 16;
    expect_throw_naming<InvalidArgument>(wrap(a), {"prog", "vn", "leading dimension 16", "17"},
                                         "leading dimension < points");
  }
  {
    std::vector<double> intcoef(12 * 3 * 5), other(12 * 6);
    std::vector<int> vertoffset(11 * 3 * 5);
    const std::map<std::string, ExternalArray> a = {
        {"theta_ref_mc", {other.data(), 11, sizeof(vp)}},
        {"wgtfac_c", {other.data(), 11, sizeof(vp)}},
        {"zd_vertoffset", {vertoffset.data(), 11, sizeof(int)}},
        {"zd_diffcoef", {other.data(), 11, sizeof(double)}},
        {"zd_intcoef", {intcoef.data(), 12, sizeof(double)}}};
    const auto bind_metric = [](const std::map<std::string, ExternalArray>& arrays) {
      ExternalState<DiffusionMetricState, Kokkos::DefaultHostExecutionSpace> bound;
      bound.bind(arrays, sizes, "metric", true);
    };
    expect_throw_naming<InvalidArgument>([&] { bind_metric(a); }, {"metric", "zd_intcoef", "dense"},
                                         "padded 3-D field");
    auto b = a;
    b.erase("zd_vertoffset");
    b["zd_intcoef"].leading_dimension = 11;
    expect_throw_naming<InvalidArgument>([&] { bind_metric(b); },
                                         {"metric", "zd_vertoffset", "missing"},
                                         "missing zd field with zdiffusion");
    b["zd_vertoffset"] = {vertoffset.data(), 11, sizeof(double)};
    expect_throw_naming<InvalidArgument>([&] { bind_metric(b); },
                                         {"metric", "zd_vertoffset", "8 bytes", "expected 4"},
                                         "double for an int field");
  }
}

// With level-fastest fields foreign (points, levels) memory in ICON's layout cannot be wrapped
// without a copy: wrap_external refuses it with an error naming the field and the way that
// converts (ExternalState), never reading it transposed. 1-D arrays have no layout and still wrap.
TEST(state_ops, level_fastest_fields_refuse_to_wrap_icon_layout_memory) {
  if (field_layout_is_icons) GTEST_SKIP() << "this build has ICON's field layout";
  std::vector<double> memory(17 * 5, 1.0);
  test::expect_throw_naming<ConfigError>(
      [&] {
        (void)wrap_external<double, 2, M>("vn", memory.data(), {17, 5}, 17);
      },
      {"vn", "ExternalState"}, "rank-2 field");
  ExternalPrognostic ext;
  test::expect_throw_naming<ConfigError>(
      [&] { (void)wrap_external_state<DiffusionPrognosticState, M>(ext.arrays(), sizes, "prog"); },
      {"prog vn", "ExternalState"}, "a state");
  const auto profile = wrap_external<double, 1, M>("profile", memory.data(), {5}, 5);
  EXPECT_EQ(profile.data(), memory.data());
  EXPECT_TRUE((std::is_same_v<FieldLayout, Kokkos::LayoutRight>));
}

}  // namespace field_lists_test
}  // namespace icondiff
