// The model's static fields described once and held once (statics/static_fields.hpp,
// setup/static_fields_setup.hpp):
//  * every field of every granule's selection is a field of the one list, with the same
//    description (a selection cannot redefine a field: it is the same macro);
//  * no field is listed twice in the union;
//  * the "used by" table: each field of the list has a user, the shared ones several;
//  * a bundle holds exactly the fields its selection needs (none of the dycore's for a
//    diffusion-only setup), with the field list's shapes;
//  * the diffusion and the dycore made from one bundle share its Views: the same data pointers,
//    and making them allocates nothing and copies nothing (Kokkos Tools callbacks);
//  * the diffusion's inputs through the bundle equal the factories' values (rounded to vp).
#include "support/test_grids.hpp"

#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/dycore_states.hpp>
#include <icondiff/io/static_fields_file.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/static_fields_setup.hpp>

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>

namespace icondiff {
namespace {

using Memory = Kokkos::DefaultExecutionSpace::memory_space;

template <class State>
std::set<std::string> names_of() {
  std::set<std::string> names;
  for (const FieldSpec& s : State::field_specs()) names.insert(s.name);
  return names;
}

/// Every field of State is in StaticFields with the very same description.
template <class State>
void expect_selection_of_the_list(const char* what) {
  const auto& all = StaticFields<Memory>::field_specs();
  for (const FieldSpec& s : State::field_specs()) {
    const FieldSpec* found = nullptr;
    for (const FieldSpec& a : all)
      if (std::strcmp(a.name, s.name) == 0) found = &a;
    ASSERT_NE(found, nullptr) << what << ": " << s.name << " is not a static field";
    EXPECT_EQ(found->location, s.location) << s.name;
    EXPECT_EQ(found->neighbours, s.neighbours) << s.name;
    EXPECT_EQ(found->levels, s.levels) << s.name;
    EXPECT_STREQ(found->units, s.units) << s.name;
    EXPECT_STREQ(found->long_name, s.long_name) << s.name;
  }
}

TEST(StaticFields, EveryGranuleSelectsFromTheOneList) {
  expect_selection_of_the_list<DiffusionMetricState<Memory>>("diffusion metric");
  expect_selection_of_the_list<DiffusionInterpolationState<Memory>>("diffusion interpolation");
  expect_selection_of_the_list<DiffusionEdgeParams<Memory>>("diffusion edges");
  expect_selection_of_the_list<DiffusionCellParams<Memory>>("diffusion cells");
  expect_selection_of_the_list<DycoreMetricState<Memory>>("dycore metric");
  expect_selection_of_the_list<DycoreInterpolationState<Memory>>("dycore interpolation");
  expect_selection_of_the_list<DycoreEdgeParams<Memory>>("dycore edges");
}

TEST(StaticFields, EachFieldOnceAndEachUsed) {
  std::set<std::string> seen;
  for (const FieldSpec& s : StaticFields<Memory>::field_specs()) {
    EXPECT_TRUE(seen.insert(s.name).second) << s.name << " is listed twice";
    EXPECT_FALSE(static_field_users(s.name).empty()) << s.name << " is used by nobody";
  }
  EXPECT_TRUE(static_field_users("not_a_field").empty());
  // The seven fields the review found described in both granules' lists: one field, two users.
  for (const char* shared : {"e_bln_c_s", "geofac_div", "geofac_grg_x", "geofac_grg_y",
                             "nudgecoeff_e", "wgtfac_c", "inverse_dual_edge_lengths"}) {
    const auto users = static_field_users(shared);
    EXPECT_EQ(users.front(), "diffusion") << shared;
    EXPECT_GE(users.size(), 3u) << shared;  // diffusion, a dycore program, solve_nh
  }
  const auto pgrad = static_field_users("zdiff_gradp");
  EXPECT_EQ(pgrad, (std::vector<std::string>{"compute_rho_theta_pgrad_and_update_vn",
                                             "compute_hydrostatic_correction_term", "solve_nh"}));
}

const HostStaticInputs& host_inputs(const StaticFieldSelection& selection) {
  static std::map<int, HostStaticInputs> cache;
  const int key = selection.diffusion + 2 * selection.dycore + 4 * selection.solve_nh;
  auto it = cache.find(key);
  if (it == cache.end()) {
    StaticsSetupConfig config;
    const Grid grid = test::granule_test_grids().back().grid;
    config.interpolation = test::interpolation_config_for(grid);
    config.vertical.num_levels = 20;
    config.metrics.topography = TopographyConfig::gaussian_hill(2000.0, 300e3, 8.0, 46.5);
    it = cache.emplace(key, compute_static_inputs(grid, config, selection)).first;
  }
  return it->second;
}

TEST(StaticFields, ABundleHoldsWhatItsSelectionNeeds) {
  StaticFieldSelection diffusion_only;
  const auto& in = host_inputs(diffusion_only);
  EXPECT_TRUE(in.interpolation.c_intp.empty()) << "the dycore's factories ran for the diffusion";
  const StaticFields<Memory> s = make_static_fields<Memory>(in);
  int held = 0;
  StaticFields<Memory>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        EXPECT_EQ(view.data() != nullptr, diffusion_only.needs(spec.name)) << spec.name;
        held += view.data() != nullptr;
      },
      s);
  EXPECT_EQ(held, DiffusionMetricState<Memory>::num_fields +
                      DiffusionInterpolationState<Memory>::num_fields +
                      DiffusionEdgeParams<Memory>::num_fields +
                      DiffusionCellParams<Memory>::num_fields);
  EXPECT_EQ(s.rayleigh_w.data(), nullptr);

