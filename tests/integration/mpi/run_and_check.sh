#!/usr/bin/env bash
# Runs the real binary under mpirun with NP ranks and checks the results file.
# usage: run_and_check.sh BIN NP SUITE [extra run flags...]
set -euo pipefail
bin=$1 np=$2 suite=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root_flag=()
[ "$(id -u)" = 0 ] && root_flag=(--allow-run-as-root)
gpus=1
[ "$np" -ge 2 ] && gpus=1,2
mpirun -np "$np" --oversubscribe "${root_flag[@]}" "$bin" run --suite "$suite" --quick \
  --out "$work/r.json" "$@" > "$work/out.txt"
grep -q "# results: $work/r.json" "$work/out.txt"
"$here/check_results.py" "$work/r.json" --gpus "$gpus" --suite "$suite" ${CHECK_FLAGS:-}
