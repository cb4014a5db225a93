#!/usr/bin/env bash
# A Slurm job end to end on the one-node cluster of ci/slurm-local: start the daemons, read the
# allocation from inside a step and from a batch script, submit the script `clusterbench slurm`
# generates, wait (bounded), check its output, stop the daemons.
#
# Variables (set by CMake, overridable):
#   CB_SLURM_LOCAL     ci/slurm-local
#   CB_CLUSTERBENCH    the clusterbench executable (generates the script, reads allocations)
#   CB_SLURM_PROGRAM   the program under test, started by the script's srun. Empty: the script
#                      runs as generated (`clusterbench run --out <json> $CB_SLURM_RUN_FLAGS`)
#                      and the results file is checked. Otherwise the srun starts this command
#                      line instead (an MPI program printing mpi_probe's lines) into that file.
#   CB_SLURM_RUN_FLAGS flags for `clusterbench run` (default: --quick)
# Exit 0 pass, 1 fail, 77 skip (not root, Slurm not installable).
set -euo pipefail

: "${CB_SLURM_LOCAL:?set CB_SLURM_LOCAL to ci/slurm-local}"
: "${CB_CLUSTERBENCH:?set CB_CLUSTERBENCH to the clusterbench executable}"
CB_SLURM_PROGRAM=${CB_SLURM_PROGRAM-}
CB_SLURM_RUN_FLAGS=${CB_SLURM_RUN_FLAGS---quick}
readonly TASKS=2
readonly JOB_TIMEOUT_S=120

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# field JSON KEY: one top-level value of a one-line JSON object, as Python prints it.
field() { /usr/bin/python3 -c 'import json, sys; print(json.dumps(json.loads(sys.argv[1])[sys.argv[2]]))' "$1" "$2"; }

# wait_for_job ID: until the job leaves the queue, at most JOB_TIMEOUT_S; prints its final state.
wait_for_job() {
  local deadline=$((SECONDS + JOB_TIMEOUT_S))
  while [[ -n $(squeue -h -j "$1" 2>/dev/null) ]]; do
    if ((SECONDS >= deadline)); then
      scancel "$1" || true
      fail "job $1 still queued or running after ${JOB_TIMEOUT_S}s"
    fi
    sleep 1
  done
  scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2
}

rc=0
"$CB_SLURM_LOCAL" start || rc=$?
[[ $rc -eq 0 ]] || exit "$rc"
trap '"$CB_SLURM_LOCAL" stop >/dev/null 2>&1 || true' EXIT
eval "$("$CB_SLURM_LOCAL" env)"
work=$(mktemp -d /tmp/clusterbench-slurm-test.XXXXXX)
trap '"$CB_SLURM_LOCAL" stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
host=$(hostname -s)

# 1. Inside a step each task reads the allocation and knows it is a step task.
lines=$(timeout "$JOB_TIMEOUT_S" srun -n "$TASKS" --mpi=pmix "$CB_CLUSTERBENCH" slurm --show-allocation --json) ||
  fail "srun of clusterbench slurm --show-allocation failed"
echo "step tasks:"; echo "$lines"
[[ $(wc -l <<<"$lines") -eq $TASKS ]] || fail "expected $TASKS lines from the step"
procids=""
while read -r line; do
  [[ $(field "$line" under_step) == true ]] || fail "a step task does not see itself under a step"
  [[ $(field "$line" nodes) == "[\"$host\"]" ]] || fail "nodes: $(field "$line" nodes), expected [\"$host\"]"
  [[ $(field "$line" ntasks) == "$TASKS" ]] || fail "ntasks: $(field "$line" ntasks)"
  [[ $(field "$line" tasks_per_node) == "[$TASKS]" ]] || fail "tasks_per_node: $(field "$line" tasks_per_node)"
  procids+="$(field "$line" procid) "
done <<<"$lines"
[[ $(tr ' ' '\n' <<<"$procids" | sort -n | xargs) == "0 1" ]] || fail "procids $procids, expected 0 1"

# 2. The batch script itself is not a step: there clusterbench launches its own ranks.
id=$(sbatch --parsable -N 1 -n "$TASKS" -o "$work/batch-%j.out" \
  --wrap "$(printf '%q ' "$CB_CLUSTERBENCH" slurm --show-allocation --json)") || fail "sbatch --wrap failed"
state=$(wait_for_job "$id")
[[ $state == COMPLETED ]] || fail "batch job $id ended $state: $(cat "$work"/batch-*.out 2>/dev/null)"
line=$(<"$work/batch-$id.out")
echo "batch script: $line"
[[ $(field "$line" under_step) == false ]] || fail "the batch script counts as a step task"
[[ $(field "$line" job_id) == "\"$id\"" ]] || fail "job_id $(field "$line" job_id), expected $id"

# 3. The generated script, submitted as it is or with the program under test in its step.
read -ra run_flags <<<"$CB_SLURM_RUN_FLAGS"
"$CB_CLUSTERBENCH" slurm --nodes 1 --gpus-per-node "$TASKS" --host-backend --time 5 \
  --partition local --job-name cb-test --output-dir "$work" -- "${run_flags[@]}" >"$work/job.sh" ||
  fail "clusterbench slurm failed"
if [[ -n $CB_SLURM_PROGRAM ]]; then
  # Keep the directives and the srun line; run the program under test into the results file.
  awk -v program="$CB_SLURM_PROGRAM" '
    /^srun / { sub(/ \\$/, ""); print $0 " " program " >\"$out\""; skip = 1; next }
    skip && /^  / { next }
    { print }' "$work/job.sh" >"$work/job-program.sh"
  script=$work/job-program.sh
else
  script=$work/job.sh
fi
echo "submitting:"; cat "$script"
id=$(sbatch --parsable "$script") || fail "sbatch of the generated script failed"
state=$(wait_for_job "$id")
results=$work/clusterbench-$id.json
log=$work/clusterbench-$id.out
[[ $state == COMPLETED ]] || fail "job $id ended $state; log: $(cat "$log" 2>/dev/null)"
[[ -s $results ]] || fail "job $id wrote no $results; log: $(cat "$log" 2>/dev/null)"
if [[ -n $CB_SLURM_PROGRAM ]]; then
  echo "job output:"; cat "$results"
  [[ $(grep -c '^rank .* world '"$TASKS"'$' "$results") -eq $TASKS ]] ||
    fail "expected $TASKS ranks of one world of $TASKS in $results"
  grep -q '^allreduce bytes' "$results" || fail "no allreduce figures in $results"
else
  # The ranks ran as the step's tasks (no re-launch), all in one world, and measured: every
  # record's data check passed and the file matches the schema.
  /usr/bin/python3 - "$results" "$TASKS" <<'PY' || fail "$results: not the expected results"
import json, sys
d = json.load(open(sys.argv[1]))
tasks = int(sys.argv[2])
assert d["schema"] == "clusterbench.results", "not a results file"
assert d["run"]["launcher"] == "srun", f"launcher {d['run']['launcher']}, expected srun"
assert d["records"], "no records"
assert max(r["gpus"] for r in d["records"]) == tasks, "the sweep did not reach every task"
bad = [r["case"] for r in d["records"] if r["check"] != "pass"]
assert not bad, f"data checks not passed: {bad}"
print(f"{len(d['records'])} records from {tasks} srun tasks")
PY
  /usr/bin/python3 "$(dirname "$0")/../../../ci/validate-results" "$results" || fail "$results: schema"
fi
echo "slurm job: ok"
