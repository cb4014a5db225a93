"""link_matrix_<case>.png: the rank-to-rank bandwidth matrix of a links case as an annotated
heatmap, one panel per record (uni- and bidirectional, GPU counts)."""

import math

import numpy as np
from matplotlib import colormaps

from .formatting import format_figure_compact
from .labels import params_label
from .layout import figure_title, new_figure, safe_name, save_figure
from .results import ResultsError, cluster_label

MIN_PANEL_IN = 5.0
INCHES_PER_CELL = 0.55
_SIDE_ROOM_IN = 1.8   # colour bar, tick labels and axis labels around the cells
# Above this many members a side, the cells carry no numbers and the panel stops growing: a
# 1,024-node matrix at 0.55 in a cell would be 563 in (past what a PNG can hold) and a million
# text labels; the colour shows the slow rows and columns, the record keeps the figures.
ANNOTATED_MAX = 32
MAX_PANEL_IN = INCHES_PER_CELL * ANNOTATED_MAX
MAX_TICKS = 32


def link_matrix(record):
    """extra.matrix as a float array (NaN where no figure, e.g. the diagonal); a malformed matrix
    is bad input and names the record."""
    matrix = record.extra.get("matrix")
    where = f"{record.where}: field 'extra.matrix'"
    if not isinstance(matrix, list) or not matrix:
        raise ResultsError(f"{where} must be a non-empty array of rows")
    size = len(matrix)
    values = np.full((size, size), np.nan)
    for i, row in enumerate(matrix):
        if not isinstance(row, list) or len(row) != size:
            raise ResultsError(f"{where}: row {i} must be an array of {size} values "
                               "(square matrix)")
        for j, v in enumerate(row):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ResultsError(f"{where}: [{i}][{j}] must be a number or null")
            values[i, j] = float(v)
    return values


def check_link_matrices(results):
    """Raises ResultsError for the first malformed extra.matrix among the usable records."""
    for record in results.usable_records():
        if "matrix" in record.extra:
            link_matrix(record)


def direction_text(record):
    direction = record.params.get("direction")
    if direction == "bi":
        return "bidirectional (both directions summed)"
    if direction == "uni":
        return "unidirectional"
    return str(direction) if direction is not None else ""


def rank_labels(record, size):
    """'0 n1:2' (rank, host:device) for each rank where per_rank says where it ran, else '0'.
    A matrix of node pairs (extra.matrix_of == 'nodes') is labelled by its nodes' hosts."""
    members = record.extra.get("matrix_members")
    nodes = record.extra.get("matrix_of") == "nodes"
    if nodes and isinstance(members, list) and len(members) == size:
        return [f"{i}  {m.get('host')}" if isinstance(m, dict) else str(i)
                for i, m in enumerate(members)]
    by_rank = {p.get("rank"): p for p in record.per_rank if isinstance(p, dict)}
    labels = []
    for rank in range(size):
        info = by_rank.get(rank, {})
        host, device = info.get("host"), info.get("device")
        labels.append(f"{rank}  {host}:{device}" if host is not None and device is not None
                      else str(rank))
    return labels


def draw_matrix(fig, ax, record, values):
    cmap = colormaps["viridis"].with_extremes(bad="0.85")
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    # The scale starts a little below the slowest link rather than at 0, so that one link 10 %
    # slower than its peers stands out; the colour bar and the numbers in the cells say the truth.
    vmin = max(0.0, low - 0.5 * (high - low)) if high > low else 0.0
    vmax = high if high > vmin else vmin + 1.0
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax)
    size = values.shape[0]
    step = max(1, math.ceil(size / MAX_TICKS))
    ticks = range(0, size, step)
    labels = rank_labels(record, size)
    ax.set_xticks(ticks, labels=[str(rank) for rank in ticks], fontsize="small")
    ax.set_yticks(ticks, labels=[labels[rank] for rank in ticks], fontsize="x-small")
    of = "node" if record.extra.get("matrix_of") == "nodes" else "rank (GPU)"
    ax.set_xlabel(f"destination {of}")
    ax.set_ylabel(f"source {of}")
    midpoint = (vmin + vmax) / 2
    font = "small" if size <= 8 else "xx-small"
    for i in range(size if size <= ANNOTATED_MAX else 0):
        for j in range(size):
            v = values[i, j]
            text = "—" if not math.isfinite(v) else format_figure_compact(v)
            ax.text(j, i, text, ha="center", va="center", fontsize=font,
                    color="white" if math.isfinite(v) and v < midpoint else "black")
    direction = record.params.get("direction")
    if record.extra.get("matrix_metric") == "latency_us":
        unit = "latency (µs)"
    else:
        unit = "GB/s, both directions" if direction == "bi" else "GB/s per direction"
    fig.colorbar(image, ax=ax, shrink=0.85, label=unit)
    detail = params_label(record.params, set(record.params) - {"direction"})
    title = f"{record.case}, {direction_text(record)}, {record.gpus} GPUs"
    ax.set_title(title + (f"\n{detail}" if detail else ""), fontsize="medium")


def plot_link_matrices(results, options, notes):
    by_case = {}
    for r in results.usable_records():
        if "matrix" in r.extra:
            by_case.setdefault(r.case, []).append(r)
    if not by_case:
        notes.append(f"{results.path}: no records with extra.matrix; link matrix plots skipped")
        return []
    cluster = cluster_label(results.run)
    paths = []
    for case, records in sorted(by_case.items()):
        records.sort(key=lambda r: (r.gpus, str(r.params.get("direction")), str(r.params)))
        matrices = [link_matrix(r) for r in records]
        side = min(MAX_PANEL_IN,
                   max(MIN_PANEL_IN, INCHES_PER_CELL * max(m.shape[0] for m in matrices)))
        fig, axes = new_figure(len(records), side + _SIDE_ROOM_IN, side + 1.3, max_columns=2)
        for ax, record, values in zip(axes, records, matrices):
            draw_matrix(fig, ax, record, values)
        fig.suptitle(figure_title(options, f"{case} link bandwidth matrix", cluster))
        paths += save_figure(fig, options, f"link_matrix_{safe_name(case)}")
    return paths
