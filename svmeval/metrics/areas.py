"""ROC AUC and average precision with scikit-learn's contract (``roc_auc_score``,
``average_precision_score``): binary scores, multi-label indicators (averaged per label,
"micro", "samples", "weighted"), multiclass one-vs-rest and one-vs-one, ``sample_weight``,
``max_fpr`` (partial AUC).  A label column with one class only has an undefined ROC AUC: NaN,
with an UndefinedMetricWarning, as scikit-learn.

svmeval's own figures (per-class arrays with NaN where undefined, LIBSVM's column order) are
:func:`svmeval.metrics.ranking.ovr_roc_auc` and the functions beside it.
"""

from __future__ import annotations

import numbers
from functools import partial
from itertools import combinations

import numpy as np

from svmeval.metrics.curves import binary_average_precision, binary_roc_auc
from svmeval.metrics.target_types import (
    as_array,
    check_array,
    check_consistent_length,
    column_or_1d,
    type_of_target,
    unique_labels,
)
from svmeval.metrics.validation import Interval, StrOptions, validate_params

__all__ = ["average_precision_score", "roc_auc_score"]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _binarize(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return (y[:, None] == classes[None, :]).astype(np.int64)


def _columns(y_true, y_score, axis):
    for c in range(y_score.shape[axis]):
        yield (y_true[:, c], y_score[:, c]) if axis == 1 else (y_true[c], y_score[c])


def average_binary_score(metric, y_true, y_score, average, sample_weight=None):
    """metric over each column of an indicator (or once for a binary target), averaged."""
    if average not in _AVERAGES:
        raise ValueError(f"average has to be one of {_AVERAGES}")
    kind = type_of_target(y_true)
    if kind not in ("binary", "multilabel-indicator"):
        raise ValueError(f"{kind} format is not supported")
    if kind == "binary":
        return metric(y_true, y_score, sample_weight=sample_weight)
    check_consistent_length(y_true, y_score, sample_weight)
    y_true, y_score = check_array(y_true), check_array(y_score)
    score_weight, average_weight, axis = sample_weight, None, 1
    if average == "micro":
        if score_weight is not None:
            score_weight = np.repeat(score_weight, y_true.shape[1])
        y_true, y_score = y_true.ravel()[:, None], y_score.ravel()[:, None]
    elif average == "weighted":
        w = 1.0 if score_weight is None else np.reshape(score_weight, (-1, 1))
        average_weight = np.sum(y_true * w, axis=0)
        if np.isclose(average_weight.sum(), 0):
            return 0
    elif average == "samples":
        average_weight, score_weight, axis = score_weight, None, 0
    score = np.array(
        [metric(t, s, sample_weight=score_weight) for t, s in _columns(y_true, y_score, axis)],
        dtype=np.float64,
    )
    if average is None:
        return score
    if average_weight is not None:
        score[np.asarray(average_weight) == 0] = 0
    return float(np.average(score, weights=average_weight))


def _check_multiclass_labels(y, labels, n_columns):
    if labels is None:
        classes = unique_labels(y)
        if classes.size != n_columns:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
        return classes
    labels = column_or_1d(as_array(labels), "labels")
    classes = unique_labels(labels)
    if classes.size != labels.size:
        raise ValueError("Parameter 'labels' must be unique")
    if not np.array_equal(classes, labels):
        raise ValueError("Parameter 'labels' must be ordered")
    if classes.size != n_columns:
        raise ValueError(
            f"Number of given labels, {classes.size}, not equal to the number of "
            f"columns in 'y_score', {n_columns}"
        )
    if np.setdiff1d(y, classes).size:
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes


def _ovo(y, classes, y_score, average):
    """Mean over the pairs of classes present in y of the two one-vs-one AUCs (Hand & Till
    2001); column j scores classes[j]."""
    codes = np.searchsorted(classes, y)
    pair_scores, prevalence = [], []
    for a, b in combinations(np.unique(codes), 2):
        a_mask, b_mask = codes == a, codes == b
        ab = a_mask | b_mask
        prevalence.append(np.average(ab))
        pair_scores.append(
            (
                binary_roc_auc(a_mask[ab], y_score[ab, a])
                + binary_roc_auc(b_mask[ab], y_score[ab, b])
            )
            / 2
        )
    return float(np.average(pair_scores, weights=prevalence if average == "weighted" else None))


def _multiclass_roc_auc(y, y_score, labels, multi_class, average, sample_weight):
    if y_score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since "
            f"`y_true` contains multiple classes. Got `y_score.shape={y_score.shape}`."
        )
    if not np.allclose(1, y_score.sum(axis=1)):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. "
            "they should sum up to 1.0 over classes"
        )
    options = (
        ("micro", "macro", "weighted", None)
        if multi_class == "ovr"
        else ("macro", "weighted", None)
    )
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if multi_class not in ("ovo", "ovr"):
        raise ValueError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, "
            "multi_class must be in ('ovo', 'ovr')"
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = _check_multiclass_labels(y, labels, y_score.shape[1])
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case."
            )
        return _ovo(y, classes, y_score, average)
    return average_binary_score(
        binary_roc_auc, _binarize(y, classes), y_score, average, sample_weight
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "average": [StrOptions({"micro", "macro", "samples", "weighted"}), None],
        "sample_weight": ["array-like", None],
        "max_fpr": [Interval(numbers.Real, 0.0, 1, closed="right"), None],
        "multi_class": [StrOptions({"raise", "ovr", "ovo"})],
        "labels": ["array-like", None],
    }
)
def roc_auc_score(
    y_true,
    y_score,
    *,
    average="macro",
    sample_weight=None,
    max_fpr=None,
    multi_class="raise",
    labels=None,
):
    """Area under the ROC curve (ROC AUC) of scores.

    Follows ``sklearn.metrics.roc_auc_score``: same parameters, defaults and results, same
    exceptions and warnings.  Binary scores, multi-label indicators (one AUC a label, then
    averaged) and multiclass probabilities (one-vs-rest or one-vs-one, Hand & Till 2001); a
    label with one class only has an undefined AUC: NaN, with an UndefinedMetricWarning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        The true labels, or a multi-label indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        The scores: of the greater label for a binary target, one column per label or class
        otherwise (multiclass: probabilities that sum to 1).
    average : {"micro", "macro", "samples", "weighted"} or None, default="macro"
        How the labels' (classes') AUCs are averaged; None: one AUC each.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    max_fpr : float in (0, 1], default=None
        Binary only: the standardised partial AUC up to this false positive rate (McClish 1989).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Multiclass only: one-vs-rest or one-vs-one; "raise" refuses a multiclass target.
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the classes of ``y_score``'s columns, ordered; None: those in ``y_true``.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The AUC, or with ``average=None`` one AUC per label (class).

    Examples
    --------
    >>> from svmeval.metrics import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> proba = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]]
    >>> round(roc_auc_score([0, 1, 2, 2], proba, multi_class="ovr"), 4)
    0.9583
    """
    kind = type_of_target(y_true, "y_true")
    y = check_array(y_true, name="y_true", ensure_2d=False, numeric=False)
    s = check_array(y_score, name="y_score", ensure_2d=False)
    w = None if sample_weight is None else column_or_1d(sample_weight, "sample_weight")
    if kind == "multiclass" or (kind == "binary" and s.ndim == 2 and s.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, "
                f"'max_fpr' must be set to `None`, received `max_fpr={max_fpr}` "
                "instead"
            )
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_roc_auc(y, s, labels, multi_class, average, w)
    metric = partial(binary_roc_auc, max_fpr=max_fpr)
    if kind == "binary":
        classes = np.unique(y)
        y = column_or_1d(y, "y_true")
        y = (
            (y == classes[-1]).astype(np.int64)
            if classes.size == 2
            else np.zeros(y.shape, dtype=np.int64)
        )
    return average_binary_score(metric, y, s, average, w)


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "average": [StrOptions({"micro", "samples", "weighted", "macro"}), None],
        "pos_label": [numbers.Real, str, "boolean"],
        "sample_weight": ["array-like", None],
    }
)
def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Average precision: the step-wise area under the precision-recall curve.

    Follows ``sklearn.metrics.average_precision_score``: same parameters, defaults and results,
    same exceptions and warnings.  AP = sum_n (R_n - R_{n-1}) P_n over the thresholds; binary
    scores, multi-label indicators and multiclass scores (one-vs-rest), one AP a label then
    averaged.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        The true labels, or a multi-label indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        The scores: of ``pos_label`` for a binary target, one column per label or class
        otherwise.
    average : {"micro", "samples", "weighted", "macro"} or None, default="macro"
        How the labels' APs are averaged; None: one AP each.
    pos_label : int, float, bool or str, default=1
        Binary only: the positive class (1 for multi-label and multiclass targets).
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)
        The average precision, or with ``average=None`` one per label.

    Examples
    --------
    >>> from svmeval.metrics import average_precision_score
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    >>> y_true = [[1, 0], [0, 1], [1, 1], [0, 0]]
    >>> y_score = [[0.8, 0.3], [0.4, 0.6], [0.5, 0.2], [0.6, 0.1]]
    >>> round(average_precision_score(y_true, y_score, average="micro"), 4)
    0.747
    """
    w = None if sample_weight is None else column_or_1d(sample_weight, "sample_weight")
    kind = type_of_target(y_true, "y_true")
    y, s = as_array(y_true), y_score
    present = np.unique(y)
    if kind == "binary":
        if present.size == 2 and pos_label not in present:
            raise ValueError(
                f"pos_label={pos_label} is not a valid label. It should be one of {present}"
            )
    elif kind == "multilabel-indicator" and pos_label != 1:
        raise ValueError(
            "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. "
            "Do not set pos_label or set pos_label to 1."
        )
    elif kind == "multiclass":
        if pos_label != 1:
            raise ValueError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. Do not "
                "set pos_label or set pos_label to 1."
            )
        y = _binarize(column_or_1d(y, "y_true"), present)
        if as_array(s).shape != y.shape:
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since "
                f"`y_true` contains multiple classes. Got `y_score.shape={s.shape}`."
            )
    metric = partial(binary_average_precision, pos_label=pos_label)
    return average_binary_score(metric, y, s, average, w)
