! The Fortran module of ICON4Py 0.2.0's bindings (`use icon4py_bindings`: grid_init,
! diffusion_init, diffusion_run with the arguments and return codes of icon4py-bindings 0.2.0),
! implemented by icondiff: ICON code written against ICON4Py's bindings compiles and links
! against libicondiff_icon4py_bindings unchanged and runs icondiff's granule.
!
! Each subroutine passes its arrays to the C function of the same name + "_wrapper"
! (icon4py_bindings.h) as a pointer plus one size per dimension, the MAYBE_DEVICE ones as device
! pointers inside `!$acc host_data` when compiled with OpenACC (on_gpu = .true.), exactly as the
! module py2fgen generates does. rc: 1 success, 2 failure (message on stderr). The arrays are
! contiguous: a non-contiguous actual argument is copied in and out by the compiler around the
! call, which is correct here (icondiff reads them during the call only) but costs a copy.
! Generated once from the argument lists of icon4py-bindings 0.2.0; keep it in step with
! include/icon4py_bindings.h.
module icon4py_bindings
  use, intrinsic :: iso_c_binding
  implicit none
  private

  public :: grid_init, diffusion_init, diffusion_run

  interface
    function grid_init_wrapper( &
        cell_starts, cell_starts_size_0, cell_ends, cell_ends_size_0, vertex_starts, &
          vertex_starts_size_0, vertex_ends, vertex_ends_size_0, edge_starts, &
          edge_starts_size_0, edge_ends, edge_ends_size_0, c2e, c2e_size_0, c2e_size_1, e2c, &
          e2c_size_0, e2c_size_1, c2e2c, c2e2c_size_0, c2e2c_size_1, e2c2e, e2c2e_size_0, &
          e2c2e_size_1, e2v, e2v_size_0, e2v_size_1, v2e, v2e_size_0, v2e_size_1, v2c, &
          v2c_size_0, v2c_size_1, e2c2v, e2c2v_size_0, e2c2v_size_1, c2v, c2v_size_0, &
          c2v_size_1, c_owner_mask, c_owner_mask_size_0, e_owner_mask, e_owner_mask_size_0, &
          v_owner_mask, v_owner_mask_size_0, c_glb_index, c_glb_index_size_0, e_glb_index, &
          e_glb_index_size_0, v_glb_index, v_glb_index_size_0, tangent_orientation, &
          tangent_orientation_size_0, inverse_primal_edge_lengths, &
          inverse_primal_edge_lengths_size_0, inv_dual_edge_length, &
          inv_dual_edge_length_size_0, inv_vert_vert_length, inv_vert_vert_length_size_0, &
          edge_areas, edge_areas_size_0, f_e, f_e_size_0, cell_center_lat, &
          cell_center_lat_size_0, cell_center_lon, cell_center_lon_size_0, cell_areas, &
          cell_areas_size_0, primal_normal_vert_x, primal_normal_vert_x_size_0, &
          primal_normal_vert_x_size_1, primal_normal_vert_y, primal_normal_vert_y_size_0, &
          primal_normal_vert_y_size_1, dual_normal_vert_x, dual_normal_vert_x_size_0, &
          dual_normal_vert_x_size_1, dual_normal_vert_y, dual_normal_vert_y_size_0, &
          dual_normal_vert_y_size_1, primal_normal_cell_x, primal_normal_cell_x_size_0, &
          primal_normal_cell_x_size_1, primal_normal_cell_y, primal_normal_cell_y_size_0, &
          primal_normal_cell_y_size_1, dual_normal_cell_x, dual_normal_cell_x_size_0, &
          dual_normal_cell_x_size_1, dual_normal_cell_y, dual_normal_cell_y_size_0, &
          dual_normal_cell_y_size_1, edge_center_lat, edge_center_lat_size_0, edge_center_lon, &
          edge_center_lon_size_0, primal_normal_x, primal_normal_x_size_0, primal_normal_y, &
          primal_normal_y_size_0, vct_a, vct_a_size_0, lowest_layer_thickness, &
          model_top_height, stretch_factor, flat_height, rayleigh_damping_height, &
          mean_cell_area, comm_id, num_vertices, num_cells, num_edges, vertical_size, &
          limited_area, backend, on_gpu) &
        bind(c, name="grid_init_wrapper") result(rc)
      import :: c_int, c_double, c_bool, c_ptr
      integer(c_int) :: rc
      type(c_ptr), value :: cell_starts
      integer(c_int), value :: cell_starts_size_0
      type(c_ptr), value :: cell_ends
      integer(c_int), value :: cell_ends_size_0
      type(c_ptr), value :: vertex_starts
      integer(c_int), value :: vertex_starts_size_0
      type(c_ptr), value :: vertex_ends
      integer(c_int), value :: vertex_ends_size_0
      type(c_ptr), value :: edge_starts
      integer(c_int), value :: edge_starts_size_0
      type(c_ptr), value :: edge_ends
      integer(c_int), value :: edge_ends_size_0
      type(c_ptr), value :: c2e
      integer(c_int), value :: c2e_size_0, c2e_size_1
      type(c_ptr), value :: e2c
      integer(c_int), value :: e2c_size_0, e2c_size_1
      type(c_ptr), value :: c2e2c
      integer(c_int), value :: c2e2c_size_0, c2e2c_size_1
      type(c_ptr), value :: e2c2e
      integer(c_int), value :: e2c2e_size_0, e2c2e_size_1
      type(c_ptr), value :: e2v
      integer(c_int), value :: e2v_size_0, e2v_size_1
      type(c_ptr), value :: v2e
      integer(c_int), value :: v2e_size_0, v2e_size_1
      type(c_ptr), value :: v2c
      integer(c_int), value :: v2c_size_0, v2c_size_1
      type(c_ptr), value :: e2c2v
      integer(c_int), value :: e2c2v_size_0, e2c2v_size_1
      type(c_ptr), value :: c2v
      integer(c_int), value :: c2v_size_0, c2v_size_1
      type(c_ptr), value :: c_owner_mask
      integer(c_int), value :: c_owner_mask_size_0
      type(c_ptr), value :: e_owner_mask
      integer(c_int), value :: e_owner_mask_size_0
      type(c_ptr), value :: v_owner_mask
      integer(c_int), value :: v_owner_mask_size_0
      type(c_ptr), value :: c_glb_index
      integer(c_int), value :: c_glb_index_size_0
      type(c_ptr), value :: e_glb_index
      integer(c_int), value :: e_glb_index_size_0
      type(c_ptr), value :: v_glb_index
      integer(c_int), value :: v_glb_index_size_0
      type(c_ptr), value :: tangent_orientation
      integer(c_int), value :: tangent_orientation_size_0
      type(c_ptr), value :: inverse_primal_edge_lengths
      integer(c_int), value :: inverse_primal_edge_lengths_size_0
      type(c_ptr), value :: inv_dual_edge_length
      integer(c_int), value :: inv_dual_edge_length_size_0
      type(c_ptr), value :: inv_vert_vert_length
      integer(c_int), value :: inv_vert_vert_length_size_0
      type(c_ptr), value :: edge_areas
      integer(c_int), value :: edge_areas_size_0
      type(c_ptr), value :: f_e
      integer(c_int), value :: f_e_size_0
      type(c_ptr), value :: cell_center_lat
      integer(c_int), value :: cell_center_lat_size_0
      type(c_ptr), value :: cell_center_lon
      integer(c_int), value :: cell_center_lon_size_0
      type(c_ptr), value :: cell_areas
      integer(c_int), value :: cell_areas_size_0
      type(c_ptr), value :: primal_normal_vert_x
      integer(c_int), value :: primal_normal_vert_x_size_0, primal_normal_vert_x_size_1
      type(c_ptr), value :: primal_normal_vert_y
      integer(c_int), value :: primal_normal_vert_y_size_0, primal_normal_vert_y_size_1
      type(c_ptr), value :: dual_normal_vert_x
      integer(c_int), value :: dual_normal_vert_x_size_0, dual_normal_vert_x_size_1
      type(c_ptr), value :: dual_normal_vert_y
      integer(c_int), value :: dual_normal_vert_y_size_0, dual_normal_vert_y_size_1
      type(c_ptr), value :: primal_normal_cell_x
      integer(c_int), value :: primal_normal_cell_x_size_0, primal_normal_cell_x_size_1
      type(c_ptr), value :: primal_normal_cell_y
      integer(c_int), value :: primal_normal_cell_y_size_0, primal_normal_cell_y_size_1
      type(c_ptr), value :: dual_normal_cell_x
      integer(c_int), value :: dual_normal_cell_x_size_0, dual_normal_cell_x_size_1
      type(c_ptr), value :: dual_normal_cell_y
      integer(c_int), value :: dual_normal_cell_y_size_0, dual_normal_cell_y_size_1
      type(c_ptr), value :: edge_center_lat
      integer(c_int), value :: edge_center_lat_size_0
      type(c_ptr), value :: edge_center_lon
      integer(c_int), value :: edge_center_lon_size_0
      type(c_ptr), value :: primal_normal_x
      integer(c_int), value :: primal_normal_x_size_0
      type(c_ptr), value :: primal_normal_y
      integer(c_int), value :: primal_normal_y_size_0
      type(c_ptr), value :: vct_a
      integer(c_int), value :: vct_a_size_0
      real(c_double), value :: lowest_layer_thickness
      real(c_double), value :: model_top_height
      real(c_double), value :: stretch_factor
      real(c_double), value :: flat_height
      real(c_double), value :: rayleigh_damping_height
      real(c_double), value :: mean_cell_area
      integer(c_int), value :: comm_id
      integer(c_int), value :: num_vertices
      integer(c_int), value :: num_cells
      integer(c_int), value :: num_edges
      integer(c_int), value :: vertical_size
      logical(c_bool), value :: limited_area
      integer(c_int), value :: backend
      logical(c_bool), value :: on_gpu
    end function grid_init_wrapper

    function diffusion_init_wrapper( &
        theta_ref_mc, theta_ref_mc_size_0, theta_ref_mc_size_1, wgtfac_c, wgtfac_c_size_0, &
          wgtfac_c_size_1, e_bln_c_s, e_bln_c_s_size_0, e_bln_c_s_size_1, geofac_div, &
          geofac_div_size_0, geofac_div_size_1, geofac_grg_x, geofac_grg_x_size_0, &
          geofac_grg_x_size_1, geofac_grg_y, geofac_grg_y_size_0, geofac_grg_y_size_1, &
          geofac_n2s, geofac_n2s_size_0, geofac_n2s_size_1, nudgecoeff_e, nudgecoeff_e_size_0, &
          rbf_vec_coeff_v, rbf_vec_coeff_v_size_0, rbf_vec_coeff_v_size_1, &
          rbf_vec_coeff_v_size_2, zd_cellidx, zd_cellidx_size_0, zd_cellidx_size_1, zd_vertidx, &
          zd_vertidx_size_0, zd_vertidx_size_1, zd_intcoef, zd_intcoef_size_0, &
          zd_intcoef_size_1, zd_diffcoef, zd_diffcoef_size_0, ndyn_substeps, diffusion_type, &
          hdiff_w, hdiff_vn, hdiff_smag_w, zdiffu_t, type_t_diffu, type_vn_diffu, &
          hdiff_efdt_ratio, hdiff_w_efdt_ratio, smagorinski_scaling_factor, &
          smagorinski_scaling_factor2, smagorinski_scaling_factor3, &
          smagorinski_scaling_factor4, smagorinski_scaling_height, smagorinski_scaling_height2, &
          smagorinski_scaling_height3, smagorinski_scaling_height4, hdiff_temp, denom_diffu_v, &
          nudge_max_coeff, itype_sher, iforcing, a_hshr, loutshs, backend, on_gpu) &
        bind(c, name="diffusion_init_wrapper") result(rc)
      import :: c_int, c_double, c_bool, c_ptr
      integer(c_int) :: rc
      type(c_ptr), value :: theta_ref_mc
      integer(c_int), value :: theta_ref_mc_size_0, theta_ref_mc_size_1
      type(c_ptr), value :: wgtfac_c
      integer(c_int), value :: wgtfac_c_size_0, wgtfac_c_size_1
      type(c_ptr), value :: e_bln_c_s
      integer(c_int), value :: e_bln_c_s_size_0, e_bln_c_s_size_1
      type(c_ptr), value :: geofac_div
      integer(c_int), value :: geofac_div_size_0, geofac_div_size_1
      type(c_ptr), value :: geofac_grg_x
      integer(c_int), value :: geofac_grg_x_size_0, geofac_grg_x_size_1
      type(c_ptr), value :: geofac_grg_y
      integer(c_int), value :: geofac_grg_y_size_0, geofac_grg_y_size_1
      type(c_ptr), value :: geofac_n2s
      integer(c_int), value :: geofac_n2s_size_0, geofac_n2s_size_1
      type(c_ptr), value :: nudgecoeff_e
      integer(c_int), value :: nudgecoeff_e_size_0
      type(c_ptr), value :: rbf_vec_coeff_v
      integer(c_int), value :: rbf_vec_coeff_v_size_0, rbf_vec_coeff_v_size_1, rbf_vec_coeff_v_size_2
      type(c_ptr), value :: zd_cellidx
      integer(c_int), value :: zd_cellidx_size_0, zd_cellidx_size_1
      type(c_ptr), value :: zd_vertidx
      integer(c_int), value :: zd_vertidx_size_0, zd_vertidx_size_1
      type(c_ptr), value :: zd_intcoef
      integer(c_int), value :: zd_intcoef_size_0, zd_intcoef_size_1
      type(c_ptr), value :: zd_diffcoef
      integer(c_int), value :: zd_diffcoef_size_0
      integer(c_int), value :: ndyn_substeps
      integer(c_int), value :: diffusion_type
      logical(c_bool), value :: hdiff_w
      logical(c_bool), value :: hdiff_vn
      logical(c_bool), value :: hdiff_smag_w
      logical(c_bool), value :: zdiffu_t
      integer(c_int), value :: type_t_diffu
      integer(c_int), value :: type_vn_diffu
      real(c_double), value :: hdiff_efdt_ratio
      real(c_double), value :: hdiff_w_efdt_ratio
      real(c_double), value :: smagorinski_scaling_factor
      real(c_double), value :: smagorinski_scaling_factor2
      real(c_double), value :: smagorinski_scaling_factor3
      real(c_double), value :: smagorinski_scaling_factor4
      real(c_double), value :: smagorinski_scaling_height
      real(c_double), value :: smagorinski_scaling_height2
      real(c_double), value :: smagorinski_scaling_height3
      real(c_double), value :: smagorinski_scaling_height4
      logical(c_bool), value :: hdiff_temp
      real(c_double), value :: denom_diffu_v
      real(c_double), value :: nudge_max_coeff
      integer(c_int), value :: itype_sher
      integer(c_int), value :: iforcing
      real(c_double), value :: a_hshr
      logical(c_bool), value :: loutshs
      integer(c_int), value :: backend
      logical(c_bool), value :: on_gpu
    end function diffusion_init_wrapper

    function diffusion_run_wrapper( &
        w, w_size_0, w_size_1, vn, vn_size_0, vn_size_1, exner, exner_size_0, exner_size_1, &
          theta_v, theta_v_size_0, theta_v_size_1, rho, rho_size_0, rho_size_1, hdef_ic, &
          hdef_ic_size_0, hdef_ic_size_1, div_ic, div_ic_size_0, div_ic_size_1, dwdx, &
          dwdx_size_0, dwdx_size_1, dwdy, dwdy_size_0, dwdy_size_1, dtime, linit, on_gpu) &
        bind(c, name="diffusion_run_wrapper") result(rc)
      import :: c_int, c_double, c_bool, c_ptr
      integer(c_int) :: rc
      type(c_ptr), value :: w
      integer(c_int), value :: w_size_0, w_size_1
      type(c_ptr), value :: vn
      integer(c_int), value :: vn_size_0, vn_size_1
      type(c_ptr), value :: exner
      integer(c_int), value :: exner_size_0, exner_size_1
      type(c_ptr), value :: theta_v
      integer(c_int), value :: theta_v_size_0, theta_v_size_1
      type(c_ptr), value :: rho
      integer(c_int), value :: rho_size_0, rho_size_1
      type(c_ptr), value :: hdef_ic
      integer(c_int), value :: hdef_ic_size_0, hdef_ic_size_1
      type(c_ptr), value :: div_ic
      integer(c_int), value :: div_ic_size_0, div_ic_size_1
      type(c_ptr), value :: dwdx
      integer(c_int), value :: dwdx_size_0, dwdx_size_1
      type(c_ptr), value :: dwdy
      integer(c_int), value :: dwdy_size_0, dwdy_size_1
      real(c_double), value :: dtime
      logical(c_bool), value :: linit
      logical(c_bool), value :: on_gpu
    end function diffusion_run_wrapper
  end interface

