"""svm-train's two-class figures from the four counts: which class is positive, and each
class's precision and recall as the per-class patch of svm-train prints them.

This module needs numpy and nothing else of svmeval's metrics, so that a cross-validation that
prints only svm-train's lines (``svmeval -v k``) loads no registry, average or table.
:mod:`svmeval.metrics.run_figures` takes its positive-class rule from here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmeval.errors import ArgumentError, show_label

__all__ = ["ClassLine", "positive_and_negative", "positive_label", "svm_train_classes"]


class ClassLine(NamedTuple):
    """One class of the per-class lines: its label, precision TP/(TP+FP) and recall
    TP/(TP+FN), NaN where 0/0."""

    label: float
    precision: float
    recall: float


def positive_label(labels: np.ndarray, pos_label: float | None = None) -> float:
    """The positive class of two-class data: ``pos_label`` if given, else 1 when present, else
    the larger label."""
    if pos_label is not None:
        if pos_label not in labels:
            shown = ", ".join(show_label(v) for v in labels)
            raise ArgumentError(
                "pos_label", f"{show_label(pos_label)} is not one of the labels ({shown})"
            )
        return float(pos_label)
    return 1.0 if 1.0 in labels else float(labels.max())


def positive_and_negative(labels: np.ndarray, pos_label) -> tuple:
    """``(positive, negative)`` labels of two-class data; ``(None, None)`` for more classes
    (where ``pos_label`` is refused)."""
    if len(labels) == 2:
        positive = positive_label(labels, pos_label)
        return positive, float(labels[labels != positive][0])
    if pos_label is not None:
        raise ArgumentError("pos_label", "applies to two-class data only")
    return None, None


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (as np.unique, which imports numpy.ma: a cost of its
    own at start-up)."""
    ordered = np.sort(values)
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def svm_train_classes(y_true, y_pred, pos_label: float | None = None):
    """``(labels, correct, classes)`` of class predictions: the labels seen (ascending), the
    number of correct predictions and, for two classes, the positive then the negative class's
    :class:`ClassLine` (empty for one class or more than two).

    The counts are those of the confusion matrix (:class:`~svmeval.metrics.ConfusionCounts`)
    and the ratios the same double divisions, so the lines agree with the full report's.
    """
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    labels = _distinct(np.concatenate((y_true, y_pred)))
    correct = int(np.count_nonzero(y_true == y_pred))
    positive, negative = positive_and_negative(labels, pos_label)
    if positive is None:
        return labels, correct, ()
    true_pos, pred_pos = y_true == positive, y_pred == positive
    tp = int(np.count_nonzero(true_pos & pred_pos))
    fp = int(np.count_nonzero(pred_pos & ~true_pos))
    fn = int(np.count_nonzero(true_pos & ~pred_pos))
    tn = len(y_true) - tp - fp - fn
    return (
        labels,
        correct,
        (
            ClassLine(positive, _ratio(tp, tp + fp), _ratio(tp, tp + fn)),
            ClassLine(negative, _ratio(tn, tn + fn), _ratio(tn, tn + fp)),
        ),
    )
