"""Scaling curves: one case with fixed parameters, its headline metric against the GPU count.

Efficiency (docs/REFERENCE.md, "Scaling efficiency"):
- aggregate throughputs (gbps, gflops, tflops): weak-scaling E(N) = X(N) / (N * X(1));
- collectives: E(N) = busbw(N) / busbw(2) at a fixed message size, the largest measured.
Both are E(N) = (A(N) / N) / (A(N0) / N0) for an aggregate A and a baseline count N0: busbw is
already a per-rank figure, so its aggregate is N * busbw and its baseline is N0 = 2 (at one rank
nothing crosses a link and busbw is 0). The USL is fitted to that aggregate.
"""

import json
from dataclasses import dataclass, field

import numpy as np

from .labels import format_param, format_size
from .metric_table import HEADLINE_THROUGHPUTS

HEADLINE_METRICS = HEADLINE_THROUGHPUTS
PER_RANK_METRICS = ("busbw_gbps",)   # figures already normalised per rank


def headline_metric(metrics):
    for name in HEADLINE_METRICS:
        if name in metrics:
            return name
    return None


# Parameters derived from others and the GPU count (a collective's elements per rank): they change
# along a curve, so they never identify one.
DERIVED_PARAMS = ("count",)


def params_key(params):
    return json.dumps({k: v for k, v in params.items() if k not in DERIVED_PARAMS}, sort_keys=True)


def without(params, *keys):
    return {k: v for k, v in params.items() if k not in keys}


def prefer_out_of_place(records):
    """Drops in-place collective records of a case that also has out-of-place ones (nccl-tests
    reports both; the out-of-place figure is the one quoted)."""
    out_of_place_cases = {(r.suite, r.case) for r in records if r.params.get("in_place") is False}
    return [r for r in records
            if not (r.params.get("in_place") is True and (r.suite, r.case) in out_of_place_cases)]


@dataclass
class ScalingCurve:
    suite: str
    case: str
    params: dict
    metric: str
    gpus: list
    values: list
    noisy: list
    nodes: list
    samples: list = field(default_factory=list)   # samples_s per point, for the band

    @property
    def per_rank_metric(self):
        return self.metric in PER_RANK_METRICS

    @property
    def n(self):
        return np.asarray(self.gpus, dtype=float)

    @property
    def aggregate(self):
        values = np.asarray(self.values, dtype=float)
        return values * self.n if self.per_rank_metric else values

    @property
    def baseline_index(self):
        return 0   # points are sorted by GPU count; busbw curves start at 2

    @property
    def baseline_n(self):
        return self.gpus[self.baseline_index]

    def efficiency_of_aggregate(self, n, aggregate):
        n0 = self.baseline_n
        a0 = self.aggregate[self.baseline_index]
        return (np.asarray(aggregate, dtype=float) / np.asarray(n, dtype=float)) / (a0 / n0)

    @property
    def efficiency(self):
        return self.efficiency_of_aggregate(self.n, self.aggregate)

    @property
    def definition(self):
        n0 = self.baseline_n
        if self.per_rank_metric:
            return f"E(N) = busbw(N) / busbw({n0})"
        return "E(N) = X(N) / (N·X(1))" if n0 == 1 else f"E(N) = {n0}·X(N) / (N·X({n0}))"

    @property
    def key(self):
        return (self.suite, self.case, params_key(self.params))

    @property
    def family_key(self):
        """What identifies this curve across runs: collectives drop the chosen message size, which
        can differ between two clusters' runs."""
        params = without(self.params, "bytes") if self.per_rank_metric else self.params
        return (self.suite, self.case, params_key(params))

    def label(self, distinguishing):
        """The case name plus the parameters that tell it apart from the other curves shown."""
        parts = [format_param(k, self.params[k])
                 for k in sorted(distinguishing) if k in self.params]
        if self.per_rank_metric and "bytes" in self.params and "bytes" not in distinguishing:
            parts.append(f"at {format_size(self.params['bytes'])}")
        return self.case + (f" ({', '.join(parts)})" if parts else "")


def _merge_points(records, metric):
    """One point per GPU count. Where several records share one (runs merged into one file), the
    record with the most samples is the point, the first on a tie: the rule `fit` and `report`
    apply (harness/analysis/curves.hpp), so that a plot's points are the ones its fit was made
    from and its report's table shows."""
    by_n = {}
    for r in records:
        best = by_n.get(r.gpus)
        if best is None or len(r.samples_s) > len(best.samples_s):
            by_n[r.gpus] = r
    points = []
    for n in sorted(by_n):
        r = by_n[n]
        value = r.metrics[metric]
        if value <= 0:
            continue
        points.append((n, value, r.status == "noisy", r.nodes, list(r.samples_s)))
    return points


def _curve(suite, case, params, metric, records):
    points = _merge_points(records, metric)
    if len(points) < 2:
        return None
    return ScalingCurve(suite=suite, case=case, params=params, metric=metric,
                        gpus=[p[0] for p in points], values=[p[1] for p in points],
                        noisy=[p[2] for p in points], nodes=[p[3] for p in points],
                        samples=[p[4] for p in points])


def _collective_curve(suite, case, params, metric, records):
    """Efficiency of a collective at the largest message size measured at two or more GPU counts
    (N >= 2)."""
    by_size = {}
    for r in records:
        if r.gpus >= 2 and isinstance(r.params.get("bytes"), (int, float)):
            by_size.setdefault(r.params["bytes"], []).append(r)
    for size in sorted(by_size, reverse=True):
        group = by_size[size]
        if len({r.gpus for r in group}) >= 2:
            curve = _curve(suite, case, dict(params, bytes=size), metric, group)
            if curve is not None:
                return curve
    return None


def build_scaling_curves(records):
    """Every curve with two or more GPU counts, from usable records, sorted by suite and case."""
    groups = {}
    for r in prefer_out_of_place([r for r in records if r.usable]):
        metric = headline_metric(r.metrics)
        if metric is None:
            continue
        per_size = metric in PER_RANK_METRICS and "bytes" in r.params
        params = without(r.params, "bytes", *DERIVED_PARAMS) if per_size else \
            without(r.params, *DERIVED_PARAMS)
        key = (r.suite, r.case, metric, params_key(params), per_size)
        groups.setdefault(key, (params, []))[1].append(r)
    curves = []
    for (suite, case, metric, _, per_size), (params, group) in groups.items():
        build = _collective_curve if per_size else _curve
        curve = build(suite, case, params, metric, group)
        if curve is not None:
            curves.append(curve)
    curves.sort(key=lambda c: (c.suite, c.case, params_key(c.params)))
    return curves
