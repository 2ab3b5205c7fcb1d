"""The one count -> ratio reduce step, and the registry of every measure and average.

Everything svmeval reports about a classification is computed here from counts:

* per class (one-vs-rest): ``tp``, ``fp``, ``fn``, ``tn`` for each class (or label, or sample);
* overall: the confusion matrix (rows true labels, columns predicted).

Single-label classification (:mod:`svmeval.metrics.classification`) and multi-label set metrics
(:mod:`svmeval.metrics.multilabel`) both call :func:`per_class_ratios` and
:func:`svmeval.metrics.averaging.average_all`, so each ratio is written once.

Each measure is declared once in :data:`METRICS` (name, one-line description, formula, what 0/0
gives, reference, and the function computing it); each averaging in
:data:`svmeval.metrics.averaging.AVERAGES`.  Reports,
the CLI and the docs iterate over these registries instead of naming measures one by one.

Undefined values
----------------
A per-class ratio whose denominator is 0 is *undefined* and is NaN in the per-class arrays.
How undefined values enter an average is the ``zero_division`` policy (as scikit-learn):

* ``0`` (default) or ``1``: an undefined input counts as that value;
* ``"nan"`` (or ``float("nan")``): undefined inputs are left out of the average; an average
  with no defined input is NaN.

Every averaged figure for which the policy changed something is recorded by name
(``"<average>.<measure>"``, e.g. ``"macro.precision"``) in ``zero_division_applied``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

__all__ = [
    "AVERAGED_MEASURES",
    "METRICS",
    "Counts",
    "Metric",
    "check_beta",
    "parse_zero_division",
    "per_class_ratios",
]

#: The per-class measures that are averaged (fields of
#: :class:`svmeval.metrics.averaging.Average`).
AVERAGED_MEASURES = ("precision", "recall", "f1", "fbeta")


# --------------------------------------------------------------------------------------------
# Inputs of the reduce step
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Counts:
    """One-vs-rest counts, one entry per class (or label, or sample), plus optional matrix.

    ``matrix`` is the confusion matrix (rows true, columns predicted) when the counts come from
    single-label data; it is ``None`` for multi-label counts, which have no such matrix, and then
    the ``overall`` measures of :data:`METRICS` do not apply.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    beta: float = 1.0
    matrix: np.ndarray | None = None

    @property
    def support(self) -> np.ndarray:
        """Number of true instances of each class: TP + FN."""
        return self.tp + self.fn

    @classmethod
    def from_matrix(cls, matrix: np.ndarray, beta: float = 1.0) -> Counts:
        """One-vs-rest counts of every class of a K x K confusion matrix."""
        m = np.asarray(matrix, dtype=np.int64)
        tp = np.diagonal(m).copy()
        fp = m.sum(axis=0) - tp
        fn = m.sum(axis=1) - tp
        tn = m.sum() - tp - fp - fn
        return cls(tp=tp, fp=fp, fn=fn, tn=tn, beta=beta, matrix=m)


def parse_zero_division(zero_division) -> float:
    """Normalise a zero_division policy to 0.0, 1.0 or NaN; raise ValueError otherwise (an
    :class:`~svmeval.errors.InvalidParameterError` naming ``zero_division``, as every
    function's door: ``svmeval._constraints.parse_zero_division``)."""
    from svmeval._constraints import parse_zero_division as parse

    return parse(zero_division)


def check_beta(beta) -> float:
    """Return beta as a float; raise ValueError unless it is a number >= 0 (inf allowed)."""
    try:
        value = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"beta must be a number >= 0, got {beta!r}") from None
    if isinstance(beta, bool) or math.isnan(value) or value < 0:
        raise ValueError(f"beta must be a number >= 0, got {beta!r}")
    return value


