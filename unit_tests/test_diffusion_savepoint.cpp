// Diffusion savepoints (include/icondiff/io/diffusion_savepoint.hpp, docs/dev/savepoints.md):
// random states written and read back bit-identically in every format, the file layout, the
// mirror helpers, the comparison with ICON4Py's tolerances, the grid reference, a full
// capture -> file -> replay -> compare cycle with the granule, and every kind of bad file.
// Random data come from a seeded RandomSource; the seed is printed (set ICONDIFF_TEST_SEED to
// reproduce a failure).
#include "support/grid_files.hpp"
#include "support/host_field.hpp"
#include "support/netcdf_edit.hpp"
#include "support/savepoint_test_support.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>

namespace icondiff {
namespace {

using Host = Kokkos::HostSpace;

using test::bit_identical;
using test::octahedron;
using test::SeededTest;
using test::set_int;

// ---- Random savepoints ------------------------------------------------------------------------

template <class T>
View1D<T, Host> random_1d(test::RandomSource& rng, const std::string& name, std::size_t n,
                          double lo = -1.0, double hi = 1.0) {
  View1D<T, Host> v("icondiff::test::" + name, n);
  for (std::size_t i = 0; i < n; ++i) v(i) = static_cast<T>(rng.uniform(lo, hi));
  return v;
}

template <class T>
View2D<T, Host> random_2d(test::RandomSource& rng, const std::string& name, std::size_t n0,
                          std::size_t n1, double lo = -1.0, double hi = 1.0) {
  View2D<T, Host> v("icondiff::test::" + name, n0, n1);
  for (std::size_t j = 0; j < n1; ++j)
    for (std::size_t i = 0; i < n0; ++i) v(i, j) = static_cast<T>(rng.uniform(lo, hi));
  return v;
}

DiffusionConfig random_config(test::RandomSource& rng) {
  // Every field away from its default where validate() allows it, so a field that is not
  // written or read back shows up.
  DiffusionConfig c;
  // lhdiff_w / lhdiff_vn must be true (validate() refuses false: not implemented).
  c.apply_to_vertical_wind = true;
  c.apply_to_horizontal_wind = true;
  c.apply_to_temperature = rng.integer(0, 1) == 1;
  c.hdiff_efdt_ratio = rng.uniform(1.0, 50.0);
  c.hdiff_w_efdt_ratio = rng.uniform(1.0, 50.0);
  c.smagorinski_scaling_factor = rng.uniform(0.0, 0.1);
  c.smagorinski_scaling_factor2 = rng.uniform(0.0, 0.1);
  c.smagorinski_scaling_factor3 = rng.uniform(0.0, 0.1);
  c.smagorinski_scaling_factor4 = rng.uniform(0.5, 1.5);
  c.smagorinski_scaling_height = rng.uniform(20000.0, 40000.0);
  c.smagorinski_scaling_height2 = rng.uniform(50000.0, 70000.0);
  c.smagorinski_scaling_height3 = rng.uniform(45000.0, 49000.0);
  c.smagorinski_scaling_height4 = rng.uniform(80000.0, 95000.0);
  c.apply_zdiffusion_t = true;
  c.ndyn_substeps = rng.integer(1, 10);
  c.temperature_boundary_diffusion_denominator = rng.uniform(100.0, 200.0);
  c.velocity_boundary_diffusion_denominator = rng.uniform(100.0, 200.0);
  c.max_nudging_coefficient = rng.uniform(0.0, 0.5);
  c.shear_type = static_cast<TurbulenceShearForcingType>(rng.integer(0, 2));
  const ForcingType forcings[] = {ForcingType::NoForcing, ForcingType::Aes, ForcingType::Nwp};
  c.iforcing = forcings[rng.integer(0, 2)];
  c.a_hshr = rng.uniform(0.0, 2.0);
  c.loutshs = rng.integer(0, 1) == 1;
  return c;
}

VerticalGrid test_vertical_grid(int nlev, test::RandomSource& rng) {
  VerticalGrid v;
  for (int k = 0; k <= nlev; ++k)
    v.vct_a.push_back(30000.0 * (1.0 - static_cast<double>(k) / nlev) + rng.uniform(0.0, 1.0));
  v.vct_a.back() = 0.0;
  v.end_index_of_damping_layer = rng.integer(1, nlev - 1);
  return v;
}

/// Calls f(spec, field) for every field of every state struct of `s`.
template <class F>
void for_each_savepoint_field(DiffusionSavepoint& s, F&& f) {
  DiffusionPrognosticState<Host>::for_each_field(f, s.prognostic);
  DiffusionDiagnosticState<Host>::for_each_field(f, s.diagnostic);
  DiffusionMetricState<Host>::for_each_field(f, s.metric);
  DiffusionInterpolationState<Host>::for_each_field(f, s.interpolation);
  DiffusionEdgeParams<Host>::for_each_field(f, s.edges);
  DiffusionCellParams<Host>::for_each_field(f, s.cells);
}

/// Random inputs the granule can run on: positive areas, lengths and theta, level offsets inside
/// the column (ICON4Py's test construction: k + off in [0, nlev - 2]).
DiffusionSavepoint random_init(const Grid& grid, int nlev, test::RandomSource& rng,
                               const std::string& source = "test:octahedron") {
  DiffusionSavepoint s;
  s.kind = SavepointKind::Init;
  s.config = random_config(rng);
  s.dtime = rng.uniform(1.0, 100.0);
  s.initial_run = rng.integer(0, 1) == 1;
  s.grid = make_grid_reference(grid, source);
  s.vertical = test_vertical_grid(nlev, rng);
  // Every field from the field lists, uniform in its range below (default [-1, 1)); then the
  // fields with structure: integer level offsets inside the column, a zd_diffcoef mask, signs.
  const std::map<std::string, std::pair<double, double>> ranges = {
      {"vn", {-20.0, 20.0}},
      {"theta_v", {250.0, 350.0}},
      {"exner", {0.5, 1.0}},
      {"theta_ref_mc", {250.0, 350.0}},
      {"wgtfac_c", {0.0, 1.0}},
      {"zd_diffcoef", {0.0, 0.01}},
      {"zd_intcoef", {0.0, 1.0}},
      {"nudgecoeff_e", {0.0, 1.0}},
      {"inverse_primal_edge_lengths", {0.5, 1.0}},
      {"inverse_vertex_vertex_lengths", {0.5, 1.0}},
      {"inverse_dual_edge_lengths", {0.5, 1.0}},
      {"edge_areas", {0.5, 1.0}},
      {"cell_area", {0.5, 1.0}}};
  const FieldSizes sizes{
      static_cast<std::size_t>(grid.num_cells), static_cast<std::size_t>(grid.num_edges),
      static_cast<std::size_t>(grid.num_vertices), static_cast<std::size_t>(nlev)};
  const auto fill = [&](const FieldSpec& spec, auto& view) {
    const auto it = ranges.find(spec.name);
    const auto [lo, hi] = it == ranges.end() ? std::make_pair(-1.0, 1.0) : it->second;
    using T = typename std::decay_t<decltype(view)>::value_type;
    for (std::size_t n = 0; n < view.size(); ++n)
      view.data()[n] = static_cast<T>(rng.uniform(lo, hi));
  };
  const std::string scope = "icondiff::test::";
  s.prognostic = allocate_state<DiffusionPrognosticState, Host>(sizes, scope);
  s.diagnostic = allocate_state<DiffusionDiagnosticState, Host>(sizes, scope);
  s.metric = allocate_state<DiffusionMetricState, Host>(sizes, scope);
  s.interpolation = allocate_state<DiffusionInterpolationState, Host>(sizes, scope);
  s.edges = allocate_state<DiffusionEdgeParams, Host>(sizes, scope);
  s.cells = allocate_state<DiffusionCellParams, Host>(sizes, scope);
  for_each_savepoint_field(s, fill);
  const std::size_t nc = sizes.cells, ne = sizes.edges, k = sizes.nlev;
  for (std::size_t l = 0; l < k; ++l)
    for (int j = 0; j < 3; ++j)
      for (std::size_t c = 0; c < nc; ++c)
        s.metric.zd_vertoffset(c, j, l) =
            rng.integer(-static_cast<int>(l), nlev - 2 - static_cast<int>(l));
  for (std::size_t c = 0; c < nc; c += 2) s.metric.zd_diffcoef(c, 0) = 0.0;  // the mask
  for (std::size_t e = 0; e < ne; ++e)
    s.edges.tangent_orientation(e) = s.edges.tangent_orientation(e) < 0 ? -1.0 : 1.0;
  s.metadata = {{"date", "2021-06-20T12:00:10.000"},
                {"rank", std::to_string(rng.integer(0, 64))},
                {"captured_by", "test_diffusion_savepoint, seed " + std::to_string(rng.seed())},
                {"empty", ""},
                {"odd.key-with+chars@here", "text with\nnewline, 'quotes' and \"double\" ones"}};
  return s;
}

DiffusionSavepoint random_exit(const DiffusionSavepoint& init, test::RandomSource& rng) {
  DiffusionSavepoint s = capture_diffusion_exit(init, init.diagnostic, init.prognostic);
  // Fresh values, so a reader that mixed up init and exit would be caught.
  const std::size_t nc = init.grid.num_cells, ne = init.grid.num_edges;
  const std::size_t k = init.num_levels(), kh = k + 1;
  s.prognostic.vn = random_2d<wp>(rng, "vn", ne, k, -20.0, 20.0);
  s.prognostic.w = random_2d<wp>(rng, "w", nc, kh);
  s.diagnostic.div_ic = random_2d<vp>(rng, "div_ic", nc, kh);
  return s;
}

// ---- Field-by-field identity ------------------------------------------------------------------

template <class F>
void for_each_field_pair(const DiffusionSavepoint& a, const DiffusionSavepoint& b, F&& f) {
  const auto named = [&f](const FieldSpec& spec, const auto& x, const auto& y) {
    f(spec.name, x, y);
  };
  DiffusionPrognosticState<Host>::for_each_field(named, a.prognostic, b.prognostic);
  DiffusionDiagnosticState<Host>::for_each_field(named, a.diagnostic, b.diagnostic);
  DiffusionMetricState<Host>::for_each_field(named, a.metric, b.metric);
  DiffusionInterpolationState<Host>::for_each_field(named, a.interpolation, b.interpolation);
  DiffusionEdgeParams<Host>::for_each_field(named, a.edges, b.edges);
  DiffusionCellParams<Host>::for_each_field(named, a.cells, b.cells);
}

void expect_same_config(const DiffusionConfig& a, const DiffusionConfig& b) {
#define ICONDIFF_EXPECT_FIELD(f) EXPECT_EQ(a.f, b.f) << #f
  ICONDIFF_EXPECT_FIELD(diffusion_type);
  ICONDIFF_EXPECT_FIELD(apply_to_vertical_wind);
  ICONDIFF_EXPECT_FIELD(apply_to_horizontal_wind);
  ICONDIFF_EXPECT_FIELD(apply_to_temperature);
  ICONDIFF_EXPECT_FIELD(apply_smag_diff_to_vertical_wind);
  ICONDIFF_EXPECT_FIELD(compute_3d_smag_coeff);
  ICONDIFF_EXPECT_FIELD(type_vn_diffu);
  ICONDIFF_EXPECT_FIELD(type_t_diffu);
  ICONDIFF_EXPECT_FIELD(hdiff_efdt_ratio);
  ICONDIFF_EXPECT_FIELD(hdiff_w_efdt_ratio);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_factor);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_factor2);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_factor3);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_factor4);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_height);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_height2);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_height3);
  ICONDIFF_EXPECT_FIELD(smagorinski_scaling_height4);
  ICONDIFF_EXPECT_FIELD(apply_zdiffusion_t);
  ICONDIFF_EXPECT_FIELD(ndyn_substeps);
  ICONDIFF_EXPECT_FIELD(temperature_boundary_diffusion_denominator);
  ICONDIFF_EXPECT_FIELD(velocity_boundary_diffusion_denominator);
  ICONDIFF_EXPECT_FIELD(max_nudging_coefficient);
  ICONDIFF_EXPECT_FIELD(shear_type);
  ICONDIFF_EXPECT_FIELD(iforcing);
  ICONDIFF_EXPECT_FIELD(a_hshr);
  ICONDIFF_EXPECT_FIELD(loutshs);
