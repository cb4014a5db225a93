#!/bin/sh
# `clusterbench report --html F --plots D` on fixture results: exit 0, nothing on stderr, every
# figure plot.py drew linked in the Markdown and embedded in the HTML page byte for byte, and the
# page self-contained. Then --html alone: the figures are drawn aside and still embedded.
#   report_html_test.sh CLUSTERBENCH PYTHON RESULTS.json...
set -eu
cb=$1
python=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-report-html-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export CLUSTERBENCH_PYTHON="$python"

fail() {
  echo "report_html_test: $*" >&2
  exit 1
}

n=0
for results in "$@"; do
  n=$((n + 1))
  out="$work/$n"
  mkdir -p "$out"
  "$cb" report "$results" --html "$out/report.html" --plots "$out/plots" \
    >"$out/report.md" 2>"$out/stderr.txt" || fail "$results: exit $? ($(cat "$out/stderr.txt"))"
  [ ! -s "$out/stderr.txt" ] || fail "$results: unexpected stderr: $(cat "$out/stderr.txt")"
  ls "$out/plots"/*.png >/dev/null 2>&1 || fail "$results: no PNG in $out/plots"
  "$python" "$here/check_report.py" html "$out/report.html" "$out/report.md" "$out/plots" ||
    fail "$results: the HTML page does not carry the figures"
  # A measured training step is drawn (its anatomy and efficiency) and linked.
  if grep -q '"data_parallel_step"' "$results"; then
    [ -s "$out/plots/step_anatomy.png" ] || fail "$results: no step_anatomy.png"
    grep -q 'step_anatomy.png' "$out/report.md" || fail "$results: step_anatomy.png not linked"
    grep -q 'Training step: measured against predicted' "$out/report.md" ||
      fail "$results: no training step table"
  fi

  # Without --plots the page still carries figures, drawn in a folder removed afterwards.
  "$cb" report "$results" --html "$out/alone.html" >"$out/alone.md" 2>"$out/stderr.txt" ||
    fail "$results: --html alone: exit $?"
  grep -q 'src="data:image/png;base64,' "$out/alone.html" || fail "$results: --html alone embeds no figure"
  ! grep -q '!\[' "$out/alone.md" || fail "$results: --html alone links figures that do not stay"
done
echo "report_html_test: $n results files reported with embedded figures"
