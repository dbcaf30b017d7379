// solve_nh savepoints (include/icondiff/io/solve_nh_savepoint.hpp, docs/dev/savepoints.md):
// random savepoints written and read back bit-identically in every format, the file layout, the
// capture and mirror helpers, the exact comparison; the granule's substeps captured, written,
// read and replayed on a fresh granule bit for bit (a first and later substeps, global and
// limited-area grids), per-rank savepoints merged back onto the whole grid and replayed; every
// kind of bad file. The replay test also leaves savepoints for the CLI test
// (unit_tests/cli/test_cli_verify_solve_nh.sh) in <scratch>/solve_nh_savepoints.
// Random data come from a seeded RandomSource; the seed is printed (set ICONDIFF_TEST_SEED to
// reproduce a failure).
#include "support/grid_files.hpp"
#include "support/host_field.hpp"
#include "support/netcdf_edit.hpp"
#include "support/savepoint_test_support.hpp"
#include "support/solve_nh_case.hpp"
#include "support/test_grids.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/io/solve_nh_savepoint.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>

#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

namespace icondiff {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using H = Kokkos::HostSpace;

using test::bit_identical;
using test::octahedron;
using test::SeededTest;
using test::set_double;
using test::set_int;
using test::set_text;

// ---- Field-by-field identity ------------------------------------------------------------------

/// Calls f(variable, a's field, b's field) for every field of two savepoints (the metric
/// profiles included), named as in the file.
template <class F>
void for_each_field_pair(const SolveNhSavepoint& a, const SolveNhSavepoint& b, F&& f) {
  const auto named = [&f](const char* suffix) {
    return [&f, suffix](const FieldSpec& spec, const auto& x, const auto& y) {
      f(spec.name + std::string(suffix), x, y);
    };
  };
  SolveNhPrognosticState<H>::for_each_field(named("_now"), a.current, b.current);
  SolveNhPrognosticState<H>::for_each_field(named("_new"), a.next, b.next);
  SolveNhDiagnosticState<H>::for_each_field(named(""), a.diagnostic, b.diagnostic);
  SolveNhPrepAdvection<H>::for_each_field(named(""), a.prep_adv, b.prep_adv);
  DycoreMetricState<H>::for_each_field(named(""), a.inputs.metric, b.inputs.metric);
  f("scaling_factor_for_3d_divdamp", a.inputs.metric.scaling_factor_for_3d_divdamp,
    b.inputs.metric.scaling_factor_for_3d_divdamp);
  f("rayleigh_w", a.inputs.metric.rayleigh_w, b.inputs.metric.rayleigh_w);
  DycoreInterpolationState<H>::for_each_field(named(""), a.inputs.interpolation,
                                              b.inputs.interpolation);
  DycoreEdgeParams<H>::for_each_field(named(""), a.inputs.edges, b.inputs.edges);
  DycoreCellParams<H>::for_each_field(named(""), a.inputs.cells, b.inputs.cells);
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

void expect_same_step(const SolveNhStep& a, const SolveNhStep& b) {
#define ICONDIFF_EXPECT_STEP(name, type, default_value, meaning) \
  EXPECT_TRUE(same_bits(static_cast<double>(a.name), static_cast<double>(b.name))) << #name;
  ICONDIFF_SOLVE_NH_STEP_SCALARS(ICONDIFF_EXPECT_STEP)
#undef ICONDIFF_EXPECT_STEP
}

void expect_same_grid_reference(const SavepointGridReference& a, const SavepointGridReference& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.uuid, b.uuid);
  EXPECT_EQ(a.num_cells, b.num_cells);
  EXPECT_EQ(a.num_edges, b.num_edges);
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.limited_area, b.limited_area);
  for (int l = 0; l < 3; ++l) EXPECT_TRUE(a.zones[l] == b.zones[l]) << to_string(all_locations[l]);
}

/// Everything in `b` equals `a` bit for bit (fields, scalars, grid reference, metadata and
/// decomposition).
void expect_identical(const SolveNhSavepoint& a, const SolveNhSavepoint& b) {
  EXPECT_EQ(a.kind, b.kind);
  for (const auto& field : dycore_config_fields())
    EXPECT_TRUE(same_bits(field.get(a.config), field.get(b.config))) << field.name;
  expect_same_step(a.step, b.step);
  expect_same_grid_reference(a.grid, b.grid);
  EXPECT_EQ(a.vct_a, b.vct_a);
  EXPECT_EQ(a.inputs.nlev, b.inputs.nlev);
  EXPECT_EQ(a.inputs.nflatlev, b.inputs.nflatlev);
  EXPECT_EQ(a.inputs.nflat_gradp, b.inputs.nflat_gradp);
  EXPECT_EQ(a.inputs.end_index_of_damping_layer, b.inputs.end_index_of_damping_layer);
  EXPECT_EQ(a.inputs.kstart_moist, b.inputs.kstart_moist);
  EXPECT_TRUE(same_bits(a.inputs.mean_cell_area, b.inputs.mean_cell_area));
  EXPECT_TRUE(same_bits(a.diagnostic.max_vertical_cfl, b.diagnostic.max_vertical_cfl))
      << a.diagnostic.max_vertical_cfl << " vs " << b.diagnostic.max_vertical_cfl;
  EXPECT_EQ(a.metadata, b.metadata);
  ASSERT_EQ(a.decomposition.has_value(), b.decomposition.has_value());
  if (a.decomposition) {
    EXPECT_EQ(a.decomposition->rank, b.decomposition->rank);
    EXPECT_EQ(a.decomposition->num_ranks, b.decomposition->num_ranks);
    EXPECT_EQ(a.decomposition->global_size, b.decomposition->global_size);
    EXPECT_EQ(a.decomposition->global_index, b.decomposition->global_index);
    EXPECT_EQ(a.decomposition->owner_rank, b.decomposition->owner_rank);
  }
  for_each_field_pair(a, b, [&](const std::string& name, const auto& x, const auto& y) {
    EXPECT_TRUE(bit_identical(name, x, y));
  });
}

// ---- Random savepoints ------------------------------------------------------------------------

