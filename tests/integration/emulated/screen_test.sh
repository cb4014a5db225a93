#!/usr/bin/env bash
# The screen across 6 emulated nodes, one rank each, cbnode3's egress at a third of the others'
# rate: run --pairs screen (two groups of ceil(sqrt(6)) = 3 nodes, no topology) with pair_bw and
# ring_bw, and `clusterbench qualify` names node cbnode3 alone and FAILs the fleet, as with the
# rounds (pair_rounds_test.sh).
#   screen_test.sh CLUSTERBENCH
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail
bin=$1
source "$(dirname "$0")/pair_lib.sh"

up 6 --rate 400mbit --rate-of 3=133mbit
timeout 400 "$cluster" run -- "$bin" run --backend host --np 6 --quick --max-time 1 \
  --suite links --cases pair_bw,ring_bw --pairs screen --out "$work/slow.json" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "clusterbench run failed"; }
"$cluster" down >/dev/null
python3 - "$work/slow.json" <<'PY' || fail "screen record"
import json, sys
records = [r for r in json.load(open(sys.argv[1]))["records"] if r["case"] == "pair_bw"]
assert records, "no pair_bw record"
for r in records:
    if r["params"]["direction"] == "bi":
        # Not judged across nodes on the host backend (bench/links/pair_bw.cpp): nothing to screen.
        assert r["status"] == "skipped" and "not judged" in r["reason"], (r["status"], r["reason"])
        print("pair_bw bi: skipped (" + r["reason"].split(":")[0] + ")")
        continue
    x = r["extra"]
    assert x["schedule"] == "screen" and "matrix" not in x, x.get("schedule")
    obs, screen = x["observations"], x["screen"]
    n = len(obs["src"])
    assert all(len(obs[k]) == n for k in ("dst", "rail", "round", "value")), "columns differ"
    print(f"pair_bw {r['params']['direction']}: {n} figures in {screen['rounds']} rounds, "
          f"{screen['tests']} tests, groups {screen['group_of_node']}")
PY
got=$(qualify_named "$work/slow.json")
echo "one node at a third of the rate, --pairs screen: qualify says $got"
[[ $got == "FAIL | node cbnode3" ]] || fail "expected the fleet to FAIL naming node cbnode3 alone, got: $got"
echo "PASS"