#undef ICONDIFF_EXPECT_FIELD
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

/// Everything in `b` equals `a` bit for bit; fields absent from an exit savepoint stay empty.
void expect_identical(const DiffusionSavepoint& a, const DiffusionSavepoint& b) {
  EXPECT_EQ(a.kind, b.kind);
  expect_same_config(a.config, b.config);
  EXPECT_EQ(std::memcmp(&a.dtime, &b.dtime, sizeof(double)), 0) << a.dtime << " vs " << b.dtime;
  EXPECT_EQ(a.initial_run, b.initial_run);
  expect_same_grid_reference(a.grid, b.grid);
  EXPECT_EQ(a.vertical.vct_a, b.vertical.vct_a);
  EXPECT_EQ(a.vertical.end_index_of_damping_layer, b.vertical.end_index_of_damping_layer);
  EXPECT_EQ(a.metadata, b.metadata);
  for_each_field_pair(a, b, [&](const std::string& name, const auto& x, const auto& y) {
    EXPECT_TRUE(bit_identical(name, x, y));
    if (y.size() != 0) {
      EXPECT_EQ(y.label(), "icondiff::savepoint::" + name);
    }
  });
}

// ---- Round trips ------------------------------------------------------------------------------

TEST(DiffusionSavepoint, InitRoundTripIsBitIdenticalInEveryFormat) {
  SeededTest t;
  const DiffusionSavepoint init = random_init(octahedron(), 5, t.rng);
  for (const auto format : {SavepointFileFormat::Auto, SavepointFileFormat::Offset64,
                            SavepointFileFormat::Cdf5, SavepointFileFormat::Netcdf4}) {
    SCOPED_TRACE("format " + std::to_string(static_cast<int>(format)));
    const std::string path =
        test::scratch_file("init_" + std::to_string(static_cast<int>(format)) + ".nc");
    write_diffusion_savepoint(path, init, format);
    expect_identical(init, read_diffusion_savepoint(path));
  }
}

