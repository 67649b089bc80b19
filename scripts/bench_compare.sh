#!/usr/bin/env bash
# Side-by-side speed comparison with a baseline revision, on this machine, in the same run:
# the machine's speed varies up to 3x from day to day, so only a baseline built and run beside
# the current tree catches a regression. Builds BASE's `tessel` (and bench_mapper when both trees
# have it) in its own folder, runs each whole command alternately (base, current, base, ...)
# ROUNDS times, and prints the median wall and CPU seconds of each side, minor page faults, and
# the ratio current/base (below 1: faster now). Each side reads its own tree's configs; a note
# says when the totals differ (the results changed, or the base's shipped design did).
# Usage: scripts/bench_compare.sh BASE [BUILD_DIR] [ROUNDS]        (make bench-compare BASE=rev)
set -euo pipefail
BASE=${1:?usage: bench_compare.sh BASE [BUILD_DIR] [ROUNDS]}
BUILD=${2:-build}
ROUNDS=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
JOBS=$(nproc)
rev=$(git -C "$ROOT" rev-parse --short "$BASE^{commit}") || { echo "bench-compare: unknown revision '$BASE'" >&2; exit 2; }
BASE_DIR="$ROOT/build-base-$rev"
if [ ! -x "$BASE_DIR/build/apps/tessel/tessel" ]; then
  echo "== building $rev in $BASE_DIR (once; kept for later comparisons)"
  rm -rf "$BASE_DIR/src.partial" && mkdir -p "$BASE_DIR/src.partial"
  git -C "$ROOT" archive "$rev" | tar -x -C "$BASE_DIR/src.partial"
  rm -rf "$BASE_DIR/src" && mv "$BASE_DIR/src.partial" "$BASE_DIR/src"
  cmake -S "$BASE_DIR/src" -B "$BASE_DIR/build" -DCMAKE_BUILD_TYPE=Release -DTESSEL_PYTHON=OFF >/dev/null
  cmake --build "$BASE_DIR/build" -j "$JOBS" --target tessel >/dev/null
fi
cmake --build "$BUILD" -j "$JOBS" --target tessel >/dev/null
OLD="$BASE_DIR/build/apps/tessel/tessel"
NEW="$BUILD/apps/tessel/tessel"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tessel-bench-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Whole commands users run; each binary reads its own tree's files (paths relative to the tree).
COMMANDS=(
  "run --arch configs/arch/gemmini-default.yaml --workload gpt2 --phase prefill --seq 1024"
  "run --arch configs/arch/gemmini-default.yaml --workload resnet50"
  "run --arch configs/arch/gemmini-default.yaml --workload bert --seq 512"
  "run --arch configs/arch/eyeriss-like.yaml --workload resnet50"
  "run --arch configs/arch/shidiannao-like.yaml --workload gpt2 --seq 512"
)

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# One timed run in tree $2: appends "wall cpu faults" to $3; fails when the command does.
timed() {
  local bin=$1 tree=$2 out=$3 json=$4; shift 4
  (cd "$tree" && /usr/bin/time -f "%e %U %S %R" -o "$WORK/t" "$bin" "$@" --json "$json" \
     >/dev/null 2>"$WORK/err") || return 1
  awk '{printf "%s %.3f %s\n", $1, $2 + $3, $4}' "$WORK/t" >> "$out"
}

printf "%-92s %9s %9s %7s %9s %9s %7s\n" "command (median of $ROUNDS, alternating)" "base s" "now s" "ratio" "base cpu" "now cpu" "faults"
status=0
for i in "${!COMMANDS[@]}"; do
  read -r -a args <<< "${COMMANDS[$i]}"
  : > "$WORK/old$i"; : > "$WORK/new$i"
  ok=1
  for ((r = 0; r < ROUNDS && ok; ++r)); do
    timed "$OLD" "$BASE_DIR/src" "$WORK/old$i" "$WORK/old$i.json" "${args[@]}" || ok=0
    timed "$NEW" "$ROOT" "$WORK/new$i" "$WORK/new$i.json" "${args[@]}" || { ok=0; status=1; }
  done
  if [ "$ok" = 0 ]; then
    printf "%-92s %s\n" "tessel ${COMMANDS[$i]}" "not comparable: $(head -c 120 "$WORK/err")"
    continue
  fi
  ow=$(cut -d' ' -f1 "$WORK/old$i" | median); nw=$(cut -d' ' -f1 "$WORK/new$i" | median)
  oc=$(cut -d' ' -f2 "$WORK/old$i" | median); nc=$(cut -d' ' -f2 "$WORK/new$i" | median)
  of=$(cut -d' ' -f3 "$WORK/old$i" | median); nf=$(cut -d' ' -f3 "$WORK/new$i" | median)
  printf "%-92s %9.3f %9.3f %7.2f %9.3f %9.3f %7s\n" "tessel ${COMMANDS[$i]}" "$ow" "$nw" \
    "$(awk -v a="$nw" -v b="$ow" 'BEGIN {print a / b}')" "$oc" "$nc" "${of%.*}>${nf%.*}"
  # Totals that differ mean the results changed too (or the base's shipped design did).
  if ! /usr/bin/python3 - "$WORK/old$i.json" "$WORK/new$i.json" <<'PY'
import json, sys
a, b = (json.load(open(p)).get("totals") for p in sys.argv[1:])
sys.exit(0 if a == b else 1)
PY
  then
    echo "   (totals differ from the base's: results changed as well as speed)"
  fi
done
exit $status
