#!/usr/bin/env bash
# Per-call cost of the decomposed granule on 1, 2 and 4 MPI ranks (4 oversubscribed on a 2-core
# machine: labelled so), with the halo traffic per call, from `icondiff run --timers` reports.
# Prints a markdown table (docs/user/distributed.md quotes it).
# usage: perf_tests/mpi/bench_ranks.sh ICONDIFF_EXECUTABLE [GRID (generate:R2B4)] [NLEV (65)] [STEPS (20)]
set -euo pipefail
exe=$1
grid=${2:-R2B4}
nlev=${3:-65}
steps=${4:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false
cores=$(nproc)
run() {  # name ranks threads
  local name=$1 ranks=$2 threads=$3 extra=()
  ((ranks * threads > cores)) && extra=(--oversubscribe)
  if ((ranks == 1)); then
    OMP_NUM_THREADS=$threads "$exe" run --model diffusion --generate "$grid" --nlev "$nlev" --steps "$steps" --quiet \
      --timers "$work/$name.json" >/dev/null
  else
    OMP_NUM_THREADS=$threads mpirun -np "$ranks" "${extra[@]}" --bind-to none "$exe" run --model diffusion \
      --generate "$grid" --nlev "$nlev" --steps "$steps" --quiet --timers "$work/$name.json" \
      >/dev/null 2>&1
  fi
}
run r1t1 1 1
run r1t2 1 2
run r2t1 2 1
run r4t1 4 1
/usr/bin/python3 - "$work" "$cores" <<'PY'
import json, sys, os
work, cores = sys.argv[1], int(sys.argv[2])
rows = [("r1t1", "1 rank × 1 thread"), ("r1t2", "1 rank × 2 threads"),
        ("r2t1", "2 ranks × 1 thread"), ("r4t1", "4 ranks × 1 thread")]
first = json.load(open(os.path.join(work, "r1t1.json")))["_metadata"]
print(f"grid {first['grid']} × {first['nlev']} levels, {first['steps']} calls, machine with {cores} cores; "
      "call time: median over calls of the slowest rank")
print()
print("| ranks × threads | call ms (median) | min | max | STREAM GB/s (same run) | halo MB sent per call | halo messages per call | time in halo start+wait per call (ms, slowest rank) |")
print("|---|---|---|---|---|---|---|---|")
for name, label in rows:
    t = json.load(open(os.path.join(work, name + ".json")))
    m, c = t["_metadata"], t["nh_hdiff"]["latency"]
    if m.get("ranks", 1) * (1 if name != "r1t2" else 2) > cores:
        label += " (oversubscribed)"
    halo = m.get("halo_per_call", {})
    mb = sum(v["megabytes_sent"] for v in halo.values()) if halo else 0.0
    msgs = sum(v["messages"] for v in halo.values()) if halo else 0.0
    ms = sum(v["ms_slowest_rank"] for v in halo.values()) if halo else 0.0
    print(f"| {label} | {c['value']:.2f} | {c['lower_value']:.2f} | {c['upper_value']:.2f} | "
          f"{m['stream_triad_gbs']:.1f} | {mb:.2f} | {msgs:.0f} | {ms:.2f} |")
PY
