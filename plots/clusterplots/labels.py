"""Human-readable labels: sizes, parameter sets, metric names with units."""

from .formatting import format_size  # noqa: F401 (labels name sizes; formatting prints them)
from .metric_table import METRICS

_SIZE_KEYS = ("bytes", "block_bytes", "file_bytes")

METRIC_LABELS = {m.name: m.axis_label for m in METRICS}


def format_param(key, value):
    if key in _SIZE_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
        size = format_size(value)
        return size if key == "bytes" else f"{key.replace('_bytes', '')} {size}"
    if key == "in_place" and isinstance(value, bool):
        return "in-place" if value else "out-of-place"
    if isinstance(value, bool):
        return key.replace("_", " ") if value else f"no {key.replace('_', ' ')}"
    return f"{key} {value}"


def params_label(params, keys):
    """The parameters among `keys` (those that tell curves apart), in a stable order."""
    return ", ".join(format_param(k, params[k]) for k in sorted(keys) if k in params)


def distinguishing_keys(param_sets):
    """Keys whose values differ between the given parameter dicts (absent counts as a value)."""
    keys = set()
    for p in param_sets:
        keys.update(p.keys())
    return {k for k in keys if len({repr(p.get(k)) for p in param_sets}) > 1}


def metric_label(metric):
    return METRIC_LABELS.get(metric, metric)
