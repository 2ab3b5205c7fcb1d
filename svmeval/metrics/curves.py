"""ROC and precision-recall curves of scores (decision values or probabilities); pure numpy.

The points are scikit-learn's (``sklearn.metrics.roc_curve`` / ``precision_recall_curve``):
scores sorted in descending order, equal scores one threshold, one point per threshold.
The areas under them are :func:`svmeval.metrics.ranking.roc_auc_score` and
:func:`~svmeval.metrics.ranking.average_precision_score`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["precision_recall_curve", "roc_curve"]


def _counts(y_true, y_score, pos_label):
    """(false positives, true positives, thresholds) at each distinct score, descending."""
    y = np.asarray(y_true, dtype=np.float64).ravel()
    s = np.asarray(y_score, dtype=np.float64).ravel()
    if len(y) != len(s):
        raise ValueError(f"{len(y)} labels but {len(s)} scores")
    if len(y) == 0:
        raise ValueError("no samples")
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite numbers")
    if pos_label is None:
        values = np.unique(y)
        if not (np.array_equal(values, [0, 1]) or np.array_equal(values, [-1, 1])
                or np.array_equal(values, [0]) or np.array_equal(values, [-1])
                or np.array_equal(values, [1])):
            raise ValueError("give pos_label: the labels are not {0, 1} or {-1, 1}")
        pos_label = 1.0
    positive = y == pos_label
    order = np.argsort(s, kind="mergesort")[::-1]
    s, positive = s[order], positive[order]
    last_of_group = np.r_[np.flatnonzero(np.diff(s)), len(s) - 1]
    tps = np.cumsum(positive, dtype=np.float64)[last_of_group]
    fps = 1.0 + last_of_group - tps
    return fps, tps, s[last_of_group]


def roc_curve(y_true, y_score, *, pos_label=None, drop_intermediate: bool = True):
    """(fpr, tpr, thresholds) of the ROC curve; the first point is (0, 0) at threshold +inf.

    ``drop_intermediate`` leaves out the points on a straight stretch of the curve, as
    scikit-learn does by default. Without negatives (positives) ``fpr`` (``tpr``) is NaN."""
    fps, tps, thresholds = _counts(y_true, y_score, pos_label)
    if drop_intermediate and len(fps) > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    fps = np.r_[0.0, fps]
    tps = np.r_[0.0, tps]
    thresholds = np.r_[np.inf, thresholds]
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = fps / fps[-1] if fps[-1] > 0 else np.full(fps.shape, np.nan)
        tpr = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    return fpr, tpr, thresholds


def precision_recall_curve(y_true, y_score, *, pos_label=None):
    """(precision, recall, thresholds): precision and recall at each threshold from the lowest
    score up, followed by the point (precision 1, recall 0) that has no threshold. Precision
    with no predicted positive is 0; recall without positives is 1 (scikit-learn's choices)."""
    fps, tps, thresholds = _counts(y_true, y_score, pos_label)
    predicted = tps + fps
    precision = np.divide(tps, predicted, out=np.zeros_like(tps), where=predicted != 0)
    recall = tps / tps[-1] if tps[-1] > 0 else np.ones_like(tps)
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]
