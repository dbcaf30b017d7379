// libFuzzer harness of the C API's static inputs (icondiff_c.h): grid_init's tables, index
// arrays and geometry, diffusion_init's coefficients, zd lists and scalars, and a run's dtime.
// A valid ICON-shaped case (generate:R2B0, 6 levels, with zd lists) is built once; each input is
// a list of 13-byte edits, each [target: 1 byte][element: 4 bytes LE][value: 8 bytes LE] — the
// value as a double's bits (NaN and inf included) for real targets, its low 32 bits as an int for
// tables and index arrays. The edits are applied to a fresh copy of the case, then
// icondiff_icon_grid_create, icondiff_diffusion_create and one icondiff_diffusion_run are called
// as far as they succeed. Expected from each: ICONDIFF_OK, or a caller's-error status (invalid
// argument, grid or config error) with a message. A crash, a sanitizer report, a hang, an
// internal error (status 99) or an empty message is a finding: bad static inputs must be refused
// at the call that takes them, naming what is wrong.
//
// Built with -DICONDIFF_FUZZ_REPLAY_MAIN it is a plain program that replays the files given on
// its command line (or every file of the folders given) once each: the unit tests run the seed
// corpus (fuzz/corpus/capi_static/) that way without clang.
#include "capi_fuzz.hpp"
#include "support/icon_arrays_case.hpp"

#include <icondiff_c.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

const char* const icondiff::capi_fuzz::harness = "capi_static";

namespace {

using icondiff::capi_fuzz::accepted;
using icondiff::capi_fuzz::finding;
using icondiff::capi_fuzz::outcome;

/// The case's arrays in ICON's shapes (as unit_tests/support/icon_api_arrays.hpp builds them for
/// the C API's tests), with a pristine copy of every value to reset before each input.
struct Case {
  int nc = 0, ne = 0, nv = 0, nlev = 0, nzd = 0, nproma = 0;
  std::vector<std::vector<int>> ints, pristine_ints;
  std::vector<std::vector<double>> doubles, pristine_doubles;
  std::vector<std::vector<unsigned char>> bools;
  icondiff_icon_grid_args grid{};
  icondiff_diffusion_args diffusion{}, pristine_diffusion{};
  icondiff_run_args run{};
  /// What an edit may change: an int array, a double array or one scalar.
  struct Target {
    std::vector<int>* ints = nullptr;
    std::vector<double>* doubles = nullptr;
    double* scalar = nullptr;
  };
  std::vector<Target> targets;

  static void need(int status, const char* what) {
    if (status != 0) finding(std::string("the case cannot fill ") + what);
  }
  icondiff_array ints_of(const char* name, int ld, int cols, bool editable = true) {
    ints.emplace_back(static_cast<std::size_t>(ld) * cols);
    need(icon_case_fill_int(name, ints.back().data(), ld, cols), name);
    if (editable) targets.push_back({&ints.back(), nullptr, nullptr});
    return {ints.back().data(), {ld, cols == 1 && ld != 4 ? 0 : cols, 0}};
  }
  icondiff_array doubles_of(const char* name, int ld, int cols, bool matrix = true) {
    doubles.emplace_back(static_cast<std::size_t>(ld) * cols);
    need(icon_case_fill_double(name, doubles.back().data(), ld, cols), name);
    targets.push_back({nullptr, &doubles.back(), nullptr});
    return {doubles.back().data(), {ld, matrix ? cols : 0, 0}};
  }
  icondiff_array vector_of(const char* name, int n) { return doubles_of(name, n, 1, false); }
  icondiff_array mask(const char* name) {
    bools.emplace_back(static_cast<std::size_t>(nproma));
    need(icon_case_fill_bool(name, bools.back().data(), nproma), name);
    return {bools.back().data(), {nproma, 0, 0}};
  }