/// A configuration the granule accepts with every field away from its default where it may be.
DycoreConfig random_config(test::RandomSource& rng) {
  DycoreConfig c;
  const DivergenceDampingOrder orders[] = {DivergenceDampingOrder::SecondOrder,
                                           DivergenceDampingOrder::FourthOrder,
                                           DivergenceDampingOrder::Combined};
  c.divdamp_order = orders[rng.integer(0, 2)];
  c.divdamp_type =
      rng.integer(0, 1) ? DivergenceDampingType::ThreeDimensional : DivergenceDampingType::Combined;
  c.iau_init = rng.integer(0, 1) == 1;
  c.rhotheta_offctr = rng.uniform(-0.3, 0.0);
  c.veladv_offctr = rng.uniform(0.0, 0.5);
  c.max_nudging_coefficient = rng.uniform(0.0, 0.5);
  c.fourth_order_divdamp_factor = rng.uniform(0.0, 0.01);
  c.fourth_order_divdamp_factor2 = rng.uniform(0.0, 0.01);
  c.fourth_order_divdamp_factor3 = rng.uniform(0.0, 0.01);
  c.fourth_order_divdamp_factor4 = rng.uniform(0.0, 0.01);
  c.fourth_order_divdamp_z = rng.uniform(20000.0, 30000.0);
  c.fourth_order_divdamp_z2 = rng.uniform(35000.0, 45000.0);
  c.fourth_order_divdamp_z3 = rng.uniform(50000.0, 70000.0);
  c.fourth_order_divdamp_z4 = rng.uniform(75000.0, 90000.0);
  return c;
}

/// Random inputs on `grid` (every field of every list, the profiles, the optional diagnostic
/// fields, scalars away from their defaults): for round trips, not for the granule.
SolveNhSavepoint random_init(const Grid& grid, int nlev, test::RandomSource& rng,
                             const std::string& source = "test:octahedron") {
  SolveNhSavepoint s;
  s.kind = SavepointKind::Init;
  s.config = random_config(rng);
  s.step.second_order_divdamp_factor = rng.uniform(0.0, 0.1);
  s.step.dtime = rng.uniform(1.0, 100.0);
  s.step.ndyn_substeps_var = rng.integer(1, 10);
  s.step.at_initial_timestep = rng.integer(0, 1) == 1;
  s.step.lprep_adv = rng.integer(0, 1) == 1;
  s.step.at_first_substep = rng.integer(0, 1) == 1;
  s.step.at_last_substep = rng.integer(0, 1) == 1;
  s.step.is_iau_active = s.config.iau_init && rng.integer(0, 1) == 1;
  s.step.iau_wgt_dyn = rng.uniform(0.0, 1.0);
  s.grid = make_grid_reference(grid, source);
  for (int k = 0; k <= nlev; ++k)
    s.vct_a.push_back(30000.0 * (1.0 - static_cast<double>(k) / nlev) + rng.uniform(0.0, 1.0));
  s.vct_a.back() = 0.0;
  DycoreInputs<H>& in = s.inputs;
  in.nlev = nlev;
  in.nflatlev = rng.integer(0, nlev - 1);
  in.nflat_gradp = rng.integer(0, nlev - 1);
  in.end_index_of_damping_layer = rng.integer(0, nlev - 1);
  in.kstart_moist = rng.integer(0, nlev - 1);
  in.mean_cell_area = rng.uniform(1e6, 1e9);
  const FieldSizes sizes{
      static_cast<std::size_t>(grid.num_cells), static_cast<std::size_t>(grid.num_edges),
      static_cast<std::size_t>(grid.num_vertices), static_cast<std::size_t>(nlev)};
  const std::string scope = "icondiff::test::";
  s.current = allocate_state<SolveNhPrognosticState, H>(sizes, scope + "now::");
  s.next = allocate_state<SolveNhPrognosticState, H>(sizes, scope + "new::");
  s.diagnostic = allocate_state<SolveNhDiagnosticState, H>(sizes, scope);
  s.prep_adv = allocate_state<SolveNhPrepAdvection, H>(sizes, scope);
  in.metric = allocate_state<DycoreMetricState, H>(sizes, scope);
  in.metric.scaling_factor_for_3d_divdamp = LevelProfile<H>(scope + "scalfac", sizes.nlev);
  in.metric.rayleigh_w = LevelProfile<H>(scope + "rayleigh_w", sizes.nlev + 1);
  in.interpolation = allocate_state<DycoreInterpolationState, H>(sizes, scope);
  in.edges = allocate_state<DycoreEdgeParams, H>(sizes, scope);
  in.cells = allocate_state<DycoreCellParams, H>(sizes, scope);
  SolveNhSavepoint& writable = s;
  for_each_field_pair(writable, writable, [&](const std::string&, const auto& view, const auto&) {
    using T = typename std::decay_t<decltype(view)>::non_const_value_type;
    for (std::size_t n = 0; n < view.size(); ++n)
      view.data()[n] = std::is_same_v<T, int> ? static_cast<T>(rng.integer(-2, 2))
                                              : static_cast<T>(rng.uniform(-1.0, 1.0));
  });
  s.diagnostic.max_vertical_cfl = rng.uniform(0.0, 2.0);
  s.metadata = {{"date", "2021-06-20T12:00:10.000"},
                {"captured_by", "test_solve_nh_savepoint, seed " + std::to_string(rng.seed())},
                {"substep", "2"}};
  return s;
}

/// The exit savepoint of `init` with fresh values (a reader that mixed init and exit up would
/// be caught).
SolveNhSavepoint random_exit(const SolveNhSavepoint& init, test::RandomSource& rng) {
  SolveNhSavepoint s = capture_solve_nh_exit(init, init.diagnostic, init.next, init.prep_adv);
  for (std::size_t n = 0; n < s.next.vn.size(); ++n) s.next.vn.data()[n] = rng.uniform(-20, 20);
  for (std::size_t n = 0; n < s.prep_adv.vn_traj.size(); ++n)
    s.prep_adv.vn_traj.data()[n] = rng.uniform(-20, 20);
  s.diagnostic.max_vertical_cfl = rng.uniform(2.0, 3.0);
  return s;
}

// ---- Round trips ------------------------------------------------------------------------------

