"""Two runs on the same axes, for comparing clusters or a change: run A solid, run B dashed.

overlay_efficiency.png: per suite, the headline metric (top) and the efficiency (bottom) against
GPU count; overlay_busbw_vs_size.png: bus bandwidth against message size per collective.
"""

import os
from collections import Counter

from matplotlib.lines import Line2D

from .curves import build_scaling_curves, params_key
from .labels import distinguishing_keys, metric_label, params_label
from .layout import (colour, figure_title, gpu_axis, new_figure, new_grid_figure, save_figure,
                     size_axis, wants_log_scale)
from .plot_collectives import collective_records, gpu_label, panel_title, size_series
from .results import cluster_label

PANEL_WIDTH_IN = 6.4
PANEL_HEIGHT_IN = 4.4
RUN_STYLES = (("-", "o"), ("--", "s"))
RUN_TAGS = ("A", "B")


def run_label(tag, results):
    return f"{tag}: {cluster_label(results.run)} ({os.path.basename(results.path)})"


def run_key(ax, runs, loc="lower left"):
    handles = [Line2D([], [], color="0.25", linestyle=style, marker=marker, label=run_label(tag, r))
               for (style, marker), tag, r in zip(RUN_STYLES, RUN_TAGS, runs)]
    return ax.legend(handles=handles, loc=loc, fontsize="x-small", framealpha=0.85)


def family_keys(per_run_curves):
    """For each (suite, case), the parameters that tell its curves apart within one run. Curves of
    two runs with equal values of those are the same family and share a colour, even when other
    parameters differ (array or message sizes chosen per machine)."""
    varying = {}
    for run_curves in per_run_curves:
        by_case = {}
        for c in run_curves:
            by_case.setdefault((c.suite, c.case), []).append(c.params)
        for case, param_sets in by_case.items():
            varying.setdefault(case, set()).update(distinguishing_keys(param_sets))
    return varying


def family(curve, varying):
    keys = varying.get((curve.suite, curve.case), set())
    return (curve.case, params_key({k: curve.params.get(k) for k in sorted(keys)}))


def family_label(curve, varying):
    keys = varying.get((curve.suite, curve.case), set())
    detail = params_label(curve.params, keys)
    if curve.per_rank_metric:
        detail = ", ".join(filter(None, (detail, "largest message size")))
    return curve.case + (f" ({detail})" if detail else "")


def draw_suite(top, bottom, suite, per_run_curves, runs, notes):
    curves = [c for cs in per_run_curves for c in cs]
    metric = Counter(c.metric for c in curves).most_common(1)[0][0]
    for c in curves:
        if c.metric != metric:
            notes.append(f"overlay: {suite}/{c.case} reports {c.metric}, not {metric}; "
                         "left out of the metric panel")
    varying = family_keys(per_run_curves)
    families = sorted({family(c, varying) for c in curves})
    colours = {f: colour(i) for i, f in enumerate(families)}
    labels = {}
    for run_curves, (style, marker) in zip(per_run_curves, RUN_STYLES):
        for c in run_curves:
            key = family(c, varying)
            labels.setdefault(key, family_label(c, varying))
            kwargs = dict(color=colours[key], linestyle=style, marker=marker, markersize=4,
                          linewidth=1.5)
            if c.metric == metric:
                top.plot(c.gpus, c.values, **kwargs)
            bottom.plot(c.gpus, c.efficiency * 100.0, **kwargs)
    low = min(min(c.gpus) for c in curves)
    high = max(max(c.gpus) for c in curves)
    values = [v for c in curves if c.metric == metric for v in c.values]
    gpu_axis(top, low, high)
    if wants_log_scale(values):
        top.set_yscale("log")
    else:
        top.set_ylim(bottom=0)
    top.set_ylabel(metric_label(metric))
    top.set_title(f"{suite}: {metric_label(metric)}", fontsize="medium")
    top.legend(handles=[Line2D([], [], color=colours[f], label=labels[f]) for f in families],
               loc="best", fontsize="x-small")
    gpu_axis(bottom, low, high)
    bottom.axhline(100.0, color="0.5", linewidth=0.8, linestyle=":")
    efficiencies = [e for c in curves for e in c.efficiency * 100.0]
    bottom.set_ylim(0, max(110.0, max(efficiencies) * 1.1))
    bottom.set_ylabel("efficiency (%)\n" + "; ".join(sorted({c.definition for c in curves})),
                      fontsize="small")
    bottom.set_title(f"{suite}: scaling efficiency", fontsize="medium")
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    run_key(bottom, runs)


def overlay_efficiency(runs, options, notes):
    per_run = [build_scaling_curves(r.records) for r in runs]
    suites = sorted({c.suite for cs in per_run for c in cs})
    if not suites:
        notes.append("overlay: neither run has a case at two or more GPU counts; "
                     "overlay_efficiency skipped")
        return []
    fig, grid = new_grid_figure(2, len(suites), PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    for column, suite in enumerate(suites):
        draw_suite(grid[0, column], grid[1, column], suite,
                   [[c for c in cs if c.suite == suite] for cs in per_run], runs, notes)
    fig.suptitle(figure_title(options, "scaling overlay",
                              " vs ".join(cluster_label(r.run) for r in runs)))
    return save_figure(fig, options, "overlay_efficiency")


def overlay_busbw_vs_size(runs, options, notes):
    per_run = [size_series(collective_records(r.records)) for r in runs]
    panel_keys = sorted({k for series in per_run for k in series})
    if not panel_keys:
        notes.append("overlay: neither run has collective records; overlay_busbw_vs_size skipped")
        return []
    counts = sorted({line for series in per_run for _, _, lines in series.values()
                     for line in lines})
    colours = {line: colour(i) for i, line in enumerate(counts)}
    fig, axes = new_figure(len(panel_keys), PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    all_fixed = [series[k][1] for series in per_run for k in series]
    for ax, key in zip(axes, panel_keys):
        values, sizes, shown = [], [], set()
        title = None
        for series, (style, marker) in zip(per_run, RUN_STYLES):
            if key not in series:
                continue
            case, fixed, lines = series[key]
            title = panel_title(case, fixed, all_fixed)
            for line, points in lines.items():
                shown.add(line)
                ax.plot([b for b, _ in points], [v for _, v in points], color=colours[line],
                        linestyle=style, marker=marker, markersize=3, linewidth=1.4)
                values += [v for _, v in points]
                sizes += [b for b, _ in points]
        size_axis(ax, min(sizes), max(sizes))
        if wants_log_scale(values):
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=0)
        ax.set_ylabel("bus bandwidth (GB/s)")
        ax.set_title(title, fontsize="medium")
        ax.grid(True, alpha=0.3)
        key_legend = run_key(ax, runs, loc="lower right")
        ax.legend(handles=[Line2D([], [], color=colours[line], label=gpu_label(*line))
                           for line in sorted(shown)], loc="upper left", fontsize="x-small")
        ax.add_artist(key_legend)
    fig.suptitle(figure_title(options, "bus bandwidth overlay",
                              " vs ".join(cluster_label(r.run) for r in runs)))
    return save_figure(fig, options, "overlay_busbw_vs_size")


def plot_overlay(run_a, run_b, options, notes):
    runs = (run_a, run_b)
    return overlay_efficiency(runs, options, notes) + overlay_busbw_vs_size(runs, options, notes)
