#!/usr/bin/env python3
"""Plots a clusterbench results file.

    python3 plots/plot.py RESULTS.json --out DIR [--title TEXT] [--svg] [--overlay B.json]
                          [--prediction STEP.json] [--goodput GOODPUT.json]

Writes efficiency_<suite>.png, busbw_vs_size.png, link_matrix_<case>.png, storage_readers.png,
step_anatomy.png, with --goodput useful_work.png and,
with --overlay, overlay_efficiency.png and overlay_busbw_vs_size.png; prints each path written, one
per line. A plot whose records are absent is skipped with a note on stderr. Exit status: 0 done,
2 bad input (the message names the file and field, or the flag).
"""

import argparse
import os
import sys

try:
    import matplotlib
except ImportError:
    # Debian's python3-matplotlib belongs to the system interpreter; the python3 first on PATH (pyenv,
    # a venv without plots/requirements.txt) may lack it.
    system = "/usr/bin/python3"
    if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
        os.execv(system, [system, *sys.argv])
    print("plot.py: matplotlib is not installed (apt-get install python3-matplotlib, or "
          "pip install -r plots/requirements.txt)", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from clusterplots.layout import Options  # noqa: E402
from clusterplots.plot_collectives import plot_busbw_vs_size  # noqa: E402
from clusterplots.plot_efficiency import plot_efficiency  # noqa: E402
from clusterplots.plot_goodput import load_goodput, plot_goodput  # noqa: E402
from clusterplots.plot_links import check_link_matrices, plot_link_matrices  # noqa: E402
from clusterplots.plot_overlay import plot_overlay  # noqa: E402
from clusterplots.plot_step import load_prediction, plot_step_anatomy  # noqa: E402
from clusterplots.plot_storage import plot_storage  # noqa: E402
from clusterplots.results import ResultsError, load_results  # noqa: E402

PROG = "plot.py"
SINGLE_RUN_PLOTS = (plot_efficiency, plot_busbw_vs_size, plot_link_matrices, plot_storage)


class UsageError(Exception):
    """A flag with a value that cannot be used; the message names the flag."""


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Plot a clusterbench results file (PNG, optionally SVG).")
    parser.add_argument("results", metavar="RESULTS.json", help="results file (schema v1)")
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="folder for the figures (created if missing)")
    parser.add_argument("--title", metavar="TEXT", default="",
                        help="text put in front of every figure title")
    parser.add_argument("--svg", action="store_true", help="write an SVG beside each PNG")
    parser.add_argument("--prediction", metavar="STEP.json",
                        help="the report's training-step comparison (measured against "
                             "predicted), drawn on step_anatomy.png")
    parser.add_argument("--goodput", metavar="GOODPUT.json",
                        help="the report's goodput figures per GPU count (efficiency, goodput, "
                             "useful work), drawn as useful_work.png")
    parser.add_argument("--overlay", metavar="B.json",
                        help="a second results file drawn dashed over the first, for comparison")
    return parser.parse_args(argv)


def prepare_out_dir(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {path}: cannot create the folder: {e.strerror or e}") from None
    if not os.access(path, os.W_OK):
        raise UsageError(f"--out {path}: folder is not writable")


def run(args):
    results = load_results(args.results)
    overlay = load_results(args.overlay) if args.overlay else None
    for checked in filter(None, (results, overlay)):
        check_link_matrices(checked)     # bad input stops before any figure is written
    prediction = load_prediction(args.prediction) if args.prediction else None
    goodput = load_goodput(args.goodput) if args.goodput else None
    prepare_out_dir(args.out)
    options = Options(out_dir=args.out, title=args.title, svg=args.svg)
    notes = []
    jobs = [lambda plot=plot: plot(results, options, notes) for plot in SINGLE_RUN_PLOTS]
    jobs.append(lambda: plot_step_anatomy(results, options, notes, prediction))
    if goodput is not None:
        jobs.append(lambda: plot_goodput(results, options, notes, goodput))
    if overlay is not None:
        jobs.append(lambda: plot_overlay(results, overlay, options, notes))
    for job in jobs:
        try:
            paths = job()
        except OSError as e:
            raise UsageError(f"--out {args.out}: cannot write {e.filename or 'a figure'}: "
                             f"{e.strerror or e}") from None
        except (ResultsError, UsageError):
            raise
        except (ValueError, RuntimeError, MemoryError, OverflowError) as e:
            # One figure that matplotlib cannot draw (a size past its limits) costs that figure,
            # not the ones after it.
            notes.append(f"a figure could not be drawn: {type(e).__name__}: {str(e)[:200]}")
            continue
        for path in paths:
            print(path, flush=True)
    for note in notes:
        print(f"{PROG}: note: {note}", file=sys.stderr)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        run(args)
    except (ResultsError, UsageError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
