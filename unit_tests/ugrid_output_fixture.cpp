// Writes the files the Python-side tests read (test_output_scripts.sh):
//   OUTDIR/grid.nc     the R2B2 grid as an ICON grid file (the checker's reference connectivity)
//   OUTDIR/pattern.nc  UGRID output on that grid: two steps of test::ugrid_pattern values, the
//                      diagnostics only in the second, and the global attributes below
//   OUTDIR/jw.nc       the Jablonowski-Williamson state on R2B3 (20 levels), two steps
//   OUTDIR/lam.nc      the same on a limited-area cut-out of R2B4 (5 levels), one step
// Usage: ugrid_output_fixture OUTDIR. Exit code 1 with a message on any error.
#include "support/ugrid_pattern.hpp"

#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/grid/limited_area.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace icondiff;
using test::PatternField;
using test::ugrid_pattern;

constexpr double deg = 3.14159265358979323846 / 180.0;

/// Equidistant levels from `top` to 0 m: half-level heights, top first.
std::vector<double> half_levels(int nlev, double top) {
  std::vector<double> half(static_cast<std::size_t>(nlev) + 1);
  for (int kh = 0; kh <= nlev; ++kh) half[static_cast<std::size_t>(kh)] = top * (nlev - kh) / nlev;
  return half;
}

std::vector<double> full_levels(const std::vector<double>& half) {
  std::vector<double> full(half.size() - 1);
  for (std::size_t k = 0; k < full.size(); ++k) full[k] = 0.5 * (half[k] + half[k + 1]);
  return full;
}

void write_pattern(const Grid& g, const std::string& path) {
  const std::vector<double> half = {30000.0, 20000.0, 12000.0, 5000.0, 0.0};
  const std::size_t nlev = 4;
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);
  UgridWriter writer(path, g, full_levels(half), half,
                     {{"diffusion_nml:hdiff_order", "5"},
                      {"diffusion_nml:hdiff_efdt_ratio", "24.0"},
                      {"icondiff_fixture", "pattern"}});
  for (std::size_t step = 0; step < 2; ++step) {
    const auto vn = ugrid_pattern(PatternField::vn, ne, nlev, step);
    const auto w = ugrid_pattern(PatternField::w, nc, nlev + 1, step);
    const auto theta_v = ugrid_pattern(PatternField::theta_v, nc, nlev, step);
    const auto exner = ugrid_pattern(PatternField::exner, nc, nlev, step);
    std::vector<double> div_ic, hdef_ic, dwdx, dwdy;
    if (step == 1) {
      div_ic = ugrid_pattern(PatternField::div_ic, nc, nlev + 1, step);
      hdef_ic = ugrid_pattern(PatternField::hdef_ic, nc, nlev + 1, step);
      dwdx = ugrid_pattern(PatternField::dwdx, nc, nlev + 1, step);
      dwdy = ugrid_pattern(PatternField::dwdy, nc, nlev + 1, step);
    }
    UgridOutputFields f;
    f.vn = vn;
    f.w = w;
    f.theta_v = theta_v;
    f.exner = exner;
    f.div_ic = div_ic;
    f.hdef_ic = hdef_ic;
    f.dwdx = dwdx;
    f.dwdy = dwdy;
    writer.write_step(60.0 * static_cast<double>(step), f);
  }
  writer.close();
}

void write_jw(const Grid& g, int nlev, double top, int steps, const std::string& path) {
  const std::vector<double> half = half_levels(nlev, top);
  const auto nc = static_cast<std::size_t>(g.num_cells);
  HostTable<double> z_ifc(nc, half.size()), z_mc(nc, half.size() - 1);
  for (std::size_t c = 0; c < nc; ++c) {
    for (std::size_t k = 0; k < half.size(); ++k) z_ifc(c, k) = half[k];
    for (std::size_t k = 0; k + 1 < half.size(); ++k) z_mc(c, k) = 0.5 * (half[k] + half[k + 1]);
  }
  UgridWriter writer(path, g, full_levels(half), half,
                     {{"initial_condition", "Jablonowski-Williamson (2006)"}});
  JablonowskiWilliamsonConfig config;
  for (int step = 0; step < steps; ++step) {
    // The second step adds noise to vn, so the two steps differ visibly.
    config.vn_noise_amplitude = step == 0 ? 0.0 : 2.0;
    const InitialState s = jablonowski_williamson_state(g, z_ifc, z_mc, config);
    UgridOutputFields f;
    f.vn = s.vn;
    f.w = s.w;
    f.theta_v = s.theta_v;
    f.exner = s.exner;
    writer.write_step(3600.0 * step, f);
  }
  writer.close();
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  int status = 0;
  Kokkos::initialize(argc, argv);
  try {
    const Grid r2b2 = generate_icosahedral_grid(2, 2);
    write_icon_grid(r2b2, dir + "/grid.nc");
    write_pattern(r2b2, dir + "/pattern.nc");
    write_jw(generate_icosahedral_grid(2, 3), 20, 30000.0, 2, dir + "/jw.nc");
    const Grid lam = cut_limited_area(generate_icosahedral_grid(2, 4),
                                      LimitedAreaRegion::cap(20.0 * deg, 45.0 * deg, 15.0 * deg));
    write_jw(lam, 5, 20000.0, 1, dir + "/lam.nc");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ugrid_output_fixture: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  return status;
}
