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

from svmeval.metrics.curves import check_finite
from svmeval.metrics.rankstats import rank_stats
from svmeval.metrics.targets import (
    as_array,
    check_consistent_length,
    check_sample_weight,
    is_sparse,
    type_of_target,
)

__all__ = ["coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"]


def _check(y_true, y_score, sample_weight, *, sparse_ok: bool, binary_2d_ok: bool = False):
    if is_sparse(y_score) or (is_sparse(y_true) and not sparse_ok):
        raise TypeError("Sparse data was passed, but dense data is required.")
    check_consistent_length(y_true, y_score, sample_weight)
    Y, S = as_array(y_true), as_array(y_score)
    for arr in (Y, S):
        if arr.ndim == 2 and arr.shape[0] < 1:
            raise ValueError(f"Found array with 0 sample(s) (shape={arr.shape}) while a "
                             "minimum of 1 is required.")
    if S.dtype.kind not in "biuf":
        raise ValueError("y_score must hold numbers")
    check_finite(S, "y_score")
    if not sparse_ok and (Y.ndim != 2 or S.ndim != 2):
        raise ValueError("Expected 2D array, got 1D array instead")
    kind = type_of_target(y_true, "y_true")
    if kind != "multilabel-indicator" and not (binary_2d_ok and kind == "binary" and Y.ndim == 2):
        raise ValueError(f"{kind} format is not supported")
    if Y.shape != S.shape:
        raise ValueError("y_true and y_score have different shape")
    w = check_sample_weight(sample_weight, Y.shape[0])
    return Y != 0, S.astype(np.float64, copy=False), w


def _mean(values: np.ndarray, w) -> float:
    return float(np.average(values, weights=w))


def coverage_error(y_true, y_score, *, sample_weight=None) -> float:
    """How far down the ranked labels one must go, on average, to cover every true label (ties
    counted against); a sample with no true label counts 0.  As
    ``sklearn.metrics.coverage_error``.  Reference: Schapire & Singer (2000)."""
    Y, S, w = _check(y_true, y_score, sample_weight, sparse_ok=False)
    return _mean(rank_stats(Y, S).worst_rank.astype(np.float64), w)


def label_ranking_loss(y_true, y_score, *, sample_weight=None) -> float:
    """Mean share of (true, false) label pairs ordered wrongly (a tie is an error); a sample
    with no true or no false label counts 0.  As ``sklearn.metrics.label_ranking_loss``."""
    Y, S, w = _check(y_true, y_score, sample_weight, sparse_ok=True)
    st = rank_stats(Y, S)
    pairs = st.n_pos * st.n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.where(pairs == 0, 0.0, (pairs - st.pairs_above) / pairs)
    return _mean(loss, w)


def label_ranking_average_precision_score(y_true, y_score, *, sample_weight=None) -> float:
    """Label ranking average precision (ties counted against); a sample with no true label or
    only true labels scores 1.  As ``sklearn.metrics.label_ranking_average_precision_score``.
    Reference: Tsoumakas, Katakis & Vlahavas (2010)."""
    Y, S, w = _check(y_true, y_score, sample_weight, sparse_ok=True, binary_2d_ok=True)
    st = rank_stats(Y, S)
    trivial = (st.n_pos == 0) | (st.n_pos == Y.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        per_sample = np.where(trivial, 1.0, st.precision_sum / st.n_pos)
    return _mean(per_sample, w)