TEST(SolveNhSavepoint, InitRoundTripIsBitIdenticalInEveryFormat) {
  SeededTest t;
  const SolveNhSavepoint init = random_init(octahedron(), 5, t.rng);
  for (const auto format : {SavepointFileFormat::Auto, SavepointFileFormat::Offset64,
                            SavepointFileFormat::Cdf5, SavepointFileFormat::Netcdf4}) {
    SCOPED_TRACE(static_cast<int>(format));
    const std::string path = test::scratch_file("solve_nh_init.nc");
    write_solve_nh_savepoint(path, init, format);
    const SavepointIdentity identity = identify_savepoint(path);
    EXPECT_EQ(identity.granule, SavepointGranule::SolveNh);
    EXPECT_EQ(identity.kind, SavepointKind::Init);
    EXPECT_EQ(identity.name(), "solve_nh-init");
    expect_identical(init, read_solve_nh_savepoint(path));
  }
}

TEST(SolveNhSavepoint, ExitFilesHoldOnlyTheOutputs) {
  SeededTest t;
  const SolveNhSavepoint init = random_init(octahedron(), 4, t.rng);
  const SolveNhSavepoint exit = random_exit(init, t.rng);
  EXPECT_EQ(exit.current.vn.size(), 0u);
  EXPECT_EQ(exit.inputs.metric.theta_ref_mc.size(), 0u);
  const std::string path = test::scratch_file("solve_nh_exit.nc");
  write_solve_nh_savepoint(path, exit);
  EXPECT_EQ(identify_savepoint(path).name(), "solve_nh-exit");
  const SolveNhSavepoint back = read_solve_nh_savepoint(path);
  expect_identical(exit, back);
  // The scalars are the init's; the inputs' fields and the time level `now` are not written.
  expect_same_step(init.step, back.step);
  EXPECT_EQ(back.vct_a, init.vct_a);
  EXPECT_EQ(back.inputs.nflat_gradp, init.inputs.nflat_gradp);
  int ncid = 0;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  int id = 0;
  EXPECT_NE(nc_inq_varid(ncid, "vn_now", &id), NC_NOERR);
  EXPECT_NE(nc_inq_varid(ncid, "geofac_grdiv", &id), NC_NOERR);
  EXPECT_NE(nc_inq_varid(ncid, "rayleigh_w", &id), NC_NOERR);
  EXPECT_EQ(nc_inq_varid(ncid, "vn_new", &id), NC_NOERR);
  EXPECT_EQ(nc_inq_varid(ncid, "mass_flx_me", &id), NC_NOERR);
  EXPECT_EQ(nc_inq_varid(ncid, "vct_a", &id), NC_NOERR);
  nc_close(ncid);
}

TEST(SolveNhSavepoint, OptionalDiagnosticFieldsMayBeAbsent) {
  // A global call without IAU has no boundary tendencies and no increments.
  SeededTest t;
  SolveNhSavepoint init = random_init(octahedron(), 3, t.rng);
  auto& d = init.diagnostic;
  d.grf_tend_rho = {};
  d.grf_tend_thv = {};
  d.grf_tend_w = {};
  d.grf_tend_vn = {};
  d.rho_iau_increment = {};
  d.normal_wind_iau_increment = {};
  d.exner_iau_increment = {};
  const std::string path = test::scratch_file("solve_nh_no_optional.nc");
  write_solve_nh_savepoint(path, init);
  const SolveNhSavepoint back = read_solve_nh_savepoint(path);
  expect_identical(init, back);
  EXPECT_EQ(back.diagnostic.grf_tend_vn.size(), 0u);
  // A required field may not be empty.
  init.inputs.interpolation.geofac_grdiv = {};
  try {
    write_solve_nh_savepoint(test::scratch_file("solve_nh_no_grdiv.nc"), init);
    ADD_FAILURE() << "a missing required field was written";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("field geofac_grdiv is empty, but a solve_nh-init "
                                         "savepoint needs it"),
              std::string::npos)
        << e.what();
  }
}

TEST(SolveNhSavepoint, FileLayoutIsIconsOrder) {
  SeededTest t;
  const SolveNhSavepoint init = random_init(octahedron(), 3, t.rng);
  const std::string path = test::scratch_file("solve_nh_layout.nc");
  write_solve_nh_savepoint(path, init);
  int ncid = 0;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  const auto dims_of = [&](const char* var) {
    int id = 0, ndims = 0, dimids[NC_MAX_VAR_DIMS];
    EXPECT_EQ(nc_inq_varid(ncid, var, &id), NC_NOERR) << var;
    nc_inq_varndims(ncid, id, &ndims);
    nc_inq_vardimid(ncid, id, dimids);
    std::vector<std::string> names;
    for (int d = 0; d < ndims; ++d) {
      char name[NC_MAX_NAME + 1] = {0};
      nc_inq_dimname(ncid, dimids[d], name);
      names.emplace_back(name);
    }
    return names;
  };
  using Dims = std::vector<std::string>;
  EXPECT_EQ(dims_of("vn_now"), (Dims{"nlev", "edge"}));
  EXPECT_EQ(dims_of("w_new"), (Dims{"nlev_half", "cell"}));
  EXPECT_EQ(dims_of("vertoffset_gradp"), (Dims{"nlev", "e2c", "edge"}));
  EXPECT_EQ(dims_of("geofac_grdiv"), (Dims{"e2c2eo", "edge"}));
  EXPECT_EQ(dims_of("rbf_vec_coeff_e"), (Dims{"e2c2e", "edge"}));
  EXPECT_EQ(dims_of("c_intp"), (Dims{"v2c", "vertex"}));
  EXPECT_EQ(dims_of("c_owner_mask"), (Dims{"cell"}));
  EXPECT_EQ(dims_of("scaling_factor_for_3d_divdamp"), (Dims{"nlev"}));
  EXPECT_EQ(dims_of("rayleigh_w"), (Dims{"nlev_half"}));
  EXPECT_EQ(dims_of("vct_a"), (Dims{"nlev_half"}));
  // Types: int offsets and masks, vp and wp fields in their own type.
  const auto type_of = [&](const char* var) {
    int id = 0;
    nc_type type = 0;
    nc_inq_varid(ncid, var, &id);
    nc_inq_vartype(ncid, id, &type);
    return type;
  };
  EXPECT_EQ(type_of("vertoffset_gradp"), NC_INT);
  EXPECT_EQ(type_of("mask_prog_halo_c"), NC_INT);
  EXPECT_EQ(type_of("vn_new"), NC_DOUBLE);
  EXPECT_EQ(type_of("exner_dynamical_increment"),
            (std::is_same_v<vp, float> ? NC_FLOAT : NC_DOUBLE));
  // Scalars are typed global attributes.
  const auto attribute_type = [&](const char* name) {
    nc_type type = 0;
    EXPECT_EQ(nc_inq_atttype(ncid, NC_GLOBAL, name, &type), NC_NOERR) << name;
    return type;
  };
  EXPECT_EQ(attribute_type("step.dtime"), NC_DOUBLE);
  EXPECT_EQ(attribute_type("step.ndyn_substeps_var"), NC_INT);
  EXPECT_EQ(attribute_type("step.at_first_substep"), NC_INT);
  EXPECT_EQ(attribute_type("diagnostic.max_vertical_cfl"), NC_DOUBLE);
  EXPECT_EQ(attribute_type("metric.nflat_gradp"), NC_INT);
  EXPECT_EQ(attribute_type("cells.mean_cell_area"), NC_DOUBLE);
  EXPECT_EQ(attribute_type("config.divdamp_order"), NC_INT);
  EXPECT_EQ(attribute_type("config.veladv_offctr"), NC_DOUBLE);
  // The raw file data in C order are ICON's order (points fastest), whatever the build's layout.
  int id = 0;
  nc_inq_varid(ncid, "vertoffset_gradp", &id);
  std::vector<int> raw(init.inputs.metric.vertoffset_gradp.size());
  ASSERT_EQ(nc_get_var_int(ncid, id, raw.data()), NC_NOERR);
  EXPECT_EQ(raw, test::in_file_order(init.inputs.metric.vertoffset_gradp));
  nc_close(ncid);
}

