# netCDF-C as icondiff links it: the target netCDF::netcdf, used by the build and (for a static
# libicondiff) by the installed icondiffConfig.cmake.
#
# With MPI (ICONDIFF_NETCDF_PARALLEL ON) the decomposed UGRID output is written collectively by
# every rank into one file (nc_create_par: PnetCDF for the classic formats, HDF5 MPI-IO for
# netCDF-4), so it must be a netCDF-C built with parallel I/O: Debian's libnetcdf-pnetcdf-dev (both
# kinds, under its own library name libnetcdf_pnetcdf, so it never clashes with the serial
# libnetcdf), or the user's own through netCDF_DIR. ICONDIFF_NETCDF_PAR_INCLUDE_DIR is then where
# its netcdf_par.h lies. Without MPI the serial one: Debian's CMake package, else pkg-config.
#
# Debian's parallel flavour is taken as a plain shared library: its CMake package lists the
# static link dependencies (HDF5-OpenMPI, PnetCDF, Blosc, ... development files) that a shared
# link does not need, and points at the serial headers in /usr/include.
if(TARGET netCDF::netcdf)
  return()
endif()
set(_icondiff_debian_netcdf "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/netCDF")
set(_icondiff_debian_netcdf_par "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libnetcdf_pnetcdf.so")
set(_icondiff_debian_netcdf_par_include
    "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/netcdf/pnetcdf/include")
if(ICONDIFF_NETCDF_PARALLEL)
  # Debian's, unless the user chose another netCDF (a build folder configured without MPI may
  # still cache one of Debian's packages: that is no choice).
  if((NOT netCDF_DIR OR netCDF_DIR STREQUAL _icondiff_debian_netcdf
      OR netCDF_DIR STREQUAL "${_icondiff_debian_netcdf}_pnetcdf"
      OR netCDF_DIR STREQUAL "netCDF_DIR-NOTFOUND")
     AND EXISTS "${_icondiff_debian_netcdf_par}"
     AND EXISTS "${_icondiff_debian_netcdf_par_include}/netcdf_par.h")
    add_library(netCDF::netcdf SHARED IMPORTED)
    set_target_properties(netCDF::netcdf PROPERTIES
      IMPORTED_LOCATION "${_icondiff_debian_netcdf_par}"
      INTERFACE_INCLUDE_DIRECTORIES "${_icondiff_debian_netcdf_par_include}")
    set(ICONDIFF_NETCDF_PAR_INCLUDE_DIR "${_icondiff_debian_netcdf_par_include}")
    set(_icondiff_netcdf_from "${_icondiff_debian_netcdf_par}")
  else()
    find_package(netCDF CONFIG)
    if(NOT TARGET netCDF::netcdf OR NOT netCDF_HAS_PARALLEL)
      message(FATAL_ERROR
        "icondiff: ICONDIFF_ENABLE_MPI=ON needs a netCDF-C with parallel I/O (the decomposed "
        "output is written by all ranks into one file); found '${netCDF_DIR}' (parallel: "
        "'${netCDF_HAS_PARALLEL}'). On Debian install libnetcdf-pnetcdf-dev "
        "(scripts/bootstrap.sh does), elsewhere point netCDF_DIR at a netCDF-C built with MPI.")
    endif()
    find_path(ICONDIFF_NETCDF_PAR_INCLUDE_DIR netcdf_par.h HINTS "${netCDF_INCLUDE_DIR}")
    if(NOT ICONDIFF_NETCDF_PAR_INCLUDE_DIR)
      message(FATAL_ERROR "icondiff: the parallel netCDF-C of ${netCDF_DIR} has no netcdf_par.h")
    endif()
    set(_icondiff_netcdf_from "${netCDF_DIR}")
  endif()
  message(STATUS "icondiff: parallel netCDF-C ${_icondiff_netcdf_from} "
                 "(headers ${ICONDIFF_NETCDF_PAR_INCLUDE_DIR})")
else()
  # Debian's serial package before its parallel one, which the same search pattern also finds
  # (lib/<arch>/cmake/netCDF*): a build without MPI must not link MPI's HDF5 (also where a build
  # folder configured with MPI still caches the parallel one).
  if(netCDF_DIR STREQUAL "${_icondiff_debian_netcdf}_pnetcdf")
    unset(netCDF_DIR CACHE)
  endif()
  find_package(netCDF CONFIG QUIET HINTS "${_icondiff_debian_netcdf}")
  if(NOT TARGET netCDF::netcdf)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(NETCDF REQUIRED IMPORTED_TARGET netcdf)
    add_library(netCDF::netcdf INTERFACE IMPORTED)
    target_link_libraries(netCDF::netcdf INTERFACE PkgConfig::NETCDF)
  endif()
endif()