TEST(DiffusionSavepoint, ExitFilesHoldOnlyTheOutputs) {
  SeededTest t;
  const DiffusionSavepoint init = random_init(octahedron(), 4, t.rng);
  DiffusionSavepoint exit = random_exit(init, t.rng);
  exit.metric = init.metric;  // not part of an exit savepoint: must not be written
  const std::string path = test::scratch_file("exit.nc");
  write_diffusion_savepoint(path, exit);
  const DiffusionSavepoint back = read_diffusion_savepoint(path);
  EXPECT_EQ(back.kind, SavepointKind::Exit);
  exit.metric = {};
  expect_identical(exit, back);
  EXPECT_EQ(back.metric.theta_ref_mc.size(), 0u);
  EXPECT_EQ(back.interpolation.geofac_div.size(), 0u);
  EXPECT_EQ(back.edges.edge_areas.size(), 0u);
  EXPECT_EQ(back.cells.cell_area.size(), 0u);

  int ncid = 0, varid = 0;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  for (const char* output : {"vn", "w", "theta_v", "exner", "div_ic", "hdef_ic", "dwdx", "dwdy"})
    EXPECT_EQ(nc_inq_varid(ncid, output, &varid), NC_NOERR) << output;
  for (const char* input :
       {"theta_ref_mc", "zd_vertoffset", "geofac_div", "edge_areas", "cell_area"})
    EXPECT_NE(nc_inq_varid(ncid, input, &varid), NC_NOERR) << input;
  nc_close(ncid);
}

TEST(DiffusionSavepoint, ZdFieldsAreOptionalOnlyWithoutTrulyHorizontalDiffusion) {
  SeededTest t;
  DiffusionSavepoint init = random_init(octahedron(), 4, t.rng);
  init.metric.zd_vertoffset = {};
  init.metric.zd_diffcoef = {};
  init.metric.zd_intcoef = {};
  const std::string path = test::scratch_file("no_zd.nc");
  EXPECT_THROW(write_diffusion_savepoint(path, init), InvalidArgument);
  init.config.apply_zdiffusion_t = false;
  write_diffusion_savepoint(path, init);
  const DiffusionSavepoint back = read_diffusion_savepoint(path);
  expect_identical(init, back);
  EXPECT_EQ(back.metric.zd_vertoffset.size(), 0u);
}

