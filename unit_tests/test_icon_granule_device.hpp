// The C API's granule (icondiff_c.h) with the caller's arrays in the memory of Kokkos' default
// execution space, as ICON hands them over: in a CUDA or HIP build, device pointers with on_gpu
// set (OpenACC `host_data use_device`; start/end indices, owner masks and global indices stay on
// the host, as in ICON4Py's ABI); in a host build, the same copies with on_gpu unset. A run is
// zero copy on the device too (no allocation, no deep copy, one closing fence per call), its
// results equal the C++ path bit for bit with padding rows untouched, and host pointers handed
// to a device build are refused by name. The ICON4Py drop-in (icon4py_bindings.cpp) forwards
// every argument and on_gpu unchanged to these functions.
//
// Compiled per backend like the other backend tests; runs in the copy whose execution space is
// the default one (the one the C API uses), so a CUDA build's test_icon_granule_device_CUDA is
// the device test of the GPU bundle.
#include "support/icon_api_arrays.hpp"
#include "support/icon_arrays_case.hpp"
#include "support/tools_recording.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {
namespace icon_granule_device_test {

using test::Handles;
using test::IconArrays;
using CallerMemory = Kokkos::DefaultExecutionSpace::memory_space;
constexpr bool caller_memory_is_device =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, CallerMemory>::accessible;

/// The number of icondiff_array members that open the argument struct `Args`, up to and
/// including the one at `last_offset`: every array of the three structs comes before their
/// scalars, which the static_asserts below keep true.
template <class Args>
constexpr std::size_t leading_arrays(std::size_t last_offset) {
  return last_offset / sizeof(icondiff_array) + 1;
}
static_assert(offsetof(icondiff_icon_grid_args, vct_a) % sizeof(icondiff_array) == 0);
static_assert(offsetof(icondiff_diffusion_args, zd_diffcoef) % sizeof(icondiff_array) == 0);
static_assert(offsetof(icondiff_run_args, dwdy) % sizeof(icondiff_array) == 0);

/// IconArrays' arrays copied into CallerMemory, with argument structs pointing at the copies.
class ArraysInCallerMemory {
 public:
  icondiff_icon_grid_args grid;
  icondiff_diffusion_args diffusion;
  icondiff_run_args run;

  explicit ArraysInCallerMemory(IconArrays& host)
      : grid(host.grid), diffusion(host.diffusion), run(host.run), host_(host) {
    for (const IconArrays::Storage& s : host.storage) {
      if (s.host_only) continue;
      Kokkos::View<char*, CallerMemory> copy("icondiff::test::caller_array", s.bytes);
      Kokkos::deep_copy(copy, HostBytes(static_cast<char*>(s.data), s.bytes));
      copies_[s.data] = copy;
    }
    remap(grid, offsetof(icondiff_icon_grid_args, vct_a));
    remap(diffusion, offsetof(icondiff_diffusion_args, zd_diffcoef));
    remap(run, offsetof(icondiff_run_args, dwdy));
    grid.on_gpu = diffusion.on_gpu = run.on_gpu = caller_memory_is_device ? 1 : 0;
  }

  /// Copies the run fields back into the host arrays (for IconArrays' comparison).
  void copy_run_fields_to_host() {
    for (const icondiff_array& field :
         {host_.run.w, host_.run.vn, host_.run.exner, host_.run.theta_v, host_.run.hdef_ic,
          host_.run.div_ic, host_.run.dwdx, host_.run.dwdy}) {
      const auto& copy = copies_.at(field.data);
      Kokkos::deep_copy(HostBytes(static_cast<char*>(field.data), copy.extent(0)), copy);
    }
  }

 private:
  using HostBytes = Kokkos::View<char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  IconArrays& host_;
  std::map<const void*, Kokkos::View<char*, CallerMemory>> copies_;

