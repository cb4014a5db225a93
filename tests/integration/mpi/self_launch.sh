#!/usr/bin/env bash
# Started without mpirun, `clusterbench run` re-executes itself through mpirun, says so, and the
# ranks write one results file with every GPU count.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID; do unset "$v"; done
"$bin" run --np 2 --suite collectives --cases all_reduce --quick --max-bytes 64K \
  --out "$work/r.json" > "$work/out.txt" 2> "$work/err.txt"
grep -q "launching .*mpirun.* -np 2 " "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
"$here/check_results.py" "$work/r.json" --gpus 1,2 --cases all_reduce --sizes 5
