#!/usr/bin/env bash
# The training step's input disk fails mid-run: the storage directory is a FUSE filesystem
# (failing_fs.py) whose data reads return EIO from the moment this script creates its trigger,
# just after the 1-GPU record is on disk. The 2-GPU record fails with the read error as its
# reason, the run exits 1, and the finished 1-GPU record is kept in a valid results file.
# Needs root, /dev/fuse and python3-fusepy (ci/install-deps); skips (77) without them.
#   read_error_mid_step.sh CLUSTERBENCH
set -uo pipefail
bin=$1
source "$(dirname "$0")/fuse_disk.sh"
mount_failing_disk "$work/trigger"

"$bin" run --np 2 --suite workload --quick --input-bytes-per-step 4M \
  --storage-dir "$work/mnt" --out "$work/r.json" >"$work/out" 2>"$work/err" &
run=$!
records() {
  python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"]))' "$1" \
    2>/dev/null || echo 0
}
for _ in $(seq 1 1200); do
  [ "$(records "$work/r.json")" -ge 1 ] && break
  kill -0 "$run" 2>/dev/null || break
  sleep 0.05
done
touch "$work/trigger"
wait "$run"
rc=$?

fail=0
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1 (a storage read that failed mid-run)"; fail=1; }
"$here/../../../ci/validate-results" "$work/r.json" || fail=1
python3 - "$work/r.json" <<'EOF' || fail=1
import json, sys
records = json.load(open(sys.argv[1]))["records"]
steps = [r for r in records if r["case"] == "data_parallel_step"]
by_gpus = {r["gpus"]: r for r in steps}
problems = []
if sorted(by_gpus) != [1, 2]:
    problems.append(f"records at {sorted(by_gpus)} GPUs, expected 1 and 2")
else:
    first, second = by_gpus[1], by_gpus[2]
    if first["status"] not in ("ok", "noisy"):
        problems.append(f"the 1-GPU record, finished before the disk failed, is {first['status']}")
    if second["status"] != "failed":
        problems.append(f"the 2-GPU record is {second['status']}, expected failed")
    reason = json.dumps(second)
    if "Input/output error" not in reason or "read" not in reason:
        problems.append("the 2-GPU record does not give the read error as its reason: "
                        f"{second.get('reason', '')!r}")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
EOF
[ "$fail" = 0 ] || { tail -5 "$work/out"; tail -5 "$work/err"; exit 1; }
echo "input disk failed after the 1-GPU record: exit 1, the 2-GPU record failed with its read error, the 1-GPU record kept"
