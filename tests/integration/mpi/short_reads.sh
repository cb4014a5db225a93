#!/usr/bin/env bash
# Short reads are not errors: the storage directory is a FUSE filesystem (failing_fs.py
# --max-read) whose every read returns at most 64 KiB without an error, as FUSE and network
# filesystems may. The storage suite and the training step's loader read their blocks whole,
# continuing each short read (io_uring and pread alike), and their data checks pass.
# Needs root, /dev/fuse and python3-fusepy (ci/install-deps); skips (77) without them.
#   short_reads.sh CLUSTERBENCH
set -uo pipefail
bin=$1
source "$(dirname "$0")/fuse_disk.sh"
mount_failing_disk "$work/never" --max-read 65536

fail=0
for suite in storage workload; do
  extra=()
  [ "$suite" = workload ] && extra=(--input-bytes-per-step 1M)
  rc=0
  timeout 150 "$bin" run --np 1 --suite "$suite" --quick --storage-dir "$work/mnt" \
    "${extra[@]}" --out "$work/$suite.json" >"$work/$suite.out" 2>"$work/$suite.err" || rc=$?
  [ "$rc" = 0 ] || { echo "FAIL: $suite: exit $rc"; tail -5 "$work/$suite.err"; fail=1; }
  python3 - "$work/$suite.json" "$suite" <<'PY' || fail=1
import json, sys
records = json.load(open(sys.argv[1]))["records"]
read = [r for r in records if r["status"] != "skipped"]
bad = [f"{r['case']}: {r['status']} ({r.get('reason', '')})" for r in read
       if r["status"] not in ("ok", "noisy") or r.get("check") == "fail"]
if not read or bad:
    print(f"FAIL: {sys.argv[2]}: " + ("; ".join(bad) if bad else "no record read anything"))
    sys.exit(1)
print(f"{sys.argv[2]}: {len(read)} records read through 64 KiB short reads, data checks passed")
PY
done
exit "$fail"
