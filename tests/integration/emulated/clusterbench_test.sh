#!/usr/bin/env bash
# `clusterbench run` across emulated nodes (ci/emulated-cluster): the collectives run across nodes
# with data checks passing, records across nodes are tagged inter, and the measurement tracks the
# network: inter-node busbw at >= 1 MiB never exceeds the shaped rate, doubling the rate doubles
# it (within +-20 %), and intra-node figures in the same run are unaffected by the shaping.
#   clusterbench_test.sh CLUSTERBENCH
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail
bin=$1
cluster=$(cd "$(dirname "$0")/../../.." && pwd)/ci/emulated-cluster
work=$(mktemp -d)
trap '"$cluster" down >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
up() { local rc=0; "$cluster" up "$@" >/dev/null || rc=$?; [[ $rc -eq 0 ]] || exit "$rc"; }

# run_on NP GPUS OUT: all_reduce at 1..4 MiB, out of place, on the emulated cluster.
run_on() {
  timeout 300 "$cluster" run -- "$bin" run --backend host --np "$1" --gpus "$2" --suite collectives \
    --cases all_reduce --placement out --min-bytes 1M --max-bytes 4M --max-time 1 --target-cv 0.05 \
    --out "$3" >"$work/log" 2>&1 || { cat "$work/log"; fail "clusterbench run failed"; }
}

# query FILE EXPR: a python expression over the records list `rs`.
query() {
  python3 - "$1" "$2" <<'PY'
import json, statistics, sys
rs = json.load(open(sys.argv[1]))["records"]
print(eval(sys.argv[2]))
PY
}

# 2 nodes x 2 ranks, shared memory inside a node, each node's egress shaped.
for rate in 200mbit 400mbit; do
  "$cluster" down >/dev/null 2>&1 || true
  up 2 --slots 2 --shm --rate "$rate"
  run_on 4 1,2,4 "$work/$rate.json"
  "$cluster" down >/dev/null
  f=$work/$rate.json
  [[ $(query "$f" 'all(r["check"] == "pass" for r in rs)') == True ]] || fail "$rate: a data check failed"
  [[ $(query "$f" 'sorted({(r["gpus"], r["nodes"], r["tier"]) for r in rs})') == \
     "[(1, 1, 'intra'), (2, 1, 'intra'), (4, 2, 'inter')]" ]] || fail "$rate: placement/tier wrong: $(query "$f" 'sorted({(r["gpus"], r["nodes"], r["tier"]) for r in rs})')"
done
rate_gbps() { python3 -c "print({'200mbit': 0.025, '400mbit': 0.05}['$1'])"; }
inter() { query "$1" 'statistics.median(r["metrics"]["node_link_gbps"] for r in rs if r["tier"] == "inter")'; }
intra() { query "$1" 'statistics.median(r["metrics"]["busbw_gbps"] for r in rs if r["gpus"] == 2)'; }
low=$(inter "$work/200mbit.json"); high=$(inter "$work/400mbit.json")
echo "inter-node all_reduce per node link: $low GB/s at 200mbit, $high GB/s at 400mbit"
echo "intra-node busbw in the same runs: $(intra "$work/200mbit.json") and $(intra "$work/400mbit.json") GB/s"
python3 - "$low" "$high" "$(intra "$work/200mbit.json")" "$(intra "$work/400mbit.json")" <<'PY'
import sys
low, high, intra_low, intra_high = map(float, sys.argv[1:])
problems = []
if low > 0.025 * 1.05: problems.append(f"200mbit: {low} GB/s exceeds the shaped rate 0.025")
if high > 0.05 * 1.05: problems.append(f"400mbit: {high} GB/s exceeds the shaped rate 0.05")
if not 1.6 <= high / low <= 2.4: problems.append(f"doubling the rate gave x{high / low:.2f}, not 2 +-20%")
for v in (intra_low, intra_high):
    if v < 3 * 0.05: problems.append(f"intra-node busbw {v} GB/s looks shaped (<= 3x the rate)")
print("\n".join(problems) or f"ratio 400/200 = {high / low:.3f}")
sys.exit(1 if problems else 0)
PY

# 4 nodes x 1 rank: every count beyond one crosses nodes.
up 4 --rate 400mbit
run_on 4 auto "$work/four.json"
"$cluster" down >/dev/null
[[ $(query "$work/four.json" 'all(r["check"] == "pass" for r in rs)') == True ]] || fail "4 nodes: a data check failed"
[[ $(query "$work/four.json" 'sorted({(r["gpus"], r["nodes"], r["tier"]) for r in rs})') == \
   "[(1, 1, 'intra'), (2, 2, 'inter'), (4, 4, 'inter')]" ]] || fail "4 nodes: placement/tier wrong"
[[ $(query "$work/four.json" 'all(r["metrics"]["node_link_gbps"] <= 0.05 * 1.05 for r in rs if r["tier"] == "inter")') == True ]] \
  || fail "4 nodes: a node link exceeds the shaped rate"
echo "PASS"