TEST(DiffusionSavepoint, FileLayoutIsIconsOrder) {
  SeededTest t;
  const DiffusionSavepoint init = random_init(octahedron(), 3, t.rng);
  const std::string path = test::scratch_file("layout.nc");
  write_diffusion_savepoint(path, init);
  int ncid = 0;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  const auto dimension = [&](const char* name) {
    int id = 0;
    std::size_t len = 0;
    EXPECT_EQ(nc_inq_dimid(ncid, name, &id), NC_NOERR) << name;
    nc_inq_dimlen(ncid, id, &len);
    return len;
  };
  EXPECT_EQ(dimension("cell"), 8u);
  EXPECT_EQ(dimension("edge"), 12u);
  EXPECT_EQ(dimension("vertex"), 6u);
  EXPECT_EQ(dimension("nlev"), 3u);
  EXPECT_EQ(dimension("nlev_half"), 4u);
  EXPECT_EQ(dimension("c2e"), 3u);
  EXPECT_EQ(dimension("c2e2co"), 4u);
  EXPECT_EQ(dimension("e2c2v"), 4u);
  EXPECT_EQ(dimension("v2e"), 6u);
  EXPECT_EQ(dimension("c2e2c"), 3u);

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
  EXPECT_EQ(dims_of("vn"), (Dims{"nlev", "edge"}));
  EXPECT_EQ(dims_of("w"), (Dims{"nlev_half", "cell"}));
  EXPECT_EQ(dims_of("zd_intcoef"), (Dims{"nlev", "c2e2c", "cell"}));
  EXPECT_EQ(dims_of("geofac_n2s"), (Dims{"c2e2co", "cell"}));
  EXPECT_EQ(dims_of("rbf_coeff_1"), (Dims{"v2e", "vertex"}));
  EXPECT_EQ(dims_of("dual_normal_vert_y"), (Dims{"e2c2v", "edge"}));
  EXPECT_EQ(dims_of("vct_a"), (Dims{"nlev_half"}));

  // The raw file data in C order are ICON's order (points fastest), whatever the build's layout.
  int id = 0;
  nc_inq_varid(ncid, "zd_intcoef", &id);
  std::vector<double> raw(init.metric.zd_intcoef.size());
  ASSERT_EQ(nc_get_var_double(ncid, id, raw.data()), NC_NOERR);
  EXPECT_EQ(raw, test::in_file_order(init.metric.zd_intcoef));
  nc_inq_varid(ncid, "zd_vertoffset", &id);
  std::vector<int> offsets(init.metric.zd_vertoffset.size());
  ASSERT_EQ(nc_get_var_int(ncid, id, offsets.data()), NC_NOERR);
  EXPECT_EQ(offsets, test::in_file_order(init.metric.zd_vertoffset));

  const auto type_of = [&](const char* var) {
    nc_type type = 0;
    nc_inq_varid(ncid, var, &id);
    nc_inq_vartype(ncid, id, &type);
    return type;
  };
  const nc_type vp_type = sizeof(vp) == sizeof(float) ? NC_FLOAT : NC_DOUBLE;
  EXPECT_EQ(type_of("vn"), NC_DOUBLE);
  EXPECT_EQ(type_of("hdef_ic"), vp_type);
  EXPECT_EQ(type_of("theta_ref_mc"), vp_type);
  EXPECT_EQ(type_of("zd_diffcoef"), NC_DOUBLE);
  EXPECT_EQ(type_of("zd_vertoffset"), NC_INT);

  const auto text = [&](int var, const char* name) {
    std::size_t len = 0;
    if (nc_inq_attlen(ncid, var, name, &len) != NC_NOERR) return std::string("<missing>");
    std::string value(len, '\0');
    nc_get_att_text(ncid, var, name, value.data());
    return value;
  };
  nc_inq_varid(ncid, "vn", &id);
  EXPECT_EQ(text(id, "units"), "m s-1");
  EXPECT_NE(text(id, "long_name"), "<missing>");
  EXPECT_EQ(text(id, "icon_name"), "p_nh_state%prog%vn");
  EXPECT_EQ(text(NC_GLOBAL, "savepoint"), "diffusion-init");
  EXPECT_EQ(text(NC_GLOBAL, "grid.source"), "test:octahedron");
  EXPECT_EQ(text(NC_GLOBAL, "metadata.date"), "2021-06-20T12:00:10.000");
  int version = 0, shear = -1;
  nc_type type = 0;
  EXPECT_EQ(nc_get_att_int(ncid, NC_GLOBAL, "icondiff_savepoint_format", &version), NC_NOERR);
  EXPECT_EQ(version, 1);
  EXPECT_EQ(nc_inq_atttype(ncid, NC_GLOBAL, "config.shear_type", &type), NC_NOERR);
  EXPECT_EQ(type, NC_INT);
  nc_get_att_int(ncid, NC_GLOBAL, "config.shear_type", &shear);
  EXPECT_EQ(shear, static_cast<int>(init.config.shear_type));
  EXPECT_EQ(nc_inq_atttype(ncid, NC_GLOBAL, "config.hdiff_efdt_ratio", &type), NC_NOERR);
  EXPECT_EQ(type, NC_DOUBLE);
  int nudging[2] = {-1, -1};
  EXPECT_EQ(nc_get_att_int(ncid, NC_GLOBAL, "grid.zones.edge.NUDGING_LEVEL_2", nudging), NC_NOERR);
  EXPECT_EQ(nc_inq_atttype(ncid, NC_GLOBAL, "grid.zones.cell.NUDGING_LEVEL_2", &type), NC_ENOTATT)
      << "zones that do not exist for a location are not written";
  nc_close(ncid);
}

