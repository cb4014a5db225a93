#!/usr/bin/env bash
# Sizes under one element per rank are rounded up to the same operation (all_gather of 1, 2, 4
# and 8 B of floats on 2 ranks is 2 floats): it is measured once per count, the others are
# skipped with the reason, and no two measured records of a count have the same parameters.
set -uo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK PMI_RANK SLURM_STEP_ID CLUSTERBENCH_LAUNCHED; do unset "$v"; done
timeout 300 "$bin" run --np 2 --suite collectives --cases all_gather --dtypes float \
  --min-bytes 1 --max-bytes 16 --step-factor 2 --max-time 0.05 --out "$work/r.json" \
  >"$work/out" 2>"$work/err" || { echo "run exited $?"; cat "$work/err"; exit 1; }
python3 - "$work/r.json" <<'PY' || exit 1
import json, sys
records = json.load(open(sys.argv[1]))["records"]
measured, skipped = {}, {}
for r in records:
    key = (r["gpus"], json.dumps(r["params"], sort_keys=True))
    if r["status"] == "skipped":
        assert "rounded up to whole elements per rank" in r.get("reason", ""), r.get("reason")
        skipped[r["gpus"]] = skipped.get(r["gpus"], 0) + 1
        continue
    assert key not in measured, f"measured twice: {key}"
    measured[key] = r
# Per count and in/out of place: 1 rank: 4, 8, 16 B measured, 2 rounded sizes skipped; 2 ranks:
# 8 and 16 B measured, 3 skipped.
assert skipped == {1: 4, 2: 6}, skipped
assert sum(1 for g, _ in measured if g == 1) == 6 and sum(1 for g, _ in measured if g == 2) == 4, \
    sorted(measured)
print("each rounded-up operation measured once per count:", skipped)
PY
