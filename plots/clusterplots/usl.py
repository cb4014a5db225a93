"""The Universal Scalability Law (Gunther): fitting and a bootstrap confidence band.

X(N) = gamma * N / (1 + alpha * (N - 1) + beta * N * (N - 1)),
peak at N* = sqrt((1 - alpha) / beta).

The fit is bounded non-linear least squares (alpha, beta in [0, 1], gamma >= 0) done with numpy
alone, so the plots run wherever matplotlib does: a coarse grid over (alpha, beta), with gamma
solved exactly for each grid point (X is linear in gamma), picks the start, then Levenberg-Marquardt
refines it. Everything is vectorised over a batch of data sets, which is what makes a bootstrap of a
few hundred refits cheap.
"""

import math
from dataclasses import dataclass

import numpy as np

PARAMETERS = 3
_ALPHA_GRID = np.concatenate(([0.0], np.logspace(-4, 0, 33)))
_BETA_GRID = np.concatenate(([0.0], np.logspace(-7, 0, 36)))
_LM_ITERATIONS = 80


def usl_throughput(n, alpha, beta, gamma):
    n = np.asarray(n, dtype=float)
    return gamma * n / (1.0 + alpha * (n - 1.0) + beta * n * (n - 1.0))


def usl_peak(alpha, beta):
    """N at which X(N) peaks; infinity when it never does (beta = 0)."""
    if beta <= 0:
        return math.inf
    return math.sqrt(max(1.0 - alpha, 0.0) / beta)


@dataclass
class UslFit:
    alpha: float
    beta: float
    gamma: float
    r2: float

    @property
    def n_peak(self):
        return usl_peak(self.alpha, self.beta)

    def predict(self, n):
        return usl_throughput(n, self.alpha, self.beta, self.gamma)


def _grid_start(n, xs):
    alpha, beta = np.meshgrid(_ALPHA_GRID, _BETA_GRID, indexing="ij")
    alpha, beta = alpha.ravel(), beta.ravel()
    shape = n[None, :] / (1.0 + alpha[:, None] * (n - 1.0) + beta[:, None] * n * (n - 1.0))
    sum_ff = np.sum(shape * shape, axis=1)                     # (G,)
    sum_fx = xs @ shape.T                                      # (B, G)
    sse = np.sum(xs * xs, axis=1)[:, None] - np.maximum(sum_fx, 0.0) ** 2 / sum_ff[None, :]
    best = np.argmin(sse, axis=1)
    gamma = np.maximum(sum_fx[np.arange(len(xs)), best], 0.0) / sum_ff[best]
    return np.stack([alpha[best], beta[best], gamma], axis=1)


def _sse_and_jacobian(n, xs, p):
    a, b, g = p[:, 0:1], p[:, 1:2], p[:, 2:3]
    denom = 1.0 + a * (n - 1.0) + b * n * (n - 1.0)
    pred = g * n / denom
    resid = xs - pred
    jac = np.stack([-g * n * (n - 1.0) / denom**2,
                    -g * n * n * (n - 1.0) / denom**2,
                    n / denom + 0.0 * g], axis=2)             # (B, m, 3)
    return np.sum(resid * resid, axis=1), resid, jac


def _clip(p):
    return np.stack([np.clip(p[:, 0], 0.0, 1.0), np.clip(p[:, 1], 0.0, 1.0),
                     np.maximum(p[:, 2], 0.0)], axis=1)