TEST(DiffusionSavepoint, WriterRejectsInconsistentSavepoints) {
  SeededTest t;
  const DiffusionSavepoint good = random_init(octahedron(), 4, t.rng);
  const std::string path = test::scratch_file("rejected.nc");
  const auto expect_rejected = [&](DiffusionSavepoint s, const std::string& fragment) {
    try {
      write_diffusion_savepoint(path, s);
      ADD_FAILURE() << "writing should have failed with '" << fragment << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  DiffusionSavepoint s = good;
  s.prognostic.w = random_2d<wp>(t.rng, "w", 8, 4);  // full levels instead of half levels
  expect_rejected(s, "field w has extents (8, 4), expected (8, 5)");
  s = good;
  s.interpolation.geofac_div = {};
  expect_rejected(s, "field geofac_div is empty");
  s = good;
  s.metadata["bad key"] = "x";
  expect_rejected(s, "metadata key 'bad key'");
  s = good;
  s.dtime = 0.0;
  expect_rejected(s, "dtime = 0");
  s = good;
  s.config.shear_type = TurbulenceShearForcingType::VerticalHorizontalOfHorizontalWindLtheshs;
  expect_rejected(s, "itype_sher");
  s = good;
  s.vertical.end_index_of_damping_layer = 4;
  expect_rejected(s, "end_index_of_damping_layer");
  EXPECT_FALSE(std::ifstream(path).good()) << "nothing may be left behind";
  EXPECT_THROW(write_diffusion_savepoint("/nonexistent/folder/sp.nc", good), SavepointFileError);
}

// ---- Mirror helpers and capture ---------------------------------------------------------------

TEST(DiffusionSavepoint, MirrorCopiesRoundTripThroughTheDefaultMemorySpace) {
  SeededTest t;
  using Device = Kokkos::DefaultExecutionSpace::memory_space;
  DiffusionSavepoint s = random_init(octahedron(), 4, t.rng);
  s.metric.zd_intcoef = {};  // empty stays empty
  DiffusionSavepoint back = s;
  const auto metric = mirror_copy<Device>(s.metric);
  EXPECT_EQ(metric.theta_ref_mc.label(), "icondiff::savepoint::theta_ref_mc");
  EXPECT_EQ(metric.zd_intcoef.size(), 0u);
  EXPECT_EQ(metric.zd_intcoef.data(), nullptr);
  back.prognostic = mirror_copy<Host>(mirror_copy<Device>(s.prognostic));
  back.diagnostic = mirror_copy<Host>(mirror_copy<Device>(s.diagnostic));
  back.metric = mirror_copy<Host>(metric);
  back.interpolation = mirror_copy<Host>(mirror_copy<Device>(s.interpolation));
  back.edges = mirror_copy<Host>(mirror_copy<Device>(s.edges));
  back.cells = mirror_copy<Host>(mirror_copy<Device>(s.cells));
  for_each_field_pair(s, back, [&](const std::string& name, const auto& x, const auto& y) {
    EXPECT_TRUE(bit_identical(name, x, y));
    if (x.size() != 0) {
      EXPECT_NE(x.data(), y.data()) << name << ": a copy must not alias the source";
      EXPECT_EQ(y.label(), "icondiff::savepoint::" + name);
    }
  });
}

TEST(DiffusionSavepoint, CaptureCopiesTheStatesAtTheTimeOfTheCall) {
  SeededTest t;
  const DiffusionSavepoint s = random_init(octahedron(), 4, t.rng);
  auto prognostic = mirror_copy<Host>(s.prognostic);
  auto diagnostic = mirror_copy<Host>(s.diagnostic);
  DiffusionInputs<Host> inputs;  // capture reads no grid tables
  inputs.vertical = s.vertical;
  inputs.metric = s.metric;
  inputs.interpolation = s.interpolation;
  inputs.edges = s.edges;
  inputs.cells = s.cells;
  const DiffusionSavepoint init = capture_diffusion_init(
      s.config, s.grid, inputs, diagnostic, prognostic, s.dtime, s.initial_run, s.metadata);
  prognostic.vn(0, 0) += 1.0;  // run() updates in place; the savepoint keeps the old value
  EXPECT_EQ(init.prognostic.vn(0, 0), s.prognostic.vn(0, 0));
  expect_identical(s, init);
  const DiffusionSavepoint exit = capture_diffusion_exit(init, diagnostic, prognostic);
  EXPECT_EQ(exit.kind, SavepointKind::Exit);
  EXPECT_EQ(exit.prognostic.vn(0, 0), prognostic.vn(0, 0));
  EXPECT_EQ(exit.metadata, init.metadata);
  EXPECT_EQ(exit.metric.theta_ref_mc.size(), 0u);
}

// ---- Comparison -------------------------------------------------------------------------------

TEST(DiffusionSavepoint, ComparisonFlagsExactlyTheFieldsBeyondTolerance) {
  SeededTest t;
  DiffusionSavepoint expected = random_exit(random_init(octahedron(), 4, t.rng), t.rng);
  expected.config.shear_type =
      TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  DiffusionSavepoint actual = expected;
  actual.prognostic = mirror_copy<Host>(expected.prognostic);
  actual.diagnostic = mirror_copy<Host>(expected.diagnostic);

  const auto exact = compare_diffusion_outputs(expected, actual);
  EXPECT_TRUE(exact.passed()) << format_comparison(exact);
  ASSERT_EQ(exact.fields.size(), 8u);
  for (const auto& f : exact.fields) {
    EXPECT_TRUE(f.compared) << f.field();
    EXPECT_EQ(f.max_abs_error, 0.0) << f.field();
    EXPECT_EQ(f.max_abs_point, -1) << f.field();
    EXPECT_EQ(f.max_rel_point, -1) << f.field();
    EXPECT_EQ(f.num_failing, 0u);
    EXPECT_EQ(f.worst_point, -1) << f.field();
  }

  // vn beyond atol 1e-8 + rtol 1e-9 |vn| at (edge 7, level 2); w within its tolerance at
  // (cell 3, level 1); theta_v beyond rtol 1e-12 at (cell 5, level 3); div_ic beyond atol 1e-16
  // at (cell 2, level 4); NaN in exner at (cell 6, level 0).
  actual.prognostic.vn(7, 2) += 1e-8 + 2e-9 * std::fabs(expected.prognostic.vn(7, 2)) + 1e-9;
  actual.prognostic.w(3, 1) += 5e-15;
  actual.prognostic.theta_v(5, 3) *= 1.0 + 1e-10;
  actual.diagnostic.div_ic(2, 4) += static_cast<vp>(1e-3);
  actual.prognostic.exner(6, 0) = std::numeric_limits<double>::quiet_NaN();

  const auto c = compare_diffusion_outputs(expected, actual);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.failing_fields(), (std::vector<std::string>{"vn", "theta_v", "exner", "div_ic"}))
      << format_comparison(c);
  EXPECT_EQ(c["vn"].num_failing, 1u);
  EXPECT_EQ(c["vn"].worst_point, 7);
  EXPECT_EQ(c["vn"].worst_level, 2);
  EXPECT_EQ(c["vn"].max_abs_point, 7);
  EXPECT_EQ(c["vn"].max_abs_level, 2);
  EXPECT_EQ(c["vn"].max_rel_point, 7);
  EXPECT_EQ(c["vn"].worst_expected, expected.prognostic.vn(7, 2));
  EXPECT_EQ(c["vn"].worst_actual, actual.prognostic.vn(7, 2));
  EXPECT_TRUE(c["w"].passed());
  EXPECT_EQ(c["w"].max_abs_point, 3);
  EXPECT_EQ(c["w"].max_abs_level, 1);
  EXPECT_NEAR(c["w"].max_abs_error, 5e-15, 1e-15);
  EXPECT_EQ(c["theta_v"].worst_point, 5);
  EXPECT_EQ(c["theta_v"].worst_level, 3);
  EXPECT_NEAR(c["theta_v"].max_rel_error, 1e-10, 1e-13);
  EXPECT_EQ(c["exner"].num_nan, 1u);
  EXPECT_EQ(c["exner"].worst_point, 6);
  EXPECT_EQ(c["exner"].worst_level, 0);
  EXPECT_EQ(c["div_ic"].worst_point, 2);
  EXPECT_EQ(c["div_ic"].worst_level, 4);
  EXPECT_TRUE(c["hdef_ic"].passed());
  const std::string table = format_comparison(c);
  EXPECT_NE(table.find("FAILED: vn, theta_v, exner, div_ic"), std::string::npos) << table;
  std::cout << table;

  // shear_type 0: ICON4Py does not compare the turbulence diagnostics.
  expected.config.shear_type = TurbulenceShearForcingType::VerticalOfHorizontalWind;
  const auto no_shear = compare_diffusion_outputs(expected, actual);
  EXPECT_FALSE(no_shear["div_ic"].compared);
  EXPECT_TRUE(no_shear["div_ic"].passed());
  EXPECT_NE(no_shear["div_ic"].note.find("shear_type = 0"), std::string::npos);
  EXPECT_EQ(no_shear.failing_fields(), (std::vector<std::string>{"vn", "theta_v", "exner"}));

  // The table is data: loosen vn, drop exner.
  auto tolerances = icon4py_diffusion_tolerances();
  tolerances[0].atol = 1e-6;
  tolerances.erase(tolerances.begin() + 3);
  const auto loose = compare_diffusion_outputs(expected, actual, tolerances);
  EXPECT_EQ(loose.failing_fields(), (std::vector<std::string>{"theta_v"}));
  EXPECT_THROW(loose["exner"], InvalidArgument);

  tolerances.push_back({"rho", 0.0, 1e-12, false});
  EXPECT_THROW(compare_diffusion_outputs(expected, actual, tolerances), InvalidArgument);
  actual.prognostic.vn = random_2d<wp>(t.rng, "vn", 12, 3);
  EXPECT_THROW(compare_diffusion_outputs(expected, actual), InvalidArgument);
}

TEST(DiffusionSavepoint, TolerancesAreIcon4pys) {
  const auto t = icon4py_diffusion_tolerances();
  ASSERT_EQ(t.size(), 8u);
  const auto expect = [&](std::size_t i, const char* field, double atol, double rtol, bool shear) {
    EXPECT_EQ(t[i].field, field);
    EXPECT_EQ(t[i].atol, atol) << field;
    EXPECT_EQ(t[i].rtol, rtol) << field;
    EXPECT_EQ(t[i].only_with_shear, shear) << field;
  };
  expect(0, "vn", 1e-8, 1e-9, false);
  expect(1, "w", 1e-14, 1e-12, false);
  expect(2, "theta_v", 0.0, 1e-12, false);
  expect(3, "exner", 0.0, 1e-12, false);
  expect(4, "div_ic", 1e-16, 1e-12, true);
  expect(5, "hdef_ic", 1e-13, 1e-12, true);
  expect(6, "dwdx", 1e-18, 1e-12, true);
  expect(7, "dwdy", 1e-18, 1e-12, true);
}

// ---- Grid reference ---------------------------------------------------------------------------

TEST(DiffusionSavepoint, GridReferenceDetectsAnotherGrid) {
  const Grid& g = octahedron();
  const SavepointGridReference ref = make_grid_reference(g, "generate:octahedron");
  EXPECT_EQ(ref.source, "generate:octahedron");
  EXPECT_EQ(make_grid_reference(g).source, g.source);
  EXPECT_NO_THROW(check_same_grid(ref, g));
  EXPECT_NO_THROW(check_same_grid(ref, DeviceGrid<Kokkos::DefaultExecutionSpace::memory_space>(g)));

  const auto expect_mismatch = [&](const Grid& other, const std::string& fragment) {
    try {
      check_same_grid(ref, other);
      ADD_FAILURE() << "expected a GridError with '" << fragment << "'";
    } catch (const GridError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("generate:octahedron"), std::string::npos) << e.what();
    }
  };
  Grid other = g;
  other.uuid = "another-uuid";
  expect_mismatch(other, "uuid another-uuid");
  other = g;
  other.uuid.clear();  // an unknown uuid is not a mismatch
  EXPECT_NO_THROW(check_same_grid(ref, other));
  other.num_edges = 13;
  expect_mismatch(other, "it has 12 edges, this grid has 13");
  other = g;
  other.limited_area = true;
  expect_mismatch(other, "it is global, this grid is limited-area");
  other = g;
  auto ranges = std::array<IndexRange, num_zones>{};
  for (int z = 0; z < num_zones; ++z)
    if (zone_exists(Location::Vertex, static_cast<Zone>(z)))
      ranges[z] = g.zones[2].range(static_cast<Zone>(z));
  ranges[static_cast<int>(Zone::Interior)].start = 1;
  other.zones[2] = Zones(Location::Vertex, ranges);
  expect_mismatch(other, "its vertex zone INTERIOR is [0, 6), on this grid [1, 6)");
}

