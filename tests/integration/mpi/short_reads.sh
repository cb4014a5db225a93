#!/usr/bin/env bash
# Short reads are not errors: the storage directory is a FUSE filesystem (failing_fs.py
# --max-read) whose every read returns at most 64 KiB without an error, as FUSE and network
# filesystems may. The storage suite and the training step's loader read their blocks whole,
# continuing each short read (io_uring and pread alike), and their data checks pass.
# Needs root, /dev/fuse and python3-fusepy (ci/install-deps); skips (77) without them.
#   short_reads.sh CLUSTERBENCH
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root to mount a FUSE filesystem"
[ -c /dev/fuse ] || skip "no /dev/fuse"
/usr/bin/python3 -c 'import fusepy' 2>/dev/null || skip "python3-fusepy is not installed"

work=$(mktemp -d)
mkdir "$work/backing" "$work/mnt"
fs_pid=
cleanup() {
  mountpoint -q "$work/mnt" && umount "$work/mnt"
  [ -n "$fs_pid" ] && kill "$fs_pid" 2>/dev/null
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi # KEEP_WORK=1: debug
}
trap cleanup EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do
  unset "$v"
done

/usr/bin/python3 "$here/failing_fs.py" "$work/backing" "$work/mnt" "$work/never" \
  --max-read 65536 >"$work/fs.log" 2>&1 &
fs_pid=$!
for _ in $(seq 1 100); do
  mountpoint -q "$work/mnt" && break
  sleep 0.1
done
mountpoint -q "$work/mnt" || { echo "FAIL: the FUSE filesystem did not mount"; cat "$work/fs.log"; exit 1; }

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
