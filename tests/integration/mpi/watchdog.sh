#!/usr/bin/env bash
# A record that runs past --timeout stops the whole job with exit 3, within bounded time, and the
# results file stays a valid file.
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do unset "$v"; done
start=$(date +%s)
timeout 120 "$bin" run --np 2 --suite collectives --cases all_reduce --min-bytes 8 --max-bytes 64M \
  --timeout 0.3 --out "$work/r.json" >"$work/out" 2>"$work/err"
rc=$?
elapsed=$(( $(date +%s) - start ))
[ "$rc" = 3 ] || { echo "exit $rc, expected 3"; cat "$work/err"; exit 1; }
grep -q "no progress for" "$work/err" || { echo "no watchdog message"; cat "$work/err"; exit 1; }
[ "$elapsed" -lt 60 ] || { echo "took ${elapsed}s"; exit 1; }
"$here/../../../ci/validate-results" "$work/r.json"
echo "watchdog stopped the job with exit 3 after ${elapsed}s"
