#!/usr/bin/env bash
# A hostfile naming a host that cannot be reached: one clear line from clusterbench and exit 3,
# in bounded time — never a hang.
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do unset "$v"; done
printf 'cb-unreachable-host.invalid slots=2\n' >"$work/hosts"
start=$(date +%s)
OMPI_MCA_orte_default_hostfile="$work/hosts" timeout 120 "$bin" run --backend host --np 2 --quick \
  --suite collectives --cases all_reduce --out "$work/r.json" >/dev/null 2>"$work/err"
rc=$?
elapsed=$(( $(date +%s) - start ))
last=$(tail -n 1 "$work/err")
[ "$rc" = 3 ] || { echo "exit $rc, expected 3"; cat "$work/err"; exit 1; }
[[ "$last" == "clusterbench run: mpirun failed"* ]] || { echo "last line: $last"; exit 1; }
# One line for the failure, naming the host (from ssh's own message); Open MPI's banner is kept in
# a file beside the results, not printed: stderr is the launch command and that line.
[[ "$last" == *cb-unreachable-host* ]] || { echo "the line does not name the host: $last"; exit 1; }
[ "$(wc -l <"$work/err")" = 2 ] || { echo "stderr is not 2 lines:"; cat "$work/err"; exit 1; }
grep -q "ORTE was unable" "$work/r.json.mpirun-stderr.txt" || { echo "Open MPI's message not kept"; exit 1; }
[ "$elapsed" -lt 60 ] || { echo "took ${elapsed}s"; exit 1; }
echo "exit 3 after ${elapsed}s: $last"
