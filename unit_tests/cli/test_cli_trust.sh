#!/usr/bin/env bash
# Issue 30 (trust): every hole a hostile probe found in the `icondiff` command, closed. Each case
# ends in one clear line naming what is wrong and a non-zero exit code, never a crash or a hang
# (each command runs under `timeout`), and destroys nothing:
#   1. data loss: an output that is an input (grid, --config) or another output (--timers,
#      --output, each savepoint file of every rank), or a device/FIFO, is refused, even with
#      --overwrite, and the file is left as it was;
#   2. Kokkos' numeric arguments (--kokkos-threads=-3, =abc, =100000, --kokkos-numa=-1);
#   3. inputs that never end (--config /dev/zero, --partition /dev/zero, a huge file) and
#      grid-info's memory guard;
#   4. misleading or late messages (symlink loops, --nlev, --top_height, --grid generate:,
#      --dtime 1e308, a legal 248-character output name, temporaries left by SIGTERM, NaN and
#      out-of-range values, empty paths).
# usage: test_cli_trust.sh ICONDIFF_EXECUTABLE [MPIEXEC]
set -u
exe=$1
mpiexec=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
small=(--generate R2B0 --nlev 12 --steps 1 --quiet)

# expect_error CODE FRAGMENT ARGS...: exit code CODE (any non-zero for '*'), at most a short
# message on stderr containing FRAGMENT, within 60 s.
expect_error() {
  local expected_code=$1 fragment=$2
  shift 2
  local err code
  err=$(timeout 60 "$exe" "$@" 2>&1 >/dev/null)
  code=$?
  if [ "$expected_code" = '*' ]; then
    { [ "$code" -ne 0 ] && [ "$code" -lt 124 ]; } || fail "'$*' exited with $code, expected an error"
  else
    [ "$code" -eq "$expected_code" ] || fail "'$*' exited with $code, expected $expected_code: $err"
  fi
  [ "$(printf '%s\n' "$err" | wc -l)" -le 2 ] || fail "'$*' printed more than a short message: $err"
  printf '%s' "$err" | grep -q -- "$fragment" || fail "'$*' did not mention '$fragment': $err"
}
# unchanged FILE COPY: FILE still has COPY's bytes.
unchanged() { cmp -s "$1" "$2" || fail "$1 was changed or removed"; }

# ---- 1. data loss ----
"$exe" grid-info --grid generate:R2B0 --write grid.nc >/dev/null || fail "grid-info --write failed"
for kind in init exit; do
  mkdir -p "sp-$kind"
  cp grid.nc "sp-$kind/diffusion-$kind.nc"
  cp grid.nc "keep-$kind.nc"
  expect_error 2 "this is the input file" run --model diffusion --grid "sp-$kind/diffusion-$kind.nc" --nlev 12 \
    --steps 1 --quiet --savepoints "sp-$kind" --overwrite
  unchanged "sp-$kind/diffusion-$kind.nc" "keep-$kind.nc"
done
# The --config file is an input: --output, --timers, or the same keys inside it.
printf '[run]\nsteps = 1\n' >c.toml
cp c.toml c.keep
expect_error 2 "this is the input file" --config c.toml run --model diffusion "${small[@]}" --output c.toml --overwrite
expect_error 2 "this is the input file" --config c.toml run --model diffusion "${small[@]}" --timers c.toml --overwrite
unchanged c.toml c.keep
for key in output timers; do
  printf '[run]\nsteps = 1\n%s = "c-%s.toml"\n' "$key" "$key" >"c-$key.toml"
  cp "c-$key.toml" "c-$key.keep"
  expect_error 2 "this is the input file" --config "c-$key.toml" run --model diffusion --generate R2B0 --nlev 12 \
    --quiet --overwrite
  unchanged "c-$key.toml" "c-$key.keep"