TEST(DiffusionSavepoint, RealLimitedAreaGridRoundTripsItsZones) {
  ICONDIFF_REAL_GRID_OR_SKIP(lam_path, test::lam_r19b04);
  ICONDIFF_REAL_GRID_OR_SKIP(global_path, test::global_r02b03);
  SeededTest t;
  const Grid lam = read_icon_grid(lam_path);
  const DiffusionSavepoint init = random_init(lam, 6, t.rng, lam_path);
  const std::string path = test::scratch_file("lam_init.nc");
  write_diffusion_savepoint(path, init);
  const DiffusionSavepoint back = read_diffusion_savepoint(path);
  expect_identical(init, back);
  EXPECT_TRUE(back.grid.limited_area);
  EXPECT_GT(back.grid.zones[1].range(Zone::Nudging2).size(), 0);
  EXPECT_NO_THROW(check_same_grid(back.grid, read_icon_grid(back.grid.source)));
  EXPECT_THROW(check_same_grid(back.grid, read_icon_grid(global_path)), GridError);
}

// ---- Capture -> file -> replay -> compare with the granule ------------------------------------

TEST(DiffusionSavepoint, ReplayOfACapturedCallReproducesItsOutputs) {
  SeededTest t;
  using Space = Kokkos::DefaultExecutionSpace;
  using M = Space::memory_space;
  const Grid& grid = octahedron();
  DiffusionSavepoint inputs = random_init(grid, 6, t.rng);
  inputs.config = mch_ch_r04b09_config();  // shear_type 2: every output is compared
  inputs.dtime = 10.0;
  inputs.initial_run = false;

  // Capture, as a driver would: device states in, two files out.
  const DeviceGrid<M> device_grid(grid);
  auto prognostic = mirror_copy<M>(inputs.prognostic);
  auto diagnostic = mirror_copy<M>(inputs.diagnostic);
  const DiffusionSavepoint& as_init = inputs;
  const DiffusionInputs<M> bundle = diffusion_inputs_from_savepoint(as_init, device_grid);
  Diffusion<Space> diffusion(inputs.config, bundle);
  const DiffusionSavepoint init = capture_diffusion_init(
      inputs.config, make_grid_reference(grid, "test:octahedron"), bundle, diagnostic, prognostic,
      inputs.dtime, inputs.initial_run, {{"date", "2021-06-20T12:00:10.000"}, {"rank", "0"}});
  diffusion.run(diagnostic, prognostic, inputs.dtime, inputs.initial_run);
  Kokkos::fence();
  const DiffusionSavepoint exit = capture_diffusion_exit(init, diagnostic, prognostic);
  const std::string init_path = test::scratch_file("replay_init.nc");
  const std::string exit_path = test::scratch_file("replay_exit.nc");
  write_diffusion_savepoint(init_path, init);
  write_diffusion_savepoint(exit_path, exit);

  // The call changed the state (otherwise the comparison below proves nothing).
  const auto changed = compare_diffusion_outputs(init, exit);
  EXPECT_FALSE(changed.passed()) << format_comparison(changed);

  // Replay standalone from the files only.
  const DiffusionSavepoint r = read_diffusion_savepoint(init_path);
  check_same_grid(r.grid, device_grid);
  Diffusion<Space> replay(r.config, diffusion_inputs_from_savepoint(r, device_grid));
  auto replay_prognostic = mirror_copy<M>(r.prognostic);
  auto replay_diagnostic = mirror_copy<M>(r.diagnostic);
  replay.run(replay_diagnostic, replay_prognostic, r.dtime, r.initial_run);
  Kokkos::fence();
  const DiffusionSavepoint expected = read_diffusion_savepoint(exit_path);
  expect_identical(exit, expected);
  const auto c = compare_diffusion_outputs(expected, replay_prognostic, replay_diagnostic);
  EXPECT_TRUE(c.passed()) << format_comparison(c);
  for (const auto& f : c.fields) {
    EXPECT_TRUE(f.compared) << f.field();
    EXPECT_EQ(f.max_abs_error, 0.0) << f.field() << ": the same build replays bit-identically";
  }
}

