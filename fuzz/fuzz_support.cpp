#include "fuzz_support.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace icondiff::fuzz {

namespace fs = std::filesystem;

namespace {

const fs::path& scratch_folder() {
  static const fs::path folder = [] {
    std::error_code ec;
    const char* chosen = std::getenv("ICONDIFF_FUZZ_SCRATCH");
    const fs::path base = chosen != nullptr && *chosen != '\0' ? fs::path(chosen)
                          : fs::is_directory("/dev/shm", ec)   ? fs::path("/dev/shm")
                                                               : fs::temp_directory_path();
    const fs::path p = base / ("icondiff-fuzz-" + std::to_string(static_cast<long>(::getpid())));
    fs::create_directories(p);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch_folder(), ignored);
    });
    return p;
  }();
  return folder;
}

bool starts_like_netcdf(const std::uint8_t* data, std::size_t size) {
  return (size >= 3 && std::memcmp(data, "CDF", 3) == 0) ||
         (size >= 4 && std::memcmp(data, "\x89HDF", 4) == 0);
}

}  // namespace

std::string scratch_file(const std::string& name) {
  return (scratch_folder() / name).string();
}

std::vector<NetcdfModel> load_seed_models(const std::string& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".nc") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<NetcdfModel> models;
  for (const fs::path& file : files) models.push_back(read_netcdf_model(file.string()));
  if (models.empty()) {
    std::cerr << "icondiff fuzz: no netCDF seed files in " << folder << "\n";
    std::abort();
  }
  return models;
}

void write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) finding("cannot write the scratch file " + path);
  if (size > 0 && std::fwrite(data, 1, size, f) != size) finding("cannot write " + path);
  std::fclose(f);
}

bool write_input_file(const std::uint8_t* data, std::size_t size,
                      const std::vector<NetcdfModel>& seeds, const EditVocabulary& vocabulary,
                      const std::string& path) {
  if (starts_like_netcdf(data, size)) {
    write_bytes(path, data, size);
    return true;
  }
  FuzzedDataProvider input(data, size);
  NetcdfModel model = seeds[input.ConsumeIntegral<std::uint8_t>() % seeds.size()];
  apply_edits(model, input, vocabulary);
  return write_netcdf_model(model, path);
}

bool round_trip() {
  static const bool on = [] {
    const char* v = std::getenv("ICONDIFF_FUZZ_ROUND_TRIP");
    return v != nullptr && std::string(v) == "1";
  }();
  return on;
}

void finding(const std::string& what) {
  std::cerr << "\n==icondiff fuzz== FINDING: " << what << "\n" << std::flush;
  std::abort();
}

void expect_message(const std::exception& e) {
  if (std::strlen(e.what()) == 0) finding("an exception without a message");
}

}  // namespace icondiff::fuzz

// Sanitizer defaults of every harness ($ASAN_OPTIONS / $UBSAN_OPTIONS add to them). libnetcdf
// sizes its allocations by a header's counts before it checks them against the file: a 10 kB
// corrupt file may ask for gigabytes. Such an allocation fails (malloc returns NULL, as without
// overcommit) and libnetcdf reports NC_ENOMEM, which the readers turn into their error; a huge
// allocation by icondiff itself (operator new) is still reported. Allocation stacks of 8 frames
// (not 30) and a quarantine of 64 MiB (not 256; still hundreds of inputs): each took a tenth or
// more of the time of an input. UBSan findings abort.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048:"
         "malloc_context_size=8:quarantine_size_mb=64";
}
extern "C" const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}
