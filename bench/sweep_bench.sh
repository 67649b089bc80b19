#!/usr/bin/env bash
# The sweep benchmark: `tessel sweep configs/sweeps/gpt2-10k.yaml` (10,000 designs, GPT-2 small
# prefill 512 on each) with 1 and then 2 worker processes, each into a fresh folder. Prints the
# wall time and points/s of each and the speedup, and fails (exit 1) unless the two
# results.jsonl are byte-identical. Targets: 10,000 points in under 60 s on 2 cores, at least
# 1.8x from 1 to 2 workers.
# Usage: bench/sweep_bench.sh BUILD_DIR        (run by `make bench`)
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD="$PWD/$BUILD" ;; esac
TESSEL="$BUILD/apps/tessel/tessel"
SPEC="$ROOT/configs/sweeps/gpt2-10k.yaml"
if [ ! -x "$TESSEL" ]; then  # `make bench` builds the benchmark programs, not the CLI
  if [ -f "$BUILD/CMakeCache.txt" ]; then
    cmake --build "$BUILD" -j "$(nproc)" --target tessel
  fi
  if [ ! -x "$TESSEL" ]; then
    echo "sweep_bench: no tessel binary at $TESSEL (build it first)" >&2
    exit 2
  fi
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tessel-sweep-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# (reads the whole listing: a pipe closed early would fail the command)
points=$("$TESSEL" sweep "$SPEC" --dry-run | sed -n '1s/.*: \([0-9]*\) points.*/\1/p')
echo "== tessel sweep configs/sweeps/gpt2-10k.yaml: $points points, $(nproc) cores"

declare -A secs
for w in 1 2; do
  start=$(date +%s.%N)
  "$TESSEL" sweep "$SPEC" -o "$WORK/w$w" --workers "$w" -q
  end=$(date +%s.%N)
  secs[$w]=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  rate=$(awk -v n="$points" -v s="${secs[$w]}" 'BEGIN { printf "%.1f", n / s }')
  printf '  --workers %d  %8.2f s  %8s points/s\n' "$w" "${secs[$w]}" "$rate"
done
speedup=$(awk -v a="${secs[1]}" -v b="${secs[2]}" 'BEGIN { printf "%.2f", a / b }')
echo "  speedup 1 -> 2 workers: ${speedup}x (target >= 1.8x; 10,000 points < 60 s on 2 cores)"

if cmp -s "$WORK/w1/results.jsonl" "$WORK/w2/results.jsonl"; then
  echo "  results.jsonl identical with 1 and 2 workers ($(wc -l <"$WORK/w1/results.jsonl") lines)"
else
  echo "sweep_bench: results.jsonl differ between --workers 1 and --workers 2" >&2
  cmp "$WORK/w1/results.jsonl" "$WORK/w2/results.jsonl" >&2 || true
  exit 1
fi