TEST(SolveNhSavepoint, WriterRejectsInconsistentSavepoints) {
  SeededTest t;
  const SolveNhSavepoint good = random_init(octahedron(), 4, t.rng);
  const std::string path = test::scratch_file("solve_nh_rejected.nc");
  const auto rejects = [&](const char* what, const std::function<void(SolveNhSavepoint&)>& edit,
                           const std::string& fragment) {
    SCOPED_TRACE(what);
    SolveNhSavepoint s = good;
    edit(s);
    try {
      write_solve_nh_savepoint(path, s);
      ADD_FAILURE() << "written";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path));
  };
  rejects(
      "vct_a", [](SolveNhSavepoint& s) { s.vct_a.pop_back(); },
      "vct_a has 4 values, expected nlev + 1 = 5");
  rejects(
      "nflatlev", [](SolveNhSavepoint& s) { s.inputs.nflatlev = 4; },
      "vertical.nflatlev = 4, expected a level in [0, nlev - 1 = 3]");
  rejects(
      "dtime", [](SolveNhSavepoint& s) { s.step.dtime = 0; }, "step.dtime = 0");
  rejects(
      "area", [](SolveNhSavepoint& s) { s.inputs.mean_cell_area = -1; },
      "cells.mean_cell_area = -1");
  rejects(
      "divdamp_type",
      [](SolveNhSavepoint& s) { s.config.divdamp_type = DivergenceDampingType::TwoDimensional; },
      "the solve_nh granule implements 3 and 32");
  rejects(
      "extents",
      [](SolveNhSavepoint& s) { s.next.vn = Kokkos::View<wp**, FieldLayout, H>("vn", 3, 4); },
      "field vn_new has extents (3, 4), expected (12, 4)");
  rejects(
      "metadata", [](SolveNhSavepoint& s) { s.metadata["bad key"] = "x"; },
      "metadata key 'bad key'");
}

TEST(SolveNhSavepoint, MirrorCopiesCarryWhatTheFieldListsDoNotDescribe) {
  SeededTest t;
  const SolveNhSavepoint init = random_init(octahedron(), 4, t.rng);
  const auto diagnostic = mirror_copy<M>(init.diagnostic);
  EXPECT_EQ(diagnostic.max_vertical_cfl, init.diagnostic.max_vertical_cfl);
  const DeviceGrid<M> grid(octahedron());
  const DycoreInputs<M> inputs = dycore_inputs_from_savepoint(init, grid);
  EXPECT_EQ(inputs.grid.num_edges, octahedron().num_edges);
  EXPECT_EQ(inputs.nflat_gradp, init.inputs.nflat_gradp);
  EXPECT_EQ(inputs.mean_cell_area, init.inputs.mean_cell_area);
  // Back to the host: a capture of the device bundle equals the savepoint's.
  const SolveNhSavepoint again = capture_solve_nh_init(
      init.config, init.grid, inputs, init.vct_a, diagnostic, mirror_copy<M>(init.current),
      mirror_copy<M>(init.next), mirror_copy<M>(init.prep_adv), init.step, init.metadata);
  expect_identical(init, again);
  // A capture never aliases the captured fields.
  EXPECT_NE(again.inputs.metric.rayleigh_w.data(), inputs.metric.rayleigh_w.data());
  EXPECT_NE(again.next.w.data(), init.next.w.data());
  // Another grid is refused.
  EXPECT_THROW(dycore_inputs_from_savepoint(init, DeviceGrid<M>(load_grid_source("generate:R2B0"))),
               GridError);
}

// ---- Comparison -------------------------------------------------------------------------------

