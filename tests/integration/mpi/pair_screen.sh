#!/usr/bin/env bash
# The screen across nodes through the real binary under mpirun: NP ranks on this machine, each
# its own node by CLUSTERBENCH_EMULATED_HOST (node1 .. nodeNP), run --suite links --pairs screen.
# The pair records carry the screen's fields (docs/DIAGNOSIS.md, "The screen in a run"), but for
# pair_bw both ways, skipped with its reason (not judged across nodes on the host backend): the five
# observation columns of one length, every node met by at least k partners, the groups of every
# node, no matrix nor second pass, and the data check passing. A --topology of two leaves groups
# the nodes by leaf.
# usage: pair_screen.sh BIN [NP]
set -uo pipefail
bin=$1 np=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do unset "$v"; done
root_flag=()
[ "$(id -u)" = 0 ] && root_flag=(--allow-run-as-root)
fail() { echo "FAIL: $*"; exit 1; }

run() { # OUT [run flags...]
  local out=$1
  shift
  timeout 300 mpirun -np "$np" --oversubscribe "${root_flag[@]}" bash -c \
    'CLUSTERBENCH_EMULATED_HOST=node$((OMPI_COMM_WORLD_RANK + 1)) exec "$0" "$@"' "$bin" \
    run --backend host --suite links --cases pair_bw,pair_latency --quick --max-time 0.2 \
    --pairs screen --out "$out" "$@" >"$work/log" 2>&1 || { cat "$work/log"; fail "run failed"; }
}

check() { # FILE GROUPS
  python3 - "$1" "$np" "$2" <<'PY'
import json, sys
path, nodes, groups = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(path))
recs = [r for r in d["records"] if r["case"] in ("pair_bw", "pair_latency")]
assert len(recs) == 3, [(r["case"], r["params"]) for r in recs]  # uni, bi, latency
for r in recs:
    x, what = r["extra"], r["case"] + " " + json.dumps(r["params"])
    if r["params"].get("direction") == "bi":
        # Both ways on the host backend is not judged across nodes, and the screen only judges.
        assert r["status"] == "skipped" and "not judged" in r["reason"], (what, r["status"])
        print("ok:", what, "skipped:", r["reason"].split(":")[0])
        continue
    assert r["check"] == "pass", (what, r["check"], r.get("reason"))
    assert x["schedule"] == "screen", (what, x["schedule"])
    assert "matrix" not in x and "second_pass" not in x, what
    assert x["matrix_of"] == "nodes" and len(x["matrix_members"]) == nodes, what
    assert x["matrix_metric"] == ("latency_us" if r["case"] == "pair_latency" else "gbps")
    o, s = x["observations"], x["screen"]
    n = len(o["src"])
    assert n > 0 and all(len(o[k]) == n for k in ("dst", "rail", "round", "value")), what
    assert all(v > 0 for v in o["value"]), what
    assert set(o["rail"]) == {0}, what  # the host backend: one rail
    assert max(o["round"]) + 1 == s["rounds"], (what, s["rounds"])
    assert s["groups"] == groups, (what, s["groups"])
    assert len(s["group_of_node"]) == nodes, what
    assert len(s["group_names"]) == max(s["group_of_node"]) + 1, what
    assert (s["k_inside"], s["k_across"], s["k_confirm"]) == (4, 2, 2), what
    assert s["tests"] > 0 and s["seconds"] >= 0, what
    partners = {i: set() for i in range(nodes)}
    for a, b in zip(o["src"], o["dst"]):
        partners[a].add(b)
        partners[b].add(a)
    # Groups of ceil(sqrt(n)) or the leaves: at least the group's other members, and a node of
    # another group (k_across).
    sizes = [s["group_of_node"].count(g) for g in range(len(s["group_names"]))]
    for node, met in partners.items():
        inside = min(4, sizes[s["group_of_node"][node]] - 1)
        assert len(met) >= min(inside + 1, nodes - 1), (what, node, sorted(met))
    print("ok:", what, n, "figures in", s["rounds"], "rounds,", s["tests"], "tests")
PY
}

run "$work/sqrt.json"
check "$work/sqrt.json" sqrt || fail "the screen's record (ceil(sqrt(n)) groups)"
half=$(((np + 1) / 2))
{
  echo "SwitchName=leafA Nodes=node[1-$half]"
  echo "SwitchName=leafB Nodes=node[$((half + 1))-$np]"
  echo "SwitchName=spine Switches=leafA,leafB"
} >"$work/topo.conf"
run "$work/topo.json" --topology "$work/topo.conf"
check "$work/topo.json" topology || fail "the screen's record (the topology's leaves)"
python3 - "$work/topo.json" "$half" <<'PY' || fail "the leaves are not the groups"
import json, sys
d, half = json.load(open(sys.argv[1])), int(sys.argv[2])
for r in d["records"]:
    if r["case"] == "pair_bw" and r["status"] != "skipped":
        s = r["extra"]["screen"]
        assert s["group_names"] == ["leafA", "leafB"], s["group_names"]
        hosts = [m["host"] for m in r["extra"]["matrix_members"]]
        for host, g in zip(hosts, s["group_of_node"]):
            assert g == (0 if int(host[4:]) <= half else 1), (host, g)
PY
echo "the screen ran across $np emulated nodes, with and without a topology"
