#!/bin/sh
# The HTML report opened in headless Chromium: it loads without errors (no ERR_ and no console
# message on stderr), a 1200x2000 screenshot of its top has text on it, and a second one of its
# figures has the plots on it: pixels in the plots' colours over a region of a figure's size.
# Headless Chromium takes --screenshot before it scrolls to a URL fragment (the shot comes out
# blank), so the second shot frames report.html#figure-1 (the anchor the renderer puts on the
# first figure) in an iframe of the window's size, which scrolls inside itself.
# Exit 77 (skipped) where chromium is not installed (Debian package: chromium).
#   report_chromium_test.sh CLUSTERBENCH PYTHON RESULTS.json [SHOT.png [FIGURES.png]]
set -eu
cb=$1
python=$2
results=$3
keep=${4:-}
keep_figures=${5:-}
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

# shoot NAME URL: a 1200x2000 screenshot of URL in $work/NAME.png, with a profile of its own so
# runs never share state; no network is needed or wanted. Anything the page logs fails the test.
shoot() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile-$1" --screenshot="$work/$1.png" --window-size=1200,2000 \
    --enable-logging=stderr --v=0 "$2" 2>"$work/$1-chromium.txt" ||
    fail "chromium exited with $? on $2 ($(tail -3 "$work/$1-chromium.txt"))"
  if grep -E 'ERR_|CONSOLE' "$work/$1-chromium.txt" >&2; then
    fail "$2: the page logged errors or console messages (above)"
  fi
  [ -s "$work/$1.png" ] || fail "no screenshot of $2 written"
}

"$cb" report "$results" --html "$work/report.html" --plots "$work/plots" >/dev/null ||
  fail "clusterbench report exited with $?"
grep -q '<figure id="figure-1">' "$work/report.html" || fail "the page has no figure-1 anchor"

shoot shot "file://$work/report.html"
"$python" "$here/check_report.py" screenshot "$work/shot.png" 1200 2000 ||
  fail "the screenshot is blank"

cat >"$work/figures.html" <<'PAGE'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>report figures</title></head>
<body style="margin:0"><iframe src="report.html#figure-1" title="report"
  style="display:block;border:0;width:1200px;height:2000px"></iframe></body></html>
PAGE
shoot figures "file://$work/figures.html"
"$python" "$here/check_report.py" plots "$work/figures.png" 1200 2000 ||
  fail "the screenshot of the figures shows no plot"

if [ -n "$keep" ]; then cp "$work/shot.png" "$keep"; fi
if [ -n "$keep_figures" ]; then cp "$work/figures.png" "$keep_figures"; fi
echo "report_chromium_test: page loaded cleanly; its top and its plots checked on screenshots"
