#!/usr/bin/env bash
# The README's first command: installs the dependencies (scripts/bootstrap.sh), builds icondiff
# and runs the main job.
# Environment: ICONDIFF_BUILD_DIR (default: build), plus what bootstrap.sh reads.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval "$("$root/scripts/bootstrap.sh")"
build=${ICONDIFF_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target icondiff_cli
# The main job: ICON's dynamics (5 solve_nh substeps and the diffusion per 300 s step) for eight
# simulated hours of the Jablonowski-Williamson baroclinic wave on a generated global R2B4 grid
# (20,480 cells) with 35 levels, ending with the per-program timer table. Arguments are passed
# on, e.g. scripts/run_main.sh --steps 50 --output jw.nc, or --model diffusion for the diffusion
# granule alone.
exec "$build/bin/icondiff" run "$@"
