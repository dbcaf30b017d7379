!> The solve_nh granule from Fortran, as ICON calls it, compared bit for bit with the C++ granule.
!>
!> Arguments: grid source (an ICON grid file or generate:RnBk), number of levels. ICON-shaped
!> inputs come from the test helper (unit_tests/support/icon_solve_nh_case.cpp): every static
!> array of solve_nh_init in ICON's shapes (nproma padding rows, wgtfacq_c/e (nproma, 3),
!> vertidx_gradp with 1-based levels, rbf_vec_coeff_e (4, nproma), the pg_* point list), and a
!> Jablonowski-Williamson state held as ICON holds it: two time levels and two tendency slots,
!> swapped after every substep. Then:
!>  1. ICON4Py's drop-in module: the documented errors give rc = 2 and the program goes on;
!>     grid_init, diffusion_init (its static fields are shared), solve_nh_init and `steps` x
!>     `substeps` solve_nh_run calls without IAU increments give rc = 1, and every output,
!>     padding rows included, and max_vcfl equal the C++ granule bit for bit.
!>  2. icondiff's own module (`use icondiff`): a second granule through handles on a second copy of
!>     the state, with the increments present (IAU off: they must not change anything), argument
!>     types built once per time level; the same outputs.
!> Exit 0: passed, 1: failed, 77: the grid file is absent (skipped).
program test_fortran_solve_nh
  use, intrinsic :: iso_c_binding
  use icon4py_bindings, only: grid_init, solve_nh_run
  use icondiff
  use icon_case_arrays
  use icon_case_args
  use icon_solve_nh_arrays
  implicit none

  integer, parameter :: steps = 2, substeps = 3
  real(c_double), parameter :: dtime = 60.0_c_double
  character(len=4096) :: source, text
  integer(c_int) :: rc
  integer :: status, step, substep, calls, levels
  logical :: exists
  type(nh_state), target :: dropin, module_state
  real(c_double), allocatable, target :: short_vn(:, :)
  type(icondiff_icon_grid_args_t) :: grid_args
  type(icondiff_solve_nh_args_t) :: init_args
  type(icondiff_solve_nh_run_args_t) :: run_args
  type(icondiff_icon_grid_t) :: grid
  type(icondiff_solve_nh_t) :: granule

  call get_command_argument(1, source)
  call get_command_argument(2, text)
  read (text, *) levels
  if (index(source, 'generate:') /= 1) then
    inquire (file=trim(source), exist=exists)
    if (.not. exists) then
      print '(a)', 'SKIP: grid file not found: '//trim(source)
      stop 77
    end if
  end if
  call open_case(source, levels, solve_nh=.true.)
  call make_solve_nh_inputs()
  print '(a, i0, a, i0, a, i0, a, i0, a, i0, a, i0)', 'grid ', nc, ' cells, ', ne, ' edges, ', &
    nv, ' vertices, ', nlev, ' levels, nproma ', nproma, ', pg list ', pg_count
  call make_nh_state(dropin, increments=.false.)
  call check(run_solve_nh_reference(steps, substeps, dtime) == 0, 'the C++ reference run')

  ! ---- 1. ICON4Py's drop-in module -------------------------------------------------------------
  call call_solve_nh_run(dropin, 1, 1, substeps, dtime, rc)
  call expect_failure(rc, 'not initialised', 'solve_nh_run before solve_nh_init')
  call call_solve_nh_init(rc)
  call expect_failure(rc, 'call grid_init', 'solve_nh_init before grid_init')
  call call_grid_init(c2e, rc)
  call check(rc == 1, 'grid_init: '//icondiff_last_error())
  call call_diffusion_init(rc)
  call check(rc == 1, 'diffusion_init: '//icondiff_last_error())
  call call_solve_nh_init(rc)
  call check(rc == 1, 'solve_nh_init: '//icondiff_last_error())
  call call_solve_nh_init(rc)
  call expect_failure(rc, 'second time', 'a second solve_nh_init')
  allocate (short_vn(nproma, nlev - 1))
  short_vn = 0
  call solve_nh_run_with_vn_now(short_vn, rc)
  call expect_failure(rc, 'SIZE(vn_now, 2)', 'solve_nh_run with nlev - 1 levels of vn_now')
  deallocate (short_vn)
  call call_solve_nh_run(dropin, 1, 0, substeps, dtime, rc)
  call expect_failure(rc, 'idyn_timestep = 0', 'solve_nh_run with idyn_timestep = 0')
  do step = 1, steps
    do substep = 1, substeps
      call call_solve_nh_run(dropin, step, substep, substeps, dtime, rc)
      call check(rc == 1, 'solve_nh_run: '//icondiff_last_error())
      call swap_time_levels(dropin)
    end do
  end do
  call same_nh_state(dropin)

  ! ---- 2. icondiff's own module: handles --------------------------------------------------------
  call check(icondiff_check_argument_types() == ICONDIFF_OK, 'argument types match the C structs')
  call make_nh_state(module_state, increments=.true.)
  call fill_grid_args(grid_args)
  status = icondiff_icon_grid_create(grid_args, grid)
  call check(status == ICONDIFF_OK, 'icondiff_icon_grid_create: '//icondiff_last_error())
  call fill_solve_nh_args(init_args)
  status = icondiff_solve_nh_create(grid, init_args, granule)
  call check(status == ICONDIFF_OK, 'icondiff_solve_nh_create: '//icondiff_last_error())
  call icondiff_icon_grid_free(grid)  ! the granule keeps what it needs
  do step = 1, steps
    do substep = 1, substeps
      call fill_run_args(module_state, step, substep, run_args)
      status = icondiff_solve_nh_run(granule, run_args)
      call check(status == ICONDIFF_OK, 'icondiff_solve_nh_run: '//icondiff_last_error())
      call swap_time_levels(module_state)
    end do
  end do
  status = icondiff_solve_nh_calls(granule, calls)
  call check(status == ICONDIFF_OK .and. calls == steps * substeps, 'icondiff_solve_nh_calls')
  call same_nh_state(module_state)
  call icondiff_solve_nh_free(granule)
  call free_nh_state(module_state)

  call icon_case_free()  ! its Views must go before Kokkos does
  call check(icondiff_finalize() == ICONDIFF_OK, 'icondiff_finalize')

  if (failures > 0) then
    print '(i0, a)', failures, ' check(s) FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'

contains

  !> solve_nh_run on the drop-in's state with another vn_now.
  subroutine solve_nh_run_with_vn_now(vn_now, rc)
    real(c_double), intent(inout), target, contiguous :: vn_now(:, :)
    integer(c_int), intent(out) :: rc
    type(nh_state), pointer :: s
    s => dropin
    call solve_nh_run(s%rho(:, :, 1), s%rho(:, :, 2), s%exner(:, :, 1), s%exner(:, :, 2), &
                      s%w(:, :, 1), s%w(:, :, 2), s%theta_v(:, :, 1), s%theta_v(:, :, 2), &
                      vn_now, s%vn(:, :, 2), s%w_concorr_c, s%ddt_vn_apc(:, :, 1), &
                      s%ddt_vn_apc(:, :, 2), s%ddt_w_adv(:, :, 1), s%ddt_w_adv(:, :, 2), &
                      s%theta_v_ic, s%rho_ic, s%exner_pr, s%exner_dyn_incr, s%ddt_exner_phy, &
                      s%grf_tend_rho, s%grf_tend_thv, s%grf_tend_w, s%mass_fl_e, s%ddt_vn_phy, &
                      s%grf_tend_vn, s%vn_ie, s%vt, s%vn_incr, s%rho_incr, s%exner_incr, &
                      s%mass_flx_me, s%mass_flx_ic, s%vol_flx_ic, s%vn_traj, dtime, s%max_vcfl, &
                      .true._c_bool, .true._c_bool, 0.0_c_double, 1_c_int, 1_c_int, &
                      .false._c_bool, 0.0_c_double, rc)
  end subroutine solve_nh_run_with_vn_now

  subroutine fill_solve_nh_args(a)
    type(icondiff_solve_nh_args_t), intent(out) :: a
    a%c_lin_e = icondiff_array(c_lin_e)
    a%c_intp = icondiff_array(c_intp)
    a%e_flx_avg = icondiff_array(e_flx_avg)
    a%geofac_grdiv = icondiff_array(geofac_grdiv)
    a%geofac_rot = icondiff_array(geofac_rot)
    a%pos_on_tplane_e_1 = icondiff_array(pos_on_tplane_e_1)
    a%pos_on_tplane_e_2 = icondiff_array(pos_on_tplane_e_2)
    a%rbf_vec_coeff_e = icondiff_array(rbf_vec_coeff_e)
    a%e_bln_c_s = icondiff_array(e_bln_c_s)
    a%rbf_vec_coeff_v = icondiff_array(rbf_vec_coeff_v)
    a%geofac_div = icondiff_array(geofac_div)
    a%geofac_n2s = icondiff_array(geofac_n2s)
    a%geofac_grg_x = icondiff_array(geofac_grg_x)
    a%geofac_grg_y = icondiff_array(geofac_grg_y)
    a%nudgecoeff_e = icondiff_array(nudgecoeff_e)
    a%mask_prog_halo_c = icondiff_array(mask_prog_halo_c)
    a%rayleigh_w = icondiff_array(rayleigh_w)
    a%exner_exfac = icondiff_array(exner_exfac)
    a%exner_ref_mc = icondiff_array(exner_ref_mc)
    a%wgtfac_c = icondiff_array(wgtfac_c)
    a%wgtfacq_c = icondiff_array(wgtfacq_c)
    a%inv_ddqz_z_full = icondiff_array(inv_ddqz_z_full)
    a%rho_ref_mc = icondiff_array(rho_ref_mc)
    a%theta_ref_mc = icondiff_array(theta_ref_mc)
    a%vwind_expl_wgt = icondiff_array(vwind_expl_wgt)
    a%d_exner_dz_ref_ic = icondiff_array(d_exner_dz_ref_ic)
    a%ddqz_z_half = icondiff_array(ddqz_z_half)
    a%theta_ref_ic = icondiff_array(theta_ref_ic)
    a%d2dexdz2_fac1_mc = icondiff_array(d2dexdz2_fac1_mc)
    a%d2dexdz2_fac2_mc = icondiff_array(d2dexdz2_fac2_mc)
    a%rho_ref_me = icondiff_array(rho_ref_me)
    a%theta_ref_me = icondiff_array(theta_ref_me)
    a%ddxn_z_full = icondiff_array(ddxn_z_full)
    a%zdiff_gradp = icondiff_array(zdiff_gradp)
    a%vertidx_gradp = icondiff_array(vertidx_gradp)
    if (pg_count > 0) then
      a%pg_edgeidx = icondiff_array(pg_edgeidx)
      a%pg_vertidx = icondiff_array(pg_vertidx)
      a%pg_exdist = icondiff_array(pg_exdist)
    end if
    a%ddqz_z_full_e = icondiff_array(ddqz_z_full_e)
    a%ddxt_z_full = icondiff_array(ddxt_z_full)
    a%wgtfac_e = icondiff_array(wgtfac_e)
    a%wgtfacq_e = icondiff_array(wgtfacq_e)
    a%vwind_impl_wgt = icondiff_array(vwind_impl_wgt)
    a%hmask_dd3d = icondiff_array(hmask_dd3d)
    a%scalfac_dd3d = icondiff_array(scalfac_dd3d)
    a%coeff1_dwdz = icondiff_array(coeff1_dwdz)
    a%coeff2_dwdz = icondiff_array(coeff2_dwdz)
    a%coeff_gradekin = icondiff_array(coeff_gradekin)
    a%c_owner_mask = icondiff_array(c_owner)
    a%itime_scheme = int_of('itime_scheme')
    a%iadv_rhotheta = int_of('iadv_rhotheta')
    a%igradp_method = int_of('igradp_method')
    a%rayleigh_type = int_of('rayleigh_type')
    a%divdamp_order = int_of('divdamp_order')
    a%divdamp_type = int_of('divdamp_type')
    a%l_vert_nested = flag_of('l_vert_nested')
    a%ldeepatmo = flag_of('ldeepatmo')
    a%iau_init = flag_of('iau_init')
    a%extra_diffu = flag_of('extra_diffu')
    a%rhotheta_offctr = real_of('rhotheta_offctr')
    a%veladv_offctr = real_of('veladv_offctr')
    a%nudge_max_coeff = real_of('solve_nh_nudge_max_coeff')
    a%divdamp_fac = real_of('divdamp_fac')
    a%divdamp_fac2 = real_of('divdamp_fac2')
    a%divdamp_fac3 = real_of('divdamp_fac3')
    a%divdamp_fac4 = real_of('divdamp_fac4')
    a%divdamp_z = real_of('divdamp_z')
    a%divdamp_z2 = real_of('divdamp_z2')
    a%divdamp_z3 = real_of('divdamp_z3')
    a%divdamp_z4 = real_of('divdamp_z4')
    a%nflat_gradp = int_of('nflat_gradp')
  end subroutine fill_solve_nh_args

  !> The run arguments of a substep on `s` (its current time levels and slots).
  subroutine fill_run_args(s, step, substep, a)
    type(nh_state), intent(inout), target :: s
    integer, intent(in) :: step, substep
    type(icondiff_solve_nh_run_args_t), intent(out) :: a
    a%rho_now = icondiff_array(s%rho(:, :, s%nnow))
    a%rho_new = icondiff_array(s%rho(:, :, s%nnew))
    a%exner_now = icondiff_array(s%exner(:, :, s%nnow))
    a%exner_new = icondiff_array(s%exner(:, :, s%nnew))
    a%w_now = icondiff_array(s%w(:, :, s%nnow))
    a%w_new = icondiff_array(s%w(:, :, s%nnew))
    a%theta_v_now = icondiff_array(s%theta_v(:, :, s%nnow))
    a%theta_v_new = icondiff_array(s%theta_v(:, :, s%nnew))
    a%vn_now = icondiff_array(s%vn(:, :, s%nnow))
    a%vn_new = icondiff_array(s%vn(:, :, s%nnew))
    a%w_concorr_c = icondiff_array(s%w_concorr_c)
    a%ddt_vn_apc_ntl1 = icondiff_array(s%ddt_vn_apc(:, :, s%ntl1))
    a%ddt_vn_apc_ntl2 = icondiff_array(s%ddt_vn_apc(:, :, s%ntl2))
    a%ddt_w_adv_ntl1 = icondiff_array(s%ddt_w_adv(:, :, s%ntl1))
    a%ddt_w_adv_ntl2 = icondiff_array(s%ddt_w_adv(:, :, s%ntl2))
    a%theta_v_ic = icondiff_array(s%theta_v_ic)
    a%rho_ic = icondiff_array(s%rho_ic)
    a%exner_pr = icondiff_array(s%exner_pr)
    a%exner_dyn_incr = icondiff_array(s%exner_dyn_incr)
    a%ddt_exner_phy = icondiff_array(s%ddt_exner_phy)
    a%grf_tend_rho = icondiff_array(s%grf_tend_rho)
    a%grf_tend_thv = icondiff_array(s%grf_tend_thv)
    a%grf_tend_w = icondiff_array(s%grf_tend_w)
    a%mass_fl_e = icondiff_array(s%mass_fl_e)
    a%ddt_vn_phy = icondiff_array(s%ddt_vn_phy)
    a%grf_tend_vn = icondiff_array(s%grf_tend_vn)
    a%vn_ie = icondiff_array(s%vn_ie)
    a%vt = icondiff_array(s%vt)
    a%vn_incr = icondiff_array(s%vn_incr)
    a%rho_incr = icondiff_array(s%rho_incr)
    a%exner_incr = icondiff_array(s%exner_incr)
    a%mass_flx_me = icondiff_array(s%mass_flx_me)
    a%mass_flx_ic = icondiff_array(s%mass_flx_ic)
    a%vol_flx_ic = icondiff_array(s%vol_flx_ic)
    a%vn_traj = icondiff_array(s%vn_traj)
    a%dtime = dtime
    a%max_vcfl_size1_array = icondiff_array(s%max_vcfl)
    a%lprep_adv = .true.
    a%at_initial_timestep = step == 1
    a%divdamp_fac_o2 = 0.0_c_double
    if (step == 1) a%divdamp_fac_o2 = 0.032_c_double
    a%ndyn_substeps_var = substeps
    a%idyn_timestep = substep
    a%is_iau_active = .false.
    a%iau_wgt_dyn = 0.0_c_double
  end subroutine fill_run_args

end program test_fortran_solve_nh
