#!/bin/sh
# The HTML report opened in headless Chromium: it loads without errors (no ERR_ and no console
# message on stderr) and its screenshot is a 1200x2000 PNG with text and figures on it.
# Exit 77 (skipped) where chromium is not installed (Debian package: chromium).
#   report_chromium_test.sh CLUSTERBENCH PYTHON RESULTS.json [SHOT.png]
set -eu
cb=$1
python=$2
results=$3
keep=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "report_chromium_test: chromium not installed (apt-get install chromium): skipped"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-report-chromium-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export CLUSTERBENCH_PYTHON="$python"

fail() {
  echo "report_chromium_test: $*" >&2
  exit 1
}

"$cb" report "$results" --html "$work/report.html" --plots "$work/plots" >/dev/null ||
  fail "clusterbench report exited with $?"
# A profile of its own so runs never share state; no network is needed or wanted.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$work/profile" --screenshot="$work/shot.png" --window-size=1200,2000 \
  --enable-logging=stderr --v=0 "file://$work/report.html" 2>"$work/chromium.txt" ||
  fail "chromium exited with $? ($(tail -3 "$work/chromium.txt"))"
if grep -E 'ERR_|CONSOLE' "$work/chromium.txt" >&2; then
  fail "the page logged errors or console messages (above)"
fi
[ -s "$work/shot.png" ] || fail "no screenshot written"
"$python" "$here/check_report.py" screenshot "$work/shot.png" 1200 2000 || fail "the screenshot is blank"
if [ -n "$keep" ]; then cp "$work/shot.png" "$keep"; fi
echo "report_chromium_test: page loaded cleanly, screenshot checked"
