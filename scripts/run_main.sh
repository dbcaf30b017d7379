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
grid="$root/../shared/data/grids/mch_ch_coarsegrid_wind_R19B04.nc"
exec "$build/bin/icondiff" grid-info --grid "$grid"
