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

# run_on NP GPUS OUT MAX_TIME TARGET_CV [MIN_BYTES STEP]: all_reduce up to 4 MiB (from 1 MiB in
# steps of 2 unless given), out of place, on the emulated cluster.
run_on() {
  timeout 300 "$cluster" run -- "$bin" run --backend host --np "$1" --gpus "$2" --suite collectives \
    --cases all_reduce --placement out --min-bytes "${6:-1M}" --max-bytes 4M --step-factor "${7:-2}" \
    --max-time "$4" --target-cv "$5" --out "$3" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "clusterbench run failed"; }
}

# query FILE EXPR: a python expression over the records list `rs`.
query() {
  python3 - "$1" "$2" <<'PY'
import json, statistics, sys
rs = json.load(open(sys.argv[1]))["records"]
print(eval(sys.argv[2]))
PY
}

# expect_placement FILE WANT WHAT: every data check passed and the (gpus, nodes, tier) set is WANT.
expect_placement() {
  [[ $(query "$1" 'all(r["check"] == "pass" for r in rs)') == True ]] || fail "$3: a data check failed"
  local got
  got=$(query "$1" 'sorted({(r["gpus"], r["nodes"], r["tier"]) for r in rs})')
  [[ $got == "$2" ]] || fail "$3: placement/tier $got, expected $2"
}

# within_rate FILE GBPS WHAT: no inter-node record of 1 MiB or more has a per-node-link figure
# above the shaped rate (5 % allowance for tbf's burst, which smaller messages can ride).
within_rate() {
  local large="r['tier'] == 'inter' and r['params']['bytes'] >= 1048576"
  [[ $(query "$1" "all(r['metrics']['node_link_gbps'] <= $2 * 1.05 for r in rs if $large)") == True ]] ||
    fail "$3: a node link exceeds the shaped rate $2 GB/s: $(query "$1" "[r['metrics']['node_link_gbps'] for r in rs if $large]")"
}

inter() { query "$1" 'statistics.median(r["metrics"]["node_link_gbps"] for r in rs if r["tier"] == "inter")'; }

# Doubling the rate, 2 nodes x 1 rank. One rank per node keeps the 2-core machine's CPUs out of
# the way: there the figure is ~48 % of the rate at 200 and at 400 Mbit alike, run after run. With
# 2 ranks per node (4 ranks busy-polling on 2 cores beside the softirqs that move the packets), a
# sample lands at ~55 % or ~90 % of the rate by chance, and the 400/200 ratio wandered from 1.5 to
# 2.4 between runs.
declare -A link
for rate in 200mbit 400mbit; do
  "$cluster" down >/dev/null 2>&1 || true
  up 2 --rate "$rate"
  run_on 2 1,2 "$work/$rate.json" 2 0.01
  "$cluster" down >/dev/null
  expect_placement "$work/$rate.json" "[(1, 1, 'intra'), (2, 2, 'inter')]" "2x1 at $rate"
  link[$rate]=$(inter "$work/$rate.json")
done
# No --plan-link or --plan-from: the run measured the link for its plan before its sweep, said
# so in the plan's header, and kept it in the results file at no more than the shaped rate.
for rate in 200mbit 400mbit; do
  shaped=$([[ $rate == 200mbit ]] && echo 0.025 || echo 0.05)
  python3 - "$work/$rate.json" "$shaped" <<'PY' || fail "$rate: the plan's link was not calibrated as expected"
import json, sys
link = json.load(open(sys.argv[1]))["run"]["plan"]["model"]["link"]
shaped = float(sys.argv[2]) * 1e9
ok = link["source"].startswith("calibrated by this run: one-way") and \
    0.4 * shaped <= link["bytes_per_s"] <= 1.05 * shaped
print(f"plan link {link['bytes_per_s'] / 1e9:.4f} GB/s (shaped {shaped / 1e9} GB/s): {link['source']}")
sys.exit(0 if ok else 1)
PY
done
within_rate "$work/200mbit.json" 0.025 "2x1 at 200mbit"
within_rate "$work/400mbit.json" 0.05 "2x1 at 400mbit"
echo "inter-node all_reduce per node link: ${link[200mbit]} GB/s at 200mbit, ${link[400mbit]} GB/s at 400mbit"
python3 - "${link[200mbit]}" "${link[400mbit]}" <<'PY'
import sys
low, high = map(float, sys.argv[1:])
ok = 1.6 <= high / low <= 2.4
print(f"ratio 400/200 = {high / low:.3f}" + ("" if ok else ", not 2 +-20%"))
sys.exit(0 if ok else 1)
PY

# 2 nodes x 2 ranks, shared memory inside a node, each node's egress shaped: the sweep goes
# intra-node first, then across; the intra-node figures of the same run stay far above the rate.
# Sizes from 8 bytes, so that `fit` has latency and bandwidth to separate per tier.
up 2 --slots 2 --shm --rate 400mbit
run_on 4 1,2,4 "$work/mixed.json" 1 0.05 8 8
"$cluster" down >/dev/null
expect_placement "$work/mixed.json" "[(1, 1, 'intra'), (2, 1, 'intra'), (4, 2, 'inter')]" "2x2"
within_rate "$work/mixed.json" 0.05 "2x2 at 400mbit"
intra=$(query "$work/mixed.json" 'statistics.median(r["metrics"]["busbw_gbps"] for r in rs if r["gpus"] == 2 and r["params"]["bytes"] >= 1048576)')
echo "intra-node busbw in the same run: $intra GB/s (egress shaped to 0.05 GB/s)"
python3 -c "import sys; sys.exit(0 if $intra > 3 * 0.05 else 1)" ||
  fail "intra-node busbw $intra GB/s looks shaped (<= 3x the rate)"
# The per-tier fit of the ring all-reduce model (alpha + 2(n-1)/n x bytes x beta) on this run: an
# intra-node tier through shared memory and an inter-node tier near the shaped rate.
"$bin" fit "$work/mixed.json" --json >"$work/fits.json" 2>"$work/fit.err" ||
  { cat "$work/fit.err"; fail "clusterbench fit on the emulated run failed"; }
python3 - "$work/fits.json" <<'PY' || fail "per-tier fit"
import json, sys
tiers = {t["tier"]: t for t in json.load(open(sys.argv[1]))["alpha_beta"]["ring_all_reduce"]}
assert set(tiers) == {"intra", "inter"}, f"tiers fitted: {sorted(tiers)}"
intra, inter = tiers["intra"]["bandwidth_gbps"], tiers["inter"]["bandwidth_gbps"]
print(f"ring model per tier: intra {intra:.3f} GB/s (alpha {tiers['intra']['alpha_us']:.1f} us),"
      f" inter {inter:.4f} GB/s (alpha {tiers['inter']['alpha_us']:.1f} us)")
assert intra > 3 * inter, "the two tiers are not told apart"
assert 0.2 * 0.05 <= inter <= 2 * 0.05, f"inter-node bandwidth {inter} GB/s is far from the 0.05 GB/s rate"
PY

# 4 nodes x 1 rank: every count beyond one crosses nodes.
up 4 --rate 400mbit
run_on 4 auto "$work/four.json" 1 0.05
"$cluster" down >/dev/null
expect_placement "$work/four.json" "[(1, 1, 'intra'), (2, 2, 'inter'), (4, 4, 'inter')]" "4x1"
within_rate "$work/four.json" 0.05 "4x1 at 400mbit"
echo "PASS"
