#!/usr/bin/env bash
# One rank of a job under mpirun dies (kill -9) or stops (SIGSTOP, with --timeout): the run ends
# with exit 3 within --timeout + 10 s, the results file is valid and holds every finished record,
# and no rank is left running. `end`: the rank stops once every record is written, on its way
# out of the job (the launcher waits --timeout for it, then ends mpirun).
#   kill_one_rank.sh CLUSTERBENCH kill|stop|end
set -uo pipefail
bin=$1
mode=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do
  unset "$v"
done
timeout_s=10
# The quick sizes without --quick: a record samples at least 0.1 s, so the job is still in its
# sweep when the rank stops (the quick profile's 0.03 s windows end the sweep in under a second).
# `end` caps each record at 0.2 s: the whole job takes a few seconds.
cap=()
[ "$mode" = end ] && cap=(--max-time 0.2)
all_records=14

# The rank processes: the ones whose environment names a world rank and whose command line
# names this run's results file.
rank_pid() {
  local want=$1 pid
  for pid in $(pgrep -f -- "$work/r.json"); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$want"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}
records() {
  python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"]))' "$1" \
    2>/dev/null || echo 0
}
wait_for_records() {
  for _ in $(seq 1 3000); do
    local n
    n=$(grep -c '^  {"' "$work/r.json" 2>/dev/null)
    [ "${n:-0}" -ge "$1" ] && return 0
    sleep 0.01
  done
  return 1
}

# `end` stops the rank in the few milliseconds between the last record and its exit: when it is
# gone first, the job simply ended, and it tries again (3 times at most).
for attempt in 1 2 3; do
  rm -f "$work/r.json"
  "$bin" run --np 2 --suite collectives --cases all_reduce --gpus 2 --max-bytes 2M --step-factor 8 \
    "${cap[@]}" --timeout "$timeout_s" --out "$work/r.json" >"$work/out" 2>"$work/err" &
  launcher=$!
  # Once a record is on disk, the job is in its sweep; once all are, it is on its way out.
  wait_for_records 1
  victim=$(rank_pid 1) || { echo "FAIL: rank 1 not found"; cat "$work/err"; kill -9 "$launcher"; exit 1; }
  [ "$mode" = end ] && wait_for_records "$all_records"
  before=$(grep -c '^  {"' "$work/r.json" 2>/dev/null)
  before=${before:-0}
  start=$(date +%s)
  if [ "$mode" = kill ]; then
    kill -9 "$victim"
    what="killed (kill -9)"
  else
    kill -STOP "$victim" 2>/dev/null || { wait "$launcher"; continue; }
    what="stopped (SIGSTOP)"
  fi
  break
done
wait "$launcher"
rc=$?
elapsed=$(($(date +%s) - start))
fail=0
[ "$rc" = 3 ] || { echo "FAIL: exit $rc, expected 3"; fail=1; }
[ "$elapsed" -le $((timeout_s + 10)) ] || { echo "FAIL: took ${elapsed}s"; fail=1; }
sleep 1
left=$(pgrep -f -- "$work/r.json" || true)
if [ -n "$left" ]; then
  echo "FAIL: processes left running: $left"
  kill -9 $left 2>/dev/null
  fail=1
fi
"$here/../../../ci/validate-results" "$work/r.json" || fail=1
after=$(records "$work/r.json")
[ "$after" -ge "$before" ] || { echo "FAIL: $before records before, $after after"; fail=1; }
if [ "$mode" = end ]; then
  [ "$after" = "$all_records" ] || { echo "FAIL: $after records, expected $all_records"; fail=1; }
fi
[ "$fail" = 0 ] || { tail -5 "$work/err"; exit 1; }
echo "rank 1 $what: exit 3 after ${elapsed}s, $after records kept, no rank left"
grep -E "no progress|did not end" "$work/err" | head -2 || true # how the job ended, if it said