TEST(SolveNhSavepoint, ComparisonIsExactAndNamesEveryDifferingField) {
  SeededTest t;
  const SolveNhSavepoint init = random_init(octahedron(), 4, t.rng);
  const SolveNhSavepoint exit = random_exit(init, t.rng);
  const auto table = solve_nh_exact_tolerances();
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.front().field, "w_new");
  EXPECT_EQ(table.back().field, "max_vertical_cfl");
  for (const auto& tol : table) {
    EXPECT_EQ(tol.atol, 0.0) << tol.field;
    EXPECT_EQ(tol.rtol, 0.0) << tol.field;
  }
  const SavepointComparison same = compare_solve_nh_outputs(exit, exit);
  EXPECT_TRUE(same.passed()) << format_comparison(same);
  EXPECT_EQ(same.fields.size(), table.size());

  // One ulp in one value of vn_new, another CFL maximum, an IAU increment the call did not have.
  SolveNhSavepoint actual = capture_solve_nh_exit(init, exit.diagnostic, exit.next, exit.prep_adv);
  actual.next.vn(5, 2) = std::nextafter(actual.next.vn(5, 2), 1e300);
  actual.diagnostic.max_vertical_cfl += 0.5;
  SolveNhSavepoint expected = exit;
  expected.diagnostic.rho_iau_increment = {};
  actual.diagnostic.rho_iau_increment = {};
  const SavepointComparison c = compare_solve_nh_outputs(expected, actual);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.failing_fields(), (std::vector<std::string>{"vn_new", "max_vertical_cfl"}));
  EXPECT_EQ(c["vn_new"].num_failing, 1u);
  EXPECT_EQ(c["vn_new"].max_abs_point, 5);
  EXPECT_EQ(c["vn_new"].max_abs_level, 2);
  EXPECT_GT(c["vn_new"].max_abs_error, 0.0);
  EXPECT_EQ(c["max_vertical_cfl"].max_abs_error, 0.5);
  EXPECT_FALSE(c["rho_iau_increment"].compared);
  EXPECT_TRUE(c["w_new"].compared);
  EXPECT_EQ(c["w_new"].max_abs_error, 0.0);
  const std::string table_text = format_comparison(c);
  EXPECT_NE(table_text.find("FAILED: vn_new, max_vertical_cfl"), std::string::npos) << table_text;
  EXPECT_NE(table_text.find("dynamical_vertical_volumetric_flux_at_cells_on_half_levels"),
            std::string::npos);
  std::vector<FieldTolerance> unknown = {{"vn", 0.0, 0.0, false}};
  EXPECT_THROW(compare_solve_nh_outputs(expected, actual, unknown), InvalidArgument);
}

// ---- Capture -> file -> replay on a fresh granule ---------------------------------------------

