#!/usr/bin/env bash
# kill -9 in the middle of a run leaves a valid results file holding every finished record.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root_flag=()
[ "$(id -u)" = 0 ] && root_flag=(--allow-run-as-root)
setsid mpirun -np 2 --oversubscribe "${root_flag[@]}" "$bin" run --suite collectives --gpus 1,2 \
  --min-bytes 8 --max-bytes 16M --out "$work/r.json" > "$work/out.txt" 2>&1 &
pid=$!
# Wait until a few records are on disk, then kill the whole job at once.
for _ in $(seq 1 600); do
  if [ -f "$work/r.json" ] && python3 - "$work/r.json" <<'PY'
import json, sys
try:
    sys.exit(0 if len(json.load(open(sys.argv[1]))["records"]) >= 3 else 1)
except Exception:
    sys.exit(1)
PY
  then break; fi
  sleep 0.1
done
kill -9 -- -"$pid" 2>/dev/null || kill -9 "$pid"
wait "$pid" 2>/dev/null || true
python3 - "$work/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
n = len(doc["records"])
assert n >= 3, f"only {n} records survived"
assert doc["run"]["finished"] is None, "the killed run must not claim to have finished"
print(f"{n} finished records survived kill -9")
PY
"$here/../../../ci/validate-results" "$work/r.json"
ls -a "$work"
