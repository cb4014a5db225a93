#!/usr/bin/env bash
# Runs the real clusterbench under mpirun for one host family and checks the results file.
#   family_test.sh CLUSTERBENCH compute|links|storage NP
#   family_test.sh CLUSTERBENCH storage-refusals|storage-corruption|storage-cleanup
#   family_test.sh CLUSTERBENCH single-process
set -u
bin=$1
what=$2
np=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cb-family-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
python=$(command -v python3)

fail() { echo "FAIL: $*" >&2; exit 1; }

# The file against results/results.schema.json.
validate() { "$python" "$here/../../../ci/validate-results" "$1" || fail "$1 does not match the schema"; }

# mpirun with the flags a root container or a small CI machine needs.
mpi() {
  local n=$1
  shift
  mpirun -np "$n" --oversubscribe --allow-run-as-root "$bin" run "$@"
}

counts() {  # the rank counts the auto sweep visits for np ranks on one node
  local n=1 out=""
  while [ "$n" -lt "$1" ]; do out="$out$n,"; n=$((n * 2)); done
  echo "$out$1"
}

# Expects exit code $1 from the command after it, and (when given) a message on stderr.
expect_exit() {
  local want=$1 pattern=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [ "$got" = "$want" ] || { cat "$work/out" "$work/err"; fail "exit $got, expected $want: $*"; }
  if [ -n "$pattern" ]; then
    grep -q -- "$pattern" "$work/err" || { cat "$work/err"; fail "stderr lacks '$pattern'"; }
  fi
  if [ "$want" = 2 ]; then
    # One line from clusterbench (mpirun adds its own banner about the exit code).
    local lines
    lines=$(grep -c '^clusterbench' "$work/err")
    [ "$lines" = 1 ] || { cat "$work/err"; fail "bad input should say one line, got $lines"; }
  fi
}

# A storage run on one rank that must be refused with exit 2 and a line matching $1.
refuse() {
  local pattern=$1
  shift
  expect_exit 2 "$pattern" mpi 1 --suite storage --quick --out "$work/r.json" "$@"
}

small=(--suite storage --quick --file-bytes 16M --block-sizes 1M --checkpoint-bytes 16M)

case $what in
  compute|links)
    mpi "$np" --suite "$what" --quick --out "$work/r.json" || fail "run exited $?"
    "$python" "$here/check_records.py" "$work/r.json" "$what" "$(counts "$np")" || fail "records"
    validate "$work/r.json"
    ;;
  storage)
    mkdir "$work/dir"
    mpi "$np" "${small[@]}" --storage-dir "$work/dir" --out "$work/r.json" || fail "run exited $?"
    "$python" "$here/check_records.py" "$work/r.json" storage "$(counts "$np")" || fail "records"
    validate "$work/r.json"
    for ((r = 0; r < np; r++)); do
      [ -f "$work/dir/clusterbench-rank$r.dat" ] || fail "rank $r's file is missing"
      [ -f "$work/dir/clusterbench-ckpt$r.dat" ] || fail "rank $r's checkpoint shard is missing"
    done
    ;;
  single-process)
    # Two ranks as threads of one process: no mpirun on PATH, none started, no MPI environment.
    # Compute and storage are measured and checked like an MPI run's; the host's links and
    # collectives are MPI's, so they are skipped with the reason.
    mkdir "$work/nompi" "$work/dir"
    for tool in python3 env; do ln -s "$(command -v $tool)" "$work/nompi/$tool"; done
    PATH=$work/nompi "$bin" run --single-process --np 2 --suite compute,storage,links,collectives \
      --cases copy,triad,fma_peak,seq_read,pair_bw,all_reduce --quick --file-bytes 16M \
      --storage-dir "$work/dir" --out "$work/r.json" >"$work/out" 2>"$work/err" ||
      { cat "$work/out" "$work/err"; fail "single-process run exited non-zero"; }
    grep -q "2 ranks as threads of one process" "$work/err" || { cat "$work/err"; fail "not said"; }
    grep -q "^# collectives all_reduce: skipped: .*--single-process" "$work/out" ||
      { cat "$work/out"; fail "the skipped collective is not said on stdout"; }
    if grep -q "launching" "$work/err"; then cat "$work/err"; fail "mpirun was launched"; fi
    validate "$work/r.json"
    "$python" - "$work/r.json" <<'PY' || fail "records of the single-process run"
