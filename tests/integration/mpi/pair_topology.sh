#!/usr/bin/env bash
# --topology on run, through the real binary under mpirun: a job host under no leaf of the file is
# bad input (exit 2 naming the file, before any record), as is a file that does not exist; a
# topology placing this host runs the pair test (on one machine one node: within it the rounds,
# the screen is across nodes), its data check passing.
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do unset "$v"; done
fail() { echo "FAIL: $*"; exit 1; }
run() { timeout 120 "$bin" run --np 2 --backend host --suite links --cases pair_bw --quick \
  --max-time 0.2 "$@" >"$work/out" 2>"$work/err"; }

printf 'SwitchName=leaf1 Nodes=elsewhere[01-04]\n' >"$work/other.conf"
run --pairs screen --topology "$work/other.conf" --out "$work/a.json"
rc=$?
[ "$rc" = 2 ] || fail "a host under no leaf: exit $rc, expected 2: $(cat "$work/err")"
grep -q "$work/other.conf: job host .* is under no leaf switch" "$work/err" ||
  fail "the refusal does not name the file and the host: $(cat "$work/err")"
[ ! -s "$work/a.json" ] || fail "a refused run wrote records"

run --topology "$work/missing.conf" --out "$work/b.json"
rc=$?
[ "$rc" = 2 ] || fail "a missing topology: exit $rc, expected 2"
grep -q "$work/missing.conf" "$work/err" || fail "the refusal does not name the file"

printf '{"%s": "leaf1"}\n' "$(hostname)" >"$work/here.json"
run --pairs screen --topology "$work/here.json" --out "$work/c.json"
rc=$?
[ "$rc" = 0 ] || fail "a topology placing this host: exit $rc: $(cat "$work/err")"
python3 - "$work/c.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
recs = [r for r in d["records"] if r["case"] == "pair_bw" and r["status"] != "skipped"]
assert recs, "no pair_bw record"
for r in recs:
    assert r["check"] == "pass", r["check"]
    assert r["extra"]["schedule"] == "rounds", r["extra"]["schedule"]
    assert "observations" not in r["extra"]
print("ok:", len(recs), "pair_bw records on one node, in rounds")
PY
echo "--topology refused naming the file, and accepted placing this host"