// ---- Bad files --------------------------------------------------------------------------------

const std::string& good_file() {
  static const std::string path = [] {
    test::RandomSource rng(12345);
    const std::string p = test::scratch_file("good_init.nc");
    DiffusionSavepoint s = random_init(octahedron(), 4, rng);
    s.config.shear_type = TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
    write_diffusion_savepoint(p, s);
    return p;
  }();
  return path;
}

std::string damaged(const std::string& name, const test::NetcdfEdits& edits) {
  return test::damaged_copy(good_file(), name, edits);
}

/// A copy of the good file with global attributes changed through netCDF-C.
std::string with_attributes(const std::string& name, const std::function<void(int)>& edit) {
  return test::with_global_attributes(good_file(), name, edit);
}

/// Reading `path` fails with a SavepointFileError about `variable` (and `index` if >= 0) whose
/// message contains `fragment` and the file name.
void expect_error(const std::string& path, const std::string& variable, long long index,
                  const std::string& fragment) {
  test::expect_savepoint_error([](const std::string& p) { read_diffusion_savepoint(p); }, path,
                               variable, index, fragment);
}

TEST(DiffusionSavepointErrors, TheGoodFileAndItsCopyRead) {
  EXPECT_NO_THROW(read_diffusion_savepoint(good_file()));
  EXPECT_NO_THROW(read_diffusion_savepoint(damaged("plain_copy", {})));
}

TEST(DiffusionSavepointErrors, NotASavepoint) {
  expect_error("/nonexistent/folder/sp.nc", "", -1, "the file does not exist");
  const std::string text = test::scratch_file("text.nc");
  std::ofstream(text) << "not netCDF\n";
  expect_error(text, "", -1, "cannot be opened as netCDF");
  ICONDIFF_REAL_GRID_OR_SKIP(grid, test::global_r02b03);
  expect_error(grid, "icondiff_savepoint_format", -1, "not an icondiff diffusion savepoint");
}

// Found by fuzz/fuzz_savepoint_file: a CDF-5 header whose dimension name claims 2^64 - 1
// characters crashed libnetcdf 4.9.0's nc_open (memcpy of size -1); the header is now checked
// against the file before netCDF reads it.
TEST(DiffusionSavepointErrors, HeaderLengthBeyondTheFile) {
  const std::string path = test::scratch_file("name_beyond_the_file.nc");
  {
    std::ofstream out(path, std::ios::binary);
    const auto put = [&out](std::uint64_t v, int bytes) {
      for (int i = bytes - 1; i >= 0; --i) out.put(static_cast<char>((v >> (8 * i)) & 0xff));
    };
    out.write("CDF\x05", 4);
    put(0, 8);                  // no records
    put(10, 4);                 // NC_DIMENSION: the dimension list,
    put(1, 8);                  // of one dimension,
    put(~std::uint64_t{0}, 8);  // whose name is 2^64 - 1 characters long
    for (int i = 0; i < 8; ++i) out.write("abcd", 4);
  }
  expect_error(path, "", -1, "header is cut short");
}

TEST(DiffusionSavepointErrors, TruncatedFile) {
  const std::string path = damaged("truncated", {});
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 100);
  expect_error(path, "", -1, "truncated");
}

TEST(DiffusionSavepointErrors, FormatVersionAndKind) {
  expect_error(with_attributes("version2", set_int("icondiff_savepoint_format", 2)),
               "icondiff_savepoint_format", -1, "format version 2, this icondiff reads version 1");
  expect_error(
      with_attributes("no_version",
                      [](int ncid) { nc_del_att(ncid, NC_GLOBAL, "icondiff_savepoint_format"); }),
      "icondiff_savepoint_format", -1, "not an icondiff diffusion savepoint");
  expect_error(
      with_attributes(
          "kind",
          [](int ncid) { nc_put_att_text(ncid, NC_GLOBAL, "savepoint", 14, "diffusion-half"); }),
      "savepoint", -1, "expected 'diffusion-init' or 'diffusion-exit'");
}

TEST(DiffusionSavepointErrors, ConfigValues) {
  expect_error(with_attributes("unknown_enum", set_int("config.iforcing", 7)), "config.iforcing",
               -1,
               "= 7 is not a value of ForcingType (ICON run_nml:iforcing); the encoding is 0 (no "
               "forcing), 2 (AES), 3 (NWP)");
  expect_error(with_attributes("unknown_shear", set_int("config.shear_type", -1)),
               "config.shear_type", -1, "is not a value of TurbulenceShearForcingType");
  // Known to ICON, rejected by DiffusionConfig::validate().
  expect_error(with_attributes("unsupported_enum", set_int("config.diffusion_type", 4)),
               "config.diffusion_type", -1, "only 5");
  expect_error(with_attributes("unsupported_shear", set_int("config.shear_type", 3)),
               "config.shear_type", -1, "itype_sher");
  expect_error(with_attributes("bool2", set_int("config.loutshs", 2)), "config.loutshs", -1,
               "expected 0 (false) or 1 (true)");
  expect_error(with_attributes("substeps0", set_int("config.ndyn_substeps", 0)),
               "config.ndyn_substeps", -1, "expected at least 1");
  expect_error(with_attributes("text_enum",
                               [](int ncid) {
                                 nc_put_att_text(ncid, NC_GLOBAL, "config.type_t_diffu", 1, "2");
                               }),
               "config.type_t_diffu", -1, "expected an integer attribute");
  expect_error(
      with_attributes("no_config", [](int ncid) { nc_del_att(ncid, NC_GLOBAL, "config.a_hshr"); }),
      "config.a_hshr", -1, "missing");
}

