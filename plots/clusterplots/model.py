"""The USL model drawn through a scaling curve: the one the results' `fits` section stores for the
same points, and no other. The plots never fit the curve themselves: a fit is `clusterbench fit`'s
job, stored once, so the plot and the report draw the same figures.

The `fits` section is the one `clusterbench fit` writes (harness/analysis/fits_json.hpp):
    {"curves": [{"suite", "case", "params", "metric", "tier_info", "gpus": [...], "nodes": [...],
                 "values": [...], "efficiency": [...], "efficiency_base_gpus", "warnings",
                 "usl": {"method", "alpha", "beta", "gamma", "n_peak", "peak_throughput", "r2",
                         "points", "warnings"}, "usl_linearised": {...}, "amdahl": {...}}, ...],
     "alpha_beta": {...}}
`values` are the metric as measured; the USL is fitted to the aggregate series (N * busbw for
collectives, the metric itself for throughputs), the same series this module fits. An entry is used
when suite, case, metric and params equal the curve's, its USL figures are numbers (null means the
fit failed) and its `values` agree with the measured points to 1 %. Then the stored fit is drawn
and its bootstrap band (refits of resampled points around the stored fit, the fit's uncertainty,
not another model) is laid around it. Anything else (no section, another layout, other points, a
file written before `fit` ran) draws the points alone with the note NO_FIT_STORED.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from .curves import params_key
from .usl import PARAMETERS, bootstrap_band_ratio, usl_peak, usl_throughput

EXTRAPOLATION_FACTOR = 4
_MATCH_TOLERANCE = 0.01

FROM_FITS = "fits section"
NO_FIT_STORED = "no fit stored"


@dataclass
class CurveModel:
    curve: object
    alpha: float
    beta: float
    gamma: float
    r2: float
    source: str
    warnings: list = field(default_factory=list)
    band_fit: object = None     # the fit the bootstrap band is computed around (predict(n))

    @property
    def n_peak(self):
        return usl_peak(self.alpha, self.beta)

    def predict(self, n):
        return usl_throughput(n, self.alpha, self.beta, self.gamma)

    def efficiency(self, n):
        n = np.asarray(n, dtype=float)
        return self.curve.efficiency_of_aggregate(
            n, usl_throughput(n, self.alpha, self.beta, self.gamma))

    def band(self, n):
        """(low, high) efficiency at n, or None: the bootstrap band of band_fit, as ratios to
        that fit, laid around this model's curve."""
        if self.band_fit is None:
            return None
        curve = self.curve
        ratios = bootstrap_band_ratio(curve.n, curve.aggregate, self.band_fit, n, curve.samples)
        if ratios is None:
            return None
        centre = self.efficiency(n)
        return centre * ratios[0], centre * ratios[1]


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _close(a, b):
    return abs(a - b) <= _MATCH_TOLERANCE * max(abs(a), abs(b), 1e-300)


def _same_points(entry, curve):
    """The entry's (gpus, values) agree with the measured points at two or more common counts;
    an entry without points is taken at its word."""
    gpus, values = entry.get("gpus"), entry.get("values")
    if gpus is None and values is None:
        return True
    if not (isinstance(gpus, list) and isinstance(values, list) and len(gpus) == len(values)):
        return False
    if not all(isinstance(g, int) and not isinstance(g, bool) for g in gpus):
        return False
    measured = dict(zip(curve.gpus, curve.values))
    pairs = [(measured[g], v) for g, v in zip(gpus, values) if g in measured and _number(v)]
    return len(pairs) >= 2 and all(_close(m, v) for m, v in pairs)


def _from_fits_section(curve, fits):
    entries = fits.get("curves") if isinstance(fits, dict) else None
    if not isinstance(entries, list):
        return None
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if (entry.get("suite"), entry.get("case"), entry.get("metric")) != \
                (curve.suite, curve.case, curve.metric):
            continue
        if not isinstance(entry.get("params"), dict) or \
                params_key(entry["params"]) != params_key(curve.params):
            continue
        usl = entry.get("usl")
        if not isinstance(usl, dict) or not all(_number(usl.get(k)) for k in ("alpha", "beta",
                                                                                "gamma")):
            continue
        if not _same_points(entry, curve):
            continue
        warnings = usl.get("warnings") if isinstance(usl.get("warnings"), list) else []
        return CurveModel(curve=curve, alpha=float(usl["alpha"]), beta=float(usl["beta"]),
                          gamma=float(usl["gamma"]),
                          r2=float(usl["r2"]) if _number(usl.get("r2")) else math.nan,
                          source=FROM_FITS, warnings=[str(w) for w in warnings])
    return None


def has_enough_points(curve):
    """Whether a USL fit of `curve` is possible at all: as many GPU counts as parameters."""
    return len(set(curve.gpus)) >= PARAMETERS


def model_for(curve, fits):
    """The stored fit to draw through `curve`, or None when the fits section has none for it (the
    caller notes why: too few points, or NO_FIT_STORED)."""
    stored = _from_fits_section(curve, fits)
    if stored is not None:
        # The bootstrap refits resampled points, which needs as many GPU counts as parameters.
        stored.band_fit = stored if has_enough_points(curve) else None
    return stored


def evaluation_grids(curve, points=100):
    """GPU counts over the measured range and beyond it to EXTRAPOLATION_FACTOR x the largest;
    the two grids share their end point so the solid and dashed lines meet."""
    low, high = min(curve.gpus), max(curve.gpus)
    return np.geomspace(low, high, points), np.geomspace(high, EXTRAPOLATION_FACTOR * high, points)
