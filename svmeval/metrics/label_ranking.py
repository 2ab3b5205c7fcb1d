"""Label ranking figures of multi-label scores with scikit-learn's contract
(``coverage_error``, ``label_ranking_loss``, ``label_ranking_average_precision_score``):
``sample_weight``, scipy.sparse indicators where scikit-learn takes them, scikit-learn's
exceptions for inputs it refuses (no sample, not an indicator, shapes that differ).

Computed by the one sorted pass of :func:`svmeval.metrics.rankstats.rank_stats` (each sample's
label scores one ranking problem), then averaged with the sample weights.  svmeval's own
versions, which give NaN for no sample, are :func:`svmeval.metrics.ranking.coverage`,
:func:`~svmeval.metrics.ranking.ranking_loss` and
:func:`~svmeval.metrics.ranking.label_ranking_average_precision`.
"""

from __future__ import annotations

import numpy as np

from svmeval.metrics.rankstats import rank_stats
from svmeval.metrics.target_types import check_array, check_consistent_length, type_of_target
from svmeval.metrics.validation import validate_params

__all__ = ["coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"]


def _indicator(Y: np.ndarray, kind: str, S: np.ndarray, *, binary_2d_ok: bool = False):
    if kind != "multilabel-indicator" and not (binary_2d_ok and kind == "binary" and Y.ndim == 2):
        raise ValueError(f"{kind} format is not supported")
    if Y.shape != S.shape:
        raise ValueError("y_true and y_score have different shape")


def _mean(values: np.ndarray, w) -> float:
    """The (weighted) mean, as ``np.average``: weights summing to 0 raise ZeroDivisionError."""
    return float(np.average(values, weights=w))


@validate_params(
    {"y_true": ["array-like"], "y_score": ["array-like"], "sample_weight": ["array-like", None]}
)
def coverage_error(y_true, y_score, *, sample_weight=None) -> float:
    """Coverage error: the mean depth in the label ranking that covers every true label.

    Follows ``sklearn.metrics.coverage_error``: same parameters, defaults and results, same
    exceptions and warnings.  How far down the ranked labels one must go, on average, to cover
    every true label; ties are counted against; a sample with no true label counts 0.
    Reference: Schapire & Singer (2000).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        The true labels, a multi-label indicator matrix.
    y_score : array-like of shape (n_samples, n_labels)
        The labels' scores (higher ranks first).
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float
        The mean (weighted) rank of each sample's lowest-ranked true label.

    Examples
    --------
    >>> from svmeval.metrics import coverage_error
    >>> y_true = [[1, 0, 0], [0, 0, 1]]
    >>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    >>> coverage_error(y_true, y_score)
    2.5
    """
    Y = check_array(y_true, name="y_true")  # scikit-learn's checks, in its order
    S = check_array(y_score, name="y_score")
    check_consistent_length(Y, S, sample_weight)
    _indicator(Y, type_of_target(Y, "y_true"), S)
    return _mean(
        rank_stats(Y != 0, S.astype(np.float64)).worst_rank.astype(np.float64), sample_weight
    )


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_score": ["array-like"],
        "sample_weight": ["array-like", None],
    }
)
def label_ranking_loss(y_true, y_score, *, sample_weight=None) -> float:
    """Label ranking loss: the mean share of (true, false) label pairs ordered wrongly.

    Follows ``sklearn.metrics.label_ranking_loss``: same parameters, defaults and results, same
    exceptions and warnings.  A tie is an error; a sample with no true or no false label
    counts 0.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        The true labels, a multi-label indicator matrix.
    y_score : array-like of shape (n_samples, n_labels)
        The labels' scores (higher ranks first).
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float
        The mean (weighted) share of label pairs ordered wrongly, in [0, 1].

    Examples
    --------
    >>> from svmeval.metrics import label_ranking_loss
    >>> y_true = [[1, 0, 0], [0, 0, 1]]
    >>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    >>> label_ranking_loss(y_true, y_score)
    0.75
    """
    Y = check_array(y_true, name="y_true", ensure_2d=False, accept_sparse=True)
    S = check_array(y_score, name="y_score", ensure_2d=False)
    check_consistent_length(Y, S, sample_weight)
    _indicator(Y, type_of_target(Y, "y_true"), S)
    Y, w = Y != 0, sample_weight
    st = rank_stats(Y, S.astype(np.float64))
    pairs = st.n_pos * st.n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.where(pairs == 0, 0.0, (pairs - st.pairs_above) / pairs)
    return _mean(loss, w)


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_score": ["array-like"],
        "sample_weight": ["array-like", None],
    }
)
def label_ranking_average_precision_score(y_true, y_score, *, sample_weight=None) -> float:
    """Label ranking average precision (LRAP) of multi-label scores.

    Follows ``sklearn.metrics.label_ranking_average_precision_score``: same parameters, defaults
    and results, same exceptions and warnings.  For each true label, the share of true labels
    among those ranked at or above it, averaged; ties are counted against, and a sample with no
    true label or only true labels scores 1.  Reference: Tsoumakas, Katakis & Vlahavas (2010).

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        The true labels, a multi-label indicator matrix.
    y_score : array-like of shape (n_samples, n_labels)
        The labels' scores (higher ranks first).
    sample_weight : array-like of shape (n_samples,), default=None
        The samples' weights.

    Returns
    -------
    float
        The mean (weighted) label ranking average precision.

    Examples
    --------
    >>> from svmeval.metrics import label_ranking_average_precision_score
    >>> y_true = [[1, 0, 0], [0, 0, 1]]
    >>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    >>> round(label_ranking_average_precision_score(y_true, y_score), 4)
    0.4167
    """
    check_consistent_length(y_true, y_score, sample_weight)
    Y = check_array(y_true, name="y_true", ensure_2d=False, accept_sparse=True)
    S = check_array(y_score, name="y_score", ensure_2d=False)
    if Y.shape != S.shape:
        raise ValueError("y_true and y_score have different shape")
    _indicator(Y, type_of_target(Y, "y_true"), S, binary_2d_ok=True)
    Y = Y != 0
    st = rank_stats(Y, S.astype(np.float64))
    trivial = (st.n_pos == 0) | (st.n_pos == Y.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        per_sample = np.where(trivial, 1.0, st.precision_sum / st.n_pos)
    if sample_weight is None:
        return float(np.sum(per_sample) / Y.shape[0])
    w = np.asarray(sample_weight)
    # scikit-learn divides by the weights' sum as numpy does: 0 gives NaN (with its warning)
    return float(np.sum(per_sample * w) / np.sum(w))
