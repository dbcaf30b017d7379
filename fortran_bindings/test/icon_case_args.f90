!> The icondiff module's argument types filled from the case of icon_case_arrays, and the check of
!> a documented refusal (expect_failure).
module icon_case_args
  use, intrinsic :: iso_c_binding
  use icondiff
  use icon_case_arrays
  implicit none
  private
  public :: fill_grid_args, fill_diffusion_args, expect_failure

contains

  !> rc = 2 and the last error mentions `needle`; the program goes on either way.
  subroutine expect_failure(rc, needle, what)
    integer(c_int), intent(in) :: rc
    character(len=*), intent(in) :: needle, what
    character(len=:), allocatable :: message
    message = icondiff_last_error()
    call check(rc == 2, what//': rc = 2 expected')
    call check(index(message, needle) > 0, what//": message '"//message//"' lacks '"//needle//"'")
  end subroutine expect_failure

  subroutine fill_grid_args(grid_args)
    type(icondiff_icon_grid_args_t), intent(out) :: grid_args
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
    grid_args%lowest_layer_thickness = real_of('lowest_layer_thickness')
    grid_args%model_top_height = real_of('model_top_height')
    grid_args%stretch_factor = real_of('stretch_factor')
    grid_args%flat_height = real_of('flat_height')
    grid_args%rayleigh_damping_height = real_of('rayleigh_damping_height')
    grid_args%mean_cell_area = real_of('mean_cell_area')
    grid_args%comm_id = 0
    grid_args%num_vertices = nv
    grid_args%num_cells = nc
    grid_args%num_edges = ne
    grid_args%vertical_size = nlev
    grid_args%limited_area = flag_of('limited_area')
  end subroutine fill_grid_args

  subroutine fill_diffusion_args(diffusion_args)
    type(icondiff_diffusion_args_t), intent(out) :: diffusion_args
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
    diffusion_args%ndyn_substeps = int_of('ndyn_substeps')
    diffusion_args%diffusion_type = int_of('diffusion_type')
    diffusion_args%hdiff_w = flag_of('hdiff_w')
    diffusion_args%hdiff_vn = flag_of('hdiff_vn')
    diffusion_args%hdiff_smag_w = flag_of('hdiff_smag_w')
    diffusion_args%zdiffu_t = flag_of('zdiffu_t')
    diffusion_args%type_t_diffu = int_of('type_t_diffu')
    diffusion_args%type_vn_diffu = int_of('type_vn_diffu')
    diffusion_args%hdiff_efdt_ratio = real_of('hdiff_efdt_ratio')
    diffusion_args%hdiff_w_efdt_ratio = real_of('hdiff_w_efdt_ratio')
    diffusion_args%smagorinski_scaling_factor = real_of('smagorinski_scaling_factor')
    diffusion_args%smagorinski_scaling_factor2 = real_of('smagorinski_scaling_factor2')
    diffusion_args%smagorinski_scaling_factor3 = real_of('smagorinski_scaling_factor3')
    diffusion_args%smagorinski_scaling_factor4 = real_of('smagorinski_scaling_factor4')
    diffusion_args%smagorinski_scaling_height = real_of('smagorinski_scaling_height')
    diffusion_args%smagorinski_scaling_height2 = real_of('smagorinski_scaling_height2')
    diffusion_args%smagorinski_scaling_height3 = real_of('smagorinski_scaling_height3')
    diffusion_args%smagorinski_scaling_height4 = real_of('smagorinski_scaling_height4')
    diffusion_args%hdiff_temp = flag_of('hdiff_temp')
    diffusion_args%denom_diffu_v = real_of('denom_diffu_v')
    diffusion_args%nudge_max_coeff = real_of('nudge_max_coeff')
    diffusion_args%itype_sher = int_of('itype_sher')
    diffusion_args%iforcing = int_of('iforcing')
    diffusion_args%a_hshr = real_of('a_hshr')
    diffusion_args%loutshs = flag_of('loutshs')
  end subroutine fill_diffusion_args

end module icon_case_args
