"""The 5x2cv tests: five repetitions of two-fold cross-validation, pure Python and numpy.

With p_i^(j) the difference (A - B, or B - A: the tests are symmetric) on fold j of
repetition i, p̄_i = (p_i^(1) + p_i^(2)) / 2 and s_i^2 = (p_i^(1) - p̄_i)^2 + (p_i^(2) - p̄_i)^2:

* the 5x2cv paired t-test (Dietterich 1998, "Approximate statistical tests for comparing
  supervised classification learning algorithms", Neural Computation 10):
  t = p_1^(1) / sqrt(sum_i s_i^2 / 5), Student's t with 5 degrees of freedom, two-sided;
* the combined 5x2cv F test (Alpaydin 1999, "Combined 5x2cv F test for comparing supervised
  classification learning algorithms", Neural Computation 11):
  f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2), F with 10 and 5 degrees of freedom.

When every s_i^2 is 0 the statistics are infinite (p 0), or undefined (NaN) when the
differences are 0 as well.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svmeval.stats.distributions import f_sf, t_two_sided

__all__ = ["FiveByTwoResult", "five_by_two"]


@dataclass(frozen=True)
class FiveByTwoResult:
    """Both 5x2cv tests of one set of differences.

    ``t``, ``p_t`` (two-sided, 5 degrees of freedom): Dietterich's paired t-test; ``f``,
    ``p_f`` (10 and 5 degrees of freedom): Alpaydin's combined F test; ``variances``: the
    five s_i^2."""

    t: float
    p_t: float
    f: float
    p_f: float
    variances: tuple


def _ratio(numerator: float, denominator: float) -> float:
    if denominator > 0:
        return numerator / denominator
    if numerator == 0:
        return math.nan
    return math.copysign(math.inf, numerator)


def five_by_two(differences) -> FiveByTwoResult:
    """The 5x2cv paired t-test and the combined 5x2cv F test of ``differences`` shaped
    (5, 2): repetition by fold."""
    p = np.asarray(differences, dtype=np.float64)
    if p.shape != (5, 2):
        raise ValueError(f"5x2cv needs differences shaped (5, 2), got {p.shape}")
    if not np.isfinite(p).all():
        raise ValueError("the differences must be finite numbers")
    means = p.mean(axis=1, keepdims=True)
    variances = np.sum((p - means) ** 2, axis=1)
    total = float(np.sum(variances))
    t = _ratio(float(p[0, 0]), math.sqrt(total / 5.0))
    f = _ratio(float(np.sum(p**2)), 2.0 * total)
    p_t = math.nan if math.isnan(t) else t_two_sided(t, 5)
    p_f = math.nan if math.isnan(f) else f_sf(f, 10, 5)
    return FiveByTwoResult(t=t, p_t=p_t, f=f, p_f=p_f, variances=tuple(float(v) for v in variances))
