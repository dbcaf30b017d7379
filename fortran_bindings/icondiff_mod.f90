!> icondiff from Fortran: bind(c) interfaces to the C API (icondiff_c.h) plus thin wrappers that
!> take Fortran strings and return 1-based, inclusive index ranges as ICON's get_indices_* do.
!> Every function returns an integer status (ICONDIFF_OK = 0); icondiff_last_error() explains a
!> failure. Nothing here stops the host model.
module icondiff_mod
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_ptr, c_null_ptr, c_null_char, &
                                         c_associated, c_f_pointer
  implicit none
  private

  integer, parameter, public :: ICONDIFF_OK = 0
  integer, parameter, public :: ICONDIFF_INVALID_ARGUMENT = 1
  integer, parameter, public :: ICONDIFF_GRID_ERROR = 2
  integer, parameter, public :: ICONDIFF_CONFIG_ERROR = 3
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

  public :: icondiff_grid_read, icondiff_grid_free, icondiff_grid_sizes, icondiff_grid_zone
  public :: icondiff_last_error

  interface
    function c_last_error() bind(c, name="icondiff_last_error") result(message)
      import :: c_ptr
      type(c_ptr) :: message
    end function c_last_error

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

    function c_strlen(s) bind(c, name="strlen") result(n)
      import :: c_ptr, c_int
      type(c_ptr), value :: s
      integer(c_int) :: n
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

end module icondiff_mod
