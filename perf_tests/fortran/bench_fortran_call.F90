!> What a call of the diffusion granule costs from Fortran, as ICON makes it.
!>
!> Usage: bench_fortran_call GRID NLEV CALLS [IMPLEMENTATION [BACKEND]]
!>   GRID: an ICON grid file or generate:RnBk; CALLS: timed calls after 3 warm-up calls;
!>   IMPLEMENTATION: a name for the record; BACKEND: ICON4Py's selector (0 default, 1 dace, 2 gtfn).
!>
!> Times with ICON4Py's binding module (`use icon4py_bindings`, whichever library implements it:
!> icondiff's drop-in, or ICON4Py's own built by perf_tests/peers/icon4py/fortran_race.sh):
!> grid_init, diffusion_init, the first (initial) diffusion_run, then the median and minimum of
!> CALLS regular calls, and how far the outputs are from the C++ path's (bit-identical: 0). Built
!> against icondiff (ICONDIFF_MODULE defined) it times, call by call interleaved so that a noisy
!> machine disturbs them alike, three paths on three copies of the same state: the drop-in
!> module, the icondiff module's handle-based call and the C++ API's call (Diffusion::run +
!> fence); then, interleaved again with Kokkos Tools callbacks attached, the host overhead of a
!> drop-in call and of a C++ call (wall time minus the time inside kernels). Prints one JSON
!> object on the last line.
program bench_fortran_call
  use, intrinsic :: iso_c_binding
  use icon_case_arrays
  use bench_records
#ifdef ICONDIFF_MODULE
  use icondiff
  use icon_case_args
#endif
  implicit none

  interface
    function wall_seconds() bind(c, name="bench_wall_seconds") result(t)
      import :: c_double
      real(c_double) :: t
    end function wall_seconds
#ifdef ICONDIFF_MODULE
    subroutine kernel_clock_attach() bind(c, name="bench_kernel_clock_attach")
    end subroutine kernel_clock_attach
    subroutine kernel_clock_detach() bind(c, name="bench_kernel_clock_detach")
    end subroutine kernel_clock_detach
    function kernel_seconds() bind(c, name="bench_kernel_seconds") result(t)
      import :: c_double
      real(c_double) :: t
    end function kernel_seconds
    function cpp_prepare(dtime) bind(c, name="icon_case_cpp_prepare") result(rc)
      import :: c_int, c_double
      real(c_double), value :: dtime
      integer(c_int) :: rc
    end function cpp_prepare
    function cpp_call(dtime) bind(c, name="icon_case_cpp_call") result(t)
      import :: c_double
      real(c_double), value :: dtime
      real(c_double) :: t
    end function cpp_call
#endif
  end interface

  real(c_double), parameter :: dtime = 10.0_c_double
  character(len=4096) :: source, implementation
  integer :: levels, calls, call_index
  integer(c_int) :: rc
  real(c_double) :: t0, t_grid_init, t_diffusion_init, t_first, difference
  real(c_double), allocatable :: seconds(:)
  character(len=:), allocatable :: json
#ifdef ICONDIFF_MODULE
  real(c_double) :: k0
  real(c_double), allocatable :: overhead(:), cpp_overhead(:), kernels(:), module_seconds(:), &
                                 cpp_seconds(:)
  type(icondiff_icon_grid_args_t) :: grid_args
  type(icondiff_diffusion_args_t) :: diffusion_args
  type(icondiff_run_args_t) :: run_args
  type(icondiff_icon_grid_t) :: grid
  type(icondiff_diffusion_t) :: granule
  integer :: status
#endif

  call read_bench_arguments(source, levels, calls, implementation, binding_backend)
  allocate (seconds(calls))

  call open_case(source, levels)
  call make_state(w, vn, exner, theta_v, rho)
  call make_diagnostics()

  t0 = wall_seconds()
  call call_grid_init(c2e, rc)
  t_grid_init = wall_seconds() - t0
  if (rc /= 1) stop 'grid_init failed'
  t0 = wall_seconds()
  call call_diffusion_init(rc)
  t_diffusion_init = wall_seconds() - t0
  if (rc /= 1) stop 'diffusion_init failed'
  t0 = wall_seconds()
  call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                     .true._c_bool, rc)
  t_first = wall_seconds() - t0
  if (rc /= 1) stop 'diffusion_run failed'
