#!/usr/bin/env bash
# The one-command SCALE-Sim form a SCALE-Sim user runs, timed whole (process start, design and
# topology load, planning, timing, report): `tessel run --arch v2_google.cfg --workload
# v2_Resnet50.csv --scalesim-timing` (54 layers, 256x256 ws). Prints the median wall time of
# ROUNDS runs, the time per layer, and the speedup over SCALE-Sim v2's 9.9 s per layer on the same
# topology and config (docs/scalesim.md, measured on the development machine). Target: >= 10,000x.
# Usage: bench/scalesim_bench.sh BUILD_DIR [ROUNDS]        (run by `make bench`)
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-21}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD="$PWD/$BUILD" ;; esac
TESSEL="$BUILD/apps/tessel/tessel"
CFG="$ROOT/tests/arch/data/scalesim/v2_google.cfg"
TOPO="$ROOT/tests/models/scalesim/data/v2_Resnet50.csv"
SCALESIM_S_PER_LAYER=9.9
[ -x "$TESSEL" ] || { echo "scalesim_bench: no tessel binary at $TESSEL (build it first)" >&2; exit 2; }
layers=$(awk -F, 'NR > 1 && $1 != "" {n++} END {print n}' "$TOPO")  # SCALE-Sim's spacer rows have no name
times=()
for ((i = 0; i < ROUNDS; ++i)); do
  start=$(date +%s.%N)
  "$TESSEL" run --arch "$CFG" --workload "$TOPO" --scalesim-timing -q 2>/dev/null
  end=$(date +%s.%N)
  times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[(NR+1)/2]}')
awk -v t="$median" -v n="$layers" -v s="$SCALESIM_S_PER_LAYER" 'BEGIN {
  printf "== tessel run --arch v2_google.cfg --workload v2_Resnet50.csv --scalesim-timing (%d layers)\n", n
  printf "median of %s runs: %.1f ms whole command, %.3f ms per layer, %.0fx SCALE-Sim v2 per layer\n", '"$ROUNDS"', t * 1000, t * 1000 / n, s / (t / n)
}'
