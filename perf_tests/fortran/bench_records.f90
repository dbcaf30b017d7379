!> What the Fortran benchmarks (bench_fortran_call.F90, bench_fortran_solve_nh.F90) share: their
!> first five command-line arguments, the median of the timed calls and the number formatting of
!> their JSON records.
module bench_records
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  private
  public :: read_bench_arguments, median, str, real_str

contains

  !> GRID LEVELS CALLS [IMPLEMENTATION (default icondiff) [BINDING_BACKEND (0: icondiff's)]].
  subroutine read_bench_arguments(source, levels, calls, implementation, binding_backend)
    character(len=*), intent(out) :: source, implementation
    integer, intent(out) :: levels, calls
    integer(c_int), intent(inout) :: binding_backend
    character(len=64) :: text
    call get_command_argument(1, source)
    call get_command_argument(2, text)
    read (text, *) levels
    call get_command_argument(3, text)
    read (text, *) calls
    call get_command_argument(4, implementation)
    if (len_trim(implementation) == 0) implementation = 'icondiff'
    call get_command_argument(5, text)
    if (len_trim(text) > 0) read (text, *) binding_backend
  end subroutine read_bench_arguments

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
