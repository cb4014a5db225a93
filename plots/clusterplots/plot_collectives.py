"""busbw_vs_size.png: bus bandwidth against message size, one panel per collective (out-of-place),
one line per GPU count."""

from .curves import DERIVED_PARAMS, params_key, prefer_out_of_place, without
from .labels import distinguishing_keys, params_label
from .layout import colour, figure_title, new_figure, save_figure, size_axis
from .results import cluster_label

PANEL_WIDTH_IN = 6.4
PANEL_HEIGHT_IN = 4.6


def collective_records(records):
    """Usable records with a busbw figure and a message size, out-of-place where measured."""
    chosen = [r for r in records
              if r.usable and "busbw_gbps" in r.metrics and isinstance(r.params.get("bytes"),
                                                                        (int, float))]
    return prefer_out_of_place(chosen)


def size_series(records):
    """{panel key: (case, fixed params, {(gpus, nodes): [(bytes, busbw), ...]})}.

    A panel is a collective with fixed parameters other than the size; GPU counts where every
    busbw is 0 (one rank: nothing crosses a link) are left out."""
    panels = {}
    for r in records:
        fixed = without(r.params, "bytes", *DERIVED_PARAMS)
        key = (r.case, params_key(fixed))
        _, _, lines = panels.setdefault(key, (r.case, fixed, {}))
        lines.setdefault((r.gpus, r.nodes), []).append((r.params["bytes"], r.metrics["busbw_gbps"]))
    for _, _, lines in panels.values():
        for line_key in [k for k, pts in lines.items() if all(v <= 0 for _, v in pts)]:
            del lines[line_key]
        for pts in lines.values():
            pts.sort()
    return {k: v for k, v in sorted(panels.items()) if v[2]}


def gpu_label(gpus, nodes):
    return f"{gpus} GPUs" + (f", {nodes} nodes" if nodes > 1 else "")


def panel_title(case, fixed, all_fixed):
    keys = distinguishing_keys(all_fixed) | ({"in_place"} if "in_place" in fixed else set())
    detail = params_label(fixed, keys)
    return f"{case} ({detail})" if detail else case


def draw_size_panel(ax, title, lines, line_style="-", marker="o", colours=None):
    sizes = [b for pts in lines.values() for b, _ in pts]
    for i, ((gpus, nodes), pts) in enumerate(sorted(lines.items())):
        c = colours[(gpus, nodes)] if colours else colour(i)
        ax.plot([b for b, _ in pts], [v for _, v in pts], color=c, marker=marker, markersize=3,
                linewidth=1.4, linestyle=line_style, label=gpu_label(gpus, nodes))
    size_axis(ax, min(sizes), max(sizes))
    ax.set_ylabel("bus bandwidth (GB/s)")
    ax.set_title(title, fontsize="medium")
    ax.grid(True, alpha=0.3)


def plot_busbw_vs_size(results, options, notes):
    panels = size_series(collective_records(results.records))
    if not panels:
        notes.append(f"{results.path}: no collective records with busbw_gbps and params.bytes; "
                     "busbw_vs_size skipped")
        return []
    fig, axes = new_figure(len(panels), PANEL_WIDTH_IN, PANEL_HEIGHT_IN)
    all_fixed = [fixed for _, fixed, _ in panels.values()]
    for ax, (case, fixed, lines) in zip(axes, panels.values()):
        draw_size_panel(ax, panel_title(case, fixed, all_fixed), lines)
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper left", fontsize="x-small")
    fig.suptitle(figure_title(options, "collective bus bandwidth vs message size",
                              cluster_label(results.run)))
    return save_figure(fig, options, "busbw_vs_size")