TEST(DiffusionSavepointErrors, RunArgumentsAndMetadata) {
  expect_error(with_attributes("dtime",
                               [](int ncid) {
                                 const double dtime = -1.0;
                                 nc_put_att_double(ncid, NC_GLOBAL, "dtime", NC_DOUBLE, 1, &dtime);
                               }),
               "dtime", -1, "expected a finite time step > 0 s");
  expect_error(with_attributes("initial_run", set_int("initial_run", 5)), "initial_run", -1,
               "expected 0 (false) or 1 (true)");
  expect_error(with_attributes("metadata_int", set_int("metadata.rank", 3)), "metadata.rank", -1,
               "expected a text attribute");
}

TEST(DiffusionSavepointErrors, GridAndVerticalGrid) {
  expect_error(with_attributes("zone",
                               [](int ncid) {
                                 const int range[2] = {0, 99};
                                 nc_put_att_int(ncid, NC_GLOBAL, "grid.zones.edge.LOCAL", NC_INT, 2,
                                                range);
                               }),
               "grid.zones.edge.LOCAL", -1, "expected two indices (start, end) in [0, 12]");
  expect_error(with_attributes("nrd", set_int("vertical.end_index_of_damping_layer", 4)),
               "vertical.end_index_of_damping_layer", -1,
               "expected a half level in [0, nlev - 1 = 3]");
  test::NetcdfEdits rising;
  rising.edit_values["vct_a"] = [](std::vector<double>& v) { std::swap(v[1], v[2]); };
  expect_error(damaged("rising", rising), "vct_a", -1, "must decrease");
}

TEST(DiffusionSavepointErrors, MissingVariable) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"geofac_div"};
  expect_error(damaged("no_geofac_div", edits), "geofac_div", -1,
               "the variable is missing; a diffusion-init savepoint holds it");
  edits.drop_variables = {"zd_intcoef"};
  expect_error(damaged("no_zd_intcoef", edits), "zd_intcoef", -1,
               "when config.apply_zdiffusion_t is 1");
  edits.drop_variables = {"vct_a"};
  expect_error(damaged("no_vct_a", edits), "vct_a", -1, "missing");
}

TEST(DiffusionSavepointErrors, WrongDimensionsAndSizes) {
  test::NetcdfEdits edits;
  edits.redimension["vn"] = {"nlev", "cell"};
  expect_error(damaged("vn_on_cells", edits), "vn", -1,
               "has dimensions (nlev, cell), expected (nlev, edge)");
  edits = {};
  edits.redimension["w"] = {"nlev", "cell"};
  expect_error(damaged("w_full_levels", edits), "w", -1,
               "has dimensions (nlev, cell), expected (nlev_half, cell)");
  edits = {};
  edits.rename_dimensions = {{"c2e", "c2e_was"}, {"c2e2co", "c2e"}};
  expect_error(damaged("c2e_size", edits), "", -1, "the dimension 'c2e' has size 4, expected 3");
  edits = {};
  edits.rename_dimensions = {{"nlev", "nlev_half"}, {"nlev_half", "nlev"}};
  expect_error(damaged("half_levels", edits), "", -1,
               "the dimension 'nlev_half' has size 4, expected 6 (nlev + 1 half levels)");
}

TEST(DiffusionSavepointErrors, IntegerOffsets) {
  // Offsets stored as floating point by another producer: integral values are accepted ...
  test::NetcdfEdits edits;
  edits.make_double = {"zd_vertoffset"};
  const std::string as_double = damaged("offsets_double", edits);
  EXPECT_TRUE(bit_identical("zd_vertoffset",
                            read_diffusion_savepoint(good_file()).metric.zd_vertoffset,
                            read_diffusion_savepoint(as_double).metric.zd_vertoffset));
  // ... NaN and fractions are not. Flat index 8 * 3 + 5 = cell 5, slot 0, level 1 (8 cells).
  edits.edit_values["zd_vertoffset"] = [](std::vector<double>& v) {
    v[8 * 3 + 5] = std::numeric_limits<double>::quiet_NaN();
  };
  expect_error(damaged("offsets_nan", edits), "zd_vertoffset", 5, "slot 0, level 1 holds nan");
  edits.edit_values["zd_vertoffset"] = [](std::vector<double>& v) { v[8 * 3 + 8 + 2] = 0.5; };
  expect_error(damaged("offsets_fraction", edits), "zd_vertoffset", 2,
               "slot 1, level 1 holds 0.5, expected an integer level offset");
  // An offset leaving the column where zd_diffcoef != 0 (cell 1, slot 2, level 3: the last
  // level; zd_diffcoef is zero only at level 0 of even cells).
  edits = {};
  edits.edit_values["zd_vertoffset"] = [](std::vector<double>& v) { v[(3 * 3 + 2) * 8 + 1] = 0; };
  expect_error(damaged("offsets_outside", edits), "zd_vertoffset", 1,
               "slot 2, level 3 holds 0 where zd_diffcoef != 0, so the granule would read levels 3 "
               "and 4; expected both in [0, 3]");
  // Where zd_diffcoef == 0 the offset is never read (ICON4Py's dense fields hold 0 there).
  edits.edit_values["zd_vertoffset"] = [](std::vector<double>& v) { v[0] = 1000; };
  EXPECT_NO_THROW(read_diffusion_savepoint(damaged("offsets_masked", edits)));
}

TEST(DiffusionSavepoint, VpFieldsStoredInDoubleAreConvertedToVp) {
  // A file whose vp fields are double (a double build's file, or another producer's) reads into
  // this build's vp: exactly in a double build, rounded to nearest in a mixed-precision build.
  test::NetcdfEdits edits;
  edits.make_double = {"hdef_ic", "div_ic", "dwdx", "dwdy", "theta_ref_mc", "wgtfac_c"};
  const DiffusionSavepoint original = read_diffusion_savepoint(good_file());
  const DiffusionSavepoint widened = read_diffusion_savepoint(damaged("vp_double", edits));
  expect_identical(original, widened);
  edits.edit_values["wgtfac_c"] = [](std::vector<double>& v) { v[3] = 0.1; };
  const DiffusionSavepoint edited = read_diffusion_savepoint(damaged("vp_double_edited", edits));
  EXPECT_EQ(edited.metric.wgtfac_c(3, 0), static_cast<vp>(0.1));
}

TEST(DiffusionSavepointErrors, EveryErrorIsAnIcondiffError) {
  test::NetcdfEdits edits;
  edits.drop_variables = {"cell_area"};
  EXPECT_THROW(read_diffusion_savepoint(damaged("no_area", edits)), Error);
}

}  // namespace
}  // namespace icondiff
