// The dycore's configuration table (dycore/dycore_config.hpp, core/config_table.hpp): every
// member once, under ICON's namelist names; ICON4Py 0.2.0's defaults accepted; every value ICON4Py
// does not implement refused with a ConfigError naming the member, its ICON name, the value and
// the reason; the namelist view; the combined divergence damping switches.
#include <icondiff/core/error.hpp>
#include <icondiff/dycore/dycore_config.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>

namespace icondiff {
namespace {

void expect_refused(const std::function<void(DycoreConfig&)>& change, const std::string& fragment) {
  DycoreConfig c;
  change(c);
  try {
    c.validate();
    ADD_FAILURE() << "accepted; expected a ConfigError with '" << fragment << "'";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(DycoreConfig, TheDefaultsAreICON4PysAndValid) {
  const DycoreConfig c;
  EXPECT_NO_THROW(c.validate());
  EXPECT_EQ(static_cast<int>(c.divdamp_order), 24);
  EXPECT_EQ(static_cast<int>(c.divdamp_type), 3);
  EXPECT_EQ(static_cast<int>(c.rayleigh_type), 2);
  EXPECT_EQ(c.itime_scheme, 4);
  EXPECT_EQ(c.iadv_rhotheta, 2);
  EXPECT_EQ(c.igradp_method, 3);
  EXPECT_TRUE(c.extra_diffu);
  EXPECT_DOUBLE_EQ(c.advection_explicit_weight_parameter(), 0.25);
  EXPECT_DOUBLE_EQ(c.advection_implicit_weight_parameter(), 0.75);
}

TEST(DycoreConfig, EveryMemberOnceUnderItsIconName) {
  std::set<std::string> names, namelist;
  for (const auto& f : dycore_config_fields()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name << " listed twice";
    if (f.namelist != nullptr) EXPECT_TRUE(namelist.insert(f.namelist).second) << f.namelist;
  }
  EXPECT_EQ(names.size(), 21u);  // every member of DycoreConfig
  const auto values = icon_namelist_values(DycoreConfig{});
  const auto find = [&](const std::string& key) {
    for (const auto& [k, v] : values)
      if (k == key) return v;
    return std::string("<missing>");
  };
  EXPECT_EQ(find("nonhydrostatic_nml:divdamp_order"), "24");
  EXPECT_EQ(find("nonhydrostatic_nml:lextra_diffu"), ".TRUE.");
  EXPECT_EQ(find("nonhydrostatic_nml:divdamp_fac"), "0.0025");
  EXPECT_EQ(find("interpol_nml:nudge_max_coeff"), "0.02");  // the raw namelist value (x5 inside)
  EXPECT_EQ(find("run_nml:lvert_nest"), ".FALSE.");
  // A table row writes and reads its member.
  DycoreConfig c;
  for (const auto& f : dycore_config_fields())
    if (std::string(f.name) == "fourth_order_divdamp_z3") f.set(c, 55000.0);
  EXPECT_EQ(c.fourth_order_divdamp_z3, 55000.0);
}

TEST(DycoreConfig, ValuesICON4PyDoesNotImplementAreRefusedNamingThem) {
  expect_refused([](DycoreConfig& c) { c.itime_scheme = 5; },
                 "itime_scheme (ICON nonhydrostatic_nml:itime_scheme) = 5: only 4");
  expect_refused([](DycoreConfig& c) { c.iadv_rhotheta = 1; }, "iadv_rhotheta");
  expect_refused([](DycoreConfig& c) { c.igradp_method = 2; }, "igradp_method");
  expect_refused([](DycoreConfig& c) { c.l_vert_nested = true; },
                 "l_vert_nested (ICON run_nml:lvert_nest) = true");
  expect_refused([](DycoreConfig& c) { c.ldeepatmo = true; }, "ldeepatmo");
  expect_refused([](DycoreConfig& c) { c.extra_diffu = false; }, "lextra_diffu");
  expect_refused([](DycoreConfig& c) { c.divdamp_order = static_cast<DivergenceDampingOrder>(3); },
                 "divdamp_order (ICON nonhydrostatic_nml:divdamp_order) = 3");
  expect_refused([](DycoreConfig& c) { c.divdamp_type = static_cast<DivergenceDampingType>(1); },
                 "divdamp_type");
  expect_refused([](DycoreConfig& c) { c.rayleigh_type = static_cast<RayleighType>(3); },
                 "rayleigh_type");
  expect_refused([](DycoreConfig& c) { c.veladv_offctr = 0.7; }, "veladv_offctr");
  expect_refused([](DycoreConfig& c) { c.rhotheta_offctr = std::nan(""); }, "rhotheta_offctr");
  expect_refused([](DycoreConfig& c) { c.max_nudging_coefficient = -1; },
                 "interpol_nml:nudge_max_coeff (x5)");
  expect_refused([](DycoreConfig& c) { c.fourth_order_divdamp_factor2 = -0.1; }, "divdamp_fac2");
  expect_refused([](DycoreConfig& c) { c.fourth_order_divdamp_z2 = 90000; },
                 "expected increasing heights");
  // What ICON4Py's programs accept stays accepted (their branches are tested and compared).
  DycoreConfig programs;
  programs.rayleigh_type = RayleighType::Classic;
  programs.divdamp_type = DivergenceDampingType::TwoDimensional;
  EXPECT_NO_THROW(programs.validate());
}

TEST(DycoreConfig, CombinedDivergenceDampingSwitchesAsSolveNonhydro) {
  DycoreConfig c;  // combined order, divdamp_fac 0.0025
  auto s = divergence_damping_switches(c, 0.004, 0.0);
  EXPECT_FALSE(s.second_order);  // scaling coefficient 0
  EXPECT_TRUE(s.fourth_order);   // 0.004 <= 4 * 0.0025
  s = divergence_damping_switches(c, 0.02, 1.0);
  EXPECT_TRUE(s.second_order);
  EXPECT_FALSE(s.fourth_order);  // 0.02 > 0.01
  c.divdamp_order = DivergenceDampingOrder::SecondOrder;
  s = divergence_damping_switches(c, 0.02, 0.0);
  EXPECT_TRUE(s.second_order);
  EXPECT_FALSE(s.fourth_order);
}

}  // namespace
}  // namespace icondiff