import json, sys
results = json.load(open(sys.argv[1]))
assert results["run"]["launcher"] == "single process", results["run"]["launcher"]
assert len(results["run"]["peak_rss_bytes"]) == 2
seen = {}
for r in results["records"]:
    seen.setdefault(r["case"], set()).add(r["gpus"])
    if r["case"] in ("pair_bw", "all_reduce"):  # MPI's on the host: one record says why
        assert r["status"] == "skipped" and "--single-process" in r["reason"], r
        continue
    assert r["status"] in ("ok", "noisy"), r
    assert r["check"] == "pass", r
    assert len(r["per_rank"]) == r["gpus"], r
    assert r["ranks_per_node"] == r["gpus"] and r["nodes"] == 1, r
    if r["case"] in ("copy", "triad"):
        per_call = {"copy": 2, "triad": 3}[r["case"]] * r["params"]["bytes"]
        want = r["gpus"] * per_call / r["stats"]["median_s"] / 1e9
        assert abs(r["metrics"]["gbps"] - want) <= 1e-6 * want, (r["metrics"], want)
assert seen == {"copy": {1, 2}, "triad": {1, 2}, "fma_peak": {1, 2}, "seq_read": {1, 2},
                "pair_bw": {2}, "all_reduce": {2}}, seen
assert sum(r["case"] == "all_reduce" for r in results["records"]) == 1
PY
    for ((r = 0; r < 2; r++)); do
      [ -f "$work/dir/clusterbench-rank$r.dat" ] || fail "rank $r's file is missing"
    done
    # Already a rank of an MPI job: the flag is refused, with one line and exit 2.
    expect_exit 2 "already a rank of" env OMPI_COMM_WORLD_SIZE=2 "$bin" run --single-process \
      --suite compute --out "$work/r2.json"
    # Graph capture with several GPUs per process may deadlock in NCCL: refused before any record.
    expect_exit 2 "^clusterbench run: --cuda-graph: not with --single-process on 2 ranks" \
      "$bin" run --single-process --np 2 --backend host --cuda-graph --suite collectives \
      --out "$work/r3.json"
    [ ! -e "$work/r3.json" ] || fail "a refused --cuda-graph run wrote results"
    ;;
  storage-refusals)
    touch "$work/file"
    mkdir "$work/theirs" "$work/linked" "$work/empty"
    echo data >"$work/theirs/results.csv"
    ln -s /etc/passwd "$work/linked/clusterbench-rank0.dat"
    refuse "does not exist" --storage-dir "$work/none"
    refuse "is not a directory" --storage-dir "$work/file"
    refuse "results.csv" --storage-dir "$work/theirs"
    refuse "symbolic link" --storage-dir "$work/linked"
    refuse "needs" --file-bytes 1048576G --storage-dir "$work/empty"
    refuse "O_DIRECT" --block-sizes 1000 --storage-dir "$work/empty"
    refuse "--block-sizes" --block-sizes 0 --storage-dir "$work/empty"
    refuse "--cases" --cases nope
    refuse "^clusterbench run: --checkpoint-bytes: a checkpoint past 1.0 PiB" \
      --cases checkpoint_write --checkpoint-bytes 2048T --storage-dir "$work/empty"
    refuse "^clusterbench run: --checkpoint-bytes: .* of host memory" \
      --cases checkpoint_stage --checkpoint-bytes 512T --storage-dir "$work/empty"
    refuse "^clusterbench run: --block-sizes: 6K is not a whole number of 4K chunks" \
      --cases checkpoint_read --block-sizes 6K --buffered --storage-dir "$work/empty"
    refuse "results.csv" --cases checkpoint_write --storage-dir "$work/theirs"
    [ -z "$(ls -A "$work/empty")" ] || fail "a refused run wrote files"
    # Launched by clusterbench itself: refused before mpirun starts, so the whole of stderr is
    # one line, and no results file is left behind.
    "$bin" run --np 2 --suite storage --quick --storage-dir "$work/none" --out "$work/self.json" \
      >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" = 2 ] || { cat "$work/out" "$work/err"; fail "self-launched refusal exited $rc"; }
    [ "$(wc -l <"$work/err")" = 1 ] || { cat "$work/err"; fail "self-launched refusal: not one line"; }
    grep -q "does not exist" "$work/err" || { cat "$work/err"; fail "self-launched refusal: wrong line"; }
    [ ! -e "$work/self.json" ] || fail "a refused run left a results file"
    # Under mpirun every rank checks before the results file is opened: none is left either.
    [ ! -e "$work/r.json" ] || fail "a refused run under mpirun left a results file"
    ;;
  storage-corruption)
    mkdir "$work/dir"
    mpi 1 "${small[@]}" --cases seq_read --storage-dir "$work/dir" --out "$work/a.json" \
      >/dev/null 2>&1 || fail "first run"
    # One byte flipped in data chunk 5 (the header stays valid: the file is reused, not rewritten).
    printf '\xff' | dd of="$work/dir/clusterbench-rank0.dat" bs=1 seek=$((4096 + 5 * 4096 + 77)) \
      conv=notrunc status=none
    expect_exit 1 "" mpi 1 "${small[@]}" --cases seq_read,rand_read --storage-dir "$work/dir" \
      --out "$work/b.json"
    "$python" - "$work/b.json" <<'PY' || fail "records of the corrupted run"