/// A folder under the scratch folder that outlives the test: the CLI test reads what is there.
std::string persistent_dir(const std::string& name) {
  const char* env = std::getenv("ICONDIFF_TEST_SCRATCH_DIR");
  const auto dir = std::filesystem::path(env && *env ? env : ICONDIFF_TEST_SCRATCH_DIR) /
                   "solve_nh_savepoints" / name;
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Cells in global order cut into `n` blocks of nearly equal size.
std::vector<int> block_partition(const Grid& g, int n) {
  std::vector<int> owner(static_cast<std::size_t>(g.num_cells));
  for (std::size_t c = 0; c < owner.size(); ++c)
    owner[c] = static_cast<int>(c * static_cast<std::size_t>(n) / owner.size());
  return owner;
}

/// Rank `local.rank`'s savepoint cut out of `whole` (whose inputs are on `whole_grid`), as a
/// rank of a decomposed call holds it: its local points, c_owner_mask and mask_prog_halo_c its
/// own (restrict_dycore_inputs). The outputs of the whole grid's call stand for the rank's: the
/// decomposed granule equals the single-rank one on the owned points (test_mpi_solve_nh), and
/// the merge reads owned points only.
SolveNhSavepoint rank_part(const SolveNhSavepoint& whole, const Grid& whole_grid,
                           const Grid& local) {
  const std::string scope = "test::part::";
  SolveNhSavepoint s = whole;
  const FieldSizes sizes =
      DeviceGrid<H>(whole_grid).sizes(static_cast<std::size_t>(whole.num_levels()));
  s.grid = make_grid_reference(local, whole.grid.source);
  if (whole.kind == SavepointKind::Init) {
    DycoreInputs<H> inputs = whole.inputs;
    inputs.grid = DeviceGrid<H>(whole_grid);
    s.inputs = mirror_copy_without_grid<H>(restrict_dycore_inputs<H>(inputs, local, scope));
    s.current = restrict_to_local(whole.current, local, sizes, scope);
  }
  s.next = restrict_to_local(whole.next, local, sizes, scope);
  s.diagnostic = restrict_to_local(whole.diagnostic, local, sizes, scope);
  s.diagnostic.max_vertical_cfl = whole.diagnostic.max_vertical_cfl;
  s.prep_adv = restrict_to_local(whole.prep_adv, local, sizes, scope);
  s.decomposition = rank_points(local, sizes);
  s.metadata["rank"] = std::to_string(local.rank);
  return s;
}

/// Replays `init` on a fresh granule on `grid`: the outputs as an exit savepoint, and the
/// granule's temporaries after the call.
std::pair<SolveNhSavepoint, SolveNhLocalFields<H>> replay(const SolveNhSavepoint& init,
                                                          const Grid& grid) {
  const DeviceGrid<M> device(grid);
  SolveNonhydro<Space> granule(init.config, dycore_inputs_from_savepoint(init, device), init.vct_a);
  auto diagnostic = mirror_copy<M>(init.diagnostic);
  auto current = mirror_copy<M>(init.current);
  auto next = mirror_copy<M>(init.next);
  auto prep_adv = mirror_copy<M>(init.prep_adv);
  granule.time_step(diagnostic, current, next, prep_adv, init.step);
  Kokkos::fence();
  return {capture_solve_nh_exit(init, diagnostic, next, prep_adv),
          copy_state<H>(granule.local_fields(), "test::replay::")};
}

void expect_exact(const SavepointComparison& c) {
  EXPECT_TRUE(c.passed()) << format_comparison(c);
  for (const auto& f : c.fields)
    if (f.compared) {
      EXPECT_EQ(f.num_failing, 0u) << f.field();
      EXPECT_EQ(f.max_abs_error, 0.0) << f.field();
    }
}

/// Two physics steps of three substeps from the case's JW state (integrate_nh's sequence). At
/// the model's first substep, at the first substep of the second physics step and at its last
/// substep the call is captured (init and exit through files) and replayed from the files alone
/// on a fresh granule: every output is bit-identical; of the granule's temporaries only z_v_grad_w
/// differs, which only the model's first substep computes and reads (so none carries state from
/// one call into the next). The last capture is kept for the CLI test, whole and cut into two
/// ranks' savepoints, whose merge is checked here too.
void replay_substeps(const test::GridCase& gc, const std::string& name) {
  const int nlev = 12, physics_steps = 2, substeps = 3;
  const double dtime = 30.0;
  test::SolveNhCase c = test::make_solve_nh_case(gc.grid, nlev);
  // No IAU, and the global grid without boundary tendencies: the optional diagnostic fields both
  // absent (global) and present (limited area).
  auto& d = c.initial.diagnostic;
  d.rho_iau_increment = {};
  d.normal_wind_iau_increment = {};
  d.exner_iau_increment = {};
  if (!gc.grid.limited_area) d.grf_tend_rho = d.grf_tend_thv = d.grf_tend_w = d.grf_tend_vn = {};
  const std::string source = gc.grid.source.empty() ? name : gc.grid.source;
  const DeviceGrid<M> device(c.host.grid);
  DycoreInputs<M> inputs = mirror_copy_without_grid<M>(c.inputs);
  inputs.grid = device;
  SolveNonhydro<Space> granule(DycoreConfig{}, inputs, c.vct_a);
  auto states = test::copy_states<M>(c.initial, "test::states::");
  int captured = 0;
  for (int step = 0; step < physics_steps; ++step)
    for (int sub = 0; sub < substeps; ++sub) {
      if (sub == 0) states.diagnostic.max_vertical_cfl = 0;
      const SolveNhStep s = test::solve_nh_substep(step, sub, substeps, dtime);
      const bool capture =
          (step == 0 && sub == 0) || (step == 1 && sub == 0) || (step == 1 && sub == substeps - 1);
      if (!capture) {
        granule.time_step(states.diagnostic, states.current, states.next, states.prep_adv, s);
        test::swap_time_levels(states);
        continue;
      }
      SCOPED_TRACE("physics step " + std::to_string(step) + ", substep " + std::to_string(sub));
      const bool last = ++captured == 3;
      const std::string dir = persistent_dir(name);
      const std::string init_path =
          last ? dir + "/solve_nh-init.nc" : test::scratch_file(name + "_solve_nh-init.nc");
      const std::string exit_path =
          last ? dir + "/solve_nh-exit.nc" : test::scratch_file(name + "_solve_nh-exit.nc");
      const SolveNhSavepoint init = capture_solve_nh_init(
          granule.config(), make_grid_reference(c.host.grid, source), granule.inputs(), c.vct_a,
          states.diagnostic, states.current, states.next, states.prep_adv, s,
          {{"case", name},
           {"physics_step", std::to_string(step)},
           {"substep", std::to_string(sub)}});
      write_solve_nh_savepoint(init_path, init);
      granule.time_step(states.diagnostic, states.current, states.next, states.prep_adv, s);
      Kokkos::fence();
      const SolveNhSavepoint exit =
          capture_solve_nh_exit(init, states.diagnostic, states.next, states.prep_adv);
      write_solve_nh_savepoint(exit_path, exit);
      const auto locals = copy_state<H>(granule.local_fields(), "test::original::");
      test::swap_time_levels(states);

      // The call changed the state and kept it finite (otherwise the replay proves little).
      std::size_t changed = 0, finite = 0;
      for (std::size_t n = 0; n < exit.next.vn.size(); ++n) {
        changed += exit.next.vn.data()[n] != init.current.vn.data()[n];
        finite += std::isfinite(exit.next.vn.data()[n]);
      }
      EXPECT_GT(changed, exit.next.vn.size() / 2);
      EXPECT_EQ(finite, exit.next.vn.size());

      // From the files alone, on a fresh granule.
      const SolveNhSavepoint read_init = read_solve_nh_savepoint(init_path);
      const SolveNhSavepoint read_exit = read_solve_nh_savepoint(exit_path);
      expect_identical(init, read_init);
      expect_identical(exit, read_exit);
      const auto [replayed, replay_locals] = replay(read_init, c.host.grid);
      expect_exact(compare_solve_nh_outputs(read_exit, replayed));
      for (const auto& f : compare_solve_nh_outputs(read_exit, replayed).fields)
        EXPECT_TRUE(f.compared || (!gc.grid.limited_area && f.field().rfind("grf_tend", 0) == 0) ||
                    f.field().find("iau_increment") != std::string::npos)
            << f.field() << ": " << f.note;
      SolveNhLocalFields<H> a = locals, b = replay_locals;
      SolveNhLocalFields<H>::for_each_field(
          [&](const FieldSpec& spec, const auto& x, const auto& y) {
            const bool carried = spec.name == std::string(
                                                  "horizontal_advection_of_w_at_edges_on_"
                                                  "half_levels") &&
                                 !(s.at_initial_timestep && s.at_first_substep);
            if (!carried) {
              EXPECT_TRUE(bit_identical(spec.name, x, y));
            }
          },
          a, b);

      if (!last) continue;
      // Two ranks' savepoints of the same call, merged back: the whole grid's savepoints (the
      // per-rank masks recomputed), and their replay reproduces the merged exit.
      const int num_ranks = 2;
      const std::vector<int> owner = block_partition(c.host.grid, num_ranks);
      std::vector<SolveNhSavepoint> init_parts, exit_parts;
      for (int r = 0; r < num_ranks; ++r) {
        const Grid local = make_local_grid(c.host.grid, owner, r, num_ranks);
        const std::string rank = ".rank" + std::to_string(r) + ".nc";
        write_solve_nh_savepoint(dir + "/solve_nh-init" + rank,
                                 rank_part(init, c.host.grid, local));
        write_solve_nh_savepoint(dir + "/solve_nh-exit" + rank,
                                 rank_part(exit, c.host.grid, local));
        init_parts.push_back(read_solve_nh_savepoint(dir + "/solve_nh-init" + rank));
        exit_parts.push_back(read_solve_nh_savepoint(dir + "/solve_nh-exit" + rank));
      }
      // The parts' masks are their ranks' (some cells not owned), the merged ones the whole grid's.
      std::size_t not_owned = 0;
      for (std::size_t i = 0; i < init_parts[0].inputs.cells.c_owner_mask.size(); ++i)
        not_owned += init_parts[0].inputs.cells.c_owner_mask(i) == 0;
      EXPECT_GT(not_owned, 0u);
      std::reverse(init_parts.begin(), init_parts.end());
      const SolveNhSavepoint merged_init = merge_rank_savepoints(init_parts, c.host.grid, source);
      const SolveNhSavepoint merged_exit = merge_rank_savepoints(exit_parts, c.host.grid, source);
      EXPECT_FALSE(merged_init.decomposition);
      SolveNhSavepoint init_rank0_metadata = init;
      init_rank0_metadata.metadata["rank"] = "0";
      expect_identical(init_rank0_metadata, merged_init);
      SolveNhSavepoint exit_rank0_metadata = exit;
      exit_rank0_metadata.metadata["rank"] = "0";
      expect_identical(exit_rank0_metadata, merged_exit);
      expect_exact(compare_solve_nh_outputs(merged_exit, replay(merged_init, c.host.grid).first));
      // One part missing, or parts of another call, are refused.
      EXPECT_THROW(merge_rank_savepoints({init_parts[0]}, c.host.grid, source), InvalidArgument);
      std::vector<SolveNhSavepoint> mixed = exit_parts;
      mixed[1].step.dtime *= 2;
      EXPECT_THROW(merge_rank_savepoints(mixed, c.host.grid, source), InvalidArgument);
    }
  EXPECT_EQ(captured, 3);
}

TEST(SolveNhSavepoint, ReplayOnAFreshGranuleIsBitIdentical) {
  const auto grids = test::granule_test_grids();
  ASSERT_EQ(grids.size(), 2u);
  {
    SCOPED_TRACE(grids[0].name);
    replay_substeps(grids[0], "global");
  }
  {
    SCOPED_TRACE(grids[1].name);
    replay_substeps(grids[1], "lam");
  }
}

// ---- Bad files --------------------------------------------------------------------------------

const std::string& good_file() {
  static const std::string path = [] {
    test::RandomSource rng(12345);
    const std::string p = test::scratch_file("solve_nh_good_init.nc");
    write_solve_nh_savepoint(p, random_init(octahedron(), 4, rng));
    return p;
  }();
  return path;
}

const std::string& good_exit_file() {
  static const std::string path = [] {
    test::RandomSource rng(54321);
    const std::string p = test::scratch_file("solve_nh_good_exit.nc");
    const SolveNhSavepoint init = random_init(octahedron(), 4, rng);
    write_solve_nh_savepoint(p, random_exit(init, rng));
    return p;
  }();
  return path;
}

std::string damaged(const std::string& name, const test::NetcdfEdits& edits,
                    const std::string& from = good_file()) {
  return test::damaged_copy(from, name, edits);
}

/// A copy of the good file with global attributes changed through netCDF-C.
std::string with_attributes(const std::string& name, const std::function<void(int)>& edit) {
  return test::with_global_attributes(good_file(), name, edit);
}

/// `read` (read_solve_nh_savepoint by default) fails with a SavepointFileError about `variable`
/// (and `index` if >= 0) whose message contains `fragment` and the file name.
void expect_error(
    const std::string& path, const std::string& variable, long long index,
    const std::string& fragment,
    const std::function<void(const std::string&)>& read = [](const std::string& p) {
      read_solve_nh_savepoint(p);
    }) {
  test::expect_savepoint_error(read, path, variable, index, fragment);
}

TEST(SolveNhSavepointErrors, TheGoodFilesAndTheirCopiesRead) {
  EXPECT_NO_THROW(read_solve_nh_savepoint(good_file()));
  EXPECT_NO_THROW(read_solve_nh_savepoint(damaged("solve_nh_plain_copy", {})));
  EXPECT_NO_THROW(read_solve_nh_savepoint(good_exit_file()));
}

TEST(SolveNhSavepointErrors, NotASavepoint) {
  expect_error("/nonexistent/folder/sp.nc", "", -1, "the file does not exist");
  const std::string text = test::scratch_file("solve_nh_text.nc");
  std::ofstream(text) << "not netCDF\n";
  expect_error(text, "", -1, "cannot be opened as netCDF");
  ICONDIFF_REAL_GRID_OR_SKIP(grid, test::global_r02b03);
  expect_error(grid, "icondiff_savepoint_format", -1, "not an icondiff solve_nh savepoint");
  expect_error(grid, "icondiff_savepoint_format", -1, "not an icondiff (diffusion or solve_nh)",
               [](const std::string& p) { identify_savepoint(p); });
}

TEST(SolveNhSavepointErrors, FormatVersionAndKind) {
  expect_error(with_attributes("solve_nh_version2", set_int("icondiff_savepoint_format", 2)),
               "icondiff_savepoint_format", -1, "format version 2, this icondiff reads version 1");
  const std::string half = with_attributes("solve_nh_half", set_text("savepoint", "solve_nh-half"));
  expect_error(half, "savepoint", -1,
               "= 'solve_nh-half', expected 'solve_nh-init' or 'solve_nh-exit'");
  expect_error(half, "savepoint", -1,
               "expected 'diffusion-init', 'diffusion-exit', 'solve_nh-init'",
               [](const std::string& p) { identify_savepoint(p); });
}

TEST(SolveNhSavepointErrors, AnotherGranulesSavepointIsNamed) {
  // A diffusion savepoint where a solve_nh one is expected, and the other way round.
  const std::string diffusion =
      with_attributes("solve_nh_as_diffusion", set_text("savepoint", "diffusion-init"));
  EXPECT_EQ(identify_savepoint(diffusion).name(), "diffusion-init");
  expect_error(diffusion, "savepoint", -1,
               "= 'diffusion-init', expected 'solve_nh-init' or 'solve_nh-exit' (this is a "
               "diffusion savepoint");
  expect_error(good_file(), "savepoint", -1,
               "= 'solve_nh-init', expected 'diffusion-init' or 'diffusion-exit' (this is a "
               "solve_nh savepoint",
               [](const std::string& p) { read_diffusion_savepoint(p); });
  expect_error(good_exit_file(), "savepoint", -1, "this is a solve_nh savepoint",
               [](const std::string& p) { read_diffusion_savepoint(p); });
}

TEST(SolveNhSavepointErrors, ConfigValues) {
  expect_error(with_attributes("solve_nh_divdamp_type2", set_int("config.divdamp_type", 2)),
               "config.divdamp_type", -1, "the solve_nh granule implements 3 and 32, not 2");
  expect_error(
      with_attributes("solve_nh_divdamp_order7", set_int("config.divdamp_order", 7)),
      "config.divdamp_order", -1,
      "= 7 is not a value of DivergenceDampingOrder (ICON nonhydrostatic_nml:divdamp_order)");
  expect_error(with_attributes("solve_nh_itime_scheme", set_int("config.itime_scheme", 5)),
               "config.itime_scheme", -1, "only 4 is implemented");
  expect_error(
      with_attributes("solve_nh_no_config",
                      [](int ncid) { nc_del_att(ncid, NC_GLOBAL, "config.veladv_offctr"); }),
      "config.veladv_offctr", -1, "missing");
}

TEST(SolveNhSavepointErrors, StepAndInputScalars) {
  expect_error(with_attributes("solve_nh_dtime", set_double("step.dtime", -1.0)), "step.dtime", -1,
               "expected a finite time step > 0 s");
  expect_error(with_attributes("solve_nh_first", set_int("step.at_first_substep", 2)),
               "step.at_first_substep", -1, "expected 0 (false) or 1 (true)");
  expect_error(with_attributes("solve_nh_substeps", set_int("step.ndyn_substeps_var", 0)),
               "step.ndyn_substeps_var", -1, "expected at least 1");
  expect_error(
      with_attributes("solve_nh_iau_wgt",
                      set_double("step.iau_wgt_dyn", std::numeric_limits<double>::quiet_NaN())),
      "step.iau_wgt_dyn", -1, "expected a finite number");
  expect_error(
      with_attributes("solve_nh_no_cfl",
                      [](int ncid) { nc_del_att(ncid, NC_GLOBAL, "diagnostic.max_vertical_cfl"); }),
      "diagnostic.max_vertical_cfl", -1, "missing");
  expect_error(with_attributes("solve_nh_nflatlev", set_int("vertical.nflatlev", 4)),
               "vertical.nflatlev", -1, "= 4, expected a level in [0, nlev - 1 = 3]");
  expect_error(with_attributes("solve_nh_nflat_gradp", set_int("metric.nflat_gradp", -1)),
               "metric.nflat_gradp", -1, "expected a level");
  expect_error(with_attributes("solve_nh_area", set_double("cells.mean_cell_area", 0.0)),
               "cells.mean_cell_area", -1, "expected a finite area > 0");
  test::NetcdfEdits rising;
  rising.edit_values["vct_a"] = [](std::vector<double>& v) { std::swap(v[1], v[2]); };
  expect_error(damaged("solve_nh_rising", rising), "vct_a", -1, "must decrease");
}

TEST(SolveNhSavepointErrors, MissingVariable) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"geofac_grdiv"};
  expect_error(damaged("solve_nh_no_geofac_grdiv", edits), "geofac_grdiv", -1,
               "the variable is missing; a solve_nh-init savepoint holds it");
  edits.drop_variables = {"rayleigh_w"};
  expect_error(damaged("solve_nh_no_rayleigh_w", edits), "rayleigh_w", -1, "missing");
  edits.drop_variables = {"theta_v_now"};
  expect_error(damaged("solve_nh_no_theta_v_now", edits), "theta_v_now", -1, "missing");
  edits.drop_variables = {"vn_new"};
  expect_error(damaged("solve_nh_exit_no_vn_new", edits, good_exit_file()), "vn_new", -1,
               "the variable is missing; a solve_nh-exit savepoint holds it");
  // The limited-area tendencies and IAU increments are optional.
  edits.drop_variables = {"grf_tend_vn", "exner_iau_increment"};
  const SolveNhSavepoint without = read_solve_nh_savepoint(damaged("solve_nh_optional", edits));
  EXPECT_EQ(without.diagnostic.grf_tend_vn.size(), 0u);
  EXPECT_EQ(without.diagnostic.exner_iau_increment.size(), 0u);
  EXPECT_GT(without.diagnostic.grf_tend_rho.size(), 0u);
}

