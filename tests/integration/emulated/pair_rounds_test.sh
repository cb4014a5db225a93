#!/usr/bin/env bash
# The pair tests on 6 emulated nodes, one rank each (ci/emulated-cluster): the node pairs run in 5
# round-robin rounds, every pair once and no node twice in a round; with cbnode3 shaped to a third
# of the others' rate, `clusterbench qualify` names exactly that node (kind node) and FAILs the
# fleet, with ring_bw (its rank 4 receives from cbnode3 and looks slow: evidence against cbnode3's
# egress, never cbnode4 alone) and an all_reduce beside the pairs; with every node at the same rate
# it names none and PASSes. pair_latency is left out: on these CPU-shared nodes it measures the
# scheduler (a node at 4x with every partner in one run of four, which its own second pass names).
#   pair_rounds_test.sh CLUSTERBENCH
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail
bin=$1
source "$(dirname "$0")/pair_lib.sh"

# The schedule in the records: 5 inter-node rounds, every node pair once per direction, no rank
# twice in a (sub-)round, the two directions of a one-way pair in the same round.
check_schedule() {
  python3 - "$1" <<'PY' || fail "schedule"
import collections, json, sys
every = json.load(open(sys.argv[1]))["records"]
assert any(r["case"] == "ring_bw" for r in every), "no ring_bw record"
records = [r for r in every if r["suite"] == "links" and r["case"] == "pair_bw"]
assert len(records) == 2, [r["case"] for r in records]
for r in records:
    x, d = r["extra"], r["params"]["direction"]
    assert x["schedule"] == "rounds" and x["rounds_by_tier"] == {"intra": 0, "inter": 5}, x["rounds_by_tier"]
    assert x["matrix_of"] == "nodes" and len(x["matrix"]) == 6, x["matrix_of"]
    entries = x["pair_rounds"]
    pairs = collections.Counter((s, t) for s, t, _ in entries)
    want = {(a, b) for a in range(6) for b in range(6) if a != b} if d == "uni" else \
        {(a, b) for a in range(6) for b in range(a + 1, 6)}
    assert set(pairs) == want and all(c == 1 for c in pairs.values()), pairs
    by_round = collections.defaultdict(list)
    for s, t, rnd in entries:
        by_round[(rnd, s < t)].append((s, t))
    for key, ps in by_round.items():
        ranks = [m for p in ps for m in p]
        assert len(ranks) == len(set(ranks)) == 6, (key, ps)
    rounds = {rnd for _, _, rnd in entries}
    assert rounds == set(range(5)), rounds
    print(f"pair_bw {d}: 5 rounds of 3 node pairs" + (" (two sub-rounds each)" if d == "uni" else "") +
          f", {len(entries)} pairs once each; matrix GB/s:")
    for row in x["matrix"]:
        print("   " + " ".join("    -  " if v is None else f"{v:7.4f}" for v in row))
    sp = x["second_pass"]
    if d == "bi":
        assert sp["judged"] is False and sp["verdicts"] == [], sp
        print("  second pass: not judged (" + sp["why"].split(":")[0] + ")")
        continue
    print(f"  second pass: reference {sp['reference']:.4f} GB/s, {len(sp['suspect_pairs'])} suspect pairs,"
          f" {len(sp['end_retests'])} end retests, {len(sp['pair_retests'])} pair retests,"
          f" verdicts {[(v['kind'], v.get('host', v.get('hosts'))) for v in sp['verdicts']]}")
PY
}

# With all_reduce beside the pairs: a collective's per-rank figures name the ranks that waited
# for cbnode3 (its ring successor slowest), so they must not join the fleet; only its straggler
# rule may speak of them, and it warns.
up 6 --rate 400mbit --rate-of 3=133mbit
run_pairs "$work/slow.json" 6 links,collectives pair_bw,ring_bw,all_reduce
"$cluster" down >/dev/null
check_schedule "$work/slow.json"
got=$(qualify_named "$work/slow.json")
echo "one node at a third of the rate: qualify says $got; stragglers it warns of:"
sed 's/^/  /' "$work/stragglers"
[[ $got == "FAIL | node cbnode3" ]] || fail "expected the fleet to FAIL naming node cbnode3 alone, got: $got"
"$bin" qualify "$work/slow.json" --spec host-cpu >"$work/q.txt" || true
grep -E '^  node: node cbnode3' "$work/q.txt" || fail "the text report does not name node cbnode3"

up 6 --rate 400mbit
run_pairs "$work/even.json" 6 links pair_bw,ring_bw
"$cluster" down >/dev/null
check_schedule "$work/even.json"
got=$(qualify_named "$work/even.json")
echo "every node at the same rate: qualify says $got"
# No culprit and a passing fleet; the pair tests' own second-pass notes (pair_latency's on these
# CPU-bound nodes can see a split in noise) warn and are printed, not judged here.
[[ $got == "PASS | " || $got == "PASS |  | notes: "* ]] ||
  fail "expected no culprit and a passing fleet, got: $got"

# A node dropping out in the rounds: cbnode4's rank is killed once the first record is written.
# The run ends with exit 3, the finished record stays, and the pairs never measured are named.
up 6 --rate 400mbit
rc=0
timeout 400 "$cluster" run -- "$bin" run --backend host --np 6 --quick --max-time 0.5 \
  --suite links --cases pair_bw --out "$work/drop.json" >"$work/drop.log" 2>&1 &
runner=$!
for _ in $(seq 120); do
  sleep 1
  python3 -c "import json,sys; sys.exit(0 if json.load(open('$work/drop.json'))['records'] else 1)" \
    2>/dev/null && break
done
sleep 2
for pid in $(ip netns pids cbnode4); do
  # The rank itself, not the node's MPI daemon.
  [[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == "$bin run "* ]] && kill -KILL "$pid"
done
wait "$runner" || rc=$?
"$cluster" down >/dev/null
[[ $rc -eq 3 ]] || { cat "$work/drop.log"; fail "a node dropping out: exit $rc, expected 3"; }
grep -E 'stopped in inter round [0-9]+ of 5; [0-9]+ of 15 node pairs not measured' "$work/drop.log" ||
  { cat "$work/drop.log"; fail "the missing pairs are not said"; }
[[ $(python3 -c "import json; print(len(json.load(open('$work/drop.json'))['records']))") -ge 1 ]] ||
  fail "the finished record was not kept"
python3 -c "import json; print(len(json.load(open('$work/drop.json.pairs-progress.json'))['missing_node_pairs']), 'missing node pairs listed')"
echo "PASS"
