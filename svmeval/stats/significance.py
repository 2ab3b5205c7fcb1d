"""Significance tests for comparing two configurations: pure Python and numpy, no scipy.

* :func:`corrected_resampled_ttest`: the paired t-test over the R x k folds of a repeated
  k-fold cross-validation, with the variance corrected for the training sets the folds share
  (Nadeau & Bengio 2003, "Inference for the generalization error", Machine Learning 52; the
  repeated-CV form of Bouckaert & Frank 2004, "Evaluating the replicability of significance
  tests for comparing learning algorithms", PAKDD): with d_j the J = R k per-fold differences,

      t = mean(d) / sqrt((1/J + n_test/n_train) * var(d)),   J - 1 degrees of freedom,

  var with J - 1 in the denominator. The plain paired t-test (``1/J`` alone) is returned beside
  it: it treats the folds as independent samples, which they are not, so its p-values are far
  too small (optimistic).
* :func:`mcnemar`: McNemar's test on the discordant pairs of two classifiers' predictions of the
  same samples: the exact two-sided binomial test when they are few (b + c <
  :data:`MCNEMAR_EXACT_BELOW`), else the chi-square statistic with continuity correction
  (Edwards 1948), 1 degree of freedom.

The distributions live in :mod:`svmeval.stats.distributions` (re-exported here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from svmeval.stats.distributions import (
    betainc,
    binom_test_half,
    chi2_1_sf,
    t_ppf,
    t_sf,
    t_two_sided,
)

__all__ = [
    "MCNEMAR_EXACT_BELOW",
    "McNemarResult",
    "TTestResult",
    "betainc",
    "binom_test_half",
    "chi2_1_sf",
    "corrected_resampled_ttest",
    "mcnemar",
    "mcnemar_counts",
    "t_ppf",
    "t_sf",
    "t_two_sided",
]

#: McNemar's test is exact (binomial) when the discordant pairs b + c are fewer than this
MCNEMAR_EXACT_BELOW = 25


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TTestResult:
    """A paired t-test of per-fold differences (B - A).

    ``mean``, ``sd``: of the differences (sd with J - 1); ``n``: their number J; ``df`` = J - 1;
    ``test_train_ratio``: n_test / n_train of the correction; ``t``, ``p`` (two-sided),
    ``ci`` (the ``confidence`` interval of the mean difference) with the corrected variance;
    ``t_uncorrected``, ``p_uncorrected``, ``ci_uncorrected``: the plain paired t-test
    (optimistic: it ignores the training data the folds share).

    Examples
    --------
    >>> from svmeval.stats.significance import corrected_resampled_ttest
    >>> d = [0.01, 0.02, -0.01, 0.03, 0.0, 0.02, 0.01, 0.02, 0.0, 0.01]
    >>> t = corrected_resampled_ttest(d, 1 / 9)
    >>> round(t.t, 4), round(t.p, 4), t.df
    (1.9997, 0.0766, 9)
    """

    mean: float
    sd: float
    n: int
    df: int
    test_train_ratio: float
    confidence: float
    t: float
    p: float
    ci: tuple
    t_uncorrected: float
    p_uncorrected: float
    ci_uncorrected: tuple


def _t_test(mean: float, var: float, factor: float, df: int, confidence: float):
    se = math.sqrt(factor * var)
    if se == 0.0:
        t = 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
    else:
        t = mean / se
    p = t_two_sided(t, df)
    half = t_ppf(0.5 + confidence / 2.0, df) * se
    return t, p, (mean - half, mean + half)


def corrected_resampled_ttest(
    differences, test_train_ratio: float, *, confidence: float = 0.95
) -> TTestResult:
    """The corrected resampled t-test of per-fold differences (B - A) of R repetitions of
    k-fold cross-validation (see the module's notes); ``test_train_ratio``: n_test / n_train
    (1 / (k - 1) for k equal folds)."""
    d = np.asarray(differences, dtype=np.float64).ravel()
    if len(d) < 2:
        raise ValueError("the t-test needs at least two differences")
    if not np.isfinite(d).all():
        raise ValueError("the differences must be finite numbers")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must lie in (0, 1)")
    if not test_train_ratio >= 0:
        raise ValueError("test_train_ratio must be >= 0")
    n = len(d)
    mean = float(d.mean())
    if np.all(d == d[0]):
        var = 0.0  # exactly, where summing would leave rounding noise
    else:
        var = float(d.var(ddof=1))
    df = n - 1
    t, p, ci = _t_test(mean, var, 1.0 / n + test_train_ratio, df, confidence)
    tu, pu, ciu = _t_test(mean, var, 1.0 / n, df, confidence)
    return TTestResult(
        mean=mean,
        sd=math.sqrt(var),
        n=n,
        df=df,
        test_train_ratio=float(test_train_ratio),
        confidence=confidence,
        t=t,
        p=p,
        ci=ci,
        t_uncorrected=tu,
        p_uncorrected=pu,
        ci_uncorrected=ciu,
    )


def _finite_or_none(value):
    return None if isinstance(value, float) and not math.isfinite(value) else value


@dataclass(frozen=True)
class McNemarResult:
    """McNemar's test of two classifiers on the same samples.

    ``n``: samples; ``both_right``, ``both_wrong``; ``a_only`` (b: A right, B wrong) and
    ``b_only`` (c: A wrong, B right); ``method``: "exact" (two-sided binomial test of b among
    b + c at 1/2) or "chi2" (``statistic`` = (|b - c| - 1)^2 / (b + c), continuity corrected,
    floored at 0, 1 degree of freedom); ``p``: two-sided p-value. ``provenance``: how a test of
    two predictions files was made (``mcnemar_files``: the data's digest, when), else None.

    Examples
    --------
    >>> from svmeval.stats.significance import mcnemar
    >>> m = mcnemar([1, 1, 1, -1, -1], [1, 1, -1, -1, -1], [1, -1, -1, -1, 1])
    >>> m.a_only, m.b_only, m.method, m.p
    (2, 0, 'exact', 0.5)
    """

    #: the view that shows it (svmeval.report._views): its reports, page and pictures
    __svmeval_view__: ClassVar[str] = "svmeval.report.compare:MCNEMAR"

    n: int
    both_right: int
    both_wrong: int
    a_only: int
    b_only: int
    method: str
    statistic: float
    p: float
    provenance: object | None = field(default=None, repr=False, compare=False)  # files' test

    def to_dict(self) -> dict:
        """The test as plain JSON types (the JSON report's ``mcnemar`` object)."""
        return {
            "n": self.n,
            "both_right": self.both_right,
            "both_wrong": self.both_wrong,
            "a_right_b_wrong": self.a_only,
            "a_wrong_b_right": self.b_only,
            "method": self.method,
            "exact_below": MCNEMAR_EXACT_BELOW,
            "statistic": _finite_or_none(self.statistic),
            "p": self.p,
        }

    def to_frame(self):
        """A pandas DataFrame of one row: the columns of :meth:`to_dict`."""
        from svmeval._tables import frame

        return frame([self.to_dict()])


def mcnemar(y_true, pred_a, pred_b, *, exact: bool | None = None) -> McNemarResult:
    """McNemar's test of predictions ``pred_a`` and ``pred_b`` of ``y_true``.

    ``exact``: None (default) chooses the exact binomial test when b + c <
    :data:`MCNEMAR_EXACT_BELOW`, the continuity-corrected chi-square otherwise; True or False
    forces one."""
    y = np.asarray(y_true, dtype=np.float64).ravel()
    a = np.asarray(pred_a, dtype=np.float64).ravel()
    b = np.asarray(pred_b, dtype=np.float64).ravel()
    if not len(y) == len(a) == len(b):
        raise ValueError(f"{len(y)} labels but {len(a)} and {len(b)} predictions")
    ra, rb = a == y, b == y
    a_only = int(np.count_nonzero(ra & ~rb))
    b_only = int(np.count_nonzero(~ra & rb))
    return mcnemar_counts(
        a_only,
        b_only,
        n=len(y),
        both_right=int(np.count_nonzero(ra & rb)),
        both_wrong=int(np.count_nonzero(~ra & ~rb)),
        exact=exact,
    )


def mcnemar_counts(
    a_only: int,
    b_only: int,
    *,
    n: int | None = None,
    both_right: int = 0,
    both_wrong: int = 0,
    exact: bool | None = None,
) -> McNemarResult:
    """McNemar's test from the discordant counts b (``a_only``) and c (``b_only``)."""
    if a_only < 0 or b_only < 0:
        raise ValueError("counts must be >= 0")
    discordant = a_only + b_only
    if exact is None:
        exact = discordant < MCNEMAR_EXACT_BELOW
    if exact:
        method, statistic = "exact", float(a_only)
        p = binom_test_half(a_only, discordant)
    else:
        method = "chi2"
        statistic = (max(0, abs(a_only - b_only) - 1) ** 2 / discordant) if discordant else 0.0
        p = chi2_1_sf(statistic)
    if n is None:
        n = discordant + both_right + both_wrong
    return McNemarResult(
        n=n,
        both_right=both_right,
        both_wrong=both_wrong,
        a_only=a_only,
        b_only=b_only,
        method=method,
        statistic=statistic,
        p=p,
    )
