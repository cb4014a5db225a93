#!/usr/bin/env bash
# The workload family end to end: the real clusterbench under mpirun.
#   workload_test.sh CLUSTERBENCH steps NP   records at every count, parts adding up, checks pass
#   workload_test.sh CLUSTERBENCH input      with input read from a storage directory, then one
#                                            of its blocks corrupted: check fail, exit 1
#   workload_test.sh CLUSTERBENCH refusals   bad flags: one line naming the flag, exit 2, no file
set -u
bin=$1
what=$2
np=${3:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-workload-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
python=$(command -v python3)

fail() { echo "FAIL: $*" >&2; exit 1; }

mpi() {
  local n=$1
  shift
  mpirun -np "$n" --oversubscribe --allow-run-as-root "$bin" run --suite workload "$@"
}

# A small model so that a step takes tens of milliseconds here.
small=(--quick --model-params 2M --tokens-per-gpu 128 --bucket-bytes 1M)

# The records: one per count, parts within 5 % of the step, checks passed, E(N) and utilization
# as defined, input waited for only when input is read.
check() {
  "$python" - "$1" "$2" "$3" <<'PY'
import json, sys
path, counts, input_bytes = sys.argv[1], [int(c) for c in sys.argv[2].split(",")], int(sys.argv[3])
records = [r for r in json.load(open(path))["records"] if r["suite"] == "workload"]
problems = []
# One record per count for each instance (bucket size, overlap); E(N) within an instance.
instances = {}
for r in records:
    instances.setdefault(json.dumps(r["params"], sort_keys=True), []).append(r)
for key, rs in instances.items():
    if sorted(r["gpus"] for r in rs) != counts:
        problems.append(f"{key}: records at {[r['gpus'] for r in rs]}, expected {counts}")
step1 = {}
for r in sorted(records, key=lambda r: r["gpus"]):
    key = json.dumps(r["params"], sort_keys=True)
    m, g = r["metrics"], r["gpus"]
    if r["status"] not in ("ok", "noisy") or r["check"] != "pass":
        problems.append(f"{g} GPUs: status {r['status']} check {r['check']} ({r.get('reason')})")
        continue
    parts = m["compute_s"] + m["exposed_comm_s"] + m["input_wait_s"]
    if abs(parts - m["step_s"]) > 0.05 * m["step_s"]:
        problems.append(f"{g} GPUs: parts {parts} vs step {m['step_s']}")
    # The GEMM rate leaves the optimizer update out: it is within compute and takes time.
    gemm_s = m["compute_s"] - m["update_s"]
    if not 0 < m["update_s"] < m["compute_s"]:
        problems.append(f"{g} GPUs: update_s {m['update_s']} not within compute {m['compute_s']}")
    elif abs(m["gemm_gflops_per_gpu"] - r["extra"]["flops_per_step"] / gemm_s / 1e9) > \
            1e-9 * m["gemm_gflops_per_gpu"]:
        problems.append(f"{g} GPUs: gemm_gflops_per_gpu is not 6PT / (compute - update)")
    if abs(m["utilization"] - m["compute_s"] / m["step_s"]) > 1e-9:
        problems.append(f"{g} GPUs: utilization is not compute / step")
    if abs(m["slowest_rank_step_s"] - r["stats"]["median_s"]) > 1e-12:
        problems.append(f"{g} GPUs: slowest_rank_step_s is not the median of the samples")
    if m["step_s"] > m["slowest_rank_step_s"] * (1 + 1e-9):
        problems.append(f"{g} GPUs: the critical rank's step is longer than the slowest's")
    if len(r["per_rank"]) != g or any("exposed_comm_s" not in p for p in r["per_rank"]):
        problems.append(f"{g} GPUs: per_rank lacks the parts")
    if g == 1:
        step1[key] = m["step_s"]
    elif key in step1 and abs(m["efficiency"] - step1[key] / m["step_s"]) > 1e-9:
        problems.append(f"{g} GPUs: efficiency is not step(1) / step(N) of the same instance")
    if g > 1 and r["extra"]["gradient_values_checked"] <= 0:
        problems.append(f"{g} GPUs: no all-reduced gradient value checked")
    if input_bytes == 0 and m["input_wait_s"] != 0:
        problems.append(f"{g} GPUs: input wait without input")
    if input_bytes > 0 and r["extra"].get("input_chunks_checked", 0) <= 0:
        problems.append(f"{g} GPUs: no input checked")
    if r["extra"]["largest_loss"] not in ("none", "exposed_comm", "input_wait", "unaccounted"):
        problems.append(f"{g} GPUs: largest_loss {r['extra']['largest_loss']}")
    # The buckets the report's all-reduce timeline needs: sizes adding up to the gradients,
    # each completed by a share of backward's compute that never falls.
    sizes, shares = r["extra"].get("bucket_sizes", []), r["extra"].get("bucket_ready_share", [])
    if not sizes or len(sizes) != len(shares) or abs(sum(sizes) - r["extra"]["gradient_bytes"]) > 0.5:
        problems.append(f"{g} GPUs: bucket_sizes {sizes} / shares {shares} do not describe the gradients")
    elif any(not 0 < s <= 1 for s in shares) or shares != sorted(shares):
        problems.append(f"{g} GPUs: bucket_ready_share {shares} not rising within (0, 1]")
    if not 0 < m["backward_s"] <= m["compute_s"]:
        problems.append(f"{g} GPUs: backward_s {m['backward_s']} outside (0, compute_s]")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

counts() {
  local n=1 out=""
  while [ "$n" -lt "$1" ]; do out="$out$n,"; n=$((n * 2)); done
  echo "$out$1"
}

refuse() {  # refuse PATTERN FLAGS...: exit 2, one clusterbench line matching, no results file
  local pattern=$1
  shift
  mpi 1 "${small[@]}" --out "$work/refused.json" "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [ "$got" = 2 ] || { cat "$work/out" "$work/err"; fail "exit $got, expected 2: $*"; }
  grep -q -- "$pattern" "$work/err" || { cat "$work/err"; fail "stderr lacks '$pattern': $*"; }
  [ "$(grep -c '^clusterbench' "$work/err")" = 1 ] || { cat "$work/err"; fail "not one line: $*"; }
  [ ! -e "$work/refused.json" ] || fail "a results file was written for: $*"
}

case $what in
  steps)
    # Both overlap modes: two instances, each with its own E(N).
    mpi "$np" "${small[@]}" --overlap on,off --out "$work/r.json" || fail "run exited $?"
    check "$work/r.json" "$(counts "$np")" 0 || fail "records"
    "$python" "$(dirname "$0")/../../../ci/validate-results" "$work/r.json" || fail "schema"
    ;;
  input)
    mkdir "$work/dir"
    flags=(--storage-dir "$work/dir" --file-bytes 8M --input-bytes-per-step 1M)
    mpi 2 "${small[@]}" "${flags[@]}" --out "$work/r.json" || fail "run exited $?"
    check "$work/r.json" 1,2 1048576 || fail "records"
    # One byte of rank 1's data changed: its loader finds it, the record fails its check, exit 1,
    # and the 1-GPU record (rank 0 only) is kept as it was.
    printf 'Z' | dd of="$work/dir/clusterbench-rank1.dat" bs=1 seek=$((4096 + 100)) conv=notrunc \
      status=none
    mpi 2 "${small[@]}" "${flags[@]}" --out "$work/bad.json" >"$work/out" 2>&1
    rc=$?
    [ "$rc" = 1 ] || { cat "$work/out"; fail "corrupt input: exit $rc, expected 1"; }
    "$python" - "$work/bad.json" <<'PY' || fail "corrupt input records"
import json, sys
rs = {r["gpus"]: r for r in json.load(open(sys.argv[1]))["records"]}
assert rs[1]["check"] == "pass", rs[1]
assert rs[2]["check"] == "fail" and "corrupt input" in rs[2]["reason"], rs[2]
PY
    ;;
  refusals)
    refuse "--bucket-bytes" --bucket-bytes 0
    refuse "--prefetch" --prefetch 0
    refuse "--overlap" --overlap maybe
    refuse "--model-params" --model-params 1e12
    refuse "--bucket-bytes" --bucket-bytes 4
    mkdir "$work/dir"
    refuse "--input-bytes-per-step" --storage-dir "$work/dir" --input-bytes-per-step 100T
    ;;
  *)
    fail "unknown check $what"
    ;;
esac
echo PASS
