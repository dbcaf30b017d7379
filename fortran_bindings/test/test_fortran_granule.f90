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
  implicit none

  interface
    function icon_case_create(source, nlev) bind(c, name="icon_case_create") result(rc)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: source
      integer(c_int), value :: nlev
      integer(c_int) :: rc
    end function icon_case_create
    subroutine icon_case_free() bind(c, name="icon_case_free")
    end subroutine icon_case_free
    subroutine icon_case_sizes(nc, ne, nv, nlev, nzd) bind(c, name="icon_case_sizes")
      import :: c_int
      integer(c_int), intent(out) :: nc, ne, nv, nlev, nzd
    end subroutine icon_case_sizes
    function fill_int(name, data, ld, cols) bind(c, name="icon_case_fill_int") result(rc)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int), intent(out) :: data(*)
      integer(c_int), value :: ld, cols
      integer(c_int) :: rc
    end function fill_int
    function fill_double(name, data, ld, cols) bind(c, name="icon_case_fill_double") result(rc)
      import :: c_char, c_int, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), intent(out) :: data(*)
      integer(c_int), value :: ld, cols
      integer(c_int) :: rc
    end function fill_double
    function fill_bool(name, data, ld) bind(c, name="icon_case_fill_bool") result(rc)
      import :: c_char, c_int, c_bool
      character(kind=c_char), dimension(*), intent(in) :: name
      logical(c_bool), intent(out) :: data(*)
      integer(c_int), value :: ld
      integer(c_int) :: rc
    end function fill_bool
    function case_real(name) bind(c, name="icon_case_real") result(value)
      import :: c_char, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double) :: value
    end function case_real
    function case_int(name) bind(c, name="icon_case_int") result(value)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int) :: value
    end function case_int
    function run_reference(steps, dtime) bind(c, name="icon_case_run_reference") result(rc)
      import :: c_int, c_double
      integer(c_int), value :: steps
      real(c_double), value :: dtime
      integer(c_int) :: rc
    end function run_reference
    function compare(name, data, ld, cols) bind(c, name="icon_case_compare") result(mismatches)
      import :: c_char, c_int, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), intent(in) :: data(*)
      integer(c_int), value :: ld, cols
      integer(c_int) :: mismatches
    end function compare
  end interface

  integer, parameter :: steps = 3
  real(c_double), parameter :: dtime = 10.0_c_double
  character(len=4096) :: source, text, savepoints
  integer(c_int) :: nc, ne, nv, nlev, nzd, nproma, rc
  integer :: failures = 0, status, step, calls
  logical :: exists
  ! grid_init
  integer(c_int), allocatable, target :: cell_starts(:), cell_ends(:), edge_starts(:), &
                                         edge_ends(:), vertex_starts(:), vertex_ends(:)
  integer(c_int), allocatable, target :: c2e(:, :), e2c(:, :), c2e2c(:, :), e2c2e(:, :), &
                                         e2v(:, :), v2e(:, :), v2c(:, :), e2c2v(:, :), c2v(:, :)
  logical(c_bool), allocatable, target :: c_owner(:), e_owner(:), v_owner(:)
  integer(c_int), allocatable, target :: c_glb(:), e_glb(:), v_glb(:)
  real(c_double), allocatable, target :: tangent_orientation(:), inv_primal(:), inv_dual(:), &
                                         inv_vert_vert(:), edge_areas(:), f_e(:), &
                                         cell_lat(:), cell_lon(:), cell_areas(:), &
                                         edge_lat(:), edge_lon(:), pn_x(:), pn_y(:), vct_a(:)
  real(c_double), allocatable, target :: pn_vert_x(:, :), pn_vert_y(:, :), dn_vert_x(:, :), &
                                         dn_vert_y(:, :), pn_cell_x(:, :), pn_cell_y(:, :), &
                                         dn_cell_x(:, :), dn_cell_y(:, :)
  ! diffusion_init
  real(c_double), allocatable, target :: theta_ref_mc(:, :), wgtfac_c(:, :), e_bln_c_s(:, :), &
                                         geofac_div(:, :), geofac_grg_x(:, :), &
                                         geofac_grg_y(:, :), geofac_n2s(:, :), nudgecoeff_e(:), &
                                         rbf_vec_coeff_v(:, :, :)
  integer(c_int), pointer, contiguous :: zd_cellidx(:, :) => null(), zd_vertidx(:, :) => null()
  real(c_double), pointer, contiguous :: zd_intcoef(:, :) => null(), zd_diffcoef(:) => null()
  ! diffusion_run (two states: the drop-in's and the module's)
  real(c_double), allocatable, target :: w(:, :), vn(:, :), exner(:, :), theta_v(:, :), rho(:, :)
  real(c_double), pointer, contiguous :: hdef_ic(:, :) => null(), div_ic(:, :) => null(), &
                                         dwdx(:, :) => null(), dwdy(:, :) => null()
  real(c_double), allocatable, target :: w2(:, :), vn2(:, :), exner2(:, :), theta_v2(:, :), &
                                         rho2(:, :)
  real(c_double), allocatable, target :: short_vn(:, :)
  ! icondiff module
  type(icondiff_icon_grid_args_t) :: grid_args
  type(icondiff_diffusion_args_t) :: diffusion_args
  type(icondiff_run_args_t) :: run_args, bad_args
  type(icondiff_icon_grid_t) :: grid
  type(icondiff_diffusion_t) :: granule

  call get_command_argument(1, source)
  call get_command_argument(2, text)
  read (text, *) nlev
  call get_command_argument(3, savepoints)
  if (index(source, 'generate:') /= 1) then
    inquire (file=trim(source), exist=exists)
    if (.not. exists) then
      print '(a)', 'SKIP: grid file not found: '//trim(source)
      stop 77
    end if
  end if
  if (icon_case_create(trim(source)//c_null_char, nlev) /= 0) stop 1
  call icon_case_sizes(nc, ne, nv, nlev, nzd)
  nproma = max(nc, ne, nv) + 7  ! ICON: one nproma for every location, one block
  print '(a, i0, a, i0, a, i0, a, i0, a, i0, a, i0)', 'grid ', nc, ' cells, ', ne, ' edges, ', &
    nv, ' vertices, ', nlev, ' levels, nproma ', nproma, ', zd list ', nzd

  call make_inputs()
  call make_state(w, vn, exner, theta_v, rho)
  allocate (hdef_ic(nproma, nlev + 1), div_ic(nproma, nlev + 1), dwdx(nproma, nlev + 1), &
            dwdy(nproma, nlev + 1))
  call fill_d('hdef_ic', hdef_ic, nlev + 1)
  call fill_d('div_ic', div_ic, nlev + 1)
  call fill_d('dwdx', dwdx, nlev + 1)
  call fill_d('dwdy', dwdy, nlev + 1)

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
  call fill_grid_args()
  status = icondiff_icon_grid_create(grid_args, grid)
  call check(status == ICONDIFF_OK, 'icondiff_icon_grid_create: '//icondiff_last_error())
  call fill_diffusion_args()
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

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a)', 'FAILED: '//what
      failures = failures + 1
    end if
  end subroutine check

  !> rc = 2 and the last error mentions `needle`; the program goes on either way.
  subroutine expect_failure(rc, needle, what)
    integer(c_int), intent(in) :: rc
    character(len=*), intent(in) :: needle, what
    character(len=:), allocatable :: message
    message = icondiff_last_error()
    call check(rc == 2, what//': rc = 2 expected')
    call check(index(message, needle) > 0, what//": message '"//message//"' lacks '"//needle//"'")
  end subroutine expect_failure

  subroutine same(name, field, cols)
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: field(:, :)
    integer(c_int), intent(in) :: cols
    integer(c_int) :: mismatches
    mismatches = compare(name//c_null_char, field, int(size(field, 1), c_int), cols)
    call check(mismatches == 0, name//' equals the C++ path bit for bit (padding untouched)')
  end subroutine same

  subroutine fill_i(name, a, cols)
    character(len=*), intent(in) :: name
    integer(c_int), intent(out) :: a(:, :)
    integer(c_int), intent(in) :: cols
    call check(fill_int(name//c_null_char, a, int(size(a, 1), c_int), cols) == 0, 'fill '//name)
  end subroutine fill_i

  subroutine fill_i1(name, a)
    character(len=*), intent(in) :: name
    integer(c_int), intent(out) :: a(:)
    call check(fill_int(name//c_null_char, a, int(size(a), c_int), 1_c_int) == 0, 'fill '//name)
  end subroutine fill_i1

  subroutine fill_d(name, a, cols)
    character(len=*), intent(in) :: name
    real(c_double), intent(out) :: a(:, :)
    integer(c_int), intent(in) :: cols
    call check(fill_double(name//c_null_char, a, int(size(a, 1), c_int), cols) == 0, 'fill '//name)
  end subroutine fill_d

  subroutine fill_d1(name, a)
    character(len=*), intent(in) :: name
    real(c_double), intent(out) :: a(:)
    call check(fill_double(name//c_null_char, a, int(size(a), c_int), 1_c_int) == 0, 'fill '//name)
  end subroutine fill_d1

  subroutine make_inputs()
    allocate (cell_starts(14), cell_ends(14), edge_starts(24), edge_ends(24), vertex_starts(13), &
              vertex_ends(13))
    call fill_i1('cell_starts', cell_starts)
    call fill_i1('cell_ends', cell_ends)
    call fill_i1('edge_starts', edge_starts)
    call fill_i1('edge_ends', edge_ends)
    call fill_i1('vertex_starts', vertex_starts)
    call fill_i1('vertex_ends', vertex_ends)
    allocate (c2e(nproma, 3), e2c(nproma, 2), c2e2c(nproma, 3), e2c2e(nproma, 4), &
              e2v(nproma, 4), v2e(nproma, 6), v2c(nproma, 6), e2c2v(nproma, 4), c2v(nproma, 3))
    call fill_i('c2e', c2e, 3)
    call fill_i('e2c', e2c, 2)
    call fill_i('c2e2c', c2e2c, 3)
    call fill_i('e2c2e', e2c2e, 4)
    call fill_i('e2v', e2v, 4)
    call fill_i('v2e', v2e, 6)
    call fill_i('v2c', v2c, 6)
    call fill_i('e2c2v', e2c2v, 4)
    call fill_i('c2v', c2v, 3)
    allocate (c_owner(nproma), e_owner(nproma), v_owner(nproma), c_glb(nproma), e_glb(nproma), &
              v_glb(nproma))
    call check(fill_bool('c_owner_mask'//c_null_char, c_owner, nproma) == 0, 'c_owner_mask')
    call check(fill_bool('e_owner_mask'//c_null_char, e_owner, nproma) == 0, 'e_owner_mask')
    call check(fill_bool('v_owner_mask'//c_null_char, v_owner, nproma) == 0, 'v_owner_mask')
    call fill_i1('c_glb_index', c_glb)
    call fill_i1('e_glb_index', e_glb)
    call fill_i1('v_glb_index', v_glb)
    allocate (tangent_orientation(nproma), inv_primal(nproma), inv_dual(nproma), &
              inv_vert_vert(nproma), edge_areas(nproma), f_e(nproma), cell_lat(nproma), &
              cell_lon(nproma), cell_areas(nproma), edge_lat(nproma), edge_lon(nproma), &
              pn_x(nproma), pn_y(nproma), vct_a(nlev + 1))
    call fill_d1('tangent_orientation', tangent_orientation)
    call fill_d1('inverse_primal_edge_lengths', inv_primal)
    call fill_d1('inv_dual_edge_length', inv_dual)
    call fill_d1('inv_vert_vert_length', inv_vert_vert)
    call fill_d1('edge_areas', edge_areas)
    call fill_d1('f_e', f_e)
    call fill_d1('cell_center_lat', cell_lat)
    call fill_d1('cell_center_lon', cell_lon)
    call fill_d1('cell_areas', cell_areas)
    call fill_d1('edge_center_lat', edge_lat)
    call fill_d1('edge_center_lon', edge_lon)
    call fill_d1('primal_normal_x', pn_x)
    call fill_d1('primal_normal_y', pn_y)
    call fill_d1('vct_a', vct_a)
    allocate (pn_vert_x(nproma, 4), pn_vert_y(nproma, 4), dn_vert_x(nproma, 4), &
              dn_vert_y(nproma, 4), pn_cell_x(nproma, 2), pn_cell_y(nproma, 2), &
              dn_cell_x(nproma, 2), dn_cell_y(nproma, 2))
    call fill_d('primal_normal_vert_x', pn_vert_x, 4)
    call fill_d('primal_normal_vert_y', pn_vert_y, 4)
    call fill_d('dual_normal_vert_x', dn_vert_x, 4)
    call fill_d('dual_normal_vert_y', dn_vert_y, 4)
    call fill_d('primal_normal_cell_x', pn_cell_x, 2)
    call fill_d('primal_normal_cell_y', pn_cell_y, 2)
    call fill_d('dual_normal_cell_x', dn_cell_x, 2)
    call fill_d('dual_normal_cell_y', dn_cell_y, 2)
    allocate (theta_ref_mc(nproma, nlev), wgtfac_c(nproma, nlev + 1), e_bln_c_s(nproma, 3), &
              geofac_div(nproma, 3), geofac_grg_x(nproma, 4), geofac_grg_y(nproma, 4), &
              geofac_n2s(nproma, 4), nudgecoeff_e(nproma), rbf_vec_coeff_v(6, 2, nproma))
    call fill_d('theta_ref_mc', theta_ref_mc, nlev)
    call fill_d('wgtfac_c', wgtfac_c, nlev + 1)
    call fill_d('e_bln_c_s', e_bln_c_s, 3)
    call fill_d('geofac_div', geofac_div, 3)
    call fill_d('geofac_grg_x', geofac_grg_x, 4)
    call fill_d('geofac_grg_y', geofac_grg_y, 4)
    call fill_d('geofac_n2s', geofac_n2s, 4)
    call fill_d1('nudgecoeff_e', nudgecoeff_e)
    call check(fill_double('rbf_vec_coeff_v'//c_null_char, rbf_vec_coeff_v, nproma, 12) == 0, &
               'fill rbf_vec_coeff_v')
    if (nzd > 0) then
      allocate (zd_cellidx(4, nzd), zd_vertidx(4, nzd), zd_intcoef(3, nzd), zd_diffcoef(nzd))
      call check(fill_int('zd_cellidx'//c_null_char, zd_cellidx, 4, nzd) == 0, 'zd_cellidx')
      call check(fill_int('zd_vertidx'//c_null_char, zd_vertidx, 4, nzd) == 0, 'zd_vertidx')
      call check(fill_double('zd_intcoef'//c_null_char, zd_intcoef, 3, nzd) == 0, 'zd_intcoef')
      call check(fill_double('zd_diffcoef'//c_null_char, zd_diffcoef, 1, nzd) == 0, &
                 'zd_diffcoef')
    end if
  end subroutine make_inputs

  subroutine make_state(w_, vn_, exner_, theta_v_, rho_)
    real(c_double), allocatable, intent(inout) :: w_(:, :), vn_(:, :), exner_(:, :), &
                                                  theta_v_(:, :), rho_(:, :)
    allocate (w_(nproma, nlev + 1), vn_(nproma, nlev), exner_(nproma, nlev), &
              theta_v_(nproma, nlev), rho_(nproma, nlev))
    call fill_d('w', w_, nlev + 1)
    call fill_d('vn', vn_, nlev)
    call fill_d('exner', exner_, nlev)
    call fill_d('theta_v', theta_v_, nlev)
    call fill_d('rho', rho_, nlev)
  end subroutine make_state

  !> ICON4Py's grid_init with this case's arrays (c2e_ given separately to test a wrong size).
  subroutine call_grid_init(c2e_, rc)
    integer(c_int), intent(inout), target, contiguous :: c2e_(:, :)
    integer(c_int), intent(out) :: rc
    call grid_init(cell_starts, cell_ends, vertex_starts, vertex_ends, edge_starts, edge_ends, &
                   c2e_, e2c, c2e2c, e2c2e, e2v, v2e, v2c, e2c2v, c2v, c_owner, e_owner, &
                   v_owner, c_glb, e_glb, v_glb, tangent_orientation, inv_primal, inv_dual, &
                   inv_vert_vert, edge_areas, f_e, cell_lat, cell_lon, cell_areas, pn_vert_x, &
                   pn_vert_y, dn_vert_x, dn_vert_y, pn_cell_x, pn_cell_y, dn_cell_x, dn_cell_y, &
                   edge_lat, edge_lon, pn_x, pn_y, vct_a, case_real('lowest_layer_thickness'//c_null_char), &
                   case_real('model_top_height'//c_null_char), &
                   case_real('stretch_factor'//c_null_char), &
                   case_real('flat_height'//c_null_char), &
                   case_real('rayleigh_damping_height'//c_null_char), &
                   case_real('mean_cell_area'//c_null_char), 0_c_int, nv, nc, ne, nlev, &
                   flag('limited_area'), 0_c_int, rc)
  end subroutine call_grid_init

  logical(c_bool) function flag(name)
    character(len=*), intent(in) :: name
    flag = logical(case_int(name//c_null_char) /= 0, c_bool)
  end function flag

  real(c_double) function r(name)
    character(len=*), intent(in) :: name
    r = case_real(name//c_null_char)
  end function r

  integer(c_int) function i(name)
    character(len=*), intent(in) :: name
    i = case_int(name//c_null_char)
  end function i

  subroutine call_diffusion_init(rc)
    integer(c_int), intent(out) :: rc
    call diffusion_init(theta_ref_mc, wgtfac_c, e_bln_c_s, geofac_div, geofac_grg_x, &
                        geofac_grg_y, geofac_n2s, nudgecoeff_e, rbf_vec_coeff_v, zd_cellidx, &
                        zd_vertidx, zd_intcoef, zd_diffcoef, i('ndyn_substeps'), &
                        i('diffusion_type'), flag('hdiff_w'), flag('hdiff_vn'), &
                        flag('hdiff_smag_w'), flag('zdiffu_t'), i('type_t_diffu'), &
                        i('type_vn_diffu'), r('hdiff_efdt_ratio'), r('hdiff_w_efdt_ratio'), &
                        r('smagorinski_scaling_factor'), r('smagorinski_scaling_factor2'), &
                        r('smagorinski_scaling_factor3'), r('smagorinski_scaling_factor4'), &
                        r('smagorinski_scaling_height'), r('smagorinski_scaling_height2'), &
                        r('smagorinski_scaling_height3'), r('smagorinski_scaling_height4'), &
                        flag('hdiff_temp'), r('denom_diffu_v'), r('nudge_max_coeff'), &
                        i('itype_sher'), i('iforcing'), r('a_hshr'), flag('loutshs'), 0_c_int, rc)
  end subroutine call_diffusion_init

  subroutine fill_grid_args()
    grid_args%cell_starts = icondiff_array(cell_starts)
    grid_args%cell_ends = icondiff_array(cell_ends)
    grid_args%vertex_starts = icondiff_array(vertex_starts)
    grid_args%vertex_ends = icondiff_array(vertex_ends)
    grid_args%edge_starts = icondiff_array(edge_starts)
    grid_args%edge_ends = icondiff_array(edge_ends)
    grid_args%c2e = icondiff_array(c2e)
    grid_args%e2c = icondiff_array(e2c)
    grid_args%c2e2c = icondiff_array(c2e2c)
    grid_args%e2c2e = icondiff_array(e2c2e)
    grid_args%e2v = icondiff_array(e2v)
    grid_args%v2e = icondiff_array(v2e)
    grid_args%v2c = icondiff_array(v2c)
    grid_args%e2c2v = icondiff_array(e2c2v)
    grid_args%c2v = icondiff_array(c2v)
    grid_args%c_owner_mask = icondiff_array(c_owner)
    grid_args%e_owner_mask = icondiff_array(e_owner)
    grid_args%v_owner_mask = icondiff_array(v_owner)
    grid_args%c_glb_index = icondiff_array(c_glb)
    grid_args%e_glb_index = icondiff_array(e_glb)
    grid_args%v_glb_index = icondiff_array(v_glb)
    grid_args%tangent_orientation = icondiff_array(tangent_orientation)
    grid_args%inverse_primal_edge_lengths = icondiff_array(inv_primal)
    grid_args%inv_dual_edge_length = icondiff_array(inv_dual)
    grid_args%inv_vert_vert_length = icondiff_array(inv_vert_vert)
    grid_args%edge_areas = icondiff_array(edge_areas)
    grid_args%f_e = icondiff_array(f_e)
    grid_args%cell_center_lat = icondiff_array(cell_lat)
    grid_args%cell_center_lon = icondiff_array(cell_lon)
    grid_args%cell_areas = icondiff_array(cell_areas)
    grid_args%primal_normal_vert_x = icondiff_array(pn_vert_x)
    grid_args%primal_normal_vert_y = icondiff_array(pn_vert_y)
    grid_args%dual_normal_vert_x = icondiff_array(dn_vert_x)
    grid_args%dual_normal_vert_y = icondiff_array(dn_vert_y)
    grid_args%primal_normal_cell_x = icondiff_array(pn_cell_x)
    grid_args%primal_normal_cell_y = icondiff_array(pn_cell_y)
    grid_args%dual_normal_cell_x = icondiff_array(dn_cell_x)
    grid_args%dual_normal_cell_y = icondiff_array(dn_cell_y)
    grid_args%edge_center_lat = icondiff_array(edge_lat)
    grid_args%edge_center_lon = icondiff_array(edge_lon)
    grid_args%primal_normal_x = icondiff_array(pn_x)
    grid_args%primal_normal_y = icondiff_array(pn_y)
    grid_args%vct_a = icondiff_array(vct_a)
    grid_args%lowest_layer_thickness = r('lowest_layer_thickness')
    grid_args%model_top_height = r('model_top_height')
    grid_args%stretch_factor = r('stretch_factor')
    grid_args%flat_height = r('flat_height')
    grid_args%rayleigh_damping_height = r('rayleigh_damping_height')
    grid_args%mean_cell_area = r('mean_cell_area')
    grid_args%comm_id = 0
    grid_args%num_vertices = nv
    grid_args%num_cells = nc
    grid_args%num_edges = ne
    grid_args%vertical_size = nlev
    grid_args%limited_area = flag('limited_area')
  end subroutine fill_grid_args

  subroutine fill_diffusion_args()
    diffusion_args%theta_ref_mc = icondiff_array(theta_ref_mc)
    diffusion_args%wgtfac_c = icondiff_array(wgtfac_c)
    diffusion_args%e_bln_c_s = icondiff_array(e_bln_c_s)
    diffusion_args%geofac_div = icondiff_array(geofac_div)
    diffusion_args%geofac_grg_x = icondiff_array(geofac_grg_x)
    diffusion_args%geofac_grg_y = icondiff_array(geofac_grg_y)
    diffusion_args%geofac_n2s = icondiff_array(geofac_n2s)
    diffusion_args%nudgecoeff_e = icondiff_array(nudgecoeff_e)
    diffusion_args%rbf_vec_coeff_v = icondiff_array(rbf_vec_coeff_v)
    if (nzd > 0) then
      diffusion_args%zd_cellidx = icondiff_array(zd_cellidx)
      diffusion_args%zd_vertidx = icondiff_array(zd_vertidx)
      diffusion_args%zd_intcoef = icondiff_array(zd_intcoef)
      diffusion_args%zd_diffcoef = icondiff_array(zd_diffcoef)
    end if
    diffusion_args%ndyn_substeps = i('ndyn_substeps')
    diffusion_args%diffusion_type = i('diffusion_type')
    diffusion_args%hdiff_w = flag('hdiff_w')
    diffusion_args%hdiff_vn = flag('hdiff_vn')
    diffusion_args%hdiff_smag_w = flag('hdiff_smag_w')
    diffusion_args%zdiffu_t = flag('zdiffu_t')
    diffusion_args%type_t_diffu = i('type_t_diffu')
    diffusion_args%type_vn_diffu = i('type_vn_diffu')
    diffusion_args%hdiff_efdt_ratio = r('hdiff_efdt_ratio')
    diffusion_args%hdiff_w_efdt_ratio = r('hdiff_w_efdt_ratio')
    diffusion_args%smagorinski_scaling_factor = r('smagorinski_scaling_factor')
    diffusion_args%smagorinski_scaling_factor2 = r('smagorinski_scaling_factor2')
    diffusion_args%smagorinski_scaling_factor3 = r('smagorinski_scaling_factor3')
    diffusion_args%smagorinski_scaling_factor4 = r('smagorinski_scaling_factor4')
    diffusion_args%smagorinski_scaling_height = r('smagorinski_scaling_height')
    diffusion_args%smagorinski_scaling_height2 = r('smagorinski_scaling_height2')
    diffusion_args%smagorinski_scaling_height3 = r('smagorinski_scaling_height3')
    diffusion_args%smagorinski_scaling_height4 = r('smagorinski_scaling_height4')
    diffusion_args%hdiff_temp = flag('hdiff_temp')
    diffusion_args%denom_diffu_v = r('denom_diffu_v')
    diffusion_args%nudge_max_coeff = r('nudge_max_coeff')
    diffusion_args%itype_sher = i('itype_sher')
    diffusion_args%iforcing = i('iforcing')
    diffusion_args%a_hshr = r('a_hshr')
    diffusion_args%loutshs = flag('loutshs')
  end subroutine fill_diffusion_args

end program test_fortran_granule