def fit_usl_batch(n, xs):
    """Fits every row of xs (B, m) against the GPU counts n (m,); returns parameters (B, 3)."""
    n = np.asarray(n, dtype=float)
    xs = np.atleast_2d(np.asarray(xs, dtype=float))
    if len(np.unique(n)) < PARAMETERS:
        raise ValueError("a USL fit needs at least three distinct GPU counts")
    p = _grid_start(n, xs)
    damping = np.full(len(xs), 1e-3)
    sse, resid, jac = _sse_and_jacobian(n, xs, p)
    for _ in range(_LM_ITERATIONS):
        jtj = np.einsum("bmi,bmj->bij", jac, jac)
        jtr = np.einsum("bmi,bm->bi", jac, resid)
        diag = np.diagonal(jtj, axis1=1, axis2=2)
        # Marquardt's scaling by diag(J'J) copes with beta being orders of magnitude below gamma;
        # the floor keeps the system solvable when a parameter has no effect (gamma = 0).
        floor = 1e-12 * np.max(diag, axis=1, keepdims=True) + 1e-300
        system = jtj + (damping[:, None] * np.maximum(diag, floor))[:, :, None] * np.eye(PARAMETERS)
        step = np.linalg.solve(system, jtr[:, :, None])[:, :, 0]
        trial = _clip(p + step)
        trial_sse, trial_resid, trial_jac = _sse_and_jacobian(n, xs, trial)
        better = trial_sse < sse
        p = np.where(better[:, None], trial, p)
        sse = np.where(better, trial_sse, sse)
        resid = np.where(better[:, None], trial_resid, resid)
        jac = np.where(better[:, None, None], trial_jac, jac)
        damping = np.clip(np.where(better, damping / 3.0, damping * 4.0), 1e-12, 1e12)
    return p


def fit_usl(n, x):
    """Least-squares USL fit of throughputs x measured at GPU counts n (three or more distinct)."""
    x = np.asarray(x, dtype=float)
    alpha, beta, gamma = fit_usl_batch(n, x[None, :])[0]
    pred = usl_throughput(n, alpha, beta, gamma)
    sse = float(np.sum((x - pred) ** 2))
    sst = float(np.sum((x - np.mean(x)) ** 2))
    r2 = 1.0 - sse / sst if sst > 0 else (1.0 if sse == 0 else 0.0)
    return UslFit(float(alpha), float(beta), float(gamma), r2)


def _resampled_noise(sample_sets, replicates, rng):
    """Per point, median(samples) / median(resampled samples): the spread of a throughput
    (which is proportional to 1 / time) that the point's own timing noise allows."""
    columns = []
    for samples in sample_sets:
        samples = np.asarray(samples if samples is not None else [], dtype=float)
        samples = samples[samples > 0]
        if len(samples) < 2:
            columns.append(np.ones(replicates))
            continue
        picks = rng.integers(0, len(samples), size=(replicates, len(samples)))
        columns.append(np.median(samples) / np.median(samples[picks], axis=1))
    return np.stack(columns, axis=1)


def bootstrap_band_ratio(n, x, fit, eval_n, sample_sets=None, replicates=200, level=0.95,
                         seed=20240917):
    """Pointwise confidence band of the fitted X at eval_n, as ratios (low, high) to fit.predict.

    Each replicate perturbs the fitted values by resampled residuals (centred, and scaled by
    sqrt(m / (m - 3)) for the degrees of freedom the fit used up) and by each point's own timing
    noise (a bootstrap of its samples), then refits. With three points the residuals are zero and
    the timing noise alone makes the band. Returns None when nothing varies.
    """
    n = np.asarray(n, dtype=float)
    x = np.asarray(x, dtype=float)
    eval_n = np.asarray(eval_n, dtype=float)
    rng = np.random.default_rng(seed)
    pred = fit.predict(n)
    m = len(n)
    if m > PARAMETERS:
        resid = (x - pred) - np.mean(x - pred)
        resid *= math.sqrt(m / (m - PARAMETERS))
        perturb = resid[rng.integers(0, m, size=(replicates, m))]
    else:
        perturb = np.zeros((replicates, m))
    noise = _resampled_noise(sample_sets or [None] * m, replicates, rng)
    xs = np.maximum((pred[None, :] + perturb) * noise, 0.0)
    params = fit_usl_batch(n, xs)
    curves = usl_throughput(eval_n[None, :], params[:, 0:1], params[:, 1:2], params[:, 2:3])
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(curves, [tail, 100.0 - tail], axis=0)
    centre = fit.predict(eval_n)
    if not np.all(centre > 0) or np.allclose(low, high, rtol=1e-9, atol=0):
        return None
    return low / centre, high / centre
