#!/usr/bin/env python3
"""Large inputs stay linear: time, peak RSS and output size of the real binary on inputs of two
sizes, printed with their ratios against the smaller (the reference run of the same invocation).

usage: tests/perf/large_inputs.py BINARY [--spec-mb 50] [--records 20000] [--nccl-mb 16] [--osu-mb 4]

  qualify --spec   a spec of --spec-mb MB (distinct threshold checks) against a small results
                   file, and one a tenth of its size: time and RSS should grow about 10x, not 100x.
  fit --out        a results file of --records records and one a quarter of it: the output written
                   should be about 4x larger, as the input is.
  import           an nccl-tests log of --nccl-mb MB and an OSU log of --osu-mb MB (runs of the seed
                   logs concatenated, as a job's output of many runs is), and logs a tenth of their
                   size: peak RSS is printed beside the input's size, and should stay a small
                   multiple of it (the log's text, one table, the output's buffer).
Linear means every ratio near the size ratio; the script prints the figures and exits 0 (1 when
the binary fails), it does not judge a machine's speed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "..", "fuzz", "seeds")


TIME = "/usr/bin/time"


def measure(cmd):
    """(seconds, peak RSS in MiB, exit code) of one run of cmd. The peak comes from /usr/bin/time
    when there is one: a child's own ru_maxrss starts from this script's size at the fork (Linux
    keeps the larger of the forked and the executed image's), which hides a small peak."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        timed = os.path.exists(TIME)
        full = [TIME, "-f", "%M", "-o", rss_file.name] + cmd if timed else cmd
        started = time.monotonic()
        proc = subprocess.Popen(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.monotonic() - started
        proc.stderr.close()
        rss_kib = usage.ru_maxrss
        if timed:
            text = rss_file.read().strip().splitlines()
            rss_kib = int(text[-1]) if text and text[-1].isdigit() else rss_kib
        return elapsed, rss_kib / 1024.0, os.waitstatus_to_exitcode(status)


def write_spec(path, target_bytes):
    """A spec of distinct checks on collectives/all_reduce busbw until it is target_bytes long."""
    with open(os.path.join(SEEDS, "spec.json"), encoding="utf-8") as f:
        spec = json.load(f)
    template = {"suite": "collectives", "case": "all_reduce", "metric": "busbw_gbps",
                "params": {"bytes": 1048576}, "gpus": 2, "expected": 100.0, "fraction": 0.5,
                "source": "a data sheet of the fabric, section 4.2, sustained bandwidth"}
    one = len(json.dumps(dict(template, id="check-0000000"))) + 2
    count = max(1, target_bytes // one)
    spec["checks"] = [dict(template, id=f"check-{i:07d}") for i in range(count)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    return count


def write_results(path, records):
    """The seed results file's records repeated (distinct GPU counts) until there are `records`."""
    with open(os.path.join(SEEDS, "results.json"), encoding="utf-8") as f:
        doc = json.load(f)
    base = doc["records"]
    out = []
    for i in range(records):
        r = dict(base[i % len(base)])
        r["params"] = dict(r["params"], repeat=i // len(base))
        out.append(r)
    doc["records"] = out
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def write_log(path, seed_name, target_bytes):
    """The seed log repeated until it is target_bytes long."""
    with open(os.path.join(SEEDS, seed_name), "rb") as f:
        one = f.read()
    with open(path, "wb") as f:
        f.write(one * max(1, int(target_bytes) // len(one)))


def ratio_line(name, small, large, size_ratio):
    (t0, m0, _), (t1, m1, _) = small, large
    return (f"{name}: {t0:.2f} s, {m0:.0f} MiB -> {t1:.2f} s, {m1:.0f} MiB; "
            f"time x{t1 / max(t0, 1e-3):.1f}, RSS x{m1 / max(m0, 1):.1f} for x{size_ratio:.0f} input")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--spec-mb", type=float, default=50)
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--nccl-mb", type=float, default=16)
    parser.add_argument("--osu-mb", type=float, default=4)
    args = parser.parse_args(argv)
    failed = False
    with tempfile.TemporaryDirectory(prefix="cb-large-") as work:
        results = os.path.join(SEEDS, "results.json")
        runs = []
        for mb in (args.spec_mb / 10, args.spec_mb):
            spec = os.path.join(work, f"spec-{mb:g}.json")
            checks = write_spec(spec, int(mb * 1e6))
            run = measure([args.binary, "qualify", results, "--spec", spec])
            failed |= run[2] not in (0, 1, 4)  # PASS, FAIL, INCONCLUSIVE: a verdict each
            print(f"qualify --spec {os.path.getsize(spec) / 1e6:.1f} MB ({checks} checks): "
                  f"{run[0]:.2f} s, peak RSS {run[1]:.0f} MiB, exit {run[2]}")
            runs.append(run)
        print(ratio_line("qualify", runs[0], runs[1], 10))

        sizes = []
        fit_runs = []
        for n in (args.records // 4, args.records):
            src = os.path.join(work, f"results-{n}.json")
            out = os.path.join(work, f"fitted-{n}.json")
            write_results(src, n)
            run = measure([args.binary, "fit", src, "--out", out])
            failed |= run[2] != 0
            in_mb, out_mb = os.path.getsize(src) / 1e6, os.path.getsize(out) / 1e6
            print(f"fit --out, {n} records: input {in_mb:.1f} MB, output {out_mb:.1f} MB "
                  f"(x{out_mb / in_mb:.2f}), {run[0]:.2f} s, peak RSS {run[1]:.0f} MiB")
            sizes.append((in_mb, out_mb))
            fit_runs.append(run)
        print(ratio_line("fit", fit_runs[0], fit_runs[1], 4)
              + f"; output x{sizes[1][1] / sizes[0][1]:.1f}")

        for tool, seed_name, mb, extra in (("nccl-tests", "nccl_tests.txt", args.nccl_mb, []),
                                           ("osu", "osu.txt", args.osu_mb, ["--np", "16"])):
            import_runs = []
            for size in (mb / 10, mb):
                log = os.path.join(work, f"{tool}-{size:g}.log")
                out = os.path.join(work, f"{tool}-{size:g}.json")
                write_log(log, seed_name, size * 1e6)
                run = measure([args.binary, "import", tool, log, "--out", out] + extra)
                failed |= run[2] != 0
                in_mb = os.path.getsize(log) / 1e6
                out_mb = os.path.getsize(out) / 1e6 if os.path.exists(out) else 0
                print(f"import {tool} {in_mb:.1f} MB: {run[0]:.2f} s, peak RSS {run[1]:.0f} MiB "
                      f"(x{run[1] * 1.048576 / in_mb:.1f} the input), output {out_mb:.1f} MB, "
                      f"exit {run[2]}")
                import_runs.append(run)
            print(ratio_line(f"import {tool}", import_runs[0], import_runs[1], 10))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
