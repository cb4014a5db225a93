#!/usr/bin/env bash
# A --storage-dir that every node sees as one (a parallel filesystem): the emulated nodes share
# this machine's filesystem, and the directory is a 40 MiB tmpfs. Each node's files (16 MiB and a
# header) fit alone, so each node's own check passes; three nodes' files do not fit together,
# and the run is refused before anything is written (exit 2, one line naming the directory and
# the node count), with no probe left behind. Two nodes' files fit, and that run measures.
#   shared_storage_test.sh CLUSTERBENCH
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces, no tmpfs).
set -euo pipefail
bin=$1
source "$(dirname "$0")/pair_lib.sh"

shared=$work/shared
mkdir "$shared"
mount -t tmpfs -o size=40m cb-shared "$shared" 2>/dev/null || { echo "cannot mount a tmpfs; skipping"; exit 77; }
trap 'umount "$shared" 2>/dev/null || true; "$cluster" down >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

run_storage() { # NP OUT: the storage family's sequential reads on NP nodes, into the shared dir
  timeout 300 "$cluster" run -- "$bin" run --backend host --np "$1" --quick --max-time 0.5 \
    --suite storage --cases seq_read --file-bytes 16M --storage-dir "$shared" --out "$2"
}

up 3 --rate 1gbit
rc=0
run_storage 3 "$work/three.json" >"$work/three.log" 2>&1 || rc=$?
cat "$work/three.log"
[[ $rc -eq 2 ]] || fail "three nodes on a 40 MiB shared directory: exit $rc, expected 2"
grep -q "^clusterbench run: --storage-dir: '$shared' is one directory shared by 3 nodes, whose 3 file(s) of 16.0 MiB need 48.0 MiB free in all; it has" "$work/three.log" ||
  fail "the refusal does not name the directory and its three nodes"
[[ -z $(ls -A "$shared") ]] || { ls -la "$shared"; fail "something was left in the directory"; }
[[ ! -e $work/three.json ]] || fail "a results file was written for a run that was refused"

rc=0
run_storage 2 "$work/two.json" >"$work/two.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { cat "$work/two.log"; fail "two nodes on a 40 MiB shared directory: exit $rc"; }
python3 - "$work/two.json" <<'PY' || fail "the two-node run"
import json, sys
records = json.load(open(sys.argv[1]))["records"]
ok = [r for r in records if r["suite"] == "storage" and r["status"] in ("ok", "noisy") and r["nodes"] == 2]
assert ok, [(r["case"], r["status"], r.get("reason")) for r in records]
print(f"two nodes fit: {len(ok)} storage records at 2 nodes")
PY
echo "PASS"