import json, sys
records = json.load(open(sys.argv[1]))["records"]
assert len(records) == 2, records
for r in records:
    assert r["check"] == "fail", r
    assert r["status"] in ("ok", "noisy"), r
    assert r["extra"]["bad_blocks"] == 1, r["extra"]
    assert "4 KiB block at byte 24576" in r["reason"], r["reason"]
PY
    # A restore that reads back different bytes fails as wrong data (exit 1); the save rewrites
    # the shard whole, so the next save is right again.
    mpi 1 "${small[@]}" --cases checkpoint_write --storage-dir "$work/dir" --out "$work/c.json" \
      >/dev/null 2>&1 || fail "checkpoint_write run"
    printf '\xff' | dd of="$work/dir/clusterbench-ckpt0.dat" bs=1 seek=$((4096 + 7 * 4096 + 5)) \
      conv=notrunc status=none
    expect_exit 1 "" mpi 1 "${small[@]}" --cases checkpoint_read --storage-dir "$work/dir" \
      --out "$work/d.json"
    mpi 1 "${small[@]}" --cases checkpoint_write --storage-dir "$work/dir" --out "$work/e.json" \
      >/dev/null 2>&1 || fail "checkpoint_write after the corruption"
    "$python" - "$work/d.json" "$work/e.json" <<'PY' || fail "records of the corrupted restore"
