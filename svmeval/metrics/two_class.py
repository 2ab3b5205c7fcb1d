"""svm-train's two-class figures from the four counts: which class is positive, and each
class's precision and recall as the per-class patch of svm-train prints them.

This module needs neither numpy nor anything else of svmeval's metrics (it counts sequences of
numbers, numpy arrays among them), so that a cross-validation that prints only svm-train's lines
(``svmeval -v k``) loads no registry, average or table.
:mod:`svmeval.metrics.run_figures` takes its positive-class rule from here.
"""

from __future__ import annotations

from collections import Counter

from svmeval.errors import ArgumentError, show_label

__all__ = [
    "ClassLine",
    "patch_classes",
    "positive_and_negative",
    "positive_label",
    "svm_train_classes",
]


class ClassLine(tuple):
    """One class of the per-class lines, ``(label, precision, recall)``: its label, precision
    TP/(TP+FP) and recall TP/(TP+FN), NaN where 0/0. A plain tuple with named fields (a named
    tuple's module would cost a drop-in call's start-up)."""

    __slots__ = ()

    def __new__(cls, label: float, precision: float, recall: float):
        return tuple.__new__(cls, (label, precision, recall))

    @property
    def label(self) -> float:
        return self[0]

    @property
    def precision(self) -> float:
        return self[1]

    @property
    def recall(self) -> float:
        return self[2]

    def __repr__(self) -> str:
        return f"ClassLine(label={self[0]!r}, precision={self[1]!r}, recall={self[2]!r})"


def positive_label(labels, pos_label: float | None = None) -> float:
    """The positive class of two-class data: ``pos_label`` if given, else 1 when present, else
    the larger label."""
    if pos_label is not None:
        if pos_label not in labels:
            shown = ", ".join(show_label(v) for v in labels)
            raise ArgumentError(
                "pos_label", f"{show_label(pos_label)} is not one of the labels ({shown})"
            )
        return float(pos_label)
    return 1.0 if 1.0 in labels else float(max(labels))


def positive_and_negative(labels, pos_label) -> tuple:
    """``(positive, negative)`` labels of two-class data; ``(None, None)`` for more classes
    (where ``pos_label`` is refused)."""
    if len(labels) == 2:
        positive = positive_label(labels, pos_label)
        return positive, float(next(v for v in labels if v != positive))
    if pos_label is not None:
        raise ArgumentError("pos_label", "applies to two-class data only")
    return None, None


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def patch_classes(tp: int, fp: int, fn: int, tn: int) -> tuple:
    """The patched svm-train's two blocks from the counts of class 1 (``tp``: labelled 1 and
    predicted 1, ``fp``: predicted 1 otherwise labelled, ``fn``: labelled 1 and predicted
    otherwise, ``tn``: the rest): its "+1" class is the samples labelled 1, its "-1" class every
    other sample, whatever their labels; the two :class:`ClassLine` values are labelled 1 and -1, as its
    headers print them. Without a sample labelled or predicted 1, the "+1" block's precision and
    recall are 0/0 (NaN) and the "-1" block's 1."""
    return (
        ClassLine(1.0, _ratio(tp, tp + fp), _ratio(tp, tp + fn)),
        ClassLine(-1.0, _ratio(tn, tn + fn), _ratio(tn, tn + fp)),
    )


def svm_train_classes(y_true, y_pred, pos_label: float | None = None):
    """``(labels, correct, classes)`` of class predictions: the labels seen (ascending), the
    number of correct predictions and, for two classes, the positive then the negative class's
    :class:`ClassLine` (empty for one class or more than two).

    Without ``pos_label`` the two blocks are the patched svm-train's (:func:`patch_classes`:
    label 1 against every other label, headed +1 and -1 whatever the labels); with it, the
    block of class ``pos_label`` then the other class's, each under its own label.

    The counts are those of the confusion matrix (:class:`~svmeval.metrics.ConfusionCounts`)
    and the ratios the same double divisions, so the lines agree with the full report's.
    """
    y_true = list(map(float, y_true))
    y_pred = list(map(float, y_pred))
    if len(y_true) != len(y_pred):
        raise ArgumentError("y_pred", f"{len(y_pred)} predictions for {len(y_true)} samples")
    labels = sorted(set(y_true).union(y_pred))
    pairs = Counter(zip(y_true, y_pred)).items()  # each (true, predicted) pair, counted
    correct = sum(k for (t, p), k in pairs if t == p)
    positive, negative = positive_and_negative(labels, pos_label)
    if positive is None:
        return labels, correct, ()
    if pos_label is None:
        positive = 1.0  # the patch's: the samples labelled 1, whether there are any or not
    tp = sum(k for (t, p), k in pairs if t == positive and p == positive)
    fp = sum(k for (t, p), k in pairs if p == positive and t != positive)
    fn = sum(k for (t, p), k in pairs if t == positive and p != positive)
    tn = len(y_true) - tp - fp - fn
    if pos_label is None:
        return labels, correct, patch_classes(tp, fp, fn, tn)
    return (
        labels,
        correct,
        (
            ClassLine(positive, _ratio(tp, tp + fp), _ratio(tp, tp + fn)),
            ClassLine(negative, _ratio(tn, tn + fn), _ratio(tn, tn + fp)),
        ),
    )