contains

  !> ICON4Py's grid_init: the grid, its geometry and vertical grid (copied by icondiff).
  subroutine grid_init( &
      cell_starts, cell_ends, vertex_starts, vertex_ends, edge_starts, edge_ends, c2e, e2c, &
        c2e2c, e2c2e, e2v, v2e, v2c, e2c2v, c2v, c_owner_mask, e_owner_mask, v_owner_mask, &
        c_glb_index, e_glb_index, v_glb_index, tangent_orientation, &
        inverse_primal_edge_lengths, inv_dual_edge_length, inv_vert_vert_length, edge_areas, &
        f_e, cell_center_lat, cell_center_lon, cell_areas, primal_normal_vert_x, &
        primal_normal_vert_y, dual_normal_vert_x, dual_normal_vert_y, primal_normal_cell_x, &
        primal_normal_cell_y, dual_normal_cell_x, dual_normal_cell_y, edge_center_lat, &
        edge_center_lon, primal_normal_x, primal_normal_y, vct_a, lowest_layer_thickness, &
        model_top_height, stretch_factor, flat_height, rayleigh_damping_height, mean_cell_area, &
        comm_id, num_vertices, num_cells, num_edges, vertical_size, limited_area, backend, rc)
    integer(c_int), dimension(:), contiguous, intent(inout), target :: cell_starts
    integer(c_int), dimension(:), contiguous, intent(inout), target :: cell_ends
    integer(c_int), dimension(:), contiguous, intent(inout), target :: vertex_starts
    integer(c_int), dimension(:), contiguous, intent(inout), target :: vertex_ends
    integer(c_int), dimension(:), contiguous, intent(inout), target :: edge_starts
    integer(c_int), dimension(:), contiguous, intent(inout), target :: edge_ends
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: c2e
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: e2c
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: c2e2c
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: e2c2e
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: e2v
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: v2e
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: v2c
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: e2c2v
    integer(c_int), dimension(:,:), contiguous, intent(inout), target :: c2v
    logical(c_bool), dimension(:), contiguous, intent(inout), target :: c_owner_mask
    logical(c_bool), dimension(:), contiguous, intent(inout), target :: e_owner_mask
    logical(c_bool), dimension(:), contiguous, intent(inout), target :: v_owner_mask
    integer(c_int), dimension(:), contiguous, intent(inout), target :: c_glb_index
    integer(c_int), dimension(:), contiguous, intent(inout), target :: e_glb_index
    integer(c_int), dimension(:), contiguous, intent(inout), target :: v_glb_index
    real(c_double), dimension(:), contiguous, intent(inout), target :: tangent_orientation
    real(c_double), dimension(:), contiguous, intent(inout), target :: inverse_primal_edge_lengths
    real(c_double), dimension(:), contiguous, intent(inout), target :: inv_dual_edge_length
    real(c_double), dimension(:), contiguous, intent(inout), target :: inv_vert_vert_length
    real(c_double), dimension(:), contiguous, intent(inout), target :: edge_areas
    real(c_double), dimension(:), contiguous, intent(inout), target :: f_e
    real(c_double), dimension(:), contiguous, intent(inout), target :: cell_center_lat
    real(c_double), dimension(:), contiguous, intent(inout), target :: cell_center_lon
    real(c_double), dimension(:), contiguous, intent(inout), target :: cell_areas
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: primal_normal_vert_x
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: primal_normal_vert_y
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: dual_normal_vert_x
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: dual_normal_vert_y
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: primal_normal_cell_x
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: primal_normal_cell_y
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: dual_normal_cell_x
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: dual_normal_cell_y
    real(c_double), dimension(:), contiguous, intent(inout), target :: edge_center_lat
    real(c_double), dimension(:), contiguous, intent(inout), target :: edge_center_lon
    real(c_double), dimension(:), contiguous, intent(inout), target :: primal_normal_x
    real(c_double), dimension(:), contiguous, intent(inout), target :: primal_normal_y
    real(c_double), dimension(:), contiguous, intent(inout), target :: vct_a
    real(c_double), value :: lowest_layer_thickness
    real(c_double), value :: model_top_height
    real(c_double), value :: stretch_factor
    real(c_double), value :: flat_height
    real(c_double), value :: rayleigh_damping_height
    real(c_double), value :: mean_cell_area
    integer(c_int), value :: comm_id
    integer(c_int), value :: num_vertices
    integer(c_int), value :: num_cells
    integer(c_int), value :: num_edges
    integer(c_int), value :: vertical_size
    logical(c_bool), value :: limited_area
    integer(c_int), value :: backend
    integer(c_int), intent(out) :: rc
    logical(c_bool) :: on_gpu
    !$acc host_data use_device(c2e)
    !$acc host_data use_device(e2c)
    !$acc host_data use_device(c2e2c)
    !$acc host_data use_device(e2c2e)
    !$acc host_data use_device(e2v)
    !$acc host_data use_device(v2e)
    !$acc host_data use_device(v2c)
    !$acc host_data use_device(e2c2v)
    !$acc host_data use_device(c2v)
    !$acc host_data use_device(tangent_orientation)
    !$acc host_data use_device(inverse_primal_edge_lengths)
    !$acc host_data use_device(inv_dual_edge_length)
    !$acc host_data use_device(inv_vert_vert_length)
    !$acc host_data use_device(edge_areas)
    !$acc host_data use_device(f_e)
    !$acc host_data use_device(cell_center_lat)
    !$acc host_data use_device(cell_center_lon)
    !$acc host_data use_device(cell_areas)
    !$acc host_data use_device(primal_normal_vert_x)
    !$acc host_data use_device(primal_normal_vert_y)
    !$acc host_data use_device(dual_normal_vert_x)
    !$acc host_data use_device(dual_normal_vert_y)
    !$acc host_data use_device(primal_normal_cell_x)
    !$acc host_data use_device(primal_normal_cell_y)
    !$acc host_data use_device(dual_normal_cell_x)
    !$acc host_data use_device(dual_normal_cell_y)
    !$acc host_data use_device(edge_center_lat)
    !$acc host_data use_device(edge_center_lon)
    !$acc host_data use_device(primal_normal_x)
    !$acc host_data use_device(primal_normal_y)
    !$acc host_data use_device(vct_a)
