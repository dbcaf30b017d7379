#!/usr/bin/env bash
# Adds ICON4Py 0.2.0's binding packages (what `python -m icon4py.bindings.all_bindings` and py2fgen
# need) to the peer venv of setup_venv.sh, pinned, without dependencies (the venv has them), once:
# a marker in the venv records the list.
#
#   perf_tests/peers/icon4py/add_binding_packages.sh VENV
#
# Used by fortran_race.sh (ICON4Py's own bindings for the race) and scripts/ci_icon4py_bindings.sh
# (ICON4Py's generated Fortran module linked against icondiff).
set -euo pipefail
venv=${1:?usage: add_binding_packages.sh VENV}
extras=(icon4py-bindings==0.2.0 icon4py-tools==0.2.0 icon4py-atmosphere-dycore==0.2.0
        icon4py-atmosphere-muphys==0.2.0 cffi==2.0.0 pycparser==2.23 clang-format==23.1.5
        configargparse==1.9.0 fprettify==0.3.7)
marker="$venv/.bindings-ready"
if [[ ! -f "$marker" || "$(cat "$marker")" != "${extras[*]}" ]]; then
  echo "[icon4py-bindings] adding ICON4Py's binding packages to $venv" >&2
  "$venv/bin/python" -m pip install --quiet --no-deps "${extras[@]}"
  echo "${extras[*]}" >"$marker"
fi
