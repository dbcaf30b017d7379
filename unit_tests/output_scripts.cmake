# The Python side of the output files: netCDF4-python reads a UGRID file back
# (check_ugrid_output.py) and scripts/plot_icondiff.py draws fields and timer reports. Both run
# Debian's /usr/bin/python3 (override with -DICONDIFF_PYTHON3=...) and are skipped (exit 77) when
# numpy, netCDF4 or matplotlib are missing. Included from unit_tests/CMakeLists.txt.

set(ICONDIFF_PYTHON3 "/usr/bin/python3" CACHE FILEPATH
    "Python 3 with numpy, netCDF4 and matplotlib for the output-script tests")

add_executable(ugrid_output_fixture ugrid_output_fixture.cpp)
target_include_directories(ugrid_output_fixture PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_link_libraries(ugrid_output_fixture PRIVATE icondiff)
target_compile_options(ugrid_output_fixture PRIVATE -Wall -Wextra)

foreach(mode check plot)
  if(mode STREQUAL "check")
    set(test_name test_ugrid_output_netcdf4)
  else()
    set(test_name test_plot_icondiff)
  endif()
  add_test(NAME ${test_name}
           COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/test_output_scripts.sh" ${mode}
                   "$<TARGET_FILE:ugrid_output_fixture>" "${ICONDIFF_PYTHON3}"
                   "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/output_scripts_${mode}")
  set_tests_properties(${test_name} PROPERTIES
    SKIP_RETURN_CODE 77
    ENVIRONMENT "OMP_PROC_BIND=false;OMP_NUM_THREADS=1;MPLBACKEND=Agg")
endforeach()