#ifdef _OPENACC
    on_gpu = .true.
#else
    on_gpu = .false.
#endif
    rc = grid_init_wrapper( &
        c_loc(cell_starts), size(cell_starts, 1, c_int), c_loc(cell_ends), &
          size(cell_ends, 1, c_int), c_loc(vertex_starts), size(vertex_starts, 1, c_int), &
          c_loc(vertex_ends), size(vertex_ends, 1, c_int), c_loc(edge_starts), &
          size(edge_starts, 1, c_int), c_loc(edge_ends), size(edge_ends, 1, c_int), c_loc(c2e), &
          size(c2e, 1, c_int), size(c2e, 2, c_int), c_loc(e2c), size(e2c, 1, c_int), &
          size(e2c, 2, c_int), c_loc(c2e2c), size(c2e2c, 1, c_int), size(c2e2c, 2, c_int), &
          c_loc(e2c2e), size(e2c2e, 1, c_int), size(e2c2e, 2, c_int), c_loc(e2v), &
          size(e2v, 1, c_int), size(e2v, 2, c_int), c_loc(v2e), size(v2e, 1, c_int), &
          size(v2e, 2, c_int), c_loc(v2c), size(v2c, 1, c_int), size(v2c, 2, c_int), &
          c_loc(e2c2v), size(e2c2v, 1, c_int), size(e2c2v, 2, c_int), c_loc(c2v), &
          size(c2v, 1, c_int), size(c2v, 2, c_int), c_loc(c_owner_mask), &
          size(c_owner_mask, 1, c_int), c_loc(e_owner_mask), size(e_owner_mask, 1, c_int), &
          c_loc(v_owner_mask), size(v_owner_mask, 1, c_int), c_loc(c_glb_index), &
          size(c_glb_index, 1, c_int), c_loc(e_glb_index), size(e_glb_index, 1, c_int), &
          c_loc(v_glb_index), size(v_glb_index, 1, c_int), c_loc(tangent_orientation), &
          size(tangent_orientation, 1, c_int), c_loc(inverse_primal_edge_lengths), &
          size(inverse_primal_edge_lengths, 1, c_int), c_loc(inv_dual_edge_length), &
          size(inv_dual_edge_length, 1, c_int), c_loc(inv_vert_vert_length), &
          size(inv_vert_vert_length, 1, c_int), c_loc(edge_areas), size(edge_areas, 1, c_int), &
          c_loc(f_e), size(f_e, 1, c_int), c_loc(cell_center_lat), &
          size(cell_center_lat, 1, c_int), c_loc(cell_center_lon), &
          size(cell_center_lon, 1, c_int), c_loc(cell_areas), size(cell_areas, 1, c_int), &
          c_loc(primal_normal_vert_x), size(primal_normal_vert_x, 1, c_int), &
          size(primal_normal_vert_x, 2, c_int), c_loc(primal_normal_vert_y), &
          size(primal_normal_vert_y, 1, c_int), size(primal_normal_vert_y, 2, c_int), &
          c_loc(dual_normal_vert_x), size(dual_normal_vert_x, 1, c_int), &
          size(dual_normal_vert_x, 2, c_int), c_loc(dual_normal_vert_y), &
          size(dual_normal_vert_y, 1, c_int), size(dual_normal_vert_y, 2, c_int), &
          c_loc(primal_normal_cell_x), size(primal_normal_cell_x, 1, c_int), &
          size(primal_normal_cell_x, 2, c_int), c_loc(primal_normal_cell_y), &
          size(primal_normal_cell_y, 1, c_int), size(primal_normal_cell_y, 2, c_int), &
          c_loc(dual_normal_cell_x), size(dual_normal_cell_x, 1, c_int), &
          size(dual_normal_cell_x, 2, c_int), c_loc(dual_normal_cell_y), &
          size(dual_normal_cell_y, 1, c_int), size(dual_normal_cell_y, 2, c_int), &
          c_loc(edge_center_lat), size(edge_center_lat, 1, c_int), c_loc(edge_center_lon), &
          size(edge_center_lon, 1, c_int), c_loc(primal_normal_x), &
          size(primal_normal_x, 1, c_int), c_loc(primal_normal_y), &
          size(primal_normal_y, 1, c_int), c_loc(vct_a), size(vct_a, 1, c_int), &
          lowest_layer_thickness, model_top_height, stretch_factor, flat_height, &
          rayleigh_damping_height, mean_cell_area, comm_id, num_vertices, num_cells, num_edges, &
          vertical_size, limited_area, backend, on_gpu)
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
  end subroutine grid_init

  !> ICON4Py's diffusion_init: configuration, metrics and coefficients (copied by icondiff).
  subroutine diffusion_init( &
      theta_ref_mc, wgtfac_c, e_bln_c_s, geofac_div, geofac_grg_x, geofac_grg_y, geofac_n2s, &
        nudgecoeff_e, rbf_vec_coeff_v, zd_cellidx, zd_vertidx, zd_intcoef, zd_diffcoef, &
        ndyn_substeps, diffusion_type, hdiff_w, hdiff_vn, hdiff_smag_w, zdiffu_t, type_t_diffu, &
        type_vn_diffu, hdiff_efdt_ratio, hdiff_w_efdt_ratio, smagorinski_scaling_factor, &
        smagorinski_scaling_factor2, smagorinski_scaling_factor3, smagorinski_scaling_factor4, &
        smagorinski_scaling_height, smagorinski_scaling_height2, smagorinski_scaling_height3, &
        smagorinski_scaling_height4, hdiff_temp, denom_diffu_v, nudge_max_coeff, itype_sher, &
        iforcing, a_hshr, loutshs, backend, rc)
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: theta_ref_mc
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: wgtfac_c
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: e_bln_c_s
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: geofac_div
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: geofac_grg_x
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: geofac_grg_y
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: geofac_n2s
    real(c_double), dimension(:), contiguous, intent(inout), target :: nudgecoeff_e
    real(c_double), dimension(:,:,:), contiguous, intent(inout), target :: rbf_vec_coeff_v
    integer(c_int), dimension(:,:), contiguous, intent(inout), pointer :: zd_cellidx
    integer(c_int), dimension(:,:), contiguous, intent(inout), pointer :: zd_vertidx
    real(c_double), dimension(:,:), contiguous, intent(inout), pointer :: zd_intcoef
    real(c_double), dimension(:), contiguous, intent(inout), pointer :: zd_diffcoef
    integer(c_int), value :: ndyn_substeps
    integer(c_int), value :: diffusion_type
    logical(c_bool), value :: hdiff_w
    logical(c_bool), value :: hdiff_vn
    logical(c_bool), value :: hdiff_smag_w
    logical(c_bool), value :: zdiffu_t
    integer(c_int), value :: type_t_diffu
    integer(c_int), value :: type_vn_diffu
    real(c_double), value :: hdiff_efdt_ratio
    real(c_double), value :: hdiff_w_efdt_ratio
    real(c_double), value :: smagorinski_scaling_factor
    real(c_double), value :: smagorinski_scaling_factor2
    real(c_double), value :: smagorinski_scaling_factor3
    real(c_double), value :: smagorinski_scaling_factor4
    real(c_double), value :: smagorinski_scaling_height
    real(c_double), value :: smagorinski_scaling_height2
    real(c_double), value :: smagorinski_scaling_height3
    real(c_double), value :: smagorinski_scaling_height4
    logical(c_bool), value :: hdiff_temp
    real(c_double), value :: denom_diffu_v
    real(c_double), value :: nudge_max_coeff
    integer(c_int), value :: itype_sher
    integer(c_int), value :: iforcing
    real(c_double), value :: a_hshr
    logical(c_bool), value :: loutshs
    integer(c_int), value :: backend
    integer(c_int), intent(out) :: rc
    logical(c_bool) :: on_gpu
    type(c_ptr) :: zd_cellidx_ptr
    integer(c_int) :: zd_cellidx_size(2)
    type(c_ptr) :: zd_vertidx_ptr
    integer(c_int) :: zd_vertidx_size(2)
    type(c_ptr) :: zd_intcoef_ptr
    integer(c_int) :: zd_intcoef_size(2)
    type(c_ptr) :: zd_diffcoef_ptr
    integer(c_int) :: zd_diffcoef_size(1)
    zd_cellidx_ptr = c_null_ptr
    zd_cellidx_size = 0
    zd_vertidx_ptr = c_null_ptr
    zd_vertidx_size = 0
    zd_intcoef_ptr = c_null_ptr
    zd_intcoef_size = 0
    zd_diffcoef_ptr = c_null_ptr
    zd_diffcoef_size = 0
    !$acc host_data use_device(theta_ref_mc)
    !$acc host_data use_device(wgtfac_c)
    !$acc host_data use_device(e_bln_c_s)
    !$acc host_data use_device(geofac_div)
    !$acc host_data use_device(geofac_grg_x)
    !$acc host_data use_device(geofac_grg_y)
    !$acc host_data use_device(geofac_n2s)
    !$acc host_data use_device(nudgecoeff_e)
    !$acc host_data use_device(rbf_vec_coeff_v)
    !$acc host_data use_device(zd_cellidx) if(associated(zd_cellidx))
    !$acc host_data use_device(zd_vertidx) if(associated(zd_vertidx))
    !$acc host_data use_device(zd_intcoef) if(associated(zd_intcoef))
    !$acc host_data use_device(zd_diffcoef) if(associated(zd_diffcoef))
