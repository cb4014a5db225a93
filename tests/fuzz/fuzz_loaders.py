#!/usr/bin/env python3
"""Seeded mutation fuzzing of every file loader of clusterbench, through the real binary.

usage: tests/fuzz/fuzz_loaders.py BINARY [--seconds S] [--seed N] [--inputs N] [--replay]
                                   [--failures DIR] [--loaders LIST]

Each round takes a seed from tests/fuzz/seeds/, mutates it (bit flips, truncation, nesting to a
million levels, overflowing and out-of-range numbers, wrong types, negative/zero values, huge
strings, binary garbage, bad encodings) and hands it to one loader: fit, report, check, compare,
cost --from, qualify (its results and its --spec), import nccl-tests|fio|osu, fit --csv and
simulate (its scenario and its --topology). An input fails the run when the binary
  - dies of a signal, or exits with a code outside 0, 1, 2, 4 (4 is check's INCONCLUSIVE; 3 is for
    runs that fail, not input);
  - takes longer than 20 s;
  - exits 2 with anything but exactly one line of at most 300 bytes on stderr, or prints a longer
    line to stderr at all;
  - accepts (exit 0, 1 or 4) a results file into which a value out of the schema's bounds was put.
The same --seed gives the same inputs. Failing inputs are kept in --failures with the command that
reproduces them. Exit 0 when every input held, 1 otherwise. CI runs it for a bounded time (ctest
label fuzz); by hand, give --seconds as long as you like. --replay first hands every seed, as it
is, to every loader that reads it (with --inputs 0 --seconds 0, only that). A binary of the asan
preset (build-asan/bin/clusterbench) is run with its sanitizers' findings as failures: ci/asan
replays the seeds and a short run of mutations through it.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "seeds")
HANG_SECONDS = 20
MAX_ERROR_BYTES = 300
MAX_INPUT_BYTES = 32 << 20


def seed(name):
    return os.path.join(SEEDS, name)


# Loader name -> (seed files it reads, command builder). The builder gets the binary, the mutated
# file and a scratch folder for outputs.
LOADERS = {
    "fit": (["results.json", "training.json", "fleet.json"], lambda b, f, d: [b, "fit", f]),
    "report": (["results.json", "training.json", "fleet.json", "screen.json"],
               lambda b, f, d: [b, "report", f]),
    "check": (["results.json", "gbench.json"],
              lambda b, f, d: [b, "check", "--baseline", seed("results.json"), f]),
    "compare": (["results.json", "gbench.json"],
                lambda b, f, d: [b, "compare", seed("results.json"), f]),
    "cost": (["training.json"],
             lambda b, f, d: [b, "cost", "--gpu-hours", "1000", "--price", "2", "--gpus", "64",
                              "--from", f, "--model-params", "7e9", "--tokens-per-gpu", "4096"]),
    "qualify": (["spec.json", "results.json"],
                lambda b, f, d: [b, "qualify", seed("results.json"), "--spec", f]),
    # fleet.json: 6 emulated nodes, cbnode3 slow: pair records with a second pass that names it,
    # all_reduce records with per-rank p99, shortest shares, own samples and a straggler.
    # screen.json: 5 nodes (on one machine) screened in two leaves: the columnar observations.
    "qualify-results": (["fleet.json", "results.json", "screen.json"],
                        lambda b, f, d: [b, "qualify", f, "--spec", "host-cpu", "--json"]),
    # plan --from: the link rate between nodes read from an earlier run's pair tests.
    "plan-from": (["fleet.json", "screen.json", "results.json"],
                  lambda b, f, d: [b, "plan", "--from", f, "--nodes", "4", "--gpus-per-node", "1",
                                   "--backend", "host"]),
    # The 2019 layout (all_gather's algbw from one rank's part), a SkyPilot-wrapped log, and
    # fio 2.x's repeated keys: what real tools print, quirks included.
    "import-nccl-tests": (["nccl_tests.txt", "nccl_tests.json", "nccl_tests_2019.txt",
                           "nccl_tests_skypilot.txt"],
                          lambda b, f, d: [b, "import", "nccl-tests", f, "--out",
                                           os.path.join(d, "out.json")]),
    "import-fio": (["fio.json", "fio2_repeated_keys.json", "fio2_many_filenames.json"],
                   lambda b, f, d: [b, "import", "fio", f, "--out", os.path.join(d, "out.json")]),
    "import-osu": (["osu.txt"],
                   lambda b, f, d: [b, "import", "osu", f, "--np", "16", "--out",
                                    os.path.join(d, "out.json")]),
    "fit-csv": (["throughput.csv"], lambda b, f, d: [b, "fit", "--csv", f, "--model", "usl"]),
    # The fabric simulator's scenario (8 nodes on two leaves, a slow uplink and a slow node), and
    # the topology in both of its forms (Slurm's topology.conf and the JSON map) against it.
    "simulate": (["scenario.json"], lambda b, f, d: [b, "simulate", f, "--json"]),
    "simulate-topology": (["topology.conf", "topology.json"],
                          lambda b, f, d: [b, "simulate", seed("scenario.json"), "--topology", f]),
}

# Values that no loader may take for a figure, whatever the field.
HOSTILE_NUMBERS = ["1e400", "-1e400", "1e308", "-1", "0", "-0.0", "4294967297",
                   "9223372036854775808", "18446744073709551616", "2147483648", "1e-320",
                   "NaN", "Infinity", "-Infinity", "0x10", "1e", "--1", "1.7976931348623157e309"]
HOSTILE_VALUES = ['"x"', "[]", "{}", "null", "true", '""', '[1,[2,[3]]]', '{"a":{"b":1}}']

# Fields of a results record with bounds the loader must enforce: (path in the record, bad value).
BOUNDED_RECORD_FIELDS = [
    (("gpus",), 0), (("gpus",), -4), (("gpus",), 4294967297), (("gpus",), 1.5), (("gpus",), "8"),
    (("nodes",), 0), (("nodes",), 18446744073709551615), (("ranks_per_node",), -1),
    (("samples_s", 0), 0), (("samples_s", 0), -1e-6), (("samples_s", 0), 1e300),
    (("samples_s", 0), "fast"), (("stats", "median_s"), -1.0), (("stats", "median_s"), 1e300),
    (("stats", "median_s"), "x"), (("stats", "cv"), [1]), (("stats", "count"), -3),
    (("stats", "count"), 1.5), (("stats", "count"), "5"), (("metrics", "busbw_gbps"), -5.0),
    (("metrics", "busbw_gbps"), 1e300), (("metrics", "busbw_gbps"), "fast"),
    (("check",), "maybe"), (("status",), 3), (("tier",), "outer"), (("params",), [1]),
    (("per_rank",), {"a": 1}), (("per_rank",), [1, 2]), (("extra",), "x"), (("reason",), 5),
]
BOUNDED_TOP_FIELDS = [("schema_version", 4294967297), ("schema_version", 1.0),
                      ("schema_version", "1"), ("records", {}), ("run", []), ("fits", [])]


# --- mutations of bytes --------------------------------------------------------------------------

def bit_flips(rng, data):
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        if out:
            i = rng.randrange(len(out))
            out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def truncation(rng, data):
    return data[:rng.randrange(len(data) + 1)]


def deep_nesting(rng, data):
    depth = rng.choice([100, 10_000, 1_000_000])
    opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
    nest = opener * depth + b"1" + closer * (depth if rng.random() < 0.5 else 0)
    if rng.random() < 0.5:
        return nest
    i = rng.randrange(len(data) + 1)
    return data[:i] + nest + data[i:]


def number_swap(rng, data):
    """Replaces a run of digits with a hostile number."""
    digits = [i for i, c in enumerate(data) if chr(c).isdigit()]
    if not digits:
        return data + rng.choice(HOSTILE_NUMBERS).encode()
    out = data
    for _ in range(rng.randint(1, 4)):
        i = rng.choice(digits)
        if i >= len(out):
            continue
        j = i
        while j < len(out) and (chr(out[j]).isdigit() or out[j] in b".eE+-"):
            j += 1
        out = out[:i] + rng.choice(HOSTILE_NUMBERS).encode() + out[j:]
    return out


def huge_string(rng, data):
    size = rng.choice([300, 100_000, 5_000_000])
    filler = rng.choice([b"A", b"\n", b"\x01", b"\xe2\x80\xa6", b"\\n", b"%s%n"]) * size
    i = rng.randrange(len(data) + 1)
    return data[:i] + filler + data[i:]


def garbage(rng, data):
    blob = bytes(rng.randrange(256) for _ in range(rng.choice([1, 64, 4096])))
    if rng.random() < 0.3:
        return blob
    i = rng.randrange(len(data) + 1)
    return data[:i] + blob + data[i:]


def bad_encoding(rng, data):
    choice = rng.randrange(5)
    if choice == 0:  # UTF-16 with a byte-order mark
        return b"\xff\xfe" + data.decode("latin-1").encode("utf-16-le")
    bad = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80",
                      b"\\ud800", b"\\u0000", b"\x00"])
    # Inside a string where there is one, so the parser reaches it.
    quotes = [i for i, c in enumerate(data) if c == ord('"')]
    i = rng.choice(quotes) + 1 if quotes and rng.random() < 0.8 else rng.randrange(len(data) + 1)
    return data[:i] + bad * rng.randint(1, 3) + data[i:]


def line_shuffle(rng, data):
    lines = data.split(b"\n")
    op = rng.randrange(3)
    if op == 0 and lines:
        del lines[rng.randrange(len(lines))]
    elif op == 1 and lines:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines) * rng.randint(1, 50))
    else:
        rng.shuffle(lines)
    return b"\n".join(lines)


BYTE_MUTATIONS = [bit_flips, truncation, deep_nesting, number_swap, huge_string, garbage,
                  bad_encoding, line_shuffle]


# --- mutations of JSON structure -----------------------------------------------------------------

def json_paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:8]):
            yield from json_paths(v, prefix + (i,))


def set_path(node, path, value):
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def wrong_type(rng, doc):
    """Any value anywhere replaced by a value of another type or a hostile number."""
    paths = [p for p in json_paths(doc) if p]
    path = rng.choice(paths)
    raw = rng.choice(HOSTILE_VALUES + HOSTILE_NUMBERS)
    marker = "\u0001FUZZ\u0001"
    set_path(doc, path, marker)
    return json.dumps(doc).replace(json.dumps(marker), raw).encode(), False


def bounded_field(rng, doc):
    """A value out of the schema's bounds in a results file: the loader must refuse it (exit 2)."""
    if not isinstance(doc, dict) or doc.get("schema") != "clusterbench.results":
        return wrong_type(rng, doc)
    if rng.random() < 0.2:
        key, value = rng.choice(BOUNDED_TOP_FIELDS)
        doc[key] = value
        return json.dumps(doc).encode(), True
    records = [r for r in doc.get("records", []) if r.get("samples_s")]
    if not records:
        return wrong_type(rng, doc)
    record = rng.choice(records)
    path, value = rng.choice(BOUNDED_RECORD_FIELDS)
    if path[0] == "metrics" and record["metrics"]:
        path = ("metrics", rng.choice(list(record["metrics"])))
    set_path(record, path, value)
    return json.dumps(doc).encode(), True


