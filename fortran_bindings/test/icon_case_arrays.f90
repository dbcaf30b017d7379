!> A granule call as ICON would make it, for the Fortran tests and benchmarks: the arrays of one
!> case of unit_tests/support/icon_arrays_case.hpp in ICON's shapes (one nproma for every location,
!> padding rows holding a sentinel), and the calls of ICON4Py's binding module on them. Works with
!> either implementation of `icon4py_bindings` (icondiff's drop-in or ICON4Py's own).
module icon_case_arrays
  use, intrinsic :: iso_c_binding
  use icon4py_bindings, only: grid_init, diffusion_init, diffusion_run
  implicit none
  public

  interface
    function icon_case_create(source, nlev) bind(c, name="icon_case_create") result(rc)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: source
      integer(c_int), value :: nlev
      integer(c_int) :: rc
    end function icon_case_create
    function icon_case_create_part(source, nlev, rank, ranks) &
        bind(c, name="icon_case_create_part") result(rc)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: source
      integer(c_int), value :: nlev, rank, ranks
      integer(c_int) :: rc
    end function icon_case_create_part
    function icon_case_create_solve_nh() bind(c, name="icon_case_create_solve_nh") result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function icon_case_create_solve_nh
    function run_solve_nh_reference(steps, substeps, dtime) &
        bind(c, name="icon_case_run_solve_nh_reference") result(rc)
      import :: c_int, c_double
      integer(c_int), value :: steps, substeps
      real(c_double), value :: dtime
      integer(c_int) :: rc
    end function run_solve_nh_reference
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
    function max_difference(name, data, ld, cols) bind(c, name="icon_case_max_difference") &
        result(difference)
      import :: c_char, c_int, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), intent(in) :: data(*)
      integer(c_int), value :: ld, cols
      real(c_double) :: difference
    end function max_difference
    function compare(name, data, ld, cols) bind(c, name="icon_case_compare") result(mismatches)
      import :: c_char, c_int, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), intent(in) :: data(*)
      integer(c_int), value :: ld, cols
      integer(c_int) :: mismatches
    end function compare
  end interface

  integer(c_int) :: nc, ne, nv, nlev, nzd, nproma
  integer :: failures = 0
  !> ICON4Py's backend selector passed to grid_init and diffusion_init (0 default, 1 dace, 2 gtfn).
  integer(c_int) :: binding_backend = 0
  !> The Fortran MPI communicator passed to grid_init (comm_id; 0 on one rank without MPI).
  integer(c_int) :: binding_comm_id = 0
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

contains

  !> Builds case `source` with `levels` levels and every input array (stops on failure); with
  !> `solve_nh`, also the solve_nh granule's part (grid_init then gets the real edge geometry).
  !> With `rank` and `ranks`: rank `rank`'s part of a decomposition into `ranks` (0-based rank).
  subroutine open_case(source, levels, solve_nh, rank, ranks)
    character(len=*), intent(in) :: source
    integer, intent(in) :: levels
    logical, intent(in), optional :: solve_nh
    integer, intent(in), optional :: rank, ranks
    if (present(rank) .and. present(ranks)) then
      if (icon_case_create_part(trim(source)//c_null_char, int(levels, c_int), int(rank, c_int), &
                                int(ranks, c_int)) /= 0) stop 1
    else
      if (icon_case_create(trim(source)//c_null_char, int(levels, c_int)) /= 0) stop 1
    end if
    if (present(solve_nh)) then
      if (solve_nh .and. icon_case_create_solve_nh() /= 0) stop 1
    end if
    call icon_case_sizes(nc, ne, nv, nlev, nzd)
    nproma = max(nc, ne, nv) + 7  ! ICON: one nproma for every location, one block
    call make_inputs()
  end subroutine open_case

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a)', 'FAILED: '//what
      failures = failures + 1
    end if
  end subroutine check

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

  !> The optional diagnostics hdef_ic, div_ic, dwdx, dwdy (nproma, nlev + 1), zero, padded.
  subroutine make_diagnostics()
    allocate (hdef_ic(nproma, nlev + 1), div_ic(nproma, nlev + 1), dwdx(nproma, nlev + 1), &
              dwdy(nproma, nlev + 1))
    call fill_d('hdef_ic', hdef_ic, nlev + 1)
    call fill_d('div_ic', div_ic, nlev + 1)
    call fill_d('dwdx', dwdx, nlev + 1)
    call fill_d('dwdy', dwdy, nlev + 1)
  end subroutine make_diagnostics

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
                   case_real('mean_cell_area'//c_null_char), binding_comm_id, nv, nc, ne, nlev, &
                   flag_of('limited_area'), binding_backend, rc)
  end subroutine call_grid_init

  logical(c_bool) function flag_of(name)
    character(len=*), intent(in) :: name
    flag_of = logical(case_int(name//c_null_char) /= 0, c_bool)
  end function flag_of

  real(c_double) function real_of(name)
    character(len=*), intent(in) :: name
    real_of = case_real(name//c_null_char)
  end function real_of

  integer(c_int) function int_of(name)
    character(len=*), intent(in) :: name
    int_of = case_int(name//c_null_char)
  end function int_of

  subroutine call_diffusion_init(rc)
    integer(c_int), intent(out) :: rc
    call diffusion_init(theta_ref_mc, wgtfac_c, e_bln_c_s, geofac_div, geofac_grg_x, &
                        geofac_grg_y, geofac_n2s, nudgecoeff_e, rbf_vec_coeff_v, zd_cellidx, &
                        zd_vertidx, zd_intcoef, zd_diffcoef, int_of('ndyn_substeps'), &
                        int_of('diffusion_type'), flag_of('hdiff_w'), flag_of('hdiff_vn'), &
                        flag_of('hdiff_smag_w'), flag_of('zdiffu_t'), int_of('type_t_diffu'), &
                        int_of('type_vn_diffu'), real_of('hdiff_efdt_ratio'), real_of('hdiff_w_efdt_ratio'), &
                        real_of('smagorinski_scaling_factor'), real_of('smagorinski_scaling_factor2'), &
                        real_of('smagorinski_scaling_factor3'), real_of('smagorinski_scaling_factor4'), &
                        real_of('smagorinski_scaling_height'), real_of('smagorinski_scaling_height2'), &
                        real_of('smagorinski_scaling_height3'), real_of('smagorinski_scaling_height4'), &
                        flag_of('hdiff_temp'), real_of('denom_diffu_v'), real_of('nudge_max_coeff'), &
                        int_of('itype_sher'), int_of('iforcing'), real_of('a_hshr'), &
                        flag_of('loutshs'), binding_backend, rc)
  end subroutine call_diffusion_init

end module icon_case_arrays
