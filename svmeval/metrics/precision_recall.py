"""Precision, recall and F-beta with scikit-learn's contract (``precision_score``,
``recall_score``, ``f1_score``, ``fbeta_score``): binary, multiclass and multi-label indicator
targets, numeric or string labels, ``sample_weight``, ``labels=`` (a subset, in its own order),
``average`` in {"binary", "micro", "macro", "weighted", "samples", None} and
``zero_division`` in {"warn", 0, 1, nan}.

Undefined ratios (0/0) take the ``zero_division`` value; with "warn" (the default) they are 0.0
and :class:`~svmeval.metrics.undefined.UndefinedMetricWarning` says so.  Averages leave NaN values
out.  svmeval's own reports keep undefined values undefined instead: see
:func:`svmeval.metrics.classification.evaluate`.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from svmeval.metrics.counting import label_counts
from svmeval.metrics.target_types import (
    check_consistent_length,
    check_orderable,
    check_sample_weight,
    check_targets,
)
from svmeval.metrics.undefined import warn_undefined
from svmeval.metrics.validation import Interval, Options, StrOptions, validate_params

__all__ = [
    "f1_score",
    "fbeta_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")

#: the parameters every set-wise function shares, constrained as scikit-learn's
_SHARED = {
    "y_true": ["array-like", "sparse matrix"],
    "y_pred": ["array-like", "sparse matrix"],
    "labels": ["array-like", None],
    "pos_label": [numbers.Real, str, "boolean", None],
    "average": [StrOptions({"micro", "macro", "samples", "weighted", "binary"}), None],
    "sample_weight": ["array-like", None],
    "zero_division": [Options(numbers.Real, {0.0, 1.0}), "nan", StrOptions({"warn"})],
}
_BETA = [Interval(numbers.Real, 0.0, None, closed="both")]


def check_zero_division(zero_division) -> float:
    """The value of a zero_division policy: "warn" (0.0), 0, 1 (``True`` and ``False`` too, as
    numbers: scikit-learn's ``Options(Real, {0.0, 1.0})``) or NaN."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, numbers.Real):
        if zero_division in (0, 1):
            return float(zero_division)
        if math.isnan(zero_division):
            return math.nan
    raise ValueError(f"zero_division must be 'warn', 0.0, 1.0 or np.nan, got {zero_division!r}")


def _divide(num, den, metric, modifier, average, warn_for, zero_division):
    mask = den == 0
    den = np.asarray(den, dtype=np.float64).copy()
    den[mask] = 1
    result = np.asarray(num, dtype=np.float64) / den
    if not mask.any():
        return result
    result[mask] = check_zero_division(zero_division)
    if isinstance(zero_division, str) and metric in warn_for:
        axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
        where = "due to" if result.shape[0] == 1 else f"in {axis1}s with"
        warn_undefined(
            f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no {modifier} "
            f"{axis0}s. Use `zero_division` parameter to control this behavior.",
            stacklevel=4,
        )
    return result


def _nanaverage(values: np.ndarray, weights) -> float:
    if values.size == 0:
        return math.nan
    keep = ~np.isnan(values)
    if not keep.any():
        return math.nan
    if weights is None:
        return float(np.mean(values[keep]))
    w = np.asarray(weights, dtype=np.float64)[keep]
    if w.sum() == 0:
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=w))


def _set_wise_labels(kind, present, average, labels, pos_label):
    if average == "binary":
        if kind == "binary":
            if pos_label not in present.tolist() and present.size >= 2:
                raise ValueError(
                    f"pos_label={pos_label!r} is not a valid label. It should be "
                    f"one of {present.tolist()}"
                )
            return [pos_label]
        choices = [a for a in _AVERAGES if not (kind == "multiclass" and a == "samples")]
        raise ValueError(
            f"Target is {kind} but average='binary'. Please choose another "
            f"average setting, one of {choices!r}."
        )
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != "
            f"'binary' (got {average!r}). You may use labels=[pos_label] to specify a "
            "single positive class.",
            UserWarning,
            stacklevel=4,
        )
    return labels