JSON_MUTATIONS = [wrong_type, bounded_field]


def mutate(rng, data):
    """Returns (bytes, must_refuse): must_refuse when the input holds a value out of bounds."""
    if data.lstrip().startswith(b"{") and rng.random() < 0.5:
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if doc is not None:
            return rng.choice(JSON_MUTATIONS)(rng, doc)
    out = data
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        out = rng.choice(BYTE_MUTATIONS)(rng, out)
    # Mutations compound (a 5 MB string in a line repeated 50 times); 32 MB is large enough.
    return out[:MAX_INPUT_BYTES], False


# --- the oracle ----------------------------------------------------------------------------------

def judge(proc_rc, err, must_refuse):
    """The reason an outcome is a failure, or None."""
    if proc_rc is None:
        return f"hang: still running after {HANG_SECONDS} s"
    if proc_rc < 0:
        return f"killed by signal {-proc_rc}"
    if proc_rc not in (0, 1, 2, 4):  # 4: check's INCONCLUSIVE (one run a side)
        return f"exit {proc_rc} on bad input"
    lines = err.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if any(len(line) > MAX_ERROR_BYTES for line in lines):
        return f"a stderr line of {max(len(line) for line in lines)} bytes"
    if proc_rc == 2 and len(lines) != 1:
        return f"exit 2 with {len(lines)} lines on stderr"
    if must_refuse and proc_rc != 2:
        return f"exit {proc_rc}: a value out of bounds was accepted"
    return None


