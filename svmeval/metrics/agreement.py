"""Accuracy, balanced accuracy, Cohen's kappa, Matthews correlation and the confusion matrix
with scikit-learn's contract (same arguments, defaults, answers, exceptions and warnings as the
``sklearn.metrics`` functions of the same names): numeric or string labels, ``sample_weight``,
multi-label indicators where scikit-learn takes them.

svmeval's own reports keep an undefined figure undefined (NaN) instead of scikit-learn's
replacement values; they use :func:`svmeval.metrics.classification.evaluate`.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from svmeval.metrics.counting import confusion_counts
from svmeval.metrics.target_types import as_array, check_array, check_orderable, check_targets
from svmeval.metrics.undefined import warn_undefined
from svmeval.metrics.validation import Interval, StrOptions, validate_params

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "matthews_corrcoef",
]


def _weighted_mean(score: np.ndarray, w, normalize: bool) -> float:
    if normalize:
        if w is None:
            return float(np.mean(score))
        if w.sum() == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        return float(np.dot(score, w) / w.sum())
    return float(np.dot(score, w)) if w is not None else float(np.count_nonzero(score))


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_pred": ["array-like", "sparse matrix"],
        "normalize": ["boolean"],
        "sample_weight": ["array-like", None],
    }
)
def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None) -> float:
    """Accuracy: the share of samples whose prediction is exactly right.

    Follows ``sklearn.metrics.accuracy_score``: same parameters, defaults and results, same
    exceptions and warnings.  With ``normalize=False`` it is the number (or total weight) of
    samples predicted right; for multi-label indicators a sample counts if its whole label set
    is right.

    Parameters
    ----------
    y_true : array-like or sparse matrix
        The true labels, or a multi-label indicator matrix.
    y_pred : array-like or sparse matrix
        The predicted labels, in the same form as ``y_true``.
    normalize : bool, default=True
        True: the share of samples right; False: their number (total weight).
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float
        The share, or with ``normalize=False`` the number (total weight), of samples right.

    Examples
    --------
    >>> from svmeval.metrics import accuracy_score
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3], normalize=False)
    2.0
    """
    check_orderable(y_true, y_pred)
    kind, _, t, p, w = check_targets(y_true, y_pred, sample_weight)[:5]
    if kind == "multilabel-indicator":
        score = ~np.any((t != 0) != (p != 0), axis=1)
    else:
        score = t == p
    return _weighted_mean(score, w, normalize)


def _check_normalize(normalize):
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(
            f"normalize must be one of {{'true', 'pred', 'all'}} or None, got {normalize!r}"
        )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
        "normalize": [StrOptions({"true", "pred", "all"}), None],
    }
)
def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """The confusion matrix of true against predicted labels.

    Follows ``sklearn.metrics.confusion_matrix``: same parameters, defaults and results, same
    exceptions and warnings.  C[i, j] is the number (total weight) of samples of true label i
    predicted as label j; labels in ascending order, or ``labels=`` in its own order (samples of
    other labels left out).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels (numeric or strings).
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The labels of the rows and columns, in this order; None: those present, ascending.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    normalize : {"true", "pred", "all"}, default=None
        Divide by the rows' sums, the columns' sums or the total (0 / 0 gives 0); None: counts.

    Returns
    -------
    numpy.ndarray of shape (n_classes, n_classes)
        The matrix, rows the true labels and columns the predicted ones.

    Examples
    --------
    >>> from svmeval.metrics import confusion_matrix
    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist()
    [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    >>> y_true = ["cat", "ant", "cat", "cat", "ant", "bird"]
    >>> y_pred = ["ant", "ant", "cat", "cat", "ant", "cat"]
    >>> cm = confusion_matrix(y_true, y_pred, labels=["ant", "bird", "cat"], normalize="true")
    >>> cm.round(4).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.3333, 0.0, 0.6667]]
    """
    _check_normalize(normalize)
    # scikit-learn's order: both arrays read, then the weights' length, then the targets
    y_true, y_pred = (
        check_array(y, ensure_2d=False, numeric=False, finite=False, min_samples=0)
        for y in (y_true, y_pred)
    )
    if sample_weight is None:
        y_true.shape[0]  # noqa: B018 - IndexError for a 0-d array, as scikit-learn
        targets = check_targets(y_true, y_pred)
    else:
        targets = check_targets(y_true, y_pred, sample_weight if len(sample_weight) else None)
    if targets.kind not in ("binary", "multiclass"):
        raise ValueError(f"{targets.kind} is not supported")
    if labels is None:
        chosen = targets.labels
    else:
        chosen = as_array(labels)
        if chosen.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if len(np.intersect1d(targets.y_true, chosen)) == 0:  # TypeError where they do not order
            raise ValueError("At least one label specified must be in y_true")
    cm = confusion_counts(targets, chosen)
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        elif normalize == "all":
            cm = cm / cm.sum()
    if normalize is not None:
        cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        _warn_single_label()
    return cm


def _warn_single_label() -> None:
    warnings.warn(
        "A single label was found in 'y_true' and 'y_pred'. For the confusion "
        "matrix to have the correct shape, use the 'labels' parameter to pass all "
        "known labels.",
        UserWarning,
        stacklevel=3,
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "sample_weight": ["array-like", None],
        "adjusted": ["boolean"],
    }
)
def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False) -> float:
    """Balanced accuracy: the mean recall over the classes present in ``y_true``.

    Follows ``sklearn.metrics.balanced_accuracy_score``: same parameters, defaults and results,
    same exceptions and warnings (a UserWarning where ``y_pred`` has classes not in ``y_true``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    adjusted : bool, default=False
        Rescale so that chance scores 0 (and a perfect prediction 1).

    Returns
    -------
    float
        The balanced accuracy.

    Examples
    --------
    >>> from svmeval.metrics import balanced_accuracy_score
    >>> y_true, y_pred = [0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1]
    >>> balanced_accuracy_score(y_true, y_pred)
    0.625
    >>> balanced_accuracy_score(y_true, y_pred, adjusted=True)
    0.25
    """
    C = confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diag(C) / C.sum(axis=1)
    if np.isnan(per_class).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        chance = 1 / per_class.shape[0]
        score = (score - chance) / (1 - chance)
    return float(score)


def _kappa_weights(n: int, weights) -> np.ndarray:
    if weights is None:
        return 1.0 - np.eye(n)
    grid = np.zeros((n, n)) + np.arange(n)
    if weights == "linear":
        return np.abs(grid - grid.T)
    if weights == "quadratic":
        return (grid - grid.T) ** 2
    raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")


@validate_params(
    {
        "y1": ["array-like"],
        "y2": ["array-like"],
        "labels": ["array-like", None],
        "weights": [StrOptions({"linear", "quadratic"}), None],
        "sample_weight": ["array-like", None],
        "replace_undefined_by": [Interval(numbers.Real, -1.0, 1.0, closed="both"), "nan"],
    }
)
def cohen_kappa_score(
    y1, y2, *, labels=None, weights=None, sample_weight=None, replace_undefined_by: float = np.nan
) -> float:
    """Cohen's kappa: the agreement of two labellings, corrected for chance.

    Follows ``sklearn.metrics.cohen_kappa_score``: same parameters, defaults and results, same
    exceptions and warnings.  Unweighted, or with "linear" / "quadratic" disagreement weights;
    where it is undefined (0 / 0) it is ``replace_undefined_by`` and an
    :class:`~svmeval.metrics.undefined.UndefinedMetricWarning` is raised.  Reference: Cohen
    (1960).

    Parameters
    ----------
    y1 : array-like of shape (n_samples,)
        The labels of the first annotator.
    y2 : array-like of shape (n_samples,)
        The labels of the second annotator.
    labels : array-like of shape (n_classes,), default=None
        The labels to count (in this order for the weights); None: those present.
    weights : {"linear", "quadratic"}, default=None
        The disagreement weights; None: unweighted.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.
    replace_undefined_by : float in [-1, 1] or np.nan, default=np.nan
        The value returned where kappa is undefined.

    Returns
    -------
    float
        Kappa, in [-1, 1].

    Examples
    --------
    >>> from svmeval.metrics import cohen_kappa_score
    >>> y1 = ["negative", "positive", "negative", "neutral", "positive"]
    >>> y2 = ["negative", "positive", "negative", "neutral", "negative"]
    >>> cohen_kappa_score(y1, y2)
    0.6875
    >>> cohen_kappa_score([1, 2, 3, 4, 2], [1, 2, 4, 4, 3], weights="quadratic")
    0.84375
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    if not (
        isinstance(replace_undefined_by, (int, float, np.integer, np.floating))
        and (math.isnan(replace_undefined_by) or -1 <= replace_undefined_by <= 1)
    ):
        raise ValueError(
            "replace_undefined_by must be np.nan or a number in [-1, 1], got "
            f"{replace_undefined_by!r}"
        )
    confusion = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight)
    confusion = confusion.astype(np.float64)
    sum0, sum1 = confusion.sum(axis=0), confusion.sum(axis=1)
    total = sum0.sum()
    if total == 0:
        warn_undefined(
            "`y2` contains no labels that are present in both `y1` and `labels`. "
            "`cohen_kappa_score` is undefined and set to `replace_undefined_by`."
        )
        return replace_undefined_by
    expected = np.outer(sum0, sum1) / total
    w_mat = _kappa_weights(confusion.shape[0], weights)
    denominator = np.sum(w_mat * expected)
    if denominator == 0:
        warn_undefined(
            "`y1`, `y2` and `labels` have only one label in common. "
            "`cohen_kappa_score` is undefined and set to `replace_undefined_by`."
        )
        return replace_undefined_by
    return float(1 - np.sum(w_mat * confusion) / denominator)


