// libFuzzer harness of the ICON grid-file reader, read_icon_grid (include/icondiff/io/
// grid_file.hpp): every input either reads, or throws GridFileError with a message. Anything
// else (another exception, a crash, a sanitizer report, a leak, a hang) is a finding.
//
// An input is either a whole netCDF file (it starts with "CDF"), or edits of one of the seed
// corpus's grid files (fuzz/netcdf_model.hpp): values, shapes, types, dimensions, attributes.
// A grid that reads must pass check_grid() again and zone ranges within its sizes; with
// ICONDIFF_FUZZ_ROUND_TRIP=1 it must also survive write_icon_grid + read_icon_grid, as
// `icondiff grid-info --write` expects (off by default: it halves the executions per second).
#include "fuzz_support.hpp"

#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/io/grid_file.hpp>

#include <fmt/format.h>

#include <exception>

namespace {

using namespace icondiff;

const std::vector<fuzz::NetcdfModel>* seeds = nullptr;

const fuzz::EditVocabulary& vocabulary() {
  static const fuzz::EditVocabulary v{
      // global attributes the reader uses
      {"grid_root", "grid_level", "semi_major_axis", "sphere_radius", "uuidOfHGrid"},
      // variables it falls back to
      {"cell_area_p", "dual_area_p", "cell_area", "dual_area", "refin_c_ctrl", "refin_e_ctrl",
       "refin_v_ctrl"},
      {"cell", "edge", "vertex", "nv", "nc", "ne"},
      {"", "0", "R02B04"}};
  return v;
}

void check_read_grid(const Grid& g, const std::string& path) {
  try {
    check_grid(g);
  } catch (const std::exception& e) {
    fuzz::finding(
        fmt::format("read_icon_grid accepted a grid that check_grid rejects: {}", e.what()));
  }
  for (int l = 0; l < 3; ++l) {
    const index_t n = g.size(all_locations[l]);
    for (int z = 0; z < num_zones; ++z) {
      if (!zone_exists(all_locations[l], static_cast<Zone>(z))) continue;
      const IndexRange r = g.zones[l].range(static_cast<Zone>(z));
      if (r.start < 0 || r.end < r.start || r.end > n)
        fuzz::finding(fmt::format("zone {} of location {} is [{}, {}) on {} points", z, l, r.start,
                                  r.end, n));
    }
  }
  if (!fuzz::round_trip()) return;
  const std::string copy = path + ".copy.nc";
  try {
    write_icon_grid(g, copy);
    (void)read_icon_grid(copy);
  } catch (const std::exception& e) {
    fuzz::finding(
        fmt::format("a grid read_icon_grid accepted does not write and read back: {}", e.what()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  seeds = new std::vector<fuzz::NetcdfModel>(fuzz::load_seed_models(ICONDIFF_FUZZ_CORPUS_DIR));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = fuzz::scratch_file("grid.nc");
  if (!fuzz::write_input_file(data, size, *seeds, vocabulary(), path)) return -1;
  try {
    const Grid g = read_icon_grid(path);
    check_read_grid(g, path);
  } catch (const GridFileError& e) {
    fuzz::expect_message(e);
    if (e.file() != path) fuzz::finding("GridFileError names another file: " + e.file());
  } catch (const std::exception& e) {
    fuzz::finding(
        fmt::format("read_icon_grid threw something other than GridFileError: {}", e.what()));
  }
  return 0;
}
