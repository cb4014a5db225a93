"""Figures, panel grids, shared axes and file output.

Figures are built with the object API on an Agg canvas (no pyplot state, no display). Sizes are
fixed per panel and never cropped ("tight" bounding boxes would change the pixel size from run to
run), so a figure of R x C panels is always C * width by R * height + header inches at DPI.
"""

import errno
import math
import os
import re
from dataclasses import dataclass

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

from .labels import format_size

DPI = 100
HEADER_IN = 0.7        # room for the two-line figure title
MAX_COLUMNS = 3
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")


@dataclass
class Options:
    out_dir: str
    title: str = ""
    svg: bool = False


def colour(i):
    return COLOURS[i % len(COLOURS)]


def grid_shape(panels, max_columns=MAX_COLUMNS):
    columns = min(panels, max_columns)
    return math.ceil(panels / columns), columns


def new_grid_figure(rows, columns, panel_width_in, panel_height_in):
    """A figure of rows x columns axes; returns (figure, 2-D array of axes)."""
    fig = Figure(figsize=(columns * panel_width_in, rows * panel_height_in + HEADER_IN), dpi=DPI,
                 layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(rows, columns, squeeze=False)


def new_figure(panels, panel_width_in, panel_height_in, max_columns=MAX_COLUMNS):
    """A figure with `panels` axes filling a grid row by row; returns (figure, the used axes)."""
    rows, columns = grid_shape(panels, max_columns)
    fig, grid = new_grid_figure(rows, columns, panel_width_in, panel_height_in)
    axes = list(grid.ravel())
    for unused in axes[panels:]:
        unused.set_visible(False)
    return fig, axes[:panels]


def figure_title(options, what, cluster):
    """Two lines: what the figure shows (after --title, when given), then where it was measured."""
    prefix = f"{options.title}: " if options.title else ""
    return f"{prefix}{what}\n{cluster}"


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "unnamed"


def save_figure(fig, options, stem):
    """Writes STEM.png (and STEM.svg with --svg) into the output folder; returns the paths.

    Each file is written under a temporary name and renamed, so a reader never sees half a PNG."""
    paths = []
    # SVG text stays text (not outlines): editable, searchable, and smaller.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "clusterbench"}):
        for fmt in ("png", "svg") if options.svg else ("png",):
            paths.append(_save_one(fig, options, stem, fmt))
    return paths


def _save_one(fig, options, stem, fmt):
    path = os.path.join(options.out_dir, f"{stem}.{fmt}")
    tmp = os.path.join(options.out_dir, f".{stem}.{fmt}.tmp-{os.getpid()}")
    # Only a regular file (or a link to one) is replaced: never a device, FIFO or directory.
    if os.path.lexists(path) and not os.path.isfile(path):
        raise OSError(errno.EEXIST, "exists and is not a regular file", path)
    try:
        # No timestamp in the SVG, so the same results give the same file.
        fig.savefig(tmp, format=fmt, dpi=DPI, metadata={"Date": None} if fmt == "svg" else None)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def _powers_of_two_between(low, high):
    first = math.floor(math.log2(low))
    last = math.ceil(math.log2(high))
    return [2.0**e for e in range(first, last + 1)]


def gpu_axis(ax, low, high, label="GPUs (N)"):
    """Log2 x axis with a tick at every power of two, labelled as plain integers."""
    ax.set_xscale("log", base=2)
    ticks = _powers_of_two_between(low, high)
    ax.set_xlim(ticks[0] / 1.25, ticks[-1] * 1.25)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(label)


def size_axis(ax, low, high, label="message size (bytes, log2 scale)"):
    """Log2 x axis of byte counts with about six size labels (8 B, 128 B, 2 KiB, ...)."""
    ax.set_xscale("log", base=2)
    ticks = _powers_of_two_between(low, high)
    step = max(1, math.ceil(len(ticks) / 7))
    ax.set_xlim(ticks[0] / 1.3, ticks[-1] * 1.3)
    ax.xaxis.set_major_locator(FixedLocator(ticks[::step]))
    ax.xaxis.set_minor_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: format_size(v).replace(" ", "")))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(label)


def wants_log_scale(values, ratio=20.0):
    """A log y axis when positive values span more than `ratio` (e.g. two clusters overlaid)."""
    positive = [v for v in values if v > 0]
    return bool(positive) and max(positive) / min(positive) > ratio
