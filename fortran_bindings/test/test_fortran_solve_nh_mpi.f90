!> The solve_nh drop-in decomposed over MPI as ICON calls it: every rank passes its own part in
!> ICON's shapes (local points with global indices and owner masks, ICON's start/end index arrays
!> with the halo zones) and comm_id = MPI_COMM_WORLD; icondiff builds the halo exchange. After
!> `steps` x `substeps` solve_nh_run calls with ICON's swaps, every owned point of every output
!> equals the single-rank C++ granule bit for bit. An argument error on one rank comes back as
!> rc = 2 on every rank (none waits in an exchange), and the granule works afterwards.
!> Arguments: grid source, number of levels. Run under mpirun on 1..4 ranks.
program test_fortran_solve_nh_mpi
  use, intrinsic :: iso_c_binding
  use mpi
  use icon4py_bindings, only: grid_init
  use icon_case_arrays
  use icon_solve_nh_arrays
  implicit none

  integer, parameter :: steps = 2, substeps = 2
  real(c_double), parameter :: dtime = 60.0_c_double
  character(len=4096) :: source, text
  integer(c_int) :: rc
  integer :: ierr, rank, ranks, step, substep, levels, all_failures
  type(nh_state), target :: s
  real(c_double), allocatable :: vt_kept(:, :)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  call get_command_argument(1, source)
  call get_command_argument(2, text)
  read (text, *) levels
  call open_case(source, levels, solve_nh=.true., rank=rank, ranks=ranks)
  call make_solve_nh_inputs()
  call make_nh_state(s, increments=.false.)
  binding_comm_id = int(MPI_COMM_WORLD, c_int)

  call call_grid_init(c2e, rc)
  call check(rc == 1, 'grid_init')
  call call_solve_nh_init(rc)
  call check(rc == 1, 'solve_nh_init')
  ! One rank passes a vt with one level too many: every rank gets rc = 2, before any exchange.
  vt_kept = s%vt
  if (rank == ranks - 1) then
    deallocate (s%vt)
    allocate (s%vt(nproma, nlev + 1))
    s%vt = 0
  end if
  call call_solve_nh_run(s, 1, 1, substeps, dtime, rc)
  call check(rc == 2, 'an argument error on one rank gives rc = 2 on every rank')
  deallocate (s%vt)
  s%vt = vt_kept
  do step = 1, steps
    do substep = 1, substeps
      call call_solve_nh_run(s, step, substep, substeps, dtime, rc)
      call check(rc == 1, 'solve_nh_run')
      call swap_time_levels(s)
    end do
  end do
  call check(run_solve_nh_reference(steps, substeps, dtime) == 0, 'the C++ reference run')
  call same_nh_state(s, whole_grid=ranks == 1)

  call icon_case_free()
  call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (all_failures > 0) then
      print '(i0, a, i0, a)', all_failures, ' check(s) FAILED on ', ranks, ' ranks'
    else
      print '(a, i0, a)', 'PASSED on ', ranks, ' ranks'
    end if
  end if
  call MPI_Finalize(ierr)
  if (all_failures > 0) stop 1
end program test_fortran_solve_nh_mpi
