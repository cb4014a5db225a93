#!/usr/bin/env bash
# `check --junit` and `qualify --junit` on the fixtures: every file validates against the JUnit
# schema Jenkins and GitLab read (tests/fixtures/junit/junit.xsd, by xmllint), its counts are its
# testcases', a regression makes exactly one failed testcase per regressed case, and text that
# breaks naive XML (quotes, markup, a comment's end, a newline) in a host name is escaped.
#   junit_test.sh CLUSTERBENCH SOURCE_DIR PYTHON
set -uo pipefail
bin=$1
src=$2
python=$3
here=$src/tests/integration/exporters
xsd=$src/tests/fixtures/junit/junit.xsd
verdicts=$src/tests/fixtures/verdicts
qualify=$src/tests/fixtures/qualify
command -v xmllint >/dev/null || { echo "FAIL: xmllint missing (ci/install-deps: libxml2-utils)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# valid FILE EXPECTED_EXIT RC [FAILED_CLASSNAMES]: the schema, then the counts.
valid() {
  local file=$1 want_rc=$2 rc=$3 failed=${4-}
  if [ "$rc" != "$want_rc" ]; then
    echo "FAIL: $file: exit $rc, expected $want_rc"
    fail=1
  fi
  if ! xmllint --noout --schema "$xsd" "$file" 2>"$work/xmllint.err"; then
    echo "FAIL: $file does not validate:"; cat "$work/xmllint.err"; fail=1; return
  fi
  local counts
  if ! counts=$("$python" "$here/junit_check.py" "$file" ${4+"$failed"}); then
    echo "$counts"; fail=1; return
  fi
  echo "ok: $(basename "$file") validates; tests failures skipped: $counts"
}

# The failed classnames check --json names as regressions.
regressed() {
  "$bin" check --json "$@" | "$python" -c '
import json, sys
print(",".join(c["suite"] + "." + c["case"] for c in json.load(sys.stdin)["regressions"]))'
}

# Runs, not samples: five runs a side (tests/fixtures/verdicts/runs), one case slowed in the slow
# runs; one run a side is INCONCLUSIVE (exit 4), its cases skipped.
runs=$verdicts/runs
"$bin" check --baseline "$runs/base" "$runs/slow" --junit "$work/one.xml" >/dev/null
valid "$work/one.xml" 1 $? "$(regressed --baseline "$runs/base" "$runs/slow")"

mkdir -p "$work/slow3"
for run in "$runs"/base/*.json; do
  "$python" "$here/hostile_fixture.py" slower "$run" "$work/slow3/$(basename "$run")" 3 1.5
done
want=$(regressed --baseline "$runs/base" "$work/slow3")
[ "$(tr ',' '\n' <<<"$want" | grep -c .)" = 3 ] || { echo "FAIL: expected 3 regressions, got '$want'"; fail=1; }
"$bin" check --baseline "$runs/base" "$work/slow3" --junit "$work/three.xml" >/dev/null
valid "$work/three.xml" 1 $? "$want"

"$bin" check --baseline "$runs/base" "$runs/same" --junit "$work/pass.xml" >/dev/null
valid "$work/pass.xml" 0 $? ""

"$bin" check --baseline "$verdicts/baseline.json" "$verdicts/slowdown_10pct.json" \
  --junit "$work/inconclusive.xml" >/dev/null
valid "$work/inconclusive.xml" 4 $? ""
grep -q '<skipped message="INCONCLUSIVE' "$work/inconclusive.xml" ||
  { echo "FAIL: the inconclusive case is not skipped"; fail=1; }

"$bin" check --baseline "$verdicts/baseline.json" "$verdicts/missing_cases.json" \
  --junit "$work/missing.xml" >/dev/null
rc=$?
"$bin" check --baseline "$verdicts/baseline.json" "$verdicts/missing_cases.json" >/dev/null
valid "$work/missing.xml" $? $rc

for fixture in h200_clean h200_slow_gpu h200_inconclusive; do
  "$bin" qualify "$qualify/$fixture.json" --spec h200-sxm --junit "$work/$fixture.xml" >/dev/null
  rc=$?
  "$bin" qualify "$qualify/$fixture.json" --spec h200-sxm >/dev/null
  valid "$work/$fixture.xml" $? $rc
done
grep -q 'classname="qualify.culprits.gpu"' "$work/h200_slow_gpu.xml" ||
  { echo "FAIL: the slow GPU is not a failed testcase"; fail=1; }
grep -q '<failure' "$work/h200_clean.xml" && { echo "FAIL: a clean run has a failure"; fail=1; }

# A host name with quotes, a backslash, a newline, markup and a comment's end.
"$python" "$here/hostile_fixture.py" rename "$qualify/h200_slow_gpu.json" "$work/hostile.json" hgx-h200-01
"$bin" qualify "$work/hostile.json" --spec h200-sxm --junit "$work/hostile.xml" >/dev/null
valid "$work/hostile.xml" 1 $?
# The culprit's testcase is named as the JSON report names it (the loader has made the newline
# visible, \x0a), every character back as it was.
"$bin" qualify "$work/hostile.json" --spec h200-sxm --json >"$work/hostile-report.json"
"$python" - "$work/hostile.xml" "$work/hostile-report.json" <<'PY' || fail=1
import json, sys, xml.etree.ElementTree as ET
names = [c.get("name") for c in ET.parse(sys.argv[1]).getroot().iter("testcase")]
label = json.load(open(sys.argv[2]))["culprits"][0]["label"]
if 'gpu"node\\01\\x0a<b>&amp;]]>--x' not in label or label not in names:
    sys.exit("FAIL: the hostile host name did not read back whole: %r not in %r" % (label, names[-3:]))
print("ok: the hostile host name reads back whole: %s" % label)
PY

# Replaces its own file; refuses one it did not write, keeping its bytes.
"$bin" check --baseline "$runs/base" "$runs/same" --junit "$work/pass.xml" >/dev/null ||
  { echo "FAIL: did not replace its own file"; fail=1; }
echo '<testsuites/>' >"$work/theirs.xml"
err=$("$bin" check --baseline "$verdicts/baseline.json" "$verdicts/same_distribution.json" \
  --junit "$work/theirs.xml" 2>&1 >/dev/null)
rc=$?
if [ $rc != 2 ] || [[ $err != *--junit* ]] || [ "$(cat "$work/theirs.xml")" != '<testsuites/>' ]; then
  echo "FAIL: a file clusterbench did not write: exit $rc: $err"
  fail=1
fi
exit $fail