#ifdef _OPENACC
    on_gpu = .true.
#else
    on_gpu = .false.
#endif
    if (associated(zd_cellidx)) then
      zd_cellidx_ptr = c_loc(zd_cellidx)
      zd_cellidx_size = shape(zd_cellidx)
    end if
    if (associated(zd_vertidx)) then
      zd_vertidx_ptr = c_loc(zd_vertidx)
      zd_vertidx_size = shape(zd_vertidx)
    end if
    if (associated(zd_intcoef)) then
      zd_intcoef_ptr = c_loc(zd_intcoef)
      zd_intcoef_size = shape(zd_intcoef)
    end if
    if (associated(zd_diffcoef)) then
      zd_diffcoef_ptr = c_loc(zd_diffcoef)
      zd_diffcoef_size = shape(zd_diffcoef)
    end if
    rc = diffusion_init_wrapper( &
        c_loc(theta_ref_mc), size(theta_ref_mc, 1, c_int), size(theta_ref_mc, 2, c_int), &
          c_loc(wgtfac_c), size(wgtfac_c, 1, c_int), size(wgtfac_c, 2, c_int), &
          c_loc(e_bln_c_s), size(e_bln_c_s, 1, c_int), size(e_bln_c_s, 2, c_int), &
          c_loc(geofac_div), size(geofac_div, 1, c_int), size(geofac_div, 2, c_int), &
          c_loc(geofac_grg_x), size(geofac_grg_x, 1, c_int), size(geofac_grg_x, 2, c_int), &
          c_loc(geofac_grg_y), size(geofac_grg_y, 1, c_int), size(geofac_grg_y, 2, c_int), &
          c_loc(geofac_n2s), size(geofac_n2s, 1, c_int), size(geofac_n2s, 2, c_int), &
          c_loc(nudgecoeff_e), size(nudgecoeff_e, 1, c_int), c_loc(rbf_vec_coeff_v), &
          size(rbf_vec_coeff_v, 1, c_int), size(rbf_vec_coeff_v, 2, c_int), &
          size(rbf_vec_coeff_v, 3, c_int), zd_cellidx_ptr, zd_cellidx_size(1), &
          zd_cellidx_size(2), zd_vertidx_ptr, zd_vertidx_size(1), zd_vertidx_size(2), &
          zd_intcoef_ptr, zd_intcoef_size(1), zd_intcoef_size(2), zd_diffcoef_ptr, &
          zd_diffcoef_size(1), ndyn_substeps, diffusion_type, hdiff_w, hdiff_vn, hdiff_smag_w, &
          zdiffu_t, type_t_diffu, type_vn_diffu, hdiff_efdt_ratio, hdiff_w_efdt_ratio, &
          smagorinski_scaling_factor, smagorinski_scaling_factor2, smagorinski_scaling_factor3, &
          smagorinski_scaling_factor4, smagorinski_scaling_height, smagorinski_scaling_height2, &
          smagorinski_scaling_height3, smagorinski_scaling_height4, hdiff_temp, denom_diffu_v, &
          nudge_max_coeff, itype_sher, iforcing, a_hshr, loutshs, backend, on_gpu)
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
  end subroutine diffusion_init

  !> ICON4Py's diffusion_run: one step in place on the caller's arrays (zero copy).
  subroutine diffusion_run( &
      w, vn, exner, theta_v, rho, hdef_ic, div_ic, dwdx, dwdy, dtime, linit, rc)
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: w
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: vn
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: exner
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: theta_v
    real(c_double), dimension(:,:), contiguous, intent(inout), target :: rho
    real(c_double), dimension(:,:), contiguous, intent(inout), pointer :: hdef_ic
    real(c_double), dimension(:,:), contiguous, intent(inout), pointer :: div_ic
    real(c_double), dimension(:,:), contiguous, intent(inout), pointer :: dwdx
    real(c_double), dimension(:,:), contiguous, intent(inout), pointer :: dwdy
    real(c_double), value :: dtime
    logical(c_bool), value :: linit
    integer(c_int), intent(out) :: rc
    logical(c_bool) :: on_gpu
    type(c_ptr) :: hdef_ic_ptr
    integer(c_int) :: hdef_ic_size(2)
    type(c_ptr) :: div_ic_ptr
    integer(c_int) :: div_ic_size(2)
    type(c_ptr) :: dwdx_ptr
    integer(c_int) :: dwdx_size(2)
    type(c_ptr) :: dwdy_ptr
    integer(c_int) :: dwdy_size(2)
    hdef_ic_ptr = c_null_ptr
    hdef_ic_size = 0
    div_ic_ptr = c_null_ptr
    div_ic_size = 0
    dwdx_ptr = c_null_ptr
    dwdx_size = 0
    dwdy_ptr = c_null_ptr
    dwdy_size = 0
    !$acc host_data use_device(w)
    !$acc host_data use_device(vn)
    !$acc host_data use_device(exner)
    !$acc host_data use_device(theta_v)
    !$acc host_data use_device(rho)
    !$acc host_data use_device(hdef_ic) if(associated(hdef_ic))
    !$acc host_data use_device(div_ic) if(associated(div_ic))
    !$acc host_data use_device(dwdx) if(associated(dwdx))
    !$acc host_data use_device(dwdy) if(associated(dwdy))