#ifdef ICONDIFF_MODULE
  ! The two other paths on copies of the state: icondiff's module (handles, run arguments built
  ! once, diagnostics left to icondiff) and the C++ API.
  allocate (overhead(calls), cpp_overhead(calls), kernels(calls), module_seconds(calls), &
            cpp_seconds(calls))
  call make_state(w2, vn2, exner2, theta_v2, rho2)
  call fill_grid_args(grid_args)
  call fill_diffusion_args(diffusion_args)
  status = icondiff_icon_grid_create(grid_args, grid)
  status = icondiff_diffusion_create(grid, diffusion_args, granule)
  if (status /= ICONDIFF_OK) stop 'icondiff_diffusion_create failed'
  run_args%w = icondiff_array(w2)
  run_args%vn = icondiff_array(vn2)
  run_args%exner = icondiff_array(exner2)
  run_args%theta_v = icondiff_array(theta_v2)
  run_args%rho = icondiff_array(rho2)
  run_args%dtime = dtime
  run_args%linit = .true.
  status = icondiff_diffusion_run(granule, run_args)
  run_args%linit = .false.
  if (cpp_prepare(dtime) /= 0) stop 'icon_case_cpp_prepare failed'
#endif
  do call_index = -2, calls
    t0 = wall_seconds()
    call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                       .false._c_bool, rc)
    if (call_index >= 1) seconds(call_index) = wall_seconds() - t0
#ifdef ICONDIFF_MODULE
    t0 = wall_seconds()
    status = icondiff_diffusion_run(granule, run_args)
    if (call_index >= 1) module_seconds(call_index) = wall_seconds() - t0
    t0 = cpp_call(dtime)
    if (call_index >= 1) cpp_seconds(call_index) = t0
#endif
  end do
  if (rc /= 1) stop 'diffusion_run failed'
  ! Outputs after 1 + 3 + CALLS calls against the C++ path's.
  if (run_reference(int(calls + 4, c_int), dtime) /= 0) stop 'reference run failed'
  difference = max(max_difference('vn'//c_null_char, vn, nproma, nlev), &
                   max_difference('w'//c_null_char, w, nproma, nlev + 1), &
                   max_difference('theta_v'//c_null_char, theta_v, nproma, nlev), &
                   max_difference('exner'//c_null_char, exner, nproma, nlev), &
                   max_difference('div_ic'//c_null_char, div_ic, nproma, nlev + 1), &
                   max_difference('hdef_ic'//c_null_char, hdef_ic, nproma, nlev + 1), &
                   max_difference('dwdx'//c_null_char, dwdx, nproma, nlev + 1), &
                   max_difference('dwdy'//c_null_char, dwdy, nproma, nlev + 1))

  json = '{"implementation": "'//trim(implementation)//'", "grid": "'//trim(source)// &
         '", "cells": '//str(nc)//', "nlev": '//str(nlev)//', "calls": '//str(calls)// &
         ', "grid_init_s": '//real_str(t_grid_init)//', "diffusion_init_s": '// &
         real_str(t_diffusion_init)//', "first_call_s": '//real_str(t_first)// &
         ', "dropin_median_s": '//real_str(median(seconds))//', "dropin_min_s": '// &
         real_str(minval(seconds))//', "backend": '//str(binding_backend)// &
         ', "max_relative_difference": '//real_str(difference)

#ifdef ICONDIFF_MODULE
  if (status /= ICONDIFF_OK) stop 'icondiff_diffusion_run failed'
  ! Host overhead (wall time minus time inside kernels), drop-in and C++ interleaved.
  call kernel_clock_attach()
  do call_index = 1, calls
    k0 = kernel_seconds()
    t0 = wall_seconds()
    call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                       .false._c_bool, rc)
    overhead(call_index) = (wall_seconds() - t0) - (kernel_seconds() - k0)
    kernels(call_index) = kernel_seconds() - k0
    k0 = kernel_seconds()
    t0 = cpp_call(dtime)
    cpp_overhead(call_index) = t0 - (kernel_seconds() - k0)
  end do
  call kernel_clock_detach()
  json = json//', "host_overhead_median_s": '//real_str(median(overhead))// &
         ', "kernels_median_s": '//real_str(median(kernels))// &
         ', "module_median_s": '//real_str(median(module_seconds))// &
         ', "module_min_s": '//real_str(minval(module_seconds))// &
         ', "cpp_median_s": '//real_str(median(cpp_seconds))// &
         ', "cpp_min_s": '//real_str(minval(cpp_seconds))// &
         ', "cpp_host_overhead_median_s": '//real_str(median(cpp_overhead))
  call icondiff_diffusion_free(granule)
  call icondiff_icon_grid_free(grid)
  deallocate (overhead, cpp_overhead, kernels, module_seconds, cpp_seconds)
#endif
  print '(a)', json//'}'
  ! Main-program allocatables are never freed implicitly (LeakSanitizer would report them).
  deallocate (seconds, json)
  call icon_case_free()  ! its Views must go before Kokkos does (at exit)

end program bench_fortran_call
