"""Reading clusterbench results files (schema v1) for plotting.

The C++ loader (harness/results/results_io.cpp) is the authority on the schema; this reader checks
the same top-level contract and the record fields the plots use, so a bad file stops with one line
naming the file and the field instead of a traceback halfway through drawing.
"""

import json
import math
from dataclasses import dataclass, field

from .metric_table import BY_NAME

SCHEMA_NAME = "clusterbench.results"
SCHEMA_VERSION = 1
USABLE_STATUSES = ("ok", "noisy")
_STATUSES = ("ok", "noisy", "skipped", "failed")
_CHECKS = ("pass", "fail", "skipped")


class ResultsError(ValueError):
    """Bad input: the message names the file and the field."""


def load_report_rows(path, flag, key):
    """The list under `key` of a JSON file the report wrote for a plot (--goodput, --prediction);
    ResultsError naming the flag and the file when it cannot be read or has no such list."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ResultsError(f"{flag} {path}: cannot read it: {e}") from None
    rows = data.get(key) if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise ResultsError(f"{flag} {path}: no '{key}' list")
    return rows


@dataclass
class Record:
    suite: str
    case: str
    params: dict
    gpus: int
    nodes: int
    ranks_per_node: int
    tier: str
    samples_s: list
    stats: dict
    metrics: dict
    per_rank: list
    check: str
    status: str
    reason: str = ""
    extra: dict = field(default_factory=dict)
    where: str = ""  # "FILE: records[i]", for messages about this record

    @property
    def usable(self):
        return self.status in USABLE_STATUSES


@dataclass
class Results:
    path: str
    run: dict
    records: list
    fits: dict

    def usable_records(self):
        return [r for r in self.records if r.usable]


def _type_name(kind):
    return {dict: "an object", list: "an array", str: "a string", int: "an integer",
            float: "a number", bool: "a boolean"}[kind]


def _require(obj, key, kind, where):
    if key not in obj:
        raise ResultsError(f"{where}: missing field '{key}'")
    value = obj[key]
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ResultsError(f"{where}: field '{key}' must be {_type_name(kind)}")
    return value


def _require_one_of(obj, key, allowed, where):
    value = _require(obj, key, str, where)
    if value not in allowed:
        raise ResultsError(f"{where}: field '{key}' is '{value}', allowed {'|'.join(allowed)}")
    return value


def _finite_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def record_from_json(obj, where):
    if not isinstance(obj, dict):
        raise ResultsError(f"{where}: must be an object")
    gpus = _require(obj, "gpus", int, where)
    if gpus < 1:
        raise ResultsError(f"{where}: field 'gpus' must be at least 1")
    nodes = _require(obj, "nodes", int, where)
    metrics = _require(obj, "metrics", dict, where)
    for name, value in metrics.items():
        if not _finite_number(value):
            raise ResultsError(f"{where}: metric '{name}' must be a finite number")
    samples = _require(obj, "samples_s", list, where)
    if not all(_finite_number(s) for s in samples):
        raise ResultsError(f"{where}: field 'samples_s' must hold numbers")
    per_rank = obj.get("per_rank", [])
    if not isinstance(per_rank, list):
        raise ResultsError(f"{where}: field 'per_rank' must be an array")
    extra = obj.get("extra", {})
    if not isinstance(extra, dict):
        raise ResultsError(f"{where}: field 'extra' must be an object")
    stats = _require(obj, "stats", dict, where)
    _check_record_figures(obj, stats, samples, metrics, where)
    if "per_rank_derived" in obj:
        _restore_rank_rates(obj["per_rank_derived"], metrics, stats, per_rank, where)
    return Record(
        suite=_require(obj, "suite", str, where),
        case=_require(obj, "case", str, where),
        params=_require(obj, "params", dict, where),
        gpus=gpus,
        nodes=nodes,
        ranks_per_node=_require(obj, "ranks_per_node", int, where),
        tier=obj.get("tier", "inter" if nodes > 1 else "intra"),
        samples_s=[float(s) for s in samples],
        stats=stats,
        metrics={name: float(value) for name, value in metrics.items()},
        per_rank=per_rank,
        check=_require_one_of(obj, "check", _CHECKS, where),
        status=_require_one_of(obj, "status", _STATUSES, where),
        reason=obj.get("reason", "") if isinstance(obj.get("reason", ""), str) else "",
        extra=extra,
        where=where,
    )


# The checks of harness/results/record_figures.cpp: a record whose figures contradict each other
# (an edited median, samples outside min..max) is refused, as the C++ loader refuses it. The slack
# is for figures written to 6 significant digits; imports keep a tool's 2 decimals.
_SLACK = 1e-5


def _close(a, b, relative, absolute=0.0):
    return abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))


def _check_record_figures(obj, stats, samples, metrics, where):
    def contradiction(what):
        raise ResultsError(f"{where}: {what}; the record's figures contradict each other")

    def number(key):
        value = stats.get(key)
        return float(value) if _finite_number(value) else None

    order = [(k, number(k)) for k in ("min_s", "p05_s", "median_s", "p95_s", "p99_s", "max_s")]
    order = [(k, v) for k, v in order if v is not None and not (k == "p99_s" and v <= 0)]
    for (low_name, low), (high_name, high) in zip(order, order[1:]):
        if low > high + _SLACK * max(abs(low), abs(high)):
            contradiction(f"stats.{low_name} {low:.6g} is above stats.{high_name} {high:.6g}")
    low, high, median = number("min_s"), number("max_s"), number("median_s")
    if samples and low is not None and high is not None:
        count = stats.get("count")
        if isinstance(count, int) and count < len(samples):
            contradiction(f"stats.count is {count} and samples_s holds {len(samples)}")
        if not _close(min(samples), low, _SLACK) or not _close(max(samples), high, _SLACK):
            contradiction(f"samples_s spans {min(samples):.6g}..{max(samples):.6g} s and "
                          f"stats.min_s..stats.max_s say {low:.6g}..{high:.6g}")
        if count == len(samples) and median is not None:
            ordered = sorted(samples)
            mid = len(ordered) // 2
            own = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
            if not _close(own, median, _SLACK):
                contradiction(f"stats.median_s is {median:.6g} and the median of samples_s "
                              f"{own:.6g}")
    if median is None or median <= 0:
        return
    if "time_us" in metrics and not _close(metrics["time_us"], median * 1e6, 1e-3, 0.006):
        contradiction(f"metrics.time_us is {metrics['time_us']:.6g} and stats.median_s "
                      f"{median:.6g} s")
    params = obj.get("params")
    size = params.get("bytes") if isinstance(params, dict) else None
    if obj.get("suite") == "collectives" and "algbw_gbps" in metrics and _finite_number(size):
        expected = size / median / 1e9
        if not _close(metrics["algbw_gbps"], expected, 0.01, 0.006):
            contradiction(f"metrics.algbw_gbps is {metrics['algbw_gbps']:.6g} and params.bytes / "
                          f"stats.median_s is {expected:.6g} GB/s")


def _rank_rate(name):
    """As harness/results/per_rank_rates.cpp: better when higher, and no identity, time, share or
    samples of an entry."""
    if name in ("rank", "host", "node", "device", "uuid", "shortest_share", "p99_s", "median_s",
                "samples_s"):
        return False
    known = BY_NAME.get(name)
    if known is not None:
        return known.higher_is_better and known.unit != "s"
    if name.endswith("tokens_per_s"):
        return True
    times = ("_us", "_ms", "_ns", "_s")
    return not name.endswith(times) and not name.startswith(("latency", "time"))


def _restore_rank_rates(derived, metrics, stats, per_rank, where):
    """The rates a writer left out of every per_rank entry (harness/results/per_rank_rates.hpp):
    the record's metric times stats.median_s / the entry's median_s, to 6 significant digits."""
    field = "field 'per_rank_derived'"
    if not isinstance(derived, list) or not 1 <= len(derived) <= 64:
        raise ResultsError(f"{where}: {field} must be an array of 1 to 64 metric names")
    if not all(isinstance(name, str) for name in derived) or len(set(derived)) != len(derived):
        raise ResultsError(f"{where}: {field} must hold distinct metric names")
    for name in derived:
        if not _rank_rate(name):
            raise ResultsError(f"{where}: {field} names {name[:80]!r}, which is no rate of a "
                               "rank's time")
        if name not in metrics:
            raise ResultsError(f"{where}: {field} names {name[:80]!r}, which is not among the "
                               "record's metrics")
        if not metrics[name] > 0:
            raise ResultsError(f"{where}: {field} names {name[:80]!r}, whose metric is not "
                               "positive")
    median = stats.get("median_s") if isinstance(stats, dict) else None
    if not _finite_number(median) or median <= 0:
        raise ResultsError(f"{where}: {field} needs a positive stats.median_s")
    if not per_rank:
        raise ResultsError(f"{where}: {field} given without per_rank entries")
    for i, entry in enumerate(per_rank):
        own = entry.get("median_s") if isinstance(entry, dict) else None
        if not _finite_number(own) or own <= 0:
            raise ResultsError(f"{where}: per_rank[{i}] has no positive median_s, which {field} "
                               "derives its rates from")
        for name in derived:
            if name in entry:
                raise ResultsError(f"{where}: per_rank[{i}] has {name[:80]!r}, which {field} says "
                                   "is derived")
            value = float(f"{metrics[name] * median / own:.6g}")
            if not math.isfinite(value) or value > 1e12:
                raise ResultsError(f"{where}: per_rank[{i}].{name}, which {field} derives from "
                                   f"median_s {own}, is out of bounds")
            entry[name] = value


def results_from_json(obj, source):
    if not isinstance(obj, dict):
        raise ResultsError(f"{source}: not a clusterbench results file "
                           "(top level is not an object)")
    schema = _require(obj, "schema", str, source)
    if schema != SCHEMA_NAME:
        raise ResultsError(f"{source}: field 'schema' is '{schema}', expected '{SCHEMA_NAME}'")
    version = _require(obj, "schema_version", int, source)
    if version != SCHEMA_VERSION:
        raise ResultsError(f"{source}: field 'schema_version' is {version}, "
                           f"these plots read {SCHEMA_VERSION}")
    run = _require(obj, "run", dict, source)
    records = _require(obj, "records", list, source)
    parsed = [record_from_json(r, f"{source}: records[{i}]") for i, r in enumerate(records)]
    identities = rank_identities(run)
    for raw, record in zip(records, parsed):
        if restores_identities(raw, run, identities):
            for entry in record.per_rank:
                restore_identity(entry, identities)
    fits = obj.get("fits", {})
    return Results(path=source, run=run, records=parsed,
                   fits=fits if isinstance(fits, dict) else {})


def rank_identities(run):
    """{rank: {host, node, device, uuid}} from the run header's hosts[].devices[] (each with its
    world rank): what a writer leaves out of each per_rank entry (harness/results/rank_identity.hpp,
    whose rules these are: no run id, no table; names longer than a host or UUID are passed over;
    a rank's first device counts)."""
    out = {}
    hosts = run.get("hosts")
    if not isinstance(run.get("id"), str) or not run["id"] or not isinstance(hosts, list):
        return out
    for host in hosts:
        if not isinstance(host, dict) or not isinstance(host.get("host"), str) or \
                not isinstance(host.get("devices"), list) or len(host["host"]) > 255:
            continue
        for device in host["devices"]:
            if not isinstance(device, dict) or not _whole(device.get("rank")):
                continue
            identity = {"host": host["host"]}
            if _whole(host.get("node")):
                identity["node"] = host["node"]
            if _whole(device.get("index")):
                identity["device"] = device["index"]
            if isinstance(device.get("uuid"), str):
                if len(device["uuid"]) > 128:
                    continue
                identity["uuid"] = device["uuid"]
            out.setdefault(device["rank"], identity)
    return out


def restores_identities(raw_record, run, identities):
    """Whether a record's per_rank entries left their identity to this header: it is tagged with
    this run's id (a record copied in from another run keeps its own tag and is not restored)."""
    return bool(identities) and isinstance(raw_record, dict) and \
        raw_record.get("per_rank_run") == run.get("id") and \
        isinstance(raw_record.get("per_rank"), list) and \
        len(raw_record["per_rank"]) <= len(identities)


def restore_identity(entry, identities):
    """Adds to a per_rank entry the identity fields it lacks, from its rank's."""
    if isinstance(entry, dict) and _whole(entry.get("rank")):
        for key, value in identities.get(entry["rank"], {}).items():
            entry.setdefault(key, value)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _RepeatedKey(ValueError):
    pass


def _refusing_repeated_keys(pairs):
    # json.loads keeps the last value of a repeated key; the C++ loaders refuse such a file
    # (harness/results/json_tree_builder.hpp), and so does this one.
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _RepeatedKey(key)
        obj[key] = value
    return obj


def load_results(path):
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ResultsError(f"{path}: cannot open: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ResultsError(f"{path}: not valid JSON (not UTF-8 text)") from None
    try:
        obj = json.loads(text, object_pairs_hook=_refusing_repeated_keys)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno} column {e.colno}"
        raise ResultsError(f"{path}: not valid JSON ({e.msg} at {where})") from None
    except _RepeatedKey as e:
        raise ResultsError(f"{path}: key {str(e.args[0])[:80]!r} appears twice in one object; "
                           "which of its values is meant cannot be told, so the file is "
                           "refused") from None
    return results_from_json(obj, path)


def _first_device_name(run):
    hosts = run.get("hosts")
    if not isinstance(hosts, list) or not hosts or not isinstance(hosts[0], dict):
        return None
    devices = hosts[0].get("devices")
    if isinstance(devices, list) and devices and isinstance(devices[0], dict):
        name = devices[0].get("name")
        if isinstance(name, str) and name:
            return name
    return None


def cluster_label(run):
    """'n1 (+1 host) · NVIDIA H200 · cuda': what a title or legend says about where a run ran."""
    parts = []
    hosts = run.get("hosts")
    if isinstance(hosts, list) and hosts and isinstance(hosts[0], dict):
        host = hosts[0].get("host")
        if isinstance(host, str) and host:
            more = len(hosts) - 1
            parts.append(host + (f" (+{more} host{'s' if more > 1 else ''})" if more else ""))
    device = _first_device_name(run)
    if device:
        parts.append(device)
    backend = run.get("backend")
    if isinstance(backend, str) and backend:
        parts.append(backend)
    return " · ".join(parts) if parts else "unknown cluster"
