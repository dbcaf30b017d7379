// The sanitizer gate's proof that its Kokkos still checks View bounds (scripts/ci_sanitizers.sh):
// one out-of-bounds access must throw Kokkos' "View bounds error" naming the View and the index.
// The bootstrap patches that check's error path (scripts/kokkos_patches/); this catches a patch
// or a Kokkos build that lost the check.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Kokkos::View<double**, Kokkos::HostSpace> view("bounds_check_probe", 3, 4);
  const int row = argc + 2;  // 3: one past the end, unknown to the compiler
  try {
    view(row, 1) = 1.0;
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
    return 0;
  }
  std::printf("no bounds error for row %d of a View with 3 rows\n", row);
  return 1;
}