  const auto& all = host_inputs(StaticFieldSelection::all());
  const StaticFields<Memory> everything = make_static_fields<Memory>(all);
  const FieldSizes sizes{static_cast<std::size_t>(all.grid.num_cells),
                         static_cast<std::size_t>(all.grid.num_edges),
                         static_cast<std::size_t>(all.grid.num_vertices), 20};
  StaticFields<Memory>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        ASSERT_NE(view.data(), nullptr) << spec.name;
        EXPECT_EQ(view_extents(view), field_extents(spec, sizes)) << spec.name;
        EXPECT_EQ(view.label(), std::string("icondiff::statics::") + spec.name);
      },
      everything);
  EXPECT_EQ(everything.rayleigh_w.extent(0), 21u);
  EXPECT_EQ(everything.scaling_factor_for_3d_divdamp.extent(0), 20u);
}

std::uint64_t allocations = 0, deep_copies = 0;
void on_allocate(Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  ++allocations;
}
void on_deep_copy(Kokkos_Profiling_SpaceHandle, const char*, const void*,
                  Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  ++deep_copies;
}

TEST(StaticFields, TwoGranulesOfOneGridShareOneCopy) {
  const auto& in = host_inputs(StaticFieldSelection::all());
  const StaticFields<Memory> statics = make_static_fields<Memory>(in);
  const DeviceGrid<Memory> grid(in.grid);

  allocations = deep_copies = 0;
  compat::set_allocate_data_callback(on_allocate);
  compat::set_begin_deep_copy_callback(on_deep_copy);
  const DiffusionInputs<Memory> diffusion = make_diffusion_inputs<Memory>(in, statics, grid);
  const DycoreInputs<Memory> dycore = make_dycore_inputs<Memory>(in, statics, grid);
  compat::set_allocate_data_callback(nullptr);
  compat::set_begin_deep_copy_callback(nullptr);
  EXPECT_EQ(allocations, 0u) << "selecting from the bundle must not allocate";
  EXPECT_EQ(deep_copies, 0u) << "selecting from the bundle must not copy";

  EXPECT_EQ(diffusion.metric.wgtfac_c.data(), dycore.metric.wgtfac_c.data());
  EXPECT_EQ(diffusion.metric.wgtfac_c.data(), statics.wgtfac_c.data());
  EXPECT_EQ(diffusion.interpolation.geofac_div.data(), dycore.interpolation.geofac_div.data());
  EXPECT_EQ(diffusion.interpolation.e_bln_c_s.data(), dycore.interpolation.e_bln_c_s.data());
  EXPECT_EQ(diffusion.interpolation.geofac_grg_x.data(), dycore.interpolation.geofac_grg_x.data());
  EXPECT_EQ(diffusion.interpolation.geofac_grg_y.data(), dycore.interpolation.geofac_grg_y.data());
  EXPECT_EQ(diffusion.interpolation.nudgecoeff_e.data(), dycore.interpolation.nudgecoeff_e.data());
  EXPECT_EQ(diffusion.edges.inverse_dual_edge_lengths.data(),
            dycore.edges.inverse_dual_edge_lengths.data());
  // Complete enough for both granules' own checks.
  EXPECT_NO_THROW(check_diffusion_inputs(diffusion, true));
  EXPECT_NO_THROW(check_dycore_inputs(dycore));
  EXPECT_EQ(dycore.nflat_gradp, in.dycore_metrics.nflat_gradp);
  EXPECT_EQ(dycore.nflatlev, in.metrics.nflatlev);
}