@validate_params({**_SHARED, "beta": _BETA, "warn_for": [list, tuple, set]})
def precision_recall_fscore_support(
    y_true,
    y_pred,
    *,
    beta=1.0,
    labels=None,
    pos_label=1,
    average=None,
    warn_for=("precision", "recall", "f-score"),
    sample_weight=None,
    zero_division="warn",
):
    """Precision, recall, F-beta and support of each label, or their average.

    Follows ``sklearn.metrics.precision_recall_fscore_support``: same parameters, defaults and results, same
    exceptions and warnings.  Undefined ratios take the
    ``zero_division`` value; averages leave NaN values out.

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    beta : float, default=1.0
        The weight of recall against precision in the F-score.
    labels : array-like, default=None
        The labels to score (a subset, in its own order); None: those present, ascending.
    pos_label : int, float, bool or str, default=1
        The positive class where ``average="binary"``; ignored (with a warning) otherwise.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default=None
        None: one value per label; otherwise how the labels' values are averaged.
    warn_for : list, tuple or set, default=("precision", "recall", "f-score")
        The figures whose undefined values warn.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio (0 / 0); "warn": 0.0 with an UndefinedMetricWarning.

    Returns
    -------
    precision, recall, fbeta_score : float or numpy.ndarray of shape (n_labels,)
        The averages, or with ``average=None`` one value per label.
    support : None or numpy.ndarray of shape (n_labels,)
        The number of true samples of each label with ``average=None``; None otherwise.

    Examples
    --------
    >>> from svmeval.metrics import precision_recall_fscore_support
    >>> y_true = ["cat", "dog", "pig", "cat", "dog", "pig"]
    >>> y_pred = ["cat", "pig", "dog", "cat", "cat", "dog"]
    >>> p, r, f, support = precision_recall_fscore_support(y_true, y_pred, average="macro")
    >>> round(p, 4), round(r, 4), round(f, 4), support
    (0.2222, 0.3333, 0.2667, None)
    >>> [a.round(4).tolist() for a in precision_recall_fscore_support(y_true, y_pred)]
    [[0.6667, 0.0, 0.0], [1.0, 0.0, 0.0], [0.8, 0.0, 0.0], [2, 2, 2]]
    """
    check_zero_division(zero_division)
    if not (average is None or (isinstance(average, str) and average in _AVERAGES + ("binary",))):
        raise ValueError(f"average has to be one of {_AVERAGES + ('binary',)}, got {average!r}")
    if (
        isinstance(beta, bool)
        or not isinstance(beta, (int, float, np.integer, np.floating))
        or not beta >= 0
    ):
        raise ValueError(f"beta must be a number >= 0, got {beta!r}")
    check_orderable(y_true, y_pred)
    # scikit-learn's order: the targets, the labels (and pos_label's warning), the weights
    targets = check_targets(y_true, y_pred)
    labels = _set_wise_labels(targets.kind, targets.labels, average, labels, pos_label)
    w = None
    if sample_weight is not None:
        check_consistent_length(y_true, y_pred, sample_weight)
        w = check_sample_weight(sample_weight, targets.y_true.shape[0])
        targets = targets._replace(sample_weight=w)
    if average == "binary" and pos_label is None:  # scikit-learn sorts it with the labels
        raise TypeError(
            f"pos_label=None cannot be ordered with the labels "
            f"{targets.labels.tolist()}: give the positive class"
        )
    tp, pred, true = label_counts(targets, labels, average == "samples")
    if average == "micro":
        tp, pred, true = (np.atleast_1d(a.sum()) for a in (tp, pred, true))
    precision = _divide(tp, pred, "precision", "predicted", average, warn_for, zero_division)
    recall = _divide(tp, true, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        b2 = float(beta) ** 2
        f_score = _divide(
            (1 + b2) * tp.astype(np.float64),
            b2 * true.astype(np.float64) + pred,
            "f-score",
            "true nor predicted",
            average,
            warn_for,
            zero_division,
        )
    if average is None:
        return precision, recall, f_score, true
    weights = {"weighted": true, "samples": w}.get(average)
    return (
        _nanaverage(precision, weights),
        _nanaverage(recall, weights),
        _nanaverage(f_score, weights),
        None,
    )


@validate_params(_SHARED)
def precision_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Precision TP / (TP + FP): the share of the predicted positives that are right.

    Follows ``sklearn.metrics.precision_score``: same parameters, defaults and results, same
    exceptions and warnings.

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    labels : array-like, default=None
        The labels to score (a subset, in its own order); None: those present, ascending.
    pos_label : int, float, bool or str, default=1
        The positive class where ``average="binary"``; ignored (with a warning) otherwise.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        None: one value per label; otherwise how the labels' values are averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio (0 / 0); "warn": 0.0 with an UndefinedMetricWarning.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The precision, or with ``average=None`` one value per label.

    Examples
    --------
    >>> from svmeval.metrics import precision_score
    >>> round(precision_score([0, 1, 1, 0, 1], [0, 1, 0, 1, 1]), 4)
    0.6667
    >>> precision_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average=None).round(4).tolist()
    [0.6667, 0.0, 0.0]
    """
    p, _, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return p


@validate_params(_SHARED)
def recall_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Recall TP / (TP + FN): the share of the true positives that are found.

    Follows ``sklearn.metrics.recall_score``: same parameters, defaults and results, same
    exceptions and warnings.

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    labels : array-like, default=None
        The labels to score (a subset, in its own order); None: those present, ascending.
    pos_label : int, float, bool or str, default=1
        The positive class where ``average="binary"``; ignored (with a warning) otherwise.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        None: one value per label; otherwise how the labels' values are averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio (0 / 0); "warn": 0.0 with an UndefinedMetricWarning.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The recall, or with ``average=None`` one value per label.

    Examples
    --------
    >>> from svmeval.metrics import recall_score
    >>> round(recall_score([0, 1, 1, 0, 1], [0, 1, 0, 1, 1]), 4)
    0.6667
    >>> round(recall_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro"), 4)
    0.3333
    """
    _, r, _, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return r


