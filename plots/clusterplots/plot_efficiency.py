"""efficiency_<suite>.png: scaling efficiency against GPU count, one line per curve.

Measured points (hollow when the record was noisy), the USL fit stored in the results through
them (solid), its extrapolation to 4 x the largest measured N (dashed) and a 95 % bootstrap band;
a curve whose fit the file does not store is drawn as joined points marked "no fit stored". Up to
MAX_LINES_PER_PANEL curves share one panel; more are split into one panel per case.
"""

import math

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .curves import build_scaling_curves
from .formatting import format_figure_compact
from .labels import distinguishing_keys
from .layout import colour, figure_title, gpu_axis, new_figure, safe_name, save_figure
from .model import (EXTRAPOLATION_FACTOR, FROM_FITS, NO_FIT_STORED, evaluation_grids,
                    has_enough_points, model_for)
from .results import cluster_label

MAX_LINES_PER_PANEL = 6
PANEL_WIDTH_IN = 7.0
PANEL_HEIGHT_IN = 4.8


def panels_for(curves):
    """Curves grouped into panels: all in one when few, else by case, at most MAX per panel."""
    if len(curves) <= MAX_LINES_PER_PANEL:
        return [curves]
    by_case = {}
    for c in curves:
        by_case.setdefault(c.case, []).append(c)
    panels = []
    for group in by_case.values():
        for start in range(0, len(group), MAX_LINES_PER_PANEL):
            panels.append(group[start:start + MAX_LINES_PER_PANEL])
    return panels


def model_label(model, curve):
    if model is None:
        # Said on the plot, beside the curve, so a reader does not take the joined points for a fit.
        return f"  ({NO_FIT_STORED})" if has_enough_points(curve) else ""
    peak = model.n_peak
    peak_text = "∞" if math.isinf(peak) else format_figure_compact(peak)
    source = ", from fits" if model.source == FROM_FITS else ""
    fit_quality = f" R²={model.r2:.2f}" if math.isfinite(model.r2) else ""
    return f"  α={model.alpha:.2g} β={model.beta:.2g} N*={peak_text}{fit_quality}{source}"


def node_boundary(ax, curves):
    """A dotted vertical line where the sweep first crosses to a second node."""
    crossings = []
    for c in curves:
        points = list(zip(c.gpus, c.nodes))
        for (n_before, nodes_before), (n_after, nodes_after) in zip(points, points[1:]):
            if nodes_before == 1 and nodes_after > 1:
                crossings.append(math.sqrt(n_before * n_after))
    if crossings:
        x = min(crossings)
        ax.axvline(x, color="0.45", linestyle=":", linewidth=1)
        ax.text(x, 0.02, " more than one node →", transform=ax.get_xaxis_transform(),
                fontsize="x-small", color="0.35", va="bottom")


def draw_curve(ax, curve, model, colour_value):
    """Draws one curve; returns the largest efficiency within the measured range."""
    eff = curve.efficiency * 100.0
    top = float(np.max(eff))
    for i, (n, e) in enumerate(zip(curve.gpus, eff)):
        ax.plot([n], [e], marker="o", markersize=6, linestyle="none", color=colour_value,
                markerfacecolor="white" if curve.noisy[i] else colour_value, zorder=3)
    if model is None:
        ax.plot(curve.gpus, eff, color=colour_value, linewidth=1.2)
        return top
    measured_range, beyond = evaluation_grids(curve)
    fitted = model.efficiency(measured_range) * 100.0
    ax.plot(measured_range, fitted, color=colour_value, linewidth=1.8)
    ax.plot(beyond, model.efficiency(beyond) * 100.0, color=colour_value, linewidth=1.4,
            linestyle="--")
    grid = np.concatenate((measured_range, beyond[1:]))
    band = model.band(grid)
    if band is not None:
        ax.fill_between(grid, band[0] * 100.0, band[1] * 100.0, color=colour_value, alpha=0.14,
                        linewidth=0)
    return max(top, float(np.max(fitted)))


def style_key(ax, any_noisy):
    handles = [Line2D([], [], marker="o", color="0.3", linestyle="none", label="measured")]
    if any_noisy:
        handles.append(Line2D([], [], marker="o", color="0.3", markerfacecolor="white",
                              linestyle="none", label="measured, noisy"))
    handles += [Line2D([], [], color="0.3", linewidth=1.8, label="USL fit"),
                Line2D([], [], color="0.3", linestyle="--",
                       label=f"extrapolated to {EXTRAPOLATION_FACTOR}× N"),
                Patch(facecolor="0.3", alpha=0.2, label="95 % bootstrap band")]
    return ax.legend(handles=handles, loc="lower left", fontsize="x-small", framealpha=0.85)


def draw_panel(ax, curves, fits, notes):
    keys = distinguishing_keys([c.params for c in curves])
    top = 100.0
    handles = []
    for i, curve in enumerate(curves):
        model = model_for(curve, fits)
        if model is None and not has_enough_points(curve):
            notes.append(f"{curve.suite}/{curve.case}: {len(curve.gpus)} GPU counts, too few for a "
                         "USL fit; points drawn without a model")
        elif model is None:
            notes.append(f"{curve.suite}/{curve.case}: {NO_FIT_STORED} (run `clusterbench fit "
                         "RESULTS --in-place`); points drawn without a model")
        for warning in model.warnings if model else []:
            notes.append(f"{curve.suite}/{curve.case}: fit warning: {warning}")
        top = max(top, draw_curve(ax, curve, model, colour(i)))
        handles.append(Line2D([], [], color=colour(i), marker="o",
                              label=curve.label(keys) + model_label(model, curve)))
    low_n = min(min(c.gpus) for c in curves)
    high_n = EXTRAPOLATION_FACTOR * max(max(c.gpus) for c in curves)
    gpu_axis(ax, low_n, high_n)
    ax.axhline(100.0, color="0.5", linewidth=0.8, linestyle=":")
    ax.set_ylim(0, top * 1.12)
    definitions = sorted({c.definition for c in curves})
    ax.set_ylabel("efficiency (%)\n" + "; ".join(definitions), fontsize="small")
    ax.set_title(", ".join(sorted({c.case for c in curves})), fontsize="medium")
    ax.grid(True, which="major", alpha=0.3)
    node_boundary(ax, curves)
    key = style_key(ax, any(any(c.noisy) for c in curves))
    ax.legend(handles=handles, loc="upper right", fontsize="x-small", framealpha=0.85)
    ax.add_artist(key)


def plot_efficiency(results, options, notes):
    curves = build_scaling_curves(results.records)
    if not curves:
        notes.append(f"{results.path}: no case measured at two or more GPU counts; "
                     "efficiency plots skipped")
        return []
    by_suite = {}
    for c in curves:
        by_suite.setdefault(c.suite, []).append(c)
    cluster = cluster_label(results.run)
    paths = []
    for suite, suite_curves in sorted(by_suite.items()):
        panels = panels_for(suite_curves)
        fig, axes = new_figure(len(panels), PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
        for ax, panel in zip(axes, panels):
            draw_panel(ax, panel, results.fits, notes)
        fig.suptitle(figure_title(options, f"{suite} scaling efficiency", cluster))
        paths += save_figure(fig, options, f"efficiency_{safe_name(suite)}")
    return paths
