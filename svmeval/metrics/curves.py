"""ROC and precision-recall curves of scores, and the binary areas under them, with
scikit-learn's contract (``sklearn.metrics.roc_curve``, ``precision_recall_curve``; the binary
cores of ``roc_auc_score`` and ``average_precision_score``).  Pure numpy.

The points: scores sorted in descending order (a stable sort), equal scores one threshold, one
point per threshold, true and false positives as cumulative (weighted) sums.  Samples of weight
0 are left out.  Areas are the trapezoidal area under the ROC curve (optionally the standardised
partial area up to ``max_fpr``, McClish 1989) and the step-wise average precision
``AP = sum_n (R_n - R_{n-1}) P_n``.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from svmeval.metrics.target_types import (
    as_array,
    assert_all_finite,
    check_consistent_length,
    check_sample_weight,
    column_or_1d,
    type_of_target,
    unique_labels,
)
from svmeval.metrics.undefined import UndefinedMetricWarning
from svmeval.metrics.validation import validate_params

#: roc_curve's and precision_recall_curve's parameters, constrained as scikit-learn's
_CURVE = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "pos_label": [numbers.Real, str, "boolean", None],
    "sample_weight": ["array-like", None],
    "drop_intermediate": ["boolean"],
}

__all__ = ["precision_recall_curve", "roc_curve", "binary_roc_auc", "binary_average_precision"]

_trapezoid = getattr(np, "trapezoid", None) or np.trapz  # type: ignore[attr-defined]  # noqa: NPY201 - numpy < 2


def check_finite(values: np.ndarray, name: str) -> None:
    assert_all_finite(values, name)


def _pos_label(pos_label, y: np.ndarray):
    if pos_label is not None:
        return pos_label
    classes = unique_labels(y)
    known = ([0, 1], [-1, 1], [0], [-1], [1])
    if (
        classes.dtype.kind in "OUS"
        or classes.size > 2
        or not any(np.array_equal(classes, k) for k in known)
    ):
        shown = ", ".join(repr(c) for c in classes.tolist())
        raise ValueError(
            f"y_true takes value in {{{shown}}} and pos_label is not specified: "
            "either make y_true take value in {0, 1} or {-1, 1} or pass "
            "pos_label explicitly."
        )
    return 1


def binary_counts(y_true, y_score, pos_label=None, sample_weight=None):
    """(fps, tps, thresholds): false and true positives (weighted) at each distinct score,
    from the highest score down."""
    kind = type_of_target(y_true, "y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise ValueError(f"{kind} format is not supported")
    positive = as_array(y_true) == _pos_label(pos_label, as_array(y_true))
    check_consistent_length(positive, y_score, sample_weight)
    positive = column_or_1d(positive, "y_true")
    s = column_or_1d(as_array(y_score), "y_score")
    check_finite(s, "y_score")
    w = None
    if sample_weight is not None:
        w = check_sample_weight(column_or_1d(sample_weight, "sample_weight"), positive.shape[0])
    if w is not None:
        keep = w != 0
        positive, s, w = positive[keep], s[keep], w[keep]
    order = np.argsort(s, kind="stable")[::-1]
    s, positive = s[order], positive[order]
    last = np.r_[np.flatnonzero(np.diff(s)), positive.size - 1]
    if w is None:
        tps = np.cumsum(positive, dtype=np.float64)[last]
        fps = 1.0 + last - tps
    else:
        w = w[order].astype(np.float64)
        tps = np.cumsum(positive * w)[last]
        fps = np.cumsum(~positive * w)[last]
    return fps, tps, s[last]


@validate_params(_CURVE)
def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """The receiver operating characteristic (ROC) curve of binary scores.

    Follows ``sklearn.metrics.roc_curve``: same parameters, defaults and results, same
    exceptions and warnings.  One point per distinct score, from the highest down, after a first
    point (0, 0) at threshold +inf.  Without negatives (positives) ``fpr`` (``tpr``) is NaN,
    with an UndefinedMetricWarning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true binary labels.
    y_score : array-like of shape (n_samples,)
        The scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class; None: 1, where the labels are {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    drop_intermediate : bool, default=True
        Leave out the points that lie on a straight line between their neighbours.

    Returns
    -------
    fpr : numpy.ndarray
        The false positive rates, non-decreasing.
    tpr : numpy.ndarray
        The true positive rates, non-decreasing.
    thresholds : numpy.ndarray
        The thresholds (a score >= threshold is positive), decreasing; the first is +inf.

    Examples
    --------
    >>> from svmeval.metrics import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thresholds.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    """
    fps, tps, thresholds = binary_counts(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    tps = np.r_[0.0, tps]
    fps = np.r_[0.0, fps]
    thresholds = np.r_[np.inf, thresholds.astype(np.float64)]
    if fps[-1] <= 0:
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thresholds


@validate_params(_CURVE)
def precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    """The precision-recall curve of binary scores.

    Follows ``sklearn.metrics.precision_recall_curve``: same parameters, defaults and results,
    same exceptions and warnings.  Precision and recall at each threshold from the lowest score
    up, then the point (1, 0) that has no threshold.  Precision with nothing predicted positive
    is 0; without positives recall is 1 (with a warning).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true binary labels.
    y_score : array-like of shape (n_samples,)
        The scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class; None: 1, where the labels are {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    drop_intermediate : bool, default=False
        Leave out the suboptimal thresholds, which add no point to the plotted curve.

    Returns
    -------
    precision : numpy.ndarray of shape (n_thresholds + 1,)
        The precisions; the last is 1.
    recall : numpy.ndarray of shape (n_thresholds + 1,)
        The recalls, non-increasing; the last is 0.
    thresholds : numpy.ndarray of shape (n_thresholds,)
        The distinct scores, increasing.

    Examples
    --------
    >>> from svmeval.metrics import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> [round(p, 4) for p in precision.tolist()]
    [0.5, 0.6667, 0.5, 1.0, 1.0]
    >>> recall.tolist(), thresholds.tolist()
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    fps, tps, thresholds = binary_counts(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), True]
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    predicted = tps + fps
    # as scikit-learn: divided everywhere (numpy warns where a negative weight makes 0 / 0)
    precision = np.where(predicted != 0, np.divide(tps, predicted), 0.0)
    if tps[-1] == 0:
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=2,
        )
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def _auc(x: np.ndarray, y: np.ndarray) -> float:
    """The trapezoidal area under the points (x, y), x monotonic (scikit-learn's ``auc``: a
    negative weight can make the ROC curve turn back, which is refused)."""
    if x.shape[0] < 2:
        raise ValueError(
            f"At least 2 points are needed to compute area under curve, but x.shape = {x.shape[0]}"
        )
    dx = np.diff(x)
    direction = 1
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
        direction = -1
    return float(direction * _trapezoid(y, x))


def binary_roc_auc(y_true, y_score, sample_weight=None, max_fpr=None) -> float:
    """ROC AUC of a 0/1 vector (NaN with a warning unless both classes are present)."""
    if np.unique(y_true).size != 2:
        warnings.warn(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return np.nan
    fpr, tpr, _ = roc_curve(y_true, y_score, sample_weight=sample_weight)
    if max_fpr is None or max_fpr == 1:
        return _auc(fpr, tpr)
    if max_fpr <= 0 or max_fpr > 1:
        raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    stop = np.searchsorted(fpr, max_fpr, "right")
    tpr = np.append(
        tpr[:stop], np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])
    )
    fpr = np.append(fpr[:stop], max_fpr)
    partial_auc = _auc(fpr, tpr)
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return float(0.5 * (1 + (partial_auc - min_area) / (max_area - min_area)))


def binary_average_precision(y_true, y_score, sample_weight=None, pos_label=1) -> float:
    """Step-wise average precision of one binary problem."""
    precision, recall, _ = precision_recall_curve(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))
