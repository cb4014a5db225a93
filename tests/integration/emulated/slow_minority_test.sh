#!/usr/bin/env bash
# Three slow nodes of eight (a bad batch of NICs, a bad leaf switch), one rank each on the emulated
# cluster: cbnode2, cbnode5 and cbnode7 shaped to a third of the others' rate. 18 of the 28 node
# pairs are slow, so the median pair is a slow one; against the typical pair (here the median of
# each node's median pair) `clusterbench qualify` names exactly the three (kind node) and FAILs.
#   slow_minority_test.sh CLUSTERBENCH
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail
bin=$1
source "$(dirname "$0")/pair_lib.sh"

up 8 --rate 400mbit --rate-of 2=133mbit --rate-of 5=133mbit --rate-of 7=133mbit
run_pairs "$work/slow.json" 8
"$cluster" down >/dev/null
python3 - "$work/slow.json" <<'PY' || fail "second pass"
import json, statistics, sys
r = next(r for r in json.load(open(sys.argv[1]))["records"] if r["params"]["direction"] == "uni")
m, sp = r["extra"]["matrix"], r["extra"]["second_pass"]
pairs = [min(m[a][b], m[b][a]) for a in range(8) for b in range(a + 1, 8)]
median_pair = statistics.median(pairs)
print(f"8 nodes, 3 at a third of the rate: median pair {median_pair:.4f} GB/s "
      f"({sum(p < 0.93 * median_pair for p in pairs)} of 28 under 0.93 x it); "
      f"typical pair {sp['reference']:.4f} GB/s ({len(sp['suspect_pairs'])} suspect); "
      f"{len(sp['end_retests'])} end retests in {sp['retest_rounds']} sub-rounds")
assert sp["reference"] > 1.5 * median_pair, "the reference is a slow pair"
PY
got=$(qualify_named "$work/slow.json")
echo "qualify says $got"
[[ $got == "FAIL | node cbnode2, node cbnode5, node cbnode7" ]] ||
  fail "expected the fleet to FAIL naming cbnode2, cbnode5 and cbnode7 alone, got: $got"
echo "PASS"
