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
    integer :: status
    if (command_argument_count() < 3 .or. command_argument_count() > 5) call usage('')
    call get_command_argument(1, source)
    call get_command_argument(2, text)
    read (text, *, iostat=status) levels
    if (status /= 0 .or. levels < 1) call usage('LEVELS must be an integer >= 1, got "'//trim(text)//'"')
    call get_command_argument(3, text)
    read (text, *, iostat=status) calls
    if (status /= 0 .or. calls < 1) call usage('CALLS must be an integer >= 1, got "'//trim(text)//'"')
    call get_command_argument(4, implementation)
    if (len_trim(implementation) == 0) implementation = 'icondiff'
    call get_command_argument(5, text)
    if (len_trim(text) > 0) then
      read (text, *, iostat=status) binding_backend
      if (status /= 0) call usage('BINDING_BACKEND must be an integer, got "'//trim(text)//'"')
    end if
  end subroutine read_bench_arguments

  !> The arguments' usage and what was wrong, on standard error; exit status 2.
  subroutine usage(problem)
    use, intrinsic :: iso_fortran_env, only: error_unit
    character(len=*), intent(in) :: problem
    character(len=256) :: program
    call get_command_argument(0, program)
    if (len(problem) > 0) write (error_unit, '(a)') trim(program)//': '//problem
    write (error_unit, '(a)') 'usage: '//trim(program)// &
      ' GRID LEVELS CALLS [IMPLEMENTATION (default icondiff) [BINDING_BACKEND (0: icondiff''s)]]'
    stop 2
  end subroutine usage

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
