// What the harnesses share: a private scratch folder for the files they hand to the readers, the
// two kinds of input of the netCDF harnesses (raw file bytes, or edits of a seed file), and how a
// finding is reported.
#pragma once

#include "netcdf_model.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace icondiff::fuzz {

/// A file `name` in this process's scratch folder (in $ICONDIFF_FUZZ_SCRATCH if set, else in
/// /dev/shm when there is one, else in $TMPDIR or /tmp), created on first use and removed at a
/// normal exit.
std::string scratch_file(const std::string& name);

/// The *.nc files (valid, classic formats) of a seed corpus folder, as models, in name order.
/// Other seeds (edit inputs *.bin, regression inputs that are broken netCDF files) are not read.
std::vector<NetcdfModel> load_seed_models(const std::string& folder);

/// Writes the file one fuzz input stands for to `path`: the input itself when it starts like a
/// netCDF file ("CDF" or HDF5's signature), else edits (netcdf_model.hpp) of the seed model the
/// first byte selects. False when the edits give no writable file (the input is uninteresting).
bool write_input_file(const std::uint8_t* data, std::size_t size,
                      const std::vector<NetcdfModel>& seeds, const EditVocabulary& vocabulary,
                      const std::string& path);

/// Writes `size` bytes to `path`.
void write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size);

/// Whether ICONDIFF_FUZZ_ROUND_TRIP=1: a file that reads must also write and read back.
bool round_trip();

/// Reports a finding (something other than success or the documented exception) on stderr and
/// aborts, which libFuzzer records as a crash with the input that caused it.
[[noreturn]] void finding(const std::string& what);

/// An expected exception must say what is wrong: a finding if its message is empty.
void expect_message(const std::exception& e);

}  // namespace icondiff::fuzz
