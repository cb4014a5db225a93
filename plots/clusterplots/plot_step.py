"""step_anatomy.png: where a measured data-parallel training step's time went at each GPU count
(workload/data_parallel_step records): a stacked bar per count of compute, exposed communication,
input wait and the rest; and on a second panel the scaling efficiency E(N) = step(1) / step(N),
measured against the prediction from the parts when the report passes it (--prediction)."""

from .curves import params_key
from .formatting import format_percent
from .layout import colour, figure_title, gpu_axis, new_figure, save_figure
from .results import ResultsError, cluster_label, load_report_rows

PANEL_WIDTH_IN = 6.4
PANEL_HEIGHT_IN = 4.6
PARTS = (("compute_s", "compute"), ("exposed_comm_s", "exposed communication"),
         ("input_wait_s", "input wait"))


def step_series(records):
    """The configuration measured at the most GPU counts: (params, [record, ...] by GPU count)."""
    groups = {}
    for r in records:
        if r.suite != "workload" or r.case != "data_parallel_step" or not r.usable:
            continue
        if not all(isinstance(r.metrics.get(k), (int, float)) for k, _ in PARTS + (("step_s", ""),)):
            continue
        _, by_gpus = groups.setdefault(params_key(r.params), (r.params, {}))
        by_gpus[r.gpus] = r
    if not groups:
        return None
    params, by_gpus = max(groups.values(), key=lambda g: len(g[1]))
    return params, [by_gpus[n] for n in sorted(by_gpus)]


def load_prediction(path):
    """The report's training-step comparison: {gpus: (predicted E or None, extrapolated)}."""
    rows = load_report_rows(path, "--prediction", "rows")
    out = {}
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("gpus"), int):
            raise ResultsError(f"--prediction {path}: a row without an integer 'gpus'")
        e = None
        for key in ("calibrated", "predicted"):
            value = row.get(key)
            if isinstance(value, dict) and isinstance(value.get("efficiency"), (int, float)):
                e = value["efficiency"]
                break
        out[row["gpus"]] = (e, bool(row.get("extrapolated")))
    return out


def draw_anatomy(ax, steps):
    counts = [r.gpus for r in steps]
    positions = range(len(counts))
    bottom = [0.0] * len(steps)
    for i, (key, label) in enumerate(PARTS):
        values = [r.metrics[key] * 1e3 for r in steps]
        ax.bar(positions, values, bottom=bottom, color=colour(i), label=label, width=0.6)
        bottom = [b + v for b, v in zip(bottom, values)]
    rest = [max(0.0, r.metrics["step_s"] * 1e3 - b) for r, b in zip(steps, bottom)]
    ax.bar(positions, rest, bottom=bottom, color="#bbbbbb", label="rest of the step", width=0.6)
    for x, r in zip(positions, steps):
        ax.text(x, r.metrics["step_s"] * 1e3, format_percent(r.metrics.get('utilization', 0), 0),
                ha="center", va="bottom", fontsize="x-small")
    ax.set_xticks(list(positions), [str(n) for n in counts])
    ax.set_xlabel("GPUs (N)")
    ax.set_ylabel("step time (ms)")
    ax.set_title("step anatomy (label: utilization = compute / step)", fontsize="medium")
    ax.grid(True, axis="y", alpha=0.3)
    # Headroom above the tallest bar, so the legend (in a row above the bars) hides no label.
    tallest = max((r.metrics["step_s"] * 1e3 for r in steps), default=1.0)
    ax.set_ylim(0, tallest * 1.3)
    ax.legend(loc="upper center", fontsize="x-small", ncol=4)


def draw_efficiency(ax, steps, prediction):
    one = next((r for r in steps if r.gpus == 1), None)
    counts = [r.gpus for r in steps]
    if one is not None:
        ax.plot(counts, [one.metrics["step_s"] / r.metrics["step_s"] for r in steps],
                color=colour(0), marker="o", linewidth=1.6, label="measured")
    if prediction:
        ns = sorted(n for n, (e, _) in prediction.items() if e is not None)
        measured_range = [n for n in ns if not prediction[n][1]]
        beyond = [n for n in ns if prediction[n][1]]
        if measured_range:
            ax.plot(measured_range, [prediction[n][0] for n in measured_range], color=colour(1),
                    marker="s", linewidth=1.2, label="predicted from the parts")
        if beyond:
            # Calibrated by the measured points: drawn on from the last measured efficiency.
            xs, ys = list(beyond), [prediction[n][0] for n in beyond]
            if one is not None:
                xs.insert(0, steps[-1].gpus)
                ys.insert(0, one.metrics["step_s"] / steps[-1].metrics["step_s"])
            ax.plot(xs, ys, color=colour(1), linestyle="--", linewidth=1.2,
                    label="predicted, calibrated (extrapolated)")
        counts = counts + ns
    gpu_axis(ax, min(counts), max(counts))
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("scaling efficiency E(N) = step(1) / step(N)")
    ax.set_title("efficiency: measured and predicted", fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left", fontsize="x-small")


def plot_step_anatomy(results, options, notes, prediction=None):
    """`prediction`: load_prediction()'s {gpus: (efficiency, extrapolated)}, or None."""
    found = step_series(results.records)
    if found is None:
        notes.append(f"{results.path}: no usable workload/data_parallel_step records; "
                     "step_anatomy skipped")
        return []
    _, steps = found
    fig, axes = new_figure(2, PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    draw_anatomy(axes[0], steps)
    draw_efficiency(axes[1], steps, prediction)
    fig.suptitle(figure_title(options, "data-parallel training step", cluster_label(results.run)))
    return save_figure(fig, options, "step_anatomy")
