# Finds every dependency icondiff needs for the options chosen in the top-level CMakeLists.txt.

# Kokkos: 3.4.01 (bootstrap / Debian; SameMajorVersion) and 4.x/5.x (AnyNewerVersion) both
# satisfy "3.4". Users point Kokkos_ROOT at their own (e.g. CUDA or HIP) installation.
find_package(Kokkos 3.4 REQUIRED)
include(IcondiffKokkosFixup)
message(STATUS "icondiff: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
find_package(KokkosKernels REQUIRED)
message(STATUS "icondiff: KokkosKernels from ${KokkosKernels_DIR}")

# netCDF-C: Debian ships a CMake package (netCDF::netcdf); fall back to pkg-config elsewhere.
find_package(netCDF CONFIG QUIET)
if(NOT TARGET netCDF::netcdf)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(NETCDF REQUIRED IMPORTED_TARGET netcdf)
  add_library(netCDF::netcdf INTERFACE IMPORTED)
  target_link_libraries(netCDF::netcdf INTERFACE PkgConfig::NETCDF)
endif()

find_package(fmt REQUIRED)

if(ICONDIFF_ENABLE_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)
  find_package(METIS REQUIRED)
endif()

if(ICONDIFF_ENABLE_CLI)
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)
endif()

if(ICONDIFF_ENABLE_TESTS)
  find_package(GTest REQUIRED)
endif()

if(ICONDIFF_ENABLE_PERF_TESTS)
  find_package(benchmark REQUIRED)
endif()
