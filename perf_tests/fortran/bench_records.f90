!> What the Fortran benchmarks (bench_fortran_call.F90, bench_fortran_solve_nh.F90) share: the
!> median of the timed calls and the number formatting of their JSON records.
module bench_records
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  private
  public :: median, str, real_str

contains

  real(c_double) function median(x)
    real(c_double), intent(in) :: x(:)
    real(c_double) :: sorted(size(x)), swap
    integer :: a, b
    sorted = x
    do a = 2, size(sorted)  ! insertion sort: a few thousand values at most
      swap = sorted(a)
      b = a - 1
      do while (b >= 1)
        if (sorted(b) <= swap) exit
        sorted(b + 1) = sorted(b)
        b = b - 1
      end do
      sorted(b + 1) = swap
    end do
    median = sorted((size(sorted) + 1) / 2)
  end function median

  function str(n) result(s)
    integer(c_int), intent(in) :: n
    character(len=:), allocatable :: s
    character(len=32) :: buffer
    write (buffer, '(i0)') n
    s = trim(buffer)
  end function str

  function real_str(x) result(s)
    real(c_double), intent(in) :: x
    character(len=:), allocatable :: s
    character(len=32) :: buffer
    write (buffer, '(es14.6e3)') x
    s = trim(adjustl(buffer))
  end function real_str

end module bench_records
