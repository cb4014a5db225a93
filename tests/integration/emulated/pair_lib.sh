# shellcheck shell=bash
# Shared by the emulated pair tests (sourced after `bin=CLUSTERBENCH`): sets $cluster
# (ci/emulated-cluster) and $work (a scratch directory), both cleaned up on exit.
cluster=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/ci/emulated-cluster
work=$(mktemp -d)
trap '"$cluster" down >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
up() { local rc=0; "$cluster" up "$@" >/dev/null || rc=$?; [[ $rc -eq 0 ]] || exit "$rc"; }

# run_pairs OUT [NP [SUITES CASES]]: pair_bw (uni and bi, 8 MiB transfers of --quick) on NP nodes
# (default 6); SUITES and CASES add others (collectives up to 64 KiB); CASES "all" runs every case
# of SUITES.
run_pairs() {
  local cases=(--cases "${4:-pair_bw}")
  [[ ${4:-} == all ]] && cases=()
  timeout 400 "$cluster" run -- "$bin" run --backend host --np "${2:-6}" --quick --max-time 1 \
    --suite "${3:-links}" "${cases[@]}" --max-bytes 64K --out "$1" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "clusterbench run failed"; }
}

# qualify_named FILE: the fleet's verdict, the culprits qualify fails the fleet on ("kind host"),
# and the kinds of its notes when it has any (a tier not uniform, unresolved pairs); the
# stragglers it warns of are listed in $work/stragglers.
# Every record is judged. The both-ways pair records are measured, not judged, across nodes on the
# host backend (bench/links/pair_bw.cpp): on these nodes equal pairs give full or half duplex from
# one run to the next. Each must say so and name nothing (under --pairs screen: skipped, saying
# why), so that qualify has nothing from them to name.
qualify_named() {
  local rc=0
  python3 - "$1" <<'PY' || fail "a both-ways pair record across nodes was judged"
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    if r["case"] != "pair_bw" or r["params"].get("direction") != "bi":
        continue
    if r["status"] == "skipped":
        assert "not judged" in r["reason"], r["reason"]
        continue
    sp = r["extra"]["second_pass"]
    assert sp["judged"] is False and sp["why"] and sp["verdicts"] == [], sp
PY
  "$bin" qualify "$1" --spec host-cpu --json >"$work/q.json" 2>"$work/q.err" || rc=$?
  [[ $rc -le 1 || $rc -eq 4 ]] || { cat "$work/q.err"; fail "qualify exit $rc"; }
  python3 - "$work/q.json" "$work/stragglers" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted({f"{c['kind']} {c.get('host') or c.get('switch') or ''}" for c in d["culprits"]})
with open(sys.argv[2], "w") as out:
    for o in d["outliers"]:
        if o["kind"] == "straggler":
            print(o["label"], "in", o["record"], file=out)
notes = [n["kind"] for n in d["fleet"].get("notes", [])]
print(d["fleet"]["verdict"], "|", ", ".join(names) + (f" | notes: {', '.join(notes)}" if notes else ""))
PY
}
