"""Checks a clusterbench results file from a host-family run: the cases expected at each rank count
are there, every data check passed, and the figures add up (aggregate = Σ per-rank work / the
slowest rank's time). Exits 1 with one line per problem."""
import json
import sys

STREAM_ARRAYS = {"copy": 2, "scale": 2, "add": 3, "triad": 3}
EXPECTED = {
    "compute": ["copy", "scale", "add", "triad", "fma_peak", "gemm"],
    "links": ["pair_bw", "pair_latency", "ring_bw"],
    "storage": ["seq_read", "rand_read", "checkpoint_write", "checkpoint_read", "checkpoint_stage"],
}


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-30)


def check_compute(r, problems):
    name, gpus, median = r["case"], r["gpus"], r["stats"]["median_s"]
    if name in STREAM_ARRAYS:
        per_call = STREAM_ARRAYS[name] * r["params"]["bytes"]
        if r["extra"]["bytes_per_call"] != per_call:
            problems.append(f"{name}: bytes_per_call {r['extra']['bytes_per_call']} != {per_call}")
        if not close(r["metrics"]["gbps"], gpus * per_call / median / 1e9):
            problems.append(f"{name} on {gpus}: gbps is not gpus x bytes / median")
        if r["params"].get("dtype") != "double":
            problems.append(f"{name}: dtype {r['params'].get('dtype')}")
    elif name == "gemm":
        n = r["params"]["n"]
        if not close(r["metrics"]["gflops"], gpus * 2.0 * n ** 3 / median / 1e9):
            problems.append(f"gemm n={n} on {gpus}: gflops is not gpus x 2n^3 / median")
    elif name == "fma_peak":
        e = r["extra"]
        flops = 2.0 * e["iterations"] * e["accumulators"] * e["lanes"]
        if not close(r["metrics"]["gflops"], gpus * flops / median / 1e9):
            problems.append(f"fma_peak on {gpus}: gflops is not gpus x flops / median")
    metric = "gbps" if name in STREAM_ARRAYS else "gflops"
    derived = metric in r.get("per_rank_derived", [])
    for p in r["per_rank"]:
        # A rate the file leaves to the reader (per_rank_derived) is the record's scaled by the
        # rank's own median: one the reader computes as the loaders do.
        if derived == (metric in p):
            problems.append(f"{name} on {gpus}: per-rank {metric} both derived and written, or neither")
            continue
        own = r["metrics"][metric] * median / p["median_s"] if derived else p[metric]
        # Each rank's own rate: the same work per rank over its own median time. Per-rank figures
        # are stored to 6 significant digits (both the rate and median_s), hence the tolerance.
        if not close(own, r["metrics"][metric] / gpus * median / p["median_s"], tol=2e-5):
            problems.append(f"{name} on {gpus}: per-rank {metric} is not the rank's own rate")


def check_links(r, problems):
    name, gpus = r["case"], r["gpus"]
    if name == "ring_bw":
        want = gpus * r["params"]["bytes"] / r["stats"]["median_s"] / 1e9
        if not close(r["metrics"]["gbps"], want):
            problems.append(f"ring_bw on {gpus}: gbps is not gpus x bytes / median")
        return
    matrix = r["extra"]["matrix"]
    if len(matrix) != gpus or any(len(row) != gpus for row in matrix):
        problems.append(f"{name}: matrix is not {gpus} x {gpus}")
        return
    cells = []
    for i in range(gpus):
        for j in range(gpus):
            if i == j and matrix[i][j] is not None:
                problems.append(f"{name}: diagonal [{i}][{j}] is not null")
            if i != j:
                if not isinstance(matrix[i][j], (int, float)) or matrix[i][j] <= 0:
                    problems.append(f"{name}: pair [{i}][{j}] is {matrix[i][j]}")
                else:
                    cells.append(matrix[i][j])
    metric = "latency_us" if name == "pair_latency" else "gbps"
    if cells and not (r["metrics"]["min_pair_" + metric] <= r["metrics"][metric]
                      <= r["metrics"]["max_pair_" + metric]):
        problems.append(f"{name}: median outside [min, max] of the pairs")
    if len(r["extra"]["tier_matrix"]) != gpus:
        problems.append(f"{name}: tier_matrix missing")


def check_storage(r, problems):
    gpus, median = r["gpus"], r["stats"]["median_s"]
    m = r["metrics"]
    if r["case"].startswith("checkpoint_"):
        # Equal shards of whole blocks, together at least the checkpoint.
        shard = r["extra"]["shard_bytes"]
        unit = r["params"].get("block_bytes", 4096)
        total = r["params"]["checkpoint_bytes"]
        if shard % unit or shard * gpus < total or shard * gpus >= total + gpus * unit:
            problems.append(f"{r['case']} on {gpus}: shard {shard} of {total} in blocks of {unit}")
        lowest = min(shard / e["median_s"] / 1e9 for e in r["per_rank"])
        if not close(m["lowest_rank_gbps"], lowest, 1e-5):
            problems.append(f"{r['case']} on {gpus}: lowest_rank_gbps is not the slowest rank's")
    else:
        shard = r["params"]["bytes"]
    if not close(m["gbps"], gpus * shard / median / 1e9):
        problems.append(f"{r['case']} on {gpus}: gbps is not gpus x bytes / median")
    if m["first_done_gbps"] < m["last_done_gbps"] * (1 - 1e-9):
        problems.append(f"{r['case']} on {gpus}: first done below last done")
    if r["extra"]["bad_blocks"] != 0:
        problems.append(f"{r['case']}: bad blocks")


def main():
    path, suite, counts = sys.argv[1], sys.argv[2], [int(c) for c in sys.argv[3].split(",")]
    records = json.load(open(path))["records"]
    problems = []
    for name in EXPECTED[suite]:
        min_gpus = 2 if suite == "links" else 1
        wanted = [n for n in counts if n >= min_gpus]
        if name in ("pair_bw", "pair_latency"):
            wanted = wanted[-1:]
        got = sorted({r["gpus"] for r in records if r["case"] == name})
        if not wanted:
            # Too few ranks for the case: one skipped record says so.
            said = [r for r in records if r["case"] == name and r["status"] == "skipped"
                    and "needs at least" in r.get("reason", "")]
            if len(said) != 1 or said[0]["gpus"] != counts[-1]:
                problems.append(f"{name}: expected one skipped record at {counts[-1]} ranks")
        elif got != wanted:
            problems.append(f"{name}: records at rank counts {got}, expected {wanted}")
    for r in records:
        if r["status"] == "skipped" and "needs at least" in r.get("reason", ""):
            continue  # checked above
        where = f"{r['case']} {json.dumps(r['params'], sort_keys=True)} on {r['gpus']}"
        if r["suite"] != suite:
            problems.append(f"{where}: suite {r['suite']}")
        if r["check"] != "pass":
            problems.append(f"{where}: check {r['check']} ({r.get('reason', '')})")
        if r["status"] not in ("ok", "noisy"):
            problems.append(f"{where}: status {r['status']} ({r.get('reason', '')})")
            continue
        if len(r["per_rank"]) != r["gpus"]:
            problems.append(f"{where}: {len(r['per_rank'])} per-rank entries")
        checks = {"compute": check_compute, "links": check_links, "storage": check_storage}
        checks[suite](r, problems)
    for p in problems:
        print("check_records:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
