# Debian 12's binary Kokkos 3.4.01 (libtrilinos-kokkos-dev) comes with a TriBITS-generated
# KokkosConfig.cmake whose Kokkos::kokkos target names a non-existent include directory
# (<prefix>/lib/include). Replace it with Kokkos_INCLUDE_DIRS when, and only when, that happens.
# Kokkos installations built with Kokkos' own CMake (our bootstrap, any 4.x) are left untouched.
if(TARGET Kokkos::kokkos)
  get_target_property(_icondiff_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  if(Kokkos_INCLUDE_DIRS AND _icondiff_kokkos_inc AND NOT EXISTS "${_icondiff_kokkos_inc}")
    set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                                                    "${Kokkos_INCLUDE_DIRS}")
  endif()
  unset(_icondiff_kokkos_inc)
endif()
