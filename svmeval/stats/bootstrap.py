"""Bootstrap confidence intervals: the resamples, the percentile interval and BCa (Efron &
Tibshirani 1993, sections 13.3, 14.3 and 15.4): pure Python and numpy, no scipy.

The resamples are rows of sample indices drawn as ``scipy.stats.bootstrap`` draws them for
paired data: ``numpy.random.default_rng(seed).integers(0, n, (resamples, n))`` (drawn in
blocks of rows, which gives the same indices). Given the statistic on every resample
(``distribution``), with alpha = (1 - level) / 2:

* percentile: the alpha and 1 - alpha quantiles of the distribution (numpy's "linear" rule,
  scipy's);
* BCa: the quantiles at alpha_1 = Phi(z0 + (z0 + z_alpha) / (1 - a (z0 + z_alpha))) and
  alpha_2 = the same with z_(1-alpha), where z0 = Phi^-1(share of the distribution below the
  estimate, ties counted half) and the acceleration a = sum U^3 / (6 (sum U^2)^(3/2)) of the
  jackknife values theta_(i), U_i = (n - 1)(mean(theta_(.)) - theta_(i)). Where those are
  undefined (every resample on one side of the estimate, a jackknife without spread) the
  interval is undefined (NaN), as scipy's is.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from statistics import NormalDist

import numpy as np

__all__ = ["MAX_RESAMPLES", "bca_interval", "percentile_interval", "resample_indices"]

#: at most this many bootstrap resamples
MAX_RESAMPLES = 1_000_000

#: indices drawn at once (rows x samples), to bound the memory of a resampling
_BLOCK = 4_000_000

_NORMAL = NormalDist()


def resample_indices(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Blocks of rows of ``resamples`` bootstrap resamples of ``n`` sample indices, in
    order (module notes)."""
    rng = np.random.default_rng(seed)
    rows = max(1, _BLOCK // max(n, 1))
    for start in range(0, resamples, rows):
        yield rng.integers(0, n, (min(rows, resamples - start), n))


def _quantiles(distribution: np.ndarray, q) -> tuple[float, float]:
    if not all(0.0 <= p <= 1.0 for p in q) or np.isnan(distribution).any():
        return math.nan, math.nan
    low, high = np.quantile(distribution, q, method="linear")
    return float(low), float(high)


def percentile_interval(distribution, level: float) -> tuple[float, float]:
    """The percentile interval at ``level`` of the bootstrap ``distribution``."""
    alpha = (1.0 - level) / 2.0
    return _quantiles(np.asarray(distribution, dtype=np.float64), (alpha, 1.0 - alpha))


def _ppf(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return _NORMAL.inv_cdf(p)


def bca_interval(
    distribution, estimate: float, jackknife, weights, level: float
) -> tuple[float, float]:
    """The BCa interval at ``level``: ``distribution`` the statistic on every resample,
    ``estimate`` on the data, ``jackknife`` its distinct leave-one-out values and ``weights``
    how many samples leave each out (they sum to n)."""
    b = np.asarray(distribution, dtype=np.float64)
    theta = np.asarray(jackknife, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if np.isnan(b).any() or np.isnan(theta).any() or math.isnan(estimate):
        return math.nan, math.nan
    share = (np.count_nonzero(b < estimate) + np.count_nonzero(b <= estimate)) / (2 * len(b))
    z0 = _ppf(float(share))
    n = float(w.sum())
    u = (n - 1.0) * (float((w * theta).sum()) / n - theta)
    with np.errstate(invalid="ignore", divide="ignore"):
        num = float((w * u**3).sum()) / n**3
        den = float((w * u**2).sum()) / n**2
        a = np.float64(1 / 6) * np.float64(num) / np.float64(den) ** 1.5
        alpha = (1.0 - level) / 2.0
        q = []
        for z in (_ppf(alpha), -_ppf(alpha)):
            step = np.float64(z0) + np.float64(z)
            shifted = np.float64(z0) + step / (np.float64(1.0) - a * step)
            q.append(float(_NORMAL.cdf(float(shifted))) if np.isfinite(shifted) else math.nan)
    if any(math.isnan(p) for p in q):
        return math.nan, math.nan
    return _quantiles(b, q)
