!> The diffusion granule from Fortran, as ICON calls it, compared bit for bit with the C++ path.
!>
!> Arguments: grid source (an ICON grid file or generate:RnBk), number of levels, savepoint
!> directory. ICON-shaped inputs (1-based tables with nproma padding rows, start/end index arrays,
!> zd_* point lists, rbf_vec_coeff_v (6, 2, nproma), fields with padding rows) come from the test
!> helper (unit_tests/support/icon_arrays_case.hpp), which also runs the same calls through the
!> C++ API. Then:
!>  1. ICON4Py's drop-in module (`use icon4py_bindings`): the documented errors (run or
!>     diffusion_init before grid_init, wrong sizes, a second grid_init / diffusion_init) give
!>     rc = 2 and the program goes on; grid_init, diffusion_init, `steps` runs give rc = 1 and
!>     every output, padding rows included, equals the C++ path bit for bit.
!>  2. icondiff's own module (`use icondiff`): a second granule through handles on a copy of the
!>     initial state, without the optional diagnostics, run arguments built once; null and
!>     non-contiguous arrays give ICONDIFF_INVALID_ARGUMENT with a message; the prognostic
!>     outputs equal the C++ path; savepoints of run 2 are written (checked by `icondiff verify`
!>     in the next test); icondiff_finalize releases everything and is idempotent.
!> Exit 0: passed, 1: failed, 77: the grid file is absent (skipped).
program test_fortran_granule
  use, intrinsic :: iso_c_binding
  use icon4py_bindings, only: grid_init, diffusion_init, diffusion_run
  use icondiff
  use icon_case_arrays
  use icon_case_args
  implicit none

  integer, parameter :: steps = 3
  real(c_double), parameter :: dtime = 10.0_c_double
  character(len=4096) :: source, text, savepoints
  integer(c_int) :: rc
  integer :: status, step, calls, levels
  logical :: exists
  real(c_double), allocatable, target :: short_vn(:, :)
  ! icondiff module
  type(icondiff_icon_grid_args_t) :: grid_args
  type(icondiff_diffusion_args_t) :: diffusion_args
  type(icondiff_run_args_t) :: run_args, bad_args
  type(icondiff_icon_grid_t) :: grid
  type(icondiff_diffusion_t) :: granule

  call get_command_argument(1, source)
  call get_command_argument(2, text)
  read (text, *) levels
  call get_command_argument(3, savepoints)
  if (index(source, 'generate:') /= 1) then
    inquire (file=trim(source), exist=exists)
    if (.not. exists) then
      print '(a)', 'SKIP: grid file not found: '//trim(source)
      stop 77
    end if
  end if
  call open_case(source, levels)
  print '(a, i0, a, i0, a, i0, a, i0, a, i0, a, i0)', 'grid ', nc, ' cells, ', ne, ' edges, ', &
    nv, ' vertices, ', nlev, ' levels, nproma ', nproma, ', zd list ', nzd

  call make_state(w, vn, exner, theta_v, rho)
  call make_diagnostics()

  ! ---- 1. ICON4Py's drop-in module -------------------------------------------------------------
  call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                     .true._c_bool, rc)
  call expect_failure(rc, 'not initialised', 'diffusion_run before grid_init')
  call call_diffusion_init(rc)
  call expect_failure(rc, 'call grid_init', 'diffusion_init before grid_init')
  call call_grid_init(c2e(:, 1:2), rc)
  call expect_failure(rc, 'SIZE(c2e, 2) = 2, expected 3', 'grid_init with a 2-column c2e')
  call call_grid_init(c2e, rc)
  call check(rc == 1, 'grid_init: '//icondiff_last_error())
  call call_grid_init(c2e, rc)
  call expect_failure(rc, 'second time', 'a second grid_init')
  call call_diffusion_init(rc)
  call check(rc == 1, 'diffusion_init: '//icondiff_last_error())
  call call_diffusion_init(rc)
  call expect_failure(rc, 'second time', 'a second diffusion_init')
  allocate (short_vn(nproma, nlev - 1))
  short_vn = 0
  call diffusion_run(w, short_vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                     .true._c_bool, rc)
  call expect_failure(rc, 'SIZE(vn, 2)', 'diffusion_run with nlev - 1 levels of vn')
  deallocate (short_vn)  ! main-program allocatables are never freed implicitly (LeakSanitizer)
  call diffusion_run(w, vn, exner, theta_v(1:nc - 1, :), rho, hdef_ic, div_ic, dwdx, dwdy, &
                     dtime, .true._c_bool, rc)
  call expect_failure(rc, 'SIZE(theta_v, 1)', 'diffusion_run with one cell too few of theta_v')
  call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, -1.0_c_double, &
                     .true._c_bool, rc)
  call expect_failure(rc, 'dtime', 'diffusion_run with dtime < 0')
  do step = 1, steps
    call diffusion_run(w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, &
                       logical(step == 1, c_bool), rc)
    call check(rc == 1, 'diffusion_run: '//icondiff_last_error())
  end do
  call check(run_reference(steps, dtime) == 0, 'the C++ reference run')
  call same('vn', vn, nlev)
  call same('w', w, nlev + 1)
  call same('theta_v', theta_v, nlev)
  call same('exner', exner, nlev)
  call same('hdef_ic', hdef_ic, nlev + 1)
  call same('div_ic', div_ic, nlev + 1)
  call same('dwdx', dwdx, nlev + 1)
  call same('dwdy', dwdy, nlev + 1)

  ! ---- 2. icondiff's own module: handles --------------------------------------------------------
  call check(icondiff_check_argument_types() == ICONDIFF_OK, 'argument types match the C structs')
  call make_state(w2, vn2, exner2, theta_v2, rho2)
  call fill_grid_args(grid_args)
  status = icondiff_icon_grid_create(grid_args, grid)
  call check(status == ICONDIFF_OK, 'icondiff_icon_grid_create: '//icondiff_last_error())
  call fill_diffusion_args(diffusion_args)
  status = icondiff_diffusion_create(grid, diffusion_args, granule)
  call check(status == ICONDIFF_OK, 'icondiff_diffusion_create: '//icondiff_last_error())
  call icondiff_icon_grid_free(grid)  ! the granule keeps what it needs
  run_args%w = icondiff_array(w2)
  run_args%vn = icondiff_array(vn2)
  run_args%exner = icondiff_array(exner2)
  run_args%theta_v = icondiff_array(theta_v2)
  run_args%rho = icondiff_array(rho2)
  run_args%dtime = dtime  ! diagnostics absent: icondiff keeps its own
  bad_args = run_args
  bad_args%vn%data = c_null_ptr
  status = icondiff_diffusion_run(granule, bad_args)
  call check(status == ICONDIFF_INVALID_ARGUMENT .and. &
             index(icondiff_last_error(), 'vn is a null pointer') > 0, &
             'a null vn: '//icondiff_last_error())
  bad_args = run_args
  bad_args%theta_v = icondiff_array(theta_v2(1:nproma:2, :))
  status = icondiff_diffusion_run(granule, bad_args)
  call check(status == ICONDIFF_INVALID_ARGUMENT .and. &
             index(icondiff_last_error(), 'theta_v is not contiguous') > 0, &
             'a strided theta_v: '//icondiff_last_error())
  if (len_trim(savepoints) > 0) then
    status = icondiff_diffusion_capture_savepoints(granule, savepoints, 2, source)
    call check(status == ICONDIFF_OK, 'capture_savepoints: '//icondiff_last_error())
  end if
  do step = 1, steps
    run_args%linit = logical(step == 1, c_bool)
    status = icondiff_diffusion_run(granule, run_args)
    call check(status == ICONDIFF_OK, 'icondiff_diffusion_run: '//icondiff_last_error())
  end do
  status = icondiff_diffusion_calls(granule, calls)
  call check(status == ICONDIFF_OK .and. calls == steps, 'icondiff_diffusion_calls')
  call same('vn', vn2, nlev)
  call same('w', w2, nlev + 1)
  call same('theta_v', theta_v2, nlev)
  call same('exner', exner2, nlev)

  call icon_case_free()  ! its Views must go before Kokkos does
  call check(icondiff_finalize() == ICONDIFF_OK, 'icondiff_finalize')
  call check(icondiff_finalize() == ICONDIFF_OK, 'icondiff_finalize again')
  call check(.not. icondiff_is_initialized(), 'Kokkos finalized')
  status = icondiff_diffusion_run(granule, run_args)
  call check(status == ICONDIFF_INVALID_ARGUMENT .and. &
             index(icondiff_last_error(), 'released by icondiff_finalize') > 0, &
             'run after finalize: '//icondiff_last_error())
  call icondiff_diffusion_free(granule)

  if (failures > 0) then
    print '(i0, a)', failures, ' check(s) FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'

end program test_fortran_granule