  Case() {
    ints.reserve(64);
    doubles.reserve(64);
    bools.reserve(4);
    need(icon_case_create("generate:R2B0", 6), "generate:R2B0");
    icon_case_sizes(&nc, &ne, &nv, &nlev, &nzd);
    nproma = std::max(std::max(nc, ne), nv) + 5;
    auto& g = grid;
    g.cell_starts = ints_of("cell_starts", 14, 1);
    g.cell_ends = ints_of("cell_ends", 14, 1);
    g.vertex_starts = ints_of("vertex_starts", 13, 1);
    g.vertex_ends = ints_of("vertex_ends", 13, 1);
    g.edge_starts = ints_of("edge_starts", 24, 1);
    g.edge_ends = ints_of("edge_ends", 24, 1);
    for (auto [field, name, cols] :
         {std::make_tuple(&g.c2e, "c2e", 3), std::make_tuple(&g.e2c, "e2c", 2),
          std::make_tuple(&g.c2e2c, "c2e2c", 3), std::make_tuple(&g.e2c2e, "e2c2e", 4),
          std::make_tuple(&g.e2v, "e2v", 4), std::make_tuple(&g.v2e, "v2e", 6),
          std::make_tuple(&g.v2c, "v2c", 6), std::make_tuple(&g.e2c2v, "e2c2v", 4),
          std::make_tuple(&g.c2v, "c2v", 3)})
      *field = ints_of(name, nproma, cols);
    g.c_owner_mask = mask("c_owner_mask");
    g.e_owner_mask = mask("e_owner_mask");
    g.v_owner_mask = mask("v_owner_mask");
    g.c_glb_index = ints_of("c_glb_index", nproma, 1);
    g.e_glb_index = ints_of("e_glb_index", nproma, 1);
    g.v_glb_index = ints_of("v_glb_index", nproma, 1);
    for (auto [field, name] :
         {std::make_pair(&g.tangent_orientation, "tangent_orientation"),
          std::make_pair(&g.inverse_primal_edge_lengths, "inverse_primal_edge_lengths"),
          std::make_pair(&g.inv_dual_edge_length, "inv_dual_edge_length"),
          std::make_pair(&g.inv_vert_vert_length, "inv_vert_vert_length"),
          std::make_pair(&g.edge_areas, "edge_areas"), std::make_pair(&g.f_e, "f_e"),
          std::make_pair(&g.cell_center_lat, "cell_center_lat"),
          std::make_pair(&g.cell_center_lon, "cell_center_lon"),
          std::make_pair(&g.cell_areas, "cell_areas"),
          std::make_pair(&g.edge_center_lat, "edge_center_lat"),
          std::make_pair(&g.edge_center_lon, "edge_center_lon"),
          std::make_pair(&g.primal_normal_x, "primal_normal_x"),
          std::make_pair(&g.primal_normal_y, "primal_normal_y")})
      *field = vector_of(name, nproma);
    for (auto [field, name, cols] :
         {std::make_tuple(&g.primal_normal_vert_x, "primal_normal_vert_x", 4),
          std::make_tuple(&g.primal_normal_vert_y, "primal_normal_vert_y", 4),
          std::make_tuple(&g.dual_normal_vert_x, "dual_normal_vert_x", 4),
          std::make_tuple(&g.dual_normal_vert_y, "dual_normal_vert_y", 4),
          std::make_tuple(&g.primal_normal_cell_x, "primal_normal_cell_x", 2),
          std::make_tuple(&g.primal_normal_cell_y, "primal_normal_cell_y", 2),
          std::make_tuple(&g.dual_normal_cell_x, "dual_normal_cell_x", 2),
          std::make_tuple(&g.dual_normal_cell_y, "dual_normal_cell_y", 2)})
      *field = doubles_of(name, nproma, cols);
    g.vct_a = vector_of("vct_a", nlev + 1);
    g.rayleigh_damping_height = icon_case_real("rayleigh_damping_height");
    g.mean_cell_area = icon_case_real("mean_cell_area");
    g.num_vertices = nv;
    g.num_cells = nc;
    g.num_edges = ne;
    g.vertical_size = nlev;
    g.limited_area = static_cast<unsigned char>(icon_case_int("limited_area"));

    auto& d = diffusion;
    d.theta_ref_mc = doubles_of("theta_ref_mc", nproma, nlev);
    d.wgtfac_c = doubles_of("wgtfac_c", nproma, nlev + 1);
    d.e_bln_c_s = doubles_of("e_bln_c_s", nproma, 3);
    d.geofac_div = doubles_of("geofac_div", nproma, 3);
    d.geofac_grg_x = doubles_of("geofac_grg_x", nproma, 4);
    d.geofac_grg_y = doubles_of("geofac_grg_y", nproma, 4);
    d.geofac_n2s = doubles_of("geofac_n2s", nproma, 4);
    d.nudgecoeff_e = vector_of("nudgecoeff_e", nproma);
    doubles.emplace_back(static_cast<std::size_t>(12) * nproma);
    need(icon_case_fill_double("rbf_vec_coeff_v", doubles.back().data(), nproma, 12), "rbf");
    targets.push_back({nullptr, &doubles.back(), nullptr});
    d.rbf_vec_coeff_v = {doubles.back().data(), {6, 2, nproma}};
    if (nzd > 0) {
      d.zd_cellidx = ints_of("zd_cellidx", 4, nzd);
      d.zd_vertidx = ints_of("zd_vertidx", 4, nzd);
      d.zd_intcoef = doubles_of("zd_intcoef", 3, nzd);
      doubles.emplace_back(static_cast<std::size_t>(nzd));
      need(icon_case_fill_double("zd_diffcoef", doubles.back().data(), 1, nzd), "zd_diffcoef");
      targets.push_back({nullptr, &doubles.back(), nullptr});
      d.zd_diffcoef = {doubles.back().data(), {nzd, 0, 0}};
    }
    d.ndyn_substeps = icon_case_int("ndyn_substeps");
    d.diffusion_type = icon_case_int("diffusion_type");
    d.hdiff_w = static_cast<unsigned char>(icon_case_int("hdiff_w"));
    d.hdiff_vn = static_cast<unsigned char>(icon_case_int("hdiff_vn"));
    d.hdiff_smag_w = static_cast<unsigned char>(icon_case_int("hdiff_smag_w"));
    d.zdiffu_t = static_cast<unsigned char>(icon_case_int("zdiffu_t"));
    d.type_t_diffu = icon_case_int("type_t_diffu");
    d.type_vn_diffu = icon_case_int("type_vn_diffu");
    for (auto [field, name] :
         {std::make_pair(&d.hdiff_efdt_ratio, "hdiff_efdt_ratio"),
          std::make_pair(&d.hdiff_w_efdt_ratio, "hdiff_w_efdt_ratio"),
          std::make_pair(&d.smagorinski_scaling_factor, "smagorinski_scaling_factor"),
          std::make_pair(&d.smagorinski_scaling_factor2, "smagorinski_scaling_factor2"),
          std::make_pair(&d.smagorinski_scaling_factor3, "smagorinski_scaling_factor3"),
          std::make_pair(&d.smagorinski_scaling_factor4, "smagorinski_scaling_factor4"),
          std::make_pair(&d.smagorinski_scaling_height, "smagorinski_scaling_height"),
          std::make_pair(&d.smagorinski_scaling_height2, "smagorinski_scaling_height2"),
          std::make_pair(&d.smagorinski_scaling_height3, "smagorinski_scaling_height3"),
          std::make_pair(&d.smagorinski_scaling_height4, "smagorinski_scaling_height4"),
          std::make_pair(&d.denom_diffu_v, "denom_diffu_v"),
          std::make_pair(&d.nudge_max_coeff, "nudge_max_coeff"),
          std::make_pair(&d.a_hshr, "a_hshr")}) {
      *field = icon_case_real(name);
      targets.push_back({nullptr, nullptr, field});
    }
    d.hdiff_temp = static_cast<unsigned char>(icon_case_int("hdiff_temp"));
    d.itype_sher = icon_case_int("itype_sher");
    d.iforcing = icon_case_int("iforcing");
    d.loutshs = static_cast<unsigned char>(icon_case_int("loutshs"));

    // The run's arrays are not edited (their values are the model state, any value is allowed);
    // its dtime is.
    run.w = doubles_of("w", nproma, nlev + 1);
    run.vn = doubles_of("vn", nproma, nlev);
    run.exner = doubles_of("exner", nproma, nlev);
    run.theta_v = doubles_of("theta_v", nproma, nlev);
    run.rho = doubles_of("rho", nproma, nlev);
    for (int i = 0; i < 5; ++i) targets.pop_back();
    run.hdef_ic = run.div_ic = run.dwdx = run.dwdy = {nullptr, {0, 0, 0}};
    run.dtime = 10.0;
    run.linit = 1;
    targets.push_back({nullptr, nullptr, &run.dtime});
    pristine_ints = ints;
    pristine_doubles = doubles;
    pristine_diffusion = diffusion;
  }