@validate_params({**_SHARED, "beta": _BETA})
def fbeta_score(
    y_true,
    y_pred,
    *,
    beta,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """F-beta: precision and recall combined, recall weighted ``beta`` times as much.

    Follows ``sklearn.metrics.fbeta_score``: same parameters, defaults and results, same
    exceptions and warnings.  F-beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP).

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    beta : float
        The weight of recall against precision (required, keyword only).
    labels : array-like, default=None
        The labels to score (a subset, in its own order); None: those present, ascending.
    pos_label : int, float, bool or str, default=1
        The positive class where ``average="binary"``; ignored (with a warning) otherwise.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        None: one value per label; otherwise how the labels' values are averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio (0 / 0); "warn": 0.0 with an UndefinedMetricWarning.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The F-beta score, or with ``average=None`` one value per label.

    Examples
    --------
    >>> from svmeval.metrics import fbeta_score
    >>> round(fbeta_score([0, 1, 1, 0, 1], [0, 1, 0, 1, 1], beta=2), 4)
    0.6667
    >>> round(fbeta_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], beta=0.5, average="macro"), 4)
    0.2381
    """
    _, _, f, _ = precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return f


@validate_params(_SHARED)
def f1_score(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """F1 = 2 TP / (2 TP + FP + FN): the harmonic mean of precision and recall.

    Follows ``sklearn.metrics.f1_score``: same parameters, defaults and results, same
    exceptions and warnings.

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    labels : array-like, default=None
        The labels to score (a subset, in its own order); None: those present, ascending.
    pos_label : int, float, bool or str, default=1
        The positive class where ``average="binary"``; ignored (with a warning) otherwise.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        None: one value per label; otherwise how the labels' values are averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of an undefined ratio (0 / 0); "warn": 0.0 with an UndefinedMetricWarning.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The F1 score, or with ``average=None`` one value per label.

    Examples
    --------
    >>> from svmeval.metrics import f1_score
    >>> round(f1_score([0, 1, 1, 0, 1], [0, 1, 0, 1, 1]), 4)
    0.6667
    >>> f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average=None).round(4).tolist()
    [0.8, 0.0, 0.0]
    """
    return fbeta_score(
        y_true,
        y_pred,
        beta=1,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