def _ratio(numerator, denominator) -> np.ndarray:
    """numerator / denominator elementwise, NaN where the denominator is 0 (undefined)."""
    num = np.asarray(numerator, dtype=np.float64)
    den = np.asarray(denominator, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _fbeta(c: Counts) -> np.ndarray:
    # (1+b^2) TP / ((1+b^2) TP + b^2 FN + FP), divided through by (1+b^2) so that beta = inf
    # (recall) is not inf/inf: TP / (TP + w FN + (1-w) FP) with w = b^2 / (1+b^2).
    b2 = c.beta * c.beta
    w = 1.0 if math.isinf(b2) else b2 / (1.0 + b2)
    return _ratio(c.tp, c.tp + w * c.fn + (1.0 - w) * c.fp)


# --------------------------------------------------------------------------------------------
# Overall measures (from the confusion matrix)
# --------------------------------------------------------------------------------------------


def _matrix(c: Counts) -> np.ndarray:
    """The confusion matrix of single-label counts (multi-label counts have none)."""
    if c.matrix is None:
        raise ValueError("an overall measure needs the confusion matrix of single-label counts")
    return c.matrix


def _accuracy(c: Counts) -> float:
    m = _matrix(c)
    return float(_ratio(np.trace(m), m.sum()))


def _balanced_accuracy(c: Counts) -> float:
    recall = _ratio(c.tp, c.support)
    defined = recall[~np.isnan(recall)]
    return float(defined.mean()) if defined.size else math.nan


def _mcc(c: Counts) -> float:
    m = _matrix(c).astype(np.float64)
    t_sum = m.sum(axis=1)
    p_sum = m.sum(axis=0)
    n_correct = np.trace(m)
    n = m.sum()
    cov_tp = n_correct * n - np.dot(t_sum, p_sum)
    cov_pp = n * n - np.dot(p_sum, p_sum)
    cov_tt = n * n - np.dot(t_sum, t_sum)
    denominator = cov_pp * cov_tt
    if denominator == 0:
        return math.nan
    return float(cov_tp / np.sqrt(denominator))


def _kappa(c: Counts) -> float:
    m = _matrix(c).astype(np.float64)
    n = m.sum()
    if n == 0:
        return math.nan
    expected = np.outer(m.sum(axis=1), m.sum(axis=0)) / n
    off = ~np.eye(m.shape[0], dtype=bool)
    expected_disagreement = expected[off].sum()
    if expected_disagreement == 0:
        return math.nan
    return float(1.0 - m[off].sum() / expected_disagreement)


# --------------------------------------------------------------------------------------------
# The registry of measures
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """One measure, declared once.

    scope is ``"count"`` (an integer array per class), ``"per_class"`` (a float array per class,
    NaN where undefined) or ``"overall"`` (one float from the confusion matrix, NaN where
    undefined).  ``name`` is also the attribute of the report that holds the value.
    ``compute(counts)`` returns the value from a :class:`Counts`.
    """

    name: str
    scope: str
    description: str
    formula: str
    undefined: str
    reference: str
    compute: Callable[[Counts], Any]  # an array (count, per_class) or a float (overall)


_SKLEARN = "scikit-learn sklearn/metrics/_classification.py"
_FAWCETT = (
    "T. Fawcett (2006), An introduction to ROC analysis, Pattern Recognition Letters 27:861-874"
)
_VR = "C. J. van Rijsbergen (1979), Information Retrieval, 2nd ed., ch. 7"

_METRIC_LIST = [
    Metric(
        "tp",
        "count",
        "true positives: samples of the class predicted as the class",
        "TP_k = C[k, k]",
        "never",
        _FAWCETT,
        lambda c: c.tp,
    ),
    Metric(
        "fp",
        "count",
        "false positives: samples of other classes predicted as the class",
        "FP_k = sum_i C[i, k] - C[k, k]",
        "never",
        _FAWCETT,
        lambda c: c.fp,
    ),
    Metric(
        "fn",
        "count",
        "false negatives: samples of the class predicted as another class",
        "FN_k = sum_j C[k, j] - C[k, k]",
        "never",
        _FAWCETT,
        lambda c: c.fn,
    ),
    Metric(
        "tn",
        "count",
        "true negatives: samples of other classes not predicted as the class",
        "TN_k = N - TP_k - FP_k - FN_k",
        "never",
        _FAWCETT,
        lambda c: c.tn,
    ),
    Metric(
        "support",
        "count",
        "number of true samples of the class",
        "support_k = TP_k + FN_k",
        "never",
        _SKLEARN,
        lambda c: c.support,
    ),
    Metric(
        "precision",
        "per_class",
        "share of the samples predicted as the class that are of it",
        "TP / (TP + FP)",
        "undefined (NaN) when TP + FP = 0: the class is never predicted",
        _FAWCETT,
        lambda c: _ratio(c.tp, c.tp + c.fp),
    ),
    Metric(
        "recall",
        "per_class",
        "share of the samples of the class predicted as it (sensitivity, true positive rate)",
        "TP / (TP + FN)",
        "undefined (NaN) when TP + FN = 0: the class has no true sample",
        _FAWCETT,
        lambda c: _ratio(c.tp, c.support),
    ),
    Metric(
        "f1",
        "per_class",
        "harmonic mean of precision and recall",
        "2 TP / (2 TP + FP + FN)  (= 2 P R / (P + R) where both are defined)",
        "undefined (NaN) only when TP + FP + FN = 0; if only P or R is undefined then TP = 0 "
        "and F1 = 0 (scikit-learn >= 1.3 does the same)",
        _VR,
        lambda c: _ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn),
    ),
    Metric(
        "fbeta",
        "per_class",
        "weighted harmonic mean of precision and recall, recall beta times as important",
        "(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)  (b = 0: precision; b = inf: recall)",
        "undefined (NaN) only when the denominator is 0 (TP + FP + FN = 0 for 0 < b < inf)",
        _VR,
        _fbeta,
    ),
    Metric(
        "specificity",
        "per_class",
        "share of the samples of other classes not predicted as the class",
        "TN / (TN + FP)",
        "undefined (NaN) when TN + FP = 0: every sample is of the class",
        _FAWCETT,
        lambda c: _ratio(c.tn, c.tn + c.fp),
    ),
    Metric(
        "npv",
        "per_class",
        "negative predictive value: share of samples not predicted as the class that are not of it",
        "TN / (TN + FN)",
        "undefined (NaN) when TN + FN = 0: every sample is predicted as the class",
        _FAWCETT,
        lambda c: _ratio(c.tn, c.tn + c.fn),
    ),
    Metric(
        "ovr_accuracy",
        "per_class",
        "one-vs-rest accuracy: share of samples on the right side of the class boundary",
        "(TP + TN) / (TP + FP + FN + TN)",
        "undefined (NaN) when there is no sample",
        _FAWCETT,
        lambda c: _ratio(c.tp + c.tn, c.tp + c.fp + c.fn + c.tn),
    ),
    Metric(
        "accuracy",
        "overall",
        "share of samples predicted correctly",
        "sum_k C[k, k] / N",
        "undefined (NaN) when N = 0",
        _SKLEARN,
        _accuracy,
    ),
    Metric(
        "balanced_accuracy",
        "overall",
        "mean recall over the classes that have true samples",
        "mean of TP_k / (TP_k + FN_k) over k with TP_k + FN_k > 0",
        "undefined (NaN) when N = 0; classes with no true sample are left out",
        "K. H. Brodersen et al. (2010), The balanced accuracy and its posterior distribution, "
        "ICPR 2010, 3121-3124",
        _balanced_accuracy,
    ),
    Metric(
        "mcc",
        "overall",
        "Matthews correlation coefficient, multiclass form (R_K)",
        "(c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2)), c = trace C, "
        "s = N, p_k / t_k = predicted / true count of class k",
        "undefined (NaN) when either factor under the root is 0 (one class predicted, or one "
        "class true); scikit-learn returns 0.0 there",
        "J. Gorodkin (2004), Comparing two K-category assignments by a K-category correlation "
        "coefficient, Comput. Biol. Chem. 28:367-374",
        _mcc,
    ),
    Metric(
        "kappa",
        "overall",
        "Cohen's kappa: agreement beyond chance between true and predicted labels",
        "(p_o - p_e) / (1 - p_e), p_o = accuracy, p_e = sum_k t_k p_k / N^2",
        "undefined (NaN) when N = 0 or p_e = 1 (both vectors hold one same label)",
        "J. Cohen (1960), A coefficient of agreement for nominal scales, Educ. Psychol. Meas. "
        "20:37-46",
        _kappa,
    ),
]

#: Every measure by name, in report order.
METRICS: Mapping[str, Metric] = MappingProxyType({m.name: m for m in _METRIC_LIST})


def per_class_ratios(counts: Counts) -> dict[str, np.ndarray]:
    """Every ``per_class`` measure of :data:`METRICS` from one set of counts (NaN = undefined)."""
    return {m.name: m.compute(counts) for m in METRICS.values() if m.scope == "per_class"}
