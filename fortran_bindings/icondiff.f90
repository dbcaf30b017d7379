!> icondiff from Fortran 2008 (`use icondiff`): a thin layer over the C API (icondiff_c.h).
!>
!> * Kokkos lifetime: icondiff_initialize / icondiff_finalize (idempotent, independent of MPI).
!> * Grid files: icondiff_grid_read and its sizes and zones as 1-based inclusive ranges.
!> * The diffusion and solve_nh granules on ICON's arrays with explicit handles (several
!>   granules, e.g. one per domain): fill the argument types (the same names and meanings as
!>   ICON4Py's grid_init, diffusion_init, diffusion_run, solve_nh_init, solve_nh_run) with
!>   icondiff_array(x), then icondiff_icon_grid_create, icondiff_diffusion_create /
!>   icondiff_solve_nh_create, icondiff_diffusion_run / icondiff_solve_nh_run. Build the run
!>   arguments once and reuse them every step while the arrays stay where they are.
!>
!> Every function returns an integer status (ICONDIFF_OK = 0); icondiff_last_error() explains a
!> failure. Nothing here stops the host model. Arrays given to icondiff_array must be TARGET (or
!> POINTER) and contiguous, and stay alive while the argument type is used; inside an OpenACC
!> `host_data use_device` region icondiff_array takes the device address (set on_gpu).
module icondiff
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_double, c_bool, c_ptr, c_null_ptr, &
                                         c_null_char, c_associated, c_f_pointer, c_loc, &
                                         c_intptr_t, c_sizeof
  implicit none
  private

  integer, parameter, public :: ICONDIFF_OK = 0
  integer, parameter, public :: ICONDIFF_INVALID_ARGUMENT = 1
  integer, parameter, public :: ICONDIFF_GRID_ERROR = 2
  integer, parameter, public :: ICONDIFF_CONFIG_ERROR = 3
  integer, parameter, public :: ICONDIFF_BUSY = 4
  integer, parameter, public :: ICONDIFF_INTERNAL_ERROR = 99

  integer, parameter, public :: ICONDIFF_CELL = 0, ICONDIFF_EDGE = 1, ICONDIFF_VERTEX = 2
  integer, parameter, public :: ICONDIFF_ZONE_LATERAL_BOUNDARY_1 = 0
  integer, parameter, public :: ICONDIFF_ZONE_NUDGING = 8, ICONDIFF_ZONE_NUDGING_2 = 9
  integer, parameter, public :: ICONDIFF_ZONE_INTERIOR = 10, ICONDIFF_ZONE_LOCAL = 11
  integer, parameter, public :: ICONDIFF_ZONE_HALO = 12, ICONDIFF_ZONE_HALO_2 = 13
  integer, parameter, public :: ICONDIFF_ZONE_END = 14

  !> An ICON grid read by icondiff (owns C++ memory: release it with icondiff_grid_free).
  type, public :: icondiff_grid_t
    type(c_ptr) :: handle = c_null_ptr
  end type icondiff_grid_t

  !> A grid from ICON's arrays (icondiff_icon_grid_create; release with icondiff_icon_grid_free).
  type, public :: icondiff_icon_grid_t
    type(c_ptr) :: handle = c_null_ptr
  end type icondiff_icon_grid_t

  !> A solve_nh granule (icondiff_solve_nh_create; release with icondiff_solve_nh_free).
  type, public :: icondiff_solve_nh_t
    type(c_ptr) :: handle = c_null_ptr
  end type icondiff_solve_nh_t

  !> A diffusion granule (icondiff_diffusion_create; release with icondiff_diffusion_free).
  type, public :: icondiff_diffusion_t
    type(c_ptr) :: handle = c_null_ptr
  end type icondiff_diffusion_t

  !> One array: its first element and its extents (icondiff_array in icondiff_c.h). data is null
  !> for an absent optional array; size(1) = -1 marks an array that is not contiguous.
  type, bind(c), public :: icondiff_array_t
    type(c_ptr) :: data = c_null_ptr
    integer(c_int) :: size(3) = 0
  end type icondiff_array_t

  ! The argument types of ICON4Py's functions (icondiff_icon_grid_args_t, icondiff_diffusion_args_t,
  ! icondiff_run_args_t, icondiff_solve_nh_args_t, icondiff_solve_nh_run_args_t), generated from
  ! the bindings' argument table (fortran_bindings/icon4py_bindings.table).
  include 'icondiff_argument_types.inc'
  !> icondiff_array(x): the icondiff_array_t of an integer(c_int), real(c_double) or
  !> logical(c_bool) array of rank 1 to 3.
  interface icondiff_array
    module procedure array_int1, array_int2, array_int3, array_double1, array_double2, &
                     array_double3, &
                     array_bool1
  end interface icondiff_array

  public :: icondiff_array, icondiff_last_error, icondiff_version
  public :: icondiff_initialize, icondiff_finalize, icondiff_is_initialized
  public :: icondiff_grid_read, icondiff_grid_free, icondiff_grid_sizes, icondiff_grid_zone
  public :: icondiff_icon_grid_create, icondiff_icon_grid_free
  public :: icondiff_diffusion_create, icondiff_diffusion_free, icondiff_diffusion_run
  public :: icondiff_diffusion_capture_savepoints, icondiff_diffusion_calls
  public :: icondiff_diffusion_exchange_halos
  public :: icondiff_solve_nh_create, icondiff_solve_nh_free, icondiff_solve_nh_run
  public :: icondiff_solve_nh_calls
  public :: icondiff_check_argument_types

  interface
    function c_last_error() bind(c, name="icondiff_last_error") result(message)
      import :: c_ptr
      type(c_ptr) :: message
    end function c_last_error

    subroutine c_version(major, minor, patch) bind(c, name="icondiff_version")
      import :: c_int
      integer(c_int), intent(out) :: major, minor, patch
    end subroutine c_version

    function c_initialize() bind(c, name="icondiff_initialize") result(status)
      import :: c_int
      integer(c_int) :: status
    end function c_initialize

    function c_finalize() bind(c, name="icondiff_finalize") result(status)
      import :: c_int
      integer(c_int) :: status
    end function c_finalize

    function c_is_initialized() bind(c, name="icondiff_is_initialized") result(running)
      import :: c_int
      integer(c_int) :: running
    end function c_is_initialized

    function c_grid_read(path, grid) bind(c, name="icondiff_grid_read") result(status)
      import :: c_char, c_ptr, c_int
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), intent(out) :: grid
      integer(c_int) :: status
    end function c_grid_read

    subroutine c_grid_free(grid) bind(c, name="icondiff_grid_free")
      import :: c_ptr
      type(c_ptr), value :: grid
    end subroutine c_grid_free

    function c_grid_sizes(grid, num_cells, num_edges, num_vertices, limited_area) &
        bind(c, name="icondiff_grid_sizes") result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: grid
      integer(c_int), intent(out) :: num_cells, num_edges, num_vertices, limited_area
      integer(c_int) :: status
    end function c_grid_sizes

    function c_grid_zone(grid, location, zone, start, end) bind(c, name="icondiff_grid_zone") &
        result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: grid
      integer(c_int), value :: location, zone
      integer(c_int), intent(out) :: start, end
      integer(c_int) :: status
    end function c_grid_zone

    function c_icon_grid_create(args, grid) bind(c, name="icondiff_icon_grid_create") &
        result(status)
      import :: c_ptr, c_int, icondiff_icon_grid_args_t
      type(icondiff_icon_grid_args_t), intent(in) :: args
      type(c_ptr), intent(out) :: grid
      integer(c_int) :: status
    end function c_icon_grid_create

    subroutine c_icon_grid_free(grid) bind(c, name="icondiff_icon_grid_free")
      import :: c_ptr
      type(c_ptr), value :: grid
    end subroutine c_icon_grid_free

    function c_diffusion_create(grid, args, granule) bind(c, name="icondiff_diffusion_create") &
        result(status)
      import :: c_ptr, c_int, icondiff_diffusion_args_t
      type(c_ptr), value :: grid
      type(icondiff_diffusion_args_t), intent(in) :: args
      type(c_ptr), intent(out) :: granule
      integer(c_int) :: status
    end function c_diffusion_create

    subroutine c_diffusion_free(granule) bind(c, name="icondiff_diffusion_free")
      import :: c_ptr
      type(c_ptr), value :: granule
    end subroutine c_diffusion_free

    function c_diffusion_run(granule, args) bind(c, name="icondiff_diffusion_run") result(status)
      import :: c_ptr, c_int, icondiff_run_args_t
      type(c_ptr), value :: granule
      type(icondiff_run_args_t), intent(in) :: args
      integer(c_int) :: status
    end function c_diffusion_run

    function c_exchange_halos(granule, args) bind(c, name="icondiff_diffusion_exchange_halos") &
        result(status)
      import :: c_ptr, c_int, icondiff_run_args_t
      type(c_ptr), value :: granule
      type(icondiff_run_args_t), intent(in) :: args
      integer(c_int) :: status
    end function c_exchange_halos

    function c_capture(granule, directory, call, grid_source) &
        bind(c, name="icondiff_diffusion_capture_savepoints") result(status)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: granule
      character(kind=c_char), dimension(*), intent(in) :: directory, grid_source
      integer(c_int), value :: call
      integer(c_int) :: status
    end function c_capture

    function c_solve_nh_create(grid, args, granule) bind(c, name="icondiff_solve_nh_create") &
        result(status)
      import :: c_ptr, c_int, icondiff_solve_nh_args_t
      type(c_ptr), value :: grid
      type(icondiff_solve_nh_args_t), intent(in) :: args
      type(c_ptr), intent(out) :: granule
      integer(c_int) :: status
    end function c_solve_nh_create

    subroutine c_solve_nh_free(granule) bind(c, name="icondiff_solve_nh_free")
      import :: c_ptr
      type(c_ptr), value :: granule
    end subroutine c_solve_nh_free

    function c_solve_nh_run(granule, args) bind(c, name="icondiff_solve_nh_run") result(status)
      import :: c_ptr, c_int, icondiff_solve_nh_run_args_t
      type(c_ptr), value :: granule
      type(icondiff_solve_nh_run_args_t), intent(in) :: args
      integer(c_int) :: status
    end function c_solve_nh_run

    function c_solve_nh_calls(granule, calls) bind(c, name="icondiff_solve_nh_calls") &
        result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: granule
      integer(c_int), intent(out) :: calls
      integer(c_int) :: status
    end function c_solve_nh_calls

    subroutine c_solve_nh_args_sizes(init_args, run_args) &
        bind(c, name="icondiff_solve_nh_args_sizes")
      import :: c_int
      integer(c_int), intent(out) :: init_args, run_args
    end subroutine c_solve_nh_args_sizes

    function c_calls(granule, calls) bind(c, name="icondiff_diffusion_calls") result(status)
      import :: c_ptr, c_int
      type(c_ptr), value :: granule
      integer(c_int), intent(out) :: calls
      integer(c_int) :: status
    end function c_calls

    subroutine c_args_sizes(array, grid_args, diffusion_args, run_args) &
        bind(c, name="icondiff_args_sizes")
      import :: c_int
      integer(c_int), intent(out) :: array, grid_args, diffusion_args, run_args
    end subroutine c_args_sizes

    function c_strlen(s) bind(c, name="strlen") result(n)
      import :: c_ptr, c_intptr_t
      type(c_ptr), value :: s
      integer(c_intptr_t) :: n
    end function c_strlen
  end interface

