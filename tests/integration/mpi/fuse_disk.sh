# shellcheck shell=bash
# Shared by the tests on a FUSE disk (sourced after `bin=CLUSTERBENCH`): skips (77) without root,
# /dev/fuse or python3-fusepy; sets $here and $work (a scratch directory with backing/ and mnt/),
# clears the launcher's environment, and unmounts and removes it all on exit (KEEP_WORK=1 keeps
# $work, for debugging).
#   mount_failing_disk TRIGGER [failing_fs.py flags...]   mounts $work/mnt, or exits 1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
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
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do
  unset "$v"
done

mount_failing_disk() {
  local trigger=$1
  shift
  /usr/bin/python3 "$here/failing_fs.py" "$work/backing" "$work/mnt" "$trigger" "$@" \
    >"$work/fs.log" 2>&1 &
  fs_pid=$!
  for _ in $(seq 1 100); do
    mountpoint -q "$work/mnt" && return 0
    sleep 0.1
  done
  echo "FAIL: the FUSE filesystem did not mount"
  cat "$work/fs.log"
  exit 1
}
