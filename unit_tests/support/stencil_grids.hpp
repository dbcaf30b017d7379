// The grids every stencil test runs on: ICON4Py's 18-cell torus (40 levels, every range the whole
// grid), and, when ../shared/data/grids is present, the real global R02B03 and limited-area
// R19B04 grids (with the granule's ranges).
#pragma once

#include "grid_files.hpp"
#include "simple_grid.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_file.hpp>

#include <string>
#include <vector>

namespace icondiff::test {

template <class MemorySpace>
struct StencilGrid {
  std::string name;
  Grid grid;
  DeviceGrid<MemorySpace> device;
  int nlev = 0;
  DiffusionRanges ranges;
  bool torus = false;
};

template <class MemorySpace>
StencilGrid<MemorySpace> make_stencil_grid(const std::string& name, Grid grid, int nlev,
                                           bool torus) {
  StencilGrid<MemorySpace> s;
  s.name = name;
  s.grid = std::move(grid);
  s.device = DeviceGrid<MemorySpace>(s.grid);
  s.nlev = nlev;
  s.ranges = diffusion_ranges(s.device);
  s.torus = torus;
  return s;
}

/// The torus always; the real grids when their files exist (a message says when they do not).
template <class MemorySpace>
std::vector<StencilGrid<MemorySpace>> stencil_grids() {
  std::vector<StencilGrid<MemorySpace>> grids;
  grids.push_back(make_stencil_grid<MemorySpace>("torus", make_simple_torus_grid(), 40, true));
  if (const auto path = real_grid(global_r02b03))
    grids.push_back(make_stencil_grid<MemorySpace>("R02B03", read_icon_grid(*path), 80, false));
  else
    std::printf("note: %s absent from %s, stencil tests run on the torus only\n", global_r02b03,
                grid_dir().c_str());
  if (const auto path = real_grid(lam_r19b04))
    grids.push_back(make_stencil_grid<MemorySpace>("R19B04-LAM", read_icon_grid(*path), 65, false));
  return grids;
}

}  // namespace icondiff::test