  /// Points every leading array of `args` that has a copy at that copy.
  template <class Args>
  void remap(Args& args, std::size_t last_offset) {
    auto* bytes = reinterpret_cast<unsigned char*>(&args);
    for (std::size_t i = 0; i < leading_arrays<Args>(last_offset); ++i) {
      icondiff_array a;
      std::memcpy(&a, bytes + i * sizeof(icondiff_array), sizeof a);
      const auto copy = copies_.find(a.data);
      if (copy == copies_.end()) continue;  // host-only, or absent (data NULL)
      a.data = copy->second.data();
      std::memcpy(bytes + i * sizeof(icondiff_array), &a, sizeof a);
    }
  }
};

bool runs_on_the_default_space() {
  return std::is_same_v<TEST_EXECSPACE, Kokkos::DefaultExecutionSpace>;
}

TEST(TEST_CATEGORY, icon_granule_with_caller_arrays_in_device_memory_equals_the_cpp_path) {
  if (!runs_on_the_default_space()) GTEST_SKIP() << "the C API runs on the default space";
  IconArrays a("generate:R2B2", 10);
  ASSERT_GT(a.nzd, 0) << "the case must exercise the zd lists";
  ArraysInCallerMemory caller(a);
  icondiff_icon_grid* grid = nullptr;
  icondiff_diffusion* granule = nullptr;
  ASSERT_EQ(icondiff_icon_grid_create(&caller.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
  ASSERT_EQ(icondiff_diffusion_create(grid, &caller.diffusion, &granule), ICONDIFF_OK)
      << icondiff_last_error();

  constexpr int steps = 4;
  caller.run.linit = 1;
  ASSERT_EQ(icondiff_diffusion_run(granule, &caller.run), ICONDIFF_OK) << icondiff_last_error();
  caller.run.linit = 0;
  double seconds = 0;
  {
    test::ToolsRecorder recorder;
    for (int step = 1; step < steps; ++step) {
      const auto start = std::chrono::steady_clock::now();
      ASSERT_EQ(icondiff_diffusion_run(granule, &caller.run), ICONDIFF_OK) << icondiff_last_error();
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    // Per call the closing fence and, on a device, the device-wide wait for the caller's queues
    // at the start.
    std::vector<std::string> expected_fences;
    for (int step = 1; step < steps; ++step) {
      if (caller_memory_is_device)
        expected_fences.emplace_back("icondiff::capi::diffusion_run::caller_queues");
      expected_fences.emplace_back("icondiff::capi::diffusion_run");
    }
    std::vector<std::string> fences;
    for (const test::Event& e : test::recording().events) {
      EXPECT_NE(e.kind, "allocation") << e.name;
      EXPECT_NE(e.kind, "deep_copy") << e.name;
      if (e.kind == "fence") fences.push_back(e.name);
    }
    EXPECT_EQ(fences, expected_fences);
  }
  const double microseconds = 1e6 * seconds / (steps - 1);
  std::printf("caller arrays in %s memory (on_gpu = %d): %.1f us per diffusion_run on R2B2 x %d\n",
              CallerMemory::name(), caller.run.on_gpu, microseconds, a.nlev);
  // In the test report (the GPU bundle's summary lists it): the C API's call on a small grid.
  RecordProperty("us_per_diffusion_run_R2B2x10", std::to_string(microseconds));

  caller.copy_run_fields_to_host();
  ASSERT_EQ(icon_case_run_reference(steps, a.run.dtime), 0);
  a.expect_outputs_equal_reference();
  icondiff_diffusion_free(granule);
  icondiff_icon_grid_free(grid);
}

TEST(TEST_CATEGORY, icon_granule_refuses_arrays_from_the_wrong_memory) {
  if (!runs_on_the_default_space()) GTEST_SKIP() << "the C API runs on the default space";
  IconArrays a("generate:R2B2", 8);
  icondiff_icon_grid_args wrong = a.grid;
  wrong.on_gpu = caller_memory_is_device ? 0 : 1;
  icondiff_icon_grid* grid = nullptr;
  EXPECT_EQ(icondiff_icon_grid_create(&wrong, &grid), ICONDIFF_INVALID_ARGUMENT);
  const std::string message = icondiff_last_error();
  EXPECT_NE(message.find(caller_memory_is_device ? "on_gpu is not set" : "on_gpu is set"),
            std::string::npos)
      << message;
  EXPECT_EQ(grid, nullptr);

  // A run with the other memory's flag on a granule made correctly is refused too.
  ArraysInCallerMemory caller(a);
  ASSERT_EQ(icondiff_icon_grid_create(&caller.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
  icondiff_diffusion* granule = nullptr;
  ASSERT_EQ(icondiff_diffusion_create(grid, &caller.diffusion, &granule), ICONDIFF_OK)
      << icondiff_last_error();
  icondiff_run_args run = caller.run;
  run.on_gpu = caller_memory_is_device ? 0 : 1;
  EXPECT_EQ(icondiff_diffusion_run(granule, &run), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("on_gpu"), std::string::npos)
      << icondiff_last_error();
  int calls = -1;
  EXPECT_EQ(icondiff_diffusion_calls(granule, &calls), ICONDIFF_OK);
  EXPECT_EQ(calls, 0);
  icondiff_diffusion_free(granule);
  icondiff_icon_grid_free(grid);
}

}  // namespace icon_granule_device_test
}  // namespace icondiff
