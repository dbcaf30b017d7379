!> What a call of the solve_nh granule costs from Fortran, as ICON makes it.
!>
!> Usage: bench_fortran_solve_nh GRID NLEV CALLS [IMPLEMENTATION [BACKEND [SUBSTEPS]]]
!>   GRID: an ICON grid file or generate:RnBk; CALLS: timed calls (rounded up to whole physics
!>   steps of SUBSTEPS substeps, default 5: ICON's ndyn_substeps); IMPLEMENTATION: a name for the
!>   record; BACKEND: ICON4Py's selector (0 default, 1 dace, 2 gtfn).
!>
!> Times with ICON4Py's binding module (`use icon4py_bindings`, whichever library implements it:
!> icondiff's drop-in, or ICON4Py's own built by perf_tests/peers/icon4py/fortran_race.sh), on a
!> Jablonowski-Williamson state held as ICON holds it (two time levels, two tendency slots,
!> swapped after every substep; no IAU increments): grid_init, solve_nh_init, the first
!> solve_nh_run (substep 1 of the initial step), then, after the initial step's other substeps as
!> warm-up, the median and minimum of the calls of the following steps, and how far the outputs
!> are from the C++ granule's after the same substeps (icondiff: bit-identical, 0). Prints one
!> JSON object on the last line; with BENCH_PRINT_CALLS set, every call's time before it; with
!> BENCH_SKIP_REFERENCE set, no comparison with the C++ granule (max_relative_difference -1).
program bench_fortran_solve_nh
  use, intrinsic :: iso_c_binding
  use icon_case_arrays
  use bench_records
  use icon_solve_nh_arrays
  implicit none

  interface
    function wall_seconds() bind(c, name="bench_wall_seconds") result(t)
      import :: c_double
      real(c_double) :: t
    end function wall_seconds
  end interface

  real(c_double), parameter :: dtime = 60.0_c_double
  character(len=4096) :: source, text, implementation
  integer :: levels, calls, substeps, steps, step, substep, timed
  integer(c_int) :: rc
  real(c_double) :: t0, t_grid_init, t_solve_nh_init, t_first, difference
  real(c_double), allocatable :: seconds(:)
  character(len=:), allocatable :: json
  type(nh_state) :: state

  call read_bench_arguments(source, levels, calls, implementation, binding_backend)
  substeps = 5
  call get_command_argument(6, text)
  if (len_trim(text) > 0) read (text, *) substeps
  steps = 1 + (calls + substeps - 1) / substeps  ! the initial step, then the timed ones
  calls = (steps - 1) * substeps
  allocate (seconds(calls))

  call open_case(source, levels, solve_nh=.true.)
  call make_solve_nh_inputs()
  call make_nh_state(state, increments=.false.)
  if (failures > 0) stop 'the case''s arrays could not be filled'

  t0 = wall_seconds()
  call call_grid_init(c2e, rc)
  t_grid_init = wall_seconds() - t0
  if (rc /= 1) stop 'grid_init failed'
  t0 = wall_seconds()
  call call_solve_nh_init(rc)
  t_solve_nh_init = wall_seconds() - t0
  if (rc /= 1) stop 'solve_nh_init failed'

  timed = 0
  do step = 1, steps
    do substep = 1, substeps
      t0 = wall_seconds()
      call call_solve_nh_run(state, step, substep, substeps, dtime, rc)
      if (step == 1 .and. substep == 1) t_first = wall_seconds() - t0
      if (step > 1) then
        timed = timed + 1
        seconds(timed) = wall_seconds() - t0
      end if
      if (rc /= 1) stop 'solve_nh_run failed'
      call swap_time_levels(state)
    end do
  end do

  call get_environment_variable('BENCH_PRINT_CALLS', text)
  if (len_trim(text) > 0) print '(a, i0, a, es12.4)', ('call ', timed, ' s ', seconds(timed), &
                                                        timed=1, calls)
  ! Outputs after steps x substeps calls against the C++ granule's; BENCH_SKIP_REFERENCE set:
  ! not compared (-1), for a grid where the reference granule does not fit in memory beside the
  ! implementation timed.
  call get_environment_variable('BENCH_SKIP_REFERENCE', text)
  if (len_trim(text) > 0) then
    difference = -1.0_c_double
  else
    if (run_solve_nh_reference(int(steps, c_int), int(substeps, c_int), dtime) /= 0) &
      stop 'reference run failed'
    difference = nh_state_max_difference(state)
  end if

  json = '{"granule": "solve_nh", "implementation": "'//trim(implementation)//'", "grid": "'// &
         trim(source)//'", "cells": '//str(nc)//', "edges": '//str(ne)//', "nlev": '// &
         str(nlev)//', "calls": '//str(calls)//', "substeps": '//str(substeps)// &
         ', "dtime_s": '//real_str(dtime)//', "grid_init_s": '//real_str(t_grid_init)// &
         ', "solve_nh_init_s": '//real_str(t_solve_nh_init)//', "first_call_s": '// &
         real_str(t_first)//', "dropin_median_s": '//real_str(median(seconds))// &
         ', "dropin_min_s": '//real_str(minval(seconds))//', "backend": '// &
         str(binding_backend)//', "max_vcfl": '//real_str(state%max_vcfl(1))// &
         ', "max_relative_difference": '//real_str(difference)//'}'
  print '(a)', json
  ! Main-program allocatables are never freed implicitly (LeakSanitizer would report them).
  deallocate (seconds, json)
  call free_nh_state(state)
  call icon_case_free()  ! its Views must go before Kokkos does (at exit)

end program bench_fortran_solve_nh
