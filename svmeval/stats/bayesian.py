"""The Bayesian correlated t-test (Corani & Benavoli 2015, "A Bayesian approach for comparing
cross-validated algorithms on multiple data sets", Machine Learning 100): pure Python and
numpy, no scipy.

For the n = R k per-fold differences d (B - A) of R repetitions of k-fold cross-validation on
one data set, the posterior of the mean difference is Student's t with n - 1 degrees of
freedom, location mean(d) and scale sqrt((1/n + rho / (1 - rho)) var(d)) with the correlation
rho = 1/k of folds that share training data (var with n - 1 in the denominator; the same
correction as Nadeau & Bengio's). With a region of practical equivalence (rope) of half-width
r it gives

    p_left  = P(mu < -r)        (B below A by more than r),
    p_rope  = P(-r <= mu <= r)  (practically equivalent),
    p_right = P(mu > r)         (B above A by more than r).

With rope 0, p_rope is 0. Differences that are all equal (var 0) make the posterior a point
mass at their mean: probabilities 0 or 1 (one half each side of 0 when the mean is exactly 0
and the rope is 0), as baycomp does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval.stats.distributions import t_cdf

__all__ = ["BayesianResult", "correlated_ttest"]


@dataclass(frozen=True)
class BayesianResult:
    """The posterior of the mean difference (B - A) and its three probabilities.

    ``n``: differences, ``n_folds``: k, ``df`` = n - 1, ``mean``, ``scale``: of the posterior
    Student t; ``rope``: its half-width; ``p_left``, ``p_rope``, ``p_right``."""

    n: int
    n_folds: int
    df: int
    mean: float
    scale: float
    rope: float
    p_left: float
    p_rope: float
    p_right: float


def _probabilities(mean: float, scale: float, df: int, rope: float):
    if scale == 0.0:
        if rope == 0.0:
            right = 1.0 if mean > 0 else (0.5 if mean == 0 else 0.0)
            return 1.0 - right, 0.0, right
        left, right = float(mean < -rope), float(mean > rope)
        return left, 1.0 - left - right, right
    left = t_cdf((-rope - mean) / scale, df)
    right = 1.0 - t_cdf((rope - mean) / scale, df)
    return left, max(0.0, 1.0 - left - right), right


def correlated_ttest(differences, n_folds: int, *, rope: float = 0.0) -> BayesianResult:
    """The Bayesian correlated t-test of the per-fold ``differences`` (B - A) of repeated
    ``n_folds``-fold cross-validation on one data set, with a rope of half-width ``rope``."""
    d = np.asarray(differences, dtype=np.float64).ravel()
    if len(d) < 2:
        raise ValueError("the Bayesian t-test needs at least two differences")
    if not np.isfinite(d).all():
        raise ValueError("the differences must be finite numbers")
    if int(n_folds) != n_folds or n_folds < 2:
        raise ValueError("n_folds must be an integer >= 2")
    if not (rope >= 0 and math.isfinite(rope)):
        raise ValueError("rope must be a finite number >= 0")
    n = len(d)
    mean = float(d.mean())
    var = 0.0 if np.all(d == d[0]) else float(d.var(ddof=1))
    rho = 1.0 / n_folds
    scale = math.sqrt((1.0 / n + rho / (1.0 - rho)) * var)
    left, inside, right = _probabilities(mean, scale, n - 1, float(rope))
    return BayesianResult(
        n=n,
        n_folds=int(n_folds),
        df=n - 1,
        mean=mean,
        scale=scale,
        rope=float(rope),
        p_left=left,
        p_rope=inside,
        p_right=right,
    )
