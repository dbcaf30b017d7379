// Uses the installed icondiff: version, a device grid on the default execution space, and (if the
// file exists) a real grid file.
#include <icondiff/config.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_file.hpp>

#include <filesystem>
#include <iostream>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::cout << "icondiff " << ICONDIFF_VERSION_STRING << "\n";
  if (argc > 1 && std::filesystem::exists(argv[1])) {
    const icondiff::Grid grid = icondiff::read_icon_grid(argv[1]);
    const icondiff::DeviceGrid<Kokkos::DefaultExecutionSpace::memory_space> device(grid);
    std::cout << grid.num_cells << " cells, " << device.c2e.extent(0) << " on the device\n";
    if (device.c2e.extent(0) != static_cast<std::size_t>(grid.num_cells)) return 1;
  }
  std::cout << "downstream: OK\n";
  return 0;
}
