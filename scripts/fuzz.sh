#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, from corpora seeded with the shipped configs, the
# committed seeds and the regressions. Findings land in BUILD/findings/<target>/; the script
# fails if any target finds one. Usage: scripts/fuzz.sh BUILD SECONDS [TARGET...] (default: all)
set -uo pipefail
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGETS=("${@:3}")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(arch dataflow precision_plan workload cli onnx scalesim timeloop_map trace)
status=0
for t in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$t"
  findings="$BUILD/findings/$t"
  mkdir -p "$corpus" "$findings"
  case $t in
    arch) cp "$ROOT"/configs/arch/*.yaml "$corpus"/ ;;
    dataflow) cp "$ROOT"/configs/dataflows/*.yaml "$corpus"/ ;;
    scalesim) cp "$ROOT"/tests/models/scalesim/data/*.csv "$corpus"/ ;;
    timeloop_map) for f in "$ROOT"/tests/dataflows/data/timeloop/*/*map.yaml; do
                    cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
  esac
  [ -d "$ROOT/fuzz/seeds/$t" ] && cp "$ROOT/fuzz/seeds/$t"/* "$corpus"/ 2>/dev/null
  find "$ROOT/fuzz/regressions/$t" -type f ! -name .keep -exec cp {} "$corpus"/ \;
  echo "== fuzz_$t for ${SECONDS_EACH}s"
  # The CLI target reads configs by relative path, as a user in the repository would.
  (cd "$ROOT" && "$BUILD/fuzz/fuzz_$t" "$corpus" -max_total_time="$SECONDS_EACH" \
      -rss_limit_mb=4096 -timeout=10 -print_final_stats=1 -artifact_prefix="$findings/" \
      2>&1 | grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::average_exec_per_sec|ERROR|SUMMARY|Test unit written|==[0-9]+==" | head -20) || true
  if ls "$findings" | grep -q .; then
    echo "fuzz_$t: findings in $findings"
    status=1
  fi
done
exit $status
