!> Fortran driver for the icondiff module: reads the real limited-area grid (path as argument),
!> checks sizes and a zone in ICON's 1-based convention, and checks that errors come back as a
!> status and a message. Exits 77 (skipped) when the grid file is absent.
program test_fortran_grid
  use icondiff
  implicit none
  type(icondiff_grid_t) :: grid, bad
  character(len=4096) :: path
  integer :: status, nc, ne, nv, first, last
  logical :: lam, exists

  call get_command_argument(1, path)
  inquire (file=trim(path), exist=exists)
  if (.not. exists) then
    print '(a)', 'SKIP: grid file not found: '//trim(path)
    stop 77
  end if

  status = icondiff_grid_read(path, grid)
  call check(status == ICONDIFF_OK, 'read: '//icondiff_last_error())
  status = icondiff_grid_sizes(grid, nc, ne, nv, lam)
  call check(status == ICONDIFF_OK, 'sizes')
  call check(nc == 4444 .and. ne == 6761 .and. nv == 2318, 'sizes 4444/6761/2318')
  call check(lam, 'limited area')
  status = icondiff_grid_zone(grid, ICONDIFF_CELL, ICONDIFF_ZONE_NUDGING, first, last)
  call check(status == ICONDIFF_OK .and. first == 1405 .and. last == 1710, 'cell nudging 1405..1710')
  status = icondiff_grid_zone(grid, ICONDIFF_CELL, 99, first, last)
  call check(status == ICONDIFF_INVALID_ARGUMENT, 'bad zone is rejected')
  call icondiff_grid_free(grid)

  status = icondiff_grid_read('/no/such/grid.nc', bad)
  call check(status == ICONDIFF_GRID_ERROR, 'missing file gives ICONDIFF_GRID_ERROR')
  call check(index(icondiff_last_error(), 'does not exist') > 0, 'message: '//icondiff_last_error())
  print '(a)', 'fortran: OK'

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) then
      print '(a)', 'FAIL: '//what
      error stop 1
    end if
  end subroutine check

end program test_fortran_grid
