#!/usr/bin/env bash
# ci/regression-gate on a tiny sweep with the real binary: its refusals, an unchanged build that
# must not FAIL (A/B and history mode), and a planted 4x MPI_Allreduce slowdown of which it may
# name all_reduce alone. On a shared machine whose load swings run medians by 10x the planted
# slowdown can be INCONCLUSIVE, and is accepted as such; CLUSTERBENCH_GATE_TEST_STRICT=1 (a quiet
# runner) requires the gate to FAIL it, confirmed.
#   gate_test.sh SOURCE_DIR CLUSTERBENCH SHIM
set -uo pipefail
src=$1 binary=$2 shim=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-gate-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
flags=(--np 2 --cases "all_reduce,all_gather" --max-bytes 4K)
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# gate NAME [NAME=VALUE...]: runs the gate into $work/NAME, leaves its exit code in $rc.
gate() {
  local name=$1
  shift
  rc=0
  env CLUSTERBENCH="$binary" CLUSTERBENCH_GATE_OUT="$work/$name" CLUSTERBENCH_BRANCH=topic \
    CLUSTERBENCH_BASELINE_DIR="$work/state" "$@" "$src/ci/regression-gate" "${flags[@]}" \
    >"$work/$name.out" 2>"$work/$name.err" || rc=$?
}

# Refusals: one line, exit 2, before anything runs.
gate not-clusterbench CLUSTERBENCH_BASELINE_BIN=/bin/true
[[ $rc == 2 ]] || fail "a baseline binary that is not clusterbench: exit $rc"
grep -q "does not run as clusterbench" "$work/not-clusterbench.err" ||
  fail "not-clusterbench: $(cat "$work/not-clusterbench.err")"
gate one-run CLUSTERBENCH_GATE_RUNS=1
if [[ $rc != 2 ]] || ! grep -q "CLUSTERBENCH_GATE_RUNS: must be 2..100" "$work/one-run.err"; then
  fail "one run a side: exit $rc, $(cat "$work/one-run.err")"
fi

# An unchanged build, A/B: never FAIL.
gate unchanged-ab CLUSTERBENCH_BASELINE_BIN="$binary" CLUSTERBENCH_GATE_RUNS=2 \
  CLUSTERBENCH_GATE_CONFIRM=2
[[ $rc == 0 || $rc == 4 ]] || fail "unchanged A/B: exit $rc: $(tail -5 "$work/unchanged-ab.out")"
grep -q "^verdict: " "$work/unchanged-ab.out" || fail "unchanged A/B: no verdict line"
[[ -f $work/unchanged-ab/collectives-ab.json ]] || fail "unchanged A/B: no JSON report"

# History mode: main starts the history, a branch is judged against it.
gate history-main CLUSTERBENCH_BRANCH=main CLUSTERBENCH_GATE_RUNS=3
[[ $rc == 0 ]] || fail "history on main: exit $rc"
[[ $(find "$work/state/history" -name 'run-*.json' | wc -l) == 3 ]] || fail "history: not 3 runs"
gate history-branch CLUSTERBENCH_GATE_RUNS=2 CLUSTERBENCH_GATE_CONFIRM=2
[[ $rc == 0 || $rc == 4 ]] || fail "unchanged against history: exit $rc"
grep -q "^verdict: " "$work/history-branch.out" || fail "history branch: no verdict line"
# Main's next runs join the history of the same sweep (not a restart).
gate history-main-again CLUSTERBENCH_BRANCH=main CLUSTERBENCH_GATE_RUNS=2 CLUSTERBENCH_GATE_CONFIRM=2
[[ $rc == 0 || $rc == 4 ]] || fail "main against its history: exit $rc"
[[ $(find "$work/state/history" -name 'run-*.json' | wc -l) == 5 && ! -d $work/state/history.previous ]] ||
  fail "history after a second main gate: not 5 runs of one sweep"
echo "notes" >"$work/state/history/notes.txt"
gate history-foreign CLUSTERBENCH_GATE_RUNS=2
[[ $rc == 2 ]] || fail "a foreign file in the history: exit $rc"
rm "$work/state/history/notes.txt"

# A planted slowdown, A/B with confirmation: FAIL, all_reduce alone.
printf '#!/bin/sh\nLD_PRELOAD=%s CLUSTERBENCH_SLOW_ALLREDUCE_FACTOR=3 exec %s "$@"\n' "$shim" \
  "$binary" >"$work/slowed"
chmod +x "$work/slowed"
gate planted CLUSTERBENCH="$work/slowed" CLUSTERBENCH_BASELINE_BIN="$binary" \
  CLUSTERBENCH_GATE_RUNS=3 CLUSTERBENCH_GATE_CONFIRM=3
echo "planted 4x all_reduce: exit $rc; $(grep 'regression-gate: \(CONFIRMED\|not confirmed\)' "$work/planted.out")"
if [[ $rc == 1 ]]; then
  grep -q "CONFIRMED: .* decided by 3 + 3 runs a side" "$work/planted.out" ||
    fail "planted: FAIL without the confirmation line"
  named=$(python3 -c 'import json,sys; print(" ".join(sorted({c["case"] for c in json.load(open(sys.argv[1]))["regressions"]})))' \
    "$work/planted/collectives-ab-confirm.json")
  [[ $named == all_reduce ]] || fail "planted: regressed cases '$named', want all_reduce alone"
elif [[ $rc != 4 || ${CLUSTERBENCH_GATE_TEST_STRICT:-0} == 1 ]]; then
  fail "planted 4x all_reduce: exit $rc: $(tail -3 "$work/planted.out")"
fi
echo "$failures failures"
((failures == 0))
