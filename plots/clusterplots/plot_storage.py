"""storage_readers.png: aggregate read throughput against the number of readers, one panel per case
(seq_read, rand_read, ...), one line per block size (and any other parameter that varies)."""

from .curves import params_key
from .labels import distinguishing_keys, params_label
from .layout import colour, figure_title, gpu_axis, new_figure, save_figure, wants_log_scale
from .results import cluster_label

PANEL_WIDTH_IN = 6.4
PANEL_HEIGHT_IN = 4.6


def storage_series(records):
    """{case: {params key: (params, [(readers, gbps, noisy), ...])}} from usable storage records."""
    series = {}
    for r in records:
        if r.suite != "storage" or not r.usable or "gbps" not in r.metrics:
            continue
        lines = series.setdefault(r.case, {})
        _, points = lines.setdefault(params_key(r.params), (r.params, []))
        points.append((r.gpus, r.metrics["gbps"], r.status == "noisy"))
    for lines in series.values():
        for _, points in lines.values():
            points.sort()
    return dict(sorted(series.items()))


def line_label(params, keys):
    if not keys and "block_bytes" in params:
        keys = {"block_bytes"}
    return params_label(params, keys) or "all"


# What a case's ranks do with the bytes, for its axes: the checkpoint cases write and snapshot.
CASE_WORDS = {"checkpoint_write": ("write", "writers"), "checkpoint_stage": ("snapshot", "ranks")}


def draw_storage_panel(ax, case, lines):
    verb, doers = CASE_WORDS.get(case, ("read", "readers"))
    keys = distinguishing_keys([p for p, _ in lines.values()])
    readers = [n for _, pts in lines.values() for n, _, _ in pts]
    ordered = sorted(lines.values(), key=lambda item: params_key(item[0]))
    for i, (params, points) in enumerate(ordered):
        c = colour(i)
        ns, values = [p[0] for p in points], [p[1] for p in points]
        ax.plot(ns, values, color=c, marker="o", linewidth=1.6, label=line_label(params, keys))
        for n, v, noisy in points:
            if noisy:
                ax.plot([n], [v], marker="o", color=c, markerfacecolor="white", zorder=3)
        # Linear scaling from the smallest reader count, for reference.
        ax.plot([ns[0], ns[-1]], [values[0], values[0] * ns[-1] / ns[0]], color=c,
                linestyle=":", linewidth=1.0, alpha=0.8)
    gpu_axis(ax, min(readers), max(readers), label=f"{doers} (GPUs)")
    all_values = [v for _, pts in lines.values() for _, v, _ in pts]
    if wants_log_scale(all_values):
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_ylabel(f"aggregate {verb} throughput (GB/s)")
    ax.set_title(f"{case} (dotted: linear scaling)", fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="x-small")


def plot_storage(results, options, notes):
    series = storage_series(results.records)
    if not series:
        notes.append(f"{results.path}: no usable storage records with metrics.gbps; "
                     "storage_readers skipped")
        return []
    fig, axes = new_figure(len(series), PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    for ax, (case, lines) in zip(axes, series.items()):
        draw_storage_panel(ax, case, lines)
    title = ("storage throughput vs ranks" if any(case in CASE_WORDS for case in series)
             else "storage read throughput vs readers")
    fig.suptitle(figure_title(options, title,
                              cluster_label(results.run)))
    return save_figure(fig, options, "storage_readers")
