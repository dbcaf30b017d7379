!> The solve_nh granule's arrays of the case of icon_case_arrays (open_case(..., solve_nh=.true.))
!> in ICON's shapes, and a dynamics state held as ICON holds it: the prognostic fields with two
!> time levels (nnow, nnew) and the advective tendencies with two slots (ntl1, ntl2), swapped
!> after every substep as ICON's integrate_nh does. Works with either implementation of
!> `icon4py_bindings` (icondiff's drop-in or ICON4Py's own).
module icon_solve_nh_arrays
  use, intrinsic :: iso_c_binding
  use icon4py_bindings, only: solve_nh_init, solve_nh_run
  use icon_case_arrays
  implicit none
  public
  private :: note_difference, worst_difference
  !> nh_state_max_difference's running maximum.
  real(c_double) :: worst_difference = 0

  ! solve_nh_init's static arrays
  real(c_double), allocatable, target :: c_lin_e(:, :), c_intp(:, :), e_flx_avg(:, :), &
                                         geofac_grdiv(:, :), geofac_rot(:, :), &
                                         pos_on_tplane_e_1(:, :), pos_on_tplane_e_2(:, :), &
                                         rbf_vec_coeff_e(:, :), rayleigh_w(:), &
                                         exner_exfac(:, :), exner_ref_mc(:, :), wgtfacq_c(:, :), &
                                         inv_ddqz_z_full(:, :), rho_ref_mc(:, :), &
                                         vwind_expl_wgt(:), d_exner_dz_ref_ic(:, :), &
                                         ddqz_z_half(:, :), theta_ref_ic(:, :), &
                                         d2dexdz2_fac1_mc(:, :), d2dexdz2_fac2_mc(:, :), &
                                         rho_ref_me(:, :), theta_ref_me(:, :), ddxn_z_full(:, :), &
                                         zdiff_gradp(:, :, :), ddqz_z_full_e(:, :), &
                                         ddxt_z_full(:, :), wgtfac_e(:, :), wgtfacq_e(:, :), &
                                         vwind_impl_wgt(:), hmask_dd3d(:), scalfac_dd3d(:), &
                                         coeff1_dwdz(:, :), coeff2_dwdz(:, :), &
                                         coeff_gradekin(:, :)
  integer(c_int), allocatable, target :: vertidx_gradp(:, :, :)
  logical(c_bool), allocatable, target :: mask_prog_halo_c(:)
  integer(c_int), pointer, contiguous :: pg_edgeidx(:) => null(), pg_vertidx(:) => null()
  real(c_double), pointer, contiguous :: pg_exdist(:) => null()
  integer(c_int) :: pg_count = 0

  !> One dynamics state as ICON holds it (p_nh%prog(1:2), p_nh%diag, prep_adv).
  type nh_state
    real(c_double), allocatable :: rho(:, :, :), exner(:, :, :), w(:, :, :), theta_v(:, :, :), &
                                   vn(:, :, :)
    real(c_double), allocatable :: ddt_vn_apc(:, :, :), ddt_w_adv(:, :, :)
    real(c_double), allocatable :: w_concorr_c(:, :), theta_v_ic(:, :), rho_ic(:, :), &
                                   exner_pr(:, :), exner_dyn_incr(:, :), ddt_exner_phy(:, :), &
                                   grf_tend_rho(:, :), grf_tend_thv(:, :), grf_tend_w(:, :), &
                                   mass_fl_e(:, :), ddt_vn_phy(:, :), grf_tend_vn(:, :), &
                                   vn_ie(:, :), vt(:, :), mass_flx_me(:, :), mass_flx_ic(:, :), &
                                   vol_flx_ic(:, :), vn_traj(:, :)
    real(c_double), pointer, contiguous :: vn_incr(:, :) => null(), rho_incr(:, :) => null(), &
                                           exner_incr(:, :) => null()
    real(c_double) :: max_vcfl(1) = 0.0_c_double
    integer :: nnow = 1, nnew = 2, ntl1 = 1, ntl2 = 2
  end type nh_state