TEST(StaticFields, TheDiffusionInputsHoldTheFactoriesValues) {
  const auto& in = host_inputs(StaticFieldSelection{});
  const DiffusionInputs<Memory> d = make_diffusion_inputs<Memory>(in);
  const auto theta =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.metric.theta_ref_mc);
  const auto rbf =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.interpolation.rbf_coeff_2);
  const auto zd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.metric.zd_intcoef);
  for (index_t c = 0; c < in.grid.num_cells; ++c)
    for (int k = 0; k < 20; ++k) {
      EXPECT_EQ(theta(c, k), static_cast<vp>(in.metrics.theta_ref_mc(c, k)));
      for (int j = 0; j < 3; ++j) EXPECT_EQ(zd(c, j, k), in.metrics.zd_intcoef[j](c, k));
    }
  for (index_t v = 0; v < in.grid.num_vertices; ++v)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(rbf(v, j), in.interpolation.rbf_vec_coeff_v2(v, j));
}

/// The file holds every field of the bundle under its name, point index fastest, with the list's
/// attributes.
TEST(StaticFields, TheStaticsFileHoldsTheBundle) {
  const auto& in = host_inputs(StaticFieldSelection::all());
  const StaticFields<Kokkos::HostSpace> statics = make_static_fields<Kokkos::HostSpace>(in);
  const std::string path = test::scratch_file("statics.nc");
  write_static_fields_file(path, in, statics);
  int nc = -1;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR);
  int checked = 0;
  StaticFields<Kokkos::HostSpace>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        int var = -1;
        ASSERT_EQ(nc_inq_varid(nc, spec.name, &var), NC_NOERR) << spec.name;
        std::vector<double> values(view.size());
        ASSERT_EQ(nc_get_var_double(nc, var, values.data()), NC_NOERR) << spec.name;
        // (level, slot, point) in the file: the point index is fastest.
        const std::size_t np = view.extent(0);
        for (std::size_t i = 0; i < values.size(); i += 7) {
          const std::size_t p = i % np, rest = i / np;
          double expected = 0.0;
          if constexpr (std::decay_t<decltype(view)>::rank == 1) expected = view(p);
          if constexpr (std::decay_t<decltype(view)>::rank == 2) expected = view(p, rest);
          if constexpr (std::decay_t<decltype(view)>::rank == 3)
            expected = view(p, rest % view.extent(1), rest / view.extent(1));
          ASSERT_EQ(values[i], expected) << spec.name << " element " << i;
        }
        std::size_t length = 0;
        ASSERT_EQ(nc_inq_attlen(nc, var, "used_by", &length), NC_NOERR) << spec.name;
        std::string used_by(length, ' ');
        nc_get_att_text(nc, var, "used_by", used_by.data());
        EXPECT_EQ(used_by.find("diffusion") != std::string::npos,
                  StaticFieldSelection{}.needs(spec.name))
            << spec.name << ": " << used_by;
        ++checked;
      },
      statics);
  EXPECT_EQ(checked, StaticFields<Kokkos::HostSpace>::num_fields);
  int nflat_gradp = -1;
  EXPECT_EQ(nc_get_att_int(nc, NC_GLOBAL, "nflat_gradp", &nflat_gradp), NC_NOERR);
  EXPECT_EQ(nflat_gradp, in.dycore_metrics.nflat_gradp);
  nc_close(nc);
}

