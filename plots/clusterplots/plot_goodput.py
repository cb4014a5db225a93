"""useful_work.png: scaling efficiency, goodput and useful work = efficiency x goodput against the
GPU count, from the report's goodput figures (--goodput: the "at" list of the report JSON's
headline.goodput). Points extrapolated beyond the counts measured are drawn hollow on a dashed
line; the efficiency and useful work exist only at the counts the report priced."""

import json
import math

from .layout import colour, figure_title, gpu_axis, new_figure, save_figure
from .results import ResultsError, cluster_label, load_report_rows

PANEL_WIDTH_IN = 6.4
PANEL_HEIGHT_IN = 4.6
SERIES = (("efficiency", "scaling efficiency"), ("goodput", "goodput"),
          ("useful_work", "useful work = efficiency x goodput"))


def _share(path, i, row, key, required):
    value = row.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not 0 <= value <= 1:
        raise ResultsError(f"--goodput {path}: at[{i}].{key} must be a share in [0, 1], "
                           f"got {json.dumps(value)[:40]}")
    return float(value)


def load_goodput(path):
    """[(gpus, {key: share or None}, extrapolated)] by GPU count; ResultsError naming the field."""
    rows = load_report_rows(path, "--goodput", "at")
    out = []
    for i, row in enumerate(rows):
        gpus = row.get("gpus") if isinstance(row, dict) else None
        if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 1:
            raise ResultsError(f"--goodput {path}: at[{i}] has no GPU count of 1 or more")
        shares = {key: _share(path, i, row, key, key == "goodput") for key, _ in SERIES}
        out.append((gpus, shares, bool(row.get("extrapolated"))))
    return sorted(out, key=lambda r: r[0])


def plot_goodput(results, options, notes, goodput=None):
    """`goodput`: load_goodput()'s rows, or None (no checkpoint records: nothing to draw)."""
    if not goodput:
        notes.append(f"{results.path}: no goodput figures (storage/checkpoint_write and "
                     "checkpoint_read records); useful_work skipped")
        return []
    fig, axes = new_figure(1, PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    ax = axes[0]
    for i, (key, label) in enumerate(SERIES):
        points = [(n, s[key], beyond) for n, s, beyond in goodput if s[key] is not None]
        if not points:
            continue
        ax.plot([p[0] for p in points], [p[1] for p in points], color=colour(i), linewidth=1.4,
                linestyle="-" if not any(p[2] for p in points) else "--", label=label)
        for n, value, beyond in points:
            ax.plot([n], [value], marker="o", color=colour(i),
                    markerfacecolor="white" if beyond else colour(i))
    counts = [n for n, _, _ in goodput]
    gpu_axis(ax, min(counts), max(counts))
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share of the GPUs' time")
    ax.set_title("useful work (hollow: extrapolated)", fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize="x-small")
    fig.suptitle(figure_title(options, "scaling efficiency x goodput", cluster_label(results.run)))
    return save_figure(fig, options, "useful_work")