# A binary of the asan preset reports a finding with an exit code of its own, never 1 or 2, and
# stops at the first. Options already set (ci/asan's) are kept; these come last and win.
def _with(name, options):
    given = os.environ.get(name, "")
    return given + ":" + options if given else options


SANITIZER_ENV = dict(os.environ,
                     ASAN_OPTIONS=_with("ASAN_OPTIONS", "halt_on_error=1:exitcode=86"),
                     LSAN_OPTIONS=_with("LSAN_OPTIONS", "exitcode=86"),
                     UBSAN_OPTIONS=_with("UBSAN_OPTIONS",
                                         "halt_on_error=1:exitcode=86:print_stacktrace=1"))


def run_one(cmd):
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=HANG_SECONDS, env=SANITIZER_ENV)
        return proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stderr or b""


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=100,
                        help="stop starting new inputs after this long (default 100)")
    parser.add_argument("--inputs", type=int, default=0, help="stop after this many (0: no cap)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--failures", default=None,
                        help="folder for failing inputs (default: a temporary folder, kept)")
    parser.add_argument("--replay", action="store_true",
                        help="first, every seed unchanged through every loader that reads it")
    parser.add_argument("--keep-slowest", default=None, metavar="FILE",
                        help="copy the input that took longest here")
    parser.add_argument("--loaders", default=None, metavar="LIST",
                        help="only these loaders, comma-separated (default: all): "
                             + ",".join(sorted(LOADERS)))
    args = parser.parse_args(argv)
    if args.loaders is not None:
        chosen = args.loaders.split(",")
        unknown = [name for name in chosen if name not in LOADERS]
        if unknown:
            parser.error(f"--loaders: no loader {unknown[0]!r}")
        for name in set(LOADERS) - set(chosen):
            del LOADERS[name]

    rng = random.Random(args.seed)
    seeds = {name: open(seed(name), "rb").read()
             for files, _ in LOADERS.values() for name in files}
    scratch = tempfile.mkdtemp(prefix="cb-fuzz-")
    failures_dir = args.failures
    counts = {name: 0 for name in LOADERS}
    outcomes = {0: 0, 1: 0, 2: 0}
    failures = []
    started = time.monotonic()
    slowest = (0.0, "")
    n = 0

    def inputs():
        """(loader, seed name, bytes, must_refuse): the replay, then the mutations."""
        if args.replay:
            for loader in sorted(LOADERS):
                for name in LOADERS[loader][0]:
                    yield loader, name, seeds[name], False
        mutated = 0
        while time.monotonic() - started < args.seconds and (not args.inputs
                                                              or mutated < args.inputs):
            loader = rng.choice(sorted(LOADERS))
            name = rng.choice(LOADERS[loader][0])
            data, must_refuse = mutate(rng, seeds[name])
            mutated += 1
            yield loader, name, data, must_refuse

    try:
        for loader, name, data, must_refuse in inputs():
            build = LOADERS[loader][1]
            path = os.path.join(scratch, "input" + os.path.splitext(name)[1])
            with open(path, "wb") as f:
                f.write(data)
            cmd = build(args.binary, path, scratch)
            t0 = time.monotonic()
            rc, err = run_one(cmd)
            took = time.monotonic() - t0
            if took > slowest[0]:
                slowest = (took, f"{loader}, {len(data)} bytes")
                if args.keep_slowest:
                    shutil.copyfile(path, args.keep_slowest)
            n += 1
            counts[loader] += 1
            if rc in outcomes:
                outcomes[rc] += 1
            reason = judge(rc, err, must_refuse)
            if reason:
                if failures_dir is None:
                    failures_dir = tempfile.mkdtemp(prefix="cb-fuzz-failures-")
                os.makedirs(failures_dir, exist_ok=True)
                kept = os.path.join(failures_dir, f"{len(failures):04d}-{loader}"
                                    + os.path.splitext(name)[1])
                shutil.copyfile(path, kept)
                shown = " ".join(kept if c == path else c for c in cmd)
                first = err.split(b"\n")[0][:200].decode("utf-8", "replace")
                failures.append(f"{reason}: {shown}  [{first}]")
                print(f"FAIL {reason}: {shown}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    elapsed = time.monotonic() - started
    replayed = sum(len(files) for files, _ in LOADERS.values()) if args.replay else 0
    print(f"fuzz: {n} inputs ({replayed} seeds replayed) in {elapsed:.0f} s (seed {args.seed}), slowest {slowest[0]:.2f} s ({slowest[1]}); "
          f"exit 0: {outcomes[0]}, exit 1: {outcomes[1]}, exit 2: {outcomes[2]}; "
          f"{len(failures)} failing")
    print("fuzz: per loader: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for line in failures[:50]:
        print("  " + line)
    if failures:
        print(f"fuzz: failing inputs kept in {failures_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