/// The file read back gives the same bundle, bit for bit, and the dycore's inputs from it pass
/// the dycore's checks: the statics can come from a file as the diffusion's come from a
/// savepoint.
TEST(StaticFields, TheStaticsFileReadsBackAsTheSameBundle) {
  const auto& in = host_inputs(StaticFieldSelection::all());
  const StaticFields<Kokkos::HostSpace> statics = make_static_fields<Kokkos::HostSpace>(in);
  const std::string path = test::scratch_file("statics_round_trip.nc");
  write_static_fields_file(path, in, statics);
  const StaticFieldsFile file = read_static_fields_file(path, in.grid);
  int compared = 0;
  StaticFields<Kokkos::HostSpace>::for_each_field(
      [&](const FieldSpec& spec, const auto& written, const auto& read) {
        ASSERT_EQ(view_extents(read), view_extents(written)) << spec.name;
        const auto* a = written.data();
        const auto* b = read.data();
        ASSERT_NE(b, nullptr) << spec.name;
        for (std::size_t i = 0; i < written.span(); ++i)
          ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(a[i])), 0) << spec.name << " element " << i;
        ++compared;
      },
      statics, file.fields);
  EXPECT_EQ(compared, StaticFields<Kokkos::HostSpace>::num_fields);
  for (std::size_t k = 0; k < statics.rayleigh_w.extent(0); ++k)
    EXPECT_EQ(file.fields.rayleigh_w(k), statics.rayleigh_w(k));
  EXPECT_EQ(file.vct_a, in.metrics.vertical.vct_a);
  EXPECT_EQ(file.indices.nlev, in.metrics.num_levels());
  EXPECT_EQ(file.indices.nflatlev, in.metrics.nflatlev);
  EXPECT_EQ(file.indices.nflat_gradp, in.dycore_metrics.nflat_gradp);
  EXPECT_EQ(file.indices.kstart_moist, in.kstart_moist);
  EXPECT_EQ(file.indices.end_index_of_damping_layer,
            in.metrics.vertical.end_index_of_damping_layer);

  // The dycore's inputs from the file, on the default memory space.
  StaticFields<Memory> device_statics = copy_state<Memory>(file.fields, "icondiff::test::");
  device_statics.rayleigh_w = copy_view<Memory>("rayleigh_w", file.fields.rayleigh_w);
  device_statics.scaling_factor_for_3d_divdamp =
      copy_view<Memory>("scalfac", file.fields.scaling_factor_for_3d_divdamp);
  const DycoreInputs<Memory> dycore = make_dycore_inputs<Memory>(
      file.indices, device_statics, DeviceGrid<Memory>(in.grid), mean_cell_area(in.grid));
  EXPECT_NO_THROW(check_dycore_inputs(dycore));

  // A file of another grid is refused, naming the dimension.
  const Grid other = test::granule_test_grids().front().grid;
  try {
    read_static_fields_file(path, other);
    ADD_FAILURE() << "a statics file read for another grid";
  } catch (const GridFileError& e) {
    EXPECT_NE(std::string(e.what()).find("dimension 'cell'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace icondiff