TEST(SolveNhSavepointErrors, WrongDimensionsAndSizes) {
  test::NetcdfEdits edits;
  edits.redimension["vn_now"] = {"nlev", "cell"};
  expect_error(damaged("solve_nh_vn_on_cells", edits), "vn_now", -1,
               "has dimensions (nlev, cell), expected (nlev, edge)");
  edits = {};
  edits.redimension["w_new"] = {"nlev", "cell"};
  expect_error(damaged("solve_nh_w_full_levels", edits, good_exit_file()), "w_new", -1,
               "has dimensions (nlev, cell), expected (nlev_half, cell)");
  edits = {};
  edits.redimension["rayleigh_w"] = {"nlev"};
  expect_error(damaged("solve_nh_rayleigh_w_full", edits), "rayleigh_w", -1,
               "has dimensions (nlev), expected (nlev_half)");
  edits = {};
  edits.rename_dimensions = {{"e2c", "e2c_was"}, {"e2c2eo", "e2c"}};
  expect_error(damaged("solve_nh_e2c_size", edits), "", -1,
               "the dimension 'e2c' has size 5, expected 2");
}

TEST(SolveNhSavepointErrors, IntegerFields) {
  // Integer fields stored as floating point by another producer: integral values are accepted,
  // NaN and fractions are not.
  test::NetcdfEdits edits;
  edits.make_double = {"vertoffset_gradp", "c_owner_mask"};
  const SolveNhSavepoint as_double =
      read_solve_nh_savepoint(damaged("solve_nh_ints_double", edits));
  const SolveNhSavepoint good = read_solve_nh_savepoint(good_file());
  EXPECT_TRUE(bit_identical("vertoffset_gradp", good.inputs.metric.vertoffset_gradp,
                            as_double.inputs.metric.vertoffset_gradp));
  // Flat index 12 * 2 + 5 = edge 5, slot 0, level 1 (12 edges, 2 slots).
  edits.edit_values["vertoffset_gradp"] = [](std::vector<double>& v) { v[12 * 2 + 5] = 0.5; };
  expect_error(damaged("solve_nh_offset_fraction", edits), "vertoffset_gradp", 5,
               "slot 0, level 1 holds 0.5, expected an integer level offset");
  edits = {};
  edits.make_double = {"c_owner_mask"};
  edits.edit_values["c_owner_mask"] = [](std::vector<double>& v) {
    v[3] = std::numeric_limits<double>::quiet_NaN();
  };
  expect_error(damaged("solve_nh_mask_nan", edits), "c_owner_mask", 3,
               "holds nan, expected an integer");
}

TEST(SolveNhSavepointErrors, EveryErrorIsAnIcondiffError) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"cell_area"};
  EXPECT_THROW(read_solve_nh_savepoint(damaged("solve_nh_no_area", edits)), Error);
}

}  // namespace
}  // namespace icondiff
