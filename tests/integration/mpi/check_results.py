#!/usr/bin/env python3
"""Checks a clusterbench results file the way an operator would read it.

usage: check_results.py FILE --gpus 1,2 [--suite S] [--cases a,b] [--sizes COUNT]
                               [--min-records N] [--allow-noisy]

Fails (exit 1, one line per problem) unless: the file validates against the schema; every
requested case has a record for every GPU count (and every size, for collectives, in both
placements); every record's data check passed (or was skipped with a reason).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "..", "..", "ci", "validate-results")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--gpus", required=True)
    ap.add_argument("--suite")
    ap.add_argument("--cases")
    ap.add_argument("--sizes", type=int, help="sizes expected per case, GPU count and placement")
    ap.add_argument("--min-records", type=int, default=1)
    args = ap.parse_args()

    problems = []
    v = subprocess.run([sys.executable, VALIDATE, args.file], capture_output=True, text=True)
    if v.returncode != 0:
        problems.append("schema: " + (v.stdout + v.stderr).strip())
    with open(args.file, encoding="utf-8") as f:
        doc = json.load(f)
    records = doc["records"]
    if len(records) < args.min_records:
        problems.append(f"only {len(records)} records")
    gpus = [int(g) for g in args.gpus.split(",")]
    cases = args.cases.split(",") if args.cases else sorted({r["case"] for r in records})
    for case in cases:
        for n in gpus:
            mine = [r for r in records if r["case"] == case and r["gpus"] == n
                    and (not args.suite or r["suite"] == args.suite)]
            if not mine:
                problems.append(f"{case}: no record at {n} GPUs")
                continue
            if args.sizes:
                # Every (dtype, op, placement) swept has a record at every size. Sizes are rounded
                # to whole elements per rank, so they are counted rather than matched.
                groups = {}
                for r in mine:
                    key = (r["params"].get("dtype"), r["params"].get("op"),
                           r["params"].get("in_place"))
                    groups.setdefault(key, set()).add(r["params"]["bytes"])
                for in_place in (False, True):
                    if not any(k[2] == in_place for k in groups):
                        problems.append(f"{case}: no in_place={in_place} record at {n} GPUs")
                for key, sizes in sorted(groups.items(), key=str):
                    if len(sizes) != args.sizes:
                        problems.append(f"{case}: {len(sizes)} sizes for dtype/op/in_place {key} "
                                        f"at {n} GPUs, expected {args.sizes}")
    for r in records:
        where = f'{r["suite"]}/{r["case"]} gpus={r["gpus"]} params={json.dumps(r["params"])}'
        if r["status"] == "failed":
            problems.append(f"{where}: failed: {r.get('reason', '')}")
        if r["check"] == "fail":
            problems.append(f"{where}: data check failed: {r.get('reason', '')}")
        if r["status"] == "skipped" and not r.get("reason"):
            problems.append(f"{where}: skipped without a reason")
        if r["status"] in ("ok", "noisy") and not r["samples_s"]:
            problems.append(f"{where}: no samples")
    for p in problems[:40]:
        print(p)
    if not problems:
        print(f"{args.file}: {len(records)} records, all checks pass")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
