# Generates ICON4Py's binding functions from their one argument table
# (fortran_bindings/icon4py_bindings.table, whose header describes the format):
#
#   cmake -DTABLE=<table> [-DFORTRAN=<module.F90>] [-DTYPES=<types.inc>] [-DCXX=<wrappers.cpp>]
#         -P <this script>
#
# FORTRAN: the module icon4py_bindings, written as ICON4Py's generator (py2fgen) writes it: a
#   bind(c) interface per C function and a subroutine per function that passes each array as
#   c_loc(x) plus SIZE(x, d), device arrays inside `!$acc host_data use_device`, optional
#   (pointer) arrays as c_null_ptr with sizes 0 when unassociated, and on_gpu from _OPENACC.
# CXX: the C functions <name>_wrapper with ICON4Py's C signatures; each builds the C API's
#   argument struct from its arguments (members in the table's order) and returns
#   icondiff::capi::icon4py::<name>(struct) (src/capi/icon4py_bindings_impl.hpp).
# A CMake script, so that building icondiff needs nothing besides CMake and the compilers.
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED TABLE)
  message(FATAL_ERROR "generate_icon4py_bindings: pass -DTABLE=<argument table>")
endif()

# ---- Reading the table: per function its struct, description and arguments -----------------------
set(functions "")
set(current "")
file(STRINGS "${TABLE}" table_lines)
set(line_number 0)
foreach(line IN LISTS table_lines)
  math(EXPR line_number "${line_number} + 1")
  string(REGEX REPLACE "^[ \t]+" "" stripped "${line}")
  if(stripped STREQUAL "" OR stripped MATCHES "^#")
    continue()
  endif()
  if(stripped MATCHES "^function[ \t]+([a-z_0-9]+)[ \t]+([a-z_0-9]+)$")
    set(current "${CMAKE_MATCH_1}")
    list(APPEND functions "${current}")
    set(${current}_struct "${CMAKE_MATCH_2}")
    set(${current}_doc "")
    set(${current}_args "")
  elseif(stripped MATCHES "^doc[ \t]+(.*)$")
    set(${current}_doc "${CMAKE_MATCH_1}")
  elseif(stripped MATCHES "^([a-z_0-9]+)[ \t]+(int32|float64|bool)[ \t]+([0-3])([ \t]+.*)?$")
    if(current STREQUAL "")
      message(FATAL_ERROR "${TABLE}:${line_number}: an argument before the first function")
    endif()
    set(arg "${CMAKE_MATCH_1}")
    list(APPEND ${current}_args "${arg}")
    set(${current}_${arg}_type "${CMAKE_MATCH_2}")
    set(${current}_${arg}_rank "${CMAKE_MATCH_3}")
    string(STRIP "${CMAKE_MATCH_4}" flags)
    string(REGEX REPLACE "[ \t]+" ";" flags "${flags}")
    foreach(flag IN LISTS flags)
      if(NOT flag MATCHES "^(device|optional|openacc)$")
        message(FATAL_ERROR "${TABLE}:${line_number}: unknown flag '${flag}'")
      endif()
    endforeach()
    set(${current}_${arg}_flags "${flags}")
  else()
    message(FATAL_ERROR "${TABLE}:${line_number}: cannot read '${line}'")
  endif()
endforeach()