done
# Outputs against each other: --timers / --output onto a savepoint the same run writes.
mkdir -p both
expect_error 2 "the same file as" run --model diffusion "${small[@]}" --timers both/diffusion-init.nc --savepoints both
expect_error 2 "the same file as" run --model diffusion "${small[@]}" --output both/diffusion-exit.nc --savepoints both
[ -z "$(ls both)" ] || fail "refused runs wrote into both/: $(ls both)"
# A FIFO (as /dev/null for root) is never replaced by a regular file, --overwrite or not.
mkfifo fifo
expect_error 2 "not a regular file" run --model diffusion "${small[@]}" --output fifo --overwrite
expect_error 2 "not a regular file" run --model diffusion "${small[@]}" --timers fifo --overwrite
mkdir -p spf
mkfifo spf/diffusion-init.nc
expect_error 2 "not a regular file" run --model diffusion "${small[@]}" --savepoints spf --overwrite
[ -p fifo ] && [ -p spf/diffusion-init.nc ] || fail "a FIFO was replaced"
# grid-info: never over the --config file either.
printf '' >g.toml
expect_error 2 "this is the input file" --config g.toml grid-info --grid generate:R2B0 \
  --write g.toml --overwrite

# ---- 2. Kokkos' numeric arguments: checked before Kokkos sees them ----
threads=--kokkos-num-threads
"$exe" --version | grep -q "(Kokkos 3\." && threads=--kokkos-threads
for arg in "$threads=-3" "$threads=abc" "$threads=100000" "$threads=" --kokkos-numa=-1 \
  --kokkos-numa=abc; do
  expect_error 105 "${arg%%=*}" run --model diffusion "${small[@]}" "$arg"
done

# ---- 3. inputs without end; grid-info's memory guard ----
expect_error 105 "not a regular file" --config /dev/zero run --model diffusion "${small[@]}"
expect_error 105 "not a regular file" run --model diffusion "${small[@]}" --config /dev/zero
expect_error 105 "not a regular file" --config fifo run --model diffusion "${small[@]}"
head -c 2000000 /dev/zero | tr '\0' '#' >big.toml
expect_error 105 "more than the 1048576 bytes" --config big.toml run --model diffusion "${small[@]}"
expect_error 2 "not a regular file" run --model diffusion "${small[@]}" --partition /dev/zero
expect_error 2 "not a regular file" grid-info --grid /dev/zero
expect_error 2 "timer report .fifo. cannot be opened: is not a regular file" compare-timers fifo fifo
expect_error 2 "timer report ./dev/zero. cannot be opened: is not a regular file" compare-timers /dev/zero /dev/zero
expect_error 2 "needs about" grid-info --grid generate:R2B12
expect_error 2 "needs about" grid-info --grid generate:R2B10/cap:8,46.5,10
expect_error 2 "needs about" grid-info --grid generate:R2B2 --max-memory 1M
expect_error 2 "needs about" grid-info --grid grid.nc --max-memory 1M

# ---- 4. messages that say what is wrong, before any work ----
ln -s loop loop
expect_error 2 "loop of symbolic links" run --model diffusion --grid loop --nlev 12 --steps 1 --quiet
expect_error 105 "loop of symbolic links" --config loop run --model diffusion "${small[@]}"
expect_error 2 "grid-info\|loop of symbolic links" grid-info --grid loop
expect_error 2 "^icondiff: error: --nlev 100000: expected at least 2 levels and at most 500" run --model diffusion --generate R2B0 --nlev 100000
expect_error 2 "^icondiff: error: --top_height 1000000000: expected" run --model diffusion "${small[@]}" --top_height 1e9
expect_error 2 "^icondiff: error: --grid generate:R2B12 needs about" run --model diffusion --grid generate:R2B12
expect_error 2 "end time" run --model diffusion --generate R2B0 --nlev 12 --steps 3 --dtime 1e308 --quiet
expect_error 2 "^icondiff: error: --mount_height nan: expected 0 .. 10000" run --model diffusion "${small[@]}" \
  --mount_height nan
