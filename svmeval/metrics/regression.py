"""Regression figures of LIBSVM's cross-validation, computed as svm-train computes them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RegressionReport:
    n_samples: int
    mean_squared_error: float
    squared_correlation: float


def regression_report(y_true, y_pred) -> RegressionReport:
    """Mean squared error and squared correlation coefficient, as svm-train -v prints them.

    MSE = Σ(v−y)²/l;  r² = (lΣvy − ΣvΣy)² / ((lΣv² − (Σv)²)(lΣy² − (Σy)²)), v predicted, y true.
    r² is 0/0 = NaN when either vector is constant (svm-train prints nan or -nan there).
    Sums are accumulated in input order (``np.cumsum`` is sequential), the order of svm-train's
    loop, so the figures match its output to the last bit.
    Reference: LIBSVM svm-train.c, do_cross_validation().
    """
    y = np.asarray(y_true, dtype=np.float64)
    v = np.asarray(y_pred, dtype=np.float64)
    if y.shape != v.shape or y.ndim != 1:
        raise ValueError(f"y_true and y_pred differ in shape: {y.shape} vs {v.shape}")
    l = len(y)
    if l == 0:
        raise ValueError("no samples")

    def total(a):
        return float(np.cumsum(a)[-1])

    err = total((v - y) * (v - y))
    sv, sy, svv, syy, svy = total(v), total(y), total(v * v), total(y * y), total(v * y)
    with np.errstate(divide="ignore", invalid="ignore"):
        num = (l * svy - sv * sy) * (l * svy - sv * sy)
        den = (l * svv - sv * sv) * (l * syy - sy * sy)
        scc = float(np.float64(num) / np.float64(den))
    return RegressionReport(n_samples=l, mean_squared_error=err / l, squared_correlation=scc)