contains

  !> Every static array of solve_nh_init, filled from the case.
  subroutine make_solve_nh_inputs()
    integer(c_int) :: nlev2
    nlev2 = 2 * nlev
    allocate (c_lin_e(nproma, 2), c_intp(nproma, 6), e_flx_avg(nproma, 5), &
              geofac_grdiv(nproma, 5), geofac_rot(nproma, 6), pos_on_tplane_e_1(nproma, 2), &
              pos_on_tplane_e_2(nproma, 2), rbf_vec_coeff_e(4, nproma), rayleigh_w(nlev + 1), &
              exner_exfac(nproma, nlev), exner_ref_mc(nproma, nlev), wgtfacq_c(nproma, 3), &
              inv_ddqz_z_full(nproma, nlev), rho_ref_mc(nproma, nlev), vwind_expl_wgt(nproma), &
              d_exner_dz_ref_ic(nproma, nlev + 1), ddqz_z_half(nproma, nlev + 1), &
              theta_ref_ic(nproma, nlev + 1), d2dexdz2_fac1_mc(nproma, nlev), &
              d2dexdz2_fac2_mc(nproma, nlev), rho_ref_me(nproma, nlev), &
              theta_ref_me(nproma, nlev), ddxn_z_full(nproma, nlev), &
              zdiff_gradp(nproma, 2, nlev), vertidx_gradp(nproma, 2, nlev), &
              ddqz_z_full_e(nproma, nlev), ddxt_z_full(nproma, nlev), wgtfac_e(nproma, nlev + 1), &
              wgtfacq_e(nproma, 3), vwind_impl_wgt(nproma), hmask_dd3d(nproma), &
              scalfac_dd3d(nlev), coeff1_dwdz(nproma, nlev), coeff2_dwdz(nproma, nlev), &
              coeff_gradekin(nproma, 2), mask_prog_halo_c(nproma))
    call fill_d('c_lin_e', c_lin_e, 2)
    call fill_d('c_intp', c_intp, 6)
    call fill_d('e_flx_avg', e_flx_avg, 5)
    call fill_d('geofac_grdiv', geofac_grdiv, 5)
    call fill_d('geofac_rot', geofac_rot, 6)
    call fill_d('pos_on_tplane_e_1', pos_on_tplane_e_1, 2)
    call fill_d('pos_on_tplane_e_2', pos_on_tplane_e_2, 2)
    call check(fill_double('rbf_vec_coeff_e'//c_null_char, rbf_vec_coeff_e, nproma, 4) == 0, &
               'fill rbf_vec_coeff_e')
    call check(fill_double('rayleigh_w'//c_null_char, rayleigh_w, nlev + 1, 1) == 0, &
               'fill rayleigh_w')
    call fill_d('exner_exfac', exner_exfac, nlev)
    call fill_d('exner_ref_mc', exner_ref_mc, nlev)
    call fill_d('wgtfacq_c', wgtfacq_c, 3)
    call fill_d('inv_ddqz_z_full', inv_ddqz_z_full, nlev)
    call fill_d('rho_ref_mc', rho_ref_mc, nlev)
    call fill_d1('vwind_expl_wgt', vwind_expl_wgt)
    call fill_d('d_exner_dz_ref_ic', d_exner_dz_ref_ic, nlev + 1)
    call fill_d('ddqz_z_half', ddqz_z_half, nlev + 1)
    call fill_d('theta_ref_ic', theta_ref_ic, nlev + 1)
    call fill_d('d2dexdz2_fac1_mc', d2dexdz2_fac1_mc, nlev)
    call fill_d('d2dexdz2_fac2_mc', d2dexdz2_fac2_mc, nlev)
    call fill_d('rho_ref_me', rho_ref_me, nlev)
    call fill_d('theta_ref_me', theta_ref_me, nlev)
    call fill_d('ddxn_z_full', ddxn_z_full, nlev)
    call check(fill_double('zdiff_gradp'//c_null_char, zdiff_gradp, nproma, nlev2) == 0, &
               'fill zdiff_gradp')
    call check(fill_int('vertidx_gradp'//c_null_char, vertidx_gradp, nproma, nlev2) == 0, &
               'fill vertidx_gradp')
    call fill_d('ddqz_z_full_e', ddqz_z_full_e, nlev)
    call fill_d('ddxt_z_full', ddxt_z_full, nlev)
    call fill_d('wgtfac_e', wgtfac_e, nlev + 1)
    call fill_d('wgtfacq_e', wgtfacq_e, 3)
    call fill_d1('vwind_impl_wgt', vwind_impl_wgt)
    call fill_d1('hmask_dd3d', hmask_dd3d)
    call check(fill_double('scalfac_dd3d'//c_null_char, scalfac_dd3d, nlev, 1) == 0, &
               'fill scalfac_dd3d')
    call fill_d('coeff1_dwdz', coeff1_dwdz, nlev)
    call fill_d('coeff2_dwdz', coeff2_dwdz, nlev)
    call fill_d('coeff_gradekin', coeff_gradekin, 2)
    call check(fill_bool('mask_prog_halo_c'//c_null_char, mask_prog_halo_c, nproma) == 0, &
               'fill mask_prog_halo_c')
    pg_count = case_int('pg_count'//c_null_char)
    if (pg_count > 0) then  ! ICON's list; absent (null) when no edge needs the correction
      allocate (pg_edgeidx(pg_count), pg_vertidx(pg_count), pg_exdist(pg_count))
      call check(fill_int('pg_edgeidx'//c_null_char, pg_edgeidx, pg_count, 1) == 0, 'pg_edgeidx')
      call check(fill_int('pg_vertidx'//c_null_char, pg_vertidx, pg_count, 1) == 0, 'pg_vertidx')
      call check(fill_double('pg_exdist'//c_null_char, pg_exdist, pg_count, 1) == 0, 'pg_exdist')
    end if
  end subroutine make_solve_nh_inputs

  !> The case's initial state in ICON's layout; with `increments`, IAU increments are present.
  subroutine make_nh_state(s, increments)
    type(nh_state), intent(inout) :: s
    logical, intent(in) :: increments
    allocate (s%rho(nproma, nlev, 2), s%exner(nproma, nlev, 2), s%w(nproma, nlev + 1, 2), &
              s%theta_v(nproma, nlev, 2), s%vn(nproma, nlev, 2), &
              s%ddt_vn_apc(nproma, nlev, 2), s%ddt_w_adv(nproma, nlev + 1, 2))
    call fill_d('rho_now', s%rho(:, :, s%nnow), nlev)
    call fill_d('rho_new', s%rho(:, :, s%nnew), nlev)
    call fill_d('exner_now', s%exner(:, :, s%nnow), nlev)
    call fill_d('exner_new', s%exner(:, :, s%nnew), nlev)
    call fill_d('w_now', s%w(:, :, s%nnow), nlev + 1)
    call fill_d('w_new', s%w(:, :, s%nnew), nlev + 1)
    call fill_d('theta_v_now', s%theta_v(:, :, s%nnow), nlev)
    call fill_d('theta_v_new', s%theta_v(:, :, s%nnew), nlev)
    call fill_d('vn_now', s%vn(:, :, s%nnow), nlev)
    call fill_d('vn_new', s%vn(:, :, s%nnew), nlev)
    call fill_d('ddt_vn_apc_ntl1', s%ddt_vn_apc(:, :, s%ntl1), nlev)
    call fill_d('ddt_vn_apc_ntl2', s%ddt_vn_apc(:, :, s%ntl2), nlev)
    call fill_d('ddt_w_adv_ntl1', s%ddt_w_adv(:, :, s%ntl1), nlev + 1)
    call fill_d('ddt_w_adv_ntl2', s%ddt_w_adv(:, :, s%ntl2), nlev + 1)
    call diagnostic(s%w_concorr_c, 'w_concorr_c', nlev + 1)
    call diagnostic(s%theta_v_ic, 'theta_v_ic', nlev + 1)
    call diagnostic(s%rho_ic, 'rho_ic', nlev + 1)
    call diagnostic(s%exner_pr, 'exner_pr', nlev)
    call diagnostic(s%exner_dyn_incr, 'exner_dyn_incr', nlev)
    call diagnostic(s%ddt_exner_phy, 'ddt_exner_phy', nlev)
    call diagnostic(s%grf_tend_rho, 'grf_tend_rho', nlev)
    call diagnostic(s%grf_tend_thv, 'grf_tend_thv', nlev)
    call diagnostic(s%grf_tend_w, 'grf_tend_w', nlev + 1)
    call diagnostic(s%mass_fl_e, 'mass_fl_e', nlev)
    call diagnostic(s%ddt_vn_phy, 'ddt_vn_phy', nlev)
    call diagnostic(s%grf_tend_vn, 'grf_tend_vn', nlev)
    call diagnostic(s%vn_ie, 'vn_ie', nlev + 1)
    call diagnostic(s%vt, 'vt', nlev)
    call diagnostic(s%mass_flx_me, 'mass_flx_me', nlev)
    call diagnostic(s%mass_flx_ic, 'mass_flx_ic', nlev + 1)
    call diagnostic(s%vol_flx_ic, 'vol_flx_ic', nlev + 1)
    call diagnostic(s%vn_traj, 'vn_traj', nlev)
    if (increments) then
      allocate (s%vn_incr(nproma, nlev), s%rho_incr(nproma, nlev), s%exner_incr(nproma, nlev))
      call fill_d('vn_incr', s%vn_incr, nlev)
      call fill_d('rho_incr', s%rho_incr, nlev)
      call fill_d('exner_incr', s%exner_incr, nlev)
    end if
  contains
    subroutine diagnostic(field, name, cols)
      real(c_double), allocatable, intent(inout) :: field(:, :)
      character(len=*), intent(in) :: name
      integer(c_int), intent(in) :: cols
      allocate (field(nproma, cols))
      call fill_d(name, field, cols)
    end subroutine diagnostic
  end subroutine make_nh_state

  subroutine free_nh_state(s)
    type(nh_state), intent(inout) :: s
    if (associated(s%vn_incr)) deallocate (s%vn_incr, s%rho_incr, s%exner_incr)
    s%vn_incr => null()
    s%rho_incr => null()
    s%exner_incr => null()
  end subroutine free_nh_state

  !> What ICON does after every substep: the time levels and tendency slots swap.
  subroutine swap_time_levels(s)
    type(nh_state), intent(inout) :: s
    s%nnow = 3 - s%nnow
    s%nnew = 3 - s%nnew
    s%ntl1 = 3 - s%ntl1
    s%ntl2 = 3 - s%ntl2
  end subroutine swap_time_levels

  !> Calls visit(name, field, cols) for every output of a run, under the case's name of the
  !> C++ granule's result (the one list the test's check and the benchmark's difference walk).
  subroutine for_each_nh_output(s, visit)
    type(nh_state), intent(in) :: s
    interface
      subroutine visit(name, field, cols)
        import :: c_double, c_int
        character(len=*), intent(in) :: name
        real(c_double), intent(in) :: field(:, :)
        integer(c_int), intent(in) :: cols
      end subroutine visit
    end interface
    call visit('rho_now', s%rho(:, :, s%nnow), nlev)
    call visit('rho_new', s%rho(:, :, s%nnew), nlev)
    call visit('exner_now', s%exner(:, :, s%nnow), nlev)
    call visit('exner_new', s%exner(:, :, s%nnew), nlev)
    call visit('w_now', s%w(:, :, s%nnow), nlev + 1)
    call visit('w_new', s%w(:, :, s%nnew), nlev + 1)
    call visit('theta_v_now', s%theta_v(:, :, s%nnow), nlev)
    call visit('theta_v_new', s%theta_v(:, :, s%nnew), nlev)
    call visit('vn_now', s%vn(:, :, s%nnow), nlev)
    call visit('vn_new', s%vn(:, :, s%nnew), nlev)
    call visit('ddt_vn_apc_ntl1', s%ddt_vn_apc(:, :, s%ntl1), nlev)
    call visit('ddt_vn_apc_ntl2', s%ddt_vn_apc(:, :, s%ntl2), nlev)
    call visit('ddt_w_adv_ntl1', s%ddt_w_adv(:, :, s%ntl1), nlev + 1)
    call visit('ddt_w_adv_ntl2', s%ddt_w_adv(:, :, s%ntl2), nlev + 1)
    call visit('w_concorr_c', s%w_concorr_c, nlev + 1)
    call visit('theta_v_ic', s%theta_v_ic, nlev + 1)
    call visit('rho_ic', s%rho_ic, nlev + 1)
    call visit('exner_pr', s%exner_pr, nlev)
    call visit('exner_dyn_incr', s%exner_dyn_incr, nlev)
    call visit('mass_fl_e', s%mass_fl_e, nlev)
    call visit('vn_ie', s%vn_ie, nlev + 1)
    call visit('vt', s%vt, nlev)
    call visit('mass_flx_me', s%mass_flx_me, nlev)
    call visit('mass_flx_ic', s%mass_flx_ic, nlev + 1)
    call visit('vol_flx_ic', s%vol_flx_ic, nlev + 1)
    call visit('vn_traj', s%vn_traj, nlev)
  end subroutine for_each_nh_output

  !> The largest relative difference of any output from the C++ granule's (NaN sticks): what a
  !> benchmark reports when the binding library is not icondiff's.
  real(c_double) function nh_state_max_difference(s) result(worst)
    type(nh_state), intent(in) :: s
    worst_difference = 0
    call for_each_nh_output(s, note_difference)
    worst = worst_difference
  end function nh_state_max_difference

  ! A module procedure, not an internal one: passing an internal procedure that reaches its
  ! host's variables needs a trampoline on an executable stack.
  subroutine note_difference(name, field, cols)
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: field(:, :)
    integer(c_int), intent(in) :: cols
    real(c_double) :: d
    d = max_difference(name//c_null_char, field, int(size(field, 1), c_int), cols)
    if (.not. (d <= worst_difference)) worst_difference = d
  end subroutine note_difference

  !> Every output of a run against the C++ granule, bit for bit, padding rows included.
  subroutine same_nh_state(s, whole_grid)
    type(nh_state), intent(in) :: s
    !> .false. on a rank's part: its max_vcfl is the maximum over its own points only.
    logical, intent(in), optional :: whole_grid
    call for_each_nh_output(s, same)
    if (present(whole_grid)) then
      if (.not. whole_grid) return
    end if
    call check(s%max_vcfl(1) == case_real('max_vcfl'//c_null_char), &
               'max_vcfl equals the C++ granule''s')
  end subroutine same_nh_state

  !> ICON4Py's solve_nh_init with the case's arrays and configuration.
  subroutine call_solve_nh_init(rc)
    integer(c_int), intent(out) :: rc
    call solve_nh_init(c_lin_e, c_intp, e_flx_avg, geofac_grdiv, geofac_rot, pos_on_tplane_e_1, &
                       pos_on_tplane_e_2, rbf_vec_coeff_e, e_bln_c_s, rbf_vec_coeff_v, &
                       geofac_div, geofac_n2s, geofac_grg_x, geofac_grg_y, nudgecoeff_e, &
                       mask_prog_halo_c, rayleigh_w, exner_exfac, exner_ref_mc, wgtfac_c, &
                       wgtfacq_c, inv_ddqz_z_full, rho_ref_mc, theta_ref_mc, vwind_expl_wgt, &
                       d_exner_dz_ref_ic, ddqz_z_half, theta_ref_ic, d2dexdz2_fac1_mc, &
                       d2dexdz2_fac2_mc, rho_ref_me, theta_ref_me, ddxn_z_full, zdiff_gradp, &
                       vertidx_gradp, pg_edgeidx, pg_vertidx, pg_exdist, ddqz_z_full_e, &
                       ddxt_z_full, wgtfac_e, wgtfacq_e, vwind_impl_wgt, hmask_dd3d, &
                       scalfac_dd3d, coeff1_dwdz, coeff2_dwdz, coeff_gradekin, c_owner, &
                       int_of('itime_scheme'), int_of('iadv_rhotheta'), int_of('igradp_method'), &
                       int_of('rayleigh_type'), int_of('divdamp_order'), int_of('divdamp_type'), &
                       flag_of('l_vert_nested'), flag_of('ldeepatmo'), flag_of('iau_init'), &
                       flag_of('extra_diffu'), real_of('rhotheta_offctr'), &
                       real_of('veladv_offctr'), real_of('solve_nh_nudge_max_coeff'), &
                       real_of('divdamp_fac'), real_of('divdamp_fac2'), real_of('divdamp_fac3'), &
                       real_of('divdamp_fac4'), real_of('divdamp_z'), real_of('divdamp_z2'), &
                       real_of('divdamp_z3'), real_of('divdamp_z4'), int_of('nflat_gradp'), &
                       binding_backend, rc)
  end subroutine call_solve_nh_init

  !> ICON4Py's solve_nh_run on state `s` for substep `substep` (1-based) of physics step `step`
  !> (1-based) of `substeps`, with the arguments of the C++ reference (solve_nh_case.hpp).
  subroutine call_solve_nh_run(s, step, substep, substeps, dtime, rc)
    type(nh_state), intent(inout), target :: s
    integer, intent(in) :: step, substep, substeps
    real(c_double), intent(in) :: dtime
    integer(c_int), intent(out) :: rc
    real(c_double) :: divdamp_fac_o2
    divdamp_fac_o2 = 0.0_c_double
    if (step == 1) divdamp_fac_o2 = 0.032_c_double
    call solve_nh_run(s%rho(:, :, s%nnow), s%rho(:, :, s%nnew), s%exner(:, :, s%nnow), &
                      s%exner(:, :, s%nnew), s%w(:, :, s%nnow), s%w(:, :, s%nnew), &
                      s%theta_v(:, :, s%nnow), s%theta_v(:, :, s%nnew), s%vn(:, :, s%nnow), &
                      s%vn(:, :, s%nnew), s%w_concorr_c, s%ddt_vn_apc(:, :, s%ntl1), &
                      s%ddt_vn_apc(:, :, s%ntl2), s%ddt_w_adv(:, :, s%ntl1), &
                      s%ddt_w_adv(:, :, s%ntl2), s%theta_v_ic, s%rho_ic, s%exner_pr, &
                      s%exner_dyn_incr, s%ddt_exner_phy, s%grf_tend_rho, s%grf_tend_thv, &
                      s%grf_tend_w, s%mass_fl_e, s%ddt_vn_phy, s%grf_tend_vn, s%vn_ie, s%vt, &
                      s%vn_incr, s%rho_incr, s%exner_incr, s%mass_flx_me, s%mass_flx_ic, &
                      s%vol_flx_ic, s%vn_traj, dtime, s%max_vcfl, .true._c_bool, &
                      logical(step == 1, c_bool), divdamp_fac_o2, int(substeps, c_int), &
                      int(substep, c_int), .false._c_bool, 0.0_c_double, rc)
  end subroutine call_solve_nh_run

end module icon_solve_nh_arrays
