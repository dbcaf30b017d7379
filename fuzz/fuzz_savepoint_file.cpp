// libFuzzer harness of the savepoint reader, read_diffusion_savepoint (include/icondiff/io/
// savepoint_file.hpp): every input either reads, or throws SavepointFileError with a message.
// Anything else (another exception, a crash, a sanitizer report, a leak, a hang) is a finding.
//
// An input is either a whole netCDF file (it starts with "CDF"), or edits of one of the seed
// corpus's savepoints (fuzz/netcdf_model.hpp): values, shapes, types, dimensions, attributes
// (config.*, grid.*, decomposition.*, ...). A savepoint that reads must have a configuration and
// vertical grid that validate; with ICONDIFF_FUZZ_ROUND_TRIP=1 it must also write
// (write_diffusion_savepoint) and read back (off by default: it costs half the speed).
#include "fuzz_support.hpp"

#include <icondiff/io/savepoint_file.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <exception>

namespace {

using namespace icondiff;

const std::vector<fuzz::NetcdfModel>* seeds = nullptr;

const fuzz::EditVocabulary& vocabulary() {
  static const fuzz::EditVocabulary v{
      {"icondiff_savepoint_format",
       "savepoint",
       "dtime",
       "initial_run",
       "icondiff_vp",
       "grid.source",
       "grid.uuid",
       "grid.limited_area",
       "grid.zones.cell.INTERIOR",
       "grid.zones.edge.LATERAL_BOUNDARY_LEVEL_8",
       "vertical.end_index_of_damping_layer",
       "decomposition.rank",
       "decomposition.num_ranks",
       "decomposition.global_size",
       "config.diffusion_type",
       "config.ndyn_substeps",
       "config.apply_zdiffusion_t",
       "config.smagorinski_scaling_height2",
       "metadata.step",
       "metadata.",
       "metadata.a b"},
      {"vct_a", "cell_global_index", "cell_owner_rank", "edge_global_index", "edge_owner_rank",
       "vertex_global_index", "vertex_owner_rank", "zd_vertoffset", "zd_diffcoef", "zd_intcoef",
       "vn", "theta_v"},
      {"cell", "edge", "vertex", "nlev", "nlev_half", "c2e", "c2e2co", "e2c2v", "v2e", "c2e2c"},
      {"diffusion-init", "diffusion-exit", "float32", "float64", "int", ""}};
  return v;
}

void check_read_savepoint(const DiffusionSavepoint& s, const std::string& path) {
  try {
    s.config.validate();
    s.vertical.validate();
  } catch (const std::exception& e) {
    fuzz::finding(
        fmt::format("read_diffusion_savepoint accepted an invalid savepoint: {}", e.what()));
  }
  if (!fuzz::round_trip()) return;
  const std::string copy = path + ".copy.nc";
  try {
    write_diffusion_savepoint(copy, s);
    (void)read_diffusion_savepoint(copy);
  } catch (const std::exception& e) {
    fuzz::finding(fmt::format(
        "a savepoint read_diffusion_savepoint accepted does not write and read back: {}",
        e.what()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // One host thread: the reader is serial, and a thread pool only slows every input down.
  setenv("OMP_NUM_THREADS", "1", 1);
  setenv("OMP_PROC_BIND", "false", 0);
  int kokkos_argc = 1;
  compat::initialize(kokkos_argc, *argv);
  (void)argc;
  seeds = new std::vector<fuzz::NetcdfModel>(fuzz::load_seed_models(ICONDIFF_FUZZ_CORPUS_DIR));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = fuzz::scratch_file("savepoint.nc");
  if (!fuzz::write_input_file(data, size, *seeds, vocabulary(), path)) return -1;
  try {
    const DiffusionSavepoint s = read_diffusion_savepoint(path);
    check_read_savepoint(s, path);
  } catch (const SavepointFileError& e) {
    fuzz::expect_message(e);
    if (e.file() != path) fuzz::finding("SavepointFileError names another file: " + e.file());
  } catch (const std::exception& e) {
    fuzz::finding(fmt::format(
        "read_diffusion_savepoint threw something other than SavepointFileError: {}", e.what()));
  }
  return 0;
}