# The argument's flag `flag` set? (result in out)
function(has_flag function arg flag out)
  if("${flag}" IN_LIST ${function}_${arg}_flags)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Joins `items` by ", " into Fortran lines of at most 97 characters continued by " &" (as the
# hand-written module this replaced, well within free form's 132): the first
# line indented by `first`, the others by `next`; the last item followed by `close`.
function(fortran_wrap items first next close out)
  set(text "")
  set(line "${first}")
  set(line_start TRUE)
  list(LENGTH items count)
  set(index 0)
  foreach(item IN LISTS items)
    math(EXPR index "${index} + 1")
    if(index EQUAL count)
      set(tail "${close}")
    else()
      set(tail ",")
    endif()
    string(LENGTH "${line} ${item}${tail} &" candidate)
    if(NOT line_start AND candidate GREATER 97)
      string(APPEND text "${line} &\n")
      set(line "${next}")
      set(line_start TRUE)
    endif()
    if(line_start)
      string(APPEND line "${item}${tail}")
      set(line_start FALSE)
    else()
      string(APPEND line " ${item}${tail}")
    endif()
  endforeach()
  string(APPEND text "${line}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(fortran_type_int32 "integer(c_int)")
set(fortran_type_float64 "real(c_double)")
set(fortran_type_bool "logical(c_bool)")

# ---- The Fortran module --------------------------------------------------------------------------
if(DEFINED FORTRAN)
  string(JOIN ", " names ${functions})
  set(f90 "! The Fortran module of ICON4Py 0.2.0's bindings (`use icon4py_bindings`, with the arguments
! and return codes of icon4py-bindings 0.2.0), implemented by icondiff: ICON code written against
! ICON4Py's bindings compiles and links against libicondiff_icon4py_bindings unchanged and runs
! icondiff's granules. Functions: ${names}.
!
! Each subroutine passes its arrays to the C function of the same name + \"_wrapper\"
! (icon4py_bindings.h) as a pointer plus one size per dimension, the MAYBE_DEVICE ones as device
! pointers inside `!$acc host_data` when compiled with OpenACC (on_gpu = .true.), exactly as the
! module py2fgen generates does. rc: 1 success, 2 failure (message on stderr). The arrays are
! contiguous: a non-contiguous actual argument is copied in and out by the compiler around the
! call, which is correct here (icondiff reads them during the call only) but costs a copy.
! Generated by the build (cmake/generate_icon4py_bindings.cmake) from
! fortran_bindings/icon4py_bindings.table: edit the table, not this file.
module icon4py_bindings
  use, intrinsic :: iso_c_binding
  implicit none
  private

  public :: ${names}

  interface
")
  set(fortran_dims_1 ":")
  set(fortran_dims_2 ":,:")
  set(fortran_dims_3 ":,:,:")
  set(first_function TRUE)
  foreach(function IN LISTS functions)
    if(NOT first_function)
      string(APPEND f90 "\n")
    endif()
    set(first_function FALSE)
    # The C function's arguments: every array as its address and extents.
    set(c_args "")
    set(declarations "")
    foreach(arg IN LISTS ${function}_args)
      set(rank ${${function}_${arg}_rank})
      set(ftype "${fortran_type_${${function}_${arg}_type}}")
      list(APPEND c_args "${arg}")
      if(rank EQUAL 0)
        string(APPEND declarations "      ${ftype}, value :: ${arg}\n")
      else()
        set(sizes "")
        math(EXPR last "${rank} - 1")
        foreach(d RANGE 0 ${last})
          list(APPEND c_args "${arg}_size_${d}")
          list(APPEND sizes "${arg}_size_${d}")
        endforeach()
        string(JOIN ", " sizes ${sizes})
        string(APPEND declarations "      type(c_ptr), value :: ${arg}\n")
        string(APPEND declarations "      integer(c_int), value :: ${sizes}\n")
      endif()
    endforeach()
    fortran_wrap("${c_args}" "        " "          " ") &" wrapped)
    string(APPEND f90 "    function ${function}_wrapper( &
${wrapped}
        bind(c, name=\"${function}_wrapper\") result(rc)
      import :: c_int, c_double, c_bool, c_ptr
      integer(c_int) :: rc
${declarations}    end function ${function}_wrapper
")
  endforeach()
  string(APPEND f90 "  end interface

contains
")
  foreach(function IN LISTS functions)
    set(dummies "")
    set(declarations "")
    set(locals "")
    set(nullify "")
    set(host_data "")
    set(end_host_data "")
    set(associate "")
    set(actuals "")
    set(openacc_args "")
    foreach(arg IN LISTS ${function}_args)
      set(rank ${${function}_${arg}_rank})
      set(ftype "${fortran_type_${${function}_${arg}_type}}")
      has_flag(${function} ${arg} openacc openacc)
      has_flag(${function} ${arg} optional optional)
      has_flag(${function} ${arg} device device)
      if(openacc)
        list(APPEND openacc_args "${arg}")
        list(APPEND actuals "${arg}")
        continue()
      endif()
      list(APPEND dummies "${arg}")
      if(rank EQUAL 0)
        string(APPEND declarations "    ${ftype}, value :: ${arg}\n")
        list(APPEND actuals "${arg}")
        continue()
      endif()
      set(dims "${fortran_dims_${rank}}")
      if(optional)
        set(attribute "pointer")
      else()
        set(attribute "target")
      endif()
      string(APPEND declarations
             "    ${ftype}, dimension(${dims}), contiguous, intent(inout), ${attribute} :: ${arg}\n")
      if(device)
        if(optional)
          string(APPEND host_data "    !$acc host_data use_device(${arg}) if(associated(${arg}))\n")
        else()
          string(APPEND host_data "    !$acc host_data use_device(${arg})\n")
        endif()
        string(APPEND end_host_data "    !$acc end host_data\n")
      endif()
      if(optional)
        string(APPEND locals "    type(c_ptr) :: ${arg}_ptr\n"
                             "    integer(c_int) :: ${arg}_size(${rank})\n")
        string(APPEND nullify "    ${arg}_ptr = c_null_ptr\n    ${arg}_size = 0\n")
        string(APPEND associate "    if (associated(${arg})) then
      ${arg}_ptr = c_loc(${arg})
      ${arg}_size = shape(${arg})
    end if
")
        list(APPEND actuals "${arg}_ptr")
        foreach(d RANGE 1 ${rank})
          list(APPEND actuals "${arg}_size(${d})")
        endforeach()
      else()
        list(APPEND actuals "c_loc(${arg})")
        foreach(d RANGE 1 ${rank})
          list(APPEND actuals "size(${arg}, ${d}, c_int)")
        endforeach()
      endif()
    endforeach()
    list(APPEND dummies "rc")
    set(openacc_locals "")
    set(openacc_set "")
    foreach(arg IN LISTS openacc_args)
      string(APPEND openacc_locals "    logical(c_bool) :: ${arg}\n")
      string(APPEND openacc_set "#ifdef _OPENACC
    ${arg} = .true.
#else
    ${arg} = .false.
#endif
")
    endforeach()
    fortran_wrap("${dummies}" "      " "        " ")" wrapped_dummies)
    fortran_wrap("${actuals}" "        " "          " ")" wrapped_actuals)
    string(APPEND f90 "
  !> ${${function}_doc}
  subroutine ${function}( &
${wrapped_dummies}
${declarations}    integer(c_int), intent(out) :: rc
${openacc_locals}${locals}${nullify}${host_data}${openacc_set}${associate}    rc = ${function}_wrapper( &
${wrapped_actuals}
${end_host_data}  end subroutine ${function}
")
  endforeach()
  string(APPEND f90 "
end module icon4py_bindings
")
  file(WRITE "${FORTRAN}.tmp" "${f90}")
  # Only a changed module is rewritten, so that an unchanged table recompiles nothing.
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${FORTRAN}.tmp" "${FORTRAN}")
  file(REMOVE "${FORTRAN}.tmp")
endif()

# ---- The argument types of `use icondiff` -----------------------------------------------------------
# TYPES: one bind(c) derived type per function, mirroring its C API argument struct (the same
# members in the same order; arrays as icondiff_array_t, which module icondiff defines before it
# includes this file), every scalar 0 / .false. by default.
if(DEFINED TYPES)
  set(types "! The argument types of icondiff's own Fortran module (`use icondiff`), one per function of
! ICON4Py 0.2.0's bindings: bind(c) mirrors of the C API's argument structs (icondiff_c.h).
! Generated by the build (cmake/generate_icon4py_bindings.cmake) from
! fortran_bindings/icon4py_bindings.table and included by icondiff.f90: edit the table.
")
  set(fortran_default_int32 "0")
  set(fortran_default_float64 "0.0_c_double")
  set(fortran_default_bool ".false.")
  foreach(function IN LISTS functions)
    string(APPEND types "
  !> ICON4Py ${function}'s arguments (${${function}_struct}).
  type, bind(c), public :: ${${function}_struct}_t
")
    foreach(arg IN LISTS ${function}_args)
      set(rank ${${function}_${arg}_rank})
      set(type ${${function}_${arg}_type})
      if(rank EQUAL 0)
        string(APPEND types "    ${fortran_type_${type}} :: ${arg} = ${fortran_default_${type}}\n")
      else()
        string(APPEND types "    type(icondiff_array_t) :: ${arg}\n")
      endif()
    endforeach()
    string(APPEND types "  end type ${${function}_struct}_t
")
  endforeach()
  file(WRITE "${TYPES}.tmp" "${types}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${TYPES}.tmp" "${TYPES}")
  file(REMOVE "${TYPES}.tmp")
endif()

# ---- The C functions -----------------------------------------------------------------------------
if(DEFINED CXX)
  set(cxx "// ICON4Py 0.2.0's binding functions with ICON4Py's C ABI (icon4py_bindings.h): each unpacks
// its arguments into the C API's argument struct, whose members follow the same order, and
// returns the drop-in's result for it (src/capi/icon4py_bindings.cpp).
// Generated by the build (cmake/generate_icon4py_bindings.cmake) from
// fortran_bindings/icon4py_bindings.table: edit the table, not this file.
#include \"icon4py_bindings_impl.hpp\"

#include <icon4py_bindings.h>
#include <icondiff_c.h>

#include <cstddef>
")
  set(c_type_int32 "int")
  set(c_type_float64 "double")
  set(c_type_bool "unsigned char")
  # Aggregate initialisation relies on the struct declaring its members in the table's order:
  # checked member by member, so that a difference is a compile error, not swapped arguments.
  string(APPEND cxx "
// The argument structs' members in the table's order.
")
  foreach(function IN LISTS functions)
    set(previous "")
    foreach(arg IN LISTS ${function}_args)
      if(NOT previous STREQUAL "")
        string(APPEND cxx "static_assert(offsetof(${${function}_struct}, ${previous}) < "
                          "offsetof(${${function}_struct}, ${arg}),\n              "
                          "\"${${function}_struct}: ${previous} must precede ${arg}\");\n")
      endif()
      set(previous "${arg}")
    endforeach()
  endforeach()
  string(APPEND cxx "
extern \"C\" {
")
  foreach(function IN LISTS functions)
    set(parameters "")
    set(members "")
    foreach(arg IN LISTS ${function}_args)
      set(rank ${${function}_${arg}_rank})
      set(ctype "${c_type_${${function}_${arg}_type}}")
      if(rank EQUAL 0)
        list(APPEND parameters "${ctype} ${arg}")
        list(APPEND members "${arg}")
      else()
        list(APPEND parameters "${ctype}* ${arg}")
        set(sizes "")
        math(EXPR last "${rank} - 1")
        foreach(d RANGE 0 ${last})
          list(APPEND parameters "int ${arg}_size_${d}")
          list(APPEND sizes "${arg}_size_${d}")
        endforeach()
        string(JOIN ", " sizes ${sizes})
        list(APPEND members "icondiff::capi::icon4py::array(${arg}, ${sizes})")
      endif()
    endforeach()
    string(JOIN ",\n    " parameters ${parameters})
    string(JOIN ",\n      " members ${members})
    string(APPEND cxx "
int ${function}_wrapper(
    ${parameters}) {
  return icondiff::capi::icon4py::${function}(${${function}_struct}{
      ${members}});
}
")
  endforeach()
  string(APPEND cxx "
}  // extern \"C\"
")
  file(WRITE "${CXX}.tmp" "${cxx}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${CXX}.tmp" "${CXX}")
  file(REMOVE "${CXX}.tmp")
endif()
