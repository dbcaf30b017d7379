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
# The main job: the diffusion granule on a generated global R2B4 grid (20,480 cells) with 65
# levels and a Jablonowski-Williamson state, ending with the per-kernel timer table. Arguments
# are passed on, e.g. scripts/run_main.sh --steps 50 --output jw.nc
exec "$build/bin/icondiff" run "$@"
