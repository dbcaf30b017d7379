// What the two harnesses of the C API (fuzz_capi_static.cpp, fuzz_capi_solve_nh.cpp) share: how a
// finding is reported, which statuses a call may return, and the replay program the unit tests
// run their seed corpora with (-DICONDIFF_FUZZ_REPLAY_MAIN). Header-only: those harnesses link
// the ICON-array case, not the netCDF harnesses' fuzz_support.
#pragma once

#include "support/icon_arrays_case.hpp"

#include <icondiff_c.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace icondiff::capi_fuzz {

/// The harness's name in findings ("capi_static", "capi_solve_nh"); each harness defines it.
extern const char* const harness;

/// What the last input came to: "accepted" or the first refusal's message.
inline std::string outcome;

/// Reports a finding on stderr and aborts (libFuzzer records the input as a crash).
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "icondiff fuzz %s: FINDING: %s\n", harness, what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// A caller's error with its message, or success; anything else is a finding.
inline bool accepted(icondiff_status status, const char* call) {
  if (status == ICONDIFF_OK) return true;
  outcome = icondiff_last_error();
  if (status != ICONDIFF_INVALID_ARGUMENT && status != ICONDIFF_GRID_ERROR &&
      status != ICONDIFF_CONFIG_ERROR)
    finding(std::string(call) + " returned status " + std::to_string(status) + ": " +
            icondiff_last_error());
  if (std::strlen(icondiff_last_error()) == 0)
    finding(std::string(call) + " failed without a message");
  return false;
}

/// The replay program: every file given (or every file of the folders given) once, in name
/// order, printing each one's outcome; 1 when there was nothing to replay.
inline int replay(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& entry : std::filesystem::directory_iterator(argv[i]))
        if (entry.is_regular_file()) inputs.push_back(entry.path());
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    std::printf("%s: %s\n", path.filename().c_str(), outcome.c_str());
  }
  std::printf("replayed %zu input(s), no finding\n", inputs.size());
  std::fflush(stdout);
  icon_case_free();  // the case's Views, before Kokkos ends
  icondiff_finalize();
  return inputs.empty() ? 1 : 0;
}

}  // namespace icondiff::capi_fuzz
