#!/usr/bin/env bash
# kill -9 of `clusterbench run` (the launcher) or of the mpirun it started, at random moments of a
# 2-rank run: within 10 s no process of the run is left (launcher, mpirun, ranks); the run did not
# go on to its end (its last 12 records take about 3.6 s, the kill comes before them: a target cv
# no record reaches keeps each at its 0.3 s cap, where records that converge or settle early
# left the tail under the time it takes to see the kill; the quick sizes without --quick, whose
# fixed windows would end each record at 0.03 s); and the
# results file, where there is one, is a valid file holding at least the records it held before
# the kill, each complete (the binary's own loader reads it), with no temporary file beside it.
#   kill_launcher.sh CLUSTERBENCH launcher|mpirun [TRIALS]
# The moments come from a seed, printed; KILL_SEED=N repeats a run's moments.
set -uo pipefail
bin=$1
target=$2
trials=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
validate="$here/../../../ci/validate-results"
work=$(mktemp -d)
cleanup() {
  local pids
  pids=$(pgrep -f -- "$work/")
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED \
  CLUSTERBENCH_LAUNCHER; do
  unset "$v"
done
seed=${KILL_SEED:-$(( $(date +%s%N) % 32768 ))}
RANDOM=$seed
echo "kill -9 of the $target at random moments: $trials trials, seed $seed (KILL_SEED=$seed repeats them)"

# Records in a results file: one line each, `  {"`. Cheap enough to poll.
count() {
  local n
  n=$(grep -c '^  {"' "$1" 2>/dev/null)
  echo "${n:-0}"
}
records() {
  python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"]))' "$1" \
    2>/dev/null || echo 0
}

fail=0
for trial in $(seq 1 "$trials"); do
  dir="$work/t$trial"
  mkdir "$dir"
  out="$dir/r.json"
  # A moment of the run, whatever this machine's speed: after K < 16 of its 28 records (K = 0:
  # from before mpirun is started on), then a further 0-0.3 s (0-0.6 s for K = 0).
  after_records=$(( RANDOM % 16 ))
  extra_ms=$(( RANDOM % (after_records == 0 ? 600 : 300) ))
  extra=$(printf '%d.%03d' $((extra_ms / 1000)) $((extra_ms % 1000)))
  "$bin" run --np 2 --suite collectives --cases all_reduce --gpus 1,2 --max-bytes 2M --step-factor 8 \
    --target-cv 0.0001 --max-time 0.3 --out "$out" \
    >"$dir/out" 2>"$dir/err" &
  launcher=$!
  victim=$launcher
  if [ "$target" = mpirun ]; then
    victim=""
    for _ in $(seq 1 500); do
      victim=$(pgrep -P "$launcher" -x mpirun) && break
      kill -0 "$launcher" 2>/dev/null || break
      sleep 0.02
    done
    [ -n "$victim" ] || { echo "FAIL trial $trial: mpirun never started"; cat "$dir/err"; fail=1; continue; }
  fi
  for _ in $(seq 1 1500); do
    [ "$(count "$out")" -ge "$after_records" ] && break
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.02
  done
  sleep "$extra"
  before=$(records "$out")
  killed=1
  kill -9 "$victim" 2>/dev/null || { killed=0; echo "  (the run had ended before the kill)"; }
  wait "$launcher" 2>/dev/null
  rc=$?
  left=""
  for _ in $(seq 1 100); do
    left=$(pgrep -f -- "$out")
    [ -z "$left" ] && break
    sleep 0.1
  done
  what="trial $trial: kill -9 $target ${extra}s after record $after_records"
  if [ -n "$left" ]; then
    echo "FAIL $what: still running 10 s later:"
    ps -o pid,ppid,stat,etime,args -p "$(echo $left | tr ' ' ,)"
    kill -9 $left 2>/dev/null
    fail=1
  fi
  # Killed mpirun: the launcher says so and exits 3 (0 when the run had already finished).
  if [ "$target" = mpirun ] && [ "$rc" != 3 ] && [ "$rc" != 0 ]; then
    echo "FAIL $what: the launcher exited $rc, expected 3"
    fail=1
  fi
  if ls -A "$dir" | grep -q '\.tmp-'; then
    echo "FAIL $what: a temporary file was left: $(ls -A "$dir" | grep '\.tmp-')"
    fail=1
  fi
  after=0
  if [ -e "$out" ]; then
    "$validate" "$out" || { echo "FAIL $what: invalid results file"; fail=1; }
    after=$(records "$out")
    [ "$after" -ge "$before" ] || { echo "FAIL $what: $before records before, $after after"; fail=1; }
    finished=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["finished"])' "$out")
    if [ "$killed" = 1 ] && [ "$finished" != None ]; then
      echo "FAIL $what: the ranks ran on to the end of the sweep (finished $finished)"
      fail=1
    fi
    if [ "$after" -gt 0 ]; then
      # Every record read back by the binary's own loader (judged against itself: exit 0).
      "$bin" check --baseline "$out" "$out" --allow-inconclusive >/dev/null 2>"$dir/check" ||
        { echo "FAIL $what: clusterbench check: $(cat "$dir/check")"; fail=1; }
    fi
  fi
  echo "$what: launcher exit $rc, $after records kept ($before before the kill), nothing left running"
done
[ "$fail" = 0 ] || { echo "seed $seed"; exit 1; }
