// kokkos_compat.hpp works on every backend and Kokkos version: math in kernels, min/max, labelled
// fences, profiling regions, tool callbacks.
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {
namespace compat_test {

std::vector<std::string>& pushed_regions() {
  static std::vector<std::string> regions;
  return regions;
}
std::vector<std::string>& launched_kernels() {
  static std::vector<std::string> kernels;
  return kernels;
}
void record_region(const char* name) {
  pushed_regions().emplace_back(name);
}
void record_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  launched_kernels().emplace_back(name);
}

void run_math_kernel(const Kokkos::View<double*, TEST_MEMSPACE>& out) {
  Kokkos::parallel_for(
      "icondiff::test::compat_math", Kokkos::RangePolicy<TEST_EXECSPACE>(0, 1),
      KOKKOS_LAMBDA(const int) {
        out(0) = compat::sqrt(16.0);
        out(1) = compat::fabs(-2.5);
        out(2) = compat::exp(0.0);
        out(3) = compat::min(3.0, -1.0);
        out(4) = compat::max(3.0, -1.0);
        out(5) = compat::tanh(0.0) + compat::sin(0.0) + compat::cos(0.0);
        out(6) = compat::isfinite(1.0 / out(2)) ? 1.0 : 0.0;
      });
}

void run_empty_kernel() {
  Kokkos::parallel_for("icondiff::test::labelled", Kokkos::RangePolicy<TEST_EXECSPACE>(0, 4),
                       KOKKOS_LAMBDA(const int){});
}

TEST(TEST_CATEGORY, compat_math_in_kernels) {
  Kokkos::View<double*, TEST_MEMSPACE> out("icondiff::test::compat_math", 7);
  run_math_kernel(out);
  compat::fence(TEST_EXECSPACE(), "icondiff::test::compat_math");
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  EXPECT_EQ(h(0), 4.0);
  EXPECT_EQ(h(1), 2.5);
  EXPECT_EQ(h(2), 1.0);
  EXPECT_EQ(h(3), -1.0);
  EXPECT_EQ(h(4), 3.0);
  EXPECT_EQ(h(5), 1.0);
  EXPECT_EQ(h(6), 1.0);
  // Like Fortran MIN/MAX with the NaN first: the NaN propagates.
  EXPECT_TRUE(std::isnan(compat::max(std::nan(""), 1.0)));
}

TEST(TEST_CATEGORY, compat_regions_and_kernel_labels_reach_the_tools) {
  compat::set_push_region_callback(record_region);
  compat::set_begin_parallel_for_callback(record_kernel);
  {
    compat::ScopedRegion region("icondiff::test::region");
    run_empty_kernel();
  }
  compat::fence("icondiff::test::after_labelled");
  compat::set_push_region_callback(nullptr);
  compat::set_begin_parallel_for_callback(nullptr);
  ASSERT_FALSE(pushed_regions().empty());
  EXPECT_EQ(pushed_regions().back(), "icondiff::test::region");
  ASSERT_FALSE(launched_kernels().empty());
  EXPECT_EQ(launched_kernels().back(), "icondiff::test::labelled");
  EXPECT_GE(compat::concurrency(TEST_EXECSPACE()), 1);
  EXPECT_FALSE(compat::kokkos_version_string().empty());
}

TEST(TEST_CATEGORY, compat_host_staging_memory_is_host_memory_the_device_copies_with) {
  using Staging = compat::HostStagingSpace<TEST_MEMSPACE>;
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Staging>::accessible,
                "staging memory is read and written by MPI on the host");
  constexpr bool device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible;
  // A device's staging memory is its backend's pinned space, a host's plain HostSpace.
  static_assert(device != std::is_same_v<Staging, Kokkos::HostSpace>);
  Kokkos::View<double*, TEST_MEMSPACE> on_space("icondiff::test::on_space", 100);
  Kokkos::View<double*, Staging> staged("icondiff::test::staged", 100);
  for (int i = 0; i < 100; ++i) staged(i) = 0.5 * i;
  const TEST_EXECSPACE space;
  Kokkos::deep_copy(space, on_space, staged);
  Kokkos::deep_copy(space, staged, 0.0);
  Kokkos::deep_copy(space, staged, on_space);
  space.fence();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(staged(i), 0.5 * i) << i;
}

}  // namespace compat_test
}  // namespace icondiff