contains

  !> The message of the last failed call.
  function icondiff_last_error() result(message)
    character(len=:), allocatable :: message
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    p = c_last_error()
    n = int(c_strlen(p))
    allocate (character(len=n) :: message)
    if (n == 0) return
    call c_f_pointer(p, chars, [n])
    do i = 1, n
      message(i:i) = chars(i)
    end do
  end function icondiff_last_error

  subroutine icondiff_version(major, minor, patch)
    integer, intent(out) :: major, minor, patch
    integer(c_int) :: a, b, c
    call c_version(a, b, c)
    major = int(a)
    minor = int(b)
    patch = int(c)
  end subroutine icondiff_version

  !> Starts Kokkos unless it runs already (any create call does so on its own).
  integer function icondiff_initialize() result(status)
    status = int(c_initialize())
  end function icondiff_initialize

  !> Releases every handle's memory and finalizes Kokkos if icondiff started it. Idempotent.
  integer function icondiff_finalize() result(status)
    status = int(c_finalize())
  end function icondiff_finalize

  logical function icondiff_is_initialized()
    icondiff_is_initialized = c_is_initialized() /= 0
  end function icondiff_is_initialized

  !> ICONDIFF_OK when this module's argument types have the sizes of the C structs (a check for
  !> builds that mix compilers).
  integer function icondiff_check_argument_types() result(status)
    integer(c_int) :: array, grid_args, diffusion_args, run_args, solve_nh_args, solve_nh_run_args
    type(icondiff_array_t) :: a
    type(icondiff_icon_grid_args_t) :: g
    type(icondiff_diffusion_args_t) :: d
    type(icondiff_run_args_t) :: r
    type(icondiff_solve_nh_args_t) :: s
    type(icondiff_solve_nh_run_args_t) :: sr
    call c_args_sizes(array, grid_args, diffusion_args, run_args)
    call c_solve_nh_args_sizes(solve_nh_args, solve_nh_run_args)
    status = ICONDIFF_OK
    if (c_sizeof(a) /= array .or. c_sizeof(g) /= grid_args .or. c_sizeof(d) /= diffusion_args &
        .or. c_sizeof(r) /= run_args .or. c_sizeof(s) /= solve_nh_args &
        .or. c_sizeof(sr) /= solve_nh_run_args) status = ICONDIFF_INTERNAL_ERROR
  end function icondiff_check_argument_types

  ! ---- Grid files ------------------------------------------------------------------------------

  !> Reads an ICON grid netCDF file.
  integer function icondiff_grid_read(path, grid) result(status)
    character(len=*), intent(in) :: path
    type(icondiff_grid_t), intent(inout) :: grid
    status = int(c_grid_read(trim(path)//c_null_char, grid%handle))
  end function icondiff_grid_read

  subroutine icondiff_grid_free(grid)
    type(icondiff_grid_t), intent(inout) :: grid
    if (c_associated(grid%handle)) call c_grid_free(grid%handle)
    grid%handle = c_null_ptr
  end subroutine icondiff_grid_free

  integer function icondiff_grid_sizes(grid, num_cells, num_edges, num_vertices, limited_area) &
      result(status)
    type(icondiff_grid_t), intent(in) :: grid
    integer, intent(out) :: num_cells, num_edges, num_vertices
    logical, intent(out) :: limited_area
    integer(c_int) :: nc, ne, nv, lam
    status = int(c_grid_sizes(grid%handle, nc, ne, nv, lam))
    num_cells = int(nc)
    num_edges = int(ne)
    num_vertices = int(nv)
    limited_area = lam /= 0
  end function icondiff_grid_sizes

  !> The points of a zone as a 1-based inclusive range first..last (empty when last < first),
  !> i.e. ICON's i_startidx..i_endidx with one block.
  integer function icondiff_grid_zone(grid, location, zone, first, last) result(status)
    type(icondiff_grid_t), intent(in) :: grid
    integer, intent(in) :: location, zone
    integer, intent(out) :: first, last
    integer(c_int) :: start, end
    status = int(c_grid_zone(grid%handle, int(location, c_int), int(zone, c_int), start, end))
    first = int(start) + 1
    last = int(end)
  end function icondiff_grid_zone

  ! ---- The granule on ICON's arrays ------------------------------------------------------------

  !> ICON4Py's grid_init with a handle: the grid, geometry and vertical grid (copied).
  integer function icondiff_icon_grid_create(args, grid) result(status)
    type(icondiff_icon_grid_args_t), intent(in) :: args
    type(icondiff_icon_grid_t), intent(inout) :: grid
    status = int(c_icon_grid_create(args, grid%handle))
  end function icondiff_icon_grid_create

  subroutine icondiff_icon_grid_free(grid)
    type(icondiff_icon_grid_t), intent(inout) :: grid
    if (c_associated(grid%handle)) call c_icon_grid_free(grid%handle)
    grid%handle = c_null_ptr
  end subroutine icondiff_icon_grid_free

  !> ICON4Py's diffusion_init with handles: a granule on `grid` (coefficients and metrics copied).
  integer function icondiff_diffusion_create(grid, args, granule) result(status)
    type(icondiff_icon_grid_t), intent(in) :: grid
    type(icondiff_diffusion_args_t), intent(in) :: args
    type(icondiff_diffusion_t), intent(inout) :: granule
    status = int(c_diffusion_create(grid%handle, args, granule%handle))
  end function icondiff_diffusion_create

  subroutine icondiff_diffusion_free(granule)
    type(icondiff_diffusion_t), intent(inout) :: granule
    if (c_associated(granule%handle)) call c_diffusion_free(granule%handle)
    granule%handle = c_null_ptr
  end subroutine icondiff_diffusion_free

  !> ICON4Py's diffusion_run: one step in place on the arrays named by `args`.
  integer function icondiff_diffusion_run(granule, args) result(status)
    type(icondiff_diffusion_t), intent(in) :: granule
    type(icondiff_run_args_t), intent(in) :: args
    status = int(c_diffusion_run(granule%handle, args))
  end function icondiff_diffusion_run

  !> The halo exchange of theta_v, exner and w in the arrays of `args` that ICON's dycore does
  !> between diffusion calls (for a driver that stands in for it on a decomposed grid).
  integer function icondiff_diffusion_exchange_halos(granule, args) result(status)
    type(icondiff_diffusion_t), intent(in) :: granule
    type(icondiff_run_args_t), intent(in) :: args
    status = int(c_exchange_halos(granule%handle, args))
  end function icondiff_diffusion_exchange_halos

  !> Writes the init/exit savepoint pair of run number `call` (1-based, counted from the
  !> granule's creation) to directory/diffusion-{init,exit}.nc; call = 0: off. `grid_source`
  !> names the grid file, for `icondiff verify`.
  integer function icondiff_diffusion_capture_savepoints(granule, directory, call, grid_source) &
      result(status)
    type(icondiff_diffusion_t), intent(in) :: granule
    character(len=*), intent(in) :: directory, grid_source
    integer, intent(in) :: call
    status = int(c_capture(granule%handle, trim(directory)//c_null_char, int(call, c_int), &
                           trim(grid_source)//c_null_char))
  end function icondiff_diffusion_capture_savepoints

  !> The number of successful runs of `granule`.
  !> ICON4Py's solve_nh_init on `grid` (copies what it needs; shares the static fields a
  !> diffusion granule of the same grid holds with the same values).
  integer function icondiff_solve_nh_create(grid, args, granule) result(status)
    type(icondiff_icon_grid_t), intent(in) :: grid
    type(icondiff_solve_nh_args_t), intent(in) :: args
    type(icondiff_solve_nh_t), intent(inout) :: granule
    status = int(c_solve_nh_create(grid%handle, args, granule%handle))
  end function icondiff_solve_nh_create

  subroutine icondiff_solve_nh_free(granule)
    type(icondiff_solve_nh_t), intent(inout) :: granule
    if (c_associated(granule%handle)) call c_solve_nh_free(granule%handle)
    granule%handle = c_null_ptr
  end subroutine icondiff_solve_nh_free

  !> ICON4Py's solve_nh_run: one dynamics substep in place on the arrays named by `args`.
  integer function icondiff_solve_nh_run(granule, args) result(status)
    type(icondiff_solve_nh_t), intent(in) :: granule
    type(icondiff_solve_nh_run_args_t), intent(in) :: args
    status = int(c_solve_nh_run(granule%handle, args))
  end function icondiff_solve_nh_run

  integer function icondiff_solve_nh_calls(granule, calls) result(status)
    type(icondiff_solve_nh_t), intent(in) :: granule
    integer, intent(out) :: calls
    integer(c_int) :: n
    status = int(c_solve_nh_calls(granule%handle, n))
    calls = int(n)
  end function icondiff_solve_nh_calls

  integer function icondiff_diffusion_calls(granule, calls) result(status)
    type(icondiff_diffusion_t), intent(in) :: granule
    integer, intent(out) :: calls
    integer(c_int) :: n
    status = int(c_calls(granule%handle, n))
    calls = int(n)
  end function icondiff_diffusion_calls

  ! ---- icondiff_array ---------------------------------------------------------------------------
  ! The dummies are TARGET and assumed-shape without CONTIGUOUS, so the compiler passes the actual
  ! array itself (no temporary copy whose address would dangle); a non-contiguous one is marked.

  !> Whether elements `step` bytes apart, in column-major order with the given extents, make up
  !> the memory between `first` and `last` (the array is contiguous).
  logical function dense(first, last, count, bytes)
    type(c_ptr), intent(in) :: first, last
    integer, intent(in) :: count, bytes
    integer(c_intptr_t) :: a, b
    a = transfer(first, a)
    b = transfer(last, b)
    dense = count <= 1 .or. b - a == int(count - 1, c_intptr_t) * bytes
  end function dense

  function make_array(first, last, shape_, bytes) result(a)
    type(c_ptr), intent(in) :: first, last
    integer, intent(in) :: shape_(:), bytes
    type(icondiff_array_t) :: a
    a%size = 0
    a%size(1:size(shape_)) = int(shape_, c_int)
    if (dense(first, last, product(shape_), bytes)) then
      a%data = first
    else
      a%data = c_null_ptr
      a%size(1) = -1
    end if
  end function make_array

  function array_int1(x) result(a)
    integer(c_int), target, intent(in) :: x(:)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1)), c_loc(x(size(x))), shape(x), 4)
  end function array_int1

  function array_int2(x) result(a)
    integer(c_int), target, intent(in) :: x(:, :)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1, 1)), c_loc(x(size(x, 1), size(x, 2))), shape(x), 4)
  end function array_int2

  function array_double1(x) result(a)
    real(c_double), target, intent(in) :: x(:)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1)), c_loc(x(size(x))), shape(x), 8)
  end function array_double1

  function array_double2(x) result(a)
    real(c_double), target, intent(in) :: x(:, :)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1, 1)), c_loc(x(size(x, 1), size(x, 2))), shape(x), 8)
  end function array_double2

  function array_int3(x) result(a)
    integer(c_int), target, intent(in) :: x(:, :, :)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1, 1, 1)), c_loc(x(size(x, 1), size(x, 2), size(x, 3))), shape(x), 4)
  end function array_int3

  function array_double3(x) result(a)
    real(c_double), target, intent(in) :: x(:, :, :)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1, 1, 1)), c_loc(x(size(x, 1), size(x, 2), size(x, 3))), shape(x), 8)
  end function array_double3

  function array_bool1(x) result(a)
    logical(c_bool), target, intent(in) :: x(:)
    type(icondiff_array_t) :: a
    if (size(x) == 0) then
      a%size = 0
      return
    end if
    a = make_array(c_loc(x(1)), c_loc(x(size(x))), shape(x), 1)
  end function array_bool1

end module icondiff
