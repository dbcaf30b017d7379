// Write bandwidth of the decomposed UGRID output (io/ugrid_output.hpp's MPI constructor): every
// rank writes its owned points of a dynamics output (the 10 fields of `icondiff run`) into one
// file with netCDF's parallel I/O. Prints one markdown row: ranks, the grid written once (the
// constructor: mesh, coordinates, bounds), the median time of one output step (the slowest rank's,
// from the barrier before to the end of write_step, which ends with a flush) and its bandwidth
// in the field bytes of the whole grid.
//
//   mpirun -np N bench_ugrid_output [GRID (generate:R2B5)] [NLEV (65)] [STEPS (4)] [DIR (.)]
//                                   [classic|netcdf4|serial (classic)]
//
// "serial" (one rank only): the single-process writer (nc_create, netCDF-C's own classic format
// code) on the whole grid: what rank 0 did alone before the output was parallel, without the
// gather that came before it.
//
// perf_tests/mpi/bench_ugrid_output.sh runs it on 1, 2 and 4 ranks; docs/user/distributed.md
// quotes the table. The file is removed at the end.
#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace icondiff;

double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

int run(int argc, char** argv) {
  const std::string source = argc > 1 ? argv[1] : "generate:R2B5";
  const int nlev = argc > 2 ? std::stoi(argv[2]) : 65;
  const int steps = argc > 3 ? std::stoi(argv[3]) : 4;
  const std::string dir = argc > 4 ? argv[4] : ".";
  const std::string format = argc > 5 ? argv[5] : "classic";
  const int rank = mpi_rank(MPI_COMM_WORLD), size = mpi_size(MPI_COMM_WORLD);
  const bool serial = format == "serial";
  if (nlev < 1 || steps < 1 ||
      (format != "classic" && format != "netcdf4" && !(serial && size == 1))) {
    std::fprintf(stderr,
                 "usage: bench_ugrid_output [GRID] [NLEV >= 1] [STEPS >= 1] [DIR] "
                 "[classic|netcdf4|serial (one rank)]\n");
    return 2;
  }
  const Grid whole = load_grid_source(source);
  const Grid local = make_local_grid(whole, partition_cells(whole, size), rank, size);

  std::vector<double> half(static_cast<std::size_t>(nlev) + 1),
      full(static_cast<std::size_t>(nlev));
  for (int k = 0; k <= nlev; ++k) half[static_cast<std::size_t>(k)] = 30000.0 * (nlev - k) / nlev;
  for (int k = 0; k < nlev; ++k)
    full[static_cast<std::size_t>(k)] =
        0.5 * (half[static_cast<std::size_t>(k)] + half[static_cast<std::size_t>(k) + 1]);
  const auto nc = static_cast<std::size_t>(local.num_cells);
  const auto ne = static_cast<std::size_t>(local.num_edges);
  const auto levels = static_cast<std::size_t>(nlev);
  // Values that are not all alike (a constant field would compress in netCDF-4... it does not
  // here, but a realistic spread keeps the measurement honest).
  const auto field = [](std::size_t n, double base) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = base + 1e-3 * static_cast<double>(i % 9973);
    return v;
  };
  const auto vn = field(ne * levels, 10), w = field(nc * (levels + 1), 0.1),
             theta_v = field(nc * levels, 300), exner = field(nc * levels, 0.9),
             rho = field(nc * levels, 1.0), pres_sfc = field(nc, 1e5),
             diagnostic = field(nc * (levels + 1), 1e-5);
  UgridOutputFields f;
  f.vn = vn;
  f.w = w;
  f.theta_v = theta_v;
  f.exner = exner;
  f.rho = rho;
  f.pres_sfc = pres_sfc;
  f.hdef_ic = f.div_ic = f.dwdx = f.dwdy = diagnostic;

  UgridWriterOptions options;
  options.write_dynamics = true;
  options.format = format == "netcdf4" ? UgridFileFormat::Netcdf4 : UgridFileFormat::Classic64;
  const std::string path = dir + "/bench_ugrid_output.nc";
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  UgridWriter writer = serial ? UgridWriter(path, local, full, half, {}, options)
                              : UgridWriter(MPI_COMM_WORLD, path, local, full, half, {}, options);
  const double grid_seconds = slowest(MPI_Wtime() - start);
  std::vector<double> step_seconds;
  for (int step = 0; step < steps; ++step) {
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    writer.write_step(600.0 * step, f);
    step_seconds.push_back(slowest(MPI_Wtime() - start));
  }
  writer.close();
  const double step_bytes = static_cast<double>(writer.field_bytes_written()) / steps;
  std::sort(step_seconds.begin(), step_seconds.end());
  const double median = step_seconds[step_seconds.size() / 2];
  if (rank == 0) {
    const double file_mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::printf(
        "| %d | %s × %d | %s | %.2f s | %.0f MB | %.3f s (%.3f–%.3f) | **%.0f MB/s** | %.0f MB |\n",
        size, source.c_str(), nlev, format.c_str(), grid_seconds, step_bytes / 1e6, median,
        step_seconds.front(), step_seconds.back(), step_bytes / median / 1e6, file_mb);
    std::filesystem::remove(path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status = run(argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_ugrid_output: %s\n", e.what());
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
