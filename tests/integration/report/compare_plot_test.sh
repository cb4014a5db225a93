#!/bin/sh
# `clusterbench compare A B --plot D`: exit 0, the comparison on stdout untouched by the plotting,
# the overlay figures written into D and named on stderr.
#   compare_plot_test.sh CLUSTERBENCH PYTHON A.json B.json
set -eu
cb=$1
export CLUSTERBENCH_PYTHON="$2"
a=$3
b=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-compare-plot-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

fail() {
  echo "compare_plot_test: $*" >&2
  exit 1
}

"$cb" compare --json "$a" "$b" --plot "$work/plots" >"$work/out.json" 2>"$work/err.txt" ||
  fail "exit $? ($(cat "$work/err.txt"))"
"$CLUSTERBENCH_PYTHON" -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/out.json" ||
  fail "stdout is not the JSON comparison alone"
for png in overlay_efficiency.png overlay_busbw_vs_size.png; do
  [ -s "$work/plots/$png" ] || fail "$png not written ($(cat "$work/err.txt"))"
  grep -q "$work/plots/$png" "$work/err.txt" || fail "stderr does not name $png: $(cat "$work/err.txt")"
done
[ "$(wc -l <"$work/err.txt")" -eq 1 ] || fail "expected one line on stderr: $(cat "$work/err.txt")"
echo "compare_plot_test: overlay figures written"
