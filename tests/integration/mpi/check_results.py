#!/usr/bin/env python3
"""Checks a clusterbench results file the way an operator would read it.

usage: check_results.py FILE --gpus 1,2 [--suite S] [--cases a,b] [--sizes COUNT]
                               [--min-records N] [--rank-timing] [--init]

Fails (exit 1, one line per problem) unless: the file validates against the schema; every
requested case has a record for every GPU count (and every size, for collectives, in both
placements); every record's data check passed (or was skipped with a reason). With
--rank-timing, every measured collective record also keeps each rank's p99 and shortest share
(one rank the shortest per sample), raw samples for at most 3 ranks, its spike, and a straggler
only where it names one of its own ranks.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "..", "..", "ci", "validate-results")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "plots"))
from clusterplots.results import rank_identities, restore_identity, restores_identities  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--gpus", required=True)
    ap.add_argument("--suite")
    ap.add_argument("--cases")
    ap.add_argument("--sizes", type=int, help="sizes expected per case, GPU count and placement")
    ap.add_argument("--min-records", type=int, default=1)
    ap.add_argument("--rank-timing", action="store_true")
    ap.add_argument("--init", action="store_true",
                    help="communicator_init records: time_us and cold_time_us, one per rank")
    args = ap.parse_args()

    problems = []
    v = subprocess.run([sys.executable, VALIDATE, args.file], capture_output=True, text=True)
    if v.returncode != 0:
        problems.append("schema: " + (v.stdout + v.stderr).strip())
    with open(args.file, encoding="utf-8") as f:
        doc = json.load(f)
    # Each per-rank entry whole, as every reader sees it: the header says where each rank ran.
    identities = rank_identities(doc.get("run", {}))
    for r in doc.get("records", []):
        if restores_identities(r, doc.get("run", {}), identities):
            for p in r.get("per_rank", []):
                restore_identity(p, identities)
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
            if args.sizes and case != "communicator_init":  # it has no sizes
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
    if args.init:
        for r in records:
            if r["case"] == "communicator_init" and r["status"] in ("ok", "noisy"):
                check_init(r, problems)
    if args.rank_timing:
        for r in records:
            if r["suite"] == "collectives" and r["status"] in ("ok", "noisy"):
                check_rank_timing(r, problems)
    for p in problems[:40]:
        print(p)
    if not problems:
        print(f"{args.file}: {len(records)} records, all checks pass")
    return 1 if problems else 0


def check_init(r, problems):
    where = f'communicator_init gpus={r["gpus"]}'
    m = r["metrics"]
    for field in ("time_us", "cold_time_us"):
        if not 0 < m.get(field, -1) < 600e6:
            problems.append(f"{where}: {field} {m.get(field)} is not a creation time")
    if r["extra"].get("calls") != "MPI_Comm_split":
        problems.append(f"{where}: made by {r['extra'].get('calls')}, not MPI_Comm_split")
    if len(r["per_rank"]) != r["gpus"]:
        problems.append(f"{where}: {len(r['per_rank'])} per-rank entries")


def check_rank_timing(r, problems):
    where = f'{r["case"]} gpus={r["gpus"]} params={json.dumps(r["params"])}'
    stats, ranks = r["stats"], r["per_rank"]
    if not stats.get("spike", 0) >= 1 or stats.get("p99_s", -1) < stats["median_s"]:
        problems.append(f"{where}: stats without p99_s >= median_s and spike >= 1: {stats}")
    if len(ranks) != r["gpus"]:
        problems.append(f"{where}: {len(ranks)} per-rank entries")
        return
    shares = sum(p.get("shortest_share", 0) for p in ranks)
    if abs(shares - 1) > 1e-3 * len(ranks):
        problems.append(f"{where}: shortest shares add up to {shares}, not 1")
    kept = [p for p in ranks if "samples_s" in p]
    if not 1 <= len(kept) <= min(3, len(ranks)):
        problems.append(f"{where}: raw samples kept for {len(kept)} ranks")
    for p in ranks:
        if "p99_s" not in p or "time_us" in p:
            problems.append(f"{where}: rank {p.get('rank')}: no p99_s, or a time_us: {p}")
    for p in kept:
        if len(p["samples_s"]) != min(len(r["samples_s"]), 128):
            problems.append(f"{where}: rank {p['rank']} keeps {len(p['samples_s'])} samples of "
                            f"{len(r['samples_s'])}")
    s = r.get("straggler")
    if s is not None:
        named = [p for p in ranks if p["rank"] == s["rank"]]
        if not named or named[0]["host"] != s["host"] or named[0]["device"] != s["device"]:
            problems.append(f"{where}: straggler {s} is none of its ranks")
        elif s["shortest_share"] <= 0.5 or s["median_s"] > 0.9 * s["others_median_s"]:
            problems.append(f"{where}: straggler {s} does not meet the rule")


if __name__ == "__main__":
    sys.exit(main())
