#!/usr/bin/env bash
# Write bandwidth of the decomposed UGRID output on 1, 2 and 4 ranks (4 oversubscribed on a
# 2-core machine), as the markdown table docs/user/distributed.md quotes.
# usage: perf_tests/mpi/bench_ugrid_output.sh BUILD_DIR [GRID (generate:R2B5)] [NLEV (65)]
#        [STEPS (4)] [DIR (a fresh folder under /tmp)] [classic|netcdf4]
set -euo pipefail
exe=$1/bin/bench_ugrid_output
grid=${2:-generate:R2B5}
nlev=${3:-65}
steps=${4:-4}
dir=${5:-$(mktemp -d)}
format=${6:-classic}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false OMP_NUM_THREADS=1
echo "| ranks | grid | format | grid written | field data per step | one step: median (min–max) | bandwidth | file |"
echo "|--:|---|---|--:|--:|--:|--:|--:|"
for ranks in 1 2 4; do
  mpirun -np "$ranks" --oversubscribe --bind-to none "$exe" "$grid" "$nlev" "$steps" "$dir" "$format"
done