import json, sys
restore = json.load(open(sys.argv[1]))["records"]
assert len(restore) == 1 and restore[0]["case"] == "checkpoint_read", restore
r = restore[0]
assert r["check"] == "fail" and r["status"] in ("ok", "noisy"), r
assert r["extra"]["bad_blocks"] == 1, r["extra"]
assert "corrupt 4 KiB block" in r["reason"] and "checksum mismatch" in r["reason"], r["reason"]
save = json.load(open(sys.argv[2]))["records"]
assert [s["check"] for s in save] == ["pass"], save
PY
    ;;
  storage-cleanup)
    mkdir "$work/dir"
    mpi 2 "${small[@]}" --cleanup --storage-dir "$work/dir" --out "$work/r.json" >/dev/null 2>&1 ||
      fail "run"
    [ -z "$(ls -A "$work/dir")" ] || { ls -la "$work/dir"; fail "--cleanup left files"; }
    ;;
  storage-buffered-fallback)
    # ramfs refuses O_DIRECT (EINVAL) and keeps no block count: the reads fall back to buffered
    # ones and say so, and the free-space check is passed over instead of refusing "0 free".
    # Mounting needs root; skip (77) where it is not allowed.
    mkdir "$work/ramfs"
    mount -t ramfs ramfs "$work/ramfs" 2>/dev/null ||
      { echo "SKIP: cannot mount a ramfs here (needs root)"; exit 77; }
    trap 'umount "$work/ramfs" 2>/dev/null; rm -rf "$work"' EXIT
    mpi 2 "${small[@]}" --cases seq_read,rand_read,checkpoint_write,checkpoint_read \
      --storage-dir "$work/ramfs" --out "$work/r.json" >"$work/out" 2>&1 ||
      { cat "$work/out"; fail "run on ramfs exited non-zero"; }
    "$python" - "$work/r.json" <<'PY' || fail "records of the ramfs run"
import json, sys
records = json.load(open(sys.argv[1]))["records"]
assert len(records) == 8, [r["case"] for r in records]
for r in records:
    assert r["check"] == "pass", r
    assert r["extra"]["direct"] is False, r["extra"]
    assert r["params"]["io"] == "buffered", r["params"]
    assert any("refused O_DIRECT (EINVAL)" in n for n in r["extra"]["notes"]), r["extra"]
    assert "refused O_DIRECT" in r["reason"], r["reason"]
    assert r["metrics"]["gbps"] > 0, r["metrics"]
PY
    ;;
  storage-no-room)
    # A 100 MiB filesystem, 2 ranks of 60 MiB files: room for one file but not two. The space is
    # counted for every rank on the node, so the run is refused up front (exit 2, one line) instead
    # of failing mid-run when the second rank's file does not fit. Mounting needs root.
    mkdir "$work/small"
    mount -t tmpfs -o size=100m tmpfs "$work/small" 2>/dev/null ||
      { echo "SKIP: cannot mount a tmpfs here (needs root)"; exit 77; }
    trap 'umount "$work/small" 2>/dev/null; rm -rf "$work"' EXIT
    "$bin" run --np 2 --suite storage --quick --file-bytes 60M --storage-dir "$work/small" \
      --out "$work/r.json" >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" = 2 ] || { cat "$work/out" "$work/err"; fail "exit $rc, expected 2"; }
    [ "$(wc -l <"$work/err")" = 1 ] || { cat "$work/err"; fail "not one line"; }
    grep -q "needs .* free for 2 file(s)" "$work/err" || { cat "$work/err"; fail "wrong line"; }
    [ -z "$(ls -A "$work/small")" ] || fail "a refused run wrote files"
    # A checkpoint larger than the directory's free space: refused before any shard is written.
    "$bin" run --np 2 --suite storage --cases checkpoint_write --quick --checkpoint-bytes 120M \
      --storage-dir "$work/small" --out "$work/r.json" >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" = 2 ] || { cat "$work/out" "$work/err"; fail "checkpoint: exit $rc, expected 2"; }
    [ "$(wc -l <"$work/err")" = 1 ] || { cat "$work/err"; fail "checkpoint: not one line"; }
    grep -q "needs .* free for the checkpoint shards" "$work/err" ||
      { cat "$work/err"; fail "checkpoint: wrong line"; }
    [ -z "$(ls -A "$work/small")" ] || fail "a refused checkpoint run wrote files"
    ;;
  *) fail "unknown test $what" ;;
esac
echo "PASS: $what $np"
