#!/usr/bin/env bash
# End to end in a real browser: `tessel report` on a real run (or a sweep, compare or serve fixture),
# rendered by headless Chromium to a PNG and to its DOM, which check_report_dom.py compares with
# the input.
#   report_browser_test.sh run|sweep|compare|serve TESSEL_BINARY SOURCE_DIR
set -euo pipefail
mode=$1 tessel=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "FAIL: $chromium is missing; run scripts/install-deps.sh" >&2
  exit 1
fi
work=$(mktemp -d)
profile=$(mktemp -d)
trap 'rm -rf "$work" "$profile"' EXIT

if [ "$mode" = run ]; then
  input=$work/run.json
  "$tessel" run -q --arch "$src/configs/arch/gemmini-default.yaml" --workload gpt2-small \
    --layers 1 --seq 64 --budget 2000 --json "$input"
elif [ "$mode" = serve ]; then
  input=$src/tests/reports/data/serve.json
elif [ "$mode" = compare ]; then
  input=$work/compare.json
  /usr/bin/python3 "$here/check_report_dom.py" make-compare "$input"
else
  input=$work/sweep
  /usr/bin/python3 "$here/check_report_dom.py" make-sweep "$input"
fi
"$tessel" report "$input" -o "$work/report.html"

browse() {
  timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@" "file://$work/report.html"
}
browse --screenshot="$work/report.png" --window-size=1400,3000 >/dev/null 2>"$work/chromium.log" ||
  { cat "$work/chromium.log" >&2; exit 1; }
browse --dump-dom >"$work/dom.html" 2>>"$work/chromium.log" || { cat "$work/chromium.log" >&2; exit 1; }
[ -n "${TESSEL_KEEP_REPORT:-}" ] && { cp "$work/report.png" "$TESSEL_KEEP_REPORT/$mode.png"; cp "$work/report.html" "$TESSEL_KEEP_REPORT/$mode.html"; }
/usr/bin/python3 "$here/check_report_dom.py" "$mode" "$input" "$work/dom.html" "$work/report.png"