expect_error 2 "^icondiff: error: --hdiff_w_efdt_ratio -15: expected 0 < ratio" run --model diffusion "${small[@]}" \
  --hdiff_w_efdt_ratio -15
expect_error 2 "^icondiff: error: --ndyn_substeps 1000000000: expected 1 .. 100" run --model diffusion "${small[@]}" \
  --ndyn_substeps 1000000000
expect_error 2 "^icondiff: error: --mount_lat 100: expected -90 .. 90" run --model diffusion "${small[@]}" --mount_lat 100
expect_error 105 "--grid: empty value" run --model diffusion "${small[@]}" --grid ""
expect_error 105 "--output: empty value" run --model diffusion "${small[@]}" --output ""
expect_error 105 "--timers: empty value" run --model diffusion "${small[@]}" --timers ""
printf '[run]\noutput = ""\n' >empty.toml
expect_error 105 "--output: empty value" --config empty.toml run --model diffusion "${small[@]}"
expect_error 105 "--grid: empty value" grid-info --grid ""
# A legal 248-character name: its temporary gets a shorter name.
long=$(printf 'o%.0s' $(seq 245)).nc
out=$(timeout 120 "$exe" run --model diffusion "${small[@]}" --output "$long" --timers "$long.json" 2>&1) ||
  fail "run --output <248 characters> failed: $out"
[ -s "$long" ] && [ -s "$long.json" ] || fail "the 248-character outputs are missing"
# SIGTERM while the output is written: the temporaries go with the process.
timeout 120 "$exe" run --model diffusion --generate R2B2 --nlev 12 --steps 100000 --quiet --output sig.nc \
  --savepoints sig-sp >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
  compgen -G "sig.nc.tmp.*" >/dev/null && break
  sleep 0.1
done
compgen -G "sig.nc.tmp.*" >/dev/null || fail "the run never started writing sig.nc"
kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" -eq 143 ] || fail "SIGTERM: exit code $code, expected 143 (killed by the signal)"
leftover=$(ls -a | grep -c '\.tmp\.')
[ "$leftover" -eq 0 ] || fail "SIGTERM left temporaries behind: $(ls -a | grep '\.tmp\.')"

# ---- under mpirun: every rank's savepoint names, a partition that never ends ----
if [ -n "$mpiexec" ]; then
  mpi() { timeout 120 "$mpiexec" --oversubscribe -np 2 "$exe" "$@"; }
  mkdir -p mpi-sp
  cp grid.nc mpi-sp/diffusion-exit.rank1.nc
  err=$(mpi run --model diffusion --grid mpi-sp/diffusion-exit.rank1.nc --nlev 12 --steps 1 --quiet \
    --savepoints mpi-sp --overwrite 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq 2 ] || fail "mpirun: a grid named as rank 1's savepoint: exit $code, expected 2: $err"
  printf '%s' "$err" | grep -q "this is the input file" || fail "mpirun: no input-file message: $err"
  unchanged mpi-sp/diffusion-exit.rank1.nc grid.nc
  err=$(mpi run --model diffusion "${small[@]}" --partition /dev/zero 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq 2 ] || fail "mpirun --partition /dev/zero: exit $code, expected 2: $err"
  printf '%s' "$err" | grep -q "not a regular file" || fail "mpirun --partition /dev/zero: $err"
  # A regular file far larger than a partition of the grid: refused by its size, not read.
  truncate -s 200M huge.part
  err=$(mpi run --model diffusion "${small[@]}" --partition huge.part 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq 2 ] || fail "mpirun --partition <200 MB>: exit $code, expected 2: $err"
  printf '%s' "$err" | grep -q "bytes, more than" || fail "mpirun --partition <200 MB>: $err"
fi

[ "$failures" -eq 0 ] || {
  echo "$failures failure(s)"
  exit 1
}
echo "all icondiff trust checks passed"