@validate_params(
    {"y_true": ["array-like"], "y_pred": ["array-like"], "sample_weight": ["array-like", None]}
)
def matthews_corrcoef(y_true, y_pred, *, sample_weight=None) -> float:
    """Matthews correlation coefficient, in its multiclass form (Gorodkin 2004).

    Follows ``sklearn.metrics.matthews_corrcoef``: same parameters, defaults and results, same
    exceptions and warnings.  0.0 where it is undefined (one class predicted or one class
    true).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float
        The coefficient, in [-1, 1].

    Examples
    --------
    >>> from svmeval.metrics import matthews_corrcoef
    >>> round(matthews_corrcoef([1, 1, 1, -1], [1, -1, 1, 1]), 4)
    -0.3333
    """
    check_orderable(y_true, y_pred)
    targets = check_targets(y_true, y_pred, sample_weight)
    if targets.kind not in ("binary", "multiclass"):
        raise ValueError(f"{targets.kind} is not supported")
    C = confusion_counts(targets, targets.labels)
    if C.shape == (1, 1):
        _warn_single_label()
    return mcc_of_counts(C)


def mcc_of_counts(C) -> float:
    """:func:`matthews_corrcoef` of a confusion matrix ``C`` (rows true, columns predicted;
    any k), without its checks and warnings: 0.0 where it is undefined."""
    C = np.asarray(C)
    t_sum = C.sum(axis=1, dtype=np.float64)
    p_sum = C.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(C, dtype=np.float64)
    n = p_sum.sum()
    cov_ytyp = n_correct * n - np.dot(t_sum, p_sum)
    cov_ypyp = n**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n**2 - np.dot(t_sum, t_sum)
    if cov_ypyp * cov_ytyt == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(cov_ypyp * cov_ytyt))
