// main() of every unit test: Kokkos around GoogleTest.
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

int main(int argc, char* argv[]) {
  icondiff::compat::initialize(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  Kokkos::finalize();
  return result;
}
