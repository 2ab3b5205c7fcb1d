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

The Bayesian signed-rank test (Benavoli et al. 2017, "Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis", JMLR 18(77); baycomp's
``SignedRankTest``) compares two methods over many data sets from one value per data set and
method (the mean over the folds). Its Dirichlet-process posterior puts a pseudo-observation at
difference 0 of weight ``prior`` (0.5, baycomp's default) beside the n differences d = B - A
of weight 1 each. A Monte-Carlo draw takes weights w ~ Dirichlet(prior, 1, ..., 1) over those
n + 1 points and gives

    theta_left  = sum_ij w_i w_j H(-(d_i + d_j) / 2 - r),
    theta_right = sum_ij w_i w_j H((d_i + d_j) / 2 - r),
    theta_rope  = 1 - theta_left - theta_right,

(H: 1 above 0, 1/2 at 0, 0 below; d_0 = 0). p_left, p_rope, p_right are the fractions of
the draws in which theta_left, theta_rope, theta_right is the largest (the first on a tie), as
baycomp's ``Posterior.probs``. The draws are numpy's ``RandomState(seed).dirichlet``, in
baycomp's order: with the same seed and number of draws the probabilities are baycomp's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval._constraints import MAX_DRAWS  # noqa: F401 - declared with the argument draws
from svmeval.stats.distributions import t_cdf

__all__ = [
    "BayesianResult",
    "SignedRankResult",
    "correlated_ttest",
    "signed_rank_posterior",
    "signed_rank_test",
]


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


@dataclass(frozen=True)
class SignedRankResult:
    """The Bayesian signed-rank test of B - A over data sets (module notes).

    ``n``: data sets, ``rope``: the half-width, ``prior``: the weight of the pseudo-observation
    at 0, ``draws``: Monte-Carlo draws, ``seed``: their ``RandomState`` seed; ``p_left``,
    ``p_rope``, ``p_right``: the fractions of the draws where B - A < -rope, within the rope,
    > rope is the most probable."""

    n: int
    rope: float
    prior: float
    draws: int
    seed: int
    p_left: float
    p_rope: float
    p_right: float


def _step(a: np.ndarray) -> np.ndarray:
    return (a > 0).astype(np.float64) + 0.5 * (a == 0).astype(np.float64)


def signed_rank_posterior(
    a, b, *, rope: float = 0.0, prior: float = 0.5, draws: int = 50_000, seed: int = 1
) -> np.ndarray:
    """The Monte-Carlo draws of the Bayesian signed-rank test of ``b`` against ``a``: one row
    per draw, (theta_left, theta_rope, theta_right), baycomp's ``SignedRankTest(a, b, rope,
    nsamples=draws, random_state=seed).sample`` (the points of its simplex picture);
    :func:`signed_rank_test` counts which of the three is the largest in each row."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or y.shape != x.shape or len(x) < 1:
        raise ValueError("a and b must be two sequences of the same length, at least one each")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("a and b must be finite numbers")
    if not (rope >= 0 and math.isfinite(rope)):
        raise ValueError("rope must be a finite number >= 0")
    if not (prior > 0 and math.isfinite(prior)):
        raise ValueError("prior must be a finite number > 0")
    if isinstance(draws, bool) or int(draws) != draws or not 1 <= draws <= MAX_DRAWS:
        raise ValueError(f"draws must be an integer from 1 to {MAX_DRAWS:,}")
    if isinstance(seed, bool) or int(seed) != seed or not 0 <= seed < 2**32:
        raise ValueError("seed must be an integer from 0 to 2**32 - 1")
    d = np.concatenate(([0.0], y - x))
    sums = d[:, None] + d[None, :]
    weights = np.ones(len(d))
    weights[0] = prior
    w = np.random.RandomState(int(seed)).dirichlet(weights, int(draws))
    above = _step(sums - 2 * rope)
    right = np.einsum("si,ij,sj->s", w, above, w)
    if rope > 0:
        below = _step(-sums - 2 * rope)
        left = np.einsum("si,ij,sj->s", w, below, w)
        inside = 1.0 - left - right
    else:
        left = 1.0 - right
        inside = np.zeros_like(right)
    return np.stack((left, inside, right), axis=1)


def signed_rank_test(
    a, b, *, rope: float = 0.0, prior: float = 0.5, draws: int = 50_000, seed: int = 1
) -> SignedRankResult:
    """The Bayesian signed-rank test of ``b`` against ``a`` (one value per data set each: the
    differences are ``b - a``) with a rope of half-width ``rope``, from ``draws`` Monte-Carlo
    draws of ``numpy.random.RandomState(seed)`` (module notes).

    Examples
    --------
    >>> from svmeval.stats import signed_rank_test
    >>> r = signed_rank_test([0.80, 0.70, 0.90], [0.85, 0.74, 0.93], rope=0.01, draws=2000)
    >>> r.p_right > 0.5
    True
    """
    thetas = signed_rank_posterior(a, b, rope=rope, prior=prior, draws=draws, seed=seed)
    winners = np.argmax(thetas, axis=1)
    p_left, p_rope, p_right = np.bincount(winners, minlength=3) / len(winners)
    return SignedRankResult(
        n=len(np.asarray(a)),
        rope=float(rope),
        prior=float(prior),
        draws=int(draws),
        seed=int(seed),
        p_left=float(p_left),
        p_rope=float(p_rope),
        p_right=float(p_right),
    )