#ifdef _OPENACC
    on_gpu = .true.
#else
    on_gpu = .false.
#endif
    if (associated(hdef_ic)) then
      hdef_ic_ptr = c_loc(hdef_ic)
      hdef_ic_size = shape(hdef_ic)
    end if
    if (associated(div_ic)) then
      div_ic_ptr = c_loc(div_ic)
      div_ic_size = shape(div_ic)
    end if
    if (associated(dwdx)) then
      dwdx_ptr = c_loc(dwdx)
      dwdx_size = shape(dwdx)
    end if
    if (associated(dwdy)) then
      dwdy_ptr = c_loc(dwdy)
      dwdy_size = shape(dwdy)
    end if
    rc = diffusion_run_wrapper( &
        c_loc(w), size(w, 1, c_int), size(w, 2, c_int), c_loc(vn), size(vn, 1, c_int), &
          size(vn, 2, c_int), c_loc(exner), size(exner, 1, c_int), size(exner, 2, c_int), &
          c_loc(theta_v), size(theta_v, 1, c_int), size(theta_v, 2, c_int), c_loc(rho), &
          size(rho, 1, c_int), size(rho, 2, c_int), hdef_ic_ptr, hdef_ic_size(1), &
          hdef_ic_size(2), div_ic_ptr, div_ic_size(1), div_ic_size(2), dwdx_ptr, dwdx_size(1), &
          dwdx_size(2), dwdy_ptr, dwdy_size(1), dwdy_size(2), dtime, linit, on_gpu)
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
    !$acc end host_data
  end subroutine diffusion_run

end module icon4py_bindings
