#!/usr/bin/env bash
# A slow switch uplink on the emulated cluster, one rank per node: 8 nodes, cbnode7 and cbnode8 on
# a second switch whose one uplink to the first runs at half the nodes' rate. With a topology file
# that says so, `clusterbench qualify` names the uplink of leaf2 and no node, and FAILs the fleet;
# the pair tests across nodes run in the schedule given (screen: grouped by the file's leaves).
# With `slow-node`, cbnode5..cbnode8 are behind the uplink and cbnode8 also sends at a third of
# the rate: qualify names both the uplink and that node (its egress), and nothing else. Four
# nodes behind the uplink, because a node is judged inside its leaf on at least kMinEvidence (3)
# partners there; the uplink explains its figures across the leaves.
#   uplink_test.sh CLUSTERBENCH screen|rounds [slow-node]
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail
bin=$1
pairs=$2
slow_node=${3:-}
source "$(dirname "$0")/pair_lib.sh"

topology=$work/topology.conf
leaf1=1-6 leaf2=7-8 expected="FAIL | uplink leaf2"
shaping=(--switch2 7,8 --uplink 200mbit)
if [[ $slow_node == slow-node ]]; then
  leaf1=1-4 leaf2=5-8 expected="FAIL | node cbnode8, uplink leaf2"
  shaping=(--switch2 5,6,7,8 --uplink 200mbit --rate-of 8=133mbit)
fi
cat >"$topology" <<TOPO
# two leaf switches under one spine, as the emulated cluster's --switch2 builds them
SwitchName=leaf1 Nodes=cbnode[$leaf1]
SwitchName=leaf2 Nodes=cbnode[$leaf2]
SwitchName=spine1 Switches=leaf[1-2]
TOPO

up 8 --rate 400mbit "${shaping[@]}"
timeout 600 "$cluster" run -- "$bin" run --backend host --np 8 --quick --max-time 1 \
  --suite links --cases pair_bw --pairs "$pairs" --topology "$topology" --out "$work/run.json" \
  >"$work/log" 2>&1 || { cat "$work/log"; fail "clusterbench run failed"; }
"$cluster" down >/dev/null

# Every record, the both-ways ones too: measured, not judged, across nodes on the host backend
# (bench/links/pair_bw.cpp), they must leave the verdict to the one-way records.
python3 - "$work/run.json" "$pairs" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))["records"]
measured = [r for r in records if r["status"] != "skipped"]
assert measured and all(r["extra"]["schedule"] == sys.argv[2] for r in measured), \
    [r["extra"].get("schedule") for r in measured]
for r in records:
    if r["params"].get("direction") == "bi":
        judged = r["status"] != "skipped" and r["extra"]["second_pass"].get("judged", True)
        assert not judged, r["extra"].get("second_pass")
PY
rc=0
"$bin" qualify "$work/run.json" --spec host-cpu --topology "$topology" --json >"$work/q.json" \
  2>"$work/q.err" || rc=$?
[[ $rc -le 1 || $rc -eq 4 ]] || { cat "$work/q.err"; fail "qualify exit $rc"; }
got=$(python3 - "$work/q.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted(f"{c['kind']} {c.get('switch') or c.get('host') or ''}" for c in d["culprits"])
print(d["fleet"]["verdict"], "|", ", ".join(names))
PY
)
echo "slow uplink, --pairs $pairs: qualify says $got"
"$bin" qualify "$work/run.json" --spec host-cpu --topology "$topology" | sed -n '/^culprits/,/^$/p' || true
[[ $got == "$expected" ]] || fail "expected '$expected', got: $got"
echo "PASS"