  /// Every value back to the case's (the arrays keep their addresses).
  void reset() {
    for (std::size_t i = 0; i < ints.size(); ++i)
      std::memcpy(ints[i].data(), pristine_ints[i].data(), ints[i].size() * sizeof(int));
    for (std::size_t i = 0; i < doubles.size(); ++i)
      std::memcpy(doubles[i].data(), pristine_doubles[i].data(),
                  doubles[i].size() * sizeof(double));
    diffusion = pristine_diffusion;
    run.dtime = 10.0;
  }

  void apply(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t record = 13;
    for (std::size_t at = 0; at + record <= size; at += record) {
      const Target& t = targets[data[at] % targets.size()];
      std::uint32_t element = 0;
      std::uint64_t bits = 0;
      std::memcpy(&element, data + at + 1, 4);
      std::memcpy(&bits, data + at + 5, 8);
      double value = 0.0;
      std::memcpy(&value, &bits, 8);
      if (t.ints) (*t.ints)[element % t.ints->size()] = static_cast<int>(bits & 0xffffffffu);
      if (t.doubles) (*t.doubles)[element % t.doubles->size()] = value;
      if (t.scalar) *t.scalar = value;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Case* c = [] {
    if (icondiff_initialize() != ICONDIFF_OK) finding("icondiff_initialize failed");
    Case* made = new Case();
    // libFuzzer ends with exit(): the ICON-array case's Views must go before Kokkos is finalised
    // at exit (atexit handlers run in reverse order; this one is registered after Kokkos' own).
    std::atexit([] { icon_case_free(); });
    return made;
  }();
  c->reset();
  c->apply(data, size);
  outcome = "accepted";
  icondiff_icon_grid* grid = nullptr;
  if (accepted(icondiff_icon_grid_create(&c->grid, &grid), "grid_init")) {
    icondiff_diffusion* granule = nullptr;
    if (accepted(icondiff_diffusion_create(grid, &c->diffusion, &granule), "diffusion_init")) {
      accepted(icondiff_diffusion_run(granule, &c->run), "diffusion_run");
      icondiff_diffusion_free(granule);
    }
    icondiff_icon_grid_free(grid);
  }
  return 0;
}

#ifdef ICONDIFF_FUZZ_REPLAY_MAIN
int main(int argc, char** argv) {
  return icondiff::capi_fuzz::replay(argc, argv);
}
#endif
